/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP kernel-internal API: what the congestion-control modules and the
 * control plane call in the shared core (mltcp.ko).
 */
#ifndef _MLTCP_H
#define _MLTCP_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <net/tcp.h>

#include "mltcp_compat.h"
#include "mltcp_core.h"

/* The counters of an algorithm (enum mltcp_counter indexes struct mltcp_counters.c). */
enum mltcp_counter {
	MLTCP_CNT_SOCKETS,	/* sockets using the algorithm now (init ran, release not yet) */
	MLTCP_CNT_SOCKETS_TOTAL, /* sockets that ever ran init */
	MLTCP_CNT_ITERS_LEARNED, /* iterations completed by an idle gap */
	MLTCP_CNT_ITERS_GIVEN,	/* iterations completed by a control-plane mark */
	MLTCP_CNT_NUM,
};

/**
 * struct mltcp_counters - one set of an algorithm's counters
 * @c: indexed by enum mltcp_counter; atomics, touched on a socket's init,
 *	release and iteration events only, never per ACK
 */
struct mltcp_counters {
	atomic_long_t c[MLTCP_CNT_NUM];
};

/* Algorithms registered at once, at most (the per-namespace counter slots). */
#define MLTCP_ALGO_SLOTS	8

/**
 * struct mltcp_algo - an MLTCP congestion control and its counters
 * @ops: the tcp_congestion_ops registered with TCP
 * @alt_ops: optional second ops of the same algorithm that a socket may be
 *	switched to in its init hook (DCTCP without ECN); not registered with
 *	TCP, same owner, shares the counters
 * @node: entry in the core's registry (RCU list)
 * @slot: index of the algorithm's counters in each network namespace's
 *	counters, given by mltcp_register(), < MLTCP_ALGO_SLOTS
 * @host: host-wide counters: every socket of every network namespace
 *
 * The core finds a socket's algorithm by its icsk_ca_ops (@ops or
 * @alt_ops) in the registry; that is never done per ACK.  Each socket is
 * counted in @host and in the counters of its network namespace (see
 * mltcp_count() for the sockets only @host counts).  The control plane
 * reads both (MLTCP_CMD_GET_COUNTERS); @host is also the algorithm
 * module's root-only parameters, see MLTCP_ALGO_COUNTERS().
 */
struct mltcp_algo {
	struct tcp_congestion_ops ops;
	const struct tcp_congestion_ops *alt_ops;
	struct list_head node;
	unsigned int slot;
	struct mltcp_counters host;
};

/**
 * struct mltcp_sock_state - snapshot of a socket's MLTCP state
 * @algo: congestion control name
 * @mode: global enum mltcp_mode in force
 * @size_given: bytes per iteration came from the control plane
 * @bounds_given: iteration starts come from the control plane
 * @bytes_this_iter: bytes acked in the current iteration
 * @bytes_per_iter: bytes per iteration, 0 = unknown
 * @bytes_ratio: Q10, [0, 1024]
 * @f: Q10 factor applied to the additive increase right now
 * @iterations: iterations completed on this socket
 * @cwnd: congestion window, segments
 * @tiebreak: Q10 tie-break; the head start is tiebreak * stagger
 * @tiebreak_given: the tie-break was set by the control plane
 * @stagger: global stagger in force, Q10
 * @decrease: F also divides the multiplicative decrease
 * @head_start: the tie-break gives the socket a head start (every socket's does)
 * @overrun: the iteration carried more than its bound: F is 1 until the next one
 * @unearned: a mark not yet followed by an idle gap: F is 1 until there is one
 * @phase: enum mltcp_phase (mltcp_phase())
 */
struct mltcp_sock_state {
	char algo[TCP_CA_NAME_MAX];
	u8 mode;
	bool size_given;
	bool bounds_given;
	u64 bytes_this_iter;
	u64 bytes_per_iter;
	u32 bytes_ratio;
	u32 f;
	u32 iterations;
	u32 cwnd;
	u32 tiebreak;
	bool tiebreak_given;
	u32 stagger;
	bool decrease;
	bool head_start;
	bool overrun;
	bool unearned;
	u8 phase;
};

/* The MLTCP state must sit at offset 0 of the algorithm's private area. */
#define MLTCP_CHECK_PRIV(type, member)					\
	do {								\
		BUILD_BUG_ON(offsetof(type, member) != 0);		\
		BUILD_BUG_ON(sizeof(type) > ICSK_CA_PRIV_SIZE);		\
	} while (0)

static inline struct mltcp_sock *mltcp_sk(const struct sock *sk)
{
	return inet_csk_ca(sk);
}

/* Registry; mltcp_register() also registers the ops with TCP. */
int mltcp_register(struct mltcp_algo *algo);
void mltcp_unregister(struct mltcp_algo *algo);

/* Hooks for the algorithms' tcp_congestion_ops. */
void mltcp_ca_init(struct sock *sk);
void mltcp_ca_release(struct sock *sk);
void mltcp_ca_cwnd_event(struct sock *sk, enum tcp_ca_event ev);
bool mltcp_ca_ack(struct sock *sk, u32 *acked, bool cwnd_limited);
void mltcp_reno_cong_avoid(struct sock *sk, u32 ack, u32 acked);

/**
 * mltcp_cong_avoid() - MLTCP's part of a cong_avoid hook
 * @sk: socket
 * @acked: in: segments newly acknowledged; out: the F-scaled credit the
 *	base algorithm's congestion avoidance increases by (may be 0)
 *
 * The core's ACK entry (mltcp_hook_ack(), through mltcp_ca_ack()): the
 * yield, slow start, and the F-scaled credit of congestion avoidance.  An
 * ACK that changes nothing (mltcp_ack_busy()) makes no call.
 *
 * Return: true when the base algorithm's congestion avoidance has work.
 */
