// SPDX-License-Identifier: GPL-2.0
/*
 * MLTCP shared core (mltcp.ko): global parameters, the registry of MLTCP
 * congestion controls with their counters, and the glue between the
 * tcp_sock counters and the math in include/mltcp_core.h.
 *
 * The algorithm modules (mltcp_reno, mltcp_cubic, mltcp_dctcp) use the
 * symbols exported here, so this module cannot be unloaded while any of
 * them is loaded, and TCP pins an algorithm module while a socket uses it.
 *
 * Parameters (/sys/module/mltcp/parameters/):
 *   slope, intercept  decimals ("1", "0.5", "1.25"), stored Q10;
 *                     F = slope * bytes_ratio + intercept.
 *   idle_ms           floor of the idle threshold; the threshold is
 *                     max(idle_ms, 2 * srtt).
 *   mode              learned | given | off.
 *   decrease          also divide the multiplicative decrease by F (bool).
 *   stagger           largest head start a socket's tie-break gives
 *                     it, a decimal fraction of an iteration in [0, 1];
 *                     breaks the lockstep of identical jobs started
 *                     together (mltcp_head_start_q10()).
 *   overrun           the multiple of its size an iteration may carry
 *                     with F > 1, a decimal in [1, 8], or 0 for no bound
 *                     (trusted hosts only; include/mltcp_core.h, "Policy").
 * Counters of each algorithm, per network namespace and host-wide: see
 * "counters" below.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "mltcp.h"
#include "mltcp_compat.h"
#include "uapi/linux/mltcp.h"

#define CREATE_TRACE_POINTS
#include "mltcp_trace.h"

/*
 * The global parameters (struct mltcp_globals): read by the hooks with
 * READ_ONCE(), one field at a time; slope and intercept packed in one word,
 * one load on the ACK path.  F on the decrease too: what makes loss-based
 * algorithms interleave (bench/ANALYSIS.md).
 */
struct mltcp_globals mltcp_globals = {
	.fparams	= MLTCP_SLOPE_DEFAULT | (MLTCP_INTERCEPT_DEFAULT << 16),
	.idle_ms	= MLTCP_IDLE_MS_DEFAULT,
	.stagger	= MLTCP_STAGGER_DEFAULT,
	.overrun	= MLTCP_OVERRUN_DEFAULT,
	.mode		= MLTCP_MODE_LEARNED,
	.decrease	= true,
};

/* Serialises writers of the parameters (sysfs and control plane). */
static DEFINE_MUTEX(mltcp_param_lock);

LIST_HEAD(mltcp_algos);
static DEFINE_MUTEX(mltcp_algos_lock);

/* ---- global parameters ------------------------------------------------ */

u32 mltcp_get_slope(void)
{
	return mltcp_params_slope(READ_ONCE(mltcp_globals.fparams));
}
EXPORT_SYMBOL_GPL(mltcp_get_slope);

u32 mltcp_get_intercept(void)
{
	return mltcp_params_intercept(READ_ONCE(mltcp_globals.fparams));
}
EXPORT_SYMBOL_GPL(mltcp_get_intercept);

/**
 * mltcp_set_f_params() - set slope and intercept together
 * @slope_q10: slope, Q10, in [0, 8192]
 * @intercept_q10: intercept, Q10, in [1, 8192]
 *
 * Both are validated before either changes; readers see the old pair or
 * the new pair, never a mix.
 *
 * Return: 0 or -EINVAL.
 */
