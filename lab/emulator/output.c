// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench: the result directory. meta.txt, the records and their per-job summaries
 * (README.md describes the files), summary.txt with what is also printed, runs.csv with a
 * line per shared run, and the bottleneck's qdisc before and after. Scripts parse all of
 * them: the formats are fixed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

#include "analysis.h"
#include "cli.h"
#include "hints.h"
#include "output.h"
#include "records.h"
#include "run.h"
#include "summary.h"
#include "supervise.h"
#include "util.h"

int mkdir_p(const char *path)
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

FILE *open_out(const char *dir, const char *name)
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

void close_out(FILE *f, const char *name)
{
	if (ferror(f) | fclose(f)) {
		warnx_("writing %s failed", name);
		fatal_exit(1);
	}
}

static void fprint_num(FILE *f, double v, const char *fmt)
{
	if (!isnan(v))
		fprintf(f, fmt, v);
}

void write_meta(const char *dir, int argc, char **argv, const char *label)
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
			opt.burst_bytes, opt.ecn_kb * 1000, opt.mtu,
			opt.egress ? "egress" : "router", opt.delay_ms);
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
			",phases=%u,gap_ms=%g,conns=%u,iterations=%u,offset_ms=%g,compute=%s\n",
			j, p->name, p->cc[0] ? p->cc : "default", p->compute_ms, p->bytes,
			p->phases, p->gap_ms, p->conns, p->iterations, p->offset_ms,
			p->compute == COMPUTE_BUSY ? "busy" : "sleep");
	}
	for (unsigned i = 0; i < opt.nsysctl; i++)
		fprintf(f, "sysctl=%s\n", opt.sysctls[i]);
	close_out(f, "meta.txt");
}

void write_tc_snapshot(const char *name)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", opt.out, name);
	topology_tc_snapshot(&topo, p);
}

void make_run_dir(unsigned r, char *dir, size_t len, int argc, char **argv, const char *label)
{
	if (opt.runs > 1) {
		snprintf(dir, len, "%s/run%u", opt.out, r + 1);
		if (mkdir_p(dir)) {
			warnx_("cannot create %s: %s", dir, strerror(errno));
			fatal_exit(1);
		}
		write_meta(dir, argc, argv, label);
	} else {
		snprintf(dir, len, "%s", opt.out);
	}
}

/* The iteration and phase records, with the ideal runs' first. */
static void write_records(const char *dir)
{
	FILE *f;

	f = open_out(dir, "iterations.csv");
	records_write_iterations_csv(f, recs.its, recs.nits);
	close_out(f, "iterations.csv");
	f = open_out(dir, "iterations.jsonl");
	records_write_iterations_jsonl(f, recs.its, recs.nits);
	close_out(f, "iterations.jsonl");
	f = open_out(dir, "phases.csv");
	records_write_phases_csv(f, recs.phs, recs.nphs);
	close_out(f, "phases.csv");
}

/* The bottleneck's counters as sampled. */
static void write_qdisc(const char *dir)
{
	FILE *f = open_out(dir, "qdisc.csv");

	fprintf(f, "t_ms,drops,marks,backlog_bytes\n");
	for (size_t i = 0; i < recs.nsamples; i++)
		fprintf(f, "%.3f,%.0f,%.0f,%.0f\n", recs.samples[i].t, recs.samples[i].drops,
			recs.samples[i].marks, recs.samples[i].backlog);
	close_out(f, "qdisc.csv");
}

/* The last shared run's link share: Mbit/s each job's receiver read per bin. */
static void write_share(const char *dir)
{
	FILE *f = open_out(dir, "share.csv");

	fprintf(f, "t_ms");
	for (size_t j = 0; j < jobs.n; j++)
		fprintf(f, ",%s", jobs.jobs[j].name);
	fputc('\n', f);
	for (size_t b = 0; b < recs.share_nbins; b++) {
		fprintf(f, "%.3f", recs.share_t0_ms + (double)b * opt.bin_ms);
		for (size_t j = 0; j < jobs.n; j++)
			fprintf(f, ",%.3f",
				recs.share_bins[j] ?
				(double)recs.share_bins[j][b] * 8 / (opt.bin_ms * 1e3) : 0.0);
		fputc('\n', f);
	}
	close_out(f, "share.csv");
}

