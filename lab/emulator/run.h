/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-bench: one run, a set of jobs started together, and the records the runs leave. */
#ifndef MLTCP_BENCH_RUN_H
#define MLTCP_BENCH_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "profile.h"

/* Every record of this invocation so far, times in ms since base_ns. */
struct bench_records {
	int64_t base_ns;
	struct iter_rec *its;
	size_t nits, capits;
	struct phase_rec *phs;
	size_t nphs, capphs;
	struct counter_sample *samples;	/* the bottleneck's counters */
	size_t nsamples, capsamples;
	/* the ideal runs' records come first, this many of each */
	size_t nits_ideal, nphs_ideal, nsamples_ideal;
	/* the last shared run: payload bytes each job's receiver read per bin from share_t0_ms */
	uint64_t *share_bins[MAX_JOBS];
	size_t share_nbins;
	double share_t0_ms;
	double shared_start_ms, shared_end_ms;	/* its first iteration start, last end */
	double start_spread_ms;			/* spread of its first releases */
};

extern struct bench_records recs;

/*
 * Run the jobs idx[0..n) together (MODE_SHARED) or one job alone (MODE_IDEAL), with
 * iters_override iterations each unless 0, and append their records. Fatal on failure.
 */
void run_set(enum run_mode mode, const unsigned *idx, unsigned n, unsigned iters_override);

/*
 * Every (non-bulk) job alone on the link (with --ideal), the overlaps and counters of
 * those records, which then are the ideal records every shared run starts from.
 */
void measure_ideal(void);

/* Only the ideal records are left: the start of a fresh shared run. */
void records_drop_shared(void);

#endif
