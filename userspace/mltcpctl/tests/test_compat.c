// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of mltcpctl compat: its options, rates and byte counts, the
 * profile and trace readers, and its output.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compat.h"
#include "output.h"
#include "parse.h"
#include "test_util.h"

static struct mltcpctl_compat cc;

/* @text as a file to read */
static FILE *memfile(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	return f;
}

static int profile(const char *text, double rate_bps)
{
	FILE *f = memfile(text);
	int ret = mltcpctl_compat_read_profile(f, "jobs.txt", rate_bps, &cc, errbuf,
					       sizeof(errbuf));

	fclose(f);
	return ret;
}

static int trace(const char *text, int by, double rate_bps)
{
	FILE *f = memfile(text);
	int ret = mltcpctl_compat_read_trace(f, "trace", by, rate_bps, &cc, errbuf, sizeof(errbuf));

	fclose(f);
	return ret;
}

struct parse_case {
	const char *s;
	double v;
};

/* @fn takes each of @good, with its value, and refuses each of @bad */
static void check_parser(int (*fn)(const char *, double *), const struct parse_case *good,
			 size_t ngood, const char *const *bad, size_t nbad)
{
	double v;
	size_t i;

	for (i = 0; i < ngood; i++) {
		if (fn(good[i].s, &v) || fabs(v - good[i].v) > good[i].v * 1e-12)
			fail_msg("'%s' refused or not %g", good[i].s, good[i].v);
	}
	for (i = 0; i < nbad; i++) {
		if (!fn(bad[i], &v))
			fail_msg("'%s' accepted", bad[i]);
	}
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_rate(void **state)
{
	static const struct parse_case good[] = {
		{ "10gbit", 1e10 }, { "25Gbps", 2.5e10 }, { "2.5Gb/s", 2.5e9 },
		{ "100mbit", 1e8 }, { "100Mbit", 1e8 }, { "1kbit", 1e3 }, { "1.5tbit", 1.5e12 },
		{ "9600bit", 9600 }, { "400Gbps", 4e11 },
	};
	static const char *const bad[] = {
		"10", "", "gbit", "10 gbit", "-1gbit", "1e3bit", "0bit", "10xbit", ".5gbit",
		"10.gbit", "10GBps", "10gbitx", "10gbits", "999bit", "2000tbit", "0x10gbit",
		"10GBIT", "nan", "inf",
	};

	(void)state;
	check_parser(mltcpctl_parse_rate, good, N(good), bad, N(bad));
}

static void test_bytes(void **state)
{
	static const struct parse_case good[] = {
		{ "1250000", 1250000 }, { "1.25M", 1250000 }, { "64KiB", 65536 },
		{ "1MiB", 1048576 }, { "1mb", 1e6 }, { "2GB", 2e9 }, { "1.5gib", 1610612736 },
		{ "100b", 100 }, { "3k", 3000 }, { "1T", 1e12 },
	};
	static const char *const bad[] = {
		"0", "", "1x", "-1", "1.5.5", "1Mi", "1e6", "0.4", "M", "1 M", "2PB", "1ib",
		"2000T",
	};

	(void)state;
	check_parser(mltcpctl_parse_bytes, good, N(good), bad, N(bad));
}

static void test_args(void **state)
{
	struct mltcpctl_args a;

	(void)state;
	assert_int_equal(parse(&a, "compat", "-f", "jobs.txt", "--rate", "10gbit", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_COMPAT);
	assert_string_equal(a.file, "jobs.txt");
	assert_null(a.trace);
	assert_float_equal(a.rate_bps, 1e10, 0);
	assert_float_equal(a.threshold, MLTCPCTL_COMPAT_THRESHOLD, 0);
	/* abbreviated, options anywhere, --opt=value */
	assert_int_equal(parse(&a, "--rate=25Gbps", "-j", "comp", "--trace", "-", "--by", "src",
			       "--threshold", "0.1", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_COMPAT);
	assert_string_equal(a.trace, "-");
	assert_int_equal(a.by, MLTCPCTL_BY_SRC);
	assert_float_equal(a.threshold, 0.1, 0);
	assert_true(a.json);
	/* stdin, no --rate: the file's link lines may give the rates */
	assert_int_equal(parse(&a, "compat", NULL), 0);
	assert_null(a.file);
	assert_float_equal(a.rate_bps, 0, 0);
	assert_int_equal(parse(&a, "compat", "--trace", "t", "--rate", "1gbit", NULL), 0);
	assert_int_equal(a.by, MLTCPCTL_BY_DPORT);

	assert_int_equal(parse(&a, "compat", "--rate", "10", NULL), -1);
	assert_non_null(strstr(errbuf, "--rate: invalid rate '10'"));
	assert_int_equal(parse(&a, "compat", "--rate", NULL), -1);
	assert_string_equal(errbuf, "--rate needs a value");
	assert_int_equal(parse(&a, "compat", "--threshold", "1.5", NULL), -1);
	assert_non_null(strstr(errbuf, "--threshold: invalid"));
	assert_int_equal(parse(&a, "compat", "--trace", "t", "--rate", "1gbit", "--by", "port",
			       NULL), -1);
	assert_string_equal(errbuf, "--by: invalid key 'port' (dport, src or dst)");
	assert_int_equal(parse(&a, "compat", "--by", "src", NULL), -1);
	assert_string_equal(errbuf, "compat: --by groups the records of --trace");
	assert_int_equal(parse(&a, "compat", "--trace", "t", NULL), -1);
	assert_non_null(strstr(errbuf, "--trace needs --rate"));
	assert_int_equal(parse(&a, "compat", "-f", "a", "--trace", "b", "--rate", "1gbit", NULL),
			 -1);
	assert_non_null(strstr(errbuf, "either -f FILE"));
	assert_int_equal(parse(&a, "show", "--rate", "1gbit", NULL), -1);
	assert_non_null(strstr(errbuf, "apply to compat only"));
	assert_int_equal(parse(&a, "compat", "jobs.txt", NULL), -1);
	assert_string_equal(errbuf, "unexpected argument 'jobs.txt'");
	assert_int_equal(parse(&a, "compat", "-f=jobs.txt", NULL), -1);
	assert_string_equal(errbuf, "unknown option '-f=jobs.txt' (see --help)");
}

static const char good_profile[] =
	"# two data-parallel jobs and a hybrid-parallel one\n"
	"\n"
	"vgg16    141:1.425M          # 255 ms at 100 Mbit/s\n"
	"resnet   200:1MB\n"
	"gpt      60:250k,20:250k 20:250KiB\n"
	"\t  \n";

static void test_profile(void **state)
{
	(void)state;
	assert_int_equal(profile(good_profile, 1e8), 0);
	assert_int_equal(cc.njobs, 3);
	assert_string_equal(cc.info[0].name, "vgg16");
	assert_string_equal(cc.jobs[0].name, "vgg16");
	assert_int_equal(cc.jobs[0].nseg, 1);
	assert_float_equal(cc.jobs[0].seg[0].compute_ms, 141, 0);
	assert_float_equal(cc.jobs[0].seg[0].bytes, 1425000, 0);
	assert_int_equal(cc.jobs[2].nseg, 3);
	assert_float_equal(cc.jobs[2].seg[2].compute_ms, 20, 0);
	assert_float_equal(cc.jobs[2].seg[2].bytes, 256000, 0);
	/* no link lines: one link with every job at --rate */
	assert_int_equal(cc.nlinks, 1);
	assert_string_equal(cc.links[0].name, "link");
	assert_int_equal(cc.links[0].link.njobs, 3);
	assert_float_equal(cc.links[0].link.rate_bps, 1e8, 0);
	assert_false(cc.trace);

	assert_int_equal(profile("a 100:1M\nb 100:1M\nc 50:2M\n"
				 "link tor1 10gbit a b\nlink spine 40Gbps b c\n", 0), 0);
	assert_int_equal(cc.nlinks, 2);
	assert_string_equal(cc.links[1].name, "spine");
	assert_float_equal(cc.links[1].link.rate_bps, 4e10, 0);
	assert_int_equal(cc.links[1].link.njobs, 2);
	assert_int_equal(cc.links[1].link.job[0], 1);
	assert_int_equal(cc.links[1].link.job[1], 2);
}

/* an input and the start of the message it gets */
struct err_case {
	const char *text;
	const char *err;
};

static void test_profile_errors(void **state)
{
	static const struct err_case bad[] = {
		{ "a 100:1M\nb@ 100:1M\n", "jobs.txt:2: invalid job name 'b@'" },
		{ "a 100:1M\na 100:1M\n", "jobs.txt:2: job 'a' defined twice" },
		{ "a\n", "jobs.txt:1: job 'a' has no segments" },
		{ "a 100\n", "jobs.txt:1: job 'a': segment '100' is not COMPUTE_MS:BYTES" },
		{ "a 100:1M,\n", "jobs.txt:1: job 'a': empty segment in '100:1M,'" },
		{ "a -5:1M\n", "jobs.txt:1: job 'a': invalid compute time '-5'" },
		{ "a 4000000:1M\n", "jobs.txt:1: job 'a': invalid compute time '4000000'" },
		{ "a 5:1Q\n", "jobs.txt:1: job 'a': invalid byte count '1Q'" },
		{ "a 5:0\n", "jobs.txt:1: job 'a': invalid byte count '0'" },
		{ "a 1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1\n",
		  "jobs.txt:1: job 'a': more than 8 segments" },
		{ "a 1:1M\nlink l 1gbit a b\n", "jobs.txt:2: link 'l': unknown job 'b'" },
		{ "link l 1gbit a\na 1:1M\n", "jobs.txt:1: link 'l': unknown job 'a'" },
		{ "a 1:1M\nlink l 1gbps\n", "jobs.txt:2: a link line is: link NAME RATE JOB" },
		{ "a 1:1M\nlink l 1GBps a\n", "jobs.txt:2: link 'l': invalid rate '1GBps'" },
		{ "a 1:1M\nlink l 1gbit a a\n", "jobs.txt:2: link 'l': job 'a' given twice" },
		{ "a 1:1M\nlink l 1gbit a\nlink l 1gbit a\n", "jobs.txt:3: link 'l' defined twice" },
		{ "a 1:1M\nb 1:1M\nlink l 1gbit a\n", "jobs.txt: job 'b' is on no link" },
		{ "# nothing\n\n", "jobs.txt: no jobs" },
	};
	char longline[MLTCPCTL_COMPAT_LINE + 100];
	size_t i;

	(void)state;
	for (i = 0; i < N(bad); i++) {
		assert_int_equal(profile(bad[i].text, 1e9), MLTCPCTL_COMPAT_EINPUT);
		if (strncmp(errbuf, bad[i].err, strlen(bad[i].err)))
			fail_msg("'%s': '%s', not '%s'", bad[i].text, errbuf, bad[i].err);
	}
	/* the command line does not fit the file: usage errors */
	assert_int_equal(profile("a 1:1M\n", 0), MLTCPCTL_COMPAT_EUSAGE);
	assert_string_equal(errbuf,
			    "compat: jobs.txt has no link lines: give the link's rate with --rate");
	assert_int_equal(profile("a 1:1M\nlink l 1gbit a\n", 1e9), MLTCPCTL_COMPAT_EUSAGE);
	assert_string_equal(errbuf,
			    "compat: the link lines of jobs.txt give the rates: drop --rate");

	memset(longline, 'a', sizeof(longline) - 2);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	assert_int_equal(profile(longline, 1e9), MLTCPCTL_COMPAT_EINPUT);
	assert_string_equal(errbuf, "jobs.txt:1: longer than 4096 characters");
}

/* /sys/kernel/tracing/trace and perf script lines, and lines to skip */
static const char good_trace[] =
	"# tracer: nop\n"
	"#\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"   python3-1234 [001] ..... 12.345678: mltcp_iteration: src=[10.0.0.1]:40000 dst=[10.0.0.2]:29500 source=given bytes=1048576 duration_ms=120 bytes_per_iter=1048576 iterations=17\n"
	"   python3-1234 [001] ..... 12.465678: mltcp_iteration: src=[10.0.0.1]:40000 dst=[10.0.0.2]:29500 source=given bytes=1048000 duration_ms=118 bytes_per_iter=1048576 iterations=18\n"
	"   python3-1234 [001] ..... 12.585678: mltcp_iteration: src=[10.0.0.1]:40000 dst=[10.0.0.2]:29500 source=given bytes=2000000 duration_ms=400 bytes_per_iter=1048576 iterations=19\n"
	"   python3-1234 [001] ..... 12.600000: mltcp_gap: gap_ms=30 ref_ms=30\n"
	/* the same job's second connection, from perf script */
	"  python3  1234 [000]    12.700000: mltcp:mltcp_iteration: src=[::ffff:10.0.0.1]:40001 dst=[::ffff:10.0.0.3]:29500 source=learned bytes=500000 duration_ms=121 bytes_per_iter=500000 iterations=3\n"
	/* another job, another port; its compute is below the bytes' time: 0 */
	"   python3-999 [000] ..... 13.000000: mltcp_iteration: src=[2001:db8::1]:50000 dst=[2001:db8::2]:29501 source=learned bytes=12500000 duration_ms=50 bytes_per_iter=0 iterations=1 future_field=7\n";

static void test_trace(void **state)
{
	(void)state;
	assert_int_equal(trace(good_trace, MLTCPCTL_BY_DPORT, 1e9), 0);
	assert_true(cc.trace);
	assert_int_equal(cc.njobs, 2);
	assert_string_equal(cc.info[0].name, "29500");
	assert_int_equal(cc.info[0].records, 4);
	assert_int_equal(cc.info[0].conns, 2);
	/* bytes: the median of each connection, summed; compute: median duration - 8.384 ms */
	assert_float_equal(cc.jobs[0].seg[0].bytes, 1048576 + 500000, 0);
	assert_float_equal(cc.info[0].duration_ms, 120.5, 1e-9);
	assert_float_equal(cc.jobs[0].seg[0].compute_ms, 120.5 - 1548576 * 8e3 / 1e9, 1e-9);
	assert_string_equal(cc.info[1].name, "29501");
	assert_float_equal(cc.jobs[1].seg[0].compute_ms, 0, 0);
	assert_int_equal(cc.nlinks, 1);
	assert_int_equal(cc.links[0].link.njobs, 2);
	assert_float_equal(cc.links[0].link.rate_bps, 1e9, 0);

	/* by source address: v4-mapped addresses are IPv4 ones */
	assert_int_equal(trace(good_trace, MLTCPCTL_BY_SRC, 1e9), 0);
	assert_int_equal(cc.njobs, 2);
	assert_string_equal(cc.info[0].name, "10.0.0.1");
	assert_int_equal(cc.info[0].records, 4);
	assert_string_equal(cc.info[1].name, "2001:db8::1");
	/* by destination: three hosts, three jobs */
	assert_int_equal(trace(good_trace, MLTCPCTL_BY_DST, 1e9), 0);
	assert_int_equal(cc.njobs, 3);
	assert_string_equal(cc.info[1].name, "10.0.0.3");
	assert_int_equal(cc.info[0].records, 3);
	assert_float_equal(cc.jobs[0].seg[0].bytes, 1048576, 0);
}

static void test_trace_errors(void **state)
{
	static const char *const line =
		"x-1 [001] ..... 1.0: mltcp_iteration: src=[10.0.0.1]:1 dst=[10.0.0.2]:2 ";
	static const struct err_case bad[] = {
		{ "bytes=1 duration_ms=x", "trace:2: invalid duration_ms 'x'" },
		{ "bytes=-1 duration_ms=1", "trace:2: invalid bytes '-1'" },
		{ "bytes=1", "trace:2: an mltcp_iteration record without duration_ms" },
		{ "bytes=1 duration_ms=1 bytes=2", "trace:2: bytes given twice" },
		{ "bytes=1 duration_ms=1 junk", "trace:2: 'junk' is not KEY=VALUE" },
		{ "bytes=0 duration_ms=1", "trace: job '2': its records carry no bytes" },
	};
	char text[512];
	size_t i;

	(void)state;
	for (i = 0; i < N(bad); i++) {
		snprintf(text, sizeof(text), "# tracer: nop\n%s%s\n", line, bad[i].text);
		assert_int_equal(trace(text, MLTCPCTL_BY_DPORT, 1e9), MLTCPCTL_COMPAT_EINPUT);
		if (strcmp(errbuf, bad[i].err))
			fail_msg("'%s': '%s', not '%s'", bad[i].text, errbuf, bad[i].err);
	}
	assert_int_equal(trace("x-1 [001] ..... 1.0: mltcp_iteration: src=10.0.0.1:1 "
			       "dst=[10.0.0.2]:2 bytes=1 duration_ms=1\n", MLTCPCTL_BY_DPORT, 1e9),
			 MLTCPCTL_COMPAT_EINPUT);
	assert_string_equal(errbuf, "trace:1: invalid src '10.0.0.1:1'");
	assert_int_equal(trace("x-1 [001] ..... 1.0: mltcp_iteration: src=[10.0.0.1]:1 "
			       "dst=[10.0.0.300]:2 bytes=1 duration_ms=1\n", MLTCPCTL_BY_DPORT,
			       1e9), MLTCPCTL_COMPAT_EINPUT);
	assert_string_equal(errbuf, "trace:1: invalid dst '[10.0.0.300]:2'");
	assert_int_equal(trace("# tracer: nop\nx-1 [001] 1.0: mltcp_gap: gap_ms=3\n",
			       MLTCPCTL_BY_DPORT, 1e9), MLTCPCTL_COMPAT_EINPUT);
	assert_non_null(strstr(errbuf, "trace: no mltcp_iteration records"));
}

static char *capture(const struct mltcpctl_compat *c, bool json, bool pretty)
{
	char *text = NULL;

	CAPTURE(text, json, pretty, mltcpctl_print_compat(&o, c));
	return text;
}

static void test_output(void **state)
{
	char *text;

	(void)state;
	/* 150 ms + 100 ms each: they take turns; fair sharing keeps them in lockstep */
	assert_int_equal(profile("a 150:1.25M\nb 150:1.25M\n", 1e8), 0);
	assert_int_equal(mltcpctl_compat_eval(&cc, 0.05), 0);
	assert_true(cc.links[0].res.compatible);
	assert_false(cc.schedule);
	text = capture(&cc, false, false);
	assert_non_null(strstr(text, "link link, 100Mbit/s, 2 jobs: compatible, overlap 0.0000 "
				     "(threshold 0.05)\n"));
	assert_non_null(strstr(text, "circle 250.000 ms (a common multiple"));
	assert_non_null(strstr(text, "InterleavedMs"));
	assert_non_null(strstr(text, "\na                   1    150.000        1250000    "
				     "250.000    350.000       250.000      0.000\n"));
	assert_null(strstr(text, "schedule"));
	free(text);

	text = capture(&cc, true, false);
	assert_non_null(strstr(text, "{\"threshold\":0.0500,\"source\":\"profile\",\"links\":"
				     "[{\"name\":\"link\",\"rate_bps\":100000000,"
				     "\"overlap\":0.0000,\"compatible\":true,"));
	assert_non_null(strstr(text, "\"jobs\":[{\"name\":\"a\",\"segments\":[{\"compute_ms\":"
				     "150.000,\"bytes\":1250000}],\"ideal_ms\":250.000,"
				     "\"fair_ms\":350.000,\"interleaved_ms\":250.000,"
				     "\"shift_ms\":0.000}"));
	assert_int_equal(text[strlen(text) - 1], '\n');
	free(text);

	/* several links: the schedule */
	assert_int_equal(profile("a 120:1M\nb 120:1M\nc 120:1M\n"
				 "link l1 100mbit a b\nlink l2 100mbit b c\n", 0), 0);
	assert_int_equal(mltcpctl_compat_eval(&cc, 0.05), 0);
	assert_true(cc.schedule);
	assert_true(cc.sched_sum < 1e-6);
	text = capture(&cc, false, false);
	assert_non_null(strstr(text, "\nschedule: one shift per job on every link, overlap summed "
				     "over links 0.0000\n"));
	assert_non_null(strstr(text, "\nlink l2, 100Mbit/s, 2 jobs: compatible"));
	free(text);
	text = capture(&cc, true, true);
	assert_non_null(strstr(text, "\n    \"schedule\": {\n        \"overlap_sum\": 0.0000,\n"));
	free(text);

	/* a trace: where the profiles came from */
	assert_int_equal(trace(good_trace, MLTCPCTL_BY_DPORT, 1e9), 0);
	assert_int_equal(mltcpctl_compat_eval(&cc, 0.05), 0);
	text = capture(&cc, false, false);
	assert_non_null(strstr(text, "jobs: mltcp_iteration records grouped by dport"));
	assert_non_null(strstr(text, "Records\n"));
	free(text);
	text = capture(&cc, true, false);
	assert_non_null(strstr(text, "\"source\":\"trace\",\"by\":\"dport\""));
	assert_non_null(strstr(text, "\"records\":4,\"connections\":2,\"duration_ms\":120.500"));
	free(text);
}

static void test_format_rate(void **state)
{
	char buf[32];

	(void)state;
	mltcpctl_format_rate(buf, sizeof(buf), 1e10);
	assert_string_equal(buf, "10Gbit/s");
	mltcpctl_format_rate(buf, sizeof(buf), 2.5e9);
	assert_string_equal(buf, "2.5Gbit/s");
	mltcpctl_format_rate(buf, sizeof(buf), 9600);
	assert_string_equal(buf, "9.6kbit/s");
	mltcpctl_format_rate(buf, sizeof(buf), 4e14);
	assert_string_equal(buf, "400Tbit/s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_profile_errors),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_trace_errors),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_format_rate),
	};

	return cmocka_run_group_tests_name("mltcpctl compat", tests, NULL, NULL);
}
