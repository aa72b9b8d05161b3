/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp-bench: the only place that tells MLTCP about a job's iterations.
 *
 * --no-hints (default, "learned" mode): nothing is told; the MLTCP module learns bytes
 * per iteration and iteration boundaries from idle gaps by itself.
 * --hints: bytes per iteration and every iteration start are passed through libmltcp,
 * on sockets that use an MLTCP congestion control (a base algorithm in the same run has
 * nothing to be told and is left alone).
 */
#ifndef MLTCP_BENCH_HINTS_H
#define MLTCP_BENCH_HINTS_H

#include <stddef.h>
#include <stdint.h>

enum hints_mode { HINTS_NONE, HINTS_LIBMLTCP };

/* Choose the mode for this run (before any job starts). 0, or -1 with err filled. */
int hints_select(enum hints_mode mode, char *err, size_t errlen);
const char *hints_mode_name(void);

/* Sender socket connected: bytes_per_iteration = every byte the job writes per iteration. */
int hints_socket_ready(int fd, uint64_t bytes_per_iteration, char *err, size_t errlen);
/*
 * Sender socket connected: give it the tie-break (0..1) of its job profile when it uses
 * an MLTCP algorithm; tiebreak < 0 leaves the one the kernel derives from the
 * connection.  Any hints mode.
 */
int hints_tiebreak(int fd, double tiebreak, char *err, size_t errlen);
/* An iteration starts on fd (just before its compute phase). */
int hints_iteration_start(int fd, unsigned iteration, char *err, size_t errlen);

#endif
