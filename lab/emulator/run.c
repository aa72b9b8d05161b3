// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench: one run. The coordinator maps the memory the children record into, forks
 * a sender and a receiver per job (and the bottleneck sampler), releases the jobs once
 * every connection is up, waits for them to finish, and turns what they recorded into
 * records in recs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "job.h"
#include "run.h"
#include "setup.h"
#include "supervise.h"
#include "util.h"

struct bench_records recs = {
	.shared_start_ms = NAN,
	.shared_end_ms = NAN,
	.start_spread_ms = NAN,
};

static void append(void **arr, size_t *n, size_t *cap, size_t elem, const void *x)
{
	if (*n == *cap) {
		void *p;

		*cap = *cap ? *cap * 2 : 256;
		p = realloc(*arr, *cap * elem);
		if (!p) {
			warnx_("out of memory");
			exit(1);
		}
		*arr = p;
	}
	memcpy((char *)*arr + *n * elem, x, elem);
	(*n)++;
}

static double expected_ms(const unsigned *idx, unsigned n, unsigned iters_override)
{
	double m = 0;

	for (unsigned k = 0; k < n; k++) {
		const struct job_profile *p = &jobs.jobs[idx[k]];
		unsigned it = iters_override ? iters_override : p->iterations;
		double d = p->offset_ms + it * profile_theory_ms(p, opt.rate_mbit);

		if (d > m)
			m = d;
	}
	return m * n;
}

/* The shared memory of one run: the children write into it, the coordinator reads. */
struct run_map {
	char *mem;
	size_t size;
	unsigned nbins;		/* link-share bins per job */
};

/* The profiles of this run: the jobs' own, with the run's iterations and offsets. */
static void run_profiles(enum run_mode mode, const unsigned *idx, unsigned n,
			 unsigned iters_override, struct job_profile *prof)
{
	for (unsigned k = 0; k < n; k++) {
		prof[k] = jobs.jobs[idx[k]];
		if (iters_override)
			prof[k].iterations = iters_override;
		if (mode == MODE_IDEAL)
			prof[k].offset_ms = 0;
	}
}

/* Map and lay out the run's shared memory, sized for a run of up to timeout_ms. */
static struct run_shared *map_shared(const struct job_profile *prof, unsigned n,
				     double timeout_ms, struct run_map *m)
{
	size_t off, max_samples = (size_t)(timeout_ms / opt.sample_ms) + 16;
	struct run_shared *sh;

	m->nbins = (unsigned)(timeout_ms / opt.bin_ms) + 2;
	m->size = (sizeof(*sh) + 63) & ~(size_t)63;
	m->size += max_samples * sizeof(struct counter_sample);
	for (unsigned k = 0; k < n; k++) {
		m->size += prof[k].iterations * sizeof(struct raw_span) * (1 + prof[k].phases);
		m->size += (size_t)m->nbins * sizeof(uint64_t);
	}
	m->mem = mmap(NULL, m->size, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m->mem == MAP_FAILED) {
		warnx_("mmap %zu bytes: %s", m->size, strerror(errno));
		fatal_exit(1);
	}
	sh = (struct run_shared *)m->mem;
	off = (sizeof(*sh) + 63) & ~(size_t)63;
	sh->njobs = n;
	sh->jobs_left = 0;
	for (unsigned k = 0; k < n; k++)
		sh->jobs_left += !prof[k].bulk;
	sh->nbins = m->nbins;
	sh->bin_ns = (int64_t)(opt.bin_ms * NSEC_PER_MSEC);
	sh->max_samples = (unsigned)max_samples;
	sh->samples = (struct counter_sample *)(m->mem + off);
	off += max_samples * sizeof(struct counter_sample);
	for (unsigned k = 0; k < n; k++) {
		sh->job[k].iter = (struct raw_span *)(m->mem + off);
		off += prof[k].iterations * sizeof(struct raw_span);
		sh->job[k].phase = (struct raw_span *)(m->mem + off);
		off += (size_t)prof[k].iterations * prof[k].phases * sizeof(struct raw_span);
		sh->job[k].bins = (uint64_t *)(m->mem + off);
		off += (size_t)m->nbins * sizeof(uint64_t);
	}
	return sh;
}

/*
 * Fork the sampler (when there is a bottleneck to sample) and every job's receiver and
 * sender. They block on go[0] until released and write a byte to ready[1] once
 * connected; the coordinator keeps only go[1] and ready[0].
 */
