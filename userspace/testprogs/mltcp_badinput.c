// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-badinput: every kind of bad input to the MLTCP socket options and
 * to the "mltcp" generic netlink family, each with the errno the ABI
 * documents (TAP).  The socket options are tried at level SOL_IP on IPv4
 * and IPv6 sockets and at level SOL_IPV6 on IPv6 sockets, which the ABI
 * says works too: each case must give the same errno at every level.
 * Sizes below MLTCP_BYTES_PER_ITER_MIN are refused and change nothing.
 * Run as root with mltcp_reno loaded; the global parameters must be
 * unchanged at the end.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "mltcp/libmltcp.h"
#include "common.h"
#include "nlraw.h"

#define ALGO "mltcp_reno"

/* The smallest size a socket may be given (the policy's floor). */
#ifndef MLTCP_BYTES_PER_ITER_MIN
#define MLTCP_BYTES_PER_ITER_MIN	16384
#endif
/* A valid size, for the cases about something else than the size. */
#define SIZE_OK	65536

/* the level the options are tried at: MLTCP_SOL (SOL_IP) or SOL_IPV6 */
static int level = MLTCP_SOL;

static int set_raw(int fd, int opt, const void *val, socklen_t len)
{
	errno = 0;
	return setsockopt(fd, level, opt, val, len) < 0 ? errno : 0;
}

static int get_raw(int fd, int opt, void *val, socklen_t *len)
{
	errno = 0;
	return getsockopt(fd, level, opt, val, len) < 0 ? errno : 0;
}

/* MLTCP_SO_INFO at the level under test.  Return: 0 or an errno. */
static int get_state(int fd, struct mltcp_info *st)
{
	socklen_t len = sizeof(*st);

	memset(st, 0, sizeof(*st));
	return get_raw(fd, MLTCP_SO_INFO, st, &len);
}

#define EXPECT(got, want, ...) do {					\
	int _g = (got), _w = (want);					\
	char _d[256];							\
	snprintf(_d, sizeof(_d), __VA_ARGS__);				\
	tap_ok(_g == _w, "%s: %s (want %s)", _d, errname(_g), errname(_w)); \
} while (0)

/* every option on @fd gives @err */
static void expect_all(int fd, int err, const char *what)
{
	uint64_t v = SIZE_OK;
	uint32_t tb = 512;
	struct mltcp_info st;
	socklen_t len = sizeof(st);

	EXPECT(set_raw(fd, MLTCP_SO_BYTES_PER_ITER, &v, sizeof(v)), err,
	       "%s: BYTES_PER_ITER", what);
	EXPECT(set_raw(fd, MLTCP_SO_TIEBREAK, &tb, sizeof(tb)), err,
	       "%s: TIEBREAK", what);
	EXPECT(set_raw(fd, MLTCP_SO_ITER_BEGIN, &v, sizeof(v)), err,
	       "%s: ITER_BEGIN", what);
	EXPECT(get_raw(fd, MLTCP_SO_INFO, &st, &len), err, "%s: INFO", what);
}

