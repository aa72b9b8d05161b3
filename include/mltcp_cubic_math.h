/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CUBIC's per-socket arithmetic (RFC 9438, HyStart), shared by the module
 * (mltcp_cubic.c), the BPF backend (bpf/mltcp_cubic.bpf.h) and the unit
 * tests.  It works on numbers, never on a socket: the caller reads the
 * clocks (jiffies, TCP's microsecond stamp), cwnd and the sequence numbers
 * and applies the results.  What differs between the platforms is an
 * argument (now, hz) or a shim below.
 *
 *   W_cubic(t) = C * (t - K)^3 + W_max,  K = cbrt(W_max * (1 - beta) / C)
 *
 * with C = bic_scale * 10 / 1024 (0.4) and beta = beta / 1024 (0.7); t in
 * units of 1/1024 s.  mltcp_cubic.c's header comment has the rules.
 * C * dt^3 takes 128 bits in general (the module's C is a load-time
 * parameter); the BPF backend's C is fixed at 410 < 2^10, and with dt^3 <
 * 2^54 the product fits 64 bits there (mltcp_cc_mul_shr()).
 */
#ifndef _MLTCP_CUBIC_MATH_H
#define _MLTCP_CUBIC_MATH_H

#include "mltcp_cc_compat.h"

#define MLTCP_CUBIC_BETA_SCALE		1024U	/* beta is beta / 1024 */
#define MLTCP_CUBIC_HZ_SHIFT		10	/* t in 1/1024 s */
/* |t - K| is capped at 2^18 units (256 s) so that C * |t - K|^3 fits in 64 bits. */
#define MLTCP_CUBIC_DT_MAX		0x40000ULL
#define MLTCP_CUBIC_FIRST_EPOCH_CNT	20U	/* at least cwnd / 20 per RTT while W_max = 0 */

#define MLTCP_HYSTART_ACK_TRAIN		0x1
#define MLTCP_HYSTART_DELAY		0x2
#define MLTCP_HYSTART_MIN_SAMPLES	8
#define MLTCP_HYSTART_DELAY_MIN_US	4000U
#define MLTCP_HYSTART_DELAY_MAX_US	16000U
/* GSO_LEGACY_MAX_SIZE: the largest TSO/GSO packet */
#define MLTCP_HYSTART_GSO_MAX		65536ULL

/**
 * struct mltcp_cubic_params - CUBIC's parameters (the module's, by name)
 * @fast_convergence: release bandwidth on a shrinking W_max
 * @beta: multiplicative decrease factor, /1024
 * @tcp_friendliness: Reno-friendly region on/off
 * @hystart: HyStart on/off
 * @hystart_detect: HyStart's detectors, MLTCP_HYSTART_* bits
 * @hystart_low_window: HyStart acts only above this cwnd, segments
 * @hystart_ack_delta_us: largest ACK spacing inside an ACK train
 * @cube_rtt_scale: C, Q10 (bic_scale * 10)
 * @beta_scale: 8 / alpha of the Reno-friendly region
 * @cube_factor: 2^40 / C: K^3 per segment, (1/1024 s)^3
 *
 * The first seven may change at run time (read with MLTCP_CC_PARAM()); the
 * last three are derived once, by mltcp_cubic_params_derive().
 */
struct mltcp_cubic_params {
	int fast_convergence;
	int beta;
	int tcp_friendliness;
	int hystart;
	int hystart_detect;
	int hystart_low_window;
	int hystart_ack_delta_us;
	u32 cube_rtt_scale;
	u32 beta_scale;
	u64 cube_factor;
};

#define MLTCP_CUBIC_BETA_DEFAULT	717	/* 0.7 */
#define MLTCP_CUBIC_BIC_SCALE_DEFAULT	41	/* C = 0.4 */
/*
 * Linux's cubic defaults, with what mltcp_cubic_params_derive() computes
 * from them; a constant, so that the BPF backend folds it.
 */
#define MLTCP_CUBIC_PARAMS_DEFAULT {						\
	.fast_convergence = 1,							\
	.beta = MLTCP_CUBIC_BETA_DEFAULT,					\
	.tcp_friendliness = 1,							\
	.hystart = 1,								\
	.hystart_detect = MLTCP_HYSTART_ACK_TRAIN | MLTCP_HYSTART_DELAY,	\
	.hystart_low_window = 16,						\
	.hystart_ack_delta_us = 2000,						\
	.cube_rtt_scale = 410,							\
	.beta_scale = 15,							\
	.cube_factor = 2681735677ULL,	/* 2^40 / 410 */			\
}

