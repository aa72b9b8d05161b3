// SPDX-License-Identifier: GPL-2.0
/* Unit tests of profile.c. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_tests.h"
#include "profile.h"

static void test_parse_bytes(void **state)
{
	uint64_t b;

	(void)state;
	assert_int_equal(parse_bytes("1250000", &b), 0);
	assert_int_equal(b, 1250000);
	assert_int_equal(parse_bytes("1.25M", &b), 0);
	assert_int_equal(b, 1250000);
	assert_int_equal(parse_bytes("1250k", &b), 0);
	assert_int_equal(b, 1250000);
	assert_int_equal(parse_bytes("64KiB", &b), 0);
	assert_int_equal(b, 65536);
	assert_int_equal(parse_bytes("1MiB", &b), 0);
	assert_int_equal(b, 1048576);
	assert_int_equal(parse_bytes("2GB", &b), 0);
	assert_int_equal(b, 2000000000ULL);
	assert_int_equal(parse_bytes("", &b), -1);
	assert_int_equal(parse_bytes("-5", &b), -1);
	assert_int_equal(parse_bytes("1.5", &b), -1); /* fractional bytes */
	assert_int_equal(parse_bytes("12Q", &b), -1);
	assert_int_equal(parse_bytes("M", &b), -1);
	assert_int_equal(parse_bytes("1e3", &b), 0); /* strtod syntax is fine */
	assert_int_equal(b, 1000);
}

