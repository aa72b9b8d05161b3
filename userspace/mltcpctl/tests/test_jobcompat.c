// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of jobcompat, the model behind mltcpctl compat: the circle's
 * overlap score, the fluid models and the schedule.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "jobcompat.h"

#define MBIT	1e6
/* at 100 Mbit/s, 1.25 MB take 100 ms */
#define RATE	(100 * MBIT)

static struct jc_job job1(const char *name, double compute_ms, double bytes)
{
	struct jc_job j = { .nseg = 1 };

	snprintf(j.name, sizeof(j.name), "%s", name);
	j.seg[0].compute_ms = compute_ms;
	j.seg[0].bytes = bytes;
	return j;
}

/* a link with jobs 0..n-1 */
static struct jc_link link_n(unsigned int n, double rate)
{
	struct jc_link l = { .rate_bps = rate, .njobs = n };
	unsigned int i;

	for (i = 0; i < n; i++)
		l.job[i] = i;
	return l;
}

static void test_valid(void **state)
{
	struct jc_job j = job1("a", 150, 1250000);
	const char *err = NULL;

	(void)state;
	assert_true(jc_job_valid(&j, &err));
	assert_null(err);
	j.nseg = 0;
	assert_false(jc_job_valid(&j, &err));
	assert_string_equal(err, "a job has 1 to 8 segments");
	j.nseg = JC_MAX_SEGMENTS + 1;
	assert_false(jc_job_valid(&j, NULL));
	j = job1("a", -1, 1000);
	assert_false(jc_job_valid(&j, &err));
	assert_string_equal(err, "a compute time is 0 to 3600000 ms");
	j = job1("a", NAN, 1000);
	assert_false(jc_job_valid(&j, NULL));
	j = job1("a", 0, 0);
	assert_false(jc_job_valid(&j, &err));
	assert_non_null(strstr(err, "bytes"));
	j = job1("a", 0, 1);
	assert_true(jc_job_valid(&j, NULL));
	memset(j.name, 'x', sizeof(j.name));
	assert_false(jc_job_valid(&j, NULL));
}

static void test_ideal(void **state)
{
	struct jc_job j = job1("a", 150, 1250000);

	(void)state;
	assert_float_equal(jc_ideal_ms(&j, RATE), 250, 1e-9);
	assert_float_equal(jc_ideal_ms(&j, 10 * RATE), 160, 1e-9);
	j.nseg = 2;
	j.seg[1].compute_ms = 20;
	j.seg[1].bytes = 250000;
	assert_float_equal(jc_ideal_ms(&j, RATE), 290, 1e-9);
}

/* Each job's compute phase holds the other's communication: they can take turns. */
static void test_compatible_pair(void **state)
{
	struct jc_job jobs[2] = { job1("a", 150, 1250000), job1("b", 150, 1250000) };
	struct jc_link l = link_n(2, RATE);
	struct jc_link_result r;
	unsigned int i;

	(void)state;
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), 0);
	assert_true(r.compatible);
	assert_true(r.overlap < 1e-6);
	assert_float_equal(r.shift_ms[0], 0, 1e-9);
	/* b's communication (100 ms) sits in a's compute: shift 100 to 150 ms from a */
	assert_true(r.shift_ms[1] >= 100 - 1 && r.shift_ms[1] <= 150 + 1);
	assert_float_equal(r.perimeter_ms, 250, 1e-9);
	assert_float_equal(r.stretch, 0, 1e-12);
	for (i = 0; i < 2; i++) {
		assert_float_equal(r.ideal_ms[i], 250, 1e-9);
		assert_float_equal(r.interleaved_ms[i], 250, 250 * 0.01);
		/* fair sharing keeps the two in lockstep: 150 + 2 * 100 */
		assert_true(r.fair_ms[i] > r.ideal_ms[i] + 50);
		assert_true(r.interleaved_ms[i] <= r.fair_ms[i] + 1e-6);
	}

	/* unequal: a 250 ms (100 ms on the link), b 500 ms (100 ms): the circle is 500 ms */
	jobs[1] = job1("b", 400, 1250000);
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), 0);
	assert_true(r.compatible);
	assert_true(r.overlap < 1e-6);
	assert_float_equal(r.perimeter_ms, 500, 1e-9);
	assert_float_equal(r.interleaved_ms[0], 250, 2.5);
	assert_float_equal(r.interleaved_ms[1], 500, 5);
	assert_true(r.fair_ms[0] > 250 && r.fair_ms[1] > 500);
}

