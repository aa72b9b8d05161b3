// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl: the "mltcp" generic netlink family, through libmnl.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/mltcp.h>

#include "nl.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

struct mltcpctl_nl {
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	uint16_t family;
	char errmsg[256];
	char *buf;		/* MNL_SOCKET_BUFFER_SIZE */
};

/* Collects results of a request. */
struct reply {
	struct mltcpctl_nl *nl;
	int (*cb)(const struct nlmsghdr *nlh, void *data);
	void *data;
};

const char *mltcpctl_nl_errmsg(const struct mltcpctl_nl *nl)
{
	return nl->errmsg;
}

/* Extended ACK TLVs after the error: keep the message. */
static void parse_extack(struct mltcpctl_nl *nl, const struct nlmsghdr *nlh,
			 const struct nlmsgerr *e)
{
	const struct nlattr *attr;
	unsigned int off;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if (mnl_nlmsg_get_payload_len(nlh) < off)
		return;
	mnl_attr_for_each_payload((const void *)((const char *)e + off),
				  mnl_nlmsg_get_payload_len(nlh) - off) {
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0) {
			snprintf(nl->errmsg, sizeof(nl->errmsg), "%s",
				 mnl_attr_get_str(attr));
			return;
		}
	}
}

static int cb_error(const struct nlmsghdr *nlh, void *data)
{
	struct reply *r = data;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e)) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (e->error == 0)
		return MNL_CB_STOP;	/* ACK */
	parse_extack(r->nl, nlh, e);
	errno = -e->error;
	return MNL_CB_ERROR;
}

static int cb_done(const struct nlmsghdr *nlh, void *data)
{
	struct reply *r = data;

	/* a dump that failed carries the error (and extack) in DONE */
	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

		if (e->error < 0) {
			if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(*e))
				parse_extack(r->nl, nlh, e);
			errno = -e->error;
			return MNL_CB_ERROR;
		}
	}
	return MNL_CB_STOP;
}

static int cb_noop(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

static int cb_data(const struct nlmsghdr *nlh, void *data)
{
	struct reply *r = data;

	return r->cb ? r->cb(nlh, r->data) : MNL_CB_OK;
}

static mnl_cb_t ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_NOOP] = cb_noop,
	[NLMSG_ERROR] = cb_error,
	[NLMSG_DONE] = cb_done,
	[NLMSG_OVERRUN] = cb_noop,
};

static struct nlmsghdr *put_request(struct mltcpctl_nl *nl, uint16_t type,
				    uint16_t flags, uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/* Sends @nlh and runs the callbacks until the ACK, DONE or an error. */
static int transact(struct mltcpctl_nl *nl, struct nlmsghdr *nlh,
		    int (*cb)(const struct nlmsghdr *, void *), void *data)
{
	struct reply r = { .nl = nl, .cb = cb, .data = data };
	unsigned int seq = nlh->nlmsg_seq;
	ssize_t len;
	int ret;

	nl->errmsg[0] = '\0';
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return -1;
	do {
		len = mnl_socket_recvfrom(nl->sock, nl->buf,
					  MNL_SOCKET_BUFFER_SIZE);
		if (len < 0)
			return -1;
		ret = mnl_cb_run2(nl->buf, (size_t)len, seq, nl->portid,
				  cb_data, &r, ctl_cbs, NLMSG_MIN_TYPE);
	} while (ret == MNL_CB_OK);
	return ret == MNL_CB_STOP ? 0 : -1;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	uint16_t *id = data;
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
			*id = mnl_attr_get_u16(attr);
	}
	return MNL_CB_OK;
}

struct mltcpctl_nl *mltcpctl_nl_open(void)
{
	struct mltcpctl_nl *nl = calloc(1, sizeof(*nl));
	struct nlmsghdr *nlh;
	int one = 1, err;

	if (!nl)
		return NULL;
	nl->buf = malloc(MNL_SOCKET_BUFFER_SIZE);
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->buf || !nl->sock)
		goto fail;
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	/* extended ACK messages; old kernels without it just ignore this */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (unsigned int)time(NULL);

	nlh = put_request(nl, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, MLTCP_GENL_NAME);
	if (transact(nl, nlh, family_cb, &nl->family) < 0)
		goto fail;
	if (!nl->family) {
		errno = ENOENT;
		goto fail;
	}
	return nl;

