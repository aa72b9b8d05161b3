// SPDX-License-Identifier: GPL-2.0
/*
 * jobcompat: the circle and the search for shifts (the model is described in
 * jobcompat.h); the fluid models are in jobcompat-fluid.c.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jobcompat.h"
#include "jobcompat-internal.h"

#define JC_GRID_MS		1.0	/* a circle's cell ... */
#define JC_MIN_ITER_CELLS	100	/* ... or finer: the shortest iteration's cells */
#define JC_EPS			1e-9	/* a score change smaller than this is none */

static double comm_ms(double bytes, double rate_bps)
{
	return bytes * 8000.0 / rate_bps;
}

bool jc_job_valid(const struct jc_job *job, const char **err)
{
	const char *e = NULL;
	unsigned int i;

	if (!memchr(job->name, '\0', sizeof(job->name)))
		e = "the name is not terminated";
	else if (job->nseg < 1 || job->nseg > JC_MAX_SEGMENTS)
		e = "a job has 1 to 8 segments";
	for (i = 0; !e && i < job->nseg; i++) {
		/* written so that NaN fails too */
		if (!(job->seg[i].compute_ms >= 0 && job->seg[i].compute_ms <= JC_MAX_COMPUTE_MS))
			e = "a compute time is 0 to 3600000 ms";
		else if (!(job->seg[i].bytes > 0 && job->seg[i].bytes <= JC_MAX_BYTES))
			e = "a communication phase has more than 0 and at most 10^15 bytes";
	}
	if (err)
		*err = e;
	return !e;
}

double jc_ideal_ms(const struct jc_job *job, double rate_bps)
{
	double t = 0;
	unsigned int i;

	for (i = 0; i < job->nseg && i < JC_MAX_SEGMENTS; i++)
		t += job->seg[i].compute_ms + comm_ms(job->seg[i].bytes, rate_bps);
	return t;
}

/* A link's rate, job count, jobs (indices below @njobs) and their uniqueness */
int jc_link_check(const struct jc_job *jobs, unsigned int njobs, const struct jc_link *link)
{
	unsigned int i, j;

	if (!(link->rate_bps >= JC_MIN_RATE_BPS && link->rate_bps <= JC_MAX_RATE_BPS) ||
	    link->njobs > JC_MAX_JOBS)
		return -EINVAL;
	for (i = 0; i < link->njobs; i++) {
		if (link->job[i] >= njobs)
			return -EINVAL;
		if (!jc_job_valid(&jobs[link->job[i]], NULL))
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (link->job[j] == link->job[i])
				return -EINVAL;
	}
	return 0;
}

/* ---- the circle ---------------------------------------------------------- */

/**
 * struct circle - a link's circle (jobcompat.h)
 * @link: the link
 * @cells: number of cells
 * @cell_ms: their length
 * @perimeter_ms: the perimeter, @cells * @cell_ms
 * @stretch: largest relative change of an iteration time
 * @total: the communication demand over the circle, in cells at line rate
 * @buf: each cell's demand of the jobs placed on it, in line rates
 * @pre: @cells + 1 prefix sums of min(max(@buf, 0), 1), what a phase
 *	covering a whole cell adds to the excess; valid after circle_prefix()
 *	until @buf changes
 * @reps: the times each job (link order) goes round
 * @scale: each job's iteration on the circle / its ideal iteration
 */
struct circle {
	const struct jc_link *link;
	unsigned int cells;
	double cell_ms;
	double perimeter_ms;
	double stretch;
	double total;
	double *buf;
	double *pre;
	unsigned int reps[JC_MAX_JOBS];
	double scale[JC_MAX_JOBS];
};

