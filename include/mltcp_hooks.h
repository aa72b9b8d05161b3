/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: one entry per TCP hook, the same for every backend.  Each
 * takes what the glue read from the socket (struct mltcp_*_in) and the
 * global parameters, runs the core's steps on struct mltcp_sock and
 * returns what the glue applies (struct mltcp_*_out); the glue decides
 * nothing.  Part of include/mltcp_core.h.
 *
 *   connection start      mltcp_hook_init()
 *   release               mltcp_hook_release()
 *   transmission start    mltcp_hook_tx_start()   restart, iteration end
 *   ACK (cong_avoid)      mltcp_hook_ack()        yield, slow start, credit
 *   RTT sample            mltcp_hook_rtt_sample() the yield (from the ACK)
 *   loss (ssthresh)       mltcp_hook_decrease()   the decrease softened by F
 *   iteration mark        mltcp_hook_mark()       the application's mark
 *
 * The ACK entry allocates nothing, takes no lock and reads each parameter
 * once, when it needs it.
 */
#ifndef _MLTCP_HOOKS_H
#define _MLTCP_HOOKS_H

#include "mltcp_types.h"
#include "mltcp_params.h"
#include "mltcp_f.h"
#include "mltcp_learner.h"
#include "mltcp_tiebreak.h"
#include "mltcp_restart.h"
#include "mltcp_phase.h"

/**
 * mltcp_hook_init() - the congestion control starts on a connection
 * @ms: socket state
 * @acked: bytes_acked now
 * @flow_tiebreak: the connection's mltcp_flow_tiebreak()
 * @now_ms: the caller's millisecond clock
 *
 * Hints given before the connection are kept; the first iteration starts now.
 *
 * Return: true when the socket was counted already (init ran before
 *	without a release): the caller counts it only when false.
 */
static inline bool mltcp_hook_init(struct mltcp_sock *ms, u64 acked, u16 flow_tiebreak,
				   u32 now_ms)
{
	bool counted = ms->flags & MLTCP_SF_INIT;

	mltcp_sock_init(ms, acked, flow_tiebreak);
	ms->flags |= MLTCP_SF_INIT;
	ms->start_ms = now_ms;
	return counted;
}

/**
 * mltcp_hook_release() - the congestion control ends on a socket
 * @ms: socket state
 *
 * Return: true when the socket was counted: the caller uncounts it.
 */
static inline bool mltcp_hook_release(struct mltcp_sock *ms)
{
	if (!(ms->flags & MLTCP_SF_INIT))
		return false;
	ms->flags &= (u8)~MLTCP_SF_INIT;
	return true;
}

/**
 * struct mltcp_tx_in - what the transmission-start hook reads
 * @g: the global parameters
 * @bytes_acked: the socket's bytes_acked
 * @outstanding: bytes sent and not acked (snd_nxt - snd_una)
 * @gap_us: time since the last data was sent
 * @srtt_us: smoothed RTT, microseconds (0 = unknown)
 * @now_ms: the caller's millisecond clock
 * @cwnd: congestion window
 * @ssthresh: slow-start threshold
 * @init_cwnd: the window a restart goes back to, within the clamp
 * @delivered: segments of the socket's delivery-rate sample (mltcp_path_bdp())
 * @interval_us: its interval (0 = none)
 * @min_rtt_us: the path's minimum RTT (~0U = unknown)
 * @ca_open: no reduction in progress (TCP_CA_Open or TCP_CA_Disorder)
 */
struct mltcp_tx_in {
	const struct mltcp_globals *g;
	u64 bytes_acked;
	u32 outstanding;
	u32 gap_us;
	u32 srtt_us;
	u32 now_ms;
	u32 cwnd;
	u32 ssthresh;
	u32 init_cwnd;
	u32 delivered;
	u32 interval_us;
	u32 min_rtt_us;
	bool ca_open;
};

/**
 * struct mltcp_tx_out - what the transmission-start hook does
 * @restarted: the iteration's communication restarts (every restart, also
 *	one that finds the window at the initial one): set @cwnd and @ssthresh
 * @cwnd_before: the window the restart replaced (@cwnd when it was there)
 * @cwnd: the window from now on (unchanged unless @restarted)
 * @ssthresh: the threshold from now on (unchanged unless the window moved)
 * @gap_seen: the learner met an idle gap (learned iterations only)
 * @gap_ref: the learner's reference gap before it (struct mltcp_sock.gap_log8)
 * @gap_bursts: its burst counts before it (struct mltcp_sock.bursts)
 * @gap_bytes: the bytes of the iteration before it
 * @iter_done: the gap ended a learned iteration
 * @iter_ms: how long that iteration took
 */