/**
 * mltcp_cubic_params_derive() - compute C's and beta's derived values
 * @p: parameters, @beta set
 * @bic_scale: C * 1024 / 10
 *
 * Return: 0, or -EINVAL (@p unchanged) unless beta is in (0, 1024) and
 * bic_scale > 0.
 */
static inline int mltcp_cubic_params_derive(struct mltcp_cubic_params *p, int bic_scale)
{
	if (p->beta <= 0 || p->beta >= (int)MLTCP_CUBIC_BETA_SCALE || bic_scale <= 0)
		return -EINVAL;
	/* 8 * (1 + beta) / (3 * (1 - beta)), rounded down */
	p->beta_scale = 8U * (MLTCP_CUBIC_BETA_SCALE + p->beta) / 3U /
			(MLTCP_CUBIC_BETA_SCALE - p->beta);
	p->cube_rtt_scale = (u32)bic_scale * 10;
	p->cube_factor = div64_u64(1ULL << (10 + 3 * MLTCP_CUBIC_HZ_SHIFT), p->cube_rtt_scale);
	return 0;
}

/* What the shared part of struct mltcp_cubic_state holds. */
enum mltcp_cubic_shared {
	MLTCP_CUBIC_SHARED_NONE = 0,
	MLTCP_CUBIC_SHARED_HYSTART,	/* round state of HyStart */
	MLTCP_CUBIC_SHARED_RATE,	/* growth rate cache */
};

/**
 * struct mltcp_cubic_state - CUBIC's per-socket state (47 bytes)
 * @last_max_cwnd: W_max, segments; 0 = no congestion event known
 * @origin: plateau of the curve in this epoch (W_max, or cwnd when the
 *	epoch started at or above W_max)
 * @k: K, time from the epoch start to @origin, 1/1024 s
 * @delay_min: smallest RTT sample, us; 0 = none yet
 * @epoch_start: jiffies at the start of the epoch; 0 = none
 * @ack_cnt: credit counted towards @tcp_cwnd
 * @tcp_cwnd: Reno-friendly estimate W_est, segments
 * @hs: HyStart's round, valid when @shared is MLTCP_CUBIC_SHARED_HYSTART
 * @hs.round_start: start of this round, us (tcp_mstamp)
 * @hs.end_seq: the round ends when snd_una passes it
 * @hs.last_ack: time of the last ACK of the current train, us
 * @hs.curr_rtt: smallest RTT sample in this round, us
 * @rate: growth rate cache, valid when @shared is MLTCP_CUBIC_SHARED_RATE
 * @rate.cnt: credit per one-segment increase of cwnd
 * @rate.last_cwnd: cwnd when @rate.cnt was computed
 * @rate.last_time: jiffies when @rate.cnt was computed
 * @sample_cnt: HyStart: RTT samples in this round (saturates)
 * @found: HyStart ended slow start; reset by a timeout only
 * @shared: enum mltcp_cubic_shared
 *
 * HyStart's round (slow start only) and the growth rate (congestion
 * avoidance only) share their space; whichever is not current is rebuilt
 * before use.
 */
struct mltcp_cubic_state {
	u32 last_max_cwnd;
	u32 origin;
	u32 k;
	u32 delay_min;
	u32 epoch_start;
	u32 ack_cnt;
	u32 tcp_cwnd;
	union {
		struct {
			u32 round_start;
			u32 end_seq;
			u32 last_ack;
			u32 curr_rtt;
		} hs;
		struct {
			u32 cnt;
			u32 last_cwnd;
			u32 last_time;
		} rate;
	};
	u8 sample_cnt;
	u8 found;
	u8 shared;
};

/* Forget everything the curve knows (init, timeout). */
static inline void mltcp_cubic_reset(struct mltcp_cubic_state *ca)
{
	__builtin_memset(ca, 0, sizeof(*ca));
}

/*
 * Integer cube root, rounded down: bitwise, 3 bits of input per step,
 * without a branch inside.  For BPF a global function, so that the
 * verifier checks it once instead of once per path through its caller.
 */
