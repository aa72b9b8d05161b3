/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP BPF backend: maps and the glue between the tcp_sock counters and
 * the math of include/mltcp_core.h, the BPF counterpart of mltcp_core.c's
 * congestion-control hooks (mltcp_ca_init(), mltcp_ca_cwnd_event(),
 * mltcp_cong_avoid(), mltcp_decrease(), ...).
 *
 * The math, the per-socket state machine and the order of the steps at each
 * hook are not copied: they are include/mltcp_core.h itself (the hook
 * entries, mltcp_hooks.h), compiled for BPF through
 * include/mltcp_bpf_compat.h; this file reads the socket, calls the entry
 * and applies what it returns.  What differs from the module, and why:
 *  - the MLTCP state of a socket lives in the "socks" sk_storage map, not
 *    in icsk_ca_priv, so that userspace can read it by socket fd (the
 *    module's MLTCP_SO_INFO); the algorithms' own state (CUBIC, DCTCP)
 *    is in icsk_ca_priv as in the modules;
 *  - hints come from the "hints" sk_storage map that userspace writes
 *    (bpf/mltcp_bpf.h) and are applied at the socket's next event;
 *  - the global parameters are the "params" map, clamped on every read;
 *  - counters are a map, updated with atomic adds, and host-wide: keyed by
 *    algorithm only, not by network namespace (a per-namespace key, the
 *    netns cookie, would leave entries behind for every namespace that
 *    ever ran a flow, as BPF has no hook at namespace exit to free them;
 *    the map is root's only, bpf/mltcp_bpf.h);
 *  - HZ comes from the loader (params.hz): jiffies are bpf_jiffies64().
 */
#ifndef _MLTCP_GLUE_BPF_H
#define _MLTCP_GLUE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "mltcp_core.h"
#include "mltcp_bpf.h"
#include "mltcp_bpf_params.h"

/* Not in vmlinux.h (macros of the uapi and kernel headers) */
#define SOL_TCP			6
#define TCP_CONGESTION		13
#define TCP_ECN_OK		1
#define TCP_ECN_DEMAND_CWR	4
#define TCP_CONG_NEEDS_ECN	0x2
#define TCP_CA_NAME_MAX		16
#define MLTCP_BPF_INIT_CWND	10	/* TCP_INIT_CWND, RFC 6928 */
#define USEC_PER_SEC		1000000ULL
#define USEC_PER_MSEC		1000ULL
#define NSEC_PER_MSEC		1000000ULL

/* Kernel functions a BPF tcp_congestion_ops may call (6.1 and later) */
extern void tcp_cong_avoid_ai(struct tcp_sock *tp, u32 w, u32 acked) __ksym;
extern u32 tcp_reno_ssthresh(struct sock *sk) __ksym;
extern u32 tcp_reno_undo_cwnd(struct sock *sk) __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct mltcp_bpf_params);
} params SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MLTCP_BPF_NALGOS);
	__type(key, u32);
	__type(value, struct mltcp_bpf_counters);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct mltcp_bpf_sock);
} socks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct mltcp_bpf_hints);
} hints SEC(".maps");

_Static_assert(sizeof(struct mltcp_sock) == MLTCP_BPF_SOCK_STATE_SIZE,
	       "struct mltcp_bpf_sock.ms must hold a struct mltcp_sock");

/* The global parameters after clamping: the BPF side trusts no map value. */
struct mltcp_bpf_p {
	struct mltcp_globals g;
	u32 hz;
};

static __always_inline void mltcp_get_params(struct mltcp_bpf_p *p)
{
	u32 zero = 0;

	p->hz = mltcp_bpf_params_effective(bpf_map_lookup_elem(&params, &zero), &p->g);
}

static __always_inline struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

static __always_inline struct inet_connection_sock *inet_csk(const struct sock *sk)
{
	return (struct inet_connection_sock *)sk;
}

static __always_inline void *inet_csk_ca(const struct sock *sk)
{
	return (void *)inet_csk(sk)->icsk_ca_priv;
}

static __always_inline u32 tcp_snd_cwnd(const struct tcp_sock *tp)
{
	return tp->snd_cwnd;
}

