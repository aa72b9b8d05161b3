/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw generic netlink requests to the "mltcp" family, for tests that send
 * malformed messages on purpose.
 */
#ifndef MLTCP_TESTPROGS_NLRAW_H
#define MLTCP_TESTPROGS_NLRAW_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

struct nlraw;

/* NULL with errno on failure; ENOENT: family not found */
struct nlraw *nlraw_open(void);
void nlraw_close(struct nlraw *nl);
uint16_t nlraw_family(const struct nlraw *nl);
/*
 * A request header in the scratch buffer: nlmsghdr (type = family,
 * flags = REQUEST | ACK | @flags) + genlmsghdr (@cmd, version 1).
 */
struct nlmsghdr *nlraw_req(struct nlraw *nl, uint8_t cmd, uint16_t flags);
/*
 * Sends @nlh (nlmsg_len bytes) and reads the answer until ACK/DONE/error.
 * Return: 0 or the negative errno of the kernel; its extack message is in
 * @msg (may be "").  *@nmsgs counts data messages (may be NULL).
 */
int nlraw_xfer(struct nlraw *nl, struct nlmsghdr *nlh, char *msg,
	       size_t msglen, int *nmsgs);

#endif
