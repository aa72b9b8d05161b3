// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench's command line: the options with their defaults, the usage text, and the
 * parsing of a run's options and of `report`'s. Every check of a single option is here;
 * the checks of options against each other and against the jobs are in setup.c.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "targets.h"
#include "topology.h"
#include "util.h"

struct options opt = {
	.rate_mbit = 100,
	.burst_bytes = 15000,
	.mtu = 1500,
	.port = 5201,
	.ideal = 1,
	.ideal_iterations = 10,
	.ideal_warmup = 2,
	.warmup = 5,
	.threshold = TARGET_INTERLEAVED,
	.min_stable = 5,
	.sample_ms = 10,
	.bin_ms = 5,
	.iterations = -1,
	.start_exact = 1,
	.runs = 1,
	.ratio_limit = TARGET_CONVERGED,
};

struct profile_set jobs;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mltcp-bench [options]                  run a scenario\n"
		"       mltcp-bench report [--warmup N] [--ideal-warmup N] [--converge-ratio X]\n"
		"                          DIR...\n"
		"                                              summarise result directories; with\n"
		"                                              several, speedup against the first\n"
		"       mltcp-bench --cleanup                  delete namespaces of killed runs\n"
		"\n"
		"Jobs (at least one):\n"
		"  -p, --profile FILE      add the jobs of a profile file (repeatable)\n"
		"  -j, --job SPEC          add a job, SPEC = key=value,... (repeatable), keys:\n"
		"%s"
		"  --iterations N          override every job's iterations\n"
		"  --cc NAME[,NAME...]     congestion control of all jobs, or one per job in order\n"
		"                          (overrides the profiles' cc)\n"
		"  --random-offset MS      add a random start offset in [0, MS) to every job\n"
		"                          (drawn again for every run)\n"
		"  --seed N                seed for --random-offset (default: time; in meta.txt)\n"
		"  --start exact|timed     exact (default): the first iterations of all jobs are\n"
		"                          released by one barrier (EOF on a pipe every sender\n"
		"                          blocks on) once all connections are up; timed: every\n"
		"                          sender sleeps until a common time 50 ms later\n"
		"  --runs N                repeat the shared run N times on the same topology,\n"
		"                          ideal measured once (default 1); verdict per run\n"
		"  --ideal-each            with --runs: measure the ideal again before every run\n"
		"                          (slower; follows a host whose speed drifts)\n"
		"Bottleneck (built by the tool):\n"
		"  --bottleneck router|egress  where the FIFO is: in a router between senders and\n"
		"                          receivers (default; drops far from the senders), or on\n"
		"                          the egress veth of ONE namespace holding every sender\n"
		"                          (jobs sharing a NIC: local backpressure and drops)\n"
		"  --rate-mbit R           tbf rate (default 100)\n"
		"  --queue-kb K            FIFO limit in kB (default: 10 ms at the rate, 125 kB\n"
		"                          at 100 Mbit/s)\n"
		"  --queue-bdp X           FIFO limit = X x BDP, BDP = rate x max(--delay-ms, 10 ms)\n"
		"  --delay-ms D            add D ms of RTT: netem (delay only) on the ACK path\n"
		"  --burst-bytes B         tbf bucket (default 15000)\n"
		"  --ecn-kb K              RED child marking ECN above K kB (DCTCP), needs sch_red\n"
		"  --mtu N                 MTU of every link (default 1500)\n"
		"  --sysctl KEY=VALUE      set in every sender and receiver namespace (repeatable),\n"
		"                          e.g. net.ipv4.tcp_slow_start_after_idle=0\n"
		"Existing topology instead:\n"
		"  --no-topology           use existing namespaces/addresses; then:\n"
		"  --rcv-addr IP[,IP...]   receiver address of all jobs or of each (required)\n"
		"  --snd-ns NS[,NS...]     sender namespace(s) (name or /path; default: current)\n"
		"  --rcv-ns NS[,NS...]     receiver namespace(s)\n"
		"  --bottleneck [NS:]DEV   qdisc to sample for drops/marks (default: none)\n"
		"  --port N                first TCP port, job j uses N+j (default 5201)\n"
		"Measurement:\n"
		"  --ideal / --no-ideal    run every job alone first (default: on)\n"
		"  --ideal-iterations N    iterations of each alone run (default 10)\n"
		"  --ideal-warmup N        of which skipped (default 2)\n"
		"  --warmup N              shared-run iterations skipped in mean/p99 (default 5)\n"
		"  --converge-threshold F  overlap fraction counted as interleaved (default %.2f)\n"
		"  --converge-min N        contended iterations that must follow (default 5)\n"
		"  --converge-ratio X      run verdict: converged if the worst job's mean over the\n"
		"                          last half of the run is <= X times its ideal (%.2f)\n"
		"  --sample-ms MS          bottleneck counter sampling (default 10)\n"
		"  --bin-ms MS             link-share bins (default 5)\n"
		"  --timeout S             per run (default 30 s + 3x the expected duration)\n"
		"  --hints | --no-hints    tell MLTCP the iterations via libmltcp, or let it learn\n"
		"                          (default --no-hints; MLTCP sockets only)\n"
		"Output:\n"
		"  -o, --out DIR           result directory (default results/bench-DATE-TIME)\n"
		"  --label TEXT            name of this run in reports and plots (default: cc)\n"
		"  -q, --quiet             only the summary\n",
		profile_keys_help, TARGET_INTERLEAVED, TARGET_CONVERGED);
}

