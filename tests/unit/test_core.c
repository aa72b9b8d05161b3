// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the MLTCP core math and state machine (include/mltcp_core.h),
 * compiled in userspace.  Output is TAP with CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "mltcp_core.h"

#define ONE	MLTCP_Q10_ONE
#define PARAMS_DEFAULT	mltcp_params_pack(MLTCP_SLOPE_DEFAULT, MLTCP_INTERCEPT_DEFAULT)
#define MB	(1000ULL * 1000ULL)
/* idle gap well above / below the default threshold */
#define GAP_IDLE	200000U
#define THRESH		mltcp_idle_threshold_us(MLTCP_IDLE_MS_DEFAULT, 1000)
/* no overrun bound: the tests of F's ramp past an iteration's size */
#define NO_BOUND	0U

static struct mltcp_sock new_sock(u64 acked)
{
	struct mltcp_sock ms;

	memset(&ms, 0xa5, sizeof(ms));	/* init must not depend on garbage */
	ms.flags = 0;
	mltcp_sock_init(&ms, acked, 0);
	return ms;
}

/* One learned iteration of @size bytes: send it, go idle, restart. */
static enum mltcp_event learned_iter(struct mltcp_sock *ms, u64 *acked, u64 size)
{
	*acked += size;
	return mltcp_on_tx_start(ms, *acked, 0, GAP_IDLE, THRESH);
}

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

static void test_ratio_from_socket(void **state)
{
	struct mltcp_sock ms = new_sock(1000);

	(void)state;
	mltcp_set_size(&ms, 4 * MB);
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
	mltcp_set_size(&ms, MB);
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
	mltcp_set_size(&ms, 32768);
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

static void test_learner_converges(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u64 acked = 0;

	(void)state;
	assert_true(ms.bytes_per_iter == 0);
	assert_int_equal(learned_iter(&ms, &acked, 2 * MB), MLTCP_EV_LEARNED);
	assert_int_equal(learned_iter(&ms, &acked, 2 * MB), MLTCP_EV_LEARNED);
	/* two iterations: size still unknown, F = 1 exactly */
	assert_true(ms.bytes_per_iter == 0);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, acked + MB),
			 ONE);
	assert_int_equal(learned_iter(&ms, &acked, 2 * MB), MLTCP_EV_LEARNED);
	assert_true(ms.bytes_per_iter == 2 * MB);
	assert_int_equal(ms.iters, 3);
	/* halfway through the next iteration */
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, acked + MB),
			 ONE + ONE / 2);
	for (int i = 0; i < 20; i++) {
		learned_iter(&ms, &acked, 2 * MB);
		assert_true(ms.bytes_per_iter == 2 * MB);
	}
}

static void test_learner_ignores_outlier(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u64 acked = 0;

	(void)state;
	for (int i = 0; i < 5; i++)
		learned_iter(&ms, &acked, 3 * MB);
	/* one long iteration (a checkpoint, say) */
	learned_iter(&ms, &acked, 40 * MB);
	assert_true(ms.bytes_per_iter == 3 * MB);
	learned_iter(&ms, &acked, 3 * MB);
	assert_true(ms.bytes_per_iter == 3 * MB);
	/* one short iteration */
	learned_iter(&ms, &acked, MB / 2);
	assert_true(ms.bytes_per_iter == 3 * MB);
	learned_iter(&ms, &acked, 3 * MB);
	assert_true(ms.bytes_per_iter == 3 * MB);
	/* a real change of size is picked up after two iterations */
	learned_iter(&ms, &acked, 5 * MB);
	assert_true(ms.bytes_per_iter == 3 * MB);
	learned_iter(&ms, &acked, 5 * MB);
	assert_true(ms.bytes_per_iter == 5 * MB);
}

static void test_learner_merges_tiny(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u64 acked = 0;

	(void)state;
	for (int i = 0; i < 3; i++)
		learned_iter(&ms, &acked, MB);
	/* a 100-byte heartbeat between two idle gaps is not an iteration */
	assert_int_equal(learned_iter(&ms, &acked, 100), MLTCP_EV_NONE);
	assert_int_equal(ms.iters, 3);
	/* its bytes roll into the next iteration */
	assert_int_equal(learned_iter(&ms, &acked, MB), MLTCP_EV_LEARNED);
	assert_true(ms.hist[MLTCP_HIST_LEN - 1] == MB + 100);
	assert_true(ms.bytes_per_iter == MB);
}

