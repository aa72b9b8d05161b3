// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/mltcp.h>

#include "nlraw.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

struct nlraw {
	struct mnl_socket *sock;
	unsigned int portid, seq;
	uint16_t family;
	char buf[65536];
	char rbuf[65536];
};

uint16_t nlraw_family(const struct nlraw *nl)
{
	return nl->family;
}

struct nlmsghdr *nlraw_req(struct nlraw *nl, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = nl->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = MLTCP_GENL_VERSION;
	return nlh;
}

static void extack(const struct nlmsghdr *nlh, const struct nlmsgerr *e,
		   char *msg, size_t msglen)
{
	const struct nlattr *attr;
	size_t off = sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if (mnl_nlmsg_get_payload_len(nlh) < off)
		return;
	mnl_attr_for_each_payload((const void *)((const char *)e + off),
				  mnl_nlmsg_get_payload_len(nlh) - off) {
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG)
			snprintf(msg, msglen, "%s", mnl_attr_get_str(attr));
	}
}

int nlraw_xfer(struct nlraw *nl, struct nlmsghdr *nlh, char *msg,
	       size_t msglen, int *nmsgs)
{
	unsigned int seq = nlh->nlmsg_seq;
	ssize_t len;

	if (msglen)
		msg[0] = '\0';
	if (nmsgs)
		*nmsgs = 0;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		const struct nlmsghdr *r;
		int rest;

		len = mnl_socket_recvfrom(nl->sock, nl->rbuf, sizeof(nl->rbuf));
		if (len < 0)
			return -errno;
		rest = (int)len;
		for (r = (const void *)nl->rbuf; mnl_nlmsg_ok(r, rest);
		     r = mnl_nlmsg_next(r, &rest)) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(r);

			if (r->nlmsg_seq != seq)
				continue;
			if (r->nlmsg_type == NLMSG_ERROR) {
				extack(r, e, msg, msglen);
				return e->error;
			}
			if (r->nlmsg_type == NLMSG_DONE) {
				if (e->error < 0)
					extack(r, e, msg, msglen);
				/* dumps are not ACKed */
				return e->error < 0 ? e->error : 0;
			}
			if (nmsgs)
				(*nmsgs)++;
		}
	}
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID)
			*(uint16_t *)data = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

struct nlraw *nlraw_open(void)
{
	struct nlraw *nl = calloc(1, sizeof(*nl));
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	int one = 1, ret;
	ssize_t len;

	if (!nl)
		return NULL;
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock || mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sock);

	nlh = mnl_nlmsg_put_header(nl->buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, MLTCP_GENL_NAME);
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		goto fail;
	len = mnl_socket_recvfrom(nl->sock, nl->rbuf, sizeof(nl->rbuf));
	if (len < 0)
		goto fail;
	ret = mnl_cb_run(nl->rbuf, (size_t)len, nl->seq, nl->portid, family_cb,
			 &nl->family);
	if (ret < 0 || !nl->family) {
		if (!nl->family)
			errno = ENOENT;
		goto fail;
	}
	return nl;
fail:
	ret = errno;
	nlraw_close(nl);
	errno = ret;
	return NULL;
}

void nlraw_close(struct nlraw *nl)
{
	if (!nl)
		return;
	if (nl->sock)
		mnl_socket_close(nl->sock);
	free(nl);
}
