// SPDX-License-Identifier: GPL-2.0
/* Unit tests of metrics.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_tests.h"
#include "metrics.h"

#define EPS 1e-9

static void test_mean(void **state)
{
	double v[] = { 1, 2, 3, 4 };

	(void)state;
	assert_float_equal(metrics_mean(v, 4), 2.5, EPS);
	assert_true(isnan(metrics_mean(v, 0)));
}

static void test_percentile(void **state)
{
	double v[100], w[] = { 5, 1, 4, 2, 3, 10, 9, 8, 7, 6 }, one = 42;

	(void)state;
	for (int i = 0; i < 100; i++)
		v[i] = 100 - i; /* unsorted input: 100..1 */
	assert_float_equal(metrics_percentile(v, 100, 99), 99, EPS);
	assert_float_equal(metrics_percentile(v, 100, 50), 50, EPS);
	assert_float_equal(metrics_percentile(v, 100, 100), 100, EPS);
	assert_float_equal(metrics_percentile(v, 100, 1), 1, EPS);
	/* nearest rank: with 10 samples p99 is the maximum, p90 the 9th */
	assert_float_equal(metrics_percentile(w, 10, 99), 10, EPS);
	assert_float_equal(metrics_percentile(w, 10, 90), 9, EPS);
	assert_float_equal(w[0], 5, EPS); /* input untouched */
	assert_float_equal(metrics_percentile(&one, 1, 99), 42, EPS);
	assert_true(isnan(metrics_percentile(v, 0, 99)));
	assert_true(isnan(metrics_percentile(v, 10, 0)));
	assert_true(isnan(metrics_percentile(v, 10, 101)));
}

static void test_intervals(void **state)
{
	struct interval iv[] = {
		{ 10, 20 }, { 0, 5 }, { 15, 30 }, { 5, 7 }, { 40, 40 }, { 50, 60 }, { 52, 55 },
	};
	size_t n;

	(void)state;
	n = intervals_merge(iv, 7);
	assert_int_equal(n, 3);
	assert_float_equal(iv[0].a, 0, EPS); /* [0,5] and [5,7] touch: merged */
	assert_float_equal(iv[0].b, 7, EPS);
	assert_float_equal(iv[1].a, 10, EPS);
	assert_float_equal(iv[1].b, 30, EPS);
	assert_float_equal(iv[2].a, 50, EPS); /* nested [52,55] absorbed, empty [40,40] dropped */
	assert_float_equal(iv[2].b, 60, EPS);
	assert_float_equal(intervals_covered(iv, n, -10, 100), 7 + 20 + 10, EPS);
	assert_float_equal(intervals_covered(iv, n, 6, 12), 1 + 2, EPS);
	assert_float_equal(intervals_covered(iv, n, 31, 49), 0, EPS);
	assert_float_equal(intervals_covered(iv, n, 55, 52), 0, EPS);
	assert_int_equal(intervals_merge(iv, 0), 0);
}

static struct iter_rec rec(int mode, unsigned job, unsigned iter, double s, double e)
{
	struct iter_rec r;

	memset(&r, 0, sizeof(r));
	r.mode = mode;
	r.job = job;
	r.iter = iter;
	r.start = s;
	r.end = e;
	r.comm_ms = r.overlap = r.link_overlap = r.drops = r.marks = NAN;
	snprintf(r.name, sizeof(r.name), "j%u", job);
	return r;
}

static void test_overlap_two_jobs(void **state)
{
	/* job 0: compute 0-100, comm 100-200 | compute 200-300, comm 300-400
	 * job 1: compute 0-150, comm 150-250 | compute 250-450, comm 450-550 */
	struct iter_rec it[] = {
		rec(MODE_SHARED, 0, 0, 0, 200),	  rec(MODE_SHARED, 0, 1, 200, 400),
		rec(MODE_SHARED, 1, 0, 0, 250),	  rec(MODE_SHARED, 1, 1, 250, 550),
		rec(MODE_IDEAL, 0, 0, 1000, 1100),
	};
	struct phase_rec ph[] = {
		{ MODE_SHARED, 0, 0, 0, 100, 200, 1 }, { MODE_SHARED, 0, 1, 0, 300, 400, 1 },
		{ MODE_SHARED, 1, 0, 0, 150, 250, 1 }, { MODE_SHARED, 1, 1, 0, 450, 550, 1 },
		{ MODE_IDEAL, 0, 0, 0, 1050, 1100, 1 },
	};

	(void)state;
	assert_int_equal(metrics_overlap(it, 5, ph, 5, MODE_SHARED), 0);
	assert_float_equal(it[0].comm_ms, 100, EPS);
	assert_float_equal(it[0].overlap, 0.5, EPS);
	assert_float_equal(it[1].overlap, 0.0, EPS);
	assert_float_equal(it[2].overlap, 0.5, EPS);
	assert_float_equal(it[3].overlap, 0.0, EPS);
	assert_true(it[0].contended && it[1].contended && it[2].contended && it[3].contended);
	assert_true(isnan(it[4].overlap)); /* other mode untouched */
	assert_int_equal(metrics_overlap(it, 5, ph, 5, MODE_IDEAL), 0);
	assert_float_equal(it[4].overlap, 0.0, EPS);
	assert_false(it[4].contended);
	assert_float_equal(it[0].overlap, 0.5, EPS);
}

