// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-stress: random MLTCP socket options and netlink requests from
 * several threads while traffic flows (TAP).
 *
 *	mltcp-stress [-c CALLS] [-t THREADS] [-n CONNS] [-s SEED]
 *
 * CONNS loopback connections (IPv4 and IPv6, mltcp_reno and mltcp_cubic)
 * carry bulk traffic.  THREADS workers make CALLS calls in total, each one
 * of: an MLTCP setsockopt/getsockopt with a random option number near the
 * MLTCP range, length, value and (in)valid pointer on a random socket
 * (MLTCP connections, their non-MLTCP peers, listening, unconnected, UDP
 * sockets, sockets being closed and reopened); a TCP_CONGESTION switch of
 * a loaded connection between MLTCP and non-MLTCP algorithms; a netlink
 * request (parameters get/set with valid and invalid values, socket and
 * counter dumps, malformed messages).  Every failure must carry an errno
 * the ABI documents.  The global parameters are restored at the end.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

#include "mltcp/libmltcp.h"
#include "common.h"
#include "nlraw.h"

#define MAX_CONNS 16
#define NCHURN 4

static struct conn conns[MAX_CONNS];
static int nconns = 8;
static int static_fds[8];
static int nstatic;
/* sockets closed and reopened by the workers; -1 while being replaced */
static _Atomic int churn_fds[NCHURN];
static pthread_mutex_t churn_lock[NCHURN];
static atomic_bool stop_traffic;
static atomic_long calls_done, calls_ok;
static atomic_long errcount[256];
static long calls_total = 100000;
static int nthreads = 4;
static const char *const algos[] = { "mltcp_reno", "mltcp_cubic", "reno", "cubic" };

static uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static void *traffic(void *arg)
{
	struct conn *c = arg;

	while (!atomic_load(&stop_traffic))
		if (send_all(c->cli, 65536) < 0)
			break;
	return NULL;
}

static void count(int ret, int err)
{
	atomic_fetch_add(&calls_done, 1);
	if (ret >= 0)
		atomic_fetch_add(&calls_ok, 1);
	else
		atomic_fetch_add(&errcount[err & 255], 1);
}

static int pick_fd(uint64_t *s, int *churn_idx)
{
	unsigned int r = (unsigned int)(rnd(s) % 10);

	*churn_idx = -1;
	if (r < 5)
		return conns[rnd(s) % (uint64_t)nconns].cli;
	if (r < 6)
		return conns[rnd(s) % (uint64_t)nconns].srv;
	if (r < 8) {
		*churn_idx = (int)(rnd(s) % NCHURN);
		return -2;	/* locked by the caller */
	}
	return static_fds[rnd(s) % (uint64_t)nstatic];
}

static void sockopt_call(int fd, uint64_t *s)
{
	static const socklen_t lens[] = { 0, 4, 8, 8, 8, 9, 64, 64, 128 };
	uint64_t buf[16];
	socklen_t len = lens[rnd(s) % (sizeof(lens) / sizeof(lens[0]))];
	static const int opts[] = {
		MLTCP_SO_BYTES_PER_ITER, MLTCP_SO_ITER_BEGIN, MLTCP_SO_INFO,
		MLTCP_SO_ABI_VERSION,
	};
	/* mostly MLTCP options, sometimes a neighbour */
	int opt = rnd(s) % 4 ? opts[rnd(s) % 4] :
		  MLTCP_SO_BASE - 2 + (int)(rnd(s) % 22);
	void *p = rnd(s) % 16 ? (void *)buf : (rnd(s) & 1 ? NULL : (void *)8);
	int ret;

	buf[0] = rnd(s) % 4 ? rnd(s) % (1 << 24) :
		 (rnd(s) & 1 ? rnd(s) : MLTCP_BYTES_PER_ITER_MAX);
	if (opt < MLTCP_SO_INFO) {
		ret = setsockopt(fd, MLTCP_SOL, opt, p, len);
	} else {
		socklen_t *lp = rnd(s) % 32 ? &len : NULL;

		ret = getsockopt(fd, MLTCP_SOL, opt, p, lp);
	}
	count(ret, errno);
}

static void cc_call(uint64_t *s)
{
	struct conn *c = &conns[rnd(s) % (uint64_t)nconns];
	const char *a = algos[rnd(s) % 4];
	int ret;

	ret = setsockopt(c->cli, IPPROTO_TCP, TCP_CONGESTION, a,
			 (socklen_t)strlen(a));
	count(ret, errno);
}

