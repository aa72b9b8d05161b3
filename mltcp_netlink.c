// SPDX-License-Identifier: GPL-2.0
/*
 * MLTCP generic netlink family "mltcp": global parameters, the MLTCP
 * sockets and per-algorithm counters of a network namespace.  The ABI is
 * described in include/uapi/linux/mltcp.h.
 *
 * Locking and lifetimes:
 *  - The family runs with parallel_ops; mltcp_nl_params_lock serialises
 *    SET_PARAMS (so a multi-attribute update is all-or-nothing with
 *    respect to other netlink writers) and gives GET_PARAMS a consistent
 *    snapshot.  sysfs writers of single parameters go through the core's
 *    own validation and locking.
 *  - genl_unregister_family() waits for running doit handlers, and a dump
 *    in progress holds a reference on this module (netlink_dump_start()
 *    pins family->module), so the module cannot go away under a handler.
 *  - The socket dump walks the TCP established hash of the caller's
 *    namespace, showing an unprivileged caller its own sockets only.
 *    Under a bucket's spinlock it only takes references on up
 *    to MLTCP_NL_BATCH full sockets of the namespace; it then drops the
 *    spinlock and reads each socket's state under lock_sock(), which may
 *    sleep and so cannot be taken under the bucket lock.  A socket that
 *    closed or left MLTCP in between is skipped.  The references keep the
 *    sockets' memory alive; they are dropped with sock_put().
 *  - The counters dump walks the core's registry under rcu_read_lock();
 *    mltcp_unregister() removes an algorithm with list_del_rcu() and
 *    waits for readers with synchronize_rcu().  It reads the counters of
 *    the namespace of the requester's netlink socket, which holds that
 *    namespace (and so its pernet memory) for the whole dump; host-wide
 *    counters only for an administrator of the initial namespace
 *    (mltcp_nl_counters_start()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <net/genetlink.h>
#include <net/inet_hashtables.h>
#include <net/ipv6.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "mltcp.h"
#include "mltcp_ctl.h"
#include "mltcp_param_table.h"
#include "uapi/linux/mltcp.h"

/* Sockets referenced per pass over one hash bucket. */
#define MLTCP_NL_BATCH	16

static DEFINE_MUTEX(mltcp_nl_params_lock);
static struct genl_family mltcp_genl_family;

/* ---- parameters --------------------------------------------------------- */

static struct netlink_range_validation mltcp_idle_ms_range = {
	.min = MLTCP_IDLE_MS_MIN,
	.max = MLTCP_IDLE_MS_MAX,
};

/*
 * The tie-break key is exactly MLTCP_TIEBREAK_KEY_LEN bytes.  A function
 * rather than NLA_POLICY_EXACT_LEN(), whose ERANGE (a length below) and
 * EINVAL (above) would differ: every wrong length gets EINVAL, as for the
 * other attributes.
 */
static int mltcp_nl_validate_key(const struct nlattr *attr, struct netlink_ext_ack *extack)
{
	if (nla_len(attr) == MLTCP_TIEBREAK_KEY_LEN)
		return 0;
	NL_SET_ERR_MSG_ATTR(extack, attr, "the tie-break key must be exactly 16 bytes");
	return -EINVAL;
}

