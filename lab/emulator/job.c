// SPDX-License-Identifier: GPL-2.0
/* mltcp-bench: sender and receiver of one job, and the bottleneck sampler. */
#define _GNU_SOURCE
#include "job.h"
#include "hints.h"
#include "topology.h"
#include "util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define IO_CHUNK (256 * 1024)
#define BULK_CHUNK (64 * 1024) /* the flow stops within one chunk after the last job */

void child_setup(void)
{
	sigset_t none;
	struct sigaction sa = { .sa_handler = SIG_DFL };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
}

#define die(e, fmt, ...)                                                                     \
	do {                                                                                 \
		warnx_("job %u (%s) " fmt, (e)->index, (e)->p->name, ##__VA_ARGS__);         \
		_exit(1);                                                                    \
	} while (0)

static void wait_go(const struct job_env *e)
{
	char c;
	ssize_t r;

	while ((r = read(e->go_fd, &c, 1)) < 0 && errno == EINTR)
		;
	close(e->go_fd);
	if (r != 0)
		_exit(1); /* the coordinator writes nothing: EOF is the start */
}

/* Payload bytes that arrived t ns after the start into their bin. The connections of
 * one job are served by several processes, hence the atomic add. */
static void count_bytes(const struct job_env *e, int64_t t, uint64_t n)
{
	if (t >= 0 && (uint64_t)(t / e->sh->bin_ns) < e->sh->nbins)
		__atomic_fetch_add(&e->sh->job[e->slot].bins[t / e->sh->bin_ns], n,
				   __ATOMIC_RELAXED);
}

/* One connection of the job, until its sender closes it: every phase's share, answered by
 * an ack once all of it is here; or a bulk flow's bytes. */
static void receive_conn(const struct job_env *e, int fd, char *buf)
{
	for (;;) {
		struct wire_hdr h, ack;
		uint64_t left;
		int r = read_full(fd, &h, sizeof(h));

		if (r == 0)
			break; /* sender done */
		if (r < 0)
			die(e, "receiver: reading header: %s", strerror(errno));
		if (h.magic == WIRE_MAGIC_BULK && h.job == e->index) {
			/* a bulk flow: count its bytes until the sender closes */
			for (;;) {
				ssize_t n = read(fd, buf, IO_CHUNK);

				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0)
					die(e, "receiver: bulk flow: %s", strerror(errno));
				if (n == 0)
					break;
				count_bytes(e, now_ns() - e->sh->t0, (uint64_t)n);
			}
			break;
		}
		if (h.magic != WIRE_MAGIC_DATA || h.job != e->index)
			die(e, "receiver: bad header (magic %#x, job %u)", h.magic, h.job);
		for (left = h.bytes; left;) {
			ssize_t n = read(fd, buf, left < IO_CHUNK ? left : IO_CHUNK);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				die(e, "receiver: iteration %u phase %u: %s", h.iter, h.phase,
				    n ? strerror(errno) : "connection closed mid-phase");
			left -= (uint64_t)n;
			count_bytes(e, now_ns() - e->sh->t0, (uint64_t)n);
		}
		ack = h;
		ack.magic = WIRE_MAGIC_ACK;
		if (write_full(fd, &ack, sizeof(ack)))
			die(e, "receiver: sending ack: %s", strerror(errno));
	}
	close(fd);
}

/*
 * The job's receiver: accepts its connections (conns), then serves each in a process of
 * its own (the first in this one), so that no connection waits for another's reads.
 */
