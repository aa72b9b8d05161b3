// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-bench: the table of the coordinator's children (the job processes and the
 * bottleneck sampler of the current run), the signalfd it waits on, and the one way out
 * on a failure or a signal: fatal_exit(), which kills the children and removes the
 * topology so that no namespace outlives the program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "supervise.h"
#include "util.h"

struct child {
	pid_t pid;
	int status;
	int done;
	char what[64];
};

static struct child children[2 * MAX_JOBS + 1];
static unsigned nchildren;
static int sfd = -1; /* signalfd: SIGINT, SIGTERM, SIGHUP, SIGCHLD */
static struct topology *cleanup_topo; /* removed by fatal_exit() */

static void kill_children(void)
{
	for (unsigned i = 0; i < nchildren; i++)
		if (!children[i].done)
			kill(children[i].pid, SIGKILL);
	for (unsigned i = 0; i < nchildren; i++)
		if (!children[i].done) {
			while (waitpid(children[i].pid, &children[i].status, 0) < 0 &&
			       errno == EINTR)
				;
			children[i].done = 1;
		}
	nchildren = 0;
}

void fatal_exit(int code)
{
	kill_children();
	if (cleanup_topo)
		topology_destroy(cleanup_topo);
	exit(code);
}

/* Reap; returns -1 if a child failed (reported). */
static int reap(void)
{
	int st, ret = 0;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (unsigned i = 0; i < nchildren; i++) {
			if (children[i].pid != pid)
				continue;
			children[i].done = 1;
			children[i].status = st;
			if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
				break;
			if (WIFSIGNALED(st))
				warnx_("%s killed by signal %d", children[i].what, WTERMSIG(st));
			else
				warnx_("%s failed (exit %d)", children[i].what, WEXITSTATUS(st));
			ret = -1;
		}
	}
	return ret;
}

int wait_event(int fd, int64_t deadline)
{
	struct pollfd p[2] = { { .fd = sfd, .events = POLLIN }, { .fd = fd, .events = POLLIN } };
	int64_t left = deadline - now_ns();
	int r;

	if (left < 0)
		left = 0;
	r = poll(p, fd >= 0 ? 2 : 1, (int)(left / NSEC_PER_MSEC) + 1);
	if (r < 0 && errno != EINTR) {
		warnx_("poll: %s", strerror(errno));
		fatal_exit(1);
	}
	if (r > 0 && (p[0].revents & POLLIN)) {
		struct signalfd_siginfo si;

		while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo != SIGCHLD) {
				warnx_("interrupted by signal %u, cleaning up", si.ssi_signo);
				fatal_exit(130);
			}
		}
		if (reap())
			fatal_exit(1);
		return 0;
	}
	if (r > 0 && fd >= 0 && (p[1].revents & (POLLIN | POLLHUP)))
		return 1;
	return 0;
}

pid_t spawn_child(const char *what, int close1, int close2)
{
	pid_t pid;

	if (nchildren >= sizeof(children) / sizeof(children[0])) {
		warnx_("too many processes");
		fatal_exit(1);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		warnx_("fork: %s", strerror(errno));
		fatal_exit(1);
	}
	if (pid == 0) {
		close(sfd);
		close(close1);
		close(close2);
		return 0;
	}
	children[nchildren].pid = pid;
	children[nchildren].done = 0;
	snprintf(children[nchildren].what, sizeof(children[nchildren].what), "%s", what);
	nchildren++;
	return pid;
}

unsigned children_running(int with_sampler)
{
	unsigned live = 0;

	for (unsigned i = 0; i < nchildren; i++)
		if (!children[i].done &&
		    (with_sampler || strstr(children[i].what, "sampler") == NULL))
			live++;
	return live;
}

void children_forget(void)
{
	nchildren = 0;
}

int supervise_init(struct topology *t)
{
	sigset_t ss;

	sigemptyset(&ss);
	sigaddset(&ss, SIGINT);
	sigaddset(&ss, SIGTERM);
	sigaddset(&ss, SIGHUP);
	sigaddset(&ss, SIGCHLD);
	sigprocmask(SIG_BLOCK, &ss, NULL);
	sfd = signalfd(-1, &ss, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		warnx_("signalfd: %s", strerror(errno));
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	cleanup_topo = t;
	return 0;
}
