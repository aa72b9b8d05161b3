// SPDX-License-Identifier: GPL-2.0
/* mltcp-bench record files (formats in records.h). */
#define _GNU_SOURCE
#include "records.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void put_num(FILE *f, double v, const char *fmt, const char *unknown)
{
	if (isnan(v))
		fputs(unknown, f);
	else
		fprintf(f, fmt, v);
}

int records_write_iterations_csv(FILE *f, const struct iter_rec *it, size_t n)
{
	fputs("mode,job,name,cc,iter,start_ms,end_ms,comm_start_ms,comm_end_ms,bytes,"
	      "iter_ms,comm_ms,overlap,contended,drops,marks,link_overlap\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		const struct iter_rec *r = &it[i];

		fprintf(f, "%s,%u,%s,%s,%u,%.3f,%.3f,%.3f,%.3f,%" PRIu64 ",%.3f,", mode_name(r->mode),
			r->job, r->name, r->cc, r->iter, r->start, r->end, r->comm_start,
			r->comm_end, r->bytes, r->end - r->start);
		put_num(f, r->comm_ms, "%.3f", "");
		fputc(',', f);
		put_num(f, r->overlap, "%.4f", "");
		fprintf(f, ",%d,", r->contended);
		put_num(f, r->drops, "%.1f", "");
		fputc(',', f);
		put_num(f, r->marks, "%.1f", "");
		fputc(',', f);
		put_num(f, r->link_overlap, "%.4f", "");
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

int records_write_iterations_jsonl(FILE *f, const struct iter_rec *it, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct iter_rec *r = &it[i];

		/* name and cc are restricted to [A-Za-z0-9._-] by the profile parser */
		fprintf(f,
			"{\"mode\":\"%s\",\"job\":%u,\"name\":\"%s\",\"cc\":\"%s\",\"iter\":%u,"
			"\"start_ms\":%.3f,\"end_ms\":%.3f,\"comm_start_ms\":%.3f,"
			"\"comm_end_ms\":%.3f,\"bytes\":%" PRIu64 ",\"iter_ms\":%.3f,\"comm_ms\":",
			mode_name(r->mode), r->job, r->name, r->cc, r->iter, r->start, r->end,
			r->comm_start, r->comm_end, r->bytes, r->end - r->start);
		put_num(f, r->comm_ms, "%.3f", "null");
		fputs(",\"overlap\":", f);
		put_num(f, r->overlap, "%.4f", "null");
		fprintf(f, ",\"contended\":%s,\"drops\":", r->contended ? "true" : "false");
		put_num(f, r->drops, "%.1f", "null");
		fputs(",\"marks\":", f);
		put_num(f, r->marks, "%.1f", "null");
		fputs(",\"link_overlap\":", f);
		put_num(f, r->link_overlap, "%.4f", "null");
		fputs("}\n", f);
	}
	return ferror(f) ? -1 : 0;
}

int records_write_phases_csv(FILE *f, const struct phase_rec *ph, size_t n)
{
	fputs("mode,job,iter,phase,start_ms,end_ms,bytes\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s,%u,%u,%u,%.3f,%.3f,%" PRIu64 "\n", mode_name(ph[i].mode), ph[i].job,
			ph[i].iter, ph[i].phase, ph[i].start, ph[i].end, ph[i].bytes);
	return ferror(f) ? -1 : 0;
}

/* ---- reading ---- */

#define MAX_COLS 64

struct csv {
	FILE *f;
	const char *src;
	char *line;
	size_t cap;
	unsigned lineno;
	char *field[MAX_COLS];
	size_t nfield;
};

/* Next non-empty line split at commas; 1 line read, 0 EOF, -1 error. */
static int csv_next(struct csv *c, char *err, size_t errlen)
{
	for (;;) {
		ssize_t len = getline(&c->line, &c->cap, c->f);
		char *p;

		if (len < 0)
			return ferror(c->f) ? seterr(err, errlen, "%s: read error", c->src) : 0;
		c->lineno++;
		while (len > 0 && (c->line[len - 1] == '\n' || c->line[len - 1] == '\r'))
			c->line[--len] = '\0';
		if (!len)
			continue;
		if (strlen(c->line) != (size_t)len)
			return seterr(err, errlen, "%s:%u: NUL byte in line", c->src, c->lineno);
		c->nfield = 0;
		for (p = c->line;;) {
			char *comma = strchr(p, ',');

			if (c->nfield == MAX_COLS)
				return seterr(err, errlen, "%s:%u: more than %d columns", c->src,
					      c->lineno, MAX_COLS);
			if (*p == '"')
				return seterr(err, errlen, "%s:%u: quoted fields are not supported",
					      c->src, c->lineno);
			c->field[c->nfield++] = p;
			if (!comma)
				break;
			*comma = '\0';
			p = comma + 1;
		}
		return 1;
	}
}

static int col_index(const struct csv *c, const char *name)
{
	for (size_t i = 0; i < c->nfield; i++)
		if (!strcmp(c->field[i], name))
			return (int)i;
	return -1;
}

struct colmap {
	const char *name;
	int required;
	int idx;
};

static int map_header(struct csv *c, struct colmap *m, size_t nm, char *err, size_t errlen)
{
	int r = csv_next(c, err, errlen);

	if (r < 0)
		return -1;
	if (r == 0)
		return seterr(err, errlen, "%s: empty file, expected a CSV header", c->src);
	for (size_t i = 0; i < nm; i++) {
		m[i].idx = col_index(c, m[i].name);
		if (m[i].idx < 0 && m[i].required)
			return seterr(err, errlen, "%s:%u: header has no '%s' column", c->src,
				      c->lineno, m[i].name);
	}
	return 0;
}

static const char *fieldv(const struct csv *c, const struct colmap *m, char *err, size_t errlen,
			  int *bad)
{
	if (m->idx < 0)
		return NULL;
	if ((size_t)m->idx >= c->nfield) {
		*bad = seterr(err, errlen, "%s:%u: missing column '%s' (%zu fields)", c->src,
			      c->lineno, m->name, c->nfield);
		return NULL;
	}
	return c->field[m->idx];
}

static int get_double(const struct csv *c, const struct colmap *m, double *v, char *err,
		      size_t errlen)
{
	int bad = 0;
	const char *s = fieldv(c, m, err, errlen, &bad);
	char *end;

	if (bad)
		return -1;
	if (!s || !*s) {
		if (m->required)
			return seterr(err, errlen, "%s:%u: empty '%s'", c->src, c->lineno, m->name);
		*v = NAN;
		return 0;
	}
	errno = 0;
	*v = strtod(s, &end);
	if (errno || *end || end == s)
		return seterr(err, errlen, "%s:%u: '%s' is not a number in column '%s'", c->src,
			      c->lineno, s, m->name);
	return 0;
}

static int get_uint(const struct csv *c, const struct colmap *m, uint64_t *v, char *err,
		    size_t errlen)
{
	int bad = 0;
	const char *s = fieldv(c, m, err, errlen, &bad);
	char *end;

	if (bad)
		return -1;
	if (!s || !*s) {
		if (m->required)
			return seterr(err, errlen, "%s:%u: empty '%s'", c->src, c->lineno, m->name);
		*v = 0;
		return 0;
	}
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end || *s == '-' || end == s)
		return seterr(err, errlen, "%s:%u: '%s' is not an unsigned integer in column '%s'",
			      c->src, c->lineno, s, m->name);
	return 0;
}

