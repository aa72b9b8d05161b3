// SPDX-License-Identifier: GPL-2.0
/* Unit tests of records.c (CSV and JSON lines). */
#include <math.h>
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_tests.h"
#include "records.h"

static FILE *from_text(const char *text)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	fputs(text, f);
	rewind(f);
	return f;
}

static char *slurp(FILE *f)
{
	long len;
	char *buf;

	fflush(f);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	rewind(f);
	return buf;
}

static void fill(struct iter_rec *r)
{
	memset(r, 0, sizeof(r[0]) * 2);
	r[0].mode = MODE_SHARED;
	r[0].job = 1;
	r[0].iter = 7;
	snprintf(r[0].name, sizeof(r[0].name), "bench-2");
	snprintf(r[0].cc, sizeof(r[0].cc), "mltcp_reno");
	r[0].start = 1000.5;
	r[0].end = 1251.25;
	r[0].comm_start = 1150.5;
	r[0].comm_end = 1251.25;
	r[0].bytes = 1250000;
	r[0].comm_ms = 100.75;
	r[0].overlap = 0.125;
	r[0].contended = 1;
	r[0].drops = 12;
	r[0].marks = 0;
	r[0].link_overlap = 0.0625;
	r[1] = r[0];
	r[1].mode = MODE_IDEAL;
	r[1].iter = 0;
	r[1].overlap = NAN;
	r[1].comm_ms = NAN;
	r[1].drops = NAN;
	r[1].marks = NAN;
	r[1].link_overlap = NAN;
	r[1].contended = 0;
}