int mltcp_set_f_params(u32 slope_q10, u32 intercept_q10)
{
	if (!mltcp_slope_valid(slope_q10) || !mltcp_intercept_valid(intercept_q10))
		return -EINVAL;
	mutex_lock(&mltcp_param_lock);
	WRITE_ONCE(mltcp_globals.fparams, mltcp_params_pack(slope_q10, intercept_q10));
	mutex_unlock(&mltcp_param_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_f_params);

/**
 * mltcp_set_slope() - set the slope of F
 * @q10: slope, Q10, in [0, 8192]
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_slope(u32 q10)
{
	if (!mltcp_slope_valid(q10))
		return -EINVAL;
	mutex_lock(&mltcp_param_lock);
	WRITE_ONCE(mltcp_globals.fparams,
		   mltcp_params_pack(q10, mltcp_params_intercept(mltcp_globals.fparams)));
	mutex_unlock(&mltcp_param_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_slope);

/**
 * mltcp_set_intercept() - set the intercept of F
 * @q10: intercept, Q10, in [1, 8192]
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_intercept(u32 q10)
{
	if (!mltcp_intercept_valid(q10))
		return -EINVAL;
	mutex_lock(&mltcp_param_lock);
	WRITE_ONCE(mltcp_globals.fparams,
		   mltcp_params_pack(mltcp_params_slope(mltcp_globals.fparams), q10));
	mutex_unlock(&mltcp_param_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_intercept);

u32 mltcp_get_idle_ms(void)
{
	return READ_ONCE(mltcp_globals.idle_ms);
}
EXPORT_SYMBOL_GPL(mltcp_get_idle_ms);

/**
 * mltcp_set_idle_ms() - set the floor of the idle threshold
 * @ms: milliseconds, in [1, 60000]
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_idle_ms(u32 ms)
{
	if (!mltcp_idle_ms_valid(ms))
		return -EINVAL;
	WRITE_ONCE(mltcp_globals.idle_ms, ms);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_idle_ms);

int mltcp_get_mode(void)
{
	return READ_ONCE(mltcp_globals.mode);
}
EXPORT_SYMBOL_GPL(mltcp_get_mode);

/**
 * mltcp_set_mode() - set the global mode
 * @mode: enum mltcp_mode
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_mode(int mode)
{
	if (mode != MLTCP_MODE_LEARNED && mode != MLTCP_MODE_GIVEN &&
	    mode != MLTCP_MODE_OFF)
		return -EINVAL;
	WRITE_ONCE(mltcp_globals.mode, mode);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_mode);

u32 mltcp_get_stagger(void)
{
	return READ_ONCE(mltcp_globals.stagger);
}
EXPORT_SYMBOL_GPL(mltcp_get_stagger);

/**
 * mltcp_set_stagger() - set the largest tie-break head start
 * @q10: fraction of an iteration, Q10, in [0, 1024]; 0 = no tie-break
 *
 * Applies to existing sockets at their next ACK.
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_stagger(u32 q10)
{
	if (!mltcp_stagger_valid(q10))
		return -EINVAL;
	WRITE_ONCE(mltcp_globals.stagger, q10);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_stagger);

u32 mltcp_get_overrun(void)
{
	return READ_ONCE(mltcp_globals.overrun);
}
EXPORT_SYMBOL_GPL(mltcp_get_overrun);

/**
 * mltcp_set_overrun() - set the bound on the bytes of an iteration F applies to
 * @q10: multiple of the iteration's size, Q10, in [1024, 8192]; 0 lifts the
 *	bound (hosts whose applications are trusted)
 *
 * Applies to existing sockets at their next ACK.
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_overrun(u32 q10)
{
	if (!mltcp_overrun_valid(q10))
		return -EINVAL;
	WRITE_ONCE(mltcp_globals.overrun, q10);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_overrun);

bool mltcp_get_decrease(void)
{
	return READ_ONCE(mltcp_globals.decrease);
}
EXPORT_SYMBOL_GPL(mltcp_get_decrease);

void mltcp_set_decrease(bool on)
{
	WRITE_ONCE(mltcp_globals.decrease, on);
}
EXPORT_SYMBOL_GPL(mltcp_set_decrease);

static int mltcp_param_set_slope(const char *val, const struct kernel_param *kp)
{
	u32 q;

	if (mltcp_parse_q10(val, &q))
		return -EINVAL;
	return mltcp_set_slope(q);
}

static int mltcp_param_get_slope(char *buf, const struct kernel_param *kp)
{
	int n = mltcp_format_q10(mltcp_get_slope(), buf);

	buf[n++] = '\n';
	buf[n] = '\0';
	return n;
}

static int mltcp_param_set_intercept(const char *val,
				     const struct kernel_param *kp)
{
	u32 q;

	if (mltcp_parse_q10(val, &q))
		return -EINVAL;
	return mltcp_set_intercept(q);
}

static int mltcp_param_get_intercept(char *buf, const struct kernel_param *kp)
{
	int n = mltcp_format_q10(mltcp_get_intercept(), buf);

	buf[n++] = '\n';
	buf[n] = '\0';
	return n;
}

static int mltcp_param_set_stagger(const char *val,
				   const struct kernel_param *kp)
{
	u32 q;

	if (mltcp_parse_q10(val, &q))
		return -EINVAL;
	return mltcp_set_stagger(q);
}

static int mltcp_param_get_stagger(char *buf, const struct kernel_param *kp)
{
	int n = mltcp_format_q10(mltcp_get_stagger(), buf);

	buf[n++] = '\n';
	buf[n] = '\0';
	return n;
}

static int mltcp_param_set_overrun(const char *val,
				   const struct kernel_param *kp)
{
	u32 q;

	if (mltcp_parse_q10(val, &q))
		return -EINVAL;
	return mltcp_set_overrun(q);
}

static int mltcp_param_get_overrun(char *buf, const struct kernel_param *kp)
{
	int n = mltcp_format_q10(mltcp_get_overrun(), buf);

	buf[n++] = '\n';
	buf[n] = '\0';
	return n;
}

static int mltcp_param_set_idle_ms(const char *val,
				   const struct kernel_param *kp)
{
	u32 ms;

	if (kstrtou32(val, 10, &ms))
		return -EINVAL;
	return mltcp_set_idle_ms(ms);
}

static int mltcp_param_get_idle_ms(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%u\n", mltcp_get_idle_ms());
}

static int mltcp_param_set_mode(const char *val, const struct kernel_param *kp)
{
	int mode = mltcp_parse_mode(val);

	if (mode < 0)
		return -EINVAL;
	return mltcp_set_mode(mode);
}

static int mltcp_param_get_mode(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n", mltcp_mode_name(mltcp_get_mode()));
}

static const struct kernel_param_ops mltcp_slope_ops = {
	.set = mltcp_param_set_slope,
	.get = mltcp_param_get_slope,
};

static const struct kernel_param_ops mltcp_intercept_ops = {
	.set = mltcp_param_set_intercept,
	.get = mltcp_param_get_intercept,
};

static const struct kernel_param_ops mltcp_stagger_ops = {
	.set = mltcp_param_set_stagger,
	.get = mltcp_param_get_stagger,
};

static const struct kernel_param_ops mltcp_overrun_ops = {
	.set = mltcp_param_set_overrun,
	.get = mltcp_param_get_overrun,
};

static const struct kernel_param_ops mltcp_idle_ms_ops = {
	.set = mltcp_param_set_idle_ms,
	.get = mltcp_param_get_idle_ms,
};

static const struct kernel_param_ops mltcp_mode_ops = {
	.set = mltcp_param_set_mode,
	.get = mltcp_param_get_mode,
};

module_param_cb(slope, &mltcp_slope_ops, NULL, 0644);
MODULE_PARM_DESC(slope,
		 "Slope of F = slope * bytes_ratio + intercept, decimal in [0, 8] (default 1)");
module_param_cb(intercept, &mltcp_intercept_ops, NULL, 0644);
MODULE_PARM_DESC(intercept,
		 "Intercept of F, decimal in (0, 8] (default 1; slope 0, intercept 1: base algorithm)");
module_param_cb(idle_ms, &mltcp_idle_ms_ops, NULL, 0644);
MODULE_PARM_DESC(idle_ms,
		 "Idle gap ending a learned iteration: max(idle_ms, 2*srtt); [1, 60000] (default 10)");
module_param_named(decrease, mltcp_globals.decrease, bool, 0644);
MODULE_PARM_DESC(decrease,
		 "Also divide the multiplicative decrease by F (default Y; N: F scales the increase only)");
module_param_cb(stagger, &mltcp_stagger_ops, NULL, 0644);
MODULE_PARM_DESC(stagger,
		 "Largest head start breaking the lockstep of identical jobs, fraction of an iteration in [0, 1] (default 0.5; 0: off)");
module_param_cb(overrun, &mltcp_overrun_ops, NULL, 0644);
MODULE_PARM_DESC(overrun,
		 "F applies to at most this multiple of an iteration's size, decimal in [1, 8] (default 1.25; 0: no bound, trusted hosts only)");
module_param_cb(mode, &mltcp_mode_ops, NULL, 0644);
MODULE_PARM_DESC(mode,
		 "learned (default): learn unless hinted; given: only hinted sockets; off: F = 1");

/* ---- counters ----------------------------------------------------------- */

/*
 * Each socket is counted twice: in its algorithm's host-wide counters
 * (struct mltcp_algo.host) and in the counters of the network namespace it
 * lives in, sock_net(sk).  A namespace's counters are its pernet memory
 * (net_generic(), mltcp_net_id): one struct mltcp_counters per registry
 * slot (struct mltcp_algo.slot), allocated zeroed by the netns core when
 * the namespace is made and freed when it is dismantled.
 *
 * Lifetime rule: a socket that holds a reference on its namespace
 * (sk->sk_net_refcnt, every socket made by a process) keeps the pernet
 * memory alive from its init to its release, so its events are counted
 * there.  A kernel socket (sk_net_refcnt == 0) holds none and may outlive
 * the namespace's pernet exit, so it is counted host-wide only: its events
 * never touch pernet memory.  The branch is taken on sk->sk_net_refcnt at
 * each event; a kernel socket given a reference later
 * (sk_net_refcnt_upgrade()) is given it by its maker right after creation,
 * before its congestion control starts, so init and release agree (and a
 * socket count that would go below zero reads as 0).
 *
 * Readers of a namespace's counters walk the registry under
 * rcu_read_lock() and hold the namespace (the requester's socket);
 * net_generic() itself needs rcu_read_lock() (net->gen may be replaced).
 */
struct mltcp_net {
	struct mltcp_counters algo[MLTCP_ALGO_SLOTS];
};

static unsigned int mltcp_net_id __read_mostly;

/* No init or exit: the memory comes zeroed and nothing else needs undoing. */
static struct pernet_operations mltcp_net_ops = {
	.id	= &mltcp_net_id,
	.size	= sizeof(struct mltcp_net),
};

/* Slots of the registered algorithms; under mltcp_algos_lock. */
static unsigned long mltcp_slots_used;

/* The counters of @algo in @net; rcu_read_lock() held, @net alive. */
static struct mltcp_counters *mltcp_net_counters(const struct net *net,
						 const struct mltcp_algo *algo)
{
	struct mltcp_net *mn = net_generic(net, mltcp_net_id);

	return &mn->algo[algo->slot];
}

/**
 * mltcp_count() - count an event of a socket
 * @sk: the socket, alive (its init, release or an iteration event)
 * @algo: its algorithm
 * @cnt: the counter
 * @delta: +1, or -1 for MLTCP_CNT_SOCKETS at release
 *
 * Host-wide always; in sock_net(@sk) too unless @sk holds no reference on
 * it (the lifetime rule above).  Not on the ACK path.
 */
static void mltcp_count(const struct sock *sk, struct mltcp_algo *algo,
			enum mltcp_counter cnt, long delta)
{
	atomic_long_add(delta, &algo->host.c[cnt]);
	if (!sk->sk_net_refcnt)
		return;
	rcu_read_lock();
	atomic_long_add(delta, &mltcp_net_counters(sock_net(sk), algo)->c[cnt]);
	rcu_read_unlock();
}

/* A counter's value; a socket count seen below zero reads as 0. */
static u64 mltcp_counter_value(const atomic_long_t *v)
{
	long n = atomic_long_read(v);

	return n > 0 ? n : 0;
}

/**
 * mltcp_read_counters() - an algorithm's counters, per namespace or host-wide
 * @net: the namespace, held by the caller; NULL: host-wide
 * @algo: the algorithm, from the registry
 * @out: the values, indexed by enum mltcp_counter
 *
 * Context: rcu_read_lock() held (the registry walk of the control plane).
 * Each counter is read on its own: not a snapshot of the four together.
 */
void mltcp_read_counters(const struct net *net, const struct mltcp_algo *algo,
			 u64 out[MLTCP_CNT_NUM])
{
	const struct mltcp_counters *c = net ? mltcp_net_counters(net, algo) : &algo->host;
	int i;

	for (i = 0; i < MLTCP_CNT_NUM; i++)
		out[i] = mltcp_counter_value(&c->c[i]);
}

/*
 * Zero a slot in every namespace before an algorithm takes it: the slot's
 * previous algorithm (unregistered, so no socket uses it) left its counts
 * there.  A namespace made meanwhile gets zeroed memory; one being
 * dismantled is still listed, or its memory is not freed before the grace
 * period this walk is in ends (cleanup_net() unlists, then waits).
 */
static void mltcp_net_clear_slot(unsigned int slot)
{
	struct net *net;
	int i;

	rcu_read_lock();
	for_each_net_rcu(net) {
		struct mltcp_net *mn = net_generic(net, mltcp_net_id);

		for (i = 0; i < MLTCP_CNT_NUM; i++)
			atomic_long_set(&mn->algo[slot].c[i], 0);
	}
	rcu_read_unlock();
}

/* Host-wide counters as read-only, root-only module parameters (include/mltcp.h). */
static int mltcp_param_set_ro(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

#define MLTCP_COUNTER_OPS(name, cnt)					\
static int mltcp_param_get_##name(char *buf, const struct kernel_param *kp) \
{									\
	const struct mltcp_algo *algo = kp->arg;			\
									\
	return scnprintf(buf, PAGE_SIZE, "%llu\n",			\
			 mltcp_counter_value(&algo->host.c[cnt]));	\
}									\
const struct kernel_param_ops mltcp_param_##name##_ops = {		\
	.set = mltcp_param_set_ro,					\
	.get = mltcp_param_get_##name,					\
};									\
EXPORT_SYMBOL_GPL(mltcp_param_##name##_ops)

MLTCP_COUNTER_OPS(sockets, MLTCP_CNT_SOCKETS);
MLTCP_COUNTER_OPS(sockets_total, MLTCP_CNT_SOCKETS_TOTAL);
MLTCP_COUNTER_OPS(iters_learned, MLTCP_CNT_ITERS_LEARNED);
MLTCP_COUNTER_OPS(iters_given, MLTCP_CNT_ITERS_GIVEN);

/* ---- registry --------------------------------------------------------- */

/**
 * mltcp_register() - register an MLTCP congestion control
 * @algo: algorithm; @algo->ops must be filled in
 *
 * Adds @algo to the registry and registers its ops with TCP.
 *
 * Return: 0, -EBUSY when another congestion control holds the name, or
 * another error of tcp_register_congestion_control().
 */
int mltcp_register(struct mltcp_algo *algo)
{
	unsigned int slot;
	int err, i;

	for (i = 0; i < MLTCP_CNT_NUM; i++)
		atomic_long_set(&algo->host.c[i], 0);

	mutex_lock(&mltcp_algos_lock);
	slot = find_first_zero_bit(&mltcp_slots_used, MLTCP_ALGO_SLOTS);
	if (slot >= MLTCP_ALGO_SLOTS) {
		mutex_unlock(&mltcp_algos_lock);
		pr_err("%s: no counter slot left (%d MLTCP algorithms at most)\n",
		       algo->ops.name, MLTCP_ALGO_SLOTS);
		return -ENOSPC;
	}
	__set_bit(slot, &mltcp_slots_used);
	algo->slot = slot;
	/* before TCP can give the algorithm a socket */
	mltcp_net_clear_slot(slot);
	list_add_tail_rcu(&algo->node, &mltcp_algos);
	mutex_unlock(&mltcp_algos_lock);

	err = tcp_register_congestion_control(&algo->ops);
	if (err == -EEXIST) {
		/*
		 * modprobe takes EEXIST for "already loaded" and exits 0: the
		 * name is held by another algorithm, e.g. MLTCP's BPF backend.
		 */
		pr_err("%s: a congestion control of that name is already registered (the BPF backend? mltcpctl bpf unload)\n",
		       algo->ops.name);
		err = -EBUSY;
	}
	if (err) {
		mutex_lock(&mltcp_algos_lock);
		list_del_rcu(&algo->node);
		mutex_unlock(&mltcp_algos_lock);
		synchronize_rcu();
		/* no reader of the list still sees the slot */
		mutex_lock(&mltcp_algos_lock);
		__clear_bit(slot, &mltcp_slots_used);
		mutex_unlock(&mltcp_algos_lock);
	}
	return err;
}
EXPORT_SYMBOL_GPL(mltcp_register);

/**
 * mltcp_unregister() - undo mltcp_register()
 * @algo: algorithm
 *
 * Called from the algorithm's module exit, when no socket uses it any
 * more; after return nothing refers to @algo.
 */
void mltcp_unregister(struct mltcp_algo *algo)
{
	tcp_unregister_congestion_control(&algo->ops);
	mutex_lock(&mltcp_algos_lock);
	list_del_rcu(&algo->node);
	mutex_unlock(&mltcp_algos_lock);
	synchronize_rcu();
	WARN_ON_ONCE(atomic_long_read(&algo->host.c[MLTCP_CNT_SOCKETS]));
	/* readers of the registry are done with the slot: free it */
	mutex_lock(&mltcp_algos_lock);
	__clear_bit(algo->slot, &mltcp_slots_used);
	mutex_unlock(&mltcp_algos_lock);
}
EXPORT_SYMBOL_GPL(mltcp_unregister);

/*
 * The registered MLTCP algorithm a socket uses, or NULL.  An RCU walk of a
 * list of (at most) a few entries; called on init, release, idle restarts
 * and from the control plane, never per ACK.
 */
static struct mltcp_algo *mltcp_algo_of(const struct sock *sk)
{
	const struct tcp_congestion_ops *ops;
	struct mltcp_algo *algo, *found = NULL;

	if (!sk_fullsock(sk) || sk->sk_protocol != IPPROTO_TCP ||
	    sk->sk_type != SOCK_STREAM)
		return NULL;
	ops = READ_ONCE(inet_csk(sk)->icsk_ca_ops);
	rcu_read_lock();
	list_for_each_entry_rcu(algo, &mltcp_algos, node) {
		if (&algo->ops == ops || (algo->alt_ops && algo->alt_ops == ops)) {
			found = algo;
			break;
		}
	}
	rcu_read_unlock();
	/* a socket pins its algorithm's module, so @found stays valid */
	return found;
}

/**
 * mltcp_sk_is_mltcp() - does a socket use an MLTCP congestion control?
 * @sk: socket
 *
 * Return: true when @sk is a TCP socket whose congestion control is a registered
 *	MLTCP algorithm.
 */
bool mltcp_sk_is_mltcp(const struct sock *sk)
{
	return mltcp_algo_of(sk);
}
EXPORT_SYMBOL_GPL(mltcp_sk_is_mltcp);

/* ---- congestion-control hooks ---------------------------------------- */

/* The connection's tie-break, the same at both ends (mltcp_flow_tiebreak()). */
static u16 mltcp_sk_flow_tiebreak(const struct sock *sk)
{
	u32 local = (__force u32)sk->sk_rcv_saddr;
	u32 remote = (__force u32)sk->sk_daddr;

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		local = mltcp_fold_addr6((__force const u32 *)sk->sk_v6_rcv_saddr.s6_addr32);
		remote = mltcp_fold_addr6((__force const u32 *)sk->sk_v6_daddr.s6_addr32);
	}
#endif
	return mltcp_flow_tiebreak(local, sk->sk_num, remote, ntohs(sk->sk_dport));
}

/**
 * mltcp_ca_init() - start MLTCP state on a connection
 * @sk: socket, from the algorithm's init hook
 *
 * Hints given before the connection was established are kept
 * (mltcp_hook_init()).
 */
void mltcp_ca_init(struct sock *sk)
{
	struct mltcp_algo *algo;

	if (mltcp_hook_init(mltcp_sk(sk), tcp_sk(sk)->bytes_acked, mltcp_sk_flow_tiebreak(sk),
			    mltcp_clock_ms()))
		return;
	algo = mltcp_algo_of(sk);
	if (WARN_ON_ONCE(!algo))
		return;
	mltcp_count(sk, algo, MLTCP_CNT_SOCKETS, 1);
	mltcp_count(sk, algo, MLTCP_CNT_SOCKETS_TOTAL, 1);
}
EXPORT_SYMBOL_GPL(mltcp_ca_init);

/**
 * mltcp_ca_release() - end MLTCP state on a socket
 * @sk: socket, from the algorithm's release hook
 */
void mltcp_ca_release(struct sock *sk)
{
	struct mltcp_algo *algo;

	if (!mltcp_hook_release(mltcp_sk(sk)))
		return;
	algo = mltcp_algo_of(sk);
	if (!WARN_ON_ONCE(!algo))
		mltcp_count(sk, algo, MLTCP_CNT_SOCKETS, -1);
}
EXPORT_SYMBOL_GPL(mltcp_ca_release);

/* An iteration ended on @sk after @ms milliseconds: report it. */
static void mltcp_iteration_done(struct sock *sk, bool given, u32 ms)
{
	const struct mltcp_sock *st = mltcp_sk(sk);
	struct mltcp_algo *algo = mltcp_algo_of(sk);

	if (algo)
		mltcp_count(sk, algo, given ? MLTCP_CNT_ITERS_GIVEN : MLTCP_CNT_ITERS_LEARNED, 1);
	trace_mltcp_iteration(sk, mltcp_last_iter_bytes(st), ms, given, st->bytes_per_iter,
			      st->iters);
}

/*
 * Time since the last data transmission, in microseconds.  tp->lsndtime
 * is in jiffies (4 ms at HZ=250), which is fine against a threshold of at
 * least idle_ms (10 ms by default); there is no finer record of the last
 * send time at TX_START (tcp_mstamp and tcp_wstamp_ns already describe
 * the transmission in progress).
 */
static u32 mltcp_send_gap_us(const struct tcp_sock *tp)
{
	u32 gap = tcp_jiffies32 - tp->lsndtime;

	if (gap >= 3600U * HZ)
		return U32_MAX;
	return jiffies_to_usecs(gap);
}

/*
 * The window a restart goes back to: the route's initcwnd if it has one,
 * else RFC 6928's ten segments, within the clamp (what TCP starts a
 * connection with).
 */
static u32 mltcp_initial_window(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct dst_entry *dst = __sk_dst_get(sk);
	u32 w = dst ? dst_metric(dst, RTAX_INITCWND) : 0;

	return min(w ? w : TCP_INIT_CWND, tp->snd_cwnd_clamp);
}

/**
 * mltcp_ca_cwnd_event() - iteration tracking on congestion-window events
 * @sk: socket
 * @ev: event
 *
 * CA_EVENT_TX_START (a transmission while nothing is in flight) is
 * mltcp_hook_tx_start(): it runs before the first segment of the new
 * flight leaves, so the whole flight obeys a restarted window.  Algorithms
 * with their own cwnd_event call this from it; Reno uses it directly.
 */
void mltcp_ca_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_sock *ms = mltcp_sk(sk);
	struct mltcp_tx_out out;
	struct mltcp_tx_in in;

	if (ev != CA_EVENT_TX_START)
		return;
	in = (struct mltcp_tx_in){
		.g		= &mltcp_globals,
		.bytes_acked	= tp->bytes_acked,
		.outstanding	= tp->snd_nxt - tp->snd_una,
		.gap_us		= mltcp_send_gap_us(tp),
		.srtt_us	= tp->srtt_us >> 3,
		.now_ms		= mltcp_clock_ms(),
		.cwnd		= tcp_snd_cwnd(tp),
		.ssthresh	= tp->snd_ssthresh,
		.init_cwnd	= mltcp_initial_window(sk),
		.delivered	= tp->rate_delivered,
		.interval_us	= tp->rate_interval_us,
		.min_rtt_us	= tcp_min_rtt(tp),
		.ca_open	= inet_csk(sk)->icsk_ca_state < TCP_CA_CWR,
	};
	mltcp_hook_tx_start(ms, &in, &out);
	if (out.restarted) {
		tp->snd_ssthresh = out.ssthresh;
		tcp_snd_cwnd_set(tp, out.cwnd);
		tp->snd_cwnd_stamp = tcp_jiffies32;
		trace_mltcp_restart(sk, out.cwnd_before, out.cwnd);
	}
	if (out.gap_seen)
		trace_mltcp_gap(sk, in.gap_us, out.gap_ref, out.gap_bursts, ms->gap_q8,
				out.gap_bytes, out.iter_done);
	if (out.iter_done)
		mltcp_iteration_done(sk, false, out.iter_ms);
}
EXPORT_SYMBOL_GPL(mltcp_ca_cwnd_event);

