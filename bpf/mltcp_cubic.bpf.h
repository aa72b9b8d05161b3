/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp_cubic as a BPF struct_ops: the algorithm of mltcp_cubic.c, whose
 * arithmetic (include/mltcp_cubic_math.h) both compile, with F entering in
 * the same two places, the ACK credit (mltcp_bpf_cong_avoid()) and the
 * decrease (mltcp_bpf_decrease()).  Differences from the module:
 *  - the module parameters are fixed at their defaults
 *    (MLTCP_CUBIC_PARAMS_DEFAULT: beta 717, bic_scale 41, fast convergence,
 *    Reno friendliness, HyStart with both detectors, hystart_low_window 16,
 *    hystart_ack_delta_us 2000), constants the compiler folds;
 *  - HyStart does not update the kernel's TCPHystart* counters;
 *  - HZ is the loader's (params.hz), jiffies bpf_jiffies64().
 */
#ifndef _MLTCP_CUBIC_BPF_H
#define _MLTCP_CUBIC_BPF_H

#include "mltcp_glue.bpf.h"
#include "mltcp_cubic_math.h"

static const struct mltcp_cubic_params cubic_bpf_p = MLTCP_CUBIC_PARAMS_DEFAULT;

_Static_assert(sizeof(struct mltcp_cubic_state) <= 104, "CUBIC state must fit icsk_ca_priv");

static __always_inline struct mltcp_cubic_state *cubic_bpf_ca(const struct sock *sk)
{
	return inet_csk_ca(sk);
}

static __always_inline void cubic_bpf_round_start(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	mltcp_hystart_round_start(cubic_bpf_ca(sk), (u32)tp->tcp_mstamp, tp->snd_nxt);
}

SEC("struct_ops/mltcp_cubic_init")
void BPF_PROG(mltcp_cubic_init, struct sock *sk)
{
	mltcp_bpf_init(sk, MLTCP_BPF_CUBIC);
	mltcp_cubic_reset(cubic_bpf_ca(sk));
	cubic_bpf_round_start(sk);
}

SEC("struct_ops/mltcp_cubic_release")
void BPF_PROG(mltcp_cubic_release, struct sock *sk)
{
	mltcp_bpf_release(sk);
}

SEC("struct_ops/mltcp_cubic_pkts_acked")
void BPF_PROG(mltcp_cubic_pkts_acked, struct sock *sk, const struct ack_sample *sample)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_cubic_state *ca = cubic_bpf_ca(sk);
	struct mltcp_hystart_in in;
	struct mltcp_bpf_p p;
	u32 delay;

	if (sample->rtt_us < 0)
		return;
	mltcp_get_params(&p);
	delay = mltcp_cubic_rtt_sample(ca, sample->rtt_us, tcp_jiffies32(), p.hz);
	if (!delay || ca->found || !tcp_in_slow_start(tp))
		return;
	in.now_us = (u32)tp->tcp_mstamp;
	in.snd_una = tp->snd_una;
	in.snd_nxt = tp->snd_nxt;
	in.cwnd = tcp_snd_cwnd(tp);
	in.pacing_rate = sk->sk_pacing_rate;
	in.paced = sk->sk_pacing_status != SK_PACING_NONE;
	if (mltcp_hystart_update(ca, &cubic_bpf_p, &in, delay))
		tp->snd_ssthresh = in.cwnd;
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
	cnt = mltcp_cubic_cnt(cubic_bpf_ca(sk), &cubic_bpf_p, tcp_snd_cwnd(tp), acked,
			      tcp_jiffies32(), p.hz);
	tcp_cong_avoid_ai(tp, cnt, acked);
}

SEC("struct_ops/mltcp_cubic_ssthresh")
u32 BPF_PROG(mltcp_cubic_ssthresh, struct sock *sk)
{
	u32 cwnd = tcp_snd_cwnd(tcp_sk(sk));

	return mltcp_bpf_decrease(sk, cwnd, mltcp_cubic_cut(cubic_bpf_ca(sk), &cubic_bpf_p, cwnd));
}

SEC("struct_ops/mltcp_cubic_set_state")
void BPF_PROG(mltcp_cubic_set_state, struct sock *sk, u8 new_state)
{
	if (new_state == TCP_CA_Loss) {
		mltcp_cubic_reset(cubic_bpf_ca(sk));
		cubic_bpf_round_start(sk);
	}
}

SEC("struct_ops/mltcp_cubic_cwnd_event")
void BPF_PROG(mltcp_cubic_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	mltcp_bpf_cwnd_event(sk, ev);
	if (ev == CA_EVENT_TX_START)
		mltcp_cubic_tx_start(cubic_bpf_ca(sk), tcp_jiffies32(), tcp_sk(sk)->lsndtime);
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