static int get_mode(const struct csv *c, const struct colmap *m, int *mode, char *err,
		    size_t errlen)
{
	int bad = 0;
	const char *s = fieldv(c, m, err, errlen, &bad);

	if (bad)
		return -1;
	*mode = mode_parse(s);
	if (*mode < 0)
		return seterr(err, errlen, "%s:%u: mode '%s' is neither 'shared' nor 'ideal'",
			      c->src, c->lineno, s);
	return 0;
}

static int get_str(const struct csv *c, const struct colmap *m, char *dst, size_t len,
		   char *err, size_t errlen)
{
	int bad = 0;
	const char *s = fieldv(c, m, err, errlen, &bad);

	if (bad)
		return -1;
	if (!s)
		s = "";
	if (strlen(s) >= len)
		return seterr(err, errlen, "%s:%u: '%s' too long for column '%s'", c->src, c->lineno,
			      s, m->name);
	strcpy(dst, s);
	return 0;
}

static void *grow(void *p, size_t *cap, size_t n, size_t elem)
{
	void *q;

	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 256;
	q = realloc(p, *cap * elem);
	if (!q)
		free(p);
	return q;
}

enum {
	IC_MODE, IC_JOB, IC_NAME, IC_CC, IC_ITER, IC_START, IC_END, IC_CSTART, IC_CEND, IC_BYTES,
	IC_COMM, IC_OVERLAP, IC_CONTENDED, IC_DROPS, IC_MARKS, IC_LINK, IC_N
};

