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
 * State is 47 bytes next to struct mltcp_sock in icsk_ca_priv (48 left
 * on 6.1 and 6.12): HyStart's round state (used only in slow start) and
 * the cached growth rate (used only in congestion avoidance) share their
 * space; whichever part is not current is rebuilt before use (a HyStart
 * round restarts, the rate is recomputed).
 */
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/tcp.h>

#include "mltcp.h"

#define CUBIC_BETA_SCALE	1024U	/* beta is beta / 1024 */
#define CUBIC_HZ_SHIFT		10	/* t in 1/1024 s */
/* |t - K| is capped at 2^18 units (256 s) so that C * |t - K|^3 fits in 64 bits. */
#define CUBIC_DT_MAX		(1ULL << 18)
#define CUBIC_FIRST_EPOCH_CNT	20U	/* at least cwnd / 20 per RTT while W_max = 0 */

#define HYSTART_ACK_TRAIN	0x1
#define HYSTART_DELAY		0x2
#define HYSTART_MIN_SAMPLES	8
#define HYSTART_DELAY_MIN_US	4000U
#define HYSTART_DELAY_MAX_US	16000U

static int fast_convergence __read_mostly = 1;
static int beta __read_mostly = 717;
static int initial_ssthresh __read_mostly;
static int bic_scale __read_mostly = 41;
static int tcp_friendliness __read_mostly = 1;
static int hystart __read_mostly = 1;
static int hystart_detect __read_mostly = HYSTART_ACK_TRAIN | HYSTART_DELAY;
static int hystart_low_window __read_mostly = 16;
static int hystart_ack_delta_us __read_mostly = 2000;

module_param(fast_convergence, int, 0644);
MODULE_PARM_DESC(fast_convergence, "Fast convergence: release bandwidth on a shrinking W_max (default 1)");
module_param(beta, int, 0644);
MODULE_PARM_DESC(beta, "Multiplicative decrease factor, /1024 (default 717 = 0.7)");
module_param(initial_ssthresh, int, 0644);
MODULE_PARM_DESC(initial_ssthresh, "Initial ssthresh when hystart is off (default 0: the kernel's)");
module_param(bic_scale, int, 0444);
MODULE_PARM_DESC(bic_scale, "C of the cubic function, /1024 after * 10 (default 41: C = 0.4)");
module_param(tcp_friendliness, int, 0644);
MODULE_PARM_DESC(tcp_friendliness, "Reno-friendly region on/off (default 1)");
module_param(hystart, int, 0644);
MODULE_PARM_DESC(hystart, "HyStart on/off (default 1)");
module_param(hystart_detect, int, 0644);
MODULE_PARM_DESC(hystart_detect, "HyStart detectors: 1 ACK train, 2 delay, 3 both (default 3)");
module_param(hystart_low_window, int, 0644);
MODULE_PARM_DESC(hystart_low_window, "HyStart acts only above this cwnd, segments (default 16)");
module_param(hystart_ack_delta_us, int, 0644);
MODULE_PARM_DESC(hystart_ack_delta_us, "Largest ACK spacing inside an ACK train, us (default 2000)");

/* Derived from bic_scale and beta at load time, like Linux's cubic. */
static u32 cube_rtt_scale __read_mostly;	/* C, Q10 */
static u32 beta_scale __read_mostly;		/* 8 / alpha of the Reno-friendly region */
static u64 cube_factor __read_mostly;		/* 2^40 / C: K^3 per segment, (1/1024 s)^3 */

/* What the shared part of struct mltcp_cubic holds. */
enum cubic_shared {
	CUBIC_SHARED_NONE = 0,
	CUBIC_SHARED_HYSTART,	/* round state of HyStart */
	CUBIC_SHARED_RATE,	/* growth rate cache */
};

