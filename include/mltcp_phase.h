/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: a socket's phase within its iterations.  Stored in struct
 * mltcp_sock, written only by the transitions below, which the hook entries
 * (mltcp_hooks.h) take.  Part of include/mltcp_core.h.
 *
 *      any phase but YIELD: mode off, or the size unknown
 *        |
 *        v
 *      BASE --- size known ---> UNEARNED <--- a mark, or a new size
 *                                  |          (from RAMP, TOP, OVERRUN)
 *                                  | the mark's idle gap passed,
 *                                  | an iteration showed the size
 *                                  v
 *      YIELD --- no queue, or ---> RAMP <-- deepest backoff --> TOP
 *        ^       its limit          |     and a cut              |
 *        |                          +----------+-----------------+
 *        |                                     | bytes > overrun * size, or
 *        |                                     | the allowance is spent
 *        |                                     v
 *        |                                  OVERRUN (until the next iteration)
 *        |
 *      any phase but BASE: restart at an iteration's first transmission
 *
 * F is 1 in BASE, UNEARNED and OVERRUN, ramps in RAMP, is at its top in
 * TOP; in YIELD the window holds, and F is that of the phase it ends in.
 * The guards are mltcp_f.h's rules (where F applies), mltcp_learner.h's
 * (sizes, marks) and mltcp_restart.h's (restart, yield, backoff).  The
 * administrator's mode and overrun move a socket at its next hook
 * (mltcp_check_phase()).
 */
#ifndef _MLTCP_PHASE_H
#define _MLTCP_PHASE_H

#include "mltcp_types.h"
#include "mltcp_f.h"
#include "mltcp_restart.h"

/**
 * enum mltcp_phase - where a socket is in its iteration (the diagram above)
 * @MLTCP_PHASE_BASE: F does not apply (mltcp_f_active()); F = 1
 * @MLTCP_PHASE_UNEARNED: a mark awaits its idle gap, or the size is not
 *	shown yet (mltcp_iter_earned(), mltcp_size_shown()); F = 1
 * @MLTCP_PHASE_OVERRUN: the iteration carried more than overrun times its
 *	size (mltcp_iter_overrun()), or outlasted sixteen times the idle gap
 *	before it (mltcp_allowance_over()); F = 1 until the next iteration
 * @MLTCP_PHASE_RAMP: F = slope * min(1, bytes_ratio + head start) + intercept
 * @MLTCP_PHASE_TOP: the backoff is at its deepest and the window was cut
 *	in this iteration (mltcp_top_earned()); F = slope + intercept
 * @MLTCP_PHASE_YIELD: the restarted window holds while another flow queues
 */
enum mltcp_phase {
	MLTCP_PHASE_BASE = 0,
	MLTCP_PHASE_UNEARNED,
	MLTCP_PHASE_OVERRUN,
	MLTCP_PHASE_RAMP,
	MLTCP_PHASE_TOP,
	MLTCP_PHASE_YIELD,
};

static inline bool mltcp_in_yield(const struct mltcp_sock *ms)
{
	return ms->phase == MLTCP_PHASE_YIELD;
}

/*
 * The phase F's rules give outside a yield; the first rule that stops F
 * decides.  Whatever a socket sends, declares or marks, it gets F > 1 only
 * after an idle gap, for a size an iteration showed, up to overrun times it
 * and for at most sixteen times the gap (MLTCP_SF_SPENT, mltcp_check_phase()).
 */
static inline enum mltcp_phase mltcp_rules_phase(const struct mltcp_sock *ms, int mode,
						 u32 overrun, u64 done)
{
	if (!mltcp_f_active(ms, mode))
		return MLTCP_PHASE_BASE;
	if (!mltcp_iter_earned(ms) || !mltcp_size_shown(ms))
		return MLTCP_PHASE_UNEARNED;
	if ((ms->flags & MLTCP_SF_SPENT) || mltcp_iter_overrun(ms, overrun, done))
		return MLTCP_PHASE_OVERRUN;
	return mltcp_top_earned(ms) ? MLTCP_PHASE_TOP : MLTCP_PHASE_RAMP;
}

/**
 * mltcp_phase() - the phase a socket is in, under the parameters now
 * @ms: socket state
 * @mode: global enum mltcp_mode
 * @overrun: global overrun multiple (mltcp_iter_overrun())
 * @done: bytes of the current iteration (mltcp_bytes_done())
 *
 * For readers (reports, tracepoints): the stored phase, as the socket's
 * next hook finds it under these parameters.
 *
 * Return: enum mltcp_phase.
 */
static inline enum mltcp_phase mltcp_phase(const struct mltcp_sock *ms, int mode,
					   u32 overrun, u64 done)
{
	if (mltcp_in_yield(ms))
		return MLTCP_PHASE_YIELD;
	return mltcp_rules_phase(ms, mode, overrun, done);
}

/* The one writer of the stored phase; only the transitions below call it. */
static inline void mltcp_set_phase(struct mltcp_sock *ms, enum mltcp_phase phase)
{
	ms->phase = phase;
}