static int parse_num_opt(const char *name, const char *v, double max, double *out)
{
	if (parse_double(v, out) || *out > max) {
		warnx_("--%s: '%s' is not a number in 0..%g", name, v, max);
		return -1;
	}
	return 0;
}

static int parse_uint_opt(const char *name, const char *v, unsigned long max, unsigned *out)
{
	unsigned long u;

	if (parse_uint(v, max, &u)) {
		warnx_("--%s: '%s' is not a whole number in 0..%lu", name, v, max);
		return -1;
	}
	*out = (unsigned)u;
	return 0;
}


enum {
	O_ITER = 256, O_CC, O_ROFF, O_SEED, O_RATE, O_QUEUE, O_BURST, O_ECN, O_MTU, O_SYSCTL,
	O_NOTOPO, O_RCVADDR, O_SNDNS, O_RCVNS, O_BOTT, O_PORT, O_IDEAL, O_NOIDEAL, O_IITER,
	O_IWARM, O_WARM, O_THR, O_CMIN, O_SAMPLE, O_BIN, O_TIMEOUT, O_HINTS, O_NOHINTS, O_LABEL,
	O_CLEANUP, O_START, O_RUNS, O_CRATIO, O_QBDP, O_DELAY, O_IEACH,
};

static const struct option run_options[] = {
	{ "profile", required_argument, NULL, 'p' },
	{ "job", required_argument, NULL, 'j' },
	{ "iterations", required_argument, NULL, O_ITER },
	{ "cc", required_argument, NULL, O_CC },
	{ "random-offset", required_argument, NULL, O_ROFF },
	{ "seed", required_argument, NULL, O_SEED },
	{ "rate-mbit", required_argument, NULL, O_RATE },
	{ "queue-kb", required_argument, NULL, O_QUEUE },
	{ "burst-bytes", required_argument, NULL, O_BURST },
	{ "ecn-kb", required_argument, NULL, O_ECN },
	{ "mtu", required_argument, NULL, O_MTU },
	{ "sysctl", required_argument, NULL, O_SYSCTL },
	{ "no-topology", no_argument, NULL, O_NOTOPO },
	{ "rcv-addr", required_argument, NULL, O_RCVADDR },
	{ "snd-ns", required_argument, NULL, O_SNDNS },
	{ "rcv-ns", required_argument, NULL, O_RCVNS },
	{ "bottleneck", required_argument, NULL, O_BOTT },
	{ "port", required_argument, NULL, O_PORT },
	{ "ideal", no_argument, NULL, O_IDEAL },
	{ "no-ideal", no_argument, NULL, O_NOIDEAL },
	{ "ideal-iterations", required_argument, NULL, O_IITER },
	{ "ideal-warmup", required_argument, NULL, O_IWARM },
	{ "warmup", required_argument, NULL, O_WARM },
	{ "converge-threshold", required_argument, NULL, O_THR },
	{ "converge-min", required_argument, NULL, O_CMIN },
	{ "sample-ms", required_argument, NULL, O_SAMPLE },
	{ "bin-ms", required_argument, NULL, O_BIN },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "hints", no_argument, NULL, O_HINTS },
	{ "no-hints", no_argument, NULL, O_NOHINTS },
	{ "out", required_argument, NULL, 'o' },
	{ "label", required_argument, NULL, O_LABEL },
	{ "quiet", no_argument, NULL, 'q' },
	{ "cleanup", no_argument, NULL, O_CLEANUP },
	{ "start", required_argument, NULL, O_START },
	{ "runs", required_argument, NULL, O_RUNS },
	{ "converge-ratio", required_argument, NULL, O_CRATIO },
	{ "queue-bdp", required_argument, NULL, O_QBDP },
	{ "delay-ms", required_argument, NULL, O_DELAY },
	{ "ideal-each", no_argument, NULL, O_IEACH },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What a parse_*_option() returns besides an exit code: the option was taken, or is not
 * one of its group. */
