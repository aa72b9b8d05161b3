/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libmltcp - tell the MLTCP congestion controls about training iterations
 *
 * SYNOPSIS
 *	#include <mltcp/libmltcp.h>
 *	cc ... $(pkg-config --cflags --libs mltcp)
 *
 * DESCRIPTION
 *	MLTCP congestion controls (mltcp_reno, mltcp_cubic, mltcp_dctcp) scale
 *	a connection's additive increase by F = slope * bytes_ratio +
 *	intercept, where bytes_ratio is the fraction of the current training
 *	iteration's bytes already delivered.  Without help the kernel learns
 *	iteration boundaries from idle gaps; a job that knows its iterations
 *	tells the kernel through this library:
 *
 *		int fd = socket(AF_INET, SOCK_STREAM, 0);
 *		mltcp_enable(fd, "mltcp_cubic");
 *		mltcp_set_bytes_per_iter(fd, 25 << 20);
 *		connect(fd, ...);
 *		mltcp_register(fd);
 *		for (;;) {
 *			compute();
 *			mltcp_iteration_begin_all(0);
 *			send_gradients();
 *		}
 *
 *	All functions are thread-safe.  None of them allocates memory except
 *	the registry and job functions, and none aborts or prints.
 *
 * RETURN VALUES
 *	Unless stated otherwise, functions return 0 on success and -1 with
 *	errno set on failure.  The errno values common to the per-socket
 *	calls are:
 *
 *	EBADF        fd is negative or not an open file descriptor
 *	ENOTSOCK     fd is not a socket
 *	EINVAL       a NULL pointer, or a value out of range
 *	ENOPROTOOPT  the MLTCP module (mltcp.ko) is not loaded, or fd is not
 *	             a TCP socket (UDP, UNIX, raw, ...)
 *	EOPNOTSUPP   the socket does not use an MLTCP congestion control
 *	             (call mltcp_enable() first)
 *	ENOTCONN     the socket is listening, or (where stated) not connected
 *
 * ABI
 *	The kernel ABI is include/uapi/linux/mltcp.h, installed as
 *	<linux/mltcp.h>; struct mltcp_info is defined there.  The library
 *	works with any module whose ABI version is at least 1 and reports
 *	the module's version through mltcp_abi_version() and
 *	mltcp_info.abi_version.
 */
#ifndef _MLTCP_LIBMLTCP_H
#define _MLTCP_LIBMLTCP_H

#include <stddef.h>
#include <stdint.h>
#include <linux/mltcp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this library's API (not of the kernel ABI). */
#define LIBMLTCP_VERSION_MAJOR	1
#define LIBMLTCP_VERSION_MINOR	0

/* Congestion control mltcp_enable() uses when given NULL. */
#define MLTCP_DEFAULT_ALGO	"mltcp_cubic"

/**
 * mltcp_abi_version() - ABI version of the loaded MLTCP module
 *
 * Asks the kernel through a temporary TCP socket.
 *
 * Return: the module's MLTCP_ABI_VERSION (>= 1), or -1 with errno:
 *	ENOPROTOOPT  the module is not loaded (or the kernel lacks
 *	             CONFIG_NETFILTER, through which the options are served)
 *	EMFILE, ENFILE, ENOBUFS, ENOMEM  no socket could be created
 */
int mltcp_abi_version(void);

/**
 * mltcp_enable() - make a TCP socket use an MLTCP congestion control
 * @fd: TCP socket, best before connect() (also works on a connection)
 * @algo: "mltcp_reno", "mltcp_cubic" or "mltcp_dctcp"; any name starting
 *	with "mltcp_" is passed to the kernel; NULL means MLTCP_DEFAULT_ALGO
 *
 * Sets TCP_CONGESTION.  mltcp_dctcp also needs ECN on the path.
 *
 * Return: 0, or -1 with errno EBADF, ENOTSOCK, ENOPROTOOPT (not TCP), or:
 *	EINVAL   @algo does not start with "mltcp_" or is too long
 *	ENOENT   no such congestion control is loaded (the kernel loads it
 *	         on demand only for callers with CAP_NET_ADMIN)
 *	EPERM    the algorithm is not in
 *	         net.ipv4.tcp_allowed_congestion_control and the caller lacks
 *	         CAP_NET_ADMIN
 */
int mltcp_enable(int fd, const char *algo);