fail:
	err = errno;
	mltcpctl_nl_close(nl);
	errno = err;
	return NULL;
}

void mltcpctl_nl_close(struct mltcpctl_nl *nl)
{
	if (!nl)
		return;
	if (nl->sock)
		mnl_socket_close(nl->sock);
	free(nl->buf);
	free(nl);
}

/* ---- parameters -------------------------------------------------------- */

static int params_cb(const struct nlmsghdr *nlh, void *data)
{
	struct mltcpctl_params *p = data;
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(attr)) {
		case MLTCP_A_ABI_VERSION:
			if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
				p->abi_version = mnl_attr_get_u32(attr);
			break;
		case MLTCP_A_SLOPE:
			if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
				p->slope = mnl_attr_get_u32(attr);
			break;
		case MLTCP_A_INTERCEPT:
			if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
				p->intercept = mnl_attr_get_u32(attr);
			break;
		case MLTCP_A_IDLE_MS:
			if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
				p->idle_ms = mnl_attr_get_u32(attr);
			break;
		case MLTCP_A_MODE:
			if (mnl_attr_validate(attr, MNL_TYPE_U8) == 0)
				p->mode = mnl_attr_get_u8(attr);
			break;
		case MLTCP_A_DECREASE:
			if (mnl_attr_validate(attr, MNL_TYPE_U8) == 0)
				p->decrease = mnl_attr_get_u8(attr);
			break;
		case MLTCP_A_STAGGER:
			if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
				p->stagger = mnl_attr_get_u32(attr);
			break;
		case MLTCP_A_OVERRUN:
			if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
				p->overrun = mnl_attr_get_u32(attr);
			break;
		case MLTCP_A_TIEBREAK_KEY_SET:
			if (mnl_attr_validate(attr, MNL_TYPE_U8) == 0) {
				p->tiebreak_key_set = mnl_attr_get_u8(attr) != 0;
				p->has_tiebreak_key_set = true;
			}
			break;
		}
	}
	return MNL_CB_OK;
}

int mltcpctl_nl_get_params(struct mltcpctl_nl *nl, struct mltcpctl_params *p)
{
	struct nlmsghdr *nlh;

	memset(p, 0, sizeof(*p));
	nlh = put_request(nl, nl->family, 0, MLTCP_CMD_GET_PARAMS,
			  MLTCP_GENL_VERSION);
	return transact(nl, nlh, params_cb, p);
}

int mltcpctl_nl_set_params(struct mltcpctl_nl *nl,
			   const struct mltcpctl_args *a)
{
	struct nlmsghdr *nlh;
	int ret;

	nlh = put_request(nl, nl->family, 0, MLTCP_CMD_SET_PARAMS,
			  MLTCP_GENL_VERSION);
	if (a->set_mask & MLTCPCTL_SET_SLOPE)
		mnl_attr_put_u32(nlh, MLTCP_A_SLOPE, a->slope);
	if (a->set_mask & MLTCPCTL_SET_INTERCEPT)
		mnl_attr_put_u32(nlh, MLTCP_A_INTERCEPT, a->intercept);
	if (a->set_mask & MLTCPCTL_SET_IDLE_MS)
		mnl_attr_put_u32(nlh, MLTCP_A_IDLE_MS, a->idle_ms);
	if (a->set_mask & MLTCPCTL_SET_MODE)
		mnl_attr_put_u8(nlh, MLTCP_A_MODE, a->mode);
	if (a->set_mask & MLTCPCTL_SET_DECREASE)
		mnl_attr_put_u8(nlh, MLTCP_A_DECREASE, a->decrease);
	if (a->set_mask & MLTCPCTL_SET_STAGGER)
		mnl_attr_put_u32(nlh, MLTCP_A_STAGGER, a->stagger);
	if (a->set_mask & MLTCPCTL_SET_OVERRUN)
		mnl_attr_put_u32(nlh, MLTCP_A_OVERRUN, a->overrun);
	if (a->set_mask & MLTCPCTL_SET_TIEBREAK_KEY)
		mnl_attr_put(nlh, MLTCP_A_TIEBREAK_KEY, sizeof(a->tiebreak_key), a->tiebreak_key);
	ret = transact(nl, nlh, NULL, NULL);
	/* the request held the key: not left in the buffer */
	explicit_bzero(nl->buf, MNL_SOCKET_BUFFER_SIZE);
	return ret;
}

