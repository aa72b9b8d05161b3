/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: the window restart at an iteration's first transmission, the
 * yield that follows it, and the yield's backoff.  Part of
 * include/mltcp_core.h; the phase transitions that use them are in
 * mltcp_phase.h.
 */
#ifndef _MLTCP_RESTART_H
#define _MLTCP_RESTART_H

#include "mltcp_types.h"
#include "mltcp_params.h"
#include "mltcp_f.h"
#include "mltcp_learner.h"

/**
 * mltcp_iter_starts() - does this transmission begin an iteration's communication?
 * @ms: socket state
 * @outstanding: bytes sent but not yet acked (snd_nxt - snd_una)
 * @gap_us: time since the last data transmission
 * @threshold_us: mltcp_idle_threshold_us()
 *
 * Return: true after an idle gap that earns a pending mark, or that the
 *	learner takes for an iteration gap (not the gaps between a DDP job's
 *	gradient buckets).
 */
static inline bool mltcp_iter_starts(const struct mltcp_sock *ms, u32 outstanding, u32 gap_us,
				     u32 threshold_us)
{
	if (!mltcp_is_idle_gap(outstanding, gap_us, threshold_us))
		return false;
	if (ms->flags & MLTCP_SF_MARKS_GIVEN)
		return ms->flags & MLTCP_SF_MARK_PENDING;
	return mltcp_gap_ends_iter(ms, gap_us);
}

/**
 * mltcp_restart_due() - does this transmission restart the window?
 * @ms: socket state
 * @mode: global enum mltcp_mode
 * @params: packed slope/intercept
 * @outstanding: bytes sent but not yet acked (snd_nxt - snd_una)
 * @gap_us: time since the last data transmission
 * @threshold_us: mltcp_idle_threshold_us()
 *
 * An iteration's communication starts from the initial window, from above
 * as from below.  From above, as RFC 5681 (4.1) has TCP do after an idle
 * period: a job whose phase begins while another's is under way would
 * otherwise burst its last window into the other's queue, and the drops
 * throw both back into lockstep.  From below, where RFC 5681 keeps the
 * smaller window: a loss late in the last phase (an RTO leaves one segment)
 * says nothing of the link after the idle gap, and of one job's
 * connections, those whose last phase ended in a loss would start the next
 * one behind the others, every iteration.  Only where F applies (slope > 0),
 * and only where an iteration's communication starts (mltcp_iter_starts()).
 *
 * Return: true when the window restarts.
 */
static inline bool mltcp_restart_due(const struct mltcp_sock *ms, int mode,
				     u32 params, u32 outstanding, u32 gap_us,
				     u32 threshold_us)
{
	return mltcp_params_slope(params) && mltcp_f_active(ms, mode) &&
	       mltcp_iter_starts(ms, outstanding, gap_us, threshold_us);
}

/**
 * mltcp_path_bdp() - the path's BDP in segments, from a delivery-rate sample
 * @delivered: segments delivered over the sample's interval
 * @interval_us: the sample's interval (0 = no sample)
 * @min_rtt_us: the path's minimum RTT (~0U = unknown)
 *
 * The sample is tcp_info's delivery rate (not limited by the application),
 * and only the flow's share of the bottleneck, so the product errs low.
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
 * @cwnd_before: the window before the restart
 * @bdp: mltcp_path_bdp(), 0 = unknown
 * @open: no reduction in progress (TCP_CA_Open or TCP_CA_Disorder)
 *
 * Each phase slow-starts from the initial window up to ssthresh; where no
 * loss raises a low ssthresh again, every phase would crawl the rest of the
 * way.  So the threshold climbs towards the last phase's window, as RFC
 * 7661 keeps a window across idle time, but not above the BDP, where slow
 * start fills the pipe and no queue.  A reduction in progress keeps it.
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
 * The least queueing delay a restarted flow takes for another flow's queue:
 * more than its own initial window queues at 100 Mbit/s (10 segments, about
 * 1.2 ms).  On longer paths an eighth of the minimum RTT, where that is more.
 */
#define MLTCP_YIELD_QDELAY_US	1000U

/**
 * mltcp_queue_seen() - does an RTT sample show a standing queue?
 * @rtt_us: the latest RTT sample, 0 when none
 * @min_rtt_us: the path's minimum RTT, ~0U when unknown
 *
 * An eighth of the minimum RTT keeps a path's own jitter from reading as a
 * queue, and is small enough to see the short queue TCP small queues leave
 * behind a FIFO on the senders' NIC.
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
 * The backoff n (MLTCP_SF_BACKOFF) shortens the yield's limit to the
 * iteration gap / 2^mltcp_backoff_octaves(n).  A yield that meets a queue
 * at its limit steps it up; two yields in a row without one step it down.
 */