/**
 * mltcp_set_bytes_per_iter() - set the bytes the socket sends per iteration
 * @fd: TCP socket using an MLTCP congestion control; may be unconnected,
 *	the size is kept when the connection starts
 * @bytes: MLTCP_BYTES_PER_ITER_MIN (16 KiB) .. MLTCP_BYTES_PER_ITER_MAX; 0
 *	drops every hint given to the socket (size and iteration marks) and
 *	lets the kernel learn again
 *
 * F applies to at most 1.25 times @bytes of each iteration (the kernel's
 * overrun bound): declare the bytes the socket really sends per iteration.
 *
 * Return: 0, or -1 with errno EBADF, ENOTSOCK, EINVAL (@bytes out of range),
 *	ENOPROTOOPT, EOPNOTSUPP, or ENOTCONN (listening socket).
 */
int mltcp_set_bytes_per_iter(int fd, uint64_t bytes);

/**
 * mltcp_set_tiebreak() - set the socket's tie-break
 * @fd: TCP socket using an MLTCP congestion control; may be unconnected
 * @q10: 0 .. MLTCP_TIEBREAK_ABI_MAX (1024 = 1.0)
 *
 * Identical jobs started at the same instant have the same F and would
 * share the link fairly for ever; the tie-break gives each socket a head
 * start of @q10 * stagger of an iteration (stagger is a global parameter,
 * see mltcpctl(8)) so they drift apart and take turns.  The kernel draws
 * a tie-break per connection from its endpoints; give every socket of one job the same
 * value (mltcp_job_set_tiebreak(), mltcp_set_tiebreak_all()) so that the
 * job as a whole gets one head start.
 *
 * Return: 0, or -1 with errno EBADF, ENOTSOCK, EINVAL (@q10 too large),
 *	ENOPROTOOPT, EOPNOTSUPP, or ENOTCONN (listening socket).
 */
int mltcp_set_tiebreak(int fd, uint32_t q10);

/**
 * mltcp_iteration_begin() - mark the start of a training iteration
 * @fd: connected (or connecting) TCP socket on an MLTCP congestion control
 * @bytes: bytes of the new iteration (as mltcp_set_bytes_per_iter()), or
 *	0 to keep the current size
 *
 * Data written to the socket before this call still counts towards the
 * previous iteration.  From the first mark on, the kernel no longer uses
 * idle gaps to find this socket's iterations; every further mark
 * completes one iteration (mltcp_info.iterations advances by one).
 *
 * Return: 0, or -1 with errno EBADF, ENOTSOCK, EINVAL, ENOPROTOOPT,
 *	EOPNOTSUPP, or ENOTCONN (listening or not connected).
 */
int mltcp_iteration_begin(int fd, uint64_t bytes);

/**
 * mltcp_get_state() - read a socket's MLTCP state, up to ABI 2
 * @fd: connected TCP socket on an MLTCP congestion control
 * @st: its first MLTCP_INFO_SIZE_V2 bytes filled in on success (st->size
 *	says how many the module knew); fields a module older than this
 *	library does not know are zero
 *
 * Kept for callers built against the ABI 2 structure; mltcp_get_info()
 * also gives the later fields (the phase).
 *
 * Return: 0, or -1 with errno EBADF, ENOTSOCK, EINVAL (@st NULL),
 *	ENOPROTOOPT, EOPNOTSUPP, or ENOTCONN (listening or not connected).
 */
int mltcp_get_state(int fd, struct mltcp_info *st);

/**
 * mltcp_get_info() - read a socket's MLTCP state
 * @fd: connected TCP socket on an MLTCP congestion control
 * @st: filled in on success, at most @size bytes; st->size is the number
 *	of bytes the module (or the BPF backend) filled in, so a field is
 *	valid when st->size covers it (phase: MLTCP_INFO_SIZE_V3)
 * @size: sizeof(*st) as the caller was built, at least MLTCP_INFO_SIZE_V1
 *
 * Return: 0, or -1 with errno EBADF, ENOTSOCK, EINVAL (@st NULL or @size
 *	too small), ENOPROTOOPT, EOPNOTSUPP, or ENOTCONN.
 */
int mltcp_get_info(int fd, struct mltcp_info *st, size_t size);

/**
 * mltcp_q10_to_double() - convert a Q10 value (bytes_ratio, f) to double
 * @q10: fixed-point value, 1024 == 1.0
 */
static inline double mltcp_q10_to_double(uint32_t q10)
{
	return (double)q10 / MLTCP_ABI_Q10_ONE;
}