/**
 * mltcp_ca_ack() - mltcp_cong_avoid() once the ACK has something to do
 * @sk: socket
 * @acked: in: segments newly acknowledged; out: the F-scaled credit of
 *	congestion avoidance
 * @cwnd_limited: tcp_is_cwnd_limited()
 *
 * mltcp_hook_ack(): reads the socket (the RTT sample and the clock only
 * while the socket yields), applies slow start's window and reports (the
 * tracepoints mltcp_yield, once per yield, and mltcp_ack, per credit).
 * Lock-free and allocation-free: called on every ACK in congestion
 * avoidance.
 *
 * Return: true when the base algorithm's congestion avoidance has work.
 */
bool mltcp_ca_ack(struct sock *sk, u32 *acked, bool cwnd_limited)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_sock *ms = mltcp_sk(sk);
	struct mltcp_ack_out out;
	struct mltcp_ack_in in = {
		.g		= &mltcp_globals,
		.bytes_acked	= tp->bytes_acked,
		.acked		= *acked,
		.cwnd		= tcp_snd_cwnd(tp),
		.ssthresh	= tp->snd_ssthresh,
		.cwnd_clamp	= tp->snd_cwnd_clamp,
		.cwnd_limited	= cwnd_limited,
	};

	if (mltcp_in_yield(ms)) {
		in.rtt.rtt_us = tp->rack.rtt_us;
		in.rtt.min_rtt_us = tcp_min_rtt(tp);
		in.rtt.now_ms = mltcp_clock_ms();
	}
	mltcp_hook_ack(ms, &in, &out);
	if (out.yield == MLTCP_YIELD_DRAINED || out.yield == MLTCP_YIELD_BOUND)
		trace_mltcp_yield(sk, in.rtt.now_ms - ms->start_ms, out.yield == MLTCP_YIELD_BOUND,
				  mltcp_yield_backoff(ms), in.rtt.rtt_us, in.rtt.min_rtt_us);
	if (out.slow_start) {
		trace_mltcp_ack(sk, ms, out.f, in.acked, out.ss_credit);
		tcp_snd_cwnd_set(tp, out.cwnd);
	}
	if (!out.ca)
		return false;
	trace_mltcp_ack(sk, ms, out.f, out.ca_acked, out.ca_credit);
	*acked = out.ca_credit;
	return true;
}
EXPORT_SYMBOL_GPL(mltcp_ca_ack);