static void test_overlap_multiphase_and_uncontended(void **state)
{
	/* job 0 has two phases per iteration; job 1 ends at 300 */
	struct iter_rec it[] = {
		rec(MODE_SHARED, 0, 0, 0, 200),
		rec(MODE_SHARED, 0, 1, 400, 600),
		rec(MODE_SHARED, 1, 0, 0, 300),
	};
	struct phase_rec ph[] = {
		{ MODE_SHARED, 0, 0, 1, 150, 200, 1 }, /* out of order on purpose */
		{ MODE_SHARED, 0, 0, 0, 50, 100, 1 },  { MODE_SHARED, 0, 1, 0, 450, 500, 1 },
		{ MODE_SHARED, 0, 1, 1, 550, 600, 1 }, { MODE_SHARED, 1, 0, 0, 80, 160, 1 },
	};

	(void)state;
	assert_int_equal(metrics_overlap(it, 3, ph, 5, MODE_SHARED), 0);
	assert_float_equal(it[0].comm_ms, 100, EPS);
	assert_float_equal(it[0].overlap, 30.0 / 100, EPS); /* 80-100 and 150-160 */
	assert_true(it[0].contended);
	assert_float_equal(it[1].overlap, 0, EPS);
	assert_false(it[1].contended); /* job 1 was done by 300 */
	assert_float_equal(it[2].comm_ms, 80, EPS);
	assert_float_equal(it[2].overlap, 30.0 / 80, EPS);
}

static void test_link_overlap(void **state)
{
	/* 10 ms bins from t = 0; job 2 is a bulk flow, not counted (NULL) */
	const double b0[8] = { 1000, 1000, 1000, 1000, 0, 0, 0, 0 };
	const double b1[8] = { 0, 0, 0, 50, 1000, 1000, 1000, 0 };
	const double *bins[3] = { b0, b1, NULL };
	struct iter_rec it[] = {
		rec(MODE_SHARED, 0, 0, 0, 40),	rec(MODE_SHARED, 1, 0, 0, 70),
		rec(MODE_SHARED, 1, 1, 70, 80), rec(MODE_SHARED, 0, 1, 40, 80),
		rec(MODE_IDEAL, 0, 0, 100, 200),
	};
	struct phase_rec ph[] = {
		{ MODE_SHARED, 0, 0, 0, 0, 40, 1 },  { MODE_SHARED, 1, 0, 0, 30, 70, 1 },
		{ MODE_SHARED, 1, 1, 0, 65, 80, 1 }, { MODE_SHARED, 0, 1, 0, 75, 80, 1 },
		{ MODE_IDEAL, 0, 0, 0, 150, 200, 1 },
	};

	(void)state;
	/* another job counts in a bin from 100 bytes on */
	assert_int_equal(metrics_link_overlap(it, 5, ph, 5, MODE_SHARED, bins, 3, 8, 0, 10, 100),
			 0);
	/* job 0 read 4000 bytes while job 1 read at most 50 a bin: no overlap on the link */
	assert_float_equal(it[0].link_overlap, 0, EPS);
	/* job 1: bins 3-6 (50 + 3000 bytes), bin 3 shared with job 0 */
	assert_float_equal(it[1].link_overlap, 50.0 / 3050.0, EPS);
	/* half of bin 6 (500 bytes) and bin 7 (none): nothing shared */
	assert_float_equal(it[2].link_overlap, 0, EPS);
	/* job 0 read nothing in its second phase: unknown */
	assert_true(isnan(it[3].link_overlap));
	assert_true(isnan(it[4].link_overlap)); /* other mode untouched */
	/* any byte counts with a threshold of 0: job 0's bin 3 is shared now */
	assert_int_equal(metrics_link_overlap(it, 5, ph, 5, MODE_SHARED, bins, 3, 8, 0, 10, 0), 0);
	assert_float_equal(it[0].link_overlap, 0.25, EPS);
	/* a later time origin moves the bins */
	assert_int_equal(metrics_link_overlap(it, 5, ph, 5, MODE_SHARED, bins, 3, 8, 35, 10, 100),
			 0);
	/* job 0's phase [0, 40) covers half of bin 0 ([35, 45)): 500 bytes, none shared */
	assert_float_equal(it[0].link_overlap, 0, EPS);
	/* a job without bins gets no value; bad arguments fail */
	bins[1] = NULL;
	assert_int_equal(metrics_link_overlap(it, 5, ph, 5, MODE_SHARED, bins, 3, 8, 0, 10, 100),
			 0);
	assert_true(isnan(it[1].link_overlap));
	assert_float_equal(it[0].link_overlap, 0, EPS);
	assert_int_equal(metrics_link_overlap(it, 5, ph, 5, MODE_SHARED, bins, 3, 8, 0, 0, 100),
			 -1);
	assert_int_equal(metrics_link_overlap(it, 5, ph, 5, MODE_SHARED, bins, 3, 8, 0, 10, -1),
			 -1);
}