/*
 * Jobs and the process-wide registry
 *
 * A job is a set of sockets that start their iterations together, e.g. the
 * connections of one data-parallel worker.  The process-wide registry is a
 * job owned by the library (mltcp_register() and friends).  A job knows
 * each socket by its descriptor and its SO_COOKIE: a socket closed without
 * being removed drops out of the job the next time the job is used, and
 * its descriptor number, reused for another socket, is never acted upon.
 */
struct mltcp_job;

/**
 * mltcp_job_new() - create an empty job
 *
 * Return: the job, or NULL with errno ENOMEM.
 */
struct mltcp_job *mltcp_job_new(void);

/**
 * mltcp_job_free() - free a job; its sockets are not touched
 * @job: job or NULL
 */
void mltcp_job_free(struct mltcp_job *job);

/**
 * mltcp_job_add() - add a socket to a job
 * @job: job
 * @fd: TCP socket
 *
 * Return: 0, or -1 with errno:
 *	EINVAL       @job is NULL
 *	EBADF        @fd is negative or not open
 *	ENOTSOCK     @fd is not a socket
 *	ENOPROTOOPT  @fd is not a TCP socket
 *	EEXIST       @fd, the same socket, is already in @job
 *	ENOMEM       out of memory
 */
int mltcp_job_add(struct mltcp_job *job, int fd);

/**
 * mltcp_job_remove() - remove a socket from a job
 * @job: job
 * @fd: descriptor given to mltcp_job_add()
 *
 * Return: 0, or -1 with errno EINVAL (@job NULL) or ENOENT (not in @job).
 */
int mltcp_job_remove(struct mltcp_job *job, int fd);

/**
 * mltcp_job_size() - number of sockets in a job
 * @job: job
 *
 * Return: the count, or -1 with errno EINVAL (@job NULL).
 */
int mltcp_job_size(struct mltcp_job *job);

/**
 * mltcp_job_iteration_begin() - mltcp_iteration_begin() on every socket
 * @job: job
 * @bytes: as for mltcp_iteration_begin(), applied to each socket
 *
 * Every socket is attempted even if one fails.
 *
 * Return: 0 if all succeeded (also for an empty job), or -1 with errno
 *	of the first failure (EINVAL if @job is NULL or @bytes too large).
 */
int mltcp_job_iteration_begin(struct mltcp_job *job, uint64_t bytes);

/**
 * mltcp_job_set_bytes_per_iter() - mltcp_set_bytes_per_iter() on every
 *	socket of a job
 * @job: job
 * @bytes: as for mltcp_set_bytes_per_iter(), applied to each socket
 *
 * Return: as mltcp_job_iteration_begin().
 */
int mltcp_job_set_bytes_per_iter(struct mltcp_job *job, uint64_t bytes);

/**
 * mltcp_job_set_tiebreak() - one tie-break for every socket of a job
 * @job: job
 * @q10: as mltcp_set_tiebreak()
 *
 * Applies @q10 to the job's sockets and remembers it: sockets added to the
 * job later get it too (best effort, mltcp_job_add() does not fail on it).
 *
 * Return: 0, or -1 with errno EINVAL (@job NULL, @q10 too large) or the
 *	first socket's error.
 */
int mltcp_job_set_tiebreak(struct mltcp_job *job, uint32_t q10);

/**
 * mltcp_register() - add a socket to the process-wide registry
 * @fd: TCP socket
 *
 * Return: as mltcp_job_add().
 */
int mltcp_register(int fd);

/**
 * mltcp_unregister() - remove a socket from the process-wide registry
 * @fd: descriptor given to mltcp_register()
 *
 * Return: 0, or -1 with errno ENOENT.
 */
int mltcp_unregister(int fd);

/**
 * mltcp_iteration_begin_all() - mark an iteration start on every
 *	registered socket
 * @bytes: as for mltcp_iteration_begin(), applied to each socket
 *
 * Return: as mltcp_job_iteration_begin().
 */
int mltcp_iteration_begin_all(uint64_t bytes);

/**
 * mltcp_set_bytes_per_iter_all() - set bytes per iteration on every
 *	registered socket
 * @bytes: as for mltcp_set_bytes_per_iter(), applied to each socket
 *
 * Return: as mltcp_job_iteration_begin().
 */
int mltcp_set_bytes_per_iter_all(uint64_t bytes);

/**
 * mltcp_set_tiebreak_all() - mltcp_job_set_tiebreak() on the registry
 * @q10: as mltcp_set_tiebreak()
 *
 * Return: as mltcp_job_set_tiebreak().
 */
int mltcp_set_tiebreak_all(uint32_t q10);

#ifdef __cplusplus
}
#endif

#endif /* _MLTCP_LIBMLTCP_H */
