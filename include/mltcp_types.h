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
#include <linux/kernel.h>
#elif defined(__bpf__)
#include "mltcp_bpf_compat.h"
#else
#include "mltcp_user_compat.h"
#endif

#define MLTCP_Q10_SHIFT		10
#define MLTCP_Q10_ONE		1024U	/* 2^MLTCP_Q10_SHIFT */

/* Parameter limits, Q10. */
#define MLTCP_SLOPE_MAX		(8U * MLTCP_Q10_ONE)
#define MLTCP_INTERCEPT_MIN	1U	/* intercept must be > 0 */
#define MLTCP_INTERCEPT_MAX	(8U * MLTCP_Q10_ONE)
#define MLTCP_SLOPE_DEFAULT	MLTCP_Q10_ONE	/* MLTCP papers: F in [1, 2] */
#define MLTCP_INTERCEPT_DEFAULT	MLTCP_Q10_ONE
/*
 * Stagger: the largest head start, a fraction of an iteration
 * (mltcp_head_start_q10()); 0 is the papers' F.  Half an iteration: see
 * docs/DESIGN.md, "Rules and their evidence".
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
 * The floor of an iteration: smaller learned ones merge into the next,
 * smaller declared sizes are refused, and a socket below it is BASE.
 * About the initial window: fewer bytes do not fill one round trip.
 */
#define MLTCP_MIN_ITER_BYTES	(16U * 1024U)
#define MLTCP_MAX_ITER_BYTES	0x1000000000000ULL	/* 2^48 */
#define MLTCP_HIST_LEN		3

/*
 * Overrun: the multiple of its size an iteration may carry with F > 1
 * (mltcp_iter_overrun()), Q10; 0 lifts it.  5/4: iterations repeat their
 * size within a few percent, so one a quarter larger is not the iteration
 * declared or learned.
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
#define MLTCP_SF_MARKS_GIVEN	0x04	/* iteration marks by control plane */
#define MLTCP_SF_HINTED		(MLTCP_SF_SIZE_GIVEN | MLTCP_SF_MARKS_GIVEN)
#define MLTCP_SF_TIEBREAK_GIVEN	0x08	/* tiebreak set by control plane */
#define MLTCP_SF_MARK_PENDING	0x10	/* a mark, not yet followed by an idle TX_START */
#define MLTCP_SF_SPENT		0x20	/* allowance spent: outlasted, or a mark or size since */
#define MLTCP_SF_BACKOFF	0xc0	/* enum mltcp_backoff (2 bits, mltcp_restart.h) */
#define MLTCP_SF_BACKOFF_SHIFT	6

/**
 * struct mltcp_sock - per-socket MLTCP state (56 bytes)
 * @mark: bytes_acked where the current iteration started (a byte offset)
 * @bytes_per_iter: bytes per iteration, given or learned; 0 = unknown
 * @hist: sizes of the last completed iterations, oldest first
 *	(mltcp_hist_len() are valid)
 * @iters: completed iterations, 29 bits
 * @free_yield: the last yield ended without a queue and did not step the
 *	backoff down (mltcp_backoff_step())
 * @cut: the base algorithm cut the window (a loss, CE marks, a local
 *	drop) since the iteration's communication began (mltcp_top_earned())
 * @size_shown: a completed iteration showed the size in use
 *	(mltcp_confirm_size())
 * @start_ms: when the iteration's communication began, in the caller's
 *	millisecond clock (mltcp_iter_clock_start())
 * @carry: Q10 remainder of the scaled ACK credit, < 1024
 * @sent_log4: how long the flow sent in its last iteration after its yield
 *	(mltcp_ms_log4(), 0 = unknown): what mltcp_yield_was_long() holds a
 *	drained yield against.  While @yield_held, that yield's own length.
 * @tiebreak: Q10 in [0, 1024]: the socket's share of the stagger
 *	(mltcp_head_start_q10())
 * @phase: enum mltcp_phase, written only by mltcp_phase.h's transitions
 * @yield_held: a yield ended in this iteration and @sent_log4 holds its
 *	length, until the next iteration starts (mltcp_note_sent())
 * @flags: MLTCP_SF_*, the backoff in the top two bits
 * @gap_log8: the learned iteration gap, or a marked flow's restart gap, on
 *	mltcp_gap_log8()'s log scale; 0 = none
 * @bursts: learner: bursts of this iteration (low nibble) and per
 *	iteration (high nibble, mltcp_learn_gap())
 * @mark_ms: given marks: low 16 bits of the clock at the last mark, for
 *	the iteration's duration (in @bursts' slot: a socket uses one or
 *	the other)
 *
 * CUBIC's state leaves 56 of the 104 bytes of icsk_ca_priv
 * (MLTCP_CHECK_PRIV).  Everything is written under the socket's lock, by
 * the hooks and the control plane.
 */
struct mltcp_sock {
	u64 mark;
	u64 bytes_per_iter;
	u64 hist[MLTCP_HIST_LEN];
	u32 iters:29;
	u32 free_yield:1;
	u32 cut:1;
	u32 size_shown:1;
	u32 start_ms;
	u16 carry:10;
	u16 sent_log4:6;
	u16 tiebreak:11;
	u16 phase:3;
	u16 yield_held:1;
	u8 flags;
	u8 gap_log8;
	union {
		u8 bursts;
		u16 mark_ms;
	};
};

/**
 * struct mltcp_globals - the global parameters a hook reads
 * @fparams: slope and intercept, packed (mltcp_params_pack()): one load
 * @idle_ms: floor of the idle threshold (mltcp_idle_threshold_us())
 * @stagger: largest head start, Q10 of an iteration (mltcp_head_start_q10())
 * @overrun: overrun multiple, Q10 of the size, 0 = none (mltcp_iter_overrun())
 * @mode: enum mltcp_mode
 * @decrease: F also divides the multiplicative decrease (mltcp_soften_cut())
 *
 * The hooks read each field once, with READ_ONCE(): the kernel's live
 * parameters (written with WRITE_ONCE()), or the BPF backend's clamped copy.
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
