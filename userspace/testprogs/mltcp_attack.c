// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-attack: a sender that tries to get more than its base algorithm
 * from MLTCP by what it declares on a live socket, or by pausing briefly.
 *
 *   mltcp-attack ADDR PORT ALGO MODE SECONDS OVERRUN_Q10 [BYTES [PAUSE_MS]]
 *	connect to the IPv4 ADDR:PORT with congestion control ALGO and send
 *	for SECONDS (or until SIGTERM) from a send buffer of 4 MB, as MODE:
 *	maxsize    tie-break 1.0 and MLTCP_BYTES_PER_ITER_MAX set before
 *		   connect(), then an endless stream;
 *	redeclare  a stream that sets its size to 1.5 times the bytes written
 *		   so far (at least the 16 KiB floor) every 50 ms;
 *	beginzero  a stream that marks an iteration (ITER_BEGIN), drops its
 *		   size (0) and declares BYTES (default 4 MiB) every 50 ms,
 *		   with no idle gap;
 *	pausing    BYTES (default 10 MB) at a time, each followed, once all
 *		   of it is acked, by PAUSE_MS (default 25) with nothing in
 *		   flight: a bulk sender idle for a small share of its time;
 *	declared   BYTES (default 64 KiB) declared before connect(), then an
 *		   endless stream;
 *	learned    five bursts of 64 KB, each followed by 100 ms once acked
 *		   (the learner learns 64 KB from them), then an endless stream;
 *	stream     an endless stream and nothing else: with a stock ALGO, the
 *		   control the others are measured against (no samples).
 *	After every send() and every millisecond of waiting (for room in the
 *	send buffer, or for the ACKs before a pause) it reads the
 *	socket's MLTCP state (MLTCP_SO_INFO) and counts the samples with
 *	F > 1 and those with F > 1 past OVERRUN_Q10 / 1024 times the size
 *	(the overrun bound).  At the end it prints one line:
 *	"MODE samples N f_over1 N past_bound N fmax Q10 iterations N
 *	 bytes_per_iter N size_given 0|1 bytes_acked N".
 * The receiver only has to read and discard (iperf3 -s, mltcp-flow sink).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <mltcp/libmltcp.h>
#include <linux/mltcp.h>

#include "common.h"

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

struct tally {
	unsigned long samples, f_over1, past_bound;
	uint32_t fmax, overrun_q10;
	struct mltcp_info last;
};

