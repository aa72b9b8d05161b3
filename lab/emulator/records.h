/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp-bench record files.
 *
 * iterations.csv (header line, then one line per iteration; unknown values are empty):
 *   mode,job,name,cc,iter,start_ms,end_ms,comm_start_ms,comm_end_ms,bytes,
 *   iter_ms,comm_ms,overlap,contended,drops,marks,link_overlap
 * iterations.jsonl: the same fields, one JSON object per line (unknown = null).
 * phases.csv:
 *   mode,job,iter,phase,start_ms,end_ms,bytes
 * share.csv (the shared run's link share): t_ms, then one column per job in job order
 *   (its name), Mbit/s its receiver read in the bin starting at t_ms; equally spaced.
 * Times are milliseconds since the common start of the run (CLOCK_MONOTONIC).
 * The readers map columns by header name, so extra columns and reordering are fine;
 * mode, job, iter, start_ms and end_ms are required.
 */
#ifndef MLTCP_BENCH_RECORDS_H
#define MLTCP_BENCH_RECORDS_H

#include <stdio.h>

#include "metrics.h"

int records_write_iterations_csv(FILE *f, const struct iter_rec *it, size_t n);
int records_write_iterations_jsonl(FILE *f, const struct iter_rec *it, size_t n);
int records_write_phases_csv(FILE *f, const struct phase_rec *ph, size_t n);

/* *out is malloc'ed. src names the input in error messages ("SRC:LINE: ..."). */
int records_read_iterations_csv(FILE *f, const char *src, struct iter_rec **out, size_t *n,
				char *err, size_t errlen);
int records_read_phases_csv(FILE *f, const char *src, struct phase_rec **out, size_t *n,
			    char *err, size_t errlen);

/* share.csv as read back: njobs columns of nbins values, in Mbit/s. */
struct share_rec {
	size_t njobs, nbins;
	double t0, bin_ms;	/* bin_ms: the spacing of t_ms, NAN with fewer than 2 rows */
	double *mbit;		/* mbit[b * njobs + j]; malloc'ed */
};

int records_read_share_csv(FILE *f, const char *src, struct share_rec *out, char *err,
			   size_t errlen);

#endif
