// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl output formatting, and the atomic replacement of a metrics file.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compat.h"
#include "mltcp_core.h"
#include "output.h"
#include "parse.h"

const char *mltcpctl_mode_name(unsigned int mode)
{
	switch (mode) {
	case MLTCP_ABI_MODE_LEARNED:
		return "learned";
	case MLTCP_ABI_MODE_GIVEN:
		return "given";
	case MLTCP_ABI_MODE_OFF:
		return "off";
	}
	return "unknown";
}

static const char *const phase_names[] = {
	[MLTCP_ABI_PHASE_BASE] = "base",
	[MLTCP_ABI_PHASE_UNEARNED] = "unearned",
	[MLTCP_ABI_PHASE_OVERRUN] = "overrun",
	[MLTCP_ABI_PHASE_RAMP] = "ramp",
	[MLTCP_ABI_PHASE_TOP] = "top",
	[MLTCP_ABI_PHASE_YIELD] = "yield",
};

const char *mltcpctl_phase_name(unsigned int phase)
{
	return phase <= __MLTCP_ABI_PHASE_MAX ? phase_names[phase] : "unknown";
}

const char *mltcpctl_tcp_state_name(unsigned int state)
{
	static const char *const names[] = {
		[TCP_ESTABLISHED] = "ESTAB",
		[TCP_SYN_SENT] = "SYN-SENT",
		[TCP_SYN_RECV] = "SYN-RECV",
		[TCP_FIN_WAIT1] = "FIN-WAIT-1",
		[TCP_FIN_WAIT2] = "FIN-WAIT-2",
		[TCP_TIME_WAIT] = "TIME-WAIT",
		[TCP_CLOSE] = "UNCONN",
		[TCP_CLOSE_WAIT] = "CLOSE-WAIT",
		[TCP_LAST_ACK] = "LAST-ACK",
		[TCP_LISTEN] = "LISTEN",
		[TCP_CLOSING] = "CLOSING",
	};

	if (state < sizeof(names) / sizeof(names[0]) && names[state])
		return names[state];
	return "UNKNOWN";
}

void mltcpctl_format_endpoint(char *buf, size_t len, uint8_t family,
			      const uint8_t *addr, uint16_t port)
{
	char a[INET6_ADDRSTRLEN];

	if (family == AF_INET6) {
		inet_ntop(AF_INET6, addr, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, port);
	} else if (family == AF_INET) {
		inet_ntop(AF_INET, addr, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, port);
	} else {
		snprintf(buf, len, "?:%u", port);
	}
}

static void format_addr(char *buf, size_t len, uint8_t family,
			const uint8_t *addr)
{
	if (family != AF_INET && family != AF_INET6) {
		snprintf(buf, len, "?");
		return;
	}
	inet_ntop(family == AF_INET ? AF_INET : AF_INET6, addr, buf,
		  (socklen_t)len);
}

static const char *q10(uint32_t v, char *buf)
{
	mltcp_format_q10(v, buf);
	return buf;
}

/* ---- a minimal JSON writer ------------------------------------------------ */

#define JW_MAX_DEPTH 8

struct jw {
	FILE *f;
	bool pretty;
	int depth;
	bool first[JW_MAX_DEPTH];
};

static void jw_indent(struct jw *w)
{
	int i;

	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("    ", w->f);
}

/* separator and, inside an object, the key */
static void jw_item(struct jw *w, const char *key)
{
	if (w->depth > 0) {
		if (!w->first[w->depth - 1])
			fputc(',', w->f);
		w->first[w->depth - 1] = false;
		jw_indent(w);
	}
	if (key)
		fprintf(w->f, w->pretty ? "\"%s\": " : "\"%s\":", key);
}

static void jw_open(struct jw *w, const char *key, char c)
{
	jw_item(w, key);
	fputc(c, w->f);
	if (w->depth < JW_MAX_DEPTH)
		w->first[w->depth] = true;
	w->depth++;
}

static void jw_close(struct jw *w, char c)
{
	bool empty = w->first[w->depth - 1];

	w->depth--;
	if (!empty)
		jw_indent(w);
	fputc(c, w->f);
}

