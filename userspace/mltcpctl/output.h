/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcpctl output: human-readable tables and JSON (one line, like
 * iproute2's -j; indented with -p).  Pure formatting into a FILE *, so it
 * is unit-testable.
 */
#ifndef MLTCPCTL_OUTPUT_H
#define MLTCPCTL_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/mltcp.h>

struct mltcpctl_params {
	uint32_t abi_version;
	uint32_t slope;		/* Q10 */
	uint32_t intercept;	/* Q10 */
	uint32_t idle_ms;
	uint8_t mode;		/* enum mltcp_abi_mode */
	uint8_t decrease;	/* 0 or 1 */
	uint32_t stagger;	/* Q10 */
	uint32_t overrun;	/* Q10, 0 = no bound */
	bool tiebreak_key_set;	/* an administrator set the tie-break key */
	bool has_tiebreak_key_set; /* false from a module without tie-break keys */
};

/* Whose counters mltcpctl show prints */
enum mltcpctl_scope {
	MLTCPCTL_SCOPE_NETNS,	/* the caller's network namespace */
	MLTCPCTL_SCOPE_HOST,	/* every network namespace */
};

struct mltcpctl_algo {
	char name[MLTCP_ALGO_NAME_MAX];
	uint64_t sockets;
	uint64_t sockets_total;
	uint64_t iters_learned;
	uint64_t iters_given;
};

struct mltcpctl_sock {
	uint8_t family;		/* AF_INET, AF_INET6 */
	uint8_t tcp_state;
	uint8_t saddr[16];	/* network order; 4 bytes for AF_INET */
	uint8_t daddr[16];
	uint16_t sport;
	uint16_t dport;
	uint64_t inode;
	char algo[MLTCP_ALGO_NAME_MAX];
	uint8_t mode;
	uint32_t flags;		/* MLTCP_INFO_F_* */
	uint32_t iterations;
	uint64_t bytes_this_iter;
	uint64_t bytes_per_iter;
	uint32_t bytes_ratio;	/* Q10 */
	uint32_t f;		/* Q10 */
	uint32_t cwnd;
	uint32_t tiebreak;	/* Q10 */
	uint8_t phase;		/* enum mltcp_abi_phase, valid when @has_phase */
	bool has_phase;		/* false from a module older than ABI 3 */
};

struct mltcpctl_out {
	FILE *f;
	bool json;
	bool pretty;
};

/* "learned", "given", "off" or "unknown" */
const char *mltcpctl_mode_name(unsigned int mode);
/* "base", "unearned", "overrun", "ramp", "top", "yield" or "unknown" */
const char *mltcpctl_phase_name(unsigned int phase);
/* "ESTAB", "SYN-SENT", ... as ss(8) prints them */
const char *mltcpctl_tcp_state_name(unsigned int state);
/* address (IPv6 in brackets) and port, e.g. "[2001:db8::1]:5201" */
void mltcpctl_format_endpoint(char *buf, size_t len, uint8_t family,
			      const uint8_t *addr, uint16_t port);

/* mltcpctl show: parameters and per-algorithm counters of @scope */
void mltcpctl_print_show(const struct mltcpctl_out *o,
			 const struct mltcpctl_params *p,
			 const struct mltcpctl_algo *algos, size_t nalgos,
			 enum mltcpctl_scope scope);
/* mltcpctl sockets */
void mltcpctl_print_sockets(const struct mltcpctl_out *o,
			    const struct mltcpctl_sock *socks, size_t nsocks);
/*
 * mltcpctl metrics: the mode, @algos' counters (of @scope) and @socks per
 * phase in the Prometheus text exposition format (version 0.0.4).
 */
void mltcpctl_print_metrics(FILE *f, const struct mltcpctl_params *p,
			    const struct mltcpctl_algo *algos, size_t nalgos,
			    enum mltcpctl_scope scope,
			    const struct mltcpctl_sock *socks, size_t nsocks);

/*
 * Replace @path with @len bytes of @buf atomically: written to a temporary
 * file beside it (named @path.XXXXXX, which node_exporter's textfile
 * collector ignores as it does not end in .prom), flushed to disk, made
 * 0644 and renamed over @path.  On failure @path is unchanged, no
 * temporary file is left and @err says why.  Return: 0 or -1.
 */
int mltcpctl_replace_file(const char *path, const char *buf, size_t len, char *err,
			  size_t errlen);

struct mltcpctl_compat;

/* "10Gbit/s", "2.5Gbit/s", "100Mbit/s": a rate in bits per second, for people */
void mltcpctl_format_rate(char *buf, size_t len, double bps);
/* mltcpctl compat: each link's verdict and iteration times, and the schedule */
void mltcpctl_print_compat(const struct mltcpctl_out *o, const struct mltcpctl_compat *c);

#endif /* MLTCPCTL_OUTPUT_H */
