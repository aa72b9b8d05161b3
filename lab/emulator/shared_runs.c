// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench: the shared runs. Every run starts from the ideal records (measured again
 * first with --ideal-each), draws its random start offsets, runs all jobs together on
 * the same topology, and is analysed and written out on its own before the next starts,
 * so that a long series leaves its finished runs behind when it is cut short.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "analysis.h"
#include "cli.h"
#include "output.h"
#include "run.h"
#include "shared_runs.h"
#include "supervise.h"
#include "util.h"

/* Every job's start offset for this run, and the list of them for runs.csv. */
static void draw_offsets(const struct bench *b, char *offs, size_t len)
{
	size_t off = 0;

	offs[0] = '\0';
	for (unsigned j = 0; j < jobs.n; j++) {
		struct job_profile *p = &jobs.jobs[j];

		p->offset_ms = b->base_offset[j];
		if (opt.random_offset_ms > 0)
			p->offset_ms += opt.random_offset_ms * ((double)random() / 2147483648.0);
		off += (size_t)snprintf(offs + off, len - off, "%s%.1f", j ? ";" : "",
					p->offset_ms);
		if (off >= len)
			off = len - 1;
	}
}

/* Shared run r (0-based): run, analyse, write. */
static void shared_run(const struct bench *b, unsigned r, int argc, char **argv,
		       const struct summary_opts *so, struct runs_outcome *out, FILE *f_runs)
{
	char dir[4096], offs[512];
	unsigned idx[MAX_JOBS];
	struct job_summary *sum;
	int nsum;

	if (opt.ideal_each && r > 0) {
		recs.nits = recs.nphs = recs.nsamples = 0;
		measure_ideal();
	}
	records_drop_shared();
	draw_offsets(b, offs, sizeof(offs));
	for (unsigned j = 0; j < jobs.n; j++)
		idx[j] = j;
	if (!opt.quiet && opt.runs > 1)
		fprintf(stderr, "mltcp-bench: run %u of %u\n", r + 1, opt.runs);
	run_set(MODE_SHARED, idx, (unsigned)jobs.n, 0);

	nsum = analyse_shared_run(so, b->nbulk, &sum, &out->verdicts[r], &out->fr[r]);
	out->spreads[r] = recs.start_spread_ms;
	make_run_dir(r, dir, sizeof(dir), argc, argv, b->label);
	write_results(dir, b->label, sum, (size_t)nsum, b->theory);
	write_run_summary(b, r, dir, sum, (size_t)nsum, out);
	runs_csv_line(f_runs, r, dir, out, offs);
	free(sum);
}

void shared_runs(const struct bench *b, int argc, char **argv, struct runs_outcome *out)
{
	struct summary_opts so = {
		.warmup = opt.warmup,
		.ideal_warmup = opt.ideal_warmup,
		.threshold = opt.threshold,
		.min_stable = opt.min_stable,
	};
	FILE *f_runs;

	out->verdicts = calloc(opt.runs, sizeof(*out->verdicts));
	out->spreads = calloc(opt.runs, sizeof(*out->spreads));
	out->fr = calloc(opt.runs, sizeof(*out->fr));
	if (!out->verdicts || !out->spreads || !out->fr) {
		warnx_("out of memory");
		fatal_exit(1);
	}
	f_runs = runs_csv_open();
	for (unsigned r = 0; r < opt.runs; r++)
		shared_run(b, r, argc, argv, &so, out, f_runs);
	close_out(f_runs, "runs.csv");
}

void runs_outcome_free(struct runs_outcome *out)
{
	free(out->verdicts);
	free(out->spreads);
	free(out->fr);
}
