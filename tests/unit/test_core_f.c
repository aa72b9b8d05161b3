// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of F in the MLTCP core (include/mltcp_core.h), compiled in userspace:
 * the ramp from the bytes acked, its clamping and counter wrap, the tie-break's head
 * start, the credit scaling and the softened cut.
 * Output is TAP with CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include "test_core.h"

static void test_f_at_ratios(void **state)
{
	(void)state;
	assert_int_equal(mltcp_f_q10(PARAMS_DEFAULT, 0), ONE);
	assert_int_equal(mltcp_f_q10(PARAMS_DEFAULT, ONE / 2), ONE + ONE / 2);
	assert_int_equal(mltcp_f_q10(PARAMS_DEFAULT, ONE), 2 * ONE);
	/* slope 0.5, intercept 1.25 */
	assert_int_equal(mltcp_f_q10(mltcp_params_pack(512, 1280), ONE / 2), 1280 + 256);
	/* slope 0: F is the intercept whatever the ratio */
	assert_int_equal(mltcp_f_q10(mltcp_params_pack(0, ONE), ONE), ONE);
	/* extremes fit: slope 8 + intercept 8 = 16 */
	assert_int_equal(mltcp_f_q10(mltcp_params_pack(MLTCP_SLOPE_MAX, MLTCP_INTERCEPT_MAX),
				     ONE), 16 * ONE);
}

/* The tie-break's head start: F as if further through the iteration. */
static void test_head_start(void **state)
{
	struct mltcp_sock a = new_sock(0), b = new_sock(0);
	u32 stagger = ONE / 4;

	(void)state;
	assert_int_equal(mltcp_head_start_q10(0, stagger), 0);
	assert_int_equal(mltcp_head_start_q10(ONE, stagger), ONE / 4);
	assert_int_equal(mltcp_head_start_q10(ONE / 2, stagger), ONE / 8);
	assert_int_equal(mltcp_head_start_q10(ONE, 0), 0);
	assert_int_equal(mltcp_head_start_q10(MLTCP_TIEBREAK_MAX, MLTCP_STAGGER_MAX), ONE);

	shown_size(&a, 4 * MB);
	shown_size(&b, 4 * MB);
	assert_int_equal(mltcp_set_tiebreak(&a, ONE), 0);
	assert_int_equal(mltcp_set_tiebreak(&b, 0), 0);
	/* same bytes, different F: a behaves as if 1/4 iteration ahead */
	assert_int_equal(mltcp_sock_f_q10(&a, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, stagger, NO_BOUND, 0),
			 ONE + ONE / 4);
	assert_int_equal(mltcp_sock_f_q10(&b, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, stagger, NO_BOUND, 0),
			 ONE);
	assert_int_equal(mltcp_sock_f_q10(&a, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, stagger, NO_BOUND, MB),
			 mltcp_sock_f_q10(&b, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, stagger, NO_BOUND, 2 * MB));
	/* clamped: F never exceeds slope + intercept */
	assert_int_equal(mltcp_sock_f_q10(&a, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, stagger, NO_BOUND,
					  7 * MB / 2), 2 * ONE);
	assert_int_equal(mltcp_sock_f_q10(&a, MLTCP_MODE_LEARNED, PARAMS_DEFAULT,
					  MLTCP_STAGGER_MAX, NO_BOUND, 0), 2 * ONE);
	/* slope 0 is the base algorithm, whatever the tie-break */
	assert_int_equal(mltcp_sock_f_q10(&a, MLTCP_MODE_LEARNED, mltcp_params_pack(0, ONE),
					  MLTCP_STAGGER_MAX, NO_BOUND, MB), ONE);
	/* a learned socket's tie-break (its connection's) gives the head start too */
	b = new_sock(0);
	mltcp_sock_init(&b, 0, MLTCP_TIEBREAK_MAX);
	shown_size(&b, 4 * MB);
	assert_int_equal(b.tiebreak, MLTCP_TIEBREAK_MAX);
	assert_int_equal(mltcp_sock_f_q10(&b, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, stagger, NO_BOUND, 0),
			 ONE + ONE / 4);
	/* no head start while the size is unknown, in mode off, or unhinted in given */
	a.bytes_per_iter = 0;
	assert_int_equal(mltcp_sock_f_q10(&a, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, stagger, NO_BOUND, MB),
			 ONE);
	a.bytes_per_iter = 4 * MB;
	assert_int_equal(mltcp_sock_f_q10(&a, MLTCP_MODE_OFF, PARAMS_DEFAULT, stagger, NO_BOUND, MB), ONE);
	a.flags &= (u8)~MLTCP_SF_HINTED;
	assert_int_equal(mltcp_sock_f_q10(&a, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, stagger, NO_BOUND, MB), ONE);
}