/* Two identical jobs communicating longer than they compute cannot take turns. */
static void test_incompatible_pair(void **state)
{
	struct jc_job jobs[2] = { job1("a", 50, 1250000), job1("b", 50, 1250000) };
	struct jc_link l = link_n(2, RATE);
	struct jc_link_result r;
	double zero[2] = { 0, 0 }, ov;
	unsigned int i;

	(void)state;
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), 0);
	assert_false(r.compatible);
	/* 200 ms of communication per 150 ms circle: 50 ms at least do not fit */
	assert_true(r.overlap >= 0.25 - 0.01);
	assert_true(r.overlap < 0.5);
	for (i = 0; i < 2; i++) {
		/* taking turns, the link is never idle: 200 ms; fair: 50 + 2 * 100 */
		assert_float_equal(r.interleaved_ms[i], 200, 2);
		assert_float_equal(r.fair_ms[i], 250, 1e-6);
	}
	/* in lockstep the whole communication of one job is in excess: half of it all */
	assert_int_equal(jc_overlap(jobs, &l, zero, &ov), 0);
	assert_float_equal(ov, 0.5, 1e-9);
	/* a shift of a fraction of a cell: 49.5 of the 200 ms of communication overlap */
	zero[1] = 50.5;
	jobs[0] = job1("a", 100, 1250000);
	jobs[1] = job1("b", 100, 1250000);
	assert_int_equal(jc_overlap(jobs, &l, zero, &ov), 0);
	assert_float_equal(ov, 49.5 / 200, 1e-9);
	jobs[0] = job1("a", 50, 1250000);
	jobs[1] = job1("b", 50, 1250000);
	/* a threshold above the score calls them compatible */
	assert_int_equal(jc_link_eval(jobs, &l, 0.6, &r), 0);
	assert_true(r.compatible);
}

/* Two identical one-segment jobs starting together: compute + 2 x communication. */
static void test_fair_analytic(void **state)
{
	struct jc_job jobs[3] = { job1("a", 100, 625000), job1("b", 100, 625000),
				  job1("c", 100, 625000) };
	struct jc_link l = link_n(2, RATE);
	double t[3];

	(void)state;
	assert_int_equal(jc_fluid(jobs, &l, JC_FAIR, NULL, t), 0);
	assert_float_equal(t[0], 100 + 2 * 50, 1e-6);
	assert_float_equal(t[1], 100 + 2 * 50, 1e-6);
	l = link_n(3, RATE);
	assert_int_equal(jc_fluid(jobs, &l, JC_FAIR, NULL, t), 0);
	assert_float_equal(t[2], 100 + 3 * 50, 1e-6);
	/* alone: the ideal */
	l = link_n(1, RATE);
	assert_int_equal(jc_fluid(jobs, &l, JC_FAIR, NULL, t), 0);
	assert_float_equal(t[0], 150, 1e-6);
	/* taking turns from the same start: the second waits once, then both run at 150 */
	l = link_n(2, RATE);
	assert_int_equal(jc_fluid(jobs, &l, JC_TURNS, NULL, t), 0);
	assert_float_equal(t[0], 150, 1e-6);
	assert_float_equal(t[1], 150, 1e-6);
}

/* In compatible mixes, taking turns is never slower than fair sharing, for any job. */
static void test_interleaving_beats_fair(void **state)
{
	static const double mixes[][3][2] = {
		/* compute ms, bytes (at 100 Mbit/s, 1.25 MB = 100 ms) */
		{ { 150, 1250000 }, { 200, 625000 }, { 0, 0 } },
		{ { 141, 1425000 }, { 141, 1425000 }, { 0, 0 } },	/* VGG16-like */
		{ { 400, 1250000 }, { 150, 1250000 }, { 0, 0 } },
		{ { 200, 1000000 }, { 200, 1000000 }, { 200, 1000000 } },
		/* 200, 400 and 400 ms */
		{ { 150, 625000 }, { 300, 1250000 }, { 320, 1000000 } },
	};
	struct jc_job jobs[3];
	struct jc_link l;
	struct jc_link_result r;
	unsigned int m, i, n, compatible = 0;

	(void)state;
	for (m = 0; m < sizeof(mixes) / sizeof(mixes[0]); m++) {
		for (n = 0; n < 3 && mixes[m][n][1] > 0; n++)
			jobs[n] = job1("j", mixes[m][n][0], mixes[m][n][1]);
		l = link_n(n, RATE);
		assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), 0);
		if (!r.compatible)
			continue;
		compatible++;
		for (i = 0; i < n; i++) {
			assert_true(r.interleaved_ms[i] <= r.fair_ms[i] + 1e-6);
			assert_true(r.interleaved_ms[i] >= r.ideal_ms[i] - 1e-6);
		}
	}
	/* all of them are compatible: the loop above checked every one */
	assert_int_equal(compatible, sizeof(mixes) / sizeof(mixes[0]));
}