struct mltcp_tx_out {
	bool restarted;
	u32 cwnd_before;
	u32 cwnd;
	u32 ssthresh;
	bool gap_seen;
	u8 gap_ref;
	u8 gap_bursts;
	u64 gap_bytes;
	bool iter_done;
	u32 iter_ms;
};

/**
 * mltcp_hook_tx_start() - a transmission starts while nothing is in flight
 * @ms: socket state
 * @in: what the hook read (struct mltcp_tx_in)
 * @out: what the caller applies and reports (struct mltcp_tx_out)
 *
 * Runs before the new flight's first segment leaves.  Where this starts an
 * iteration's communication (mltcp_iter_starts()) the iteration's clock and
 * allowance start; where F applies (mltcp_restart_due()) the window also
 * goes back to the initial window, its threshold towards the BDP, and the
 * socket enters YIELD.  Then the idle gap may end a learned iteration or
 * earn a mark (mltcp_on_tx_start()), and the phase follows
 * (mltcp_check_phase()).
 */
static inline void mltcp_hook_tx_start(struct mltcp_sock *ms, const struct mltcp_tx_in *in,
				       struct mltcp_tx_out *out)
{
	const struct mltcp_globals *g = in->g;
	u32 thresh = mltcp_idle_threshold_us(READ_ONCE(g->idle_ms), in->srtt_us);
	int mode = READ_ONCE(g->mode);
	u32 iter_start_ms = ms->start_ms;
	u32 overrun;
	enum mltcp_event ev;

	__builtin_memset(out, 0, sizeof(*out));
	out->cwnd = in->cwnd;
	out->ssthresh = in->ssthresh;
	if (mltcp_restart_due(ms, mode, READ_ONCE(g->fparams), in->outstanding,
			      in->gap_us, thresh)) {
		out->restarted = true;
		out->cwnd_before = in->cwnd;
		out->cwnd = in->init_cwnd;
		if (in->init_cwnd != in->cwnd) {
			u32 bdp = mltcp_path_bdp(in->delivered, in->interval_us, in->min_rtt_us);

			out->ssthresh = mltcp_restart_ssthresh(in->ssthresh, in->cwnd, bdp,
							       in->ca_open);
		}
		/*
		 * A yield still holding never saw its queue drain nor its
		 * limit judged: its phase went out at the initial window
		 * behind a queue.  It counts as one that met a queue at its
		 * limit, or a job whose compute is longer than its phase
		 * yields its whole phase every iteration.
		 */
		if (mltcp_in_yield(ms))
			mltcp_backoff_step(ms, true);
		mltcp_enter_yield(ms, in->gap_us, in->now_ms);
	} else if (mltcp_iter_starts(ms, in->outstanding, in->gap_us, thresh)) {
		mltcp_iter_clock_start(ms, in->gap_us, in->now_ms);
	}
	out->gap_ref = ms->gap_log8;
	out->gap_bursts = ms->bursts;
	out->gap_bytes = mltcp_bytes_done(in->bytes_acked, ms->mark);
	overrun = READ_ONCE(g->overrun);
	ev = mltcp_on_tx_start(ms, in->bytes_acked, in->outstanding, in->gap_us, thresh,
			       overrun);
	out->gap_seen = !(ms->flags & MLTCP_SF_MARKS_GIVEN) &&
			mltcp_is_idle_gap(in->outstanding, in->gap_us, thresh);
	if (ev == MLTCP_EV_LEARNED) {
		out->iter_done = true;
		out->iter_ms = in->now_ms - iter_start_ms;
		/* an overdue iteration may end at a gap that began none above */
		mltcp_iter_clock_start(ms, in->gap_us, in->now_ms);
	}
	mltcp_check_phase(ms, mode, overrun, mltcp_bytes_done(in->bytes_acked, ms->mark),
			  in->now_ms);
}

/**
 * struct mltcp_rtt_in - the RTT sample a yield is judged by
 * @rtt_us: the latest RTT sample (RACK's, taken on every ACK before the
 *	congestion-control hooks run), 0 = none
 * @min_rtt_us: the path's minimum RTT (~0U = unknown)
 * @now_ms: the caller's millisecond clock
 */
struct mltcp_rtt_in {
	u32 rtt_us;
	u32 min_rtt_us;
	u32 now_ms;
};