/**
 * struct mltcp_cubic - per-socket state
 * @ml: MLTCP state, must be first
 * @last_max_cwnd: W_max, segments; 0 = no congestion event known
 * @origin: plateau of the curve in this epoch (W_max, or cwnd when the
 *	epoch started at or above W_max)
 * @k: K, time from the epoch start to @origin, 1/1024 s
 * @delay_min: smallest RTT sample, us; 0 = none yet
 * @epoch_start: jiffies at the start of the epoch; 0 = none
 * @ack_cnt: credit counted towards @tcp_cwnd
 * @tcp_cwnd: Reno-friendly estimate W_est, segments
 * @hs: HyStart's round, valid when @shared is CUBIC_SHARED_HYSTART
 * @hs.round_start: start of this round, us (tcp_mstamp)
 * @hs.end_seq: the round ends when snd_una passes it
 * @hs.last_ack: time of the last ACK of the current train, us
 * @hs.curr_rtt: smallest RTT sample in this round, us
 * @rate: growth rate cache, valid when @shared is CUBIC_SHARED_RATE
 * @rate.cnt: credit per one-segment increase of cwnd
 * @rate.last_cwnd: cwnd when @rate.cnt was computed
 * @rate.last_time: jiffies when @rate.cnt was computed
 * @sample_cnt: HyStart: RTT samples in this round (saturates)
 * @found: HyStart ended slow start; reset by a timeout only
 * @shared: enum cubic_shared
 */
struct mltcp_cubic {
	struct mltcp_sock ml;
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

/* Integer cube root, rounded down: bitwise, 3 bits of input per step. */
static u32 cubic_cbrt(u64 a)
{
	u64 y = 0, b;
	int s;

	for (s = 63; s >= 0; s -= 3) {
		y <<= 1;
		b = 3 * y * (y + 1) + 1;
		if ((a >> s) >= b) {
			a -= b << s;
			y++;
		}
	}
	return (u32)y;
}

static u32 cubic_clock_us(const struct sock *sk)
{
	return (u32)tcp_sk(sk)->tcp_mstamp;
}

/* Forget everything the curve knows (init, timeout). */
static void cubic_reset(struct mltcp_cubic *ca)
{
	memset((char *)ca + sizeof(ca->ml), 0, sizeof(*ca) - sizeof(ca->ml));
}

static void hystart_round_start(struct sock *sk)
{
	struct mltcp_cubic *ca = inet_csk_ca(sk);

	ca->shared = CUBIC_SHARED_HYSTART;
	ca->hs.round_start = cubic_clock_us(sk);
	ca->hs.last_ack = ca->hs.round_start;
	ca->hs.end_seq = tcp_sk(sk)->snd_nxt;
	ca->hs.curr_rtt = ~0U;
	ca->sample_cnt = 0;
}

/*
 * Time a TSO/GSO burst of 4 maximal packets takes at the pacing rate, at
 * most 1 ms: ACKs of such a burst arrive late without meaning a long train.
 */
static u32 hystart_ack_delay_us(const struct sock *sk)
{
	unsigned long rate = READ_ONCE(sk->sk_pacing_rate);

	if (!rate)
		return 0;
	return (u32)min_t(u64, USEC_PER_MSEC,
			  div64_ul((u64)GSO_LEGACY_MAX_SIZE * 4 * USEC_PER_SEC, rate));
}

static void hystart_exit(struct sock *sk, int mib_detect, int mib_cwnd)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_cubic *ca = inet_csk_ca(sk);

	ca->found = 1;
	NET_INC_STATS(sock_net(sk), mib_detect);
	NET_ADD_STATS(sock_net(sk), mib_cwnd, tcp_snd_cwnd(tp));
	tp->snd_ssthresh = tcp_snd_cwnd(tp);
}