/*
 * SipHash-2-4 as its paper defines it: the paper's own example (key 00..0f,
 * the 15 bytes 00..0e; its appendix A) and the empty message under the same
 * key (the reference implementation's first test vector).
 */
static void test_siphash_vectors(void **state)
{
	const struct mltcp_tiebreak_key key = {
		0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL
	};
	const u64 m[1] = { 0x0706050403020100ULL };

	(void)state;
	assert_int_equal(mltcp_siphash24(&key, m, 1, 0x000e0d0c0b0a0908ULL, 15),
			 0xa129ca6149be45e5ULL);
	assert_int_equal(mltcp_siphash24(&key, NULL, 0, 0, 0), 0x726fdb47dd0e0e31ULL);
}

static const struct mltcp_tiebreak_key test_key = { 0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL };

/*
 * Both ends of a connection draw one tie-break under one key: each sees the
 * other's endpoint and sequence number as "remote"; also when the two
 * endpoints are alike (a socket connected to itself).  An IPv4-mapped IPv6
 * address hashes as its IPv4 address, and connections that differ only in
 * the ephemeral port spread over the range.
 */
static void test_flow_tiebreak_ends(void **state)
{
	const u32 v4a = 0x0201a8c0U, v4b = 0x0301a8c0U;	/* any two words */
	u32 mapped[4] = { 0, 0, 0, v4a }, v6[4] = { 0x20010db8U, 0, 0, 1 };
	unsigned int quarter[4] = { 0 }, port;
	u32 isn_a = 0x9e3779b9U, isn_b = 0x7f4a7c15U;
	u16 t;

	(void)state;
	memcpy(&mapped[2], (const u8[4]){ 0, 0, 0xff, 0xff }, sizeof(mapped[2]));
	assert_int_equal(mltcp_fold_addr6(mapped), v4a);
	assert_true(mltcp_fold_addr6(v6) != 1 && mltcp_fold_addr6(v6) != 0x20010db8U);
	for (port = 32768; port < 32768 + 4096; port++) {
		isn_a = isn_a * 1664525U + 1013904223U;
		isn_b ^= isn_a >> 7;
		t = mltcp_flow_tiebreak(&test_key, v4a, (u16)port, isn_a, v4b, 29500, isn_b);
		assert_int_equal(t, mltcp_flow_tiebreak(&test_key, v4b, 29500, isn_b,
							v4a, (u16)port, isn_a));
		assert_true(t <= MLTCP_TIEBREAK_MAX);
		quarter[t * 4 / (MLTCP_TIEBREAK_MAX + 1)]++;
		/* a socket connected to itself: the sequence numbers order the ends */
		assert_int_equal(mltcp_flow_tiebreak(&test_key, v4a, (u16)port, isn_a,
						     v4a, (u16)port, isn_b),
				 mltcp_flow_tiebreak(&test_key, v4a, (u16)port, isn_b,
						     v4a, (u16)port, isn_a));
	}
	/* 1024 per quarter if even; a poor mix would pile them up */
	for (port = 0; port < 4; port++)
		assert_in_range(quarter[port], 900, 1150);
	/* the same connection always gives the same value */
	assert_int_equal(mltcp_flow_tiebreak(&test_key, v4a, 40000, 1, v4b, 29500, 2),
			 mltcp_flow_tiebreak(&test_key, v4a, 40000, 1, v4b, 29500, 2));
}

