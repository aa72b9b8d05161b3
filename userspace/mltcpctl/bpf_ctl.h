/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcpctl: the BPF backend (bpf/): load, unload and status of the BPF
 * congestion controls, and the global parameters and counters in their
 * pinned maps (what the netlink family gives for the modules).
 */
#ifndef MLTCPCTL_BPF_CTL_H
#define MLTCPCTL_BPF_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"
#include "parse.h"

/*
 * Each returns 0 or 1 (failure, a one-line reason already printed on
 * stderr), like a command's exit status.
 */
/* @key: the tie-break key (MLTCP_TIEBREAK_KEY_LEN bytes), NULL: a random one */
int mltcpctl_bpf_load(const uint8_t *key);
int mltcpctl_bpf_unload(void);
int mltcpctl_bpf_status(const struct mltcpctl_out *o);

/* mltcpctl attach CGROUP ALGO / detach CGROUP / attach (bpf_attach.c) */
int mltcpctl_attach(const char *cgroup, const char *algo);
int mltcpctl_detach(const char *cgroup);
int mltcpctl_attach_list(const struct mltcpctl_out *o);

/* True when the BPF backend's maps are pinned (it is loaded). */
int mltcpctl_bpf_loaded(void);
/* Is @name in net.ipv4.tcp_available_congestion_control? */
bool mltcpctl_ca_available(const char *name);

/* 0 or -1 with errno; the BPF counterparts of mltcpctl_nl_*(). */
int mltcpctl_bpf_get_params(struct mltcpctl_params *p);
int mltcpctl_bpf_set_params(const struct mltcpctl_args *args);
int mltcpctl_bpf_get_counters(struct mltcpctl_algo **out, size_t *n);
/* the MLTCP sockets of this network namespace; *out is malloc()ed */
int mltcpctl_bpf_get_sockets(struct mltcpctl_sock **out, size_t *n);

#endif /* MLTCPCTL_BPF_CTL_H */