void job_receiver_main(const struct job_env *e)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(e->port) };
	unsigned n = e->p->conns, forked = 0;
	int one = 1, lfd, fd[MAX_CONNS], failed = 0;
	char err[256];
	char *buf;

	child_setup();
	close(e->go_fd);
	if (netns_enter(e->rcv_ns, err, sizeof(err)))
		die(e, "receiver: %s", err);
	buf = malloc(IO_CHUNK);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (!buf || lfd < 0)
		die(e, "receiver: socket: %s", strerror(errno));
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/*
	 * Both ends run the job's algorithm, as on hosts configured alike. DCTCP needs it:
	 * its SYN carries ECT, and a receiver not running an ECN-needing algorithm then
	 * refuses ECN (RFC 3168), which drops the sender back to Reno.
	 */
	if (e->p->cc[0] &&
	    setsockopt(lfd, IPPROTO_TCP, TCP_CONGESTION, e->p->cc, strlen(e->p->cc)))
		die(e, "receiver: congestion control '%s': %s", e->p->cc, strerror(errno));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, (int)n))
		die(e, "receiver: bind/listen on port %u: %s", e->port, strerror(errno));
	if (write_full(e->ready_fd, "R", 1))
		_exit(1);
	close(e->ready_fd);
	for (unsigned i = 0; i < n; i++) {
		fd[i] = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd[i] < 0)
			die(e, "receiver: accept: %s", strerror(errno));
		setsockopt(fd[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	}
	close(lfd);
	for (unsigned i = 1; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die(e, "receiver: fork: %s", strerror(errno));
		if (pid == 0) {
			child_setup();
			for (unsigned k = 0; k < n; k++)
				if (k != i)
					close(fd[k]);
			receive_conn(e, fd[i], buf);
			_exit(0);
		}
		close(fd[i]);
		forked++;
	}
	receive_conn(e, fd[0], buf);
	while (forked) {
		int st;

		if (wait(&st) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		forked--;
		failed |= !WIFEXITED(st) || WEXITSTATUS(st);
	}
	_exit(failed);
}

static int connect_retry(const struct job_env *e, int fd, const struct sockaddr_in *sa)
{
	int64_t deadline = now_ns() + 10 * NSEC_PER_SEC;

	for (;;) {
		if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0)
			return 0;
		if ((errno != ECONNREFUSED && errno != EINTR) || now_ns() > deadline)
			die(e, "sender: connect to %s:%u: %s", e->rcv_addr, e->port, strerror(errno));
		usleep(20000);
	}
}

static void compute(const struct job_profile *p, int64_t until)
{
	if (p->compute == COMPUTE_BUSY)
		spin_until_ns(until);
	else
		sleep_until_ns(until);
}

static void send_all(const struct job_env *e, int fd, const void *buf, size_t n)
{
	const char *c = buf;

	while (n) {
		ssize_t r = send(fd, c, n, MSG_NOSIGNAL);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			die(e, "sender: send: %s", strerror(errno));
		}
		c += r;
		n -= (size_t)r;
	}
}

/* The share of a phase's bytes connection i of n carries: even, the first ones one byte
 * more where they do not divide. */
static uint64_t conn_share(uint64_t bytes, unsigned n, unsigned i)
{
	return bytes / n + (i < bytes % n);
}

/*
 * left[i] payload bytes on each of the n connections fd[], all at once: each gets what
 * its socket takes without blocking, and only when none took anything does the sender
 * wait (poll) for one to have room. One connection is written with blocking sends, as a
 * single-stream job writes: fewer system calls, which a guest without hardware
 * virtualisation pays dearly for.
 */
