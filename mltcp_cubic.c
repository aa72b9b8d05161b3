// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp_cubic: CUBIC (RFC 9438) whose congestion-avoidance growth is
 * scaled by MLTCP's F: every ACK's credit (segments acked) is multiplied
 * by F before it drives the cubic increase and the Reno-friendly
 * estimate, so the number of ACKs per cwnd increment shrinks by F.
 *
 * Written from RFC 9438:
 *  - W_cubic(t) = C * (t - K)^3 + W_max, C = 0.4, beta_cubic = 0.7 (4.2);
 *  - Reno-friendly region with W_est and alpha_cubic (4.3);
 *  - concave and convex regions: cwnd += (target - cwnd) / cwnd per ACK,
 *    target = W_cubic(t + RTT) clamped to [cwnd, 1.5 * cwnd] (4.4, 4.5);
 *  - multiplicative decrease and fast convergence (4.6, 4.7);
 *  - timeouts restart the curve (4.8); spurious congestion events are
 *    undone (4.9); t excludes application-idle time (5.8).
 * ssthresh is computed from cwnd, which RFC 9438 allows when cwnd cannot
 * grow while the flow is application limited: tcp_is_cwnd_limited()
 * gates every increase.
 *
 * Slow start is standard slow start; HyStart++ (RFC 9406) is not
 * implemented.
 *
 * Fixed point: windows in segments, time in units of 1/1024 s, C and
 * beta in Q10.  No floating point.
 */
#include <linux/math64.h>
#include <linux/module.h>
#include <net/tcp.h>

#include "mltcp.h"

#define CUBIC_BETA		717U	/* beta_cubic = 0.7, Q10 */
#define CUBIC_C			410U	/* C = 0.4 segments/s^3, Q10 */
/* alpha_cubic = 3 * (1 - beta) / (1 + beta) = 0.529, Q10 */
#define CUBIC_ALPHA		(3U * (1024U - CUBIC_BETA) * 1024U / (1024U + CUBIC_BETA))
/*
 * |t - K| is capped at 2^18 units (256 s) so that C * |t - K|^3 fits in
 * 64 bits; by then the curve is far beyond the 1.5 * cwnd clamp anyway.
 */
#define CUBIC_DT_MAX		(1ULL << 18)
/* W_max - cwnd is capped so that (diff << 40) fits in 64 bits. */
#define CUBIC_KDIFF_MAX		((1U << 23) - 1)

/**
 * struct mltcp_cubic - per-socket state
 * @ml: MLTCP state, must be first
 * @w_max: W_max, window at the last congestion event after fast
 *	convergence, segments
 * @w_max_prior: @w_max before the last congestion event, for undo
 * @cwnd_prior: cwnd at the last congestion event, segments
 * @origin: plateau of the curve in this epoch (W_max, or cwnd when the
 *	epoch starts above W_max)
 * @k: K, the time the curve takes to reach @origin, 1/1024 s
 * @epoch_start: start of the congestion-avoidance stage, ms; 0 = none
 * @w_est: Reno-friendly window estimate W_est, segments
 * @w_est_acc: fraction of a segment towards @w_est, in alpha-weighted
 *	credit (Q10); one segment is cwnd * 1024
 */
struct mltcp_cubic {
	struct mltcp_sock ml;
	u32 w_max;
	u32 w_max_prior;
	u32 cwnd_prior;
	u32 origin;
	u32 k;
	u32 epoch_start;
	u32 w_est;
	u32 w_est_acc;
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

/* K = cbrt((W_max - cwnd_epoch) / C) seconds, in 1/1024 s. */
static u32 cubic_k(u32 diff)
{
	diff = min(diff, CUBIC_KDIFF_MAX);
	/* (diff / (C / 1024)) * 1024^3 = diff * 2^40 / C */
	return cubic_cbrt(div_u64((u64)diff << 40, CUBIC_C));
}

static u32 cubic_now_ms(const struct tcp_sock *tp)
{
	return (u32)div_u64(tp->tcp_mstamp, USEC_PER_MSEC);
}

/* W_cubic at @t_ms after the epoch start, segments. */
static u32 cubic_w(const struct mltcp_cubic *ca, u32 t_ms)
{
	u64 t = div_u64((u64)t_ms * 1024, MSEC_PER_SEC);
	u64 dt, off;

	dt = t < ca->k ? ca->k - t : t - ca->k;
	dt = min(dt, CUBIC_DT_MAX);
	/* C * dt^3: Q10 constant, three factors of 1/1024 s */
	off = (CUBIC_C * dt * dt * dt) >> 40;
	if (t < ca->k)
		return off >= ca->origin ? 0 : ca->origin - (u32)off;
	return (u32)min_t(u64, (u64)ca->origin + off, U32_MAX);
}

static void cubic_epoch_start(struct tcp_sock *tp, struct mltcp_cubic *ca,
			      u32 now)
{
	u32 cwnd = tcp_snd_cwnd(tp);

	ca->epoch_start = now ?: 1;
	if (ca->w_max > cwnd) {
		ca->k = cubic_k(ca->w_max - cwnd);
		ca->origin = ca->w_max;
	} else {
		ca->k = 0;
		ca->origin = cwnd;
	}
	ca->w_est = cwnd;
	ca->w_est_acc = 0;
}

/* Congestion avoidance with @credit (F-scaled segments acked). */
static void cubic_update(struct sock *sk, u32 credit)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_cubic *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tp);
	u32 now = cubic_now_ms(tp);
	u32 alpha, t_ms, target;
	u64 acc, seg;

	if (!ca->epoch_start)
		cubic_epoch_start(tp, ca, now);

	/* W_est += alpha_cubic * segments_acked / cwnd (RFC 9438 4.3) */
	alpha = ca->w_est >= ca->cwnd_prior ? 1024U : CUBIC_ALPHA;
	acc = ca->w_est_acc + (u64)alpha * credit;
	seg = (u64)cwnd << 10;
	if (acc >= seg) {
		u64 inc = div64_u64(acc, seg);

		ca->w_est = (u32)min_t(u64, (u64)ca->w_est + inc, U32_MAX);
		acc -= inc * seg;
	}
	ca->w_est_acc = (u32)acc;

	t_ms = now - ca->epoch_start;
	if (cubic_w(ca, t_ms) < ca->w_est) {
		/* Reno-friendly region: cwnd follows W_est */
		if (ca->w_est > cwnd)
			tcp_snd_cwnd_set(tp, min(ca->w_est, tp->snd_cwnd_clamp));
		return;
	}

	/* concave or convex region: aim at W_cubic one RTT ahead */
	target = cubic_w(ca, t_ms + (tp->srtt_us >> 3) / USEC_PER_MSEC);
	if (target <= cwnd || !credit)
		return;
	target = min(target, cwnd + cwnd / 2);
	/* cwnd += (target - cwnd) / cwnd per segment of credit */
	tcp_cong_avoid_ai(tp, max(cwnd / (target - cwnd), 1U), credit);
}

