// SPDX-License-Identifier: GPL-2.0
/*
 * The "sockets" iterator of the BPF backend (`mltcpctl sockets`): walks the
 * TCP sockets of the reader's network namespace and writes one struct
 * mltcp_bpf_sock_rec per socket that runs a BPF MLTCP algorithm now (its
 * "socks" entry is initialised).  A separate object so that a kernel
 * without TCP iterators still gets the algorithms; `mltcpctl bpf load`
 * gives it the algorithms' "socks" map.
 */
#include "mltcp_core.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "mltcp_bpf.h"

#define AF_INET		2
#define AF_INET6	10

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct mltcp_bpf_sock);
} socks SEC(".maps");

SEC("iter/tcp")
int mltcp_sockets(struct bpf_iter__tcp *ctx)
{
	struct sock_common *skc = ctx->sk_common;
	struct mltcp_bpf_sock_rec rec;
	const struct tcp_congestion_ops *ops;
	struct mltcp_bpf_sock *st;
	struct tcp_sock *tp;

	if (!skc)
		return 0;
	tp = bpf_skc_to_tcp_sock(skc);
	if (!tp)
		return 0;
	st = bpf_sk_storage_get(&socks, tp, NULL, 0);
	if (!st || !(((struct mltcp_sock *)st->ms)->flags & MLTCP_SF_INIT))
		return 0;
	__builtin_memset(&rec, 0, sizeof(rec));
	rec.family = skc->skc_family;
	if (rec.family == AF_INET6) {
		BPF_CORE_READ_INTO(&rec.saddr, skc, skc_v6_rcv_saddr);
		BPF_CORE_READ_INTO(&rec.daddr, skc, skc_v6_daddr);
	} else {
		BPF_CORE_READ_INTO((__u32 *)rec.saddr, skc, skc_rcv_saddr);
		BPF_CORE_READ_INTO((__u32 *)rec.daddr, skc, skc_daddr);
	}
	rec.sport = skc->skc_num;
	rec.dport = __builtin_bswap16(skc->skc_dport);
	rec.state = skc->skc_state;
	rec.cwnd = tp->snd_cwnd;
	rec.bytes_acked = tp->bytes_acked;
	ops = BPF_CORE_READ((struct inet_connection_sock *)tp, icsk_ca_ops);
	if (ops)
		bpf_core_read_str(rec.algo, sizeof(rec.algo), &ops->name);
	rec.st = *st;
	bpf_seq_write(ctx->meta->seq, &rec, sizeof(rec));
	return 0;
}
