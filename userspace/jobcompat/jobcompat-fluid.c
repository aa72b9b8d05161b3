// SPDX-License-Identifier: GPL-2.0
/*
 * jobcompat: the two fluid models, fair sharing and turns (jc_fluid(); the
 * model is described in jobcompat.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "jobcompat.h"
#include "jobcompat-internal.h"

#define JC_MAX_EVENTS		2000000	/* a fluid model's events, at most */

/**
 * struct fluid_job - a job in a fluid model
 * @left: what is left of its phase: ms of compute, or bits
 * @comm: in a communication phase
 * @started: its first iteration has begun
 * @seg: the segment it is in
 * @arrival: the order its communication phase arrived in (JC_TURNS)
 * @done: iterations finished
 * @first_t: the end of the first iteration finished in the window
 * @first_n: @done then
 * @last_t: the end of the last iteration finished
 */
struct fluid_job {
	double left;
	bool comm;
	bool started;
	unsigned int seg;
	uint64_t arrival;
	unsigned int done;
	double first_t;
	unsigned int first_n;
	double last_t;
};

int jc_fluid(const struct jc_job *jobs, const struct jc_link *link, enum jc_sharing how,
	     const double *start_ms, double *iter_ms)
{
	struct fluid_job fj[JC_MAX_JOBS];
	double rate, t = 0, t0 = -1, tmax = 0;
	unsigned int n, i, ev;
	uint64_t seq = 0;
	int err;

	err = jc_link_check(jobs, JC_NJOBS_UNKNOWN, link);
	if (err)
		return err;
	n = link->njobs;
	for (i = 0; i < n; i++) {
		if (start_ms && !(start_ms[i] >= 0 && start_ms[i] <= 1e12))
			return -EINVAL;
		tmax = fmax(tmax, jc_ideal_ms(&jobs[link->job[i]], link->rate_bps));
	}
	memset(fj, 0, sizeof(fj));
	rate = link->rate_bps / 1000;	/* bits per ms */

	for (ev = 0; ev < JC_MAX_EVENTS && n; ev++) {
		unsigned int ncomm = 0, head = n, first = n, warm = 0, measured = 0;
		double dt = INFINITY;

		/* who is on the link, and the time to the next event */
		for (i = 0; i < n; i++) {
			if (fj[i].started && fj[i].comm &&
			    (head == n || fj[i].arrival < fj[head].arrival))
				head = i;
			ncomm += fj[i].started && fj[i].comm;
		}
		for (i = 0; i < n; i++) {
			double d;

			if (!fj[i].started)
				d = (start_ms ? start_ms[i] : 0) - t;
			else if (!fj[i].comm)
				d = fj[i].left;
			else if (how == JC_FAIR)
				d = fj[i].left / (rate / ncomm);
			else if (i == head)
				d = fj[i].left / rate;
			else
				continue;
			if (d < dt) {
				dt = d;
				first = i;
			}
		}
		if (!isfinite(dt))
			break;	/* nothing can happen: cannot be, but never loop on it */
		dt = fmax(dt, 0);
		t += dt;
		for (i = 0; i < n; i++) {
			if (!fj[i].started)
				continue;
			if (!fj[i].comm)
				fj[i].left -= dt;
			else if (how == JC_FAIR)
				fj[i].left -= dt * rate / ncomm;
			else if (i == head)
				fj[i].left -= dt * rate;
		}
		if (first < n)
			fj[first].left = 0;

		/* phases that ended, in job order */
		for (i = 0; i < n; i++) {
			const struct jc_job *job = &jobs[link->job[i]];
			struct fluid_job *f = &fj[i];

			if (!f->started) {
				if (i != first && (start_ms ? start_ms[i] : 0) > t)
					continue;
				f->started = true;
				f->left = job->seg[0].compute_ms;
			}
			if (!f->comm && f->left <= 1e-9) {
				f->comm = true;
				f->left = job->seg[f->seg].bytes * 8;
				f->arrival = seq++;
			} else if (f->comm && f->left <= 1e-6) {
				f->comm = false;
				if (++f->seg == job->nseg) {
					f->seg = 0;
					f->done++;
					f->last_t = t;
					if (t0 >= 0 && !f->first_n) {
						f->first_t = t;
						f->first_n = f->done;
					}
				}
				f->left = job->seg[f->seg].compute_ms;
				/* a segment without compute: its communication arrives now */
				if (f->left <= 1e-9) {
					f->comm = true;
					f->left = job->seg[f->seg].bytes * 8;
					f->arrival = seq++;
				}
			}
		}

		/* the window: after JC_WARMUP iterations of every job */
		for (i = 0; i < n; i++) {
			warm += fj[i].done >= JC_WARMUP;
			measured += fj[i].first_n && fj[i].done >= fj[i].first_n + JC_MEASURE;
		}
		if (t0 < 0 && warm == n)
			t0 = t;
		if (t0 >= 0 && measured == n && t >= t0 + JC_MEASURE * tmax)
			break;
	}

	for (i = 0; i < n; i++) {
		const struct fluid_job *f = &fj[i];
		double start = start_ms ? start_ms[i] : 0;

		if (f->first_n && f->done > f->first_n)
			iter_ms[i] = (f->last_t - f->first_t) / (f->done - f->first_n);
		else if (f->done)
			iter_ms[i] = (f->last_t - start) / f->done;
		else
			iter_ms[i] = fmax(t - start, tmax);	/* not one iteration: a bound */
	}
	return 0;
}
