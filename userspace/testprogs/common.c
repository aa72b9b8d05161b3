// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <linux/sockios.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "mltcp_core.h"
#include "common.h"

int tap_n, tap_failed;

void tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

int tap_finish(void)
{
	printf("1..%d\n", tap_n);
	if (tap_failed)
		printf("# %d of %d failed\n", tap_failed, tap_n);
	return tap_failed ? 1 : 0;
}

const char *errname(int err)
{
	switch (err) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case ENOPROTOOPT: return "ENOPROTOOPT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOTCONN: return "ENOTCONN";
	case EPERM: return "EPERM";
	case ERANGE: return "ERANGE";
	case EBADF: return "EBADF";
	case ENOTSOCK: return "ENOTSOCK";
	case ENOENT: return "ENOENT";
	case EBUSY: return "EBUSY";
	}
	return strerror(err);
}

int parse_long(const char *s, long lo, long hi, long *out, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno || v < lo || v > hi) {
		fprintf(stderr, "%s: bad %s '%s' (%ld..%ld)\n", program_invocation_short_name,
			what, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *drain(void *arg)
{
	int fd = (int)(intptr_t)arg;
	char buf[65536];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	return NULL;
}

int conn_open2(struct conn *c, int family, const char *algo, bool drained)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t len;
	pthread_t th;
	int lfd, one = 1, err;

	memset(c, 0, sizeof(*c));
	c->cli = c->srv = -1;
	c->family = family;
	if (family == AF_INET6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*a);
	}
	lfd = socket(family, SOCK_STREAM, 0);
	if (lfd < 0)
		return -1;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&ss, len) < 0 || listen(lfd, 4) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&ss, &len) < 0)
		goto fail;
	c->port = ntohs(family == AF_INET6 ?
			((struct sockaddr_in6 *)&ss)->sin6_port :
			((struct sockaddr_in *)&ss)->sin_port);
	c->cli = socket(family, SOCK_STREAM, 0);
	if (c->cli < 0)
		goto fail;
	if (algo && setsockopt(c->cli, IPPROTO_TCP, TCP_CONGESTION, algo,
			       (socklen_t)strlen(algo)) < 0)
		goto fail;
	if (connect(c->cli, (struct sockaddr *)&ss, len) < 0)
		goto fail;
	c->srv = accept(lfd, NULL, NULL);
	if (c->srv < 0)
		goto fail;
	close(lfd);
	lfd = -1;
	if (!drained)
		return 0;
	if (pthread_create(&th, NULL, drain, (void *)(intptr_t)c->srv)) {
		errno = EAGAIN;
		goto fail;
	}
	pthread_detach(th);
	return 0;

fail:
	err = errno;
	if (lfd >= 0)
		close(lfd);
	if (c->cli >= 0)
		close(c->cli);
	if (c->srv >= 0)
		close(c->srv);
	c->cli = c->srv = -1;
	errno = err;
	return -1;
}

int conn_open(struct conn *c, int family, const char *algo)
{
	return conn_open2(c, family, algo, true);
}

void conn_close(struct conn *c)
{
	if (c->cli >= 0) {
		shutdown(c->cli, SHUT_RDWR);
		close(c->cli);
	}
	/* the drain thread sees EOF and closes the server end */
	c->cli = -1;
	c->srv = -1;
}

int send_all(int fd, size_t len)
{
	static const char zeros[65536];

	while (len) {
		size_t n = len < sizeof(zeros) ? len : sizeof(zeros);
		/* no SIGPIPE when another thread shut the socket down meanwhile */
		ssize_t w = send(fd, zeros, n, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		len -= (size_t)w;
	}
	return 0;
}

int wait_acked(int fd)
{
	int i, outq;

	for (i = 0; i < 5000; i++) {
		if (ioctl(fd, SIOCOUTQ, &outq) < 0)
			return -1;
		if (!outq)
			return 0;
		usleep(1000);
	}
	errno = ETIMEDOUT;
	return -1;
}

static int read_sysfs(const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/mltcp/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

int read_params(struct params *p)
{
	char buf[64];

	if (read_sysfs("slope", buf, sizeof(buf)) ||
	    mltcp_parse_q10(buf, &p->slope) ||
	    read_sysfs("intercept", buf, sizeof(buf)) ||
	    mltcp_parse_q10(buf, &p->intercept) ||
	    read_sysfs("mode", buf, sizeof(buf)))
		return -1;
	p->mode = mltcp_parse_mode(buf);
	return p->mode < 0 ? -1 : 0;
}

void idle_pause(void)
{
	const struct timespec ts = { .tv_nsec = 40 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}
