/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP kernel compatibility: the few kernel APIs that differ between the
 * kernels MLTCP supports (Debian 12's 6.1 up to 6.12, Debian 13's and
 * bookworm's alternative series).
 *
 * Where an API changed, Kbuild probes the kernel headers for it (see the
 * mltcp_probe calls in Kbuild) and passes MLTCP_HAVE_* macros; a version
 * number is used only for the oldest supported kernel.  A file that needs
 * one of these includes this header after the kernel headers.
 */
#ifndef _MLTCP_COMPAT_H
#define _MLTCP_COMPAT_H

#include <linux/version.h>
#include <net/tcp.h>

/*
 * The oldest kernel MLTCP is built and tested against.  Older ones miss
 * what the modules rely on (tcp_snd_cwnd(), init not re-run by
 * tcp_init_transfer() once icsk_ca_initialized is set, ...).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "MLTCP needs Linux 6.1 or later"
#endif

/**
 * mltcp_clock_ms() - TCP's millisecond clock, as a wrapping u32
 *
 * The same clock TCP takes its millisecond timestamps from (tcp_clock_ns(),
 * the monotonic clock, in ms).  Linux 6.7 replaced tcp_time_stamp_raw() by
 * tcp_clock_ms() when TCP timestamps moved to usec resolution; Kbuild
 * probes include/net/tcp.h for the older name.  Differences of two values
 * are meaningful across a wrap (u32 arithmetic).
 *
 * Return: milliseconds, truncated to 32 bits.
 */
static inline u32 mltcp_clock_ms(void)
{
#ifdef MLTCP_HAVE_TCP_TIME_STAMP_RAW
	return tcp_time_stamp_raw();
#else
	return (u32)tcp_clock_ms();
#endif
}

/**
 * mltcp_send_ack() - send an ACK for the data up to @rcv_nxt now
 * @sk: the socket
 * @rcv_nxt: the sequence number to acknowledge
 *
 * Linux 6.11 added a flags argument to __tcp_send_ack() (TCP header flags
 * OR-ed into the ACK); none are wanted here.
 */
static inline void mltcp_send_ack(struct sock *sk, u32 rcv_nxt)
{
#ifdef MLTCP_HAVE_SEND_ACK_FLAGS
	__tcp_send_ack(sk, rcv_nxt, 0);
#else
	__tcp_send_ack(sk, rcv_nxt);
#endif
}

#endif /* _MLTCP_COMPAT_H */
