// SPDX-License-Identifier: GPL-2.0
/*
 * MLTCP shared core (mltcp.ko): module init and exit, the one place that
 * brings the module's parts up, in this order, and down in reverse:
 *
 *   mltcp_tiebreak_key_init()  a random key for the connections' drawn
 *                          tie-breaks (mltcp_core.c), before anyone can set one
 *   mltcp_registry_init()  the counters of every network namespace
 *                          (mltcp_registry.c): the control plane reads them
 *   mltcp_sockopt_init()   the MLTCP_SO_* socket options (mltcp_sockopt.c)
 *   mltcp_netlink_init()   the generic netlink family (mltcp_netlink.c)
 *
 * The parameters (mltcp_params.c) and the rest of the TCP-hook glue
 * (mltcp_core.c) need no init.  Each file uses only the files below it,
 * and none calls into this one:
 *
 *   this file
 *     -> the control plane: mltcp_sockopt.c, mltcp_netlink.c
 *       -> the TCP-hook glue: mltcp_core.c
 *         -> the registry and the parameters: mltcp_registry.c, mltcp_params.c
 */
#include <linux/build_bug.h>
#include <linux/module.h>

#include "mltcp.h"
#include "mltcp_ctl.h"
#include "uapi/linux/mltcp.h"

static int __init mltcp_init(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct mltcp_sock) != 56);
	BUILD_BUG_ON(sizeof(struct mltcp_sock) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(MLTCP_SLOPE_MAX > 0xffff || MLTCP_INTERCEPT_MAX > 0xffff);
	BUILD_BUG_ON(MLTCP_MIN_ITER_BYTES != MLTCP_BYTES_PER_ITER_MIN);
	BUILD_BUG_ON(MLTCP_MAX_ITER_BYTES != MLTCP_BYTES_PER_ITER_MAX);
	BUILD_BUG_ON(MLTCP_ALGO_SLOTS > BITS_PER_LONG);

	mltcp_tiebreak_key_init();
	err = mltcp_registry_init();
	if (err)
		return err;
	err = mltcp_sockopt_init();
	if (err)
		goto out_registry;
	err = mltcp_netlink_init();
	if (err)
		goto out_sockopt;
	return 0;

out_sockopt:
	mltcp_sockopt_exit();
out_registry:
	mltcp_registry_exit();
	return err;
}

static void __exit mltcp_exit(void)
{
	mltcp_netlink_exit();
	mltcp_sockopt_exit();
	mltcp_registry_exit();
}

module_init(mltcp_init);
module_exit(mltcp_exit);

MODULE_AUTHOR("MLTCP project");
MODULE_DESCRIPTION("MLTCP shared core: iteration tracking and F for MLTCP congestion controls");
MODULE_LICENSE("GPL");
MODULE_VERSION(MLTCP_VERSION);
