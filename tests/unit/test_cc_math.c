// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of CUBIC's and DCTCP's shared arithmetic (include/mltcp_cubic_math.h,
 * include/mltcp_dctcp_math.h), which the modules and the BPF backend both compile:
 * against the formulas of RFC 9438 (CUBIC) and RFC 8257 (DCTCP) computed in floating
 * point, and against values of the integer form worked out by hand.  Output is TAP
 * with CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "mltcp_cubic_math.h"
#include "mltcp_dctcp_math.h"

static const struct mltcp_cubic_params P = MLTCP_CUBIC_PARAMS_DEFAULT;
/* C of the integer form: 410 / 1024 */
#define C_Q10	((double)P.cube_rtt_scale / 1024.0)
#define HZ_T	1000U

/* floor(cbrt(a)) by bisection: the reference for the bitwise root */
static u32 cbrt_ref(u64 a)
{
	u64 lo = 0, hi = 2642245;	/* cbrt(2^64 - 1) */

	while (lo < hi) {
		u64 m = (lo + hi + 1) / 2;

		if (m * m * m <= a)
			lo = m;
		else
			hi = m - 1;
	}
	return (u32)lo;
}

static void test_cbrt(void **state)
{
	static const u64 edges[] = { 0, 1, 7, 8, 26, 27, 63, 64, 999, 1000, 1ULL << 62,
				     (1ULL << 63) - 1, 1ULL << 63, ~0ULL };
	u64 x = 0x9e3779b97f4a7c15ULL;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		assert_int_equal(mltcp_cubic_cbrt(edges[i]), cbrt_ref(edges[i]));
	assert_int_equal(mltcp_cubic_cbrt(~0ULL), 2642245);
	/* cubes and their neighbours, then pseudo-random values of every size */
	for (i = 1; i < 2642245; i += 997) {
		u64 c = (u64)i * i * i;

		assert_int_equal(mltcp_cubic_cbrt(c), i);
		assert_int_equal(mltcp_cubic_cbrt(c - 1), i - 1);
	}
	for (i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		assert_int_equal(mltcp_cubic_cbrt(x >> (i % 64)), cbrt_ref(x >> (i % 64)));
	}
}

static void test_params(void **state)
{
	struct mltcp_cubic_params p = P;

	(void)state;
	/* RFC 9438 4.3: alpha = 3 (1 - beta) / (1 + beta); beta_scale is 8 / alpha */
	assert_int_equal(P.beta_scale, 15);
	assert_int_equal(P.beta_scale, (int)(8.0 / (3 * (1 - 717 / 1024.0) / (1 + 717 / 1024.0))));
	assert_int_equal(P.cube_rtt_scale, 410);
	assert_true(P.cube_factor == (1ULL << 40) / 410);
	/* the module derives the same from its defaults */
	p.cube_factor = 0;
	assert_int_equal(mltcp_cubic_params_derive(&p, MLTCP_CUBIC_BIC_SCALE_DEFAULT), 0);
	assert_true(p.cube_factor == P.cube_factor);
	assert_int_equal(p.cube_rtt_scale, P.cube_rtt_scale);
	assert_int_equal(p.beta_scale, P.beta_scale);
	p.beta = 1024;
	assert_int_equal(mltcp_cubic_params_derive(&p, 41), -EINVAL);
	p.beta = 717;
	p.beta_scale = 1;
	assert_int_equal(mltcp_cubic_params_derive(&p, 0), -EINVAL);
	assert_int_equal(p.beta_scale, 1);
}

