/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-bench: the processes of one job (sender, receiver) and the bottleneck sampler. */
#ifndef MLTCP_BENCH_JOB_H
#define MLTCP_BENCH_JOB_H

#include <stdint.h>

#include "metrics.h"
#include "profile.h"
#include "qstats.h"

/* Wire format: every phase starts with a header, the receiver answers with an ack of the
 * same layout once it has all `bytes` payload bytes (the application-level barrier). */
#define WIRE_MAGIC_DATA 0x4d4c5444u /* "MLTD" */
#define WIRE_MAGIC_ACK 0x4d4c5441u  /* "MLTA" */
#define WIRE_MAGIC_BULK 0x4d4c5442u /* "MLTB": a kind=bulk flow, data until EOF */
struct wire_hdr {
	uint32_t magic;
	uint32_t iter;
	uint32_t phase;
	uint32_t job;
	uint64_t bytes;
};

struct raw_span {
	int64_t start, end; /* CLOCK_MONOTONIC ns */
};

/* Lives in a MAP_SHARED mapping made before fork: written by the children, read by the
 * coordinator after they exit. */
struct run_shared {
	volatile int64_t t0;		/* common start, set before the go signal */
	int start_exact;		/* 1: the go signal itself is the start (see job.c) */
	volatile int stop;		/* sampler: stop sampling */
	volatile int jobs_left;		/* training jobs still running: bulk flows stop at 0 */
	unsigned njobs;
	unsigned nbins;
	int64_t bin_ns;
	unsigned max_samples;
	volatile unsigned nsamples;
	struct counter_sample *samples; /* t in ns since t0 (converted later) */
	struct job_slot {
		char cc[CC_NAME_MAX];	/* congestion control actually in use */
		volatile unsigned iters_done;
		struct raw_span *iter;	/* [iterations] */
		struct raw_span *phase;	/* [iterations * phases] */
		uint64_t *bins;		/* payload bytes received per bin since t0 */
	} job[MAX_JOBS];
};

struct job_env {
	unsigned index;		/* job index in the scenario (for ports, records) */
	unsigned slot;		/* index in run_shared.job */
	const struct job_profile *p;
	const char *snd_ns, *rcv_ns, *rcv_addr;
	uint16_t port;
	int go_fd;		/* read end: EOF = start */
	int ready_fd;		/* write end: one byte when connected */
	struct run_shared *sh;
	int quiet;
};

/* Child process bodies; they never return. */
void job_receiver_main(const struct job_env *e) __attribute__((noreturn));
void job_sender_main(const struct job_env *e) __attribute__((noreturn));
void sampler_main(struct run_shared *sh, const char *ns, const char *dev, int go_fd,
		  int64_t interval_ns) __attribute__((noreturn));

/* In every child right after fork: default signals, unblocked, die with the parent. */
void child_setup(void);

#endif
