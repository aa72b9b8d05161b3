// SPDX-License-Identifier: GPL-2.0
/*
 * MLTCP shared core (mltcp.ko): the glue between TCP's congestion-control
 * hooks and the core's hook entries (include/mltcp_hooks.h), and the
 * per-socket requests of the control plane.  Each function reads the
 * socket, calls the entry and applies what it returns; the tracepoints
 * (mltcp_trace.h) and the counters report it.  It uses the parameters
 * (mltcp_params.c) and the registry (mltcp_registry.c).
 *
 * The algorithm modules (mltcp_reno, mltcp_cubic, mltcp_dctcp) use the
 * symbols exported here, so mltcp.ko cannot be unloaded while any of them
 * is loaded, and TCP pins an algorithm module while a socket uses it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/seqlock.h>
#include <linux/string.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "mltcp.h"
#include "mltcp_compat.h"
#include "uapi/linux/mltcp.h"

#define CREATE_TRACE_POINTS
#include "mltcp_trace.h"

/* ---- congestion-control hooks ---------------------------------------- */

/*
 * The key the drawn tie-breaks are computed under: drawn when the module
 * loads (mltcp_tiebreak_key_init()), or set by an administrator through
 * netlink, so that hosts holding the same key draw the same tie-break for a
 * connection at both ends.  128 bits cannot be read or written in one go:
 * the seqlock keeps a reader, which runs once per connection (its ca_init,
 * in process or softirq context), from using half an old key and half a new
 * one.  The writer takes it with bottom halves off, so that a reader in a
 * softirq cannot interrupt it on its CPU and retry forever.
 */
static DEFINE_SEQLOCK(mltcp_tiebreak_key_lock);
static struct mltcp_tiebreak_key mltcp_tiebreak_key __read_mostly;
static bool mltcp_tiebreak_key_set __read_mostly;

/* A random key, before the control plane can be reached (mltcp_init()). */
void mltcp_tiebreak_key_init(void)
{
	get_random_bytes(&mltcp_tiebreak_key, sizeof(mltcp_tiebreak_key));
}

/**
 * mltcp_set_tiebreak_key() - the administrator's tie-break key
 * @key: MLTCP_TIEBREAK_KEY_LEN bytes: SipHash's key, k0 its first eight
 *	as a little-endian word and k1 its last eight, as the SipHash paper
 *	reads a key (mltcpctl and the BPF backend read it alike)
 *
 * Connections that draw their tie-break afterwards use it; those that have
 * one keep it.
 */
void mltcp_set_tiebreak_key(const u8 *key)
{
	struct mltcp_tiebreak_key k;
	__le64 w[2];

	BUILD_BUG_ON(sizeof(w) != MLTCP_TIEBREAK_KEY_LEN);
	memcpy(w, key, sizeof(w));
	k.k0 = le64_to_cpu(w[0]);
	k.k1 = le64_to_cpu(w[1]);
	write_seqlock_bh(&mltcp_tiebreak_key_lock);
	mltcp_tiebreak_key = k;
	WRITE_ONCE(mltcp_tiebreak_key_set, true);
	write_sequnlock_bh(&mltcp_tiebreak_key_lock);
	memzero_explicit(&k, sizeof(k));
	memzero_explicit(w, sizeof(w));
}

/* Has an administrator set the key?  The key itself is never reported. */
bool mltcp_tiebreak_key_given(void)
{
	return READ_ONCE(mltcp_tiebreak_key_set);
}

static void mltcp_read_tiebreak_key(struct mltcp_tiebreak_key *k)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&mltcp_tiebreak_key_lock);
		*k = mltcp_tiebreak_key;
	} while (read_seqretry(&mltcp_tiebreak_key_lock, seq));
}

/*
 * The connection's tie-break, the same at both ends of a connection on this
 * host, or on two hosts given the same key (mltcp_flow_tiebreak()).  Each
 * direction's first data byte: the peer's is rcv_nxt less the bytes
 * received; ours snd_una less the bytes acked, where an active open's
 * bytes_acked also counts its SYN (acked by the SYN-ACK) and a passive
 * one's does not (the child starts past its SYN-ACK): so one more when
 * bytes_acked is not zero.  Exact whenever the algorithm is set before the
 * peer has acked data from a passive opener.
 */
