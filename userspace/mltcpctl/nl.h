/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcpctl: talking to the "mltcp" generic netlink family with libmnl.
 */
#ifndef MLTCPCTL_NL_H
#define MLTCPCTL_NL_H

#include <stdbool.h>
#include <stddef.h>

#include "output.h"
#include "parse.h"

struct mltcpctl_nl;

/*
 * Every function returns 0 or -1 with errno set; a message from the
 * kernel (extended ACK) is then in mltcpctl_nl_errmsg(), else "".
 * mltcpctl_nl_open() fails with errno ENOENT when the family does not
 * exist, i.e. the MLTCP module is not loaded.
 */
struct mltcpctl_nl *mltcpctl_nl_open(void);
void mltcpctl_nl_close(struct mltcpctl_nl *nl);
const char *mltcpctl_nl_errmsg(const struct mltcpctl_nl *nl);

int mltcpctl_nl_get_params(struct mltcpctl_nl *nl, struct mltcpctl_params *p);
int mltcpctl_nl_set_params(struct mltcpctl_nl *nl,
			   const struct mltcpctl_args *args);
/*
 * The counters of the caller's network namespace, or host-wide with
 * @host (the module refuses that with EPERM unless the caller is in the
 * initial network namespace with CAP_NET_ADMIN).  *@scope: the scope the
 * module answered with (a module without scopes answers host-wide; no
 * algorithm loaded: the scope asked for).  *out is malloc()ed; free() it.
 */
int mltcpctl_nl_get_counters(struct mltcpctl_nl *nl, bool host,
			     struct mltcpctl_algo **out, size_t *n,
			     enum mltcpctl_scope *scope);
int mltcpctl_nl_get_sockets(struct mltcpctl_nl *nl,
			    struct mltcpctl_sock **out, size_t *n);

#endif /* MLTCPCTL_NL_H */
