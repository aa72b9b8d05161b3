// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench: emulates N training jobs whose communication phases cross one shared FIFO
 * bottleneck, records every iteration, and summarises how close each job gets to running
 * alone (the interleaving MLTCP is meant to produce).
 *
 *   P-s0 (sender 0) --veth--\                                    /--veth-- P-d0 (receiver 0)
 *   P-s1 (sender 1) --veth---[ P-r router ]==rb==>==wb==[ P-w ]-----veth-- P-d1 (receiver 1)
 *   ...                     /     rb egress: tbf FIFO            \          ...
 *                                 rate --rate-mbit, limit --queue-kb
 *                                 (+ RED ECN marking with --ecn-kb)
 *
 * One process per sender and receiver (fork + setns into its namespace), one TCP
 * connection per job with the chosen congestion control. Iteration = compute (sleep or
 * busy-wait), then `phases` x (send `bytes`, wait for the receiver's confirmation: the
 * barrier). A sampler process reads the bottleneck qdisc counters over rtnetlink. With
 * --ideal (default) every job first runs alone on the same link to measure its ideal
 * iteration time. The coordinator (this process) builds and removes the namespaces
 * (also on SIGINT/SIGTERM), starts everything at a common time, collects the records
 * from shared memory and writes the result directory. Details: README.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hints.h"
#include "job.h"
#include "metrics.h"
#include "profile.h"
#include "records.h"
#include "topology.h"
#include "util.h"
#include "verdict.h"

struct options {
	double rate_mbit;
	double queue_kb;	/* 0: 10 ms worth of the rate */
	uint64_t burst_bytes;
	double ecn_kb;
	double queue_bdp;	/* > 0: FIFO = this x BDP (overrides the default queue) */
	double delay_ms;	/* added RTT (netem on the ACK path) */
	int egress;		/* --bottleneck egress */
	unsigned mtu;
	int no_topology;
	char *rcv_addr, *snd_ns, *rcv_ns, *bottleneck;
	unsigned port;
	int ideal;
	unsigned ideal_iterations, ideal_warmup, warmup;
	double threshold;
	unsigned min_stable;
	double sample_ms, bin_ms;
	double timeout_s;
	char *out, *label;
	char *cc;
	long iterations;
	double random_offset_ms;
	unsigned long seed;
	int have_seed;
	int quiet;
	int start_exact;	/* --start exact (default) or timed */
	int ideal_each;		/* measure the ideal again before every run */
	unsigned runs;		/* shared runs (--runs) */
	double ratio_limit;	/* verdict: worst/ideal over the last half <= this */
	char *sysctls[32];
	unsigned nsysctl;
};

static struct options opt = {
	.rate_mbit = 100,
	.burst_bytes = 15000,
	.mtu = 1500,
	.port = 5201,
	.ideal = 1,
	.ideal_iterations = 10,
	.ideal_warmup = 2,
	.warmup = 5,
	.threshold = 0.10,
	.min_stable = 5,
	.sample_ms = 10,
	.bin_ms = 5,
	.iterations = -1,
	.start_exact = 1,
	.runs = 1,
	.ratio_limit = 1.10,
};

static struct profile_set jobs;
static struct topology topo;
static int sfd = -1; /* signalfd: SIGINT, SIGTERM, SIGHUP, SIGCHLD */
static int64_t base_ns;

/* collected records (times in ms since base_ns) */
static struct iter_rec *its;
static size_t nits, capits;
static struct phase_rec *phs;
static size_t nphs, capphs;
static struct counter_sample *samples;
static size_t nsamples, capsamples;
static uint64_t *share_bins[MAX_JOBS];
static size_t share_nbins;
static double share_t0_ms, shared_start_ms = NAN, shared_end_ms = NAN;
static double start_spread_ms = NAN; /* last shared run: spread of the first releases */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mltcp-bench [options]                  run a scenario\n"
		"       mltcp-bench report [--warmup N] [--ideal-warmup N] [--converge-ratio X]\n"
		"                          DIR...\n"
		"                                              summarise result directories; with\n"
		"                                              several, speedup against the first\n"
		"       mltcp-bench --cleanup                  delete namespaces of killed runs\n"
		"\n"
		"Jobs (at least one):\n"
		"  -p, --profile FILE      add the jobs of a profile file (repeatable)\n"
		"  -j, --job SPEC          add a job, SPEC = key=value,... (repeatable), keys:\n"
		"%s"
		"  --iterations N          override every job's iterations\n"
		"  --cc NAME[,NAME...]     congestion control of all jobs, or one per job in order\n"
		"                          (overrides the profiles' cc)\n"
		"  --random-offset MS      add a random start offset in [0, MS) to every job\n"
		"                          (drawn again for every run)\n"
		"  --seed N                seed for --random-offset (default: time; in meta.txt)\n"
		"  --start exact|timed     exact (default): the first iterations of all jobs are\n"
		"                          released by one barrier (EOF on a pipe every sender\n"
		"                          blocks on) once all connections are up; timed: every\n"
		"                          sender sleeps until a common time 50 ms later\n"
		"  --runs N                repeat the shared run N times on the same topology,\n"
		"                          ideal measured once (default 1); verdict per run\n"
		"  --ideal-each            with --runs: measure the ideal again before every run\n"
		"                          (slower; follows a host whose speed drifts)\n"
		"Bottleneck (built by the tool):\n"
		"  --bottleneck router|egress  where the FIFO is: in a router between senders and\n"
		"                          receivers (default; drops far from the senders), or on\n"
		"                          the egress veth of ONE namespace holding every sender\n"
		"                          (jobs sharing a NIC: local backpressure and drops)\n"
		"  --rate-mbit R           tbf rate (default 100)\n"
		"  --queue-kb K            FIFO limit in kB (default: 10 ms at the rate, 125 kB\n"
		"                          at 100 Mbit/s)\n"
		"  --queue-bdp X           FIFO limit = X x BDP, BDP = rate x max(--delay-ms, 10 ms)\n"
		"  --delay-ms D            add D ms of RTT: netem (delay only) on the ACK path\n"
		"  --burst-bytes B         tbf bucket (default 15000)\n"
		"  --ecn-kb K              RED child marking ECN above K kB (DCTCP), needs sch_red\n"
		"  --mtu N                 MTU of every link (default 1500)\n"
		"  --sysctl KEY=VALUE      set in every sender and receiver namespace (repeatable),\n"
		"                          e.g. net.ipv4.tcp_slow_start_after_idle=0\n"
		"Existing topology instead:\n"
		"  --no-topology           use existing namespaces/addresses; then:\n"
		"  --rcv-addr IP[,IP...]   receiver address of all jobs or of each (required)\n"
		"  --snd-ns NS[,NS...]     sender namespace(s) (name or /path; default: current)\n"
		"  --rcv-ns NS[,NS...]     receiver namespace(s)\n"
		"  --bottleneck [NS:]DEV   qdisc to sample for drops/marks (default: none)\n"
		"  --port N                first TCP port, job j uses N+j (default 5201)\n"
		"Measurement:\n"
		"  --ideal / --no-ideal    run every job alone first (default: on)\n"
		"  --ideal-iterations N    iterations of each alone run (default 10)\n"
		"  --ideal-warmup N        of which skipped (default 2)\n"
		"  --warmup N              shared-run iterations skipped in mean/p99 (default 5)\n"
		"  --converge-threshold F  overlap fraction counted as interleaved (default 0.10)\n"
		"  --converge-min N        contended iterations that must follow (default 5)\n"
		"  --converge-ratio X      run verdict: converged if the worst job's mean over the\n"
		"                          last half of the run is <= X times its ideal (1.10)\n"
		"  --sample-ms MS          bottleneck counter sampling (default 10)\n"
		"  --bin-ms MS             link-share bins (default 5)\n"
		"  --timeout S             per run (default 30 s + 3x the expected duration)\n"
		"  --hints | --no-hints    tell MLTCP the iterations via libmltcp, or let it learn\n"
		"                          (default --no-hints; MLTCP sockets only)\n"
		"Output:\n"
		"  -o, --out DIR           result directory (default results/bench-DATE-TIME)\n"
		"  --label TEXT            name of this run in reports and plots (default: cc)\n"
		"  -q, --quiet             only the summary\n",
		profile_keys_help);
}

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

