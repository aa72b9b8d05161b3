/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: iteration sizes and ends, learned from idle gaps or
 * given by the control plane.  Part of include/mltcp_core.h.
 */
#ifndef _MLTCP_LEARNER_H
#define _MLTCP_LEARNER_H

#include "mltcp_types.h"
#include "mltcp_params.h"
#include "mltcp_f.h"

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
 * The last min(@ms->iters, MLTCP_HIST_LEN); after 2^29 iterations the count
 * wraps and the history starts afresh, as on a new connection.
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
 * Updates the effective size unless the size was given; a learned size is
 * shown by the iterations it comes from (mltcp_size_shown()).
 */
static inline void mltcp_record_iter(struct mltcp_sock *ms, u64 size)
{
	unsigned int i, n = mltcp_hist_len(ms);

	if (n >= MLTCP_HIST_LEN) {
		for (i = 0; i + 1 < MLTCP_HIST_LEN; i++)
			ms->hist[i] = ms->hist[i + 1];
		n = MLTCP_HIST_LEN - 1;
	}
	/* constant indices: 6.1's BPF verifier cannot bound a variable one */
	for (i = 0; i < MLTCP_HIST_LEN; i++)
		if (i == n)
			ms->hist[i] = size;
	ms->iters++;
	if (!(ms->flags & MLTCP_SF_SIZE_GIVEN)) {
		ms->bytes_per_iter = mltcp_learned_size(ms);
		ms->size_shown = 1;
	}
}

/**
 * mltcp_size_change() - the size in use becomes @bytes
 * @ms: socket state
 * @bytes: the new size (0 = unknown)
 *
 * A new size is not shown until an iteration of it was
 * (mltcp_confirm_size()); the size it already has changes nothing.
 */
static inline void mltcp_size_change(struct mltcp_sock *ms, u64 bytes)
{
	if (ms->bytes_per_iter != bytes)
		ms->size_shown = 0;
	ms->bytes_per_iter = bytes;
}

/**
 * mltcp_confirm_size() - an iteration ended at an idle gap: does it show the size?
 * @ms: socket state
 * @size: bytes the iteration carried
 * @overrun: the global overrun multiple (mltcp_iter_overrun()), Q10 of the
 *	size, 0 = none
 *
 * Shown by an iteration ending at an idle gap that carried between half
 * of the size and @overrun times it (no upper limit with @overrun 0).  A
 * stream that never idles, or declares more than it sends, never shows it;
 * an honest job shows it with its first iteration, at F = 1.
 */
static inline void mltcp_confirm_size(struct mltcp_sock *ms, u64 size, u32 overrun)
{
	u64 bpi = ms->bytes_per_iter;

	if (!(ms->flags & MLTCP_SF_SIZE_GIVEN) || ms->size_shown || !bpi)
		return;
	if (bpi > MLTCP_MAX_ITER_BYTES)
		bpi = MLTCP_MAX_ITER_BYTES;
	/* bpi <= 2^48 and overrun <= 2^13: no overflow */
	if (size >= bpi / 2 && (!overrun || size <= ((bpi * overrun) >> MLTCP_Q10_SHIFT)))
		ms->size_shown = 1;
}

/**
 * mltcp_last_iter_bytes() - size of the most recently completed iteration
 * @ms: socket state
 *
 * Return: its bytes, or 0 when no iteration was completed yet.
 */
static inline u64 mltcp_last_iter_bytes(const struct mltcp_sock *ms)
{
	/* hist[n - 1] by constant indices, for 6.1's BPF verifier */
	switch (mltcp_hist_len(ms)) {
	case 0:
		return 0;
	case 1:
		return ms->hist[0];
	case 2:
		return ms->hist[1];
	default:
		return ms->hist[MLTCP_HIST_LEN - 1];
	}
}

