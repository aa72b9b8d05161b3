// SPDX-License-Identifier: GPL-2.0
/* mltcp-bench hints through libmltcp (see hints.h). */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>

#include <mltcp/libmltcp.h>

#include "hints.h"
#include "util.h"

static enum hints_mode current = HINTS_NONE;
/* Each sender is its own process, with its job's sockets (conns): which were told? */
static fd_set hinted;

int hints_select(enum hints_mode mode, char *err, size_t errlen)
{
	switch (mode) {
	case HINTS_NONE:
	case HINTS_LIBMLTCP:
		current = mode;
		return 0;
	}
	return seterr(err, errlen, "unknown hints mode %d", (int)mode);
}

const char *hints_mode_name(void)
{
	return current == HINTS_NONE ? "no-hints" : "hints";
}

static int uses_mltcp(int fd)
{
	char cc[32] = "";
	socklen_t len = sizeof(cc) - 1;

	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, &len))
		return 0;
	return strncmp(cc, "mltcp_", 6) == 0;
}

int hints_socket_ready(int fd, uint64_t bytes_per_iteration, char *err, size_t errlen)
{
	if (current == HINTS_NONE || !uses_mltcp(fd))
		return 0;
	if (fd < 0 || fd >= FD_SETSIZE)
		return seterr(err, errlen, "hints: socket %d beyond FD_SETSIZE", fd);
	if (mltcp_set_bytes_per_iter(fd, bytes_per_iteration))
		return seterr(err, errlen, "hints: mltcp_set_bytes_per_iter(%llu): %s",
			      (unsigned long long)bytes_per_iteration, strerror(errno));
	FD_SET(fd, &hinted);
	return 0;
}

int hints_tiebreak(int fd, double tiebreak, char *err, size_t errlen)
{
	uint32_t q10;

	if (tiebreak < 0 || !uses_mltcp(fd))
		return 0;
	q10 = (uint32_t)(tiebreak * MLTCP_ABI_Q10_ONE + 0.5);
	if (mltcp_set_tiebreak(fd, q10))
		return seterr(err, errlen, "mltcp_set_tiebreak(%u): %s", q10, strerror(errno));
	return 0;
}

int hints_iteration_start(int fd, unsigned iteration, char *err, size_t errlen)
{
	if (fd < 0 || fd >= FD_SETSIZE || !FD_ISSET(fd, &hinted))
		return 0;
	if (mltcp_iteration_begin(fd, 0))
		return seterr(err, errlen, "hints: mltcp_iteration_begin (iteration %u): %s",
			      iteration, strerror(errno));
	return 0;
}