/**
 * mltcp_reno_cong_avoid() - Reno increase with the F-scaled credit
 * @sk: socket
 * @ack: acknowledged sequence number (unused)
 * @acked: segments newly acknowledged
 *
 * Slow start and congestion avoidance take the F-scaled credit
 * (mltcp_hook_ack()): in congestion avoidance cwnd grows by F segments per
 * window of ACKs instead of one.  Shared by mltcp_reno and mltcp_dctcp.
 */
void mltcp_reno_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!mltcp_cong_avoid(sk, &acked))
		return;
	if (acked)
		tcp_cong_avoid_ai(tp, tcp_snd_cwnd(tp), acked);
}
EXPORT_SYMBOL_GPL(mltcp_reno_cong_avoid);

/**
 * mltcp_decrease() - apply F to a multiplicative decrease
 * @sk: socket
 * @cwnd: window before the decrease
 * @reduced: the base algorithm's reduced window (its ssthresh)
 *
 * mltcp_hook_decrease(), with the ``decrease`` parameter.  Runs once per
 * congestion event, not per ACK.
 *
 * Return: the window to use as ssthresh.
 */
u32 mltcp_decrease(struct sock *sk, u32 cwnd, u32 reduced)
{
	return mltcp_hook_decrease(mltcp_sk(sk), &mltcp_globals, tcp_sk(sk)->bytes_acked,
				   cwnd, reduced);
}
EXPORT_SYMBOL_GPL(mltcp_decrease);

