/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DCTCP (RFC 8257), shared by the module (mltcp_dctcp.c), the BPF backend
 * (bpf/mltcp_dctcp.bpf.h) and the unit tests: alpha per observation window
 * and the reductions, on numbers; then, for the module and BPF only, the
 * steps that read and write the socket (the sender's window, the
 * receiver's ECE).  mltcp_dctcp.c's header comment has the rules.
 *
 *   alpha = (1 - g) * alpha + g * M,  cwnd = cwnd * (1 - alpha / 2)
 *
 * with g = 1 / 2^shift_g and M the fraction of the window's delivered
 * segments that were CE-marked; alpha in 1/1024.
 */
#ifndef _MLTCP_DCTCP_MATH_H
#define _MLTCP_DCTCP_MATH_H

#include "mltcp_cc_compat.h"

#define MLTCP_DCTCP_MAX_ALPHA		1024U
#define MLTCP_DCTCP_SHIFT_G_DEFAULT	4U	/* g = 1/16 */
#define MLTCP_DCTCP_SHIFT_G_MAX		10U

/**
 * struct mltcp_dctcp_state - DCTCP's per-socket state
 * @alpha: DCTCP.Alpha, 1024 = 1
 * @next_seq: DCTCP.WindowEnd, the sequence ending the observation window
 * @old_delivered: tp->delivered at the start of the window
 * @old_delivered_ce: tp->delivered_ce at the start of the window
 * @loss_cwnd: cwnd at the last reduction, for undo
 * @prior_rcv_nxt: receiver: rcv_nxt after the previous data packet
 * @ce_state: receiver: DCTCP.CE
 */
struct mltcp_dctcp_state {
	u32 alpha;
	u32 next_seq;
	u32 old_delivered;
	u32 old_delivered_ce;
	u32 loss_cwnd;
	u32 prior_rcv_nxt;
	u8 ce_state;
};

/**
 * mltcp_dctcp_alpha_step() - alpha at the end of an observation window
 * @alpha: alpha so far, /1024
 * @g: shift_g, at most MLTCP_DCTCP_SHIFT_G_MAX
 * @delivered: segments delivered in the window
 * @delivered_ce: of them, CE-marked
 *
 * (1 - g) * alpha reaches 0 once alpha * g rounds to 0, so alpha decays to
 * exactly 0 without marks.
 *
 * Return: the new alpha, at most MLTCP_DCTCP_MAX_ALPHA.
 */
static __always_inline u32 mltcp_dctcp_alpha_step(u32 alpha, u32 g, u32 delivered, u32 delivered_ce)
{
	u32 decay = alpha >> g;

	alpha -= decay ? decay : alpha;
	if (delivered_ce) {
		/* + g * M */
		delivered_ce = (u32)div64_u64((u64)delivered_ce << (10 - g),
					      delivered ? delivered : 1);
		alpha += delivered_ce;
		if (alpha > MLTCP_DCTCP_MAX_ALPHA)
			alpha = MLTCP_DCTCP_MAX_ALPHA;
	}
	return alpha;
}

/* ECE: cwnd * (1 - alpha / 2), at least 2; remembered for undo */
static __always_inline u32 mltcp_dctcp_ecn_cut(struct mltcp_dctcp_state *ca, u32 cwnd)
{
	u32 cut = cwnd - ((cwnd * ca->alpha) >> 11);

	ca->loss_cwnd = cwnd;
	return cut > 2 ? cut : 2;
}

/* Loss: half the window now, at least 2, like standard TCP; remembered for undo */
static __always_inline u32 mltcp_dctcp_loss_cut(struct mltcp_dctcp_state *ca, u32 cwnd)
{
	u32 half = cwnd >> 1;

	ca->loss_cwnd = cwnd;
	return half > 2 ? half : 2;
}

/* Undo: the window of the last reduction (ECN or loss) */
static __always_inline u32 mltcp_dctcp_undo(const struct mltcp_dctcp_state *ca, u32 cwnd)
{
	return cwnd > ca->loss_cwnd ? cwnd : ca->loss_cwnd;
}

#if defined(__KERNEL__) || defined(__bpf__)

static __always_inline void mltcp_dctcp_window_start(const struct tcp_sock *tp,
						     struct mltcp_dctcp_state *ca)
{
	ca->next_seq = tp->snd_nxt;
	ca->old_delivered = tp->delivered;
	ca->old_delivered_ce = tp->delivered_ce;
}

/* A fresh state with alpha = @alpha, the window starting now. */
static __always_inline void mltcp_dctcp_start(const struct tcp_sock *tp,
					      struct mltcp_dctcp_state *ca, u32 alpha)
{
	__builtin_memset(ca, 0, sizeof(*ca));
	ca->alpha = alpha;
	ca->prior_rcv_nxt = tp->rcv_nxt;
	mltcp_dctcp_window_start(tp, ca);
}

/* Sender, at each ACK: at the end of a window, alpha from its marks. */
static __always_inline void mltcp_dctcp_ack(const struct tcp_sock *tp, struct mltcp_dctcp_state *ca,
					    u32 g)
{
	if (before(tp->snd_una, ca->next_seq))
		return;
	MLTCP_CC_STORE(ca->alpha,
		       mltcp_dctcp_alpha_step(ca->alpha, g, tp->delivered - ca->old_delivered,
					      tp->delivered_ce - ca->old_delivered_ce));
	mltcp_dctcp_window_start(tp, ca);
}

static __always_inline void mltcp_dctcp_set_ece(struct tcp_sock *tp, u8 ce)
{
	if (ce)
		tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
	else
		tp->ecn_flags &= ~TCP_ECN_DEMAND_CWR;
}

/**
 * mltcp_dctcp_ce_event() - the receiver's part of a congestion event
 * @sk: socket
 * @ca: its DCTCP state
 * @ev: the event
 *
 * A data packet arrived with CE (CA_EVENT_ECN_IS_CE) or without: every ACK
 * carries ECE = DCTCP.CE; when DCTCP.CE changes, an ACK being delayed for
 * the data before this packet is sent now with the old value, and this
 * packet is ACKed without delay.
 *
 * Return: true if @ev was one of the two, false to let the caller handle it.
 */
static __always_inline bool mltcp_dctcp_ce_event(struct sock *sk, struct mltcp_dctcp_state *ca,
						 enum tcp_ca_event ev)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u8 ce;

	if (ev != CA_EVENT_ECN_IS_CE && ev != CA_EVENT_ECN_NO_CE)
		return false;
	ce = ev == CA_EVENT_ECN_IS_CE;
	if (ca->ce_state != ce) {
		if (icsk->icsk_ack.pending & MLTCP_CC_ICSK_ACK(ICSK_ACK_TIMER)) {
			mltcp_dctcp_set_ece(tp, ca->ce_state);
			mltcp_cc_send_ack(sk, ca->prior_rcv_nxt);
		}
		icsk->icsk_ack.pending |= MLTCP_CC_ICSK_ACK(ICSK_ACK_NOW);
		ca->ce_state = ce;
	}
	ca->prior_rcv_nxt = tp->rcv_nxt;
	mltcp_dctcp_set_ece(tp, ce);
	return true;
}

#endif /* __KERNEL__ || __bpf__ */

#endif /* _MLTCP_DCTCP_MATH_H */
