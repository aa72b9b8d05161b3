// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of libmltcp's argument checking and registry.  They run on
 * any Linux host: without the MLTCP module, the MLTCP options of a TCP
 * socket fail with ENOPROTOOPT; with it (in the bench VM), a TCP socket
 * on a non-MLTCP congestion control fails with EOPNOTSUPP.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "mltcp/libmltcp.h"
#include "../job_id.h"

/* errno a TCP socket on a non-MLTCP congestion control gets */
static int tcp_errno;

static int tcp_socket(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	return fd;
}

static int udp_socket(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	assert_true(fd >= 0);
	return fd;
}

static int closed_fd(void)
{
	int fd = tcp_socket();

	close(fd);
	return fd;
}

#define assert_fails(call, err) do {			\
	errno = 0;					\
	assert_int_equal((call), -1);			\
	assert_int_equal(errno, (err));			\
} while (0)

static void test_abi_version(void **state)
{
	int v;

	(void)state;
	errno = 0;
	v = mltcp_abi_version();
	if (v < 0)
		assert_int_equal(errno, ENOPROTOOPT);
	else
		assert_true(v >= 1);
}

static void test_enable_args(void **state)
{
	int tcp = tcp_socket(), udp = udp_socket(), sv[2], p[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(pipe(p), 0);

	assert_fails(mltcp_enable(-1, "mltcp_reno"), EBADF);
	assert_fails(mltcp_enable(closed_fd(), "mltcp_reno"), EBADF);
	assert_fails(mltcp_enable(tcp, "cubic"), EINVAL);
	assert_fails(mltcp_enable(tcp, ""), EINVAL);
	assert_fails(mltcp_enable(tcp, "mltcp_0123456789abcdef"), EINVAL);
	assert_fails(mltcp_enable(udp, "mltcp_reno"), ENOPROTOOPT);
	assert_fails(mltcp_enable(sv[0], "mltcp_reno"), ENOPROTOOPT);
	assert_fails(mltcp_enable(p[0], "mltcp_reno"), ENOTSOCK);
	/* a name the kernel does not know */
	assert_fails(mltcp_enable(tcp, "mltcp_nosuch"), ENOENT);

	close(tcp);
	close(udp);
	close(sv[0]);
	close(sv[1]);
	close(p[0]);
	close(p[1]);
}

static void test_set_and_begin_args(void **state)
{
	int tcp = tcp_socket(), udp = udp_socket(), sv[2], p[2];
	int (*const fns[])(int, uint64_t) = {
		mltcp_set_bytes_per_iter, mltcp_iteration_begin,
	};
	size_t i;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(pipe(p), 0);

	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		assert_fails(fns[i](-1, 65536), EBADF);
		assert_fails(fns[i](closed_fd(), 65536), EBADF);
		assert_fails(fns[i](tcp, MLTCP_BYTES_PER_ITER_MAX + 1), EINVAL);
		assert_fails(fns[i](tcp, UINT64_MAX), EINVAL);
		/* below the floor of an iteration */
		assert_fails(fns[i](tcp, 1), EINVAL);
		assert_fails(fns[i](tcp, MLTCP_BYTES_PER_ITER_MIN - 1), EINVAL);
		assert_fails(fns[i](udp, 65536), ENOPROTOOPT);
		assert_fails(fns[i](sv[0], 65536), ENOPROTOOPT);
		assert_fails(fns[i](p[1], 65536), ENOTSOCK);
	}
	/* a TCP socket, not on MLTCP (or no module) */
	assert_fails(mltcp_set_bytes_per_iter(tcp, 65536), tcp_errno);

	close(tcp);
	close(udp);
	close(sv[0]);
	close(sv[1]);
	close(p[0]);
	close(p[1]);
}

static void test_get_state_args(void **state)
{
	struct mltcp_info st;
	int tcp = tcp_socket(), udp = udp_socket(), p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	memset(&st, 0x5a, sizeof(st));

	assert_fails(mltcp_get_state(-1, &st), EBADF);
	assert_fails(mltcp_get_state(tcp, NULL), EINVAL);
	assert_fails(mltcp_get_state(closed_fd(), &st), EBADF);
	assert_fails(mltcp_get_state(udp, &st), ENOPROTOOPT);
	assert_fails(mltcp_get_state(p[0], &st), ENOTSOCK);
	assert_fails(mltcp_get_info(-1, &st, sizeof(st)), EBADF);
	assert_fails(mltcp_get_info(tcp, NULL, sizeof(st)), EINVAL);
	assert_fails(mltcp_get_info(tcp, &st, MLTCP_INFO_SIZE_V1 - 1), EINVAL);
	assert_fails(mltcp_get_info(udp, &st, sizeof(st)), ENOPROTOOPT);
	/* unconnected: ENOTCONN with the module, ENOPROTOOPT without */
	errno = 0;
	assert_int_equal(mltcp_get_state(tcp, &st), -1);
	assert_true(errno == ENOPROTOOPT || errno == ENOTCONN);
	/* st is untouched on failure */
	assert_int_equal(st.abi_version, 0x5a5a5a5a);

	close(tcp);
	close(udp);
	close(p[0]);
	close(p[1]);
}

