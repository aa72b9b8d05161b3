/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcpctl compat: training-job profiles, from a profile file or from the
 * mltcp:mltcp_iteration tracepoint's text, and what jobcompat says of
 * them.  Reads from a FILE * and writes nothing, so it is unit-testable;
 * the formats are described in mltcpctl.8.
 */
#ifndef MLTCPCTL_COMPAT_H
#define MLTCPCTL_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "jobcompat.h"

#define MLTCPCTL_COMPAT_KEY_LEN	48	/* an IPv6 address */
#define MLTCPCTL_COMPAT_LINE	4096	/* the longest profile or trace line */
#define MLTCPCTL_COMPAT_RECORDS	1000000	/* the most trace records read */

/**
 * struct mltcpctl_compat_job - what mltcpctl knows of a job beside its profile
 * @name: its name: the profile's, or the trace's grouping key
 * @records: trace: the mltcp_iteration records its profile was estimated
 *	from (0 for a profile file)
 * @conns: trace: its connections
 * @duration_ms: trace: the median of its records' durations
 */
struct mltcpctl_compat_job {
	char name[MLTCPCTL_COMPAT_KEY_LEN];
	unsigned int records;
	unsigned int conns;
	double duration_ms;
};

/**
 * struct mltcpctl_compat_link - a link and its evaluation
 * @name: its name ("link" for the one link of a file without link lines
 *	or of a trace)
 * @link: its rate and jobs
 * @res: jc_link_eval()'s result
 * @sched_overlap: its overlap score at the schedule's shifts (several links)
 */
struct mltcpctl_compat_link {
	char name[JC_NAME_LEN];
	struct jc_link link;
	struct jc_link_result res;
	double sched_overlap;
};

/**
 * struct mltcpctl_compat - the jobs, the links and the verdicts
 * @njobs: number of jobs
 * @jobs: their profiles
 * @info: their names and trace statistics
 * @nlinks: number of links
 * @links: the links
 * @trace: the profiles were estimated from a trace
 * @by: trace: enum mltcpctl_by, the grouping key
 * @threshold: the largest overlap score called compatible
 * @schedule: several links: @shift_ms and each link's @sched_overlap are
 *	jc_schedule()'s
 * @shift_ms: the schedule's shift of each job
 * @sched_sum: the sum of the links' overlap scores at those shifts
 */
struct mltcpctl_compat {
	unsigned int njobs;
	struct jc_job jobs[JC_MAX_JOBS];
	struct mltcpctl_compat_job info[JC_MAX_JOBS];
	unsigned int nlinks;
	struct mltcpctl_compat_link links[JC_MAX_LINKS];
	bool trace;
	int by;
	double threshold;
	bool schedule;
	double shift_ms[JC_MAX_JOBS];
	double sched_sum;
};

/* mltcpctl_compat_read_*(): the input is invalid / the command line does not fit it */
#define MLTCPCTL_COMPAT_EINPUT	(-1)
#define MLTCPCTL_COMPAT_EUSAGE	(-2)

/**
 * mltcpctl_compat_read_profile() - read a profile file
 * @f: the file
 * @fname: its name, for messages
 * @rate_bps: --rate, the rate of the one link of a file without link lines;
 *	0 when not given
 * @c: result (zeroed first)
 * @err: a message on failure, "FILE:LINE: ..." for a bad line
 * @errlen: size of @err
 *
 * Return: 0, MLTCPCTL_COMPAT_EINPUT or MLTCPCTL_COMPAT_EUSAGE (--rate
 * missing, or given with link lines).
 */
int mltcpctl_compat_read_profile(FILE *f, const char *fname, double rate_bps,
				 struct mltcpctl_compat *c, char *err, size_t errlen);

/**
 * mltcpctl_compat_read_trace() - estimate profiles from mltcp_iteration records
 * @f: the text of /sys/kernel/tracing/trace, trace_pipe or perf script;
 *	lines without "mltcp_iteration:" are skipped
 * @fname: its name, for messages
 * @by: enum mltcpctl_by: records with the same key are one job
 * @rate_bps: the link's rate (> 0)
 * @c: result (zeroed first): one job per key, one link with all of them
 * @err: a message on failure
 * @errlen: size of @err
 *
 * A job's bytes per iteration: the median of each of its connections'
 * records' bytes, summed over its connections; its compute: the median of
 * all its records' durations less those bytes' time at @rate_bps, at
 * least 0: one segment.
 *
 * Return: 0 or MLTCPCTL_COMPAT_EINPUT.
 */
int mltcpctl_compat_read_trace(FILE *f, const char *fname, int by, double rate_bps,
			       struct mltcpctl_compat *c, char *err, size_t errlen);

/**
 * mltcpctl_compat_eval() - evaluate every link, and schedule several
 * @c: jobs and links, read by one of the above
 * @threshold: the largest overlap score called compatible
 *
 * Return: 0, or a negative errno from jobcompat.
 */
int mltcpctl_compat_eval(struct mltcpctl_compat *c, double threshold);

#endif /* MLTCPCTL_COMPAT_H */
