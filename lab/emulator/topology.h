/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-bench network namespaces, veth links and the bottleneck, built by
 * selftests/topology.sh (topology.c). */
#ifndef MLTCP_BENCH_TOPOLOGY_H
#define MLTCP_BENCH_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

#define NS_NAME_MAX 96
#define ADDR_MAX 64

struct topo_opts {
	double rate_mbit;	/* bottleneck rate */
	uint64_t queue_bytes;	/* FIFO limit (bytes) */
	uint64_t burst_bytes;	/* tbf bucket */
	uint64_t ecn_bytes;	/* 0: tbf's byte FIFO; else RED child marking ECN above this */
	unsigned mtu;
	int egress;		/* 1: FIFO on the senders' shared egress veth, 0: in a router */
	double delay_ms;	/* added RTT: netem on the ACK path (0: none) */
};

struct topology {
	int created;		/* namespaces below were made by us and must be deleted */
	char prefix[32];
	unsigned njobs;
	struct topo_opts opts;	/* what it was built with: the builder deletes it by them */
	char snd_ns[MAX_JOBS][NS_NAME_MAX]; /* "" = the current namespace */
	char rcv_ns[MAX_JOBS][NS_NAME_MAX];
	char rcv_addr[MAX_JOBS][ADDR_MAX];
	char bott_ns[NS_NAME_MAX];	   /* where the bottleneck qdisc lives ("" current) */
	char bott_dev[32];		   /* "" = no bottleneck statistics */
};

/* Run argv (PATH lookup) with default signal handling; stdout to out_path if non-NULL.
 * Returns the exit status, or -1 if it could not be started. Failures are reported. */
int run_cmd(char *const argv[], const char *out_path, int quiet);

/* Build the whole topology for njobs. 0, or -1 after undoing what was created. */
int topology_create(struct topology *t, unsigned njobs, const struct topo_opts *o);
/* Delete the namespaces we created (idempotent). Safe to call from any exit path. */
void topology_destroy(struct topology *t);

/* Enter a network namespace: "" stays, a name is /run/netns/NAME, a path (/...) is opened. */
int netns_enter(const char *ns, char *err, size_t errlen);
/* Write /proc/sys/<key with '.' -> '/'> inside namespace ns. */
int netns_sysctl(const char *ns, const char *key, const char *val);

/* Delete leftover mb<pid>-* namespaces of mltcp-bench processes that no longer run. */
int topology_cleanup_stale(void);

/* `tc -s qdisc show` of the bottleneck into path (nothing without a bottleneck). */
int topology_tc_snapshot(const struct topology *t, const char *path);

#endif
