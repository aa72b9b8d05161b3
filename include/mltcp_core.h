/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core math and per-socket state machine.
 *
 * The model.  A training job alternates compute and communication; an
 * iteration is one of each.  MLTCP scales its base algorithm's increase
 * (and divides its decrease) by F, which grows with how far the socket is
 * through its iteration's bytes, so that of two jobs whose phases overlap
 * the one further ahead finishes first; the next iterations' phases drift
 * apart until they take turns.  Each iteration's communication starts from
 * the initial window (the restart) and holds it while another job's queue
 * is there (the yield), so that jobs taking turns stay apart.
 *
 * A socket's state within its iterations (enum mltcp_f_state, and the
 * yield's flag and backoff in mltcp_sock.flags):
 *
 *   BASE (F = 1): size unknown or below 16 KiB, or mode off
 *     |  a size is given, or the learner has recorded three iterations
 *     v
 *   ITERATION BOUNDARY: a mark (given), or an idle gap the learner takes
 *     |                 for an iteration gap (learned)
 *     v
 *   UNEARNED (F = 1) - - - - - - - - - - - - - - -+  marked iterations only:
 *     |  first transmission after an idle gap      : the compute phase earns F
 *     v                                            :
 *   RESTART: cwnd = initial window, ssthresh climbs towards min(last cwnd, BDP)
 *     v
 *   YIELD: hold the window while RTT samples show another flow's queue
 *     |   ends at a sample without one (backoff - 1, or + 1 for a learned
 *     |   drain after a quarter of the gap), or at the bound, the gap / 2^n
 *     |   from the restart (backoff + 1 if the queue is still there, else - 1)
 *     v
 *   RAMP: F = slope * min(1, ratio + tiebreak * stagger) + intercept
 *     or TOP: F = slope + intercept, at the deepest backoff (takes no turns)
 *     |  the iteration carried more than overrun * size
 *     v
 *   OVERRUN (F = 1) until the next ITERATION BOUNDARY
 *
 * This header is plain C: it compiles in the kernel (used by mltcp_core.c)
 * and in userspace (unit tests, simulators).  It never touches a socket;
 * the kernel glue reads the tcp_sock counters and passes them in.
 *
 * Fixed point: every fractional quantity is Q10, i.e. 1024 == 1.0.
 *
 *   bytes_ratio = bytes acked in this iteration / bytes per iteration,
 *                 clamped to [0, 1]
 *   F           = slope * bytes_ratio + intercept
 *   credit      = acked * F, the ACK credit fed to the base algorithm's
 *                 additive increase (so AI is scaled by F)
 *
 * Per-socket state (struct mltcp_sock) lives at the start of each
 * algorithm's private area in icsk_ca_priv.  Byte counters are the
 * socket's u64 bytes_acked; all differences are taken modulo 2^64 and
 * interpreted as signed, so a wrap of the counter is harmless.
 *
 * Iteration boundaries and sizes come from two sources:
 *
 *  - learned: on the first transmission after the socket had nothing
 *    outstanding, a send gap longer than the idle threshold ends a burst;
 *    it ends the current iteration when it is about as long as the gap
 *    that ended the last one (mltcp_learn_gap(): a DDP iteration is
 *    several bursts, one per gradient bucket, separated by shorter gaps;
 *    with one burst per iteration every idle gap ends one), or when the
 *    iteration is overdue (mltcp_iter_overdue()).  Its size is recorded;
 *    once three iterations are recorded, bytes per iteration is the
 *    median of the last three, which ignores any single outlier.
 *    Iterations that moved fewer than MLTCP_MIN_ITER_BYTES are not
 *    recorded: their bytes roll over into the next iteration (a heartbeat
 *    in the compute phase must not split an iteration in two); before the
 *    first recorded iteration, the gaps between such small sends are the
 *    connection's setup and teach the learner nothing.
 *  - given: the control plane sets the size and/or marks iteration
 *    starts.  Once a socket got an iteration mark, idle gaps no longer
 *    move its boundaries; once it got a size, the learner no longer
 *    changes its size (but still records history).  Given iteration
 *    marks without a size let the learner learn the size from the
 *    given boundaries, which are exact.
 *
 * Until the size is known F is exactly 1, i.e. the base algorithm.
 *
 * Tie-break.  Identical jobs started at the same instant have the same
 * bytes_ratio, hence the same F, at every instant; fair sharing then keeps
 * them in lockstep for ever (the MLTCP shift is proportional to their
 * offset, zero at zero).  Each socket therefore carries a tie-break t in
 * [0, 1], drawn from its connection's endpoints (the same at both ends,
 * mltcp_flow_tiebreak()) unless the application gives one (one value for
 * all sockets of a job), and F is computed as if the socket were
 * t * stagger of an iteration further through it:
 *
 *   F = slope * min(1, bytes_ratio + t * stagger) + intercept
 *
 * F keeps its range [intercept, slope + intercept]; slope 0 is still the
 * base algorithm, and so is stagger 0 with the papers' F.
 *
 * Policy.  MLTCP is unfair on purpose, between training jobs; what a socket
 * can get from it is bounded whatever it sends and whatever hints it gives
 * (mltcp_f_state()):
 *
 *  - F differs from 1 only inside an iteration of known size, declared or
 *    learned, of at least MLTCP_MIN_ITER_BYTES: a flow with no iteration
 *    structure (one that never idles) runs as its base algorithm;
 *  - only for the bytes of that size: once the iteration has carried more
 *    than @overrun times its size (5/4 by default, mltcp_iter_overrun()),
 *    F is 1 again until the next iteration boundary;
 *  - only once the iteration's communication followed an idle gap (its
 *    compute phase): a marked iteration whose first transmission did not
 *    follow one runs as the base algorithm (mltcp_iter_earned());
 *  - the yields' backoff always recovers: a yield is bounded from its own
 *    restart and steps the backoff up only when its last RTT sample still
 *    showed a queue (mltcp_yield_step()).
 *
 * The tie-break an application may choose (up to 1) moves where F starts
 * in [intercept, slope + intercept], not its range, and only for the bytes
 * above: it buys a head start over other MLTCP jobs, never more than the
 * top of F against other traffic.  The administrator may lift the byte
 * bound (@overrun 0) on hosts whose applications are trusted.
 */
