/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the MLTCP test programs: TAP output, loopback
 * connections with an in-process receiver, waiting for ACKs, and the
 * global parameters from sysfs.
 */
#ifndef MLTCP_TESTPROGS_COMMON_H
#define MLTCP_TESTPROGS_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

extern int tap_n, tap_failed;

void tap_ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* ends the TAP stream: prints the plan, returns the exit status */
int tap_finish(void);

/* errno name ("EINVAL") for messages */
const char *errname(int err);

/*
 * Parses the decimal @s into @out if it lies in [@lo, @hi]; otherwise
 * reports "PROGRAM: bad WHAT 'S' (LO..HI)" on stderr.  Return: 0 or -1.
 */
int parse_long(const char *s, long lo, long hi, long *out, const char *what);
/* CLOCK_MONOTONIC in seconds */
double now_s(void);

struct conn {
	int cli;		/* connected client socket */
	int srv;		/* accepted server socket, drained by a thread */
	int family;
	uint16_t port;
};

/*
 * Listens on the loopback address of @family, connects a client socket
 * that first gets congestion control @algo (NULL: system default), and
 * starts a thread that reads and discards everything on the accepted
 * socket.  Return: 0 or -1 with errno.
 */
int conn_open(struct conn *c, int family, const char *algo);
/* Same; without @drained the caller owns c->srv and no thread runs. */
int conn_open2(struct conn *c, int family, const char *algo, bool drained);
/* Closes both ends (the drain thread ends on EOF). */
void conn_close(struct conn *c);
/* Writes @len bytes of zeros to @fd.  Return: 0 or -1. */
int send_all(int fd, size_t len);
/* Waits until everything written to @fd is acked (5 s max).  Return: 0 or -1. */
int wait_acked(int fd);
/*
 * Sleeps longer than the idle threshold on loopback, max(idle_ms, 2 * srtt):
 * the compute phase after which a marked iteration's first send earns F.
 */
void idle_pause(void);

struct params {
	uint32_t slope;		/* Q10 */
	uint32_t intercept;	/* Q10 */
	int mode;
};

/* Reads /sys/module/mltcp/parameters.  Return: 0 or -1. */
int read_params(struct params *p);

#endif
