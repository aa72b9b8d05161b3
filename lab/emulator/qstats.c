// SPDX-License-Identifier: GPL-2.0
/* mltcp-bench: bottleneck qdisc counters over rtnetlink (RTM_GETQDISC dump). */
#define _GNU_SOURCE
#include "qstats.h"

#include <errno.h>
#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int qstats_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void parse_qdisc(struct nlmsghdr *h, int ifindex, struct qstats *q)
{
	struct tcmsg *tcm = NLMSG_DATA(h);
	int len = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*tcm));
	struct rtattr *a;
	const char *kind = "";
	struct gnet_stats_queue qs;
	struct gnet_stats_basic bs;
	struct tc_red_xstats red;
	int have_q = 0, have_b = 0, have_red = 0;

	if (len < 0 || tcm->tcm_ifindex != ifindex)
		return;
	for (a = TCA_RTA(tcm); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == TCA_KIND) {
			kind = RTA_DATA(a);
		} else if (a->rta_type == TCA_STATS2) {
			int l2 = (int)RTA_PAYLOAD(a);

			for (struct rtattr *b = RTA_DATA(a); RTA_OK(b, l2); b = RTA_NEXT(b, l2)) {
				if (b->rta_type == TCA_STATS_QUEUE &&
				    RTA_PAYLOAD(b) >= sizeof(qs)) {
					memcpy(&qs, RTA_DATA(b), sizeof(qs));
					have_q = 1;
				} else if (b->rta_type == TCA_STATS_BASIC &&
					   RTA_PAYLOAD(b) >= sizeof(bs)) {
					memcpy(&bs, RTA_DATA(b), sizeof(bs));
					have_b = 1;
				}
			}
		} else if (a->rta_type == TCA_XSTATS && RTA_PAYLOAD(a) >= sizeof(red)) {
			memcpy(&red, RTA_DATA(a), sizeof(red));
			have_red = 1;
		}
	}
	if (tcm->tcm_parent == TC_H_ROOT) {
		if (have_q) {
			q->drops = qs.drops;
			q->backlog = qs.backlog;
			q->overlimits = qs.overlimits;
		}
		if (have_b) {
			q->bytes = bs.bytes;
			q->packets = bs.packets;
		}
	}
	if (have_red && !strcmp(kind, "red"))
		q->marks += red.marked;
}

int qstats_read(int fd, int ifindex, struct qstats *q)
{
	struct {
		struct nlmsghdr h;
		struct tcmsg t;
	} req = {
		.h = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)),
		       .nlmsg_type = RTM_GETQDISC,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		       .nlmsg_seq = 1 },
		.t = { .tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex },
	};
	static char buf[32768] __attribute__((aligned(8)));

	memset(q, 0, sizeof(*q));
	if (send(fd, &req, req.h.nlmsg_len, 0) < 0)
		return -1;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;
		int len;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		len = (int)n;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (unsigned)len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR)
				return -1;
			if (h->nlmsg_type == RTM_NEWQDISC)
				parse_qdisc(h, ifindex, q);
		}
	}
}