static void churn_call(int i, uint64_t *s)
{
	struct conn c;
	int fd, ret;

	pthread_mutex_lock(&churn_lock[i]);
	fd = atomic_exchange(&churn_fds[i], -1);
	if (fd >= 0) {
		shutdown(fd, SHUT_RDWR);
		close(fd);
	}
	ret = conn_open(&c, rnd(s) & 1 ? AF_INET6 : AF_INET, algos[rnd(s) % 2]);
	count(ret, errno);
	if (ret == 0) {
		mltcp_iteration_begin(c.cli, rnd(s) % (1 << 20));
		atomic_store(&churn_fds[i], c.cli);
	}
	pthread_mutex_unlock(&churn_lock[i]);
}

static void netlink_call(struct nlraw *nl, uint64_t *s)
{
	struct nlmsghdr *nlh;
	int ret;

	switch (rnd(s) % 8) {
	case 0:
		nlh = nlraw_req(nl, MLTCP_CMD_GET_PARAMS, 0);
		break;
	case 1:
	case 2:
		nlh = nlraw_req(nl, MLTCP_CMD_GET_SOCKETS, NLM_F_DUMP);
		break;
	case 3:
		nlh = nlraw_req(nl, MLTCP_CMD_GET_COUNTERS, NLM_F_DUMP);
		break;
	case 4:
		nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
		if (rnd(s) & 1)
			mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, (uint32_t)(rnd(s) % 9000));
		if (rnd(s) & 1)
			mnl_attr_put_u32(nlh, MLTCP_A_INTERCEPT, (uint32_t)(rnd(s) % 9000));
		if (rnd(s) & 1)
			mnl_attr_put_u32(nlh, MLTCP_A_IDLE_MS, (uint32_t)(rnd(s) % 70000));
		if (rnd(s) & 1)
			mnl_attr_put_u8(nlh, MLTCP_A_MODE, (uint8_t)(rnd(s) % 4));
		break;
	case 5:
		nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
		mnl_attr_put_u32(nlh, (uint16_t)(rnd(s) % 12), (uint32_t)rnd(s));
		break;
	case 6:
		nlh = nlraw_req(nl, (uint8_t)(rnd(s) % 8), (uint16_t)(rnd(s) & 1 ? NLM_F_DUMP : 0));
		if (rnd(s) & 1)
			mnl_attr_put_u64(nlh, (uint16_t)(rnd(s) % 10), rnd(s));
		break;
	default:
		nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
		mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, 1024);
		nlh->nlmsg_len -= (uint32_t)(rnd(s) % 6);
		break;
	}
	ret = nlraw_xfer(nl, nlh, NULL, 0, NULL);
	count(ret, -ret);
}

static void *worker(void *arg)
{
	uint64_t s = (uint64_t)(uintptr_t)arg * 0x9e3779b97f4a7c15ULL + 1;
	struct nlraw *nl = nlraw_open();
	long n = calls_total / nthreads, i;

	if (!nl)
		return (void *)1;
	for (i = 0; i < n; i++) {
		unsigned int what = (unsigned int)(rnd(&s) % 100);
		int ci, fd;

		if (what < 70) {
			fd = pick_fd(&s, &ci);
			if (ci >= 0) {
				pthread_mutex_lock(&churn_lock[ci]);
				fd = atomic_load(&churn_fds[ci]);
				if (fd >= 0)
					sockopt_call(fd, &s);
				pthread_mutex_unlock(&churn_lock[ci]);
				if (fd < 0)
					count(0, 0);
			} else {
				sockopt_call(fd, &s);
			}
		} else if (what < 75) {
			cc_call(&s);
		} else if (what < 77) {
			churn_call((int)(rnd(&s) % NCHURN), &s);
		} else {
			netlink_call(nl, &s);
		}
	}
	nlraw_close(nl);
	return NULL;
}

static int allowed(int err)
{
	switch (err) {
	case EINVAL: case EFAULT: case ENOPROTOOPT: case EOPNOTSUPP:
	case ENOTCONN: case ERANGE:
		return 1;
	}
	return 0;
}

static int restore_params(const struct params *p, uint32_t idle)
{
	struct nlraw *nl = nlraw_open();
	struct nlmsghdr *nlh;
	int ret;

	if (!nl)
		return -errno;
	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, p->slope);
	mnl_attr_put_u32(nlh, MLTCP_A_INTERCEPT, p->intercept);
	mnl_attr_put_u32(nlh, MLTCP_A_IDLE_MS, idle);
	mnl_attr_put_u8(nlh, MLTCP_A_MODE, (uint8_t)p->mode);
	ret = nlraw_xfer(nl, nlh, NULL, 0, NULL);
	nlraw_close(nl);
	return ret;
}

