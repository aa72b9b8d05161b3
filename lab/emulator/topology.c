// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench topology: built and removed by selftests/topology.sh (its layout bench, the
 * drawing at its top), which the emulator runs; P = "mb<pid>". Two placements of the
 * shared FIFO bottleneck (tbf, + a RED child marking ECN with --ecn-kb):
 *
 * router (default): one namespace per job sender (P-s<j>) and receiver (P-d<j>), a router
 * (P-r) whose egress towards the receivers (rb) is the bottleneck, a switch (P-w)
 * fanning out to the receivers. Drops happen in the router, far from the senders.
 *
 *   P-s<j> eth0 198.18.<j+1>.1 -- P-r --rb 198.18.0.1 ===> wb 198.18.0.2-- P-w --
 *                                                       d<j> -- eth0 198.19.<j+1>.1 P-d<j>
 *
 * egress: every sender in ONE namespace (P-s, the builder's shared sender) whose veth to
 * the switch (eb) carries the FIFO: jobs sharing a NIC. The senders' TCP sees the queue
 * locally (TCP small queues, qdisc backpressure, local drops).
 *
 * Both: ACKs return unshaped through wb, which carries netem when an RTT is added
 * (--delay-ms); TSO/GSO stay as the kernel has them; TCP's metrics cache is off in the
 * hosts' namespaces, so runs on one topology are independent. The builder prints the
 * namespaces and addresses of each job and where the FIFO is; topology_destroy() runs
 * it again to delete the namespaces, which removes every veth and qdisc with them.
 */
#define _GNU_SOURCE
#include "topology.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* posix_spawnp @argv with @fa and default signal handling; its pid, or -1 (reported). */
static pid_t spawn(char *const argv[], posix_spawn_file_actions_t *fa)
{
	posix_spawnattr_t at;
	sigset_t none, all;
	pid_t pid;
	int err;

	posix_spawnattr_init(&at);
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	err = posix_spawnp(&pid, argv[0], fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	if (err) {
		warnx_("cannot run %s: %s", argv[0], strerror(err));
		return -1;
	}
	return pid;
}

/* Wait for @pid, started from @argv: run_cmd()'s status. */
static int reap_cmd(pid_t pid, char *const argv[], int quiet)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st)) {
		if (WEXITSTATUS(st) && !quiet) {
			char line[1024];
			size_t off = 0;

			for (int i = 0; argv[i] && off < sizeof(line) - 1; i++)
				off += (size_t)snprintf(line + off, sizeof(line) - off, "%s%s",
							i ? " " : "", argv[i]);
			warnx_("command failed (exit %d): %s", WEXITSTATUS(st), line);
		}
		return WEXITSTATUS(st);
	}
	warnx_("%s killed by signal %d", argv[0], WTERMSIG(st));
	return 128 + WTERMSIG(st);
}

int run_cmd(char *const argv[], const char *out_path, int quiet)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	if (out_path)
		posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC,
						 0644);
	if (quiet)
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid = spawn(argv, &fa);
	posix_spawn_file_actions_destroy(&fa);
	return pid < 0 ? -1 : reap_cmd(pid, argv, quiet);
}

/* run_cmd() with the command's stdout in @buf (NUL-terminated; what does not fit is
 * read and dropped). */
