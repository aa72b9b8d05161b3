// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl attach CGROUP ALGO: programs attached to a cgroup v2 that put
 * every TCP connection its processes make (connect()) or accept on ALGO,
 * with bpf_setsockopt(TCP_CONGESTION): an unmodified job gets an MLTCP
 * congestion control without LD_PRELOAD and without changing the host's
 * default.  Works with either backend (the modules or the BPF struct_ops):
 * it only names the algorithm.  One instance per attached cgroup; ALGO is
 * set in .rodata before the load.
 *
 * The algorithm is chosen while the socket is still in TCP_CLOSE or
 * TCP_LISTEN, as an application's own setsockopt() before connect() or
 * listen() would: there the kernel defers the algorithm's init to the
 * connection's establishment, when ECN has been negotiated, and the SYN (or
 * a listener's SYN-ACK) asks for (accepts) ECN when the algorithm needs it
 * (mltcp_dctcp, TCP_CONG_NEEDS_ECN).
 *  - Active opens: cgroup/connect4 and cgroup/connect6, which run in
 *    connect() before the kernel leaves TCP_CLOSE.  Not cgroup/sock_create,
 *    whose programs may not call bpf_setsockopt() on 6.1, 6.12 or 6.18;
 *    and not sock_ops' TCP_CONNECT_CB, which runs in SYN_SENT: there the
 *    init runs at once, before the SYN, and DCTCP sees no ECN and gives up
 *    on it.
 *  - Listeners: sock_ops' TCP_LISTEN_CB, in TCP_LISTEN.  The connections
 *    the listener accepts inherit the algorithm (an explicitly set one is
 *    passed on to the children) and start it at their establishment.
 *  - Connections the first two could not set (a listener that listened
 *    before the attach, a connect() in progress at the attach, a refused
 *    switch): sock_ops' ACTIVE_ESTABLISHED_CB and PASSIVE_ESTABLISHED_CB.
 *    ECN is decided there, so an algorithm that needs ECN is chosen only
 *    for a connection that negotiated it; one that did not gets NOECN_ALGO
 *    instead (mltcp_reno for mltcp_dctcp: the algorithm DCTCP itself runs
 *    without ECN).  Choosing mltcp_dctcp for such a connection from here
 *    would run its init inside this bpf_setsockopt(), where the BPF
 *    backend's switch to its no-ECN fallback is refused (EBUSY: no nested
 *    TCP_CONGESTION change).
 * A socket the kernel refused to switch keeps the algorithm it had, fully
 * initialised.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define SOL_TCP		6
#define TCP_CONGESTION	13
#define TCP_ECN_OK	1
#define CA_NAME_MAX	16

char LICENSE[] SEC("license") = "GPL";

const volatile char algo[CA_NAME_MAX] = "mltcp_cubic";
/* for a connection without ECN when ALGO needs ECN; "" when it does not */
const volatile char noecn_algo[CA_NAME_MAX] = "";

/*
 * sockets put on ALGO (before the SYN, at listen() or at establishment),
 * connections put on NOECN_ALGO because they had no ECN, and the
 * TCP_CONGESTION changes the kernel refused (algorithm gone, no memory)
 */
__u64 switched;
__u64 noecn;
__u64 failed;

static __always_inline bool name_eq(const char *a, const volatile char *b)
{
	int i;

	for (i = 0; i < CA_NAME_MAX; i++) {
		if (a[i] != b[i])
			return false;
		if (!a[i])
			return true;
	}
	return true;
}

static __always_inline void name_copy(char *dst, const volatile char *src)
{
	int i;

	for (i = 0; i < CA_NAME_MAX; i++)
		dst[i] = src[i];
}

/* Before the SYN of a TCP socket of the cgroup: the socket is in TCP_CLOSE. */
static __always_inline int set_before_syn(struct bpf_sock_addr *ctx)
{
	char name[CA_NAME_MAX];

	if (ctx->type != SOCK_STREAM || ctx->protocol != IPPROTO_TCP)
		return 1;
	name_copy(name, algo);
	if (bpf_setsockopt(ctx, SOL_TCP, TCP_CONGESTION, name, sizeof(name)))
		__sync_fetch_and_add(&failed, 1);
	else
		__sync_fetch_and_add(&switched, 1);
	return 1;	/* never refuses the connect() */
}

SEC("cgroup/connect4")
int mltcp_attach_connect4(struct bpf_sock_addr *ctx)
{
	return set_before_syn(ctx);
}

SEC("cgroup/connect6")
int mltcp_attach_connect6(struct bpf_sock_addr *ctx)
{
	return set_before_syn(ctx);
}

static __always_inline bool ecn_negotiated(struct bpf_sock_ops *skops)
{
	struct bpf_sock *sk = skops->sk;
	struct tcp_sock *tp;

	if (!sk)
		return false;
	tp = bpf_skc_to_tcp_sock(sk);
	return tp && (tp->ecn_flags & TCP_ECN_OK);
}

/* An established connection that may have missed the hooks before its SYN. */
static __always_inline void set_established(struct bpf_sock_ops *skops)
{
	char cur[CA_NAME_MAX], name[CA_NAME_MAX];
	bool without_ecn = false, known;

	/*
	 * Set before the SYN or inherited from the listener: its init runs
	 * right after this callback, with ECN decided, and picks its own
	 * no-ECN behaviour.
	 */
	known = !bpf_getsockopt(skops, SOL_TCP, TCP_CONGESTION, cur, sizeof(cur));
	if (known && name_eq(cur, algo))
		return;
	if (noecn_algo[0] && !ecn_negotiated(skops)) {
		name_copy(name, noecn_algo);
		without_ecn = true;
	} else {
		name_copy(name, algo);
	}
	if (known && name_eq(cur, (const volatile char *)name))
		return;
	if (bpf_setsockopt(skops, SOL_TCP, TCP_CONGESTION, name, sizeof(name))) {
		__sync_fetch_and_add(&failed, 1);
		return;
	}
	__sync_fetch_and_add(without_ecn ? &noecn : &switched, 1);
}

SEC("sockops")
int mltcp_attach(struct bpf_sock_ops *skops)
{
	char name[CA_NAME_MAX];

	switch (skops->op) {
	case BPF_SOCK_OPS_TCP_LISTEN_CB:
		name_copy(name, algo);
		if (bpf_setsockopt(skops, SOL_TCP, TCP_CONGESTION, name, sizeof(name)))
			__sync_fetch_and_add(&failed, 1);
		else
			__sync_fetch_and_add(&switched, 1);
		break;
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB:
		set_established(skops);
		break;
	default:
		break;
	}
	return 1;
}