/**
 * mltcp_hook_rtt_sample() - a yielding socket's RTT sample
 * @ms: socket state, in MLTCP_PHASE_YIELD
 * @in: the sample
 *
 * mltcp_yield_step(): the window holds while the sample shows a queue
 * within the yield's limit; else the yield ends and the backoff steps.
 *
 * Return: enum mltcp_yield_state.
 */
static inline enum mltcp_yield_state mltcp_hook_rtt_sample(struct mltcp_sock *ms,
							   const struct mltcp_rtt_in *in)
{
	return mltcp_yield_step(ms, in->rtt_us, in->min_rtt_us, in->now_ms);
}

/**
 * struct mltcp_ack_in - what the ACK hook reads
 * @g: the global parameters
 * @bytes_acked: the socket's bytes_acked
 * @acked: segments newly acknowledged
 * @cwnd: congestion window
 * @ssthresh: slow-start threshold
 * @cwnd_clamp: the window's clamp
 * @cwnd_limited: the window is what limits the flow (tcp_is_cwnd_limited())
 * @rtt: the RTT sample and the clock: the clock always (the allowance,
 *	mltcp_check_phase()), the sample only in MLTCP_PHASE_YIELD, so the
 *	caller may leave it unset unless mltcp_in_yield()
 */
struct mltcp_ack_in {
	const struct mltcp_globals *g;
	u64 bytes_acked;
	u32 acked;
	u32 cwnd;
	u32 ssthresh;
	u32 cwnd_clamp;
	bool cwnd_limited;
	struct mltcp_rtt_in rtt;
};

/**
 * struct mltcp_ack_out - what the ACK hook does
 * @yield: MLTCP_YIELD_NONE, or the yield's state on this ACK: HOLDS (nothing
 *	else happens), or how it ended (DRAINED or EXPIRED)
 * @f: the ACK's F, Q10 (set when @slow_start or @ca)
 * @slow_start: slow start took the ACK's segments (what it leaves at ssthresh
 *	goes on to congestion avoidance): set the window to @cwnd
 * @cwnd: the window after slow start
 * @ca: congestion avoidance has work: the base algorithm increases by
 *	@ca_credit
 * @ca_acked: the segments left to congestion avoidance, unscaled
 * @ca_credit: their F-scaled credit (may be 0)
 */
struct mltcp_ack_out {
	enum mltcp_yield_state yield;
	u32 f;
	bool slow_start;
	u32 cwnd;
	bool ca;
	u32 ca_acked;
	u32 ca_credit;
};

/**
 * mltcp_ack_busy() - has the ACK entry anything to do?
 * @ms: socket state
 * @cwnd_limited: tcp_is_cwnd_limited()
 *
 * Lets the glue skip filling struct mltcp_ack_in for an ACK that changes
 * nothing: mltcp_hook_ack() returns at once when this is false.
 *
 * Return: true in MLTCP_PHASE_YIELD or when the window limits the flow.
 */
static inline bool mltcp_ack_busy(const struct mltcp_sock *ms, bool cwnd_limited)
{
	return cwnd_limited || mltcp_in_yield(ms);
}

/**
 * mltcp_slow_start_by() - slow start's increase by an ACK credit
 * @cwnd: the window
 * @ssthresh: where slow start stops
 * @clamp: the window's clamp
 * @credit: segments to grow by (RFC 5681, 3.1: one per segment acked)
 * @cwnd_out: the window after it
 *
 * The window grows by @credit up to @ssthresh, and no further than @clamp.
 *
 * Return: the part of @credit slow start left over at @ssthresh.
 */
static inline u32 mltcp_slow_start_by(u32 cwnd, u32 ssthresh, u32 clamp, u32 credit,
				      u32 *cwnd_out)
{
	u32 grown = cwnd + credit < ssthresh ? cwnd + credit : ssthresh;

	*cwnd_out = grown < clamp ? grown : clamp;
	return credit - (grown - cwnd);
}

/**
 * mltcp_hook_ack() - an ACK, from the congestion-avoidance hook
 * @ms: socket state
 * @in: what the hook read (struct mltcp_ack_in)
 * @out: what the caller applies and reports (struct mltcp_ack_out)
 *
 * A yielding socket's RTT sample decides first; while the yield holds
 * nothing else happens.  A window that limits the flow then grows: slow
 * start by the segments acked, unscaled (a window growing (1 + F) times a
 * round trip would overshoot the queue each restarted phase), congestion
 * avoidance by the credit scaled by F of the socket's phase.
 *
 * Return: true when the base algorithm's congestion avoidance has work
 *	(its credit in @out->ca_credit).
 */
