// SPDX-License-Identifier: GPL-2.0
/*
 * MLTCP per-socket control: the MLTCP_SO_* socket options of
 * include/uapi/linux/mltcp.h.
 *
 * The options are registered with netfilter's socket option registry for
 * PF_INET and PF_INET6.  ip_setsockopt()/ipv6_setsockopt() (and the
 * getsockopt counterparts) hand option numbers they do not know to
 * nf_setsockopt()/nf_getsockopt(), which find our handlers, pin this
 * module (nf_sockopt_ops.owner) for the duration of the call and pass the
 * struct sock of the caller's own fd.  IPv6 sockets hand SOL_IP options to
 * the IPv4 code, so level SOL_IP works for both families; SOL_IPV6 reaches
 * the PF_INET6 registration.
 *
 * Every handler checks, in this order: a TCP socket (else ENOPROTOOPT, as
 * if the option did not exist, which is also what callers see without
 * this module), the option length (EINVAL), readable/writable buffers
 * (EFAULT), value ranges (EINVAL), then under lock_sock() the socket state
 * (ENOTCONN) and an MLTCP congestion control (EOPNOTSUPP, from the core).
 * The socket lock is held across the check and the update, so the
 * congestion control (changed by TCP_CONGESTION under the same lock) and
 * its private area cannot change underneath; user memory is only touched
 * outside the socket lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/netfilter.h>
#include <linux/sockptr.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "mltcp.h"
#include "mltcp_ctl.h"
#include "uapi/linux/mltcp.h"

static bool mltcp_so_is_tcp(const struct sock *sk)
{
	return sk->sk_type == SOCK_STREAM && sk->sk_protocol == IPPROTO_TCP;
}

/**
 * mltcp_so_set() - setsockopt handler for MLTCP_SO_BYTES_PER_ITER,
 *	MLTCP_SO_ITER_BEGIN and MLTCP_SO_TIEBREAK
 * @sk: the caller's socket (not locked)
 * @optval: option number
 * @arg: option buffer
 * @len: option length
 *
 * Return: 0 or a negative errno, see include/uapi/linux/mltcp.h.
 */
static int mltcp_so_set(struct sock *sk, int optval, sockptr_t arg,
			unsigned int len)
{
	bool closed_ok;
	u64 bytes = 0;
	u32 q10;
	int err;

	if (!mltcp_so_is_tcp(sk))
		return -ENOPROTOOPT;

	if (optval == MLTCP_SO_TIEBREAK) {
		if (len != sizeof(q10))
			return -EINVAL;
		if (copy_from_sockptr(&q10, arg, sizeof(q10)))
			return -EFAULT;
		if (q10 > MLTCP_TIEBREAK_ABI_MAX)
			return -EINVAL;
		lock_sock(sk);
		if (!mltcp_ctl_state_ok(sk->sk_state, true))
			err = -ENOTCONN;
		else
			err = mltcp_set_sock_tiebreak(sk, q10);
		release_sock(sk);
		return err;
	}

	switch (optval) {
	case MLTCP_SO_BYTES_PER_ITER:
		if (len != sizeof(bytes))
			return -EINVAL;
		/* a size may be given before connect(); init keeps it */
		closed_ok = true;
		break;
	case MLTCP_SO_ITER_BEGIN:
		if (len != 0 && len != sizeof(bytes))
			return -EINVAL;
		closed_ok = false;
		break;
	default:
		return -ENOPROTOOPT;
	}
	if (len && copy_from_sockptr(&bytes, arg, sizeof(bytes)))
		return -EFAULT;
	if (bytes && !mltcp_iter_size_valid(bytes))
		return -EINVAL;

	lock_sock(sk);
	if (!mltcp_ctl_state_ok(sk->sk_state, closed_ok))
		err = -ENOTCONN;
	else if (optval == MLTCP_SO_BYTES_PER_ITER)
		err = mltcp_set_bytes_per_iter(sk, bytes);
	else
		err = mltcp_iteration_begin(sk, bytes);
	release_sock(sk);
	return err;
}

/**
 * mltcp_info_from_state() - convert the core's snapshot to the ABI struct
 * @info: output, fully initialised (reserved fields zero)
 * @st: snapshot from mltcp_get_state()
 */
static void mltcp_info_from_state(struct mltcp_info *info,
				  const struct mltcp_sock_state *st)
{
	memset(info, 0, sizeof(*info));
	info->abi_version = MLTCP_ABI_VERSION;
	info->size = sizeof(*info);
	strscpy(info->algo, st->algo, sizeof(info->algo));
	info->mode = st->mode;
	info->flags = (u8)mltcp_ctl_info_flags(st);
	info->iterations = st->iterations;
	info->bytes_this_iter = st->bytes_this_iter;
	info->bytes_per_iter = st->bytes_per_iter;
	info->bytes_ratio = st->bytes_ratio;
	info->f = st->f;
	info->cwnd = st->cwnd;
	info->tiebreak = st->tiebreak;
	info->stagger = st->stagger;
	info->decrease = st->decrease;
	info->head_start = st->head_start;
	info->phase = st->phase;
}

