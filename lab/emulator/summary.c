// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench: the human-readable summaries. Their layout is read by scripts (the grid
 * tables, the tests of the reports): a change here is a change of format.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "summary.h"
#include "util.h"

static void fmt_num(char *buf, size_t len, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
}

void print_summary(FILE *f, const char *label, const struct job_summary *s, size_t n,
		   const double *theory, const struct iter_rec *it, size_t nit)
{
	double ratio_sum = 0, ratio_max = 0, blocks[4096];
	long conv = -1;
	int all_conv = n > 0, nratio = 0, ncontended = 0;
	size_t nb;

	fprintf(f, "%-4s %-14s %-12s %5s %8s %8s %8s %9s %6s %9s %9s %9s %8s %8s %8s\n", "job",
		"name", "cc", "iters", "mean_ms", "p99_ms", "ideal_ms", "theory_ms", "ratio",
		"p99/ideal", "converged", "ovl_first", "ovl_last", "drops/it", "marks/it");
	for (size_t i = 0; i < n; i++) {
		char b[10][32];

		fmt_num(b[0], sizeof(b[0]), s[i].mean, "%.1f");
		fmt_num(b[1], sizeof(b[1]), s[i].p99, "%.1f");
		fmt_num(b[2], sizeof(b[2]), s[i].ideal, "%.1f");
		fmt_num(b[3], sizeof(b[3]), theory ? theory[s[i].job] : NAN, "%.1f");
		fmt_num(b[4], sizeof(b[4]), s[i].ratio, "%.3f");
		fmt_num(b[5], sizeof(b[5]), s[i].p99_ratio, "%.3f");
		if (!s[i].contended)
			snprintf(b[6], sizeof(b[6]), "-");
		else if (s[i].converged >= 0)
			snprintf(b[6], sizeof(b[6]), "%ld", s[i].converged);
		else
			snprintf(b[6], sizeof(b[6]), "no");
		fmt_num(b[7], sizeof(b[7]), s[i].overlap_first, "%.3f");
		fmt_num(b[8], sizeof(b[8]), s[i].overlap_last, "%.3f");
		fmt_num(b[9], sizeof(b[9]), s[i].drops_per_iter, "%.1f");
		fprintf(f, "%-4u %-14s %-12s %5zu %8s %8s %8s %9s %6s %9s %9s %9s %8s %8s ",
			s[i].job, s[i].name, s[i].cc, s[i].iters, b[0], b[1], b[2], b[3], b[4],
			b[5], b[6], b[7], b[8], b[9]);
		fmt_num(b[9], sizeof(b[9]), s[i].marks_per_iter, "%.1f");
		fprintf(f, "%8s\n", b[9]);
		if (!isnan(s[i].ratio)) {
			ratio_sum += s[i].ratio;
			nratio++;
			if (s[i].ratio > ratio_max)
				ratio_max = s[i].ratio;
		}
		if (s[i].contended)
			ncontended++;
		if (s[i].converged < 0 && s[i].contended)
			all_conv = 0;
		else if (s[i].converged > conv)
			conv = s[i].converged;
	}
	fprintf(f, "%s: ", label);
	if (nratio)
		fprintf(f, "mean ratio to ideal %.3f (max %.3f), ", ratio_sum / nratio, ratio_max);
	if (!ncontended)
		fprintf(f, "no job ran concurrently with another");
	else if (all_conv)
		fprintf(f, "converged by iteration %ld", conv);
	else
		fprintf(f, "not converged (overlap >= %.0f%% of communication)",
			opt.threshold * 100);
	fputc('\n', f);
	nb = metrics_overlap_series(it, nit, 5, blocks, sizeof(blocks) / sizeof(blocks[0]));
	if (nb) {
		fprintf(f, "overlap per 5 iterations:");
		for (size_t b = 0; b < nb; b++) {
			if (isnan(blocks[b]))
				fprintf(f, " -");
			else
				fprintf(f, " %.2f", blocks[b]);
		}
		fputc('\n', f);
	}
}