/*
 * The draw is keyed: the same endpoints and sequence numbers under other
 * keys draw values spread over the whole range (a peer that knows all it
 * sends cannot tell its draw), and a peer that changes only its own
 * sequence number, or its port, draws afresh.
 */
static void test_flow_tiebreak_keyed(void **state)
{
	const u32 v4a = 0x0201a8c0U, v4b = 0x0301a8c0U;
	struct mltcp_tiebreak_key key = test_key;
	unsigned int quarter[4] = { 0 }, i, same = 0;
	u16 t0, t;

	(void)state;
	t0 = mltcp_flow_tiebreak(&key, v4a, 40000, 1000, v4b, 29500, 2000);
	for (i = 0; i < 4096; i++) {
		key.k0 = key.k0 * 6364136223846793005ULL + 1442695040888963407ULL;
		key.k1 ^= key.k0 >> 11;
		t = mltcp_flow_tiebreak(&key, v4a, 40000, 1000, v4b, 29500, 2000);
		quarter[t * 4 / (MLTCP_TIEBREAK_MAX + 1)]++;
		same += t == t0;
	}
	for (i = 0; i < 4; i++)
		assert_in_range(quarter[i], 900, 1150);
	/* 4 expected (1 in 1025); more would mean the key barely matters */
	assert_in_range(same, 0, 16);
	/* one bit of one key word, one sequence number, one port: another draw */
	key = test_key;
	key.k1 ^= 1;
	assert_int_not_equal(mltcp_flow_tiebreak(&test_key, v4a, 40000, 1000, v4b, 29500, 2000),
			     mltcp_flow_tiebreak(&key, v4a, 40000, 1000, v4b, 29500, 2000));
	assert_int_not_equal(mltcp_flow_tiebreak(&test_key, v4a, 40000, 1000, v4b, 29500, 2000),
			     mltcp_flow_tiebreak(&test_key, v4a, 40000, 1000, v4b, 29500, 2001));
	assert_int_not_equal(mltcp_flow_tiebreak(&test_key, v4a, 40000, 1000, v4b, 29500, 2000),
			     mltcp_flow_tiebreak(&test_key, v4a, 40001, 1000, v4b, 29500, 2000));
}

/* Tie-breaks from a uniform word cover [0, 1024]; given ones survive the connection start. */
static void test_tiebreak_init(void **state)
{
	struct mltcp_sock ms;

	(void)state;
	assert_int_equal(mltcp_tiebreak_from_word(0), 0);
	assert_int_equal(mltcp_tiebreak_from_word(0xffffffffU), MLTCP_TIEBREAK_MAX);
	assert_int_equal(mltcp_tiebreak_from_word(0x80000000U), 512);

	ms = new_sock(0);
	mltcp_sock_init(&ms, 10, 256);
	assert_int_equal(ms.tiebreak, 256);
	assert_false(ms.flags & MLTCP_SF_TIEBREAK_GIVEN);

	/* set before the connection started (as through setsockopt) */
	memset(&ms, 0, sizeof(ms));
	assert_int_equal(mltcp_set_tiebreak(&ms, 700), 0);
	shown_size(&ms, MB);
	mltcp_sock_init(&ms, 10, MLTCP_TIEBREAK_MAX);
	assert_int_equal(ms.tiebreak, 700);
	assert_true(ms.flags & MLTCP_SF_TIEBREAK_GIVEN);
	assert_int_equal(ms.bytes_per_iter, MB);
	/* dropping the size hint keeps the tie-break */
	mltcp_set_size(&ms, 0);
	assert_int_equal(ms.tiebreak, 700);
	assert_true(ms.flags & MLTCP_SF_TIEBREAK_GIVEN);

	/* out of range: rejected, nothing changes */
	assert_int_equal(mltcp_set_tiebreak(&ms, MLTCP_TIEBREAK_MAX + 1), -EINVAL);
	assert_int_equal(ms.tiebreak, 700);
	assert_true(mltcp_stagger_valid(0));
	assert_true(mltcp_stagger_valid(MLTCP_STAGGER_MAX));
	assert_false(mltcp_stagger_valid(MLTCP_STAGGER_MAX + 1));
}