#ifndef _MLTCP_CORE_H
#define _MLTCP_CORE_H

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
 * tie-break off (the papers' F).  0.5: two identical PyTorch DDP jobs
 * released together took turns in 10 of 12 runs with it, 12 of 23 with
 * 0.25; the emulator's cells did not tell the two apart (bench/ANALYSIS.md).
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
#define MLTCP_SF_YIELD		0x20	/* restarted; holds while others queue */
#define MLTCP_SF_BACKOFF	0xc0	/* n: yield bound, mltcp_backoff_octaves() (2 bits) */
#define MLTCP_SF_BACKOFF_SHIFT	6
#define MLTCP_BACKOFF_MAX	3
/* the deepest backoff bounds a yield by gap / 2^5: a probe of an RTT or two */
#define MLTCP_BACKOFF_DEEPEST_OCTAVES	5
/* a learned yield that drains after gap / 2^2 steps the backoff up: mltcp_yield_was_long() */
#define MLTCP_YIELD_LONG_OCTAVES	2

/**
 * struct mltcp_sock - per-socket MLTCP state (56 bytes)
 * @mark: value of bytes_acked at which the current iteration started
 * @bytes_per_iter: effective bytes per iteration (given or learned), 0 = unknown
 * @hist: sizes of the last completed iterations, oldest first; the first
 *	min(@iters, MLTCP_HIST_LEN) are valid (mltcp_hist_len())
 * @iters: completed iterations (given and learned)
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
	u32 iters;
	u32 start_ms;
	u16 carry;
	u16 tiebreak;
	u8 flags;
	u8 gap_q8;
	union {
		u8 bursts;
		u16 restart_ms;
	};
};

/* What an event did to the iteration state. */
enum mltcp_event {
	MLTCP_EV_NONE = 0,
	MLTCP_EV_LEARNED,	/* an idle gap completed an iteration */
	MLTCP_EV_GIVEN,		/* a given mark completed an iteration */
};

/* ---- parameters ------------------------------------------------------ */

/**
 * mltcp_params_pack() - pack slope and intercept into one word
 * @slope: Q10 slope, <= MLTCP_SLOPE_MAX
 * @intercept: Q10 intercept, <= MLTCP_INTERCEPT_MAX
 *
 * The ACK path reads both with one load, so it never sees a torn pair.
 *
 * Return: the packed word.
 */
static inline u32 mltcp_params_pack(u32 slope, u32 intercept)
{
	return (slope & 0xffff) | (intercept << 16);
}

static inline u32 mltcp_params_slope(u32 packed)
{
	return packed & 0xffff;
}

static inline u32 mltcp_params_intercept(u32 packed)
{
	return packed >> 16;
}

static inline bool mltcp_slope_valid(u32 q10)
{
	return q10 <= MLTCP_SLOPE_MAX;
}

static inline bool mltcp_intercept_valid(u32 q10)
{
	return q10 >= MLTCP_INTERCEPT_MIN && q10 <= MLTCP_INTERCEPT_MAX;
}

static inline bool mltcp_stagger_valid(u32 q10)
{
	return q10 <= MLTCP_STAGGER_MAX;
}

static inline bool mltcp_tiebreak_valid(u32 q10)
{
	return q10 <= MLTCP_TIEBREAK_MAX;
}

static inline bool mltcp_idle_ms_valid(u32 ms)
{
	return ms >= MLTCP_IDLE_MS_MIN && ms <= MLTCP_IDLE_MS_MAX;
}

static inline bool mltcp_overrun_valid(u32 q10)
{
	return !q10 || (q10 >= MLTCP_Q10_ONE && q10 <= MLTCP_OVERRUN_MAX);
}

/* A declared iteration size: at least the floor, at most what the ABI allows. */
static inline bool mltcp_iter_size_valid(u64 bytes)
{
	return bytes >= MLTCP_MIN_ITER_BYTES && bytes <= MLTCP_MAX_ITER_BYTES;
}

static inline bool mltcp_str_is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/**
 * mltcp_parse_q10() - parse a non-negative decimal into Q10
 * @s: NUL-terminated text such as "1", "0.5", "1.25" or ".75";
 *     leading and trailing white space (a newline from echo) is allowed
 * @out: result, rounded to the nearest 1/1024; untouched on error
 *
 * At most 9 fractional digits and values below 65536 are accepted.
 *
 * Return: 0 or -EINVAL for anything else (signs, exponents, garbage).
 */
static inline int mltcp_parse_q10(const char *s, u32 *out)
{
	u64 ipart = 0, frac = 0, scale = 1;
	unsigned int idigits = 0, fdigits = 0;
	u64 q;

	while (mltcp_str_is_space(*s))
		s++;
	while (*s >= '0' && *s <= '9') {
		ipart = ipart * 10 + (u64)(*s - '0');
		if (ipart >= 65536)
			return -EINVAL;
		idigits++;
		s++;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			if (++fdigits > 9)
				return -EINVAL;
			frac = frac * 10 + (u64)(*s - '0');
			scale *= 10;
			s++;
		}
	}
	if (!idigits && !fdigits)
		return -EINVAL;
	while (mltcp_str_is_space(*s))
		s++;
	if (*s)
		return -EINVAL;

	q = (ipart << MLTCP_Q10_SHIFT) +
	    div64_u64((frac << MLTCP_Q10_SHIFT) + scale / 2, scale);
	if (q > 0xffffffffULL)
		return -EINVAL;
	*out = (u32)q;
	return 0;
}

