/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: F, its policy (enum mltcp_f_state) and the scaled ACK credit
 * and decrease.  Part of include/mltcp_core.h.
 */
#ifndef _MLTCP_F_H
#define _MLTCP_F_H

#include "mltcp_types.h"
#include "mltcp_params.h"

/**
 * mltcp_bytes_done() - bytes of the current iteration
 * @acked: the socket's bytes_acked counter
 * @mark: bytes_acked value at which the iteration started
 *
 * Wrap-safe: the difference is taken modulo 2^64; a counter that is
 * behind the mark (data written before the mark still being acked)
 * counts as 0.
 *
 * Return: bytes acked since @mark, at least 0.
 */
static inline u64 mltcp_bytes_done(u64 acked, u64 mark)
{
	s64 d = (s64)(acked - mark);

	return d < 0 ? 0 : (u64)d;
}

/**
 * mltcp_ratio_q10() - bytes_ratio in Q10, clamped to [0, 1024]
 * @done: bytes of this iteration
 * @bpi: bytes per iteration, 0 = unknown (gives 0)
 *
 * Return: the Q10 ratio.
 */
static inline u32 mltcp_ratio_q10(u64 done, u64 bpi)
{
	if (!bpi)
		return 0;
	if (done >= bpi)
		return MLTCP_Q10_ONE;
	/* done < bpi here; keep done << 10 within 64 bits */
	if (done >= (1ULL << 53)) {
		done >>= MLTCP_Q10_SHIFT;
		bpi >>= MLTCP_Q10_SHIFT;
		/* the shift may make them equal; the ratio is still < 1 */
		if (done >= bpi)
			return MLTCP_Q10_ONE - 1;
	}
	return (u32)div64_u64(done << MLTCP_Q10_SHIFT, bpi);
}

/**
 * mltcp_f_q10() - F(ratio) = slope * ratio + intercept, Q10
 * @params: packed slope/intercept (mltcp_params_pack())
 * @ratio: Q10 bytes_ratio in [0, 1024]
 *
 * Return: F in Q10.
 */
static inline u32 mltcp_f_q10(u32 params, u32 ratio)
{
	return ((mltcp_params_slope(params) * ratio) >> MLTCP_Q10_SHIFT) +
	       mltcp_params_intercept(params);
}

/**
 * mltcp_head_start_q10() - a socket's head start, Q10 of an iteration
 * @tiebreak: the socket's tie-break, Q10 in [0, 1024]
 * @stagger: the global stagger, Q10 in [0, 1024]
 *
 * Identical jobs started together have the same bytes_ratio, hence the
 * same F, at every instant: the MLTCP shift, proportional to their offset,
 * is zero and fair sharing keeps them in lockstep.  The tie-break breaks
 * the tie: F is computed as if the socket were this much further through
 * its iteration, so two sockets with different tie-breaks behave like jobs
 * started (tiebreak_a - tiebreak_b) * stagger of an iteration apart, and
 * the usual MLTCP feedback widens that offset until the phases interleave.
 * F stays within [intercept, slope + intercept] (the ratio is clamped), so
 * the bound on F, and the friendliness that follows from it, is unchanged.
 * Every socket gets it once F applies (mltcp_f_active()), learned ones
 * too: the restart (mltcp_restart_due()) puts two jobs in lockstep back at
 * the initial window at the same moment in every iteration, and unmodified
 * PyTorch DDP pairs stayed in lockstep for whole runs without a head start
 * (docs/DESIGN.md, "The rules": tie-break).
 *
 * Return: tiebreak * stagger in Q10, at most 1024.
 */
static inline u32 mltcp_head_start_q10(u32 tiebreak, u32 stagger)
{
	return (tiebreak * stagger) >> MLTCP_Q10_SHIFT;
}

/**
 * mltcp_f_active() - does F apply to this socket at all?
 * @ms: socket state
 * @mode: global enum mltcp_mode
 *
 * Return: false in mode off, while the iteration size is unknown or below
 *	the floor (MLTCP_MIN_ITER_BYTES), and in mode given for sockets that
 *	got no hint; F is exactly 1 then.
 */
static inline bool mltcp_f_active(const struct mltcp_sock *ms, int mode)
{
	if (mode == MLTCP_MODE_OFF || ms->bytes_per_iter < MLTCP_MIN_ITER_BYTES)
		return false;
	return mode != MLTCP_MODE_GIVEN || (ms->flags & MLTCP_SF_HINTED);
}

/**
 * mltcp_iter_earned() - did this iteration's communication follow an idle gap?
 * @ms: socket state
 *
 * An iteration is a compute phase and the communication that follows it.
 * A learned iteration starts at an idle gap by construction; a marked one
 * earns F at its first transmission after an idle gap (mltcp_on_tx_start()
 * clears MLTCP_SF_MARK_PENDING there), so that marking a stream that never
 * pauses buys nothing.
 *
 * Return: false from a mark until the first transmission after an idle gap.
 */
