// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench: emulates N training jobs whose communication phases cross one shared FIFO
 * bottleneck, records every iteration, and summarises how close each job gets to running
 * alone (the interleaving MLTCP is meant to produce).
 *
 *   P-s0 (sender 0) --veth--\                                    /--veth-- P-d0 (receiver 0)
 *   P-s1 (sender 1) --veth---[ P-r router ]==rb==>==wb==[ P-w ]-----veth-- P-d1 (receiver 1)
 *   ...                     /     rb egress: tbf FIFO            \          ...
 *                                 rate --rate-mbit, limit --queue-kb
 *                                 (+ RED ECN marking with --ecn-kb)
 *
 * One process per sender and receiver (fork + setns into its namespace), one TCP
 * connection per job with the chosen congestion control. Iteration = compute (sleep or
 * busy-wait), then `phases` x (send `bytes`, wait for the receiver's confirmation: the
 * barrier). A sampler process reads the bottleneck qdisc counters over rtnetlink. With
 * --ideal (default) every job first runs alone on the same link to measure its ideal
 * iteration time. The coordinator (this process) builds and removes the namespaces
 * (also on SIGINT/SIGTERM), starts everything at a common time, collects the records
 * from shared memory and writes the result directory. Details: README.md.
 *
 * This file is the sequence of an invocation; cli.c, setup.c, supervise.c, run.c,
 * shared_runs.c, analysis.c, output.c, summary.c and report.c hold its steps.
 */
#define _GNU_SOURCE
#include <string.h>

#include "cli.h"
#include "output.h"
#include "report.h"
#include "run.h"
#include "setup.h"
#include "shared_runs.h"
#include "supervise.h"
#include "util.h"

int main(int argc, char **argv)
{
	struct runs_outcome out;
	struct bench b;
	int ret;

	if (argc > 1 && !strcmp(argv[1], "report"))
		return report_main(argc - 1, argv + 1);
	ret = cli_parse(argc, argv);
	if (ret < 0)
		ret = setup_bench(&b);
	if (ret >= 0)
		return ret;
	if (supervise_init(&topo) || setup_network())
		return 1;
	/* a signal during the build is pending in the signalfd: honour it now */
	wait_event(-1, now_ns());

	write_meta(opt.out, argc, argv, b.label);
	write_tc_snapshot("tc-before.txt");
	recs.base_ns = now_ns();
	measure_ideal();
	shared_runs(&b, argc, argv, &out);
	write_tc_snapshot("tc-after.txt");
	topology_destroy(&topo);
	if (opt.runs > 1)
		write_runs_summary(&b, &out);
	runs_outcome_free(&out);
	return 0;
}