/* A mark or a new size: F waits for the next idle gap and a shown size. */
static inline void mltcp_enter_unearned(struct mltcp_sock *ms)
{
	if (ms->phase != MLTCP_PHASE_BASE && !mltcp_in_yield(ms))
		mltcp_set_phase(ms, MLTCP_PHASE_UNEARNED);
}

/* A yield ends: F ramps, or is at its top where that is earned. */
static inline void mltcp_enter_ramp(struct mltcp_sock *ms)
{
	mltcp_set_phase(ms, mltcp_top_earned(ms) ? MLTCP_PHASE_TOP : MLTCP_PHASE_RAMP);
}

/**
 * mltcp_enter_yield() - a restarted window starts to yield
 * @ms: socket state
 * @gap_us: the idle gap before the restart
 * @now_ms: the caller's millisecond clock
 *
 * The restart begins the iteration's communication: its clock starts.
 */
static inline void mltcp_enter_yield(struct mltcp_sock *ms, u32 gap_us, u32 now_ms)
{
	mltcp_iter_clock_start(ms, gap_us, now_ms);
	mltcp_set_phase(ms, MLTCP_PHASE_YIELD);
}

/**
 * mltcp_yield_step() - a yielding socket's RTT sample
 * @ms: socket state
 * @rtt_us: the latest RTT sample (0 = none)
 * @min_rtt_us: the path's minimum RTT (~0U = unknown)
 * @now_ms: the caller's millisecond clock
 *
 * mltcp_yield_judge() decides; a yield that ends leaves for RAMP or TOP.
 *
 * Return: enum mltcp_yield_state; NONE outside a yield.
 */
static inline enum mltcp_yield_state mltcp_yield_step(struct mltcp_sock *ms, u32 rtt_us,
						      u32 min_rtt_us, u32 now_ms)
{
	enum mltcp_yield_state st;

	if (!mltcp_in_yield(ms))
		return MLTCP_YIELD_NONE;
	st = mltcp_yield_judge(ms, rtt_us, min_rtt_us, now_ms);
	if (st != MLTCP_YIELD_HOLDS)
		mltcp_enter_ramp(ms);
	return st;
}

/**
 * mltcp_check_phase() - apply F's rules to the stored phase
 * @ms: socket state
 * @mode: global enum mltcp_mode
 * @overrun: global overrun multiple
 * @done: bytes of the current iteration
 * @now_ms: the caller's millisecond clock
 *
 * First the allowance: once the iteration outlasted it (yielding or not),
 * MLTCP_SF_SPENT holds until the next iteration's communication starts
 * (mltcp_iter_clock_start()), as it does after a mark or a size.
 * Outside a yield, the phase follows its guards: an idle gap earned the
 * mark or learned the size, the bytes passed the overrun, the allowance
 * is spent, or the mode or the overrun changed.  A yield ends only on its
 * samples.
 */
static inline void mltcp_check_phase(struct mltcp_sock *ms, int mode, u32 overrun, u64 done,
				     u32 now_ms)
{
	if (!(ms->flags & MLTCP_SF_SPENT) && mltcp_allowance_over(ms, now_ms))
		ms->flags |= MLTCP_SF_SPENT;
	if (!mltcp_in_yield(ms))
		mltcp_set_phase(ms, mltcp_rules_phase(ms, mode, overrun, done));
}

/* F of @phase; YIELD has none of its own (the caller gives the one it ends in). */
static inline u32 mltcp_phase_f_q10(const struct mltcp_sock *ms, enum mltcp_phase phase,
				    u32 params, u32 stagger, u64 acked)
{
	u32 ratio;

	/* bytes written before the mark belong to the iteration it ended */
	if ((s64)(acked - ms->mark) < 0)
		return MLTCP_Q10_ONE;
	switch (phase) {
	case MLTCP_PHASE_RAMP:
		break;
	case MLTCP_PHASE_TOP:
		return mltcp_f_q10(params, MLTCP_Q10_ONE);
	default:
		return MLTCP_Q10_ONE;
	}
	ratio = mltcp_ratio_q10(mltcp_bytes_done(acked, ms->mark), ms->bytes_per_iter);
	ratio += mltcp_head_start_q10(ms->tiebreak, stagger);
	if (ratio > MLTCP_Q10_ONE)
		ratio = MLTCP_Q10_ONE;
	return mltcp_f_q10(params, ratio);
}

/**
 * mltcp_sock_f_q10() - the F a socket uses right now
 * @ms: socket state
 * @mode: global enum mltcp_mode
 * @params: packed slope/intercept
 * @stagger: global stagger, Q10 in [0, 1024]
 * @overrun: global overrun multiple
 * @acked: the socket's bytes_acked counter
 *
 * For readers and the decrease: F of the phase the rules give now (in a
 * yield, the one it ends in), without writing the socket.
 *
 * Return: F in Q10.
 */
static inline u32 mltcp_sock_f_q10(const struct mltcp_sock *ms, int mode,
				   u32 params, u32 stagger, u32 overrun, u64 acked)
{
	enum mltcp_phase phase = mltcp_rules_phase(ms, mode, overrun,
						   mltcp_bytes_done(acked, ms->mark));

	return mltcp_phase_f_q10(ms, phase, params, stagger, acked);
}

#endif /* _MLTCP_PHASE_H */
