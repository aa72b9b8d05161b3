/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: a connection's tie-break and the state a connection starts
 * with.  Part of include/mltcp_core.h.
 */
#ifndef _MLTCP_TIEBREAK_H
#define _MLTCP_TIEBREAK_H

#include "mltcp_types.h"
#include "mltcp_params.h"

/**
 * mltcp_tiebreak_from_word() - map a uniform word (a hash, a random draw) to a tie-break
 * @word: a uniformly distributed 32-bit value
 *
 * Return: a tie-break uniformly distributed over [0, 1024].
 */
static inline u16 mltcp_tiebreak_from_word(u32 word)
{
	return (u16)(((u64)word * (MLTCP_TIEBREAK_MAX + 1)) >> 32);
}

/* MurmurHash3's 32-bit finaliser: every input bit moves every output bit. */
static inline u32 mltcp_mix32(u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	h ^= h >> 16;
	return h;
}

/**
 * mltcp_fold_addr6() - an IPv6 address as the 32 bits mltcp_flow_tiebreak() takes
 * @a: the address, four words in network byte order
 *
 * An IPv4-mapped address folds to its IPv4 address, so that an AF_INET6
 * socket and its AF_INET peer hash one connection alike.
 *
 * Return: the folded address.
 */
static inline u32 mltcp_fold_addr6(const u32 a[4])
{
	const u8 mapped[4] = { 0, 0, 0xff, 0xff };
	u32 mapped_word;

	__builtin_memcpy(&mapped_word, mapped, sizeof(mapped_word));
	if (!a[0] && !a[1] && a[2] == mapped_word)
		return a[3];
	return a[0] ^ mltcp_mix32(a[1] ^ mltcp_mix32(a[2] ^ mltcp_mix32(a[3])));
}

/**
 * mltcp_flow_tiebreak() - the tie-break both ends of a connection draw
 * @addr_a: one endpoint's address (IPv4, or mltcp_fold_addr6())
 * @port_a: its port, host byte order
 * @addr_b: the other endpoint's address
 * @port_b: its port
 *
 * A socket and its peer see one connection with the endpoints swapped;
 * ordered first, the endpoints hash alike at both ends.  So the two
 * directions of a connection get the same tie-break: a DDP job's
 * gradients cross each of gloo's connections both ways, and its job then
 * leads (or yields) in both directions at once instead of leading in one
 * and yielding in the other.  Connections between other endpoints (the
 * ports are ephemeral) get values spread evenly over the range.  Only
 * what the endpoints are decides it, so it is reproducible, and a peer
 * that picks its ports to get a large one gains at most the stagger.
 *
 * Return: a tie-break in [0, 1024].
 */
static inline u16 mltcp_flow_tiebreak(u32 addr_a, u16 port_a, u32 addr_b, u16 port_b)
{
	u64 a = ((u64)addr_a << 16) | port_a;
	u64 b = ((u64)addr_b << 16) | port_b;
	u64 lo = a < b ? a : b;
	u64 hi = a < b ? b : a;
	u32 h;

	h = mltcp_mix32((u32)(hi >> 32) ^ 0x9e3779b9U);
	h = mltcp_mix32((u32)hi ^ h);
	h = mltcp_mix32((u32)(lo >> 32) ^ h);
	h = mltcp_mix32((u32)lo ^ h);
	return mltcp_tiebreak_from_word(h);
}

/**
 * mltcp_sock_init() - initialise the state when the connection starts
 * @ms: socket state; zeroed when the algorithm was assigned
 * @acked: bytes_acked now
 * @flow_tiebreak: the connection's mltcp_flow_tiebreak()
 *
 * A size, iteration mode or tie-break given before the connection was
 * established is kept; everything else starts afresh, the tie-break from
 * the connection's endpoints.
 */
static inline void mltcp_sock_init(struct mltcp_sock *ms, u64 acked, u16 flow_tiebreak)
{
	u8 keep = ms->flags & (MLTCP_SF_HINTED | MLTCP_SF_TIEBREAK_GIVEN);
	u64 bpi = (keep & MLTCP_SF_SIZE_GIVEN) ? ms->bytes_per_iter : 0;
	u16 tiebreak = (keep & MLTCP_SF_TIEBREAK_GIVEN) ? ms->tiebreak : flow_tiebreak;

	__builtin_memset(ms, 0, sizeof(*ms));
	ms->flags = keep;
	ms->bytes_per_iter = bpi;
	ms->mark = acked;
	ms->tiebreak = tiebreak;
}

/**
 * mltcp_set_tiebreak() - the control plane sets a socket's tie-break
 * @ms: socket state
 * @q10: tie-break in [0, 1024]; the sockets of one job should share one
 *	value, so that the job, not each flow, gets the head start
 *
 * Return: 0 or -EINVAL (nothing changes).
 */
static inline int mltcp_set_tiebreak(struct mltcp_sock *ms, u32 q10)
{
	if (!mltcp_tiebreak_valid(q10))
		return -EINVAL;
	ms->tiebreak = (u16)q10;
	ms->flags |= MLTCP_SF_TIEBREAK_GIVEN;
	return 0;
}

#endif /* _MLTCP_TIEBREAK_H */
