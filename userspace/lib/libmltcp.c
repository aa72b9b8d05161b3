// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libmltcp: socket options of the MLTCP module, jobs and the process-wide
 * registry.  See include/mltcp/libmltcp.h for the API contract.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
/* the kernel's struct tcp_info (bytes_acked), not glibc's older copy */
#include <linux/bpf.h>
#include <linux/sockios.h>
#include <linux/tcp.h>

#include "mltcp/libmltcp.h"
/* the core's math for MLTCP_SO_INFO; its per-socket helper's name is ours */
#define mltcp_set_tiebreak mltcp_core_set_tiebreak
#include "mltcp_core.h"
#undef mltcp_set_tiebreak
#include "mltcp_bpf.h"
#include "mltcp_bpf_info.h"

/* The preload library builds this file with MLTCP_EXPORT empty (hidden). */
#ifndef MLTCP_EXPORT
#define MLTCP_EXPORT __attribute__((visibility("default")))
#endif

/* Name length limit of the kernel (TCP_CA_NAME_MAX), with the NUL. */
#define ALGO_NAME_MAX	MLTCP_ALGO_NAME_MAX

/*
 * Checks that @fd is an open TCP socket.  Return: 0 or -1 with errno
 * EBADF, ENOTSOCK or ENOPROTOOPT.
 */
static int check_tcp_fd(int fd)
{
	int type, proto;
	socklen_t len;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	len = sizeof(type);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0)
		return -1;	/* EBADF or ENOTSOCK */
	len = sizeof(proto);
	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) < 0)
		return -1;
	if (type != SOCK_STREAM || proto != IPPROTO_TCP) {
		errno = ENOPROTOOPT;
		return -1;
	}
	return 0;
}

/*
 * A socket family without protocol options (AF_UNIX, ...) fails with
 * EOPNOTSUPP before the MLTCP module is asked; report it as the ABI's
 * "not a TCP socket", ENOPROTOOPT, so EOPNOTSUPP always means "TCP, but
 * not on an MLTCP congestion control".  Only runs after a failure.
 */
static int fix_errno(int fd)
{
	int err = errno;

	if (err == EOPNOTSUPP && check_tcp_fd(fd) < 0 && errno == ENOPROTOOPT)
		err = ENOPROTOOPT;
	errno = err;
	return -1;
}

/* ---- the BPF backend ---------------------------------------------------- */

/*
 * Without the module, the MLTCP congestion controls may be the BPF ones
 * (`mltcpctl bpf load`, bpf/mltcp_bpf.h).  Their per-socket hints are
 * entries of the pinned "hints" sk_storage map keyed by the socket's fd,
 * their state the "socks" map; the calls below give the same results and
 * errno values as the socket options.  A module that answers always wins:
 * these run only after its socket option failed with ENOPROTOOPT on a TCP
 * socket.  The bpf() syscall needs CAP_BPF (or unprivileged BPF): without
 * it the backend is reported as absent (ENOPROTOOPT).
 */

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* The pinned map @name of the BPF backend, or -1 (errno ENOPROTOOPT). */
static int bpf_map_open(const char *name)
{
	char path[64];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	snprintf(path, sizeof(path), "%s/%s", MLTCP_BPF_PIN_DIR, name);
	attr.pathname = (uintptr_t)path;
	attr.file_flags = 0;
	fd = (int)sys_bpf(BPF_OBJ_GET, &attr);
	if (fd < 0)
		errno = ENOPROTOOPT;
	return fd;
}

static int bpf_lookup(int map, const void *key, void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map;
	attr.key = (uintptr_t)key;
	attr.value = (uintptr_t)value;
	return (int)sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr);
}

static int bpf_update(int map, const void *key, const void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map;
	attr.key = (uintptr_t)key;
	attr.value = (uintptr_t)value;
	attr.flags = BPF_ANY;
	return (int)sys_bpf(BPF_MAP_UPDATE_ELEM, &attr);
}