static void test_idle_gap(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u32 thr;

	(void)state;
	/* threshold: floor idle_ms, or 2 * srtt when that is larger */
	assert_int_equal(mltcp_idle_threshold_us(10, 1000), 10000);
	assert_int_equal(mltcp_idle_threshold_us(10, 30000), 60000);
	assert_int_equal(mltcp_idle_threshold_us(MLTCP_IDLE_MS_MAX, UINT32_MAX), UINT32_MAX);
	thr = mltcp_idle_threshold_us(10, 1000);

	assert_false(mltcp_is_idle_gap(0, thr - 1, thr));
	assert_false(mltcp_is_idle_gap(0, thr, thr));
	assert_true(mltcp_is_idle_gap(0, thr + 1, thr));
	/* something still in flight (e.g. an RTO retransmission): never a gap */
	assert_false(mltcp_is_idle_gap(1448, 10 * thr, thr));

	assert_int_equal(mltcp_on_tx_start(&ms, MB, 0, thr, thr), MLTCP_EV_NONE);
	assert_int_equal(mltcp_on_tx_start(&ms, MB, 1448, 10 * thr, thr), MLTCP_EV_NONE);
	assert_true(ms.mark == 0);
	assert_int_equal(mltcp_on_tx_start(&ms, MB, 0, thr + 1, thr), MLTCP_EV_LEARNED);
	assert_true(ms.mark == MB);
	assert_true(ms.hist[0] == MB);
}

static void test_given_overrides_learned(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u64 acked = 0;

	(void)state;
	for (int i = 0; i < 3; i++)
		learned_iter(&ms, &acked, 2 * MB);
	assert_true(ms.bytes_per_iter == 2 * MB);

	/* a given size wins over the learned one, and stays */
	mltcp_set_size(&ms, 8 * MB);
	assert_true(ms.bytes_per_iter == 8 * MB);
	learned_iter(&ms, &acked, 2 * MB);
	assert_true(ms.bytes_per_iter == 8 * MB);

	/* a given mark: idle gaps no longer move the boundary */
	assert_int_equal(mltcp_iter_begin(&ms, acked, 0, 0), MLTCP_EV_NONE);
	assert_true(ms.flags & MLTCP_SF_BOUNDS_GIVEN);
	{
		u64 mark = ms.mark;

		assert_int_equal(learned_iter(&ms, &acked, 4 * MB), MLTCP_EV_NONE);
		assert_true(ms.mark == mark);
	}
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, acked),
			 ONE + ONE / 2);
	/* the next mark completes a given iteration of the exact size */
	assert_int_equal(mltcp_iter_begin(&ms, acked, 0, 6 * MB), MLTCP_EV_GIVEN);
	assert_true(ms.hist[MLTCP_HIST_LEN - 1] == 4 * MB);
	assert_true(ms.bytes_per_iter == 6 * MB);

	/* size 0 drops all hints: back to the learned size and idle gaps */
	mltcp_set_size(&ms, 0);
	assert_false(ms.flags & MLTCP_SF_HINTED);
	assert_true(ms.bytes_per_iter == 2 * MB);	/* median(2, 2, 4) */
	assert_int_equal(learned_iter(&ms, &acked, 2 * MB), MLTCP_EV_LEARNED);
}

static void test_given_marks_learn_size(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u64 acked = 0;

	(void)state;
	/* marks without a size: the size is learned from the exact marks */
	mltcp_iter_begin(&ms, acked, 0, 0);
	for (int i = 0; i < 3; i++) {
		acked += 3 * MB;
		assert_int_equal(mltcp_iter_begin(&ms, acked, 0, 0), MLTCP_EV_GIVEN);
	}
	assert_true(ms.bytes_per_iter == 3 * MB);
}

static void test_begin_excludes_unacked(void **state)
{
	struct mltcp_sock ms = new_sock(0);

	(void)state;
	/* 1 MB acked, 500 KB written before the mark and still unacked */
	mltcp_iter_begin(&ms, MB, MB / 2, 4 * MB);
	assert_true(ms.mark == MB + MB / 2);
	/* the iteration's communication begins after its compute */
	mltcp_on_tx_start(&ms, MB + MB / 2, 0, GAP_IDLE, THRESH);
	/* acking the old data does not advance this iteration */
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND,
					  MB + MB / 4), ONE);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND,
					  MB + MB / 2 + 2 * MB), ONE + ONE / 2);
}