static void jw_string(struct jw *w, const char *key, const char *s)
{
	jw_item(w, key);
	fputc('"', w->f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(w->f, "\\%c", c);
		else if (c < 0x20)
			fprintf(w->f, "\\u%04x", c);
		else
			fputc(c, w->f);
	}
	fputc('"', w->f);
}

static void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_item(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

static void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_item(w, key);
	fputs(v ? "true" : "false", w->f);
}

/* a Q10 value as a JSON number ("1.5") */
static void jw_q10(struct jw *w, const char *key, uint32_t v)
{
	char buf[24];

	jw_item(w, key);
	fputs(q10(v, buf), w->f);
}

/* a finite double with @prec decimals */
static void jw_num(struct jw *w, const char *key, double v, int prec)
{
	jw_item(w, key);
	fprintf(w->f, "%.*f", prec, v);
}

static void jw_null(struct jw *w, const char *key)
{
	jw_item(w, key);
	fputs("null", w->f);
}

static void jw_end(struct jw *w)
{
	fputc('\n', w->f);
}

/* ---- show ------------------------------------------------------------------ */

void mltcpctl_print_show(const struct mltcpctl_out *o,
			 const struct mltcpctl_params *p,
			 const struct mltcpctl_algo *algos, size_t nalgos,
			 enum mltcpctl_scope scope)
{
	bool host = scope == MLTCPCTL_SCOPE_HOST;
	char b1[24], b2[24];
	size_t i;

	if (o->json) {
		struct jw w = { .f = o->f, .pretty = o->pretty };

		jw_open(&w, NULL, '{');
		jw_u64(&w, "abi_version", p->abi_version);
		jw_q10(&w, "slope", p->slope);
		jw_u64(&w, "slope_q10", p->slope);
		jw_q10(&w, "intercept", p->intercept);
		jw_u64(&w, "intercept_q10", p->intercept);
		jw_u64(&w, "idle_ms", p->idle_ms);
		jw_string(&w, "mode", mltcpctl_mode_name(p->mode));
		jw_bool(&w, "decrease", p->decrease);
		jw_q10(&w, "stagger", p->stagger);
		jw_u64(&w, "stagger_q10", p->stagger);
		jw_q10(&w, "overrun", p->overrun);
		jw_u64(&w, "overrun_q10", p->overrun);
		if (p->has_tiebreak_key_set)
			jw_bool(&w, "tiebreak_key_set", p->tiebreak_key_set);
		else
			jw_null(&w, "tiebreak_key_set");
		jw_string(&w, "counters", host ? "host" : "netns");
		jw_open(&w, "algorithms", '[');
		for (i = 0; i < nalgos; i++) {
			jw_open(&w, NULL, '{');
			jw_string(&w, "name", algos[i].name);
			jw_u64(&w, "sockets", algos[i].sockets);
			jw_u64(&w, "sockets_total", algos[i].sockets_total);
			jw_u64(&w, "iterations_learned", algos[i].iters_learned);
			jw_u64(&w, "iterations_given", algos[i].iters_given);
			jw_close(&w, '}');
		}
		jw_close(&w, ']');
		jw_close(&w, '}');
		jw_end(&w);
		return;
	}

	fprintf(o->f, "F = slope * bytes_ratio + intercept: slope %s intercept %s\n",
		q10(p->slope, b1), q10(p->intercept, b2));
	fprintf(o->f, "decrease %s stagger %s overrun %s\n", p->decrease ? "on" : "off",
		q10(p->stagger, b1), q10(p->overrun, b2));
	fprintf(o->f, "idle_ms %u mode %s abi %u\n", p->idle_ms,
		mltcpctl_mode_name(p->mode), p->abi_version);
	/* never the key: only whether the drawn tie-breaks use an administrator's */
	if (p->has_tiebreak_key_set)
		fprintf(o->f, "tiebreak_key %s\n", p->tiebreak_key_set ?
			"set (hosts with the same key draw alike)" : "random (this host's own)");
	if (!nalgos) {
		fprintf(o->f, "no MLTCP congestion control loaded\n");
		return;
	}
	fprintf(o->f, "\ncounters of %s\n", host ? "the host (every network namespace)" :
		"this network namespace");
	fprintf(o->f, "%-16s %10s %14s %14s %14s\n", "Algorithm", "Sockets",
		"SocketsTotal", "ItersLearned", "ItersGiven");
	for (i = 0; i < nalgos; i++)
		fprintf(o->f, "%-16s %10" PRIu64 " %14" PRIu64 " %14" PRIu64
			" %14" PRIu64 "\n", algos[i].name, algos[i].sockets,
			algos[i].sockets_total, algos[i].iters_learned,
			algos[i].iters_given);
}

