// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl compat: reading profile files and mltcp_iteration traces, and
 * evaluating them with jobcompat (formats: mltcpctl.8).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "compat.h"
#include "parse.h"

#define MAX_WORDS	(3 + JC_MAX_JOBS + 1)

static int failf(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * Reads the next line of @f into @line (MLTCPCTL_COMPAT_LINE + 2 bytes),
 * counting it in @lineno. Return: 1, 0 at the end, or -1 for a line too
 * long or a read error, with the message in @err.
 */
static int read_line(FILE *f, const char *fname, char *line, unsigned int *lineno,
		     char *err, size_t errlen)
{
	if (!fgets(line, MLTCPCTL_COMPAT_LINE + 2, f)) {
		if (ferror(f))
			return failf(err, errlen, -1, "%s: read error: %s", fname,
				     strerror(errno ? errno : EIO));
		return 0;
	}
	++*lineno;
	if (!strchr(line, '\n') && !feof(f))
		return failf(err, errlen, -1, "%s:%u: longer than %d characters", fname,
			     *lineno, MLTCPCTL_COMPAT_LINE);
	return 1;
}

/* 1 to JC_NAME_LEN - 1 letters, digits, '.', '_' and '-' */
static bool valid_name(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-");

	return n && !s[n] && n < JC_NAME_LEN;
}

static int find_job(const struct mltcpctl_compat *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->njobs; i++)
		if (!strcmp(c->info[i].name, name))
			return (int)i;
	return -1;
}

static bool link_has(const struct jc_link *l, unsigned int j)
{
	unsigned int i;

	for (i = 0; i < l->njobs; i++)
		if (l->job[i] == j)
			return true;
	return false;
}

/* ---- profile files ------------------------------------------------------- */

/* "NAME COMPUTE_MS:BYTES[,COMPUTE_MS:BYTES...] [...]" */
static int profile_job(struct mltcpctl_compat *c, char **w, int nw, const char *where,
		       char *err, size_t errlen)
{
	struct jc_job *job = &c->jobs[c->njobs];
	const char *why;
	int i;

	if (!valid_name(w[0]))
		return failf(err, errlen, -1,
			     "%s: invalid job name '%s' (1 to %d letters, digits, '.', '_', '-')",
			     where, w[0], JC_NAME_LEN - 1);
	if (find_job(c, w[0]) >= 0)
		return failf(err, errlen, -1, "%s: job '%s' defined twice", where, w[0]);
	if (c->njobs == JC_MAX_JOBS)
		return failf(err, errlen, -1, "%s: more than %d jobs", where, JC_MAX_JOBS);
	if (nw < 2)
		return failf(err, errlen, -1,
			     "%s: job '%s' has no segments (NAME COMPUTE_MS:BYTES[,COMPUTE_MS:BYTES...])",
			     where, w[0]);
	memset(job, 0, sizeof(*job));
	snprintf(job->name, sizeof(job->name), "%s", w[0]);
	for (i = 1; i < nw; i++) {
		char *save = NULL, *seg;

		if (w[i][0] == ',' || w[i][strlen(w[i]) - 1] == ',' || strstr(w[i], ",,"))
			return failf(err, errlen, -1, "%s: job '%s': empty segment in '%s'", where,
				     w[0], w[i]);
		for (seg = strtok_r(w[i], ",", &save); seg; seg = strtok_r(NULL, ",", &save)) {
			struct jc_segment *s = &job->seg[job->nseg];
			char *colon = strchr(seg, ':');

			if (job->nseg == JC_MAX_SEGMENTS)
				return failf(err, errlen, -1, "%s: job '%s': more than %d segments",
					     where, w[0], JC_MAX_SEGMENTS);
			if (!colon)
				return failf(err, errlen, -1,
					     "%s: job '%s': segment '%s' is not COMPUTE_MS:BYTES",
					     where, w[0], seg);
			*colon = '\0';
			if (mltcpctl_parse_decimal(seg, &s->compute_ms) ||
			    s->compute_ms > JC_MAX_COMPUTE_MS)
				return failf(err, errlen, -1,
					     "%s: job '%s': invalid compute time '%s' (milliseconds, a decimal from 0 to 3600000)",
					     where, w[0], seg);
			if (mltcpctl_parse_bytes(colon + 1, &s->bytes))
				return failf(err, errlen, -1,
					     "%s: job '%s': invalid byte count '%s' (e.g. 1250000, 1.25M, 64KiB; 1 byte to 10^15)",
					     where, w[0], colon + 1);
			job->nseg++;
		}
	}
	if (!jc_job_valid(job, &why))
		return failf(err, errlen, -1, "%s: job '%s': %s", where, w[0], why);
	snprintf(c->info[c->njobs].name, sizeof(c->info[0].name), "%s", w[0]);
	c->njobs++;
	return 0;
}