static __always_inline bool tcp_in_slow_start(const struct tcp_sock *tp)
{
	return tp->snd_cwnd < tp->snd_ssthresh;
}

/* include/net/tcp.h's tcp_is_cwnd_limited() (6.1 and later) */
static __always_inline bool tcp_is_cwnd_limited(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	if (BPF_CORE_READ_BITFIELD(tp, is_cwnd_limited))
		return true;
	if (tcp_in_slow_start(tp))
		return tp->snd_cwnd < 2 * tp->max_packets_out;
	return false;
}

static __always_inline u32 tcp_jiffies32(void)
{
	return (u32)bpf_jiffies64();
}

static __always_inline u32 mltcp_clock_ms(void)
{
	return (u32)(bpf_ktime_get_ns() / NSEC_PER_MSEC);
}

static __always_inline struct mltcp_sock *mltcp_ms(struct mltcp_bpf_sock *st)
{
	return (struct mltcp_sock *)st->ms;
}

static __always_inline void mltcp_count(u32 algo, int what, s64 delta)
{
	struct mltcp_bpf_counters *c = bpf_map_lookup_elem(&counters, &algo);

	if (!c)
		return;
	switch (what) {
	case 0:
		__sync_fetch_and_add(&c->sockets, delta);
		break;
	case 1:
		__sync_fetch_and_add(&c->sockets_total, delta);
		break;
	case 2:
		__sync_fetch_and_add(&c->iters_learned, delta);
		break;
	case 3:
		__sync_fetch_and_add(&c->iters_given, delta);
		break;
	default:
		__sync_fetch_and_add(&c->noecn_refused, delta);
		break;
	}
}

#define MLTCP_CNT_SOCKETS	0
#define MLTCP_CNT_TOTAL		1
#define MLTCP_CNT_LEARNED	2
#define MLTCP_CNT_GIVEN		3
#define MLTCP_CNT_NOECN_REFUSED	4

/**
 * mltcp_apply_hints() - apply the application's new requests to a socket
 * @sk: socket
 * @st: its MLTCP state
 *
 * The BPF side of mltcp_set_bytes_per_iter(), mltcp_iteration_begin() and
 * mltcp_set_sock_tiebreak(): each kind of request is applied once, when
 * its generation number moved; an out-of-range size is ignored (as the
 * module refuses it), an out-of-range tie-break clamped.
 */
static __always_inline void mltcp_apply_hints(struct sock *sk, struct mltcp_bpf_sock *st)
{
	struct mltcp_bpf_hints *h = bpf_sk_storage_get(&hints, sk, NULL, 0);
	struct mltcp_sock *ms = mltcp_ms(st);
	struct mltcp_mark_out mark;
	u32 gen;

	if (!h)
		return;
	gen = READ_ONCE(h->size_gen);
	if (gen != st->size_gen) {
		st->size_gen = gen;
		mltcp_set_size(ms, READ_ONCE(h->size));
	}
	gen = READ_ONCE(h->mark_gen);
	if (gen != st->mark_gen) {
		st->mark_gen = gen;
		mltcp_hook_mark(ms, READ_ONCE(h->mark), 0, READ_ONCE(h->mark_bytes),
				mltcp_clock_ms(), &mark);
		if (mark.iter_done)
			mltcp_count(st->algo, MLTCP_CNT_GIVEN, 1);
	}
	gen = READ_ONCE(h->tb_gen);
	if (gen != st->tb_gen) {
		st->tb_gen = gen;
		mltcp_set_tiebreak(ms, min(READ_ONCE(h->tiebreak), MLTCP_TIEBREAK_MAX));
	}
}

/* The socket's state with its pending hints applied, or NULL. */
static __always_inline struct mltcp_bpf_sock *mltcp_state(struct sock *sk)
{
	struct mltcp_bpf_sock *st = bpf_sk_storage_get(&socks, sk, NULL, 0);

	if (st)
		mltcp_apply_hints(sk, st);
	return st;
}

#ifndef AF_INET6
#define AF_INET6 10	/* vmlinux.h has the kernel's types, not its macros */
#endif

/* The drawn tie-break's secret: mltcpctl draws it when it loads the backend. */
const volatile u64 mltcp_tiebreak_key[2];

