/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: F, the scaled ACK credit and decrease, and the rules of where
 * F applies (the phases' guards in mltcp_phase.h).  Part of
 * include/mltcp_core.h.
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
 * Modulo 2^64; a counter behind the mark (data written before the mark,
 * acked after it) counts as 0.
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
 * Identical jobs started together have the same F at every instant, and
 * fair sharing keeps them in lockstep.  F is computed as if the socket were
 * this much further through its iteration, so two sockets behave like jobs
 * started (tiebreak_a - tiebreak_b) * stagger apart and MLTCP widens the
 * offset.  The ratio is clamped, so F keeps its range.
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
 * A learned iteration starts at an idle gap; a marked one earns F at its
 * first transmission after one (mltcp_on_tx_start()), so marking a stream
 * that never pauses buys nothing.
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
 * A learned size is shown by the iterations it comes from; a declared or
 * changed one by an iteration of about that size (mltcp_confirm_size()).
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
 * @overrun: the global overrun multiple, Q10 (MLTCP_OVERRUN_DEFAULT), 0 = none
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
 * mltcp_scale_credit() - scale an ACK credit by F, exactly
 * @acked: segments acked (the credit the base algorithm would get)
 * @f_q10: F in Q10
 * @carry: in/out remainder in 1/1024 segments, < 1024
 *
 * The fraction is carried to the next call, so the total credit is F
 * times the total acked within one segment; F == 1024 gives @acked.
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