/**
 * mltcp_reno_ssthresh() - Reno's halving, through mltcp_decrease()
 * @sk: socket
 *
 * Shared by mltcp_reno and mltcp_dctcp without ECN.
 *
 * Return: the new ssthresh.
 */
u32 mltcp_reno_ssthresh(struct sock *sk)
{
	return mltcp_decrease(sk, tcp_snd_cwnd(tcp_sk(sk)), tcp_reno_ssthresh(sk));
}
EXPORT_SYMBOL_GPL(mltcp_reno_ssthresh);

/* ---- control plane ---------------------------------------------------- */

/**
 * mltcp_set_bytes_per_iter() - give a socket its bytes per iteration
 * @sk: socket, locked by the caller
 * @bytes: bytes per iteration (mltcp_iter_size_valid()); 0 drops all hints
 *	and goes back to learning
 *
 * Return: 0, -EINVAL for a size out of range, or -EOPNOTSUPP if @sk does
 *	not use an MLTCP algorithm.
 */
int mltcp_set_bytes_per_iter(struct sock *sk, u64 bytes)
{
	sock_owned_by_me(sk);
	if (!mltcp_sk_is_mltcp(sk))
		return -EOPNOTSUPP;
	return mltcp_set_size(mltcp_sk(sk), bytes);
}
EXPORT_SYMBOL_GPL(mltcp_set_bytes_per_iter);