static void test_modes(void **state)
{
	struct mltcp_sock learned = new_sock(0), hinted = new_sock(0);
	u64 acked = 0;

	(void)state;
	for (int i = 0; i < 3; i++)
		learned_iter(&learned, &acked, 2 * MB);
	mltcp_set_size(&hinted, 2 * MB);

	acked += MB;
	assert_int_equal(mltcp_sock_f_q10(&learned, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, acked),
			 ONE + ONE / 2);
	assert_int_equal(mltcp_sock_f_q10(&hinted, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, MB),
			 ONE + ONE / 2);
	/* given: only the hinted socket */
	assert_int_equal(mltcp_sock_f_q10(&learned, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, NO_BOUND, acked),
			 ONE);
	assert_int_equal(mltcp_sock_f_q10(&hinted, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, NO_BOUND, MB),
			 ONE + ONE / 2);
	/* off: nobody */
	assert_int_equal(mltcp_sock_f_q10(&learned, MLTCP_MODE_OFF, PARAMS_DEFAULT, 0, NO_BOUND, acked), ONE);
	assert_int_equal(mltcp_sock_f_q10(&hinted, MLTCP_MODE_OFF, PARAMS_DEFAULT, 0, NO_BOUND, MB), ONE);
}

static void test_init_keeps_hints(void **state)
{
	struct mltcp_sock ms;

	(void)state;
	memset(&ms, 0, sizeof(ms));
	/* hints set before the connection was established */
	mltcp_set_size(&ms, 7 * MB);
	mltcp_iter_begin(&ms, 0, 0, 0);
	ms.carry = 77;
	mltcp_sock_init(&ms, 12345, 0);
	assert_true(ms.bytes_per_iter == 7 * MB);
	assert_int_equal(ms.flags, MLTCP_SF_SIZE_GIVEN | MLTCP_SF_BOUNDS_GIVEN);
	assert_true(ms.mark == 12345);
	assert_int_equal(ms.carry, 0);
	assert_int_equal(ms.iters, 0);
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

static void test_params_pack(void **state)
{
	u32 p = mltcp_params_pack(MLTCP_SLOPE_MAX, MLTCP_INTERCEPT_MAX);

	(void)state;
	assert_int_equal(mltcp_params_slope(p), MLTCP_SLOPE_MAX);
	assert_int_equal(mltcp_params_intercept(p), MLTCP_INTERCEPT_MAX);
	p = mltcp_params_pack(0, 1);
	assert_int_equal(mltcp_params_slope(p), 0);
	assert_int_equal(mltcp_params_intercept(p), 1);
}

static void test_parse_decimal(void **state)
{
	static const struct {
		const char *s;
		u32 q;
	} good[] = {
		{ "1", 1024 }, { "0.5", 512 }, { "1.25", 1280 }, { ".75", 768 },
		{ "2.", 2048 }, { "0", 0 }, { "8", 8192 }, { "1\n", 1024 },
		{ " 0.5 \n", 512 }, { "0.1", 102 }, { "0.000976562", 1 },
		{ "0.000488", 0 }, { "0.000489", 1 }, { "1.999999999", 2048 },
		{ "00001.5000", 1536 },
	};
	static const char * const bad[] = {
		"", " ", "\n", "abc", "-1", "+1", "1e3", "1.2.3", "1,5", "0x10",
		"1 2", ".", "1.0000000001", "65536", "99999999999999999999", "1.5x",
	};
	u32 q;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		q = 0xdead;
		assert_int_equal(mltcp_parse_q10(good[i].s, &q), 0);
		assert_int_equal(q, good[i].q);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		q = 0xdead;
		assert_int_equal(mltcp_parse_q10(bad[i], &q), -EINVAL);
		assert_int_equal(q, 0xdead);	/* untouched */
	}
}

static void test_param_ranges(void **state)
{
	u32 q;

	(void)state;
	assert_true(mltcp_slope_valid(0));
	assert_true(mltcp_slope_valid(8 * ONE));
	assert_int_equal(mltcp_parse_q10("8.001", &q), 0);
	assert_false(mltcp_slope_valid(q));
	assert_false(mltcp_intercept_valid(0));
	assert_true(mltcp_intercept_valid(1));
	assert_true(mltcp_intercept_valid(8 * ONE));
	assert_false(mltcp_intercept_valid(8 * ONE + 1));
	assert_false(mltcp_idle_ms_valid(0));
	assert_true(mltcp_idle_ms_valid(1));
	assert_true(mltcp_idle_ms_valid(60000));
	assert_false(mltcp_idle_ms_valid(60001));
}