/* The perimeter and the cells of @c; @c->buf is left to the caller. */
static void circle_init(struct circle *c, const struct jc_job *jobs, const struct jc_link *link)
{
	double t[JC_MAX_JOBS], tmin = INFINITY, tmax = 0, g, best = INFINITY;
	unsigned int i, m, mmax, best_m = 1;

	c->link = link;
	for (i = 0; i < link->njobs; i++) {
		t[i] = jc_ideal_ms(&jobs[link->job[i]], link->rate_bps);
		tmin = fmin(tmin, t[i]);
		tmax = fmax(tmax, t[i]);
	}
	g = JC_GRID_MS;
	if (tmin / g < JC_MIN_ITER_CELLS)
		g = tmin / JC_MIN_ITER_CELLS;
	if (tmax / g > JC_CIRCLE_CELLS)
		g = tmax / JC_CIRCLE_CELLS;
	mmax = (unsigned int)(JC_CIRCLE_CELLS * g / tmax + 1e-9);
	if (mmax < 1)
		mmax = 1;
	for (m = 1; m <= mmax && best > 1e-9; m++) {
		double p = m * tmax, s = 0;

		for (i = 0; i < link->njobs; i++) {
			double k = fmax(1, round(p / t[i]));

			s = fmax(s, fabs(p / k - t[i]) / t[i]);
		}
		if (s < best - 1e-12) {
			best = s;
			best_m = m;
		}
	}
	c->perimeter_ms = best_m * tmax;
	c->cells = (unsigned int)ceil(c->perimeter_ms / g - 1e-6);
	if (c->cells > JC_CIRCLE_CELLS)
		c->cells = JC_CIRCLE_CELLS;
	if (c->cells < 1)
		c->cells = 1;
	c->cell_ms = c->perimeter_ms / c->cells;
	c->stretch = 0;
	c->total = 0;
	for (i = 0; i < link->njobs; i++) {
		const struct jc_job *job = &jobs[link->job[i]];
		unsigned int s;

		c->reps[i] = (unsigned int)fmax(1, round(c->perimeter_ms / t[i]));
		c->scale[i] = c->perimeter_ms / c->reps[i] / t[i];
		c->stretch = fmax(c->stretch, fabs(c->scale[i] - 1));
		for (s = 0; s < job->nseg; s++)
			c->total += c->reps[i] * c->scale[i] *
				    comm_ms(job->seg[s].bytes, link->rate_bps) / c->cell_ms;
	}
}

static double pos(double x)
{
	return x > 0 ? x : 0;
}

/* The prefix sums of @c's demand, clamped to 0..1 */
static void circle_prefix(struct circle *c)
{
	unsigned int i;

	c->pre[0] = 0;
	for (i = 0; i < c->cells; i++)
		c->pre[i + 1] = c->pre[i] + (c->buf[i] <= 0 ? 0 : c->buf[i] >= 1 ? 1 : c->buf[i]);
}

/* One cell's share @w of a phase: added to @buf with @weight, or its excess (weight 0). */
static double cell_apply(double *buf, unsigned int i, double w, double weight)
{
	double o = buf[i];

	if (weight != 0) {
		buf[i] = o + weight * w;
		return 0;
	}
	return pos(o + w - 1) - pos(o - 1);
}

/**
 * span_apply() - a phase covering cells [@a, @a + @len) of a circle
 * @c: the circle; with @weight 0, its prefix sums valid
 * @a: first cell, any real (taken modulo the cells)
 * @len: length in cells, at most the cells
 * @weight: +1 adds the phase to the demand, -1 removes it, 0 leaves it alone
 *
 * Return: with @weight 0, the excess the phase adds to the demand: the sum
 * over its cells of max(0, buf + w - 1) - max(0, buf - 1), w the share of
 * the cell it covers (for a whole cell, min(max(buf, 0), 1): from the
 * prefix sums, so a phase costs the same whatever its length); 0 otherwise.
 */
static double span_apply(const struct circle *c, double a, double len, double weight)
{
	double *buf = c->buf, sum = 0, w;
	unsigned int n = c->cells, i, j, run;

	if (a >= n && a < 2.0 * n)
		a -= n;		/* the usual case: job_apply() starts within the circle */
	else if (a < 0 || a >= n)
		a = fmod(fmod(a, n) + n, n);
	i = (unsigned int)a;
	if (i >= n) {
		i = 0;
		a = 0;
	}
	if (len > n)
		len = n;
	/* the rest of the first cell */
	w = i + 1 - a;
	if (w > len)
		w = len;
	sum += cell_apply(buf, i, w, weight);
	len -= w;
	i = i + 1 == n ? 0 : i + 1;
	/* whole cells */
	while (len >= 1) {
		run = n - i;
		if (run > len)
			run = (unsigned int)len;
		if (weight != 0) {
			for (j = i; j < i + run; j++)
				buf[j] += weight;
		} else {
			sum += c->pre[i + run] - c->pre[i];
		}
		i += run;
		if (i == n)
			i = 0;
		len -= run;
	}
	if (len > 1e-12)
		sum += cell_apply(buf, i, len, weight);
	return sum;
}