static void send_shares(const struct job_env *e, const int *fd, uint64_t *left, unsigned n,
			const char *buf)
{
	for (; n == 1 && left[0];) {
		size_t c = left[0] < IO_CHUNK ? left[0] : IO_CHUNK;

		send_all(e, fd[0], buf, c);
		left[0] -= c;
	}
	for (;;) {
		struct pollfd pfd[MAX_CONNS];
		unsigned waiting = 0, busy = 0;

		for (unsigned i = 0; i < n; i++) {
			ssize_t r;

			if (!left[i])
				continue;
			busy++;
			r = send(fd[i], buf, left[i] < IO_CHUNK ? left[i] : IO_CHUNK,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
			if (r > 0) {
				left[i] -= (uint64_t)r;
				continue;
			}
			if (r < 0 && errno != EAGAIN && errno != EINTR)
				die(e, "sender: send: %s", strerror(errno));
			pfd[waiting++] = (struct pollfd){ .fd = fd[i], .events = POLLOUT };
		}
		if (!busy)
			return;
		if (waiting == busy && poll(pfd, waiting, -1) < 0 && errno != EINTR)
			die(e, "sender: poll: %s", strerror(errno));
	}
}

/* A connection of the job, set up as the profile asks; the congestion control in use
 * into cc (CC_NAME_MAX + 1 bytes). */
static int sender_conn(const struct job_env *e, const struct sockaddr_in *sa, uint64_t share,
		       char *cc)
{
	const struct job_profile *p = e->p;
	socklen_t cclen = CC_NAME_MAX;
	char err[256];
	int one = 1, fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die(e, "sender: socket: %s", strerror(errno));
	if (p->cc[0] && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, p->cc, strlen(p->cc))) {
		char avail[512] = "?";
		FILE *f = fopen("/proc/sys/net/ipv4/tcp_available_congestion_control", "r");

		if (f) {
			if (!fgets(avail, sizeof(avail), f))
				strcpy(avail, "?");
			fclose(f);
		}
		die(e, "sender: congestion control '%s': %s (available: %s)", p->cc,
		    strerror(errno), strip(avail));
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	connect_retry(e, fd, sa);
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, &cclen))
		die(e, "sender: getsockopt TCP_CONGESTION: %s", strerror(errno));
	cclen = cclen < CC_NAME_MAX ? cclen : CC_NAME_MAX - 1;
	cc[cclen] = '\0';
	if (p->cc[0] && strcmp(cc, p->cc))
		die(e, "sender: asked for congestion control '%s', socket uses '%s'", p->cc, cc);
	if (!p->bulk &&
	    hints_socket_ready(fd, (uint64_t)p->phases * (share + sizeof(struct wire_hdr)),
			       err, sizeof(err)))
		die(e, "sender: %s", err);
	if (!p->bulk && hints_tiebreak(fd, p->tiebreak, err, sizeof(err)))
		die(e, "sender: %s", err);
	return fd;
}