static void test_spec(void **state)
{
	struct profile_set s = { .n = 0 };
	char err[256];

	(void)state;
	assert_int_equal(profile_parse_spec(&s, "compute_ms=150,bytes=1.25M", err, sizeof(err)), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.jobs[0].name, "job0");
	assert_true(s.jobs[0].compute_ms == 150);
	assert_int_equal(s.jobs[0].bytes, 1250000);
	assert_int_equal(s.jobs[0].phases, 1);
	assert_int_equal(s.jobs[0].iterations, 40);
	assert_int_equal(s.jobs[0].compute, COMPUTE_SLEEP);
	assert_string_equal(s.jobs[0].cc, "");
	assert_int_equal(profile_parse_spec(&s,
					    "name=mp, compute_ms=60,bytes=250k,phases=6,gap_ms=20,"
					    "iterations=7,offset_ms=12.5,compute=busy,cc=cubic,count=2",
					    err, sizeof(err)),
			 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.jobs[1].name, "mp-1");
	assert_string_equal(s.jobs[2].name, "mp-2");
	assert_int_equal(s.jobs[2].phases, 6);
	assert_true(s.jobs[2].gap_ms == 20);
	assert_true(s.jobs[2].offset_ms == 12.5);
	assert_int_equal(s.jobs[2].compute, COMPUTE_BUSY);
	assert_string_equal(s.jobs[2].cc, "cubic");
	assert_int_equal(s.jobs[2].count, 1);

	assert_int_equal(profile_parse_spec(&s, "compute_ms=150", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no bytes"));
	assert_int_equal(profile_parse_spec(&s, "compute_ms=150,bytes", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not key=value"));
	assert_int_equal(profile_parse_spec(&s, "compute_ms=abc,bytes=1", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "compute_ms: 'abc'"));
	assert_int_equal(profile_parse_spec(&s, "compute_ms=1,bytes=1,colour=red", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "unknown key 'colour'"));
	assert_int_equal(s.n, 3); /* nothing added by failures */
}

static void test_key_errors(void **state)
{
	struct job_profile p;
	char err[256];

	(void)state;
	profile_defaults(&p);
	assert_int_equal(profile_set_key(&p, "phases", "0", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "phases"));
	assert_int_equal(profile_set_key(&p, "phases", "65", err, sizeof(err)), -1);
	assert_int_equal(profile_set_key(&p, "iterations", "-1", err, sizeof(err)), -1);
	assert_int_equal(profile_set_key(&p, "iterations", "10x", err, sizeof(err)), -1);
	assert_int_equal(profile_set_key(&p, "compute", "spin", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "neither 'sleep' nor 'busy'"));
	assert_int_equal(profile_set_key(&p, "name", "a,b", err, sizeof(err)), -1);
	assert_int_equal(profile_set_key(&p, "name", "", err, sizeof(err)), -1);
	assert_int_equal(profile_set_key(&p, "name", "0123456789012345678901234567890123", err,
					 sizeof(err)),
			 -1);
	assert_int_equal(profile_set_key(&p, "cc", "mltcp_reno", err, sizeof(err)), 0);
	assert_int_equal(profile_set_key(&p, "cc", "a b", err, sizeof(err)), -1);
	assert_int_equal(profile_set_key(&p, "cc", "0123456789abcdef", err, sizeof(err)), -1);
	assert_int_equal(profile_set_key(&p, "bytes", "0", err, sizeof(err)), -1);
	assert_int_equal(profile_set_key(&p, "offset_ms", "-3", err, sizeof(err)), -1);
	assert_int_equal(profile_set_key(&p, "count", "65", err, sizeof(err)), -1);
}

static const char good[] =
	"# three jobs\n"
	"[job vgg16]\n"
	"compute_ms = 141   # forward + backward\n"
	"bytes = 1.425M\n"
	"\n"
	"[job]\n"
	"name = rn\n"
	"count = 2\n"
	"compute_ms = 115\n"
	"bytes = 500k\n"
	"iterations = 80\n";

static void test_text(void **state)
{
	struct profile_set s = { .n = 0 };
	char err[256];

	(void)state;
	assert_int_equal(profile_parse_text(&s, good, "t.conf", err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.jobs[0].name, "vgg16");
	assert_int_equal(s.jobs[0].bytes, 1425000);
	assert_int_equal(s.jobs[0].iterations, 40);
	assert_string_equal(s.jobs[1].name, "rn-1");
	assert_string_equal(s.jobs[2].name, "rn-2");
	assert_int_equal(s.jobs[2].iterations, 80);

	/* no sections: one job */
	assert_int_equal(profile_parse_text(&s, "compute_ms=150\nbytes=1250000\n", "one", err,
					    sizeof(err)),
			 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.jobs[3].name, "job3");
}

struct bad_case {
	const char *text;
	const char *msg;
};

static void test_text_errors(void **state)
{
	static const struct bad_case cases[] = {
		{ "compute_ms=1\nbytes=1\nspeed=3\n", "b.conf:3: unknown key 'speed'" },
		{ "[job]\ncompute_ms=1\nbytes=1M\n[job]\ncompute_ms=2\n", "b.conf:4: job has no bytes" },
		{ "[job]\nbytes=1M\n", "b.conf:1: job has no compute_ms" },
		{ "compute_ms=1\nbytes=1\n[job]\n", "b.conf:3: section after keys outside" },
		{ "[job\ncompute_ms=1\n", "b.conf:1: malformed section header" },
		{ "[jobs]\n", "b.conf:1: unknown section '[jobs]'" },
		{ "[scenario]\n", "unknown section" },
		{ "[job]\ncompute_ms 150\n", "b.conf:2: expected key = value" },
		{ "", "b.conf: no job in profile" },
		{ "# only a comment\n\n", "b.conf: no job in profile" },
		{ "[job]\ncompute_ms=x\n", "b.conf:2: compute_ms: 'x'" },
		{ "[job]\ncompute_ms=\n", "b.conf:2: empty value for 'compute_ms'" },
		{ "compute_ms=1\nbytes=1\ngap_ms=5\n", "gap_ms needs phases >= 2" },
		{ "[job bad name]\n", "b.conf:1: name 'bad name'" },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct profile_set s = { .n = 0 };

		err[0] = '\0';
		assert_int_equal(profile_parse_text(&s, cases[i].text, "b.conf", err, sizeof(err)), -1);
		if (!strstr(err, cases[i].msg))
			fail_msg("case %zu: '%s' does not contain '%s'", i, err, cases[i].msg);
	}
}

static void test_too_many_jobs(void **state)
{
	struct profile_set *s = calloc(1, sizeof(*s));
	char err[256];

	(void)state;
	assert_non_null(s);
	assert_int_equal(profile_parse_spec(s, "compute_ms=1,bytes=1,count=60", err, sizeof(err)), 0);
	assert_int_equal(profile_parse_spec(s, "compute_ms=1,bytes=1,count=5", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more than 64 jobs"));
	assert_int_equal(s->n, 60);
	free(s);
}

static void test_file(void **state)
{
	struct profile_set s = { .n = 0 };
	char path[] = "/tmp/mltcp-bench-test-XXXXXX", err[512];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, good, strlen(good)), (ssize_t)strlen(good));
	close(fd);
	assert_int_equal(profile_parse_file(&s, path, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	unlink(path);
	assert_int_equal(profile_parse_file(&s, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "No such file"));
}

static void test_theory(void **state)
{
	struct job_profile p;

	(void)state;
	profile_defaults(&p);
	p.compute_ms = 150;
	p.bytes = 1250000;
	/* 1.25 MB at 100 Mbit/s = 100 ms of payload, 1514/1448 framing */
	assert_float_equal(profile_theory_ms(&p, 100), 150 + 100 * 1514.0 / 1448.0, 1e-9);
	p.phases = 3;
	p.gap_ms = 10;
	assert_float_equal(profile_theory_ms(&p, 100), 150 + 20 + 300 * 1514.0 / 1448.0, 1e-9);
}

static void test_bulk(void **state)
{
	struct profile_set s = { .n = 0 };
	char err[256];

	(void)state;
	assert_int_equal(profile_parse_spec(&s, "kind=bulk,cc=reno,name=stock", err, sizeof(err)), 0);
	assert_int_equal(s.n, 1);
	assert_true(s.jobs[0].bulk);
	assert_int_equal(s.jobs[0].iterations, 0);
	assert_string_equal(s.jobs[0].cc, "reno");
	assert_int_equal(profile_parse_spec(&s, "kind=job,compute_ms=1,bytes=1k", err, sizeof(err)),
			 0);
	assert_false(s.jobs[1].bulk);
	assert_int_equal(profile_parse_spec(&s, "kind=bulk,bytes=1M", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "kind=bulk flow takes only name, cc, offset_ms and count"));
	assert_int_equal(profile_parse_spec(&s, "kind=fast", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "kind: 'fast' is neither 'job' nor 'bulk'"));
	assert_int_equal(s.n, 2);
}

/* A job's connections: 1 by default, 1..16, never fewer bytes than connections, and
 * nothing for a bulk flow (one stream). */
static void test_conns(void **state)
{
	struct profile_set s = { .n = 0 };
	char err[256];

	(void)state;
	assert_int_equal(profile_parse_spec(&s, "compute_ms=1,bytes=1M", err, sizeof(err)), 0);
	assert_int_equal(s.jobs[0].conns, 1);
	assert_int_equal(profile_parse_spec(&s, "compute_ms=1,bytes=1M,conns=16", err, sizeof(err)),
			 0);
	assert_int_equal(s.jobs[1].conns, 16);
	assert_int_equal(profile_parse_spec(&s, "compute_ms=1,bytes=1M,conns=0", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "conns: '0' is not a number in 1..16"));
	assert_int_equal(profile_parse_spec(&s, "compute_ms=1,bytes=1M,conns=17", err, sizeof(err)),
			 -1);
	assert_int_equal(profile_parse_spec(&s, "compute_ms=1,bytes=3,conns=4", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "bytes (3) below conns (4)"));
	assert_int_equal(profile_parse_spec(&s, "kind=bulk,conns=2", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "kind=bulk flow takes only"));
	assert_int_equal(s.n, 2);
}

const struct CMUnitTest profile_tests[] = {
	cmocka_unit_test(test_bulk),	    cmocka_unit_test(test_conns),
	cmocka_unit_test(test_parse_bytes), cmocka_unit_test(test_spec),
	cmocka_unit_test(test_key_errors),  cmocka_unit_test(test_text),
	cmocka_unit_test(test_text_errors), cmocka_unit_test(test_too_many_jobs),
	cmocka_unit_test(test_file),	    cmocka_unit_test(test_theory),
};
const size_t profile_ntests = sizeof(profile_tests) / sizeof(profile_tests[0]);
