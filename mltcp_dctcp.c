// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp_dctcp: DCTCP (RFC 8257) whose Reno-style additive increase is
 * scaled by MLTCP's F.
 *
 * Written from RFC 8257:
 *  - receiver (3.2): DCTCP.CE follows the CE codepoint of the last data
 *    packet; every ACK carries ECE = DCTCP.CE; when DCTCP.CE changes, a
 *    delayed ACK for the data received before the change is sent at once
 *    with the old ECE value, and the packet that changed it is ACKed at
 *    once too;
 *  - sender (3.3): per observation window (about one RTT of data) the
 *    fraction M of acked bytes that were ECE-marked updates
 *    alpha = (1 - g) * alpha + g * M with g = 1/16, and on marks cwnd is
 *    reduced once per window to cwnd * (1 - alpha / 2) (TCP's CWR state
 *    provides the once per window);
 *  - loss is handled like standard TCP: ssthresh = cwnd / 2 (3.3);
 *  - ECN is required (TCP_CONG_NEEDS_ECN); when the peer did not
 *    negotiate ECN, the socket switches to mltcp_dctcp_noecn: no ECT
 *    any more, Reno with the F-scaled increase.
 * alpha starts at 1 (RFC 8257 leaves the initial value open; 1 is the
 * conservative choice: the first marks halve cwnd like standard ECN).
 */
#include <linux/inet_diag.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <net/inet_ecn.h>
#include <net/tcp.h>

#include "mltcp.h"
#include "mltcp_compat.h"

#define DCTCP_G_SHIFT		4	/* g = 1/16 */
#define DCTCP_ALPHA_SHIFT	20	/* alpha is Q20 */
#define DCTCP_ALPHA_ONE		(1U << DCTCP_ALPHA_SHIFT)

/**
 * struct mltcp_dctcp - per-socket state
 * @ml: MLTCP state, must be first
 * @alpha: DCTCP.Alpha, Q20 (Q10 would leave alpha stuck above 15/1024)
 * @window_end: DCTCP.WindowEnd, the sequence ending the observation window
 * @bytes_acked: DCTCP.BytesAcked in this observation window
 * @bytes_marked: DCTCP.BytesMarked in this observation window
 * @prior_snd_una: snd_una after the previous ACK
 * @prior_rcv_nxt: receiver: rcv_nxt after the previous data packet
 * @ce_state: receiver: DCTCP.CE
 */
struct mltcp_dctcp {
	struct mltcp_sock ml;
	u32 alpha;
	u32 window_end;
	u32 bytes_acked;
	u32 bytes_marked;
	u32 prior_snd_una;
	u32 prior_rcv_nxt;
	u8 ce_state;
};

static bool dctcp_ecn_ok(const struct tcp_sock *tp)
{
	return tp->ecn_flags & TCP_ECN_OK;
}

static struct tcp_congestion_ops mltcp_dctcp_noecn;

static void mltcp_dctcp_init(struct sock *sk)
{
	struct mltcp_dctcp *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);

	mltcp_ca_init(sk);
	memset((char *)ca + sizeof(ca->ml), 0, sizeof(*ca) - sizeof(ca->ml));
	ca->alpha = DCTCP_ALPHA_ONE;
	ca->window_end = tp->snd_nxt;
	ca->prior_snd_una = tp->snd_una;
	ca->prior_rcv_nxt = tp->rcv_nxt;

	/*
	 * Without ECN negotiated, continue as Reno on an ops without
	 * TCP_CONG_NEEDS_ECN: TCP then stops setting ECT on this socket's
	 * packets (RFC 3168 6.1.1), which it re-enables after init for as
	 * long as the ops needs ECN.  Only an active open still waiting for
	 * its SYN-ACK (init from setsockopt) does not know the outcome yet.
	 */
	if (!dctcp_ecn_ok(tp) && sk->sk_state != TCP_SYN_SENT)
		inet_csk(sk)->icsk_ca_ops = &mltcp_dctcp_noecn;
}

/* Sender: account one ACK; update alpha at the end of each window. */
static void mltcp_dctcp_in_ack_event(struct sock *sk, u32 flags)
{
	struct mltcp_dctcp *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 acked = tp->snd_una - ca->prior_snd_una;
	u32 m;

	ca->prior_snd_una = tp->snd_una;
	ca->bytes_acked += acked;
	if (flags & CA_ACK_ECE)
		ca->bytes_marked += acked;

	if (!after(tp->snd_una, ca->window_end))
		return;

	/* M = BytesMarked / BytesAcked; alpha = (1 - g) * alpha + g * M */
	m = ca->bytes_acked ?
	    (u32)div_u64((u64)ca->bytes_marked << DCTCP_ALPHA_SHIFT,
			 ca->bytes_acked) : 0;
	ca->alpha = ca->alpha - (ca->alpha >> DCTCP_G_SHIFT) +
		    (m >> DCTCP_G_SHIFT);
	ca->window_end = tp->snd_nxt;
	ca->bytes_acked = 0;
	ca->bytes_marked = 0;
}