static u16 mltcp_sk_flow_tiebreak(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 local = (__force u32)sk->sk_rcv_saddr;
	u32 remote = (__force u32)sk->sk_daddr;
	u32 local_isn = tp->snd_una - (u32)tp->bytes_acked + !!tp->bytes_acked;
	u32 remote_isn = tp->rcv_nxt - (u32)tp->bytes_received;
	struct mltcp_tiebreak_key key;
	u16 tiebreak;

	mltcp_read_tiebreak_key(&key);

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		local = mltcp_fold_addr6((__force const u32 *)sk->sk_v6_rcv_saddr.s6_addr32);
		remote = mltcp_fold_addr6((__force const u32 *)sk->sk_v6_daddr.s6_addr32);
	}
#endif
	tiebreak = mltcp_flow_tiebreak(&key, local, sk->sk_num, local_isn,
				       remote, ntohs(sk->sk_dport), remote_isn);
	memzero_explicit(&key, sizeof(key));
	return tiebreak;
}

/**
 * mltcp_ca_init() - start MLTCP state on a connection
 * @sk: socket, from the algorithm's init hook
 *
 * Hints given before the connection was established are kept
 * (mltcp_hook_init()).
 */
void mltcp_ca_init(struct sock *sk)
{
	struct mltcp_algo *algo;

	if (mltcp_hook_init(mltcp_sk(sk), tcp_sk(sk)->bytes_acked, mltcp_sk_flow_tiebreak(sk),
			    mltcp_clock_ms()))
		return;
	algo = mltcp_algo_of(sk);
	if (WARN_ON_ONCE(!algo))
		return;
	mltcp_count(sk, algo, MLTCP_CNT_SOCKETS, 1);
	mltcp_count(sk, algo, MLTCP_CNT_SOCKETS_TOTAL, 1);
}
EXPORT_SYMBOL_GPL(mltcp_ca_init);

/**
 * mltcp_ca_release() - end MLTCP state on a socket
 * @sk: socket, from the algorithm's release hook
 */
void mltcp_ca_release(struct sock *sk)
{
	struct mltcp_algo *algo;

	if (!mltcp_hook_release(mltcp_sk(sk)))
		return;
	algo = mltcp_algo_of(sk);
	if (!WARN_ON_ONCE(!algo))
		mltcp_count(sk, algo, MLTCP_CNT_SOCKETS, -1);
}
EXPORT_SYMBOL_GPL(mltcp_ca_release);

/* An iteration of @sk (@algo's) ended after @duration_ms: count and report it. */
static void mltcp_iteration_done(struct sock *sk, struct mltcp_algo *algo, bool given,
				 u32 duration_ms)
{
	const struct mltcp_sock *ms = mltcp_sk(sk);

	if (algo)
		mltcp_count(sk, algo, given ? MLTCP_CNT_ITERS_GIVEN : MLTCP_CNT_ITERS_LEARNED, 1);
	trace_mltcp_iteration(sk, mltcp_last_iter_bytes(ms), duration_ms, given,
			      ms->bytes_per_iter, ms->iters);
}

/*
 * Time since the last data transmission, in microseconds.  tp->lsndtime
 * is in jiffies (4 ms at HZ=250), which is fine against a threshold of at
 * least idle_ms (10 ms by default); there is no finer record of the last
 * send time at TX_START (tcp_mstamp and tcp_wstamp_ns already describe
 * the transmission in progress).
 */
static u32 mltcp_send_gap_us(const struct tcp_sock *tp)
{
	u32 gap = tcp_jiffies32 - tp->lsndtime;

	if (gap >= 3600U * HZ)
		return U32_MAX;
	return jiffies_to_usecs(gap);
}

/*
 * The window a restart goes back to: the route's initcwnd if it has one,
 * else RFC 6928's ten segments, within the clamp (what TCP starts a
 * connection with).
 */
