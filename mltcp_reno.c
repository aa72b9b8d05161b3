// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp_reno: TCP Reno (RFC 5681) whose congestion-avoidance increase is
 * scaled by MLTCP's F.  Slow start, the halving on loss and undo are the
 * kernel's own Reno helpers; the scaled increase is mltcp_reno_cong_avoid()
 * and the halving (softened by F if the core's ``decrease`` parameter is
 * set) mltcp_reno_ssthresh() in the core.  Per-socket state is only the MLTCP state.
 */
#include <linux/module.h>
#include <net/tcp.h>

#include "mltcp.h"

struct mltcp_reno {
	struct mltcp_sock ml;
};

static struct mltcp_algo mltcp_reno_algo = {
	.ops = {
		.init		= mltcp_ca_init,
		.release	= mltcp_ca_release,
		.ssthresh	= mltcp_reno_ssthresh,
		.cong_avoid	= mltcp_reno_cong_avoid,
		.undo_cwnd	= tcp_reno_undo_cwnd,
		.cwnd_event	= mltcp_ca_cwnd_event,
		.owner		= THIS_MODULE,
		.name		= "mltcp_reno",
	},
};

MLTCP_ALGO_COUNTERS(mltcp_reno_algo);

static int __init mltcp_reno_register(void)
{
	MLTCP_CHECK_PRIV(struct mltcp_reno, ml);
	return mltcp_register(&mltcp_reno_algo);
}

static void __exit mltcp_reno_unregister(void)
{
	mltcp_unregister(&mltcp_reno_algo);
}

module_init(mltcp_reno_register);
module_exit(mltcp_reno_unregister);

MODULE_AUTHOR("MLTCP project");
MODULE_DESCRIPTION("MLTCP Reno: Reno with additive increase scaled by F(bytes_ratio)");
MODULE_LICENSE("GPL");
MODULE_VERSION(MLTCP_VERSION);