static int run_read(char *const argv[], char *buf, size_t len)
{
	posix_spawn_file_actions_t fa;
	size_t n = 0;
	int fd[2];
	pid_t pid;

	if (pipe2(fd, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	pid = spawn(argv, &fa);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	for (;;) {
		char drop[512];
		int room = n < len - 1;
		ssize_t r = read(fd[0], room ? buf + n : drop, room ? len - 1 - n : sizeof(drop));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (room)
			n += (size_t)r;
	}
	close(fd[0]);
	buf[n] = '\0';
	return pid < 0 ? -1 : reap_cmd(pid, argv, 0);
}

int netns_enter(const char *ns, char *err, size_t errlen)
{
	char path[NS_NAME_MAX + 16];
	int fd;

	if (!ns || !*ns)
		return 0;
	if (ns[0] == '/')
		snprintf(path, sizeof(path), "%s", ns);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return seterr(err, errlen, "network namespace %s: %s", path, strerror(errno));
	if (setns(fd, CLONE_NEWNET)) {
		int e = errno;

		close(fd);
		return seterr(err, errlen, "setns %s: %s", path, strerror(e));
	}
	close(fd);
	return 0;
}

int netns_sysctl(const char *ns, const char *key, const char *val)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		char path[256], err[256];
		int fd;

		if (netns_enter(ns, err, sizeof(err))) {
			warnx_("%s", err);
			_exit(1);
		}
		snprintf(path, sizeof(path), "/proc/sys/%s", key);
		for (char *p = path + 10; *p; p++)
			if (*p == '.')
				*p = '/';
		fd = open(path, O_WRONLY);
		if (fd < 0 || write_full(fd, val, strlen(val))) {
			warnx_("sysctl %s=%s in %s: %s", key, val, *ns ? ns : "current namespace",
			       strerror(errno));
			_exit(1);
		}
		close(fd);
		_exit(0);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static void ns_del(const char *name)
{
	char *argv[] = { "ip", "netns", "del", (char *)name, NULL };

	run_cmd(argv, NULL, 1);
}

/* The builder's words for @t's options, each a string of its own. */
struct builder_words {
	char njobs[16], rate[32], buffer[24], burst[24], mtu[16], ecn_min[24], ecn_max[24];
	char delay[32];
};

/*
 * selftests/topology.sh @cmd for @t (its layout bench), into @argv (32 entries). The rate
 * goes in full precision, so that the builder's bits are the C cast's of rate x 1e6.
 */
static void builder_argv(const struct topology *t, const char *cmd, char *argv[],
			 struct builder_words *w)
{
	const struct topo_opts *o = &t->opts;
	unsigned n = 0;

	snprintf(w->njobs, sizeof(w->njobs), "%u", t->njobs);
	snprintf(w->rate, sizeof(w->rate), "%.17g", o->rate_mbit);
	snprintf(w->buffer, sizeof(w->buffer), "%" PRIu64, o->queue_bytes);
	snprintf(w->burst, sizeof(w->burst), "%" PRIu64, o->burst_bytes);
	snprintf(w->mtu, sizeof(w->mtu), "%u", o->mtu);
	/* DCTCP-style marking: max = min + 1 packet */
	snprintf(w->ecn_min, sizeof(w->ecn_min), "%" PRIu64, o->ecn_bytes);
	snprintf(w->ecn_max, sizeof(w->ecn_max), "%" PRIu64, o->ecn_bytes + 1500);
	snprintf(w->delay, sizeof(w->delay), "%.3f", o->delay_ms);
	argv[n++] = TOPOLOGY_SH;
	argv[n++] = (char *)cmd;
	argv[n++] = (char *)t->prefix;
	argv[n++] = "--layout";
	argv[n++] = "bench";
	argv[n++] = "--senders";
	argv[n++] = w->njobs;
	argv[n++] = "--placement";
	argv[n++] = o->egress ? "egress" : "router";
	if (o->egress)
		argv[n++] = "--shared-sender";
	argv[n++] = "--rate";
	argv[n++] = w->rate;
	argv[n++] = "--buffer";
	argv[n++] = w->buffer;
	argv[n++] = "--burst";
	argv[n++] = w->burst;
	argv[n++] = "--mtu";
	argv[n++] = w->mtu;
	argv[n++] = "--offloads";
	argv[n++] = "keep";
	if (o->ecn_bytes) {
		argv[n++] = "--qdisc";
		argv[n++] = "red-ecn";
		argv[n++] = "--ecn-min";
		argv[n++] = w->ecn_min;
		argv[n++] = "--ecn-max";
		argv[n++] = w->ecn_max;
	}
	if (o->delay_ms > 0) {
		argv[n++] = "--delay";
		argv[n++] = w->delay;
	}
	argv[n] = NULL;
}

/* The builder's report (selftests/topology.sh) into @t: each job's namespaces and
 * receiver address, the FIFO. 0 when every job has them. */
static int read_report(struct topology *t, char *report)
{
	char *save = NULL;

	for (char *l = strtok_r(report, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char what[16], ns[NS_NAME_MAX], a[ADDR_MAX], dev[sizeof(t->bott_dev)];
		unsigned j;

		if (sscanf(l, "%15s %u %95s %63s", what, &j, ns, a) == 4 && j < t->njobs) {
			if (!strcmp(what, "sender")) {
				snprintf(t->snd_ns[j], sizeof(t->snd_ns[j]), "%s", ns);
			} else if (!strcmp(what, "receiver")) {
				snprintf(t->rcv_ns[j], sizeof(t->rcv_ns[j]), "%s", ns);
				snprintf(t->rcv_addr[j], sizeof(t->rcv_addr[j]), "%s", a);
			}
		} else if (sscanf(l, "fifo %95s %31s", ns, dev) == 2) {
			snprintf(t->bott_ns, sizeof(t->bott_ns), "%s", ns);
			snprintf(t->bott_dev, sizeof(t->bott_dev), "%s", dev);
		}
	}
	for (unsigned j = 0; j < t->njobs; j++)
		if (!t->snd_ns[j][0] || !t->rcv_ns[j][0] || !t->rcv_addr[j][0])
			return -1;
	return 0;
}

static struct topology *active;

static void destroy_active(void)
{
	if (active)
		topology_destroy(active);
}

int topology_create(struct topology *t, unsigned njobs, const struct topo_opts *o)
{
	static int registered;
	struct builder_words w;
	char *argv[32], report[8192];

	memset(t, 0, sizeof(*t));
	t->njobs = njobs;
	t->opts = *o;
	snprintf(t->prefix, sizeof(t->prefix), "mb%d", (int)getpid());
	t->created = 1;
	active = t;
	if (!registered) {
		atexit(destroy_active);
		registered = 1;
	}
	builder_argv(t, "up", argv, &w);
	if (run_read(argv, report, sizeof(report)) || read_report(t, report)) {
		warnx_("building the topology failed (needs root, ip/tc, veth and sch_tbf%s%s)",
		       o->ecn_bytes ? ", sch_red" : "", o->delay_ms > 0 ? ", sch_netem" : "");
		topology_destroy(t);
		return -1;
	}
	return 0;
}

void topology_destroy(struct topology *t)
{
	struct builder_words w;
	char *argv[32];

	if (!t->created)
		return;
	t->created = 0;
	builder_argv(t, "down", argv, &w);
	run_cmd(argv, NULL, 0);
	if (active == t)
		active = NULL;
}

int topology_cleanup_stale(void)
{
	DIR *d = opendir("/run/netns");
	struct dirent *e;
	int removed = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(e->d_name, "mb", 2))
			continue;
		pid = strtol(e->d_name + 2, &end, 10);
		if (end == e->d_name + 2 || *end != '-' || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno == EPERM)
			continue;
		ns_del(e->d_name);
		printf("removed stale namespace %s\n", e->d_name);
		removed++;
	}
	closedir(d);
	return removed;
}

int topology_tc_snapshot(const struct topology *t, const char *path)
{
	char *argv[] = { "tc", "-s", "-n", (char *)t->bott_ns, "qdisc", "show", "dev",
			 (char *)t->bott_dev, NULL };
	char *argv_here[] = { "tc", "-s", "qdisc", "show", "dev", (char *)t->bott_dev, NULL };

	if (!t->bott_dev[0])
		return 0;
	if (t->bott_ns[0] == '/')
		return 0; /* tc -n takes names only; path namespaces get no snapshot */
	return run_cmd(t->bott_ns[0] ? argv : argv_here, path, 0) == 0 ? 0 : -1;
}