static u32 mltcp_initial_window(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct dst_entry *dst = __sk_dst_get(sk);
	u32 w = dst ? dst_metric(dst, RTAX_INITCWND) : 0;

	return min(w ? w : TCP_INIT_CWND, tp->snd_cwnd_clamp);
}

/**
 * mltcp_ca_cwnd_event() - iteration tracking on congestion-window events
 * @sk: socket
 * @ev: event
 *
 * CA_EVENT_TX_START (a transmission while nothing is in flight) is
 * mltcp_hook_tx_start(): it runs before the first segment of the new
 * flight leaves, so the whole flight obeys a restarted window.  Algorithms
 * with their own cwnd_event call this from it; Reno uses it directly.
 */
void mltcp_ca_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_sock *ms = mltcp_sk(sk);
	struct mltcp_tx_out out;
	struct mltcp_tx_in in;

	if (ev != CA_EVENT_TX_START)
		return;
	in = (struct mltcp_tx_in){
		.g		= &mltcp_globals,
		.bytes_acked	= tp->bytes_acked,
		.outstanding	= tp->snd_nxt - tp->snd_una,
		.gap_us		= mltcp_send_gap_us(tp),
		.srtt_us	= tp->srtt_us >> 3,
		.now_ms		= mltcp_clock_ms(),
		.cwnd		= tcp_snd_cwnd(tp),
		.ssthresh	= tp->snd_ssthresh,
		.init_cwnd	= mltcp_initial_window(sk),
		.delivered	= tp->rate_delivered,
		.interval_us	= tp->rate_interval_us,
		.min_rtt_us	= tcp_min_rtt(tp),
		.ca_open	= inet_csk(sk)->icsk_ca_state < TCP_CA_CWR,
	};
	mltcp_hook_tx_start(ms, &in, &out);
	if (out.restarted) {
		tp->snd_ssthresh = out.ssthresh;
		tcp_snd_cwnd_set(tp, out.cwnd);
		tp->snd_cwnd_stamp = tcp_jiffies32;
		trace_mltcp_restart(sk, out.cwnd_before, out.cwnd);
	}
	if (out.gap_seen)
		trace_mltcp_gap(sk, in.gap_us, out.gap_ref, out.gap_bursts, ms->gap_log8,
				out.gap_bytes, out.iter_done);
	if (out.iter_done)
		mltcp_iteration_done(sk, mltcp_algo_of(sk), false, out.iter_ms);
}
EXPORT_SYMBOL_GPL(mltcp_ca_cwnd_event);

/*
 * The millisecond clock on the ACK path: TCP's timestamp of the ACK being
 * processed (tcp_mstamp, in microseconds, taken as it arrived) on the clock
 * mltcp_clock_ms() reads, so that no ACK reads the clock again.
 */
static u32 mltcp_ack_clock_ms(const struct tcp_sock *tp)
{
	return (u32)div_u64(tp->tcp_mstamp, USEC_PER_MSEC);
}

/**
 * mltcp_ca_ack() - mltcp_cong_avoid() once the ACK has something to do
 * @sk: socket
 * @acked: in: segments newly acknowledged; out: the F-scaled credit of
 *	congestion avoidance
 * @cwnd_limited: tcp_is_cwnd_limited()
 *
 * mltcp_hook_ack(): reads the socket (the RTT sample only while the socket
 * yields), applies slow start's window and reports (the tracepoints
 * mltcp_yield, once per yield, and mltcp_ack, per credit).
 * Lock-free and allocation-free: called on every ACK in congestion
 * avoidance.
 *
 * Return: true when the base algorithm's congestion avoidance has work.
 */
