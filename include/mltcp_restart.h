/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: the window restart at an iteration's first transmission and
 * the yield that follows it.  Part of include/mltcp_core.h.
 */
#ifndef _MLTCP_RESTART_H
#define _MLTCP_RESTART_H

#include "mltcp_types.h"
#include "mltcp_params.h"
#include "mltcp_f.h"
#include "mltcp_learner.h"

/**
 * mltcp_restart_due() - does this transmission restart the window?
 * @ms: socket state
 * @mode: global enum mltcp_mode
 * @params: packed slope/intercept
 * @outstanding: bytes sent but not yet acked (snd_nxt - snd_una)
 * @gap_us: time since the last data transmission
 * @threshold_us: mltcp_idle_threshold_us()
 *
 * An MLTCP socket starts each iteration's communication from the initial
 * window, as RFC 5681 (4.1) has every TCP do after an idle period longer
 * than the RTO: the compute phase is such a period, only often shorter
 * than the RTO, and MLTCP, unlike TCP, knows it is one.  The reason is the
 * interleaving: a job whose phase begins while another is still sending
 * would otherwise burst the whole window it had at the end of its last
 * phase into a queue the other job holds; the tail drops that follow hit
 * both jobs, stretch both phases and throw interleaved jobs back into
 * overlap (docs/DESIGN.md, "The rules": restart).  Restarted, the newcomer's slow start is
 * clocked by the RTT of the full queue and it yields to the job already
 * sending; alone, the ramp costs a few RTTs of an empty path.
 *
 * Only at the start of an iteration, not at every idle gap: a DDP job
 * sends an iteration's gradients in buckets separated by backward compute,
 * and restarting each bucket would slow the job for nothing.  With given
 * marks, the first transmission after a mark (MLTCP_SF_MARK_PENDING);
 * learning, a gap the learner takes for an iteration gap
 * (mltcp_gap_ends_iter()).  In both cases after an idle gap.
 *
 * Only where F is in use (slope > 0, mltcp_f_active()): with slope 0 the
 * algorithm stays exactly its base.
 *
 * Return: true when the window restarts.
 */
static inline bool mltcp_restart_due(const struct mltcp_sock *ms, int mode,
				     u32 params, u32 outstanding, u32 gap_us,
				     u32 threshold_us)
{
	if (!mltcp_params_slope(params) || !mltcp_f_active(ms, mode) ||
	    !mltcp_is_idle_gap(outstanding, gap_us, threshold_us))
		return false;
	if (ms->flags & MLTCP_SF_BOUNDS_GIVEN)
		return ms->flags & MLTCP_SF_MARK_PENDING;
	return mltcp_gap_ends_iter(ms, gap_us);
}

/**
 * mltcp_path_bdp() - the path's BDP in segments, from a delivery-rate sample
 * @delivered: segments delivered over the sample's interval
 * @interval_us: the sample's interval (0 = no sample)
 * @min_rtt_us: the path's minimum RTT (~0U = unknown)
 *
 * The sample is the one TCP keeps for tcp_info's delivery rate
 * (tp->rate_delivered over tp->rate_interval_us: the latest sample not
 * limited by the application, or a higher one), so the tail of a phase,
 * when the sender ran out of data, does not lower it.  It measures about
 * the bottleneck's rate at most (tcp_rate.c divides by the longer of the
 * send and ACK intervals, so ACK compression does not inflate it), and
 * only the flow's share of it, so the product errs low rather than high.
 *
 * Return: delivered * min_rtt / interval, 0 when either is unknown.
 */
static inline u32 mltcp_path_bdp(u32 delivered, u32 interval_us, u32 min_rtt_us)
{
	if (!interval_us || min_rtt_us == ~0U)
		return 0;
	return (u32)div64_u64((u64)delivered * min_rtt_us, interval_us);
}

/**
 * mltcp_restart_ssthresh() - slow-start threshold after a window restart
 * @ssthresh: the socket's slow-start threshold
 * @cwnd_before: the window the restart lowers (the one the last phase
 *	ended with)
 * @bdp: the path's BDP as the last delivery-rate sample measured it
 *	(mltcp_path_bdp()), 0 = unknown
 * @open: the socket is in TCP_CA_Open or TCP_CA_Disorder (no reduction
 *	in progress)
 *
 * The restart sends each phase back to the initial window, and slow start
 * then brings it back only as far as ssthresh.  Left alone, ssthresh keeps
 * the value the connection's first losses gave it for the whole run: where
 * no loss follows (a FIFO on the senders' own NIC, whose backpressure TCP
 * small queues absorb) nothing raises it again, and a connection whose
 * first losses left it below the path's BDP slow-starts each phase to that
 * low threshold and crawls the rest of the way in congestion avoidance: a
 * job slower than its partner by a third, every phase.
 * So the threshold climbs towards the window the last phase reached, as
 * RFC 7661 keeps a window's memory across an idle period, but no higher
 * than the path's BDP: a window a phase reached over a full buffer (Reno's
 * sawtooth behind a router) would send every slow start into that buffer,
 * while a slow start that stops at the BDP fills the pipe and no queue.
 * During a reduction (CWR, Recovery, Loss) it is left as it is, as
 * tcp_current_ssthresh() does.
 *
 * Return: the threshold to use from the restart on.
 */