static void sockopt_tests(int family)
{
	const char *fam = family == AF_INET ? "v4" : level == MLTCP_SOL ? "v6" : "v6 SOL_IPV6";
	uint64_t v = SIZE_OK, big;
	char buf[128];
	struct mltcp_info st;
	socklen_t len;
	uint32_t ver;
	struct conn c, other;
	int fd, one = 1;
	char d[64];

	if (conn_open(&c, family, ALGO) < 0) {
		tap_ok(false, "%s: MLTCP connection: %s", fam, strerror(errno));
		return;
	}

	/* wrong option lengths */
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &v, 0), EINVAL, "%s: BYTES_PER_ITER optlen 0", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &v, 4), EINVAL, "%s: BYTES_PER_ITER optlen 4", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, buf, 9), EINVAL, "%s: BYTES_PER_ITER optlen 9", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, buf, 16), EINVAL, "%s: BYTES_PER_ITER optlen 16", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_ITER_BEGIN, &v, 4), EINVAL, "%s: ITER_BEGIN optlen 4", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_ITER_BEGIN, buf, 12), EINVAL, "%s: ITER_BEGIN optlen 12", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_ITER_BEGIN, NULL, 0), 0, "%s: ITER_BEGIN optlen 0, NULL", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_TIEBREAK, &v, 0), EINVAL, "%s: TIEBREAK optlen 0", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_TIEBREAK, &v, 2), EINVAL, "%s: TIEBREAK optlen 2", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_TIEBREAK, &v, 8), EINVAL, "%s: TIEBREAK optlen 8", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_TIEBREAK, NULL, 4), EFAULT, "%s: TIEBREAK NULL optval", fam);
	{
		uint32_t tb = 300, bad = MLTCP_TIEBREAK_ABI_MAX + 1;

		EXPECT(set_raw(c.cli, MLTCP_SO_TIEBREAK, &tb, 4), 0, "%s: TIEBREAK 300", fam);
		EXPECT(set_raw(c.cli, MLTCP_SO_TIEBREAK, &bad, 4), EINVAL, "%s: TIEBREAK 1025", fam);
		bad = UINT32_MAX;
		EXPECT(set_raw(c.cli, MLTCP_SO_TIEBREAK, &bad, 4), EINVAL, "%s: TIEBREAK 2^32-1", fam);
		tap_ok(get_state(c.cli, &st) == 0 && st.tiebreak == 300 &&
		       (st.flags & MLTCP_INFO_F_TIEBREAK_GIVEN),
		       "%s: rejected tie-breaks left it at 300 (%u)", fam, st.tiebreak);
	}
	for (len = 0; len < MLTCP_INFO_SIZE_V1; len += 21) {
		socklen_t l = len;

		snprintf(d, sizeof(d), "%s: INFO optlen %u", fam, len);
		EXPECT(get_raw(c.cli, MLTCP_SO_INFO, &st, &l), EINVAL, "%s", d);
	}
	len = MLTCP_INFO_SIZE_V1 - 1;
	EXPECT(get_raw(c.cli, MLTCP_SO_INFO, &st, &len), EINVAL, "%s: INFO optlen 63", fam);
	len = (socklen_t)-1;
	EXPECT(get_raw(c.cli, MLTCP_SO_INFO, &st, &len), EINVAL, "%s: INFO optlen -1", fam);
	len = sizeof(buf);
	EXPECT(get_raw(c.cli, MLTCP_SO_INFO, buf, &len), 0, "%s: INFO optlen 128", fam);
	tap_ok(len == MLTCP_INFO_SIZE_V3, "%s: INFO with a larger buffer returns %u bytes", fam, len);
	len = MLTCP_INFO_SIZE_V2;
	EXPECT(get_raw(c.cli, MLTCP_SO_INFO, buf, &len), 0, "%s: INFO optlen 72 (ABI 2 size)", fam);
	tap_ok(len == MLTCP_INFO_SIZE_V2, "%s: INFO with the ABI 2 size returns %u bytes", fam, len);
	len = MLTCP_INFO_SIZE_V1;
	EXPECT(get_raw(c.cli, MLTCP_SO_INFO, buf, &len), 0, "%s: INFO optlen 64 (ABI 1 size)", fam);
	tap_ok(len == MLTCP_INFO_SIZE_V1, "%s: INFO with the ABI 1 size returns %u bytes", fam, len);
	len = 2;
	EXPECT(get_raw(c.cli, MLTCP_SO_ABI_VERSION, &ver, &len), EINVAL, "%s: ABI_VERSION optlen 2", fam);
	len = 8;
	EXPECT(get_raw(c.cli, MLTCP_SO_ABI_VERSION, buf, &len), 0, "%s: ABI_VERSION optlen 8", fam);
	tap_ok(len == 4, "%s: ABI_VERSION returns 4 bytes (%u)", fam, len);

	/* NULL and invalid pointers */
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, NULL, 8), EFAULT, "%s: BYTES_PER_ITER NULL optval", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_ITER_BEGIN, (void *)8, 8), EFAULT, "%s: ITER_BEGIN optval 0x8", fam);
	len = sizeof(st);
	EXPECT(get_raw(c.cli, MLTCP_SO_INFO, NULL, &len), EFAULT, "%s: INFO NULL optval", fam);
	len = sizeof(st);
	EXPECT(get_raw(c.cli, MLTCP_SO_INFO, (void *)8, &len), EFAULT, "%s: INFO optval 0x8", fam);
	EXPECT(get_raw(c.cli, MLTCP_SO_INFO, &st, NULL), EFAULT, "%s: INFO NULL optlen", fam);
	EXPECT(get_raw(c.cli, MLTCP_SO_ABI_VERSION, &ver, (socklen_t *)8), EFAULT, "%s: ABI_VERSION optlen 0x8", fam);

	/* out-of-range values */
	big = MLTCP_BYTES_PER_ITER_MAX + 1;
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &big, 8), EINVAL, "%s: BYTES_PER_ITER 2^48+1", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_ITER_BEGIN, &big, 8), EINVAL, "%s: ITER_BEGIN 2^48+1", fam);
	big = UINT64_MAX;
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &big, 8), EINVAL, "%s: BYTES_PER_ITER 2^64-1", fam);
	big = MLTCP_BYTES_PER_ITER_MAX;
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &big, 8), 0, "%s: BYTES_PER_ITER 2^48", fam);
	/* option numbers next to ours */
	EXPECT(set_raw(c.cli, MLTCP_SO_SET_MAX, &v, 8), ENOPROTOOPT, "%s: set option MLTCP_SO_SET_MAX", fam);
	EXPECT(set_raw(c.cli, MLTCP_SO_BASE - 1, &v, 8), ENOPROTOOPT, "%s: set option MLTCP_SO_BASE-1", fam);
	len = sizeof(st);
	EXPECT(get_raw(c.cli, MLTCP_SO_GET_MAX, &st, &len), ENOPROTOOPT, "%s: get option MLTCP_SO_GET_MAX", fam);
	len = sizeof(st);
	EXPECT(get_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &st, &len), ENOPROTOOPT, "%s: getsockopt of a set-only option", fam);
	/* a failed call changed nothing */
	tap_ok(get_state(c.cli, &st) == 0 && st.bytes_per_iter == MLTCP_BYTES_PER_ITER_MAX,
	       "%s: rejected calls left bytes_per_iter alone (%llu)", fam,
	       (unsigned long long)st.bytes_per_iter);

	/* switched to another algorithm mid-connection, and back */
	tap_ok(setsockopt(c.cli, IPPROTO_TCP, TCP_CONGESTION, "reno", 4) == 0,
	       "%s: switch the connection to reno", fam);
	snprintf(d, sizeof(d), "%s: connection switched to reno", fam);
	expect_all(c.cli, EOPNOTSUPP, d);
	tap_ok(setsockopt(c.cli, IPPROTO_TCP, TCP_CONGESTION, ALGO, strlen(ALGO)) == 0 &&
	       get_state(c.cli, &st) == 0 && st.iterations == 0 && st.flags == 0 &&
	       st.bytes_per_iter == 0,
	       "%s: switched back to %s: fresh state", fam, ALGO);
	conn_close(&c);

	/* connections on other algorithms */
	if (conn_open(&other, family, "cubic") == 0) {
		snprintf(d, sizeof(d), "%s: cubic connection", fam);
		expect_all(other.cli, EOPNOTSUPP, d);
		conn_close(&other);
	} else {
		tap_ok(false, "%s: cubic connection: %s", fam, strerror(errno));
	}
	if (conn_open(&other, family, "reno") == 0) {
		snprintf(d, sizeof(d), "%s: reno connection", fam);
		expect_all(other.cli, EOPNOTSUPP, d);
		conn_close(&other);
	} else {
		tap_ok(false, "%s: reno connection: %s", fam, strerror(errno));
	}

	/* unconnected and listening sockets */
	fd = socket(family, SOCK_STREAM, 0);
	EXPECT(set_raw(fd, MLTCP_SO_BYTES_PER_ITER, &v, 8), EOPNOTSUPP, "%s: unconnected socket on cubic: BYTES_PER_ITER", fam);
	setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, ALGO, strlen(ALGO));
	EXPECT(set_raw(fd, MLTCP_SO_BYTES_PER_ITER, &v, 8), 0, "%s: unconnected socket on %s: BYTES_PER_ITER (kept for connect)", fam, ALGO);
	EXPECT(set_raw(fd, MLTCP_SO_ITER_BEGIN, NULL, 0), ENOTCONN, "%s: unconnected socket: ITER_BEGIN", fam);
	len = sizeof(st);
	EXPECT(get_raw(fd, MLTCP_SO_INFO, &st, &len), ENOTCONN, "%s: unconnected socket: INFO", fam);
	len = sizeof(ver);
	EXPECT(get_raw(fd, MLTCP_SO_ABI_VERSION, &ver, &len), 0, "%s: unconnected socket: ABI_VERSION", fam);
	tap_ok(ver == MLTCP_ABI_VERSION, "%s: ABI version %u", fam, ver);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	listen(fd, 1);
	snprintf(d, sizeof(d), "%s: listening socket", fam);
	expect_all(fd, ENOTCONN, d);
	close(fd);

	/* a connection reset by the peer (TCP_CLOSE, fd still open) */
	if (conn_open2(&other, family, ALGO, false) == 0) {
		struct linger lg = { .l_onoff = 1, .l_linger = 0 };
		int i;

		setsockopt(other.srv, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(other.srv);
		for (i = 0; i < 100; i++) {
			len = sizeof(st);
			if (get_raw(other.cli, MLTCP_SO_INFO, &st, &len) == ENOTCONN)
				break;
			usleep(10000);
		}
		len = sizeof(st);
		EXPECT(get_raw(other.cli, MLTCP_SO_INFO, &st, &len), ENOTCONN,
		       "%s: connection reset by the peer: INFO", fam);
		EXPECT(set_raw(other.cli, MLTCP_SO_ITER_BEGIN, NULL, 0), ENOTCONN,
		       "%s: connection reset by the peer: ITER_BEGIN", fam);
		close(other.cli);
	}

	/* non-TCP sockets */
	fd = socket(family, SOCK_DGRAM, 0);
	snprintf(d, sizeof(d), "%s: UDP socket", fam);
	expect_all(fd, ENOPROTOOPT, d);
	len = sizeof(ver);
	EXPECT(get_raw(fd, MLTCP_SO_ABI_VERSION, &ver, &len), ENOPROTOOPT, "%s: UDP: ABI_VERSION", fam);
	close(fd);
	fd = socket(family, SOCK_RAW, IPPROTO_UDP);
	if (fd >= 0) {
		snprintf(d, sizeof(d), "%s: raw socket", fam);
		expect_all(fd, ENOPROTOOPT, d);
		close(fd);
	}
}

