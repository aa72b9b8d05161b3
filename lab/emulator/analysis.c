// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench: the analysis of a shared run once its records are in: how much the jobs'
 * communication overlapped, in time and on the link, what the bottleneck counted, how
 * each job fared against its ideal, the run's verdict and its friendliness to bulk flows.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>

#include "analysis.h"
#include "cli.h"
#include "run.h"
#include "supervise.h"
#include "util.h"

double counter_delta(int field)
{
	return metrics_counter_at(recs.samples, recs.nsamples, recs.shared_end_ms, field) -
	       metrics_counter_at(recs.samples, recs.nsamples, recs.shared_start_ms, field);
}

/* A tenth of what the link carries in a bin. */
double link_min_other(double rate_mbit, double bin_ms)
{
	return rate_mbit * 125.0 * bin_ms / 10;
}

/* Link overlap of the last shared run's records, from its link-share bins. */
static int compute_link_overlap(void)
{
	double *b[MAX_JOBS] = { NULL };
	int ret = 0;

	for (size_t j = 0; j < jobs.n && !ret; j++) {
		if (jobs.jobs[j].bulk || !recs.share_bins[j])
			continue;
		b[j] = malloc((recs.share_nbins + 1) * sizeof(double));
		if (!b[j]) {
			ret = -1;
			break;
		}
		for (size_t k = 0; k < recs.share_nbins; k++)
			b[j][k] = (double)recs.share_bins[j][k];
	}
	if (!ret)
		ret = metrics_link_overlap(recs.its, recs.nits, recs.phs, recs.nphs, MODE_SHARED,
					   (const double *const *)b, (unsigned)jobs.n,
					   recs.share_nbins, recs.share_t0_ms, opt.bin_ms,
					   link_min_other(opt.rate_mbit, opt.bin_ms));
	for (size_t j = 0; j < jobs.n; j++)
		free(b[j]);
	return ret;
}

/* Friendliness to the bulk flow(s) of the last shared run (definitions: verdict.h). */
static int compute_friendliness(struct friendliness *out)
{
	double *bulk = calloc(recs.share_nbins + 1, sizeof(double));
	double *job = calloc(recs.share_nbins + 1, sizeof(double));
	struct interval *comm = malloc((recs.nphs + 1) * sizeof(*comm));
	size_t nc = 0;

	if (!bulk || !job || !comm) {
		free(bulk), free(job), free(comm);
		return -1;
	}
	for (size_t j = 0; j < jobs.n; j++)
		for (size_t b = 0; b < recs.share_nbins && recs.share_bins[j]; b++)
			(jobs.jobs[j].bulk ? bulk : job)[b] += (double)recs.share_bins[j][b];
	for (size_t i = 0; i < recs.nphs; i++)
		if (recs.phs[i].mode == MODE_SHARED)
			comm[nc++] = (struct interval){ recs.phs[i].start, recs.phs[i].end };
	if (!isnan(recs.shared_start_ms))
		verdict_friendliness(bulk, job, recs.share_nbins, recs.share_t0_ms, opt.bin_ms,
				     comm, nc, recs.shared_start_ms, recs.shared_end_ms,
				     opt.rate_mbit, out);
	free(bulk), free(job), free(comm);
	return 0;
}

int analyse_shared_run(const struct summary_opts *so, size_t nbulk, struct job_summary **sum,
		       struct run_verdict *v, struct friendliness *fr)
{
	int nsum;

	if (metrics_overlap(recs.its, recs.nits, recs.phs, recs.nphs, MODE_SHARED) ||
	    compute_link_overlap()) {
		warnx_("out of memory");
		fatal_exit(1);
	}
	metrics_attribute_counters(recs.its, recs.nits, recs.samples, recs.nsamples, MODE_SHARED);
	nsum = metrics_summarize(recs.its, recs.nits, so, sum);
	if (nsum < 0) {
		warnx_("out of memory");
		fatal_exit(1);
	}
	verdict_run(recs.its, recs.nits, *sum, (size_t)nsum, opt.ratio_limit, v);
	*fr = (struct friendliness){ NAN, NAN, NAN };
	if (nbulk && compute_friendliness(fr)) {
		warnx_("out of memory");
		fatal_exit(1);
	}
	return nsum;
}
