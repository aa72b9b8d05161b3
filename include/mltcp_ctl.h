/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP control plane internals (mltcp_sockopt.c, mltcp_netlink.c); the
 * core calls mltcp_ctl_init()/mltcp_ctl_exit() declared in mltcp.h.
 */
#ifndef _MLTCP_CTL_H
#define _MLTCP_CTL_H

#include <linux/types.h>
#include <net/tcp_states.h>

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

#endif /* _MLTCP_CTL_H */