/* "link NAME RATE JOB [JOB...]" */
static int profile_link(struct mltcpctl_compat *c, char **w, int nw, const char *where,
			char *err, size_t errlen)
{
	struct mltcpctl_compat_link *l = &c->links[c->nlinks];
	unsigned int i;
	int j, k;

	if (nw - 3 > JC_MAX_JOBS)
		return failf(err, errlen, -1, "%s: more than %d jobs on a link", where,
			     JC_MAX_JOBS);
	if (nw < 4)
		return failf(err, errlen, -1, "%s: a link line is: link NAME RATE JOB [JOB...]",
			     where);
	if (!valid_name(w[1]))
		return failf(err, errlen, -1,
			     "%s: invalid link name '%s' (1 to %d letters, digits, '.', '_', '-')",
			     where, w[1], JC_NAME_LEN - 1);
	for (i = 0; i < c->nlinks; i++)
		if (!strcmp(c->links[i].name, w[1]))
			return failf(err, errlen, -1, "%s: link '%s' defined twice", where, w[1]);
	if (c->nlinks == JC_MAX_LINKS)
		return failf(err, errlen, -1, "%s: more than %d links", where, JC_MAX_LINKS);
	memset(l, 0, sizeof(*l));
	if (mltcpctl_parse_rate(w[2], &l->link.rate_bps))
		return failf(err, errlen, -1,
			     "%s: link '%s': invalid rate '%s' (a decimal and a unit, e.g. 10gbit, 25Gbps, 100mbit)",
			     where, w[1], w[2]);
	for (k = 3; k < nw; k++) {
		j = find_job(c, w[k]);
		if (j < 0)
			return failf(err, errlen, -1,
				     "%s: link '%s': unknown job '%s' (define a job above the links it is on)",
				     where, w[1], w[k]);
		if (link_has(&l->link, (unsigned int)j))
			return failf(err, errlen, -1, "%s: link '%s': job '%s' given twice",
				     where, w[1], w[k]);
		l->link.job[l->link.njobs++] = (unsigned int)j;
	}
	snprintf(l->name, sizeof(l->name), "%s", w[1]);
	c->nlinks++;
	return 0;
}

/* The one link of a file without link lines, or of a trace: every job, at @rate_bps */
static void one_link(struct mltcpctl_compat *c, double rate_bps)
{
	struct mltcpctl_compat_link *l = &c->links[0];
	unsigned int i;

	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "link");
	l->link.rate_bps = rate_bps;
	for (i = 0; i < c->njobs; i++)
		l->link.job[l->link.njobs++] = i;
	c->nlinks = 1;
}

int mltcpctl_compat_read_profile(FILE *f, const char *fname, double rate_bps,
				 struct mltcpctl_compat *c, char *err, size_t errlen)
{
	char line[MLTCPCTL_COMPAT_LINE + 2], where[256], *w[MAX_WORDS], *save = NULL, *t;
	static const char blanks[] = " \t\r\n";
	unsigned int lineno = 0, i, j;
	int nw, ret;