enum mltcp_backoff {
	MLTCP_BACKOFF_GAP = 0,	/* a yield may last the iteration gap */
	MLTCP_BACKOFF_HALF,	/* half the gap */
	MLTCP_BACKOFF_QUARTER,	/* a quarter of the gap */
	MLTCP_BACKOFF_TOP,	/* a 32nd: F at its top (MLTCP_PHASE_TOP) */
	MLTCP_BACKOFF_MAX = MLTCP_BACKOFF_TOP,
};

/* the deepest limit, gap / 2^5: long enough for an RTT sample or two */
#define MLTCP_BACKOFF_TOP_OCTAVES	5

/* The backoff n, in [0, MLTCP_BACKOFF_MAX]. */
static inline u8 mltcp_yield_backoff(const struct mltcp_sock *ms)
{
	return (ms->flags & MLTCP_SF_BACKOFF) >> MLTCP_SF_BACKOFF_SHIFT;
}

/* Sets the backoff to @n <= MLTCP_BACKOFF_MAX, leaving the other flags alone. */
static inline void mltcp_set_yield_backoff(struct mltcp_sock *ms, u8 n)
{
	ms->flags = (u8)((ms->flags & ~MLTCP_SF_BACKOFF) | (n << MLTCP_SF_BACKOFF_SHIFT));
}

/* The deepest backoff: the socket met a job it cannot take turns with. */
static inline bool mltcp_backoff_at_top(const struct mltcp_sock *ms)
{
	return mltcp_yield_backoff(ms) == MLTCP_BACKOFF_TOP;
}

/**
 * mltcp_top_earned() - does F stay at its top?
 * @ms: socket state
 *
 * Two signals, not one.  The deepest backoff says the restarts kept
 * meeting a queue, which RTT samples alone show, and a receiver that
 * delays its ACKs can make them show it.  A cut of the window since the
 * iteration's communication began says the link was congested in a way the
 * base algorithm paid for (a loss, CE marks, a local drop): a receiver
 * that forges one costs its sender a cut in every iteration it wants the
 * top.  A job beside one it cannot take turns with, behind a router's
 * FIFO or an ECN queue, meets both in the phases they share, and its F
 * goes to the top from the first cut; before that it ramps.
 *
 * Return: true at the deepest backoff after a cut in this iteration.
 */
static inline bool mltcp_top_earned(const struct mltcp_sock *ms)
{
	return mltcp_backoff_at_top(ms) && ms->cut;
}

/**
 * mltcp_backoff_octaves() - how many halvings of the gap a backoff stands for
 * @n: backoff, in [0, MLTCP_BACKOFF_MAX]
 *
 * One per step up to a quarter of the gap; the top jumps to a 32nd: its
 * yields only look whether the link is free, which takes an RTT or two.
 *
 * Return: the yield's limit is the gap divided by 2 to this power.
 */
static inline u32 mltcp_backoff_octaves(u8 n)
{
	return n < MLTCP_BACKOFF_MAX ? n : MLTCP_BACKOFF_TOP_OCTAVES;
}

/**
 * mltcp_backoff_step() - move the backoff after a yield ended
 * @ms: socket state
 * @deeper: the yield met a queue at its limit, or drained as late as one
 *	(mltcp_yield_was_long())
 *
 * Up at once, down only after two yields in a row without a queue
 * (@ms->free_yield): next to a job whose phases cover most of its iteration
 * a wrong step down costs a long yield and the top of F, while a link that
 * stays free frees every restart and takes the backoff down two yields a
 * step.
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

/*
 * The iteration's clock (@start_ms) runs from the transmission that began
 * its communication: the yield's limit and the allowance count from there.
 * A marked flow's own gap reference is the gap before that transmission, up
 * to a minute (longer computes yield no longer).
 */
#define MLTCP_ITER_REF_MAX_US	60000000U

/* The largest mltcp_ms_log4(): 49 s and longer. */
#define MLTCP_MS_LOG4_MAX	63U

/**
 * mltcp_ms_log4() - milliseconds on a log scale of four steps an octave
 * @ms: a duration in milliseconds
 *
 * mltcp_gap_log8()'s scale at half its resolution, so that it fits six bits.
 *
 * Return: 0 for 0; else 1 + 4 * log2(@ms) (the exponent and two mantissa
 *	bits), monotonic, up to MLTCP_MS_LOG4_MAX.
 */
