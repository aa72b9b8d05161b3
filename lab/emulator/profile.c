// SPDX-License-Identifier: GPL-2.0
/* mltcp-bench job profiles: parsing and checks (format described in profile.h). */
#define _GNU_SOURCE
#include "profile.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	PK_NAME = 1 << 0,
	PK_CC = 1 << 1,
	PK_COMPUTE_MS = 1 << 2,
	PK_GAP_MS = 1 << 3,
	PK_BYTES = 1 << 4,
	PK_PHASES = 1 << 5,
	PK_ITERATIONS = 1 << 6,
	PK_OFFSET_MS = 1 << 7,
	PK_COMPUTE = 1 << 8,
	PK_COUNT = 1 << 9,
	PK_KIND = 1 << 10,
	PK_TIEBREAK = 1 << 11,
	PK_CONNS = 1 << 12,
};

const char profile_keys_help[] =
	"  compute_ms=MS    compute time before the communication (required)\n"
	"  bytes=N          payload bytes per communication phase, e.g. 1250000, 1.25M,\n"
	"                   64KiB (required)\n"
	"  phases=N         communication phases per iteration (default 1)\n"
	"  gap_ms=MS        compute between two phases of one iteration (default 0)\n"
	"  conns=N          connections of the job, 1..16 (default 1): each phase's bytes\n"
	"                   are split evenly over them and the phase ends once every\n"
	"                   connection's share has arrived (a barrier over connections,\n"
	"                   as a worker's several peers or servers)\n"
	"  iterations=N     iterations (default 40)\n"
	"  offset_ms=MS     start offset (default 0)\n"
	"  compute=sleep|busy  how compute is emulated (default sleep)\n"
	"  cc=NAME          congestion control (default: --cc, else the system default)\n"
	"  tiebreak=X       MLTCP tie-break of the job's sockets, 0..1 (default: the\n"
	"                   one the kernel derives from each connection; set with or\n"
	"                   without --hints)\n"
	"  name=NAME        job name (default job<index>; replicas get -1, -2, ...)\n"
	"  count=N          replicate this job N times (default 1)\n"
	"  kind=job|bulk    bulk: not a training job but one stock bulk flow that streams\n"
	"                   from the start until every job has finished (friendliness);\n"
	"                   takes only name, cc, offset_ms, count\n";

void profile_defaults(struct job_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->phases = 1;
	p->conns = 1;
	p->iterations = 40;
	p->compute = COMPUTE_SLEEP;
	p->count = 1;
	p->tiebreak = -1;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_bytes(const char *s, uint64_t *out)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = {
		{ "", 1 },	       { "b", 1 },	     { "k", 1e3 },	   { "kb", 1e3 },
		{ "m", 1e6 },	       { "mb", 1e6 },	     { "g", 1e9 },	   { "gb", 1e9 },
		{ "kib", 1024.0 },     { "mib", 1048576.0 }, { "gib", 1073741824.0 },
	};
	char *end;
	double v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].suffix) == 0) {
			double b = v * units[i].mult;

			if (b > 1e15 || b != floor(b))
				return -1;
			*out = (uint64_t)b;
			return 0;
		}
	}
	return -1;
}

/* A count key: a number in 1..max into *out; the message names the key. */
static int set_count(const char *key, const char *val, unsigned long max, unsigned *out,
		     char *err, size_t errlen)
{
	unsigned long u;

	if (parse_uint(val, max, &u) || u == 0)
		return seterr(err, errlen, "%s: '%s' is not a number in 1..%lu", key, val, max);
	*out = (unsigned)u;
	return 0;
}

/* A time key: milliseconds in 0..3600000 into *out; the message names the key. */
static int set_ms(const char *key, const char *val, double *out, char *err, size_t errlen)
{
	double d;

	if (parse_double(val, &d) || d > 3600e3)
		return seterr(err, errlen, "%s: '%s' is not a time in ms (0..3600000)", key, val);
	*out = d;
	return 0;
}