/**
 * mltcp_iteration_begin() - mark the start of an iteration on a socket
 * @sk: socket, locked by the caller
 * @bytes: size of the new iteration; 0 keeps the current size
 *
 * Data written before this call but not yet acked still belongs to the
 * previous iteration: the new iteration starts at bytes_acked +
 * (write_seq - snd_una).  From now on idle gaps do not move this socket's
 * iteration boundaries; the next transmission after nothing was in flight
 * may restart the window (mltcp_restart_due()).
 *
 * Return: 0, or -EOPNOTSUPP if @sk does not use an MLTCP algorithm.
 */
int mltcp_iteration_begin(struct sock *sk, u64 bytes)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct mltcp_mark_out out;

	sock_owned_by_me(sk);
	if (!mltcp_sk_is_mltcp(sk))
		return -EOPNOTSUPP;
	mltcp_hook_mark(mltcp_sk(sk), tp->bytes_acked, tp->write_seq - tp->snd_una, bytes,
			mltcp_clock_ms(), &out);
	if (out.iter_done)
		mltcp_iteration_done(sk, true, out.iter_ms);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_iteration_begin);

/**
 * mltcp_set_sock_tiebreak() - set a socket's tie-break
 * @sk: socket, locked by the caller
 * @q10: tie-break, Q10 in [0, 1024]; the socket's head start is
 *	@q10 * stagger of an iteration
 *
 * Return: 0, -EINVAL for an out-of-range value, or -EOPNOTSUPP if @sk
 *	does not use an MLTCP algorithm.
 */
