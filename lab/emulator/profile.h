/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp-bench job profiles.
 *
 * A job is described by a handful of keys (see profile_keys_help). They come from
 * --job "key=value,key=value" on the command line or from profile files:
 *
 *     # two VGG16-like jobs on a 100 Mbit/s link
 *     [job]
 *     name = vgg16
 *     count = 2
 *     compute_ms = 141
 *     bytes = 1.425M
 *
 * A file without any [section] is one job; otherwise every [job] or [job NAME]
 * section is one job (count = N replicates it). Blank lines and '#' comments are
 * ignored. Any error (unknown key, bad number, key outside a section in a sectioned
 * file, missing required key) is reported as FILE:LINE: message.
 */
#ifndef MLTCP_BENCH_PROFILE_H
#define MLTCP_BENCH_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define JOB_NAME_MAX 32
#define CC_NAME_MAX 16 /* TCP_CA_NAME_MAX */
#define MAX_JOBS 64
#define MAX_PHASES 64
#define MAX_CONNS 16 /* connections of one job */

enum compute_kind { COMPUTE_SLEEP, COMPUTE_BUSY };

struct job_profile {
	char name[JOB_NAME_MAX];
	char cc[CC_NAME_MAX];	/* "" = the namespace's default congestion control */
	double compute_ms;	/* compute before the first communication phase */
	double gap_ms;		/* compute between two phases of one iteration */
	uint64_t bytes;		/* payload bytes per communication phase */
	unsigned phases;	/* communication phases per iteration */
	unsigned conns;		/* connections a phase's bytes are split over (barrier over all) */
	unsigned iterations;
	double offset_ms;	/* start offset from the common start of the run */
	enum compute_kind compute;
	int bulk;		/* kind=bulk: streams from the start until the jobs are done */
	double tiebreak;	/* MLTCP tie-break 0..1 of the sender socket; < 0: the kernel's (from the connection) */
	unsigned count;		/* replicas (parsing only; expanded into jobs) */
	unsigned have;		/* bit set of keys given (PK_*) */
};

struct profile_set {
	struct job_profile jobs[MAX_JOBS];
	size_t n;
};

extern const char profile_keys_help[];

void profile_defaults(struct job_profile *p);
/* One key=value pair into p. */
int profile_set_key(struct job_profile *p, const char *key, const char *val, char *err,
		    size_t errlen);
/* Check a finished job and append it (count times) to set. */
int profile_add(struct profile_set *set, const struct job_profile *p, char *err, size_t errlen);
/* "compute_ms=150,bytes=1.25M,..." */
int profile_parse_spec(struct profile_set *set, const char *spec, char *err, size_t errlen);
/* The text of a profile file; src names it in messages. */
int profile_parse_text(struct profile_set *set, const char *text, const char *src, char *err,
		       size_t errlen);
int profile_parse_file(struct profile_set *set, const char *path, char *err, size_t errlen);

/* "1250000", "1.25M", "1250k" (SI, powers of 1000), "1MiB"/"64KiB" (powers of 1024). */
int parse_bytes(const char *s, uint64_t *out);
/* A non-negative decimal number with nothing after it. */
int parse_double(const char *s, double *out);
int parse_uint(const char *s, unsigned long max, unsigned long *out);

/* Ideal time of one iteration on an empty link of rate_mbit (wire overhead of 1448-byte
 * segments in 1514-byte frames included). */
double profile_theory_ms(const struct job_profile *p, double rate_mbit);

#endif