int records_read_iterations_csv(FILE *f, const char *src, struct iter_rec **out, size_t *n,
				char *err, size_t errlen)
{
	struct colmap m[IC_N] = {
		[IC_MODE] = { "mode", 1, -1 },		[IC_JOB] = { "job", 1, -1 },
		[IC_NAME] = { "name", 0, -1 },		[IC_CC] = { "cc", 0, -1 },
		[IC_ITER] = { "iter", 1, -1 },		[IC_START] = { "start_ms", 1, -1 },
		[IC_END] = { "end_ms", 1, -1 },		[IC_CSTART] = { "comm_start_ms", 0, -1 },
		[IC_CEND] = { "comm_end_ms", 0, -1 },	[IC_BYTES] = { "bytes", 0, -1 },
		[IC_COMM] = { "comm_ms", 0, -1 },	[IC_OVERLAP] = { "overlap", 0, -1 },
		[IC_CONTENDED] = { "contended", 0, -1 }, [IC_DROPS] = { "drops", 0, -1 },
		[IC_MARKS] = { "marks", 0, -1 },	[IC_LINK] = { "link_overlap", 0, -1 },
	};
	struct csv c = { .f = f, .src = src };
	struct iter_rec *v = NULL;
	size_t cap = 0, cnt = 0;
	int r;

	if (map_header(&c, m, IC_N, err, errlen))
		goto fail;
	while ((r = csv_next(&c, err, errlen)) > 0) {
		struct iter_rec *x;
		uint64_t job, iter, contended;

		v = grow(v, &cap, cnt, sizeof(*v));
		if (!v) {
			seterr(err, errlen, "out of memory");
			goto fail;
		}
		x = &v[cnt];
		memset(x, 0, sizeof(*x));
		if (get_mode(&c, &m[IC_MODE], &x->mode, err, errlen) ||
		    get_uint(&c, &m[IC_JOB], &job, err, errlen) ||
		    get_str(&c, &m[IC_NAME], x->name, sizeof(x->name), err, errlen) ||
		    get_str(&c, &m[IC_CC], x->cc, sizeof(x->cc), err, errlen) ||
		    get_uint(&c, &m[IC_ITER], &iter, err, errlen) ||
		    get_double(&c, &m[IC_START], &x->start, err, errlen) ||
		    get_double(&c, &m[IC_END], &x->end, err, errlen) ||
		    get_double(&c, &m[IC_CSTART], &x->comm_start, err, errlen) ||
		    get_double(&c, &m[IC_CEND], &x->comm_end, err, errlen) ||
		    get_uint(&c, &m[IC_BYTES], &x->bytes, err, errlen) ||
		    get_double(&c, &m[IC_COMM], &x->comm_ms, err, errlen) ||
		    get_double(&c, &m[IC_OVERLAP], &x->overlap, err, errlen) ||
		    get_uint(&c, &m[IC_CONTENDED], &contended, err, errlen) ||
		    get_double(&c, &m[IC_DROPS], &x->drops, err, errlen) ||
		    get_double(&c, &m[IC_MARKS], &x->marks, err, errlen) ||
		    get_double(&c, &m[IC_LINK], &x->link_overlap, err, errlen))
			goto fail;
		if (job >= MAX_JOBS || iter > 100000000ULL) {
			seterr(err, errlen, "%s:%u: job %" PRIu64 " or iter %" PRIu64 " out of range",
			       src, c.lineno, job, iter);
			goto fail;
		}
		if (x->end < x->start) {
			seterr(err, errlen, "%s:%u: end_ms before start_ms", src, c.lineno);
			goto fail;
		}
		x->job = (unsigned)job;
		x->iter = (unsigned)iter;
		x->contended = contended != 0;
		cnt++;
	}
	if (r < 0)
		goto fail;
	free(c.line);
	*out = v;
	*n = cnt;
	return 0;
fail:
	free(c.line);
	free(v);
	return -1;
}

enum { PC_MODE, PC_JOB, PC_ITER, PC_PHASE, PC_START, PC_END, PC_BYTES, PC_N };