enum { OPT_DONE = -1, OPT_OTHER = -2 };

/*
 * An option that takes a number, a real one (num) or a whole one (whole): it must parse
 * as one in 0..max, and be at least min; one that is not says "--NAME must be RANGE",
 * where a range is given, after what the parser said.
 */
static const struct num_opt {
	int code;
	const char *name;
	double max, min;
	const char *range;
	double *num;
	unsigned *whole;
} num_opts[] = {
	{ O_ROFF, "random-offset", 3600e3, 0, NULL, &opt.random_offset_ms, NULL },
	{ O_RATE, "rate-mbit", 100000, 0.1, "0.1..100000", &opt.rate_mbit, NULL },
	{ O_QUEUE, "queue-kb", 1e6, 3, "3..1000000", &opt.queue_kb, NULL },
	{ O_QBDP, "queue-bdp", 1000, 0.05, "0.05..1000", &opt.queue_bdp, NULL },
	{ O_DELAY, "delay-ms", 10000, 0, NULL, &opt.delay_ms, NULL },
	{ O_ECN, "ecn-kb", 1e6, 1.5, "1.5..1000000", &opt.ecn_kb, NULL },
	{ O_MTU, "mtu", 65535, 576, "576..65535", NULL, &opt.mtu },
	{ O_PORT, "port", 65535 - MAX_JOBS, 1, NULL, NULL, &opt.port },
	{ O_IITER, "ideal-iterations", 1000000, 1, "1..1000000", NULL, &opt.ideal_iterations },
	{ O_IWARM, "ideal-warmup", 1000000, 0, NULL, NULL, &opt.ideal_warmup },
	{ O_WARM, "warmup", 1000000, 0, NULL, NULL, &opt.warmup },
	{ O_THR, "converge-threshold", 1, 0, NULL, &opt.threshold, NULL },
	{ O_CMIN, "converge-min", 1000000, 0, NULL, NULL, &opt.min_stable },
	{ O_CRATIO, "converge-ratio", 100, 1, "1..100", &opt.ratio_limit, NULL },
	{ O_SAMPLE, "sample-ms", 10000, 1, "1..10000", &opt.sample_ms, NULL },
	{ O_BIN, "bin-ms", 10000, 0.1, "0.1..10000", &opt.bin_ms, NULL },
	{ O_TIMEOUT, "timeout", 86400, 1, "1..86400 seconds", &opt.timeout_s, NULL },
	{ O_RUNS, "runs", 10000, 1, "1..10000", NULL, &opt.runs },
};

/* Options that keep their argument as it is. */
static const struct text_opt {
	int code;
	char **val;
} text_opts[] = {
	{ O_CC, &opt.cc },
	{ O_RCVADDR, &opt.rcv_addr },
	{ O_SNDNS, &opt.snd_ns },
	{ O_RCVNS, &opt.rcv_ns },
	{ O_BOTT, &opt.bottleneck },
	{ 'o', &opt.out },
};

/* Options without an argument that set a flag. */
static const struct flag_opt {
	int code;
	int *val;
	int set;
} flag_opts[] = {
	{ O_NOTOPO, &opt.no_topology, 1 },
	{ O_IDEAL, &opt.ideal, 1 },
	{ O_NOIDEAL, &opt.ideal, 0 },
	{ O_IEACH, &opt.ideal_each, 1 },
	{ 'q', &opt.quiet, 1 },
};

/* The options of the tables above; `report` takes some of the numbers. */
static int parse_table_option(int c, char *arg)
{
	for (size_t i = 0; i < sizeof(num_opts) / sizeof(num_opts[0]); i++) {
		const struct num_opt *o = &num_opts[i];
		int bad;

		if (o->code != c)
			continue;
		if (o->num)
			bad = parse_num_opt(o->name, arg, o->max, o->num) || *o->num < o->min;
		else
			bad = parse_uint_opt(o->name, arg, (unsigned long)o->max, o->whole) ||
			      *o->whole < o->min;
		if (!bad)
			return OPT_DONE;
		if (o->range)
			warnx_("--%s must be %s", o->name, o->range);
		return 2;
	}
	for (size_t i = 0; i < sizeof(text_opts) / sizeof(text_opts[0]); i++)
		if (text_opts[i].code == c) {
			*text_opts[i].val = arg;
			return OPT_DONE;
		}
	for (size_t i = 0; i < sizeof(flag_opts) / sizeof(flag_opts[0]); i++)
		if (flag_opts[i].code == c) {
			*flag_opts[i].val = flag_opts[i].set;
			return OPT_DONE;
		}
	return OPT_OTHER;
}