#ifdef __bpf__
__noinline u32 mltcp_cubic_cbrt(u64 a)
#else
static inline u32 mltcp_cubic_cbrt(u64 a)
#endif
{
	u64 y = 0, b, x, ge;
	int s;

	for (s = 63; s >= 0; s -= 3) {
		y <<= 1;
		b = 3 * y * (y + 1) + 1;	/* < 2^44: y < 2^22 */
		x = a >> s;
		/*
		 * ge = x >= b without a branch (BPF has no setcc, and a
		 * branch here makes 2^22 verifier paths): x >= 2^62, or the
		 * low part minus b does not go negative.
		 */
		ge = ((x >> 62) + 3) >> 2;
		ge |= (((x & ((1ULL << 62) - 1)) - b) >> 63) ^ 1;
		a -= (b << s) & (0 - ge);
		y += ge;
	}
	return (u32)y;
}

/* A new HyStart round from @now_us; it ends when snd_una passes @snd_nxt. */
static __always_inline void mltcp_hystart_round_start(struct mltcp_cubic_state *ca, u32 now_us,
						      u32 snd_nxt)
{
	ca->shared = MLTCP_CUBIC_SHARED_HYSTART;
	ca->hs.round_start = now_us;
	ca->hs.last_ack = now_us;
	ca->hs.end_seq = snd_nxt;
	ca->hs.curr_rtt = ~0U;
	ca->sample_cnt = 0;
}

/*
 * Time a TSO/GSO burst of 4 maximal packets takes at @pacing_rate (bytes/s),
 * at most 1 ms: ACKs of such a burst arrive late without meaning a long train.
 */
static __always_inline u32 mltcp_hystart_ack_delay_us(u64 pacing_rate)
{
	u64 d;

	if (!pacing_rate)
		return 0;
	d = div64_u64(MLTCP_HYSTART_GSO_MAX * 4 * 1000000ULL, pacing_rate);
	return d < 1000 ? (u32)d : 1000;
}

/**
 * struct mltcp_hystart_in - what HyStart reads of the socket at an RTT sample
 * @now_us: TCP's microsecond clock (tcp_mstamp)
 * @snd_una: first unacknowledged sequence number
 * @snd_nxt: next sequence number to send
 * @cwnd: congestion window, segments
 * @pacing_rate: sk_pacing_rate, bytes/s
 * @paced: the socket is paced (sk_pacing_status is not SK_PACING_NONE)
 */
struct mltcp_hystart_in {
	u32 now_us;
	u32 snd_una;
	u32 snd_nxt;
	u32 cwnd;
	u64 pacing_rate;
	bool paced;
};

/**
 * mltcp_hystart_update() - HyStart, for one RTT sample in slow start
 * @ca: state
 * @p: parameters
 * @in: the socket's clocks and window
 * @delay: RTT sample, us, at least 1
 *
 * Return: the detector that ends slow start (MLTCP_HYSTART_ACK_TRAIN or
 * MLTCP_HYSTART_DELAY; @ca->found is then set and the caller sets
 * ssthresh = cwnd), or 0.
 */
static __always_inline int mltcp_hystart_update(struct mltcp_cubic_state *ca,
						const struct mltcp_cubic_params *p,
						const struct mltcp_hystart_in *in, u32 delay)
{
	int detect = MLTCP_CC_PARAM(p->hystart_detect);
	u32 threshold, floor;

	/* a new round; or slow start again and the round state was reused */
	if (ca->shared != MLTCP_CUBIC_SHARED_HYSTART || (s32)(in->snd_una - ca->hs.end_seq) > 0)
		mltcp_hystart_round_start(ca, in->now_us, in->snd_nxt);
	if (in->cwnd < (u32)MLTCP_CC_PARAM(p->hystart_low_window))
		return 0;

	if ((detect & MLTCP_HYSTART_ACK_TRAIN) &&
	    (s32)(in->now_us - ca->hs.last_ack) <= MLTCP_CC_PARAM(p->hystart_ack_delta_us)) {
		ca->hs.last_ack = in->now_us;
		threshold = ca->delay_min + mltcp_hystart_ack_delay_us(in->pacing_rate);
		/* unpaced, a round's ACKs span half the RTT at most */
		if (!in->paced)
			threshold >>= 1;
		if ((s32)(in->now_us - ca->hs.round_start) > (s32)threshold) {
			ca->found = 1;
			return MLTCP_HYSTART_ACK_TRAIN;
		}
	}

	if (detect & MLTCP_HYSTART_DELAY) {
		if (delay < ca->hs.curr_rtt)
			ca->hs.curr_rtt = delay;
		/* 1/8 of the minimum RTT, within [4, 16] ms */
		floor = ca->delay_min >> 3;
		if (floor < MLTCP_HYSTART_DELAY_MIN_US)
			floor = MLTCP_HYSTART_DELAY_MIN_US;
		if (floor > MLTCP_HYSTART_DELAY_MAX_US)
			floor = MLTCP_HYSTART_DELAY_MAX_US;
		if (ca->sample_cnt < MLTCP_HYSTART_MIN_SAMPLES) {
			ca->sample_cnt++;
		} else if (ca->hs.curr_rtt > ca->delay_min + floor) {
			ca->found = 1;
			return MLTCP_HYSTART_DELAY;
		}
	}
	return 0;
}

