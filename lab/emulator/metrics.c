// SPDX-License-Identifier: GPL-2.0
/* mltcp-bench metrics (definitions in metrics.h). */
#define _GNU_SOURCE
#include "metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *mode_name(int mode)
{
	return mode == MODE_IDEAL ? "ideal" : "shared";
}

int mode_parse(const char *s)
{
	if (!strcmp(s, "shared"))
		return MODE_SHARED;
	if (!strcmp(s, "ideal"))
		return MODE_IDEAL;
	return -1;
}

double metrics_mean(const double *v, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double metrics_percentile(const double *v, size_t n, double pct)
{
	double *s, r;
	size_t rank;

	if (!n || !(pct > 0) || pct > 100)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	rank = (size_t)ceil(pct / 100.0 * (double)n - 1e-9);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	r = s[rank - 1];
	free(s);
	return r;
}

static int cmp_interval(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;

	if (x->a != y->a)
		return (x->a > y->a) - (x->a < y->a);
	return (x->b > y->b) - (x->b < y->b);
}

size_t intervals_merge(struct interval *iv, size_t n)
{
	size_t out = 0;

	if (!n)
		return 0;
	qsort(iv, n, sizeof(*iv), cmp_interval);
	for (size_t i = 0; i < n; i++) {
		if (!(iv[i].b > iv[i].a))
			continue;
		if (out && iv[i].a <= iv[out - 1].b) {
			if (iv[i].b > iv[out - 1].b)
				iv[out - 1].b = iv[i].b;
		} else {
			iv[out++] = iv[i];
		}
	}
	return out;
}

double intervals_covered(const struct interval *m, size_t n, double a, double b)
{
	size_t lo = 0, hi = n;
	double sum = 0;

	if (!(b > a))
		return 0;
	/* first interval that ends after a */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m[mid].b <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < n && m[i].a < b; i++) {
		double x = m[i].a > a ? m[i].a : a;
		double y = m[i].b < b ? m[i].b : b;

		if (y > x)
			sum += y - x;
	}
	return sum;
}

static int cmp_phase(const void *a, const void *b)
{
	const struct phase_rec *x = *(const struct phase_rec *const *)a;
	const struct phase_rec *y = *(const struct phase_rec *const *)b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	if (x->iter != y->iter)
		return x->iter < y->iter ? -1 : 1;
	return (x->phase > y->phase) - (x->phase < y->phase);
}

/* The phases of one mode into sorted[] (room for nph), ordered by cmp_phase(); their count. */
static size_t sort_phases(const struct phase_rec *ph, size_t nph, int mode,
			  const struct phase_rec **sorted)
{
	size_t ns = 0;

	for (size_t i = 0; i < nph; i++)
		if (ph[i].mode == mode)
			sorted[ns++] = &ph[i];
	qsort(sorted, ns, sizeof(*sorted), cmp_phase);
	return ns;
}

/* Index of the first phase of (job, iter) in phases sorted by cmp_phase(), or where it
 * would be. */