static void start_processes(struct run_shared *sh, const struct job_profile *prof,
			    const unsigned *idx, unsigned n, const int go[2], const int ready[2])
{
	if (topo.bott_dev[0] && spawn_child("bottleneck sampler", go[1], ready[0]) == 0) {
		close(ready[1]);
		sampler_main(sh, topo.bott_ns, topo.bott_dev, go[0],
			     (int64_t)(opt.sample_ms * NSEC_PER_MSEC));
	}
	for (unsigned k = 0; k < n; k++) {
		unsigned j = idx[k];
		struct job_env e = {
			.index = j,
			.slot = k,
			.p = &prof[k],
			.snd_ns = topo.snd_ns[j],
			.rcv_ns = topo.rcv_ns[j],
			.rcv_addr = topo.rcv_addr[j],
			.port = (uint16_t)(opt.port + j),
			.go_fd = go[0],
			.ready_fd = ready[1],
			.sh = sh,
			.quiet = opt.quiet,
		};
		char what[64];

		snprintf(what, sizeof(what), "job %u (%.31s) receiver", j, prof[k].name);
		if (spawn_child(what, go[1], ready[0]) == 0)
			job_receiver_main(&e);
		snprintf(what, sizeof(what), "job %u (%.31s) sender", j, prof[k].name);
		if (spawn_child(what, go[1], ready[0]) == 0)
			job_sender_main(&e);
	}
	close(ready[1]);
	close(go[0]);
}

/* Wait for want bytes on ready_fd, one per connected process; fatal after 15 s. */
static void wait_connected(int ready_fd, unsigned want)
{
	int64_t deadline = now_ns() + 15 * NSEC_PER_SEC;
	unsigned got = 0;

	while (got < want) {
		if (now_ns() > deadline) {
			warnx_("jobs not connected after 15 s");
			fatal_exit(1);
		}
		if (wait_event(ready_fd, deadline) == 1) {
			char buf[2 * MAX_JOBS];
			ssize_t r = read(ready_fd, buf, sizeof(buf));

			if (r <= 0) {
				/* every writer is gone: let the failed child's status arrive */
				int64_t until = now_ns() + 2 * NSEC_PER_SEC;

				while (now_ns() < until)
					wait_event(-1, until);
				warnx_("a job process exited before connecting");
				fatal_exit(1);
			}
			got += (unsigned)r;
		}
	}
	close(ready_fd);
}

/* Set the common start and close go_wr: EOF on the read end releases everybody. */
static void release(struct run_shared *sh, int go_wr)
{
	sh->start_exact = opt.start_exact;
	sh->t0 = now_ns() + (opt.start_exact ? 0 : 50 * NSEC_PER_MSEC);
	__sync_synchronize();
	close(go_wr); /* EOF on go[0]: everybody starts (exact), or at t0 + offset (timed) */
}

/* Wait for every job process to finish (fatal after timeout_ms), then stop the sampler. */
static void wait_finished(struct run_shared *sh, double timeout_ms)
{
	int64_t deadline = sh->t0 + (int64_t)(timeout_ms * NSEC_PER_MSEC);

	while (children_running(0)) {
		if (now_ns() > deadline) {
			warnx_("run timed out after %.0f s (--timeout)", timeout_ms / 1e3);
			fatal_exit(1);
		}
		wait_event(-1, now_ns() + 200 * NSEC_PER_MSEC < deadline
				       ? now_ns() + 200 * NSEC_PER_MSEC
				       : deadline);
	}
	sh->stop = 1;
	deadline = now_ns() + 5 * NSEC_PER_SEC;
	while (children_running(1)) {
		if (now_ns() > deadline) {
			warnx_("sampler does not stop");
			fatal_exit(1);
		}
		wait_event(-1, now_ns() + 100 * NSEC_PER_MSEC);
	}
	children_forget();
}

/* ms since base_ns */
static double rec_ms(int64_t t)
{
	return (double)(t - recs.base_ns) / 1e6;
}

/* The iteration and phase records of job j, which ran with profile p in slot js. */
static void collect_job(enum run_mode mode, unsigned j, const struct job_profile *p,
			const struct job_slot *js)
{
	if (js->iters_done != p->iterations) {
		warnx_("job %u (%s) finished %u of %u iterations", j, p->name, js->iters_done,
		       p->iterations);
		fatal_exit(1);
	}
	for (unsigned it = 0; it < p->iterations; it++) {
		const struct raw_span *ph = &js->phase[(size_t)it * p->phases];
		struct iter_rec r = {
			.mode = mode,
			.job = j,
			.iter = it,
			.start = rec_ms(js->iter[it].start),
			.end = rec_ms(js->iter[it].end),
			.comm_start = rec_ms(ph[0].start),
			.comm_end = rec_ms(ph[p->phases - 1].end),
			.bytes = p->bytes * p->phases,
			.comm_ms = NAN,
			.overlap = NAN,
			.link_overlap = NAN,
			.drops = NAN,
			.marks = NAN,
		};

		memcpy(r.name, p->name, sizeof(r.name));
		memcpy(r.cc, js->cc, sizeof(r.cc));
		append((void **)&recs.its, &recs.nits, &recs.capits, sizeof(r), &r);
		for (unsigned k = 0; k < p->phases; k++) {
			struct phase_rec q = {
				.mode = mode,
				.job = j,
				.iter = it,
				.phase = k,
				.start = rec_ms(ph[k].start),
				.end = rec_ms(ph[k].end),
				.bytes = p->bytes,
			};

			append((void **)&recs.phs, &recs.nphs, &recs.capphs, sizeof(q), &q);
		}
		if (mode == MODE_SHARED) {
			if (isnan(recs.shared_start_ms) || r.start < recs.shared_start_ms)
				recs.shared_start_ms = r.start;
			if (isnan(recs.shared_end_ms) || r.end > recs.shared_end_ms)
				recs.shared_end_ms = r.end;
		}
	}
}

