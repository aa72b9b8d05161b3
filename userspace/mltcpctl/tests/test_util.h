/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mltcpctl's unit tests share: a command line parsed from a list of
 * words, and a printer's output captured in memory.  Include after
 * <cmocka.h>, "output.h" and "parse.h".
 */
#ifndef MLTCPCTL_TEST_UTIL_H
#define MLTCPCTL_TEST_UTIL_H

#include <stdarg.h>
#include <stdio.h>

/* mltcpctl_parse()'s message of the last parse() */
static char errbuf[512];

/* mltcpctl_parse() of "mltcpctl" and the words given, up to a NULL */
static int parse(struct mltcpctl_args *a, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;

	argv[argc++] = "mltcpctl";
	va_start(ap, a);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	return mltcpctl_parse(argc, argv, a, errbuf, sizeof(errbuf));
}

/* Runs a printer into a memory buffer; returns the malloc()ed text. */
#define CAPTURE(text, json_, pretty_, call) do {			\
	size_t _len;							\
	FILE *_f = open_memstream(&(text), &_len);			\
	struct mltcpctl_out o = { .f = _f, .json = json_, .pretty = pretty_ }; \
									\
	assert_non_null(_f);						\
	call;								\
	fclose(_f);							\
} while (0)

#endif /* MLTCPCTL_TEST_UTIL_H */
