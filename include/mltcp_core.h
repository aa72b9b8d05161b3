/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: the per-socket state machine shared by the kernel modules,
 * the BPF backend, the simulator and the tests.
 *
 * A training job alternates compute and communication; an iteration is one
 * of each.  MLTCP scales its base algorithm's additive increase by F, and
 * divides its multiplicative decrease by F, where F grows with how far the
 * socket is through its iteration's bytes.  Of two jobs whose communication
 * overlaps, the one further ahead finishes first, and their iterations drift
 * apart until they take turns.  Each iteration's communication restarts
 * from the initial window and yields while another job's queue is there,
 * so jobs that take turns stay apart.  In Q10 fixed point (1024 == 1.0):
 *
 *   bytes_ratio = min(1, bytes acked this iteration / bytes per iteration)
 *   head start  = tiebreak * stagger        (tiebreak in [0, 1], per socket)
 *   F           = slope * min(1, bytes_ratio + head start) + intercept
 *   credit      = acked segments * F        (fed to the base algorithm's AI)
 *   cwnd after a decrease = cwnd - (cwnd - reduced) / F
 *
 * The head start breaks the tie between identical jobs started together,
 * whose equal F would otherwise keep them in lockstep.  Iteration sizes and
 * boundaries are learned from idle gaps or given by the application.  A
 * socket's phase (BASE, UNEARNED, YIELD, RAMP, TOP, OVERRUN) is drawn and
 * defined in mltcp_phase.h; F differs from 1 only in RAMP and TOP, for at
 * most overrun times a size the socket has shown, after an idle gap.
 *
 * The parts, included in this order:
 *
 *   mltcp_types.h     platform, limits, struct mltcp_sock and its flags
 *   mltcp_params.h    global parameters: packing, validation, text form
 *   mltcp_f.h         F, the credit and the decrease; where F applies
 *   mltcp_learner.h   iteration sizes and boundaries, learned or given
 *   mltcp_tiebreak.h  a connection's tie-break and its initial state
 *   mltcp_restart.h   the window restart, the yield and its backoff
 *   mltcp_phase.h     the phase: diagram, enum, transitions
 *   mltcp_hooks.h     one entry per TCP hook; the glue only reads the
 *                     socket, calls it and applies what it returns
 *
 * Plain C that never touches a socket: it compiles in the kernel, in BPF
 * (mltcp_bpf_compat.h), in userspace and as C++17 (so no compound literals
 * or designated initializers).  Byte counters are u64 and compared modulo
 * 2^64.  docs/DESIGN.md gives the reasons and the evidence.
 */
#ifndef _MLTCP_CORE_H
#define _MLTCP_CORE_H

#include "mltcp_types.h"
#include "mltcp_params.h"
#include "mltcp_f.h"
#include "mltcp_learner.h"
#include "mltcp_tiebreak.h"
#include "mltcp_restart.h"
#include "mltcp_phase.h"
#include "mltcp_hooks.h"

#endif /* _MLTCP_CORE_H */