/* The link's @p-th job at @shift_ms on @c: span_apply() of each of its phases. */
static double job_apply(const struct circle *c, const struct jc_job *job, unsigned int p,
			double shift_ms, double weight)
{
	double f = c->scale[p], period = c->perimeter_ms / c->reps[p], sum = 0;
	unsigned int r, s;

	/* within the circle: each phase then starts before twice its perimeter */
	shift_ms = fmod(shift_ms, c->perimeter_ms);
	if (shift_ms < 0)
		shift_ms += c->perimeter_ms;
	for (r = 0; r < c->reps[p]; r++) {
		double off = shift_ms + r * period;

		for (s = 0; s < job->nseg; s++) {
			double len = comm_ms(job->seg[s].bytes, c->link->rate_bps) * f;

			off += job->seg[s].compute_ms * f;
			sum += span_apply(c, off / c->cell_ms, len / c->cell_ms, weight);
			off += len;
		}
	}
	return sum;
}

/* Sum over the cells of max(0, demand - 1) */
static double circle_excess(const struct circle *c)
{
	double sum = 0;
	unsigned int i;

	for (i = 0; i < c->cells; i++)
		sum += pos(c->buf[i] - 1);
	return sum;
}

/* Place the link's jobs at @shift (link order); the overlap score */
static double circle_fill(struct circle *c, const struct jc_job *jobs, const double *shift)
{
	unsigned int p;

	memset(c->buf, 0, c->cells * sizeof(*c->buf));
	for (p = 0; p < c->link->njobs; p++)
		job_apply(c, &jobs[c->link->job[p]], p, shift[p], 1);
	return c->total > 0 ? circle_excess(c) / c->total : 0;
}

/* ---- the search ---------------------------------------------------------- */

/**
 * struct search - shifts for jobs on a set of circles
 * @jobs: the job profiles
 * @njobs: their number
 * @circ: the circles of the links with two or more jobs
 * @ncirc: their number
 * @shift: each job's shift now
 * @period: the range of each job's shifts, its longest ideal iteration
 * @finest: each job's finest refinement step, its smallest cell
 * @fixed: a job whose shift stays, or -1
 */
struct search {
	const struct jc_job *jobs;
	unsigned int njobs;
	struct circle *circ;
	unsigned int ncirc;
	double shift[JC_MAX_JOBS];
	double period[JC_MAX_JOBS];
	double finest[JC_MAX_JOBS];
	int fixed;
};

/* The link position of job @j on @c, or -1 */
static int circle_pos(const struct circle *c, unsigned int j)
{
	unsigned int p;

	for (p = 0; p < c->link->njobs; p++)
		if (c->link->job[p] == j)
			return (int)p;
	return -1;
}

/* Job @j's periods and steps from the circles it is on; false: on none */
static bool search_job_init(struct search *s, unsigned int j)
{
	unsigned int l;

	s->period[j] = 0;
	s->finest[j] = INFINITY;
	for (l = 0; l < s->ncirc; l++) {
		const struct circle *c = &s->circ[l];

		if (circle_pos(c, j) < 0)
			continue;
		s->period[j] = fmax(s->period[j], jc_ideal_ms(&s->jobs[j], c->link->rate_bps));
		s->finest[j] = fmin(s->finest[j], c->cell_ms);
	}
	return s->period[j] > 0;
}

/* Add (+1) or remove (-1) job @j at its shift on its circles; or its score (0) at @shift */
static double search_apply(struct search *s, unsigned int j, double shift, double weight)
{
	double sum = 0;
	unsigned int l;

	for (l = 0; l < s->ncirc; l++) {
		const struct circle *c = &s->circ[l];
		int p = circle_pos(c, j);

		if (p < 0)
			continue;
		if (weight != 0)
			job_apply(c, &s->jobs[j], (unsigned int)p, shift, weight);
		else
			sum += job_apply(c, &s->jobs[j], (unsigned int)p, shift, 0) / c->total;
	}
	return sum;
}

/* The sum of the overlap scores at the current shifts, each circle filled anew */
static double search_fill(struct search *s)
{
	double shift[JC_MAX_JOBS], sum = 0;
	unsigned int l, p;

	for (l = 0; l < s->ncirc; l++) {
		struct circle *c = &s->circ[l];

		for (p = 0; p < c->link->njobs; p++)
			shift[p] = s->shift[c->link->job[p]];
		sum += circle_fill(c, s->jobs, shift);
	}
	return sum;
}

