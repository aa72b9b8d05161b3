// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl command-line parsing.
 *
 *	mltcpctl [-j] [-p] [-H] [show | sockets | set PARAM VALUE ... | help] [-j] [-p] [-H]
 *	mltcpctl [-H] metrics [FILE]
 *	mltcpctl bpf load [--tiebreak-key FILE] | unload | status
 *	mltcpctl compat [-f FILE | --trace FILE [--by KEY]] [--rate RATE] [--threshold X]
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/mltcp.h>

#include "jobcompat.h"
#include "mltcp_core.h"
#include "parse.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int mltcpctl_parse_u32(const char *s, uint32_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

/* @s's leading decimal (digits, optionally "." and digits) into @v; what follows, or NULL */
static const char *parse_leading_decimal(const char *s, double *v)
{
	char num[32];
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	if (!n)
		return NULL;
	if (s[n] == '.') {
		size_t frac = ++n;

		while (s[n] >= '0' && s[n] <= '9')
			n++;
		if (n == frac)
			return NULL;
	}
	if (n >= sizeof(num))
		return NULL;
	memcpy(num, s, n);
	num[n] = '\0';
	*v = strtod(num, NULL);
	return s + n;
}

int mltcpctl_parse_decimal(const char *s, double *out)
{
	const char *end = parse_leading_decimal(s, out);

	return end && !*end ? 0 : -1;
}

/* @u's leading prefix k, m, g or t (either case), skipped: its power (of 1000 or 1024) */
static int unit_prefix(const char **u)
{
	static const char prefixes[] = "kmgt";
	const char *p = **u ? strchr(prefixes, **u | 0x20) : NULL;

	if (!p)
		return 0;
	(*u)++;
	return (int)(p - prefixes) + 1;
}

int mltcpctl_parse_rate(const char *s, double *bps)
{
	const char *u = parse_leading_decimal(s, bps);
	int power;

	if (!u)
		return -1;
	power = unit_prefix(&u);
	if (strcmp(u, "bit") && strcmp(u, "bps") && strcmp(u, "b/s"))
		return -1;
	*bps *= pow(1000, power);
	return *bps >= JC_MIN_RATE_BPS && *bps <= JC_MAX_RATE_BPS ? 0 : -1;
}

int mltcpctl_parse_bytes(const char *s, double *bytes)
{
	const char *u = parse_leading_decimal(s, bytes);
	double base = 1000;
	int power;

	if (!u)
		return -1;
	power = unit_prefix(&u);
	if (power && !strcasecmp(u, "ib"))
		base = 1024;
	else if (*u && strcasecmp(u, "b"))
		return -1;
	*bytes = round(*bytes * pow(base, power));
	return *bytes >= 1 && *bytes <= JC_MAX_BYTES ? 0 : -1;
}

/* Is @word a non-empty prefix of @full? */
static bool is_prefix(const char *word, const char *full)
{
	size_t n = strlen(word);

	return n && n <= strlen(full) && !strncmp(word, full, n);
}

static int parse_command(const char *word, enum mltcpctl_cmd *cmd)
{
	static const struct {
		const char *name;
		enum mltcpctl_cmd cmd;
	} cmds[] = {
		{ "show", MLTCPCTL_CMD_SHOW },
		{ "set", MLTCPCTL_CMD_SET },
		{ "sockets", MLTCPCTL_CMD_SOCKETS },
		{ "help", MLTCPCTL_CMD_HELP },
		{ "bpf", MLTCPCTL_CMD_BPF },
		{ "attach", MLTCPCTL_CMD_ATTACH },
		{ "detach", MLTCPCTL_CMD_DETACH },
		{ "compat", MLTCPCTL_CMD_COMPAT },
		{ "metrics", MLTCPCTL_CMD_METRICS },
	};
	int found = -1;
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (!strcmp(word, cmds[i].name)) {
			*cmd = cmds[i].cmd;
			return 0;
		}
		if (is_prefix(word, cmds[i].name)) {
			if (found >= 0)
				return -1;	/* ambiguous, e.g. "s" */
			found = (int)i;
		}
	}
	if (found < 0)
		return -1;
	*cmd = cmds[found].cmd;
	return 0;
}