int mltcp_set_sock_tiebreak(struct sock *sk, u32 q10)
{
	sock_owned_by_me(sk);
	if (!mltcp_sk_is_mltcp(sk))
		return -EOPNOTSUPP;
	return mltcp_set_tiebreak(mltcp_sk(sk), q10);
}
EXPORT_SYMBOL_GPL(mltcp_set_sock_tiebreak);

/**
 * mltcp_get_state() - snapshot of a socket's MLTCP state
 * @sk: socket, locked by the caller
 * @out: filled in on success
 *
 * Return: 0, or -EOPNOTSUPP if @sk does not use an MLTCP algorithm.
 */
int mltcp_get_state(struct sock *sk, struct mltcp_sock_state *out)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct mltcp_sock *ms = mltcp_sk(sk);
	const struct mltcp_globals *g = &mltcp_globals;
	int mode = READ_ONCE(g->mode);

	sock_owned_by_me(sk);
	if (!mltcp_sk_is_mltcp(sk))
		return -EOPNOTSUPP;
	memset(out, 0, sizeof(*out));
	strscpy(out->algo, inet_csk(sk)->icsk_ca_ops->name, sizeof(out->algo));
	out->mode = (u8)mode;
	out->size_given = ms->flags & MLTCP_SF_SIZE_GIVEN;
	out->bounds_given = ms->flags & MLTCP_SF_BOUNDS_GIVEN;
	out->bytes_this_iter = mltcp_bytes_done(tp->bytes_acked, ms->mark);
	out->bytes_per_iter = ms->bytes_per_iter;
	out->bytes_ratio = mltcp_ratio_q10(out->bytes_this_iter,
					   ms->bytes_per_iter);
	out->f = mltcp_sock_f_q10(ms, mode, READ_ONCE(g->fparams), READ_ONCE(g->stagger),
				  READ_ONCE(g->overrun), tp->bytes_acked);
	out->tiebreak = ms->tiebreak;
	out->tiebreak_given = ms->flags & MLTCP_SF_TIEBREAK_GIVEN;
	out->stagger = READ_ONCE(g->stagger);
	out->decrease = READ_ONCE(g->decrease);
	out->head_start = true;	/* every socket's tie-break gives one */
	out->overrun = mltcp_f_active(ms, mode) &&
		       mltcp_iter_overrun(ms, READ_ONCE(g->overrun), out->bytes_this_iter);
	out->unearned = !mltcp_iter_earned(ms);
	out->iterations = ms->iters;
	out->cwnd = tcp_snd_cwnd(tp);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_get_state);