static int bpf_backend_loaded(void)
{
	int fd = bpf_map_open("hints");

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/*
 * After a module socket option failed: does the BPF backend answer for
 * @fd?  When the module is absent (ENOPROTOOPT), or present but the socket
 * is not on one of its algorithms (EOPNOTSUPP: the core module may be
 * loaded next to the BPF backend, whose algorithms it does not know).
 * Keeps errno when not.
 */
static int bpf_fallback(int fd)
{
	int err = errno, ok;

	if (err != ENOPROTOOPT && err != EOPNOTSUPP)
		return 0;
	ok = bpf_backend_loaded() && check_tcp_fd(fd) == 0;
	errno = err;
	return ok;
}

/*
 * Checks @fd for a BPF-backend request as the module does
 * (mltcp_sockopt.c): a TCP socket (ENOPROTOOPT), not listening and, with
 * @connected, not closed (ENOTCONN), on an MLTCP congestion control
 * (EOPNOTSUPP).  Fills @ti and @algo.
 */
static int bpf_check_sock(int fd, int connected, struct tcp_info *ti, char *algo)
{
	socklen_t len = ALGO_NAME_MAX;

	socklen_t tlen = sizeof(*ti);

	if (check_tcp_fd(fd) < 0)
		return -1;
	/* the module's order: the socket's state first, then its algorithm */
	memset(ti, 0, sizeof(*ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, ti, &tlen) < 0)
		return -1;
	/* TCP states, as <linux/bpf.h> names them */
	if (ti->tcpi_state == BPF_TCP_LISTEN ||
	    (connected && ti->tcpi_state == BPF_TCP_CLOSE)) {
		errno = ENOTCONN;
		return -1;
	}
	memset(algo, 0, ALGO_NAME_MAX);
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, algo, &len) < 0)
		return -1;
	if (strncmp(algo, "mltcp_", 6)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return 0;
}

/*
 * Where the next iteration starts: bytes_acked + bytes written and not yet
 * acked (SIOCOUTQ), the module's mltcp_iteration_begin().  Read until
 * bytes_acked did not move in between, so that both are of one instant.
 */
static int bpf_mark(int fd, __u64 *mark)
{
	struct tcp_info a, b;
	socklen_t len;
	int outq, tries;

	for (tries = 0; tries < 16; tries++) {
		len = sizeof(a);
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &a, &len) < 0)
			return -1;
		if (ioctl(fd, SIOCOUTQ, &outq) < 0)
			return -1;
		len = sizeof(b);
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &b, &len) < 0)
			return -1;
		*mark = b.tcpi_bytes_acked + (uint64_t)(outq > 0 ? outq : 0);
		if (a.tcpi_bytes_acked == b.tcpi_bytes_acked)
			break;
	}
	return 0;
}

/* A socket option of the module, done through the BPF backend's maps. */
static int bpf_set_opt(int fd, int opt, uint64_t value)
{
	struct mltcp_bpf_hints h;
	struct tcp_info ti;
	char algo[ALGO_NAME_MAX];
	int map, ret = -1, err = 0;

	if (bpf_check_sock(fd, opt == MLTCP_SO_ITER_BEGIN, &ti, algo) < 0)
		return -1;
	map = bpf_map_open("hints");
	if (map < 0)
		return -1;
	memset(&h, 0, sizeof(h));
	if (bpf_lookup(map, &fd, &h) < 0 && errno != ENOENT) {
		err = errno;
		goto out;
	}
	switch (opt) {
	case MLTCP_SO_BYTES_PER_ITER:
		h.size = value;
		h.size_gen++;
		break;
	case MLTCP_SO_ITER_BEGIN:
		if (bpf_mark(fd, &h.mark) < 0) {
			err = errno;
			goto out;
		}
		h.mark_bytes = value;
		h.mark_gen++;
		break;
	default:
		h.tiebreak = (uint32_t)value;
		h.tb_gen++;
		break;
	}
	if (bpf_update(map, &fd, &h) < 0)
		err = errno;
	else
		ret = 0;
out:
	close(map);
	if (ret < 0)
		errno = err;
	return ret;
}

