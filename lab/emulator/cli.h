/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-bench: the command line of a run and of `report`: the options and their checks. */
#ifndef MLTCP_BENCH_CLI_H
#define MLTCP_BENCH_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "hints.h"
#include "profile.h"

struct options {
	double rate_mbit;
	double queue_kb;	/* 0: 10 ms worth of the rate */
	uint64_t burst_bytes;
	double ecn_kb;
	double queue_bdp;	/* > 0: FIFO = this x BDP (overrides the default queue) */
	double delay_ms;	/* added RTT (netem on the ACK path) */
	int egress;		/* --bottleneck egress */
	unsigned mtu;
	int no_topology;
	char *rcv_addr, *snd_ns, *rcv_ns, *bottleneck;
	unsigned port;
	int ideal;
	unsigned ideal_iterations, ideal_warmup, warmup;
	double threshold;
	unsigned min_stable;
	double sample_ms, bin_ms;
	double timeout_s;
	char *out, *label;
	char *cc;
	long iterations;
	double random_offset_ms;
	unsigned long seed;
	int have_seed;
	int quiet;
	int start_exact;	/* --start exact (default) or timed */
	int ideal_each;		/* measure the ideal again before every run */
	unsigned runs;		/* shared runs (--runs) */
	double ratio_limit;	/* verdict: worst/ideal over the last half <= this */
	char *sysctls[32];
	unsigned nsysctl;
	enum hints_mode hints;	/* --hints or --no-hints (default) */
};

/* The options of this invocation, and the jobs its --profile and --job options added. */
extern struct options opt;
extern struct profile_set jobs;

/*
 * Parse the command line of a run into opt and jobs and select the hints mode. -1 to go
 * on, else the exit code: 0 after --help or --cleanup, 2 on bad input (reported).
 */
int cli_parse(int argc, char **argv);

/* What `report` takes from its own command line besides the directories. */
struct report_opts {
	int set_warmup;		/* --warmup given: it wins over each directory's meta.txt */
	int set_ideal_warmup;	/* likewise --ideal-warmup */
	int set_ratio;		/* likewise --converge-ratio */
};

/*
 * Parse the options of `report` (argv[0] is "report") into opt and ro; the directories
 * start at optind. -1 to go on, else the exit code as cli_parse().
 */
int cli_parse_report(int argc, char **argv, struct report_opts *ro);

#endif