/*
 * The floor: sizes 1 .. MLTCP_BYTES_PER_ITER_MIN - 1 are refused with
 * EINVAL by MLTCP_SO_BYTES_PER_ITER and by MLTCP_SO_ITER_BEGIN, and a
 * refused call changes nothing (no size, no mark, no completed
 * iteration); MLTCP_BYTES_PER_ITER_MIN itself is accepted, and 0 still
 * drops the hints.
 */
static void floor_tests(int family)
{
	const char *fam = family == AF_INET ? "v4" : level == MLTCP_SOL ? "v6" : "v6 SOL_IPV6";
	static const uint64_t small[] = { 1, MLTCP_BYTES_PER_ITER_MIN - 1 };
	uint64_t v;
	struct mltcp_info st;
	struct conn c;
	unsigned int i;
	int fd, rc;

	if (conn_open(&c, family, ALGO) < 0) {
		tap_ok(false, "%s: MLTCP connection: %s", fam, strerror(errno));
		return;
	}
	v = SIZE_OK;
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &v, 8), 0, "%s: BYTES_PER_ITER %d", fam, SIZE_OK);
	for (i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
		v = small[i];
		EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &v, 8), EINVAL,
		       "%s: BYTES_PER_ITER %llu (below the floor)", fam, (unsigned long long)v);
		EXPECT(set_raw(c.cli, MLTCP_SO_ITER_BEGIN, &v, 8), EINVAL,
		       "%s: ITER_BEGIN %llu (below the floor)", fam, (unsigned long long)v);
	}
	rc = get_state(c.cli, &st);
	tap_ok(!rc && st.bytes_per_iter == SIZE_OK && st.flags == MLTCP_INFO_F_SIZE_GIVEN &&
	       st.iterations == 0,
	       "%s: refused sizes changed nothing: bytes_per_iter %llu (want %d), flags %#x (want size given only), iterations %u",
	       fam, (unsigned long long)st.bytes_per_iter, SIZE_OK, st.flags, st.iterations);

	v = MLTCP_BYTES_PER_ITER_MIN;
	EXPECT(set_raw(c.cli, MLTCP_SO_ITER_BEGIN, &v, 8), 0, "%s: ITER_BEGIN %llu (the floor)", fam,
	       (unsigned long long)v);
	rc = get_state(c.cli, &st);
	tap_ok(!rc && st.bytes_per_iter == MLTCP_BYTES_PER_ITER_MIN &&
	       (st.flags & MLTCP_INFO_F_BOUNDS_GIVEN) && st.iterations == 0,
	       "%s: ITER_BEGIN %llu set the size and marked (bytes_per_iter %llu, flags %#x, iterations %u)",
	       fam, MLTCP_BYTES_PER_ITER_MIN, (unsigned long long)st.bytes_per_iter, st.flags,
	       st.iterations);
	/* after a mark, a further mark would complete an iteration: a refused one does not */
	send_all(c.cli, 4 * MLTCP_BYTES_PER_ITER_MIN);
	wait_acked(c.cli);
	for (i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
		v = small[i];
		EXPECT(set_raw(c.cli, MLTCP_SO_ITER_BEGIN, &v, 8), EINVAL,
		       "%s: marked socket: ITER_BEGIN %llu (below the floor)", fam, (unsigned long long)v);
	}
	rc = get_state(c.cli, &st);
	tap_ok(!rc && st.iterations == 0 && st.bytes_per_iter == MLTCP_BYTES_PER_ITER_MIN &&
	       st.bytes_this_iter == 4 * MLTCP_BYTES_PER_ITER_MIN,
	       "%s: refused marks completed no iteration (iterations %u, bytes_this_iter %llu, bytes_per_iter %llu)",
	       fam, st.iterations, (unsigned long long)st.bytes_this_iter,
	       (unsigned long long)st.bytes_per_iter);
	v = SIZE_OK;
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &v, 8), 0, "%s: BYTES_PER_ITER %d again", fam, SIZE_OK);
	v = MLTCP_BYTES_PER_ITER_MIN;
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &v, 8), 0, "%s: BYTES_PER_ITER %llu (the floor)",
	       fam, (unsigned long long)v);
	rc = get_state(c.cli, &st);
	tap_ok(!rc && st.bytes_per_iter == MLTCP_BYTES_PER_ITER_MIN,
	       "%s: BYTES_PER_ITER %llu accepted (bytes_per_iter %llu)", fam, MLTCP_BYTES_PER_ITER_MIN,
	       (unsigned long long)st.bytes_per_iter);
	v = 0;
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &v, 8), 0, "%s: BYTES_PER_ITER 0", fam);
	rc = get_state(c.cli, &st);
	tap_ok(!rc && st.bytes_per_iter == 0 &&
	       !(st.flags & (MLTCP_INFO_F_SIZE_GIVEN | MLTCP_INFO_F_BOUNDS_GIVEN)),
	       "%s: BYTES_PER_ITER 0 still drops the hints (bytes_per_iter %llu, flags %#x)", fam,
	       (unsigned long long)st.bytes_per_iter, st.flags);
	conn_close(&c);

	/* before connect() too: the value is checked before anything else */
	fd = socket(family, SOCK_STREAM, 0);
	setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, ALGO, strlen(ALGO));
	v = MLTCP_BYTES_PER_ITER_MIN - 1;
	EXPECT(set_raw(fd, MLTCP_SO_BYTES_PER_ITER, &v, 8), EINVAL,
	       "%s: unconnected socket on %s: BYTES_PER_ITER %llu", fam, ALGO, (unsigned long long)v);
	v = MLTCP_BYTES_PER_ITER_MIN;
	EXPECT(set_raw(fd, MLTCP_SO_BYTES_PER_ITER, &v, 8), 0,
	       "%s: unconnected socket on %s: BYTES_PER_ITER %llu", fam, ALGO, (unsigned long long)v);
	close(fd);
}