int records_read_phases_csv(FILE *f, const char *src, struct phase_rec **out, size_t *n,
			    char *err, size_t errlen)
{
	struct colmap m[PC_N] = {
		[PC_MODE] = { "mode", 1, -1 },	   [PC_JOB] = { "job", 1, -1 },
		[PC_ITER] = { "iter", 1, -1 },	   [PC_PHASE] = { "phase", 1, -1 },
		[PC_START] = { "start_ms", 1, -1 }, [PC_END] = { "end_ms", 1, -1 },
		[PC_BYTES] = { "bytes", 0, -1 },
	};
	struct csv c = { .f = f, .src = src };
	struct phase_rec *v = NULL;
	size_t cap = 0, cnt = 0;
	int r;

	if (map_header(&c, m, PC_N, err, errlen))
		goto fail;
	while ((r = csv_next(&c, err, errlen)) > 0) {
		struct phase_rec *x;
		uint64_t job, iter, phase;

		v = grow(v, &cap, cnt, sizeof(*v));
		if (!v) {
			seterr(err, errlen, "out of memory");
			goto fail;
		}
		x = &v[cnt];
		memset(x, 0, sizeof(*x));
		if (get_mode(&c, &m[PC_MODE], &x->mode, err, errlen) ||
		    get_uint(&c, &m[PC_JOB], &job, err, errlen) ||
		    get_uint(&c, &m[PC_ITER], &iter, err, errlen) ||
		    get_uint(&c, &m[PC_PHASE], &phase, err, errlen) ||
		    get_double(&c, &m[PC_START], &x->start, err, errlen) ||
		    get_double(&c, &m[PC_END], &x->end, err, errlen) ||
		    get_uint(&c, &m[PC_BYTES], &x->bytes, err, errlen))
			goto fail;
		if (job >= MAX_JOBS || iter > 100000000ULL || phase >= MAX_PHASES) {
			seterr(err, errlen, "%s:%u: job, iter or phase out of range", src, c.lineno);
			goto fail;
		}
		if (x->end < x->start) {
			seterr(err, errlen, "%s:%u: end_ms before start_ms", src, c.lineno);
			goto fail;
		}
		x->job = (unsigned)job;
		x->iter = (unsigned)iter;
		x->phase = (unsigned)phase;
		cnt++;
	}
	if (r < 0)
		goto fail;
	free(c.line);
	*out = v;
	*n = cnt;
	return 0;
fail:
	free(c.line);
	free(v);
	return -1;
}

int records_read_share_csv(FILE *f, const char *src, struct share_rec *out, char *err,
			   size_t errlen)
{
	struct csv c = { .f = f, .src = src };
	size_t cap = 0, nb = 0, nj;
	double *v = NULL, t1 = NAN;
	int r;

	memset(out, 0, sizeof(*out));
	r = csv_next(&c, err, errlen);
	if (r <= 0) {
		if (!r)
			seterr(err, errlen, "%s: empty file, expected a CSV header", src);
		goto fail;
	}
	if (strcmp(c.field[0], "t_ms") || c.nfield < 2) {
		seterr(err, errlen, "%s:%u: expected a header t_ms,JOB...", src, c.lineno);
		goto fail;
	}
	nj = c.nfield - 1;
	while ((r = csv_next(&c, err, errlen)) > 0) {
		double *row;

		if (c.nfield != nj + 1) {
			seterr(err, errlen, "%s:%u: %zu fields, expected %zu", src, c.lineno,
			       c.nfield, nj + 1);
			goto fail;
		}
		v = grow(v, &cap, nb, sizeof(*v) * (nj + 1));
		if (!v) {
			seterr(err, errlen, "out of memory");
			goto fail;
		}
		row = &v[nb * (nj + 1)];
		for (size_t k = 0; k <= nj; k++) {
			char *end;

			errno = 0;
			row[k] = strtod(c.field[k], &end);
			if (errno || *end || end == c.field[k] || !isfinite(row[k]) ||
			    (k && row[k] < 0)) {
				seterr(err, errlen, "%s:%u: '%s' is not a valid value", src, c.lineno,
				       c.field[k]);
				goto fail;
			}
		}
		if (nb == 1)
			t1 = row[0];
		nb++;
	}
	if (r < 0)
		goto fail;
	out->njobs = nj;
	out->nbins = nb;
	out->t0 = nb ? v[0] : NAN;
	out->bin_ms = nb > 1 ? t1 - v[0] : NAN;
	if (nb > 1 && !(out->bin_ms > 0)) {
		seterr(err, errlen, "%s: t_ms does not increase", src);
		goto fail;
	}
	out->mbit = malloc((nb ? nb : 1) * nj * sizeof(double));
	if (!out->mbit) {
		seterr(err, errlen, "out of memory");
		goto fail;
	}
	for (size_t b = 0; b < nb; b++)
		memcpy(&out->mbit[b * nj], &v[b * (nj + 1) + 1], nj * sizeof(double));
	free(v);
	free(c.line);
	return 0;
fail:
	free(v);
	free(c.line);
	memset(out, 0, sizeof(*out));
	return -1;
}
