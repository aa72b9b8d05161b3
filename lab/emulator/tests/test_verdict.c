// SPDX-License-Identifier: GPL-2.0
/* Unit tests of verdict.c: the per-run verdict and the summary over --runs N. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit_tests.h"
#include "verdict.h"

#define EPS 1e-9

static struct iter_rec rec(unsigned job, unsigned iter, double len)
{
	struct iter_rec r;

	memset(&r, 0, sizeof(r));
	r.mode = MODE_SHARED;
	r.job = job;
	r.iter = iter;
	r.start = iter * 1000.0;
	r.end = r.start + len;
	r.comm_ms = r.overlap = r.link_overlap = r.drops = r.marks = NAN;
	return r;
}

static void test_last_half_mean(void **state)
{
	struct iter_rec it[12];

	(void)state;
	/* job 0: 10 iterations, 300 ms for 0..4, 200 ms for 5..9; job 1: 2 iterations */
	for (unsigned i = 0; i < 10; i++)
		it[i] = rec(0, i, i < 5 ? 300 : 200);
	it[10] = rec(1, 0, 500);
	it[11] = rec(1, 1, 100);
	assert_float_equal(verdict_last_half_mean(it, 12, 0), 200, EPS);
	assert_float_equal(verdict_last_half_mean(it, 12, 1), 100, EPS); /* 2 / 2 = from iter 1 */
	assert_true(isnan(verdict_last_half_mean(it, 12, 7)));
	/* ideal records are not part of the shared run */
	it[11].mode = MODE_IDEAL;
	assert_float_equal(verdict_last_half_mean(it, 12, 1), 500, EPS); /* 1 iteration: all */
	/* odd count: 5 iterations, last half = iterations 2..4 */
	for (unsigned i = 0; i < 5; i++)
		it[i] = rec(2, i, i < 2 ? 1000 : 10 * i);
	assert_float_equal(verdict_last_half_mean(it, 5, 2), (20 + 30 + 40) / 3.0, EPS);
}

static void test_run_verdict(void **state)
{
	struct iter_rec it[20];
	struct job_summary s[2];
	struct run_verdict v;

	(void)state;
	for (unsigned i = 0; i < 10; i++) {
		it[i] = rec(0, i, i < 5 ? 400 : 260);	/* last half 260 / ideal 250 = 1.04 */
		it[10 + i] = rec(1, i, i < 5 ? 400 : 270); /* 270 / 250 = 1.08 */
	}
	memset(s, 0, sizeof(s));
	s[0].job = 0;
	s[1].job = 1;
	s[0].ideal = s[1].ideal = 250;
	s[0].contended = s[1].contended = 10;
	s[0].converged = 3;
	s[1].converged = 6;
	assert_int_equal(verdict_run(it, 20, s, 2, 1.10, &v), 0);
	assert_float_equal(v.worst_ratio, 1.08, EPS);
	assert_int_equal(v.worst_job, 1);
	assert_int_equal(v.converged, 1);
	assert_int_equal(v.conv_iter, 6); /* the later job decides */
	assert_int_equal(v.link_conv_iter, VERDICT_UNKNOWN); /* no link record */
	assert_true(isnan(verdict_link_conv_rank(&v)));
	s[0].link_known = s[1].link_known = 1;
	s[0].link_converged = 2;
	s[1].link_converged = 5;
	assert_int_equal(verdict_run(it, 20, s, 2, 1.10, &v), 0);
	assert_int_equal(v.link_conv_iter, 5);
	assert_float_equal(verdict_link_conv_rank(&v), 5, EPS);
	s[0].link_converged = -1;
	assert_int_equal(verdict_run(it, 20, s, 2, 1.10, &v), 0);
	assert_int_equal(v.link_conv_iter, -1);
	assert_true(isinf(verdict_link_conv_rank(&v)));
	/* one job without a link record makes the run's unknown */
	s[0].link_known = 0;
	assert_int_equal(verdict_run(it, 20, s, 2, 1.10, &v), 0);
	assert_int_equal(v.link_conv_iter, VERDICT_UNKNOWN);
	s[0].link_known = s[1].link_known = 0;
	/* a tighter limit fails the run; the limit is inclusive */
	assert_int_equal(verdict_run(it, 20, s, 2, 1.05, &v), 0);
	assert_int_equal(v.converged, 0);
	assert_int_equal(verdict_run(it, 20, s, 2, 1.08, &v), 0);
	assert_int_equal(v.converged, 1);
	/* one contended job whose overlap never settled: no convergence iteration */
	s[0].converged = -1;
	assert_int_equal(verdict_run(it, 20, s, 2, 1.10, &v), 0);
	assert_int_equal(v.conv_iter, -1);
	assert_int_equal(v.converged, 1); /* the verdict is about time, not overlap */
	assert_true(isinf(verdict_conv_rank(&v)));
	/* a job without an ideal (bulk flow, --no-ideal) is not judged */
	s[1].ideal = NAN;
	assert_int_equal(verdict_run(it, 20, s, 2, 1.10, &v), 0);
	assert_int_equal(v.worst_job, 0);
	assert_float_equal(v.worst_ratio, 1.04, EPS);
	s[0].ideal = NAN;
	assert_int_equal(verdict_run(it, 20, s, 2, 1.10, &v), 0);
	assert_int_equal(v.worst_job, -1);
	assert_true(isnan(v.worst_ratio));
	assert_int_equal(v.converged, 0);
	/* nobody ran next to anybody: no convergence iteration */
	s[0].ideal = s[1].ideal = 250;
	s[0].contended = s[1].contended = 0;
	s[0].converged = s[1].converged = -1;
	assert_int_equal(verdict_run(it, 20, s, 2, 1.10, &v), 0);
	assert_int_equal(v.conv_iter, -1);
	assert_int_equal(verdict_run(it, 20, s, 2, 0, &v), -1);
}