static void test_format_roundtrip(void **state)
{
	char buf[24];
	u32 q;

	(void)state;
	mltcp_format_q10(1024, buf);
	assert_string_equal(buf, "1");
	mltcp_format_q10(512, buf);
	assert_string_equal(buf, "0.5");
	mltcp_format_q10(1280, buf);
	assert_string_equal(buf, "1.25");
	mltcp_format_q10(102, buf);
	assert_string_equal(buf, "0.1");
	mltcp_format_q10(0, buf);
	assert_string_equal(buf, "0");
	mltcp_format_q10(8192, buf);
	assert_string_equal(buf, "8");
	for (u32 v = 0; v <= 16 * ONE; v++) {
		int n = mltcp_format_q10(v, buf);

		assert_int_equal(n, (int)strlen(buf));
		assert_int_equal(mltcp_parse_q10(buf, &q), 0);
		assert_int_equal(q, v);
	}
}

static void test_parse_mode(void **state)
{
	(void)state;
	assert_int_equal(mltcp_parse_mode("learned"), MLTCP_MODE_LEARNED);
	assert_int_equal(mltcp_parse_mode("given\n"), MLTCP_MODE_GIVEN);
	assert_int_equal(mltcp_parse_mode("off"), MLTCP_MODE_OFF);
	assert_int_equal(mltcp_parse_mode(""), -EINVAL);
	assert_int_equal(mltcp_parse_mode("of"), -EINVAL);
	assert_int_equal(mltcp_parse_mode("offline"), -EINVAL);
	assert_int_equal(mltcp_parse_mode("Learned"), -EINVAL);
	assert_string_equal(mltcp_mode_name(MLTCP_MODE_GIVEN), "given");
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

static void test_sock_size(void **state)
{
	(void)state;
	/* icsk_ca_priv is 104 bytes on 6.1; CUBIC adds 32 and DCTCP 25 */
	assert_true(sizeof(struct mltcp_sock) + 32 <= 104);
	assert_int_equal(sizeof(struct mltcp_sock) % 8, 0);
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

	mltcp_set_size(&a, 4 * MB);
	mltcp_set_size(&b, 4 * MB);
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
	mltcp_set_size(&b, 4 * MB);
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
 * Both ends of a connection draw one tie-break (the endpoints swapped hash
 * alike), an IPv4-mapped IPv6 address hashes as its IPv4 address, and
 * connections that differ only in the ephemeral port spread over the range.
 */
static void test_flow_tiebreak(void **state)
{
	const u32 v4a = 0x0201a8c0U, v4b = 0x0301a8c0U;	/* any two words */
	u32 mapped[4] = { 0, 0, 0, v4a }, v6[4] = { 0x20010db8U, 0, 0, 1 };
	unsigned int quarter[4] = { 0 }, port;
	u16 t;

	(void)state;
	memcpy(&mapped[2], (const u8[4]){ 0, 0, 0xff, 0xff }, sizeof(mapped[2]));
	assert_int_equal(mltcp_fold_addr6(mapped), v4a);
	assert_true(mltcp_fold_addr6(v6) != 1 && mltcp_fold_addr6(v6) != 0x20010db8U);
	for (port = 32768; port < 32768 + 4096; port++) {
		t = mltcp_flow_tiebreak(v4a, (u16)port, v4b, 29500);
		assert_int_equal(t, mltcp_flow_tiebreak(v4b, 29500, v4a, (u16)port));
		assert_true(t <= MLTCP_TIEBREAK_MAX);
		quarter[t * 4 / (MLTCP_TIEBREAK_MAX + 1)]++;
	}
	/* 1024 per quarter if even; a poor mix would pile them up */
	for (port = 0; port < 4; port++)
		assert_in_range(quarter[port], 900, 1150);
	/* the same endpoints always give the same value */
	assert_int_equal(mltcp_flow_tiebreak(v4a, 40000, v4b, 29500),
			 mltcp_flow_tiebreak(v4a, 40000, v4b, 29500));
	assert_true(mltcp_flow_tiebreak(v4a, 40000, v4b, 29500) !=
		    mltcp_flow_tiebreak(v4a, 40001, v4b, 29500) ||
		    mltcp_flow_tiebreak(v4a, 40000, v4b, 29500) !=
		    mltcp_flow_tiebreak(v4a, 40002, v4b, 29500));
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
	mltcp_set_size(&ms, MB);
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

/* The window restarts at an iteration's first transmission only where F is in use. */
static void test_restart_due(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u32 thr = mltcp_idle_threshold_us(10, 0);	/* 10 ms */

	(void)state;
	/* size unknown (learned mode, first iterations): F = 1, no restart */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 50000, thr));
	mltcp_set_size(&ms, 4 * MB);
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 50000, thr));
	/* not after an idle gap: data in flight, or a gap below the threshold */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 1, 50000, thr));
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, thr, thr));
	/* slope 0 is exactly the base algorithm, whatever the intercept */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, mltcp_params_pack(0, ONE),
				       0, 50000, thr));
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, mltcp_params_pack(0, 2 * ONE),
				       0, 50000, thr));
	/* mode off; mode given for a socket without hints */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_OFF, PARAMS_DEFAULT, 0, 50000, thr));
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, 50000, thr));
	ms.flags &= (u8)~MLTCP_SF_HINTED;
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, 50000, thr));
	/* learned size (three iterations seen) */
	ms = new_sock(0);
	mltcp_record_iter(&ms, MB);
	mltcp_record_iter(&ms, MB);
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 50000, thr));
	mltcp_record_iter(&ms, MB);
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 50000, thr));
	/*
	 * Learning bucketed traffic: once a 200 ms gap ended an iteration,
	 * a 20 ms gap between buckets does not restart, a 150 ms one does.
	 */
	assert_true(mltcp_learn_gap(&ms, 200000, MB));
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 20000, thr));
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 150000, thr));
}