/* Four jobs, a fifth of each iteration on the link: a round robin fits. */
static void test_four_jobs(void **state)
{
	struct jc_job jobs[4];
	struct jc_link l = link_n(4, RATE);
	struct jc_link_result r, again;
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++)
		jobs[i] = job1("j", 160, 500000);	/* 160 + 40 ms */
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), 0);
	assert_true(r.overlap < 0.01);
	assert_true(r.compatible);
	for (i = 0; i < 4; i++)
		assert_float_equal(r.interleaved_ms[i], 200, 2);
	/* deterministic */
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &again), 0);
	assert_memory_equal(r.shift_ms, again.shift_ms, sizeof(r.shift_ms));
	assert_true(r.overlap == again.overlap);
}

/* The circle: an exact common multiple when it fits, a bounded one otherwise. */
static void test_circle(void **state)
{
	struct jc_job jobs[2] = { job1("a", 155, 1250000), job1("b", 240, 1250000) };
	struct jc_link l = link_n(2, RATE);
	struct jc_link_result r;

	(void)state;
	/* 255 and 340 ms: LCM 1020 ms */
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), 0);
	assert_float_equal(r.perimeter_ms, 1020, 1e-6);
	assert_float_equal(r.stretch, 0, 1e-9);
	/* 255 and 280 ms: LCM 14280 ms, above the bound: a multiple of 280, stretched */
	jobs[1] = job1("b", 180, 1250000);
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), 0);
	assert_true(r.stretch > 0 && r.stretch < 0.005);
	assert_float_equal(fmod(r.perimeter_ms, 280), 0, 1e-6);
	assert_true(r.perimeter_ms <= JC_CIRCLE_CELLS * 1.0);
	/* their phases drift past each other: 39% and 36% of the link cannot interleave */
	assert_false(r.compatible);
}

static void test_errors(void **state)
{
	struct jc_job jobs[2] = { job1("a", 150, 1250000), job1("b", 150, 1250000) };
	struct jc_link l = link_n(2, RATE), links[1];
	struct jc_link_result r;
	double shift[2], t[2];

	(void)state;
	assert_int_equal(jc_link_eval(jobs, &l, 1.5, &r), -EINVAL);
	assert_int_equal(jc_link_eval(jobs, &l, NAN, &r), -EINVAL);
	l.rate_bps = 0;
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), -EINVAL);
	l = link_n(2, RATE);
	l.job[1] = 0;		/* a job twice */
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), -EINVAL);
	l = link_n(2, RATE);
	jobs[1].nseg = 0;
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), -EINVAL);
	jobs[1].nseg = 1;
	links[0] = link_n(2, RATE);
	links[0].job[1] = 2;	/* no job 2 */
	assert_int_equal(jc_schedule(jobs, 2, links, 1, shift, NULL), -EINVAL);
	assert_int_equal(jc_schedule(jobs, JC_MAX_JOBS + 1, links, 1, shift, NULL), -EINVAL);
	shift[0] = -1;
	shift[1] = 0;
	assert_int_equal(jc_fluid(jobs, &l, JC_FAIR, shift, t), -EINVAL);
	/* one job, or none: nothing to overlap */
	l = link_n(1, RATE);
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), 0);
	assert_true(r.compatible && r.overlap == 0);
	assert_float_equal(r.fair_ms[0], 250, 1e-6);
	l = link_n(0, RATE);
	assert_int_equal(jc_link_eval(jobs, &l, 0.05, &r), 0);
}

/* sum over @links of the overlap at @shift (indexed by job) */
static double overlap_sum(const struct jc_job *jobs, const struct jc_link *links,
			  unsigned int nlinks, const double *shift)
{
	double sum = 0, ov, s[JC_MAX_JOBS];
	unsigned int l, p;

	for (l = 0; l < nlinks; l++) {
		for (p = 0; p < links[l].njobs; p++)
			s[p] = shift[links[l].job[p]];
		assert_int_equal(jc_overlap(jobs, &links[l], s, &ov), 0);
		sum += ov;
	}
	return sum;
}