static int parse_num_opt(const char *name, const char *v, double max, double *out)
{
	if (parse_double(v, out) || *out > max) {
		warnx_("--%s: '%s' is not a number in 0..%g", name, v, max);
		return -1;
	}
	return 0;
}

static int parse_uint_opt(const char *name, const char *v, unsigned long max, unsigned *out)
{
	unsigned long u;

	if (parse_uint(v, max, &u)) {
		warnx_("--%s: '%s' is not a whole number in 0..%lu", name, v, max);
		return -1;
	}
	*out = (unsigned)u;
	return 0;
}

/* i-th entry of a comma list, or the only entry; NULL when the list is too short. */
static int list_item(const char *list, unsigned i, char *out, size_t len)
{
	unsigned n = 1;
	const char *p = list, *e;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	if (n == 1)
		i = 0;
	else if (i >= n)
		return -1;
	for (unsigned k = 0; k < i; k++)
		p = strchr(p, ',') + 1;
	e = strchr(p, ',');
	if (!e)
		e = p + strlen(p);
	if ((size_t)(e - p) >= len)
		return -1;
	memcpy(out, p, (size_t)(e - p));
	out[e - p] = '\0';
	return 0;
}

static unsigned list_len(const char *list)
{
	unsigned n = 1;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	return n;
}

/* ---- signals and children ---- */

struct child {
	pid_t pid;
	int status;
	int done;
	char what[64];
};

static struct child children[2 * MAX_JOBS + 1];
static unsigned nchildren;

static void kill_children(void)
{
	for (unsigned i = 0; i < nchildren; i++)
		if (!children[i].done)
			kill(children[i].pid, SIGKILL);
	for (unsigned i = 0; i < nchildren; i++)
		if (!children[i].done) {
			while (waitpid(children[i].pid, &children[i].status, 0) < 0 && errno == EINTR)
				;
			children[i].done = 1;
		}
	nchildren = 0;
}

static void fatal_exit(int code)
{
	kill_children();
	topology_destroy(&topo);
	exit(code);
}

/* Reap; returns -1 if a child failed (reported). */
static int reap(void)
{
	int st, ret = 0;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (unsigned i = 0; i < nchildren; i++) {
			if (children[i].pid != pid)
				continue;
			children[i].done = 1;
			children[i].status = st;
			if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
				break;
			if (WIFSIGNALED(st))
				warnx_("%s killed by signal %d", children[i].what, WTERMSIG(st));
			else
				warnx_("%s failed (exit %d)", children[i].what, WEXITSTATUS(st));
			ret = -1;
		}
	}
	return ret;
}

/* Wait up to deadline for fd readable (fd < 0: only signals/timeout). Returns 1 fd ready,
 * 0 timeout or child exited (check), never returns on SIGINT/SIGTERM/SIGHUP or failure. */
static int wait_event(int fd, int64_t deadline)
{
	struct pollfd p[2] = { { .fd = sfd, .events = POLLIN }, { .fd = fd, .events = POLLIN } };
	int64_t left = deadline - now_ns();
	int r;

	if (left < 0)
		left = 0;
	r = poll(p, fd >= 0 ? 2 : 1, (int)(left / NSEC_PER_MSEC) + 1);
	if (r < 0 && errno != EINTR) {
		warnx_("poll: %s", strerror(errno));
		fatal_exit(1);
	}
	if (r > 0 && (p[0].revents & POLLIN)) {
		struct signalfd_siginfo si;

		while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo != SIGCHLD) {
				warnx_("interrupted by signal %u, cleaning up", si.ssi_signo);
				fatal_exit(130);
			}
		}
		if (reap())
			fatal_exit(1);
		return 0;
	}
	if (r > 0 && fd >= 0 && (p[1].revents & (POLLIN | POLLHUP)))
		return 1;
	return 0;
}

static pid_t spawn_child(const char *what, int close1, int close2)
{
	pid_t pid;

	if (nchildren >= sizeof(children) / sizeof(children[0])) {
		warnx_("too many processes");
		fatal_exit(1);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		warnx_("fork: %s", strerror(errno));
		fatal_exit(1);
	}
	if (pid == 0) {
		close(sfd);
		close(close1);
		close(close2);
		return 0;
	}
	children[nchildren].pid = pid;
	children[nchildren].done = 0;
	snprintf(children[nchildren].what, sizeof(children[nchildren].what), "%s", what);
	nchildren++;
	return pid;
}

/* ---- one run: a set of jobs started together ---- */

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