static void test_iterations_roundtrip(void **state)
{
	struct iter_rec r[2], *back = NULL;
	FILE *f = tmpfile();
	char err[256], *text;
	size_t n = 0;

	(void)state;
	fill(r);
	assert_int_equal(records_write_iterations_csv(f, r, 2), 0);
	text = slurp(f);
	assert_non_null(strstr(text, "mode,job,name,cc,iter,start_ms,end_ms,"));
	assert_non_null(strstr(text, "\nshared,1,bench-2,mltcp_reno,7,1000.500,1251.250,"));
	assert_non_null(strstr(text, "\nideal,1,bench-2,mltcp_reno,0,"));
	assert_non_null(strstr(text, ",250.750,,,0,,,\n")); /* iter_ms, then unknowns empty */
	assert_non_null(strstr(text, ",0.1250,1,12.0,0.0,0.0625\n"));
	free(text);
	assert_int_equal(records_read_iterations_csv(f, "it.csv", &back, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(back[0].mode, MODE_SHARED);
	assert_int_equal(back[0].job, 1);
	assert_int_equal(back[0].iter, 7);
	assert_string_equal(back[0].name, "bench-2");
	assert_string_equal(back[0].cc, "mltcp_reno");
	assert_float_equal(back[0].start, 1000.5, 1e-9);
	assert_float_equal(back[0].end, 1251.25, 1e-9);
	assert_float_equal(back[0].comm_start, 1150.5, 1e-9);
	assert_int_equal(back[0].bytes, 1250000);
	assert_float_equal(back[0].comm_ms, 100.75, 1e-9);
	assert_float_equal(back[0].overlap, 0.125, 1e-9);
	assert_int_equal(back[0].contended, 1);
	assert_float_equal(back[0].drops, 12, 1e-9);
	assert_float_equal(back[0].marks, 0, 1e-9);
	assert_float_equal(back[0].link_overlap, 0.0625, 1e-9);
	assert_int_equal(back[1].mode, MODE_IDEAL);
	assert_true(isnan(back[1].overlap) && isnan(back[1].comm_ms) && isnan(back[1].drops) &&
		    isnan(back[1].marks) && isnan(back[1].link_overlap));
	assert_int_equal(back[1].contended, 0);
	free(back);
	fclose(f);
}

static void test_iterations_minimal_columns(void **state)
{
	/* reordered, extra column, CRLF, blank line, optional columns absent */
	FILE *f = from_text("end_ms,extra,iter,job,mode,start_ms\r\n"
			    "250.5,x,0,0,shared,0\r\n"
			    "\n"
			    "500,y,1,0,shared,250.5\n");
	struct iter_rec *r = NULL;
	char err[256];
	size_t n = 0;

	(void)state;
	assert_int_equal(records_read_iterations_csv(f, "m.csv", &r, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_float_equal(r[1].start, 250.5, 1e-9);
	assert_float_equal(r[1].end, 500, 1e-9);
	assert_int_equal(r[1].iter, 1);
	assert_string_equal(r[1].name, "");
	assert_true(isnan(r[1].overlap));
	assert_true(isnan(r[1].link_overlap)); /* results of builds before the column */
	free(r);
	fclose(f);
}

static void test_iterations_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "", "e.csv: empty file" },
		{ "mode,job,iter,start_ms\nshared,0,0,1\n", "e.csv:1: header has no 'end_ms' column" },
		{ "mode,job,iter,start_ms,end_ms\nshared,0,0,1\n", "e.csv:2: missing column 'end_ms'" },
		{ "mode,job,iter,start_ms,end_ms\nshared,0,0,1,x2\n",
		  "e.csv:2: 'x2' is not a number in column 'end_ms'" },
		{ "mode,job,iter,start_ms,end_ms\nfair,0,0,1,2\n", "e.csv:2: mode 'fair'" },
		{ "mode,job,iter,start_ms,end_ms\nshared,-1,0,1,2\n", "e.csv:2: '-1' is not an unsigned" },
		{ "mode,job,iter,start_ms,end_ms\nshared,0,0,5,2\n", "e.csv:2: end_ms before start_ms" },
		{ "mode,job,iter,start_ms,end_ms\nshared,0,0,,2\n", "e.csv:2: empty 'start_ms'" },
		{ "mode,job,iter,start_ms,end_ms\nshared,999,0,1,2\n", "e.csv:2: job 999" },
		{ "mode,job,iter,start_ms,end_ms\n\"shared\",0,0,1,2\n", "quoted fields" },
		{ "mode,job,iter,start_ms,end_ms,name\nshared,0,0,1,2,"
		  "0123456789012345678901234567890123456789\n",
		  "too long for column 'name'" },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = from_text(cases[i].text);
		struct iter_rec *r = (struct iter_rec *)0x1;
		size_t n = 0;

		err[0] = '\0';
		assert_int_equal(records_read_iterations_csv(f, "e.csv", &r, &n, err, sizeof(err)), -1);
		if (!strstr(err, cases[i].msg))
			fail_msg("case %zu: '%s' does not contain '%s'", i, err, cases[i].msg);
		fclose(f);
	}
}

static void test_phases(void **state)
{
	struct phase_rec p[] = { { MODE_SHARED, 0, 3, 1, 10.25, 20.5, 250000 },
				 { MODE_IDEAL, 2, 0, 0, 0, 1, 7 } },
			 *back = NULL;
	FILE *f = tmpfile(), *g;
	char err[256], *text;
	size_t n = 0;

	(void)state;
	assert_int_equal(records_write_phases_csv(f, p, 2), 0);
	text = slurp(f);
	assert_string_equal(text, "mode,job,iter,phase,start_ms,end_ms,bytes\n"
				  "shared,0,3,1,10.250,20.500,250000\n"
				  "ideal,2,0,0,0.000,1.000,7\n");
	free(text);
	assert_int_equal(records_read_phases_csv(f, "p.csv", &back, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(back[0].iter, 3);
	assert_int_equal(back[0].phase, 1);
	assert_float_equal(back[0].end, 20.5, 1e-9);
	assert_int_equal(back[1].mode, MODE_IDEAL);
	assert_int_equal(back[1].bytes, 7);
	free(back);
	fclose(f);

	g = from_text("mode,job,iter,phase,start_ms,end_ms\nshared,0,0,64,1,2\n");
	assert_int_equal(records_read_phases_csv(g, "p.csv", &back, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "p.csv:2: job, iter or phase out of range"));
	fclose(g);
	g = from_text("mode,job,iter,start_ms,end_ms\n");
	assert_int_equal(records_read_phases_csv(g, "p.csv", &back, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no 'phase' column"));
	fclose(g);
}

static void test_jsonl(void **state)
{
	struct iter_rec r[2];
	FILE *f = tmpfile();
	char *text;

	(void)state;
	fill(r);
	assert_int_equal(records_write_iterations_jsonl(f, r, 2), 0);
	text = slurp(f);
	assert_non_null(strstr(text, "{\"mode\":\"shared\",\"job\":1,\"name\":\"bench-2\","
				     "\"cc\":\"mltcp_reno\",\"iter\":7,\"start_ms\":1000.500,"));
	assert_non_null(strstr(text, "\"overlap\":0.1250,\"contended\":true,\"drops\":12.0,"
				     "\"marks\":0.0,\"link_overlap\":0.0625}\n"));
	assert_non_null(strstr(text, "\"comm_ms\":null,\"overlap\":null,\"contended\":false,"
				     "\"drops\":null,\"marks\":null,\"link_overlap\":null}\n"));
	free(text);
	fclose(f);
}

static void test_share(void **state)
{
	FILE *f = from_text("t_ms,bench-1,bench-2\n"
			    "100.000,80.000,0.000\n"
			    "105.000,40.500,20.000\n"
			    "110.000,0.000,96.000\n");
	struct share_rec sh;
	char err[256];

	(void)state;
	assert_int_equal(records_read_share_csv(f, "s.csv", &sh, err, sizeof(err)), 0);
	assert_int_equal(sh.njobs, 2);
	assert_int_equal(sh.nbins, 3);
	assert_float_equal(sh.t0, 100, 1e-9);
	assert_float_equal(sh.bin_ms, 5, 1e-9);
	assert_float_equal(sh.mbit[1 * 2 + 0], 40.5, 1e-9);
	assert_float_equal(sh.mbit[2 * 2 + 1], 96, 1e-9);
	free(sh.mbit);
	fclose(f);

	/* a header only: no bins, no spacing */
	f = from_text("t_ms,a\n");
	assert_int_equal(records_read_share_csv(f, "s.csv", &sh, err, sizeof(err)), 0);
	assert_int_equal(sh.nbins, 0);
	assert_true(isnan(sh.bin_ms));
	free(sh.mbit);
	fclose(f);

	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "", "empty file" },
		{ "time,a\n1,2\n", "expected a header" },
		{ "t_ms\n1\n", "expected a header" },
		{ "t_ms,a,b\n1,2\n", "2 fields, expected 3" },
		{ "t_ms,a\n1,x\n", "'x' is not a valid value" },
		{ "t_ms,a\n1,-3\n", "'-3' is not a valid value" },
		{ "t_ms,a\n5,1\n5,2\n", "does not increase" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = from_text(bad[i].text);
		assert_int_equal(records_read_share_csv(f, "s.csv", &sh, err, sizeof(err)), -1);
		assert_non_null(strstr(err, bad[i].msg));
		assert_null(sh.mbit);
		fclose(f);
	}
}

const struct CMUnitTest records_tests[] = {
	cmocka_unit_test(test_iterations_roundtrip), cmocka_unit_test(test_iterations_minimal_columns),
	cmocka_unit_test(test_iterations_errors),    cmocka_unit_test(test_phases),
	cmocka_unit_test(test_jsonl),		     cmocka_unit_test(test_share),
};
const size_t records_ntests = sizeof(records_tests) / sizeof(records_tests[0]);
