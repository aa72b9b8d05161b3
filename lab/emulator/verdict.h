/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp-bench verdicts: did one shared run converge, and how did N runs of the same
 * scenario do (--runs N).
 *
 *  - worst/ideal of a run: for every job with an ideal, the mean iteration time over the
 *    last half of its shared-run iterations (iteration index >= iterations / 2) divided by
 *    its ideal; the run's value is the largest (the worst job);
 *  - converged run: worst/ideal <= the limit (--converge-ratio, default: lab/targets.conf's
 *    converged);
 *  - convergence iteration of a run: the latest of its jobs' converged iterations (see
 *    metrics.h: overlap below the threshold from there on); -1 if some job that ran next
 *    to another never got there; the same on the link overlap (metrics.h), unknown
 *    without a link-share record;
 *  - over N runs: success = converged runs; for the median and p90 (nearest rank) of the
 *    convergence iteration a run that failed the verdict or whose overlap never settled
 *    ranks as +infinity, after every converged run (so "median never" means fewer than
 *    half of the runs converged); worst/ideal spread: min, median, p90, max over the runs
 *    with a value.
 */
#ifndef MLTCP_BENCH_VERDICT_H
#define MLTCP_BENCH_VERDICT_H

#include <stddef.h>

#include "metrics.h"

#define VERDICT_UNKNOWN (-2L)

struct run_verdict {
	double worst_ratio;	/* NAN: no job had an ideal */
	int worst_job;		/* job index, -1 none */
	long conv_iter;		/* -1: overlap never settled */
	int converged;		/* worst_ratio <= limit */
	long link_conv_iter;	/* conv_iter on the link: -1 never, VERDICT_UNKNOWN */
};

struct runs_summary {
	size_t n, ok;
	double rate;		/* ok / n, NAN for n == 0 */
	double conv_median, conv_p90;	/* INFINITY: falls on a non-converged run */
	double link_conv_median, link_conv_p90; /* the same on the link; NAN unknown */
	double worst_min, worst_median, worst_p90, worst_max; /* NAN: no value */
};

/* Mean of end - start over the shared-run records of job with iter >= its count / 2. */
double verdict_last_half_mean(const struct iter_rec *it, size_t nit, unsigned job);

/* Verdict of one shared run from its records and its per-job summaries (ideal, converged
 * iteration). Returns 0, -1 for a bad limit. */
int verdict_run(const struct iter_rec *it, size_t nit, const struct job_summary *s, size_t ns,
		double limit, struct run_verdict *v);

/* Effective convergence iteration used for ranking: conv_iter, or INFINITY. */
double verdict_conv_rank(const struct run_verdict *v);
/* The same for link_conv_iter; NAN when unknown. */
double verdict_link_conv_rank(const struct run_verdict *v);

/*
 * Friendliness of the jobs to a stock bulk flow sharing the bottleneck, from the bytes
 * each received per bin (bin b covers [t0 + b bin_ms, t0 + (b+1) bin_ms)):
 *  - share_comm: the bulk flow's part of all bytes delivered while some job was
 *    communicating, every bin weighted by the fraction of it covered by the jobs'
 *    communication phases (comm, merged in place);
 *  - share_run: its part of all bytes delivered over the run [a, b];
 *  - link_run: its throughput over [a, b] as a fraction of the link rate.
 * NAN where nothing was delivered. Returns 0, or -1 for bad arguments.
 */
struct friendliness {
	double share_comm, share_run, link_run;
};
int verdict_friendliness(const double *bulk, const double *jobs, size_t nbins, double t0,
			 double bin_ms, struct interval *comm, size_t ncomm, double a, double b,
			 double rate_mbit, struct friendliness *out);

/* Summary of n runs; 0, or -1 on allocation failure. */
int verdict_summarize(const struct run_verdict *v, size_t n, struct runs_summary *out);

#endif