/*
 * The restart keeps the window's memory in ssthresh: the threshold climbs to
 * the window the last phase ended with, never falls, and stays put during a
 * reduction.
 */
static void test_restart_ssthresh(void **state)
{
	u32 ssthresh = 57;
	int phase;

	(void)state;
	/* a threshold the first losses left below the window: raised to it */
	assert_int_equal(mltcp_restart_ssthresh(57, 72, 86, true), 72);
	/* a window below the threshold (a phase ended in slow start): unchanged */
	assert_int_equal(mltcp_restart_ssthresh(120, 72, 86, true), 120);
	assert_int_equal(mltcp_restart_ssthresh(72, 72, 86, true), 72);
	/* a window over a full buffer: the climb stops at the path's BDP */
	assert_int_equal(mltcp_restart_ssthresh(60, 170, 86, true), 86);
	/* no rate sample (BDP 0) or a threshold above the BDP: unchanged */
	assert_int_equal(mltcp_restart_ssthresh(57, 72, 0, true), 57);
	assert_int_equal(mltcp_restart_ssthresh(100, 170, 86, true), 100);
	/* the initial, infinite threshold stays infinite */
	assert_int_equal(mltcp_restart_ssthresh(0x7fffffffU, 500, 86, true), 0x7fffffffU);
	/* during CWR, Recovery or Loss: untouched */
	assert_int_equal(mltcp_restart_ssthresh(57, 72, 86, false), 57);
	/*
	 * Phase after phase without a loss, each phase growing the window by
	 * a few segments in congestion avoidance: the threshold follows the
	 * window up to the BDP instead of staying at 57.
	 */
	for (phase = 0; phase < 4; phase++)
		ssthresh = mltcp_restart_ssthresh(ssthresh, ssthresh + 15, 120, true);
	assert_int_equal(ssthresh, 57 + 4 * 15);
	ssthresh = mltcp_restart_ssthresh(ssthresh, ssthresh + 15, 120, true);
	assert_int_equal(ssthresh, 120);
}

/* The BDP from a delivery-rate sample: delivered * min_rtt / interval. */
static void test_path_bdp(void **state)
{
	(void)state;
	/* 86 segments over 10.5 ms at a 10.5 ms minimum RTT */
	assert_int_equal(mltcp_path_bdp(86, 10500, 10500), 86);
	/* half the rate: half the BDP */
	assert_int_equal(mltcp_path_bdp(43, 10500, 10500), 43);
	/* a sample over two RTTs */
	assert_int_equal(mltcp_path_bdp(172, 21000, 10500), 86);
	/* no sample, no minimum RTT */
	assert_int_equal(mltcp_path_bdp(86, 0, 10500), 0);
	assert_int_equal(mltcp_path_bdp(86, 10500, ~0U), 0);
}