static void test_job(void **state)
{
	struct mltcp_job *job = mltcp_job_new();
	int tcp = tcp_socket(), tcp2 = tcp_socket(), udp = udp_socket();

	(void)state;
	assert_non_null(job);
	assert_fails(mltcp_job_add(NULL, tcp), EINVAL);
	assert_fails(mltcp_job_remove(NULL, tcp), EINVAL);
	assert_fails(mltcp_job_size(NULL), EINVAL);
	assert_fails(mltcp_job_iteration_begin(NULL, 0), EINVAL);
	assert_fails(mltcp_job_set_bytes_per_iter(NULL, 0), EINVAL);

	assert_fails(mltcp_job_add(job, -1), EBADF);
	assert_fails(mltcp_job_add(job, udp), ENOPROTOOPT);
	assert_int_equal(mltcp_job_size(job), 0);
	/* an empty job succeeds */
	assert_int_equal(mltcp_job_iteration_begin(job, 0), 0);

	assert_int_equal(mltcp_job_add(job, tcp), 0);
	assert_fails(mltcp_job_add(job, tcp), EEXIST);
	assert_int_equal(mltcp_job_add(job, tcp2), 0);
	assert_int_equal(mltcp_job_size(job), 2);

	assert_fails(mltcp_job_iteration_begin(job, MLTCP_BYTES_PER_ITER_MAX + 1),
		     EINVAL);
	/* plain TCP sockets: every socket is tried, the first errno kept */
	assert_fails(mltcp_job_set_bytes_per_iter(job, 4096), EINVAL);
	assert_fails(mltcp_job_set_bytes_per_iter(job, 65536), tcp_errno);

	assert_fails(mltcp_job_remove(job, udp), ENOENT);
	assert_int_equal(mltcp_job_remove(job, tcp), 0);
	assert_fails(mltcp_job_remove(job, tcp), ENOENT);
	assert_int_equal(mltcp_job_size(job), 1);

	mltcp_job_free(job);
	mltcp_job_free(NULL);
	close(tcp);
	close(tcp2);
	close(udp);
}

static void test_registry(void **state)
{
	int tcp = tcp_socket();

	(void)state;
	assert_fails(mltcp_register(-5), EBADF);
	assert_fails(mltcp_unregister(tcp), ENOENT);
	assert_int_equal(mltcp_iteration_begin_all(0), 0);
	assert_int_equal(mltcp_register(tcp), 0);
	assert_fails(mltcp_register(tcp), EEXIST);
	assert_fails(mltcp_iteration_begin_all(UINT64_MAX), EINVAL);
	assert_fails(mltcp_set_bytes_per_iter_all(1), EINVAL);
	assert_fails(mltcp_set_bytes_per_iter_all(65536), tcp_errno);
	assert_int_equal(mltcp_unregister(tcp), 0);
	assert_int_equal(mltcp_iteration_begin_all(0), 0);
	close(tcp);
}

/*
 * A registered socket closed without mltcp_unregister(), its descriptor
 * number reused by another socket: the registry drops the old entry and
 * never acts on the new socket (a plain TCP socket, where any call fails).
 */
static void test_fd_reuse(void **state)
{
	struct mltcp_job *job = mltcp_job_new();
	int old = tcp_socket(), reused;

	(void)state;
	assert_non_null(job);
	assert_int_equal(mltcp_register(old), 0);
	assert_int_equal(mltcp_job_add(job, old), 0);
	assert_fails(mltcp_set_bytes_per_iter_all(65536), tcp_errno);
	close(old);
	reused = tcp_socket();
	assert_int_equal(reused, old);
	assert_int_equal(mltcp_set_bytes_per_iter_all(65536), 0);
	assert_int_equal(mltcp_iteration_begin_all(0), 0);
	assert_int_equal(mltcp_job_set_bytes_per_iter(job, 65536), 0);
	assert_int_equal(mltcp_job_size(job), 0);
	assert_fails(mltcp_unregister(reused), ENOENT);
	/* the new socket is a new member, not a duplicate */
	assert_int_equal(mltcp_register(reused), 0);
	assert_fails(mltcp_register(reused), EEXIST);
	assert_fails(mltcp_set_bytes_per_iter_all(65536), tcp_errno);
	assert_int_equal(mltcp_unregister(reused), 0);
	mltcp_job_free(job);
	close(reused);
}

#define NTHREADS 8
#define ROUNDS 2000

static struct mltcp_job *shared_job;

static void *churn(void *arg)
{
	int fd = *(int *)arg, i;

	for (i = 0; i < ROUNDS; i++) {
		if (mltcp_job_add(shared_job, fd) < 0 ||
		    mltcp_register(fd) < 0)
			return (void *)1;
		mltcp_job_iteration_begin(shared_job, 0);
		mltcp_iteration_begin_all(0);
		if (mltcp_job_remove(shared_job, fd) < 0 ||
		    mltcp_unregister(fd) < 0)
			return (void *)1;
	}
	return NULL;
}

