// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp_dctcp: DCTCP (RFC 8257) whose Reno-style additive increase is
 * scaled by MLTCP's F.
 *
 * Written from RFC 8257 and the documented behaviour of Linux's dctcp, so
 * that at F = 1 it behaves like Linux's "dctcp" module:
 *  - receiver (3.2): DCTCP.CE follows the CE codepoint of the last data
 *    packet; every ACK carries ECE = DCTCP.CE; when DCTCP.CE changes, a
 *    delayed ACK for the data received before the change is sent at once
 *    with the old ECE value, and the packet that changed it is ACKed at
 *    once too;
 *  - sender (3.3): per observation window (one window of data: it ends
 *    when snd_una reaches the snd_nxt of its start) the fraction M of
 *    delivered segments that were ECE-marked (TCP's delivered and
 *    delivered_ce counters) updates alpha = (1 - g) * alpha + g * M,
 *    g = 1/2^shift_g (1/16), alpha in 1/1024 and decaying to exactly 0
 *    when no marks arrive; on marks cwnd is reduced once per window to
 *    cwnd * (1 - alpha / 2) (TCP's CWR state provides the once per
 *    window);
 *  - loss is handled like standard TCP: ssthresh = half the window at the
 *    time of the loss (a loss during an ECN reduction halves the window
 *    reached so far, not the window before the ECN cut) (3.3);
 *  - undo restores the window of the last reduction (ECN or loss);
 *  - ECN is required (TCP_CONG_NEEDS_ECN); when the connection has no ECN,
 *    the socket switches to mltcp_dctcp_noecn at once (no ECT any more,
 *    Reno with the F-scaled increase): at init when ECN was not
 *    negotiated or, in SYN_SENT, not asked for; and on the first ACK if
 *    the peer refused it in its SYN-ACK.
 * alpha starts at alpha_on_init / 1024 (default 1: the first marks halve
 * cwnd like standard ECN).  The arithmetic and the receiver are
 * include/mltcp_dctcp_math.h, shared with the BPF backend.
 */
#include <linux/inet_diag.h>
#include <linux/module.h>
#include <net/inet_ecn.h>
#include <net/tcp.h>

#include "mltcp.h"
#include "mltcp_compat.h"
#include "mltcp_dctcp_math.h"

#define DCTCP_MAX_ALPHA		MLTCP_DCTCP_MAX_ALPHA

static unsigned int shift_g __read_mostly = MLTCP_DCTCP_SHIFT_G_DEFAULT;
static unsigned int alpha_on_init __read_mostly = DCTCP_MAX_ALPHA;

static int dctcp_set_shift_g(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v > MLTCP_DCTCP_SHIFT_G_MAX)
		return -EINVAL;
	WRITE_ONCE(shift_g, v);
	return 0;
}

static int dctcp_set_alpha_on_init(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v > DCTCP_MAX_ALPHA)
		return -EINVAL;
	WRITE_ONCE(alpha_on_init, v);
	return 0;
}

static const struct kernel_param_ops dctcp_shift_g_ops = {
	.set = dctcp_set_shift_g,
	.get = param_get_uint,
};

static const struct kernel_param_ops dctcp_alpha_on_init_ops = {
	.set = dctcp_set_alpha_on_init,
	.get = param_get_uint,
};

module_param_cb(shift_g, &dctcp_shift_g_ops, &shift_g, 0644);
MODULE_PARM_DESC(shift_g, "g = 1/2^shift_g, in [0, 10] (default 4)");
module_param_cb(alpha_on_init, &dctcp_alpha_on_init_ops, &alpha_on_init, 0644);
MODULE_PARM_DESC(alpha_on_init, "Initial alpha, /1024, in [0, 1024] (default 1024)");

/**
 * struct mltcp_dctcp - per-socket state
 * @ml: MLTCP state, must be first
 * @dc: DCTCP's state
 */
struct mltcp_dctcp {
	struct mltcp_sock ml;
	struct mltcp_dctcp_state dc;
};

static struct mltcp_dctcp_state *dctcp_ca(const struct sock *sk)
{
	return &((struct mltcp_dctcp *)inet_csk_ca(sk))->dc;
}

static bool dctcp_ecn_ok(const struct tcp_sock *tp)
{
	return tp->ecn_flags & TCP_ECN_OK;
}

static struct tcp_congestion_ops mltcp_dctcp_noecn;

/* Continue without ECN: an ops without TCP_CONG_NEEDS_ECN and no ECT. */
static void dctcp_fall_back(struct sock *sk)
{
	inet_csk(sk)->icsk_ca_ops = &mltcp_dctcp_noecn;
	INET_ECN_dontxmit(sk);
}

static void mltcp_dctcp_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);

	mltcp_ca_init(sk);
	/*
	 * ECN is known to be on, or will be decided later (a socket not
	 * connected yet: setsockopt before connect() or a listener).  In
	 * SYN_SENT the SYN is gone: without ECN_OK it did not ask for ECN.
	 */
	if (!dctcp_ecn_ok(tp) && sk->sk_state != TCP_CLOSE &&
	    sk->sk_state != TCP_LISTEN) {
		mltcp_dctcp_start(tp, dctcp_ca(sk), 0);
		dctcp_fall_back(sk);
		return;
	}
	mltcp_dctcp_start(tp, dctcp_ca(sk), READ_ONCE(alpha_on_init));
}