/* The jobs and how they start. */
static int parse_job_option(int c, char *arg)
{
	char err[512];
	unsigned v;

	switch (c) {
	case 'p':
		if (profile_parse_file(&jobs, arg, err, sizeof(err))) {
			warnx_("profile %s", err);
			return 2;
		}
		return OPT_DONE;
	case 'j':
		if (profile_parse_spec(&jobs, arg, err, sizeof(err))) {
			warnx_("%s", err);
			return 2;
		}
		return OPT_DONE;
	case O_ITER:
		if (parse_uint_opt("iterations", arg, 1000000, &v) || !v) {
			warnx_("--iterations must be 1..1000000");
			return 2;
		}
		opt.iterations = v;
		return OPT_DONE;
	case O_SEED: {
		unsigned long u;

		if (parse_uint(arg, ~0UL, &u)) {
			warnx_("--seed: '%s' is not a whole number", arg);
			return 2;
		}
		opt.seed = u;
		opt.have_seed = 1;
		return OPT_DONE;
	}
	case O_START:
		if (!strcmp(arg, "exact")) {
			opt.start_exact = 1;
		} else if (!strcmp(arg, "timed")) {
			opt.start_exact = 0;
		} else {
			warnx_("--start: '%s' is not exact or timed", arg);
			return 2;
		}
		return OPT_DONE;
	}
	return OPT_OTHER;
}

/* The rest, help and --cleanup; usage on an unknown option. */
static int parse_other_option(int c, char *arg)
{
	switch (c) {
	case O_BURST: {
		uint64_t b;

		if (parse_bytes(arg, &b) || b < 1600 || b > (64 << 20)) {
			warnx_("--burst-bytes: '%s' must be 1600..64MiB", arg);
			return 2;
		}
		opt.burst_bytes = b;
		return OPT_DONE;
	}
	case O_SYSCTL:
		if (!strchr(arg, '=') || strchr(arg, '/') ||
		    opt.nsysctl == sizeof(opt.sysctls) / sizeof(opt.sysctls[0])) {
			warnx_("--sysctl: '%s' is not KEY=VALUE (dotted key, at most 32)", arg);
			return 2;
		}
		opt.sysctls[opt.nsysctl++] = arg;
		return OPT_DONE;
	case O_HINTS:
		opt.hints = HINTS_LIBMLTCP;
		return OPT_DONE;
	case O_NOHINTS:
		opt.hints = HINTS_NONE;
		return OPT_DONE;
	case O_LABEL:
		if (strchr(arg, ',') || strchr(arg, '\n') || strlen(arg) > 200) {
			warnx_("--label: no commas or newlines, at most 200 characters");
			return 2;
		}
		opt.label = arg;
		return OPT_DONE;
	case O_CLEANUP:
		topology_cleanup_stale();
		return 0;
	case 'h':
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}

int cli_parse(int argc, char **argv)
{
	char err[512];
	int c;

	while ((c = getopt_long(argc, argv, "p:j:o:qh", run_options, NULL)) != -1) {
		int ret = parse_table_option(c, optarg);

		if (ret == OPT_OTHER)
			ret = parse_job_option(c, optarg);
		if (ret == OPT_OTHER)
			ret = parse_other_option(c, optarg);
		if (ret != OPT_DONE)
			return ret;
	}
	if (optind < argc) {
		warnx_("unexpected argument '%s' (see --help)", argv[optind]);
		return 2;
	}
	if (hints_select(opt.hints, err, sizeof(err))) {
		warnx_("%s", err);
		return 2;
	}
	if (!jobs.n) {
		warnx_("no jobs: give --profile FILE or --job SPEC (see --help)");
		return 2;
	}
	return -1;
}

int cli_parse_report(int argc, char **argv, struct report_opts *ro)
{
	static const struct option report_options[] = {
		{ "warmup", required_argument, NULL, O_WARM },
		{ "ideal-warmup", required_argument, NULL, O_IWARM },
		{ "converge-threshold", required_argument, NULL, O_THR },
		{ "converge-min", required_argument, NULL, O_CMIN },
		{ "converge-ratio", required_argument, NULL, O_CRATIO },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(ro, 0, sizeof(*ro));
	while ((c = getopt_long(argc, argv, "h", report_options, NULL)) != -1) {
		int ret = parse_table_option(c, optarg);

		if (ret == OPT_OTHER)
			ret = parse_other_option(c, optarg);
		if (ret != OPT_DONE)
			return ret;
		ro->set_warmup |= c == O_WARM;
		ro->set_ideal_warmup |= c == O_IWARM;
		ro->set_ratio |= c == O_CRATIO;
	}
	if (optind >= argc) {
		warnx_("report: no result directory given");
		return 2;
	}
	return -1;
}