/* With given marks the window restarts at the first transmission after a mark only. */
static void test_restart_given(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u32 thr = mltcp_idle_threshold_us(10, 0);
	int i;

	(void)state;
	mltcp_iter_begin(&ms, 0, 0, 4 * MB);
	for (i = 0; i < 3; i++) {
		/* the iteration's first transmission, even after a short gap */
		assert_true(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0,
					      20000, thr));
		assert_true(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0,
					      20000, thr));
		assert_int_equal(mltcp_on_tx_start(&ms, (u64)i * 4 * MB, 0, 20000, thr),
				 MLTCP_EV_NONE);
		/* the next buckets of the same iteration, even after a long gap */
		assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0,
					       300000, thr));
		mltcp_on_tx_start(&ms, (u64)i * 4 * MB + MB, 0, 300000, thr);
		assert_false(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0,
					       300000, thr));
		assert_int_equal(mltcp_iter_begin(&ms, (u64)(i + 1) * 4 * MB, 0, 0),
				 MLTCP_EV_GIVEN);
	}
	/* a mark while data is in flight: no restart (not idle), still pending */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 1, 20000, thr));
	/* slope 0 ignores the mark */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, mltcp_params_pack(0, ONE), 0,
				       20000, thr));
	/* a connection (re)start forgets a pending mark */
	mltcp_sock_init(&ms, 0, 0);
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, 20000, thr));
}

/* What counts as another flow's queue: 1 ms or an eighth of the minimum RTT above it. */
static void test_queue_seen(void **state)
{
	(void)state;
	/* no sample yet, or no minimum yet */
	assert_false(mltcp_queue_seen(0, 100));
	assert_false(mltcp_queue_seen(5000, ~0U));
	/* a data-centre path (100 us): the 1 ms floor applies */
	assert_false(mltcp_queue_seen(100, 100));
	assert_false(mltcp_queue_seen(1100, 100));
	assert_true(mltcp_queue_seen(1101, 100));
	assert_true(mltcp_queue_seen(10100, 100));
	/* a 10 ms path: its 1.25 ms eighth is more than the floor */
	assert_false(mltcp_queue_seen(11250, 10000));
	assert_true(mltcp_queue_seen(11251, 10000));
	/* 3 ms of a small-queue backlog on a 10 ms path is a queue */
	assert_true(mltcp_queue_seen(13000, 10000));
	/* an 80 ms path: 10 ms */
	assert_false(mltcp_queue_seen(90000, 80000));
	assert_true(mltcp_queue_seen(90001, 80000));
	/* a sample below the recorded minimum (a new path) is no queue */
	assert_false(mltcp_queue_seen(50, 100));
}

/*
 * A restarted flow holds while samples show a queue, until the first sample
 * without one or until it has waited as long as the iteration gap; then it
 * stays released for the rest of the iteration.
 */
static void test_yield(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u32 thr = mltcp_idle_threshold_us(10, 0);

	(void)state;
	/* never without a restart */
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 0));
	/* learned: the gap reference (200 ms) bounds the hold */
	mltcp_set_size(&ms, 4 * MB);
	assert_true(mltcp_learn_gap(&ms, 200000, MB));
	mltcp_yield_begin(&ms, 200000, 0);
	assert_true(ms.flags & MLTCP_SF_YIELD);
	assert_true(mltcp_yield_holds(&ms, 10000, 100, 0));
	assert_true(mltcp_yield_holds(&ms, 10000, 100, 40));
	/*
	 * the queue drains (within a quarter of the gap, which leaves the
	 * backoff at 0): released, and a new queue does not hold it again
	 */
	assert_false(mltcp_yield_holds(&ms, 300, 100, 45));
	assert_false(ms.flags & MLTCP_SF_YIELD);
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 170));
	/* a queue that never drains: released after about the iteration gap */
	mltcp_yield_begin(&ms, 200000, 0);
	assert_true(mltcp_yield_holds(&ms, 10000, 100, 190));
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 230));
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 1));
	/* no gap reference (no learned iteration gap yet): no hold */
	ms = new_sock(0);
	mltcp_yield_begin(&ms, 200000, 0);
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 0));
	/* given marks: the restart's own gap is the reference */
	ms = new_sock(0);
	mltcp_iter_begin(&ms, 0, 0, 4 * MB);
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, 100000, thr));
	mltcp_yield_begin(&ms, 100000, 0);
	assert_true(mltcp_yield_holds(&ms, 10000, 100, 90));
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 120));
	/*
	 * given marks, the restart 500 ms after the mark (the job's compute):
	 * the bound still runs for the gap from the restart, not from the mark
	 */
	ms = new_sock(0);
	mltcp_iter_begin(&ms, 0, 0, 4 * MB);
	ms.start_ms = 1000;
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, 100000, thr));
	mltcp_yield_begin(&ms, 100000, 1500);
	assert_true(mltcp_yield_holds(&ms, 10000, 100, 1540));
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 1680));
}