/* Sender: at the end of each window, alpha from the window's marks. */
static void mltcp_dctcp_in_ack_event(struct sock *sk, u32 flags)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	/* SYN_SENT with ECN asked for, and the SYN-ACK refused it */
	if (unlikely(!dctcp_ecn_ok(tp))) {
		dctcp_fall_back(sk);
		return;
	}
	mltcp_dctcp_ack(tp, dctcp_ca(sk), READ_ONCE(shift_g));
}

/* Called when TCP reduces cwnd: for ECE (CWR) DCTCP's gentle reduction. */
static u32 mltcp_dctcp_ssthresh(struct sock *sk)
{
	u32 cwnd = tcp_snd_cwnd(tcp_sk(sk));

	return mltcp_decrease(sk, cwnd, mltcp_dctcp_ecn_cut(dctcp_ca(sk), cwnd));
}

/* Loss: respond like standard TCP, half of the window now. */
static void dctcp_react_to_loss(struct sock *sk)
{
	u32 cwnd = tcp_snd_cwnd(tcp_sk(sk));

	tcp_sk(sk)->snd_ssthresh = mltcp_decrease(sk, cwnd,
						  mltcp_dctcp_loss_cut(dctcp_ca(sk), cwnd));
}

static void mltcp_dctcp_set_state(struct sock *sk, u8 new_state)
{
	if (new_state == TCP_CA_Recovery &&
	    inet_csk(sk)->icsk_ca_state != TCP_CA_Recovery)
		dctcp_react_to_loss(sk);
}

static u32 mltcp_dctcp_undo_cwnd(struct sock *sk)
{
	return mltcp_dctcp_undo(dctcp_ca(sk), tcp_snd_cwnd(tcp_sk(sk)));
}

static void mltcp_dctcp_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	if (mltcp_dctcp_ce_event(sk, dctcp_ca(sk), ev))
		return;
	if (ev == CA_EVENT_LOSS)
		/* RTO: ssthresh() just ran, cwnd is not reduced yet */
		dctcp_react_to_loss(sk);
	else
		mltcp_ca_cwnd_event(sk, ev);
}

static size_t mltcp_dctcp_get_info(struct sock *sk, u32 ext, int *attr,
				   union tcp_cc_info *info)
{
	const struct mltcp_dctcp_state *ca = dctcp_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);

	/* ss asks for VEGASINFO; answer that request too */
	if (!(ext & (1 << (INET_DIAG_DCTCPINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	memset(&info->dctcp, 0, sizeof(info->dctcp));
	/* the ops in use, not the ECN flag: ss shows which one runs */
	if (READ_ONCE(inet_csk(sk)->icsk_ca_ops) != &mltcp_dctcp_noecn) {
		u32 mss = READ_ONCE(tp->mss_cache);

		info->dctcp.dctcp_enabled = 1;
		info->dctcp.dctcp_ce_state = READ_ONCE(ca->ce_state);
		info->dctcp.dctcp_alpha = READ_ONCE(ca->alpha);
		/* this window so far, in bytes */
		info->dctcp.dctcp_ab_ecn = mss * (READ_ONCE(tp->delivered_ce) -
						  READ_ONCE(ca->old_delivered_ce));
		info->dctcp.dctcp_ab_tot = mss * (READ_ONCE(tp->delivered) -
						  READ_ONCE(ca->old_delivered));
	}
	*attr = INET_DIAG_DCTCPINFO;
	return sizeof(info->dctcp);
}

/*
 * The same algorithm when the connection has no ECN: Reno with the F-scaled
 * increase.  Same name (getsockopt and ss show "mltcp_dctcp"; ss also shows
 * DCTCP's fallback mode); not registered with TCP, reached only from init.
 */
static struct tcp_congestion_ops mltcp_dctcp_noecn = {
	.release	= mltcp_ca_release,
	.cwnd_event	= mltcp_ca_cwnd_event,
	.ssthresh	= mltcp_reno_ssthresh,
	.cong_avoid	= mltcp_reno_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
	.get_info	= mltcp_dctcp_get_info,
	.owner		= THIS_MODULE,
	.name		= "mltcp_dctcp",
};

static struct mltcp_algo mltcp_dctcp_algo = {
	.alt_ops = &mltcp_dctcp_noecn,
	.ops = {
		.init		= mltcp_dctcp_init,
		.release	= mltcp_ca_release,
		.in_ack_event	= mltcp_dctcp_in_ack_event,
		.cwnd_event	= mltcp_dctcp_cwnd_event,
		.ssthresh	= mltcp_dctcp_ssthresh,
		.cong_avoid	= mltcp_reno_cong_avoid,
		.undo_cwnd	= mltcp_dctcp_undo_cwnd,
		.set_state	= mltcp_dctcp_set_state,
		.get_info	= mltcp_dctcp_get_info,
		.flags		= TCP_CONG_NEEDS_ECN,
		.owner		= THIS_MODULE,
		.name		= "mltcp_dctcp",
	},
};

MLTCP_ALGO_COUNTERS(mltcp_dctcp_algo);

static int __init mltcp_dctcp_register(void)
{
	MLTCP_CHECK_PRIV(struct mltcp_dctcp, ml);
	return mltcp_register(&mltcp_dctcp_algo);
}

static void __exit mltcp_dctcp_unregister(void)
{
	mltcp_unregister(&mltcp_dctcp_algo);
}

module_init(mltcp_dctcp_register);
module_exit(mltcp_dctcp_unregister);

MODULE_AUTHOR("MLTCP project");
MODULE_DESCRIPTION("MLTCP DCTCP: DCTCP (RFC 8257) with additive increase scaled by F(bytes_ratio)");
MODULE_LICENSE("GPL");
MODULE_VERSION(MLTCP_VERSION);