static inline u32 mltcp_ms_log4(u32 ms)
{
	u32 code;

	if (!ms)
		return 0;
	code = 1 + mltcp_gap_log8(ms) / 2U;
	return code < MLTCP_MS_LOG4_MAX ? code : MLTCP_MS_LOG4_MAX;
}

/* The shortest duration of mltcp_ms_log4() @code, in milliseconds. */
static inline u32 mltcp_log4_ms(u32 code)
{
	if (!code)
		return 0;
	code--;
	return ((4U + (code & 3)) << (code / 4)) >> 2;
}

/**
 * mltcp_note_sent() - the last iteration's sending time, as its next starts
 * @ms: socket state, its clock still on the last iteration
 * @gap_us: the idle gap before this transmission
 * @now_ms: the caller's millisecond clock
 *
 * The last iteration sent from its start until the idle gap began, less
 * its yield where one ended (@ms->yield_held; its length read at the low
 * end of its step, so the time sent errs long by at most a fifth of the
 * yield).  The first iteration's clock starts with the connection
 * (mltcp_hook_init()).
 */
static inline void mltcp_note_sent(struct mltcp_sock *ms, u32 gap_us, u32 now_ms)
{
	u32 busy_ms = now_ms - gap_us / 1000U - ms->start_ms;
	u32 held_ms = ms->yield_held ? mltcp_log4_ms(ms->sent_log4) : 0;

	ms->yield_held = 0;
	if (busy_ms >= 1U << 31) {
		/* a second start in one hook: keep what the first noted */
		if (held_ms)
			ms->sent_log4 = 0;
		return;
	}
	ms->sent_log4 = mltcp_ms_log4(busy_ms > held_ms ? busy_ms - held_ms : 0);
}

/**
 * mltcp_iter_clock_start() - an iteration's communication begins
 * @ms: socket state
 * @gap_us: the idle gap before it
 * @now_ms: the caller's millisecond clock
 *
 * The last iteration's sending time is noted (mltcp_note_sent()), the
 * clock starts, the iteration's allowance is new and no cut is counted yet
 * (mltcp_top_earned()).  A learned flow's gap reference is the learner's; a
 * marked one's is this gap.
 */
static inline void mltcp_iter_clock_start(struct mltcp_sock *ms, u32 gap_us, u32 now_ms)
{
	mltcp_note_sent(ms, gap_us, now_ms);
	if (ms->flags & MLTCP_SF_MARKS_GIVEN)
		ms->gap_log8 = mltcp_gap_log8(gap_us < MLTCP_ITER_REF_MAX_US ? gap_us :
					  MLTCP_ITER_REF_MAX_US);
	ms->start_ms = now_ms;
	ms->flags &= (u8)~MLTCP_SF_SPENT;
	ms->cut = 0;
}

/* Milliseconds since the iteration's communication began. */
static inline u32 mltcp_iter_since_ms(const struct mltcp_sock *ms, u32 now_ms)
{
	return now_ms - ms->start_ms;
}

/* The time since the iteration's communication began, on the gap's log scale. */
static inline u32 mltcp_iter_held_log8(const struct mltcp_sock *ms, u32 now_ms)
{
	u32 held_ms = mltcp_iter_since_ms(ms, now_ms);

	return mltcp_gap_log8(held_ms < 0xffffffffU / 1000U ? held_ms * 1000U : 0xffffffffU);
}

/*
 * The allowance: an iteration has F > 1 for at most sixteen times the idle
 * gap before its communication, and at most MLTCP_ITER_REF_MAX_US.  So a
 * sender has F > 1 all the time it sends only if it is idle at least a
 * seventeenth of its time: a bulk transfer with short pauses is not an
 * iteration structure.  Sixteen, not less: over-commitment stretches an
 * honest phase, up to four times at 4:1, and a job that communicates 80%
 * of its iteration alone (a phase four times its compute gap) keeps F > 1
 * through such a stretch.
 *
 * A marked iteration's gap is its own (@gap_log8).  A learned one is
 * measured against the learner's reference, which exceeds the gap that
 * began the iteration by up to 6/8 of an octave (MLTCP_GAP_TOL_LOG8, half
 * of that once mltcp_learn_gap() moved it) or 12/8 for an overdue one
 * (MLTCP_GAP_NEAR_LOG8, then half): 26/8 octaves over the reference
 * (9.5 times it) are never more than sixteen times the gap.
 */
#define MLTCP_ALLOWANCE_LOG8		32
#define MLTCP_ALLOWANCE_LEARNED_LOG8	26

/**
 * mltcp_allowance_over() - has the iteration outlasted its allowance?
 * @ms: socket state
 * @now_ms: the caller's millisecond clock
 *
 * Return: true from the allowance's end on, and while no gap is known.
 */