static void test_converged(void **state)
{
	double f1[] = { 0.5, 0.4, 0.05, 0.02, 0.01, 0.0, 0.03, 0.0 };
	int c1[] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	double f2[] = { 0.5, 0.05, 0.0, 0.2, 0.0, 0.0 };
	double f3[] = { 0.5, 0.5, 0.01, 0.0, 0.3, 0.3 };
	int c3[] = { 1, 1, 1, 1, 0, 0 };
	double f4[] = { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 };
	double f5[] = { 0.5, NAN, 0.0, 0.0, 0.0, 0.0 };

	(void)state;
	assert_int_equal(metrics_converged(f1, c1, 8, 0.10, 5), 2);
	assert_int_equal(metrics_converged(f1, c1, 8, 0.10, 7), -1); /* only 6 stable */
	assert_int_equal(metrics_converged(f1, c1, 8, 0.03, 1), 7);  /* 0.03 is not below */
	assert_int_equal(metrics_converged(f1, c1, 8, 0.03, 2), -1);
	assert_int_equal(metrics_converged(f2, c1, 6, 0.10, 2), 4);  /* spike at 3 */
	assert_int_equal(metrics_converged(f2, c1, 6, 0.10, 3), -1);
	/* uncontended tail is ignored, but does not count as stable either */
	assert_int_equal(metrics_converged(f3, c3, 6, 0.10, 2), 2);
	assert_int_equal(metrics_converged(f3, c3, 6, 0.10, 3), -1);
	assert_int_equal(metrics_converged(f4, c1, 6, 0.10, 5), 0); /* interleaved from start */
	assert_int_equal(metrics_converged(f5, c1, 6, 0.10, 4), 1); /* NaN skipped */
	assert_int_equal(metrics_converged(f5, c1, 0, 0.10, 0), -1);
	assert_int_equal(metrics_converged(f1, c1, 8, 0.60, 8), 0);
}

static void test_counters(void **state)
{
	struct counter_sample s[] = {
		{ 0, 0, 0, 0 }, { 10, 10, 2, 100 }, { 20, 10, 2, 0 }, { 30, 40, 5, 50 },
	};
	struct iter_rec it[] = { rec(MODE_SHARED, 0, 0, 5, 25), rec(MODE_SHARED, 0, 1, -5, 100),
				 rec(MODE_IDEAL, 0, 0, 0, 30) };

	(void)state;
	assert_float_equal(metrics_counter_at(s, 4, 5, 0), 5, EPS);
	assert_float_equal(metrics_counter_at(s, 4, 15, 0), 10, EPS);
	assert_float_equal(metrics_counter_at(s, 4, 25, 0), 25, EPS);
	assert_float_equal(metrics_counter_at(s, 4, 25, 1), 3.5, EPS);
	assert_float_equal(metrics_counter_at(s, 4, 10, 2), 100, EPS);
	assert_float_equal(metrics_counter_at(s, 4, -1, 0), 0, EPS);
	assert_float_equal(metrics_counter_at(s, 4, 99, 0), 40, EPS);
	assert_true(isnan(metrics_counter_at(s, 0, 5, 0)));
	metrics_attribute_counters(it, 3, s, 4, MODE_SHARED);
	assert_float_equal(it[0].drops, 20, EPS);
	assert_float_equal(it[0].marks, 2.5, EPS);
	assert_float_equal(it[1].drops, 40, EPS);
	assert_true(isnan(it[2].drops));
	metrics_attribute_counters(it, 3, s, 0, MODE_SHARED);
	assert_true(isnan(it[0].drops) && isnan(it[0].marks));
}