/* The overlap of the jobs' communication per 5 iterations. */
static void write_overlap(const char *dir)
{
	FILE *f = open_out(dir, "overlap.csv");
	double blocks[4096];
	size_t nb;

	fprintf(f, "block,first_iter,overlap\n");
	nb = metrics_overlap_series(recs.its, recs.nits, 5, blocks,
				    sizeof(blocks) / sizeof(blocks[0]));
	for (size_t b = 0; b < nb; b++) {
		fprintf(f, "%zu,%zu,", b, b * 5);
		if (!isnan(blocks[b]))
			fprintf(f, "%.4f", blocks[b]);
		fputc('\n', f);
	}
	close_out(f, "overlap.csv");
}

/* n values, each after a comma; an unknown one (NAN) is left empty. */
static void put_csv_nums(FILE *f, const double *v, size_t n, const char *fmt)
{
	for (size_t k = 0; k < n; k++) {
		fputc(',', f);
		if (!isnan(v[k]))
			fprintf(f, fmt, v[k]);
	}
}

static void write_summary_csv(const char *dir, const char *label, const struct job_summary *s,
			      size_t ns, const double *theory)
{
	FILE *f = open_out(dir, "summary.csv");

	fprintf(f, "label,job,name,cc,iters,used,mean_ms,p99_ms,min_ms,max_ms,ideal_ms,theory_ms,"
		   "ratio,p99_ratio,converged_iter,overlap_first,overlap_last,drops_per_iter,"
		   "marks_per_iter\n");
	for (size_t i = 0; i < ns; i++) {
		double v[] = { s[i].mean,  s[i].p99,	     s[i].min,	 s[i].max,
			       s[i].ideal, theory[s[i].job], s[i].ratio, s[i].p99_ratio };
		double w[] = { s[i].overlap_first, s[i].overlap_last, s[i].drops_per_iter,
			       s[i].marks_per_iter };

		fprintf(f, "%s,%u,%s,%s,%zu,%zu", label, s[i].job, s[i].name, s[i].cc, s[i].iters,
			s[i].used);
		put_csv_nums(f, v, sizeof(v) / sizeof(v[0]), "%.3f");
		fprintf(f, ",%ld", s[i].converged);
		put_csv_nums(f, w, sizeof(w) / sizeof(w[0]), "%.4f");
		fputc('\n', f);
	}
	close_out(f, "summary.csv");
}

void write_results(const char *dir, const char *label, const struct job_summary *s,
		   size_t ns, const double *theory)
{
	write_records(dir);
	write_qdisc(dir);
	write_share(dir);
	write_overlap(dir);
	write_summary_csv(dir, label, s, ns, theory);
}

/* " tbf FIFO ... B" where the tool built the bottleneck */
static void print_fifo(FILE *o)
{
	if (!opt.no_topology)
		fprintf(o, " tbf FIFO %.0f B", opt.queue_kb * 1000);
}

static void print_run_summary(FILE *o, const struct bench *b, unsigned r, const char *dir,
			      const struct job_summary *sum, size_t nsum,
			      const struct runs_outcome *out)
{
	fprintf(o, "mltcp-bench %s", b->label);
	if (opt.runs > 1)
		fprintf(o, " run %u/%u", r + 1, opt.runs);
	fprintf(o, ": %zu jobs, %g Mbit/s", jobs.n, opt.rate_mbit);
	print_fifo(o);
	fprintf(o, ", %s start, %s, warm-up %u, results in %s\n",
		opt.start_exact ? "exact" : "timed", hints_mode_name(), opt.warmup, dir);
	print_summary(o, b->label, sum, nsum, b->theory, recs.its, recs.nits);
	if (recs.nsamples > recs.nsamples_ideal && !isnan(recs.shared_start_ms))
		fprintf(o, "bottleneck during the shared run: %.0f drops, %.0f ECN marks\n",
			counter_delta(0), counter_delta(1));
	print_verdict(o, &out->verdicts[r], out->spreads[r]);
	if (b->nbulk)
		print_friendliness(o, &out->fr[r]);
}