static int mltcp_so_get_info(struct sock *sk, void __user *user, int *len)
{
	struct mltcp_sock_state st;
	struct mltcp_info info;
	int err, n;

	if (*len < MLTCP_INFO_SIZE_V1)
		return -EINVAL;

	lock_sock(sk);
	if (!mltcp_ctl_state_ok(sk->sk_state, false))
		err = -ENOTCONN;
	else
		err = mltcp_get_state(sk, &st);
	release_sock(sk);
	if (err)
		return err;

	mltcp_info_from_state(&info, &st);
	n = min_t(int, *len, sizeof(info));
	if (copy_to_user(user, &info, n))
		return -EFAULT;
	*len = n;
	return 0;
}

/**
 * mltcp_so_get() - getsockopt handler for MLTCP_SO_INFO and
 *	MLTCP_SO_ABI_VERSION
 * @sk: the caller's socket (not locked)
 * @optval: option number
 * @user: option buffer
 * @len: in: buffer length from the caller; out: bytes written
 *
 * Return: 0 or a negative errno, see include/uapi/linux/mltcp.h.
 */
static int mltcp_so_get(struct sock *sk, int optval, void __user *user,
			int *len)
{
	u32 version = MLTCP_ABI_VERSION;

	if (!mltcp_so_is_tcp(sk))
		return -ENOPROTOOPT;

	switch (optval) {
	case MLTCP_SO_INFO:
		return mltcp_so_get_info(sk, user, len);
	case MLTCP_SO_ABI_VERSION:
		if (*len < (int)sizeof(version))
			return -EINVAL;
		if (copy_to_user(user, &version, sizeof(version)))
			return -EFAULT;
		*len = sizeof(version);
		return 0;
	}
	return -ENOPROTOOPT;
}

/* The same options for both families (IPv6 sockets also reach PF_INET's). */
#define MLTCP_SOCKOPT_OPS(family)				\
	{							\
		.pf		= (family),			\
		.set_optmin	= MLTCP_SO_BYTES_PER_ITER,	\
		.set_optmax	= MLTCP_SO_SET_MAX,		\
		.set		= mltcp_so_set,			\
		.get_optmin	= MLTCP_SO_INFO,		\
		.get_optmax	= MLTCP_SO_GET_MAX,		\
		.get		= mltcp_so_get,			\
		.owner		= THIS_MODULE,			\
	}

static struct nf_sockopt_ops mltcp_sockopt_ops[] = {
	MLTCP_SOCKOPT_OPS(PF_INET),
#if IS_ENABLED(CONFIG_IPV6)
	MLTCP_SOCKOPT_OPS(PF_INET6),
#endif
};

/**
 * mltcp_sockopt_init() - register the MLTCP socket options
 *
 * Return: 0, or -EBUSY if another module claimed the option range.
 */
int mltcp_sockopt_init(void)
{
	int i, err;

	BUILD_BUG_ON(sizeof(struct mltcp_info) != MLTCP_INFO_SIZE_V3);
	BUILD_BUG_ON(MLTCP_ALGO_NAME_MAX != TCP_CA_NAME_MAX);
	BUILD_BUG_ON((u32)MLTCP_TIEBREAK_ABI_MAX != (u32)MLTCP_TIEBREAK_MAX ||
		     (u32)MLTCP_STAGGER_ABI_MAX != (u32)MLTCP_STAGGER_MAX);
	BUILD_BUG_ON((int)MLTCP_ABI_MODE_LEARNED != (int)MLTCP_MODE_LEARNED ||
		     (int)MLTCP_ABI_MODE_GIVEN != (int)MLTCP_MODE_GIVEN ||
		     (int)MLTCP_ABI_MODE_OFF != (int)MLTCP_MODE_OFF);
	BUILD_BUG_ON((int)MLTCP_ABI_PHASE_BASE != (int)MLTCP_PHASE_BASE ||
		     (int)MLTCP_ABI_PHASE_UNEARNED != (int)MLTCP_PHASE_UNEARNED ||
		     (int)MLTCP_ABI_PHASE_OVERRUN != (int)MLTCP_PHASE_OVERRUN ||
		     (int)MLTCP_ABI_PHASE_RAMP != (int)MLTCP_PHASE_RAMP ||
		     (int)MLTCP_ABI_PHASE_TOP != (int)MLTCP_PHASE_TOP ||
		     (int)MLTCP_ABI_PHASE_YIELD != (int)MLTCP_PHASE_YIELD);

	for (i = 0; i < ARRAY_SIZE(mltcp_sockopt_ops); i++) {
		err = nf_register_sockopt(&mltcp_sockopt_ops[i]);
		if (err) {
			pr_err("cannot register socket options (pf %u): %d\n",
			       mltcp_sockopt_ops[i].pf, err);
			while (--i >= 0)
				nf_unregister_sockopt(&mltcp_sockopt_ops[i]);
			return err;
		}
	}
	return 0;
}

/**
 * mltcp_sockopt_exit() - unregister the MLTCP socket options
 *
 * nf_unregister_sockopt() serialises with lookups under netfilter's
 * sockopt mutex, and a handler that is running holds a reference on this
 * module, so no handler runs or starts once the module exit is reached.
 */
void mltcp_sockopt_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(mltcp_sockopt_ops) - 1; i >= 0; i--)
		nf_unregister_sockopt(&mltcp_sockopt_ops[i]);
}