/* ---- sockets --------------------------------------------------------------- */

static void print_sock_json(struct jw *w, const struct mltcpctl_sock *s)
{
	char a[INET6_ADDRSTRLEN];

	jw_open(w, NULL, '{');
	jw_string(w, "family", s->family == AF_INET6 ? "inet6" :
		  s->family == AF_INET ? "inet" : "unknown");
	format_addr(a, sizeof(a), s->family, s->saddr);
	jw_string(w, "src", a);
	jw_u64(w, "sport", s->sport);
	format_addr(a, sizeof(a), s->family, s->daddr);
	jw_string(w, "dst", a);
	jw_u64(w, "dport", s->dport);
	/* "state" is the TCP state; "phase" MLTCP's (null from a module before ABI 3) */
	jw_string(w, "state", mltcpctl_tcp_state_name(s->tcp_state));
	jw_u64(w, "inode", s->inode);
	jw_string(w, "algo", s->algo);
	jw_string(w, "mode", mltcpctl_mode_name(s->mode));
	if (s->has_phase)
		jw_string(w, "phase", mltcpctl_phase_name(s->phase));
	else
		jw_null(w, "phase");
	jw_bool(w, "size_given", s->flags & MLTCP_INFO_F_SIZE_GIVEN);
	jw_bool(w, "bounds_given", s->flags & MLTCP_INFO_F_BOUNDS_GIVEN);
	jw_u64(w, "iterations", s->iterations);
	jw_u64(w, "bytes_this_iter", s->bytes_this_iter);
	jw_u64(w, "bytes_per_iter", s->bytes_per_iter);
	jw_q10(w, "bytes_ratio", s->bytes_ratio);
	jw_u64(w, "bytes_ratio_q10", s->bytes_ratio);
	jw_q10(w, "f", s->f);
	jw_u64(w, "f_q10", s->f);
	jw_u64(w, "cwnd", s->cwnd);
	jw_bool(w, "tiebreak_given", s->flags & MLTCP_INFO_F_TIEBREAK_GIVEN);
	jw_q10(w, "tiebreak", s->tiebreak);
	jw_u64(w, "tiebreak_q10", s->tiebreak);
	jw_close(w, '}');
}

void mltcpctl_print_sockets(const struct mltcpctl_out *o,
			    const struct mltcpctl_sock *socks, size_t nsocks)
{
	char local[64], peer[64], r[24], f[24], t[24], hint[4];
	size_t i;

	if (o->json) {
		struct jw w = { .f = o->f, .pretty = o->pretty };

		jw_open(&w, NULL, '[');
		for (i = 0; i < nsocks; i++)
			print_sock_json(&w, &socks[i]);
		jw_close(&w, ']');
		jw_end(&w);
		return;
	}

	fprintf(o->f, "%-10s %-28s %-28s %-12s %-8s %-4s %8s %14s %14s %6s %6s %6s %6s\n",
		"State", "Local Address:Port", "Peer Address:Port", "Algorithm",
		"Phase", "Hint", "Iters", "BytesThisIter", "BytesPerIter", "Ratio", "F",
		"Cwnd", "Tie");
	for (i = 0; i < nsocks; i++) {
		const struct mltcpctl_sock *s = &socks[i];

		mltcpctl_format_endpoint(local, sizeof(local), s->family,
					 s->saddr, s->sport);
		mltcpctl_format_endpoint(peer, sizeof(peer), s->family,
					 s->daddr, s->dport);
		/* S: size, B: boundaries, T: tie-break given; -: learned/the connection's */
		hint[0] = s->flags & MLTCP_INFO_F_SIZE_GIVEN ? 'S' : '-';
		hint[1] = s->flags & MLTCP_INFO_F_BOUNDS_GIVEN ? 'B' : '-';
		hint[2] = s->flags & MLTCP_INFO_F_TIEBREAK_GIVEN ? 'T' : '-';
		hint[3] = '\0';
		fprintf(o->f, "%-10s %-28s %-28s %-12s %-8s %-4s %8u %14" PRIu64
			" %14" PRIu64 " %6s %6s %6u %6s\n",
			mltcpctl_tcp_state_name(s->tcp_state), local, peer, s->algo,
			s->has_phase ? mltcpctl_phase_name(s->phase) : "-",
			hint, s->iterations, s->bytes_this_iter,
			s->bytes_per_iter, q10(s->bytes_ratio, r), q10(s->f, f),
			s->cwnd, q10(s->tiebreak, t));
	}
}