/* An epoch after a cut from W_max = 100 to 70: K and the curve (RFC 9438 4.2). */
static void test_curve(void **state)
{
	struct mltcp_cubic_state ca;
	double k_s = cbrt(100 * (1 - 717 / 1024.0) / C_Q10);
	u32 t;

	(void)state;
	mltcp_cubic_reset(&ca);
	ca.last_max_cwnd = 100;
	mltcp_cubic_epoch_start(&ca, &P, 70, 1, 5000);
	/* K = cbrt(W_max (1 - beta) / C); with C = 0.4 exactly, 4.217 s */
	assert_true(fabs(ca.k / 1024.0 - k_s) < 1.0 / 1024);
	assert_int_equal(ca.k, 4316);
	assert_true(fabs(cbrt(100 * 0.3 / 0.4) - 4.217) < 0.001);
	assert_int_equal(ca.origin, 100);
	assert_int_equal(ca.epoch_start, 5000);
	/* W_cubic(t) = C (t - K)^3 + W_max, within one segment, before and after K */
	for (t = 0; t < 12 * 1024; t += 256) {
		double s = t / 1024.0 - ca.k / 1024.0;
		double w = C_Q10 * s * s * s + 100;

		assert_true(fabs(mltcp_cubic_target(&ca, &P, t) - (w < 0 ? 0 : w)) <= 1.0);
	}
	assert_int_equal(mltcp_cubic_target(&ca, &P, ca.k), 100);
	assert_int_equal(mltcp_cubic_target(&ca, &P, ca.k + 5 * 1024), 150);
	/* W_cubic(0) = W_max * beta, rounded up */
	assert_int_equal(mltcp_cubic_target(&ca, &P, 0), 71);
	/* far past K the curve saturates instead of wrapping */
	assert_int_equal(mltcp_cubic_target(&ca, &P, 1ULL << 40), 100 + (u32)(((1ULL << 54) * 410) >> 40));
}

/* The congestion event (RFC 9438 4.6, 4.7): beta and fast convergence. */
static void test_cut(void **state)
{
	struct mltcp_cubic_params p = P;
	struct mltcp_cubic_state ca;

	(void)state;
	mltcp_cubic_reset(&ca);
	ca.epoch_start = 1;
	assert_int_equal(mltcp_cubic_cut(&ca, &P, 100), 70);	/* 100 * 0.7 */
	assert_int_equal(ca.last_max_cwnd, 100);
	assert_int_equal(ca.epoch_start, 0);
	/* below the last W_max: W_max = cwnd (1 + beta) / 2 */
	assert_int_equal(mltcp_cubic_cut(&ca, &P, 80), 56);
	assert_int_equal(ca.last_max_cwnd, 68);
	p.fast_convergence = 0;
	assert_int_equal(mltcp_cubic_cut(&ca, &p, 60), 42);
	assert_int_equal(ca.last_max_cwnd, 60);
	assert_int_equal(mltcp_cubic_cut(&ca, &P, 2), 2);	/* at least 2 */
	/* a beta out of range still cuts */
	p.beta = 5000;
	assert_int_equal(mltcp_cubic_cut(&ca, &p, 1024), 1023);
}