/*
 * Requests the BPF side has not applied yet (it does at the socket's next
 * congestion-control event) applied to a copy of the state, as the BPF
 * side will (mltcp_apply_hints()): the state reads back what was set, as
 * with the module.
 */
static void bpf_pending_hints(int fd, const struct mltcp_bpf_sock *st, struct mltcp_sock *ms)
{
	struct mltcp_bpf_hints h;
	int map = bpf_map_open("hints");

	if (map < 0)
		return;
	if (bpf_lookup(map, &fd, &h) < 0) {
		close(map);
		return;
	}
	close(map);
	if (h.size_gen != st->size_gen)
		mltcp_set_size(ms, h.size);
	if (h.mark_gen != st->mark_gen)
		mltcp_iter_begin(ms, h.mark, 0, h.mark_bytes);
	if (h.tb_gen != st->tb_gen)
		mltcp_core_set_tiebreak(ms, h.tiebreak > MLTCP_TIEBREAK_MAX ?
					MLTCP_TIEBREAK_MAX : h.tiebreak);
}

/* MLTCP_SO_INFO from the BPF backend's maps */
static int bpf_get_info(int fd, struct mltcp_info *out)
{
	struct mltcp_bpf_params p;
	struct mltcp_bpf_sock st;
	struct mltcp_sock ms;
	struct tcp_info ti;
	char algo[ALGO_NAME_MAX];
	int socks, params, zero = 0, err = 0;
	uint32_t slope, icpt;

	if (bpf_check_sock(fd, 1, &ti, algo) < 0)
		return -1;
	socks = bpf_map_open("socks");
	if (socks < 0)
		return -1;
	params = bpf_map_open("params");
	if (params < 0) {
		close(socks);
		return -1;
	}
	if (bpf_lookup(socks, &fd, &st) < 0 || bpf_lookup(params, &zero, &p) < 0)
		err = errno == ENOENT ? EOPNOTSUPP : errno;
	close(socks);
	close(params);
	if (err) {
		errno = err;
		return -1;
	}
	memcpy(&ms, st.ms, sizeof(ms));
	bpf_pending_hints(fd, &st, &ms);
	/* the values the BPF side uses: clamped like mltcp_get_params() */
	slope = mltcp_params_slope(p.fparams);
	icpt = mltcp_params_intercept(p.fparams);
	slope = slope > MLTCP_SLOPE_MAX ? MLTCP_SLOPE_MAX : slope;
	icpt = icpt < MLTCP_INTERCEPT_MIN ? MLTCP_INTERCEPT_MIN :
	       icpt > MLTCP_INTERCEPT_MAX ? MLTCP_INTERCEPT_MAX : icpt;
	p.mode = p.mode > MLTCP_MODE_OFF ? MLTCP_MODE_OFF : p.mode;
	p.stagger = p.stagger > MLTCP_STAGGER_MAX ? MLTCP_STAGGER_MAX : p.stagger;
	p.overrun = mltcp_overrun_valid(p.overrun) ? p.overrun : MLTCP_OVERRUN_DEFAULT;

	memset(out, 0, sizeof(*out));
	out->abi_version = MLTCP_ABI_VERSION;
	out->size = sizeof(*out);
	memcpy(out->algo, algo, sizeof(out->algo));
	out->algo[sizeof(out->algo) - 1] = '\0';
	out->mode = (uint8_t)p.mode;
	out->iterations = ms.iters;
	out->bytes_this_iter = mltcp_bytes_done(ti.tcpi_bytes_acked, ms.mark);
	out->bytes_per_iter = ms.bytes_per_iter;
	out->bytes_ratio = mltcp_ratio_q10(out->bytes_this_iter, ms.bytes_per_iter);
	out->flags = mltcp_bpf_info_flags(&ms, (int)p.mode, p.overrun, out->bytes_this_iter);
	out->phase = mltcp_bpf_info_phase(&ms, (int)p.mode, p.overrun, out->bytes_this_iter);
	out->f = mltcp_sock_f_q10(&ms, (int)p.mode, mltcp_params_pack(slope, icpt),
				  p.stagger, p.overrun, ti.tcpi_bytes_acked);
	out->cwnd = ti.tcpi_snd_cwnd;
	out->tiebreak = ms.tiebreak;
	out->stagger = p.stagger;
	out->decrease = p.decrease ? 1 : 0;
	out->head_start = true;	/* every socket's tie-break gives one */
	return 0;
}