/**
 * mltcp_format_q10() - print a Q10 value as the shortest decimal that
 *	parses back to the same value
 * @q: Q10 value
 * @buf: output, at least 24 bytes
 *
 * Return: number of characters written, without the terminating NUL.
 */
static inline int mltcp_format_q10(u32 q, char *buf)
{
	u32 ipart = q >> MLTCP_Q10_SHIFT, rem = q & (MLTCP_Q10_ONE - 1);
	u64 scale = 1, f = 0;
	unsigned int nd, i;
	char tmp[12];
	int n = 0, k = 0;

	for (nd = 0; nd <= 4 && rem; nd++, scale *= 10) {
		f = div64_u64((u64)rem * scale + MLTCP_Q10_ONE / 2, MLTCP_Q10_ONE);
		if (div64_u64((f << MLTCP_Q10_SHIFT) + scale / 2, scale) == rem)
			break;
	}
	/* nd <= 4 always matches: 1e-4 is finer than half of 1/1024 */
	do {
		tmp[k++] = (char)('0' + ipart % 10);
		ipart /= 10;
	} while (ipart);
	while (k)
		buf[n++] = tmp[--k];
	if (rem) {
		buf[n++] = '.';
		for (i = nd; i > 0; i--) {
			buf[n + i - 1] = (char)('0' + f % 10);
			f /= 10;
		}
		n += nd;
	}
	buf[n] = '\0';
	return n;
}

/**
 * mltcp_parse_mode() - parse "learned", "given" or "off"
 * @s: text, optionally followed by white space
 *
 * Return: the enum mltcp_mode value or -EINVAL.
 */
static inline int mltcp_parse_mode(const char *s)
{
	static const char * const names[] = { "learned", "given", "off" };
	unsigned int i, j;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		j = 0;
		while (names[i][j] && s[j] == names[i][j])
			j++;
		if (names[i][j])
			continue;
		while (mltcp_str_is_space(s[j]))
			j++;
		if (!s[j])
			return (int)i;
	}
	return -EINVAL;
}

static inline const char *mltcp_mode_name(int mode)
{
	switch (mode) {
	case MLTCP_MODE_LEARNED:
		return "learned";
	case MLTCP_MODE_GIVEN:
		return "given";
	case MLTCP_MODE_OFF:
		return "off";
	}
	return "?";
}

/* ---- F and the scaled credit ----------------------------------------- */

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
 * (bench/ANALYSIS.md).
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
	MLTCP_F_UNEARNED,	/* a mark not yet followed by an idle gap: F = 1 */
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
 * The policy of this header's top comment, in one place: F differs from 1
 * only in the states MLTCP_F_RAMP and MLTCP_F_TOP, inside an earned
 * iteration of known size, below its overrun.
 *
 * Return: enum mltcp_f_state.
 */
