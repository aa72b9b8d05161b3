/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP tracepoints (/sys/kernel/tracing/events/mltcp/):
 *
 *   mltcp_iteration  an iteration ended on a socket: its bytes, how long it
 *                    took, whether the boundary was given or learned and the
 *                    phase the socket starts the next one in
 *   mltcp_ack        one ACK's F sample in congestion avoidance and the
 *                    socket's phase; costs a patched-out branch while
 *                    disabled (static key), and everything it records is
 *                    read inside the enabled path
 *   mltcp_restart    a new iteration's first transmission restarted the
 *                    window: cwnd before and after, equal when the window
 *                    was at the initial one already; once per restart
 *   mltcp_yield      a restarted flow stopped yielding: how long it held its
 *                    initial window, whether the queue it met drained or the
 *                    bound (the iteration gap) ran out, and the RTT sample
 *                    against the path's minimum; once per yield, never while
 *                    the flow holds
 *   mltcp_gap        the learner met an idle gap (first transmission after
 *                    one, learned boundaries only): the gap, the learner's
 *                    reference and burst counts before, its reference after,
 *                    the bytes of the iteration so far and whether the gap
 *                    ended it; at most once per burst, never per ACK
 *
 * Usage: perf trace -e 'mltcp:*', or
 *   bpftrace -e 'tracepoint:mltcp:mltcp_iteration { @[args->source] = count(); }'
 * Addresses are stored as IPv6; IPv4 ones as v4-mapped (::ffff:a.b.c.d).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mltcp

#if !defined(_MLTCP_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MLTCP_TRACE_H

#include <linux/ipv6.h>
#include <linux/tracepoint.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/tcp.h>

#ifndef _MLTCP_TRACE_HELPERS
#define _MLTCP_TRACE_HELPERS
/* Local and remote address of @sk as IPv6, v4-mapped for IPv4 sockets. */
static inline void mltcp_trace_addrs(const struct sock *sk, struct in6_addr *saddr,
				     struct in6_addr *daddr)
{
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		*saddr = sk->sk_v6_rcv_saddr;
		*daddr = sk->sk_v6_daddr;
		return;
	}
#endif
	ipv6_addr_set_v4mapped(inet_sk(sk)->inet_saddr, saddr);
	ipv6_addr_set_v4mapped(inet_sk(sk)->inet_daddr, daddr);
}

/* enum mltcp_phase of @sk, read only while an event that records it is enabled */
static inline u8 mltcp_trace_phase(const struct sock *sk)
{
	const struct mltcp_sock *ms = mltcp_sk(sk);

	return mltcp_phase(ms, mltcp_get_mode(), mltcp_get_overrun(),
			   mltcp_bytes_done(tcp_sk(sk)->bytes_acked, ms->mark));
}
#endif

TRACE_DEFINE_ENUM(MLTCP_PHASE_BASE);
TRACE_DEFINE_ENUM(MLTCP_PHASE_UNEARNED);
TRACE_DEFINE_ENUM(MLTCP_PHASE_OVERRUN);
TRACE_DEFINE_ENUM(MLTCP_PHASE_RAMP);
TRACE_DEFINE_ENUM(MLTCP_PHASE_TOP);
TRACE_DEFINE_ENUM(MLTCP_PHASE_YIELD);

#define mltcp_trace_phase_name(phase)					\
	__print_symbolic(phase, { MLTCP_PHASE_BASE, "base" },		\
			 { MLTCP_PHASE_UNEARNED, "unearned" },		\
			 { MLTCP_PHASE_OVERRUN, "overrun" },		\
			 { MLTCP_PHASE_RAMP, "ramp" }, { MLTCP_PHASE_TOP, "top" }, \
			 { MLTCP_PHASE_YIELD, "yield" })

TRACE_EVENT(mltcp_iteration,

	TP_PROTO(const struct sock *sk, u64 bytes, u32 duration_ms, bool given,
		 u64 bytes_per_iter, u32 iterations),

	TP_ARGS(sk, bytes, duration_ms, given, bytes_per_iter, iterations),

	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__array(__u8, saddr, sizeof(struct in6_addr))
		__array(__u8, daddr, sizeof(struct in6_addr))
		__field(__u16, sport)
		__field(__u16, dport)
		__field(__u64, bytes)
		__field(__u64, bytes_per_iter)
		__field(__u32, duration_ms)
		__field(__u32, iterations)
		__field(bool, given)
		__field(__u8, phase)
	),

	TP_fast_assign(
		mltcp_trace_addrs(sk, (struct in6_addr *)__entry->saddr,
				  (struct in6_addr *)__entry->daddr);
		__entry->skaddr = sk;
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->bytes = bytes;
		__entry->bytes_per_iter = bytes_per_iter;
		__entry->duration_ms = duration_ms;
		__entry->iterations = iterations;
		__entry->given = given;
		__entry->phase = mltcp_trace_phase(sk);
	),

	TP_printk("src=[%pI6c]:%u dst=[%pI6c]:%u source=%s bytes=%llu duration_ms=%u bytes_per_iter=%llu iterations=%u phase=%s",
		  __entry->saddr, __entry->sport, __entry->daddr, __entry->dport,
		  __entry->given ? "given" : "learned", __entry->bytes,
		  __entry->duration_ms, __entry->bytes_per_iter, __entry->iterations,
		  mltcp_trace_phase_name(__entry->phase))
);