/* HyStart, for one RTT sample @delay (us) in slow start. */
static void hystart_update(struct sock *sk, u32 delay)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_cubic *ca = inet_csk_ca(sk);
	u32 threshold;

	/* a new round; or slow start again and the round state was reused */
	if (ca->shared != CUBIC_SHARED_HYSTART || after(tp->snd_una, ca->hs.end_seq))
		hystart_round_start(sk);
	if (tcp_snd_cwnd(tp) < (u32)READ_ONCE(hystart_low_window))
		return;

	if (READ_ONCE(hystart_detect) & HYSTART_ACK_TRAIN) {
		u32 now = cubic_clock_us(sk);

		if ((s32)(now - ca->hs.last_ack) <= READ_ONCE(hystart_ack_delta_us)) {
			ca->hs.last_ack = now;
			threshold = ca->delay_min + hystart_ack_delay_us(sk);
			/* unpaced, a round's ACKs span half the RTT at most */
			if (sk->sk_pacing_status == SK_PACING_NONE)
				threshold >>= 1;
			if ((s32)(now - ca->hs.round_start) > (s32)threshold) {
				hystart_exit(sk, LINUX_MIB_TCPHYSTARTTRAINDETECT,
					     LINUX_MIB_TCPHYSTARTTRAINCWND);
				return;
			}
		}
	}

	if (READ_ONCE(hystart_detect) & HYSTART_DELAY) {
		ca->hs.curr_rtt = min(ca->hs.curr_rtt, delay);
		if (ca->sample_cnt < HYSTART_MIN_SAMPLES) {
			ca->sample_cnt++;
		} else if (ca->hs.curr_rtt > ca->delay_min +
			   clamp(ca->delay_min >> 3, HYSTART_DELAY_MIN_US,
				 HYSTART_DELAY_MAX_US)) {
			hystart_exit(sk, LINUX_MIB_TCPHYSTARTDELAYDETECT,
				     LINUX_MIB_TCPHYSTARTDELAYCWND);
		}
	}
}

static void mltcp_cubic_pkts_acked(struct sock *sk, const struct ack_sample *sample)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_cubic *ca = inet_csk_ca(sk);
	u32 delay;

	if (sample->rtt_us < 0)
		return;
	/* the first second of an epoch follows a recovery: RTTs are inflated */
	if (ca->epoch_start && (s32)(tcp_jiffies32 - ca->epoch_start) < HZ)
		return;
	delay = max_t(u32, sample->rtt_us, 1);
	if (!ca->delay_min || ca->delay_min > delay)
		ca->delay_min = delay;
	if (!ca->found && tcp_in_slow_start(tp) && READ_ONCE(hystart))
		hystart_update(sk, delay);
}

/* W_cubic at @t (1/1024 s after the epoch start), segments. */
static u32 cubic_target(const struct mltcp_cubic *ca, u64 t)
{
	u64 dt, off;

	dt = t < ca->k ? ca->k - t : t - ca->k;
	dt = min(dt, CUBIC_DT_MAX);
	off = mul_u64_u64_shr(dt * dt * dt, cube_rtt_scale, 10 + 3 * CUBIC_HZ_SHIFT);
	if (t < ca->k)
		return off >= ca->origin ? 0 : ca->origin - (u32)off;
	return (u32)min_t(u64, (u64)ca->origin + off, U32_MAX);
}

/**
 * cubic_cnt() - segments of credit per one-segment increase of cwnd
 * @ca: state
 * @cwnd: current cwnd
 * @credit: credit of this ACK (F-scaled segments acked)
 *
 * Counts @credit towards the Reno-friendly estimate and, at most once per
 * jiffy (every HZ/32 while cwnd stays the same), starts an epoch when
 * none is running, advances the estimate and computes the growth rate
 * from the curve one minimum RTT ahead.
 *
 * Return: the count for tcp_cong_avoid_ai(), at least 2.
 */
