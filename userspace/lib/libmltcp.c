// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libmltcp: socket options of the MLTCP module, jobs and the process-wide
 * registry.  See include/mltcp/libmltcp.h for the API contract.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mltcp/libmltcp.h"

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
static int set_opt(int fd, int opt, uint64_t value, uint64_t max, size_t size)
{
	uint32_t v32 = (uint32_t)value;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	if (value > max) {
		errno = EINVAL;
		return -1;
	}
	if (setsockopt(fd, MLTCP_SOL, opt, size == sizeof(v32) ? (void *)&v32 : (void *)&value,
		       (socklen_t)size) < 0)
		return fix_errno(fd);
	return 0;
}

static int set_u64(int fd, int opt, uint64_t value)
{
	return set_opt(fd, opt, value, MLTCP_BYTES_PER_ITER_MAX, sizeof(value));
}

MLTCP_EXPORT int mltcp_set_bytes_per_iter(int fd, uint64_t bytes)
{
	return set_u64(fd, MLTCP_SO_BYTES_PER_ITER, bytes);
}

MLTCP_EXPORT int mltcp_set_tiebreak(int fd, uint32_t q10)
{
	return set_opt(fd, MLTCP_SO_TIEBREAK, q10, MLTCP_TIEBREAK_ABI_MAX, sizeof(q10));
}

MLTCP_EXPORT int mltcp_iteration_begin(int fd, uint64_t bytes)
{
	return set_u64(fd, MLTCP_SO_ITER_BEGIN, bytes);
}

MLTCP_EXPORT int mltcp_get_state(int fd, struct mltcp_info *st)
{
	struct mltcp_info info;
	socklen_t len = sizeof(info);

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	if (!st) {
		errno = EINVAL;
		return -1;
	}
	memset(&info, 0, sizeof(info));
	if (getsockopt(fd, MLTCP_SOL, MLTCP_SO_INFO, &info, &len) < 0)
		return fix_errno(fd);
	if (len < MLTCP_INFO_SIZE_V1) {
		errno = EPROTO;
		return -1;
	}
	*st = info;
	return 0;
}

/* ---- jobs ---------------------------------------------------------------- */

struct mltcp_job {
	pthread_mutex_t lock;
	int *fds;
	size_t n;
	size_t cap;
	int64_t tiebreak;	/* -1: none set */
};

static void job_init(struct mltcp_job *job)
{
	pthread_mutex_init(&job->lock, NULL);
	job->fds = NULL;
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
	free(job->fds);
	free(job);
}

/* Index of @fd in @job, or -1; called with the lock held. */
static long job_find(const struct mltcp_job *job, int fd)
{
	size_t i;

	for (i = 0; i < job->n; i++)
		if (job->fds[i] == fd)
			return (long)i;
	return -1;
}

MLTCP_EXPORT int mltcp_job_add(struct mltcp_job *job, int fd)
{
	int ret = 0, err = 0;

	if (!job) {
		errno = EINVAL;
		return -1;
	}
	if (check_tcp_fd(fd) < 0)
		return -1;

	pthread_mutex_lock(&job->lock);
	if (job_find(job, fd) >= 0) {
		err = EEXIST;
	} else {
		if (job->n == job->cap) {
			size_t cap = job->cap ? job->cap * 2 : 8;
			int *fds = realloc(job->fds, cap * sizeof(*fds));

			if (!fds)
				err = ENOMEM;
			else {
				job->fds = fds;
				job->cap = cap;
			}
		}
		if (!err) {
			job->fds[job->n++] = fd;
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
	i = job_find(job, fd);
	if (i >= 0)
		job->fds[i] = job->fds[--job->n];
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
	for (i = 0; i < job->n; i++)
		if (fn(job->fds[i], bytes) < 0 && !first_err)
			first_err = errno;
	pthread_mutex_unlock(&job->lock);
	if (first_err) {
		errno = first_err;
		return -1;
	}
	return 0;
}

MLTCP_EXPORT int mltcp_job_iteration_begin(struct mltcp_job *job,
					   uint64_t bytes)
{
	return job_apply(job, mltcp_iteration_begin, bytes);
}

MLTCP_EXPORT int mltcp_job_set_bytes_per_iter(struct mltcp_job *job,
					      uint64_t bytes)
{
	return job_apply(job, mltcp_set_bytes_per_iter, bytes);
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