/* A chain a - b - c - d over three links: one shift per job must suit both its links. */
static void test_schedule_chain(void **state)
{
	struct jc_job jobs[4];
	struct jc_link links[3];
	double shift[4], zero[4] = { 0 }, ov[3], s0, s1;
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		links[i] = link_n(2, RATE);
		links[i].job[0] = i;
		links[i].job[1] = i + 1;
	}
	/* 120 ms compute + 80 ms communication: a, c at 0 and b, d at 100 ms fit exactly */
	for (i = 0; i < 4; i++)
		jobs[i] = job1("j", 120, 1000000);
	assert_int_equal(jc_schedule(jobs, 4, links, 3, shift, ov), 0);
	s0 = overlap_sum(jobs, links, 3, zero);
	s1 = overlap_sum(jobs, links, 3, shift);
	assert_float_equal(s0, 1.5, 1e-9);
	assert_true(s1 < 1e-6);
	for (i = 0; i < 3; i++)
		assert_true(ov[i] < 1e-6);
	/* neighbours 80 to 100 ms apart round their 200 ms iteration */
	for (i = 0; i < 3; i++) {
		double d = fmod(fabs(shift[i] - shift[i + 1]), 200);

		d = fmin(d, 200 - d);
		assert_true(d >= 80 - 1e-6);
	}

	/* no perfect schedule (b is on the link 70% of the time): still no worse than 0 */
	jobs[1] = job1("b", 60, 1750000);
	jobs[3] = job1("d", 20, 500000);
	assert_int_equal(jc_schedule(jobs, 4, links, 3, shift, ov), 0);
	s0 = overlap_sum(jobs, links, 3, zero);
	s1 = overlap_sum(jobs, links, 3, shift);
	assert_true(s1 <= s0 + 1e-9);
	assert_true(s1 > 0.01);
	assert_float_equal(ov[0] + ov[1] + ov[2], s1, 1e-9);
}

/*
 * A ring of nine jobs, each link shared by three neighbours, a third of each
 * iteration on the link: every third job at the same shift fits exactly.  Coordinate
 * descent from all at 0 misses it; the greedy start (Cassini's traversal) finds it.
 */
static void test_schedule_ring(void **state)
{
	struct jc_job jobs[9];
	struct jc_link links[9];
	double shift[9], ov[9], zero[9] = { 0 };
	unsigned int i, k;

	(void)state;
	for (i = 0; i < 9; i++) {
		jobs[i] = job1("j", 134, 825000);	/* 134 + 66 ms */
		links[i] = link_n(3, RATE);
		for (k = 0; k < 3; k++)
			links[i].job[k] = (i + k) % 9;
	}
	assert_int_equal(jc_schedule(jobs, 9, links, 9, shift, ov), 0);
	assert_true(overlap_sum(jobs, links, 9, shift) < 1e-6);
	assert_float_equal(overlap_sum(jobs, links, 9, zero), 9 * 2.0 / 3, 1e-9);
}

/* 16 jobs on 100 links of 2 to 4 jobs each: well under a second */
static void test_schedule_speed(void **state)
{
	static struct jc_job jobs[16];
	static struct jc_link links[100];
	double shift[16], ov[100], t;
	uint32_t x = 12345;
	unsigned int i, l, k;
	clock_t c0;

	(void)state;
	for (i = 0; i < 16; i++)
		jobs[i] = job1("j", 100 + 17 * i, 300000 + 50000.0 * (i % 5));
	for (l = 0; l < 100; l++) {
		links[l].rate_bps = l % 3 ? RATE : 4 * RATE;
		links[l].njobs = 2 + l % 3;
		for (k = 0; k < links[l].njobs; k++) {
			unsigned int j;
			bool dup;

			do {
				x = x * 1103515245 + 12345;
				j = (x >> 16) % 16;
				dup = false;
				for (i = 0; i < k; i++)
					dup |= links[l].job[i] == j;
			} while (dup);
			links[l].job[k] = j;
		}
	}
	c0 = clock();
	assert_int_equal(jc_schedule(jobs, 16, links, 100, shift, ov), 0);
	t = (double)(clock() - c0) / CLOCKS_PER_SEC;
	printf("# jc_schedule, 16 jobs on 100 links: %.3f s of CPU\n", t);
	assert_true(t < 1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_ideal),
		cmocka_unit_test(test_compatible_pair),
		cmocka_unit_test(test_incompatible_pair),
		cmocka_unit_test(test_fair_analytic),
		cmocka_unit_test(test_interleaving_beats_fair),
		cmocka_unit_test(test_four_jobs),
		cmocka_unit_test(test_circle),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_schedule_chain),
		cmocka_unit_test(test_schedule_ring),
		cmocka_unit_test(test_schedule_speed),
	};

	return cmocka_run_group_tests_name("jobcompat", tests, NULL, NULL);
}