static void test_summarize(void **state)
{
	struct iter_rec it[40];
	struct summary_opts o = { .warmup = 2, .ideal_warmup = 1, .threshold = 0.1,
				  .min_stable = 3 };
	struct job_summary *s = NULL;
	size_t n = 0;
	int ns;

	(void)state;
	/* job 3 only (jobs 0-2 absent): 10 shared iterations of 300 ms (two of 900 ms
	 * warm-up), overlap 0.5 then 0 from iteration 6; ideal 3 x 250 ms (one of 400) */
	for (unsigned i = 0; i < 10; i++) {
		double d = i < 2 ? 900 : 300;

		it[n] = rec(MODE_SHARED, 3, i, i * 1000.0, i * 1000.0 + d);
		it[n].overlap = i < 6 ? 0.5 : 0.0;
		it[n].link_overlap = i < 4 ? 0.3 : 0.0;
		it[n].contended = 1;
		it[n].drops = i < 2 ? 100 : 4;
		it[n].marks = NAN;
		snprintf(it[n].cc, sizeof(it[n].cc), "reno");
		n++;
	}
	for (unsigned i = 0; i < 3; i++) {
		it[n] = rec(MODE_IDEAL, 3, i, 20000 + i * 500.0, 20000 + i * 500.0 + (i ? 250 : 400));
		n++;
	}
	ns = metrics_summarize(it, n, &o, &s);
	assert_int_equal(ns, 1);
	assert_int_equal(s[0].job, 3);
	assert_string_equal(s[0].name, "j3");
	assert_string_equal(s[0].cc, "reno");
	assert_int_equal(s[0].iters, 10);
	assert_int_equal(s[0].used, 8);
	assert_float_equal(s[0].mean, 300, EPS);
	assert_float_equal(s[0].p99, 300, EPS);
	assert_float_equal(s[0].ideal, 250, EPS);
	assert_float_equal(s[0].ratio, 1.2, EPS);
	assert_int_equal(s[0].converged, 6);
	assert_int_equal(s[0].link_converged, 4);
	assert_true(s[0].link_known);
	assert_int_equal(s[0].contended, 10);
	assert_float_equal(s[0].overlap_first, 0.5, EPS);
	assert_float_equal(s[0].overlap_last, 0.1, EPS); /* iterations 5-9 */
	assert_float_equal(s[0].drops_per_iter, 4, EPS);
	assert_true(isnan(s[0].marks_per_iter));
	free(s);

	/* no link record: unknown, not "never" */
	for (unsigned i = 0; i < 10; i++)
		it[i].link_overlap = NAN;
	ns = metrics_summarize(it, n, &o, &s);
	assert_int_equal(ns, 1);
	assert_false(s[0].link_known);
	assert_int_equal(s[0].link_converged, -1);
	assert_int_equal(s[0].converged, 6);
	free(s);

	/* warm-up longer than the run: the last iteration is still used */
	o.warmup = 50;
	ns = metrics_summarize(it, 10, &o, &s);
	assert_int_equal(ns, 1);
	assert_int_equal(s[0].used, 1);
	assert_true(isnan(s[0].ideal) && isnan(s[0].ratio));
	free(s);
}

static void test_overlap_series(void **state)
{
	struct iter_rec it[12];
	double out[8];
	size_t nb;

	(void)state;
	for (unsigned i = 0; i < 12; i++) {
		it[i] = rec(MODE_SHARED, i % 2, i / 2, 0, 1);
		it[i].overlap = i < 6 ? 0.4 : 0.0;
		it[i].contended = i != 11;
	}
	nb = metrics_overlap_series(it, 12, 2, out, 8);
	assert_int_equal(nb, 3);
	assert_float_equal(out[0], 0.4, EPS);
	assert_float_equal(out[1], (0.4 * 2 + 0.0 * 2) / 4, EPS);
	assert_float_equal(out[2], 0.0, EPS);
	assert_int_equal(metrics_overlap_series(it, 12, 0, out, 8), 0);
	assert_int_equal(metrics_overlap_series(it, 12, 1, out, 2), 2);
}

const struct CMUnitTest metrics_tests[] = {
	cmocka_unit_test(test_mean),
	cmocka_unit_test(test_percentile),
	cmocka_unit_test(test_intervals),
	cmocka_unit_test(test_overlap_two_jobs),
	cmocka_unit_test(test_overlap_multiphase_and_uncontended),
	cmocka_unit_test(test_link_overlap),
	cmocka_unit_test(test_converged),
	cmocka_unit_test(test_counters),
	cmocka_unit_test(test_summarize),
	cmocka_unit_test(test_overlap_series),
};
const size_t metrics_ntests = sizeof(metrics_tests) / sizeof(metrics_tests[0]);
