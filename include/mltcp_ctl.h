/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP control plane internals (mltcp_sockopt.c, mltcp_netlink.c); their
 * init and exit are called by the module's init and exit (mltcp_main.c).
 */
#ifndef _MLTCP_CTL_H
#define _MLTCP_CTL_H

#include <linux/types.h>
#include <net/tcp_states.h>

#include "mltcp.h"
#include "uapi/linux/mltcp.h"

int mltcp_sockopt_init(void);
void mltcp_sockopt_exit(void);
int mltcp_netlink_init(void);
void mltcp_netlink_exit(void);

/*
 * The MLTCP socket options and the socket dump apply to connections only:
 * not to listening sockets and, unless @closed_ok, not to sockets in
 * TCP_CLOSE (before connect() or after the connection ended).
 */
static inline bool mltcp_ctl_state_ok(int state, bool closed_ok)
{
	if (state == TCP_LISTEN)
		return false;
	return state != TCP_CLOSE || closed_ok;
}

/* mltcp_info.flags and MLTCP_SOCK_A_FLAGS of a snapshot */
static inline u32 mltcp_ctl_info_flags(const struct mltcp_sock_state *st)
{
	return (st->size_given ? MLTCP_INFO_F_SIZE_GIVEN : 0) |
	       (st->bounds_given ? MLTCP_INFO_F_BOUNDS_GIVEN : 0) |
	       (st->tiebreak_given ? MLTCP_INFO_F_TIEBREAK_GIVEN : 0) |
	       (st->overrun ? MLTCP_INFO_F_OVERRUN : 0) |
	       (st->unearned ? MLTCP_INFO_F_UNEARNED : 0);
}

#endif /* _MLTCP_CTL_H */
