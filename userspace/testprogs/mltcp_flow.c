// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-flow: bulk TCP flows that sample their own congestion state, for
 * the side-by-side selftests (no ss or iperf3 process per sample: under
 * an emulated guest those take seconds).
 *
 *   mltcp-flow sink PORT
 *	accept IPv4 connections on PORT and discard what they send, until
 *	killed
 *   mltcp-flow send ADDR PORT ALGO FLOWS SECONDS INTERVAL_MS
 *	open FLOWS connections to ADDR:PORT with congestion control ALGO
 *	(set before connect()), send on each for SECONDS, or until SIGTERM
 *	or SIGINT if that comes first, and sample every INTERVAL_MS; prints
 *	one line per flow and sample:
 *	  s T_MS FLOW CWND SSTHRESH TOTAL_RETRANS BYTES_ACKED ALPHA CA_STATE
 *	(ALPHA: DCTCP alpha /1024, -1 when the algorithm has none) and at the
 *	end, per flow (after a stop by signal too):
 *	  end FLOW BYTES_ACKED TOTAL_RETRANS SECONDS
 *	T_MS counts from the moment every flow is connected; the first line
 *	"start EPOCH_NS" gives that moment in CLOCK_REALTIME.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define MAX_FLOWS 16

static int usage(void)
{
	fprintf(stderr, "usage: mltcp-flow sink PORT\n"
		"       mltcp-flow send ADDR PORT ALGO FLOWS SECONDS INTERVAL_MS\n");
	return 2;
}

static void *drain(void *arg)
{
	static char buf[1 << 16];	/* contents are discarded: sharing is fine */
	int fd = (int)(long)arg;

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	return NULL;
}

static int sink(unsigned short port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, l;

	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 64)) {
		perror("mltcp-flow: listen");
		return 1;
	}
	for (;;) {
		pthread_t th;
		int c = accept(l, NULL, NULL);

		if (c < 0) {
			if (errno == EINTR)
				continue;
			perror("mltcp-flow: accept");
			return 1;
		}
		if (pthread_create(&th, NULL, drain, (void *)(long)c)) {
			fprintf(stderr, "mltcp-flow: no thread for a connection\n");
			return 1;
		}
		pthread_detach(th);
	}
}

struct flow {
	int fd;
	pthread_t th;
	double end;
};

static atomic_int send_failed;
/* set by SIGTERM/SIGINT (lock-free, so signal-safe): the flows end as if SECONDS had passed */
static atomic_int stop;

static void on_stop(int sig)
{
	(void)sig;
	atomic_store(&stop, 1);
}

static void *sender(void *arg)
{
	static char buf[1 << 16];	/* never read */
	struct flow *f = arg;

	while (!atomic_load(&stop) && now_s() < f->end) {
		ssize_t n = send(f->fd, buf, sizeof(buf), MSG_NOSIGNAL);

		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			perror("mltcp-flow: send");
			atomic_store(&send_failed, 1);
			break;
		}
	}
	return NULL;
}

static int sample(const struct flow *f, struct tcp_info *ti, int *alpha)
{
	union {
		struct tcp_dctcp_info dctcp;
		char raw[64];
	} cc;
	socklen_t len = sizeof(*ti);

	memset(ti, 0, sizeof(*ti));
	if (getsockopt(f->fd, IPPROTO_TCP, TCP_INFO, ti, &len))
		return -1;
	*alpha = -1;
	len = sizeof(cc);
	memset(&cc, 0, sizeof(cc));
	if (!getsockopt(f->fd, IPPROTO_TCP, TCP_CC_INFO, &cc, &len) &&
	    len == sizeof(cc.dctcp) && cc.dctcp.dctcp_enabled)
		*alpha = (int)cc.dctcp.dctcp_alpha;
	return 0;
}

