// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp_cubic: CUBIC whose congestion-avoidance growth is scaled by
 * MLTCP's F.  With F = 1 (slope 0, intercept 1) it is meant to behave
 * like Linux's own "cubic" module: same curve, same fixed point, same
 * HyStart, same module parameters and defaults.  F enters in two places
 * only: every ACK's credit (segments acked) is multiplied by F before it
 * drives the cubic increase and the Reno-friendly estimate
 * (mltcp_cong_avoid()), and the multiplicative decrease is divided by F
 * when the core's "decrease" parameter is set (mltcp_decrease()).
 *
 * Written from RFC 9438, the CUBIC and HyStart papers (Ha, Rhee, Xu 2008;
 * Ha, Rhee 2008/2011) and the documented behaviour of Linux's cubic:
 *  - W_cubic(t) = C * (t - K)^3 + W_max with C = bic_scale * 10 / 1024
 *    (0.4) and beta = beta / 1024 (0.7); t in units of 1/1024 s, measured
 *    in jiffies from the start of the congestion-avoidance epoch;
 *  - the target is the curve one minimum RTT ahead (at least one jiffy):
 *    cwnd grows by one segment every cwnd / (target - cwnd) segments of
 *    credit, and by one every 100 * cwnd when cwnd is at or above target;
 *  - while no congestion event is known (W_max = 0, the first epoch and
 *    the first after a timeout) growth is at least one segment per 20 of
 *    credit, i.e. about 5% per RTT;
 *  - Reno-friendly region: an estimate of what Reno would have that grows
 *    one segment per cwnd * beta_scale / 8 of credit, beta_scale =
 *    8 * (1 + beta) / (3 * (1 - beta)) rounded down (15 for beta = 0.7,
 *    alpha = 8/15 for the whole epoch); cwnd grows at least as fast as
 *    needed to follow it within one RTT; growth is never faster than one
 *    segment per 2 of credit;
 *  - congestion event: W_max = cwnd, or cwnd * (1 + beta) / 2 when it
 *    did not reach the previous W_max (fast convergence); ssthresh =
 *    cwnd * beta, at least 2;
 *  - a timeout (TCP_CA_Loss) forgets everything: W_max, the epoch, the
 *    minimum RTT and HyStart's result (RFC 9438 4.8);
 *  - undo restores cwnd only (the kernel's Reno undo), like Linux;
 *  - t excludes the time the application was idle (RFC 9438 5.8);
 *  - HyStart in slow start, above hystart_low_window segments: a round
 *    starts when snd_una passes the snd_nxt of the previous round start;
 *    ACK train: ACKs closer than hystart_ack_delta_us to each other that
 *    keep arriving for more than half the minimum RTT (plus a little for
 *    TSO/GSO bursts at the pacing rate, the whole minimum RTT when the
 *    socket is paced) since the round start end slow start;
 *    delay: when the smallest of the round's first 8 RTT samples exceeds
 *    the minimum RTT by more than 1/8 of it (clamped to [4, 16] ms), slow
 *    start ends (ssthresh = cwnd).  RTT samples within a second of a new
 *    epoch are ignored.  The kernel's TCPHystart* counters are updated.
 *
 * Linux's cubic also computes the growth rate at most once per jiffy and,
 * while cwnd does not change, at most every HZ/32; so does this module.
 *
 * The arithmetic is include/mltcp_cubic_math.h, shared with the BPF
 * backend; this file reads the socket and applies the results.  Its state
 * (struct mltcp_cubic_state, 47 bytes) sits next to struct mltcp_sock in
 * icsk_ca_priv (48 bytes left on 6.1 and 6.12).
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/tcp.h>

#include "mltcp.h"
#include "mltcp_cubic_math.h"

static struct mltcp_cubic_params cubic_p __read_mostly = MLTCP_CUBIC_PARAMS_DEFAULT;
static int initial_ssthresh __read_mostly;
static int bic_scale __read_mostly = MLTCP_CUBIC_BIC_SCALE_DEFAULT;

module_param_named(fast_convergence, cubic_p.fast_convergence, int, 0644);
MODULE_PARM_DESC(fast_convergence, "Fast convergence: release bandwidth on a shrinking W_max (default 1)");
module_param_named(beta, cubic_p.beta, int, 0644);
MODULE_PARM_DESC(beta, "Multiplicative decrease factor, /1024 (default 717 = 0.7)");
module_param(initial_ssthresh, int, 0644);
MODULE_PARM_DESC(initial_ssthresh, "Initial ssthresh when hystart is off (default 0: the kernel's)");
module_param(bic_scale, int, 0444);
MODULE_PARM_DESC(bic_scale, "C of the cubic function, /1024 after * 10 (default 41: C = 0.4)");
module_param_named(tcp_friendliness, cubic_p.tcp_friendliness, int, 0644);
MODULE_PARM_DESC(tcp_friendliness, "Reno-friendly region on/off (default 1)");
module_param_named(hystart, cubic_p.hystart, int, 0644);
MODULE_PARM_DESC(hystart, "HyStart on/off (default 1)");
module_param_named(hystart_detect, cubic_p.hystart_detect, int, 0644);
MODULE_PARM_DESC(hystart_detect, "HyStart detectors: 1 ACK train, 2 delay, 3 both (default 3)");
module_param_named(hystart_low_window, cubic_p.hystart_low_window, int, 0644);
MODULE_PARM_DESC(hystart_low_window, "HyStart acts only above this cwnd, segments (default 16)");
module_param_named(hystart_ack_delta_us, cubic_p.hystart_ack_delta_us, int, 0644);
MODULE_PARM_DESC(hystart_ack_delta_us, "Largest ACK spacing inside an ACK train, us (default 2000)");

/**
 * struct mltcp_cubic - per-socket state
 * @ml: MLTCP state, must be first
 * @c: CUBIC's state
 */
struct mltcp_cubic {
	struct mltcp_sock ml;
	struct mltcp_cubic_state c;
};

static struct mltcp_cubic_state *cubic_ca(const struct sock *sk)
{
	return &((struct mltcp_cubic *)inet_csk_ca(sk))->c;
}

static void cubic_round_start(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	mltcp_hystart_round_start(cubic_ca(sk), (u32)tp->tcp_mstamp, tp->snd_nxt);
}

static void mltcp_cubic_pkts_acked(struct sock *sk, const struct ack_sample *sample)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_cubic_state *ca = cubic_ca(sk);
	struct mltcp_hystart_in in;
	u32 delay;
	int found;

	delay = mltcp_cubic_rtt_sample(ca, sample->rtt_us, tcp_jiffies32, HZ);
	if (!delay || ca->found || !tcp_in_slow_start(tp) || !READ_ONCE(cubic_p.hystart))
		return;
	in.now_us = (u32)tp->tcp_mstamp;
	in.snd_una = tp->snd_una;
	in.snd_nxt = tp->snd_nxt;
	in.cwnd = tcp_snd_cwnd(tp);
	in.pacing_rate = READ_ONCE(sk->sk_pacing_rate);
	in.paced = sk->sk_pacing_status != SK_PACING_NONE;
	found = mltcp_hystart_update(ca, &cubic_p, &in, delay);
	if (!found)
		return;
	if (found == MLTCP_HYSTART_ACK_TRAIN) {
		NET_INC_STATS(sock_net(sk), LINUX_MIB_TCPHYSTARTTRAINDETECT);
		NET_ADD_STATS(sock_net(sk), LINUX_MIB_TCPHYSTARTTRAINCWND, in.cwnd);
	} else {
		NET_INC_STATS(sock_net(sk), LINUX_MIB_TCPHYSTARTDELAYDETECT);
		NET_ADD_STATS(sock_net(sk), LINUX_MIB_TCPHYSTARTDELAYCWND, in.cwnd);
	}
	tp->snd_ssthresh = in.cwnd;
}

