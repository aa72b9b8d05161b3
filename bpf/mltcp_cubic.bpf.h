/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp_cubic as a BPF struct_ops: the algorithm of mltcp_cubic.c (see
 * its header comment: RFC 9438, HyStart, Linux's cubic behaviour) with
 * F entering in the same two places, the ACK credit (mltcp_bpf_cong_avoid())
 * and the decrease (mltcp_bpf_decrease()).
 *
 * Why this is not mltcp_cubic.c compiled twice: that file is written
 * against kernel-only APIs a BPF program cannot have (module parameters,
 * NET_INC_STATS for the HyStart counters, the module's registration), and
 * its MLTCP state sits in icsk_ca_priv next to the CUBIC state, where the
 * BPF backend keeps it in a map.  The shared part, F, the credit, the
 * learner and the state machine, is include/mltcp_core.h for both.
 * Differences from the module:
 *  - the module parameters are fixed at their defaults (beta 717,
 *    bic_scale 41, fast convergence, Reno friendliness, HyStart with both
 *    detectors, hystart_low_window 16, hystart_ack_delta_us 2000);
 *  - HyStart does not update the kernel's TCPHystart* counters.
 */
#ifndef _MLTCP_CUBIC_BPF_H
#define _MLTCP_CUBIC_BPF_H

#include "mltcp_glue.bpf.h"

#define CUBIC_BETA_SCALE	1024U
#define CUBIC_BETA		717U
#define CUBIC_HZ_SHIFT		10
#define CUBIC_DT_MAX		(1ULL << 18)
#define CUBIC_FIRST_EPOCH_CNT	20U
/* bic_scale 41: C = 41 * 10 / 1024 = 0.4 */
#define CUBE_RTT_SCALE		410U
/* 8 * (1024 + beta) / 3 / (1024 - beta) */
#define CUBIC_BETA_SCALE_FRIENDLY	(8U * (CUBIC_BETA_SCALE + CUBIC_BETA) / 3U / \
					 (CUBIC_BETA_SCALE - CUBIC_BETA))
/* 2^40 / C */
#define CUBE_FACTOR		((1ULL << (10 + 3 * CUBIC_HZ_SHIFT)) / CUBE_RTT_SCALE)

#define HYSTART_ACK_TRAIN	0x1
#define HYSTART_DELAY		0x2
#define HYSTART_DETECT		(HYSTART_ACK_TRAIN | HYSTART_DELAY)
#define HYSTART_LOW_WINDOW	16U
#define HYSTART_ACK_DELTA_US	2000
#define HYSTART_MIN_SAMPLES	8
#define HYSTART_DELAY_MIN_US	4000U
#define HYSTART_DELAY_MAX_US	16000U
#define GSO_LEGACY_MAX_SIZE	65536ULL

enum cubic_shared {
	CUBIC_SHARED_NONE = 0,
	CUBIC_SHARED_HYSTART,
	CUBIC_SHARED_RATE,
};

/* struct mltcp_cubic of mltcp_cubic.c without the MLTCP state */
struct bpf_cubic {
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

_Static_assert(sizeof(struct bpf_cubic) <= 104, "CUBIC state must fit icsk_ca_priv");

/*
 * Integer cube root, rounded down: bitwise, 3 bits of input per step.  A
 * global function, branch-free inside, so that the verifier checks it once
 * instead of once per path through its caller.
 */
__attribute__((noinline)) u32 mltcp_cubic_cbrt(u64 a)
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

static __always_inline u32 cubic_clock_us(const struct sock *sk)
{
	return (u32)tcp_sk(sk)->tcp_mstamp;
}

static __always_inline void cubic_reset(struct bpf_cubic *ca)
{
	__builtin_memset(ca, 0, sizeof(*ca));
}

static __always_inline void hystart_round_start(struct sock *sk)
{
	struct bpf_cubic *ca = inet_csk_ca(sk);

	ca->shared = CUBIC_SHARED_HYSTART;
	ca->hs.round_start = cubic_clock_us(sk);
	ca->hs.last_ack = ca->hs.round_start;
	ca->hs.end_seq = tcp_sk(sk)->snd_nxt;
	ca->hs.curr_rtt = ~0U;
	ca->sample_cnt = 0;
}

static __always_inline u32 hystart_ack_delay_us(const struct sock *sk)
{
	unsigned long rate = sk->sk_pacing_rate;

	if (!rate)
		return 0;
	return (u32)min_t(u64, USEC_PER_MSEC, GSO_LEGACY_MAX_SIZE * 4 * USEC_PER_SEC / rate);
}

static __always_inline void hystart_exit(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bpf_cubic *ca = inet_csk_ca(sk);

	ca->found = 1;
	tp->snd_ssthresh = tcp_snd_cwnd(tp);
}

static __always_inline void hystart_update(struct sock *sk, u32 delay)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct bpf_cubic *ca = inet_csk_ca(sk);
	u32 threshold;

	if (ca->shared != CUBIC_SHARED_HYSTART || after(tp->snd_una, ca->hs.end_seq))
		hystart_round_start(sk);
	if (tcp_snd_cwnd(tp) < HYSTART_LOW_WINDOW)
		return;

	if (HYSTART_DETECT & HYSTART_ACK_TRAIN) {
		u32 now = cubic_clock_us(sk);

		if ((s32)(now - ca->hs.last_ack) <= HYSTART_ACK_DELTA_US) {
			ca->hs.last_ack = now;
			threshold = ca->delay_min + hystart_ack_delay_us(sk);
			if (sk->sk_pacing_status == SK_PACING_NONE)
				threshold >>= 1;
			if ((s32)(now - ca->hs.round_start) > (s32)threshold) {
				hystart_exit(sk);
				return;
			}
		}
	}

	if (HYSTART_DETECT & HYSTART_DELAY) {
		ca->hs.curr_rtt = min(ca->hs.curr_rtt, delay);
		if (ca->sample_cnt < HYSTART_MIN_SAMPLES) {
			ca->sample_cnt++;
		} else if (ca->hs.curr_rtt > ca->delay_min +
			   clamp(ca->delay_min >> 3, HYSTART_DELAY_MIN_US,
				 HYSTART_DELAY_MAX_US)) {
			hystart_exit(sk);
		}
	}
}

static __always_inline u32 cubic_target(const struct bpf_cubic *ca, u64 t)
{
	u64 dt, off;

	dt = t < ca->k ? ca->k - t : t - ca->k;
	dt = min(dt, CUBIC_DT_MAX);
	/* dt^3 < 2^54 and C < 2^9: the product fits 64 bits */
	off = (dt * dt * dt * CUBE_RTT_SCALE) >> (10 + 3 * CUBIC_HZ_SHIFT);
	if (t < ca->k)
		return off >= ca->origin ? 0 : ca->origin - (u32)off;
	return (u32)min_t(u64, (u64)ca->origin + off, U32_MAX);
}

/* cubic_cnt() of mltcp_cubic.c; @hz is the kernel's HZ */
static __always_inline u32 cubic_cnt(struct bpf_cubic *ca, u32 cwnd, u32 credit, u32 hz)
{
	u32 now = tcp_jiffies32(), target, cnt;
	bool cached = ca->shared == CUBIC_SHARED_RATE;
	u64 t;

	ca->ack_cnt += credit;
	if (cached && ca->rate.last_cwnd == cwnd &&
	    (s32)(now - ca->rate.last_time) <= (s32)(hz / 32))
		return ca->rate.cnt;

	if (cached && ca->epoch_start && now == ca->rate.last_time) {
		cnt = ca->rate.cnt;
		goto friendliness;
	}

	ca->shared = CUBIC_SHARED_RATE;
	ca->rate.last_cwnd = cwnd;
	ca->rate.last_time = now;
	if (!ca->epoch_start) {
		ca->epoch_start = now ?: 1;
		ca->ack_cnt = credit;
		ca->tcp_cwnd = cwnd;
		if (ca->last_max_cwnd <= cwnd) {
			ca->k = 0;
			ca->origin = cwnd;
		} else {
			u64 diff = min_t(u64, ca->last_max_cwnd - cwnd, U64_MAX / CUBE_FACTOR);

			ca->k = mltcp_cubic_cbrt(CUBE_FACTOR * diff);
			ca->origin = ca->last_max_cwnd;
		}
	}

	/* one minimum RTT ahead, rounded up to whole jiffies */
	t = (u32)((s32)(now - ca->epoch_start) +
		  (u32)(((u64)ca->delay_min * hz + USEC_PER_SEC - 1) / USEC_PER_SEC));
	t = (t << CUBIC_HZ_SHIFT) / hz;
	target = cubic_target(ca, t);
	if (target > cwnd)
		cnt = cwnd / (target - cwnd);
	else
		cnt = 100 * cwnd;
	if (!ca->last_max_cwnd && cnt > CUBIC_FIRST_EPOCH_CNT)
		cnt = CUBIC_FIRST_EPOCH_CNT;

friendliness:
	{
		u32 per_seg = max((cwnd * CUBIC_BETA_SCALE_FRIENDLY) >> 3, 1U);

		if (ca->ack_cnt > per_seg) {
			u32 n = (ca->ack_cnt - 1) / per_seg;

			ca->ack_cnt -= n * per_seg;
			ca->tcp_cwnd += n;
		}
		if (ca->tcp_cwnd > cwnd) {
			u32 max_cnt = cwnd / (ca->tcp_cwnd - cwnd);

			cnt = min(cnt, max_cnt);
		}
	}
	ca->rate.cnt = max(cnt, 2U);
	return ca->rate.cnt;
}

SEC("struct_ops/mltcp_cubic_init")
void BPF_PROG(mltcp_cubic_init, struct sock *sk)
{
	mltcp_bpf_init(sk, MLTCP_BPF_CUBIC);
	cubic_reset(inet_csk_ca(sk));
	hystart_round_start(sk);
}

SEC("struct_ops/mltcp_cubic_release")
void BPF_PROG(mltcp_cubic_release, struct sock *sk)
{
	mltcp_bpf_release(sk);
}

SEC("struct_ops/mltcp_cubic_pkts_acked")
void BPF_PROG(mltcp_cubic_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bpf_cubic *ca = inet_csk_ca(sk);
	struct mltcp_bpf_p p;
	s32 rtt = sample->rtt_us;
	u32 delay;

	if (rtt < 0)
		return;
	mltcp_get_params(&p);
	if (ca->epoch_start && (s32)(tcp_jiffies32() - ca->epoch_start) < (s32)p.hz)
		return;
	delay = rtt > 1 ? (u32)rtt : 1;
	if (!ca->delay_min || ca->delay_min > delay)
		ca->delay_min = delay;
	if (!ca->found && tcp_in_slow_start(tp))
		hystart_update(sk, delay);
}

SEC("struct_ops/mltcp_cubic_cong_avoid")
void BPF_PROG(mltcp_cubic_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_bpf_p p;
	u32 cnt;

	/* acked becomes the F-scaled credit */
	if (!mltcp_bpf_cong_avoid(sk, &acked))
		return;
	mltcp_get_params(&p);
	cnt = cubic_cnt(inet_csk_ca(sk), tcp_snd_cwnd(tp), acked, p.hz);
	tcp_cong_avoid_ai(tp, cnt, acked);
}

SEC("struct_ops/mltcp_cubic_ssthresh")
u32 BPF_PROG(mltcp_cubic_ssthresh, struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct bpf_cubic *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tp);
	u32 reduced;

	ca->epoch_start = 0;
	if (cwnd < ca->last_max_cwnd)
		ca->last_max_cwnd = (u32)(((u64)cwnd * (CUBIC_BETA_SCALE + CUBIC_BETA)) /
					  (2 * CUBIC_BETA_SCALE));
	else
		ca->last_max_cwnd = cwnd;
	reduced = max((u32)(((u64)cwnd * CUBIC_BETA) / CUBIC_BETA_SCALE), 2U);
	return mltcp_bpf_decrease(sk, cwnd, reduced);
}