static double wrap(double x, double period)
{
	x = fmod(x, period);
	return x < 0 ? x + period : x;
}

/**
 * search_place() - place job @j at its best shift given the jobs placed
 * @s: the search; its circles hold the jobs placed, not @j
 * @j: the job
 *
 * The candidates: the current shift, JC_SHIFT_STEPS positions over the
 * job's period, then steps halving from half a grid step down to a cell
 * around the best.  Ties keep the earlier candidate (the current shift
 * first).  Only the excess the job adds to the others counts: the others'
 * own excess is the same for every candidate.
 *
 * Return: how much the job's score went down (0: it stays).
 */
static double search_place(struct search *s, unsigned int j)
{
	double cur = s->shift[j], best_s = cur, best, start, step, d;
	unsigned int i, l;

	for (l = 0; l < s->ncirc; l++)
		if (circle_pos(&s->circ[l], j) >= 0)
			circle_prefix(&s->circ[l]);
	best = search_apply(s, j, cur, 0);
	start = best;
	for (i = 0; i < JC_SHIFT_STEPS; i++) {
		double x = s->period[j] * i / JC_SHIFT_STEPS, v = search_apply(s, j, x, 0);

		if (v < best - JC_EPS) {
			best = v;
			best_s = x;
		}
	}
	for (step = s->period[j] / JC_SHIFT_STEPS / 2; step >= s->finest[j] / 2; step /= 2) {
		double center = best_s;

		for (d = -step; d <= step; d += 2 * step) {
			double x = wrap(center + d, s->period[j]), v = search_apply(s, j, x, 0);

			if (v < best - JC_EPS) {
				best = v;
				best_s = x;
			}
		}
	}
	s->shift[j] = best_s;
	search_apply(s, j, best_s, 1);
	return start - best;
}

/* Job @j's best shift, the others' staying; how much the sum of the scores went down */
static double search_move(struct search *s, unsigned int j)
{
	search_apply(s, j, s->shift[j], -1);
	return search_place(s, j);
}

/* Do @a and @b share a circle? */
static bool search_neighbours(const struct search *s, unsigned int a, unsigned int b)
{
	unsigned int l;

	for (l = 0; l < s->ncirc; l++)
		if (circle_pos(&s->circ[l], a) >= 0 && circle_pos(&s->circ[l], b) >= 0)
			return true;
	return false;
}

/*
 * The greedy start (Cassini's traversal of the affinity graph): the jobs
 * breadth first from the fixed job (or the first), each placed at its best
 * shift among those placed before it.
 */
static void search_greedy(struct search *s)
{
	unsigned int queue[JC_MAX_JOBS], head = 0, tail = 0, root, j, k;
	bool seen[JC_MAX_JOBS] = { false };
	unsigned int l;

	for (l = 0; l < s->ncirc; l++)
		memset(s->circ[l].buf, 0, s->circ[l].cells * sizeof(double));
	for (;;) {
		/* the root of the next component: the fixed job, else the first not seen */
		root = s->njobs;
		if (s->fixed >= 0 && !seen[s->fixed])
			root = (unsigned int)s->fixed;
		for (j = 0; j < s->njobs && root == s->njobs; j++)
			if (!seen[j] && s->period[j] > 0)
				root = j;
		if (root == s->njobs)
			break;
		seen[root] = true;
		queue[tail++] = root;
		while (head < tail) {
			j = queue[head++];
			s->shift[j] = 0;
			if ((int)j == s->fixed)
				search_apply(s, j, 0, 1);
			else
				search_place(s, j);
			for (k = 0; k < s->njobs; k++) {
				if (!seen[k] && s->period[k] > 0 && search_neighbours(s, j, k)) {
					seen[k] = true;
					queue[tail++] = k;
				}
			}
		}
	}
}

/*
 * Coordinate descent from the current shifts, until a pass gains less than
 * JC_PASS_GAIN or JC_PASSES passes; the sum of the scores at its end
 */
static double search_descend(struct search *s)
{
	double gain = INFINITY;
	unsigned int pass, j;

	search_fill(s);
	for (pass = 0; pass < JC_PASSES && gain >= JC_PASS_GAIN; pass++) {
		gain = 0;
		for (j = 0; j < s->njobs; j++)
			if ((int)j != s->fixed && s->period[j] > 0)
				gain += search_move(s, j);
	}
	return search_fill(s);
}

