/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MLTCP userspace ABI: per-socket socket options and the "mltcp" generic
 * netlink family.
 *
 * Versioning
 * ----------
 * MLTCP_ABI_VERSION is bumped whenever this ABI changes in a way a caller
 * can observe.  Changes are additive only: option numbers, command and
 * attribute numbers are never reused, and struct mltcp_info only grows at
 * its end.  A program built against a newer header detects an older
 * module with getsockopt(MLTCP_SO_ABI_VERSION), with the abi_version
 * field of struct mltcp_info, with MLTCP_A_ABI_VERSION in every netlink
 * reply, or with the version of the generic netlink family.
 *
 * Fixed point
 * -----------
 * Fractional values (bytes_ratio, F, slope, intercept) are Q10: 1024 means
 * 1.0, so F = 1536 is 1.5.
 *
 * Socket options
 * --------------
 * The options are handled by the MLTCP module through netfilter's socket
 * option registry (nf_register_sockopt()), which the IP layer consults for
 * option numbers it does not know itself.  Use level MLTCP_SOL (== SOL_IP)
 * on AF_INET and AF_INET6 TCP sockets alike: an AF_INET6 socket passes
 * SOL_IP options on to the IPv4 code.  SOL_IPV6 works on AF_INET6 sockets
 * too.  The option numbers live in a private range, 0x4d4c00 ("ML" << 8)
 * and up, far above every option the IPv4 and IPv6 layers define (all
 * below 256: IP_* and IPV6_* below 100, the multicast routing options at
 * 200-212) and above the ranges other nf_sockopt users claim at these
 * levels (iptables/ip6tables 64-67, arptables 96-99, ipset 83, ebtables
 * 128-133, IPVS 1152-1163), so they collide with nothing and a future IP
 * option cannot shadow them.  Without the module loaded, or on a kernel
 * built without CONFIG_NETFILTER, every MLTCP option fails with
 * ENOPROTOOPT.
 *
 * Errors common to all MLTCP socket options:
 *   ENOPROTOOPT  module not loaded, or the socket is not a TCP socket
 *                (UDP, raw, SCTP, MPTCP, ...)
 *   EINVAL       option length is wrong, or a value is out of range
 *   EFAULT       the option buffer is not readable/writable
 *   ENOTCONN     the socket is listening; MLTCP_SO_ITER_BEGIN and
 *                MLTCP_SO_INFO also on a socket that is not connected
 *                (TCP_CLOSE: before connect() or after the connection
 *                ended)
 *   EOPNOTSUPP   the socket's congestion control is not an MLTCP one
 *                (set it first with TCP_CONGESTION, e.g. "mltcp_cubic")
 * MLTCP_SO_ABI_VERSION only fails with ENOPROTOOPT, EINVAL or EFAULT.
 *
 * Generic netlink
 * ---------------
 * Family MLTCP_GENL_NAME, version MLTCP_GENL_VERSION, no family header.
 * Every request is validated strictly: unknown attributes, attributes a
 * command does not take, wrong lengths and out-of-range values are
 * rejected with EINVAL (ERANGE for values outside a policy range) and an
 * extended ACK message.  MLTCP_CMD_SET_PARAMS requires CAP_NET_ADMIN in
 * the initial user namespace (the parameters are global, not per network
 * namespace): EPERM otherwise, and then nothing changes.
 *
 * Network namespaces: the family answers in every network namespace.  The
 * parameters are global; the sockets and counters a caller gets are those
 * of the network namespace of its netlink socket, unless an administrator
 * of the initial namespace asks for host-wide counters (MLTCP_A_SCOPE).
 * The counters' scope is told by MLTCP_A_SCOPE in each reply rather than
 * by a new MLTCP_ABI_VERSION: a MLTCP_CMD_GET_COUNTERS reply without it
 * comes from an older module, whose counters are host-wide, and such a
 * module refuses a request carrying MLTCP_A_SCOPE with EINVAL.
 */