/*
 * Called when TCP reduces cwnd: for ECE (CWR) DCTCP's gentle reduction,
 * for loss the same value is lowered to the standard halving by
 * dctcp_react_to_loss() right after.
 */
static u32 mltcp_dctcp_ssthresh(struct sock *sk)
{
	const struct mltcp_dctcp *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 cwnd = tcp_snd_cwnd(tp);

	if (!dctcp_ecn_ok(tp))
		return mltcp_reno_ssthresh(sk);
	/* cwnd * (1 - alpha / 2) */
	return mltcp_decrease(sk, cwnd, max(cwnd - (u32)(((u64)cwnd * ca->alpha) >>
						      (DCTCP_ALPHA_SHIFT + 1)), 2U));
}

/* Loss: respond like standard TCP, cwnd / 2 of the window before it. */
static void dctcp_react_to_loss(struct sock *sk, u32 cwnd_before)
{
	struct tcp_sock *tp = tcp_sk(sk);

	tp->snd_ssthresh = min(tp->snd_ssthresh,
			       mltcp_decrease(sk, cwnd_before, max(cwnd_before >> 1, 2U)));
}

static void mltcp_dctcp_set_state(struct sock *sk, u8 new_state)
{
	/* ssthresh() ran just before for this loss; prior_cwnd is cwnd then */
	if (new_state == TCP_CA_Recovery &&
	    inet_csk(sk)->icsk_ca_state != TCP_CA_Recovery)
		dctcp_react_to_loss(sk, tcp_sk(sk)->prior_cwnd);
}

static void dctcp_set_ece(struct tcp_sock *tp, u8 ce)
{
	if (ce)
		tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
	else
		tp->ecn_flags &= ~TCP_ECN_DEMAND_CWR;
}

/* Receiver: a data packet arrived with (@ce = 1) or without CE. */
static void dctcp_ce_seen(struct sock *sk, u8 ce)
{
	struct mltcp_dctcp *ca = inet_csk_ca(sk);
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tcp_sock *tp = tcp_sk(sk);

	if (ca->ce_state != ce) {
		/*
		 * An ACK for the data before this packet is being delayed:
		 * send it now, with the ECE value of that data.
		 */
		if (icsk->icsk_ack.pending & ICSK_ACK_TIMER) {
			dctcp_set_ece(tp, ca->ce_state);
			mltcp_send_ack(sk, ca->prior_rcv_nxt);
		}
		/* and ACK this packet without delay */
		icsk->icsk_ack.pending |= ICSK_ACK_NOW;
		ca->ce_state = ce;
	}
	ca->prior_rcv_nxt = tp->rcv_nxt;
	dctcp_set_ece(tp, ce);
}

static void mltcp_dctcp_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	switch (ev) {
	case CA_EVENT_ECN_IS_CE:
		dctcp_ce_seen(sk, 1);
		break;
	case CA_EVENT_ECN_NO_CE:
		dctcp_ce_seen(sk, 0);
		break;
	case CA_EVENT_LOSS:
		/* RTO: ssthresh() just ran, cwnd is not reduced yet */
		dctcp_react_to_loss(sk, tcp_snd_cwnd(tcp_sk(sk)));
		break;
	default:
		mltcp_ca_cwnd_event(sk, ev);
		break;
	}
}

static size_t mltcp_dctcp_get_info(struct sock *sk, u32 ext, int *attr,
				   union tcp_cc_info *info)
{
	const struct mltcp_dctcp *ca = inet_csk_ca(sk);

	/* ss asks for VEGASINFO; answer that request too */
	if (!(ext & (1 << (INET_DIAG_DCTCPINFO - 1))) &&
	    !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;

	memset(&info->dctcp, 0, sizeof(info->dctcp));
	if (dctcp_ecn_ok(tcp_sk(sk))) {
		info->dctcp.dctcp_enabled = 1;
		info->dctcp.dctcp_ce_state = ca->ce_state;
		/* Q10 like the kernel's dctcp, 1024 = 1.0 */
		info->dctcp.dctcp_alpha = ca->alpha >> (DCTCP_ALPHA_SHIFT - 10);
		info->dctcp.dctcp_ab_ecn = ca->bytes_marked;
		info->dctcp.dctcp_ab_tot = ca->bytes_acked;
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
		.undo_cwnd	= tcp_reno_undo_cwnd,
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