bool mltcp_ca_ack(struct sock *sk, u32 *acked, bool cwnd_limited)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_sock *ms = mltcp_sk(sk);
	struct mltcp_ack_out out;
	struct mltcp_ack_in in = {
		.g		= &mltcp_globals,
		.bytes_acked	= tp->bytes_acked,
		.acked		= *acked,
		.cwnd		= tcp_snd_cwnd(tp),
		.ssthresh	= tp->snd_ssthresh,
		.cwnd_clamp	= tp->snd_cwnd_clamp,
		.cwnd_limited	= cwnd_limited,
	};

	in.rtt.now_ms = mltcp_ack_clock_ms(tp);
	if (mltcp_in_yield(ms)) {
		in.rtt.rtt_us = tp->rack.rtt_us;
		in.rtt.min_rtt_us = tcp_min_rtt(tp);
	}
	mltcp_hook_ack(ms, &in, &out);
	if (out.yield == MLTCP_YIELD_DRAINED || out.yield == MLTCP_YIELD_EXPIRED)
		trace_mltcp_yield(sk, in.rtt.now_ms - ms->start_ms,
				  out.yield == MLTCP_YIELD_EXPIRED, mltcp_yield_backoff(ms),
				  in.rtt.rtt_us, in.rtt.min_rtt_us);
	if (out.slow_start) {
		trace_mltcp_ack(sk, ms, out.f, in.acked, in.acked);
		tcp_snd_cwnd_set(tp, out.cwnd);
	}
	if (!out.ca)
		return false;
	trace_mltcp_ack(sk, ms, out.f, out.ca_acked, out.ca_credit);
	*acked = out.ca_credit;
	return true;
}
EXPORT_SYMBOL_GPL(mltcp_ca_ack);

/**
 * mltcp_reno_cong_avoid() - Reno increase with the F-scaled credit
 * @sk: socket
 * @ack: acknowledged sequence number (unused)
 * @acked: segments newly acknowledged
 *
 * Slow start grows by the segments acked, as Reno's does; congestion
 * avoidance takes the F-scaled credit (mltcp_hook_ack()): cwnd grows by F
 * segments per window of ACKs instead of one.  Shared by mltcp_reno and
 * mltcp_dctcp.
 */
void mltcp_reno_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!mltcp_cong_avoid(sk, &acked))
		return;
	if (acked)
		tcp_cong_avoid_ai(tp, tcp_snd_cwnd(tp), acked);
}
EXPORT_SYMBOL_GPL(mltcp_reno_cong_avoid);

/**
 * mltcp_decrease() - apply F to a multiplicative decrease
 * @sk: socket
 * @cwnd: window before the decrease
 * @reduced: the base algorithm's reduced window (its ssthresh)
 *
 * mltcp_hook_decrease(), with the ``decrease`` parameter.  Runs once per
 * congestion event, not per ACK.
 *
 * Return: the window to use as ssthresh.
 */
u32 mltcp_decrease(struct sock *sk, u32 cwnd, u32 reduced)
{
	return mltcp_hook_decrease(mltcp_sk(sk), &mltcp_globals, tcp_sk(sk)->bytes_acked,
				   cwnd, reduced);
}
EXPORT_SYMBOL_GPL(mltcp_decrease);

/**
 * mltcp_reno_ssthresh() - Reno's halving, through mltcp_decrease()
 * @sk: socket
 *
 * Shared by mltcp_reno and mltcp_dctcp without ECN.
 *
 * Return: the new ssthresh.
 */
u32 mltcp_reno_ssthresh(struct sock *sk)
{
	return mltcp_decrease(sk, tcp_snd_cwnd(tcp_sk(sk)), tcp_reno_ssthresh(sk));
}
EXPORT_SYMBOL_GPL(mltcp_reno_ssthresh);

/* ---- control plane ---------------------------------------------------- */

/**
 * mltcp_set_bytes_per_iter() - give a socket its bytes per iteration
 * @sk: socket, locked by the caller
 * @bytes: bytes per iteration (mltcp_iter_size_valid()); 0 drops all hints
 *	and goes back to learning
 *
 * Return: 0, -EINVAL for a size out of range, or -EOPNOTSUPP if @sk does
 *	not use an MLTCP algorithm.
 */
int mltcp_set_bytes_per_iter(struct sock *sk, u64 bytes)
{
	sock_owned_by_me(sk);
	if (!mltcp_sk_is_mltcp(sk))
		return -EOPNOTSUPP;
	return mltcp_set_size(mltcp_sk(sk), bytes);
}
EXPORT_SYMBOL_GPL(mltcp_set_bytes_per_iter);