static int send_flows(const char *addr, unsigned short port, const char *algo,
		      int nflows, double seconds, long interval_ms)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct timeval tv = { .tv_sec = 0, .tv_usec = 100000 };
	struct flow flows[MAX_FLOWS];
	struct timespec rt;
	double t0, next, dur;
	int i;

	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
		fprintf(stderr, "mltcp-flow: bad IPv4 address '%s'\n", addr);
		return 1;
	}
	for (i = 0; i < nflows; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0 || setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, algo, strlen(algo))) {
			fprintf(stderr, "mltcp-flow: TCP_CONGESTION %s: %s\n", algo, strerror(errno));
			return 1;
		}
		if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
			fprintf(stderr, "mltcp-flow: connect: %s\n", strerror(errno));
			return 1;
		}
		/*
		 * A send blocked by a full buffer returns in time for the
		 * deadline; set after connect(), which it would limit too.
		 */
		if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv))) {
			perror("mltcp-flow: SO_SNDTIMEO");
			return 1;
		}
		flows[i].fd = fd;
	}
	clock_gettime(CLOCK_REALTIME, &rt);
	printf("start %lld%09ld\n", (long long)rt.tv_sec, rt.tv_nsec);
	t0 = now_s();
	for (i = 0; i < nflows; i++) {
		flows[i].end = t0 + seconds;
		if (pthread_create(&flows[i].th, NULL, sender, &flows[i])) {
			fprintf(stderr, "mltcp-flow: no sender thread\n");
			return 1;
		}
	}
	for (next = t0; !atomic_load(&stop) && now_s() < t0 + seconds; ) {
		double t = now_s();

		for (i = 0; i < nflows; i++) {
			struct tcp_info ti;
			int alpha;

			if (sample(&flows[i], &ti, &alpha))
				continue;
			printf("s %.0f %d %u %u %u %llu %d %u\n", (t - t0) * 1000, i,
			       ti.tcpi_snd_cwnd, ti.tcpi_snd_ssthresh, ti.tcpi_total_retrans,
			       (unsigned long long)ti.tcpi_bytes_acked, alpha, ti.tcpi_ca_state);
		}
		next += (double)interval_ms / 1000;
		t = now_s();
		if (next > t && !atomic_load(&stop))
			usleep((useconds_t)((next - t) * 1e6));
	}
	dur = now_s() - t0;
	for (i = 0; i < nflows; i++) {
		struct tcp_info ti;
		int alpha;

		pthread_join(flows[i].th, NULL);
		if (sample(&flows[i], &ti, &alpha)) {
			perror("mltcp-flow: TCP_INFO");
			return 1;
		}
		printf("end %d %llu %u %.3f\n", i, (unsigned long long)ti.tcpi_bytes_acked,
		       ti.tcpi_total_retrans, dur);
		close(flows[i].fd);
	}
	return atomic_load(&send_failed);
}

int main(int argc, char **argv)
{
	long port, nflows, secs, interval;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "sink")) {
		if (parse_long(argv[2], 1, 65535, &port, "port"))
			return 2;
		return sink((unsigned short)port);
	}
	if (argc == 8 && !strcmp(argv[1], "send")) {
		/*
		 * No SA_RESTART: a sleeping sampler wakes at once; a sender's
		 * send() returns EINTR or within its SO_SNDTIMEO.
		 */
		struct sigaction sa = { .sa_handler = on_stop };

		if (sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL)) {
			perror("mltcp-flow: sigaction");
			return 1;
		}
		if (parse_long(argv[3], 1, 65535, &port, "port") ||
		    parse_long(argv[5], 1, MAX_FLOWS, &nflows, "number of flows") ||
		    parse_long(argv[6], 1, 3600, &secs, "duration") ||
		    parse_long(argv[7], 1, 10000, &interval, "interval"))
			return 2;
		return send_flows(argv[2], (unsigned short)port, argv[4], (int)nflows,
				  (double)secs, interval);
	}
	return usage();
}