static inline bool mltcp_allowance_over(const struct mltcp_sock *ms, u32 now_ms)
{
	u32 limit = ms->gap_log8;
	u32 cap = mltcp_gap_log8(MLTCP_ITER_REF_MAX_US);

	if (!limit)
		return true;
	limit += ms->flags & MLTCP_SF_MARKS_GIVEN ? MLTCP_ALLOWANCE_LOG8 :
						     MLTCP_ALLOWANCE_LEARNED_LOG8;
	if (limit > cap)
		limit = cap;
	return mltcp_iter_held_log8(ms, now_ms) >= limit;
}

/**
 * mltcp_yield_in_limit() - may a yield still go on?
 * @ms: socket state
 * @now_ms: the caller's millisecond clock
 *
 * Return: true while the time since the restart is below the gap divided by
 *	2^mltcp_backoff_octaves() (eight log steps an octave).
 */
static inline bool mltcp_yield_in_limit(const struct mltcp_sock *ms, u32 now_ms)
{
	u32 octaves = mltcp_backoff_octaves(mltcp_yield_backoff(ms));

	return ms->gap_log8 && mltcp_iter_held_log8(ms, now_ms) + 8U * octaves < ms->gap_log8;
}

/**
 * mltcp_yield_was_long() - did a yield that drained cost as much as a limit?
 * @ms: socket state, its yield just drained
 * @held_ms: how long the yield held
 *
 * A yield is a flow's bet that the phase it waits for ends before its own
 * would have: then the two jobs take turns and the wait costs the waiter
 * nothing it would not have lost sharing the link.  A wait longer than the
 * waiter's own sending time (@ms->sent_log4; a step of its scale longer at
 * least) lost the bet: it met a job that sends most of the time, or more
 * jobs than turns, and would wait as long every iteration.  Marked and
 * learned flows alike.  Without a sending time noted, no judgement.
 *
 * Return: true if the yield counts as one that met a queue at its limit.
 */
static inline bool mltcp_yield_was_long(const struct mltcp_sock *ms, u32 held_ms)
{
	return ms->sent_log4 && mltcp_ms_log4(held_ms) > ms->sent_log4;
}

/* What an RTT sample did to a yield (mltcp_yield_step()). */
enum mltcp_yield_state {
	MLTCP_YIELD_NONE = 0,	/* not yielding */
	MLTCP_YIELD_HOLDS,	/* the flow keeps its window */
	MLTCP_YIELD_DRAINED,	/* ended now: a sample without another's queue */
	MLTCP_YIELD_EXPIRED,	/* ended now: the limit ran out, the queue still there */
};

/**
 * mltcp_yield_judge() - does a yielding flow keep its window on this sample?
 * @ms: socket state, yielding
 * @rtt_us: the latest RTT sample (0 = none)
 * @min_rtt_us: the path's minimum RTT (~0U = unknown)
 * @now_ms: the caller's millisecond clock
 *
 * A restarted flow whose samples show a queue it did not build holds its
 * initial window and lets the job already sending finish.  The first sample
 * without a queue ends the yield, and so does its limit; the end steps the
 * backoff (mltcp_backoff_step()).  Without a gap reference the yield ends
 * at once and changes nothing.
 *
 * Return: HOLDS, or how the yield ended (DRAINED or EXPIRED).
 */
static inline enum mltcp_yield_state mltcp_yield_judge(struct mltcp_sock *ms, u32 rtt_us,
						       u32 min_rtt_us, u32 now_ms)
{
	u32 held_ms = mltcp_iter_since_ms(ms, now_ms);
	enum mltcp_yield_state st;
	bool queue, deeper;

	queue = mltcp_queue_seen(rtt_us, min_rtt_us);
	if (mltcp_yield_in_limit(ms, now_ms)) {
		if (queue)
			return MLTCP_YIELD_HOLDS;
		st = MLTCP_YIELD_DRAINED;
		deeper = mltcp_yield_was_long(ms, held_ms);
	} else if (queue && ms->gap_log8) {
		st = MLTCP_YIELD_EXPIRED;
		deeper = true;
	} else {
		/* out of limit on a free link (or nothing learned): no evidence */
		st = MLTCP_YIELD_DRAINED;
		deeper = false;
	}
	mltcp_backoff_step(ms, deeper);
	/* until the next iteration starts, the slot holds the yield's length */
	ms->sent_log4 = mltcp_ms_log4(held_ms);
	ms->yield_held = 1;
	return st;
}

#endif /* _MLTCP_RESTART_H */