/*
 * The connection's tie-break, the same at both ends of a connection on this
 * host (mltcp_flow_tiebreak()); each direction's first data byte as the
 * module's mltcp_sk_flow_tiebreak() finds it.
 */
static __always_inline u16 mltcp_bpf_flow_tiebreak(const struct sock *sk)
{
	const struct sock_common *c = &sk->__sk_common;
	const struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_tiebreak_key key = { mltcp_tiebreak_key[0], mltcp_tiebreak_key[1] };
	u32 local = c->skc_rcv_saddr, remote = c->skc_daddr;
	u32 local_isn = tp->snd_una - (u32)tp->bytes_acked + !!tp->bytes_acked;
	u32 remote_isn = tp->rcv_nxt - (u32)tp->bytes_received;

	if (c->skc_family == AF_INET6) {
		local = mltcp_fold_addr6(c->skc_v6_rcv_saddr.in6_u.u6_addr32);
		remote = mltcp_fold_addr6(c->skc_v6_daddr.in6_u.u6_addr32);
	}
	return mltcp_flow_tiebreak(&key, local, c->skc_num, local_isn,
				   remote, __builtin_bswap16(c->skc_dport), remote_isn);
}

/**
 * mltcp_bpf_init() - mltcp_ca_init(): start MLTCP state on a connection
 * @sk: socket
 * @algo: enum mltcp_bpf_algo, for the counters
 *
 * Hints given before the connection started are kept (mltcp_sock_init()).
 * Without memory for the state the socket runs the base algorithm.
 */
static __always_inline void mltcp_bpf_init(struct sock *sk, u32 algo)
{
	struct mltcp_bpf_sock *st;
	bool counted;

	st = bpf_sk_storage_get(&socks, sk, NULL, BPF_SK_STORAGE_GET_F_CREATE);
	if (!st)
		return;
	counted = mltcp_hook_init(mltcp_ms(st), tcp_sk(sk)->bytes_acked,
				  mltcp_bpf_flow_tiebreak(sk), mltcp_clock_ms());
	/* a socket counted under another algorithm moves to this one */
	if (counted && st->algo != algo) {
		mltcp_count(st->algo, MLTCP_CNT_SOCKETS, -1);
		counted = false;
	}
	st->algo = algo;
	st->f = MLTCP_Q10_ONE;
	if (!counted) {
		mltcp_count(algo, MLTCP_CNT_SOCKETS, 1);
		mltcp_count(algo, MLTCP_CNT_TOTAL, 1);
	}
	mltcp_apply_hints(sk, st);
}

/* mltcp_ca_release() */
static __always_inline void mltcp_bpf_release(struct sock *sk)
{
	struct mltcp_bpf_sock *st = bpf_sk_storage_get(&socks, sk, NULL, 0);

	if (st && mltcp_hook_release(mltcp_ms(st)))
		mltcp_count(st->algo, MLTCP_CNT_SOCKETS, -1);
}

/* mltcp_send_gap_us(): time since the last data transmission */
static __always_inline u32 mltcp_send_gap_us(const struct tcp_sock *tp, u32 hz)
{
	u32 gap = tcp_jiffies32() - tp->lsndtime;

	if (gap >= 3600U * hz)
		return U32_MAX;
	return (u32)((u64)gap * USEC_PER_SEC / hz);
}

/*
 * mltcp_ca_cwnd_event(): CA_EVENT_TX_START is mltcp_hook_tx_start().  The
 * modules honour a route's initcwnd; BPF cannot read the route, so a restart
 * goes back to TCP's default initial window.
 */