SEC("struct_ops/mltcp_cubic_set_state")
void BPF_PROG(mltcp_cubic_set_state, struct sock *sk, u8 new_state)
{
	if (new_state == TCP_CA_Loss) {
		cubic_reset(inet_csk_ca(sk));
		hystart_round_start(sk);
	}
}

SEC("struct_ops/mltcp_cubic_cwnd_event")
void BPF_PROG(mltcp_cubic_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	struct bpf_cubic *ca = inet_csk_ca(sk);

	mltcp_bpf_cwnd_event(sk, ev);

	if (ev == CA_EVENT_TX_START && ca->epoch_start) {
		u32 now = tcp_jiffies32();
		s32 idle = now - tcp_sk(sk)->lsndtime;

		if (idle > 0) {
			ca->epoch_start += idle;
			if (after(ca->epoch_start, now))
				ca->epoch_start = now;
			if (!ca->epoch_start)
				ca->epoch_start = 1;
		}
	}
}

SEC("struct_ops/mltcp_cubic_undo_cwnd")
u32 BPF_PROG(mltcp_cubic_undo_cwnd, struct sock *sk)
{
	return tcp_reno_undo_cwnd(sk);
}

SEC(".struct_ops")
struct tcp_congestion_ops mltcp_cubic = {
	.init		= (void *)mltcp_cubic_init,
	.release	= (void *)mltcp_cubic_release,
	.ssthresh	= (void *)mltcp_cubic_ssthresh,
	.cong_avoid	= (void *)mltcp_cubic_cong_avoid,
	.set_state	= (void *)mltcp_cubic_set_state,
	.undo_cwnd	= (void *)mltcp_cubic_undo_cwnd,
	.cwnd_event	= (void *)mltcp_cubic_cwnd_event,
	.pkts_acked	= (void *)mltcp_cubic_pkts_acked,
	.name		= "mltcp_cubic",
};

#endif /* _MLTCP_CUBIC_BPF_H */