static inline enum mltcp_f_state mltcp_f_state(const struct mltcp_sock *ms, int mode,
						u32 overrun, u64 done)
{
	if (!mltcp_f_active(ms, mode))
		return MLTCP_F_BASE;
	if (!mltcp_iter_earned(ms))
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
 * when the slope is 0.
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

/* ---- learner --------------------------------------------------------- */

static inline u64 mltcp_median3(u64 a, u64 b, u64 c)
{
	if (a > b) {
		u64 t = a;

		a = b;
		b = t;
	}
	/* a <= b */
	if (c <= a)
		return a;
	if (c >= b)
		return b;
	return c;
}

/**
 * mltcp_hist_len() - how many entries of @ms->hist are valid
 * @ms: socket state
 *
 * Every completed iteration is recorded, so the history holds the last
 * min(@ms->iters, MLTCP_HIST_LEN).  After 2^32 iterations the count wraps
 * and the learner starts its history afresh, as on a new connection.
 *
 * Return: the number of valid entries, oldest first.
 */
static inline u32 mltcp_hist_len(const struct mltcp_sock *ms)
{
	return ms->iters < MLTCP_HIST_LEN ? ms->iters : MLTCP_HIST_LEN;
}

/**
 * mltcp_learned_size() - learned bytes per iteration, 0 until known
 * @ms: socket state
 *
 * Return: the median of the last three iteration sizes, or 0.
 */
static inline u64 mltcp_learned_size(const struct mltcp_sock *ms)
{
	if (mltcp_hist_len(ms) < MLTCP_HIST_LEN)
		return 0;
	return mltcp_median3(ms->hist[0], ms->hist[1], ms->hist[2]);
}

/**
 * mltcp_record_iter() - record a completed iteration's size
 * @ms: socket state
 * @size: bytes the iteration moved
 *
 * Updates the effective size unless the size was given.
 */
static inline void mltcp_record_iter(struct mltcp_sock *ms, u64 size)
{
	unsigned int i, n = mltcp_hist_len(ms);

	if (n >= MLTCP_HIST_LEN) {
		for (i = 0; i + 1 < MLTCP_HIST_LEN; i++)
			ms->hist[i] = ms->hist[i + 1];
		n = MLTCP_HIST_LEN - 1;
	}
	/*
	 * Constant indices only: Linux 6.1's BPF verifier loses the bounds of
	 * a variable index here and refuses the backend.
	 */
	for (i = 0; i < MLTCP_HIST_LEN; i++)
		if (i == n)
			ms->hist[i] = size;
	ms->iters++;
	if (!(ms->flags & MLTCP_SF_SIZE_GIVEN))
		ms->bytes_per_iter = mltcp_learned_size(ms);
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

/**
 * mltcp_last_iter_bytes() - size of the most recently completed iteration
 * @ms: socket state
 *
 * Return: its bytes, or 0 when no iteration was completed yet.
 */
static inline u64 mltcp_last_iter_bytes(const struct mltcp_sock *ms)
{
	u32 n = mltcp_hist_len(ms);

	return n ? ms->hist[n - 1] : 0;
}

/**
 * mltcp_idle_threshold_us() - effective idle threshold
 * @idle_ms: idle_ms parameter (the floor)
 * @srtt_us: smoothed RTT in microseconds (0 if unknown)
 *
 * max(idle_ms, 2 * srtt).  The gap is measured from the last data sent,
 * so it includes about one RTT of waiting for that data's ACK: 2 * srtt
 * means the sender was really idle for about one RTT or more.
 *
 * Return: the threshold in microseconds, saturated at U32_MAX.
 */
static inline u32 mltcp_idle_threshold_us(u32 idle_ms, u32 srtt_us)
{
	u64 floor = (u64)idle_ms * 1000;
	u64 rtt = (u64)srtt_us * MLTCP_IDLE_SRTT_MULT;
	u64 t = floor > rtt ? floor : rtt;

	return t > 0xffffffffULL ? 0xffffffffU : (u32)t;
}

/**
 * mltcp_is_idle_gap() - does a transmission start a new learned iteration?
 * @outstanding: bytes sent but not yet acked (snd_nxt - snd_una)
 * @gap_us: time since the last data transmission
 * @threshold_us: mltcp_idle_threshold_us()
 *
 * Return: true when the transmission follows an idle gap.
 */
static inline bool mltcp_is_idle_gap(u32 outstanding, u32 gap_us,
				     u32 threshold_us)
{
	return !outstanding && gap_us > threshold_us;
}

/**
 * mltcp_tiebreak_from_word() - map a uniform word (a hash, a random draw) to a tie-break
 * @word: a uniformly distributed 32-bit value
 *
 * Return: a tie-break uniformly distributed over [0, 1024].
 */
static inline u16 mltcp_tiebreak_from_word(u32 word)
{
	return (u16)(((u64)word * (MLTCP_TIEBREAK_MAX + 1)) >> 32);
}

/* MurmurHash3's 32-bit finaliser: every input bit moves every output bit. */
static inline u32 mltcp_mix32(u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	h ^= h >> 16;
	return h;
}

/**
 * mltcp_fold_addr6() - an IPv6 address as the 32 bits mltcp_flow_tiebreak() takes
 * @a: the address, four words in network byte order
 *
 * An IPv4-mapped address folds to its IPv4 address, so that an AF_INET6
 * socket and its AF_INET peer hash one connection alike.
 *
 * Return: the folded address.
 */
static inline u32 mltcp_fold_addr6(const u32 a[4])
{
	const u8 mapped[4] = { 0, 0, 0xff, 0xff };
	u32 mapped_word;

	__builtin_memcpy(&mapped_word, mapped, sizeof(mapped_word));
	if (!a[0] && !a[1] && a[2] == mapped_word)
		return a[3];
	return a[0] ^ mltcp_mix32(a[1] ^ mltcp_mix32(a[2] ^ mltcp_mix32(a[3])));
}

/**
 * mltcp_flow_tiebreak() - the tie-break both ends of a connection draw
 * @addr_a: one endpoint's address (IPv4, or mltcp_fold_addr6())
 * @port_a: its port, host byte order
 * @addr_b: the other endpoint's address
 * @port_b: its port
 *
 * A socket and its peer see one connection with the endpoints swapped;
 * ordered first, the endpoints hash alike at both ends.  So the two
 * directions of a connection get the same tie-break: a DDP job's
 * gradients cross each of gloo's connections both ways, and its job then
 * leads (or yields) in both directions at once instead of leading in one
 * and yielding in the other.  Connections between other endpoints (the
 * ports are ephemeral) get values spread evenly over the range.  Only
 * what the endpoints are decides it, so it is reproducible, and a peer
 * that picks its ports to get a large one gains at most the stagger.
 *
 * Return: a tie-break in [0, 1024].
 */
static inline u16 mltcp_flow_tiebreak(u32 addr_a, u16 port_a, u32 addr_b, u16 port_b)
{
	u64 a = ((u64)addr_a << 16) | port_a;
	u64 b = ((u64)addr_b << 16) | port_b;
	u64 lo = a < b ? a : b;
	u64 hi = a < b ? b : a;
	u32 h;

	h = mltcp_mix32((u32)(hi >> 32) ^ 0x9e3779b9U);
	h = mltcp_mix32((u32)hi ^ h);
	h = mltcp_mix32((u32)(lo >> 32) ^ h);
	h = mltcp_mix32((u32)lo ^ h);
	return mltcp_tiebreak_from_word(h);
}

/**
 * mltcp_sock_init() - initialise the state when the connection starts
 * @ms: socket state; zeroed when the algorithm was assigned
 * @acked: bytes_acked now
 * @flow_tiebreak: the connection's mltcp_flow_tiebreak()
 *
 * A size, iteration mode or tie-break given before the connection was
 * established is kept; everything else starts afresh, the tie-break from
 * the connection's endpoints.
 */
static inline void mltcp_sock_init(struct mltcp_sock *ms, u64 acked, u16 flow_tiebreak)
{
	u8 keep = ms->flags & (MLTCP_SF_HINTED | MLTCP_SF_TIEBREAK_GIVEN);
	u64 bpi = (keep & MLTCP_SF_SIZE_GIVEN) ? ms->bytes_per_iter : 0;
	u16 tiebreak = (keep & MLTCP_SF_TIEBREAK_GIVEN) ? ms->tiebreak : flow_tiebreak;

	*ms = (struct mltcp_sock){ 0 };
	ms->flags = keep;
	ms->bytes_per_iter = bpi;
	ms->mark = acked;
	ms->tiebreak = tiebreak;
}

/**
 * mltcp_set_tiebreak() - the control plane sets a socket's tie-break
 * @ms: socket state
 * @q10: tie-break in [0, 1024]; the sockets of one job should share one
 *	value, so that the job, not each flow, gets the head start
 *
 * Return: 0 or -EINVAL (nothing changes).
 */
static inline int mltcp_set_tiebreak(struct mltcp_sock *ms, u32 q10)
{
	if (!mltcp_tiebreak_valid(q10))
		return -EINVAL;
	ms->tiebreak = (u16)q10;
	ms->flags |= MLTCP_SF_TIEBREAK_GIVEN;
	return 0;
}

/*
 * Iteration gaps.  Data-parallel training all-reduces its gradients bucket
 * by bucket during the backward pass, so one iteration's traffic comes in
 * several bursts: the gaps between them are the backward time of a few
 * layers, the gap that separates two iterations is the rest of the
 * iteration (optimizer step, data loading, the forward pass and the
 * backward pass up to the first bucket).  The learner ends an iteration at
 * an idle gap only when the gap is about as long as the reference, the
 * gap that ended the last learned iterations (up at once to a longer one,
 * halfway down to a shorter one): the repeating unit is the stretch
 * between two of the longest gaps of the cycle.  Gap lengths are compared
 * in the log domain, 1/8 octave per step (mltcp_gap_q8()).  Two bytes of
 * state (@gap_q8, @bursts), O(1) per idle gap, no allocation.
 *
 * MLTCP_GAP_TOL_Q8: a gap at least 2^(-6/8) = 0.59 times the reference
 *	ends an iteration (jitter of the iteration gap); inner gaps must be
 *	shorter, about half the iteration gap or less.
 * Overdue (mltcp_iter_overdue()): the reference is too long when the
 *	current learned iteration has already moved the bytes of the largest
 *	of the last iterations (within 1/64) and twice the bursts of the last
 *	one (at least MLTCP_BURSTS_OVERDUE; 15 where the count saturates).
 *	Both, because each alone misleads early on: the first iterations'
 *	sizes can be a bucket's, their burst counts one.  A slow first
 *	iteration is the usual cause (PyTorch's first backward pass, DDP's
 *	model broadcast: the gap that ends it is two to three times the
 *	iteration gap), a checkpoint another.
 * MLTCP_GAP_NEAR_Q8: an overdue iteration ends at the first gap at least
 *	2^(-12/8) = 0.35 times the reference: about a whole iteration's bytes
 *	are behind it, so it is the iteration gap the reference missed.
 * MLTCP_GAP_STEP_Q8: each shorter gap of an overdue iteration lowers the
 *	reference by this step (3/8 octave), so a reference raised further
 *	(a gap ten times the iteration gap) comes down in a few bursts.
 *	The burst count of the last iteration forgets slowly (@bursts), so
 *	an iteration cut short does not make the next one overdue early.
 *
 * One burst per iteration (or gaps all about the same length) gives the
 * plain rule: every idle gap ends an iteration.  Inner gaps longer than
 * about 0.6 of the iteration gap make the learner count bursts, not
 * iterations; the control plane's marks (mltcp.torch) are exact.  The
 * window restarts (mltcp_restart_due()) at the gaps the reference alone
 * takes for iteration gaps, not at those an overdue iteration ends at.
 */
#define MLTCP_GAP_TOL_Q8	6
#define MLTCP_GAP_NEAR_Q8	12
#define MLTCP_GAP_STEP_Q8	3
#define MLTCP_BURSTS_OVERDUE	3
#define MLTCP_BURSTS_MAX	15

/*
 * fls(): the position of the highest set bit, 1-based, 0 for 0.  Outside the
 * kernel by halving rather than __builtin_clz(): BPF has no such
 * instruction, and clang 14's BPF backend does not get through it.
 */
static inline unsigned int mltcp_fls32(u32 x)
{
#ifdef __KERNEL__
	return fls(x);
#else
	unsigned int r = 1;

	if (!x)
		return 0;
	if (x & 0xffff0000U) {
		x >>= 16;
		r += 16;
	}
	if (x & 0xff00U) {
		x >>= 8;
		r += 8;
	}
	if (x & 0xf0U) {
		x >>= 4;
		r += 4;
	}
	if (x & 0xcU) {
		x >>= 2;
		r += 2;
	}
	if (x & 0x2U)
		r += 1;
	return r;
#endif
}

/**
 * mltcp_gap_q8() - a send gap on a log scale
 * @gap_us: the gap in microseconds
 *
 * Return: about 8 * log2(@gap_us) (the exponent and three mantissa bits),
 *	monotonic, in [1, 255]; a gap twice as long is 8 larger.
 */
static inline u8 mltcp_gap_q8(u32 gap_us)
{
	unsigned int msb, frac, code;

	if (gap_us < 2)
		return 1;
	msb = mltcp_fls32(gap_us) - 1;
	frac = msb >= 3 ? (gap_us >> (msb - 3)) & 7 : (gap_us << (3 - msb)) & 7;
	code = msb * 8 + frac;
	return (u8)(code ? code : 1);
}

/**
 * mltcp_gap_ends_iter() - is an idle gap as long as an iteration gap?
 * @ms: socket state
 * @gap_us: the gap, in microseconds
 *
 * The learner's test (see MLTCP_GAP_TOL_Q8), without updating anything:
 * true before any reference exists, else when the gap is at least about
 * 0.6 times the reference.
 *
 * Return: true when the gap is an iteration gap, not a gap between bursts.
 */
static inline bool mltcp_gap_ends_iter(const struct mltcp_sock *ms, u32 gap_us)
{
	return !ms->gap_q8 || mltcp_gap_q8(gap_us) + MLTCP_GAP_TOL_Q8 >= ms->gap_q8;
}

/**
 * mltcp_iter_overdue() - has the learned iteration run past its size?
 * @ms: socket state
 * @size: bytes the current learned iteration moved so far
 *
 * See MLTCP_GAP_NEAR_Q8: the current iteration moved at least the bytes of
 * the largest of the last recorded iterations (less 1/64: gloo's framing
 * varies by a few hundred bytes) and has at least twice the bursts of the
 * last one.  Never before an iteration was recorded.
 *
 * Return: true when the reference gap is too long for this iteration.
 */
static inline bool mltcp_iter_overdue(const struct mltcp_sock *ms, u64 size)
{
	unsigned int cur = ms->bursts & 0xf, prev = ms->bursts >> 4;
	u32 n = mltcp_hist_len(ms);
	u64 big = 0;

	/*
	 * Unrolled (MLTCP_HIST_LEN is 3): with a loop over the history,
	 * Linux 6.1's BPF verifier refused the backend (6.12's and 6.18's
	 * accepted it).
	 */
	if (n > 0)
		big = ms->hist[0];
	if (n > 1 && ms->hist[1] > big)
		big = ms->hist[1];
	if (n > 2 && ms->hist[2] > big)
		big = ms->hist[2];
	if (!big || size < big - (big >> 6))
		return false;
	/* twice the bursts, saturated like the counts themselves */
	return cur + 1 >= MLTCP_BURSTS_OVERDUE &&
	       cur + 1 >= (2 * prev < MLTCP_BURSTS_MAX ? 2 * prev : MLTCP_BURSTS_MAX);
}

/**
 * mltcp_learn_gap() - does an idle gap end the learned iteration?
 * @ms: socket state
 * @gap_us: the gap, in microseconds
 * @size: bytes the current learned iteration moved before the gap
 *
 * Updates the gap reference and the burst counts (see MLTCP_GAP_TOL_Q8).
 * O(1), no allocation.
 *
 * Return: true when the gap ends the current iteration.
 */
static inline bool mltcp_learn_gap(struct mltcp_sock *ms, u32 gap_us, u64 size)
{
	unsigned int g = mltcp_gap_q8(gap_us);
	unsigned int cur = ms->bursts & 0xf, prev = ms->bursts >> 4;
	unsigned int ref = ms->gap_q8;
	bool overdue = mltcp_iter_overdue(ms, size);

	if (mltcp_gap_ends_iter(ms, gap_us) ||
	    (overdue && g + MLTCP_GAP_NEAR_Q8 >= ref)) {
		/*
		 * Bursts per iteration: a maximum that forgets one at a time,
		 * and only at a gap as long as the reference (an iteration
		 * cut short by a lowered reference teaches nothing).
		 */
		if (cur + 1 >= prev)
			prev = cur + 1 > MLTCP_BURSTS_MAX ? MLTCP_BURSTS_MAX : cur + 1;
		else if (g >= ref)
			prev--;
		ms->bursts = (u8)(prev << 4);
		/* up to a longer gap, halfway down to a shorter one */
		ms->gap_q8 = (u8)(g >= ref ? g : (ref + g + 1) / 2);
		return true;
	}
	/*
	 * A shorter gap of an overdue iteration: the reference comes down a
	 * step per gap, never below this gap.
	 * ref > g + MLTCP_GAP_NEAR_Q8 >= 13 here: it stays > 0.
	 */
	if (overdue)
		ms->gap_q8 = (u8)(ref - MLTCP_GAP_STEP_Q8 > g ? ref - MLTCP_GAP_STEP_Q8 : g + 1);
	if (cur < MLTCP_BURSTS_MAX)
		cur++;
	ms->bursts = (u8)((prev << 4) | cur);
	return false;
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
 * An MLTCP socket starts each iteration's communication from the initial
 * window, as RFC 5681 (4.1) has every TCP do after an idle period longer
 * than the RTO: the compute phase is such a period, only often shorter
 * than the RTO, and MLTCP, unlike TCP, knows it is one.  The reason is the
 * interleaving: a job whose phase begins while another is still sending
 * would otherwise burst the whole window it had at the end of its last
 * phase into a queue the other job holds; the tail drops that follow hit
 * both jobs, stretch both phases and throw interleaved jobs back into
 * overlap (bench/ANALYSIS.md).  Restarted, the newcomer's slow start is
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
 * job slower than its partner by a third, every phase (bench/ANALYSIS.md).
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
 * of half the RTT never saw it (bench/ANALYSIS.md).
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
 * after a quarter of the gap (mltcp_yield_was_long()).  Each yield that
 * ends without a queue in its last sample, drained or out of bound, takes
 * one step back: a bound that runs out before the first sample arrives
 * says nothing against the link, and so no backoff outlives the queues
 * that caused it.  Without a gap reference (nothing learned yet) a yield
 * ends at once and changes nothing.
 *
 * Return: enum mltcp_yield_state; DRAINED and BOUND once per yield.
 */
static inline enum mltcp_yield_state mltcp_yield_step(struct mltcp_sock *ms, u32 rtt_us,
						      u32 min_rtt_us, u32 now_ms)
{
	enum mltcp_yield_state st;
	bool queue, deeper;
	u8 backoff;

	if (!(ms->flags & MLTCP_SF_YIELD))
		return MLTCP_YIELD_NONE;
	backoff = mltcp_yield_backoff(ms);
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
	if (deeper && backoff < MLTCP_BACKOFF_MAX)
		mltcp_set_yield_backoff(ms, backoff + 1);
	else if (!deeper && backoff)
		mltcp_set_yield_backoff(ms, backoff - 1);
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

/**
 * mltcp_on_tx_start() - first transmission after nothing was in flight
 * @ms: socket state
 * @acked: bytes_acked now
 * @outstanding: bytes sent and not acked (0 for a real idle restart)
 * @gap_us: time since the last data was sent
 * @threshold_us: idle threshold
 *
 * An idle gap ends a burst; it ends the learned iteration when
 * mltcp_learn_gap() says it is an iteration gap and the iteration moved at
 * least MLTCP_MIN_ITER_BYTES (else its bytes roll over into the next).
 * Before the first recorded iteration, a gap after fewer bytes than that
 * is the connection's setup (a rendezvous, the framework's handshakes,
 * then the slow first compute): the learner ignores it, or the setup's
 * gaps would set its reference.
 * A pending mark (MLTCP_SF_MARK_PENDING) ends at the first transmission
 * after an idle gap, learned or not: the iteration's communication begins
 * there, it may restart the window (mltcp_restart_due()), and F applies
 * from there on (mltcp_iter_earned()).
 *
 * Return: MLTCP_EV_LEARNED when this ended an iteration, else MLTCP_EV_NONE.
 */
static inline enum mltcp_event mltcp_on_tx_start(struct mltcp_sock *ms,
						 u64 acked, u32 outstanding,
						 u32 gap_us, u32 threshold_us)
{
	u64 size;

	if (!mltcp_is_idle_gap(outstanding, gap_us, threshold_us))
		return MLTCP_EV_NONE;
	ms->flags &= (u8)~MLTCP_SF_MARK_PENDING;
	if (ms->flags & MLTCP_SF_BOUNDS_GIVEN)
		return MLTCP_EV_NONE;
	size = mltcp_bytes_done(acked, ms->mark);
	/* the connection's setup, not training */
	if (!size || (!ms->iters && size < MLTCP_MIN_ITER_BYTES))
		return MLTCP_EV_NONE;
	if (!mltcp_learn_gap(ms, gap_us, size) || size < MLTCP_MIN_ITER_BYTES)
		return MLTCP_EV_NONE;
	mltcp_record_iter(ms, size);
	ms->mark = acked;
	return MLTCP_EV_LEARNED;
}

/**
 * mltcp_iter_begin() - the control plane marks the start of an iteration
 * @ms: socket state
 * @acked: bytes_acked now
 * @unacked: bytes written to the socket but not yet acked (write_seq -
 *	snd_una); they belong to the previous iteration
 * @bytes: size of the new iteration, 0 = keep the current size; a size
 *	outside [MLTCP_MIN_ITER_BYTES, MLTCP_MAX_ITER_BYTES] is ignored (the
 *	control plane refuses it before, mltcp_iter_size_valid())
 *
 * The first mark only switches the socket to given boundaries (the learner's
 * burst counts give their slot to the restart's time); each further mark
 * completes an iteration whose exact size (bytes written between the two
 * marks) is recorded.  The new iteration earns F at its first transmission
 * after an idle gap (mltcp_iter_earned()).
 *
 * Return: MLTCP_EV_GIVEN when an iteration was completed.
 */
static inline enum mltcp_event mltcp_iter_begin(struct mltcp_sock *ms,
						u64 acked, u64 unacked,
						u64 bytes)
{
	u64 new_mark = acked + unacked;
	enum mltcp_event ev = MLTCP_EV_NONE;

	if (mltcp_iter_size_valid(bytes)) {
		ms->bytes_per_iter = bytes;
		ms->flags |= MLTCP_SF_SIZE_GIVEN;
	}
	if (ms->flags & MLTCP_SF_BOUNDS_GIVEN) {
		mltcp_record_iter(ms, mltcp_bytes_done(new_mark, ms->mark));
		ev = MLTCP_EV_GIVEN;
	} else {
		ms->restart_ms = 0;
	}
	ms->flags |= MLTCP_SF_BOUNDS_GIVEN | MLTCP_SF_MARK_PENDING;
	ms->mark = new_mark;
	return ev;
}

/**
 * mltcp_set_size() - the control plane sets bytes per iteration
 * @ms: socket state
 * @bytes: size, in [MLTCP_MIN_ITER_BYTES, MLTCP_MAX_ITER_BYTES]; 0 drops
 *	every hint and goes back to learning
 *
 * Going back to learning from given marks starts the learner's burst
 * counts afresh (their slot held the restart's time).
 *
 * Return: 0, or -EINVAL for a size out of range (nothing changes).
 */
static inline int mltcp_set_size(struct mltcp_sock *ms, u64 bytes)
{
	if (bytes) {
		if (!mltcp_iter_size_valid(bytes))
			return -EINVAL;
		ms->bytes_per_iter = bytes;
		ms->flags |= MLTCP_SF_SIZE_GIVEN;
		return 0;
	}
	if (ms->flags & MLTCP_SF_BOUNDS_GIVEN)
		ms->restart_ms = 0;
	ms->flags &= (u8)~(MLTCP_SF_HINTED | MLTCP_SF_MARK_PENDING);
	ms->bytes_per_iter = mltcp_learned_size(ms);
	return 0;
}

#endif /* _MLTCP_CORE_H */