static inline bool mltcp_iter_earned(const struct mltcp_sock *ms)
{
	return !(ms->flags & MLTCP_SF_MARK_PENDING);
}

/**
 * mltcp_size_shown() - has the size in use been shown by a completed iteration?
 * @ms: socket state
 *
 * A learned size is shown by construction (the iterations it is the median
 * of).  A declared one is not, when it is set or changed, until an iteration
 * that ends at an idle gap carried about that size (mltcp_confirm_size()).
 *
 * Return: true when the size may earn F.
 */
static inline bool mltcp_size_shown(const struct mltcp_sock *ms)
{
	return ms->size_shown;
}

/**
 * mltcp_iter_overrun() - has the iteration carried more than its size allows?
 * @ms: socket state, its size known
 * @overrun: the global bound, Q10 multiple of the size (MLTCP_OVERRUN_DEFAULT),
 *	0 = none
 * @done: bytes of the current iteration (mltcp_bytes_done())
 *
 * Return: true once @done exceeds @overrun times the iteration's size.
 */
static inline bool mltcp_iter_overrun(const struct mltcp_sock *ms, u32 overrun, u64 done)
{
	u64 bpi = ms->bytes_per_iter;

	if (!overrun)
		return false;
	/* bpi <= MLTCP_MAX_ITER_BYTES (2^48) and overrun <= 2^13: no overflow */
	if (bpi > MLTCP_MAX_ITER_BYTES)
		bpi = MLTCP_MAX_ITER_BYTES;
	return done > ((bpi * overrun) >> MLTCP_Q10_SHIFT);
}

/**
 * mltcp_yield_backoff() - how many times shorter than the gap yields are bounded
 * @ms: socket state
 *
 * Return: n in [0, MLTCP_BACKOFF_MAX]: a yield lasts at most the iteration
 *	gap divided by 2^mltcp_backoff_octaves(n) (mltcp_yield_in_bound()).
 */
static inline u8 mltcp_yield_backoff(const struct mltcp_sock *ms)
{
	return (ms->flags & MLTCP_SF_BACKOFF) >> MLTCP_SF_BACKOFF_SHIFT;
}

/**
 * mltcp_takes_no_turns() - has the flow met a job it cannot take turns with?
 * @ms: socket state
 *
 * The yield's bound at its deepest backoff (mltcp_yield_step()): the
 * flow's yields kept running into another job's phase longer than its own
 * compute, the latest one included.
 *
 * Return: true at the deepest backoff.
 */
static inline bool mltcp_takes_no_turns(const struct mltcp_sock *ms)
{
	return mltcp_yield_backoff(ms) == MLTCP_BACKOFF_MAX;
}

/* Which F a socket uses, and why (mltcp_f_state()). */
enum mltcp_f_state {
	MLTCP_F_BASE = 0,	/* no iteration F applies to (mode, size unknown or too small) */
	MLTCP_F_UNEARNED,	/* a mark not yet followed by an idle gap, or a size
				 * not yet shown: F = 1 */
	MLTCP_F_OVERRUN,	/* the iteration carried more than its bound: F = 1 */
	MLTCP_F_RAMP,		/* F = slope * min(1, ratio + head start) + intercept */
	MLTCP_F_TOP,		/* takes no turns: F = slope + intercept */
};

/**
 * mltcp_f_state() - which F this socket uses right now, and why
 * @ms: socket state
 * @mode: global enum mltcp_mode
 * @overrun: global bound on the bytes of an iteration (mltcp_iter_overrun())
 * @done: bytes of the current iteration
 *
 * The policy of include/mltcp_core.h's "Policy", in one place: F differs
 * from 1 only in the states MLTCP_F_RAMP and MLTCP_F_TOP, inside an earned
 * iteration of known size that a completed iteration has shown, below its
 * overrun.
 *
 * The invariant it keeps (docs/DESIGN.md, "What a socket can get"; checked
 * by tests/fuzz): whatever an unprivileged socket sends, declares or marks,
 * in whatever order, the bytes it sends with F > 1 between two idle gaps are
 * at most @overrun times the size in force when that iteration began, and
 * none before a size has been shown by a completed iteration.  Every change
 * of the size drops what was shown, every mark needs an idle gap, and only
 * an idle gap starts the count of @done afresh with F > 1.
 *
 * Return: enum mltcp_f_state.
 */