MLTCP_EXPORT int mltcp_abi_version(void)
{
	uint32_t version = 0;
	socklen_t len = sizeof(version);
	int fd, ret, err;

	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	if (fd < 0 && errno == EAFNOSUPPORT)
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	if (fd < 0)
		return -1;
	ret = getsockopt(fd, MLTCP_SOL, MLTCP_SO_ABI_VERSION, &version, &len);
	err = errno;
	close(fd);
	if (ret < 0 && err == ENOPROTOOPT && bpf_backend_loaded())
		return MLTCP_ABI_VERSION;
	if (ret < 0) {
		errno = err;
		return -1;
	}
	if (len < sizeof(version) || version < 1 || version > INT32_MAX) {
		errno = EPROTO;
		return -1;
	}
	return (int)version;
}

MLTCP_EXPORT int mltcp_enable(int fd, const char *algo)
{
	size_t len;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	if (!algo)
		algo = MLTCP_DEFAULT_ALGO;
	len = strnlen(algo, ALGO_NAME_MAX);
	if (len >= ALGO_NAME_MAX || strncmp(algo, "mltcp_", 6) != 0) {
		errno = EINVAL;
		return -1;
	}
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, algo, (socklen_t)len) < 0)
		return fix_errno(fd);
	return 0;
}

/* setsockopt(MLTCP_SOL, @opt) of a value up to @max; EBADF before EINVAL. */
/* Sets @opt to @value, 0 or in [@min, @max]; the BPF backend's if the module has none. */
static int set_opt(int fd, int opt, uint64_t value, uint64_t min, uint64_t max, size_t size)
{
	uint32_t v32 = (uint32_t)value;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	if (value > max || (value && value < min)) {
		errno = EINVAL;
		return -1;
	}
	if (setsockopt(fd, MLTCP_SOL, opt, size == sizeof(v32) ? (void *)&v32 : (void *)&value,
		       (socklen_t)size) < 0) {
		/* no module, or a socket not its own: the BPF backend, if loaded */
		if (bpf_fallback(fd))
			return bpf_set_opt(fd, opt, value);
		return fix_errno(fd);
	}
	return 0;
}

/* A size: 0 (none), or MLTCP_BYTES_PER_ITER_MIN .. MLTCP_BYTES_PER_ITER_MAX */
static int set_u64(int fd, int opt, uint64_t value)
{
	return set_opt(fd, opt, value, MLTCP_BYTES_PER_ITER_MIN, MLTCP_BYTES_PER_ITER_MAX,
		       sizeof(value));
}

MLTCP_EXPORT int mltcp_set_bytes_per_iter(int fd, uint64_t bytes)
{
	return set_u64(fd, MLTCP_SO_BYTES_PER_ITER, bytes);
}

MLTCP_EXPORT int mltcp_set_tiebreak(int fd, uint32_t q10)
{
	return set_opt(fd, MLTCP_SO_TIEBREAK, q10, 0, MLTCP_TIEBREAK_ABI_MAX, sizeof(q10));
}

MLTCP_EXPORT int mltcp_iteration_begin(int fd, uint64_t bytes)
{
	return set_u64(fd, MLTCP_SO_ITER_BEGIN, bytes);
}