int profile_set_key(struct job_profile *p, const char *key, const char *val, char *err,
		    size_t errlen)
{
	double d;

	if (!*val)
		return seterr(err, errlen, "empty value for '%s'", key);
	if (!strcmp(key, "name")) {
		if (strlen(val) >= JOB_NAME_MAX)
			return seterr(err, errlen, "name '%s' longer than %d characters", val,
				      JOB_NAME_MAX - 1);
		for (const char *c = val; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			      (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' || *c == '.'))
				return seterr(err, errlen,
					      "name '%s': only letters, digits, '-', '_' and '.'",
					      val);
		strcpy(p->name, val);
		p->have |= PK_NAME;
	} else if (!strcmp(key, "cc")) {
		if (strlen(val) >= CC_NAME_MAX)
			return seterr(err, errlen, "cc '%s' longer than %d characters", val,
				      CC_NAME_MAX - 1);
		for (const char *c = val; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			      (*c >= '0' && *c <= '9') || *c == '-' || *c == '_'))
				return seterr(err, errlen,
					      "cc '%s': only letters, digits, '-' and '_'", val);
		strcpy(p->cc, val);
		p->have |= PK_CC;
	} else if (!strcmp(key, "compute_ms")) {
		if (set_ms(key, val, &p->compute_ms, err, errlen))
			return -1;
		p->have |= PK_COMPUTE_MS;
	} else if (!strcmp(key, "gap_ms")) {
		if (set_ms(key, val, &p->gap_ms, err, errlen))
			return -1;
		p->have |= PK_GAP_MS;
	} else if (!strcmp(key, "offset_ms")) {
		if (set_ms(key, val, &p->offset_ms, err, errlen))
			return -1;
		p->have |= PK_OFFSET_MS;
	} else if (!strcmp(key, "bytes")) {
		uint64_t b;

		if (parse_bytes(val, &b) || b == 0 || b > (1ULL << 40))
			return seterr(err, errlen,
				      "bytes: '%s' is not a byte count (1..2^40, e.g. 1250000, 1.25M, 64KiB)",
				      val);
		p->bytes = b;
		p->have |= PK_BYTES;
	} else if (!strcmp(key, "phases")) {
		if (set_count(key, val, MAX_PHASES, &p->phases, err, errlen))
			return -1;
		p->have |= PK_PHASES;
	} else if (!strcmp(key, "conns")) {
		if (set_count(key, val, MAX_CONNS, &p->conns, err, errlen))
			return -1;
		p->have |= PK_CONNS;
	} else if (!strcmp(key, "iterations")) {
		if (set_count(key, val, 1000000, &p->iterations, err, errlen))
			return -1;
		p->have |= PK_ITERATIONS;
	} else if (!strcmp(key, "count")) {
		if (set_count(key, val, MAX_JOBS, &p->count, err, errlen))
			return -1;
		p->have |= PK_COUNT;
	} else if (!strcmp(key, "kind")) {
		if (!strcmp(val, "job"))
			p->bulk = 0;
		else if (!strcmp(val, "bulk"))
			p->bulk = 1;
		else
			return seterr(err, errlen, "kind: '%s' is neither 'job' nor 'bulk'", val);
		p->have |= PK_KIND;
	} else if (!strcmp(key, "compute")) {
		if (!strcmp(val, "sleep"))
			p->compute = COMPUTE_SLEEP;
		else if (!strcmp(val, "busy"))
			p->compute = COMPUTE_BUSY;
		else
			return seterr(err, errlen, "compute: '%s' is neither 'sleep' nor 'busy'", val);
		p->have |= PK_COMPUTE;
	} else if (!strcmp(key, "tiebreak")) {
		if (parse_double(val, &d) || d < 0 || d > 1)
			return seterr(err, errlen, "tiebreak: '%s' is not a number from 0 to 1", val);
		p->tiebreak = d;
		p->have |= PK_TIEBREAK;
	} else {
		return seterr(err, errlen, "unknown key '%s' (known: name, cc, compute_ms, bytes, "
				       "phases, gap_ms, conns, iterations, offset_ms, compute, count, "
				       "kind, tiebreak)", key);
	}
	return 0;
}

int profile_add(struct profile_set *set, const struct job_profile *p, char *err, size_t errlen)
{
	if (p->bulk && (p->have & (PK_COMPUTE_MS | PK_BYTES | PK_PHASES | PK_GAP_MS |
				   PK_ITERATIONS | PK_COMPUTE | PK_CONNS)))
		return seterr(err, errlen, "a kind=bulk flow takes only name, cc, offset_ms and count");
	if (!p->bulk && !(p->have & PK_COMPUTE_MS))
		return seterr(err, errlen, "job has no compute_ms");
	if (!p->bulk && !(p->have & PK_BYTES))
		return seterr(err, errlen, "job has no bytes");
	if (p->gap_ms > 0 && p->phases < 2)
		return seterr(err, errlen, "gap_ms needs phases >= 2");
	if (p->bytes && p->bytes < p->conns)
		return seterr(err, errlen,
			      "bytes (%llu) below conns (%u): a connection would carry nothing",
			      (unsigned long long)p->bytes, p->conns);
	if (set->n + p->count > MAX_JOBS)
		return seterr(err, errlen, "more than %d jobs", MAX_JOBS);
	for (unsigned i = 0; i < p->count; i++) {
		struct job_profile *j = &set->jobs[set->n];

		*j = *p;
		j->count = 1;
		if (j->bulk)
			j->iterations = 0; /* no iterations: it streams while the jobs run */
		if (!(p->have & PK_NAME))
			snprintf(j->name, sizeof(j->name), "job%zu", set->n);
		else if (p->count > 1) {
			char suffix[16];
			size_t sl = (size_t)snprintf(suffix, sizeof(suffix), "-%u", i + 1);
			size_t bl = strlen(p->name);

			if (bl + sl >= JOB_NAME_MAX)
				bl = JOB_NAME_MAX - 1 - sl;
			memcpy(j->name, p->name, bl);
			memcpy(j->name + bl, suffix, sl + 1);
		}
		set->n++;
	}
	return 0;
}

int profile_parse_spec(struct profile_set *set, const char *spec, char *err, size_t errlen)
{
	struct job_profile p;
	char *copy = strdup(spec), *save = NULL, *tok;
	char msg[256];
	int ret = 0;

	if (!copy)
		return seterr(err, errlen, "out of memory");
	profile_defaults(&p);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq) {
			ret = seterr(err, errlen, "--job '%s': '%s' is not key=value", spec, tok);
			goto out;
		}
		*eq = '\0';
		if (profile_set_key(&p, strip(tok), strip(eq + 1), msg, sizeof(msg))) {
			ret = seterr(err, errlen, "--job '%s': %s", spec, msg);
			goto out;
		}
	}
	if (profile_add(set, &p, msg, sizeof(msg)))
		ret = seterr(err, errlen, "--job '%s': %s", spec, msg);