static int parse_set(int argc, char *const argv[], struct mltcpctl_args *a,
		     char *err, size_t errlen)
{
	int i, mode;

	if (argc == 0)
		return fail(err, errlen,
			    "set: give at least one of slope, intercept, idle_ms, mode, decrease, stagger, overrun, tiebreak-key");
	for (i = 0; i < argc; i += 2) {
		const char *name = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		unsigned int bit;

		if (!strcmp(name, "slope"))
			bit = MLTCPCTL_SET_SLOPE;
		else if (!strcmp(name, "intercept"))
			bit = MLTCPCTL_SET_INTERCEPT;
		else if (!strcmp(name, "idle_ms"))
			bit = MLTCPCTL_SET_IDLE_MS;
		else if (!strcmp(name, "mode"))
			bit = MLTCPCTL_SET_MODE;
		else if (!strcmp(name, "decrease"))
			bit = MLTCPCTL_SET_DECREASE;
		else if (!strcmp(name, "stagger"))
			bit = MLTCPCTL_SET_STAGGER;
		else if (!strcmp(name, "overrun"))
			bit = MLTCPCTL_SET_OVERRUN;
		else if (!strcmp(name, "tiebreak-key"))
			bit = MLTCPCTL_SET_TIEBREAK_KEY;
		else
			return fail(err, errlen,
				    "set: unknown parameter '%s' (slope, intercept, idle_ms, mode, decrease, stagger, overrun, tiebreak-key)",
				    name);
		if (!val)
			return fail(err, errlen, "set: %s needs a value", name);
		if (a->set_mask & bit)
			return fail(err, errlen, "set: %s given twice", name);
		a->set_mask |= bit;

		switch (bit) {
		case MLTCPCTL_SET_SLOPE:
			if (mltcp_parse_q10(val, &a->slope) ||
			    !mltcp_slope_valid(a->slope))
				return fail(err, errlen,
					    "set: invalid slope '%s' (a decimal from 0 to 8)",
					    val);
			break;
		case MLTCPCTL_SET_INTERCEPT:
			if (mltcp_parse_q10(val, &a->intercept) ||
			    !mltcp_intercept_valid(a->intercept))
				return fail(err, errlen,
					    "set: invalid intercept '%s' (a decimal above 0, at most 8)",
					    val);
			break;
		case MLTCPCTL_SET_IDLE_MS:
			if (mltcpctl_parse_u32(val, &a->idle_ms) ||
			    !mltcp_idle_ms_valid(a->idle_ms))
				return fail(err, errlen,
					    "set: invalid idle_ms '%s' (milliseconds, %u to %u)",
					    val, MLTCP_IDLE_MS_MIN, MLTCP_IDLE_MS_MAX);
			break;
		case MLTCPCTL_SET_MODE:
			mode = mltcp_parse_mode(val);
			if (mode < 0 || strchr(val, ' ') || strchr(val, '\n'))
				return fail(err, errlen,
					    "set: invalid mode '%s' (learned, given or off)",
					    val);
			a->mode = (uint8_t)mode;
			break;
		case MLTCPCTL_SET_DECREASE:
			if (!strcmp(val, "on") || !strcmp(val, "1"))
				a->decrease = 1;
			else if (!strcmp(val, "off") || !strcmp(val, "0"))
				a->decrease = 0;
			else
				return fail(err, errlen,
					    "set: invalid decrease '%s' (on or off)", val);
			break;
		case MLTCPCTL_SET_STAGGER:
			if (mltcp_parse_q10(val, &a->stagger) ||
			    !mltcp_stagger_valid(a->stagger))
				return fail(err, errlen,
					    "set: invalid stagger '%s' (a decimal from 0 to 1)",
					    val);
			break;
		case MLTCPCTL_SET_OVERRUN:
			if (mltcp_parse_q10(val, &a->overrun) ||
			    !mltcp_overrun_valid(a->overrun))
				return fail(err, errlen,
					    "set: invalid overrun '%s' (0, or a decimal from 1 to 8)",
					    val);
			break;
		case MLTCPCTL_SET_TIEBREAK_KEY:
			/* read by mltcpctl_read_tiebreak_key() before anything changes */
			if (!*val)
				return fail(err, errlen,
					    "set: tiebreak-key needs a file (32 hex digits; - for stdin)");
			a->key_file = val;
			break;
		}
	}
	return 0;
}

/* Is @w an option word (rather than a command, parameter or value)? */
static bool is_option(const char *w)
{
	return w[0] == '-' && w[1];
}