void write_run_summary(const struct bench *b, unsigned r, const char *dir,
		       const struct job_summary *sum, size_t nsum,
		       const struct runs_outcome *out)
{
	FILE *f = open_out(dir, "summary.txt");

	/* with several runs, --quiet prints only the summary over runs */
	if (!(opt.runs > 1 && opt.quiet))
		print_run_summary(stdout, b, r, dir, sum, nsum, out);
	print_run_summary(f, b, r, dir, sum, nsum, out);
	close_out(f, "summary.txt");
}

FILE *runs_csv_open(void)
{
	FILE *f = open_out(opt.out, "runs.csv");

	fprintf(f, "run,dir,worst_ratio,worst_job,converged,conv_iter,start_spread_ms,drops,"
		   "marks,bulk_share_comm,bulk_share_run,bulk_link_run,offsets_ms,"
		   "link_conv_iter\n");
	return f;
}

void runs_csv_line(FILE *f, unsigned r, const char *dir, const struct runs_outcome *out,
		   const char *offs)
{
	const struct run_verdict *v = &out->verdicts[r];
	const struct friendliness *fr = &out->fr[r];
	int counted = recs.nsamples > recs.nsamples_ideal;

	fprintf(f, "%u,%s,", r + 1, opt.runs > 1 ? dir + strlen(opt.out) + 1 : ".");
	fprint_num(f, v->worst_ratio, "%.4f");
	fprintf(f, ",%d,%d,%ld,", v->worst_job, v->converged, v->conv_iter);
	fprint_num(f, out->spreads[r], "%.3f");
	fputc(',', f);
	fprint_num(f, counted ? counter_delta(0) : NAN, "%.0f");
	fputc(',', f);
	fprint_num(f, counted ? counter_delta(1) : NAN, "%.0f");
	fputc(',', f);
	fprint_num(f, fr->share_comm, "%.4f");
	fputc(',', f);
	fprint_num(f, fr->share_run, "%.4f");
	fputc(',', f);
	fprint_num(f, fr->link_run, "%.4f");
	fprintf(f, ",%s,", offs);
	if (v->link_conv_iter != VERDICT_UNKNOWN)
		fprintf(f, "%ld", v->link_conv_iter);
	fputc('\n', f);
	fflush(f);
}

static void print_runs_summary(FILE *o, const struct bench *b, const struct runs_outcome *out)
{
	fprintf(o, "mltcp-bench %s: %u runs of %zu jobs, %g Mbit/s", b->label, opt.runs, jobs.n,
		opt.rate_mbit);
	print_fifo(o);
	fprintf(o, ", %s start, results in %s\n", opt.start_exact ? "exact" : "timed", opt.out);
	if (opt.ideal && opt.ideal_each)
		fprintf(o, "ideal measured again before every run (--ideal-each)\n");
	else if (opt.ideal)
		fprintf(o, "ideal measured once, before the first run, and reused by every run\n");
	print_runs(o, out->verdicts, out->spreads, opt.runs);
	if (b->nbulk)
		print_friendliness_runs(o, out->fr, opt.runs);
}

void write_runs_summary(const struct bench *b, const struct runs_outcome *out)
{
	FILE *f = open_out(opt.out, "summary.txt");

	print_runs_summary(stdout, b, out);
	print_runs_summary(f, b, out);
	close_out(f, "summary.txt");
}