static void mltcp_cubic_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cnt;

	/* acked becomes the F-scaled credit */
	if (!mltcp_cong_avoid(sk, &acked))
		return;
	cnt = mltcp_cubic_cnt(cubic_ca(sk), &cubic_p, tcp_snd_cwnd(tp), acked,
			      tcp_jiffies32, HZ);
	tcp_cong_avoid_ai(tp, cnt, acked);
}

static u32 mltcp_cubic_ssthresh(struct sock *sk)
{
	u32 cwnd = tcp_snd_cwnd(tcp_sk(sk));

	return mltcp_decrease(sk, cwnd, mltcp_cubic_cut(cubic_ca(sk), &cubic_p, cwnd));
}

/* A timeout restarts everything: no W_max, no epoch, HyStart again. */
static void mltcp_cubic_set_state(struct sock *sk, u8 new_state)
{
	if (new_state == TCP_CA_Loss) {
		mltcp_cubic_reset(cubic_ca(sk));
		cubic_round_start(sk);
	}
}

static void mltcp_cubic_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	mltcp_ca_cwnd_event(sk, ev);
	if (ev == CA_EVENT_TX_START)
		mltcp_cubic_tx_start(cubic_ca(sk), tcp_jiffies32, tcp_sk(sk)->lsndtime);
}

static void mltcp_cubic_init(struct sock *sk)
{
	mltcp_ca_init(sk);
	mltcp_cubic_reset(cubic_ca(sk));
	if (READ_ONCE(cubic_p.hystart))
		cubic_round_start(sk);
	else if (READ_ONCE(initial_ssthresh))
		tcp_sk(sk)->snd_ssthresh = (u32)READ_ONCE(initial_ssthresh);
}

static struct mltcp_algo mltcp_cubic_algo = {
	.ops = {
		.init		= mltcp_cubic_init,
		.release	= mltcp_ca_release,
		.ssthresh	= mltcp_cubic_ssthresh,
		.cong_avoid	= mltcp_cubic_cong_avoid,
		.set_state	= mltcp_cubic_set_state,
		.undo_cwnd	= tcp_reno_undo_cwnd,
		.cwnd_event	= mltcp_cubic_cwnd_event,
		.pkts_acked	= mltcp_cubic_pkts_acked,
		.owner		= THIS_MODULE,
		.name		= "mltcp_cubic",
	},
};

MLTCP_ALGO_COUNTERS(mltcp_cubic_algo);

static int __init mltcp_cubic_register(void)
{
	MLTCP_CHECK_PRIV(struct mltcp_cubic, ml);

	if (mltcp_cubic_params_derive(&cubic_p, bic_scale)) {
		pr_err("mltcp_cubic: beta must be in (0, 1024) and bic_scale > 0\n");
		return -EINVAL;
	}
	return mltcp_register(&mltcp_cubic_algo);
}

static void __exit mltcp_cubic_unregister(void)
{
	mltcp_unregister(&mltcp_cubic_algo);
}

module_init(mltcp_cubic_register);
module_exit(mltcp_cubic_unregister);

MODULE_AUTHOR("MLTCP project");
MODULE_DESCRIPTION("MLTCP CUBIC: Linux's CUBIC with HyStart, growth scaled by F(bytes_ratio)");
MODULE_LICENSE("GPL");
MODULE_VERSION(MLTCP_VERSION);