static void test_summary(void **state)
{
	/* 10 runs: 7 converged at 2..8, 1 converged in time but overlap never settled,
	 * 2 not converged (one of them with a settled overlap) */
	struct run_verdict v[10];
	struct runs_summary rs;

	(void)state;
	for (unsigned r = 0; r < 7; r++)
		v[r] = (struct run_verdict){ 1.00 + 0.01 * r, 0, (long)(8 - r), 1, VERDICT_UNKNOWN };
	v[7] = (struct run_verdict){ 1.09, 1, -1, 1, VERDICT_UNKNOWN };
	v[8] = (struct run_verdict){ 1.30, 1, 4, 0, VERDICT_UNKNOWN };
	v[9] = (struct run_verdict){ 1.25, 0, -1, 0, VERDICT_UNKNOWN };
	assert_int_equal(verdict_summarize(v, 10, &rs), 0);
	assert_int_equal(rs.n, 10);
	assert_int_equal(rs.ok, 8);
	assert_float_equal(rs.rate, 0.8, EPS);
	/* ranks: 2 3 4 5 6 7 8 inf inf inf -> median (rank 5) 6, p90 (rank 9) inf */
	assert_float_equal(rs.conv_median, 6, EPS);
	assert_true(isinf(rs.conv_p90));
	/* worst: 1.00..1.06, 1.09, 1.25, 1.30 */
	assert_float_equal(rs.worst_min, 1.00, EPS);
	assert_float_equal(rs.worst_median, 1.04, EPS);
	assert_float_equal(rs.worst_p90, 1.25, EPS);
	assert_float_equal(rs.worst_max, 1.30, EPS);

	/* all converged: p90 is a number */
	for (unsigned r = 0; r < 10; r++)
		v[r] = (struct run_verdict){ 1.02, 0, (long)r, 1, VERDICT_UNKNOWN };
	assert_int_equal(verdict_summarize(v, 10, &rs), 0);
	assert_int_equal(rs.ok, 10);
	assert_float_equal(rs.conv_median, 4, EPS);
	assert_float_equal(rs.conv_p90, 8, EPS);

	/* fewer than half converged: median never */
	for (unsigned r = 0; r < 6; r++)
		v[r].converged = 0;
	assert_int_equal(verdict_summarize(v, 10, &rs), 0);
	assert_int_equal(rs.ok, 4);
	assert_true(isinf(rs.conv_median));

	/* on the link: ranked like conv_iter; one run without a link record hides it */
	for (unsigned r = 0; r < 10; r++)
		v[r] = (struct run_verdict){ 1.02, 0, -1, 1, (long)r + 1 };
	v[9].link_conv_iter = -1;
	v[8].converged = 0;
	assert_int_equal(verdict_summarize(v, 10, &rs), 0);
	/* ranks 1..8, inf (not converged), inf (never) -> median (rank 5) 5, p90 inf */
	assert_float_equal(rs.link_conv_median, 5, EPS);
	assert_true(isinf(rs.link_conv_p90));
	assert_true(isinf(rs.conv_median)); /* the application's overlap never settled */
	v[3].link_conv_iter = VERDICT_UNKNOWN;
	assert_int_equal(verdict_summarize(v, 10, &rs), 0);
	assert_true(isnan(rs.link_conv_median) && isnan(rs.link_conv_p90));

	/* unknown ratios are left out of the spread; no runs at all */
	v[0].worst_ratio = NAN;
	v[1].worst_ratio = 0.9;
	assert_int_equal(verdict_summarize(v, 2, &rs), 0);
	assert_float_equal(rs.worst_min, 0.9, EPS);
	assert_float_equal(rs.worst_max, 0.9, EPS);
	assert_int_equal(verdict_summarize(v, 0, &rs), 0);
	assert_true(isnan(rs.rate));
	assert_true(isnan(rs.worst_median));
	assert_true(isnan(rs.conv_median));
}