static int __init mltcp_core_init(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct mltcp_sock) != 56);
	BUILD_BUG_ON(sizeof(struct mltcp_sock) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(MLTCP_SLOPE_MAX > 0xffff || MLTCP_INTERCEPT_MAX > 0xffff);
	BUILD_BUG_ON(MLTCP_MIN_ITER_BYTES != MLTCP_BYTES_PER_ITER_MIN);
	BUILD_BUG_ON(MLTCP_MAX_ITER_BYTES != MLTCP_BYTES_PER_ITER_MAX);
	BUILD_BUG_ON(MLTCP_ALGO_SLOTS > BITS_PER_LONG);

	/* The counters first: the control plane reads them. */
	err = register_pernet_subsys(&mltcp_net_ops);
	if (err)
		return err;
	err = mltcp_ctl_init();
	if (err)
		unregister_pernet_subsys(&mltcp_net_ops);
	return err;
}

static void __exit mltcp_core_exit(void)
{
	/* Algorithm modules depend on us, so they are all gone by now. */
	WARN_ON_ONCE(!list_empty(&mltcp_algos));
	mltcp_ctl_exit();
	unregister_pernet_subsys(&mltcp_net_ops);
}

module_init(mltcp_core_init);
module_exit(mltcp_core_exit);

MODULE_AUTHOR("MLTCP project");
MODULE_DESCRIPTION("MLTCP shared core: iteration tracking and F for MLTCP congestion controls");
MODULE_LICENSE("GPL");
MODULE_VERSION(MLTCP_VERSION);