MLTCP_EXPORT int mltcp_get_info(int fd, struct mltcp_info *st, size_t size)
{
	struct mltcp_info info;
	socklen_t len = sizeof(info);

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	if (!st || size < MLTCP_INFO_SIZE_V1) {
		errno = EINVAL;
		return -1;
	}
	memset(&info, 0, sizeof(info));
	if (getsockopt(fd, MLTCP_SOL, MLTCP_SO_INFO, &info, &len) < 0) {
		if (!bpf_fallback(fd))
			return fix_errno(fd);
		if (bpf_get_info(fd, &info) < 0)
			return -1;
		len = sizeof(info);
	}
	if (len < MLTCP_INFO_SIZE_V1) {
		errno = EPROTO;
		return -1;
	}
	/* the caller's structure may be older (smaller) than this library's */
	if (size > sizeof(info))
		size = sizeof(info);
	if (info.size > size)
		info.size = (uint32_t)size;
	memcpy(st, &info, size);
	return 0;
}

/* Callers built before mltcp_get_info() allocate an ABI 2 struct mltcp_info. */
MLTCP_EXPORT int mltcp_get_state(int fd, struct mltcp_info *st)
{
	return mltcp_get_info(fd, st, MLTCP_INFO_SIZE_V2);
}

/* ---- jobs ---------------------------------------------------------------- */

/*
 * A job remembers each socket by its descriptor and by its SO_COOKIE, the
 * kernel's number for the socket itself: a descriptor that was closed, or
 * closed and reused for another socket, no longer has the cookie it was
 * added with, and the entry is dropped the next time the job is used
 * instead of acting on whatever the number now names.
 */
struct job_sock {
	int fd;
	uint64_t cookie;
};

struct mltcp_job {
	pthread_mutex_t lock;
	struct job_sock *socks;
	size_t n;
	size_t cap;
	int64_t tiebreak;	/* -1: none set */
};

static void job_init(struct mltcp_job *job)
{
	pthread_mutex_init(&job->lock, NULL);
	job->socks = NULL;
	job->n = 0;
	job->cap = 0;
	job->tiebreak = -1;
}

MLTCP_EXPORT struct mltcp_job *mltcp_job_new(void)
{
	struct mltcp_job *job = malloc(sizeof(*job));

	if (!job) {
		errno = ENOMEM;
		return NULL;
	}
	job_init(job);
	return job;
}

MLTCP_EXPORT void mltcp_job_free(struct mltcp_job *job)
{
	if (!job)
		return;
	pthread_mutex_destroy(&job->lock);
	free(job->socks);
	free(job);
}

/* The socket's cookie, or 0 when @fd names no socket (never a cookie). */
static uint64_t sock_cookie(int fd)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);
	int saved = errno;

	if (getsockopt(fd, SOL_SOCKET, SO_COOKIE, &cookie, &len) < 0 || len != sizeof(cookie))
		cookie = 0;
	errno = saved;
	return cookie;
}

/* Drops the entries whose descriptor no longer names their socket; lock held. */
static void job_prune(struct mltcp_job *job)
{
	size_t i = 0;

	while (i < job->n) {
		if (sock_cookie(job->socks[i].fd) == job->socks[i].cookie)
			i++;
		else
			job->socks[i] = job->socks[--job->n];
	}
}

/* Index of @fd in @job, or -1; called with the lock held, after job_prune(). */
static long job_find(const struct mltcp_job *job, int fd)
{
	size_t i;

	for (i = 0; i < job->n; i++)
		if (job->socks[i].fd == fd)
			return (long)i;
	return -1;
}

MLTCP_EXPORT int mltcp_job_add(struct mltcp_job *job, int fd)
{
	int ret = 0, err = 0;
	uint64_t cookie;

	if (!job) {
		errno = EINVAL;
		return -1;
	}
	if (check_tcp_fd(fd) < 0)
		return -1;
	cookie = sock_cookie(fd);
	if (!cookie) {
		errno = EBADF;
		return -1;
	}

	pthread_mutex_lock(&job->lock);
	job_prune(job);
	if (job_find(job, fd) >= 0) {
		err = EEXIST;
	} else {
		if (job->n == job->cap) {
			size_t cap = job->cap ? job->cap * 2 : 8;
			struct job_sock *socks = realloc(job->socks, cap * sizeof(*socks));

			if (!socks)
				err = ENOMEM;
			else {
				job->socks = socks;
				job->cap = cap;
			}
		}
		if (!err) {
			job->socks[job->n++] = (struct job_sock){ .fd = fd, .cookie = cookie };
			/* best effort: the socket may not be on MLTCP yet */
			if (job->tiebreak >= 0) {
				int saved = errno;

				mltcp_set_tiebreak(fd, (uint32_t)job->tiebreak);
				errno = saved;
			}
		}
	}
	pthread_mutex_unlock(&job->lock);
	if (err) {
		errno = err;
		ret = -1;
	}
	return ret;
}