static void test_threads(void **state)
{
	pthread_t th[NTHREADS];
	int fds[NTHREADS], i;
	void *ret;

	(void)state;
	shared_job = mltcp_job_new();
	assert_non_null(shared_job);
	for (i = 0; i < NTHREADS; i++) {
		fds[i] = tcp_socket();
		assert_int_equal(pthread_create(&th[i], NULL, churn, &fds[i]), 0);
	}
	for (i = 0; i < NTHREADS; i++) {
		assert_int_equal(pthread_join(th[i], &ret), 0);
		assert_null(ret);
		close(fds[i]);
	}
	assert_int_equal(mltcp_job_size(shared_job), 0);
	mltcp_job_free(shared_job);
}

static void test_q10(void **state)
{
	(void)state;
	assert_true(mltcp_q10_to_double(1536) == 1.5);
	assert_true(mltcp_q10_to_double(0) == 0.0);
	assert_true(mltcp_q10_to_double(MLTCP_ABI_Q10_ONE) == 1.0);
}

/* The launcher variables mltcp_job_identity() reads, cleared. */
static void clear_job_env(void)
{
	static const char *const vars[] = { "MLTCP_JOB_ID", "SLURM_JOB_ID", "SLURM_STEP_ID",
					    "TORCHELASTIC_RUN_ID", "MASTER_ADDR", "MASTER_PORT" };
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
}

/* MLTCP_TIEBREAK=job: the identity's sources in order, and none */
static void test_job_identity(void **state)
{
	char id[64], small[8];

	(void)state;
	clear_job_env();
	assert_int_equal(mltcp_job_identity(id, sizeof(id)), -1);
	setenv("TORCHELASTIC_RUN_ID", "none", 1);	/* torchrun without --rdzv-id */
	assert_int_equal(mltcp_job_identity(id, sizeof(id)), -1);
	setenv("MASTER_ADDR", "10.0.0.1", 1);
	setenv("MASTER_PORT", "29500", 1);
	assert_int_equal(mltcp_job_identity(id, sizeof(id)), 0);
	assert_string_equal(id, "master:10.0.0.1:29500");
	setenv("TORCHELASTIC_RUN_ID", "run7", 1);
	assert_int_equal(mltcp_job_identity(id, sizeof(id)), 0);
	assert_string_equal(id, "torchelastic:run7");
	setenv("SLURM_JOB_ID", "4242", 1);
	setenv("SLURM_STEP_ID", "0", 1);
	assert_int_equal(mltcp_job_identity(id, sizeof(id)), 0);
	assert_string_equal(id, "slurm:4242.0");
	setenv("MLTCP_JOB_ID", "", 1);			/* empty: not set */
	assert_int_equal(mltcp_job_identity(id, sizeof(id)), 0);
	assert_string_equal(id, "slurm:4242.0");
	setenv("MLTCP_JOB_ID", "bert-3", 1);
	assert_int_equal(mltcp_job_identity(id, sizeof(id)), 0);
	assert_string_equal(id, "job:bert-3");
	assert_int_equal(mltcp_job_identity(small, sizeof(small)), -1);
	clear_job_env();
}

/* One identity, one tie-break; identities a digit apart spread over the range */
static void test_job_tiebreak(void **state)
{
	unsigned int quarter[4] = { 0 }, i;
	char id[32];

	(void)state;
	/* SipHash-2-4 of the identity, as selftests/tiebreak.py computes it apart */
	assert_int_equal(mltcp_job_id_tiebreak("slurm:4242.0"), 193);
	assert_int_equal(mltcp_job_id_tiebreak("master:10.0.0.1:29500"), 107);
	assert_int_equal(mltcp_job_id_tiebreak("xxxxxxxx"), 168);	/* one whole block */
	assert_int_equal(mltcp_job_id_tiebreak("xxxxxxxxxxxxxxxx"), 896);
	assert_int_not_equal(mltcp_job_id_tiebreak("slurm:4242.0"),
			     mltcp_job_id_tiebreak("slurm:4243.0"));
	for (i = 0; i < 1000; i++) {
		uint32_t t;

		snprintf(id, sizeof(id), "slurm:%u.0", 1000 + i);
		t = mltcp_job_id_tiebreak(id);
		assert_true(t <= MLTCP_TIEBREAK_ABI_MAX);
		quarter[t * 4 / (MLTCP_TIEBREAK_ABI_MAX + 1)]++;
	}
	/* 250 expected in each; 190 is more than four standard deviations below */
	for (i = 0; i < 4; i++)
		assert_true(quarter[i] > 190);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abi_version),
		cmocka_unit_test(test_enable_args),
		cmocka_unit_test(test_set_and_begin_args),
		cmocka_unit_test(test_get_state_args),
		cmocka_unit_test(test_job),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_fd_reuse),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_q10),
		cmocka_unit_test(test_job_identity),
		cmocka_unit_test(test_job_tiebreak),
	};

	tcp_errno = mltcp_abi_version() < 0 ? ENOPROTOOPT : EOPNOTSUPP;
	return cmocka_run_group_tests_name("libmltcp", tests, NULL, NULL);
}