/**
 * mltcp_cubic_rtt_sample() - take an RTT sample into the minimum RTT
 * @ca: state
 * @rtt_us: the sample, us; negative = none
 * @now: jiffies
 * @hz: jiffies per second
 *
 * Samples within a second of a new epoch are ignored: they follow a
 * recovery and are inflated.
 *
 * Return: the sample (at least 1) for HyStart, or 0 if it was ignored.
 */
static __always_inline u32 mltcp_cubic_rtt_sample(struct mltcp_cubic_state *ca, s32 rtt_us, u32 now,
						  u32 hz)
{
	u32 delay;

	if (rtt_us < 0)
		return 0;
	if (ca->epoch_start && (s32)(now - ca->epoch_start) < (s32)hz)
		return 0;
	delay = rtt_us > 1 ? (u32)rtt_us : 1;
	if (!ca->delay_min || ca->delay_min > delay)
		ca->delay_min = delay;
	return delay;
}

/* W_cubic at @t (1/1024 s after the epoch start), segments. */
static __always_inline u32 mltcp_cubic_target(const struct mltcp_cubic_state *ca,
					      const struct mltcp_cubic_params *p, u64 t)
{
	u64 dt, off;

	dt = t < ca->k ? ca->k - t : t - ca->k;
	if (dt > MLTCP_CUBIC_DT_MAX)
		dt = MLTCP_CUBIC_DT_MAX;
	off = mltcp_cc_mul_shr(dt * dt * dt, (u64)p->cube_rtt_scale,
			       10 + 3 * MLTCP_CUBIC_HZ_SHIFT);
	if (t < ca->k)
		return off >= ca->origin ? 0 : ca->origin - (u32)off;
	off += ca->origin;
	return off < ~0U ? (u32)off : ~0U;
}

/*
 * A new epoch at @now: the curve's plateau is W_max, reached after K, or
 * cwnd at once when cwnd is at or above W_max.
 */
static __always_inline void mltcp_cubic_epoch_start(struct mltcp_cubic_state *ca,
						    const struct mltcp_cubic_params *p, u32 cwnd,
						    u32 credit, u32 now)
{
	u64 diff, most;

	ca->epoch_start = now ?: 1;
	ca->ack_cnt = credit;
	ca->tcp_cwnd = cwnd;
	if (ca->last_max_cwnd <= cwnd) {
		ca->k = 0;
		ca->origin = cwnd;
		return;
	}
	diff = ca->last_max_cwnd - cwnd;
	most = div64_u64(~0ULL, p->cube_factor);
	ca->k = mltcp_cubic_cbrt(p->cube_factor * (diff < most ? diff : most));
	ca->origin = ca->last_max_cwnd;
}

/**
 * mltcp_cubic_cnt() - segments of credit per one-segment increase of cwnd
 * @ca: state
 * @p: parameters
 * @cwnd: current cwnd
 * @credit: credit of this ACK (F-scaled segments acked)
 * @now: jiffies
 * @hz: jiffies per second (a constant in the module, folded)
 *
 * Counts @credit towards the Reno-friendly estimate and, at most once per
 * jiffy (every hz/32 while cwnd stays the same), starts an epoch when none
 * is running, advances the estimate and computes the growth rate from the
 * curve one minimum RTT ahead.
 *
 * Return: the count for tcp_cong_avoid_ai(), at least 2.
 */
