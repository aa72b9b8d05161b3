/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp_dctcp as a BPF struct_ops: the algorithm of mltcp_dctcp.c (RFC
 * 8257, see its header comment) with the F-scaled Reno increase and the
 * decrease divided by F.  Not mltcp_dctcp.c compiled twice, because it
 * relies on what a BPF program cannot do:
 *  - without ECN the module swaps the socket's icsk_ca_ops to a private,
 *    unregistered no-ECN ops and clears the socket's ECT bits; a BPF
 *    program may not write icsk_ca_ops, so at init the BPF version hands
 *    such a socket to mltcp_reno with bpf_setsockopt(TCP_CONGESTION) (the
 *    same F-scaled Reno the module's fallback runs, and TCP clears ECT on
 *    the switch): the socket then shows "mltcp_reno", not "mltcp_dctcp".
 *    The kernel refuses that switch (EBUSY) when this init runs inside
 *    another program's bpf_setsockopt(TCP_CONGESTION), which may not nest:
 *    a BPF program that chose mltcp_dctcp for a connection past its SYN
 *    without ECN.  The socket then stays on mltcp_dctcp as the Reno
 *    fallback (no ECN reaction), counted in the counters map
 *    (noecn_refused, `mltcpctl bpf status`), but keeps ECT on its packets:
 *    the kernel sets ECT after init for an algorithm that needs ECN, and a
 *    struct_ops may write neither the socket's TOS nor its ops.
 *    `mltcpctl attach` never gets there (bpf/mltcp_attach.bpf.c), nor
 *    does an application's setsockopt(), whose init runs outside BPF.
 *    When the peer refuses ECN in its SYN-ACK after init ran (congestion
 *    control set in SYN_SENT after a SYN that asked for ECN), the socket
 *    stays on mltcp_dctcp and acts as Reno (no ECN reaction), but keeps
 *    ECT on its packets;
 *  - get_info (ss's DCTCP line) is not available to BPF on 6.1;
 *  - shift_g and alpha_on_init are fixed at their defaults (4, 1024).
 */
#ifndef _MLTCP_DCTCP_BPF_H
#define _MLTCP_DCTCP_BPF_H

#include "mltcp_glue.bpf.h"

#define DCTCP_MAX_ALPHA		1024U
#define DCTCP_SHIFT_G		4U
#define DCTCP_ALPHA_ON_INIT	DCTCP_MAX_ALPHA

/* struct mltcp_dctcp of mltcp_dctcp.c without the MLTCP state */
struct bpf_dctcp {
	u32 alpha;
	u32 next_seq;
	u32 old_delivered;
	u32 old_delivered_ce;
	u32 loss_cwnd;
	u32 prior_rcv_nxt;
	u8 ce_state;
	u8 noecn;	/* no ECN after all: plain Reno */
};

static const char mltcp_dctcp_fallback[TCP_CA_NAME_MAX] = "mltcp_reno";

static __always_inline bool dctcp_ecn_ok(const struct tcp_sock *tp)
{
	return tp->ecn_flags & TCP_ECN_OK;
}

static __always_inline void dctcp_window_start(const struct tcp_sock *tp, struct bpf_dctcp *ca)
{
	ca->next_seq = tp->snd_nxt;
	ca->old_delivered = tp->delivered;
	ca->old_delivered_ce = tp->delivered_ce;
}

SEC("struct_ops/mltcp_dctcp_init")
void BPF_PROG(mltcp_dctcp_init, struct sock *sk)
{
	struct bpf_dctcp *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	int state = sk->__sk_common.skc_state;
	bool noecn = false;

	if (!dctcp_ecn_ok(tp) && state != TCP_CLOSE && state != TCP_LISTEN) {
		/* mltcp_reno's init runs inside; nothing else to do here */
		if (!bpf_setsockopt(sk, SOL_TCP, TCP_CONGESTION, (void *)mltcp_dctcp_fallback,
				    sizeof(mltcp_dctcp_fallback)))
			return;
		/* refused (see the top): the Reno fallback, on mltcp_dctcp */
		mltcp_count(MLTCP_BPF_DCTCP, MLTCP_CNT_NOECN_REFUSED, 1);
		noecn = true;
	}
	mltcp_bpf_init(sk, MLTCP_BPF_DCTCP);
	__builtin_memset(ca, 0, sizeof(*ca));
	ca->noecn = noecn;
	ca->alpha = DCTCP_ALPHA_ON_INIT;
	ca->prior_rcv_nxt = tp->rcv_nxt;
	dctcp_window_start(tp, ca);
}

SEC("struct_ops/mltcp_dctcp_release")
void BPF_PROG(mltcp_dctcp_release, struct sock *sk)
{
	mltcp_bpf_release(sk);
}

SEC("struct_ops/mltcp_dctcp_in_ack_event")
void BPF_PROG(mltcp_dctcp_in_ack_event, struct sock *sk, u32 flags)
{
	struct bpf_dctcp *ca = inet_csk_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 alpha, delivered, delivered_ce, g = DCTCP_SHIFT_G;

	if (!dctcp_ecn_ok(tp)) {
		ca->noecn = 1;
		return;
	}
	if (before(tp->snd_una, ca->next_seq))
		return;

	delivered = tp->delivered - ca->old_delivered;
	delivered_ce = tp->delivered_ce - ca->old_delivered_ce;
	alpha = ca->alpha;
	alpha -= min_not_zero(alpha, alpha >> g);
	if (delivered_ce) {
		delivered_ce = (u32)(((u64)delivered_ce << (10 - g)) / max(1U, delivered));
		alpha = min(alpha + delivered_ce, DCTCP_MAX_ALPHA);
	}
	ca->alpha = alpha;
	dctcp_window_start(tp, ca);
}

SEC("struct_ops/mltcp_dctcp_ssthresh")
u32 BPF_PROG(mltcp_dctcp_ssthresh, struct sock *sk)
{
	struct bpf_dctcp *ca = inet_csk_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tcp_sk(sk));

	if (ca->noecn)
		return mltcp_bpf_reno_ssthresh(sk);
	ca->loss_cwnd = cwnd;
	return mltcp_bpf_decrease(sk, cwnd, max(cwnd - ((cwnd * ca->alpha) >> 11), 2U));
}