static const struct nla_policy mltcp_set_params_policy[MLTCP_A_TIEBREAK_KEY_SET + 1] = {
	[MLTCP_A_SLOPE]		= NLA_POLICY_RANGE(NLA_U32, 0, MLTCP_SLOPE_MAX),
	[MLTCP_A_INTERCEPT]	= NLA_POLICY_RANGE(NLA_U32, MLTCP_INTERCEPT_MIN,
						   MLTCP_INTERCEPT_MAX),
	[MLTCP_A_IDLE_MS]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&mltcp_idle_ms_range),
	[MLTCP_A_MODE]		= NLA_POLICY_MAX(NLA_U8, __MLTCP_ABI_MODE_MAX),
	[MLTCP_A_SOCK]		= { .type = NLA_REJECT },
	[MLTCP_A_ALGO]		= { .type = NLA_REJECT },
	[MLTCP_A_DECREASE]	= NLA_POLICY_MAX(NLA_U8, 1),
	[MLTCP_A_STAGGER]	= NLA_POLICY_RANGE(NLA_U32, 0, MLTCP_STAGGER_MAX),
	[MLTCP_A_SCOPE]		= { .type = NLA_REJECT },
	/* 1 .. 1023 pass the policy and are refused by mltcp_overrun_valid() */
	[MLTCP_A_OVERRUN]	= NLA_POLICY_MAX(NLA_U32, MLTCP_OVERRUN_MAX),
	[MLTCP_A_TIEBREAK_KEY]	= NLA_POLICY_VALIDATE_FN(NLA_BINARY, mltcp_nl_validate_key),
	[MLTCP_A_TIEBREAK_KEY_SET] = { .type = NLA_REJECT },
};

