// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-synsent: choose a congestion control while an active open waits
 * for its SYN-ACK (the socket is in SYN_SENT), then send data.
 *
 *   mltcp-synsent sink PORT
 *	accept one IPv4 connection on PORT, read it to the end, exit
 *   mltcp-synsent client ADDR PORT ALGO SECONDS
 *	non-blocking connect() to ADDR:PORT; while in SYN_SENT set ALGO with
 *	TCP_CONGESTION; once connected send for SECONDS; prints
 *	"set_in=SYN_SENT algo=NAME ecn=0|1 cc_info=dctcp|fallback|none bytes=N"
 *	(cc_info: what TCP_CC_INFO says, DCTCP's ECN mode or its fallback)
 *	and exits 0, or an
 *	error and exits 1 (also when the socket was not in SYN_SENT when
 *	ALGO was set: the SYN-ACK must be delayed for this test to mean
 *	anything)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: mltcp-synsent sink PORT\n"
		"       mltcp-synsent client ADDR PORT ALGO SECONDS\n");
	return 2;
}

static int parse_port(const char *s, unsigned short *port)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < 1 || v > 65535) {
		fprintf(stderr, "mltcp-synsent: bad port '%s'\n", s);
		return -1;
	}
	*port = (unsigned short)v;
	return 0;
}

static int sink(unsigned short port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	static char buf[1 << 16];
	int one = 1, l, c;
	ssize_t n;

	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1)) {
		perror("mltcp-synsent: listen");
		return 1;
	}
	c = accept(l, NULL, NULL);
	if (c < 0) {
		perror("mltcp-synsent: accept");
		return 1;
	}
	while ((n = read(c, buf, sizeof(buf))) > 0)
		;
	if (n < 0) {
		perror("mltcp-synsent: read");
		return 1;
	}
	close(c);
	close(l);
	return 0;
}

static int tcp_state(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return -1;
	return ti.tcpi_state;
}

/* DCTCP's mode as TCP_CC_INFO reports it. */
static const char *cc_info(int fd)
{
	union {
		struct tcp_dctcp_info dctcp;
		char raw[64];
	} cc;
	socklen_t len = sizeof(cc);

	memset(&cc, 0, sizeof(cc));
	if (getsockopt(fd, IPPROTO_TCP, TCP_CC_INFO, &cc, &len) || len != sizeof(cc.dctcp))
		return "none";
	return cc.dctcp.dctcp_enabled ? "dctcp" : "fallback";
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int client(const char *addr, unsigned short port, const char *algo,
		  double seconds)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	static char buf[1 << 16];
	struct pollfd pfd;
	struct tcp_info ti;
	socklen_t len;
	char name[32] = "";
	unsigned long long bytes = 0;
	int fd, err = 0, state;
	double end;

	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
		fprintf(stderr, "mltcp-synsent: bad IPv4 address '%s'\n", addr);
		return 1;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		perror("mltcp-synsent: socket");
		return 1;
	}
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 || errno != EINPROGRESS) {
		fprintf(stderr, "mltcp-synsent: connect did not wait for the SYN-ACK (%s)\n",
			strerror(errno));
		return 1;
	}
	if (tcp_state(fd) != TCP_SYN_SENT) {
		fprintf(stderr, "mltcp-synsent: not in SYN_SENT after connect()\n");
		return 1;
	}
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, algo, strlen(algo))) {
		fprintf(stderr, "mltcp-synsent: TCP_CONGESTION %s: %s\n", algo, strerror(errno));
		return 1;
	}
	state = tcp_state(fd);
	if (state != TCP_SYN_SENT) {
		fprintf(stderr, "mltcp-synsent: SYN-ACK came before %s was set (state %d)\n",
			algo, state);
		return 1;
	}

	pfd.fd = fd;
	pfd.events = POLLOUT;
	if (poll(&pfd, 1, 10000) != 1) {
		fprintf(stderr, "mltcp-synsent: no connection after 10 s\n");
		return 1;
	}
	len = sizeof(err);
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) || err) {
		fprintf(stderr, "mltcp-synsent: connect: %s\n", strerror(err));
		return 1;
	}
	if (fcntl(fd, F_SETFL, 0)) {
		perror("mltcp-synsent: fcntl");
		return 1;
	}

	memset(buf, 'x', sizeof(buf));
	end = now_s() + seconds;
	while (now_s() < end) {
		ssize_t n = send(fd, buf, sizeof(buf), MSG_NOSIGNAL);

		if (n < 0) {
			perror("mltcp-synsent: send");
			return 1;
		}
		bytes += (unsigned long long)n;
	}

	len = sizeof(name) - 1;
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &len)) {
		perror("mltcp-synsent: getsockopt TCP_CONGESTION");
		return 1;
	}
	name[len] = '\0';
	len = sizeof(ti);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len)) {
		perror("mltcp-synsent: TCP_INFO");
		return 1;
	}
	printf("set_in=SYN_SENT algo=%s ecn=%d cc_info=%s bytes=%llu\n", name,
	       !!(ti.tcpi_options & TCPI_OPT_ECN), cc_info(fd), bytes);
	shutdown(fd, SHUT_WR);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned short port;
	char *end;
	double secs;

	if (argc == 3 && !strcmp(argv[1], "sink")) {
		if (parse_port(argv[2], &port))
			return 2;
		return sink(port);
	}
	if (argc == 6 && !strcmp(argv[1], "client")) {
		if (parse_port(argv[3], &port))
			return 2;
		secs = strtod(argv[5], &end);
		if (*argv[5] == '\0' || *end != '\0' || secs <= 0 || secs > 3600) {
			fprintf(stderr, "mltcp-synsent: bad duration '%s'\n", argv[5]);
			return 2;
		}
		return client(argv[2], port, argv[4], secs);
	}
	return usage();
}