/* Growth rate: the curve one minimum RTT ahead, cached within a jiffy. */
static void test_cnt(void **state)
{
	struct mltcp_cubic_state ca;
	u32 cnt;

	(void)state;
	mltcp_cubic_reset(&ca);
	ca.last_max_cwnd = 100;
	ca.delay_min = 100000;	/* 100 ms */
	/* t = 100 jiffies = 102/1024 s: W_cubic = 73, one segment per 70 / 3 */
	cnt = mltcp_cubic_cnt(&ca, &P, 70, 1, 5000, HZ_T);
	assert_int_equal(cnt, 23);
	assert_int_equal(ca.shared, MLTCP_CUBIC_SHARED_RATE);
	assert_int_equal(ca.k, 4316);
	/* the same jiffy and cwnd: cached, the credit still counted */
	assert_int_equal(mltcp_cubic_cnt(&ca, &P, 70, 3, 5000, HZ_T), 23);
	assert_int_equal(ca.ack_cnt, 4);
	/* at or above the target: one segment per 100 cwnd */
	mltcp_cubic_reset(&ca);
	ca.last_max_cwnd = 100;
	assert_int_equal(mltcp_cubic_cnt(&ca, &P, 100, 1, 7, HZ_T), 100 * 100);
	/* no W_max yet: at least 1/20 of cwnd per RTT */
	mltcp_cubic_reset(&ca);
	assert_int_equal(mltcp_cubic_cnt(&ca, &P, 100, 1, 7, HZ_T), 20);
	/* Reno-friendly: W_est ahead of cwnd caps cnt at cwnd / (W_est - cwnd) */
	mltcp_cubic_reset(&ca);
	ca.last_max_cwnd = 100;
	mltcp_cubic_cnt(&ca, &P, 100, 1, 7, HZ_T);
	ca.tcp_cwnd = 150;
	assert_int_equal(mltcp_cubic_cnt(&ca, &P, 100, 1, 7 + HZ_T, HZ_T), 2);
	/* W_est grows by one per cwnd * beta_scale / 8 = 187 of credit */
	mltcp_cubic_reset(&ca);
	ca.last_max_cwnd = 100;
	mltcp_cubic_cnt(&ca, &P, 100, 1, 7, HZ_T);
	mltcp_cubic_cnt(&ca, &P, 100, 2 * 187, 7 + HZ_T, HZ_T);
	assert_int_equal(ca.tcp_cwnd, 102);
	assert_int_equal(ca.ack_cnt, 1);
}

static void test_rtt_and_idle(void **state)
{
	struct mltcp_cubic_state ca;

	(void)state;
	mltcp_cubic_reset(&ca);
	assert_int_equal(mltcp_cubic_rtt_sample(&ca, -1, 100, HZ_T), 0);
	assert_int_equal(mltcp_cubic_rtt_sample(&ca, 0, 100, HZ_T), 1);
	assert_int_equal(mltcp_cubic_rtt_sample(&ca, 500, 100, HZ_T), 500);
	assert_int_equal(ca.delay_min, 1);
	/* within a second of an epoch's start: ignored */
	ca.epoch_start = 100;
	assert_int_equal(mltcp_cubic_rtt_sample(&ca, 500, 100 + HZ_T - 1, HZ_T), 0);
	assert_int_equal(mltcp_cubic_rtt_sample(&ca, 500, 100 + HZ_T, HZ_T), 500);
	/* idle time does not count in t (RFC 9438 5.8) */
	mltcp_cubic_tx_start(&ca, 3000, 2000);
	assert_int_equal(ca.epoch_start, 1100);
	mltcp_cubic_tx_start(&ca, 3000, 3000);
	assert_int_equal(ca.epoch_start, 1100);
	/* never past now */
	mltcp_cubic_tx_start(&ca, 3000, 0);
	assert_int_equal(ca.epoch_start, 3000);
}

static void test_hystart(void **state)
{
	struct mltcp_hystart_in in = { .now_us = 1000, .snd_una = 0, .snd_nxt = 100000,
				       .cwnd = 32 };
	struct mltcp_cubic_state ca;
	int i;

	(void)state;
	assert_int_equal(mltcp_hystart_ack_delay_us(0), 0);
	assert_int_equal(mltcp_hystart_ack_delay_us(262144000), 1000);
	assert_int_equal(mltcp_hystart_ack_delay_us(524288000), 500);

	/* delay: 8 samples, then one above min + max(min / 8, 4 ms) */
	mltcp_cubic_reset(&ca);
	ca.delay_min = 10000;
	in.paced = true;	/* the train's threshold is then a whole RTT */
	for (i = 0; i < MLTCP_HYSTART_MIN_SAMPLES; i++)
		assert_int_equal(mltcp_hystart_update(&ca, &P, &in, 14001), 0);
	assert_int_equal(ca.hs.curr_rtt, 14001);
	assert_int_equal(mltcp_hystart_update(&ca, &P, &in, 20000), MLTCP_HYSTART_DELAY);
	assert_int_equal(ca.found, 1);
	mltcp_cubic_reset(&ca);
	ca.delay_min = 10000;
	for (i = 0; i <= MLTCP_HYSTART_MIN_SAMPLES; i++)
		assert_int_equal(mltcp_hystart_update(&ca, &P, &in, 14000), 0);

	/* ACK train: ACKs 1 ms apart for more than half the minimum RTT */
	mltcp_cubic_reset(&ca);
	ca.delay_min = 10000;
	in.paced = false;
	for (i = 0; i <= 5; i++, in.now_us += 1000)
		assert_int_equal(mltcp_hystart_update(&ca, &P, &in, 10000), 0);
	assert_int_equal(mltcp_hystart_update(&ca, &P, &in, 10000), MLTCP_HYSTART_ACK_TRAIN);

	/* below hystart_low_window nothing is detected */
	mltcp_cubic_reset(&ca);
	ca.delay_min = 10000;
	in.cwnd = 15;
	for (i = 0; i < 20; i++, in.now_us += 1000)
		assert_int_equal(mltcp_hystart_update(&ca, &P, &in, 50000), 0);
}

