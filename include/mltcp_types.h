/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: the platform (kernel, BPF, userspace), the limits of the
 * parameters, the per-socket state (struct mltcp_sock) and its flags.
 * Part of include/mltcp_core.h, which is the header to include.
 */
#ifndef _MLTCP_TYPES_H
#define _MLTCP_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/bitops.h>
#elif defined(__bpf__)
#include "mltcp_bpf_compat.h"
#else
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#ifndef READ_ONCE
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#endif
#endif

#define MLTCP_Q10_SHIFT		10
#define MLTCP_Q10_ONE		(1U << MLTCP_Q10_SHIFT)

/* Parameter limits, Q10. */
#define MLTCP_SLOPE_MAX		(8U * MLTCP_Q10_ONE)
#define MLTCP_INTERCEPT_MIN	1U	/* intercept must be > 0 */
#define MLTCP_INTERCEPT_MAX	(8U * MLTCP_Q10_ONE)
#define MLTCP_SLOPE_DEFAULT	MLTCP_Q10_ONE	/* MLTCP papers: F in [1, 2] */
#define MLTCP_INTERCEPT_DEFAULT	MLTCP_Q10_ONE
/*
 * Stagger: the largest head start a socket's tie-break gives it, as a
 * fraction of an iteration (see mltcp_head_start_q10()).  0 turns the
 * tie-break off (the papers' F).  0.5 rather than 0.25: identical PyTorch
 * DDP jobs released together took turns more often with it, and the
 * emulator's cells did not tell the two apart (docs/DESIGN.md, "The rules").
 */
#define MLTCP_STAGGER_MAX	MLTCP_Q10_ONE
#define MLTCP_STAGGER_DEFAULT	(MLTCP_Q10_ONE / 2)
#define MLTCP_TIEBREAK_MAX	MLTCP_Q10_ONE

/* Idle threshold: max(idle_ms, MLTCP_IDLE_SRTT_MULT * srtt). */
#define MLTCP_IDLE_MS_DEFAULT	10U
#define MLTCP_IDLE_MS_MIN	1U
#define MLTCP_IDLE_MS_MAX	60000U
#define MLTCP_IDLE_SRTT_MULT	2U

/*
 * The floor of an iteration: learned iterations smaller than this are
 * merged into the next one, declared sizes below it are refused, and a
 * socket whose size is below it runs as its base algorithm.  About the
 * initial window (ten segments): a head start over fewer bytes would
 * not even fill one round trip.
 */
#define MLTCP_MIN_ITER_BYTES	(16U * 1024U)
#define MLTCP_MAX_ITER_BYTES	(1ULL << 48)
#define MLTCP_HIST_LEN		3

/*
 * Overrun: the multiple of its size an iteration may carry with F > 1
 * (mltcp_iter_overrun()), Q10; 0 lifts the bound.  5/4: a job's iterations
 * repeat their size to within a few percent (gloo's framing varies by less
 * than 1/64, the learner takes the median of three), so an iteration a
 * quarter larger than its size is not the iteration that was declared or
 * learned, and the quarter costs an honest job at most the top of F over
 * a quarter of an iteration.
 */
#define MLTCP_OVERRUN_DEFAULT	(MLTCP_Q10_ONE + MLTCP_Q10_ONE / 4)
#define MLTCP_OVERRUN_MAX	(8U * MLTCP_Q10_ONE)

enum mltcp_mode {
	MLTCP_MODE_LEARNED = 0,	/* learn unless the socket got hints */
	MLTCP_MODE_GIVEN = 1,	/* only sockets with hints get F != 1 */
	MLTCP_MODE_OFF = 2,	/* F == 1 always */
};

/* mltcp_sock.flags */
#define MLTCP_SF_INIT		0x01	/* init ran; counted as open socket */
#define MLTCP_SF_SIZE_GIVEN	0x02	/* bytes_per_iter set by control plane */
#define MLTCP_SF_BOUNDS_GIVEN	0x04	/* iteration marks by control plane */
#define MLTCP_SF_HINTED		(MLTCP_SF_SIZE_GIVEN | MLTCP_SF_BOUNDS_GIVEN)
#define MLTCP_SF_TIEBREAK_GIVEN	0x08	/* tiebreak set by control plane */
#define MLTCP_SF_MARK_PENDING	0x10	/* a mark, not yet followed by an idle TX_START */
#define MLTCP_SF_BACKOFF	0xc0	/* n: yield bound, mltcp_backoff_octaves() (2 bits) */
#define MLTCP_SF_BACKOFF_SHIFT	6