static inline u32 mltcp_restart_ssthresh(u32 ssthresh, u32 cwnd_before, u32 bdp,
					 bool open)
{
	u32 target = cwnd_before < bdp ? cwnd_before : bdp;

	if (!open || target <= ssthresh)
		return ssthresh;
	return target;
}

/*
 * MLTCP_YIELD_QDELAY_US: the least queueing delay (an RTT sample above the
 * path's minimum RTT) that a restarted flow takes for another flow's queue:
 * more than its own initial window queues at 100 Mbit/s (10 segments, ~1.2
 * ms at most; the first sample, of the window's first segment, sees less).
 * On longer paths an eighth of the minimum RTT where that is more
 * (mltcp_queue_seen()).
 */
#define MLTCP_YIELD_QDELAY_US	1000U

/**
 * mltcp_queue_seen() - does an RTT sample show a standing queue?
 * @rtt_us: the latest RTT sample, 0 when none
 * @min_rtt_us: the path's minimum RTT, ~0U when unknown
 *
 * The share of the minimum RTT keeps a path whose RTT wanders by itself
 * (a WAN, a loaded host) from reading its own jitter as a queue.  It is an
 * eighth, not more, because a queue another job holds can be short: behind
 * a FIFO on the senders' own NIC, TCP small queues keep one flow's backlog
 * at 1-4.5 ms of the link whatever the RTT, so with 10 ms of RTT a threshold
 * of half the RTT never saw it (docs/DESIGN.md, "The rules": yield).
 *
 * Return: true when @rtt_us exceeds @min_rtt_us by more than
 *	MLTCP_YIELD_QDELAY_US and by more than an eighth of @min_rtt_us.
 */
static inline bool mltcp_queue_seen(u32 rtt_us, u32 min_rtt_us)
{
	u32 qdelay = min_rtt_us / 8;

	if (!rtt_us || min_rtt_us == ~0U || rtt_us <= min_rtt_us)
		return false;
	if (qdelay < MLTCP_YIELD_QDELAY_US)
		qdelay = MLTCP_YIELD_QDELAY_US;
	return rtt_us - min_rtt_us > qdelay;
}

/*
 * The longest reference a marked flow's yield is bounded by: its clock
 * (@restart_ms) wraps after 65.5 s, and no yield should last a minute.
 */
#define MLTCP_YIELD_REF_MAX_US	60000000U

/**
 * mltcp_yield_begin() - a restarted window starts yielding
 * @ms: socket state
 * @gap_us: the idle gap that preceded the restart
 * @now_ms: the caller's millisecond clock (the one @ms->start_ms is in)
 *
 * The yield's bound counts from this restart, in both modes.  A learned
 * iteration starts here (its start is the yield's clock); a marked one
 * started at its mark, before its compute, so its restart's time is kept
 * on its own (@ms->restart_ms), and the restart's gap, not a learned one
 * (with given marks the learner keeps none), is the reference.
 */
static inline void mltcp_yield_begin(struct mltcp_sock *ms, u32 gap_us, u32 now_ms)
{
	if (ms->flags & MLTCP_SF_BOUNDS_GIVEN) {
		ms->gap_q8 = mltcp_gap_q8(gap_us < MLTCP_YIELD_REF_MAX_US ? gap_us :
					  MLTCP_YIELD_REF_MAX_US);
		ms->restart_ms = (u16)now_ms;
	} else {
		ms->start_ms = now_ms;
	}
	ms->flags |= MLTCP_SF_YIELD;
}

/* Milliseconds since the restart that began the current yield. */
static inline u32 mltcp_yield_since_ms(const struct mltcp_sock *ms, u32 now_ms)
{
	if (ms->flags & MLTCP_SF_BOUNDS_GIVEN)
		return (u16)((u16)now_ms - ms->restart_ms);
	return now_ms - ms->start_ms;
}

/* Sets the backoff to @n <= MLTCP_BACKOFF_MAX, leaving the other flags alone. */
static inline void mltcp_set_yield_backoff(struct mltcp_sock *ms, u8 n)
{
	ms->flags = (u8)((ms->flags & ~MLTCP_SF_BACKOFF) | (n << MLTCP_SF_BACKOFF_SHIFT));
}

