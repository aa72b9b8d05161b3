/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-bench: the files of a result directory, and the summaries printed with them. */
#ifndef MLTCP_BENCH_OUTPUT_H
#define MLTCP_BENCH_OUTPUT_H

#include <stdio.h>

#include "metrics.h"
#include "setup.h"
#include "shared_runs.h"

/* mkdir -p. 0, or -1 (errno). */
int mkdir_p(const char *path);

/* dir/name opened for writing, and closed with a check; fatal on failure. */
FILE *open_out(const char *dir, const char *name);
void close_out(FILE *f, const char *name);

/* meta.txt: the command, the options in effect and every job's profile. */
void write_meta(const char *dir, int argc, char **argv, const char *label);
/* `tc -s qdisc show` of the bottleneck into the result directory as name. */
void write_tc_snapshot(const char *name);

/*
 * The directory of shared run r (0-based) into dir: the result directory itself, or its
 * run<r+1>/ with its own meta.txt when there are several runs. Fatal on failure.
 */
void make_run_dir(unsigned r, char *dir, size_t len, int argc, char **argv, const char *label);

/* The records of the last shared run and their per-job summaries s[0..ns) in dir. */
void write_results(const char *dir, const char *label, const struct job_summary *s,
		   size_t ns, const double *theory);
/* Shared run r's summary: on stdout (unless quiet among several runs) and in summary.txt. */
void write_run_summary(const struct bench *b, unsigned r, const char *dir,
		       const struct job_summary *sum, size_t nsum,
		       const struct runs_outcome *out);

/* runs.csv with its header line, and the line of shared run r (offs: the start offsets). */
FILE *runs_csv_open(void);
void runs_csv_line(FILE *f, unsigned r, const char *dir, const struct runs_outcome *out,
		   const char *offs);

/* The summary over several runs: on stdout and in the result directory's summary.txt. */
void write_runs_summary(const struct bench *b, const struct runs_outcome *out);

#endif