/**
 * mltcp_idle_threshold_us() - effective idle threshold
 * @idle_ms: idle_ms parameter (the floor)
 * @srtt_us: smoothed RTT in microseconds (0 if unknown)
 *
 * max(idle_ms, 2 * srtt): the gap counts from the last data sent, so it
 * holds an RTT of waiting for its ACK; 2 * srtt is an RTT of real idleness.
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

/*
 * Iteration gaps.  DDP all-reduces its gradients bucket by bucket, so an
 * iteration's traffic comes in bursts separated by short gaps, and the gap
 * between iterations is the longest of the cycle.  The learner ends an
 * iteration at an idle gap about as long as its reference, the gap that
 * ended the last ones (up at once to a longer gap, halfway down to a
 * shorter one), compared on a log scale of 1/8 octave (mltcp_gap_log8()).
 *
 * MLTCP_GAP_TOL_LOG8: a gap of at least 2^(-6/8) = 0.59 times the reference
 *	ends an iteration (the iteration gap's jitter; bucket gaps are about
 *	half of it or less).
 * MLTCP_GAP_NEAR_LOG8: an overdue iteration (mltcp_iter_overdue(): a first
 *	slow iteration or a checkpoint raised the reference) ends at the first
 *	gap of at least 2^(-12/8) = 0.35 times the reference.
 * MLTCP_GAP_STEP_LOG8: each shorter gap of an overdue iteration lowers the
 *	reference by 3/8 octave.
 * MLTCP_BURSTS_OVERDUE: the least bursts an overdue iteration has.
 *
 * Inner gaps longer than 0.6 of the iteration gap make the learner count
 * bursts as iterations; marks are exact.
 */
#define MLTCP_GAP_TOL_LOG8	6
#define MLTCP_GAP_NEAR_LOG8	12
#define MLTCP_GAP_STEP_LOG8	3
#define MLTCP_BURSTS_OVERDUE	3
#define MLTCP_BURSTS_MAX	15

/*
 * fls(): the highest set bit, 1-based, 0 for 0.  Outside the kernel by
 * halving: BPF has no count-leading-zeros instruction.
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
 * mltcp_gap_log8() - a send gap on a log scale
 * @gap_us: the gap in microseconds
 *
 * Return: about 8 * log2(@gap_us) (the exponent and three mantissa bits),
 *	monotonic, in [1, 255]; a gap twice as long is 8 larger.
 */
static inline u8 mltcp_gap_log8(u32 gap_us)
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
 * Return: true before any reference exists, else when the gap is at least
 *	MLTCP_GAP_TOL_LOG8 below the reference; nothing is updated.
 */
static inline bool mltcp_gap_ends_iter(const struct mltcp_sock *ms, u32 gap_us)
{
	return !ms->gap_log8 || mltcp_gap_log8(gap_us) + MLTCP_GAP_TOL_LOG8 >= ms->gap_log8;
}

/**
 * mltcp_iter_overdue() - has the learned iteration run past its size?
 * @ms: socket state
 * @size: bytes the current learned iteration moved so far
 *
 * It moved the bytes of the largest recent iteration (less 1/64, the
 * framing's variation) and twice the bursts of the last one: each alone
 * misleads while the first iterations are a bucket's size.
 *
 * Return: true when the reference gap is too long for this iteration.
 */