/* ---- metrics --------------------------------------------------------------- */

/* A label value of the text format: backslash, double quote and newline escaped */
static void prom_label(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

static void prom_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* name{algo="A"[,boundary="B"]} V */
static void prom_algo(FILE *f, const char *name, const char *algo, const char *boundary,
		      uint64_t v)
{
	fprintf(f, "%s{algo=\"", name);
	prom_label(f, algo);
	if (boundary)
		fprintf(f, "\",boundary=\"%s", boundary);
	fprintf(f, "\"} %" PRIu64 "\n", v);
}

void mltcpctl_print_metrics(FILE *f, const struct mltcpctl_params *p,
			    const struct mltcpctl_algo *algos, size_t nalgos,
			    enum mltcpctl_scope scope,
			    const struct mltcpctl_sock *socks, size_t nsocks)
{
	const char *where = scope == MLTCPCTL_SCOPE_HOST ? "the host" :
			    "this network namespace";
	uint64_t per_phase[__MLTCP_ABI_PHASE_MAX + 2] = { 0 };	/* the last: unknown */
	unsigned int m;
	size_t i;
	char help[160];

	prom_family(f, "mltcp_mode", "gauge", "The global MLTCP mode: 1 for the one in force.");
	for (m = MLTCP_ABI_MODE_LEARNED; m <= __MLTCP_ABI_MODE_MAX; m++)
		fprintf(f, "mltcp_mode{mode=\"%s\"} %d\n", mltcpctl_mode_name(m), m == p->mode);

	snprintf(help, sizeof(help), "MLTCP connections open now, by congestion control, in %s.",
		 where);
	prom_family(f, "mltcp_sockets", "gauge", help);
	for (i = 0; i < nalgos; i++)
		prom_algo(f, "mltcp_sockets", algos[i].name, NULL, algos[i].sockets);
	snprintf(help, sizeof(help),
		 "MLTCP connections opened since the congestion control loaded, in %s.", where);
	prom_family(f, "mltcp_sockets_opened_total", "counter", help);
	for (i = 0; i < nalgos; i++)
		prom_algo(f, "mltcp_sockets_opened_total", algos[i].name, NULL,
			  algos[i].sockets_total);
	snprintf(help, sizeof(help),
		 "Iterations completed, by boundary: learned from an idle gap or given by a mark, in %s.",
		 where);
	prom_family(f, "mltcp_iterations_total", "counter", help);
	for (i = 0; i < nalgos; i++) {
		prom_algo(f, "mltcp_iterations_total", algos[i].name, "learned",
			  algos[i].iters_learned);
		prom_algo(f, "mltcp_iterations_total", algos[i].name, "given",
			  algos[i].iters_given);
	}

	for (i = 0; i < nsocks; i++)
		per_phase[socks[i].has_phase && socks[i].phase <= __MLTCP_ABI_PHASE_MAX ?
			  socks[i].phase : __MLTCP_ABI_PHASE_MAX + 1]++;
	prom_family(f, "mltcp_phase_sockets", "gauge",
		    "MLTCP connections of this network namespace in each phase (mltcpctl sockets).");
	for (m = 0; m <= __MLTCP_ABI_PHASE_MAX; m++)
		fprintf(f, "mltcp_phase_sockets{phase=\"%s\"} %" PRIu64 "\n",
			mltcpctl_phase_name(m), per_phase[m]);
	if (per_phase[m])
		fprintf(f, "mltcp_phase_sockets{phase=\"unknown\"} %" PRIu64 "\n", per_phase[m]);
}

int mltcpctl_replace_file(const char *path, const char *buf, size_t len, char *err,
			  size_t errlen)
{
	const char *what = "write";
	char tmp[PATH_MAX];
	int fd, e;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "%s: cannot create a file beside it: %s", path, strerror(e));
		return -1;
	}
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = EIO;
		if (n <= 0)
			goto fail;
		buf += n;
		len -= (size_t)n;
	}
	what = "fsync";
	if (fsync(fd) < 0)
		goto fail;
	what = "chmod";
	if (fchmod(fd, 0644) < 0)
		goto fail;
	what = "close";
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	what = "rename";
	if (rename(tmp, path) < 0)
		goto fail;
	return 0;