static void mltcp_cubic_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	if (!mltcp_slow_start(sk, &acked))
		return;
	cubic_update(sk, mltcp_ai_credit(sk, acked));
}

/* Congestion event: multiplicative decrease, fast convergence (4.6, 4.7). */
static u32 mltcp_cubic_ssthresh(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_cubic *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tp);

	ca->epoch_start = 0;
	ca->w_max_prior = ca->w_max;
	if (cwnd < ca->w_max)
		ca->w_max = (u32)(((u64)cwnd * (1024U + CUBIC_BETA)) >> 11);
	else
		ca->w_max = cwnd;
	ca->cwnd_prior = cwnd;
	return mltcp_decrease(sk, cwnd, max((u32)(((u64)cwnd * CUBIC_BETA) >> 10), 2U));
}

/* Spurious congestion event (4.9): back to the previous curve. */
static u32 mltcp_cubic_undo_cwnd(struct sock *sk)
{
	struct mltcp_cubic *ca = inet_csk_ca(sk);

	ca->w_max = ca->w_max_prior;
	ca->epoch_start = 0;
	return tcp_reno_undo_cwnd(sk);
}

static void mltcp_cubic_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct mltcp_cubic *ca = inet_csk_ca(sk);

	mltcp_ca_cwnd_event(sk, ev);

	if (ev == CA_EVENT_TX_START && ca->epoch_start) {
		const struct tcp_sock *tp = tcp_sk(sk);
		u32 now = cubic_now_ms(tp);
		u32 idle = jiffies_to_msecs(tcp_jiffies32 - tp->lsndtime);

		/* t must not count the time the application was idle */
		if ((s32)(ca->epoch_start + idle - now) > 0)
			ca->epoch_start = now;
		else
			ca->epoch_start += idle;
		if (!ca->epoch_start)
			ca->epoch_start = 1;
	}
}

static void mltcp_cubic_init(struct sock *sk)
{
	struct mltcp_cubic *ca = inet_csk_ca(sk);

	mltcp_ca_init(sk);
	memset((char *)ca + sizeof(ca->ml), 0, sizeof(*ca) - sizeof(ca->ml));
}

static struct mltcp_algo mltcp_cubic_algo = {
	.ops = {
		.init		= mltcp_cubic_init,
		.release	= mltcp_ca_release,
		.ssthresh	= mltcp_cubic_ssthresh,
		.cong_avoid	= mltcp_cubic_cong_avoid,
		.undo_cwnd	= mltcp_cubic_undo_cwnd,
		.cwnd_event	= mltcp_cubic_cwnd_event,
		.owner		= THIS_MODULE,
		.name		= "mltcp_cubic",
	},
};

MLTCP_ALGO_COUNTERS(mltcp_cubic_algo);

static int __init mltcp_cubic_register(void)
{
	MLTCP_CHECK_PRIV(struct mltcp_cubic, ml);
	return mltcp_register(&mltcp_cubic_algo);
}

static void __exit mltcp_cubic_unregister(void)
{
	mltcp_unregister(&mltcp_cubic_algo);
}

module_init(mltcp_cubic_register);
module_exit(mltcp_cubic_unregister);

MODULE_AUTHOR("MLTCP project");
MODULE_DESCRIPTION("MLTCP CUBIC: CUBIC (RFC 9438) with growth scaled by F(bytes_ratio)");
MODULE_LICENSE("GPL");