static u32 cubic_cnt(struct mltcp_cubic *ca, u32 cwnd, u32 credit)
{
	u32 now = tcp_jiffies32, target, cnt;
	bool cached = ca->shared == CUBIC_SHARED_RATE;
	u64 t;

	ca->ack_cnt += credit;
	if (cached && ca->rate.last_cwnd == cwnd &&
	    (s32)(now - ca->rate.last_time) <= HZ / 32)
		return ca->rate.cnt;

	if (cached && ca->epoch_start && now == ca->rate.last_time) {
		/* the curve's rate is this jiffy's; only W_est may move it */
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
			u64 diff = min_t(u64, ca->last_max_cwnd - cwnd,
					 div64_u64(U64_MAX, cube_factor));

			ca->k = cubic_cbrt(cube_factor * diff);
			ca->origin = ca->last_max_cwnd;
		}
	}

	/* one minimum RTT ahead, rounded up to whole jiffies */
	t = (u32)((s32)(now - ca->epoch_start) + usecs_to_jiffies(ca->delay_min));
	t = div_u64(t << CUBIC_HZ_SHIFT, HZ);
	target = cubic_target(ca, t);
	if (target > cwnd)
		cnt = cwnd / (target - cwnd);
	else
		cnt = 100 * cwnd;
	if (!ca->last_max_cwnd && cnt > CUBIC_FIRST_EPOCH_CNT)
		cnt = CUBIC_FIRST_EPOCH_CNT;

friendliness:
	if (READ_ONCE(tcp_friendliness)) {
		u32 per_seg = max((cwnd * beta_scale) >> 3, 1U);

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

static void mltcp_cubic_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cnt;

	/* acked becomes the F-scaled credit */
	if (!mltcp_cong_avoid(sk, &acked))
		return;
	cnt = cubic_cnt(inet_csk_ca(sk), tcp_snd_cwnd(tp), acked);
	tcp_cong_avoid_ai(tp, cnt, acked);
}

/* Congestion event: W_max with fast convergence, ssthresh = cwnd * beta. */
static u32 mltcp_cubic_ssthresh(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_cubic *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tp);
	/* beta is writable at run time; keep the cut a cut */
	u32 b = clamp_t(int, READ_ONCE(beta), 1, CUBIC_BETA_SCALE - 1);

	ca->epoch_start = 0;
	if (cwnd < ca->last_max_cwnd && READ_ONCE(fast_convergence))
		ca->last_max_cwnd = (u32)(((u64)cwnd * (CUBIC_BETA_SCALE + b)) /
					  (2 * CUBIC_BETA_SCALE));
	else
		ca->last_max_cwnd = cwnd;
	return mltcp_decrease(sk, cwnd,
			      max((u32)(((u64)cwnd * b) / CUBIC_BETA_SCALE), 2U));
}

/* A timeout restarts everything: no W_max, no epoch, HyStart again. */
static void mltcp_cubic_set_state(struct sock *sk, u8 new_state)
{
	if (new_state == TCP_CA_Loss) {
		cubic_reset(inet_csk_ca(sk));
		hystart_round_start(sk);
	}
}

static void mltcp_cubic_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct mltcp_cubic *ca = inet_csk_ca(sk);

	mltcp_ca_cwnd_event(sk, ev);

	if (ev == CA_EVENT_TX_START && ca->epoch_start) {
		u32 now = tcp_jiffies32;
		s32 idle = now - tcp_sk(sk)->lsndtime;

		/* t must not count the time the application was idle */
		if (idle > 0) {
			ca->epoch_start += idle;
			if (after(ca->epoch_start, now))
				ca->epoch_start = now;
			if (!ca->epoch_start)
				ca->epoch_start = 1;
		}
	}
}

static void mltcp_cubic_init(struct sock *sk)
{
	mltcp_ca_init(sk);
	cubic_reset(inet_csk_ca(sk));
	if (READ_ONCE(hystart))
		hystart_round_start(sk);
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

	if (beta <= 0 || beta >= (int)CUBIC_BETA_SCALE || bic_scale <= 0) {
		pr_err("mltcp_cubic: beta must be in (0, 1024) and bic_scale > 0\n");
		return -EINVAL;
	}
	beta_scale = 8 * (CUBIC_BETA_SCALE + beta) / 3 / (CUBIC_BETA_SCALE - beta);
	cube_rtt_scale = bic_scale * 10;
	cube_factor = div_u64(1ULL << (10 + 3 * CUBIC_HZ_SHIFT), cube_rtt_scale);
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