static void test_ratio_from_socket(void **state)
{
	struct mltcp_sock ms = new_sock(1000);

	(void)state;
	shown_size(&ms, 4 * MB);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 1000), ONE);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND,
					  1000 + 2 * MB), ONE + ONE / 2);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND,
					  1000 + 4 * MB), 2 * ONE);
	assert_int_equal(mltcp_ratio_q10(1, 3), 341);
	assert_int_equal(mltcp_ratio_q10(5, 0), 0);
}

static void test_clamping(void **state)
{
	struct mltcp_sock ms = new_sock(10 * MB);

	(void)state;
	shown_size(&ms, MB);
	/* more than an iteration's worth: ratio 1, F = 2 */
	assert_int_equal(mltcp_ratio_q10(3 * MB, MB), ONE);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND,
					  10 * MB + 7 * MB), 2 * ONE);
	/* counter behind the mark (old data still being acked): ratio 0 */
	assert_true(mltcp_bytes_done(5 * MB, 10 * MB) == 0);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 9 * MB),
			 ONE);
	/* huge sizes do not overflow the Q10 shift */
	assert_int_equal(mltcp_ratio_q10(1ULL << 61, 1ULL << 62), ONE / 2);
	assert_int_equal(mltcp_ratio_q10(UINT64_MAX - 1, UINT64_MAX), ONE - 1);
}

static void test_counter_wrap(void **state)
{
	u64 mark = UINT64_MAX - 99;	/* 100 bytes before the wrap */
	struct mltcp_sock ms = new_sock(mark);
	u64 acked = mark;

	(void)state;
	assert_true(mltcp_bytes_done(400, mark) == 500);
	assert_true(mltcp_bytes_done(mark - 200, mark) == 0);
	shown_size(&ms, 32768);
	/* 16 KiB into the iteration, past the wrap */
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND,
					  mark + 16384), ONE + ONE / 2);

	/* learning across the wrap */
	mltcp_set_size(&ms, 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(learned_iter(&ms, &acked, MB), MLTCP_EV_LEARNED);
	assert_true(acked < mark);	/* it did wrap */
	assert_true(ms.bytes_per_iter == MB);

	/* given mark across the wrap: unacked bytes push the mark over it */
	ms = new_sock(mark);
	mltcp_iter_begin(&ms, mark, 300, 0);
	assert_true(ms.mark == 200);
	assert_true(mltcp_bytes_done(250, ms.mark) == 50);
}

static void test_credit_exact(void **state)
{
	u16 carry = 0;
	u64 sum = 0;

	(void)state;
	/* F = 1.5 over 1000 ACKs of one segment: exactly 1500 */
	for (int i = 0; i < 1000; i++)
		sum += mltcp_scale_credit(1, ONE + ONE / 2, &carry);
	assert_true(sum == 1500);
	assert_int_equal(carry, 0);

	/* F = 1: identity, carry stays 0 (the base algorithm exactly) */
	for (u32 a = 0; a < 100; a++) {
		assert_int_equal(mltcp_scale_credit(a, ONE, &carry), a);
		assert_int_equal(carry, 0);
	}

	/* F = 1.3 (1331/1024) over mixed ACK sizes: never off by a segment */
	sum = 0;
	carry = 0;
	for (u32 i = 0, total = 0; i < 5000; i++) {
		u32 a = 1 + i % 7;

		total += a;
		sum += mltcp_scale_credit(a, 1331, &carry);
		assert_true(sum == (u64)total * 1331 / 1024);
	}

	/* F < 1 is possible (intercept 0.5, ratio 0): credit accrues slowly */
	sum = 0;
	carry = 0;
	for (int i = 0; i < 10; i++)
		sum += mltcp_scale_credit(1, ONE / 2, &carry);
	assert_true(sum == 5);

	/* no overflow with the largest F */
	carry = 0;
	assert_int_equal(mltcp_scale_credit(UINT32_MAX, 16 * ONE, &carry), UINT32_MAX);
}