static __always_inline void mltcp_bpf_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_bpf_sock *st;
	struct mltcp_tx_out out;
	struct mltcp_tx_in in;
	struct mltcp_bpf_p p;

	if (ev != CA_EVENT_TX_START)
		return;
	st = mltcp_state(sk);
	if (!st)
		return;
	mltcp_get_params(&p);
	in = (struct mltcp_tx_in){
		.g		= &p.g,
		.bytes_acked	= tp->bytes_acked,
		.outstanding	= tp->snd_nxt - tp->snd_una,
		.gap_us		= mltcp_send_gap_us(tp, p.hz),
		.srtt_us	= tp->srtt_us >> 3,
		.now_ms		= mltcp_clock_ms(),
		.cwnd		= tcp_snd_cwnd(tp),
		.ssthresh	= tp->snd_ssthresh,
		.init_cwnd	= min(tp->snd_cwnd_clamp, MLTCP_BPF_INIT_CWND),
		.delivered	= tp->rate_delivered,
		.interval_us	= tp->rate_interval_us,
		.min_rtt_us	= tp->rtt_min.s[0].v,
		.ca_open	= BPF_CORE_READ_BITFIELD(inet_csk(sk), icsk_ca_state) < TCP_CA_CWR,
	};
	mltcp_hook_tx_start(mltcp_ms(st), &in, &out);
	/*
	 * Unchanged unless restarted; written without asking, so that 6.1's
	 * verifier prunes the paths that differ only in out.restarted.
	 */
	tp->snd_ssthresh = out.ssthresh;
	tp->snd_cwnd = out.cwnd;
	if (out.iter_done)
		mltcp_count(st->algo, MLTCP_CNT_LEARNED, 1);
}

/*
 * mltcp_cong_avoid(): the ACK is mltcp_hook_ack(); *@acked becomes the
 * F-scaled credit of congestion avoidance.  Without memory for the state the
 * socket runs the base algorithm: a zeroed state is in MLTCP_PHASE_BASE, F = 1.
 */
static __always_inline bool mltcp_bpf_cong_avoid(struct sock *sk, u32 *acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_bpf_sock *st = mltcp_state(sk);
	bool cwnd_limited = tcp_is_cwnd_limited(sk);
	struct mltcp_sock none, *ms;
	struct mltcp_ack_out out;
	struct mltcp_bpf_p p;
	struct mltcp_ack_in in;

	if (st) {
		ms = mltcp_ms(st);
	} else {
		none = (struct mltcp_sock){};
		ms = &none;
	}
	/* an ACK that changes nothing reads no parameters */
	if (!mltcp_ack_busy(ms, cwnd_limited))
		return false;
	mltcp_get_params(&p);
	in = (struct mltcp_ack_in){
		.g		= &p.g,
		.bytes_acked	= tp->bytes_acked,
		.acked		= *acked,
		.cwnd		= tcp_snd_cwnd(tp),
		.ssthresh	= tp->snd_ssthresh,
		.cwnd_clamp	= tp->snd_cwnd_clamp,
		.cwnd_limited	= cwnd_limited,
	};
	/* the ACK's own timestamp, on mltcp_clock_ms()'s clock (as the module) */
	in.rtt.now_ms = (u32)(tp->tcp_mstamp / 1000);
	if (mltcp_in_yield(ms)) {
		in.rtt.rtt_us = tp->rack.rtt_us;
		in.rtt.min_rtt_us = tp->rtt_min.s[0].v;
	}
	mltcp_hook_ack(ms, &in, &out);
	if (out.slow_start)
		tp->snd_cwnd = out.cwnd;
	if (st && (out.slow_start || out.ca))
		st->f = out.f;
	*acked = out.ca_credit;
	return out.ca;
}

/* mltcp_reno_cong_avoid() */
static __always_inline void mltcp_bpf_reno_cong_avoid(struct sock *sk, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!mltcp_bpf_cong_avoid(sk, &acked))
		return;
	if (acked)
		tcp_cong_avoid_ai(tp, tcp_snd_cwnd(tp), acked);
}

/* mltcp_decrease(): the multiplicative decrease is mltcp_hook_decrease() */
static __always_inline u32 mltcp_bpf_decrease(struct sock *sk, u32 cwnd, u32 reduced)
{
	struct mltcp_bpf_sock *st = mltcp_state(sk);
	struct mltcp_bpf_p p;

	if (!st)
		return reduced;
	mltcp_get_params(&p);
	return mltcp_hook_decrease(mltcp_ms(st), &p.g, tcp_sk(sk)->bytes_acked, cwnd, reduced);
}

/* mltcp_reno_ssthresh() */
static __always_inline u32 mltcp_bpf_reno_ssthresh(struct sock *sk)
{
	return mltcp_bpf_decrease(sk, tcp_snd_cwnd(tcp_sk(sk)), tcp_reno_ssthresh(sk));
}

#endif /* _MLTCP_GLUE_BPF_H */