static size_t first_phase(const struct phase_rec **sorted, size_t ns, unsigned job,
			  unsigned iter)
{
	struct phase_rec key = { .job = job, .iter = iter, .phase = 0 };
	const struct phase_rec *kp = &key;
	size_t lo = 0, hi = ns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_phase(&sorted[mid], &kp) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static unsigned max_job(const struct iter_rec *it, size_t nit, const struct phase_rec *ph,
			size_t nph)
{
	unsigned m = 0;

	for (size_t i = 0; i < nit; i++)
		if (it[i].job + 1 > m)
			m = it[i].job + 1;
	for (size_t i = 0; i < nph; i++)
		if (ph[i].job + 1 > m)
			m = ph[i].job + 1;
	return m;
}

int metrics_overlap(struct iter_rec *it, size_t nit, const struct phase_rec *ph, size_t nph,
		    int mode)
{
	unsigned njobs = max_job(it, nit, ph, nph);
	const struct phase_rec **sorted = NULL;
	struct interval *others = NULL, *span = NULL;
	size_t ns = 0;
	int ret = -1;

	sorted = malloc((nph ? nph : 1) * sizeof(*sorted));
	others = malloc((nph ? nph : 1) * sizeof(*others));
	span = malloc((njobs ? njobs : 1) * sizeof(*span));
	if (!sorted || !others || !span)
		goto out;
	ns = sort_phases(ph, nph, mode, sorted);

	for (unsigned j = 0; j < njobs; j++)
		span[j].a = INFINITY, span[j].b = -INFINITY;
	for (size_t i = 0; i < nit; i++) {
		if (it[i].mode != mode)
			continue;
		if (it[i].start < span[it[i].job].a)
			span[it[i].job].a = it[i].start;
		if (it[i].end > span[it[i].job].b)
			span[it[i].job].b = it[i].end;
	}

	for (unsigned j = 0; j < njobs; j++) {
		size_t no = 0, nm;

		for (size_t i = 0; i < ns; i++)
			if (sorted[i]->job != j)
				others[no++] = (struct interval){ sorted[i]->start, sorted[i]->end };
		nm = intervals_merge(others, no);
		for (size_t i = 0; i < nit; i++) {
			struct iter_rec *r = &it[i];
			double comm = 0, ov = 0;
			size_t lo;

			if (r->mode != mode || r->job != j)
				continue;
			lo = first_phase(sorted, ns, j, r->iter);
			for (size_t k = lo; k < ns && sorted[k]->job == j && sorted[k]->iter == r->iter;
			     k++) {
				comm += sorted[k]->end - sorted[k]->start;
				ov += intervals_covered(others, nm, sorted[k]->start, sorted[k]->end);
			}
			r->comm_ms = comm;
			r->overlap = comm > 0 ? ov / comm : NAN;
			r->contended = 0;
			for (unsigned k = 0; k < njobs; k++)
				if (k != j && span[k].a < r->end && span[k].b > r->start)
					r->contended = 1;
		}
	}
	ret = 0;
out:
	free(sorted);
	free(others);
	free(span);
	return ret;
}

/* Bytes of bins[] read within [a, b], each bin weighted by the part of it covered; the
 * part of them read in bins marked in shared[] goes to *in_shared. */
static double bins_covered(const double *bins, const unsigned char *shared, size_t nbins,
			   double t0, double bin_ms, double a, double b, double *in_shared)
{
	double lo_f = floor((a - t0) / bin_ms), hi_f = floor((b - t0) / bin_ms);
	double sum = 0;

	*in_shared = 0;
	if (!(b > a) || hi_f < 0 || lo_f >= (double)nbins)
		return 0;
	for (size_t k = lo_f > 0 ? (size_t)lo_f : 0; k < nbins && (double)k <= hi_f; k++) {
		double x = t0 + (double)k * bin_ms, y = x + bin_ms;
		double c = ((b < y ? b : y) - (a > x ? a : x)) / bin_ms;

		if (c <= 0)
			continue;
		sum += c * bins[k];
		if (shared[k])
			*in_shared += c * bins[k];
	}
	return sum;
}

int metrics_link_overlap(struct iter_rec *it, size_t nit, const struct phase_rec *ph,
			 size_t nph, int mode, const double *const *bins, unsigned njobs,
			 size_t nbins, double t0, double bin_ms, double min_other)
{
	unsigned char *shared = malloc(nbins ? nbins : 1);
	const struct phase_rec **sorted = malloc((nph ? nph : 1) * sizeof(*sorted));
	size_t ns = 0;
	int ret = -1;

	if (!shared || !sorted || !(bin_ms > 0) || !(min_other >= 0))
		goto out;
	ns = sort_phases(ph, nph, mode, sorted);
	for (size_t i = 0; i < nit; i++)
		if (it[i].mode == mode)
			it[i].link_overlap = NAN;
	for (unsigned j = 0; j < njobs; j++) {
		if (!bins[j])
			continue;
		for (size_t b = 0; b < nbins; b++) {
			shared[b] = 0;
			for (unsigned k = 0; k < njobs && !shared[b]; k++)
				shared[b] = k != j && bins[k] && bins[k][b] > 0 &&
					    bins[k][b] >= min_other;
		}
		for (size_t i = 0; i < nit; i++) {
			struct iter_rec *r = &it[i];
			double own = 0, ov = 0;
			size_t lo;

			if (r->mode != mode || r->job != j)
				continue;
			lo = first_phase(sorted, ns, j, r->iter);
			for (size_t k = lo; k < ns && sorted[k]->job == j && sorted[k]->iter == r->iter;
			     k++) {
				double in_shared;

				own += bins_covered(bins[j], shared, nbins, t0, bin_ms,
						    sorted[k]->start, sorted[k]->end, &in_shared);
				ov += in_shared;
			}
			r->link_overlap = own > 0 ? ov / own : NAN;
		}
	}
	ret = 0;
out:
	free(shared);
	free(sorted);
	return ret;
}

long metrics_converged(const double *frac, const int *contended, size_t n, double threshold,
		       unsigned min_stable)
{
	size_t stable = 0;
	long k = -1;

	/* Walk back from the end while every contended iteration stays below threshold. */
	for (size_t i = n; i-- > 0;) {
		if (contended[i] && !isnan(frac[i])) {
			if (frac[i] >= threshold)
				break;
			stable++;
		}
		k = (long)i;
	}
	if (k < 0 || stable < min_stable || stable == 0)
		return -1;
	return k;
}

double metrics_counter_at(const struct counter_sample *s, size_t n, double t, int field)
{
	size_t lo = 0, hi = n;
	double v0, v1;

#define FIELD(x) (field == 0 ? (x).drops : field == 1 ? (x).marks : (x).backlog)
	if (!n)
		return NAN;
	if (t <= s[0].t)
		return FIELD(s[0]);
	if (t >= s[n - 1].t)
		return FIELD(s[n - 1]);
	/* last sample with s.t <= t */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].t <= t)
			lo = mid;
		else
			hi = mid;
	}
	v0 = FIELD(s[lo]);
	v1 = FIELD(s[lo + 1]);
	if (s[lo + 1].t <= s[lo].t)
		return v1;
	return v0 + (v1 - v0) * (t - s[lo].t) / (s[lo + 1].t - s[lo].t);