static __always_inline void dctcp_react_to_loss(struct sock *sk)
{
	struct bpf_dctcp *ca = inet_csk_ca(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cwnd = tcp_snd_cwnd(tp);

	ca->loss_cwnd = cwnd;
	tp->snd_ssthresh = mltcp_bpf_decrease(sk, cwnd, max(cwnd >> 1, 2U));
}

SEC("struct_ops/mltcp_dctcp_set_state")
void BPF_PROG(mltcp_dctcp_set_state, struct sock *sk, u8 new_state)
{
	struct bpf_dctcp *ca = inet_csk_ca(sk);

	if (ca->noecn)
		return;
	if (new_state == TCP_CA_Recovery &&
	    BPF_CORE_READ_BITFIELD(inet_csk(sk), icsk_ca_state) != TCP_CA_Recovery)
		dctcp_react_to_loss(sk);
}

SEC("struct_ops/mltcp_dctcp_undo_cwnd")
u32 BPF_PROG(mltcp_dctcp_undo_cwnd, struct sock *sk)
{
	const struct bpf_dctcp *ca = inet_csk_ca(sk);

	if (ca->noecn)
		return tcp_reno_undo_cwnd(sk);
	return max(tcp_snd_cwnd(tcp_sk(sk)), ca->loss_cwnd);
}

static __always_inline void dctcp_set_ece(struct tcp_sock *tp, u8 ce)
{
	if (ce)
		tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
	else
		tp->ecn_flags &= ~TCP_ECN_DEMAND_CWR;
}

static __always_inline void dctcp_ce_seen(struct sock *sk, u8 ce)
{
	struct bpf_dctcp *ca = inet_csk_ca(sk);
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tcp_sock *tp = tcp_sk(sk);

	if (ca->ce_state != ce) {
		if (icsk->icsk_ack.pending &
		    bpf_core_enum_value(enum inet_csk_ack_state_t, ICSK_ACK_TIMER)) {
			dctcp_set_ece(tp, ca->ce_state);
			bpf_tcp_send_ack(tp, ca->prior_rcv_nxt);
		}
		icsk->icsk_ack.pending |=
			bpf_core_enum_value(enum inet_csk_ack_state_t, ICSK_ACK_NOW);
		ca->ce_state = ce;
	}
	ca->prior_rcv_nxt = tp->rcv_nxt;
	dctcp_set_ece(tp, ce);
}

SEC("struct_ops/mltcp_dctcp_cwnd_event")
void BPF_PROG(mltcp_dctcp_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	struct bpf_dctcp *ca = inet_csk_ca(sk);

	switch (ev) {
	case CA_EVENT_ECN_IS_CE:
		dctcp_ce_seen(sk, 1);
		break;
	case CA_EVENT_ECN_NO_CE:
		dctcp_ce_seen(sk, 0);
		break;
	case CA_EVENT_LOSS:
		if (!ca->noecn)
			dctcp_react_to_loss(sk);
		break;
	default:
		mltcp_bpf_cwnd_event(sk, ev);
		break;
	}
}

SEC("struct_ops/mltcp_dctcp_cong_avoid")
void BPF_PROG(mltcp_dctcp_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	mltcp_bpf_reno_cong_avoid(sk, acked);
}

SEC(".struct_ops")
struct tcp_congestion_ops mltcp_dctcp = {
	.init		= (void *)mltcp_dctcp_init,
	.release	= (void *)mltcp_dctcp_release,
	.in_ack_event	= (void *)mltcp_dctcp_in_ack_event,
	.cwnd_event	= (void *)mltcp_dctcp_cwnd_event,
	.ssthresh	= (void *)mltcp_dctcp_ssthresh,
	.cong_avoid	= (void *)mltcp_dctcp_cong_avoid,
	.undo_cwnd	= (void *)mltcp_dctcp_undo_cwnd,
	.set_state	= (void *)mltcp_dctcp_set_state,
	.flags		= TCP_CONG_NEEDS_ECN,
	.name		= "mltcp_dctcp",
};

#endif /* _MLTCP_DCTCP_BPF_H */
