// SPDX-License-Identifier: GPL-2.0
/* mltcp-bench hints (see hints.h). */
#include "hints.h"
#include "util.h"

static enum hints_mode current = HINTS_NONE;

int hints_select(enum hints_mode mode, char *err, size_t errlen)
{
	switch (mode) {
	case HINTS_NONE:
		current = mode;
		return 0;
	case HINTS_LIBMLTCP:
		return seterr(err, errlen,
			      "--hints: libmltcp not built yet; this mltcp-bench can only run "
			      "--no-hints (learned mode)");
	}
	return seterr(err, errlen, "unknown hints mode %d", (int)mode);
}

const char *hints_mode_name(void)
{
	return current == HINTS_NONE ? "no-hints" : "hints";
}

int hints_socket_ready(int fd, uint64_t bytes_per_iteration, char *err, size_t errlen)
{
	(void)fd;
	(void)bytes_per_iteration;
	if (current != HINTS_NONE)
		return seterr(err, errlen, "hints: libmltcp not built yet");
	return 0;
}

int hints_iteration_start(int fd, unsigned iteration, char *err, size_t errlen)
{
	(void)fd;
	(void)iteration;
	if (current != HINTS_NONE)
		return seterr(err, errlen, "hints: libmltcp not built yet");
	return 0;
}