/*
 * The IPv4 layer knows no level SOL_IPV6: on an IPv4 socket the options
 * never reach MLTCP there.  setsockopt fails with ENOPROTOOPT and
 * getsockopt with EOPNOTSUPP (ip_setsockopt() and do_ip_getsockopt()
 * refuse any level but SOL_IP), and nothing changes.
 */
static void ipv4_at_sol_ipv6(void)
{
	uint64_t v = SIZE_OK, w = 2 * SIZE_OK;
	uint32_t tb = 512, ver;
	struct mltcp_info st;
	socklen_t len;
	struct conn c;

	if (conn_open(&c, AF_INET, ALGO) < 0) {
		tap_ok(false, "v4 at SOL_IPV6: MLTCP connection: %s", strerror(errno));
		return;
	}
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &v, 8), 0, "v4: BYTES_PER_ITER %d", SIZE_OK);
	level = SOL_IPV6;
	EXPECT(set_raw(c.cli, MLTCP_SO_BYTES_PER_ITER, &w, 8), ENOPROTOOPT,
	       "v4 socket at level SOL_IPV6: BYTES_PER_ITER");
	EXPECT(set_raw(c.cli, MLTCP_SO_ITER_BEGIN, &w, 8), ENOPROTOOPT,
	       "v4 socket at level SOL_IPV6: ITER_BEGIN");
	EXPECT(set_raw(c.cli, MLTCP_SO_TIEBREAK, &tb, 4), ENOPROTOOPT,
	       "v4 socket at level SOL_IPV6: TIEBREAK");
	len = sizeof(st);
	EXPECT(get_raw(c.cli, MLTCP_SO_INFO, &st, &len), EOPNOTSUPP,
	       "v4 socket at level SOL_IPV6: INFO");
	len = sizeof(ver);
	EXPECT(get_raw(c.cli, MLTCP_SO_ABI_VERSION, &ver, &len), EOPNOTSUPP,
	       "v4 socket at level SOL_IPV6: ABI_VERSION");
	level = MLTCP_SOL;
	tap_ok(get_state(c.cli, &st) == 0 && st.bytes_per_iter == SIZE_OK &&
	       st.flags == MLTCP_INFO_F_SIZE_GIVEN,
	       "v4 socket: the calls at SOL_IPV6 changed nothing (bytes_per_iter %llu, flags %#x)",
	       (unsigned long long)st.bytes_per_iter, st.flags);
	conn_close(&c);
}