#ifndef _UAPI_LINUX_MLTCP_H
#define _UAPI_LINUX_MLTCP_H

#include <linux/types.h>

#define MLTCP_ABI_VERSION	3

/* Q10 fixed point */
#define MLTCP_ABI_Q10_ONE	1024

/* Largest stagger and tie-break, Q10 (1.0) */
#define MLTCP_STAGGER_ABI_MAX	1024
#define MLTCP_TIEBREAK_ABI_MAX	1024

/*
 * Bytes per iteration accepted: at least 16 KiB (about TCP's initial window;
 * smaller iterations are not iterations MLTCP helps), at most 256 TiB.
 */
#define MLTCP_BYTES_PER_ITER_MIN	(16ULL << 10)
#define MLTCP_BYTES_PER_ITER_MAX	(1ULL << 48)

/*
 * What a socket can get, whatever it sends and whatever it hints.  F, the
 * factor on its base algorithm's increase (and the divisor of its decrease),
 * stays within [intercept, slope + intercept] and differs from 1 only
 *  - inside an iteration of known size (declared with the options below,
 *    or learned from idle gaps) of at least MLTCP_BYTES_PER_ITER_MIN: a
 *    flow with no iteration structure runs as its base algorithm;
 *  - for the iteration's first `overrun` times its size (the module
 *    parameter mltcp.overrun, default 1.25): past that, F is 1 until the
 *    next iteration boundary (an idle gap the learner takes for an
 *    iteration gap, or a mark);
 *  - once the iteration's first transmission after an idle gap (its
 *    compute phase) has happened: marking a stream that never pauses
 *    gives the base algorithm.
 * The tie-break (MLTCP_SO_TIEBREAK) moves where F starts within that
 * range, for those bytes only: a head start over other MLTCP jobs, never
 * more than the top of F against other traffic.  None of this needs a
 * privilege; the global parameters (netlink, sysfs) need CAP_NET_ADMIN.
 */

/* Length of a congestion control name, with the NUL (TCP_CA_NAME_MAX). */
#define MLTCP_ALGO_NAME_MAX	16

/* Global mode (MLTCP_A_MODE, mltcp_info.mode) */
enum mltcp_abi_mode {
	/* learn iteration sizes from idle gaps unless a socket got hints */
	MLTCP_ABI_MODE_LEARNED = 0,
	/* only sockets that got hints through the socket options use F */
	MLTCP_ABI_MODE_GIVEN = 1,
	/* F = 1 for every socket: the plain base algorithms */
	MLTCP_ABI_MODE_OFF = 2,
	__MLTCP_ABI_MODE_MAX = MLTCP_ABI_MODE_OFF,
};

/*
 * A socket's phase within its iterations (mltcp_info.phase, MLTCP_SOCK_A_PHASE,
 * ABI 3).  F is 1 in BASE, UNEARNED and OVERRUN.
 *
 * BASE      no iteration F applies to (mode off, the size unknown or too
 *           small, or no hints in mode given): the base algorithm
 * UNEARNED  marked, or a new size declared, and not yet earned by an idle gap
 * OVERRUN   the iteration carried more than overrun times its size, until it ends
 * RAMP      F rises with the iteration's bytes, from intercept to slope + intercept
 * TOP       the flow takes no turns (the deepest backoff, and a cut of the
 *           window this iteration): F stays at slope + intercept
 * YIELD     the window restarted at the iteration's start and holds while
 *           another flow's queue shows
 */
enum mltcp_abi_phase {
	MLTCP_ABI_PHASE_BASE = 0,
	MLTCP_ABI_PHASE_UNEARNED = 1,
	MLTCP_ABI_PHASE_OVERRUN = 2,
	MLTCP_ABI_PHASE_RAMP = 3,
	MLTCP_ABI_PHASE_TOP = 4,
	MLTCP_ABI_PHASE_YIELD = 5,
	__MLTCP_ABI_PHASE_MAX = MLTCP_ABI_PHASE_YIELD,
};