	memset(c, 0, sizeof(*c));
	while ((ret = read_line(f, fname, line, &lineno, err, errlen)) > 0) {
		line[strcspn(line, "#")] = '\0';
		nw = 0;
		for (t = strtok_r(line, blanks, &save); t; t = strtok_r(NULL, blanks, &save)) {
			if (nw == MAX_WORDS)
				return failf(err, errlen, -1, "%s:%u: more than %d words", fname,
					     lineno, MAX_WORDS);
			w[nw++] = t;
		}
		if (!nw)
			continue;
		snprintf(where, sizeof(where), "%.200s:%u", fname, lineno);
		if (!strcmp(w[0], "link"))
			ret = profile_link(c, w, nw, where, err, errlen);
		else
			ret = profile_job(c, w, nw, where, err, errlen);
		if (ret)
			return ret;
	}
	if (ret < 0)
		return ret;
	if (!c->njobs)
		return failf(err, errlen, -1, "%s: no jobs (lines NAME COMPUTE_MS:BYTES[,...])",
			     fname);
	if (!c->nlinks) {
		if (!rate_bps)
			return failf(err, errlen, MLTCPCTL_COMPAT_EUSAGE,
				     "compat: %s has no link lines: give the link's rate with --rate",
				     fname);
		one_link(c, rate_bps);
		return 0;
	}
	for (i = 0; i < c->njobs; i++) {
		bool found = false;

		for (j = 0; j < c->nlinks && !found; j++)
			found = link_has(&c->links[j].link, i);
		if (!found)
			return failf(err, errlen, -1, "%s: job '%s' is on no link", fname,
				     c->info[i].name);
	}
	if (rate_bps)
		return failf(err, errlen, MLTCPCTL_COMPAT_EUSAGE,
			     "compat: the link lines of %s give the rates: drop --rate", fname);
	return 0;
}

/* ---- mltcp_iteration traces ---------------------------------------------- */

/* A connection: addresses IPv6, v4-mapped for IPv4 (no padding: memcmp compares it) */
struct conn {
	uint8_t saddr[16];
	uint8_t daddr[16];
	uint16_t sport;
	uint16_t dport;
};

/**
 * struct rec - one mltcp_iteration record
 * @job: the job its key groups it into
 * @conn: its connection
 * @bytes: the iteration's bytes
 * @duration_ms: its duration
 */
struct rec {
	unsigned int job;
	struct conn conn;
	double bytes;
	double duration_ms;
};

/* job, then connection, then bytes: each connection's records in a run, sorted by size */
static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int d;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	d = memcmp(&x->conn, &y->conn, sizeof(x->conn));
	if (d)
		return d;
	return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n sorted values */