static void unix_tests(void)
{
	int sv[2];
	struct mltcp_info st;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return;
	/* the kernel never asks MLTCP; libmltcp reports ENOPROTOOPT */
	errno = 0;
	mltcp_set_bytes_per_iter(sv[0], SIZE_OK);
	EXPECT(errno, ENOPROTOOPT, "unix socket via libmltcp: set_bytes_per_iter");
	errno = 0;
	mltcp_get_state(sv[0], &st);
	EXPECT(errno, ENOPROTOOPT, "unix socket via libmltcp: get_state");
	close(sv[0]);
	close(sv[1]);
}

/* ---- netlink ---------------------------------------------------------- */

static void snapshot(char *buf, size_t len)
{
	static const char *const names[] = { "slope", "intercept", "idle_ms", "mode" };
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < 4; i++) {
		char path[96], v[32] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/sys/module/mltcp/parameters/%s", names[i]);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(v, sizeof(v), f))
				v[0] = '\0';
			fclose(f);
		}
		v[strcspn(v, "\n")] = '\0';
		off += (size_t)snprintf(buf + off, len - off, "%s=%s ", names[i], v);
		if (off >= len)
			break;
	}
}

#define NL_EXPECT(nl, nlh, want, desc) do {				\
	char _m[160];							\
	int _r = nlraw_xfer(nl, nlh, _m, sizeof(_m), NULL);		\
	tap_ok(_r == (want) && (!(want) || _m[0]),			\
	       "netlink: %s: %s (want %s), extack \"%s\"", desc,	\
	       errname(-_r), errname(-(want)), _m);			\
} while (0)

