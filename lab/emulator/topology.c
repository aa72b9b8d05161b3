// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench topology. P = "mb<pid>". Two placements of the shared FIFO bottleneck:
 *
 * router (default): one namespace per job sender (P-s<j>) and receiver (P-d<j>), a router
 * (P-r) whose egress towards the receivers is the bottleneck, a switch (P-w) fanning out
 * to the receivers. Drops happen in the router, far from the senders.
 *
 *   P-s0 eth0 198.18.1.1 --- s0 198.18.1.254 \                       / d0 198.19.1.254 --- eth0 198.19.1.1 P-d0
 *   P-s1 eth0 198.18.2.1 --- s1 198.18.2.254 -[ P-r ]--rb===>wb--[ P-w ]-- d1 198.19.2.254 --- eth0 198.19.2.1 P-d1
 *   ...                                  / 198.18.0.1  198.18.0.2   \ ...
 *                                         rb egress: tbf rate R burst B limit L (byte FIFO),
 *                                         or tbf + RED child marking ECN (--ecn-kb)
 *
 * egress: every sender in ONE namespace (P-s) sharing one veth (eb) whose egress carries
 * the same tbf FIFO: jobs sharing a NIC. The senders' TCP sees the queue locally (TCP
 * small queues, qdisc backpressure, local drops).
 *
 *   P-s eb 198.18.0.1 ===>wb 198.18.0.2 --[ P-w ]-- d<j> 198.19.<j+1>.254 --- eth0 198.19.<j+1>.1 P-d<j>
 *        eb egress: tbf (+ RED)
 *
 * Both: data flows towards the receivers through the FIFO, the only shaped link; ACKs
 * return unshaped, through wb's egress in P-w, which carries netem (delay only, FIFO
 * order, limit 100000 packets: no second bottleneck, no reordering) when an RTT is
 * added (--delay-ms). All links are veth; IPv4 forwarding is enabled in P-r and P-w
 * only. Namespaces are made with `ip netns add` (they live under /run/netns) and the
 * links/qdisc with ip/tc run through posix_spawn. topology_destroy() deletes the
 * namespaces, which removes every veth and qdisc with them. TCP's metrics cache is off
 * in the hosts' namespaces (no_metrics_cache()): runs on one topology are independent.
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
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int run_cmd(char *const argv[], const char *out_path, int quiet)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, all;
	pid_t pid;
	int st, err;

	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	sigfillset(&all);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	if (out_path)
		posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC,
						 0644);
	if (quiet)
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	err = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (err) {
		warnx_("cannot run %s: %s", argv[0], strerror(err));
		return -1;
	}
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