/**
 * mltcp_iteration_begin() - mark the start of an iteration on a socket
 * @sk: socket, locked by the caller
 * @bytes: size of the new iteration; 0 keeps the current size
 *
 * Data written before this call but not yet acked still belongs to the
 * previous iteration: the new iteration starts at bytes_acked +
 * (write_seq - snd_una).  From now on idle gaps do not move this socket's
 * iteration boundaries; the next transmission after nothing was in flight
 * may restart the window (mltcp_restart_due()).
 *
 * Return: 0, or -EOPNOTSUPP if @sk does not use an MLTCP algorithm.
 */
int mltcp_iteration_begin(struct sock *sk, u64 bytes)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_mark_out out;
	struct mltcp_algo *algo;

	sock_owned_by_me(sk);
	algo = mltcp_algo_of(sk);
	if (!algo)
		return -EOPNOTSUPP;
	mltcp_hook_mark(mltcp_sk(sk), tp->bytes_acked, tp->write_seq - tp->snd_una, bytes,
			mltcp_clock_ms(), &out);
	if (out.iter_done)
		mltcp_iteration_done(sk, algo, true, out.iter_ms);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_iteration_begin);

/**
 * mltcp_set_sock_tiebreak() - set a socket's tie-break
 * @sk: socket, locked by the caller
 * @q10: tie-break, Q10 in [0, 1024]; the socket's head start is
 *	@q10 * stagger of an iteration
 *
 * Return: 0, -EINVAL for an out-of-range value, or -EOPNOTSUPP if @sk
 *	does not use an MLTCP algorithm.
 */
int mltcp_set_sock_tiebreak(struct sock *sk, u32 q10)
{
	sock_owned_by_me(sk);
	if (!mltcp_sk_is_mltcp(sk))
		return -EOPNOTSUPP;
	return mltcp_set_tiebreak(mltcp_sk(sk), q10);
}
EXPORT_SYMBOL_GPL(mltcp_set_sock_tiebreak);

/**
 * mltcp_get_state() - snapshot of a socket's MLTCP state
 * @sk: socket, locked by the caller
 * @out: filled in on success
 *
 * Return: 0, or -EOPNOTSUPP if @sk does not use an MLTCP algorithm.
 */
int mltcp_get_state(struct sock *sk, struct mltcp_sock_state *out)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct mltcp_sock *ms = mltcp_sk(sk);
	const struct mltcp_globals *g = &mltcp_globals;
	int mode = READ_ONCE(g->mode);

	sock_owned_by_me(sk);
	if (!mltcp_sk_is_mltcp(sk))
		return -EOPNOTSUPP;
	memset(out, 0, sizeof(*out));
	strscpy(out->algo, inet_csk(sk)->icsk_ca_ops->name, sizeof(out->algo));
	out->mode = (u8)mode;
	out->size_given = ms->flags & MLTCP_SF_SIZE_GIVEN;
	out->bounds_given = ms->flags & MLTCP_SF_MARKS_GIVEN;
	out->bytes_this_iter = mltcp_bytes_done(tp->bytes_acked, ms->mark);
	out->bytes_per_iter = ms->bytes_per_iter;
	out->bytes_ratio = mltcp_ratio_q10(out->bytes_this_iter,
					   ms->bytes_per_iter);
	out->f = mltcp_sock_f_q10(ms, mode, READ_ONCE(g->fparams), READ_ONCE(g->stagger),
				  READ_ONCE(g->overrun), tp->bytes_acked);
	out->tiebreak = ms->tiebreak;
	out->tiebreak_given = ms->flags & MLTCP_SF_TIEBREAK_GIVEN;
	out->stagger = READ_ONCE(g->stagger);
	out->decrease = READ_ONCE(g->decrease);
	out->head_start = true;	/* every socket's tie-break gives one */
	out->overrun = mltcp_f_active(ms, mode) &&
		       mltcp_iter_overrun(ms, READ_ONCE(g->overrun), out->bytes_this_iter);
	out->unearned = !mltcp_iter_earned(ms);
	out->phase = mltcp_phase(ms, mode, READ_ONCE(g->overrun), out->bytes_this_iter);
	out->iterations = ms->iters;
	out->cwnd = tcp_snd_cwnd(tp);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_get_state);
