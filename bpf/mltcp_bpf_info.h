/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp_info's flags and phase for a socket of the BPF backend, computed in userspace
 * from the socket's struct mltcp_sock as the modules compute them in mltcp_get_state():
 * what libmltcp's mltcp_get_state() and mltcpctl's socket list report for BPF sockets.
 * Userspace only.
 */
#ifndef _MLTCP_BPF_INFO_H
#define _MLTCP_BPF_INFO_H

#include <stdint.h>

#include "linux/mltcp.h"
#include "mltcp_core.h"

/**
 * mltcp_bpf_info_flags() - MLTCP_INFO_F_* of a BPF socket's state
 * @ms: the socket's core state, as read from the backend's map or iterator
 * @mode: the global mode in use (MLTCP_MODE_*)
 * @overrun: the overrun bound in use, Q10 (already validated)
 * @bytes_done: bytes acked in the current iteration (mltcp_bytes_done())
 */
static inline uint32_t mltcp_bpf_info_flags(const struct mltcp_sock *ms, int mode,
					    uint32_t overrun, uint64_t bytes_done)
{
	uint32_t flags = (ms->flags & MLTCP_SF_SIZE_GIVEN ? MLTCP_INFO_F_SIZE_GIVEN : 0) |
			 (ms->flags & MLTCP_SF_MARKS_GIVEN ? MLTCP_INFO_F_BOUNDS_GIVEN : 0) |
			 (ms->flags & MLTCP_SF_TIEBREAK_GIVEN ? MLTCP_INFO_F_TIEBREAK_GIVEN : 0);

	if (mltcp_f_active(ms, mode) && mltcp_iter_overrun(ms, overrun, bytes_done))
		flags |= MLTCP_INFO_F_OVERRUN;
	if (!mltcp_iter_earned(ms))
		flags |= MLTCP_INFO_F_UNEARNED;
	return flags;
}

_Static_assert(MLTCP_ABI_PHASE_BASE == (int)MLTCP_PHASE_BASE &&
	       MLTCP_ABI_PHASE_UNEARNED == (int)MLTCP_PHASE_UNEARNED &&
	       MLTCP_ABI_PHASE_OVERRUN == (int)MLTCP_PHASE_OVERRUN &&
	       MLTCP_ABI_PHASE_RAMP == (int)MLTCP_PHASE_RAMP &&
	       MLTCP_ABI_PHASE_TOP == (int)MLTCP_PHASE_TOP &&
	       MLTCP_ABI_PHASE_YIELD == (int)MLTCP_PHASE_YIELD,
	       "enum mltcp_abi_phase is enum mltcp_phase");

/**
 * mltcp_bpf_info_phase() - enum mltcp_abi_phase of a BPF socket's state
 * @ms: the socket's core state, as for mltcp_bpf_info_flags()
 * @mode: the global mode in use (MLTCP_MODE_*)
 * @overrun: the overrun bound in use, Q10 (already validated)
 * @bytes_done: bytes acked in the current iteration (mltcp_bytes_done())
 */
static inline uint8_t mltcp_bpf_info_phase(const struct mltcp_sock *ms, int mode,
					   uint32_t overrun, uint64_t bytes_done)
{
	return (uint8_t)mltcp_phase(ms, mode, overrun, bytes_done);
}

#endif /* _MLTCP_BPF_INFO_H */