#undef FIELD
}

void metrics_attribute_counters(struct iter_rec *it, size_t nit, const struct counter_sample *s,
				size_t n, int mode)
{
	for (size_t i = 0; i < nit; i++) {
		if (it[i].mode != mode)
			continue;
		if (!n) {
			it[i].drops = it[i].marks = NAN;
			continue;
		}
		it[i].drops = metrics_counter_at(s, n, it[i].end, 0) -
			      metrics_counter_at(s, n, it[i].start, 0);
		it[i].marks = metrics_counter_at(s, n, it[i].end, 1) -
			      metrics_counter_at(s, n, it[i].start, 1);
	}
}

static int cmp_rec_iter(const void *a, const void *b)
{
	const struct iter_rec *x = *(const struct iter_rec *const *)a;
	const struct iter_rec *y = *(const struct iter_rec *const *)b;

	return (x->iter > y->iter) - (x->iter < y->iter);
}

/* Mean of the overlap of the first (from_end = 0) or last 5 contended iterations. */
static double overlap_edge(const struct iter_rec **r, size_t n, int from_end)
{
	double sum = 0;
	size_t cnt = 0;

	for (size_t k = 0; k < n && cnt < 5; k++) {
		const struct iter_rec *x = r[from_end ? n - 1 - k : k];

		if (x->contended && !isnan(x->overlap)) {
			sum += x->overlap;
			cnt++;
		}
	}
	return cnt ? sum / (double)cnt : NAN;
}

int metrics_summarize(const struct iter_rec *it, size_t nit, const struct summary_opts *o,
		      struct job_summary **out)
{
	unsigned njobs = max_job(it, nit, NULL, 0);
	struct job_summary *sum = calloc(njobs ? njobs : 1, sizeof(*sum));
	const struct iter_rec **rs = malloc((nit ? nit : 1) * sizeof(*rs));
	double *v = malloc((nit ? nit : 1) * sizeof(*v));
	double *fr = malloc((nit ? nit : 1) * sizeof(*fr));
	int *ct = malloc((nit ? nit : 1) * sizeof(*ct));
	int found = 0;