static void run_set(int mode, const unsigned *idx, unsigned n, unsigned iters_override)
{
	struct job_profile prof[MAX_JOBS];
	double timeout_ms = opt.timeout_s > 0 ? opt.timeout_s * 1e3
					      : 30e3 + 3 * expected_ms(idx, n, iters_override);
	size_t size, off, max_samples;
	unsigned nbins = (unsigned)(timeout_ms / opt.bin_ms) + 2;
	struct run_shared *sh;
	char *mem;
	int go[2], ready[2];
	int64_t deadline;
	unsigned want_ready = 2 * n, got_ready = 0;
	int have_sampler = topo.bott_dev[0] != 0;

	max_samples = (size_t)(timeout_ms / opt.sample_ms) + 16;
	size = (sizeof(*sh) + 63) & ~(size_t)63;
	size += max_samples * sizeof(struct counter_sample);
	for (unsigned k = 0; k < n; k++) {
		prof[k] = jobs.jobs[idx[k]];
		if (iters_override)
			prof[k].iterations = iters_override;
		if (mode == MODE_IDEAL)
			prof[k].offset_ms = 0;
		size += prof[k].iterations * sizeof(struct raw_span) * (1 + prof[k].phases);
		size += (size_t)nbins * sizeof(uint64_t);
	}
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	if (mem == MAP_FAILED) {
		warnx_("mmap %zu bytes: %s", size, strerror(errno));
		fatal_exit(1);
	}
	sh = (struct run_shared *)mem;
	off = (sizeof(*sh) + 63) & ~(size_t)63;
	sh->njobs = n;
	sh->jobs_left = 0;
	for (unsigned k = 0; k < n; k++)
		sh->jobs_left += !prof[k].bulk;
	sh->nbins = nbins;
	sh->bin_ns = (int64_t)(opt.bin_ms * NSEC_PER_MSEC);
	sh->max_samples = (unsigned)max_samples;
	sh->samples = (struct counter_sample *)(mem + off);
	off += max_samples * sizeof(struct counter_sample);
	for (unsigned k = 0; k < n; k++) {
		sh->job[k].iter = (struct raw_span *)(mem + off);
		off += prof[k].iterations * sizeof(struct raw_span);
		sh->job[k].phase = (struct raw_span *)(mem + off);
		off += (size_t)prof[k].iterations * prof[k].phases * sizeof(struct raw_span);
		sh->job[k].bins = (uint64_t *)(mem + off);
		off += (size_t)nbins * sizeof(uint64_t);
	}
	if (pipe2(go, O_CLOEXEC) || pipe2(ready, O_CLOEXEC)) {
		warnx_("pipe: %s", strerror(errno));
		fatal_exit(1);
	}

	if (have_sampler && spawn_child("bottleneck sampler", go[1], ready[0]) == 0) {
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

	deadline = now_ns() + 15 * NSEC_PER_SEC;
	while (got_ready < want_ready) {
		if (now_ns() > deadline) {
			warnx_("jobs not connected after 15 s");
			fatal_exit(1);
		}
		if (wait_event(ready[0], deadline) == 1) {
			char buf[2 * MAX_JOBS];
			ssize_t r = read(ready[0], buf, sizeof(buf));

			if (r <= 0) {
				/* every writer is gone: let the failed child's status arrive */
				int64_t until = now_ns() + 2 * NSEC_PER_SEC;

				while (now_ns() < until)
					wait_event(-1, until);
				warnx_("a job process exited before connecting");
				fatal_exit(1);
			}
			got_ready += (unsigned)r;
		}
	}
	close(ready[0]);
	sh->start_exact = opt.start_exact;
	sh->t0 = now_ns() + (opt.start_exact ? 0 : 50 * NSEC_PER_MSEC);
	__sync_synchronize();
	close(go[1]); /* EOF on go[0]: everybody starts (exact), or at t0 + offset (timed) */

	if (!opt.quiet) {
		if (mode == MODE_IDEAL)
			fprintf(stderr, "mltcp-bench: ideal run of job %u (%s) alone, %u iterations\n",
				idx[0], prof[0].name, prof[0].iterations);
		else
			fprintf(stderr, "mltcp-bench: shared run, %u jobs\n", n);
	}
	deadline = sh->t0 + (int64_t)(timeout_ms * NSEC_PER_MSEC);
	for (;;) {
		unsigned live = 0;

		for (unsigned i = 0; i < nchildren; i++)
			if (!children[i].done && strstr(children[i].what, "sampler") == NULL)
				live++;
		if (!live)
			break;
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
	for (;;) {
		unsigned live = 0;

		for (unsigned i = 0; i < nchildren; i++)
			live += !children[i].done;
		if (!live)
			break;
		if (now_ns() > deadline) {
			warnx_("sampler does not stop");
			fatal_exit(1);
		}
		wait_event(-1, now_ns() + 100 * NSEC_PER_MSEC);
	}
	nchildren = 0;

	/* collect */
	for (unsigned k = 0; k < n; k++) {
		unsigned j = idx[k];
		const struct job_profile *p = &prof[k];
		struct job_slot *js = &sh->job[k];

		if (js->iters_done != p->iterations) {
			warnx_("job %u (%s) finished %u of %u iterations", j, p->name, js->iters_done,
			       p->iterations);
			fatal_exit(1);
		}
		for (unsigned it = 0; it < p->iterations; it++) {
			struct iter_rec r = {
				.mode = mode,
				.job = j,
				.iter = it,
				.start = (double)(js->iter[it].start - base_ns) / 1e6,
				.end = (double)(js->iter[it].end - base_ns) / 1e6,
				.comm_start = (double)(js->phase[(size_t)it * p->phases].start - base_ns) / 1e6,
				.comm_end = (double)(js->phase[(size_t)it * p->phases + p->phases - 1].end -
						     base_ns) / 1e6,
				.bytes = p->bytes * p->phases,
				.comm_ms = NAN,
				.overlap = NAN,
				.link_overlap = NAN,
				.drops = NAN,
				.marks = NAN,
			};

			memcpy(r.name, p->name, sizeof(r.name));
			memcpy(r.cc, js->cc, sizeof(r.cc));
			append((void **)&its, &nits, &capits, sizeof(r), &r);
			for (unsigned ph = 0; ph < p->phases; ph++) {
				const struct raw_span *s = &js->phase[(size_t)it * p->phases + ph];
				struct phase_rec q = {
					.mode = mode,
					.job = j,
					.iter = it,
					.phase = ph,
					.start = (double)(s->start - base_ns) / 1e6,
					.end = (double)(s->end - base_ns) / 1e6,
					.bytes = p->bytes,
				};

				append((void **)&phs, &nphs, &capphs, sizeof(q), &q);
			}
			if (mode == MODE_SHARED) {
				if (isnan(shared_start_ms) || r.start < shared_start_ms)
					shared_start_ms = r.start;
				if (isnan(shared_end_ms) || r.end > shared_end_ms)
					shared_end_ms = r.end;
			}
		}
	}
	if (mode == MODE_SHARED) {
		double lo = INFINITY, hi = -INFINITY;

		for (unsigned k = 0; k < n; k++) {
			double t;

			if (!prof[k].iterations)
				continue; /* bulk flow */
			t = (double)(sh->job[k].iter[0].start - sh->t0) / 1e6 - prof[k].offset_ms;

			lo = t < lo ? t : lo;
			hi = t > hi ? t : hi;
		}
		start_spread_ms = hi >= lo ? hi - lo : NAN;
	}
	for (unsigned i = 0; i < sh->nsamples; i++) {
		struct counter_sample s = sh->samples[i];

		s.t = (double)(sh->t0 - base_ns + (int64_t)s.t) / 1e6;
		append((void **)&samples, &nsamples, &capsamples, sizeof(s), &s);
	}
	if (mode == MODE_SHARED) {
		size_t last = 0;

		for (unsigned k = 0; k < n; k++)
			for (size_t b = 0; b < nbins; b++)
				if (sh->job[k].bins[b] && b + 1 > last)
					last = b + 1;
		share_nbins = last;
		share_t0_ms = (double)(sh->t0 - base_ns) / 1e6;
		for (unsigned k = 0; k < n; k++) {
			share_bins[idx[k]] = calloc(last ? last : 1, sizeof(uint64_t));
			if (!share_bins[idx[k]]) {
				warnx_("out of memory");
				fatal_exit(1);
			}
			memcpy(share_bins[idx[k]], sh->job[k].bins, last * sizeof(uint64_t));
		}
	}
	munmap(mem, size);
}

/* ---- output ---- */

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		warnx_("%s: %s", path, strerror(errno));
		fatal_exit(1);
	}
	return f;
}

static void close_out(FILE *f, const char *name)
{
	if (ferror(f) | fclose(f)) {
		warnx_("writing %s failed", name);
		fatal_exit(1);
	}
}

static void fmt_num(char *buf, size_t len, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
}