/* ---- socket options ---------------------------------------------------- */

#define MLTCP_SOL		0	/* SOL_IP */
#define MLTCP_SO_BASE		0x4d4c00

/*
 * setsockopt options
 *
 * MLTCP_SO_BYTES_PER_ITER: optval is a __u64, optlen 8.  The bytes this
 *	socket sends per iteration, MLTCP_BYTES_PER_ITER_MIN ..
 *	MLTCP_BYTES_PER_ITER_MAX (EINVAL outside); 0 drops every hint (size
 *	and iteration marks) and goes back to learning (a pending mark still
 *	waits for its idle gap).
 *	May be set before connect(): the hint is kept when the connection
 *	starts.  A size set or changed gives F = 1 until an iteration that
 *	ends at an idle gap has carried about that size (half of it up to
 *	the overrun bound): an honest job's first iteration runs with F = 1.
 * MLTCP_SO_ITER_BEGIN: optlen 0 (optval ignored), or optval a __u64 with
 *	optlen 8.  Marks the start of an iteration: data written to the
 *	socket before the call still belongs to the previous iteration.  A
 *	non-zero __u64 (in the range of MLTCP_SO_BYTES_PER_ITER) also sets
 *	the size of the new iteration; 0 keeps the size.
 *	After the first mark, idle gaps no longer end this socket's
 *	iterations; each further mark completes one.
 * MLTCP_SO_TIEBREAK (ABI 2): optval is a __u32, optlen 4, Q10 in
 *	[0, MLTCP_TIEBREAK_ABI_MAX].  The socket's tie-break: F is computed
 *	as if the socket were tiebreak * stagger (MLTCP_A_STAGGER) of an
 *	iteration further through its iteration, which breaks the lockstep
 *	of identical jobs started together.  Each socket draws a random
 *	tie-break when its connection starts; give all sockets of one job
 *	the same value so that the job, not each flow, gets the head start.
 *	May be set before connect().
 */
#define MLTCP_SO_BYTES_PER_ITER	(MLTCP_SO_BASE + 0)
#define MLTCP_SO_ITER_BEGIN	(MLTCP_SO_BASE + 1)
#define MLTCP_SO_TIEBREAK	(MLTCP_SO_BASE + 2)
#define MLTCP_SO_SET_MAX	(MLTCP_SO_BASE + 3)	/* exclusive */

/*
 * getsockopt options
 *
 * MLTCP_SO_INFO: optval is a struct mltcp_info, optlen at least
 *	MLTCP_INFO_SIZE_V1.  A longer buffer is filled up to the size the
 *	module knows, and optlen is set to the number of bytes written (as
 *	for TCP_INFO).
 * MLTCP_SO_ABI_VERSION: optval is a __u32, optlen at least 4; receives
 *	MLTCP_ABI_VERSION of the loaded module.  Works on every TCP socket,
 *	whatever its state and congestion control.
 */
#define MLTCP_SO_INFO		(MLTCP_SO_BASE + 16)
#define MLTCP_SO_ABI_VERSION	(MLTCP_SO_BASE + 17)
#define MLTCP_SO_GET_MAX	(MLTCP_SO_BASE + 18)	/* exclusive */

/* mltcp_info.flags and MLTCP_SOCK_A_FLAGS */
#define MLTCP_INFO_F_SIZE_GIVEN		0x1	/* size set by the application */
#define MLTCP_INFO_F_BOUNDS_GIVEN	0x2	/* iteration marks by the application */
#define MLTCP_INFO_F_TIEBREAK_GIVEN	0x4	/* tie-break set by the application */
#define MLTCP_INFO_F_OVERRUN		0x8	/* the iteration passed its bound: F is 1 */
#define MLTCP_INFO_F_UNEARNED		0x10	/* marked, no idle gap since: F is 1 */

