/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-bench: what the records of the last shared run say (in recs, run.h). */
#ifndef MLTCP_BENCH_ANALYSIS_H
#define MLTCP_BENCH_ANALYSIS_H

#include <stddef.h>

#include "metrics.h"
#include "verdict.h"

/*
 * The overlaps (also on the link) and counters of the last shared run's records, the
 * per-job summaries (*sum, malloc'ed; their number is returned), the run's verdict and,
 * with bulk flows among the jobs (nbulk), its friendliness (else all NAN). Fatal when
 * out of memory.
 */
int analyse_shared_run(const struct summary_opts *so, size_t nbulk, struct job_summary **sum,
		       struct run_verdict *v, struct friendliness *fr);

/* Increase of a bottleneck counter (0 drops, 1 marks) over the last shared run. */
double counter_delta(int field);

/*
 * The least another job's receiver must read in a bin for the bin to count as shared in
 * the link overlap (metrics.h), in bytes.
 */
double link_min_other(double rate_mbit, double bin_ms);

#endif
