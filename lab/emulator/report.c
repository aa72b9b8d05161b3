// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench report: summarise result directories again from their files, with the
 * warm-up and limits of the command line or else those the run recorded in meta.txt. A
 * directory of several runs (run1/, run2/, ...) gets its per-run table; single runs get
 * their summary and verdict, and the speedup of each against the first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "cli.h"
#include "records.h"
#include "report.h"
#include "summary.h"
#include "util.h"
#include "verdict.h"

static int read_meta(const char *dir, const char *key, char *out, size_t len)
{
	char path[4096], *line = NULL;
	size_t cap = 0, kl = strlen(key);
	FILE *f;
	int found = -1;

	snprintf(path, sizeof(path), "%s/meta.txt", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		if (!strncmp(line, key, kl) && line[kl] == '=') {
			snprintf(out, len, "%s", strip(line + kl + 1));
			found = 0;
			break;
		}
	}
	free(line);
	fclose(f);
	return found;
}

/*
 * Records written before iterations.csv had link_overlap: compute it from the directory's
 * share.csv and phases.csv when both are there (else it stays unknown). Columns of jobs
 * without records (bulk flows) do not count as other jobs. 0, or -1 on a bad file.
 */
static int link_overlap_from_share(const char *dir, struct iter_rec *it, size_t n)
{
	char path[4096], err[512], val[64];
	const double *cols[MAX_JOBS] = { NULL };
	struct share_rec sh;
	struct phase_rec *ph = NULL;
	double *bytes = NULL, rate = 100, bin_ms;
	size_t nph = 0;
	int has[MAX_JOBS] = { 0 }, ret = -1;
	FILE *f;

	for (size_t i = 0; i < n; i++)
		if (!isnan(it[i].link_overlap))
			return 0;
	snprintf(path, sizeof(path), "%s/share.csv", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (records_read_share_csv(f, path, &sh, err, sizeof(err))) {
		fclose(f);
		warnx_("%s", err);
		return -1;
	}
	fclose(f);
	snprintf(path, sizeof(path), "%s/phases.csv", dir);
	f = fopen(path, "r");
	if (!f) {
		free(sh.mbit);
		return 0;
	}
	if (records_read_phases_csv(f, path, &ph, &nph, err, sizeof(err))) {
		fclose(f);
		free(sh.mbit);
		warnx_("%s", err);
		return -1;
	}
	fclose(f);
	if (!read_meta(dir, "rate_mbit", val, sizeof(val)) && atof(val) > 0)
		rate = atof(val);
	bin_ms = sh.bin_ms;
	if (!read_meta(dir, "bin_ms", val, sizeof(val)) && atof(val) > 0)
		bin_ms = atof(val);
	ret = 0;
	if (!sh.nbins || sh.njobs > MAX_JOBS || !(bin_ms > 0))
		goto out;
	bytes = malloc(sh.nbins * sh.njobs * sizeof(double));
	if (!bytes) {
		warnx_("out of memory");
		ret = -1;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (it[i].job < MAX_JOBS)
			has[it[i].job] = 1;
	/* job-major, in bytes: Mbit/s x bin_ms x 125 bytes per (Mbit/s x ms) */
	for (size_t j = 0; j < sh.njobs; j++) {
		for (size_t b = 0; b < sh.nbins; b++)
			bytes[j * sh.nbins + b] = sh.mbit[b * sh.njobs + j] * bin_ms * 125.0;
		if (has[j])
			cols[j] = &bytes[j * sh.nbins];
	}
	if (metrics_link_overlap(it, n, ph, nph, MODE_SHARED, cols, (unsigned)sh.njobs, sh.nbins,
				 sh.t0, bin_ms, link_min_other(rate, bin_ms))) {
		warnx_("out of memory");
		ret = -1;
	}
out:
	free(bytes);
	free(ph);
	free(sh.mbit);
	return ret;
}

/* Records of one result directory, overlaps recomputed, and their per-job summaries. */
static int load_run(const char *dir, const struct summary_opts *so, struct iter_rec **it,
		    size_t *n, struct job_summary **s, int *nsum)
{
	char path[4096], err[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/iterations.csv", dir);
	f = fopen(path, "r");
	if (!f) {
		warnx_("%s: %s", path, strerror(errno));
		return -1;
	}
	*it = NULL;
	*n = 0;
	if (records_read_iterations_csv(f, path, it, n, err, sizeof(err))) {
		fclose(f);
		warnx_("%s", err);
		return -1;
	}
	fclose(f);
	if (link_overlap_from_share(dir, *it, *n)) {
		free(*it);
		return -1;
	}
	*nsum = metrics_summarize(*it, *n, so, s);
	if (*nsum < 0) {
		warnx_("out of memory");
		free(*it);
		return -1;
	}
	return 0;
}

/* The summary options for dir: the command line's where given, else its meta.txt's. */
static void dir_summary_opts(const char *dir, const struct report_opts *ro,
			     struct summary_opts *so)
{
	char val[64];

	so->warmup = opt.warmup;
	so->ideal_warmup = opt.ideal_warmup;
	if (!ro->set_warmup && !read_meta(dir, "warmup", val, sizeof(val)))
		so->warmup = (unsigned)atoi(val);
	if (!ro->set_ideal_warmup && !read_meta(dir, "ideal_warmup", val, sizeof(val)))
		so->ideal_warmup = (unsigned)atoi(val);
	if (!ro->set_ratio && !read_meta(dir, "converge_ratio", val, sizeof(val)))
		opt.ratio_limit = atof(val);
	so->threshold = opt.threshold;
	so->min_stable = opt.min_stable;
}

/* How many run<k>/ directories with records dir has, counting from run1/. */
static unsigned count_runs(const char *dir)
{
	char path[4096];
	unsigned nruns = 0;

	for (;;) {
		snprintf(path, sizeof(path), "%s/run%u/iterations.csv", dir, nruns + 1);
		if (access(path, R_OK))
			break;
		nruns++;
	}
	return nruns;
}

/*
 * A --runs N directory: one verdict per run<k>/, then the summary over runs. 0, 1 when a
 * run's records could not be read (reported), -1 when out of memory.
 */
static int report_runs(const char *dir, const char *label, unsigned nruns,
		       const struct summary_opts *so)
{
	struct run_verdict *vs = calloc(nruns, sizeof(*vs));
	char path[4096];

	if (!vs) {
		warnx_("out of memory");
		return -1;
	}
	for (unsigned r = 0; r < nruns; r++) {
		struct iter_rec *it = NULL;
		struct job_summary *s = NULL;
		size_t n = 0;
		int nsum;

		snprintf(path, sizeof(path), "%s/run%u", dir, r + 1);
		if (load_run(path, so, &it, &n, &s, &nsum)) {
			free(vs);
			return 1;
		}
		verdict_run(it, n, s, (size_t)nsum, opt.ratio_limit, &vs[r]);
		free(it);
		free(s);
	}
	printf("== %s (%s, %u runs, warm-up %u)\n", label, dir, nruns, so->warmup);
	print_runs(stdout, vs, NULL, nruns);
	printf("(several runs: no speedup comparison; compare the summaries)\n\n");
	free(vs);
	return 0;
}

/* The job summaries the speedups are against: the first single run's. */
struct speedup_base {
	const char *name;	/* the first directory given */
	struct job_summary *s;
	size_t n;
};

/* A directory of one run: summary, verdict, and its speedup against the base. 0, or 1. */
static int report_single(const char *dir, const char *label, const struct summary_opts *so,
			 struct speedup_base *base)
{
	struct iter_rec *it = NULL;
	struct job_summary *s = NULL;
	struct run_verdict v;
	size_t n = 0;
	int nsum;

	if (load_run(dir, so, &it, &n, &s, &nsum))
		return 1;
	printf("== %s (%s, warm-up %u)\n", label, dir, so->warmup);
	print_summary(stdout, label, s, (size_t)nsum, NULL, it, n);
	verdict_run(it, n, s, (size_t)nsum, opt.ratio_limit, &v);
	print_verdict(stdout, &v, NAN);
	if (!base->s) {
		base->s = s;
		base->n = (size_t)nsum;
	} else {
		printf("speedup against %s:", base->name);
		for (int i = 0; i < nsum; i++)
			for (size_t k = 0; k < base->n; k++)
				if (!strcmp(base->s[k].name, s[i].name))
					printf(" %s mean %.3fx p99 %.3fx;", s[i].name,
					       base->s[k].mean / s[i].mean,
					       base->s[k].p99 / s[i].p99);
		putchar('\n');
		free(s);
	}
	putchar('\n');
	free(it);
	return 0;
}

int report_main(int argc, char **argv)
{
	struct speedup_base base = { NULL, NULL, 0 };
	struct report_opts ro;
	int ret = cli_parse_report(argc, argv, &ro);

	if (ret >= 0)
		return ret;
	ret = 0;
	base.name = argv[optind];
	for (int a = optind; a < argc; a++) {
		const char *dir = argv[a];
		char label[256];
		struct summary_opts so;
		unsigned nruns;

		if (read_meta(dir, "label", label, sizeof(label)))
			snprintf(label, sizeof(label), "%s", dir);
		dir_summary_opts(dir, &ro, &so);
		nruns = count_runs(dir);
		if (nruns) {
			int r = report_runs(dir, label, nruns, &so);

			if (r < 0)
				return 1;
			ret |= r;
			continue;
		}
		ret |= report_single(dir, label, &so, &base);
	}
	free(base.s);
	return ret;
}