/**
 * mltcp_backoff_octaves() - how many halvings of the gap a backoff stands for
 * @n: backoff, in [0, MLTCP_BACKOFF_MAX]
 *
 * One per step up to a quarter of the gap; the deepest step jumps to a
 * 32nd (MLTCP_BACKOFF_DEEPEST_OCTAVES).  A job that got there has run out
 * a quarter of its gap behind the other job's phase again and again: one
 * it cannot take turns with.  Its yields then only look whether the link
 * is free, which takes the first RTT or two, not the eighth of the gap
 * (~130 ms of a 1 s gap, every iteration) that the learned short job of
 * the DDP benchmark's incompatible mix held otherwise (docs/DESIGN.md,
 * "Yields and their backoff").  The bound counts from the restart
 * (mltcp_yield_begin()), so even the deepest one lets the first samples
 * arrive where the gap is more than 32 RTTs; where it is not, the bound
 * runs out first and the sample that ends the yield judges it
 * (mltcp_yield_step()).
 *
 * Return: the bound is the gap divided by 2 to this power.
 */
static inline u32 mltcp_backoff_octaves(u8 n)
{
	return n < MLTCP_BACKOFF_MAX ? n : MLTCP_BACKOFF_DEEPEST_OCTAVES;
}

/* The time since the yield's restart, on the gap's log scale (mltcp_gap_q8()). */
static inline u32 mltcp_yield_held_q8(const struct mltcp_sock *ms, u32 now_ms)
{
	u32 held_ms = mltcp_yield_since_ms(ms, now_ms);

	return mltcp_gap_q8(held_ms < 0xffffffffU / 1000U ? held_ms * 1000U : 0xffffffffU);
}

/**
 * mltcp_yield_in_bound() - may a yield still go on?
 * @ms: socket state
 * @now_ms: the caller's millisecond clock (the one @ms->start_ms is in)
 *
 * A yield lasts at most as long as the iteration gap (@ms->gap_q8) from
 * its restart, divided by 2^mltcp_backoff_octaves() (eight steps of the
 * log scale an octave): see mltcp_yield_step().
 *
 * Return: true while the time since the restart is below the bound.
 */
static inline bool mltcp_yield_in_bound(const struct mltcp_sock *ms, u32 now_ms)
{
	u32 octaves = mltcp_backoff_octaves(mltcp_yield_backoff(ms));

	return ms->gap_q8 && mltcp_yield_held_q8(ms, now_ms) + 8U * octaves < ms->gap_q8;
}

/**
 * mltcp_yield_was_long() - did a yield that drained cost as much as a bound?
 * @ms: socket state, its yield just drained
 * @now_ms: the caller's millisecond clock (the one @ms->start_ms is in)
 *
 * A learned yield that waited a quarter of the gap (MLTCP_YIELD_LONG_OCTAVES)
 * or more for the queue to empty found no turn either: it met a job that
 * sends most of the time and pauses now and then (a DDP job whose buckets
 * come from a busy CPU), and waits that long again every iteration.  It
 * steps the backoff up as a bound would; only yields at backoff 0 and 1 can
 * drain that late, as deeper bounds end them earlier.  Between jobs that
 * take turns the first yields may be that long, and the next ones, behind
 * a phase already past, drain early and step back.  Marked yields are not
 * judged so: a marked job's long waits were for the other job's phases,
 * which they served, and judged they cost that other job more than they
 * saved (docs/DESIGN.md, "Yields and their backoff").
 *
 * Return: true if the yield counts as one that ran out the bound.
 */
static inline bool mltcp_yield_was_long(const struct mltcp_sock *ms, u32 now_ms)
{
	if (!ms->gap_q8 || (ms->flags & MLTCP_SF_BOUNDS_GIVEN))
		return false;
	return mltcp_yield_held_q8(ms, now_ms) + 8U * MLTCP_YIELD_LONG_OCTAVES >= ms->gap_q8;
}

/**
 * mltcp_backoff_step() - move the backoff after a yield ended
 * @ms: socket state
 * @deeper: the yield ran out its bound against a queue, or counts as one
 *	that did (mltcp_yield_was_long())
 *
 * A yield that found no turn deepens the backoff at once.  One that ended
 * without a queue steps it back only if the yield before it did too
 * (@ms->free_yield): the two mistakes do not cost the same.  Stepping back
 * wrongly, next to a job whose phases cover most of its iteration, costs
 * the next restart a yield of twice the bound against a phase that does
 * not end, and at MLTCP_BACKOFF_NO_TURNS the top of F; staying wrongly
 * costs a shorter bound, one iteration more.  Such a job leaves the link
 * free at some of the restarts that land between its phases, but seldom
 * at two in a row, while a link that stays free does so at every restart
 * and takes the backoff back to 0 in two yields a step.
 */