static __always_inline u32 mltcp_cubic_cnt(struct mltcp_cubic_state *ca,
					   const struct mltcp_cubic_params *p, u32 cwnd, u32 credit,
					   u32 now, u32 hz)
{
	bool cached = ca->shared == MLTCP_CUBIC_SHARED_RATE;
	u32 target, cnt;
	u64 t;

	ca->ack_cnt += credit;
	if (cached && ca->rate.last_cwnd == cwnd &&
	    (s32)(now - ca->rate.last_time) <= (s32)(hz / 32))
		return ca->rate.cnt;

	if (cached && ca->epoch_start && now == ca->rate.last_time) {
		/* the curve's rate is this jiffy's; only W_est may move it */
		cnt = ca->rate.cnt;
		goto friendliness;
	}

	ca->shared = MLTCP_CUBIC_SHARED_RATE;
	ca->rate.last_cwnd = cwnd;
	ca->rate.last_time = now;
	if (!ca->epoch_start)
		mltcp_cubic_epoch_start(ca, p, cwnd, credit, now);

	/* one minimum RTT ahead, rounded up to whole jiffies */
	t = (u32)((s32)(now - ca->epoch_start) + mltcp_cc_us_to_jiffies(ca->delay_min, hz));
	t = div64_u64(t << MLTCP_CUBIC_HZ_SHIFT, hz);
	target = mltcp_cubic_target(ca, p, t);
	if (target > cwnd)
		cnt = cwnd / (target - cwnd);
	else
		cnt = 100 * cwnd;
	if (!ca->last_max_cwnd && cnt > MLTCP_CUBIC_FIRST_EPOCH_CNT)
		cnt = MLTCP_CUBIC_FIRST_EPOCH_CNT;

friendliness:
	if (MLTCP_CC_PARAM(p->tcp_friendliness)) {
		u32 per_seg = (cwnd * p->beta_scale) >> 3;

		if (!per_seg)
			per_seg = 1;
		if (ca->ack_cnt > per_seg) {
			u32 n = (ca->ack_cnt - 1) / per_seg;

			ca->ack_cnt -= n * per_seg;
			ca->tcp_cwnd += n;
		}
		if (ca->tcp_cwnd > cwnd && cwnd / (ca->tcp_cwnd - cwnd) < cnt)
			cnt = cwnd / (ca->tcp_cwnd - cwnd);
	}
	ca->rate.cnt = cnt > 2 ? cnt : 2;
	return ca->rate.cnt;
}

/**
 * mltcp_cubic_cut() - a congestion event
 * @ca: state
 * @p: parameters
 * @cwnd: cwnd at the event
 *
 * Ends the epoch and sets W_max (with fast convergence: cwnd * (1 + beta)
 * / 2 when cwnd did not reach the previous W_max).
 *
 * Return: cwnd * beta, at least 2 (before MLTCP divides the cut by F).
 */
static __always_inline u32 mltcp_cubic_cut(struct mltcp_cubic_state *ca,
					   const struct mltcp_cubic_params *p, u32 cwnd)
{
	/* beta is writable at run time; keep the cut a cut */
	int beta = MLTCP_CC_PARAM(p->beta);
	u32 b, reduced;

	b = beta < 1 ? 1 : beta > (int)MLTCP_CUBIC_BETA_SCALE - 1 ?
			   MLTCP_CUBIC_BETA_SCALE - 1 : (u32)beta;
	ca->epoch_start = 0;
	if (cwnd < ca->last_max_cwnd && MLTCP_CC_PARAM(p->fast_convergence))
		ca->last_max_cwnd = (u32)(((u64)cwnd * (MLTCP_CUBIC_BETA_SCALE + b)) /
					  (2 * MLTCP_CUBIC_BETA_SCALE));
	else
		ca->last_max_cwnd = cwnd;
	reduced = (u32)(((u64)cwnd * b) / MLTCP_CUBIC_BETA_SCALE);
	return reduced > 2 ? reduced : 2;
}

/*
 * The application sends again after @lsndtime (jiffies): t must not count
 * the time it was idle (RFC 9438 5.8), so the epoch moves by the idle time.
 */
static __always_inline void mltcp_cubic_tx_start(struct mltcp_cubic_state *ca, u32 now,
						 u32 lsndtime)
{
	s32 idle = now - lsndtime;

	if (!ca->epoch_start || idle <= 0)
		return;
	ca->epoch_start += idle;
	if ((s32)(ca->epoch_start - now) > 0)
		ca->epoch_start = now;
	if (!ca->epoch_start)
		ca->epoch_start = 1;
}

#endif /* _MLTCP_CUBIC_MATH_H */