static void print_summary(FILE *f, const char *label, const struct job_summary *s, size_t n,
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
		fprintf(f, "%-4u %-14s %-12s %5zu %8s %8s %8s %9s %6s %9s %9s %9s %8s %8s ", s[i].job,
			s[i].name, s[i].cc, s[i].iters, b[0], b[1], b[2], b[3], b[4], b[5], b[6],
			b[7], b[8], b[9]);
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

/*
 * The bandwidth-delay product used by --queue-bdp: rate x reference RTT, where the
 * reference RTT is max(--delay-ms, 10 ms). The emulated links add no delay of their own
 * (tens of microseconds); 10 ms stands for the RTT the jobs effectively see under the
 * bench guest's scheduling, and makes 1 BDP = the default FIFO (125 kB at 100 Mbit/s).
 */
static double bdp_bytes(void)
{
	double rtt_ms = opt.delay_ms > 10 ? opt.delay_ms : 10;

	return opt.rate_mbit * 1e6 / 8 * rtt_ms / 1e3;
}

/* Every (non-bulk) job alone on the link: the ideal records. */
static void measure_ideal(void)
{
	if (opt.ideal)
		for (unsigned j = 0; j < jobs.n; j++)
			if (!jobs.jobs[j].bulk)
				run_set(MODE_IDEAL, &j, 1, opt.ideal_iterations);
	if (metrics_overlap(its, nits, phs, nphs, MODE_IDEAL)) {
		warnx_("out of memory");
		fatal_exit(1);
	}
	metrics_attribute_counters(its, nits, samples, nsamples, MODE_IDEAL);
}

static void fprint_num(FILE *f, double v, const char *fmt)
{
	if (!isnan(v))
		fprintf(f, fmt, v);
}

/* Increase of a bottleneck counter (0 drops, 1 marks) over the last shared run. */
static double counter_delta(int field)
{
	return metrics_counter_at(samples, nsamples, shared_end_ms, field) -
	       metrics_counter_at(samples, nsamples, shared_start_ms, field);
}

/*
 * The least another job's receiver must read in a bin for the bin to count as shared in
 * the link overlap (metrics.h): a tenth of what the link carries in a bin.
 */
static double link_min_other(double rate_mbit, double bin_ms)
{
	return rate_mbit * 125.0 * bin_ms / 10;
}

/* Link overlap of the last shared run's records, from its link-share bins. */
static int compute_link_overlap(void)
{
	double *b[MAX_JOBS] = { NULL };
	int ret = 0;

	for (size_t j = 0; j < jobs.n && !ret; j++) {
		if (jobs.jobs[j].bulk || !share_bins[j])
			continue;
		b[j] = malloc((share_nbins + 1) * sizeof(double));
		if (!b[j]) {
			ret = -1;
			break;
		}
		for (size_t k = 0; k < share_nbins; k++)
			b[j][k] = (double)share_bins[j][k];
	}
	if (!ret)
		ret = metrics_link_overlap(its, nits, phs, nphs, MODE_SHARED,
					   (const double *const *)b, (unsigned)jobs.n, share_nbins,
					   share_t0_ms, opt.bin_ms,
					   link_min_other(opt.rate_mbit, opt.bin_ms));
	for (size_t j = 0; j < jobs.n; j++)
		free(b[j]);
	return ret;
}

static void print_verdict(FILE *f, const struct run_verdict *v, double spread)
{
	fprintf(f, "verdict: %s (worst job ", v->converged ? "converged" : "NOT converged");
	if (v->worst_job >= 0)
		fprintf(f, "%d at %.3fx its ideal over the last half, limit %.2fx)", v->worst_job,
			v->worst_ratio, opt.ratio_limit);
	else
		fprintf(f, "unknown: no ideal)");
	if (v->conv_iter >= 0)
		fprintf(f, ", overlap < %.0f%% from iteration %ld", opt.threshold * 100, v->conv_iter);
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

/* Friendliness to the bulk flow(s) of the last shared run (definitions: verdict.h). */
static int compute_friendliness(struct friendliness *out)
{
	double *bulk = calloc(share_nbins + 1, sizeof(double));
	double *job = calloc(share_nbins + 1, sizeof(double));
	struct interval *comm = malloc((nphs + 1) * sizeof(*comm));
	size_t nc = 0;

	if (!bulk || !job || !comm) {
		free(bulk), free(job), free(comm);
		return -1;
	}
	for (size_t j = 0; j < jobs.n; j++)
		for (size_t b = 0; b < share_nbins && share_bins[j]; b++)
			(jobs.jobs[j].bulk ? bulk : job)[b] += (double)share_bins[j][b];
	for (size_t i = 0; i < nphs; i++)
		if (phs[i].mode == MODE_SHARED)
			comm[nc++] = (struct interval){ phs[i].start, phs[i].end };
	if (!isnan(shared_start_ms))
		verdict_friendliness(bulk, job, share_nbins, share_t0_ms, opt.bin_ms, comm, nc,
				     shared_start_ms, shared_end_ms, opt.rate_mbit, out);
	free(bulk), free(job), free(comm);
	return 0;
}

static void print_friendliness(FILE *f, const struct friendliness *x)
{
	fprintf(f, "friendliness: the bulk flow got %.1f%% of the bytes delivered during the jobs' "
		   "communication phases; over the run %.1f%% of the bytes, %.1f%% of the link\n",
		x->share_comm * 100, x->share_run * 100, x->link_run * 100);
}

static void print_friendliness_runs(FILE *f, const struct friendliness *x, size_t n)
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
		fprintf(f, "bulk flow's share during communication over runs: min %.3f, median %.3f; "
			   "its link share over the run: min %.3f, median %.3f\n",
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

/* Per-run table and the summary over runs (spreads may be NULL). */
static void print_runs(FILE *f, const struct run_verdict *v, const double *spreads, size_t n)
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

static void write_meta(const char *dir, int argc, char **argv, const char *label)
{
	FILE *f = open_out(dir, "meta.txt");
	struct utsname u;
	char date[64];
	time_t now = time(NULL);

	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
	uname(&u);
	fprintf(f, "label=%s\ndate=%s\nkernel=%s\ncommand=", label, date, u.release);
	for (int i = 0; i < argc; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
	fprintf(f, "\njobs=%zu\nhints=%s\nrate_mbit=%g\n", jobs.n, hints_mode_name(),
		opt.rate_mbit);
	if (!opt.no_topology)
		fprintf(f,
			"queue_bytes=%.0f\nqueue_bdp=%.3f\nbdp_bytes=%.0f\nburst_bytes=%" PRIu64
			"\necn_bytes=%.0f\nmtu=%u\nbottleneck=%s\ndelay_ms=%g\n",
			opt.queue_kb * 1000, opt.queue_kb * 1000 / bdp_bytes(), bdp_bytes(),
			opt.burst_bytes, opt.ecn_kb * 1000, opt.mtu, opt.egress ? "egress" : "router",
			opt.delay_ms);
	else
		fprintf(f, "topology=existing\n");
	fprintf(f, "warmup=%u\nideal_iterations=%u\nideal_warmup=%u\nthreshold=%g\n",
		opt.warmup, opt.ideal ? opt.ideal_iterations : 0, opt.ideal_warmup, opt.threshold);
	fprintf(f, "converge_min=%u\nbin_ms=%g\nsample_ms=%g\nseed=%lu\n", opt.min_stable,
		opt.bin_ms, opt.sample_ms, opt.seed);
	fprintf(f, "start=%s\nruns=%u\nconverge_ratio=%g\nideal_each=%d\n",
		opt.start_exact ? "exact" : "timed", opt.runs, opt.ratio_limit, opt.ideal_each);
	for (size_t j = 0; j < jobs.n; j++) {
		const struct job_profile *p = &jobs.jobs[j];

		fprintf(f,
			"job%zu=name=%s,cc=%s,compute_ms=%g,bytes=%" PRIu64
			",phases=%u,gap_ms=%g,iterations=%u,offset_ms=%g,compute=%s\n",
			j, p->name, p->cc[0] ? p->cc : "default", p->compute_ms, p->bytes, p->phases,
			p->gap_ms, p->iterations, p->offset_ms,
			p->compute == COMPUTE_BUSY ? "busy" : "sleep");
	}
	for (unsigned i = 0; i < opt.nsysctl; i++)
		fprintf(f, "sysctl=%s\n", opt.sysctls[i]);
	close_out(f, "meta.txt");
}

static void write_results(const char *dir, const char *label, const struct job_summary *s,
			  size_t ns, const double *theory)
{
	FILE *f;
	double blocks[4096];
	size_t nb;

	f = open_out(dir, "iterations.csv");
	records_write_iterations_csv(f, its, nits);
	close_out(f, "iterations.csv");
	f = open_out(dir, "iterations.jsonl");
	records_write_iterations_jsonl(f, its, nits);
	close_out(f, "iterations.jsonl");
	f = open_out(dir, "phases.csv");
	records_write_phases_csv(f, phs, nphs);
	close_out(f, "phases.csv");

	f = open_out(dir, "qdisc.csv");
	fprintf(f, "t_ms,drops,marks,backlog_bytes\n");
	for (size_t i = 0; i < nsamples; i++)
		fprintf(f, "%.3f,%.0f,%.0f,%.0f\n", samples[i].t, samples[i].drops, samples[i].marks,
			samples[i].backlog);
	close_out(f, "qdisc.csv");

	f = open_out(dir, "share.csv");
	fprintf(f, "t_ms");
	for (size_t j = 0; j < jobs.n; j++)
		fprintf(f, ",%s", jobs.jobs[j].name);
	fputc('\n', f);
	for (size_t b = 0; b < share_nbins; b++) {
		fprintf(f, "%.3f", share_t0_ms + (double)b * opt.bin_ms);
		for (size_t j = 0; j < jobs.n; j++)
			fprintf(f, ",%.3f",
				share_bins[j] ? (double)share_bins[j][b] * 8 / (opt.bin_ms * 1e3) : 0.0);
		fputc('\n', f);
	}
	close_out(f, "share.csv");

	f = open_out(dir, "overlap.csv");
	fprintf(f, "block,first_iter,overlap\n");
	nb = metrics_overlap_series(its, nits, 5, blocks, sizeof(blocks) / sizeof(blocks[0]));
	for (size_t b = 0; b < nb; b++) {
		fprintf(f, "%zu,%zu,", b, b * 5);
		if (!isnan(blocks[b]))
			fprintf(f, "%.4f", blocks[b]);
		fputc('\n', f);
	}
	close_out(f, "overlap.csv");

	f = open_out(dir, "summary.csv");
	fprintf(f, "label,job,name,cc,iters,used,mean_ms,p99_ms,min_ms,max_ms,ideal_ms,theory_ms,"
		   "ratio,p99_ratio,converged_iter,overlap_first,overlap_last,drops_per_iter,"
		   "marks_per_iter\n");
	for (size_t i = 0; i < ns; i++) {
		double v[] = { s[i].mean,	   s[i].p99,	       s[i].min,	   s[i].max,
			       s[i].ideal,	   theory[s[i].job],   s[i].ratio,	   s[i].p99_ratio };
		double w[] = { s[i].overlap_first, s[i].overlap_last, s[i].drops_per_iter,
			       s[i].marks_per_iter };

		fprintf(f, "%s,%u,%s,%s,%zu,%zu", label, s[i].job, s[i].name, s[i].cc, s[i].iters,
			s[i].used);
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
			if (isnan(v[k]))
				fputs(",", f);
			else
				fprintf(f, ",%.3f", v[k]);
		}
		fprintf(f, ",%ld", s[i].converged);
		for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
			if (isnan(w[k]))
				fputs(",", f);
			else
				fprintf(f, ",%.4f", w[k]);
		}
		fputc('\n', f);
	}
	close_out(f, "summary.csv");
}

static int mkdir_p(const char *path)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

/* ---- report ---- */

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

static int report_main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "warmup", required_argument, NULL, 'w' },
		{ "ideal-warmup", required_argument, NULL, 'W' },
		{ "converge-threshold", required_argument, NULL, 't' },
		{ "converge-min", required_argument, NULL, 'm' },
		{ "converge-ratio", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct job_summary *base = NULL;
	size_t nbase = 0;
	int c, set_warmup = 0, set_iwarmup = 0, set_ratio = 0, ret = 0;

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'w':
			if (parse_uint_opt("warmup", optarg, 1000000, &opt.warmup))
				return 2;
			set_warmup = 1;
			break;
		case 'W':
			if (parse_uint_opt("ideal-warmup", optarg, 1000000, &opt.ideal_warmup))
				return 2;
			set_iwarmup = 1;
			break;
		case 't':
			if (parse_num_opt("converge-threshold", optarg, 1, &opt.threshold))
				return 2;
			break;
		case 'm':
			if (parse_uint_opt("converge-min", optarg, 1000000, &opt.min_stable))
				return 2;
			break;
		case 'r':
			if (parse_num_opt("converge-ratio", optarg, 100, &opt.ratio_limit) ||
			    opt.ratio_limit < 1) {
				warnx_("--converge-ratio must be 1..100");
				return 2;
			}
			set_ratio = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		warnx_("report: no result directory given");
		return 2;
	}
	for (int a = optind; a < argc; a++) {
		const char *dir = argv[a];
		char path[4096], label[256], val[64];
		struct iter_rec *it = NULL;
		struct job_summary *s = NULL;
		struct summary_opts so;
		struct run_verdict v;
		size_t n = 0;
		int nsum;
		unsigned nruns = 0;

		if (read_meta(dir, "label", label, sizeof(label)))
			snprintf(label, sizeof(label), "%s", dir);
		so.warmup = opt.warmup;
		so.ideal_warmup = opt.ideal_warmup;
		if (!set_warmup && !read_meta(dir, "warmup", val, sizeof(val)))
			so.warmup = (unsigned)atoi(val);
		if (!set_iwarmup && !read_meta(dir, "ideal_warmup", val, sizeof(val)))
			so.ideal_warmup = (unsigned)atoi(val);
		if (!set_ratio && !read_meta(dir, "converge_ratio", val, sizeof(val)))
			opt.ratio_limit = atof(val);
		so.threshold = opt.threshold;
		so.min_stable = opt.min_stable;
		for (;;) {
			snprintf(path, sizeof(path), "%s/run%u/iterations.csv", dir, nruns + 1);
			if (access(path, R_OK))
				break;
			nruns++;
		}
		if (nruns) {
			/* a --runs N directory: one verdict per run<k>/, then the summary */
			struct run_verdict *vs = calloc(nruns, sizeof(*vs));
			int bad = 0;

			if (!vs) {
				warnx_("out of memory");
				return 1;
			}
			for (unsigned r = 0; r < nruns && !bad; r++) {
				snprintf(path, sizeof(path), "%s/run%u", dir, r + 1);
				if (load_run(path, &so, &it, &n, &s, &nsum)) {
					bad = 1;
					break;
				}
				verdict_run(it, n, s, (size_t)nsum, opt.ratio_limit, &vs[r]);
				free(it);
				free(s);
			}
			if (!bad) {
				printf("== %s (%s, %u runs, warm-up %u)\n", label, dir, nruns,
				       so.warmup);
				print_runs(stdout, vs, NULL, nruns);
				printf("(several runs: no speedup comparison; compare the summaries)\n\n");
			} else {
				ret = 1;
			}
			free(vs);
			continue;
		}
		if (load_run(dir, &so, &it, &n, &s, &nsum)) {
			ret = 1;
			continue;
		}
		printf("== %s (%s, warm-up %u)\n", label, dir, so.warmup);
		print_summary(stdout, label, s, (size_t)nsum, NULL, it, n);
		verdict_run(it, n, s, (size_t)nsum, opt.ratio_limit, &v);
		print_verdict(stdout, &v, NAN);
		if (!base) {
			base = s;
			nbase = (size_t)nsum;
		} else {
			printf("speedup against %s:", argv[optind]);
			for (int i = 0; i < nsum; i++)
				for (size_t k = 0; k < nbase; k++)
					if (!strcmp(base[k].name, s[i].name))
						printf(" %s mean %.3fx p99 %.3fx;", s[i].name,
						       base[k].mean / s[i].mean, base[k].p99 / s[i].p99);
			putchar('\n');
			free(s);
		}
		putchar('\n');
		free(it);
	}
	free(base);
	return ret;
}

