/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: a socket's phase within its iterations, the states of the
 * diagram in include/mltcp_core.h.  Part of include/mltcp_core.h.
 *
 * The phase is not stored: mltcp_phase() derives it from struct mltcp_sock
 * (its flags, its size, the bytes of its iteration) and the parameters, so
 * the state keeps fitting CUBIC's private area.  The hook entries
 * (mltcp_hooks.h) take the transitions:
 *
 *   BASE -> RAMP          the size becomes known: given (mltcp_set_size(),
 *                         mltcp_hook_mark()) or learned, the third recorded
 *                         iteration (mltcp_hook_tx_start())
 *   any -> UNEARNED       a mark (mltcp_hook_mark()); in mode given, a
 *                         socket's first hint lifts it out of BASE this way;
 *                         a size declared or changed (mltcp_set_size(),
 *                         mltcp_hook_mark()) until an iteration that ends
 *                         at an idle gap shows it (mltcp_hook_tx_start())
 *   UNEARNED -> YIELD     the first transmission after an idle gap, the
 *                         restart (mltcp_hook_tx_start())
 *   UNEARNED -> RAMP      the same where the window does not restart (slope 0)
 *   RAMP, TOP, OVERRUN -> YIELD
 *                         an idle gap the learner takes for an iteration
 *                         gap restarts the window (mltcp_hook_tx_start())
 *   YIELD -> RAMP, TOP    an ACK whose RTT sample shows no other flow's
 *                         queue, or the yield's bound ran out
 *                         (mltcp_hook_rtt_sample()); the backoff steps up
 *                         when the bound ran out on a queue or a learned
 *                         yield drained late, down at the second yield in
 *                         a row that ended without a queue
 *   RAMP <-> TOP          the backoff reaches or leaves MLTCP_BACKOFF_NO_TURNS
 *                         at the end of a yield
 *   RAMP, TOP -> OVERRUN  the iteration carries more than overrun * size
 *                         (on an ACK, mltcp_hook_ack())
 *   any -> BASE           mode off (or given, for a socket without hints),
 *                         or the hints dropped before a size was learned
 *                         (mltcp_set_size(0)); slope 0 keeps the phases but
 *                         makes F the intercept and never restarts
 */
#ifndef _MLTCP_PHASE_H
#define _MLTCP_PHASE_H

#include "mltcp_types.h"
#include "mltcp_f.h"

/**
 * enum mltcp_phase - where a socket is in its iteration
 * @MLTCP_PHASE_BASE: no iteration F applies to: mode off, the size unknown
 *	or below MLTCP_MIN_ITER_BYTES, or a socket without hints in mode
 *	given (mltcp_f_active()); F = 1, the base algorithm
 * @MLTCP_PHASE_UNEARNED: marked, and the mark not yet followed by an idle
 *	gap, the iteration's compute (mltcp_iter_earned()), or a declared size
 *	not yet shown by a completed iteration (mltcp_size_shown()); F = 1
 * @MLTCP_PHASE_OVERRUN: the iteration carried more than overrun times its
 *	size (mltcp_iter_overrun()); F = 1 until the next boundary
 * @MLTCP_PHASE_RAMP: F = slope * min(1, bytes_ratio + head start) + intercept
 * @MLTCP_PHASE_TOP: the backoff is MLTCP_BACKOFF_NO_TURNS, the flow takes no
 *	turns (mltcp_takes_no_turns()); F = slope + intercept
 * @MLTCP_PHASE_YIELD: the window restarted at the iteration's first
 *	transmission and holds while RTT samples show another flow's queue
 *	(mltcp_yield_step()); F is the one of the phase it ends in (a
 *	decrease meanwhile uses it), and the next ACK in congestion avoidance
 *	ends it whatever F is
 *
 * The first five are the states of F's policy (enum mltcp_f_state), with
 * the same values; YIELD comes before them.
 */
enum mltcp_phase {
	MLTCP_PHASE_BASE = MLTCP_F_BASE,
	MLTCP_PHASE_UNEARNED = MLTCP_F_UNEARNED,
	MLTCP_PHASE_OVERRUN = MLTCP_F_OVERRUN,
	MLTCP_PHASE_RAMP = MLTCP_F_RAMP,
	MLTCP_PHASE_TOP = MLTCP_F_TOP,
	MLTCP_PHASE_YIELD,
};

/**
 * mltcp_in_yield() - is the socket in MLTCP_PHASE_YIELD?
 * @ms: socket state
 *
 * The one flag test mltcp_phase() starts with, on its own: the ACK entry
 * needs an RTT sample only here (mltcp_hook_ack()).
 *
 * Return: true while a restarted window yields.
 */
static inline bool mltcp_in_yield(const struct mltcp_sock *ms)
{
	return ms->flags & MLTCP_SF_YIELD;
}

/**
 * mltcp_phase() - the phase a socket is in
 * @ms: socket state
 * @mode: global enum mltcp_mode
 * @overrun: global bound on the bytes of an iteration (mltcp_iter_overrun())
 * @done: bytes of the current iteration (mltcp_bytes_done())
 *
 * Return: enum mltcp_phase: YIELD while the restarted window holds, else
 *	the state of F's policy (mltcp_f_state()).
 */
static inline enum mltcp_phase mltcp_phase(const struct mltcp_sock *ms, int mode,
					   u32 overrun, u64 done)
{
	if (mltcp_in_yield(ms))
		return MLTCP_PHASE_YIELD;
	return (enum mltcp_phase)mltcp_f_state(ms, mode, overrun, done);
}

#endif /* _MLTCP_PHASE_H */