/* RFC 8257 3.3: alpha = (1 - g) alpha + g M, g = 1/16 */
static void test_dctcp_alpha(void **state)
{
	u32 a = MLTCP_DCTCP_MAX_ALPHA, m, i;

	(void)state;
	assert_int_equal(mltcp_dctcp_alpha_step(1024, 4, 10, 0), 960);
	assert_int_equal(mltcp_dctcp_alpha_step(1024, 4, 10, 10), 1024);
	assert_int_equal(mltcp_dctcp_alpha_step(1024, 4, 10, 5), 992);
	assert_int_equal(mltcp_dctcp_alpha_step(0, 4, 10, 10), 64);
	/* within one unit of the formula for every M in tenths */
	for (m = 0; m <= 10; m++) {
		double f = (1 - 1 / 16.0) * 512 + m / 10.0 / 16.0 * 1024;

		assert_true(fabs(mltcp_dctcp_alpha_step(512, 4, 10, m) - f) <= 1.0);
	}
	/* no marks: decays to exactly 0 */
	for (i = 0; i < 200; i++)
		a = mltcp_dctcp_alpha_step(a, 4, 10, 0);
	assert_int_equal(a, 0);
	assert_int_equal(mltcp_dctcp_alpha_step(15, 4, 10, 0), 0);
	/* no delivery counted: M from the marks alone, capped */
	assert_int_equal(mltcp_dctcp_alpha_step(1024, 4, 0, 3), 1024);
}

/* RFC 8257 3.3: cwnd = cwnd (1 - alpha / 2); loss halves; undo restores */
static void test_dctcp_cuts(void **state)
{
	struct mltcp_dctcp_state ca = { .alpha = 1024 };

	(void)state;
	assert_int_equal(mltcp_dctcp_ecn_cut(&ca, 100), 50);
	assert_int_equal(ca.loss_cwnd, 100);
	ca.alpha = 512;
	assert_int_equal(mltcp_dctcp_ecn_cut(&ca, 100), 75);
	ca.alpha = 0;
	assert_int_equal(mltcp_dctcp_ecn_cut(&ca, 100), 100);
	ca.alpha = 1024;
	assert_int_equal(mltcp_dctcp_ecn_cut(&ca, 3), 2);
	assert_int_equal(mltcp_dctcp_loss_cut(&ca, 100), 50);
	assert_int_equal(mltcp_dctcp_loss_cut(&ca, 3), 2);
	assert_int_equal(ca.loss_cwnd, 3);
	assert_int_equal(mltcp_dctcp_undo(&ca, 2), 3);
	assert_int_equal(mltcp_dctcp_undo(&ca, 9), 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cbrt),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_curve),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_cnt),
		cmocka_unit_test(test_rtt_and_idle),
		cmocka_unit_test(test_hystart),
		cmocka_unit_test(test_dctcp_alpha),
		cmocka_unit_test(test_dctcp_cuts),
	};

	return cmocka_run_group_tests_name("mltcp_cc_math", tests, NULL, NULL);
}