out:
	free(copy);
	return ret;
}

int profile_parse_text(struct profile_set *set, const char *text, const char *src, char *err,
		       size_t errlen)
{
	struct job_profile p;
	char *copy = strdup(text), *line, *next;
	char msg[256];
	unsigned lineno = 0, section_line = 0;
	int in_section = 0, sectioned = -1, have_job = 0, ret = 0;

	if (!copy)
		return seterr(err, errlen, "out of memory");
	profile_defaults(&p);
	for (line = copy; line; line = next) {
		char *s, *eq;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		s = line;
		if (strchr(s, '#'))
			*strchr(s, '#') = '\0';
		s = strip(s);
		if (!*s)
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']'), *name;

			if (!close || close[1]) {
				ret = seterr(err, errlen, "%s:%u: malformed section header '%s'", src,
					     lineno, s);
				goto out;
			}
			*close = '\0';
			name = strip(s + 1);
			if (strncmp(name, "job", 3) || (name[3] && name[3] != ' ' && name[3] != '\t')) {
				ret = seterr(err, errlen,
					     "%s:%u: unknown section '[%s]' (only [job] or [job NAME])",
					     src, lineno, name);
				goto out;
			}
			if (sectioned == 0) {
				ret = seterr(err, errlen,
					     "%s:%u: section after keys outside any section", src,
					     lineno);
				goto out;
			}
			if (have_job && profile_add(set, &p, msg, sizeof(msg))) {
				ret = seterr(err, errlen, "%s:%u: %s", src, section_line, msg);
				goto out;
			}
			sectioned = 1;
			in_section = 1;
			have_job = 1;
			section_line = lineno;
			profile_defaults(&p);
			name = strip(name + 3);
			if (*name && profile_set_key(&p, "name", name, msg, sizeof(msg))) {
				ret = seterr(err, errlen, "%s:%u: %s", src, lineno, msg);
				goto out;
			}
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			ret = seterr(err, errlen, "%s:%u: expected key = value, got '%s'", src, lineno,
				     s);
			goto out;
		}
		if (sectioned == 1 && !in_section) {
			ret = seterr(err, errlen, "%s:%u: key outside a [job] section", src, lineno);
			goto out;
		}
		if (sectioned == -1) {
			sectioned = 0;
			have_job = 1;
			section_line = lineno;
		}
		*eq = '\0';
		if (profile_set_key(&p, strip(s), strip(eq + 1), msg, sizeof(msg))) {
			ret = seterr(err, errlen, "%s:%u: %s", src, lineno, msg);
			goto out;
		}
	}
	if (!have_job) {
		ret = seterr(err, errlen, "%s: no job in profile", src);
		goto out;
	}
	if (profile_add(set, &p, msg, sizeof(msg)))
		ret = seterr(err, errlen, "%s:%u: %s", src, section_line, msg);
out:
	free(copy);
	return ret;
}

int profile_parse_file(struct profile_set *set, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;
	int ret;

	if (!f)
		return seterr(err, errlen, "%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return seterr(err, errlen, "%s: cannot read", path);
	}
	if (len > 1 << 20) {
		fclose(f);
		return seterr(err, errlen, "%s: larger than 1 MiB, not a profile", path);
	}
	buf = malloc((size_t)len + 1);
	if (!buf) {
		fclose(f);
		return seterr(err, errlen, "out of memory");
	}
	if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		fclose(f);
		return seterr(err, errlen, "%s: read error", path);
	}
	fclose(f);
	buf[len] = '\0';
	if (strlen(buf) != (size_t)len)
		ret = seterr(err, errlen, "%s: contains NUL bytes, not a profile", path);
	else
		ret = profile_parse_text(set, buf, path, err, errlen);
	free(buf);
	return ret;
}

double profile_theory_ms(const struct job_profile *p, double rate_mbit)
{
	double wire = (double)p->bytes * 1514.0 / 1448.0 * 8.0 / (rate_mbit * 1e3);

	return p->compute_ms + (p->phases - 1) * p->gap_ms + p->phases * wire;
}