/* One sample of the socket's state.  Return: 0 or -1 with errno. */
static int sample(int fd, struct tally *t)
{
	struct mltcp_info st;

	if (mltcp_get_state(fd, &st))
		return -1;
	t->samples++;
	if (st.f > t->fmax)
		t->fmax = st.f;
	if (st.f > 1024) {
		t->f_over1++;
		if (st.bytes_this_iter > st.bytes_per_iter * t->overrun_q10 / 1024)
			t->past_bound++;
	}
	t->last = st;
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];	/* never read */
	struct sockaddr_in a = { .sin_family = AF_INET };
	long port, secs, overrun, bytes = -1, pause_ms = 25;
	unsigned long long written = 0, since = 0;
	struct tally t = { 0 };
	int sndbuf = 4 << 20;
	const char *mode;
	double end, next;
	struct tcp_info ti;
	socklen_t len;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 7 || argc > 9) {
		fprintf(stderr, "usage: mltcp-attack ADDR PORT ALGO "
			"maxsize|redeclare|beginzero|pausing|declared|learned|stream SECONDS OVERRUN_Q10 "
			"[BYTES [PAUSE_MS]]\n");
		return 2;
	}
	mode = argv[4];
	if (strcmp(mode, "maxsize") && strcmp(mode, "redeclare") && strcmp(mode, "beginzero") &&
	    strcmp(mode, "pausing") && strcmp(mode, "stream") && strcmp(mode, "learned") &&
	    strcmp(mode, "declared")) {
		fprintf(stderr, "mltcp-attack: bad mode '%s'\n", mode);
		return 2;
	}
	if (inet_pton(AF_INET, argv[1], &a.sin_addr) != 1) {
		fprintf(stderr, "mltcp-attack: bad IPv4 address '%s'\n", argv[1]);
		return 2;
	}
	if (parse_long(argv[2], 1, 65535, &port, "port") ||
	    parse_long(argv[5], 1, 3600, &secs, "duration") ||
	    parse_long(argv[6], 1, 1L << 20, &overrun, "overrun (Q10)") ||
	    (argc > 7 && parse_long(argv[7], MLTCP_BYTES_PER_ITER_MIN, 1L << 34, &bytes, "bytes")) ||
	    (argc > 8 && parse_long(argv[8], 0, 60000, &pause_ms, "pause")))
		return 2;
	if (bytes < 0)
		bytes = !strcmp(mode, "pausing") ? 10000000L : !strcmp(mode, "declared") ? 65536 : 4L << 20;
	t.overrun_q10 = (uint32_t)overrun;
	a.sin_port = htons((unsigned short)port);
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0) {
		perror("mltcp-attack: socket");
		return 1;
	}
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, argv[3], strlen(argv[3])) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf))) {
		fprintf(stderr, "mltcp-attack: TCP_CONGESTION %s, SO_SNDBUF: %s\n",
			argv[3], strerror(errno));
		return 1;
	}
	if (!strcmp(mode, "maxsize") &&
	    (mltcp_set_tiebreak(fd, 1024) ||
	     mltcp_set_bytes_per_iter(fd, MLTCP_BYTES_PER_ITER_MAX))) {
		perror("mltcp-attack: tie-break 1.0, size MLTCP_BYTES_PER_ITER_MAX");
		return 1;
	}
	if (!strcmp(mode, "declared") && mltcp_set_bytes_per_iter(fd, (uint64_t)bytes)) {
		perror("mltcp-attack: MLTCP_SO_BYTES_PER_ITER");
		return 1;
	}
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		fprintf(stderr, "mltcp-attack: connect: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; !strcmp(mode, "learned") && i < 5; i++) {
		if (send_all(fd, 65536) || wait_acked(fd)) {
			perror("mltcp-attack: burst");
			return 1;
		}
		usleep(100000);
	}
	next = now_s() + 0.05;
	for (end = now_s() + (double)secs; !stop && now_s() < end; ) {
		ssize_t n = send(fd, buf, sizeof(buf), MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			perror("mltcp-attack: send");
			return 1;
		}
		if (n < 0)
			usleep(1000);	/* the buffer is full: sample again in a millisecond */
		if (n > 0) {
			written += (unsigned long long)n;
			since += (unsigned long long)n;
		}
		if (strcmp(mode, "stream") && sample(fd, &t)) {
			perror("mltcp-attack: MLTCP_SO_INFO");
			return 1;
		}
		if (!strcmp(mode, "pausing") && since >= (unsigned long long)bytes) {
			int unacked = 1;

			/* nothing in flight, then the pause: an idle gap */
			while (!stop && now_s() < end && unacked > 0) {
				if (ioctl(fd, SIOCOUTQ, &unacked)) {
					perror("mltcp-attack: SIOCOUTQ");
					return 1;
				}
				usleep(1000);
				if (sample(fd, &t)) {
					perror("mltcp-attack: MLTCP_SO_INFO");
					return 1;
				}
			}
			usleep((useconds_t)pause_ms * 1000);
			since = 0;
		}
		if (now_s() < next)
			continue;
		next += 0.05;
		if (!strcmp(mode, "redeclare")) {
			unsigned long long s = written / 2 * 3;

			if (s < MLTCP_BYTES_PER_ITER_MIN)
				s = MLTCP_BYTES_PER_ITER_MIN;
			if (s > MLTCP_BYTES_PER_ITER_MAX)
				s = MLTCP_BYTES_PER_ITER_MAX;
			if (mltcp_set_bytes_per_iter(fd, s)) {
				perror("mltcp-attack: MLTCP_SO_BYTES_PER_ITER");
				return 1;
			}
		} else if (!strcmp(mode, "beginzero")) {
			if (mltcp_iteration_begin(fd, 0) || mltcp_set_bytes_per_iter(fd, 0) ||
			    mltcp_set_bytes_per_iter(fd, (uint64_t)bytes)) {
				perror("mltcp-attack: ITER_BEGIN, size 0, size");
				return 1;
			}
		}
	}
	len = sizeof(ti);
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len)) {
		perror("mltcp-attack: TCP_INFO");
		return 1;
	}
	printf("%s samples %lu f_over1 %lu past_bound %lu fmax %u iterations %u "
	       "bytes_per_iter %llu size_given %d bytes_acked %llu\n",
	       mode, t.samples, t.f_over1, t.past_bound, t.fmax, t.last.iterations,
	       (unsigned long long)t.last.bytes_per_iter,
	       !!(t.last.flags & MLTCP_INFO_F_SIZE_GIVEN),
	       (unsigned long long)ti.tcpi_bytes_acked);
	close(fd);
	return 0;
}
