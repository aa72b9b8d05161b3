/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-bench: from the parsed options to a bench ready to run. */
#ifndef MLTCP_BENCH_SETUP_H
#define MLTCP_BENCH_SETUP_H

#include <stddef.h>

#include "profile.h"
#include "topology.h"

/* What the runs need besides the options and the jobs, worked out once. */
struct bench {
	char label[256];		/* the name of this run in reports and plots */
	double theory[MAX_JOBS];	/* each job's iteration time in theory (ms) */
	double base_offset[MAX_JOBS];	/* each job's own start offset, before --random-offset */
	size_t nbulk;			/* bulk flows among the jobs */
};

/* The namespaces, addresses and bottleneck of the jobs: built, or given (--no-topology). */
extern struct topology topo;

/* The bandwidth-delay product --queue-bdp counts in (bytes). */
double bdp_bytes(void);

/*
 * Check the options against each other and against the jobs, apply the ones that change
 * the jobs, size the FIFO, fill b and create the result directory. -1 to go on, else the
 * exit code (reported): 2 on bad input, 1 when the directory cannot be made.
 */
int setup_bench(struct bench *b);

/* Build the topology (unless --no-topology) and set the --sysctl values. 0, or -1. */
int setup_network(void);

#endif