static int mltcp_nl_get_params(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	u32 v[MLTCP_P_NUM];
	bool key_set;
	void *hdr;
	int i;

	/* a u8 attribute takes as much room as a u32 one */
	msg = genlmsg_new((MLTCP_P_NUM + 2) * nla_total_size(sizeof(u32)), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &mltcp_genl_family, 0,
				MLTCP_CMD_GET_PARAMS);
	if (!hdr)
		goto too_big;

	mutex_lock(&mltcp_nl_params_lock);
	for (i = 0; i < MLTCP_P_NUM; i++)
		v[i] = mltcp_param_table[i].get();
	key_set = mltcp_tiebreak_key_given();
	mutex_unlock(&mltcp_nl_params_lock);

	if (nla_put_u32(msg, MLTCP_A_ABI_VERSION, MLTCP_ABI_VERSION))
		goto too_big;
	for (i = 0; i < MLTCP_P_NUM; i++) {
		const struct mltcp_param *p = &mltcp_param_table[i];

		if (p->nl_u8 ? nla_put_u8(msg, p->nl_attr, (u8)v[i]) :
			       nla_put_u32(msg, p->nl_attr, v[i]))
			goto too_big;
	}
	/* whether an administrator set the tie-break key; never the key */
	if (nla_put_u8(msg, MLTCP_A_TIEBREAK_KEY_SET, key_set))
		goto too_big;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

too_big:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/**
 * mltcp_nl_set_params() - MLTCP_CMD_SET_PARAMS
 * @skb: request
 * @info: parsed request; the policy has checked types and ranges, and
 *	GENL_ADMIN_PERM has checked CAP_NET_ADMIN in the initial user
 *	namespace before we get here
 *
 * All values are checked against mltcp_param_table (and the tie-break
 * key's length by the policy) before the first one is applied, so a
 * rejected request changes nothing.  A tie-break key applies to the
 * connections that draw their tie-break afterwards.
 *
 * Return: 0 or a negative errno (with an extack message).
 */
static int mltcp_nl_set_params(struct sk_buff *skb, struct genl_info *info)
{
	bool f_pair = info->attrs[MLTCP_A_SLOPE] && info->attrs[MLTCP_A_INTERCEPT];
	const struct nlattr *key = info->attrs[MLTCP_A_TIEBREAK_KEY];
	u32 v[MLTCP_P_NUM];
	bool given = !!key;
	int i, err = 0;

	for (i = 0; i < MLTCP_P_NUM; i++) {
		const struct mltcp_param *p = &mltcp_param_table[i];
		const struct nlattr *a = info->attrs[p->nl_attr];

		if (!a)
			continue;
		given = true;
		v[i] = p->nl_u8 ? nla_get_u8(a) : nla_get_u32(a);
		if (!mltcp_param_valid(p, v[i])) {
			/* NL_SET_ERR_MSG_ATTR() with the table's message */
			do_trace_netlink_extack(p->nl_err);
			if (info->extack) {
				info->extack->_msg = p->nl_err;
				info->extack->bad_attr = a;
			}
			return -EINVAL;
		}
	}
	if (!given) {
		GENL_SET_ERR_MSG(info, "no parameter given");
		return -EINVAL;
	}

	/* Everything is valid: the setters below cannot fail. */
	mutex_lock(&mltcp_nl_params_lock);
	/* slope and intercept together: readers see the old pair or the new one */
	if (f_pair)
		err = mltcp_set_f_params(v[MLTCP_P_SLOPE], v[MLTCP_P_INTERCEPT]);
	for (i = 0; i < MLTCP_P_NUM && !err; i++) {
		const struct mltcp_param *p = &mltcp_param_table[i];

		if (info->attrs[p->nl_attr] &&
		    !(f_pair && (i == MLTCP_P_SLOPE || i == MLTCP_P_INTERCEPT)))
			err = p->set(v[i]);
	}
	if (key && !err)
		mltcp_set_tiebreak_key(nla_data(key));
	mutex_unlock(&mltcp_nl_params_lock);
	if (err)
		GENL_SET_ERR_MSG(info, "parameter rejected by the core");
	return err;
}

/* ---- socket dump --------------------------------------------------------- */

/**
 * struct mltcp_nl_sock - what the dump reports about one socket
 * @st: MLTCP state
 * @ino: socket inode, 0 if orphaned
 * @family: AF_INET or AF_INET6
 * @tcp_state: TCP state
 * @sport: local port, network order
 * @dport: remote port, network order
 * @saddr4: local IPv4 address
 * @daddr4: remote IPv4 address
 * @saddr6: local IPv6 address
 * @daddr6: remote IPv6 address
 */
struct mltcp_nl_sock {
	struct mltcp_sock_state st;
	u64 ino;
	u8 family;
	u8 tcp_state;
	__be16 sport;
	__be16 dport;
	__be32 saddr4;
	__be32 daddr4;
#if IS_ENABLED(CONFIG_IPV6)
	struct in6_addr saddr6;
	struct in6_addr daddr6;
#endif
};

/* Dump position and who may see what, in netlink_callback.ctx. */
struct mltcp_nl_dump_ctx {
	unsigned int bucket;	/* ehash bucket */
	unsigned int skip;	/* full sockets of the netns already done in it */
	kuid_t owner;		/* without @all, only this user's sockets */
	bool all;		/* CAP_NET_ADMIN in the netns: every socket */
};

/**
 * mltcp_nl_sockets_start() - decide which sockets a socket dump shows
 * @cb: dump callback
 *
 * A socket's iteration timing says when its job computes and when it
 * sends, so an unprivileged requester sees its own sockets only (those
 * whose owner, sk_uid, is the owner of its netlink socket); one with
 * CAP_NET_ADMIN over the namespace sees all of the namespace's.  Decided
 * once, in the requester's context, before the first message.
 *
 * Return: 0.
 */
static int mltcp_nl_sockets_start(struct netlink_callback *cb)
{
	struct mltcp_nl_dump_ctx *ctx = (struct mltcp_nl_dump_ctx *)cb->ctx;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	/* NETLINK_CB().sk is the requester's socket; cb->skb->sk the family's own */
	ctx->owner = sock_i_uid(NETLINK_CB(cb->skb).sk);
	ctx->all = netlink_net_capable(cb->skb, CAP_NET_ADMIN);
	return 0;
}

/**
 * mltcp_nl_read_sock() - read a socket's state and addresses
 * @sk: full TCP socket, referenced by the caller
 * @ns: output
 *
 * Return: 0, or -ENOENT if @sk is no longer an MLTCP connection.
 */
static int mltcp_nl_read_sock(struct sock *sk, struct mltcp_nl_sock *ns)
{
	const struct inet_sock *inet = inet_sk(sk);
	int err;

	lock_sock(sk);
	if (!mltcp_ctl_state_ok(sk->sk_state, false) ||
	    mltcp_get_state(sk, &ns->st)) {
		err = -ENOENT;
		goto out;
	}
	err = 0;
	ns->family = sk->sk_family;
	ns->tcp_state = sk->sk_state;
	ns->sport = inet->inet_sport;
	ns->dport = inet->inet_dport;
	ns->saddr4 = inet->inet_saddr;
	ns->daddr4 = inet->inet_daddr;
#if IS_ENABLED(CONFIG_IPV6)
	if (ns->family == AF_INET6) {
		ns->saddr6 = sk->sk_v6_rcv_saddr;
		ns->daddr6 = sk->sk_v6_daddr;
	}
#endif
out:
	release_sock(sk);
	if (!err)
		ns->ino = sock_i_ino(sk);
	return err;
}

static int mltcp_nl_put_sock(struct sk_buff *skb, const struct mltcp_nl_sock *ns)
{
	const struct mltcp_sock_state *st = &ns->st;
	u32 flags = mltcp_ctl_info_flags(st);

	if (nla_put_u8(skb, MLTCP_SOCK_A_FAMILY, ns->family) ||
	    nla_put_u8(skb, MLTCP_SOCK_A_PROTOCOL, IPPROTO_TCP) ||
	    nla_put_u16(skb, MLTCP_SOCK_A_SPORT, ntohs(ns->sport)) ||
	    nla_put_u16(skb, MLTCP_SOCK_A_DPORT, ntohs(ns->dport)) ||
	    nla_put_u8(skb, MLTCP_SOCK_A_TCP_STATE, ns->tcp_state) ||
	    nla_put_u64_64bit(skb, MLTCP_SOCK_A_INODE, ns->ino,
			      MLTCP_SOCK_A_PAD) ||
	    nla_put_string(skb, MLTCP_SOCK_A_ALGO, st->algo) ||
	    nla_put_u8(skb, MLTCP_SOCK_A_MODE, st->mode) ||
	    nla_put_u32(skb, MLTCP_SOCK_A_FLAGS, flags) ||
	    nla_put_u32(skb, MLTCP_SOCK_A_ITERATIONS, st->iterations) ||
	    nla_put_u64_64bit(skb, MLTCP_SOCK_A_BYTES_THIS_ITER,
			      st->bytes_this_iter, MLTCP_SOCK_A_PAD) ||
	    nla_put_u64_64bit(skb, MLTCP_SOCK_A_BYTES_PER_ITER,
			      st->bytes_per_iter, MLTCP_SOCK_A_PAD) ||
	    nla_put_u32(skb, MLTCP_SOCK_A_BYTES_RATIO, st->bytes_ratio) ||
	    nla_put_u32(skb, MLTCP_SOCK_A_F, st->f) ||
	    nla_put_u32(skb, MLTCP_SOCK_A_CWND, st->cwnd) ||
	    nla_put_u32(skb, MLTCP_SOCK_A_TIEBREAK, st->tiebreak) ||
	    nla_put_u8(skb, MLTCP_SOCK_A_PHASE, st->phase))
		return -EMSGSIZE;

	if (ns->family == AF_INET)
		return nla_put_in_addr(skb, MLTCP_SOCK_A_SADDR4, ns->saddr4) ||
		       nla_put_in_addr(skb, MLTCP_SOCK_A_DADDR4, ns->daddr4) ?
		       -EMSGSIZE : 0;
#if IS_ENABLED(CONFIG_IPV6)
	if (ns->family == AF_INET6)
		return nla_put_in6_addr(skb, MLTCP_SOCK_A_SADDR6, &ns->saddr6) ||
		       nla_put_in6_addr(skb, MLTCP_SOCK_A_DADDR6, &ns->daddr6) ?
		       -EMSGSIZE : 0;
#endif
	return 0;
}

/**
 * mltcp_nl_dump_one() - add one socket to a dump
 * @skb: dump buffer
 * @cb: dump callback
 * @sk: full TCP socket, referenced by the caller, not locked
 *
 * Return: 0 (also when @sk is skipped) or -EMSGSIZE when @skb is full.
 */
static int mltcp_nl_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
			     struct sock *sk)
{
	struct mltcp_nl_sock ns = {};
	struct nlattr *nest;
	void *hdr;