/*
 * Start @k of the descent (jobcompat.h): all at 0, greedy, golden-ratio
 * staggered, evenly staggered, then pseudo-random staggers.
 */
static void search_start(struct search *s, unsigned int k)
{
	uint32_t x = 2463534242u + k;
	unsigned int j;

	if (k == 1) {
		search_greedy(s);
		return;
	}
	for (j = 0; j < s->njobs; j++) {
		double frac;

		if (k == 0)
			frac = 0;
		else if (k == 2)
			frac = fmod(j * 0.6180339887498949, 1);
		else if (k == 3)
			frac = (double)j / s->njobs;
		else {
			/* xorshift32 */
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			frac = (x >> 8) / 16777216.0;
		}
		s->shift[j] = (int)j == s->fixed ? 0 : frac * s->period[j];
	}
}

/* Descents from @nstart starts; the best shifts in @s, their score returned */
static double search_best(struct search *s, unsigned int nstart)
{
	double best_shift[JC_MAX_JOBS], best = INFINITY, v;
	unsigned int k;

	for (k = 0; k < nstart; k++) {
		search_start(s, k);
		v = search_descend(s);
		if (v < best - JC_EPS) {
			best = v;
			memcpy(best_shift, s->shift, sizeof(best_shift));
		}
	}
	memcpy(s->shift, best_shift, sizeof(best_shift));
	return search_fill(s);
}

/* Three jobs, the first at 0: every pair of grid positions of the other two */
static void search_grid3(struct search *s)
{
	struct circle *c = &s->circ[0];
	double best = INFINITY, b1 = 0, b2 = 0;
	unsigned int i, k;

	for (i = 0; i < JC_SHIFT_STEPS; i++) {
		double x1 = s->period[1] * i / JC_SHIFT_STEPS, base;

		s->shift[1] = x1;
		s->shift[2] = 0;
		memset(c->buf, 0, c->cells * sizeof(*c->buf));
		job_apply(c, &s->jobs[0], 0, 0, 1);
		job_apply(c, &s->jobs[1], 1, x1, 1);
		circle_prefix(c);
		base = circle_excess(c);
		for (k = 0; k < JC_SHIFT_STEPS; k++) {
			double x2 = s->period[2] * k / JC_SHIFT_STEPS;
			double v = base + job_apply(c, &s->jobs[2], 2, x2, 0);

			if (v < best - JC_EPS) {
				best = v;
				b1 = x1;
				b2 = x2;
			}
		}
	}
	s->shift[0] = 0;
	s->shift[1] = b1;
	s->shift[2] = b2;
}

/* The link's jobs copied as jobs 0..n-1, and @link rewritten to point at them */
static void local_link(const struct jc_job *jobs, const struct jc_link *link,
		       struct jc_job *local, struct jc_link *ll)
{
	unsigned int i;

	ll->rate_bps = link->rate_bps;
	ll->njobs = link->njobs;
	for (i = 0; i < link->njobs; i++) {
		local[i] = jobs[link->job[i]];
		ll->job[i] = i;
	}
}

/* ---- the entry points ---------------------------------------------------- */

int jc_overlap(const struct jc_job *jobs, const struct jc_link *link, const double *shift_ms,
	       double *overlap)
{
	struct circle c;
	unsigned int p;
	int err;

	err = jc_link_check(jobs, JC_NJOBS_UNKNOWN, link);
	if (err)
		return err;
	*overlap = 0;
	if (link->njobs < 2)
		return 0;
	for (p = 0; p < link->njobs; p++)
		if (!isfinite(shift_ms[p]))
			return -EINVAL;
	circle_init(&c, jobs, link);
	c.buf = calloc(c.cells, sizeof(*c.buf));
	c.pre = NULL;	/* only added to, never asked for its excess */
	if (!c.buf)
		return -ENOMEM;
	*overlap = circle_fill(&c, jobs, shift_ms);
	free(c.buf);
	return 0;
}

int jc_link_eval(const struct jc_job *jobs, const struct jc_link *link, double threshold,
		 struct jc_link_result *res)
{
	struct search *s;
	struct jc_job *local;
	struct jc_link ll;
	unsigned int i, n = link->njobs;
	double zero[JC_MAX_JOBS] = { 0 };
	int err;