/**
 * struct mltcp_sock - per-socket MLTCP state (56 bytes)
 * @mark: value of bytes_acked at which the current iteration started
 * @bytes_per_iter: effective bytes per iteration (given or learned), 0 = unknown
 * @hist: sizes of the last completed iterations, oldest first; the first
 *	min(@iters, MLTCP_HIST_LEN) are valid (mltcp_hist_len())
 * @iters: completed iterations (given and learned), 30 bits
 * @free_yield: the last yield ended without a queue and did not step the
 *	backoff back: the next one that does steps it (mltcp_backoff_step());
 *	a bit beside @iters, as the 56 bytes hold nothing else; written where
 *	a yield ends, on the ACK path under the socket's lock, as @iters is
 * @size_shown: the size in use was shown by a completed iteration (learned,
 *	or a declared size confirmed, mltcp_confirm_size()); F is 1 without it
 *	(mltcp_f_state()); a bit beside @iters, written where @iters is and by
 *	the control plane, under the socket's lock
 * @start_ms: when the current iteration started, in the caller's clock
 *	(milliseconds): reported (tracepoints), and the start of a learned
 *	iteration's yield (mltcp_yield_since_ms()), never used in F
 * @carry: Q10 remainder of the scaled ACK credit, always < 1024
 * @tiebreak: Q10 in [0, 1024], the socket's share of the stagger (its
 *	head start, see mltcp_head_start_q10()); its connection's
 *	(mltcp_flow_tiebreak()) unless given
 * @flags: MLTCP_SF_*, and the yield's backoff in the top two bits; written on
 *	the ACK path and by the control plane, both under the socket's lock
 * @gap_q8: log2 of the send gap that ended the last learned iteration, in
 *	1/8 octaves of microseconds (mltcp_gap_q8()), 0 = none yet; with
 *	given marks, the gap before the last restart (mltcp_yield_begin())
 * @bursts: learner: bursts (sends between two idle gaps) of the current
 *	learned iteration so far in the low nibble; in the high nibble, the
 *	bursts per iteration, a maximum over the last iterations that forgets
 *	slowly (mltcp_learn_gap()); both saturate at 15 (MLTCP_BURSTS_MAX)
 * @restart_ms: with given marks (the learner is off), the low 16 bits of
 *	the clock at the last restart: where the yield's bound counts from
 *
 * 56 bytes is what CUBIC's private state leaves (MLTCP_CHECK_PRIV); the
 * learner's burst counts and the marked flows' restart time share a slot,
 * as a socket uses one or the other (mltcp_iter_begin() switches it).
 */
struct mltcp_sock {
	u64 mark;
	u64 bytes_per_iter;
	u64 hist[MLTCP_HIST_LEN];
	u32 iters:30;
	u32 free_yield:1;
	u32 size_shown:1;
	u32 start_ms;
	u16 carry;
	u16 tiebreak:11;
	u16 phase:3;
	u8 flags;
	u8 gap_q8;
	union {
		u8 bursts;
		u16 restart_ms;
	};
};

/**
 * struct mltcp_globals - the global parameters a hook reads
 * @fparams: slope and intercept, packed (mltcp_params_pack()): one load
 * @idle_ms: floor of the idle threshold (mltcp_idle_threshold_us())
 * @stagger: largest head start, Q10 of an iteration (mltcp_head_start_q10())
 * @overrun: bound on the bytes of an iteration F applies to, Q10 multiple of
 *	its size, 0 = none (mltcp_iter_overrun())
 * @mode: enum mltcp_mode
 * @decrease: F also divides the multiplicative decrease (mltcp_soften_cut())
 *
 * The hook entries (mltcp_hooks.h) take them by pointer and read each field
 * they use once, with READ_ONCE(), when they use it: the kernel passes its
 * live parameters, which the control plane writes field by field with
 * WRITE_ONCE() (slope and intercept together, in @fparams); the BPF backend
 * a copy of its map's, clamped.
 */
struct mltcp_globals {
	u32 fparams;
	u32 idle_ms;
	u32 stagger;
	u32 overrun;
	int mode;
	bool decrease;
};

/* What an event did to the iteration state. */
enum mltcp_event {
	MLTCP_EV_NONE = 0,
	MLTCP_EV_LEARNED,	/* an idle gap completed an iteration */
	MLTCP_EV_GIVEN,		/* a given mark completed an iteration */
};

#endif /* _MLTCP_TYPES_H */