	if (mltcp_nl_read_sock(sk, &ns))
		return 0;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &mltcp_genl_family, NLM_F_MULTI,
			  MLTCP_CMD_GET_SOCKETS);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MLTCP_A_ABI_VERSION, MLTCP_ABI_VERSION))
		goto cancel;
	nest = nla_nest_start(skb, MLTCP_A_SOCK);
	if (!nest)
		goto cancel;
	if (mltcp_nl_put_sock(skb, &ns))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

struct mltcp_nl_ref {
	struct sock *sk;
	unsigned int pos;
};

/**
 * mltcp_nl_collect() - reference the next MLTCP sockets of a bucket
 * @hinfo: the namespace's established hash
 * @bucket: bucket index
 * @net: namespace of the caller
 * @skip: full sockets of @net at the start of the bucket to pass over
 * @ctx: whose sockets to reference (mltcp_nl_sockets_start())
 * @refs: output, at most MLTCP_NL_BATCH entries
 * @next: output, position to continue at if the bucket has more
 *
 * Takes the bucket lock; the references taken keep the sockets alive
 * after it is dropped.  Positions count the full sockets of @net in the
 * bucket, MLTCP or not.  Sockets in TIME_WAIT and request sockets are not
 * full sockets and are never referenced.
 *
 * Return: the number of entries in @refs; *@next is 0 if the bucket
 * holds nothing past them.
 */