static inline enum mltcp_f_state mltcp_f_state(const struct mltcp_sock *ms, int mode,
						u32 overrun, u64 done)
{
	if (!mltcp_f_active(ms, mode))
		return MLTCP_F_BASE;
	if (!mltcp_iter_earned(ms) || !mltcp_size_shown(ms))
		return MLTCP_F_UNEARNED;
	if (mltcp_iter_overrun(ms, overrun, done))
		return MLTCP_F_OVERRUN;
	return mltcp_takes_no_turns(ms) ? MLTCP_F_TOP : MLTCP_F_RAMP;
}


/**
 * mltcp_sock_f_q10() - the F a socket uses right now
 * @ms: socket state
 * @mode: global enum mltcp_mode
 * @params: packed slope/intercept
 * @stagger: global stagger, Q10 in [0, 1024]
 * @overrun: global bound on the bytes of an iteration (mltcp_iter_overrun())
 * @acked: the socket's bytes_acked counter
 *
 * F = slope * min(1, bytes_ratio + head start) + intercept, for every
 * socket (mltcp_head_start_q10()), where the policy lets F apply
 * (mltcp_f_state()); exactly 1024 elsewhere, and exactly the intercept
 * when the slope is 0.  Bytes written before a mark and acked after it
 * (the counter behind the mark) belong to the iteration the mark ended:
 * they get F = 1, or a sender that stopped with a full send queue (a peer
 * advertising no window) would send them after the idle gap with F > 1,
 * outside the bytes the overrun bound counts.
 *
 * A flow that takes no turns (mltcp_takes_no_turns()) uses the top of F,
 * slope + intercept, all through its iteration.  Between jobs that cannot
 * interleave, the one whose yields run out starts each phase while the
 * other's is under way, its F ramping from the bottom against the other's
 * from the middle and up: it got less than a fair share every iteration
 * and ran 4-10% slower than under the base algorithm (docs/DESIGN.md, "The
 * top of F").  At the top it holds its own against any F of the other's
 * ramp.  It is bounded like every F: within [intercept, slope + intercept],
 * for the bytes of an earned iteration below its overrun, and only while
 * each restart still meets another flow's queue (mltcp_yield_step()).
 *
 * Return: F in Q10.
 */
static inline u32 mltcp_sock_f_q10(const struct mltcp_sock *ms, int mode,
				   u32 params, u32 stagger, u32 overrun, u64 acked)
{
	u64 done = mltcp_bytes_done(acked, ms->mark);
	u32 ratio;

	if ((s64)(acked - ms->mark) < 0)
		return MLTCP_Q10_ONE;
	switch (mltcp_f_state(ms, mode, overrun, done)) {
	case MLTCP_F_RAMP:
		break;
	case MLTCP_F_TOP:
		return mltcp_f_q10(params, MLTCP_Q10_ONE);
	default:
		return MLTCP_Q10_ONE;
	}
	ratio = mltcp_ratio_q10(done, ms->bytes_per_iter);
	ratio += mltcp_head_start_q10(ms->tiebreak, stagger);
	if (ratio > MLTCP_Q10_ONE)
		ratio = MLTCP_Q10_ONE;
	return mltcp_f_q10(params, ratio);
}

/**
 * mltcp_scale_credit() - scale an ACK credit by F, exactly
 * @acked: segments acked (the credit the base algorithm would get)
 * @f_q10: F in Q10
 * @carry: in/out remainder in 1/1024 segments, < 1024
 *
 * The fractional part is carried over to the next call, so over many
 * calls the total credit is exactly F times the total acked (within one
 * segment), even for ACKs of a single segment.  With F == 1024 and a zero
 * carry the result is @acked and the carry stays zero.
 *
 * Return: the scaled credit, saturated at U32_MAX.
 */
static inline u32 mltcp_scale_credit(u32 acked, u32 f_q10, u16 *carry)
{
	u64 total = (u64)acked * f_q10 + *carry;

	*carry = (u16)(total & (MLTCP_Q10_ONE - 1));
	total >>= MLTCP_Q10_SHIFT;
	return total > 0xffffffffULL ? 0xffffffffU : (u32)total;
}

/**
 * mltcp_soften_cut() - divide a multiplicative decrease by F
 * @cwnd: window before the decrease
 * @reduced: the base algorithm's window after it
 * @f: Q10 factor, >= 1
 *
 * Return: cwnd - (cwnd - reduced) / F, never below @reduced nor above
 *	@cwnd; @reduced itself when F is 1.
 */
static inline u32 mltcp_soften_cut(u32 cwnd, u32 reduced, u32 f)
{
	u32 cut;

	if (reduced >= cwnd || f <= MLTCP_Q10_ONE)
		return reduced;
	cut = (u32)div64_u64((u64)(cwnd - reduced) << MLTCP_Q10_SHIFT, f);
	return cwnd - cut;
}

#endif /* _MLTCP_F_H */
