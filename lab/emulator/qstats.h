/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-bench: bottleneck qdisc counters over rtnetlink (what `tc -s qdisc` shows). */
#ifndef MLTCP_BENCH_QSTATS_H
#define MLTCP_BENCH_QSTATS_H

#include <stdint.h>

struct qstats {
	uint64_t drops;		/* root qdisc drops */
	uint64_t marks;		/* ECN marks of RED qdiscs on the device */
	uint64_t backlog;	/* root qdisc backlog, bytes */
	uint64_t overlimits;	/* root qdisc overlimits */
	uint64_t bytes, packets; /* root qdisc sent */
};

/* NETLINK_ROUTE socket in the current network namespace; -1 on error. */
int qstats_open(void);
/* Read the counters of the qdiscs on ifindex. 0 or -1. */
int qstats_read(int fd, int ifindex, struct qstats *q);

#endif
