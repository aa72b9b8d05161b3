/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobcompat: which training jobs can share a link by taking turns.
 *
 * A job's iteration is a sequence of segments, each a compute phase
 * followed by a communication phase that puts some bytes on the link (one
 * segment for data-parallel jobs, several for hybrid-parallel ones).  With
 * the link to itself a job's iteration takes the sum of its compute phases
 * and of its bytes at line rate: the ideal.
 *
 * Jobs are compatible on a link when there are time shifts of their
 * iterations, "rolled around a circle" whose perimeter is a common multiple
 * of their iteration times, under which their communication phases do not
 * overlap (Cassini, NSDI'24).  The overlap score is the share of the
 * communication demand that does not fit the link, at the best shifts.
 *
 * Two fluid models give the iteration times to expect: fair sharing (the
 * link's rate split equally between the jobs communicating), and
 * interleaving (the jobs take turns: a communication phase waits for the
 * one on the link to end, first come first served).
 *
 * Plain C, no I/O: used by `mltcpctl compat` and by the simulator in
 * lab/sim, which validates it.
 */
#ifndef _JOBCOMPAT_H
#define _JOBCOMPAT_H

#include <stdbool.h>

#define JC_MAX_SEGMENTS	8
#define JC_MAX_JOBS	64
#define JC_MAX_LINKS	256
#define JC_NAME_LEN	32

/**
 * struct jc_segment - one compute phase and the communication after it
 * @compute_ms: compute time, milliseconds (>= 0)
 * @bytes: bytes the communication phase puts on the link (> 0)
 */
struct jc_segment {
	double compute_ms;
	double bytes;
};

/**
 * struct jc_job - a job's iteration, as seen on each link it uses
 * @name: the job's name, for output
 * @nseg: number of segments, 1 to JC_MAX_SEGMENTS
 * @seg: the segments, in their order within the iteration
 */
struct jc_job {
	char name[JC_NAME_LEN];
	unsigned int nseg;
	struct jc_segment seg[JC_MAX_SEGMENTS];
};

/**
 * struct jc_link - a link and the jobs that cross it
 * @rate_bps: the link's rate, bits per second (> 0)
 * @njobs: number of jobs on it, 0 to JC_MAX_JOBS
 * @job: their indices into the job array
 */
struct jc_link {
	double rate_bps;
	unsigned int njobs;
	unsigned int job[JC_MAX_JOBS];
};

/**
 * struct jc_link_result - what a link's jobs can expect
 * @overlap: overlap score at the best shifts, 0 (none) to 1
 * @compatible: @overlap is at most the threshold given
 * @shift_ms: the best shift of each job on the link (same order as the
 *	link's jobs), milliseconds within its iteration
 * @ideal_ms: each job's iteration time alone on the link
 * @fair_ms: its mean iteration time under fair sharing, steady state
 * @interleaved_ms: its mean iteration time when the jobs take turns
 */
struct jc_link_result {
	double overlap;
	bool compatible;
	double shift_ms[JC_MAX_JOBS];
	double ideal_ms[JC_MAX_JOBS];
	double fair_ms[JC_MAX_JOBS];
	double interleaved_ms[JC_MAX_JOBS];
};

/**
 * jc_job_valid() - check a job's profile
 * @job: the profile
 * @err: a message for the user when invalid (static string)
 *
 * Return: true when @job can be evaluated.
 */
bool jc_job_valid(const struct jc_job *job, const char **err);

/**
 * jc_ideal_ms() - a job's iteration time with a link to itself
 * @job: the profile
 * @rate_bps: the link's rate
 *
 * Return: milliseconds.
 */
double jc_ideal_ms(const struct jc_job *job, double rate_bps);

/**
 * jc_link_eval() - evaluate the jobs sharing one link
 * @jobs: the job profiles
 * @link: the link and its jobs (indices into @jobs)
 * @threshold: the largest overlap score still called compatible
 * @res: the result
 *
 * Return: 0, or -EINVAL for an invalid profile or link.
 */
int jc_link_eval(const struct jc_job *jobs, const struct jc_link *link, double threshold,
		 struct jc_link_result *res);

/**
 * jc_schedule() - a centralized schedule: one shift per job for all links
 * @jobs: the job profiles
 * @njobs: their number, up to JC_MAX_JOBS
 * @links: the links and the jobs that cross each
 * @nlinks: their number, up to JC_MAX_LINKS
 * @shift_ms: out, each job's start offset, milliseconds within its
 *	iteration, minimising the sum of the links' overlap
 * @overlap: out, the links' overlap scores at those shifts (may be NULL)
 *
 * A job crossing several links gets one shift for all of them (the
 * affinity graph of Cassini); the search is the one the header comment
 * and docs/DESIGN.md describe.
 *
 * Return: 0, or -EINVAL for an invalid profile or link.
 */
int jc_schedule(const struct jc_job *jobs, unsigned int njobs, const struct jc_link *links,
		unsigned int nlinks, double *shift_ms, double *overlap);

#endif /* _JOBCOMPAT_H */