/* Is this process in the initial network namespace (that of PID 1)? */
static bool in_init_netns(void)
{
	struct stat self, init;

	return !stat("/proc/self/ns/net", &self) && !stat("/proc/1/ns/net", &init) &&
	       self.st_dev == init.st_dev && self.st_ino == init.st_ino;
}

/*
 * The tie-break key: exactly MLTCP_TIEBREAK_KEY_LEN bytes, or EINVAL with a
 * message; never set here (test_32 checks the key in force held).
 */
static void key_tests(struct nlraw *nl)
{
	static const size_t lens[] = { 0, 1, MLTCP_TIEBREAK_KEY_LEN - 1, MLTCP_TIEBREAK_KEY_LEN + 1,
				       64 };
	uint8_t key[64] = { 0x5a };
	struct nlmsghdr *nlh;
	char desc[64];
	size_t i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
		mnl_attr_put(nlh, MLTCP_A_TIEBREAK_KEY, lens[i], key);
		snprintf(desc, sizeof(desc), "SET_PARAMS tie-break key of %zu bytes", lens[i]);
		NL_EXPECT(nl, nlh, -EINVAL, desc);
	}
	/* a valid slope beside a bad key: neither is applied (the snapshot) */
	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, 3000);
	mnl_attr_put(nlh, MLTCP_A_TIEBREAK_KEY, MLTCP_TIEBREAK_KEY_LEN - 1, key);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS slope and a 15-byte key");
	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u8(nlh, MLTCP_A_TIEBREAK_KEY_SET, 0);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS read-only attribute TIEBREAK_KEY_SET");
}