/**
 * struct mltcp_info - MLTCP state of one socket (MLTCP_SO_INFO)
 * @abi_version: MLTCP_ABI_VERSION of the module that filled this in
 * @size: bytes of this structure the module filled in
 * @algo: congestion control name, NUL-terminated
 * @mode: global enum mltcp_abi_mode in force
 * @flags: MLTCP_INFO_F_*
 * @reserved0: zero
 * @iterations: iterations completed on this socket
 * @bytes_this_iter: bytes acknowledged in the current iteration
 * @bytes_per_iter: bytes per iteration in use (given or learned), 0 = unknown
 * @bytes_ratio: bytes_this_iter / bytes_per_iter clamped to [0, 1], Q10
 * @f: factor F applied to the additive increase right now, Q10
 * @cwnd: congestion window, segments
 * @tiebreak: the socket's tie-break, Q10 (ABI 2; reserved and zero in 1)
 * @stagger: global stagger in force, Q10 (ABI 2, MLTCP_INFO_SIZE_V2)
 * @decrease: 1 when F also divides the multiplicative decrease (ABI 2)
 * @head_start: 1: the tie-break gives this socket a head start of
 *	tiebreak * stagger once F applies; every socket's does since 1.0.0
 *	(earlier ABI 2 builds gave none to learned sockets and reported 0) (ABI 2)
 * @reserved2: zero
 * @phase: enum mltcp_abi_phase (ABI 3, MLTCP_INFO_SIZE_V3): valid only when
 *	@size is at least MLTCP_INFO_SIZE_V3, else an older module left it zero
 * @reserved3: zero
 */
struct mltcp_info {
	__u32	abi_version;
	__u32	size;
	char	algo[MLTCP_ALGO_NAME_MAX];
	__u8	mode;
	__u8	flags;
	__u16	reserved0;
	__u32	iterations;
	__aligned_u64	bytes_this_iter;
	__aligned_u64	bytes_per_iter;
	__u32	bytes_ratio;
	__u32	f;
	__u32	cwnd;
	__u32	tiebreak;
	__u32	stagger;
	__u8	decrease;
	__u8	head_start;
	__u16	reserved2;
	__u8	phase;
	__u8	reserved3[7];
};

#define MLTCP_INFO_SIZE_V1	64
#define MLTCP_INFO_SIZE_V2	72
#define MLTCP_INFO_SIZE_V3	80

/* ---- generic netlink ---------------------------------------------------- */

#define MLTCP_GENL_NAME		"mltcp"
#define MLTCP_GENL_VERSION	1

