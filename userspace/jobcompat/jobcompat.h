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
 * The circle.  Its perimeter P is a multiple m * T_max of the longest ideal
 * iteration time, cut into cells of 1 ms (finer when the shortest iteration
 * has fewer than 100 of them; coarser when the longest has more than
 * JC_CIRCLE_CELLS), at most JC_CIRCLE_CELLS cells.  Job i goes round it
 * k_i = round(P / T_i) times.  Among the m that fit, the smallest one with
 * the least stretch max_i |P / k_i - T_i| / T_i is taken: that is the exact
 * least common multiple of the iteration times whenever it fits (stretch 0,
 * e.g. 250 and 500 ms, or 255 and 340 ms), otherwise a bounded multiple on
 * which each job's iteration is stretched or shrunk to P / k_i, its phases
 * in proportion, by the reported stretch (255 and 280 ms: P = 2800 ms,
 * 255 ms becomes 254.5 ms, 0.2%).  Over the circle each job demands the
 * line rate while it communicates; a cell's demand is the fraction of it
 * each job covers, and the excess of a cell the sum beyond one line rate
 * (two halves of a cell count as fitting).  Overlap score = the excess
 * summed over the circle / the demand summed over it: 0 when the
 * communication phases fit between each other, (n - 1) / n for n jobs
 * communicating all at once.
 *
 * The search.  Shifting every job by the same time changes nothing, so the
 * link's first job keeps shift 0.  Each other job's shift is tried on a grid
 * of JC_SHIFT_STEPS positions over its iteration, then refined around the
 * best by halving steps down to a cell (pattern search).  Two or three jobs:
 * exhaustive over that grid (48 or 48 * 48 combinations), then refined by
 * coordinate descent.  Four or more: coordinate descent (one job at a time
 * takes its best shift given the others, until a pass lowers the score by
 * less than JC_PASS_GAIN, at most JC_PASSES passes) from JC_STARTS
 * deterministic starts: all at 0; greedy
 * (Cassini's traversal of the affinity graph: breadth first from the first
 * job, each job placed at its best shift among those placed before it);
 * golden-ratio staggered; evenly staggered; then staggers from a fixed
 * pseudo-random sequence.  The best end wins.  No randomness: the same
 * input gives the same shifts.  A local search: for many jobs it may miss
 * a better schedule.
 *
 * Two fluid models give the iteration times to expect: fair sharing (the
 * link's rate split equally between the jobs communicating), and
 * interleaving (the jobs take turns: a communication phase waits for the
 * one on the link to end, first come first served; the link never idles
 * while a phase waits).  Both are event-driven: job i starts its first
 * compute phase at its start time and then cycles compute -> communicate
 * through its segments; the simulation runs JC_WARMUP iterations of every
 * job, then at least JC_MEASURE more of each and JC_MEASURE times the
 * longest ideal, and a job's iteration time is its mean over that window.
 * No latency, no slow start, no losses: a phase sends at its share of the
 * line rate from its first byte.
 *
 * Plain C, no I/O, no globals: used by `mltcpctl compat` and by the
 * simulator in lab/sim, which validates it.
 */
#ifndef _JOBCOMPAT_H
#define _JOBCOMPAT_H

#include <stdbool.h>

#define JC_MAX_SEGMENTS	8
#define JC_MAX_JOBS	64
#define JC_MAX_LINKS	256
#define JC_NAME_LEN	32

/* The circle and the search (see above) */
#define JC_CIRCLE_CELLS	8192
#define JC_SHIFT_STEPS	48
#define JC_PASSES	8
#define JC_PASS_GAIN	1e-4
#define JC_STARTS	6
#define JC_SCHEDULE_STARTS	3
/* The fluid models: iterations of each job before and in the measurement */
#define JC_WARMUP	8
#define JC_MEASURE	30

/* What jc_job_valid() and jc_link_eval() accept */
#define JC_MAX_COMPUTE_MS	3.6e6	/* an hour */
#define JC_MAX_BYTES		1e15
#define JC_MIN_RATE_BPS		1e3
#define JC_MAX_RATE_BPS		1e15

/**
 * struct jc_segment - one compute phase and the communication after it
 * @compute_ms: compute time, milliseconds (0 to JC_MAX_COMPUTE_MS)
 * @bytes: bytes the communication phase puts on the link (> 0, at most
 *	JC_MAX_BYTES; fractions allowed)
 */
struct jc_segment {
	double compute_ms;
	double bytes;
};

/**
 * struct jc_job - a job's iteration, as seen on each link it uses
 * @name: the job's name, for output (NUL-terminated)
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
 * @rate_bps: the link's rate, bits per second (JC_MIN_RATE_BPS to
 *	JC_MAX_RATE_BPS)
 * @njobs: number of jobs on it, 0 to JC_MAX_JOBS
 * @job: their indices into the job array, each at most once
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
 *	link's jobs), milliseconds within its iteration: the time its first
 *	compute phase starts; the first job's is 0
 * @ideal_ms: each job's iteration time alone on the link
 * @fair_ms: its mean iteration time under fair sharing, steady state, all
 *	jobs starting at 0 (jobs in lockstep stay in it, as with a fair TCP)
 * @interleaved_ms: its mean iteration time when the jobs take turns,
 *	starting at @shift_ms
 * @perimeter_ms: the circle's perimeter (0 with fewer than two jobs)
 * @stretch: the largest relative change of an iteration time the circle
 *	made (0: an exact common multiple)
 */
struct jc_link_result {
	double overlap;
	bool compatible;
	double shift_ms[JC_MAX_JOBS];
	double ideal_ms[JC_MAX_JOBS];
	double fair_ms[JC_MAX_JOBS];
	double interleaved_ms[JC_MAX_JOBS];
	double perimeter_ms;
	double stretch;
};

/* How a fluid model shares the link (jc_fluid()) */
enum jc_sharing {
	JC_FAIR,	/* equal shares of the rate for the phases on the link */
	JC_TURNS,	/* one phase at a time, first come first served */
};

/**
 * jc_job_valid() - check a job's profile
 * @job: the profile
 * @err: a message for the user when invalid (static string; may be NULL)
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
 * The jobs' shifts come from the search over the circle (header comment),
 * @res->fair_ms from jc_fluid(JC_FAIR) with every job starting at 0,
 * @res->interleaved_ms from jc_fluid(JC_TURNS) starting at the shifts.
 *
 * Return: 0, or -EINVAL for an invalid profile or link, or a @threshold
 * outside 0 to 1, or -ENOMEM.
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
 * affinity graph of Cassini).  Each link has its own circle, with the
 * jobs' ideal iteration times at its rate (so one shift is exact on links
 * of one rate; on faster links the job's pattern is its ideal there).  The
 * search is the header comment's coordinate descent, on the sum of the
 * links' overlap scores, over the jobs that share a link with another,
 * each on a grid over its longest ideal iteration time, from the first
 * JC_SCHEDULE_STARTS starts (all at 0, greedy, golden-ratio staggered): the
 * best end.  The sum is therefore at most that of all shifts 0.  A job on
 * no shared link gets 0.
 *
 * Return: 0, or -EINVAL for an invalid profile or link (a job index at or
 * above @njobs, a job twice on a link), or -ENOMEM.
 */
int jc_schedule(const struct jc_job *jobs, unsigned int njobs, const struct jc_link *links,
		unsigned int nlinks, double *shift_ms, double *overlap);

/**
 * jc_overlap() - the overlap score of a link's jobs at given shifts
 * @jobs: the job profiles
 * @link: the link and its jobs (indices into @jobs)
 * @shift_ms: each job's shift, in the link's order
 * @overlap: out, the score on the link's circle (header comment)
 *
 * Return: 0, or -EINVAL for an invalid profile or link, or -ENOMEM.
 */
int jc_overlap(const struct jc_job *jobs, const struct jc_link *link, const double *shift_ms,
	       double *overlap);

/**
 * jc_fluid() - a fluid model's steady-state iteration times
 * @jobs: the job profiles
 * @link: the link and its jobs (indices into @jobs)
 * @how: JC_FAIR or JC_TURNS
 * @start_ms: when each job starts its first iteration, in the link's
 *	order, >= 0 (NULL: all at 0)
 * @iter_ms: out, each job's mean iteration time (link order)
 *
 * The simulation stops after 2,000,000 events at the latest (jobs whose
 * iteration times differ a thousandfold); a job's mean then covers the
 * iterations it finished.
 *
 * Return: 0, or -EINVAL for an invalid profile, link or start.
 */
int jc_fluid(const struct jc_job *jobs, const struct jc_link *link, enum jc_sharing how,
	     const double *start_ms, double *iter_ms);

#endif /* _JOBCOMPAT_H */