static void test_soften_cut(void **state)
{
	(void)state;
	/* F = 1: the base algorithm's decrease */
	assert_int_equal(mltcp_soften_cut(100, 50, MLTCP_Q10_ONE), 50);
	/* F = 2 halves the cut: 100 -> 75 instead of 50 */
	assert_int_equal(mltcp_soften_cut(100, 50, 2 * MLTCP_Q10_ONE), 75);
	/* F = 1.5: cut 30 becomes 20 */
	assert_int_equal(mltcp_soften_cut(100, 70, 1536), 80);
	/* nothing to soften */
	assert_int_equal(mltcp_soften_cut(2, 2, 2 * MLTCP_Q10_ONE), 2);
	assert_int_equal(mltcp_soften_cut(10, 12, 2 * MLTCP_Q10_ONE), 12);
	/* huge windows do not overflow */
	assert_int_equal(mltcp_soften_cut(0xfffffffeU, 0x7fffffffU, 2 * MLTCP_Q10_ONE),
			 0xfffffffeU - 0x3fffffffU);
}

/*
 * F scales congestion avoidance only: slow start grows by the segments acked, as the
 * base algorithm's, whatever F (docs/DESIGN.md, "Where F applies").
 */
static void test_slow_start_unscaled(void **state)
{
	const struct mltcp_globals g = {
		.fparams = PARAMS_DEFAULT, .stagger = 0, .overrun = NO_BOUND,
		.mode = MLTCP_MODE_LEARNED, .decrease = true,
	};
	struct mltcp_sock ms = new_sock(1000);
	struct mltcp_ack_in in = {
		.g = &g, .bytes_acked = 1000 + 2 * MB, .acked = 2,
		.cwnd = 10, .ssthresh = 100, .cwnd_clamp = 1000, .cwnd_limited = true,
	};
	struct mltcp_ack_out out;

	(void)state;
	shown_size(&ms, 4 * MB);	/* half way through: F = 1.5 */
	ms.gap_log8 = mltcp_gap_log8(GAP_IDLE);	/* learned: the allowance's reference */
	assert_false(mltcp_hook_ack(&ms, &in, &out));
	assert_true(out.slow_start);
	assert_int_equal(out.f, ONE + ONE / 2);
	assert_int_equal(out.cwnd, 12);

	/* across ssthresh: slow start takes 1, congestion avoidance gets 3 at F = 1.5 */
	in.acked = 4;
	in.cwnd = 99;
	assert_true(mltcp_hook_ack(&ms, &in, &out));
	assert_true(out.slow_start);
	assert_int_equal(out.cwnd, 100);
	assert_int_equal(out.ca_acked, 3);
	assert_int_equal(out.ca_credit, 4);	/* 4.5, the half carried */

	/* in congestion avoidance the credit is scaled */
	in.acked = 3;
	in.cwnd = 100;
	assert_true(mltcp_hook_ack(&ms, &in, &out));
	assert_false(out.slow_start);
	assert_int_equal(out.ca_credit, 5);	/* 4.5 and the half carried before */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f_at_ratios),
		cmocka_unit_test(test_head_start),
		cmocka_unit_test(test_siphash_vectors),
		cmocka_unit_test(test_flow_tiebreak_ends),
		cmocka_unit_test(test_flow_tiebreak_keyed),
		cmocka_unit_test(test_tiebreak_init),
		cmocka_unit_test(test_ratio_from_socket),
		cmocka_unit_test(test_clamping),
		cmocka_unit_test(test_counter_wrap),
		cmocka_unit_test(test_credit_exact),
		cmocka_unit_test(test_soften_cut),
		cmocka_unit_test(test_slow_start_unscaled),
	};

	return cmocka_run_group_tests_name("mltcp_core_f", tests, NULL, NULL);
}
