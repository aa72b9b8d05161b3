/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-bench: the shared runs of an invocation (--runs), one after another. */
#ifndef MLTCP_BENCH_SHARED_RUNS_H
#define MLTCP_BENCH_SHARED_RUNS_H

#include "setup.h"
#include "verdict.h"

/* What each shared run came to, for runs.csv and the summary over runs. */
struct runs_outcome {
	struct run_verdict *verdicts;
	double *spreads;		/* how far apart the first iterations started (ms) */
	struct friendliness *fr;	/* all NAN without bulk flows */
};

/*
 * The --runs shared runs on the ideal records measured before: each analysed, its
 * records and summary written, its line added to runs.csv. out is filled (malloc'ed;
 * runs_outcome_free()).
 */
void shared_runs(const struct bench *b, int argc, char **argv, struct runs_outcome *out);
void runs_outcome_free(struct runs_outcome *out);

#endif