static inline bool mltcp_hook_ack(struct mltcp_sock *ms, const struct mltcp_ack_in *in,
				  struct mltcp_ack_out *out)
{
	const struct mltcp_globals *g = in->g;
	u32 acked = in->acked;
	u16 carry;

	out->yield = MLTCP_YIELD_NONE;
	out->slow_start = false;
	out->ca = false;
	if (mltcp_in_yield(ms)) {
		out->yield = mltcp_hook_rtt_sample(ms, &in->rtt);
		if (out->yield == MLTCP_YIELD_HOLDS)
			return false;
	}
	mltcp_check_phase(ms, READ_ONCE(g->mode), READ_ONCE(g->overrun),
			  mltcp_bytes_done(in->bytes_acked, ms->mark), in->rtt.now_ms);
	if (!in->cwnd_limited)
		return false;
	out->f = mltcp_phase_f_q10(ms, (enum mltcp_phase)ms->phase, READ_ONCE(g->fparams),
				   READ_ONCE(g->stagger), in->bytes_acked);
	if (in->cwnd < in->ssthresh) {
		out->slow_start = true;
		acked = mltcp_slow_start_by(in->cwnd, in->ssthresh, in->cwnd_clamp,
					    acked, &out->cwnd);
		if (!acked)
			return false;
	}
	out->ca = true;
	out->ca_acked = acked;
	carry = ms->carry;
	out->ca_credit = mltcp_scale_credit(acked, out->f, &carry);
	ms->carry = carry;
	return true;
}

/**
 * mltcp_hook_decrease() - a multiplicative decrease (loss, ECN, CWR)
 * @ms: socket state
 * @g: the global parameters
 * @acked: the socket's bytes_acked
 * @cwnd: the window before the decrease
 * @reduced: the base algorithm's window after it (its ssthresh)
 *
 * With @g->decrease the cut is divided by F (mltcp_soften_cut()), so the
 * flow further through its iteration also backs off less.  At the deepest
 * backoff, where this cut earns the top of F (mltcp_top_earned(); the
 * phase moves at the next hook), the cut is the base algorithm's: F there
 * says nothing of how far through its iteration the flow is, and a cut
 * divided by a constant only makes every such flow more aggressive, which
 * over-committed links pay in drops and timeouts.
 *
 * Return: the window to use as ssthresh.
 */
static inline u32 mltcp_hook_decrease(struct mltcp_sock *ms, const struct mltcp_globals *g,
				      u64 acked, u32 cwnd, u32 reduced)
{
	ms->cut = 1;
	if (!READ_ONCE(g->decrease) || mltcp_backoff_at_top(ms))
		return reduced;
	return mltcp_soften_cut(cwnd, reduced,
				mltcp_sock_f_q10(ms, READ_ONCE(g->mode), READ_ONCE(g->fparams),
						 READ_ONCE(g->stagger), READ_ONCE(g->overrun),
						 acked));
}

/**
 * struct mltcp_mark_out - what an iteration mark did
 * @iter_done: the mark completed an iteration (every mark but the first)
 * @iter_ms: how long that iteration took, from mark to mark (modulo 65.5 s)
 */
struct mltcp_mark_out {
	bool iter_done;
	u32 iter_ms;
};

/**
 * mltcp_hook_mark() - the control plane marks the start of an iteration
 * @ms: socket state
 * @acked: bytes_acked now
 * @unacked: bytes written to the socket but not yet acked; they belong to
 *	the previous iteration
 * @bytes: size of the new iteration, 0 = keep the current size
 * @now_ms: the caller's millisecond clock
 * @out: what the caller reports
 *
 * The socket enters UNEARNED; the iteration the mark completed, if any, is
 * reported and the new one timed from now.
 */
static inline void mltcp_hook_mark(struct mltcp_sock *ms, u64 acked, u64 unacked, u64 bytes,
				   u32 now_ms, struct mltcp_mark_out *out)
{
	out->iter_done = mltcp_iter_begin(ms, acked, unacked, bytes) == MLTCP_EV_GIVEN;
	mltcp_enter_unearned(ms);
	out->iter_ms = (u16)((u16)now_ms - ms->mark_ms);
	ms->mark_ms = (u16)now_ms;
}

#endif /* _MLTCP_HOOKS_H */
