// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-slowdump: holds an MLTCP netlink dump open half-way, for tests that
 * change what it walks (close sockets, delete a namespace, unload a module)
 * while the kernel keeps the dump's position.
 *
 *	mltcp-slowdump [-c sockets|counters]
 *
 * Starts MLTCP_CMD_GET_SOCKETS (or GET_COUNTERS) as a dump and reads its
 * first datagram with a one-page buffer, so that the kernel builds the
 * dump a page at a time and keeps its place in between.  Prints
 * "first N" (the messages in that datagram), waits for a line on stdin,
 * then reads the rest and prints "done TOTAL" when the dump ended with
 * NLMSG_DONE or "error ERRNAME" when it ended with an error.
 *
 * Exit status: 0 when the dump ended either way; 1 when an answer was
 * malformed or truncated; 2 on a usage or setup error (e.g. ENOENT: the
 * family is not registered).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/mltcp.h>

#include "common.h"
#include "nlraw.h"

/* one page: the size the kernel gives a dump's datagrams until a reader asks for more */
#define PAGE_BYTES 4096

enum dump_state { DUMP_MORE, DUMP_DONE, DUMP_ERROR, DUMP_BAD };

/*
 * Reads one datagram of the dump; adds its data messages to *@count and
 * stores the kernel's errno in *@err when it ended the dump with one.
 */
static enum dump_state read_datagram(int fd, unsigned int seq, int *count, int *err)
{
	char buf[PAGE_BYTES];
	const struct nlmsghdr *nlh;
	ssize_t len;
	int rest;

	len = recv(fd, buf, sizeof(buf), MSG_TRUNC);
	if (len < 0) {
		*err = -errno;
		return DUMP_ERROR;
	}
	if ((size_t)len > sizeof(buf)) {
		fprintf(stderr, "mltcp-slowdump: a datagram of %zd bytes, more than a page\n", len);
		return DUMP_BAD;
	}
	rest = (int)len;
	for (nlh = (const void *)buf; mnl_nlmsg_ok(nlh, rest); nlh = mnl_nlmsg_next(nlh, &rest)) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

		if (nlh->nlmsg_seq != seq) {
			fprintf(stderr, "mltcp-slowdump: sequence %u, not %u\n", nlh->nlmsg_seq, seq);
			return DUMP_BAD;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			*err = e->error;
			return DUMP_ERROR;
		}
		if (nlh->nlmsg_type == NLMSG_DONE) {
			*err = e->error;
			return e->error < 0 ? DUMP_ERROR : DUMP_DONE;
		}
		(*count)++;
	}
	if (rest) {
		fprintf(stderr, "mltcp-slowdump: %d bytes left over in a datagram\n", rest);
		return DUMP_BAD;
	}
	return DUMP_MORE;
}

int main(int argc, char **argv)
{
	uint8_t cmd = MLTCP_CMD_GET_SOCKETS;
	enum dump_state st;
	struct nlmsghdr *nlh;
	struct nlraw *nl;
	int opt, fd, count = 0, err = 0;
	unsigned int seq;
	char line[64];

	while ((opt = getopt(argc, argv, "c:")) != -1) {
		if (opt == 'c' && !strcmp(optarg, "sockets")) {
			cmd = MLTCP_CMD_GET_SOCKETS;
		} else if (opt == 'c' && !strcmp(optarg, "counters")) {
			cmd = MLTCP_CMD_GET_COUNTERS;
		} else {
			fprintf(stderr, "usage: %s [-c sockets|counters]\n", argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	nl = nlraw_open();
	if (!nl) {
		printf("error %s\n", errname(errno));
		return 2;
	}
	/*
	 * A socket of its own: the kernel sizes a dump's datagrams by the
	 * largest buffer a reader of the socket ever offered, and nlraw's
	 * family lookup offered 64 KB.
	 */
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (fd < 0) {
		printf("error %s\n", errname(errno));
		return 2;
	}
	nlh = nlraw_req(nl, cmd, NLM_F_DUMP);
	nlh->nlmsg_flags &= ~NLM_F_ACK;
	seq = nlh->nlmsg_seq;
	if (send(fd, nlh, nlh->nlmsg_len, 0) < 0) {
		printf("error %s\n", errname(errno));
		return 2;
	}

	st = read_datagram(fd, seq, &count, &err);
	printf("first %d\n", count);
	if (st == DUMP_MORE && !fgets(line, sizeof(line), stdin))
		line[0] = '\0';
	while (st == DUMP_MORE)
		st = read_datagram(fd, seq, &count, &err);

	close(fd);
	nlraw_close(nl);
	switch (st) {
	case DUMP_DONE:
		printf("done %d\n", count);
		return 0;
	case DUMP_ERROR:
		printf("error %s\n", errname(-err));
		return 0;
	default:
		return 1;
	}
}
