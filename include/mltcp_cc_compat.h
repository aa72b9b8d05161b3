/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What CUBIC's and DCTCP's shared arithmetic (mltcp_cubic_math.h,
 * mltcp_dctcp_math.h) needs beyond include/mltcp_core.h, per platform: the
 * modules (__KERNEL__), the BPF backend (__bpf__, after bpf/mltcp_glue.bpf.h)
 * and the unit tests (userspace).
 *
 *  MLTCP_CC_INLINE		inline; always for BPF, as the rest of bpf/ is
 *  MLTCP_CC_PARAM(x)		a parameter that may change at run time: READ_ONCE()
 *				in the module; the BPF backend's are constants
 *  MLTCP_CC_STORE(x, v)	a store a reader outside the socket lock sees
 *				(the module's get_info): WRITE_ONCE()
 *  mltcp_cc_mul_shr(a, b, s)	(a * b) >> s without overflow (BPF: the caller
 *				keeps a * b within 64 bits)
 *  mltcp_cc_us_to_jiffies(us, hz)	microseconds to jiffies, rounded up
 */
#ifndef _MLTCP_CC_COMPAT_H
#define _MLTCP_CC_COMPAT_H

#include "mltcp_core.h"

#ifdef __KERNEL__
#include <linux/jiffies.h>
#define MLTCP_CC_INLINE			static inline
#define MLTCP_CC_PARAM(x)		READ_ONCE(x)
#define MLTCP_CC_STORE(x, v)		WRITE_ONCE(x, v)
#define mltcp_cc_mul_shr(a, b, s)	mul_u64_u64_shr(a, b, s)
/* the kernel's HZ is the caller's hz */
#define mltcp_cc_us_to_jiffies(us, hz)	usecs_to_jiffies(us)
#else
#ifdef __bpf__
#define MLTCP_CC_INLINE			static __always_inline
#define mltcp_cc_mul_shr(a, b, s)	(((a) * (b)) >> (s))
#else
#include <stdint.h>
#define MLTCP_CC_INLINE			static inline
#define mltcp_cc_mul_shr(a, b, s)	((u64)(((unsigned __int128)(a) * (b)) >> (s)))
typedef int32_t s32;
#endif
#define MLTCP_CC_PARAM(x)		(x)
#define MLTCP_CC_STORE(x, v)		((x) = (v))
/* usecs_to_jiffies() for an HZ that divides 10^6 (100, 250, 1000) */
#define mltcp_cc_us_to_jiffies(us, hz)	\
	((u32)div64_u64((u64)(us) * (hz) + 999999ULL, 1000000ULL))
#endif

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