TRACE_EVENT(mltcp_ack,

	TP_PROTO(const struct sock *sk, const struct mltcp_sock *ms, u32 f,
		 u32 acked, u32 credit),

	TP_ARGS(sk, ms, f, acked, credit),

	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(__u64, bytes_this_iter)
		__field(__u64, bytes_per_iter)
		__field(__u32, ratio)
		__field(__u32, f)
		__field(__u32, acked)
		__field(__u32, credit)
		__field(__u32, cwnd)
		__field(__u8, phase)
	),

	TP_fast_assign(
		__entry->skaddr = sk;
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->bytes_this_iter = mltcp_bytes_done(tcp_sk(sk)->bytes_acked, ms->mark);
		__entry->bytes_per_iter = ms->bytes_per_iter;
		__entry->ratio = mltcp_ratio_q10(__entry->bytes_this_iter, ms->bytes_per_iter);
		__entry->f = f;
		__entry->acked = acked;
		__entry->credit = credit;
		__entry->cwnd = tcp_snd_cwnd(tcp_sk(sk));
		__entry->phase = mltcp_trace_phase(sk);
	),

	TP_printk("sport=%u dport=%u bytes_this_iter=%llu bytes_per_iter=%llu ratio_q10=%u f_q10=%u acked=%u credit=%u cwnd=%u phase=%s",
		  __entry->sport, __entry->dport, __entry->bytes_this_iter,
		  __entry->bytes_per_iter, __entry->ratio, __entry->f, __entry->acked,
		  __entry->credit, __entry->cwnd, mltcp_trace_phase_name(__entry->phase))
);

TRACE_EVENT(mltcp_restart,

	TP_PROTO(const struct sock *sk, u32 cwnd_before, u32 cwnd),

	TP_ARGS(sk, cwnd_before, cwnd),

	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(__u32, cwnd_before)
		__field(__u32, cwnd)
		__field(__u32, ssthresh)
	),

	TP_fast_assign(
		__entry->skaddr = sk;
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->cwnd_before = cwnd_before;
		__entry->cwnd = cwnd;
		__entry->ssthresh = tcp_sk(sk)->snd_ssthresh;
	),

	TP_printk("sport=%u dport=%u cwnd_before=%u cwnd=%u ssthresh=%u",
		  __entry->sport, __entry->dport, __entry->cwnd_before, __entry->cwnd,
		  __entry->ssthresh)
);

TRACE_EVENT(mltcp_yield,

	TP_PROTO(const struct sock *sk, u32 held_ms, bool bound, u8 backoff, u32 rtt_us,
		 u32 min_rtt_us),

	TP_ARGS(sk, held_ms, bound, backoff, rtt_us, min_rtt_us),

	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u32, held_ms)
		__field(__u32, rtt_us)
		__field(__u32, min_rtt_us)
		__field(__u32, cwnd)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(bool, bound)
		__field(__u8, backoff)
	),

	TP_fast_assign(
		__entry->skaddr = sk;
		__entry->held_ms = held_ms;
		__entry->rtt_us = rtt_us;
		__entry->min_rtt_us = min_rtt_us;
		__entry->cwnd = tcp_snd_cwnd(tcp_sk(sk));
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->bound = bound;
		__entry->backoff = backoff;
	),

	TP_printk("sport=%u dport=%u held_ms=%u end=%s rtt_us=%u min_rtt_us=%u cwnd=%u backoff=%u",
		  __entry->sport, __entry->dport, __entry->held_ms,
		  __entry->bound ? "bound" : "drained", __entry->rtt_us,
		  __entry->min_rtt_us, __entry->cwnd, __entry->backoff)
);

TRACE_EVENT(mltcp_gap,

	TP_PROTO(const struct sock *sk, u32 gap_us, u8 ref_q8, u8 bursts,
		 u8 ref_after, u64 bytes, bool ended),

	TP_ARGS(sk, gap_us, ref_q8, bursts, ref_after, bytes, ended),

	TP_STRUCT__entry(
		__field(const void *, skaddr)
		__field(__u64, bytes)
		__field(__u32, gap_us)
		__field(__u16, sport)
		__field(__u16, dport)
		__field(__u8, gap_q8)
		__field(__u8, ref_q8)
		__field(__u8, ref_after)
		__field(__u8, bursts)
		__field(bool, ended)
	),

	TP_fast_assign(
		__entry->skaddr = sk;
		__entry->bytes = bytes;
		__entry->gap_us = gap_us;
		__entry->sport = ntohs(inet_sk(sk)->inet_sport);
		__entry->dport = ntohs(inet_sk(sk)->inet_dport);
		__entry->gap_q8 = mltcp_gap_log8(gap_us);
		__entry->ref_q8 = ref_q8;
		__entry->ref_after = ref_after;
		__entry->bursts = bursts;
		__entry->ended = ended;
	),

	TP_printk("sport=%u dport=%u gap_us=%u gap_q8=%u ref_q8=%u ref_after=%u bursts=%u/%u bytes=%llu ended=%u",
		  __entry->sport, __entry->dport, __entry->gap_us, __entry->gap_q8,
		  __entry->ref_q8, __entry->ref_after, __entry->bursts & 0xf,
		  __entry->bursts >> 4, __entry->bytes, __entry->ended)
);

#endif /* _MLTCP_TRACE_H */

/* This header lives outside include/trace/events: tell define_trace.h where. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE mltcp_trace
#include <trace/define_trace.h>