static unsigned int mltcp_nl_collect(struct inet_hashinfo *hinfo,
				     unsigned int bucket, const struct net *net,
				     unsigned int skip,
				     const struct mltcp_nl_dump_ctx *ctx,
				     struct mltcp_nl_ref *refs,
				     unsigned int *next)
{
	struct inet_ehash_bucket *head = &hinfo->ehash[bucket];
	spinlock_t *lock = inet_ehash_lockp(hinfo, bucket);
	struct hlist_nulls_node *node;
	unsigned int n = 0, pos = 0;
	struct sock *sk;

	*next = 0;
	spin_lock_bh(lock);
	sk_nulls_for_each(sk, node, &head->chain) {
		if (!net_eq(sock_net(sk), net) || !sk_fullsock(sk))
			continue;
		if (pos++ < skip)
			continue;
		if (n == MLTCP_NL_BATCH) {
			*next = pos - 1;
			break;
		}
		/* a hint only: the state is read again under lock_sock() */
		if (!mltcp_sk_is_mltcp(sk))
			continue;
		/* sk_uid: its file's owner, written when the socket gets one */
		if (!ctx->all && !uid_eq(READ_ONCE(sk->sk_uid), ctx->owner))
			continue;
		if (!refcount_inc_not_zero(&sk->sk_refcnt))
			continue;
		refs[n].sk = sk;
		refs[n].pos = pos - 1;
		n++;
	}
	spin_unlock_bh(lock);
	return n;
}