	if (!sum || !rs || !v || !fr || !ct) {
		free(sum), free(rs), free(v), free(fr), free(ct);
		return -1;
	}
	for (unsigned j = 0; j < njobs; j++) {
		struct job_summary *s = &sum[found];
		size_t n = 0, ni = 0, nv = 0, nd = 0, nm = 0, skip;
		double d = 0, m = 0;

		memset(s, 0, sizeof(*s));
		s->job = j;
		/* ideal run */
		for (size_t i = 0; i < nit; i++)
			if (it[i].job == j && it[i].mode == MODE_IDEAL)
				rs[ni++] = &it[i];
		qsort(rs, ni, sizeof(*rs), cmp_rec_iter);
		skip = o->ideal_warmup < ni ? o->ideal_warmup : (ni ? ni - 1 : 0);
		for (size_t i = skip; i < ni; i++)
			v[nv++] = rs[i]->end - rs[i]->start;
		s->ideal = metrics_mean(v, nv);
		s->ideal_p99 = metrics_percentile(v, nv, 99);
		if (ni) {
			snprintf(s->name, sizeof(s->name), "%s", rs[0]->name);
			snprintf(s->cc, sizeof(s->cc), "%s", rs[0]->cc);
		}

		/* shared run */
		for (size_t i = 0; i < nit; i++)
			if (it[i].job == j && it[i].mode == MODE_SHARED)
				rs[n++] = &it[i];
		if (!n && !ni)
			continue;
		found++;
		qsort(rs, n, sizeof(*rs), cmp_rec_iter);
		s->iters = n;
		if (n) {
			snprintf(s->name, sizeof(s->name), "%s", rs[0]->name);
			snprintf(s->cc, sizeof(s->cc), "%s", rs[0]->cc);
		}
		skip = o->warmup < n ? o->warmup : (n ? n - 1 : 0);
		nv = 0;
		for (size_t i = skip; i < n; i++) {
			v[nv++] = rs[i]->end - rs[i]->start;
			if (!isnan(rs[i]->drops))
				d += rs[i]->drops, nd++;
			if (!isnan(rs[i]->marks))
				m += rs[i]->marks, nm++;
		}
		s->used = nv;
		s->mean = metrics_mean(v, nv);
		s->p99 = metrics_percentile(v, nv, 99);
		s->min = metrics_percentile(v, nv, 1e-9);
		s->max = metrics_percentile(v, nv, 100);
		s->ratio = s->mean / s->ideal;
		s->p99_ratio = s->p99 / s->ideal;
		s->drops_per_iter = nd ? d / (double)nd : NAN;
		s->marks_per_iter = nm ? m / (double)nm : NAN;
		for (size_t i = 0; i < n; i++) {
			fr[i] = rs[i]->overlap;
			ct[i] = rs[i]->contended;
			s->contended += rs[i]->contended != 0;
		}
		s->converged = metrics_converged(fr, ct, n, o->threshold, o->min_stable);
		if (s->converged >= 0)
			s->converged = (long)rs[s->converged]->iter;
		for (size_t i = 0; i < n; i++) {
			fr[i] = rs[i]->link_overlap;
			if (ct[i] && !isnan(fr[i]))
				s->link_known = 1;
		}
		s->link_converged = metrics_converged(fr, ct, n, o->threshold, o->min_stable);
		if (s->link_converged >= 0)
			s->link_converged = (long)rs[s->link_converged]->iter;
		s->overlap_first = overlap_edge(rs, n, 0);
		s->overlap_last = overlap_edge(rs, n, 1);
	}
	free(rs), free(v), free(fr), free(ct);
	*out = sum;
	return found;
}

size_t metrics_overlap_series(const struct iter_rec *it, size_t nit, unsigned block, double *out,
			      size_t max)
{
	size_t nb = 0;

	if (!block)
		return 0;
	for (size_t i = 0; i < nit; i++)
		if (it[i].mode == MODE_SHARED && it[i].iter / block + 1 > nb)
			nb = it[i].iter / block + 1;
	if (nb > max)
		nb = max;
	for (size_t b = 0; b < nb; b++) {
		double sum = 0;
		size_t cnt = 0;

		for (size_t i = 0; i < nit; i++) {
			const struct iter_rec *r = &it[i];

			if (r->mode != MODE_SHARED || r->iter / block != b || !r->contended ||
			    isnan(r->overlap))
				continue;
			sum += r->overlap;
			cnt++;
		}
		out[b] = cnt ? sum / (double)cnt : NAN;
	}
	return nb;
}