	memset(res, 0, sizeof(*res));
	err = jc_link_check(jobs, JC_NJOBS_UNKNOWN, link);
	if (err)
		return err;
	if (!(threshold >= 0 && threshold <= 1))
		return -EINVAL;
	for (i = 0; i < n; i++)
		res->ideal_ms[i] = jc_ideal_ms(&jobs[link->job[i]], link->rate_bps);

	if (n >= 2) {
		/* one allocation: the search, the jobs' copies, the cells, their sums */
		size_t size = sizeof(*s) + sizeof(struct circle) + n * sizeof(*local);
		struct circle *c;
		char *mem;

		mem = calloc(1, size + (2 * JC_CIRCLE_CELLS + 1) * sizeof(double));
		if (!mem)
			return -ENOMEM;
		s = (struct search *)mem;
		c = (struct circle *)(s + 1);
		local = (struct jc_job *)(c + 1);
		local_link(jobs, link, local, &ll);
		circle_init(c, local, &ll);
		c->buf = (double *)(mem + size);
		c->pre = c->buf + JC_CIRCLE_CELLS;
		s->jobs = local;
		s->njobs = n;
		s->circ = c;
		s->ncirc = 1;
		s->fixed = 0;
		for (i = 0; i < n; i++)
			search_job_init(s, i);
		if (n == 3) {
			search_grid3(s);
			res->overlap = search_descend(s);
		} else {
			res->overlap = search_best(s, n == 2 ? 1 : JC_STARTS);
		}
		for (i = 0; i < n; i++)
			res->shift_ms[i] = s->shift[i];
		res->perimeter_ms = c->perimeter_ms;
		res->stretch = c->stretch;
		free(mem);
	}
	res->compatible = res->overlap <= threshold;
	err = jc_fluid(jobs, link, JC_FAIR, zero, res->fair_ms);
	if (!err)
		err = jc_fluid(jobs, link, JC_TURNS, res->shift_ms, res->interleaved_ms);
	return err;
}

int jc_schedule(const struct jc_job *jobs, unsigned int njobs, const struct jc_link *links,
		unsigned int nlinks, double *shift_ms, double *overlap)
{
	struct circle tmp;
	struct search *s;
	size_t cells = 0, size;
	unsigned int i, l, k;
	char *mem;

	if (njobs > JC_MAX_JOBS || nlinks > JC_MAX_LINKS)
		return -EINVAL;
	for (i = 0; i < njobs; i++)
		if (!jc_job_valid(&jobs[i], NULL))
			return -EINVAL;
	for (l = 0; l < nlinks; l++) {
		if (jc_link_check(jobs, njobs, &links[l]))
			return -EINVAL;
		if (links[l].njobs >= 2) {
			circle_init(&tmp, jobs, &links[l]);
			cells += tmp.cells;
		}
	}

	/* one allocation: the search, a circle per shared link, their cells and sums */
	size = sizeof(*s) + nlinks * sizeof(struct circle);
	mem = calloc(1, size + (2 * cells + nlinks) * sizeof(double));
	if (!mem)
		return -ENOMEM;
	s = (struct search *)mem;
	s->jobs = jobs;
	s->njobs = njobs;
	s->circ = (struct circle *)(s + 1);
	s->fixed = -1;
	for (l = 0, k = 0; l < nlinks; l++) {
		struct circle *c = &s->circ[s->ncirc];

		if (links[l].njobs < 2)
			continue;
		circle_init(c, jobs, &links[l]);
		c->buf = (double *)(mem + size) + k;
		c->pre = (double *)(mem + size) + cells + k + s->ncirc;
		k += c->cells;
		s->ncirc++;
	}
	for (i = 0; i < njobs; i++)
		search_job_init(s, i);

	/* from all at 0, greedy, golden-ratio staggered: the best end */
	search_best(s, JC_SCHEDULE_STARTS);

	for (i = 0; i < njobs; i++)
		shift_ms[i] = s->shift[i];
	for (l = 0, k = 0; overlap && l < nlinks; l++) {
		const struct circle *c = &s->circ[k];

		overlap[l] = 0;
		if (links[l].njobs < 2)
			continue;
		overlap[l] = c->total > 0 ? circle_excess(c) / c->total : 0;
		k++;
	}
	free(mem);
	return 0;
}