static void netlink_tests(void)
{
	struct nlraw *nl = nlraw_open();
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	struct nlattr *nest;
	char before[256], after[256];
	int r, n;

	if (!nl) {
		tap_ok(false, "netlink: family mltcp: %s", strerror(errno));
		return;
	}
	snapshot(before, sizeof(before));

	nlh = nlraw_req(nl, MLTCP_CMD_GET_PARAMS, 0);
	r = nlraw_xfer(nl, nlh, NULL, 0, &n);
	tap_ok(r == 0 && n == 1, "netlink: GET_PARAMS: one reply (%d, %s)", n, errname(-r));

	nlh = nlraw_req(nl, MLTCP_CMD_GET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, 1024);
	NL_EXPECT(nl, nlh, -EINVAL, "GET_PARAMS with an attribute");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_MAX + 5, 1);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS unknown attribute type");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_ABI_VERSION, 1);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS read-only attribute ABI_VERSION");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_UNSPEC, 1);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS attribute type 0");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u8(nlh, MLTCP_A_SLOPE, 1);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS slope as u8 (wrong length)");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u64(nlh, MLTCP_A_IDLE_MS, 10);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS idle_ms as u64 (wrong length)");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, 8193);
	NL_EXPECT(nl, nlh, -ERANGE, "SET_PARAMS slope 8193 (> 8.0)");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_INTERCEPT, 0);
	NL_EXPECT(nl, nlh, -ERANGE, "SET_PARAMS intercept 0");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_IDLE_MS, 0);
	NL_EXPECT(nl, nlh, -ERANGE, "SET_PARAMS idle_ms 0");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_IDLE_MS, 60001);
	NL_EXPECT(nl, nlh, -ERANGE, "SET_PARAMS idle_ms 60001");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u8(nlh, MLTCP_A_MODE, 3);
	NL_EXPECT(nl, nlh, -ERANGE, "SET_PARAMS mode 3");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_STAGGER, MLTCP_STAGGER_ABI_MAX + 1);
	NL_EXPECT(nl, nlh, -ERANGE, "SET_PARAMS stagger 1025 (> 1.0)");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_OVERRUN, 512);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS overrun 0.5 (below 1, not 0)");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_OVERRUN, 8 * 1024 + 1);
	NL_EXPECT(nl, nlh, -ERANGE, "SET_PARAMS overrun above 8");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u8(nlh, MLTCP_A_SCOPE, MLTCP_ABI_SCOPE_HOST);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS with a counters scope");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u8(nlh, MLTCP_A_DECREASE, 2);
	NL_EXPECT(nl, nlh, -ERANGE, "SET_PARAMS decrease 2");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_DECREASE, 1);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS decrease as u32 (wrong length)");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_ALGO, 1);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS read-only attribute ALGO");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS without attributes");

	key_tests(nl);

	/* all-or-nothing: a valid slope with an invalid mode changes nothing */
	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, 3000);
	mnl_attr_put_u32(nlh, MLTCP_A_IDLE_MS, 77);
	mnl_attr_put_u8(nlh, MLTCP_A_DECREASE, 0);
	mnl_attr_put_u8(nlh, MLTCP_A_MODE, 9);
	NL_EXPECT(nl, nlh, -ERANGE, "SET_PARAMS valid slope and idle_ms with invalid mode");

	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, 3000);
	nest = mnl_attr_nest_start(nlh, MLTCP_A_SOCK);
	mnl_attr_put_u32(nlh, MLTCP_SOCK_A_CWND, 1);
	mnl_attr_nest_end(nlh, nest);
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS with a socket nest");

	/* an attribute longer than the message */
	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, 3000);
	((struct nlattr *)((char *)nlh + NLMSG_HDRLEN + GENL_HDRLEN))->nla_len = 200;
	NL_EXPECT(nl, nlh, -EINVAL, "SET_PARAMS attribute length beyond the message");

	/* trailing garbage shorter than an attribute header */
	nlh = nlraw_req(nl, MLTCP_CMD_SET_PARAMS, 0);
	mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, 3000);
	nlh->nlmsg_len += 2;
	/* rejected by the netlink core, which gives no extack message here */
	r = nlraw_xfer(nl, nlh, NULL, 0, NULL);
	tap_ok(r == -EINVAL, "netlink: SET_PARAMS trailing bytes: %s (want EINVAL)", errname(-r));

	nlh = nlraw_req(nl, MLTCP_CMD_GET_PARAMS, 0);
	g = mnl_nlmsg_get_payload(nlh);
	g->reserved = 1;
	NL_EXPECT(nl, nlh, -EINVAL, "GET_PARAMS with the reserved header field set");

	nlh = nlraw_req(nl, MLTCP_CMD_GET_PARAMS, 0);
	nlh->nlmsg_len = NLMSG_HDRLEN + 2;
	r = nlraw_xfer(nl, nlh, NULL, 0, NULL);
	tap_ok(r == -EINVAL, "netlink: truncated generic netlink header: %s (want EINVAL)", errname(-r));

	nlh = nlraw_req(nl, 42, 0);
	r = nlraw_xfer(nl, nlh, NULL, 0, NULL);
	tap_ok(r == -EOPNOTSUPP, "netlink: unknown command 42: %s (want EOPNOTSUPP)", errname(-r));

	nlh = nlraw_req(nl, MLTCP_CMD_UNSPEC, 0);
	r = nlraw_xfer(nl, nlh, NULL, 0, NULL);
	tap_ok(r == -EOPNOTSUPP, "netlink: command 0: %s (want EOPNOTSUPP)", errname(-r));

	nlh = nlraw_req(nl, MLTCP_CMD_GET_PARAMS, NLM_F_DUMP);
	r = nlraw_xfer(nl, nlh, NULL, 0, NULL);
	tap_ok(r == -EOPNOTSUPP, "netlink: GET_PARAMS as a dump: %s (want EOPNOTSUPP)", errname(-r));

	nlh = nlraw_req(nl, MLTCP_CMD_GET_SOCKETS, 0);
	r = nlraw_xfer(nl, nlh, NULL, 0, NULL);
	tap_ok(r == -EOPNOTSUPP, "netlink: GET_SOCKETS without NLM_F_DUMP: %s (want EOPNOTSUPP)", errname(-r));

	nlh = nlraw_req(nl, MLTCP_CMD_GET_SOCKETS, NLM_F_DUMP);
	mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, 1);
	NL_EXPECT(nl, nlh, -EINVAL, "GET_SOCKETS dump with an attribute");

	nlh = nlraw_req(nl, MLTCP_CMD_GET_COUNTERS, NLM_F_DUMP);
	r = nlraw_xfer(nl, nlh, NULL, 0, &n);
	tap_ok(r == 0 && n >= 1, "netlink: GET_COUNTERS dump: %d algorithms (%s)", n, errname(-r));

	nlh = nlraw_req(nl, MLTCP_CMD_GET_COUNTERS, NLM_F_DUMP);
	mnl_attr_put_u8(nlh, MLTCP_A_SCOPE, MLTCP_ABI_SCOPE_NETNS);
	r = nlraw_xfer(nl, nlh, NULL, 0, &n);
	tap_ok(r == 0 && n >= 1, "netlink: GET_COUNTERS dump, scope netns: %d algorithms (%s)",
	       n, errname(-r));

	nlh = nlraw_req(nl, MLTCP_CMD_GET_COUNTERS, NLM_F_DUMP);
	mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, 1024);
	NL_EXPECT(nl, nlh, -EINVAL, "GET_COUNTERS dump with an attribute other than SCOPE");

	nlh = nlraw_req(nl, MLTCP_CMD_GET_COUNTERS, NLM_F_DUMP);
	mnl_attr_put_u32(nlh, MLTCP_A_SCOPE, MLTCP_ABI_SCOPE_HOST);
	NL_EXPECT(nl, nlh, -EINVAL, "GET_COUNTERS scope as u32 (wrong length)");

	nlh = nlraw_req(nl, MLTCP_CMD_GET_COUNTERS, NLM_F_DUMP);
	mnl_attr_put_u8(nlh, MLTCP_A_SCOPE, __MLTCP_ABI_SCOPE_MAX + 1);
	NL_EXPECT(nl, nlh, -ERANGE, "GET_COUNTERS unknown scope");

	/* host-wide: only in the initial network namespace (root here) */
	nlh = nlraw_req(nl, MLTCP_CMD_GET_COUNTERS, NLM_F_DUMP);
	mnl_attr_put_u8(nlh, MLTCP_A_SCOPE, MLTCP_ABI_SCOPE_HOST);
	if (in_init_netns()) {
		r = nlraw_xfer(nl, nlh, NULL, 0, &n);
		tap_ok(r == 0 && n >= 1, "netlink: GET_COUNTERS host scope in the initial netns: %d (%s)",
		       n, errname(-r));
	} else {
		char m[160];

		/* no extack message where the kernel gives a dump's start none (6.1) */
		r = nlraw_xfer(nl, nlh, m, sizeof(m), NULL);
		tap_ok(r == -EPERM, "netlink: GET_COUNTERS host scope from another netns: %s (want EPERM), extack \"%s\"",
		       errname(-r), m);
	}

	snapshot(after, sizeof(after));
	tap_ok(!strcmp(before, after), "netlink: parameters unchanged by rejected requests: %s", after);
	nlraw_close(nl);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	sockopt_tests(AF_INET);
	floor_tests(AF_INET);
	sockopt_tests(AF_INET6);
	floor_tests(AF_INET6);
	level = SOL_IPV6;
	sockopt_tests(AF_INET6);
	floor_tests(AF_INET6);
	level = MLTCP_SOL;
	ipv4_at_sol_ipv6();
	unix_tests();
	netlink_tests();
	return tap_finish();
}