fail:
	e = errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	snprintf(err, errlen, "%s: %s: %s", path, what, strerror(e));
	return -1;
}

/* ---- compat ---------------------------------------------------------------- */

void mltcpctl_format_rate(char *buf, size_t len, double bps)
{
	static const char *const units[] = { "bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s" };
	unsigned int u = 0;

	while (u + 1 < sizeof(units) / sizeof(units[0]) && bps >= 1000) {
		bps /= 1000;
		u++;
	}
	snprintf(buf, len, "%g%s", bps, units[u]);
}

static const char *const by_names[] = {
	[MLTCPCTL_BY_DPORT] = "dport", [MLTCPCTL_BY_SRC] = "src", [MLTCPCTL_BY_DST] = "dst",
};

/* A job's compute time and bytes, over its segments */
static void job_sums(const struct jc_job *job, double *compute_ms, double *bytes)
{
	unsigned int s;

	*compute_ms = 0;
	*bytes = 0;
	for (s = 0; s < job->nseg; s++) {
		*compute_ms += job->seg[s].compute_ms;
		*bytes += job->seg[s].bytes;
	}
}

static void print_compat_link_json(struct jw *w, const struct mltcpctl_compat *c,
				   const struct mltcpctl_compat_link *l)
{
	const struct jc_link_result *r = &l->res;
	unsigned int i, s;

	jw_open(w, NULL, '{');
	jw_string(w, "name", l->name);
	jw_num(w, "rate_bps", l->link.rate_bps, 0);
	jw_num(w, "overlap", r->overlap, 4);
	jw_bool(w, "compatible", r->compatible);
	jw_num(w, "perimeter_ms", r->perimeter_ms, 3);
	jw_num(w, "stretch", r->stretch, 6);
	if (c->schedule)
		jw_num(w, "schedule_overlap", l->sched_overlap, 4);
	jw_open(w, "jobs", '[');
	for (i = 0; i < l->link.njobs; i++) {
		unsigned int j = l->link.job[i];
		const struct jc_job *job = &c->jobs[j];

		jw_open(w, NULL, '{');
		jw_string(w, "name", c->info[j].name);
		jw_open(w, "segments", '[');
		for (s = 0; s < job->nseg; s++) {
			jw_open(w, NULL, '{');
			jw_num(w, "compute_ms", job->seg[s].compute_ms, 3);
			jw_num(w, "bytes", job->seg[s].bytes, 0);
			jw_close(w, '}');
		}
		jw_close(w, ']');
		if (c->trace) {
			jw_u64(w, "records", c->info[j].records);
			jw_u64(w, "connections", c->info[j].conns);
			jw_num(w, "duration_ms", c->info[j].duration_ms, 3);
		}
		jw_num(w, "ideal_ms", r->ideal_ms[i], 3);
		jw_num(w, "fair_ms", r->fair_ms[i], 3);
		jw_num(w, "interleaved_ms", r->interleaved_ms[i], 3);
		jw_num(w, "shift_ms", r->shift_ms[i], 3);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_close(w, '}');
}

static void print_compat_json(const struct mltcpctl_out *o, const struct mltcpctl_compat *c)
{
	struct jw w = { .f = o->f, .pretty = o->pretty };
	unsigned int i;

	jw_open(&w, NULL, '{');
	jw_num(&w, "threshold", c->threshold, 4);
	jw_string(&w, "source", c->trace ? "trace" : "profile");
	if (c->trace)
		jw_string(&w, "by", by_names[c->by]);
	jw_open(&w, "links", '[');
	for (i = 0; i < c->nlinks; i++)
		print_compat_link_json(&w, c, &c->links[i]);
	jw_close(&w, ']');
	if (c->schedule) {
		jw_open(&w, "schedule", '{');
		jw_num(&w, "overlap_sum", c->sched_sum, 4);
		jw_open(&w, "jobs", '[');
		for (i = 0; i < c->njobs; i++) {
			jw_open(&w, NULL, '{');
			jw_string(&w, "name", c->info[i].name);
			jw_num(&w, "shift_ms", c->shift_ms[i], 3);
			jw_close(&w, '}');
		}
		jw_close(&w, ']');
		jw_close(&w, '}');
	}
	jw_close(&w, '}');
	jw_end(&w);
}

static void print_compat_link(const struct mltcpctl_out *o, const struct mltcpctl_compat *c,
			      const struct mltcpctl_compat_link *l)
{
	const struct jc_link_result *r = &l->res;
	char rate[32];
	unsigned int i;

	mltcpctl_format_rate(rate, sizeof(rate), l->link.rate_bps);
	fprintf(o->f, "link %s, %s, %u job%s: %s, overlap %.4f (threshold %g)\n", l->name, rate,
		l->link.njobs, l->link.njobs == 1 ? "" : "s",
		r->compatible ? "compatible" : "NOT compatible", r->overlap, c->threshold);
	if (l->link.njobs >= 2 && r->stretch > 0)
		fprintf(o->f, "circle %.3f ms, iteration times stretched by up to %.2f%%\n",
			r->perimeter_ms, 100 * r->stretch);
	else if (l->link.njobs >= 2)
		fprintf(o->f, "circle %.3f ms (a common multiple of the iteration times)\n",
			r->perimeter_ms);
	fprintf(o->f, "%-16s %4s %10s %14s %10s %10s %13s %10s%s\n", "Job", "Segs", "ComputeMs",
		"Bytes", "IdealMs", "FairMs", "InterleavedMs", "ShiftMs",
		c->trace ? "    Records" : "");
	for (i = 0; i < l->link.njobs; i++) {
		unsigned int j = l->link.job[i];
		const struct jc_job *job = &c->jobs[j];
		double compute_ms, bytes;

		job_sums(job, &compute_ms, &bytes);
		fprintf(o->f, "%-16s %4u %10.3f %14.0f %10.3f %10.3f %13.3f %10.3f",
			c->info[j].name, job->nseg, compute_ms, bytes,
			r->ideal_ms[i], r->fair_ms[i], r->interleaved_ms[i], r->shift_ms[i]);
		if (c->trace)
			fprintf(o->f, " %10u", c->info[j].records);
		fputc('\n', o->f);
	}
}

void mltcpctl_print_compat(const struct mltcpctl_out *o, const struct mltcpctl_compat *c)
{
	unsigned int i;

	if (o->json) {
		print_compat_json(o, c);
		return;
	}
	if (c->trace)
		fprintf(o->f,
			"jobs: mltcp_iteration records grouped by %s; profiles estimated, one segment each\n\n",
			by_names[c->by]);
	for (i = 0; i < c->nlinks; i++) {
		if (i)
			fputc('\n', o->f);
		print_compat_link(o, c, &c->links[i]);
	}
	if (!c->schedule)
		return;
	fprintf(o->f,
		"\nschedule: one shift per job on every link, overlap summed over links %.4f\n",
		c->sched_sum);
	fprintf(o->f, "%-16s %10s\n", "Job", "ShiftMs");
	for (i = 0; i < c->njobs; i++)
		fprintf(o->f, "%-16s %10.3f\n", c->info[i].name, c->shift_ms[i]);
	fprintf(o->f, "%-16s %10s\n", "Link", "Overlap");
	for (i = 0; i < c->nlinks; i++)
		fprintf(o->f, "%-16s %10.4f\n", c->links[i].name, c->links[i].sched_overlap);
}