/* Build argv from a printf format split at spaces, run it. */
static int cmdf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int cmdf(const char *fmt, ...)
{
	char buf[1024], *argv[64], *save = NULL, *tok;
	int argc = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 63; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return run_cmd(argv, NULL, 0) == 0 ? 0 : -1;
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

static int ns_add(const char *name)
{
	return cmdf("ip netns add %s", name);
}

static void ns_del(const char *name)
{
	char *argv[] = { "ip", "netns", "del", (char *)name, NULL };

	run_cmd(argv, NULL, 1);
}

/* The FIFO (tbf, + RED marking ECN) on ns:dev's egress, and netem on the ACK path. */
static int add_qdiscs(struct topology *t, const struct topo_opts *o, const char *ns,
		      const char *dev)
{
	uint64_t rate_bit = (uint64_t)(o->rate_mbit * 1e6);

	if (cmdf("tc -n %s qdisc add dev %s root handle 1: tbf rate %" PRIu64 "bit burst %" PRIu64
		 " limit %" PRIu64,
		 ns, dev, rate_bit, o->burst_bytes, o->queue_bytes))
		return -1;
	if (o->ecn_bytes) {
		/* DCTCP-style marking: min = max - 1 packet, probability 1, RED's average
		 * following the instantaneous queue as closely as tc allows (burst). */
		uint64_t minb = o->ecn_bytes, maxb = o->ecn_bytes + 1500;
		uint64_t burst = minb / 1500 + 1;

		if (cmdf("tc -n %s qdisc add dev %s parent 1:1 handle 10: red limit %" PRIu64
			 " min %" PRIu64 " max %" PRIu64 " avpkt 1500 burst %" PRIu64
			 " bandwidth %" PRIu64 "bit probability 1.0 ecn",
			 ns, dev, o->queue_bytes, minb, maxb, burst, rate_bit))
			return -1;
	}
	if (o->delay_ms > 0 &&
	    cmdf("tc -n %s qdisc add dev wb root netem delay %.3fms limit 100000", t->switch_ns,
		 o->delay_ms))
		return -1;
	snprintf(t->bott_ns, sizeof(t->bott_ns), "%s", ns);
	snprintf(t->bott_dev, sizeof(t->bott_dev), "%s", dev);
	return 0;
}

/* Receivers behind the switch: d<j> in W, eth0 198.19.<j+1>.1 in D<j>. */
/*
 * Host j of one side: namespace @host with eth0 (198.NET.(j+1).1/24) on a veth whose other
 * end, <@dev>j (198.NET.(j+1).254/24), sits in @hub; default route through the hub.
 */
static int attach_host(const char *hub, const char *host, char dev, unsigned net, unsigned j,
		       unsigned mtu)
{
	return ns_add(host) ||
	       cmdf("ip -n %s link add %c%u mtu %u type veth peer name eth0 mtu %u netns %s", hub,
		    dev, j, mtu, mtu, host) ||
	       cmdf("ip -n %s addr add 198.%u.%u.254/24 dev %c%u", hub, net, j + 1, dev, j) ||
	       cmdf("ip -n %s addr add 198.%u.%u.1/24 dev eth0", host, net, j + 1) ||
	       cmdf("ip -n %s link set %c%u up", hub, dev, j) ||
	       cmdf("ip -n %s link set lo up", host) || cmdf("ip -n %s link set eth0 up", host) ||
	       cmdf("ip -n %s route add default via 198.%u.%u.254", host, net, j + 1) ? -1 : 0;
}

static int add_receivers(struct topology *t, const struct topo_opts *o)
{
	const char *W = t->switch_ns;

	for (unsigned j = 0; j < t->njobs; j++) {
		const char *D = t->rcv_ns[j];

		if (attach_host(W, D, 'd', 19, j, o->mtu))
			return -1;
		snprintf(t->rcv_addr[j], sizeof(t->rcv_addr[j]), "198.19.%u.1", j + 1);
	}
	return netns_sysctl(W, "net.ipv4.ip_forward", "1");
}

static int topology_build_egress(struct topology *t, const struct topo_opts *o)
{
	const char *S = t->snd_ns[0], *W = t->switch_ns;

	if (ns_add(S) || ns_add(W) ||
	    cmdf("ip -n %s link add eb mtu %u type veth peer name wb mtu %u netns %s", S, o->mtu,
		 o->mtu, W) ||
	    cmdf("ip -n %s addr add 198.18.0.1/30 dev eb", S) ||
	    cmdf("ip -n %s addr add 198.18.0.2/30 dev wb", W) || cmdf("ip -n %s link set lo up", S) ||
	    cmdf("ip -n %s link set lo up", W) || cmdf("ip -n %s link set eb up", S) ||
	    cmdf("ip -n %s link set wb up", W) ||
	    cmdf("ip -n %s route add 198.19.0.0/16 via 198.18.0.2", S) || add_receivers(t, o))
		return -1;
	return add_qdiscs(t, o, S, "eb");
}

static int topology_build(struct topology *t, const struct topo_opts *o)
{
	const char *R = t->router_ns, *W = t->switch_ns;

	if (ns_add(R) || ns_add(W))
		return -1;
	if (cmdf("ip -n %s link add rb mtu %u type veth peer name wb mtu %u netns %s", R, o->mtu,
		 o->mtu, W) ||
	    cmdf("ip -n %s addr add 198.18.0.1/30 dev rb", R) ||
	    cmdf("ip -n %s addr add 198.18.0.2/30 dev wb", W) || cmdf("ip -n %s link set lo up", R) ||
	    cmdf("ip -n %s link set lo up", W) || cmdf("ip -n %s link set rb up", R) ||
	    cmdf("ip -n %s link set wb up", W) || add_receivers(t, o))
		return -1;
	for (unsigned j = 0; j < t->njobs; j++) {
		const char *S = t->snd_ns[j];

		if (attach_host(R, S, 's', 18, j, o->mtu))
			return -1;
	}
	if (cmdf("ip -n %s route add 198.19.0.0/16 via 198.18.0.2", R) ||
	    cmdf("ip -n %s route add 198.18.0.0/16 via 198.18.0.1", W) ||
	    netns_sysctl(R, "net.ipv4.ip_forward", "1"))
		return -1;
	return add_qdiscs(t, o, R, "rb");
}

/* Job j's sender namespace is its own, not job 0's (egress: every sender shares one). */
static bool own_snd_ns(const struct topology *t, unsigned j)
{
	return !j || strcmp(t->snd_ns[j], t->snd_ns[0]);
}

/*
 * The ideal and every run (--runs) connect the same hosts again; TCP's metrics cache
 * would start each connection from the ssthresh and RTT the previous one left for that
 * destination, so one run's losses would shape the next run's first iterations.  Every
 * run starts from nothing instead (--sysctl can set it back).
 */
static int no_metrics_cache(const struct topology *t)
{
	for (unsigned j = 0; j < t->njobs; j++) {
		if (own_snd_ns(t, j) &&
		    netns_sysctl(t->snd_ns[j], "net.ipv4.tcp_no_metrics_save", "1"))
			return -1;
		if (netns_sysctl(t->rcv_ns[j], "net.ipv4.tcp_no_metrics_save", "1"))
			return -1;
	}
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

	memset(t, 0, sizeof(*t));
	t->njobs = njobs;
	snprintf(t->prefix, sizeof(t->prefix), "mb%d", (int)getpid());
	if (!o->egress)
		snprintf(t->router_ns, sizeof(t->router_ns), "%s-r", t->prefix);
	snprintf(t->switch_ns, sizeof(t->switch_ns), "%s-w", t->prefix);
	for (unsigned j = 0; j < njobs; j++) {
		if (o->egress)
			snprintf(t->snd_ns[j], sizeof(t->snd_ns[j]), "%s-s", t->prefix);
		else
			snprintf(t->snd_ns[j], sizeof(t->snd_ns[j]), "%s-s%u", t->prefix, j);
		snprintf(t->rcv_ns[j], sizeof(t->rcv_ns[j]), "%s-d%u", t->prefix, j);
	}
	t->created = 1;
	active = t;
	if (!registered) {
		atexit(destroy_active);
		registered = 1;
	}
	if ((o->egress ? topology_build_egress(t, o) : topology_build(t, o)) ||
	    no_metrics_cache(t)) {
		warnx_("building the topology failed (needs root, ip/tc, veth and sch_tbf%s%s)",
		       o->ecn_bytes ? ", sch_red" : "", o->delay_ms > 0 ? ", sch_netem" : "");
		topology_destroy(t);
		return -1;
	}
	return 0;
}

void topology_destroy(struct topology *t)
{
	if (!t->created)
		return;
	t->created = 0;
	for (unsigned j = 0; j < t->njobs; j++) {
		if (own_snd_ns(t, j))
			ns_del(t->snd_ns[j]);
		ns_del(t->rcv_ns[j]);
	}
	if (t->router_ns[0])
		ns_del(t->router_ns);
	ns_del(t->switch_ns);
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