/* ---- dumps ------------------------------------------------------------- */

/* A growing array of dump results. */
struct vec {
	void *items;
	size_t n, cap, size;
	int err;
	int scope;	/* MLTCP_A_SCOPE of the counters, -1 while none seen */
};

static void *vec_push(struct vec *v)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 16;
		void *items = realloc(v->items, cap * v->size);

		if (!items)
			return NULL;
		v->items = items;
		v->cap = cap;
	}
	memset((char *)v->items + v->n * v->size, 0, v->size);
	return (char *)v->items + v->n++ * v->size;
}

static const struct nlattr *find_nest(const struct nlmsghdr *nlh, uint16_t type)
{
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == type &&
		    mnl_attr_validate(attr, MNL_TYPE_NESTED) == 0)
			return attr;
	}
	return NULL;
}

static void copy_str(char *dst, size_t len, const struct nlattr *attr)
{
	if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		snprintf(dst, len, "%s", mnl_attr_get_str(attr));
}

static uint64_t get_uint(const struct nlattr *attr)
{
	switch (mnl_attr_get_payload_len(attr)) {
	case 1:
		return mnl_attr_get_u8(attr);
	case 2:
		return mnl_attr_get_u16(attr);
	case 4:
		return mnl_attr_get_u32(attr);
	case 8:
		return mnl_attr_get_u64(attr);
	}
	return 0;
}

static int algo_cb(const struct nlmsghdr *nlh, void *data)
{
	struct vec *v = data;
	const struct nlattr *nest = find_nest(nlh, MLTCP_A_ALGO), *attr;
	struct mltcpctl_algo *a;

	if (!nest)
		return MNL_CB_OK;
	/* a module without scopes sends none: its counters are host-wide */
	v->scope = MLTCP_ABI_SCOPE_HOST;
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == MLTCP_A_SCOPE &&
		    mnl_attr_validate(attr, MNL_TYPE_U8) == 0)
			v->scope = mnl_attr_get_u8(attr);
	}
	a = vec_push(v);
	if (!a) {
		v->err = ENOMEM;
		errno = ENOMEM;
		return MNL_CB_ERROR;
	}
	mnl_attr_for_each_nested(attr, nest) {
		switch (mnl_attr_get_type(attr)) {
		case MLTCP_ALGO_A_NAME:
			copy_str(a->name, sizeof(a->name), attr);
			break;
		case MLTCP_ALGO_A_SOCKETS:
			a->sockets = get_uint(attr);
			break;
		case MLTCP_ALGO_A_SOCKETS_TOTAL:
			a->sockets_total = get_uint(attr);
			break;
		case MLTCP_ALGO_A_ITERS_LEARNED:
			a->iters_learned = get_uint(attr);
			break;
		case MLTCP_ALGO_A_ITERS_GIVEN:
			a->iters_given = get_uint(attr);
			break;
		}
	}
	return MNL_CB_OK;
}

static void copy_addr(uint8_t *dst, const struct nlattr *attr, size_t len)
{
	if (mnl_attr_get_payload_len(attr) == len)
		memcpy(dst, mnl_attr_get_payload(attr), len);
}

