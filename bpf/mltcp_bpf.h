/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MLTCP BPF backend: the maps shared by the BPF congestion controls
 * (bpf/mltcp.bpf.c) and userspace (mltcpctl bpf, libmltcp).  Included by
 * both; BPF gets the __u* types from vmlinux.h, userspace from
 * <linux/types.h>.
 *
 * Everything is pinned under MLTCP_BPF_PIN_DIR by `mltcpctl bpf load`:
 *
 *   params    ARRAY, 1 entry of struct mltcp_bpf_params: the global
 *             parameters (the module's /sys/module/mltcp/parameters).
 *             Userspace validates what it writes; the BPF side clamps
 *             whatever it reads (bpf/mltcp_bpf_params.h), so a hostile
 *             update cannot do harm.
 *   counters  ARRAY, one struct mltcp_bpf_counters per algorithm
 *             (enum mltcp_bpf_algo), updated atomically.  Host-wide:
 *             every network namespace's sockets, unlike the module's
 *             counters, which are kept per namespace.  Only root of the
 *             host reads them: the pins are 0600 in a 0700 directory (and
 *             a container does not normally see the host's bpffs).
 *   socks     SK_STORAGE of struct mltcp_bpf_sock: the MLTCP state of a
 *             socket (written by BPF; userspace reads it by socket fd for
 *             MLTCP_SO_INFO's equivalent).  Root can write it too, through
 *             the bpf system call: the hooks take any bytes there without
 *             harm to the kernel (selftests/bpf/test_07_bpf_hostile.sh).
 *   hints     SK_STORAGE of struct mltcp_bpf_hints: what the application
 *             asked for (written by userspace only, by socket fd; BPF
 *             applies a request when its generation number changes).
 *   mltcp_reno, mltcp_cubic, mltcp_dctcp   the struct_ops maps.
 */
#ifndef _MLTCP_BPF_H
#define _MLTCP_BPF_H

#define MLTCP_BPF_PIN_DIR	"/sys/fs/bpf/mltcp"

enum mltcp_bpf_algo {
	MLTCP_BPF_RENO = 0,
	MLTCP_BPF_CUBIC = 1,
	MLTCP_BPF_DCTCP = 2,
	MLTCP_BPF_NALGOS = 3,
};

/**
 * struct mltcp_bpf_params - global parameters (the "params" map)
 * @fparams: slope and intercept, Q10, packed (mltcp_params_pack())
 * @idle_ms: floor of the idle threshold, ms
 * @mode: enum mltcp_mode
 * @stagger: largest tie-break head start, Q10
 * @decrease: 1 when F also divides the multiplicative decrease
 * @hz: the kernel's HZ (jiffies per second), set by the loader
 * @overrun: bytes of an iteration F applies to, Q10 multiple of its size;
 *	0 = no bound (the module's mltcp.overrun)
 * @tiebreak_key_given: 1 when the loader got the tie-break key from an
 *	administrator (mltcpctl bpf load --tiebreak-key), 0 when it drew one;
 *	for mltcpctl show only, the hooks do not read it
 */
struct mltcp_bpf_params {
	__u32 fparams;
	__u32 idle_ms;
	__u32 mode;
	__u32 stagger;
	__u32 decrease;
	__u32 hz;
	__u32 overrun;
	__u32 tiebreak_key_given;
};

/*
 * Counters of one algorithm (the "counters" map).  @noecn_refused:
 * mltcp_dctcp only, connections without ECN whose switch to mltcp_reno the
 * kernel refused (bpf/mltcp_dctcp.bpf.h); a map of a backend loaded by an
 * older mltcpctl has no such member.
 */
struct mltcp_bpf_counters {
	__u64 sockets;
	__u64 sockets_total;
	__u64 iters_learned;
	__u64 iters_given;
	__u64 noecn_refused;
};

/* mltcp_bpf_sock.ms is a struct mltcp_sock (include/mltcp_core.h), 56 bytes */
#define MLTCP_BPF_SOCK_STATE_SIZE	56

/**
 * struct mltcp_bpf_sock - per-socket MLTCP state (the "socks" map)
 * @ms: struct mltcp_sock of include/mltcp_core.h, as raw bytes here so
 *	that userspace need not include the core header
 * @algo: enum mltcp_bpf_algo of the algorithm that initialised it
 * @size_gen: last mltcp_bpf_hints.size_gen applied
 * @mark_gen: last mltcp_bpf_hints.mark_gen applied
 * @tb_gen: last mltcp_bpf_hints.tb_gen applied
 * @f: F at the last ACK, Q10 (for reporting)
 */
struct mltcp_bpf_sock {
	__u64 ms[MLTCP_BPF_SOCK_STATE_SIZE / 8];
	__u32 algo;
	__u32 size_gen;
	__u32 mark_gen;
	__u32 tb_gen;
	__u32 f;
	__u32 pad;
};

/**
 * struct mltcp_bpf_hints - requests of the application (the "hints" map)
 * @size: bytes per iteration (MLTCP_SO_BYTES_PER_ITER); 0 drops all hints
 * @mark: bytes_acked + unacked bytes when the iteration was marked
 *	(MLTCP_SO_ITER_BEGIN): the new iteration starts there
 * @mark_bytes: size given with the mark, 0 = keep
 * @size_gen: bumped with each size request
 * @mark_gen: bumped with each mark
 * @tb_gen: bumped with each tie-break request
 * @tiebreak: Q10 tie-break (MLTCP_SO_TIEBREAK)
 *
 * A request is applied at the socket's next congestion-control event;
 * requests of one kind made before that coalesce (the last one wins, a
 * mark counts once).
 */
struct mltcp_bpf_hints {
	__u64 size;
	__u64 mark;
	__u64 mark_bytes;
	__u32 size_gen;
	__u32 mark_gen;
	__u32 tb_gen;
	__u32 tiebreak;
};

/**
 * struct mltcp_bpf_sock_rec - one MLTCP socket, as the "sockets" iterator
 *	(bpf/mltcp_iter.bpf.c, pinned as MLTCP_BPF_PIN_DIR/sockets) writes it
 * @saddr: local address, network order (4 bytes for AF_INET)
 * @daddr: remote address, network order
 * @family: AF_INET or AF_INET6
 * @sport: local port, host order
 * @dport: remote port, host order
 * @state: TCP state (TCP_ESTABLISHED, ...)
 * @pad: zero
 * @cwnd: congestion window, segments
 * @bytes_acked: the socket's bytes_acked
 * @algo: congestion control name
 * @st: the socket's entry of the "socks" map
 */
struct mltcp_bpf_sock_rec {
	__u8 saddr[16];
	__u8 daddr[16];
	__u16 family;
	__u16 sport;
	__u16 dport;
	__u8 state;
	__u8 pad;
	__u32 cwnd;
	__u64 bytes_acked;
	char algo[16];
	struct mltcp_bpf_sock st;
};

#endif /* _MLTCP_BPF_H */