/* Begins a yield after an 800 ms gap that drains at @now_ms; returns the backoff. */
static u8 yield_drains_at(struct mltcp_sock *ms, u32 now_ms)
{
	mltcp_yield_begin(ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(ms, 300, 100, now_ms), MLTCP_YIELD_DRAINED);
	return mltcp_yield_backoff(ms);
}

/*
 * The bound backs off: each yield that runs it out shortens the next ones'
 * (a half, a quarter, then a 32nd of the gap), and so does a learned one
 * that drains after a quarter of the gap; each yield that drains earlier
 * takes a step back.
 * A learned 800 ms gap, iterations starting at t = 0 ms.
 */
static void test_yield_backoff(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	int i;

	(void)state;
	mltcp_set_size(&ms, 4 * MB);
	assert_true(mltcp_learn_gap(&ms, 800000, MB));
	assert_int_equal(mltcp_yield_backoff(&ms), 0);
	/* a queue that outlasts the gap: ends on the bound, backoff 1 */
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 700), MLTCP_YIELD_HOLDS);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 850), MLTCP_YIELD_BOUND);
	assert_int_equal(mltcp_yield_backoff(&ms), 1);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 860), MLTCP_YIELD_NONE);
	/* the next yield lasts half the gap */
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 350), MLTCP_YIELD_HOLDS);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 450), MLTCP_YIELD_BOUND);
	assert_int_equal(mltcp_yield_backoff(&ms), 2);
	/* a quarter of the gap */
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 180), MLTCP_YIELD_HOLDS);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 220), MLTCP_YIELD_BOUND);
	assert_int_equal(mltcp_yield_backoff(&ms), MLTCP_BACKOFF_MAX);
	/* then a 32nd (25 ms), and no shorter however often it runs out */
	for (i = 0; i < 3; i++) {
		mltcp_yield_begin(&ms, 800000, 0);
		assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 20), MLTCP_YIELD_HOLDS);
		assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 30), MLTCP_YIELD_BOUND);
		assert_int_equal(mltcp_yield_backoff(&ms), MLTCP_BACKOFF_MAX);
	}
	/* the deepest yield still drains when it finds the link free */
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 5), MLTCP_YIELD_DRAINED);
	assert_int_equal(mltcp_yield_backoff(&ms), MLTCP_BACKOFF_MAX - 1);
	mltcp_set_yield_backoff(&ms, MLTCP_BACKOFF_MAX);
	/* yields that drain bring the bound back, one step each */
	for (i = MLTCP_BACKOFF_MAX - 1; i >= 0; i--)
		assert_int_equal(yield_drains_at(&ms, 20), i);
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 700), MLTCP_YIELD_HOLDS);
	/* the backoff lives in the flags' top bits and leaves the others alone */
	assert_true(ms.flags & MLTCP_SF_YIELD);
	mltcp_set_yield_backoff(&ms, 3);
	assert_true(ms.flags & MLTCP_SF_YIELD);
	assert_int_equal(mltcp_yield_backoff(&ms), 3);
	/* a learned yield that drains after a quarter of the gap steps up */
	mltcp_set_yield_backoff(&ms, 0);
	ms.flags &= (u8)~MLTCP_SF_YIELD;
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 240), MLTCP_YIELD_HOLDS);
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 250), MLTCP_YIELD_DRAINED);
	assert_int_equal(mltcp_yield_backoff(&ms), 1);
	assert_int_equal(yield_drains_at(&ms, 250), 2);
	/* at a quarter's bound none drains that late: the bound ends it first */
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 250), MLTCP_YIELD_BOUND);
	assert_int_equal(mltcp_yield_backoff(&ms), MLTCP_BACKOFF_MAX);
	/* out of bound on a free link is no evidence: a step back */
	mltcp_set_yield_backoff(&ms, 2);
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 250), MLTCP_YIELD_DRAINED);
	assert_int_equal(mltcp_yield_backoff(&ms), 1);
	/* one that drains within a quarter still takes a step back */
	mltcp_set_yield_backoff(&ms, 1);
	assert_int_equal(yield_drains_at(&ms, 150), 0);
	/* with given marks a late drain is not judged by its length */
	ms.flags |= MLTCP_SF_BOUNDS_GIVEN;
	ms.start_ms = 0;
	mltcp_yield_begin(&ms, 800000, 600);
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 900), MLTCP_YIELD_DRAINED);
	assert_int_equal(mltcp_yield_backoff(&ms), 0);
	/* no gap reference: the yield ends at once and the backoff stays */
	ms = new_sock(0);
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 0), MLTCP_YIELD_DRAINED);
	assert_int_equal(mltcp_yield_backoff(&ms), 0);
}

