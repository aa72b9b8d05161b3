/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-bench: small helpers shared by the emulator's modules. */
#ifndef MLTCP_BENCH_UTIL_H
#define MLTCP_BENCH_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define NSEC_PER_MSEC 1000000LL
#define NSEC_PER_SEC 1000000000LL

/* CLOCK_MONOTONIC in nanoseconds: the one time base of all processes of a run. */
int64_t now_ns(void);
/* Sleep until an absolute CLOCK_MONOTONIC time (restarts after signals). */
void sleep_until_ns(int64_t t);
/* Spin until an absolute CLOCK_MONOTONIC time. */
void spin_until_ns(int64_t t);

/* Print "mltcp-bench: <msg>" to stderr. */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* snprintf into err (may be NULL) and return -1: the error style of the parsers. */
int seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Write or read exactly n bytes (handles EINTR and short transfers). 0 or -1 (errno). */
int write_full(int fd, const void *buf, size_t n);
/* 1 on success, 0 on EOF before any byte, -1 on error or EOF in the middle (errno EPIPE). */
int read_full(int fd, void *buf, size_t n);

/* Strip leading and trailing white space in place; returns the start. */
char *strip(char *s);

#endif