/* How far apart the jobs' first iterations started, each against its own offset. */
static double start_spread(const struct run_shared *sh, const struct job_profile *prof,
			   unsigned n)
{
	double lo = INFINITY, hi = -INFINITY;

	for (unsigned k = 0; k < n; k++) {
		double t;

		if (!prof[k].iterations)
			continue; /* bulk flow */
		t = (double)(sh->job[k].iter[0].start - sh->t0) / 1e6 - prof[k].offset_ms;

		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	return hi >= lo ? hi - lo : NAN;
}

static void collect_samples(const struct run_shared *sh)
{
	for (unsigned i = 0; i < sh->nsamples; i++) {
		struct counter_sample s = sh->samples[i];

		s.t = (double)(sh->t0 - recs.base_ns + (int64_t)s.t) / 1e6;
		append((void **)&recs.samples, &recs.nsamples, &recs.capsamples, sizeof(s), &s);
	}
}

/* The shared run's link-share bins, up to the last one any job received bytes in. */
static void collect_share_bins(const struct run_shared *sh, const unsigned *idx, unsigned n,
			       unsigned nbins)
{
	size_t last = 0;

	for (unsigned k = 0; k < n; k++)
		for (size_t b = 0; b < nbins; b++)
			if (sh->job[k].bins[b] && b + 1 > last)
				last = b + 1;
	recs.share_nbins = last;
	recs.share_t0_ms = rec_ms(sh->t0);
	for (unsigned k = 0; k < n; k++) {
		recs.share_bins[idx[k]] = calloc(last ? last : 1, sizeof(uint64_t));
		if (!recs.share_bins[idx[k]]) {
			warnx_("out of memory");
			fatal_exit(1);
		}
		memcpy(recs.share_bins[idx[k]], sh->job[k].bins, last * sizeof(uint64_t));
	}
}

void run_set(enum run_mode mode, const unsigned *idx, unsigned n, unsigned iters_override)
{
	struct job_profile prof[MAX_JOBS];
	double timeout_ms = opt.timeout_s > 0 ? opt.timeout_s * 1e3
					      : 30e3 + 3 * expected_ms(idx, n, iters_override);
	struct run_shared *sh;
	struct run_map m;
	int go[2], ready[2];

	run_profiles(mode, idx, n, iters_override, prof);
	sh = map_shared(prof, n, timeout_ms, &m);
	if (pipe2(go, O_CLOEXEC) || pipe2(ready, O_CLOEXEC)) {
		warnx_("pipe: %s", strerror(errno));
		fatal_exit(1);
	}
	start_processes(sh, prof, idx, n, go, ready);
	wait_connected(ready[0], 2 * n);
	release(sh, go[1]);
	if (!opt.quiet) {
		if (mode == MODE_IDEAL)
			fprintf(stderr,
				"mltcp-bench: ideal run of job %u (%s) alone, %u iterations\n",
				idx[0], prof[0].name, prof[0].iterations);
		else
			fprintf(stderr, "mltcp-bench: shared run, %u jobs\n", n);
	}
	wait_finished(sh, timeout_ms);

	for (unsigned k = 0; k < n; k++)
		collect_job(mode, idx[k], &prof[k], &sh->job[k]);
	if (mode == MODE_SHARED)
		recs.start_spread_ms = start_spread(sh, prof, n);
	collect_samples(sh);
	if (mode == MODE_SHARED)
		collect_share_bins(sh, idx, n, m.nbins);
	munmap(m.mem, m.size);
}

void measure_ideal(void)
{
	if (opt.ideal)
		for (unsigned j = 0; j < jobs.n; j++)
			if (!jobs.jobs[j].bulk)
				run_set(MODE_IDEAL, &j, 1, opt.ideal_iterations);
	if (metrics_overlap(recs.its, recs.nits, recs.phs, recs.nphs, MODE_IDEAL)) {
		warnx_("out of memory");
		fatal_exit(1);
	}
	metrics_attribute_counters(recs.its, recs.nits, recs.samples, recs.nsamples, MODE_IDEAL);
	recs.nits_ideal = recs.nits;
	recs.nphs_ideal = recs.nphs;
	recs.nsamples_ideal = recs.nsamples;
}

void records_drop_shared(void)
{
	recs.nits = recs.nits_ideal;
	recs.nphs = recs.nphs_ideal;
	recs.nsamples = recs.nsamples_ideal;
	recs.shared_start_ms = recs.shared_end_ms = NAN;
	for (unsigned j = 0; j < MAX_JOBS; j++) {
		free(recs.share_bins[j]);
		recs.share_bins[j] = NULL;
	}
}
