// SPDX-License-Identifier: GPL-2.0
/*
 * MLTCP BPF backend: mltcp_reno, mltcp_cubic and mltcp_dctcp as BPF
 * tcp_congestion_ops (struct_ops), for kernels that cannot load the
 * modules (6.1 and later; one CO-RE object for all).  Register them with
 * `mltcpctl bpf load`; see bpf/mltcp_bpf.h for the maps.
 *
 * Registering fails with EEXIST while the mltcp modules are loaded (the
 * names are taken), and loading the modules fails while these are
 * registered.
 */
#include "mltcp_glue.bpf.h"
#include "mltcp_cubic.bpf.h"
#include "mltcp_dctcp.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* mltcp_reno: mltcp_reno.c, the kernel's Reno with F (all in the glue) */

SEC("struct_ops/mltcp_reno_init")
void BPF_PROG(mltcp_reno_init, struct sock *sk)
{
	mltcp_bpf_init(sk, MLTCP_BPF_RENO);
}

SEC("struct_ops/mltcp_reno_release")
void BPF_PROG(mltcp_reno_release, struct sock *sk)
{
	mltcp_bpf_release(sk);
}

SEC("struct_ops/mltcp_reno_ssthresh")
u32 BPF_PROG(mltcp_reno_ssthresh, struct sock *sk)
{
	return mltcp_bpf_reno_ssthresh(sk);
}

SEC("struct_ops/mltcp_reno_cong_avoid")
void BPF_PROG(mltcp_reno_cong_avoid, struct sock *sk, u32 ack, u32 acked)
{
	mltcp_bpf_reno_cong_avoid(sk, acked);
}

SEC("struct_ops/mltcp_reno_undo_cwnd")
u32 BPF_PROG(mltcp_reno_undo_cwnd, struct sock *sk)
{
	return tcp_reno_undo_cwnd(sk);
}

SEC("struct_ops/mltcp_reno_cwnd_event")
void BPF_PROG(mltcp_reno_cwnd_event, struct sock *sk, enum tcp_ca_event ev)
{
	mltcp_bpf_cwnd_event(sk, ev);
}

SEC(".struct_ops")
struct tcp_congestion_ops mltcp_reno = {
	.init		= (void *)mltcp_reno_init,
	.release	= (void *)mltcp_reno_release,
	.ssthresh	= (void *)mltcp_reno_ssthresh,
	.cong_avoid	= (void *)mltcp_reno_cong_avoid,
	.undo_cwnd	= (void *)mltcp_reno_undo_cwnd,
	.cwnd_event	= (void *)mltcp_reno_cwnd_event,
	.name		= "mltcp_reno",
};