static int parse_bpf(int argc, char *const argv[], struct mltcpctl_args *a,
		     char *err, size_t errlen)
{
	if (argc != 1)
		return fail(err, errlen, "bpf: give one of load, unload, status");
	if (!strcmp(argv[0], "load"))
		a->bpf_op = MLTCPCTL_BPF_LOAD;
	else if (!strcmp(argv[0], "unload"))
		a->bpf_op = MLTCPCTL_BPF_UNLOAD;
	else if (!strcmp(argv[0], "status"))
		a->bpf_op = MLTCPCTL_BPF_STATUS;
	else
		return fail(err, errlen, "bpf: unknown action '%s' (load, unload or status)",
			    argv[0]);
	return 0;
}

/* compat's options with a value; @opt is the option, @val its value */
static int parse_compat_option(const char *opt, const char *val, struct mltcpctl_args *a,
			       char *err, size_t errlen)
{
	if (!strcmp(opt, "-f") || !strcmp(opt, "--file")) {
		a->file = val;
	} else if (!strcmp(opt, "--trace")) {
		a->trace = val;
	} else if (!strcmp(opt, "--by")) {
		if (!strcmp(val, "dport"))
			a->by = MLTCPCTL_BY_DPORT;
		else if (!strcmp(val, "src"))
			a->by = MLTCPCTL_BY_SRC;
		else if (!strcmp(val, "dst"))
			a->by = MLTCPCTL_BY_DST;
		else
			return fail(err, errlen, "--by: invalid key '%s' (dport, src or dst)", val);
	} else if (!strcmp(opt, "--rate")) {
		if (mltcpctl_parse_rate(val, &a->rate_bps))
			return fail(err, errlen,
				    "--rate: invalid rate '%s' (a decimal and a unit, e.g. 10gbit, 25Gbps, 100mbit; 1kbit to 1000tbit)",
				    val);
	} else {
		if (mltcpctl_parse_decimal(val, &a->threshold) || a->threshold > 1)
			return fail(err, errlen,
				    "--threshold: invalid overlap score '%s' (a decimal from 0 to 1)",
				    val);
	}
	return 0;
}

/* Is @w bpf load's --tiebreak-key (or --tiebreak-key=FILE)? */
static bool is_key_option(const char *w)
{
	return !strcmp(w, "--tiebreak-key") || !strncmp(w, "--tiebreak-key=", 15);
}

/* Is @w one of compat's options with a value (or one of them with "=VALUE")? */
static bool is_compat_option(const char *w)
{
	static const char *const opts[] = { "-f", "--file", "--trace", "--by", "--rate",
					    "--threshold" };
	size_t i, n = strcspn(w, "=");

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (strlen(opts[i]) == n && !strncmp(w, opts[i], n) &&
		    (!w[n] || opts[i][1] == '-'))
			return true;
	return false;
}

/* The checks of compat's options between themselves */
static int check_compat(const struct mltcpctl_args *a, unsigned int given, char *err,
			size_t errlen)
{
	if (a->cmd != MLTCPCTL_CMD_COMPAT)
		return given ? fail(err, errlen,
				    "-f, --trace, --by, --rate and --threshold apply to compat only") : 0;
	if (a->file && a->trace)
		return fail(err, errlen, "compat: give either -f FILE (profiles) or --trace FILE");
	if (a->trace && !a->rate_bps)
		return fail(err, errlen,
			    "compat: --trace needs --rate, the rate of the link the trace was taken on");
	if ((given & 1) && !a->trace)
		return fail(err, errlen, "compat: --by groups the records of --trace");
	return 0;
}

/*
 * Options may come before or after the command and between the pairs of
 * "set" (ss-style): "mltcpctl -j sockets" and "mltcpctl sockets -j" are the
 * same.  A word in the value position of a "set" pair is always a value, so
 * that "set slope -1" reports an invalid slope.  After "--" no word is an
 * option.  -h and -V win over everything else on the line.
 */
