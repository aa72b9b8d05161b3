// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the iteration learner, the hints and the parameters in the MLTCP core
 * (include/mltcp_core.h), compiled in userspace: idle gaps, the learned size, given
 * sizes and marks, the modes; parsing and formatting the parameters; the size of the
 * per-socket state.
 * Output is TAP with CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include "test_core.h"

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

	assert_int_equal(mltcp_on_tx_start(&ms, MB, 0, thr, thr, OVERRUN), MLTCP_EV_NONE);
	assert_int_equal(mltcp_on_tx_start(&ms, MB, 1448, 10 * thr, thr, OVERRUN), MLTCP_EV_NONE);
	assert_true(ms.mark == 0);
	assert_int_equal(mltcp_on_tx_start(&ms, MB, 0, thr + 1, thr, OVERRUN), MLTCP_EV_LEARNED);
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
	shown_size(&ms, 8 * MB);
	assert_true(ms.bytes_per_iter == 8 * MB);
	learned_iter(&ms, &acked, 2 * MB);
	assert_true(ms.bytes_per_iter == 8 * MB);

	/* a given mark: idle gaps no longer move the boundary */
	assert_int_equal(mltcp_iter_begin(&ms, acked, 0, 0), MLTCP_EV_NONE);
	assert_true(ms.flags & MLTCP_SF_MARKS_GIVEN);
	{
		u64 mark = ms.mark;

		idle_begins(&ms);
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
	ms.size_shown = 1;	/* as if an earlier iteration had shown 4 MB */
	assert_true(ms.mark == MB + MB / 2);
	/* the iteration's communication begins after its compute */
	idle_begins(&ms);
	mltcp_on_tx_start(&ms, MB + MB / 2, 0, GAP_IDLE, THRESH, OVERRUN);
	/* acking the old data does not advance this iteration, nor gets its F */
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND,
					  MB + MB / 4), ONE);
	ms.tiebreak = MLTCP_TIEBREAK_MAX;
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT,
					  MLTCP_STAGGER_MAX, NO_BOUND, MB + MB / 4), ONE);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT,
					  MLTCP_STAGGER_MAX, NO_BOUND, MB + MB / 2), 2 * ONE);
	ms.tiebreak = 0;
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
	shown_size(&hinted, 2 * MB);

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
	assert_int_equal(ms.flags, MLTCP_SF_SIZE_GIVEN | MLTCP_SF_MARKS_GIVEN);
	assert_true(ms.mark == 12345);
	assert_int_equal(ms.carry, 0);
	assert_int_equal(ms.iters, 0);
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

static void test_sock_size(void **state)
{
	(void)state;
	/* icsk_ca_priv is 104 bytes on 6.1; CUBIC adds 32 and DCTCP 25 */
	assert_true(sizeof(struct mltcp_sock) + 32 <= 104);
	assert_int_equal(sizeof(struct mltcp_sock) % 8, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_learner_converges),
		cmocka_unit_test(test_learner_ignores_outlier),
		cmocka_unit_test(test_learner_merges_tiny),
		cmocka_unit_test(test_idle_gap),
		cmocka_unit_test(test_given_overrides_learned),
		cmocka_unit_test(test_given_marks_learn_size),
		cmocka_unit_test(test_begin_excludes_unacked),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_init_keeps_hints),
		cmocka_unit_test(test_params_pack),
		cmocka_unit_test(test_parse_decimal),
		cmocka_unit_test(test_param_ranges),
		cmocka_unit_test(test_format_roundtrip),
		cmocka_unit_test(test_parse_mode),
		cmocka_unit_test(test_sock_size),
	};

	return cmocka_run_group_tests_name("mltcp_core_learn", tests, NULL, NULL);
}
