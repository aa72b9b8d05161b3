/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What CUBIC's and DCTCP's shared arithmetic (mltcp_cubic_math.h,
 * mltcp_dctcp_math.h) needs beyond include/mltcp_core.h, per platform: the
 * modules (__KERNEL__), the BPF backend (__bpf__, after bpf/mltcp_glue.bpf.h)
 * and the unit tests (userspace).
 *
 *  MLTCP_CC_PARAM(x)		a parameter that may change at run time: READ_ONCE()
 *				in the module; the BPF backend's are constants
 *  MLTCP_CC_STORE(x, v)	a store a reader outside the socket lock sees
 *				(the module's get_info): WRITE_ONCE()
 *  mltcp_cc_mul_shr(a, b, s)	(a * b) >> s without overflow (BPF: the caller
 *				keeps a * b within 64 bits)
 *  mltcp_cc_us_to_jiffies(us, hz)	microseconds to jiffies, rounded up
 * The functions are __always_inline, as the rest of bpf/ is.
 */
#ifndef _MLTCP_CC_COMPAT_H
#define _MLTCP_CC_COMPAT_H

#include "mltcp_core.h"

#ifdef __KERNEL__
#include <linux/jiffies.h>

#define MLTCP_CC_PARAM(x)		READ_ONCE(x)
#define MLTCP_CC_STORE(x, v)		WRITE_ONCE(x, v)

static __always_inline u64 mltcp_cc_mul_shr(u64 a, u64 b, unsigned int s)
{
	return mul_u64_u64_shr(a, b, s);
}

/* @hz is the kernel's HZ here */
static __always_inline u32 mltcp_cc_us_to_jiffies(u32 us, u32 hz)
{
	return usecs_to_jiffies(us);
}

#else /* BPF and userspace */

#ifndef __bpf__
#include <sys/cdefs.h>	/* __always_inline, in glibc */
typedef int s32;
#endif

#define MLTCP_CC_PARAM(x)		(x)
#define MLTCP_CC_STORE(x, v)		((x) = (v))

static __always_inline u64 mltcp_cc_mul_shr(u64 a, u64 b, unsigned int s)
{
#ifdef __bpf__
	return (a * b) >> s;
#else
	return (u64)(((__uint128_t)a * b) >> s);
#endif
}

/* usecs_to_jiffies() for an HZ that divides 10^6 (100, 250, 1000) */
static __always_inline u32 mltcp_cc_us_to_jiffies(u32 us, u32 hz)
{
	return (u32)div64_u64((u64)us * hz + 999999ULL, 1000000ULL);
}

#endif /* __KERNEL__ */

/*
 * On a socket (modules and BPF only): the delayed-ACK bits of
 * icsk_ack.pending (an enum BPF reads with CO-RE) and sending an ACK now.
 */
#ifdef __KERNEL__
#define MLTCP_CC_ICSK_ACK(bit)		(bit)
#define mltcp_cc_send_ack(sk, rcv_nxt)	mltcp_send_ack(sk, rcv_nxt)
#elif defined(__bpf__)
#define MLTCP_CC_ICSK_ACK(bit)		bpf_core_enum_value(enum inet_csk_ack_state_t, bit)
#define mltcp_cc_send_ack(sk, rcv_nxt)	bpf_tcp_send_ack(tcp_sk(sk), rcv_nxt)
#endif

#endif /* _MLTCP_CC_COMPAT_H */