/*
 * A flow at the deepest backoff takes no turns: F at its top through the
 * whole iteration; a yield that drains steps it back to the ramp.
 */
static void test_no_turns_top_of_f(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u32 top = 2 * ONE;

	(void)state;
	mltcp_set_size(&ms, 4 * MB);
	assert_true(mltcp_learn_gap(&ms, 800000, MB));
	assert_false(mltcp_takes_no_turns(&ms));
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 0), ONE);
	/* three yields that run out their bound reach the deepest backoff */
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 850), MLTCP_YIELD_BOUND);
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 450), MLTCP_YIELD_BOUND);
	assert_false(mltcp_takes_no_turns(&ms));
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, MB),
			 ONE + ONE / 4);
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 220), MLTCP_YIELD_BOUND);
	assert_true(mltcp_takes_no_turns(&ms));
	/* the top of F from the first byte, whatever the bytes acked */
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 0), top);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, MB), top);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, mltcp_params_pack(ONE / 2, ONE),
					  0, NO_BOUND, 0), ONE + ONE / 2);
	/* a size given: mode given applies it too; off is exactly 1, slope 0 the intercept */
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, NO_BOUND, 0), top);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_OFF, PARAMS_DEFAULT, 0, NO_BOUND, 0), ONE);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, mltcp_params_pack(0, ONE), 0, NO_BOUND,
					  0), ONE);
	/* a yield that finds the link free: back to the ramp */
	mltcp_yield_begin(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 5), MLTCP_YIELD_DRAINED);
	assert_false(mltcp_takes_no_turns(&ms));
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 0), ONE);
	/* the size unknown: F = 1 at any backoff */
	ms = new_sock(0);
	mltcp_set_yield_backoff(&ms, MLTCP_BACKOFF_MAX);
	assert_true(mltcp_takes_no_turns(&ms));
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 0), ONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f_at_ratios),
		cmocka_unit_test(test_head_start),
		cmocka_unit_test(test_flow_tiebreak),
		cmocka_unit_test(test_tiebreak_init),
		cmocka_unit_test(test_restart_due),
		cmocka_unit_test(test_restart_given),
		cmocka_unit_test(test_restart_ssthresh),
		cmocka_unit_test(test_path_bdp),
		cmocka_unit_test(test_queue_seen),
		cmocka_unit_test(test_yield_backoff),
		cmocka_unit_test(test_no_turns_top_of_f),
		cmocka_unit_test(test_yield),
		cmocka_unit_test(test_ratio_from_socket),
		cmocka_unit_test(test_clamping),
		cmocka_unit_test(test_counter_wrap),
		cmocka_unit_test(test_learner_converges),
		cmocka_unit_test(test_learner_ignores_outlier),
		cmocka_unit_test(test_learner_merges_tiny),
		cmocka_unit_test(test_idle_gap),
		cmocka_unit_test(test_given_overrides_learned),
		cmocka_unit_test(test_given_marks_learn_size),
		cmocka_unit_test(test_begin_excludes_unacked),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_init_keeps_hints),
		cmocka_unit_test(test_credit_exact),
		cmocka_unit_test(test_params_pack),
		cmocka_unit_test(test_parse_decimal),
		cmocka_unit_test(test_param_ranges),
		cmocka_unit_test(test_format_roundtrip),
		cmocka_unit_test(test_parse_mode),
		cmocka_unit_test(test_soften_cut),
		cmocka_unit_test(test_sock_size),
	};

	return cmocka_run_group_tests_name("mltcp_core", tests, NULL, NULL);
}
