// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bursts: a sender whose first iterations teach MLTCP's learner an
 * iteration size and which then streams, with no hint of any kind.
 *
 *   mltcp-bursts ADDR PORT ALGO BURSTS BYTES GAP_MS SECONDS
 *	connect to the IPv4 ADDR:PORT with congestion control ALGO (set
 *	before connect(); "-" keeps the default), send BURSTS bursts of
 *	BYTES, each followed by a pause of GAP_MS once all of it is acked
 *	(so the socket is idle, nothing in flight, for GAP_MS), then send
 *	without pause for SECONDS, from a send buffer of 4 MB (a stall of
 *	this program, as an emulated guest has, must not empty the socket:
 *	that would be an idle gap, hence an iteration, to the learner).  Prints "burst N T_MS" after each burst
 *	is acked, "stream T_MS" when the streaming starts and
 *	"end BYTES_ACKED" at the end (T_MS from the connection).
 * The receiver only has to read and discard (mltcp-flow sink).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "common.h"

int main(int argc, char **argv)
{
	static char buf[1 << 16];	/* never read */
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = 0, .tv_usec = 100000 };
	long port, bursts, bytes, gap_ms, secs, i;
	int sndbuf = 4 << 20;
	struct tcp_info ti;
	socklen_t len;
	double t0, end;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 8) {
		fprintf(stderr, "usage: mltcp-bursts ADDR PORT ALGO BURSTS BYTES GAP_MS SECONDS\n");
		return 2;
	}
	if (inet_pton(AF_INET, argv[1], &a.sin_addr) != 1) {
		fprintf(stderr, "mltcp-bursts: bad IPv4 address '%s'\n", argv[1]);
		return 2;
	}
	if (parse_long(argv[2], 1, 65535, &port, "port") ||
	    parse_long(argv[4], 0, 1000, &bursts, "number of bursts") ||
	    parse_long(argv[5], 1, 1L << 30, &bytes, "burst size") ||
	    parse_long(argv[6], 0, 60000, &gap_ms, "gap") ||
	    parse_long(argv[7], 0, 3600, &secs, "duration"))
		return 2;
	a.sin_port = htons((unsigned short)port);

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0) {
		perror("mltcp-bursts: socket");
		return 1;
	}
	if (strcmp(argv[3], "-") &&
	    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, argv[3], strlen(argv[3]))) {
		fprintf(stderr, "mltcp-bursts: TCP_CONGESTION %s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		fprintf(stderr, "mltcp-bursts: connect: %s\n", strerror(errno));
		return 1;
	}
	t0 = now_s();
	for (i = 1; i <= bursts; i++) {
		if (send_all(fd, (size_t)bytes) || wait_acked(fd)) {
			fprintf(stderr, "mltcp-bursts: burst %ld: %s\n", i, strerror(errno));
			return 1;
		}
		printf("burst %ld %.0f\n", i, (now_s() - t0) * 1000);
		usleep((useconds_t)gap_ms * 1000);
	}
	/* a send blocked by a full buffer returns in time for the deadline */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf))) {
		perror("mltcp-bursts: SO_SNDTIMEO, SO_SNDBUF");
		return 1;
	}
	printf("stream %.0f\n", (now_s() - t0) * 1000);
	for (end = now_s() + (double)secs; now_s() < end; ) {
		ssize_t n = send(fd, buf, sizeof(buf), MSG_NOSIGNAL);

		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			perror("mltcp-bursts: send");
			return 1;
		}
	}
	len = sizeof(ti);
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len)) {
		perror("mltcp-bursts: TCP_INFO");
		return 1;
	}
	printf("end %llu\n", (unsigned long long)ti.tcpi_bytes_acked);
	close(fd);
	return 0;
}