void print_verdict(FILE *f, const struct run_verdict *v, double spread)
{
	fprintf(f, "verdict: %s (worst job ", v->converged ? "converged" : "NOT converged");
	if (v->worst_job >= 0)
		fprintf(f, "%d at %.3fx its ideal over the last half, limit %.2fx)", v->worst_job,
			v->worst_ratio, opt.ratio_limit);
	else
		fprintf(f, "unknown: no ideal)");
	if (v->conv_iter >= 0)
		fprintf(f, ", overlap < %.0f%% from iteration %ld", opt.threshold * 100,
			v->conv_iter);
	else
		fprintf(f, ", overlap never stayed < %.0f%%", opt.threshold * 100);
	if (v->link_conv_iter >= 0)
		fprintf(f, " (on the link from iteration %ld)", v->link_conv_iter);
	else if (v->link_conv_iter == -1)
		fprintf(f, " (on the link: never)");
	if (!isnan(spread))
		fprintf(f, ", first iterations released within %.2f ms", spread);
	fputc('\n', f);
}

void print_friendliness(FILE *f, const struct friendliness *x)
{
	fprintf(f, "friendliness: the bulk flow got %.1f%% of the bytes delivered during the jobs' "
		   "communication phases; over the run %.1f%% of the bytes, %.1f%% of the link\n",
		x->share_comm * 100, x->share_run * 100, x->link_run * 100);
}

void print_friendliness_runs(FILE *f, const struct friendliness *x, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c)), *l = malloc((n ? n : 1) * sizeof(*l));
	size_t nc = 0;

	if (!c || !l) {
		free(c), free(l);
		return;
	}
	for (size_t r = 0; r < n; r++)
		if (!isnan(x[r].share_comm)) {
			c[nc] = x[r].share_comm;
			l[nc++] = x[r].link_run;
		}
	if (nc)
		fprintf(f, "bulk flow's share during communication over runs: min %.3f, "
			   "median %.3f; its link share over the run: min %.3f, median %.3f\n",
			metrics_percentile(c, nc, 1e-9), metrics_percentile(c, nc, 50),
			metrics_percentile(l, nc, 1e-9), metrics_percentile(l, nc, 50));
	free(c), free(l);
}

static void fmt_conv(char *buf, size_t len, double v)
{
	if (isinf(v))
		snprintf(buf, len, "never");
	else if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f", v);
}

void print_runs(FILE *f, const struct run_verdict *v, const double *spreads, size_t n)
{
	struct runs_summary rs;
	char a[32], b[32];

	fprintf(f, "%-4s %-13s %11s %9s %9s %10s\n", "run", "verdict", "worst/ideal", "conv_iter",
		"link_conv", "spread_ms");
	for (size_t r = 0; r < n; r++) {
		char c[32], l[32];

		fmt_num(a, sizeof(a), v[r].worst_ratio, "%.3f");
		fmt_num(b, sizeof(b), spreads ? spreads[r] : NAN, "%.2f");
		if (v[r].conv_iter >= 0)
			snprintf(c, sizeof(c), "%ld", v[r].conv_iter);
		else
			snprintf(c, sizeof(c), "never");
		if (v[r].link_conv_iter >= 0)
			snprintf(l, sizeof(l), "%ld", v[r].link_conv_iter);
		else
			snprintf(l, sizeof(l), v[r].link_conv_iter == -1 ? "never" : "-");
		fprintf(f, "%-4zu %-13s %11s %9s %9s %10s\n", r + 1,
			v[r].converged ? "converged" : "NOT converged", a, c, l, b);
	}
	if (verdict_summarize(v, n, &rs)) {
		warnx_("out of memory");
		return;
	}
	fmt_conv(a, sizeof(a), rs.conv_median);
	fmt_conv(b, sizeof(b), rs.conv_p90);
	fprintf(f, "success: %zu/%zu runs converged (%.0f%%; worst job <= %.2fx its ideal over the "
		   "last half of the run)\n",
		rs.ok, rs.n, rs.rate * 100, opt.ratio_limit);
	fprintf(f, "convergence iteration: median %s, p90 %s (nearest rank; a run that did not "
		   "converge ranks as never, after all others)\n", a, b);
	if (!isnan(rs.link_conv_median)) {
		fmt_conv(a, sizeof(a), rs.link_conv_median);
		fmt_conv(b, sizeof(b), rs.link_conv_p90);
		fprintf(f, "convergence iteration on the link (overlap of the bytes at the "
			   "bottleneck): median %s, p90 %s\n", a, b);
	}
	fprintf(f, "worst/ideal over runs: min %.3f, median %.3f, p90 %.3f, max %.3f\n",
		rs.worst_min, rs.worst_median, rs.worst_p90, rs.worst_max);
}
