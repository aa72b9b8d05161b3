// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-hold: keeps MLTCP connections open in a known state, for tests
 * that look at them from outside (mltcpctl sockets, mltcpctl set).
 *
 *	mltcp-hold [-a ALGO] [-n CONNS] [-b BYTES] [-s SENT]
 *
 * Opens CONNS loopback connections, IPv4 and IPv6 alternating.  On
 * connection i it sets bytes per iteration BYTES + i and runs one whole
 * iteration of that size (which shows the size), then marks the next one,
 * pauses longer than the idle threshold (the compute phase that earns the
 * iteration its F) and sends SENT + 1000 * i bytes (all acked).  It then
 * prints one line per connection and "ready":
 *
 *	conn I FAMILY SRC SPORT DST DPORT BYTES_PER_ITER BYTES_THIS_ITER F_Q10 ITERATIONS ALGO PHASE
 *
 * PHASE is the socket's phase as mltcpctl names it (base, unearned, ...).
 *
 * Each line "state" on stdin prints the lines again with fresh state;
 * "quit" or EOF closes everything and exits.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mltcp/libmltcp.h"
#include "common.h"

#define MAX_CONNS 64

static const char *const phases[] = {
	[MLTCP_ABI_PHASE_BASE] = "base", [MLTCP_ABI_PHASE_UNEARNED] = "unearned",
	[MLTCP_ABI_PHASE_OVERRUN] = "overrun", [MLTCP_ABI_PHASE_RAMP] = "ramp",
	[MLTCP_ABI_PHASE_TOP] = "top", [MLTCP_ABI_PHASE_YIELD] = "yield",
};

static void print_conn(int i, const struct conn *c)
{
	struct sockaddr_storage l, p;
	socklen_t ll = sizeof(l), pl = sizeof(p);
	char ls[INET6_ADDRSTRLEN], ps[INET6_ADDRSTRLEN];
	unsigned int lport, pport;
	struct mltcp_info st;

	if (getsockname(c->cli, (struct sockaddr *)&l, &ll) < 0 ||
	    getpeername(c->cli, (struct sockaddr *)&p, &pl) < 0 ||
	    mltcp_get_info(c->cli, &st, sizeof(st)) < 0) {
		printf("error %d %s\n", i, strerror(errno));
		return;
	}
	if (c->family == AF_INET6) {
		struct sockaddr_in6 *a = (void *)&l, *b = (void *)&p;

		inet_ntop(AF_INET6, &a->sin6_addr, ls, sizeof(ls));
		inet_ntop(AF_INET6, &b->sin6_addr, ps, sizeof(ps));
		lport = ntohs(a->sin6_port);
		pport = ntohs(b->sin6_port);
	} else {
		struct sockaddr_in *a = (void *)&l, *b = (void *)&p;

		inet_ntop(AF_INET, &a->sin_addr, ls, sizeof(ls));
		inet_ntop(AF_INET, &b->sin_addr, ps, sizeof(ps));
		lport = ntohs(a->sin_port);
		pport = ntohs(b->sin_port);
	}
	printf("conn %d %s %s %u %s %u %llu %llu %u %u %s %s\n", i,
	       c->family == AF_INET6 ? "inet6" : "inet", ls, lport, ps, pport,
	       (unsigned long long)st.bytes_per_iter,
	       (unsigned long long)st.bytes_this_iter, st.f, st.iterations,
	       st.algo, st.size >= MLTCP_INFO_SIZE_V3 && st.phase <= __MLTCP_ABI_PHASE_MAX ?
	       phases[st.phase] : "unknown");
}

int main(int argc, char **argv)
{
	static struct conn conns[MAX_CONNS];
	const char *algo = "mltcp_reno";
	uint64_t bytes = 1 << 20, sent = 1 << 19;
	int n = 2, i, opt;
	char line[64];

	while ((opt = getopt(argc, argv, "a:n:b:s:")) != -1) {
		switch (opt) {
		case 'a':
			algo = optarg;
			break;
		case 'n':
			n = atoi(optarg);
			break;
		case 'b':
			bytes = strtoull(optarg, NULL, 0);
			break;
		case 's':
			sent = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-a ALGO] [-n CONNS] [-b BYTES] [-s SENT]\n",
				argv[0]);
			return 2;
		}
	}
	if (n < 1 || n > MAX_CONNS) {
		fprintf(stderr, "CONNS must be 1..%d\n", MAX_CONNS);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < n; i++) {
		struct conn *c = &conns[i];

		if (conn_open(c, i % 2 ? AF_INET6 : AF_INET, algo) < 0 ||
		    mltcp_set_bytes_per_iter(c->cli, bytes + (uint64_t)i) < 0 ||
		    mltcp_iteration_begin(c->cli, 0) < 0) {
			printf("error %d %s\n", i, strerror(errno));
			return 1;
		}
		/* one whole iteration shows the size, so that the next one earns F */
		idle_pause();
		if (send_all(c->cli, bytes + (uint64_t)i) < 0 || wait_acked(c->cli) < 0 ||
		    mltcp_iteration_begin(c->cli, 0) < 0) {
			printf("error %d %s\n", i, strerror(errno));
			return 1;
		}
		idle_pause();
		if (send_all(c->cli, sent + 1000 * (uint64_t)i) < 0 || wait_acked(c->cli) < 0) {
			printf("error %d %s\n", i, strerror(errno));
			return 1;
		}
	}
	for (;;) {
		for (i = 0; i < n; i++)
			print_conn(i, &conns[i]);
		printf("ready\n");
		if (!fgets(line, sizeof(line), stdin) || !strcmp(line, "quit\n"))
			break;
	}
	for (i = 0; i < n; i++)
		conn_close(&conns[i]);
	return 0;
}