static int mltcp_nl_dump_sockets(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct mltcp_nl_dump_ctx *ctx = (struct mltcp_nl_dump_ctx *)cb->ctx;
	struct net *net = sock_net(skb->sk);
	struct inet_hashinfo *hinfo = net->ipv4.tcp_death_row.hashinfo;
	struct mltcp_nl_ref refs[MLTCP_NL_BATCH];
	unsigned int i, n, next;
	int err = 0;

	for (; ctx->bucket <= hinfo->ehash_mask; ctx->bucket++, ctx->skip = 0) {
		if (hlist_nulls_empty(&hinfo->ehash[ctx->bucket].chain))
			continue;
		do {
			n = mltcp_nl_collect(hinfo, ctx->bucket, net, ctx->skip,
					     ctx, refs, &next);
			for (i = 0; i < n; i++) {
				if (!err) {
					err = mltcp_nl_dump_one(skb, cb,
								refs[i].sk);
					if (err)
						ctx->skip = refs[i].pos;
				}
				sock_put(refs[i].sk);
			}
			if (err)
				goto out;
			ctx->skip = next;
		} while (next);
		cond_resched();
	}
out:
	/* -EMSGSIZE with something in @skb: continue in the next call */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* ---- counters ------------------------------------------------------------ */

static const struct nla_policy mltcp_get_counters_policy[MLTCP_A_SCOPE + 1] = {
	[MLTCP_A_SCOPE]		= NLA_POLICY_MAX(NLA_U8, __MLTCP_ABI_SCOPE_MAX),
};

/* Where a counters dump is, in netlink_callback.args. */
enum {
	MLTCP_NL_CNT_NEXT,	/* index in the registry of the next algorithm */
	MLTCP_NL_CNT_SCOPE,	/* enum mltcp_abi_scope, set by the start callback */
};

/**
 * mltcp_nl_counters_start() - check a counters dump's scope
 * @cb: dump callback; the genetlink core has validated the request
 *	against mltcp_get_counters_policy (strictly: any other attribute is
 *	refused with EINVAL)
 *
 * The caller's own namespace's counters are anyone's.  Host-wide counters
 * add up every namespace, so only an administrator of the initial
 * namespace gets them: a requester whose netlink socket is in init_net,
 * with CAP_NET_ADMIN in the initial user namespace (netlink_capable(), as
 * GENL_ADMIN_PERM checks it).  Runs in the requester's context, before
 * the first message of the dump.
 *
 * Return: 0, or -EPERM.  The extack message reaches the requester where
 * the genetlink core passes its extack to a dump's start (not on 6.1,
 * where cb->extack is NULL here and NL_SET_ERR_MSG_ATTR() does nothing).
 */
static int mltcp_nl_counters_start(struct netlink_callback *cb)
{
	struct nlattr *tb[MLTCP_A_SCOPE + 1];
	u8 scope = MLTCP_ABI_SCOPE_NETNS;
	int err;

	/* a second parse, version-independent; the first one validated */
	err = nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, MLTCP_A_SCOPE,
			  mltcp_get_counters_policy, cb->extack);
	if (err)
		return err;
	if (tb[MLTCP_A_SCOPE])
		scope = nla_get_u8(tb[MLTCP_A_SCOPE]);
	if (scope == MLTCP_ABI_SCOPE_HOST &&
	    (!net_eq(sock_net(cb->skb->sk), &init_net) ||
	     !netlink_capable(cb->skb, CAP_NET_ADMIN))) {
		NL_SET_ERR_MSG_ATTR(cb->extack, tb[MLTCP_A_SCOPE],
				    "host-wide counters need CAP_NET_ADMIN in the initial netns");
		return -EPERM;
	}
	cb->args[MLTCP_NL_CNT_SCOPE] = scope;
	return 0;
}

