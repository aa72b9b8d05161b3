// SPDX-License-Identifier: GPL-2.0
/* mltcp-bench verdicts of runs and their summary over --runs N (definitions: verdict.h). */
#include "verdict.h"

#include <math.h>
#include <stdlib.h>

double verdict_last_half_mean(const struct iter_rec *it, size_t nit, unsigned job)
{
	unsigned count = 0, from;
	double sum = 0;
	size_t used = 0;

	for (size_t i = 0; i < nit; i++)
		if (it[i].mode == MODE_SHARED && it[i].job == job)
			count++;
	if (!count)
		return NAN;
	from = count / 2;
	for (size_t i = 0; i < nit; i++) {
		if (it[i].mode != MODE_SHARED || it[i].job != job || it[i].iter < from)
			continue;
		sum += it[i].end - it[i].start;
		used++;
	}
	return used ? sum / (double)used : NAN;
}

int verdict_run(const struct iter_rec *it, size_t nit, const struct job_summary *s, size_t ns,
		double limit, struct run_verdict *v)
{
	int any_contended = 0, all_settled = 1, link_known = 1, link_settled = 1;

	if (!(limit > 0))
		return -1;
	v->worst_ratio = NAN;
	v->worst_job = -1;
	v->conv_iter = -1;
	v->link_conv_iter = -1;
	v->converged = 0;
	for (size_t i = 0; i < ns; i++) {
		double r;

		if (s[i].contended) {
			any_contended = 1;
			if (s[i].converged < 0)
				all_settled = 0;
			else if (s[i].converged > v->conv_iter)
				v->conv_iter = s[i].converged;
			if (!s[i].link_known)
				link_known = 0;
			else if (s[i].link_converged < 0)
				link_settled = 0;
			else if (s[i].link_converged > v->link_conv_iter)
				v->link_conv_iter = s[i].link_converged;
		}
		if (isnan(s[i].ideal) || !(s[i].ideal > 0))
			continue;
		r = verdict_last_half_mean(it, nit, s[i].job) / s[i].ideal;
		if (isnan(r))
			continue;
		if (isnan(v->worst_ratio) || r > v->worst_ratio) {
			v->worst_ratio = r;
			v->worst_job = (int)s[i].job;
		}
	}
	if (!any_contended || !all_settled)
		v->conv_iter = -1;
	if (!any_contended || !link_settled)
		v->link_conv_iter = -1;
	if (!link_known)
		v->link_conv_iter = VERDICT_UNKNOWN;
	v->converged = !isnan(v->worst_ratio) && v->worst_ratio <= limit;
	return 0;
}

double verdict_conv_rank(const struct run_verdict *v)
{
	return v->converged && v->conv_iter >= 0 ? (double)v->conv_iter : INFINITY;
}

double verdict_link_conv_rank(const struct run_verdict *v)
{
	if (v->link_conv_iter == VERDICT_UNKNOWN)
		return NAN;
	return v->converged && v->link_conv_iter >= 0 ? (double)v->link_conv_iter : INFINITY;
}

int verdict_summarize(const struct run_verdict *v, size_t n, struct runs_summary *out)
{
	double *c = calloc(n ? n : 1, sizeof(*c)), *w = calloc(n ? n : 1, sizeof(*w));
	double *l = calloc(n ? n : 1, sizeof(*l));
	size_t nw = 0, nl = 0;

	if (!c || !w || !l) {
		free(c), free(w), free(l);
		return -1;
	}
	out->n = n;
	out->ok = 0;
	for (size_t i = 0; i < n; i++) {
		out->ok += v[i].converged != 0;
		c[i] = verdict_conv_rank(&v[i]);
		if (!isnan(verdict_link_conv_rank(&v[i])))
			l[nl++] = verdict_link_conv_rank(&v[i]);
		if (!isnan(v[i].worst_ratio))
			w[nw++] = v[i].worst_ratio;
	}
	out->rate = n ? (double)out->ok / (double)n : NAN;
	out->conv_median = metrics_percentile(c, n, 50);
	out->conv_p90 = metrics_percentile(c, n, 90);
	/* only when every run has a link record: a median of some runs would mislead */
	out->link_conv_median = nl == n ? metrics_percentile(l, nl, 50) : NAN;
	out->link_conv_p90 = nl == n ? metrics_percentile(l, nl, 90) : NAN;
	out->worst_min = metrics_percentile(w, nw, 1e-9);
	out->worst_median = metrics_percentile(w, nw, 50);
	out->worst_p90 = metrics_percentile(w, nw, 90);
	out->worst_max = metrics_percentile(w, nw, 100);
	free(c), free(w), free(l);
	return 0;
}

int verdict_friendliness(const double *bulk, const double *jobs, size_t nbins, double t0,
			 double bin_ms, struct interval *comm, size_t ncomm, double a, double b,
			 double rate_mbit, struct friendliness *out)
{
	double cb = 0, ct = 0, rb = 0, rt = 0;
	size_t nm;

	if (!(bin_ms > 0) || !(rate_mbit > 0) || !(b > a))
		return -1;
	nm = intervals_merge(comm, ncomm);
	for (size_t i = 0; i < nbins; i++) {
		double lo = t0 + (double)i * bin_ms, hi = lo + bin_ms;
		double fc = intervals_covered(comm, nm, lo, hi) / bin_ms;
		double ra = lo > a ? lo : a, rb_ = hi < b ? hi : b;
		double fr = rb_ > ra ? (rb_ - ra) / bin_ms : 0;

		cb += fc * bulk[i];
		ct += fc * (bulk[i] + jobs[i]);
		rb += fr * bulk[i];
		rt += fr * (bulk[i] + jobs[i]);
	}
	out->share_comm = ct > 0 ? cb / ct : NAN;
	out->share_run = rt > 0 ? rb / rt : NAN;
	/* bytes * 8 / (Mbit/s * 1e3 bit/ms * ms) */
	out->link_run = rb * 8 / (rate_mbit * 1e3 * (b - a));
	return 0;
}
