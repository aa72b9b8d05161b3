/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp_dctcp as a BPF struct_ops: the algorithm of mltcp_dctcp.c (RFC
 * 8257, see its header comment) with the F-scaled Reno increase and the
 * decrease divided by F.  Both compile include/mltcp_dctcp_math.h (alpha,
 * the reductions, the receiver); what differs is what a BPF program
 * cannot do:
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
#include "mltcp_dctcp_math.h"

/* struct mltcp_dctcp of mltcp_dctcp.c without the MLTCP state */
struct bpf_dctcp {
	struct mltcp_dctcp_state dc;
	u8 noecn;	/* no ECN after all: plain Reno */
};

static const char mltcp_dctcp_fallback[TCP_CA_NAME_MAX] = "mltcp_reno";

static __always_inline bool dctcp_ecn_ok(const struct tcp_sock *tp)
{
	return tp->ecn_flags & TCP_ECN_OK;
}

static __always_inline struct bpf_dctcp *dctcp_bpf_ca(const struct sock *sk)
{
	return inet_csk_ca(sk);
}

SEC("struct_ops/mltcp_dctcp_init")
void BPF_PROG(mltcp_dctcp_init, struct sock *sk)
{
	struct bpf_dctcp *ca = dctcp_bpf_ca(sk);
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
	mltcp_dctcp_start(tp, &ca->dc, MLTCP_DCTCP_MAX_ALPHA);
	ca->noecn = noecn;
}

SEC("struct_ops/mltcp_dctcp_release")
void BPF_PROG(mltcp_dctcp_release, struct sock *sk)
{
	mltcp_bpf_release(sk);
}

SEC("struct_ops/mltcp_dctcp_in_ack_event")
void BPF_PROG(mltcp_dctcp_in_ack_event, struct sock *sk, u32 flags)
{
	struct bpf_dctcp *ca = dctcp_bpf_ca(sk);
	const struct tcp_sock *tp = tcp_sk(sk);

	if (!dctcp_ecn_ok(tp)) {
		ca->noecn = 1;
		return;
	}
	mltcp_dctcp_ack(tp, &ca->dc, MLTCP_DCTCP_SHIFT_G_DEFAULT);
}

SEC("struct_ops/mltcp_dctcp_ssthresh")
u32 BPF_PROG(mltcp_dctcp_ssthresh, struct sock *sk)
{
	struct bpf_dctcp *ca = dctcp_bpf_ca(sk);
	u32 cwnd = tcp_snd_cwnd(tcp_sk(sk));

	if (ca->noecn)
		return mltcp_bpf_reno_ssthresh(sk);
	return mltcp_bpf_decrease(sk, cwnd, mltcp_dctcp_ecn_cut(&ca->dc, cwnd));
}

static __always_inline void dctcp_bpf_react_to_loss(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 cwnd = tcp_snd_cwnd(tp);

	tp->snd_ssthresh = mltcp_bpf_decrease(sk, cwnd,
					      mltcp_dctcp_loss_cut(&dctcp_bpf_ca(sk)->dc, cwnd));
}

SEC("struct_ops/mltcp_dctcp_set_state")
void BPF_PROG(mltcp_dctcp_set_state, struct sock *sk, u8 new_state)
{
	if (dctcp_bpf_ca(sk)->noecn)
		return;
	if (new_state == TCP_CA_Recovery &&
	    BPF_CORE_READ_BITFIELD(inet_csk(sk), icsk_ca_state) != TCP_CA_Recovery)
		dctcp_bpf_react_to_loss(sk);
}

SEC("struct_ops/mltcp_dctcp_undo_cwnd")
u32 BPF_PROG(mltcp_dctcp_undo_cwnd, struct sock *sk)
{
	const struct bpf_dctcp *ca = dctcp_bpf_ca(sk);

	if (ca->noecn)
		return tcp_reno_undo_cwnd(sk);
	return mltcp_dctcp_undo(&ca->dc, tcp_snd_cwnd(tcp_sk(sk)));
}

SEC("struct_ops/mltcp_dctcp_cwnd_event")
void BPF_PROG(mltcp_dctcp_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	struct bpf_dctcp *ca = dctcp_bpf_ca(sk);

	if (mltcp_dctcp_ce_event(sk, &ca->dc, ev))
		return;
	if (ev != CA_EVENT_LOSS)
		mltcp_bpf_cwnd_event(sk, ev);
	else if (!ca->noecn)
		dctcp_bpf_react_to_loss(sk);
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
