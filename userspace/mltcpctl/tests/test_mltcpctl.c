// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of mltcpctl's command-line parsing and output formatting.
 */
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "key.h"
#include "output.h"
#include "parse.h"
#include "test_util.h"

static void test_commands(void **state)
{
	struct mltcpctl_args a;

	(void)state;
	assert_int_equal(parse(&a, NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SHOW);
	assert_false(a.json);
	assert_int_equal(parse(&a, "-j", "show", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SHOW);
	assert_true(a.json);
	assert_int_equal(parse(&a, "--json", "-p", "sockets", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SOCKETS);
	assert_true(a.json && a.pretty);
	assert_int_equal(parse(&a, "so", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SOCKETS);
	assert_int_equal(parse(&a, "sh", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SHOW);
	assert_int_equal(parse(&a, "--help", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_HELP);
	assert_int_equal(parse(&a, "-h", "bogus", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_HELP);
	assert_int_equal(parse(&a, "help", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_HELP);
	assert_int_equal(parse(&a, "-V", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_VERSION);
	assert_false(parse(&a, "show", NULL) || a.host);
}

/* -H/--host: host-wide counters, for show and metrics only */
static void test_host(void **state)
{
	struct mltcpctl_args a;

	(void)state;
	assert_int_equal(parse(&a, "-H", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SHOW);
	assert_true(a.host);
	assert_int_equal(parse(&a, "-j", "show", "--host", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SHOW);
	assert_true(a.host && a.json);
	assert_int_equal(parse(&a, "sockets", "-H", NULL), -1);
	assert_string_equal(errbuf, "-H/--host applies to show and metrics only");
	assert_int_equal(parse(&a, "--host", "set", "slope", "1", NULL), -1);
	assert_string_equal(errbuf, "-H/--host applies to show and metrics only");
	assert_int_equal(parse(&a, "metrics", "-H", NULL), 0);
	assert_true(a.cmd == MLTCPCTL_CMD_METRICS && a.host);
	/* a value of set is never an option */
	assert_int_equal(parse(&a, "set", "slope", "-H", NULL), -1);
	assert_string_equal(errbuf, "set: invalid slope '-H' (a decimal from 0 to 8)");
}

static void test_command_errors(void **state)
{
	struct mltcpctl_args a;

	(void)state;
	assert_int_equal(parse(&a, "bogus", NULL), -1);
	assert_string_equal(errbuf, "unknown command 'bogus' (see --help)");
	/* "s" is ambiguous: show, set, sockets */
	assert_int_equal(parse(&a, "s", NULL), -1);
	assert_int_equal(parse(&a, "-x", NULL), -1);
	assert_string_equal(errbuf, "unknown option '-x' (see --help)");
	assert_int_equal(parse(&a, "show", "extra", NULL), -1);
	assert_string_equal(errbuf, "unexpected argument 'extra'");
	assert_int_equal(parse(&a, "sockets", "extra", "-j", NULL), -1);
	assert_string_equal(errbuf, "unexpected argument 'extra'");
	assert_int_equal(parse(&a, "sockets", "-x", NULL), -1);
	assert_string_equal(errbuf, "unknown option '-x' (see --help)");
	/* after "--" nothing is an option */
	assert_int_equal(parse(&a, "sockets", "--", "-j", NULL), -1);
	assert_string_equal(errbuf, "unexpected argument '-j'");
	assert_int_equal(parse(&a, "--", "-j", NULL), -1);
	assert_string_equal(errbuf, "unknown command '-j' (see --help)");
}

/* Options go before or after the command (ss-style), as the README shows. */
static void test_options_after_command(void **state)
{
	struct mltcpctl_args a;

	(void)state;
	assert_int_equal(parse(&a, "sockets", "-j", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SOCKETS);
	assert_true(a.json);
	assert_false(a.pretty);
	assert_int_equal(parse(&a, "-p", "show", "--json", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SHOW);
	assert_true(a.json && a.pretty);
	assert_int_equal(parse(&a, "-j", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SHOW);
	assert_true(a.json);
	/* between and after the pairs of set */
	assert_int_equal(parse(&a, "set", "slope", "0.5", "-j", "mode", "off", "-p",
			       NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SET);
	assert_int_equal(a.set_mask, MLTCPCTL_SET_SLOPE | MLTCPCTL_SET_MODE);
	assert_int_equal(a.slope, 512);
	assert_true(a.json && a.pretty);
	/* a value position takes the word as a value: a clear error, not "unknown option" */
	assert_int_equal(parse(&a, "set", "slope", "-1", NULL), -1);
	assert_string_equal(errbuf, "set: invalid slope '-1' (a decimal from 0 to 8)");
	assert_int_equal(parse(&a, "set", "slope", "-j", NULL), -1);
	assert_string_equal(errbuf, "set: invalid slope '-j' (a decimal from 0 to 8)");
	/* help and version win wherever they are */
	assert_int_equal(parse(&a, "sockets", "-h", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_HELP);
	assert_int_equal(parse(&a, "bogus", "--version", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_VERSION);
	/* ... but not after "--" */
	assert_int_equal(parse(&a, "show", "--", "-h", NULL), -1);
}

static void test_set(void **state)
{
	struct mltcpctl_args a;

	(void)state;
	assert_int_equal(parse(&a, "set", "slope", "1", "intercept", "1",
			       "idle_ms", "10", "mode", "learned", NULL), 0);
	assert_int_equal(a.cmd, MLTCPCTL_CMD_SET);
	assert_int_equal(a.set_mask, MLTCPCTL_SET_SLOPE | MLTCPCTL_SET_INTERCEPT |
			 MLTCPCTL_SET_IDLE_MS | MLTCPCTL_SET_MODE);
	assert_int_equal(a.slope, 1024);
	assert_int_equal(a.intercept, 1024);
	assert_int_equal(a.idle_ms, 10);
	assert_int_equal(a.mode, MLTCP_ABI_MODE_LEARNED);

	assert_int_equal(parse(&a, "set", "slope", "0.5", NULL), 0);
	assert_int_equal(a.set_mask, MLTCPCTL_SET_SLOPE);
	assert_int_equal(a.slope, 512);
	assert_int_equal(parse(&a, "set", "slope", "0", NULL), 0);
	assert_int_equal(a.slope, 0);
	assert_int_equal(parse(&a, "set", "slope", "8", NULL), 0);
	assert_int_equal(a.slope, 8192);
	assert_int_equal(parse(&a, "set", "intercept", "1.25", "mode", "off", NULL), 0);
	assert_int_equal(a.intercept, 1280);
	assert_int_equal(a.mode, MLTCP_ABI_MODE_OFF);
	assert_int_equal(parse(&a, "set", "mode", "given", NULL), 0);
	assert_int_equal(a.mode, MLTCP_ABI_MODE_GIVEN);
	assert_int_equal(parse(&a, "set", "idle_ms", "60000", NULL), 0);
	assert_int_equal(a.idle_ms, 60000);
	assert_int_equal(parse(&a, "set", "decrease", "off", "stagger", "0.5", NULL), 0);
	assert_int_equal(a.set_mask, MLTCPCTL_SET_DECREASE | MLTCPCTL_SET_STAGGER);
	assert_int_equal(a.decrease, 0);
	assert_int_equal(a.stagger, 512);
	assert_int_equal(parse(&a, "set", "decrease", "on", "stagger", "0", NULL), 0);
	assert_int_equal(a.decrease, 1);
	assert_int_equal(a.stagger, 0);
	assert_int_equal(parse(&a, "set", "stagger", "1", NULL), 0);
	assert_int_equal(a.stagger, 1024);
	assert_int_equal(parse(&a, "set", "overrun", "0", NULL), 0);
	assert_int_equal(a.set_mask, MLTCPCTL_SET_OVERRUN);
	assert_int_equal(a.overrun, 0);
	assert_int_equal(parse(&a, "set", "overrun", "1.25", NULL), 0);
	assert_int_equal(a.overrun, 1280);
}

static void test_set_errors(void **state)
{
	static const char *const bad[][3] = {
		{ "slope", "8.001", "set: invalid slope '8.001' (a decimal from 0 to 8)" },
		{ "slope", "-1", "set: invalid slope '-1' (a decimal from 0 to 8)" },
		{ "slope", "1e3", NULL },
		{ "slope", "", NULL },
		{ "slope", "abc", NULL },
		{ "intercept", "0", "set: invalid intercept '0' (a decimal above 0, at most 8)" },
		{ "intercept", "9", NULL },
		{ "idle_ms", "0", "set: invalid idle_ms '0' (milliseconds, 1 to 60000)" },
		{ "idle_ms", "60001", NULL },
		{ "idle_ms", "1.5", NULL },
		{ "idle_ms", "99999999999", NULL },
		{ "mode", "fast", "set: invalid mode 'fast' (learned, given or off)" },
		{ "mode", "learned ", NULL },
		{ "mode", "", NULL },
		{ "decrease", "maybe", "set: invalid decrease 'maybe' (on or off)" },
		{ "decrease", "2", NULL },
		{ "stagger", "1.5", "set: invalid stagger '1.5' (a decimal from 0 to 1)" },
		{ "stagger", "-0.1", NULL },
		{ "overrun", "0.5", "set: invalid overrun '0.5' (0, or a decimal from 1 to 8)" },
		{ "overrun", "9", NULL },
		{ "cwnd", "10",
		  "set: unknown parameter 'cwnd' (slope, intercept, idle_ms, mode, decrease, stagger, overrun, tiebreak-key)" },
	};
	struct mltcpctl_args a;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(&a, "set", bad[i][0], bad[i][1], NULL), -1);
		if (bad[i][2])
			assert_string_equal(errbuf, bad[i][2]);
		else
			assert_true(errbuf[0] != '\0');
	}
	assert_int_equal(parse(&a, "set", NULL), -1);
	assert_int_equal(parse(&a, "set", "slope", NULL), -1);
	assert_string_equal(errbuf, "set: slope needs a value");
	assert_int_equal(parse(&a, "set", "slope", "1", "slope", "2", NULL), -1);
	assert_string_equal(errbuf, "set: slope given twice");
	assert_int_equal(mltcpctl_parse_u32("4294967295", &(uint32_t){0}), 0);
	assert_int_equal(mltcpctl_parse_u32("4294967296", &(uint32_t){0}), -1);
	assert_int_equal(mltcpctl_parse_u32("+1", &(uint32_t){0}), -1);
}

static const struct mltcpctl_params params = {
	.abi_version = 1, .slope = 1536, .intercept = 1024, .idle_ms = 10,
	.mode = MLTCP_ABI_MODE_GIVEN, .decrease = 1, .stagger = 256, .overrun = 1280,
};

static const struct mltcpctl_algo algos[] = {
	{ "mltcp_reno", 2, 5, 7, 11 },
	{ "mltcp_cubic", 0, 0, 0, 0 },
};

static void test_show_json(void **state)
{
	char *text = NULL;

	(void)state;
	CAPTURE(text, true, false, mltcpctl_print_show(&o, &params, algos, 2, MLTCPCTL_SCOPE_NETNS));
	assert_string_equal(text,
		"{\"abi_version\":1,\"slope\":1.5,\"slope_q10\":1536,"
		"\"intercept\":1,\"intercept_q10\":1024,\"idle_ms\":10,"
		"\"mode\":\"given\",\"decrease\":true,\"stagger\":0.25,"
		"\"stagger_q10\":256,\"overrun\":1.25,\"overrun_q10\":1280,"
		"\"tiebreak_key_set\":null,"
		"\"counters\":\"netns\",\"algorithms\":["
		"{\"name\":\"mltcp_reno\",\"sockets\":2,\"sockets_total\":5,"
		"\"iterations_learned\":7,\"iterations_given\":11},"
		"{\"name\":\"mltcp_cubic\",\"sockets\":0,\"sockets_total\":0,"
		"\"iterations_learned\":0,\"iterations_given\":0}]}\n");
	free(text);

	CAPTURE(text, true, false, mltcpctl_print_show(&o, &params, algos, 0, MLTCPCTL_SCOPE_NETNS));
	assert_non_null(strstr(text, "\"algorithms\":[]}"));
	free(text);

	CAPTURE(text, true, true, mltcpctl_print_show(&o, &params, algos, 1, MLTCPCTL_SCOPE_HOST));
	assert_non_null(strstr(text, "{\n    \"abi_version\": 1,\n"));
	assert_non_null(strstr(text, "\"algorithms\": [\n        {\n"));
	assert_non_null(strstr(text, "\"counters\": \"host\",\n"));
	free(text);
}

static void test_show_table(void **state)
{
	char *text = NULL;

	(void)state;
	CAPTURE(text, false, false, mltcpctl_print_show(&o, &params, algos, 2, MLTCPCTL_SCOPE_NETNS));
	assert_non_null(strstr(text, "slope 1.5 intercept 1\n"));
	assert_non_null(strstr(text, "idle_ms 10 mode given abi 1\n"));
	assert_non_null(strstr(text, "decrease on stagger 0.25 overrun 1.25\n"));
	assert_non_null(strstr(text, "\ncounters of this network namespace\nAlgorithm"));
	assert_null(strstr(text, "host"));
	assert_non_null(strstr(text, "mltcp_reno                2              5              7             11\n"));
	free(text);

	CAPTURE(text, false, false,
		mltcpctl_print_show(&o, &params, algos, 2, MLTCPCTL_SCOPE_HOST));
	assert_non_null(strstr(text,
			       "\ncounters of the host (every network namespace)\nAlgorithm"));
	free(text);

	CAPTURE(text, false, false, mltcpctl_print_show(&o, &params, algos, 0, MLTCPCTL_SCOPE_NETNS));
	assert_non_null(strstr(text, "no MLTCP congestion control loaded"));
	/* a module without tie-break keys: no line about them */
	assert_null(strstr(text, "tiebreak_key"));
	free(text);
}

/* mltcpctl show of @p, as JSON or as text, contains @needle */
static void assert_show_has(const struct mltcpctl_params *p, bool json, const char *needle)
{
	char *text = NULL;

	CAPTURE(text, json, false, mltcpctl_print_show(&o, p, algos, 0, MLTCPCTL_SCOPE_NETNS));
	assert_non_null(strstr(text, needle));
	free(text);
}

/* show says whether an administrator set the tie-break key, never the key */
static void test_show_tiebreak_key(void **state)
{
	struct mltcpctl_params p = params;

	(void)state;
	p.has_tiebreak_key_set = true;
	assert_show_has(&p, true, "\"overrun_q10\":1280,\"tiebreak_key_set\":false,");
	assert_show_has(&p, false, "\ntiebreak_key random (this host's own)\n");
	p.tiebreak_key_set = true;
	assert_show_has(&p, true, "\"tiebreak_key_set\":true,");
	assert_show_has(&p, false, "\ntiebreak_key set (hosts with the same key draw alike)\n");
}

/* set tiebreak-key FILE and bpf load --tiebreak-key FILE: the file is read later */
static void test_tiebreak_key_args(void **state)
{
	struct mltcpctl_args a;

	(void)state;
	assert_int_equal(parse(&a, "set", "tiebreak-key", "/etc/mltcp/key", NULL), 0);
	assert_int_equal(a.set_mask, MLTCPCTL_SET_TIEBREAK_KEY);
	assert_string_equal(a.key_file, "/etc/mltcp/key");
	assert_int_equal(parse(&a, "set", "slope", "1", "tiebreak-key", "-", NULL), 0);
	assert_int_equal(a.set_mask, MLTCPCTL_SET_SLOPE | MLTCPCTL_SET_TIEBREAK_KEY);
	assert_string_equal(a.key_file, "-");
	assert_int_equal(parse(&a, "bpf", "load", "--tiebreak-key", "k", NULL), 0);
	assert_int_equal(a.bpf_op, MLTCPCTL_BPF_LOAD);
	assert_string_equal(a.key_file, "k");
	assert_int_equal(parse(&a, "--tiebreak-key=k2", "bpf", "load", NULL), 0);
	assert_string_equal(a.key_file, "k2");
	assert_int_equal(parse(&a, "bpf", "load", NULL), 0);
	assert_null(a.key_file);

	assert_int_equal(parse(&a, "set", "tiebreak-key", NULL), -1);
	assert_string_equal(errbuf, "set: tiebreak-key needs a value");
	assert_int_equal(parse(&a, "set", "tiebreak-key", "", NULL), -1);
	assert_non_null(strstr(errbuf, "tiebreak-key needs a file"));
	assert_int_equal(parse(&a, "set", "tiebreak-key", "a", "tiebreak-key", "b", NULL), -1);
	assert_string_equal(errbuf, "set: tiebreak-key given twice");
	assert_int_equal(parse(&a, "bpf", "status", "--tiebreak-key", "k", NULL), -1);
	assert_non_null(strstr(errbuf, "--tiebreak-key applies to bpf load only"));
	assert_int_equal(parse(&a, "set", "slope", "1", "--tiebreak-key", "k", NULL), -1);
	assert_non_null(strstr(errbuf, "--tiebreak-key applies to bpf load only"));
	assert_int_equal(parse(&a, "bpf", "load", "--tiebreak-key", NULL), -1);
	assert_string_equal(errbuf, "--tiebreak-key needs a file");
}

/* the key file's text: 32 hex digits, either case, optionally one newline */
static void test_tiebreak_key_text(void **state)
{
	static const char good[] = "00112233445566778899aAbBcCdDeEfF";
	uint8_t key[MLTCP_TIEBREAK_KEY_LEN], want[MLTCP_TIEBREAK_KEY_LEN], untouched[sizeof(key)];
	char err[256], text[80];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want); i++)
		want[i] = (uint8_t)(0x11 * i);
	assert_int_equal(mltcpctl_parse_tiebreak_key(good, 32, key, err, sizeof(err)), 0);
	assert_memory_equal(key, want, sizeof(want));
	snprintf(text, sizeof(text), "%s\n", good);
	memset(key, 0, sizeof(key));
	assert_int_equal(mltcpctl_parse_tiebreak_key(text, 33, key, err, sizeof(err)), 0);
	assert_memory_equal(key, want, sizeof(want));

	memset(key, 0x5a, sizeof(key));
	memcpy(untouched, key, sizeof(key));
	/* short, long, empty: the count of digits */
	assert_int_equal(mltcpctl_parse_tiebreak_key(good, 31, key, err, sizeof(err)), -1);
	assert_string_equal(err, "too short: 31 hex digits, a key is 32 (128 bits)");
	snprintf(text, sizeof(text), "%s0\n", good);
	assert_int_equal(mltcpctl_parse_tiebreak_key(text, 34, key, err, sizeof(err)), -1);
	assert_string_equal(err, "too long: 33 hex digits, a key is 32 (128 bits)");
	assert_int_equal(mltcpctl_parse_tiebreak_key("\n", 1, key, err, sizeof(err)), -1);
	assert_string_equal(err, "too short: 0 hex digits, a key is 32 (128 bits)");
	/* anything not a hex digit, where it is, and not the text itself */
	static const char *const bad[] = {
		"0x112233445566778899aabbccddeeff",	/* a prefix */
		"00112233445566778899aabbccddeefg",	/* g */
		"00112233 45566778899aabbccddeeff",	/* a space */
		"00112233445566778899aabbccddeeff\r\n",	/* CRLF */
		"00112233445566778899aabbccddeeff\n\n",	/* two newlines */
	};
	static const size_t at[] = { 2, 32, 9, 33, 33 };

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want_err[128];

		snprintf(want_err, sizeof(want_err), "not a hex digit at byte %zu", at[i]);
		assert_int_equal(mltcpctl_parse_tiebreak_key(bad[i], strlen(bad[i]), key, err,
							     sizeof(err)), -1);
		assert_non_null(strstr(err, want_err));
		assert_null(strstr(err, "aabb"));
	}
	/* a NUL inside */
	memcpy(text, good, 32);
	text[5] = '\0';
	assert_int_equal(mltcpctl_parse_tiebreak_key(text, 32, key, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a hex digit at byte 6"));
	/* nothing written on failure */
	assert_memory_equal(key, untouched, sizeof(key));
}

/* writes @text to a new file of @mode in @dir; returns its path (static) */
static const char *key_file(const char *dir, const char *text, mode_t mode)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/key", dir);
	unlink(path);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
	return path;
}

/* the key file: only its owner may read or write it; a clear error otherwise */
static void test_tiebreak_key_file(void **state)
{
	char dir[] = "/tmp/mltcpctl-key-XXXXXX", err[512], big[200];
	uint8_t key[MLTCP_TIEBREAK_KEY_LEN];
	const char *path;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = key_file(dir, "000102030405060708090a0b0c0d0e0f\n", 0600);
	assert_int_equal(mltcpctl_read_tiebreak_key(path, key, err, sizeof(err)), 0);
	assert_int_equal(key[0], 0);
	assert_int_equal(key[15], 15);
	path = key_file(dir, "000102030405060708090a0b0c0d0e0f", 0400);
	assert_int_equal(mltcpctl_read_tiebreak_key(path, key, err, sizeof(err)), 0);

	path = key_file(dir, "000102030405060708090a0b0c0d0e0f\n", 0644);
	assert_int_equal(mltcpctl_read_tiebreak_key(path, key, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "group or others may read or write it (mode 0644)"));
	assert_non_null(strstr(err, "chmod 600"));
	path = key_file(dir, "000102030405060708090a0b0c0d0e0f\n", 0602);
	assert_int_equal(mltcpctl_read_tiebreak_key(path, key, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "(mode 0602)"));

	path = key_file(dir, "0001020304\n", 0600);
	assert_int_equal(mltcpctl_read_tiebreak_key(path, key, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/key: too short: 10 hex digits"));
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	path = key_file(dir, big, 0600);
	assert_int_equal(mltcpctl_read_tiebreak_key(path, key, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/key: too long"));
	path = key_file(dir, "", 0600);
	assert_int_equal(mltcpctl_read_tiebreak_key(path, key, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "too short: 0 hex digits"));
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mltcpctl_read_tiebreak_key(path, key, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/key: No such file or directory"));
	assert_int_equal(mltcpctl_read_tiebreak_key(dir, key, err, sizeof(err)), -1);
	assert_int_equal(rmdir(dir), 0);
}

static struct mltcpctl_sock make_sock(int family)
{
	struct mltcpctl_sock s = {
		.family = (uint8_t)family, .tcp_state = TCP_ESTABLISHED,
		.sport = 40000, .dport = 5201, .inode = 12345,
		.algo = "mltcp_cubic", .mode = MLTCP_ABI_MODE_LEARNED,
		.flags = MLTCP_INFO_F_SIZE_GIVEN, .iterations = 3,
		.bytes_this_iter = 500, .bytes_per_iter = 1000,
		.bytes_ratio = 512, .f = 1536, .cwnd = 10, .tiebreak = 768,
		.phase = MLTCP_ABI_PHASE_RAMP, .has_phase = true,
	};

	if (family == AF_INET) {
		inet_pton(AF_INET, "198.18.1.2", s.saddr);
		inet_pton(AF_INET, "198.19.1.2", s.daddr);
	} else {
		inet_pton(AF_INET6, "2001:db8:1:1::2", s.saddr);
		inet_pton(AF_INET6, "::ffff:10.0.0.1", s.daddr);
	}
	return s;
}

static void test_sockets_json(void **state)
{
	struct mltcpctl_sock s[2] = { make_sock(AF_INET), make_sock(AF_INET6) };
	char *text = NULL;

	(void)state;
	s[1].has_phase = false;	/* a module before ABI 3 */
	CAPTURE(text, true, false, mltcpctl_print_sockets(&o, s, 2));
	assert_string_equal(text,
		"[{\"family\":\"inet\",\"src\":\"198.18.1.2\",\"sport\":40000,"
		"\"dst\":\"198.19.1.2\",\"dport\":5201,\"state\":\"ESTAB\","
		"\"inode\":12345,\"algo\":\"mltcp_cubic\",\"mode\":\"learned\",\"phase\":\"ramp\","
		"\"size_given\":true,\"bounds_given\":false,\"iterations\":3,"
		"\"bytes_this_iter\":500,\"bytes_per_iter\":1000,"
		"\"bytes_ratio\":0.5,\"bytes_ratio_q10\":512,\"f\":1.5,"
		"\"f_q10\":1536,\"cwnd\":10,\"tiebreak_given\":false,"
		"\"tiebreak\":0.75,\"tiebreak_q10\":768},"
		"{\"family\":\"inet6\",\"src\":\"2001:db8:1:1::2\",\"sport\":40000,"
		"\"dst\":\"::ffff:10.0.0.1\",\"dport\":5201,\"state\":\"ESTAB\","
		"\"inode\":12345,\"algo\":\"mltcp_cubic\",\"mode\":\"learned\",\"phase\":null,"
		"\"size_given\":true,\"bounds_given\":false,\"iterations\":3,"
		"\"bytes_this_iter\":500,\"bytes_per_iter\":1000,"
		"\"bytes_ratio\":0.5,\"bytes_ratio_q10\":512,\"f\":1.5,"
		"\"f_q10\":1536,\"cwnd\":10,\"tiebreak_given\":false,"
		"\"tiebreak\":0.75,\"tiebreak_q10\":768}]\n");
	free(text);

	CAPTURE(text, true, false, mltcpctl_print_sockets(&o, s, 0));
	assert_string_equal(text, "[]\n");
	free(text);
}

static void test_sockets_table(void **state)
{
	struct mltcpctl_sock s[2] = { make_sock(AF_INET), make_sock(AF_INET6) };
	char *text = NULL;

	(void)state;
	s[1].phase = MLTCP_ABI_PHASE_YIELD;
	CAPTURE(text, false, false, mltcpctl_print_sockets(&o, s, 2));
	assert_non_null(strstr(text, "Local Address:Port"));
	assert_non_null(strstr(text, " Algorithm    Phase    Hint "));
	assert_non_null(strstr(text, " mltcp_cubic  ramp     S-- "));
	assert_non_null(strstr(text, " mltcp_cubic  yield    S-- "));
	free(text);
	s[1].has_phase = false;
	CAPTURE(text, false, false, mltcpctl_print_sockets(&o, s, 2));
	assert_non_null(strstr(text, " mltcp_cubic  -        S-- "));
	assert_non_null(strstr(text, "198.18.1.2:40000"));
	assert_non_null(strstr(text, "[2001:db8:1:1::2]:40000"));
	assert_non_null(strstr(text, "[::ffff:10.0.0.1]:5201"));
	assert_non_null(strstr(text, " S-- "));
	assert_non_null(strstr(text, "  0.75\n"));
	assert_non_null(strstr(text, "ESTAB"));
	free(text);
}

static void test_names(void **state)
{
	char buf[64];
	uint8_t a4[4] = { 127, 0, 0, 1 };

	(void)state;
	assert_string_equal(mltcpctl_mode_name(MLTCP_ABI_MODE_OFF), "off");
	assert_string_equal(mltcpctl_mode_name(77), "unknown");
	assert_string_equal(mltcpctl_tcp_state_name(TCP_CLOSE_WAIT), "CLOSE-WAIT");
	assert_string_equal(mltcpctl_tcp_state_name(200), "UNKNOWN");
	assert_string_equal(mltcpctl_phase_name(MLTCP_ABI_PHASE_BASE), "base");
	assert_string_equal(mltcpctl_phase_name(MLTCP_ABI_PHASE_UNEARNED), "unearned");
	assert_string_equal(mltcpctl_phase_name(MLTCP_ABI_PHASE_OVERRUN), "overrun");
	assert_string_equal(mltcpctl_phase_name(MLTCP_ABI_PHASE_RAMP), "ramp");
	assert_string_equal(mltcpctl_phase_name(MLTCP_ABI_PHASE_TOP), "top");
	assert_string_equal(mltcpctl_phase_name(MLTCP_ABI_PHASE_YIELD), "yield");
	assert_string_equal(mltcpctl_phase_name(__MLTCP_ABI_PHASE_MAX + 1), "unknown");
	mltcpctl_format_endpoint(buf, sizeof(buf), AF_INET, a4, 80);
	assert_string_equal(buf, "127.0.0.1:80");
	mltcpctl_format_endpoint(buf, sizeof(buf), 99, a4, 80);
	assert_string_equal(buf, "?:80");
}

/* metrics [FILE]: Prometheus text, to standard output or a file */
static void test_metrics_args(void **state)
{
	struct mltcpctl_args a;

	(void)state;
	assert_int_equal(parse(&a, "metrics", NULL), 0);
	assert_true(a.cmd == MLTCPCTL_CMD_METRICS && !a.metrics_file && !a.host);
	assert_int_equal(parse(&a, "m", "/tmp/x.prom", NULL), 0);
	assert_true(a.cmd == MLTCPCTL_CMD_METRICS);
	assert_string_equal(a.metrics_file, "/tmp/x.prom");
	assert_int_equal(parse(&a, "metrics", "a.prom", "b.prom", NULL), -1);
	assert_string_equal(errbuf, "metrics: give at most one file");
	assert_int_equal(parse(&a, "metrics", "", NULL), -1);
	assert_string_equal(errbuf, "metrics: the file name is empty");
	assert_int_equal(parse(&a, "-j", "metrics", NULL), -1);
	assert_string_equal(errbuf, "metrics: the output is Prometheus text, not JSON (no -j or -p)");
	assert_int_equal(parse(&a, "show", "x.prom", NULL), -1);
}

/* promtool check metrics on @path (Debian's prometheus package; scripts/deps.sh) */
static int promtool_check(const char *path)
{
	char cmd[4200];

	if (system("command -v promtool >/dev/null")) {
		print_error("promtool not found: install Debian's prometheus (scripts/deps.sh)\n");
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "promtool check metrics < '%s'", path);
	return system(cmd);
}

static void test_metrics(void **state)
{
	struct mltcpctl_sock s[4] = { make_sock(AF_INET), make_sock(AF_INET6),
				      make_sock(AF_INET), make_sock(AF_INET) };
	char dir[] = "/tmp/mltcpctl-test.XXXXXX", path[64], err[256], *text = NULL, *back;
	size_t len;
	FILE *f;

	(void)state;
	s[1].phase = MLTCP_ABI_PHASE_YIELD;
	s[2].phase = MLTCP_ABI_PHASE_YIELD;
	s[3].has_phase = false;
	CAPTURE(text, false, false,
		mltcpctl_print_metrics(o.f, &params, algos, 2, MLTCPCTL_SCOPE_NETNS, s, 4));
	assert_non_null(strstr(text, "# TYPE mltcp_mode gauge\n"
				     "mltcp_mode{mode=\"learned\"} 0\n"
				     "mltcp_mode{mode=\"given\"} 1\n"
				     "mltcp_mode{mode=\"off\"} 0\n"));
	assert_non_null(strstr(text, "mltcp_sockets{algo=\"mltcp_reno\"} 2\n"));
	assert_non_null(strstr(text, "# TYPE mltcp_sockets_opened_total counter\n"));
	assert_non_null(strstr(text, "mltcp_sockets_opened_total{algo=\"mltcp_reno\"} 5\n"));
	assert_non_null(strstr(text,
		"mltcp_iterations_total{algo=\"mltcp_reno\",boundary=\"learned\"} 7\n"
		"mltcp_iterations_total{algo=\"mltcp_reno\",boundary=\"given\"} 11\n"));
	assert_non_null(strstr(text, "in this network namespace.\n"));
	assert_non_null(strstr(text, "# TYPE mltcp_phase_sockets gauge\n"
				     "mltcp_phase_sockets{phase=\"base\"} 0\n"
				     "mltcp_phase_sockets{phase=\"unearned\"} 0\n"
				     "mltcp_phase_sockets{phase=\"overrun\"} 0\n"
				     "mltcp_phase_sockets{phase=\"ramp\"} 1\n"
				     "mltcp_phase_sockets{phase=\"top\"} 0\n"
				     "mltcp_phase_sockets{phase=\"yield\"} 2\n"
				     "mltcp_phase_sockets{phase=\"unknown\"} 1\n"));

	/* replaced at once, readable by the collector, checked by promtool */
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/mltcp.prom", dir);
	assert_int_equal(mltcpctl_replace_file(path, "old\n", 4, err, sizeof(err)), 0);
	assert_int_equal(mltcpctl_replace_file(path, text, strlen(text), err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	back = NULL;
	len = 0;
	assert_int_equal(getdelim(&back, &len, '\0', f), (ssize_t)strlen(text));
	assert_string_equal(back, text);
	fclose(f);
	free(back);
	assert_int_equal(promtool_check(path), 0);
	free(text);

	/* no socket, a label to escape, host-wide counters: still valid */
	CAPTURE(text, false, false,
		mltcpctl_print_metrics(o.f, &params, &(struct mltcpctl_algo){ .name = "a\"b\\c" }, 1,
				       MLTCPCTL_SCOPE_HOST, s, 0));
	assert_non_null(strstr(text, "mltcp_sockets{algo=\"a\\\"b\\\\c\"} 0\n"));
	assert_non_null(strstr(text, "in the host.\n"));
	assert_null(strstr(text, "unknown"));
	assert_int_equal(mltcpctl_replace_file(path, text, strlen(text), err, sizeof(err)), 0);
	assert_int_equal(promtool_check(path), 0);
	free(text);

	/* a directory that is not there: an error, nothing written */
	snprintf(path, sizeof(path), "%s/none/mltcp.prom", dir);
	assert_int_equal(mltcpctl_replace_file(path, "x", 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot create a file beside it"));
	/* only mltcp.prom is left: no temporary file */
	snprintf(path, sizeof(path), "%s/mltcp.prom", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_command_errors),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_options_after_command),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_set_errors),
		cmocka_unit_test(test_show_json),
		cmocka_unit_test(test_show_table),
		cmocka_unit_test(test_show_tiebreak_key),
		cmocka_unit_test(test_tiebreak_key_args),
		cmocka_unit_test(test_tiebreak_key_text),
		cmocka_unit_test(test_tiebreak_key_file),
		cmocka_unit_test(test_sockets_json),
		cmocka_unit_test(test_sockets_table),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_metrics_args),
		cmocka_unit_test(test_metrics),
	};

	return cmocka_run_group_tests_name("mltcpctl", tests, NULL, NULL);
}