static inline bool mltcp_cong_avoid(struct sock *sk, u32 *acked)
{
	bool cwnd_limited = tcp_is_cwnd_limited(sk);

	if (!mltcp_ack_busy(mltcp_sk(sk), cwnd_limited))
		return false;
	return mltcp_ca_ack(sk, acked, cwnd_limited);
}

u32 mltcp_decrease(struct sock *sk, u32 cwnd, u32 reduced);
u32 mltcp_reno_ssthresh(struct sock *sk);

/* Control plane; call with the socket locked (lock_sock()). */
bool mltcp_sk_is_mltcp(const struct sock *sk);
int mltcp_set_bytes_per_iter(struct sock *sk, u64 bytes);
int mltcp_iteration_begin(struct sock *sk, u64 bytes);
int mltcp_set_sock_tiebreak(struct sock *sk, u32 q10);
int mltcp_get_state(struct sock *sk, struct mltcp_sock_state *out);

/* Global parameters, with the validation the sysfs parameters use. */
u32 mltcp_get_slope(void);
u32 mltcp_get_intercept(void);
int mltcp_set_slope(u32 q10);
int mltcp_set_intercept(u32 q10);
int mltcp_set_f_params(u32 slope_q10, u32 intercept_q10);
u32 mltcp_get_idle_ms(void);
int mltcp_set_idle_ms(u32 ms);
int mltcp_get_mode(void);
int mltcp_set_mode(int mode);
u32 mltcp_get_stagger(void);
int mltcp_set_stagger(u32 q10);
u32 mltcp_get_overrun(void);
int mltcp_set_overrun(u32 q10);
bool mltcp_get_decrease(void);
void mltcp_set_decrease(bool on);

/* The key of the drawn tie-breaks (mltcp_core.c): drawn at init, or an administrator's. */
void mltcp_tiebreak_key_init(void);
void mltcp_set_tiebreak_key(const u8 *key);	/* MLTCP_TIEBREAK_KEY_LEN bytes */
bool mltcp_tiebreak_key_given(void);

/* Host-wide counters as root-only module parameters of the algorithm module. */
extern const struct kernel_param_ops mltcp_param_sockets_ops;
extern const struct kernel_param_ops mltcp_param_sockets_total_ops;
extern const struct kernel_param_ops mltcp_param_iters_learned_ops;
extern const struct kernel_param_ops mltcp_param_iters_given_ops;

/**
 * MLTCP_ALGO_COUNTERS() - expose an algorithm's host-wide counters
 * @algo: the struct mltcp_algo variable
 *
 * Creates /sys/module/<module>/parameters/{sockets,sockets_total,
 * iterations_learned,iterations_given}, read-only and readable by root
 * only (0400): they add up every network namespace, so a namespace's own
 * view is the control plane's (MLTCP_CMD_GET_COUNTERS).
 */
#define MLTCP_ALGO_COUNTERS(algo)					\
	module_param_cb(sockets, &mltcp_param_sockets_ops, &(algo), 0400); \
	MODULE_PARM_DESC(sockets,					\
			 "Sockets using this algorithm now, every netns (read-only)"); \
	module_param_cb(sockets_total, &mltcp_param_sockets_total_ops,	\
			&(algo), 0400);					\
	MODULE_PARM_DESC(sockets_total,					\
			 "Sockets that used this algorithm since load, every netns (read-only)"); \
	module_param_cb(iterations_learned, &mltcp_param_iters_learned_ops, \
			&(algo), 0400);					\
	MODULE_PARM_DESC(iterations_learned,				\
			 "Iterations ended by an idle gap, every netns (read-only)"); \
	module_param_cb(iterations_given, &mltcp_param_iters_given_ops,	\
			&(algo), 0400);					\
	MODULE_PARM_DESC(iterations_given,				\
			 "Iterations ended by a control-plane mark, every netns (read-only)")

/*
 * The global parameters the hooks read (mltcp_hook_*()), for the core's
 * files (not exported); the others use the accessors above.
 */
extern struct mltcp_globals mltcp_globals;

/*
 * The registry of MLTCP algorithms, for the control plane in this module
 * (not exported): an RCU list of struct mltcp_algo linked by @node.
 * Writers are mltcp_register()/mltcp_unregister(); readers walk it under
 * rcu_read_lock(), and an algorithm stays valid until the end of the
 * read-side section (mltcp_unregister() waits with synchronize_rcu()).
 */
extern struct list_head mltcp_algos;

/*
 * Counters for the control plane in this module (not exported).
 * mltcp_read_counters() of @net, or host-wide with @net NULL; call under
 * rcu_read_lock() with @algo from the registry and @net held by the
 * caller (the requester's socket holds its namespace).
 */
void mltcp_read_counters(const struct net *net, const struct mltcp_algo *algo,
			 u64 out[MLTCP_CNT_NUM]);

/* The registry's side of the core's glue (mltcp_core.c); not exported. */
struct mltcp_algo *mltcp_algo_of(const struct sock *sk);
void mltcp_count(const struct sock *sk, struct mltcp_algo *algo, enum mltcp_counter cnt,
		 long delta);

/* Module init and exit (mltcp_main.c) of the registry's counters. */
int mltcp_registry_init(void);
void mltcp_registry_exit(void);

#endif /* _MLTCP_H */
