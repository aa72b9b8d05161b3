/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp-bench metrics: everything computed from the per-iteration records.
 *
 * Times are milliseconds since the run's common start. Definitions:
 *  - iteration time: end - start (start = compute start, end = the last phase's barrier);
 *  - mean and p99 over the iterations with index >= warm-up; p99 is the nearest-rank
 *    percentile (the smallest value with at least 99% of the samples <= it);
 *  - communication time of an iteration: the summed length of its phases
 *    ([first byte written, receiver's confirmation read]);
 *  - overlap of an iteration: the part of its communication time during which at least
 *    one other job of the same run was communicating, as a fraction of its communication
 *    time;
 *  - contended iteration: another job of the same run was between its first iteration
 *    start and its last iteration end at some point of this iteration;
 *  - converged at iteration k: every contended iteration >= k has overlap below the
 *    threshold (default: lab/targets.conf's interleaved), and at least min_stable (default 5) contended iterations
 *    follow k (so "converged" cannot come from jobs simply finishing);
 *  - link overlap of an iteration: of the bytes its receiver read during its
 *    communication phases (per bin of the link-share record, weighted by the part of the
 *    bin a phase covers), the fraction read in bins in which another job's receiver also
 *    read at least a tenth of what the link carries in a bin. It is the overlap seen at
 *    the bottleneck instead of by the application: a phase ends when the sender reads the
 *    receiver's confirmation, one RTT after its last byte crossed the link, so two phases
 *    that follow each other on the link still overlap by an RTT in application time (7%
 *    of a 145 ms phase with 10 ms of added RTT); converged on the link: the same rule as
 *    above on the link overlap;
 *  - drops/marks of an iteration: increase of the bottleneck counters between its start
 *    and end (linear interpolation between samples).
 */
#ifndef MLTCP_BENCH_METRICS_H
#define MLTCP_BENCH_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

enum run_mode { MODE_SHARED = 0, MODE_IDEAL = 1 };

struct iter_rec {
	int mode;
	unsigned job, iter;
	char name[JOB_NAME_MAX];
	char cc[CC_NAME_MAX];
	double start, end, comm_start, comm_end;
	uint64_t bytes;
	double comm_ms;	/* summed phase lengths; NAN unknown */
	double overlap;	/* fraction of comm_ms; NAN unknown or no communication */
	double link_overlap; /* fraction of the bytes read; NAN unknown */
	int contended;
	double drops, marks; /* NAN unknown */
};

struct phase_rec {
	int mode;
	unsigned job, iter, phase;
	double start, end;
	uint64_t bytes;
};

struct counter_sample {
	double t;
	double drops, marks, backlog;
};

struct interval {
	double a, b;
};

struct job_summary {
	unsigned job;
	char name[JOB_NAME_MAX];
	char cc[CC_NAME_MAX];
	size_t iters;		/* shared-run iterations recorded */
	size_t used;		/* after warm-up */
	double mean, p99, min, max;
	double ideal, ideal_p99; /* NAN without an ideal run */
	double ratio, p99_ratio; /* to ideal; NAN without one */
	size_t contended;	/* shared-run iterations with another job running */
	long converged;		/* first converged iteration, -1 never (or never contended) */
	long link_converged;	/* the same on the link overlap, -1 never */
	int link_known;		/* some contended iteration has a link overlap */
	double overlap_first, overlap_last; /* mean over first/last 5 contended iterations */
	double drops_per_iter, marks_per_iter; /* after warm-up; NAN unknown */
};

const char *mode_name(int mode);
int mode_parse(const char *s);

double metrics_mean(const double *v, size_t n);
/* Nearest-rank percentile, pct in (0, 100]. NAN for n == 0. */
double metrics_percentile(const double *v, size_t n, double pct);

/* Sort and merge in place; returns the number of disjoint intervals left. */
size_t intervals_merge(struct interval *iv, size_t n);
/* Length of [a, b] covered by merged (sorted, disjoint) intervals. */
double intervals_covered(const struct interval *m, size_t n, double a, double b);

/* Fill comm_ms, overlap and contended of every record of the given mode. 0 or -1 (ENOMEM). */
int metrics_overlap(struct iter_rec *it, size_t nit, const struct phase_rec *ph, size_t nph,
		    int mode);
/*
 * Fill link_overlap of the records of the given mode from the bytes each job's receiver
 * read per bin: bins[j][b] covers [t0 + b bin_ms, t0 + (b + 1) bin_ms); bins[j] NULL for
 * a job without a record (or not to count as another job: a bulk flow). min_other is the
 * least another job must read in a bin for the bin to count as shared. Records whose job
 * has no bins, or that read nothing in their phases, get NAN. 0, or -1 (ENOMEM, bad
 * arguments).
 */
int metrics_link_overlap(struct iter_rec *it, size_t nit, const struct phase_rec *ph,
			 size_t nph, int mode, const double *const *bins, unsigned njobs,
			 size_t nbins, double t0, double bin_ms, double min_other);
long metrics_converged(const double *frac, const int *contended, size_t n, double threshold,
		       unsigned min_stable);

/* Counter value at time t, interpolated; field: 0 drops, 1 marks, 2 backlog. */
double metrics_counter_at(const struct counter_sample *s, size_t n, double t, int field);
/* Fill drops and marks of the records of the given mode (NAN when n == 0). */
void metrics_attribute_counters(struct iter_rec *it, size_t nit, const struct counter_sample *s,
				size_t n, int mode);

struct summary_opts {
	unsigned warmup;	/* shared-run iterations skipped */
	unsigned ideal_warmup;	/* ideal-run iterations skipped */
	double threshold;	/* convergence overlap threshold (targets: interleaved) */
	unsigned min_stable;	/* contended iterations after convergence (5) */
};

/* One summary per job found in the records (ordered by job index). Returns the number of
 * jobs, or -1 on allocation failure; *out is malloc'ed. */
int metrics_summarize(const struct iter_rec *it, size_t nit, const struct summary_opts *o,
		      struct job_summary **out);

/* Mean overlap over the contended iterations of all jobs, per block of `block` iteration
 * indices; returns the number of blocks written into out (at most max), NAN for blocks
 * with no contended iteration. */
size_t metrics_overlap_series(const struct iter_rec *it, size_t nit, unsigned block, double *out,
			      size_t max);

#endif