/*
 * Commands
 *
 * MLTCP_CMD_GET_PARAMS (do): no attributes.  Reply: ABI_VERSION, SLOPE,
 *	INTERCEPT, IDLE_MS, MODE, DECREASE, STAGGER, OVERRUN, TIEBREAK_KEY_SET.
 * MLTCP_CMD_SET_PARAMS (do, CAP_NET_ADMIN in the initial user namespace):
 *	any non-empty subset of SLOPE, INTERCEPT, IDLE_MS, MODE, DECREASE,
 *	STAGGER, OVERRUN, TIEBREAK_KEY.  Every value
 *	is checked before any changes; slope and intercept given together
 *	change atomically.  No reply beyond the ACK.
 *
 * The tie-break key (MLTCP_A_TIEBREAK_KEY) is the 128-bit SipHash key each
 * connection's drawn tie-break is computed under (MLTCP_SO_TIEBREAK): the
 * module draws one at random when it loads, so the two ends of a connection
 * between two hosts draw different values.  Hosts given the same key draw
 * the same tie-break for a connection at both ends.  Exactly
 * MLTCP_TIEBREAK_KEY_LEN bytes (EINVAL otherwise, with an extended ACK
 * message); it applies to connections that draw their tie-break afterwards.
 * The key is never reported: GET_PARAMS gives TIEBREAK_KEY_SET, 1 once an
 * administrator has set one (until the module is unloaded).  Like SCOPE,
 * it is told by its presence rather than by a new MLTCP_ABI_VERSION: a
 * GET_PARAMS reply without TIEBREAK_KEY_SET comes from an older module,
 * which refuses TIEBREAK_KEY with EINVAL.
 * MLTCP_CMD_GET_SOCKETS (dump): no attributes.  One message per MLTCP
 *	socket in the caller's network namespace, each with ABI_VERSION and
 *	one MLTCP_A_SOCK nest.  Like any dump it is not an atomic snapshot:
 *	sockets opened or closed during the dump may or may not appear.
 * MLTCP_CMD_GET_COUNTERS (dump): optional SCOPE, no other attribute.
 *	One message per loaded MLTCP congestion control, each with
 *	ABI_VERSION, SCOPE and one MLTCP_A_ALGO nest.  Without SCOPE, or
 *	with MLTCP_ABI_SCOPE_NETNS, the counters are those of the caller's
 *	network namespace: its own sockets and iterations only, zero for a
 *	namespace that never ran the algorithm.  Sockets made by the kernel
 *	itself (sk_net_refcnt 0, e.g. a kernel service's connections) are
 *	counted host-wide only.  MLTCP_ABI_SCOPE_HOST gives the host-wide
 *	totals, every namespace and kernel socket included, to a caller
 *	whose netlink socket is in the initial network namespace and that
 *	has CAP_NET_ADMIN in the initial user namespace; anyone else gets
 *	EPERM, as the dump's start fails, before any message.  The same
 *	host-wide totals are the algorithm modules' parameters
 *	/sys/module/<algo>/parameters/{sockets,sockets_total,
 *	iterations_learned,iterations_given}, readable by root only (0400).
 */
enum mltcp_cmd {
	MLTCP_CMD_UNSPEC,
	MLTCP_CMD_GET_PARAMS,
	MLTCP_CMD_SET_PARAMS,
	MLTCP_CMD_GET_SOCKETS,
	MLTCP_CMD_GET_COUNTERS,
	__MLTCP_CMD_MAX,
};
#define MLTCP_CMD_MAX (__MLTCP_CMD_MAX - 1)

/* Scope of the counters (MLTCP_A_SCOPE) */
enum mltcp_abi_scope {
	/* the caller's network namespace (the default) */
	MLTCP_ABI_SCOPE_NETNS = 0,
	/* every network namespace: CAP_NET_ADMIN in the initial namespaces */
	MLTCP_ABI_SCOPE_HOST = 1,
	__MLTCP_ABI_SCOPE_MAX = MLTCP_ABI_SCOPE_HOST,
};

/* Length of the tie-break key (MLTCP_A_TIEBREAK_KEY), bytes */
#define MLTCP_TIEBREAK_KEY_LEN	16

/* Top-level attributes */
enum mltcp_attr {
	MLTCP_A_UNSPEC,
	MLTCP_A_ABI_VERSION,	/* u32, replies only */
	MLTCP_A_SLOPE,		/* u32, Q10, 0 .. 8192 */
	MLTCP_A_INTERCEPT,	/* u32, Q10, 1 .. 8192 */
	MLTCP_A_IDLE_MS,	/* u32, milliseconds, 1 .. 60000 */
	MLTCP_A_MODE,		/* u8, enum mltcp_abi_mode */
	MLTCP_A_SOCK,		/* nest, enum mltcp_sock_attr; replies only */
	MLTCP_A_ALGO,		/* nest, enum mltcp_algo_attr; replies only */
	MLTCP_A_DECREASE,	/* u8, 0 or 1: F also divides the decrease (ABI 2) */
	MLTCP_A_STAGGER,	/* u32, Q10, 0 .. 1024: largest head start (ABI 2) */
	MLTCP_A_SCOPE,		/* u8, enum mltcp_abi_scope: MLTCP_CMD_GET_COUNTERS */
	MLTCP_A_OVERRUN,	/* u32, Q10, 0 or 1024 .. 8192: F's bytes per iteration, x size */
	MLTCP_A_TIEBREAK_KEY,	/* binary, MLTCP_TIEBREAK_KEY_LEN bytes: SET_PARAMS only */
	MLTCP_A_TIEBREAK_KEY_SET, /* u8, replies only: 1 once an administrator set the key */
	__MLTCP_A_MAX,
};
#define MLTCP_A_MAX (__MLTCP_A_MAX - 1)