MLTCP_EXPORT int mltcp_job_remove(struct mltcp_job *job, int fd)
{
	long i;

	if (!job) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&job->lock);
	job_prune(job);
	i = job_find(job, fd);
	if (i >= 0)
		job->socks[i] = job->socks[--job->n];
	pthread_mutex_unlock(&job->lock);
	if (i < 0) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

MLTCP_EXPORT int mltcp_job_size(struct mltcp_job *job)
{
	int n;

	if (!job) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&job->lock);
	job_prune(job);
	n = job->n > INT32_MAX ? INT32_MAX : (int)job->n;
	pthread_mutex_unlock(&job->lock);
	return n;
}

static int job_apply(struct mltcp_job *job, int (*fn)(int, uint64_t),
		     uint64_t bytes)
{
	int first_err = 0;
	size_t i;

	if (!job || bytes > MLTCP_BYTES_PER_ITER_MAX) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&job->lock);
	job_prune(job);
	for (i = 0; i < job->n; i++)
		if (fn(job->socks[i].fd, bytes) < 0 && !first_err)
			first_err = errno;
	pthread_mutex_unlock(&job->lock);
	if (first_err) {
		errno = first_err;
		return -1;
	}
	return 0;
}

/* A size for every socket of a job: 0, or in the range set_u64() takes. */
static int job_apply_size(struct mltcp_job *job, int (*fn)(int, uint64_t), uint64_t bytes)
{
	if (bytes && bytes < MLTCP_BYTES_PER_ITER_MIN) {
		errno = EINVAL;
		return -1;
	}
	return job_apply(job, fn, bytes);
}

MLTCP_EXPORT int mltcp_job_iteration_begin(struct mltcp_job *job,
					   uint64_t bytes)
{
	return job_apply_size(job, mltcp_iteration_begin, bytes);
}

MLTCP_EXPORT int mltcp_job_set_bytes_per_iter(struct mltcp_job *job,
					      uint64_t bytes)
{
	return job_apply_size(job, mltcp_set_bytes_per_iter, bytes);
}

static int set_tiebreak_u64(int fd, uint64_t q10)
{
	return mltcp_set_tiebreak(fd, (uint32_t)q10);
}

MLTCP_EXPORT int mltcp_job_set_tiebreak(struct mltcp_job *job, uint32_t q10)
{
	if (!job || q10 > MLTCP_TIEBREAK_ABI_MAX) {
		errno = EINVAL;
		return -1;
	}
	/* remembered first: a socket added meanwhile gets it from mltcp_job_add() */
	pthread_mutex_lock(&job->lock);
	job->tiebreak = q10;
	pthread_mutex_unlock(&job->lock);
	return job_apply(job, set_tiebreak_u64, q10);
}

/* ---- process-wide registry ---------------------------------------------- */

static struct mltcp_job registry = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.tiebreak = -1,
};

MLTCP_EXPORT int mltcp_register(int fd)
{
	return mltcp_job_add(&registry, fd);
}

MLTCP_EXPORT int mltcp_unregister(int fd)
{
	return mltcp_job_remove(&registry, fd);
}

MLTCP_EXPORT int mltcp_iteration_begin_all(uint64_t bytes)
{
	return mltcp_job_iteration_begin(&registry, bytes);
}

MLTCP_EXPORT int mltcp_set_bytes_per_iter_all(uint64_t bytes)
{
	return mltcp_job_set_bytes_per_iter(&registry, bytes);
}

MLTCP_EXPORT int mltcp_set_tiebreak_all(uint32_t q10)
{
	return mltcp_job_set_tiebreak(&registry, q10);
}