static void test_friendliness(void **state)
{
	/* 10 bins of 10 ms from t = 100: the job sends in bins 2..4 (comm 120..150), the bulk
	 * flow everywhere; the run is [100, 200] */
	double bulk[10], job[10];
	struct interval comm[] = { { 135, 150 }, { 120, 140 } }; /* merged: 120..150 */
	struct friendliness f;

	(void)state;
	for (unsigned i = 0; i < 10; i++) {
		bulk[i] = i >= 2 && i <= 4 ? 4000 : 12500; /* 12500 B / 10 ms = 10 Mbit/s */
		job[i] = i >= 2 && i <= 4 ? 8500 : 0;
	}
	assert_int_equal(verdict_friendliness(bulk, job, 10, 100, 10, comm, 2, 100, 200, 10, &f), 0);
	assert_float_equal(f.share_comm, 4000.0 / 12500, EPS);
	assert_float_equal(f.share_run, (7 * 12500 + 3 * 4000.0) / (10 * 12500.0), EPS);
	/* 99500 B in 100 ms at 10 Mbit/s (125000 B) */
	assert_float_equal(f.link_run, 99500.0 / 125000, EPS);
	/* half a bin of communication counts half; the run window cuts bins too */
	comm[0] = (struct interval){ 125, 130 };
	assert_int_equal(verdict_friendliness(bulk, job, 10, 100, 10, comm, 1, 100, 105, 10, &f), 0);
	assert_float_equal(f.share_comm, 4000.0 / 12500, EPS);
	assert_float_equal(f.share_run, 1.0, EPS);
	assert_float_equal(f.link_run, 0.5 * 12500 / 6250.0, EPS);
	/* no communication at all: unknown; bad arguments */
	assert_int_equal(verdict_friendliness(bulk, job, 10, 100, 10, comm, 0, 100, 200, 10, &f), 0);
	assert_true(isnan(f.share_comm));
	assert_int_equal(verdict_friendliness(bulk, job, 10, 100, 0, comm, 0, 100, 200, 10, &f), -1);
	assert_int_equal(verdict_friendliness(bulk, job, 10, 100, 10, comm, 0, 200, 100, 10, &f), -1);
}

const struct CMUnitTest verdict_tests[] = {
	cmocka_unit_test(test_friendliness),
	cmocka_unit_test(test_last_half_mean),
	cmocka_unit_test(test_run_verdict),
	cmocka_unit_test(test_summary),
};
const size_t verdict_ntests = sizeof(verdict_tests) / sizeof(verdict_tests[0]);