int mltcpctl_parse(int argc, char *const argv[], struct mltcpctl_args *a,
		   char *err, size_t errlen)
{
	char *words[argc > 0 ? argc : 1];
	bool have_cmd = false, opts_done = false;
	unsigned int compat_given = 0;	/* bit 0: --by, bit 1: any */
	bool key_option = false;	/* --tiebreak-key */
	int i, nwords = 0;

	memset(a, 0, sizeof(*a));
	a->cmd = MLTCPCTL_CMD_SHOW;
	a->threshold = MLTCPCTL_COMPAT_THRESHOLD;
	if (errlen)
		err[0] = '\0';

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			a->cmd = MLTCPCTL_CMD_HELP;
			return 0;
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			a->cmd = MLTCPCTL_CMD_VERSION;
			return 0;
		}
	}

	for (i = 1; i < argc; i++) {
		const char *w = argv[i];
		bool set_value = have_cmd && a->cmd == MLTCPCTL_CMD_SET && nwords % 2;

		if (!opts_done && !set_value && is_key_option(w)) {
			/* "--tiebreak-key FILE" or "--tiebreak-key=FILE" */
			const char *eq = strchr(w, '=');

			if (!eq && ++i >= argc)
				return fail(err, errlen, "--tiebreak-key needs a file");
			a->key_file = eq ? eq + 1 : argv[i];
			key_option = true;
		} else if (!opts_done && !set_value && is_compat_option(w)) {
			/* "--rate 10gbit" or "--rate=10gbit" */
			const char *eq = strchr(w, '='), *val = eq ? eq + 1 : argv[i + 1];
			char opt[16];

			snprintf(opt, sizeof(opt), "%.*s", (int)(eq ? eq - w : (int)strlen(w)), w);
			if (!eq && ++i >= argc)
				return fail(err, errlen, "%s needs a value", opt);
			if (parse_compat_option(opt, val, a, err, errlen))
				return -1;
			compat_given |= 2 | !strcmp(opt, "--by");
		} else if (!opts_done && !set_value && is_option(w)) {
			if (!strcmp(w, "--"))
				opts_done = true;
			else if (!strcmp(w, "-j") || !strcmp(w, "--json"))
				a->json = true;
			else if (!strcmp(w, "-p") || !strcmp(w, "--pretty"))
				a->pretty = true;
			else if (!strcmp(w, "-H") || !strcmp(w, "--host"))
				a->host = true;
			else
				return fail(err, errlen, "unknown option '%s' (see --help)", w);
		} else if (!have_cmd) {
			if (parse_command(w, &a->cmd))
				return fail(err, errlen, "unknown command '%s' (see --help)", w);
			have_cmd = true;
		} else {
			words[nwords++] = argv[i];
		}
	}
	if (a->host && a->cmd != MLTCPCTL_CMD_SHOW && a->cmd != MLTCPCTL_CMD_METRICS)
		return fail(err, errlen, "-H/--host applies to show and metrics only");
	if (check_compat(a, compat_given, err, errlen))
		return -1;
	if (key_option && (a->cmd != MLTCPCTL_CMD_BPF || nwords != 1 || strcmp(words[0], "load")))
		return fail(err, errlen,
			    "--tiebreak-key applies to bpf load only (the module's: mltcpctl set tiebreak-key FILE)");
	if (key_option && !*a->key_file)
		return fail(err, errlen, "--tiebreak-key needs a file (32 hex digits; - for stdin)");
	if (a->cmd == MLTCPCTL_CMD_SET)
		return parse_set(nwords, words, a, err, errlen);
	if (a->cmd == MLTCPCTL_CMD_BPF)
		return parse_bpf(nwords, words, a, err, errlen);
	if (a->cmd == MLTCPCTL_CMD_ATTACH || a->cmd == MLTCPCTL_CMD_DETACH) {
		int want = a->cmd == MLTCPCTL_CMD_ATTACH ? 2 : 1;

		if (a->cmd == MLTCPCTL_CMD_ATTACH && !nwords)
			return 0;	/* list the attachments */
		if (nwords != want)
			return fail(err, errlen, a->cmd == MLTCPCTL_CMD_ATTACH ?
				    "attach: give a cgroup v2 directory and an algorithm" :
				    "detach: give a cgroup v2 directory");
		a->cgroup = words[0];
		a->algo = want == 2 ? words[1] : NULL;
		return 0;
	}
	if (a->cmd == MLTCPCTL_CMD_METRICS) {
		if (a->json || a->pretty)
			return fail(err, errlen,
				    "metrics: the output is Prometheus text, not JSON (no -j or -p)");
		if (nwords > 1)
			return fail(err, errlen, "metrics: give at most one file");
		if (nwords && !*words[0])
			return fail(err, errlen, "metrics: the file name is empty");
		a->metrics_file = nwords ? words[0] : NULL;
		return 0;
	}
	if (a->cmd != MLTCPCTL_CMD_HELP && nwords)
		return fail(err, errlen, "unexpected argument '%s'", words[0]);
	return 0;
}