static uint32_t read_idle_ms(void)
{
	FILE *f = fopen("/sys/module/mltcp/parameters/idle_ms", "r");
	unsigned int v = 10;

	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = 10;
		fclose(f);
	}
	return v;
}

int main(int argc, char **argv)
{
	pthread_t tr[MAX_CONNS], wk[64];
	struct params prm;
	uint32_t idle;
	long bad = 0;
	int i, opt, ret, wfail = 0;
	unsigned int seed = (unsigned int)time(NULL);

	while ((opt = getopt(argc, argv, "c:t:n:s:")) != -1) {
		switch (opt) {
		case 'c':
			calls_total = atol(optarg);
			break;
		case 't':
			nthreads = atoi(optarg);
			break;
		case 'n':
			nconns = atoi(optarg);
			break;
		case 's':
			seed = (unsigned int)atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-c CALLS] [-t THREADS] [-n CONNS] [-s SEED]\n",
				argv[0]);
			return 2;
		}
	}
	if (nthreads < 1 || nthreads > 64 || nconns < 2 || nconns > MAX_CONNS ||
	    calls_total < nthreads) {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (read_params(&prm) < 0) {
		printf("1..0 # SKIP mltcp module parameters not readable\n");
		return 0;
	}
	idle = read_idle_ms();
	tap_diag("seed %u, %ld calls, %d threads, %d connections", seed,
		 calls_total, nthreads, nconns);

	for (i = 0; i < nconns; i++) {
		if (conn_open(&conns[i], i & 1 ? AF_INET6 : AF_INET, algos[(i / 2) % 2]) < 0) {
			tap_ok(false, "connection %d: %s", i, strerror(errno));
			return tap_finish();
		}
		pthread_create(&tr[i], NULL, traffic, &conns[i]);
	}
	for (i = 0; i < NCHURN; i++) {
		pthread_mutex_init(&churn_lock[i], NULL);
		atomic_store(&churn_fds[i], -1);
	}
	static_fds[nstatic++] = socket(AF_INET, SOCK_DGRAM, 0);
	static_fds[nstatic++] = socket(AF_INET6, SOCK_DGRAM, 0);
	static_fds[nstatic++] = socket(AF_INET, SOCK_STREAM, 0);
	static_fds[nstatic] = socket(AF_INET6, SOCK_STREAM, 0);
	setsockopt(static_fds[nstatic], IPPROTO_TCP, TCP_CONGESTION, "mltcp_reno", 10);
	nstatic++;
	static_fds[nstatic] = socket(AF_INET, SOCK_STREAM, 0);
	listen(static_fds[nstatic++], 1);

	for (i = 0; i < nthreads; i++)
		pthread_create(&wk[i], NULL, worker, (void *)(uintptr_t)(seed + (unsigned int)i));
	for (i = 0; i < nthreads; i++) {
		void *r;

		pthread_join(wk[i], &r);
		if (r)
			wfail++;
	}
	tap_ok(!wfail, "all %d workers ran (netlink socket each)", nthreads);

	atomic_store(&stop_traffic, true);
	for (i = 0; i < nconns; i++) {
		shutdown(conns[i].cli, SHUT_RDWR);
		pthread_join(tr[i], NULL);
		close(conns[i].cli);
	}
	for (i = 0; i < NCHURN; i++) {
		int fd = atomic_load(&churn_fds[i]);

		if (fd >= 0)
			close(fd);
	}
	for (i = 0; i < nstatic; i++)
		close(static_fds[i]);

	tap_ok(atomic_load(&calls_done) >= calls_total / nthreads * nthreads,
	       "%ld calls made, %ld succeeded", atomic_load(&calls_done),
	       atomic_load(&calls_ok));
	for (i = 1; i < 256; i++) {
		long n = atomic_load(&errcount[i]);

		if (!n)
			continue;
		tap_diag("%8ld x %s", n, errname(i));
		if (!allowed(i))
			bad += n;
	}
	tap_ok(!bad, "every failure has a documented errno (%ld others)", bad);
	ret = restore_params(&prm, idle);
	tap_ok(ret == 0, "parameters restored (%s)", errname(-ret));
	return tap_finish();
}