/* ---- main ---- */

enum {
	O_ITER = 256, O_CC, O_ROFF, O_SEED, O_RATE, O_QUEUE, O_BURST, O_ECN, O_MTU, O_SYSCTL,
	O_NOTOPO, O_RCVADDR, O_SNDNS, O_RCVNS, O_BOTT, O_PORT, O_IDEAL, O_NOIDEAL, O_IITER,
	O_IWARM, O_WARM, O_THR, O_CMIN, O_SAMPLE, O_BIN, O_TIMEOUT, O_HINTS, O_NOHINTS, O_LABEL,
	O_CLEANUP, O_START, O_RUNS, O_CRATIO, O_QBDP, O_DELAY, O_IEACH,
};

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "profile", required_argument, NULL, 'p' },
		{ "job", required_argument, NULL, 'j' },
		{ "iterations", required_argument, NULL, O_ITER },
		{ "cc", required_argument, NULL, O_CC },
		{ "random-offset", required_argument, NULL, O_ROFF },
		{ "seed", required_argument, NULL, O_SEED },
		{ "rate-mbit", required_argument, NULL, O_RATE },
		{ "queue-kb", required_argument, NULL, O_QUEUE },
		{ "burst-bytes", required_argument, NULL, O_BURST },
		{ "ecn-kb", required_argument, NULL, O_ECN },
		{ "mtu", required_argument, NULL, O_MTU },
		{ "sysctl", required_argument, NULL, O_SYSCTL },
		{ "no-topology", no_argument, NULL, O_NOTOPO },
		{ "rcv-addr", required_argument, NULL, O_RCVADDR },
		{ "snd-ns", required_argument, NULL, O_SNDNS },
		{ "rcv-ns", required_argument, NULL, O_RCVNS },
		{ "bottleneck", required_argument, NULL, O_BOTT },
		{ "port", required_argument, NULL, O_PORT },
		{ "ideal", no_argument, NULL, O_IDEAL },
		{ "no-ideal", no_argument, NULL, O_NOIDEAL },
		{ "ideal-iterations", required_argument, NULL, O_IITER },
		{ "ideal-warmup", required_argument, NULL, O_IWARM },
		{ "warmup", required_argument, NULL, O_WARM },
		{ "converge-threshold", required_argument, NULL, O_THR },
		{ "converge-min", required_argument, NULL, O_CMIN },
		{ "sample-ms", required_argument, NULL, O_SAMPLE },
		{ "bin-ms", required_argument, NULL, O_BIN },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "hints", no_argument, NULL, O_HINTS },
		{ "no-hints", no_argument, NULL, O_NOHINTS },
		{ "out", required_argument, NULL, 'o' },
		{ "label", required_argument, NULL, O_LABEL },
		{ "quiet", no_argument, NULL, 'q' },
		{ "cleanup", no_argument, NULL, O_CLEANUP },
		{ "start", required_argument, NULL, O_START },
		{ "runs", required_argument, NULL, O_RUNS },
		{ "converge-ratio", required_argument, NULL, O_CRATIO },
		{ "queue-bdp", required_argument, NULL, O_QBDP },
		{ "delay-ms", required_argument, NULL, O_DELAY },
		{ "ideal-each", no_argument, NULL, O_IEACH },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum hints_mode hm = HINTS_NONE;
	char err[512], outbuf[256], label[256];
	double theory[MAX_JOBS], base_offset[MAX_JOBS], *spreads;
	struct job_summary *sum;
	struct summary_opts so;
	struct run_verdict *verdicts;
	size_t nits_ideal, nphs_ideal, nsamples_ideal, nbulk = 0;
	struct friendliness *fr;
	FILE *f_runs;
	sigset_t ss;
	int c, nsum;
	unsigned v;

	if (argc > 1 && !strcmp(argv[1], "report"))
		return report_main(argc - 1, argv + 1);

	while ((c = getopt_long(argc, argv, "p:j:o:qh", lo, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (profile_parse_file(&jobs, optarg, err, sizeof(err))) {
				warnx_("profile %s", err);
				return 2;
			}
			break;
		case 'j':
			if (profile_parse_spec(&jobs, optarg, err, sizeof(err))) {
				warnx_("%s", err);
				return 2;
			}
			break;
		case O_ITER:
			if (parse_uint_opt("iterations", optarg, 1000000, &v) || !v) {
				warnx_("--iterations must be 1..1000000");
				return 2;
			}
			opt.iterations = v;
			break;
		case O_CC:
			opt.cc = optarg;
			break;
		case O_ROFF:
			if (parse_num_opt("random-offset", optarg, 3600e3, &opt.random_offset_ms))
				return 2;
			break;
		case O_SEED: {
			unsigned long u;

			if (parse_uint(optarg, ~0UL, &u)) {
				warnx_("--seed: '%s' is not a whole number", optarg);
				return 2;
			}
			opt.seed = u;
			opt.have_seed = 1;
			break;
		}
		case O_RATE:
			if (parse_num_opt("rate-mbit", optarg, 100000, &opt.rate_mbit) ||
			    opt.rate_mbit < 0.1) {
				warnx_("--rate-mbit must be 0.1..100000");
				return 2;
			}
			break;
		case O_QUEUE:
			if (parse_num_opt("queue-kb", optarg, 1e6, &opt.queue_kb) ||
			    opt.queue_kb < 3) {
				warnx_("--queue-kb must be 3..1000000");
				return 2;
			}
			break;
		case O_BURST: {
			uint64_t b;

			if (parse_bytes(optarg, &b) || b < 1600 || b > (64 << 20)) {
				warnx_("--burst-bytes: '%s' must be 1600..64MiB", optarg);
				return 2;
			}
			opt.burst_bytes = b;
			break;
		}
		case O_ECN:
			if (parse_num_opt("ecn-kb", optarg, 1e6, &opt.ecn_kb) || opt.ecn_kb < 1.5) {
				warnx_("--ecn-kb must be 1.5..1000000");
				return 2;
			}
			break;
		case O_MTU:
			if (parse_uint_opt("mtu", optarg, 65535, &opt.mtu) || opt.mtu < 576) {
				warnx_("--mtu must be 576..65535");
				return 2;
			}
			break;
		case O_SYSCTL:
			if (!strchr(optarg, '=') || strchr(optarg, '/') ||
			    opt.nsysctl == sizeof(opt.sysctls) / sizeof(opt.sysctls[0])) {
				warnx_("--sysctl: '%s' is not KEY=VALUE (dotted key, at most 32)",
				       optarg);
				return 2;
			}
			opt.sysctls[opt.nsysctl++] = optarg;
			break;
		case O_NOTOPO:
			opt.no_topology = 1;
			break;
		case O_RCVADDR:
			opt.rcv_addr = optarg;
			break;
		case O_SNDNS:
			opt.snd_ns = optarg;
			break;
		case O_RCVNS:
			opt.rcv_ns = optarg;
			break;
		case O_BOTT:
			opt.bottleneck = optarg;
			break;
		case O_PORT:
			if (parse_uint_opt("port", optarg, 65535 - MAX_JOBS, &opt.port) || !opt.port)
				return 2;
			break;
		case O_IDEAL:
			opt.ideal = 1;
			break;
		case O_NOIDEAL:
			opt.ideal = 0;
			break;
		case O_IITER:
			if (parse_uint_opt("ideal-iterations", optarg, 1000000, &opt.ideal_iterations) ||
			    !opt.ideal_iterations) {
				warnx_("--ideal-iterations must be 1..1000000");
				return 2;
			}
			break;
		case O_IWARM:
			if (parse_uint_opt("ideal-warmup", optarg, 1000000, &opt.ideal_warmup))
				return 2;
			break;
		case O_WARM:
			if (parse_uint_opt("warmup", optarg, 1000000, &opt.warmup))
				return 2;
			break;
		case O_THR:
			if (parse_num_opt("converge-threshold", optarg, 1, &opt.threshold))
				return 2;
			break;
		case O_CMIN:
			if (parse_uint_opt("converge-min", optarg, 1000000, &opt.min_stable))
				return 2;
			break;
		case O_SAMPLE:
			if (parse_num_opt("sample-ms", optarg, 10000, &opt.sample_ms) ||
			    opt.sample_ms < 1) {
				warnx_("--sample-ms must be 1..10000");
				return 2;
			}
			break;
		case O_BIN:
			if (parse_num_opt("bin-ms", optarg, 10000, &opt.bin_ms) || opt.bin_ms < 0.1) {
				warnx_("--bin-ms must be 0.1..10000");
				return 2;
			}
			break;
		case O_TIMEOUT:
			if (parse_num_opt("timeout", optarg, 86400, &opt.timeout_s) ||
			    opt.timeout_s < 1) {
				warnx_("--timeout must be 1..86400 seconds");
				return 2;
			}
			break;
		case O_HINTS:
			hm = HINTS_LIBMLTCP;
			break;
		case O_NOHINTS:
			hm = HINTS_NONE;
			break;
		case 'o':
			opt.out = optarg;
			break;
		case O_LABEL:
			if (strchr(optarg, ',') || strchr(optarg, '\n') || strlen(optarg) > 200) {
				warnx_("--label: no commas or newlines, at most 200 characters");
				return 2;
			}
			opt.label = optarg;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case O_START:
			if (!strcmp(optarg, "exact")) {
				opt.start_exact = 1;
			} else if (!strcmp(optarg, "timed")) {
				opt.start_exact = 0;
			} else {
				warnx_("--start: '%s' is not exact or timed", optarg);
				return 2;
			}
			break;
		case O_RUNS:
			if (parse_uint_opt("runs", optarg, 10000, &opt.runs) || !opt.runs) {
				warnx_("--runs must be 1..10000");
				return 2;
			}
			break;
		case O_CRATIO:
			if (parse_num_opt("converge-ratio", optarg, 100, &opt.ratio_limit) ||
			    opt.ratio_limit < 1) {
				warnx_("--converge-ratio must be 1..100");
				return 2;
			}
			break;
		case O_QBDP:
			if (parse_num_opt("queue-bdp", optarg, 1000, &opt.queue_bdp) ||
			    opt.queue_bdp < 0.05) {
				warnx_("--queue-bdp must be 0.05..1000");
				return 2;
			}
			break;
		case O_IEACH:
			opt.ideal_each = 1;
			break;
		case O_DELAY:
			if (parse_num_opt("delay-ms", optarg, 10000, &opt.delay_ms))
				return 2;
			break;
		case O_CLEANUP:
			topology_cleanup_stale();
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		warnx_("unexpected argument '%s' (see --help)", argv[optind]);
		return 2;
	}
	if (hints_select(hm, err, sizeof(err))) {
		warnx_("%s", err);
		return 2;
	}
	if (!jobs.n) {
		warnx_("no jobs: give --profile FILE or --job SPEC (see --help)");
		return 2;
	}

	/* per-run overrides */
	if (!opt.have_seed)
		opt.seed = (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16);
	srandom((unsigned)opt.seed);
	if (opt.cc && list_len(opt.cc) != 1 && list_len(opt.cc) != jobs.n) {
		warnx_("--cc: %u names for %zu jobs (give one, or one per job)", list_len(opt.cc),
		       jobs.n);
		return 2;
	}
	for (size_t j = 0; j < jobs.n; j++) {
		struct job_profile *p = &jobs.jobs[j];

		if (opt.iterations > 0 && !p->bulk)
			p->iterations = (unsigned)opt.iterations;
		nbulk += p->bulk;
		if (opt.cc) {
			char name[64];

			if (list_item(opt.cc, (unsigned)j, name, sizeof(name)) ||
			    profile_set_key(p, "cc", name, err, sizeof(err))) {
				warnx_("--cc: %s", err);
				return 2;
			}
		}
		base_offset[j] = p->offset_ms; /* + a random offset drawn for every run */
		theory[j] = profile_theory_ms(p, opt.rate_mbit);
	}
	if (opt.queue_bdp > 0 && opt.queue_kb > 0) {
		warnx_("give --queue-kb or --queue-bdp, not both");
		return 2;
	}
	if (opt.queue_bdp > 0)
		opt.queue_kb = opt.queue_bdp * bdp_bytes() / 1000;
	if (!opt.queue_kb)
		opt.queue_kb = opt.rate_mbit * 1e6 / 8 * 0.010 / 1000;
	if (opt.queue_kb * 1000 < 2.0 * opt.mtu + 100)
		opt.queue_kb = (2.0 * opt.mtu + 100) / 1000;
	if (opt.no_topology) {
		if (!opt.rcv_addr) {
			warnx_("--no-topology needs --rcv-addr");
			return 2;
		}
		for (const char *l = opt.rcv_addr; l; l = NULL) {
			unsigned n = list_len(l);

			if (n != 1 && n != jobs.n) {
				warnx_("--rcv-addr: %u addresses for %zu jobs", n, jobs.n);
				return 2;
			}
		}
		if ((opt.snd_ns && list_len(opt.snd_ns) != 1 && list_len(opt.snd_ns) != jobs.n) ||
		    (opt.rcv_ns && list_len(opt.rcv_ns) != 1 && list_len(opt.rcv_ns) != jobs.n)) {
			warnx_("--snd-ns/--rcv-ns: give one namespace or one per job");
			return 2;
		}
		topo.njobs = (unsigned)jobs.n;
		for (unsigned j = 0; j < jobs.n; j++) {
			if (list_item(opt.rcv_addr, j, topo.rcv_addr[j], sizeof(topo.rcv_addr[j])) ||
			    (opt.snd_ns &&
			     list_item(opt.snd_ns, j, topo.snd_ns[j], sizeof(topo.snd_ns[j]))) ||
			    (opt.rcv_ns &&
			     list_item(opt.rcv_ns, j, topo.rcv_ns[j], sizeof(topo.rcv_ns[j])))) {
				warnx_("address or namespace name too long");
				return 2;
			}
		}
		if (opt.bottleneck && (!strcmp(opt.bottleneck, "router") ||
					!strcmp(opt.bottleneck, "egress"))) {
			warnx_("--bottleneck %s builds a topology: not with --no-topology (there, "
			       "--bottleneck [NS:]DEV names the qdisc to sample)", opt.bottleneck);
			return 2;
		}
		if (opt.bottleneck) {
			const char *colon = strrchr(opt.bottleneck, ':');
			const char *dev = colon ? colon + 1 : opt.bottleneck;
			size_t nl = colon ? (size_t)(colon - opt.bottleneck) : 0;

			if (!*dev || strlen(dev) >= sizeof(topo.bott_dev) ||
			    nl >= sizeof(topo.bott_ns)) {
				warnx_("--bottleneck: '%s' is not [NS:]DEV", opt.bottleneck);
				return 2;
			}
			memcpy(topo.bott_ns, opt.bottleneck, nl);
			topo.bott_ns[nl] = '\0';
			strcpy(topo.bott_dev, dev);
		}
	} else if (opt.rcv_addr || opt.snd_ns || opt.rcv_ns) {
		warnx_("--rcv-addr/--snd-ns/--rcv-ns need --no-topology");
		return 2;
	} else if (opt.bottleneck) {
		if (!strcmp(opt.bottleneck, "egress")) {
			opt.egress = 1;
		} else if (strcmp(opt.bottleneck, "router")) {
			warnx_("--bottleneck: '%s' is not router or egress ([NS:]DEV needs "
			       "--no-topology)", opt.bottleneck);
			return 2;
		}
	}
	if (opt.no_topology && (opt.queue_bdp > 0 || opt.delay_ms > 0)) {
		warnx_("--queue-bdp/--delay-ms shape the built topology: not with --no-topology");
		return 2;
	}
	if (geteuid() != 0)
		warnx_("not root: creating or entering network namespaces will likely fail");

	if (opt.label) {
		snprintf(label, sizeof(label), "%s", opt.label);
	} else {
		size_t off = 0;

		label[0] = '\0';
		for (size_t j = 0; j < jobs.n && off < sizeof(label) - 20; j++) {
			const char *cc = jobs.jobs[j].cc[0] ? jobs.jobs[j].cc : "default";

			if (j && strstr(label, cc))
				continue;
			off += (size_t)snprintf(label + off, sizeof(label) - off, "%s%s",
						off ? "+" : "", cc);
		}
	}
	if (!opt.out) {
		char date[64];
		time_t now = time(NULL);

		strftime(date, sizeof(date), "%Y%m%d-%H%M%S", localtime(&now));
		snprintf(outbuf, sizeof(outbuf), "results/bench-%s", date);
		opt.out = outbuf;
	}
	if (mkdir_p(opt.out)) {
		warnx_("cannot create %s: %s", opt.out, strerror(errno));
		return 1;
	}

	sigemptyset(&ss);
	sigaddset(&ss, SIGINT);
	sigaddset(&ss, SIGTERM);
	sigaddset(&ss, SIGHUP);
	sigaddset(&ss, SIGCHLD);
	sigprocmask(SIG_BLOCK, &ss, NULL);
	sfd = signalfd(-1, &ss, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		warnx_("signalfd: %s", strerror(errno));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);

	if (!opt.no_topology) {
		struct topo_opts to = {
			.rate_mbit = opt.rate_mbit,
			.queue_bytes = (uint64_t)(opt.queue_kb * 1000),
			.burst_bytes = opt.burst_bytes,
			.ecn_bytes = (uint64_t)(opt.ecn_kb * 1000),
			.mtu = opt.mtu,
			.egress = opt.egress,
			.delay_ms = opt.delay_ms,
		};

		if (topology_create(&topo, (unsigned)jobs.n, &to))
			return 1;
		if (!opt.quiet)
			fprintf(stderr,
				"mltcp-bench: topology %s-*: %zu jobs, bottleneck %s, tbf %g Mbit/s, "
				"FIFO %.0f B (%.2f BDP), burst %" PRIu64 " B%s, added RTT %g ms\n",
				topo.prefix, jobs.n, opt.egress ? "egress" : "router", opt.rate_mbit,
				opt.queue_kb * 1000, opt.queue_kb * 1000 / bdp_bytes(),
				opt.burst_bytes, opt.ecn_kb > 0 ? ", RED ECN marking" : "",
				opt.delay_ms);
	}
	for (unsigned i = 0; i < opt.nsysctl; i++) {
		char key[256];
		const char *eq = strchr(opt.sysctls[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - opt.sysctls[i]), opt.sysctls[i]);
		for (unsigned j = 0; j < jobs.n; j++)
			if (netns_sysctl(topo.snd_ns[j], key, eq + 1) ||
			    netns_sysctl(topo.rcv_ns[j], key, eq + 1))
				fatal_exit(1);
	}
	/* a signal during the build is pending in sfd: honour it now */
	wait_event(-1, now_ns());

	write_meta(opt.out, argc, argv, label);
	so.warmup = opt.warmup;
	so.ideal_warmup = opt.ideal_warmup;
	so.threshold = opt.threshold;
	so.min_stable = opt.min_stable;
	{
		char p[4096];

		snprintf(p, sizeof(p), "%s/tc-before.txt", opt.out);
		topology_tc_snapshot(&topo, p);
	}
	base_ns = now_ns();
	measure_ideal();
	nits_ideal = nits;
	nphs_ideal = nphs;
	nsamples_ideal = nsamples;
	verdicts = calloc(opt.runs, sizeof(*verdicts));
	spreads = calloc(opt.runs, sizeof(*spreads));
	fr = calloc(opt.runs, sizeof(*fr));
	if (!verdicts || !spreads || !fr) {
		warnx_("out of memory");
		fatal_exit(1);
	}
	f_runs = open_out(opt.out, "runs.csv");
	fprintf(f_runs, "run,dir,worst_ratio,worst_job,converged,conv_iter,start_spread_ms,drops,"
			"marks,bulk_share_comm,bulk_share_run,bulk_link_run,offsets_ms,"
			"link_conv_iter\n");
	for (unsigned r = 0; r < opt.runs; r++) {
		char dir[4096], offs[512];
		size_t off = 0;
		unsigned idx[MAX_JOBS];

		/* a fresh shared run on the same topology; the ideal records are kept, or
		 * measured again (--ideal-each) */
		if (opt.ideal_each && r > 0) {
			nits = nphs = nsamples = 0;
			measure_ideal();
			nits_ideal = nits;
			nphs_ideal = nphs;
			nsamples_ideal = nsamples;
		}
		nits = nits_ideal;
		nphs = nphs_ideal;
		nsamples = nsamples_ideal;
		shared_start_ms = shared_end_ms = NAN;
		for (unsigned j = 0; j < MAX_JOBS; j++) {
			free(share_bins[j]);
			share_bins[j] = NULL;
		}
		offs[0] = '\0';
		for (unsigned j = 0; j < jobs.n; j++) {
			struct job_profile *p = &jobs.jobs[j];

			p->offset_ms = base_offset[j];
			if (opt.random_offset_ms > 0)
				p->offset_ms += opt.random_offset_ms * ((double)random() / 2147483648.0);
			off += (size_t)snprintf(offs + off, sizeof(offs) - off, "%s%.1f", j ? ";" : "",
						p->offset_ms);
			if (off >= sizeof(offs))
				off = sizeof(offs) - 1;
			idx[j] = j;
		}
		if (!opt.quiet && opt.runs > 1)
			fprintf(stderr, "mltcp-bench: run %u of %u\n", r + 1, opt.runs);
		run_set(MODE_SHARED, idx, (unsigned)jobs.n, 0);

		if (metrics_overlap(its, nits, phs, nphs, MODE_SHARED) || compute_link_overlap()) {
			warnx_("out of memory");
			fatal_exit(1);
		}
		metrics_attribute_counters(its, nits, samples, nsamples, MODE_SHARED);
		nsum = metrics_summarize(its, nits, &so, &sum);
		if (nsum < 0) {
			warnx_("out of memory");
			fatal_exit(1);
		}
		verdict_run(its, nits, sum, (size_t)nsum, opt.ratio_limit, &verdicts[r]);
		spreads[r] = start_spread_ms;
		fr[r] = (struct friendliness){ NAN, NAN, NAN };
		if (nbulk && compute_friendliness(&fr[r])) {
			warnx_("out of memory");
			fatal_exit(1);
		}
		if (opt.runs > 1) {
			snprintf(dir, sizeof(dir), "%s/run%u", opt.out, r + 1);
			if (mkdir_p(dir)) {
				warnx_("cannot create %s: %s", dir, strerror(errno));
				fatal_exit(1);
			}
			write_meta(dir, argc, argv, label);
		} else {
			snprintf(dir, sizeof(dir), "%s", opt.out);
		}
		write_results(dir, label, sum, (size_t)nsum, theory);
		{
			FILE *f = open_out(dir, "summary.txt");

			for (int pass = 0; pass < 2; pass++) {
				FILE *o = pass ? f : stdout;

				if (!pass && opt.runs > 1 && opt.quiet)
					continue;
				fprintf(o, "mltcp-bench %s", label);
				if (opt.runs > 1)
					fprintf(o, " run %u/%u", r + 1, opt.runs);
				fprintf(o, ": %zu jobs, %g Mbit/s", jobs.n, opt.rate_mbit);
				if (!opt.no_topology)
					fprintf(o, " tbf FIFO %.0f B", opt.queue_kb * 1000);
				fprintf(o, ", %s start, %s, warm-up %u, results in %s\n",
					opt.start_exact ? "exact" : "timed", hints_mode_name(),
					opt.warmup, dir);
				print_summary(o, label, sum, (size_t)nsum, theory, its, nits);
				if (nsamples > nsamples_ideal && !isnan(shared_start_ms))
					fprintf(o, "bottleneck during the shared run: %.0f drops, "
						   "%.0f ECN marks\n",
						counter_delta(0), counter_delta(1));
				print_verdict(o, &verdicts[r], spreads[r]);
				if (nbulk)
					print_friendliness(o, &fr[r]);
			}
			close_out(f, "summary.txt");
		}
		fprintf(f_runs, "%u,%s,", r + 1, opt.runs > 1 ? dir + strlen(opt.out) + 1 : ".");
		fprint_num(f_runs, verdicts[r].worst_ratio, "%.4f");
		fprintf(f_runs, ",%d,%d,%ld,", verdicts[r].worst_job, verdicts[r].converged,
			verdicts[r].conv_iter);
		fprint_num(f_runs, spreads[r], "%.3f");
		fputc(',', f_runs);
		fprint_num(f_runs, nsamples > nsamples_ideal ? counter_delta(0) : NAN, "%.0f");
		fputc(',', f_runs);
		fprint_num(f_runs, nsamples > nsamples_ideal ? counter_delta(1) : NAN, "%.0f");
		fputc(',', f_runs);
		fprint_num(f_runs, fr[r].share_comm, "%.4f");
		fputc(',', f_runs);
		fprint_num(f_runs, fr[r].share_run, "%.4f");
		fputc(',', f_runs);
		fprint_num(f_runs, fr[r].link_run, "%.4f");
		fprintf(f_runs, ",%s,", offs);
		if (verdicts[r].link_conv_iter != VERDICT_UNKNOWN)
			fprintf(f_runs, "%ld", verdicts[r].link_conv_iter);
		fputc('\n', f_runs);
		fflush(f_runs);
		free(sum);
	}
	close_out(f_runs, "runs.csv");
	{
		char p[4096];

		snprintf(p, sizeof(p), "%s/tc-after.txt", opt.out);
		topology_tc_snapshot(&topo, p);
	}
	topology_destroy(&topo);

	if (opt.runs > 1) {
		FILE *f = open_out(opt.out, "summary.txt");

		for (int pass = 0; pass < 2; pass++) {
			FILE *o = pass ? f : stdout;

			fprintf(o, "mltcp-bench %s: %u runs of %zu jobs, %g Mbit/s", label, opt.runs,
				jobs.n, opt.rate_mbit);
			if (!opt.no_topology)
				fprintf(o, " tbf FIFO %.0f B", opt.queue_kb * 1000);
			fprintf(o, ", %s start, results in %s\n",
				opt.start_exact ? "exact" : "timed", opt.out);
			if (opt.ideal && opt.ideal_each)
				fprintf(o, "ideal measured again before every run (--ideal-each)\n");
			else if (opt.ideal)
				fprintf(o, "ideal measured once, before the first run, and reused by "
					   "every run\n");
			print_runs(o, verdicts, spreads, opt.runs);
			if (nbulk)
				print_friendliness_runs(o, fr, opt.runs);
		}
		close_out(f, "summary.txt");
	}
	free(verdicts);
	free(spreads);
	free(fr);
	return 0;
}