static inline void mltcp_backoff_step(struct mltcp_sock *ms, bool deeper)
{
	u8 backoff = mltcp_yield_backoff(ms);

	if (deeper) {
		ms->free_yield = 0;
		if (backoff < MLTCP_BACKOFF_MAX)
			mltcp_set_yield_backoff(ms, backoff + 1);
	} else if (!backoff) {
		ms->free_yield = 0;
	} else if (ms->free_yield) {
		ms->free_yield = 0;
		mltcp_set_yield_backoff(ms, backoff - 1);
	} else {
		ms->free_yield = 1;
	}
}

/* What mltcp_yield_step() decided on an ACK. */
enum mltcp_yield_state {
	MLTCP_YIELD_NONE = 0,	/* not yielding (no restart, or it ended before) */
	MLTCP_YIELD_HOLDS,	/* the flow keeps its window */
	MLTCP_YIELD_DRAINED,	/* ended now: a sample without another's queue */
	MLTCP_YIELD_BOUND,	/* ended now: the bound ran out, the queue still there */
};

/**
 * mltcp_yield_step() - does a restarted flow keep its window on this ACK?
 * @ms: socket state
 * @rtt_us: the latest RTT sample (0 = none)
 * @min_rtt_us: the path's minimum RTT (~0U = unknown)
 * @now_ms: the caller's millisecond clock (the one @ms->start_ms is in)
 *
 * A flow whose iteration restarted its window (mltcp_restart_due()) while
 * another job's phase fills the bottleneck finds a queue it did not build:
 * its first RTT samples sit well above the path's minimum although it has
 * only its initial window in flight.  It then keeps that window, instead
 * of slow-starting into the queue until both jobs share the link and both
 * phases stretch, and lets the job already sending finish: the phases of
 * jobs that overlap by a little end up one after the other.  The first
 * sample without such a queue ends the yield for the rest of the
 * iteration, and so does a yield as long as the iteration gap (an
 * ordinary bulk flow can hold a standing queue indefinitely): alone, or
 * behind a phase that ended, the flow ramps as before.
 *
 * The bound backs off.  Between jobs that can take turns the other job's
 * phase ends within the yielding job's compute time (its gap), so its
 * yields drain; a yield that runs out the bound with the queue still
 * there met a phase longer than that, a job it cannot interleave with
 * (communication over half of the iteration), and yielding to it again
 * would only slow this job down each iteration: each such yield shortens
 * the next ones' bound (a half, a quarter, then a 32nd of the gap:
 * mltcp_backoff_octaves()), and so does a learned yield that drains only
 * after a quarter of the gap (mltcp_yield_was_long()).  Yields that end
 * without a queue in their last sample, drained or out of bound, take the
 * backoff back, a step for two in a row (mltcp_backoff_step()): a bound
 * that runs out before the first sample arrives says nothing against the
 * link, and so no backoff outlives the queues that caused it.  Without a
 * gap reference (nothing learned yet) a yield ends at once and changes
 * nothing.
 *
 * Return: enum mltcp_yield_state; DRAINED and BOUND once per yield.
 */
static inline enum mltcp_yield_state mltcp_yield_step(struct mltcp_sock *ms, u32 rtt_us,
						      u32 min_rtt_us, u32 now_ms)
{
	enum mltcp_yield_state st;
	bool queue, deeper;

	if (!(ms->flags & MLTCP_SF_YIELD))
		return MLTCP_YIELD_NONE;
	queue = mltcp_queue_seen(rtt_us, min_rtt_us);
	if (mltcp_yield_in_bound(ms, now_ms)) {
		if (queue)
			return MLTCP_YIELD_HOLDS;
		st = MLTCP_YIELD_DRAINED;
		deeper = mltcp_yield_was_long(ms, now_ms);
	} else if (queue && ms->gap_q8) {
		st = MLTCP_YIELD_BOUND;
		deeper = true;
	} else {
		/* out of bound on a free link (or nothing learned): no evidence */
		st = MLTCP_YIELD_DRAINED;
		deeper = false;
	}
	mltcp_backoff_step(ms, deeper);
	ms->flags &= (u8)~MLTCP_SF_YIELD;
	return st;
}

/**
 * mltcp_yield_holds() - mltcp_yield_step() as a yes/no
 * @ms: socket state
 * @rtt_us: the latest RTT sample (0 = none)
 * @min_rtt_us: the path's minimum RTT (~0U = unknown)
 * @now_ms: the caller's millisecond clock
 *
 * Return: true while the flow holds its window.
 */
static inline bool mltcp_yield_holds(struct mltcp_sock *ms, u32 rtt_us,
				     u32 min_rtt_us, u32 now_ms)
{
	return mltcp_yield_step(ms, rtt_us, min_rtt_us, now_ms) == MLTCP_YIELD_HOLDS;
}

#endif /* _MLTCP_RESTART_H */