static int mltcp_nl_put_algo(struct sk_buff *skb, struct netlink_callback *cb,
			     const struct mltcp_algo *algo, const u64 cnt[MLTCP_CNT_NUM],
			     u8 scope)
{
	struct nlattr *nest;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &mltcp_genl_family, NLM_F_MULTI,
			  MLTCP_CMD_GET_COUNTERS);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MLTCP_A_ABI_VERSION, MLTCP_ABI_VERSION) ||
	    nla_put_u8(skb, MLTCP_A_SCOPE, scope))
		goto cancel;
	nest = nla_nest_start(skb, MLTCP_A_ALGO);
	if (!nest ||
	    nla_put_string(skb, MLTCP_ALGO_A_NAME, algo->ops.name) ||
	    nla_put_u64_64bit(skb, MLTCP_ALGO_A_SOCKETS,
			      cnt[MLTCP_CNT_SOCKETS], MLTCP_ALGO_A_PAD) ||
	    nla_put_u64_64bit(skb, MLTCP_ALGO_A_SOCKETS_TOTAL,
			      cnt[MLTCP_CNT_SOCKETS_TOTAL], MLTCP_ALGO_A_PAD) ||
	    nla_put_u64_64bit(skb, MLTCP_ALGO_A_ITERS_LEARNED,
			      cnt[MLTCP_CNT_ITERS_LEARNED], MLTCP_ALGO_A_PAD) ||
	    nla_put_u64_64bit(skb, MLTCP_ALGO_A_ITERS_GIVEN,
			      cnt[MLTCP_CNT_ITERS_GIVEN], MLTCP_ALGO_A_PAD))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * One message per registered algorithm, with the counters of the
 * requester's namespace (the namespace of its netlink socket, which holds
 * it for the dump) or, as mltcp_nl_counters_start() allowed, host-wide.
 */
static int mltcp_nl_dump_counters(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	u8 scope = cb->args[MLTCP_NL_CNT_SCOPE];
	const struct net *net = scope == MLTCP_ABI_SCOPE_HOST ? NULL : sock_net(skb->sk);
	const struct mltcp_algo *algo;
	u64 cnt[MLTCP_CNT_NUM];
	unsigned long idx = 0;
	int err = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(algo, &mltcp_algos, node) {
		if (idx >= cb->args[MLTCP_NL_CNT_NEXT]) {
			mltcp_read_counters(net, algo, cnt);
			err = mltcp_nl_put_algo(skb, cb, algo, cnt, scope);
			if (err)
				break;
		}
		idx++;
	}
	rcu_read_unlock();
	cb->args[MLTCP_NL_CNT_NEXT] = idx;
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* ---- family -------------------------------------------------------------- */

/*
 * Commands without a policy take no attributes: with resv_start_op left
 * at 0, the genetlink core rejects any attribute for them, and strict
 * validation (no GENL_DONT_VALIDATE_* flags) applies everywhere.
 */
static const struct genl_ops mltcp_genl_ops[] = {
	{
		.cmd	= MLTCP_CMD_GET_PARAMS,
		.doit	= mltcp_nl_get_params,
	},
	{
		.cmd	= MLTCP_CMD_SET_PARAMS,
		.doit	= mltcp_nl_set_params,
		.policy	= mltcp_set_params_policy,
		.maxattr = ARRAY_SIZE(mltcp_set_params_policy) - 1,
		/* globals: CAP_NET_ADMIN in the initial user namespace */
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= MLTCP_CMD_GET_SOCKETS,
		.start	= mltcp_nl_sockets_start,
		.dumpit	= mltcp_nl_dump_sockets,
	},
	{
		.cmd	= MLTCP_CMD_GET_COUNTERS,
		.start	= mltcp_nl_counters_start,
		.dumpit	= mltcp_nl_dump_counters,
		.policy	= mltcp_get_counters_policy,
		.maxattr = ARRAY_SIZE(mltcp_get_counters_policy) - 1,
	},
};

static struct genl_family mltcp_genl_family __ro_after_init = {
	.name		= MLTCP_GENL_NAME,
	.version	= MLTCP_GENL_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.ops		= mltcp_genl_ops,
	.n_ops		= ARRAY_SIZE(mltcp_genl_ops),
	.module		= THIS_MODULE,
};

int mltcp_netlink_init(void)
{
	return genl_register_family(&mltcp_genl_family);
}

/*
 * genl_unregister_family() waits for doit handlers in progress; a dump in
 * progress pins the module, so none can be running here.
 */
void mltcp_netlink_exit(void)
{
	genl_unregister_family(&mltcp_genl_family);
}
