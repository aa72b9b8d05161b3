/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp-bench: the summaries people read, on stdout and in summary.txt, of a run just
 * made and of result directories (`report`).
 */
#ifndef MLTCP_BENCH_SUMMARY_H
#define MLTCP_BENCH_SUMMARY_H

#include <stdio.h>

#include "metrics.h"
#include "verdict.h"

/* The per-job table, the convergence line and the overlap per 5 iterations; theory may
 * be NULL. */
void print_summary(FILE *f, const char *label, const struct job_summary *s, size_t n,
		   const double *theory, const struct iter_rec *it, size_t nit);
/* One run's verdict line; spread (ms) NAN when unknown. */
void print_verdict(FILE *f, const struct run_verdict *v, double spread);
/* One run's friendliness to the bulk flow(s). */
void print_friendliness(FILE *f, const struct friendliness *x);
/* The friendliness over n runs: minimum and median. */
void print_friendliness_runs(FILE *f, const struct friendliness *x, size_t n);
/* Per-run table and the summary over runs (spreads may be NULL). */
void print_runs(FILE *f, const struct run_verdict *v, const double *spreads, size_t n);

#endif
