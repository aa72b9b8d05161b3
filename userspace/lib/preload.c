// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libmltcp-preload.so: MLTCP for unmodified programs.
 *
 *	MLTCP_CC=mltcp_cubic MLTCP_BYTES_PER_ITER=26214400 \
 *		LD_PRELOAD=libmltcp-preload.so program ...
 *
 * Wraps connect(), accept() and accept4().  For every IPv4/IPv6 TCP
 * socket the program connects (before the real connect(), so the whole
 * connection uses it) or accepts (right after the real accept()):
 *   MLTCP_CC              congestion control to set (TCP_CONGESTION);
 *                         unset or empty: leave the congestion control
 *   MLTCP_BYTES_PER_ITER  if set, bytes per iteration for the socket
 *                         (decimal, 16384 .. 2^48; anything else is
 *                         ignored and the socket learns its iterations)
 *   MLTCP_TIEBREAK        if set, the tie-break of every socket of the
 *                         process, a decimal from 0 to 1, "random" for
 *                         one random value per process, or "job" for one
 *                         value on every rank of the job, derived from
 *                         the launcher's environment (job_id.h), so that
 *                         the job's sockets share one head start (see
 *                         mltcp_set_tiebreak())
 *   MLTCP_DEBUG           if set to 1, failures are reported on stderr
 * Failures never change what the program sees: the wrapped call's return
 * value and errno are those of the real call.
 */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/random.h>
#include <sys/socket.h>

#include "mltcp/libmltcp.h"
#include "job_id.h"

#define EXPORT __attribute__((visibility("default")))

typedef int (*connect_fn)(int, const struct sockaddr *, socklen_t);
typedef int (*accept_fn)(int, struct sockaddr *, socklen_t *);
typedef int (*accept4_fn)(int, struct sockaddr *, socklen_t *, int);

static struct {
	connect_fn connect;
	accept_fn accept;
	accept4_fn accept4;
	char cc[MLTCP_ALGO_NAME_MAX];
	uint64_t bytes;
	int64_t tiebreak;	/* -1: leave the kernel's */
	int debug;
} cfg;

static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;

static void debugf(const char *what, int fd, int err)
{
	if (cfg.debug)
		fprintf(stderr, "libmltcp-preload: %s on fd %d: %s\n", what, fd,
			strerror(err));
}

/* "0.5" -> 512: a decimal from 0 to 1, as Q10; -1 on anything else. */
static int mltcp_parse_tiebreak(const char *s, uint32_t *q10)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0.0 && v <= 1.0))
		return -1;
	*q10 = (uint32_t)(v * MLTCP_ABI_Q10_ONE + 0.5);
	return 0;
}

static void cfg_load(void)
{
	const char *cc = getenv("MLTCP_CC");
	const char *bpi = getenv("MLTCP_BYTES_PER_ITER");
	const char *dbg = getenv("MLTCP_DEBUG");
	const char *tb = getenv("MLTCP_TIEBREAK");
	uint32_t rnd = 0;

	/* POSIX allows converting dlsym()'s void * to a function pointer. */
	*(void **)&cfg.connect = dlsym(RTLD_NEXT, "connect");
	*(void **)&cfg.accept = dlsym(RTLD_NEXT, "accept");
	*(void **)&cfg.accept4 = dlsym(RTLD_NEXT, "accept4");
	cfg.debug = dbg && !strcmp(dbg, "1");

	if (cc && *cc) {
		if (strlen(cc) < sizeof(cfg.cc))
			strcpy(cfg.cc, cc);
		else if (cfg.debug)
			fprintf(stderr, "libmltcp-preload: MLTCP_CC too long, ignored\n");
	}
	if (bpi && *bpi) {
		char *end;
		uintmax_t v;

		errno = 0;
		v = strtoumax(bpi, &end, 10);
		if (errno || *end || bpi[0] == '-' || v < MLTCP_BYTES_PER_ITER_MIN ||
		    v > MLTCP_BYTES_PER_ITER_MAX) {
			if (cfg.debug)
				fprintf(stderr,
					"libmltcp-preload: bad MLTCP_BYTES_PER_ITER, ignored\n");
		} else {
			cfg.bytes = v;
		}
	}
	cfg.tiebreak = -1;
	if (tb && !strcmp(tb, "job")) {
		char id[MLTCP_JOB_ID_MAX];

		if (mltcp_job_identity(id, sizeof(id)) == 0)
			cfg.tiebreak = mltcp_job_id_tiebreak(id);
		else if (cfg.debug)
			fprintf(stderr, "libmltcp-preload: MLTCP_TIEBREAK=job, but no job identity "
				"(MLTCP_JOB_ID, SLURM_JOB_ID, TORCHELASTIC_RUN_ID, MASTER_ADDR and "
				"MASTER_PORT), ignored\n");
	} else if (tb && !strcmp(tb, "random")) {
		if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd))
			rnd = (uint32_t)rand();
		cfg.tiebreak = (int64_t)(((uint64_t)rnd * (MLTCP_TIEBREAK_ABI_MAX + 1)) >> 32);
	} else if (tb && *tb) {
		uint32_t q;

		if (mltcp_parse_tiebreak(tb, &q) < 0) {
			if (cfg.debug)
				fprintf(stderr,
					"libmltcp-preload: bad MLTCP_TIEBREAK, ignored\n");
		} else {
			cfg.tiebreak = q;
		}
	}
}

static int is_inet_tcp(int fd)
{
	int type, proto;
	struct sockaddr_storage ss;
	socklen_t len = sizeof(type);

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0 ||
	    type != SOCK_STREAM)
		return 0;
	len = sizeof(proto);
	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) < 0 ||
	    proto != IPPROTO_TCP)
		return 0;
	len = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return 0;
	return ss.ss_family == AF_INET || ss.ss_family == AF_INET6;
}

/* Applies the configuration to @fd; errno is preserved. */
static void apply(int fd)
{
	int saved = errno;

	if ((cfg.cc[0] || cfg.bytes) && is_inet_tcp(fd)) {
		if (cfg.cc[0] && mltcp_enable(fd, cfg.cc) < 0)
			debugf("setting MLTCP_CC", fd, errno);
		if (cfg.bytes && mltcp_set_bytes_per_iter(fd, cfg.bytes) < 0)
			debugf("setting MLTCP_BYTES_PER_ITER", fd, errno);
		if (cfg.tiebreak >= 0 && mltcp_set_tiebreak(fd, (uint32_t)cfg.tiebreak) < 0)
			debugf("setting the tie-break", fd, errno);
	}
	errno = saved;
}

EXPORT int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	pthread_once(&cfg_once, cfg_load);
	if (!cfg.connect) {
		errno = ENOSYS;
		return -1;
	}
	apply(fd);
	return cfg.connect(fd, addr, len);
}

EXPORT int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
	int nfd;

	pthread_once(&cfg_once, cfg_load);
	if (!cfg.accept) {
		errno = ENOSYS;
		return -1;
	}
	nfd = cfg.accept(fd, addr, len);
	if (nfd >= 0)
		apply(nfd);
	return nfd;
}

EXPORT int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
	int nfd;

	pthread_once(&cfg_once, cfg_load);
	if (!cfg.accept4) {
		errno = ENOSYS;
		return -1;
	}
	nfd = cfg.accept4(fd, addr, len, flags);
	if (nfd >= 0)
		apply(nfd);
	return nfd;
}
