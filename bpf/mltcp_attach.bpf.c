// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl attach CGROUP ALGO: a sock_ops program attached to a cgroup v2
 * that puts every TCP connection its processes make (connect()) or accept
 * on ALGO, with bpf_setsockopt(TCP_CONGESTION): an unmodified job gets an
 * MLTCP congestion control without LD_PRELOAD and without changing the
 * host's default.  Works with either backend (the modules or the BPF
 * struct_ops): it only names the algorithm.  One instance per attached
 * cgroup; ALGO is set in .rodata before the load.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define SOL_TCP		6
#define TCP_CONGESTION	13
#define CA_NAME_MAX	16

char LICENSE[] SEC("license") = "GPL";

const volatile char algo[CA_NAME_MAX] = "mltcp_cubic";

/* connections switched, and switches the kernel refused (algorithm gone) */
__u64 switched;
__u64 failed;

SEC("sockops")
int mltcp_attach(struct bpf_sock_ops *skops)
{
	char name[CA_NAME_MAX];
	int i;

	switch (skops->op) {
	case BPF_SOCK_OPS_TCP_CONNECT_CB:		/* before the SYN: ECN asked for */
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB:	/* accepted */
		break;
	default:
		return 1;
	}
	for (i = 0; i < CA_NAME_MAX; i++)
		name[i] = algo[i];
	if (bpf_setsockopt(skops, SOL_TCP, TCP_CONGESTION, name, sizeof(name)))
		__sync_fetch_and_add(&failed, 1);
	else
		__sync_fetch_and_add(&switched, 1);
	return 1;
}