/*
 * Attributes of one socket (MLTCP_A_SOCK).  Addresses are in network byte
 * order, ports in host byte order.  An AF_INET6 socket talking IPv4
 * reports its v4-mapped addresses.
 */
enum mltcp_sock_attr {
	MLTCP_SOCK_A_UNSPEC,
	MLTCP_SOCK_A_PAD,
	MLTCP_SOCK_A_FAMILY,		/* u8, AF_INET or AF_INET6 */
	MLTCP_SOCK_A_PROTOCOL,		/* u8, IPPROTO_TCP */
	MLTCP_SOCK_A_SADDR4,		/* be32, AF_INET */
	MLTCP_SOCK_A_DADDR4,		/* be32, AF_INET */
	MLTCP_SOCK_A_SADDR6,		/* 16 bytes, AF_INET6 */
	MLTCP_SOCK_A_DADDR6,		/* 16 bytes, AF_INET6 */
	MLTCP_SOCK_A_SPORT,		/* u16 */
	MLTCP_SOCK_A_DPORT,		/* u16 */
	MLTCP_SOCK_A_TCP_STATE,		/* u8, TCP_ESTABLISHED, ... */
	MLTCP_SOCK_A_INODE,		/* u64, socket inode, 0 if orphaned */
	MLTCP_SOCK_A_ALGO,		/* string */
	MLTCP_SOCK_A_MODE,		/* u8, enum mltcp_abi_mode */
	MLTCP_SOCK_A_FLAGS,		/* u32, MLTCP_INFO_F_* */
	MLTCP_SOCK_A_ITERATIONS,	/* u32 */
	MLTCP_SOCK_A_BYTES_THIS_ITER,	/* u64 */
	MLTCP_SOCK_A_BYTES_PER_ITER,	/* u64 */
	MLTCP_SOCK_A_BYTES_RATIO,	/* u32, Q10 */
	MLTCP_SOCK_A_F,			/* u32, Q10 */
	MLTCP_SOCK_A_CWND,		/* u32, segments */
	MLTCP_SOCK_A_TIEBREAK,		/* u32, Q10 (ABI 2) */
	MLTCP_SOCK_A_PHASE,		/* u8, enum mltcp_abi_phase (ABI 3) */
	__MLTCP_SOCK_A_MAX,
};
#define MLTCP_SOCK_A_MAX (__MLTCP_SOCK_A_MAX - 1)

/*
 * Counters of one MLTCP congestion control (MLTCP_A_ALGO), in the scope
 * the reply's MLTCP_A_SCOPE gives.  "Since it loaded" is since the
 * namespace was made, for a namespace made after the module loaded.
 */
enum mltcp_algo_attr {
	MLTCP_ALGO_A_UNSPEC,
	MLTCP_ALGO_A_PAD,
	MLTCP_ALGO_A_NAME,		/* string */
	MLTCP_ALGO_A_SOCKETS,		/* u64, sockets using it now */
	MLTCP_ALGO_A_SOCKETS_TOTAL,	/* u64, sockets since it loaded */
	MLTCP_ALGO_A_ITERS_LEARNED,	/* u64, iterations ended by idle gaps */
	MLTCP_ALGO_A_ITERS_GIVEN,	/* u64, iterations ended by marks */
	__MLTCP_ALGO_A_MAX,
};
#define MLTCP_ALGO_A_MAX (__MLTCP_ALGO_A_MAX - 1)

#endif /* _UAPI_LINUX_MLTCP_H */
