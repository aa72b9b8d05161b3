/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP BPF compatibility: what include/mltcp_core.h and the BPF
 * congestion controls (bpf/) need from the kernel, for a program built
 * with clang -target bpf against a vmlinux.h that bpftool generated from
 * the build host's BTF (CO-RE: the same object loads on 6.1 and later).
 *
 * vmlinux.h already provides u8 .. u64, s64, bool, true and false; this
 * header adds the few kernel helpers the shared code uses.
 */
#ifndef _MLTCP_BPF_COMPAT_H
#define _MLTCP_BPF_COMPAT_H

#ifndef __bpf__
#error "mltcp_bpf_compat.h is for BPF programs (clang -target bpf)"
#endif

#include "vmlinux.h"

#ifndef NULL
#define NULL ((void *)0)
#endif

/* errno values the shared code returns (uapi asm-generic/errno-base.h) */
#define EINVAL		22

/* BPF has a native 64-bit unsigned division (0 for a zero divisor). */
static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define U32_MAX		0xffffffffU
#define U64_MAX		0xffffffffffffffffULL

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, v, lo), hi)
#define min_not_zero(x, y)	((x) == 0 ? (y) : ((y) == 0 ? (x) : min(x, y)))

/* Plain loads: a BPF program sees kernel memory through BTF pointers. */
#define READ_ONCE(x)	(*(volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile typeof(x) *)&(x) = (v))

/* TCP sequence-number comparisons (include/net/tcp.h) */
static inline bool before(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) < 0;
}
#define after(seq2, seq1)	before(seq1, seq2)

#endif /* _MLTCP_BPF_COMPAT_H */
