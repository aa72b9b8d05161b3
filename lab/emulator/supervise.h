/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp-bench: the coordinator's child processes and signals. SIGINT, SIGTERM, SIGHUP and
 * SIGCHLD arrive on a signalfd, so that waiting for a child, a pipe or a deadline is one
 * poll(); a signal or a failed child ends the program through fatal_exit().
 */
#ifndef MLTCP_BENCH_SUPERVISE_H
#define MLTCP_BENCH_SUPERVISE_H

#include <stdint.h>
#include <sys/types.h>

#include "topology.h"

/* Block the signals into the signalfd; fatal_exit() will remove t. 0, or -1 (reported). */
int supervise_init(struct topology *t);

/*
 * fork() a child called `what` in messages; in the child (0 returned) the signalfd and
 * the two given descriptors are closed. Fatal if it cannot.
 */
pid_t spawn_child(const char *what, int close1, int close2);

/*
 * Wait until fd is readable or closed (1), or until the deadline or a child's exit (0);
 * fd < 0 waits only for those. Never returns on SIGINT, SIGTERM, SIGHUP, or when a child
 * failed.
 */
int wait_event(int fd, int64_t deadline);

/* Children still running, with or without the bottleneck sampler. */
unsigned children_running(int with_sampler);
/* Every child has been reaped: start the table of the next run. */
void children_forget(void);

/* Kill and reap every child, remove the topology and exit with code. */
void fatal_exit(int code) __attribute__((noreturn));

#endif