static double median(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "[ADDR]:PORT" (the tracepoint's %pI6c, or a plain IPv4 address) */
static int parse_endpoint(const char *s, uint8_t addr[16], uint16_t *port)
{
	const char *close = strchr(s, ']');
	char a[INET6_ADDRSTRLEN];
	uint8_t v4[4];
	uint32_t p;
	size_t n;

	if (s[0] != '[' || !close || close[1] != ':')
		return -1;
	n = (size_t)(close - s - 1);
	if (!n || n >= sizeof(a))
		return -1;
	memcpy(a, s + 1, n);
	a[n] = '\0';
	if (inet_pton(AF_INET, a, v4) == 1) {
		memset(addr, 0, 10);
		addr[10] = addr[11] = 0xff;
		memcpy(addr + 12, v4, 4);
	} else if (inet_pton(AF_INET6, a, addr) != 1) {
		return -1;
	}
	if (mltcpctl_parse_u32(close + 2, &p) || p > 65535)
		return -1;
	*port = (uint16_t)p;
	return 0;
}

/* An address as text, IPv4 for a v4-mapped one */
static void format_addr(char *buf, size_t len, const uint8_t addr[16])
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (!memcmp(addr, mapped, sizeof(mapped)))
		inet_ntop(AF_INET, addr + 12, buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, addr, buf, (socklen_t)len);
}

static int parse_u64(const char *s, double *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = (double)v;
	return 0;
}

/* The fields of a record after "mltcp_iteration:"; unknown ones are skipped */
static int parse_record(char *fields, struct rec *r, const char *where, char *err,
			size_t errlen)
{
	enum { F_SRC = 1, F_DST = 2, F_BYTES = 4, F_DURATION = 8 };
	unsigned int have = 0, bit;
	char *save = NULL, *t;
	uint32_t u;
	int bad;

	for (t = strtok_r(fields, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		char *val = strchr(t, '=');

		if (!val)
			return failf(err, errlen, -1, "%s: '%s' is not KEY=VALUE", where, t);
		*val++ = '\0';
		if (!strcmp(t, "src")) {
			bit = F_SRC;
			bad = parse_endpoint(val, r->conn.saddr, &r->conn.sport);
		} else if (!strcmp(t, "dst")) {
			bit = F_DST;
			bad = parse_endpoint(val, r->conn.daddr, &r->conn.dport);
		} else if (!strcmp(t, "bytes")) {
			bit = F_BYTES;
			bad = parse_u64(val, &r->bytes);
		} else if (!strcmp(t, "duration_ms")) {
			bit = F_DURATION;
			bad = mltcpctl_parse_u32(val, &u);
			r->duration_ms = u;
		} else {
			continue;	/* source, bytes_per_iter, iterations, later fields */
		}
		if (bad)
			return failf(err, errlen, -1, "%s: invalid %s '%s'", where, t, val);
		if (have & bit)
			return failf(err, errlen, -1, "%s: %s given twice", where, t);
		have |= bit;
	}
	if (have != (F_SRC | F_DST | F_BYTES | F_DURATION))
		return failf(err, errlen, -1,
			     "%s: an mltcp_iteration record without %s", where,
			     !(have & F_SRC) ? "src" : !(have & F_DST) ? "dst" :
			     !(have & F_BYTES) ? "bytes" : "duration_ms");
	return 0;
}

/* The job of @r's key, a new one for a new key */
static int record_job(struct mltcpctl_compat *c, struct rec *r, int by, const char *where,
		      char *err, size_t errlen)
{
	char key[MLTCPCTL_COMPAT_KEY_LEN];
	int j;

	if (by == MLTCPCTL_BY_DPORT)
		snprintf(key, sizeof(key), "%u", r->conn.dport);
	else
		format_addr(key, sizeof(key),
			    by == MLTCPCTL_BY_SRC ? r->conn.saddr : r->conn.daddr);
	j = find_job(c, key);
	if (j < 0) {
		if (c->njobs == JC_MAX_JOBS)
			return failf(err, errlen, -1, "%s: more than %d jobs (keys)", where,
				     JC_MAX_JOBS);
		j = (int)c->njobs++;
		snprintf(c->info[j].name, sizeof(c->info[j].name), "%s", key);
		/* an IPv6 key may be longer than a jobcompat name: cut there only */
		snprintf(c->jobs[j].name, sizeof(c->jobs[j].name), "%.*s", JC_NAME_LEN - 1, key);
	}
	r->job = (unsigned int)j;
	return 0;
}

/* Each job's profile from its records, sorted by rec_cmp(); @tmp: room for the durations */
static int estimate(struct mltcpctl_compat *c, const struct rec *recs, size_t n, double rate_bps,
		    double *tmp, const char *fname, char *err, size_t errlen)
{
	size_t i = 0, k, conn;
	unsigned int j;

	while (i < n) {
		struct mltcpctl_compat_job *info = &c->info[recs[i].job];
		struct jc_job *job = &c->jobs[recs[i].job];
		double bytes = 0;

		/* one job's records: i to k; each connection's: conn to the next */
		for (k = i; k < n && recs[k].job == recs[i].job; k++)
			tmp[k - i] = recs[k].duration_ms;
		qsort(tmp, k - i, sizeof(*tmp), dbl_cmp);
		info->duration_ms = median(tmp, k - i);
		info->records = (unsigned int)(k - i);
		for (conn = i; conn < k; info->conns++) {
			size_t end = conn;

			for (; end < k && !memcmp(&recs[end].conn, &recs[conn].conn,
						      sizeof(recs[conn].conn)); end++)
				tmp[end - conn] = recs[end].bytes;
			bytes += median(tmp, end - conn);
			conn = end;
		}
		if (bytes < 1)
			return failf(err, errlen, -1, "%s: job '%s': its records carry no bytes",
				     fname, info->name);
		job->nseg = 1;
		job->seg[0].bytes = fmin(bytes, JC_MAX_BYTES);
		job->seg[0].compute_ms = fmin(fmax(0, info->duration_ms - job->seg[0].bytes *
						   8000.0 / rate_bps), JC_MAX_COMPUTE_MS);
		i = k;
	}
	for (j = 0; j < c->njobs; j++)
		if (!jc_job_valid(&c->jobs[j], NULL))
			return failf(err, errlen, -1, "%s: job '%s': no valid profile", fname,
				     c->info[j].name);
	return 0;
}

int mltcpctl_compat_read_trace(FILE *f, const char *fname, int by, double rate_bps,
			       struct mltcpctl_compat *c, char *err, size_t errlen)
{
	char line[MLTCPCTL_COMPAT_LINE + 2], where[256], *p;
	struct rec *recs = NULL, *grown;
	size_t n = 0, cap = 0;
	unsigned int lineno = 0;
	double *tmp;
	int ret;

	memset(c, 0, sizeof(*c));
	c->trace = true;
	c->by = by;
	while ((ret = read_line(f, fname, line, &lineno, err, errlen)) > 0) {
		p = strstr(line, "mltcp_iteration:");
		if (!p)
			continue;
		snprintf(where, sizeof(where), "%.200s:%u", fname, lineno);
		if (n == MLTCPCTL_COMPAT_RECORDS) {
			ret = failf(err, errlen, -1, "%s: more than %d records: cut the trace",
				    where, MLTCPCTL_COMPAT_RECORDS);
			break;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			grown = realloc(recs, cap * sizeof(*recs));
			if (!grown) {
				ret = failf(err, errlen, -1, "%s: out of memory", fname);
				break;
			}
			recs = grown;
		}
		memset(&recs[n], 0, sizeof(recs[n]));
		ret = parse_record(p + strlen("mltcp_iteration:"), &recs[n], where, err, errlen);
		if (!ret)
			ret = record_job(c, &recs[n], by, where, err, errlen);
		if (ret)
			break;
		n++;
	}
	if (!ret && !n)
		ret = failf(err, errlen, -1,
			    "%s: no mltcp_iteration records (enable the event: echo 1 > /sys/kernel/tracing/events/mltcp/mltcp_iteration/enable)",
			    fname);
	if (!ret) {
		qsort(recs, n, sizeof(*recs), rec_cmp);
		tmp = malloc(n * sizeof(*tmp));
		ret = tmp ? estimate(c, recs, n, rate_bps, tmp, fname, err, errlen) :
			    failf(err, errlen, -1, "%s: out of memory", fname);
		free(tmp);
	}
	free(recs);
	if (!ret)
		one_link(c, rate_bps);
	return ret;
}

/* ---- evaluation ---------------------------------------------------------- */

int mltcpctl_compat_eval(struct mltcpctl_compat *c, double threshold)
{
	double overlap[JC_MAX_LINKS];
	struct jc_link *links;
	unsigned int l;
	int err;

	c->threshold = threshold;
	for (l = 0; l < c->nlinks; l++) {
		err = jc_link_eval(c->jobs, &c->links[l].link, threshold, &c->links[l].res);
		if (err)
			return err;
	}
	c->schedule = c->nlinks > 1;
	if (!c->schedule)
		return 0;
	links = malloc(c->nlinks * sizeof(*links));
	if (!links)
		return -ENOMEM;
	for (l = 0; l < c->nlinks; l++)
		links[l] = c->links[l].link;
	err = jc_schedule(c->jobs, c->njobs, links, c->nlinks, c->shift_ms, overlap);
	free(links);
	c->sched_sum = 0;
	for (l = 0; !err && l < c->nlinks; l++) {
		c->links[l].sched_overlap = overlap[l];
		c->sched_sum += overlap[l];
	}
	return err;
}
