// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-failnth: fails, in turn, each kernel allocation one MLTCP control
 * operation makes (fault injection through /proc/thread-self/fail-nth and
 * failslab), and checks that the operation then fails cleanly and changes
 * nothing.
 *
 *	mltcp-failnth [-m MAX] OP [MODULE.ko]
 *
 * For N = 1, 2, ... it makes the Nth allocation of OP fail, until OP makes
 * fewer than N (or N passes MAX, default 2000).  With -m 0 it makes OP
 * once without a fault, and needs no fault injection.  OP is one of:
 *
 *   get-params     MLTCP_CMD_GET_PARAMS
 *   set-params     MLTCP_CMD_SET_PARAMS of idle_ms (a new value each time):
 *                  after a failure idle_ms is what it was, after a success
 *                  the new value
 *   dump-sockets   MLTCP_CMD_GET_SOCKETS over this program's connection:
 *                  a dump that ends without error reports it
 *   dump-counters  MLTCP_CMD_GET_COUNTERS: same, one message per algorithm
 *   sockopt        the per-socket options (size, mark, state): after a
 *                  failure the state reads back as before
 *   switch         TCP_CONGESTION to mltcp_reno on an established reno
 *                  connection and back: after a failure the socket runs
 *                  the algorithm it ran
 *   netns          unshare(CLONE_NEWNET) in a child (the modules' per
 *                  namespace memory): it succeeds or fails, with whatever
 *                  errno the kernel's namespace setup gives
 *   load           finit_module(MODULE.ko): after a failure (with whatever
 *                  errno the kernel's loader gives) the module is not
 *                  loaded; after a success it offers what it registers
 *                  (the core: parameters and netlink family; an algorithm:
 *                  its name) and unloads again
 *
 * A failed operation must fail with ENOMEM or ENOBUFS (the errnos an
 * allocation failure gives; a netlink ENOBUFS can also mean that only the
 * kernel's answer was lost, the request done); anything else, or a broken
 * post-condition, is printed as "unclean N ...".  The last line is
 *
 *	OP points P ok A failed F unclean U
 *
 * Exit status: 0 when nothing was unclean, 1 otherwise, 2 on a usage or
 * setup error, 4 when the kernel has no fail-nth (no fault injection).
 * Needs root, failslab set to inject into sleeping allocations too
 * (debugfs failslab/ignore-gfp-wait = N), and the modules loaded (for
 * load: MODULE's dependencies only).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <libmnl/libmnl.h>
#include <linux/mltcp.h>

#include "mltcp/libmltcp.h"
#include "common.h"
#include "nlraw.h"

static int fail_fd = -1;

/* the Nth fault-injection point this thread passes fails (0: none) */
static void inject(unsigned int n)
{
	char b[16];
	int len = snprintf(b, sizeof(b), "%u", n);

	if (fail_fd < 0)
		return;
	if (pwrite(fail_fd, b, (size_t)len, 0) != len) {
		perror("mltcp-failnth: fail-nth");
		exit(2);
	}
}

/* whether the last armed failure was injected (see disarm()) */
static bool hit;

/* records in hit whether the failure was injected, and disarms it if not */
static void disarm(void)
{
	char b[16] = "";

	hit = false;
	if (fail_fd < 0)
		return;
	if (pread(fail_fd, b, sizeof(b) - 1, 0) < 0) {
		perror("mltcp-failnth: fail-nth");
		exit(2);
	}
	hit = atoi(b) == 0;
	if (!hit)
		inject(0);
}

static int read_idle_ms(void)
{
	FILE *f = fopen("/sys/module/mltcp/parameters/idle_ms", "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * A netlink request, the Nth allocation of its exchange failing (0: none;
 * the socket and the family lookup come before).  Return: 0 or a positive
 * errno, -1 when the socket could not be set up; *@nmsgs counts the data
 * messages.
 */
static int nl_request(unsigned int n, uint8_t cmd, uint16_t flags, int idle_ms, int *nmsgs)
{
	struct nlraw *nl = nlraw_open();
	struct nlmsghdr *nlh;
	char msg[256];
	int err;

	if (!nl)
		return -1;
	nlh = nlraw_req(nl, cmd, flags);
	if (idle_ms >= 0)
		mnl_attr_put_u32(nlh, MLTCP_A_IDLE_MS, (uint32_t)idle_ms);
	inject(n);
	err = -nlraw_xfer(nl, nlh, msg, sizeof(msg), nmsgs);
	disarm();
	nlraw_close(nl);
	return err;
}

static int cc_of(int fd, char *name, size_t len)
{
	socklen_t l = (socklen_t)len;

	memset(name, 0, len);
	return getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &l);
}

struct ctx {
	struct conn mltcp;	/* an mltcp_reno connection */
	struct conn reno;	/* a reno connection, for switch */
	int want_msgs;		/* what the dump reports without faults */
	const char *module;	/* for load: the .ko and its name */
	char modname[64];
};

/*
 * A module that loaded offers what it registers: the core its parameters
 * and netlink family, an algorithm its name to TCP_CONGESTION.
 */
static bool module_works(const char *name)
{
	char list[1024] = "", word[64];
	const char *p = list;
	struct nlraw *nl;
	FILE *f;
	int n;

	if (!strcmp(name, "mltcp")) {
		nl = nlraw_open();
		nlraw_close(nl);
		return nl && read_idle_ms() > 0;
	}
	f = fopen("/proc/sys/net/ipv4/tcp_available_congestion_control", "r");
	if (!f)
		return false;
	if (!fgets(list, sizeof(list), f))
		list[0] = '\0';
	fclose(f);
	while (sscanf(p, "%63s%n", word, &n) == 1) {
		if (!strcmp(word, name))
			return true;
		p += n;
	}
	return false;
}

static uint8_t dump_cmd(const char *op)
{
	return !strcmp(op, "dump-sockets") ? MLTCP_CMD_GET_SOCKETS : MLTCP_CMD_GET_COUNTERS;
}

/*
 * One operation, the Nth allocation it makes failing; sets hit.
 * Return: 0 or the (positive) errno it failed with, -1 on a setup error;
 * *@unclean is set to a reason when a post-condition broke.
 */
static int run_op(const char *op, struct ctx *c, unsigned int n, const char **unclean)
{
	struct mltcp_info st;
	uint64_t before, want;
	int err = 0, nmsgs = 0, fd;
	char cc[16];

	*unclean = NULL;
	if (!strcmp(op, "get-params")) {
		err = nl_request(n, MLTCP_CMD_GET_PARAMS, 0, -1, NULL);
	} else if (!strcmp(op, "set-params")) {
		int old = read_idle_ms(), ms = 100 + (int)(n % 900);

		if (ms == old)
			ms++;
		err = nl_request(n, MLTCP_CMD_SET_PARAMS, 0, ms, NULL);
		/*
		 * ENOBUFS is netlink's "an answer was lost": the kernel could
		 * not allocate its acknowledgement, so the request may have
		 * been carried out; every other error must change nothing.
		 */
		if (err > 0 && err != ENOBUFS && read_idle_ms() != old)
			*unclean = "a failed request changed idle_ms";
		if (err == ENOBUFS && read_idle_ms() != old && read_idle_ms() != ms)
			*unclean = "idle_ms is neither the old value nor the new";
		if (!err && read_idle_ms() != ms)
			*unclean = "a request that succeeded did not set idle_ms";
	} else if (!strncmp(op, "dump-", 5)) {
		err = nl_request(n, dump_cmd(op), NLM_F_DUMP, -1, &nmsgs);
		if (!err && nmsgs != c->want_msgs)
			*unclean = "a dump that ended without error left messages out";
	} else if (!strcmp(op, "sockopt")) {
		if (mltcp_get_state(c->mltcp.cli, &st) < 0)
			return -1;
		before = st.bytes_per_iter;
		want = (1 << 20) + n;
		inject(n);
		if (mltcp_set_bytes_per_iter(c->mltcp.cli, want) < 0 ||
		    mltcp_iteration_begin(c->mltcp.cli, 0) < 0 ||
		    mltcp_get_state(c->mltcp.cli, &st) < 0)
			err = errno;
		disarm();
		/* a later option may fail after the size was set */
		if (mltcp_get_state(c->mltcp.cli, &st) < 0 ||
		    (st.bytes_per_iter != want && (!err || st.bytes_per_iter != before)))
			*unclean = "the socket's size is neither the old one nor the new";
	} else if (!strcmp(op, "switch")) {
		inject(n);
		err = setsockopt(c->reno.cli, IPPROTO_TCP, TCP_CONGESTION, "mltcp_reno", 10) < 0 ?
		      errno : 0;
		disarm();
		if (cc_of(c->reno.cli, cc, sizeof(cc)) < 0 ||
		    strcmp(cc, err ? "reno" : "mltcp_reno"))
			*unclean = "the socket does not run the algorithm the switch's result says";
		if (!err && setsockopt(c->reno.cli, IPPROTO_TCP, TCP_CONGESTION, "reno", 4) < 0)
			*unclean = "the switch back to reno failed";
	} else if (!strcmp(op, "netns")) {
		pid_t pid = fork();
		int status;

		if (pid < 0)
			return -1;
		if (!pid) {
			/* the inherited descriptor is the parent thread's file */
			if (fail_fd >= 0) {
				close(fail_fd);
				fail_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
				if (fail_fd < 0)
					_exit(254);
			}
			inject(n);
			err = unshare(CLONE_NEWNET) < 0 ? errno : 0;
			disarm();
			/* 255: not injected (fewer allocations than n) */
			_exit(hit ? err : 255);
		}
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
			return -1;
		err = WEXITSTATUS(status);
		if (err == 254)
			return -1;
		hit = err != 255;
		if (!hit)
			err = 0;
	} else if (!strcmp(op, "load")) {
		char path[128];

		fd = open(c->module, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		inject(n);
		err = syscall(SYS_finit_module, fd, "", 0) < 0 ? errno : 0;
		disarm();
		close(fd);
		snprintf(path, sizeof(path), "/sys/module/%s", c->modname);
		if (err && !access(path, F_OK))
			*unclean = "after a failed load the module is there";
		if (!err && !module_works(c->modname))
			*unclean = "a module that loaded does not offer what it registers";
		if (!err && syscall(SYS_delete_module, c->modname, O_NONBLOCK) < 0)
			*unclean = "the module that loaded does not unload";

	} else {
		errno = EINVAL;
		return -1;
	}
	return err;
}

int main(int argc, char **argv)
{
	static struct ctx c;
	unsigned int n, max = 2000, points = 0, ok = 0, failed = 0, unclean = 0;
	const char *op, *why;
	int opt, err;
	long v;

	while ((opt = getopt(argc, argv, "m:")) != -1) {
		if (opt != 'm' || parse_long(optarg, 0, 100000, &v, "MAX"))
			goto usage;
		max = (unsigned int)v;
	}
	if (optind >= argc)
		goto usage;
	op = argv[optind];
	setvbuf(stdout, NULL, _IOLBF, 0);

	fail_fd = max ? open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC) : -1;
	if (max && fail_fd < 0) {
		printf("unsupported: /proc/thread-self/fail-nth: %s\n", strerror(errno));
		return 4;
	}
	if (!strcmp(op, "load")) {
		const char *base;
		size_t len;

		if (optind + 1 >= argc)
			goto usage;
		c.module = argv[optind + 1];
		base = strrchr(c.module, '/');
		base = base ? base + 1 : c.module;
		len = strcspn(base, ".");
		if (len >= sizeof(c.modname))
			goto usage;
		memcpy(c.modname, base, len);
	} else if (conn_open(&c.mltcp, AF_INET, "mltcp_reno") < 0 ||
		   conn_open(&c.reno, AF_INET, "reno") < 0) {
		printf("setup: connections: %s\n", strerror(errno));
		return 2;
	}
	if (!strncmp(op, "dump-", 5)) {
		err = nl_request(0, dump_cmd(op), NLM_F_DUMP, -1, &c.want_msgs);
		if (err) {
			printf("setup: the dump without faults: %s\n",
			       err > 0 ? errname(err) : strerror(errno));
			return 2;
		}
	}

	for (n = max ? 1 : 0; n <= max; n++) {
		err = run_op(op, &c, n, &why);
		if (err < 0) {
			printf("setup: %s: %s\n", op, strerror(errno));
			return 2;
		}
		if (n && !hit)
			break;
		points += n > 0;
		if (!err) {
			ok++;
		} else {
			failed++;
			/*
			 * The kernel's module loader and its namespace setup
			 * give errnos of their own (EIO, ELOOP; EEXIST, ENODEV,
			 * ENFILE, ...) for a failed allocation.
			 */
			if (err != ENOMEM && err != ENOBUFS && strcmp(op, "load") &&
			    strcmp(op, "netns") && !why)
				why = "failed with an errno an allocation failure does not give";
		}
		if (why) {
			unclean++;
			printf("unclean %u %s: %s (%s)\n", n, op, why, err ? errname(err) : "ok");
		}
	}
	printf("%s points %u ok %u failed %u unclean %u%s\n", op, points, ok, failed,
	       unclean, max && n > max ? " (stopped at MAX)" : "");
	return unclean ? 1 : 0;
usage:
	fprintf(stderr, "usage: mltcp-failnth [-m MAX] OP [MODULE.ko]\n");
	return 2;
}