void job_sender_main(const struct job_env *e)
{
	const struct job_profile *p = e->p;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(e->port) };
	char err[256], cc[CC_NAME_MAX + 1] = "";
	unsigned n = p->conns;
	int fd[MAX_CONNS];
	char *buf;
	int64_t t0, gap = (int64_t)(p->gap_ms * NSEC_PER_MSEC);
	struct job_slot *js = &e->sh->job[e->slot];

	child_setup();
	if (netns_enter(e->snd_ns, err, sizeof(err)))
		die(e, "sender: %s", err);
	if (inet_pton(AF_INET, e->rcv_addr, &sa.sin_addr) != 1)
		die(e, "sender: '%s' is not an IPv4 address", e->rcv_addr);
	buf = malloc(IO_CHUNK);
	if (!buf)
		die(e, "sender: %s", strerror(errno));
	memset(buf, 0x5a, IO_CHUNK);
	for (unsigned i = 0; i < n; i++)
		fd[i] = sender_conn(e, &sa, conn_share(p->bytes, n, i), cc);
	memcpy(js->cc, cc, strlen(cc) + 1);
	if (write_full(e->ready_fd, "R", 1))
		_exit(1);
	close(e->ready_fd);
	wait_go(e);

	/*
	 * Exact start: the EOF on the go pipe, seen by every sender at once, is the release
	 * of the first iteration (offset 0: no timer involved). Timed start: every sender
	 * sleeps until the common t0 (set 50 ms after the go signal) plus its offset.
	 */
	t0 = e->sh->t0;
	if (!e->sh->start_exact || p->offset_ms > 0)
		sleep_until_ns(t0 + (int64_t)(p->offset_ms * NSEC_PER_MSEC));
	if (p->bulk) {
		/* a stock bulk flow: stream while any training job of the run is running */
		struct wire_hdr h = { WIRE_MAGIC_BULK, 0, 0, e->index, 0 };

		send_all(e, fd[0], &h, sizeof(h));
		while (e->sh->jobs_left > 0)
			send_all(e, fd[0], buf, BULK_CHUNK);
		shutdown(fd[0], SHUT_WR);
		while (read(fd[0], buf, IO_CHUNK) > 0)
			;
		close(fd[0]);
		_exit(0);
	}
	for (unsigned it = 0; it < p->iterations; it++) {
		int64_t start = now_ns();

		for (unsigned i = 0; i < n; i++)
			if (hints_iteration_start(fd[i], it, err, sizeof(err)))
				die(e, "sender: %s", err);
		compute(p, start + (int64_t)(p->compute_ms * NSEC_PER_MSEC));
		for (unsigned ph = 0; ph < p->phases; ph++) {
			struct raw_span *ps = &js->phase[(size_t)it * p->phases + ph];
			uint64_t left[MAX_CONNS];

			if (ph)
				compute(p, now_ns() + gap);
			ps->start = now_ns();
			for (unsigned i = 0; i < n; i++) {
				struct wire_hdr h = { WIRE_MAGIC_DATA, it, ph, e->index,
						      conn_share(p->bytes, n, i) };

				left[i] = h.bytes;
				send_all(e, fd[i], &h, sizeof(h));
			}
			send_shares(e, fd, left, n, buf);
			/* the barrier: every connection's receiver has its share */
			for (unsigned i = 0; i < n; i++) {
				struct wire_hdr ack;
				int r = read_full(fd[i], &ack, sizeof(ack));

				if (r <= 0)
					die(e, "sender: waiting for the barrier of iteration %u: %s",
					    it, r ? strerror(errno) : "connection closed");
				if (ack.magic != WIRE_MAGIC_ACK || ack.iter != it ||
				    ack.phase != ph || ack.bytes != conn_share(p->bytes, n, i))
					die(e, "sender: bad barrier ack for iteration %u phase %u",
					    it, ph);
			}
			ps->end = now_ns();
		}
		js->iter[it].start = start;
		js->iter[it].end = now_ns();
		js->iters_done = it + 1;
	}
	__sync_fetch_and_sub(&e->sh->jobs_left, 1);
	for (unsigned i = 0; i < n; i++) {
		shutdown(fd[i], SHUT_WR);
		while (read(fd[i], buf, IO_CHUNK) > 0)
			;
		close(fd[i]);
	}
	_exit(0);
}

void sampler_main(struct run_shared *sh, const char *ns, const char *dev, int go_fd,
		  int64_t interval_ns)
{
	char err[256], c;
	int fd, ifindex;
	int64_t next;
	ssize_t r;

	child_setup();
	if (netns_enter(ns, err, sizeof(err))) {
		warnx_("sampler: %s", err);
		_exit(1);
	}
	ifindex = (int)if_nametoindex(dev);
	if (!ifindex) {
		warnx_("sampler: bottleneck device %s: %s", dev, strerror(errno));
		_exit(1);
	}
	fd = qstats_open();
	if (fd < 0) {
		warnx_("sampler: netlink: %s", strerror(errno));
		_exit(1);
	}
	while ((r = read(go_fd, &c, 1)) < 0 && errno == EINTR)
		;
	close(go_fd);
	if (r != 0)
		_exit(1);
	for (next = sh->t0;; next += interval_ns) {
		struct qstats q;
		int last = sh->stop;

		sleep_until_ns(next);
		if (qstats_read(fd, ifindex, &q)) {
			warnx_("sampler: reading qdisc statistics of %s: %s", dev, strerror(errno));
			_exit(1);
		}
		if (sh->nsamples < sh->max_samples) {
			struct counter_sample *s = &sh->samples[sh->nsamples];

			s->t = (double)(now_ns() - sh->t0);
			s->drops = (double)q.drops;
			s->marks = (double)q.marks;
			s->backlog = (double)q.backlog;
			sh->nsamples++;
		}
		if (last)
			break;
		if (now_ns() > next + interval_ns)
			next = now_ns(); /* fell behind: do not burst */
	}
	_exit(0);
}