static int sock_cb(const struct nlmsghdr *nlh, void *data)
{
	struct vec *v = data;
	const struct nlattr *nest = find_nest(nlh, MLTCP_A_SOCK), *attr;
	struct mltcpctl_sock *s;

	if (!nest)
		return MNL_CB_OK;
	s = vec_push(v);
	if (!s) {
		v->err = ENOMEM;
		errno = ENOMEM;
		return MNL_CB_ERROR;
	}
	mnl_attr_for_each_nested(attr, nest) {
		switch (mnl_attr_get_type(attr)) {
		case MLTCP_SOCK_A_FAMILY:
			s->family = (uint8_t)get_uint(attr);
			break;
		case MLTCP_SOCK_A_SADDR4:
			copy_addr(s->saddr, attr, 4);
			break;
		case MLTCP_SOCK_A_DADDR4:
			copy_addr(s->daddr, attr, 4);
			break;
		case MLTCP_SOCK_A_SADDR6:
			copy_addr(s->saddr, attr, 16);
			break;
		case MLTCP_SOCK_A_DADDR6:
			copy_addr(s->daddr, attr, 16);
			break;
		case MLTCP_SOCK_A_SPORT:
			s->sport = (uint16_t)get_uint(attr);
			break;
		case MLTCP_SOCK_A_DPORT:
			s->dport = (uint16_t)get_uint(attr);
			break;
		case MLTCP_SOCK_A_TCP_STATE:
			s->tcp_state = (uint8_t)get_uint(attr);
			break;
		case MLTCP_SOCK_A_INODE:
			s->inode = get_uint(attr);
			break;
		case MLTCP_SOCK_A_ALGO:
			copy_str(s->algo, sizeof(s->algo), attr);
			break;
		case MLTCP_SOCK_A_MODE:
			s->mode = (uint8_t)get_uint(attr);
			break;
		case MLTCP_SOCK_A_FLAGS:
			s->flags = (uint32_t)get_uint(attr);
			break;
		case MLTCP_SOCK_A_ITERATIONS:
			s->iterations = (uint32_t)get_uint(attr);
			break;
		case MLTCP_SOCK_A_BYTES_THIS_ITER:
			s->bytes_this_iter = get_uint(attr);
			break;
		case MLTCP_SOCK_A_BYTES_PER_ITER:
			s->bytes_per_iter = get_uint(attr);
			break;
		case MLTCP_SOCK_A_BYTES_RATIO:
			s->bytes_ratio = (uint32_t)get_uint(attr);
			break;
		case MLTCP_SOCK_A_F:
			s->f = (uint32_t)get_uint(attr);
			break;
		case MLTCP_SOCK_A_CWND:
			s->cwnd = (uint32_t)get_uint(attr);
			break;
		case MLTCP_SOCK_A_TIEBREAK:
			s->tiebreak = (uint32_t)get_uint(attr);
			break;
		case MLTCP_SOCK_A_PHASE:
			s->phase = (uint8_t)get_uint(attr);
			s->has_phase = true;
			break;
		}
	}
	return MNL_CB_OK;
}

/* A dump of @cmd; @scope >= 0 adds MLTCP_A_SCOPE to the request. */
static int dump(struct mltcpctl_nl *nl, uint8_t cmd, int scope,
		int (*cb)(const struct nlmsghdr *, void *), size_t size,
		void **out, size_t *n, struct vec *res)
{
	struct vec v = { .size = size, .scope = -1 };
	struct nlmsghdr *nlh;
	int err;

	nlh = put_request(nl, nl->family, NLM_F_DUMP, cmd, MLTCP_GENL_VERSION);
	if (scope >= 0)
		mnl_attr_put_u8(nlh, MLTCP_A_SCOPE, (uint8_t)scope);
	if (transact(nl, nlh, cb, &v) < 0) {
		err = v.err ? v.err : errno;
		free(v.items);
		errno = err;
		return -1;
	}
	*out = v.items;
	*n = v.n;
	if (res)
		*res = v;
	return 0;
}

int mltcpctl_nl_get_counters(struct mltcpctl_nl *nl, bool host,
			     struct mltcpctl_algo **out, size_t *n,
			     enum mltcpctl_scope *scope)
{
	struct vec v;

	/* the default scope is not sent: older modules take no attribute */
	if (dump(nl, MLTCP_CMD_GET_COUNTERS, host ? MLTCP_ABI_SCOPE_HOST : -1, algo_cb,
		 sizeof(**out), (void **)out, n, &v) < 0)
		return -1;
	if (v.scope < 0)
		*scope = host ? MLTCPCTL_SCOPE_HOST : MLTCPCTL_SCOPE_NETNS;
	else
		*scope = v.scope == MLTCP_ABI_SCOPE_HOST ? MLTCPCTL_SCOPE_HOST :
			 MLTCPCTL_SCOPE_NETNS;
	return 0;
}

int mltcpctl_nl_get_sockets(struct mltcpctl_nl *nl,
			    struct mltcpctl_sock **out, size_t *n)
{
	return dump(nl, MLTCP_CMD_GET_SOCKETS, -1, sock_cb, sizeof(**out),
		    (void **)out, n, NULL);
}