static inline bool mltcp_iter_overdue(const struct mltcp_sock *ms, u64 size)
{
	unsigned int cur = ms->bursts & 0xf, prev = ms->bursts >> 4;
	u32 n = mltcp_hist_len(ms);
	u64 big = 0;

	/* unrolled (MLTCP_HIST_LEN is 3): 6.1's BPF verifier refuses the loop */
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
 * Updates the gap reference and the burst counts (see MLTCP_GAP_TOL_LOG8).
 *
 * Return: true when the gap ends the current iteration.
 */
static inline bool mltcp_learn_gap(struct mltcp_sock *ms, u32 gap_us, u64 size)
{
	unsigned int g = mltcp_gap_log8(gap_us);
	unsigned int cur = ms->bursts & 0xf, prev = ms->bursts >> 4;
	unsigned int ref = ms->gap_log8;
	bool overdue = mltcp_iter_overdue(ms, size);

	if (mltcp_gap_ends_iter(ms, gap_us) ||
	    (overdue && g + MLTCP_GAP_NEAR_LOG8 >= ref)) {
		/* bursts per iteration: a maximum that forgets one per full gap */
		if (cur + 1 >= prev)
			prev = cur + 1 > MLTCP_BURSTS_MAX ? MLTCP_BURSTS_MAX : cur + 1;
		else if (g >= ref)
			prev--;
		ms->bursts = (u8)(prev << 4);
		/* up to a longer gap, halfway down to a shorter one */
		ms->gap_log8 = (u8)(g >= ref ? g : (ref + g + 1) / 2);
		return true;
	}
	/* overdue: the reference steps down, not below this gap (ref > 13 here) */
	if (overdue) {
		unsigned int down = ref - MLTCP_GAP_STEP_LOG8;

		ms->gap_log8 = (u8)(down > g ? down : g + 1);
	}
	if (cur < MLTCP_BURSTS_MAX)
		cur++;
	ms->bursts = (u8)((prev << 4) | cur);
	return false;
}

/**
 * mltcp_on_tx_start() - first transmission after nothing was in flight
 * @ms: socket state
 * @acked: bytes_acked now
 * @outstanding: bytes sent and not acked (0 for a real idle restart)
 * @gap_us: time since the last data was sent
 * @threshold_us: idle threshold
 *
 * An idle gap ends a burst, and the learned iteration when
 * mltcp_learn_gap() takes it for an iteration gap and the iteration moved
 * MLTCP_MIN_ITER_BYTES (else its bytes roll over); before the first one,
 * small sends are the connection's setup and teach nothing.  It also earns
 * a pending mark, and the iteration that ends may show the size.
 *
 * Return: MLTCP_EV_LEARNED when this ended an iteration, else MLTCP_EV_NONE.
 */
static inline enum mltcp_event mltcp_on_tx_start(struct mltcp_sock *ms,
						 u64 acked, u32 outstanding,
						 u32 gap_us, u32 threshold_us,
						 u32 overrun)
{
	bool pending = ms->flags & MLTCP_SF_MARK_PENDING;
	u64 size;

	if (!mltcp_is_idle_gap(outstanding, gap_us, threshold_us))
		return MLTCP_EV_NONE;
	ms->flags &= (u8)~MLTCP_SF_MARK_PENDING;
	if (ms->flags & MLTCP_SF_MARKS_GIVEN) {
		if (pending && ms->iters)
			mltcp_confirm_size(ms, mltcp_last_iter_bytes(ms), overrun);
		return MLTCP_EV_NONE;
	}
	size = mltcp_bytes_done(acked, ms->mark);
	/* the connection's setup, not training */
	if (!size || (!ms->iters && size < MLTCP_MIN_ITER_BYTES))
		return MLTCP_EV_NONE;
	if (!mltcp_learn_gap(ms, gap_us, size) || size < MLTCP_MIN_ITER_BYTES)
		return MLTCP_EV_NONE;
	mltcp_record_iter(ms, size);
	mltcp_confirm_size(ms, size, overrun);
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
 * The first mark switches the socket to given marks (the burst counts'
 * slot holds the restart's time from then on); each further one records
 * the exact size of the iteration it completes.  The new iteration earns F
 * at its first idle gap, and its allowance there (MLTCP_SF_SPENT until then).
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
		mltcp_size_change(ms, bytes);
		ms->flags |= MLTCP_SF_SIZE_GIVEN;
	}
	if (ms->flags & MLTCP_SF_MARKS_GIVEN) {
		mltcp_record_iter(ms, mltcp_bytes_done(new_mark, ms->mark));
		ev = MLTCP_EV_GIVEN;
	} else {
		ms->mark_ms = 0;
	}
	ms->flags |= MLTCP_SF_MARKS_GIVEN | MLTCP_SF_MARK_PENDING | MLTCP_SF_SPENT;
	ms->mark = new_mark;
	return ev;
}

/**
 * mltcp_set_size() - the control plane sets bytes per iteration
 * @ms: socket state
 * @bytes: size, in [MLTCP_MIN_ITER_BYTES, MLTCP_MAX_ITER_BYTES]; 0 drops
 *	every hint and goes back to learning
 *
 * Back to learning, the burst counts start afresh.  A pending mark stays
 * pending, a changed size is not shown, and the iteration's allowance is
 * spent until the next iteration's communication starts: no order of sizes
 * and marks buys F without an idle gap, nor longer than one allows.
 *
 * Return: 0, or -EINVAL for a size out of range (nothing changes).
 */
static inline int mltcp_set_size(struct mltcp_sock *ms, u64 bytes)
{
	if (bytes) {
		if (!mltcp_iter_size_valid(bytes))
			return -EINVAL;
		mltcp_size_change(ms, bytes);
		ms->flags |= MLTCP_SF_SIZE_GIVEN | MLTCP_SF_SPENT;
		return 0;
	}
	ms->flags |= MLTCP_SF_SPENT;
	if (ms->flags & MLTCP_SF_MARKS_GIVEN)
		ms->mark_ms = 0;
	ms->flags &= (u8)~MLTCP_SF_HINTED;
	mltcp_size_change(ms, mltcp_learned_size(ms));
	return 0;
}

#endif /* _MLTCP_LEARNER_H */
