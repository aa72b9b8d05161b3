/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: a connection's tie-break (SipHash-2-4 under a per-boot
 * secret or an administrator's key) and the state a connection starts
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
 * struct mltcp_tiebreak_key - the secret that keys the drawn tie-break
 * @k0: SipHash's key, its first eight bytes as a little-endian word
 * @k1: its last eight bytes
 *
 * Drawn once per boot (the module's init, mltcpctl when it loads the BPF
 * backend) or from the simulator's seed, or given by an administrator so
 * that hosts draw alike; never shown to a socket.
 */
struct mltcp_tiebreak_key {
	u64 k0;
	u64 k1;
};

static inline u64 mltcp_rotl64(u64 x, unsigned int b)
{
	return (x << b) | (x >> (64 - b));
}

/* SipHash's round (SipRound) on its four words of state */
static inline void mltcp_sipround(u64 v[4])
{
	v[0] += v[1];
	v[1] = mltcp_rotl64(v[1], 13);
	v[1] ^= v[0];
	v[0] = mltcp_rotl64(v[0], 32);
	v[2] += v[3];
	v[3] = mltcp_rotl64(v[3], 16);
	v[3] ^= v[2];
	v[0] += v[3];
	v[3] = mltcp_rotl64(v[3], 21);
	v[3] ^= v[0];
	v[2] += v[1];
	v[1] = mltcp_rotl64(v[1], 17);
	v[1] ^= v[2];
	v[2] = mltcp_rotl64(v[2], 32);
}

/**
 * mltcp_siphash24() - SipHash-2-4 of a short message
 * @key: the 128-bit key
 * @m: the message's whole eight-byte blocks, each read as a little-endian word
 * @n: how many (a constant at every caller: the BPF verifier bounds the loop)
 * @tail: the message's last len % 8 bytes as a little-endian word (0 if none)
 * @len: the message's length in bytes, 8 * @n + len % 8
 *
 * As the SipHash paper (Aumasson, Bernstein, 2012) defines it: two rounds
 * a block, four to finalise; a pseudorandom function of the message under
 * the key, so its output cannot be predicted, or steered by choosing the
 * message, without the key.
 *
 * Return: the 64-bit hash.
 */
static inline u64 mltcp_siphash24(const struct mltcp_tiebreak_key *key, const u64 *m, u32 n,
				  u64 tail, u32 len)
{
	u64 v[4] = {
		key->k0 ^ 0x736f6d6570736575ULL,
		key->k1 ^ 0x646f72616e646f6dULL,
		key->k0 ^ 0x6c7967656e657261ULL,
		key->k1 ^ 0x7465646279746573ULL,
	};
	u64 b = ((u64)len << 56) | tail;
	u32 i;

	for (i = 0; i < n; i++) {
		v[3] ^= m[i];
		mltcp_sipround(v);
		mltcp_sipround(v);
		v[0] ^= m[i];
	}
	v[3] ^= b;
	mltcp_sipround(v);
	mltcp_sipround(v);
	v[0] ^= b;
	v[2] ^= 0xff;
	for (i = 0; i < 4; i++)
		mltcp_sipround(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/**
 * mltcp_flow_tiebreak() - the tie-break a connection draws
 * @key: the secret (struct mltcp_tiebreak_key)
 * @addr_a: one endpoint's address (IPv4, or mltcp_fold_addr6())
 * @port_a: its port, host byte order
 * @isn_a: the sequence number of its first data byte (its ISN + 1)
 * @addr_b: the other endpoint's address
 * @port_b: its port
 * @isn_b: the sequence number of its first data byte
 *
 * A socket and its peer see one connection with the endpoints swapped;
 * ordered first, the endpoints (with their sequence numbers) hash alike at
 * both ends, which both know all of.  So under one key (one host, the
 * simulator, hosts given the same key) the two directions of a connection
 * get the same tie-break: a DDP job's gradients cross each of gloo's
 * connections both ways, and its job then leads (or yields) in both
 * directions at once.  Keyed, the value is one that nobody without the key
 * can predict: a peer that picks its
 * ports or its initial sequence number cannot pick its draw, and a new
 * connection between the same endpoints draws afresh (the sequence numbers
 * differ).  Draws are spread evenly over the range.
 *
 * Return: a tie-break in [0, 1024].
 */
static inline u16 mltcp_flow_tiebreak(const struct mltcp_tiebreak_key *key,
				      u32 addr_a, u16 port_a, u32 isn_a,
				      u32 addr_b, u16 port_b, u32 isn_b)
{
	u64 a = ((u64)addr_a << 16) | port_a;
	u64 b = ((u64)addr_b << 16) | port_b;
	bool a_first = a < b || (a == b && isn_a <= isn_b);
	u64 m[3];

	m[0] = a_first ? a : b;
	m[1] = a_first ? b : a;
	m[2] = a_first ? ((u64)isn_a << 32) | isn_b : ((u64)isn_b << 32) | isn_a;
	return mltcp_tiebreak_from_word((u32)(mltcp_siphash24(key, m, 3, 0, 24) >> 32));
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
