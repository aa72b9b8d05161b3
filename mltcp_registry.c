// SPDX-License-Identifier: GPL-2.0
/*
 * MLTCP shared core (mltcp.ko): the registry of MLTCP congestion controls
 * (mltcp_register(), mltcp_algo_of()) and their counters, host-wide and per
 * network namespace.  It depends on no other file of the module.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "mltcp.h"

LIST_HEAD(mltcp_algos);
static DEFINE_MUTEX(mltcp_algos_lock);

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
void mltcp_count(const struct sock *sk, struct mltcp_algo *algo,
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

/**
 * mltcp_algo_of() - the registered MLTCP algorithm a socket uses
 * @sk: socket
 *
 * An RCU walk of a list of (at most) a few entries; called on init,
 * release, iteration ends and from the control plane, never per ACK.
 *
 * Return: the algorithm, or NULL when @sk uses none.
 */
struct mltcp_algo *mltcp_algo_of(const struct sock *sk)
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

/**
 * mltcp_registry_init() - make room for the counters in every namespace
 *
 * Context: module init, before the control plane, which reads them.
 * Return: 0 or a negative errno.
 */
int mltcp_registry_init(void)
{
	return register_pernet_subsys(&mltcp_net_ops);
}

/**
 * mltcp_registry_exit() - undo mltcp_registry_init()
 *
 * Context: module exit, after the control plane is gone.  The algorithm
 * modules depend on mltcp.ko, so none is registered any more.
 */
void mltcp_registry_exit(void)
{
	WARN_ON_ONCE(!list_empty(&mltcp_algos));
	unregister_pernet_subsys(&mltcp_net_ops);
}
