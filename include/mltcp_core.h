/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core math and per-socket state machine.
 *
 * The model.  A training job alternates compute and communication; an
 * iteration is one of each.  MLTCP scales its base algorithm's increase
 * (and divides its decrease) by F, which grows with how far the socket is
 * through its iteration's bytes, so that of two jobs whose phases overlap
 * the one further ahead finishes first; the next iterations' phases drift
 * apart until they take turns.  Each iteration's communication starts from
 * the initial window (the restart) and holds it while another job's queue
 * is there (the yield), so that jobs taking turns stay apart.
 *
 * A socket's phase within its iterations (enum mltcp_phase, mltcp_phase.h:
 * derived from struct mltcp_sock by mltcp_phase(); one comment per state
 * there, and one per transition), with the hook entry (mltcp_hooks.h) that
 * takes each transition:
 *
 *   BASE (F = 1): size unknown or below 16 KiB, or mode off
 *     |  a size is given, or the learner has recorded three iterations;
 *     |  a given size is UNEARNED until an iteration that ends at an idle
 *     |  gap has shown it (mltcp_size_shown())
 *     v
 *   ITERATION BOUNDARY: a mark (given, mltcp_hook_mark()), or an idle gap
 *     |   the learner takes for an iteration gap (learned, TX start)
 *     v
 *   UNEARNED (F = 1) - - - - - - - - - - - - - - -+  marked iterations only:
 *     |  first transmission after an idle gap      : the compute phase earns F
 *     v  (mltcp_hook_tx_start())                   :
 *   RESTART (a step of mltcp_hook_tx_start(), not a phase): cwnd = initial
 *     |   window, ssthresh climbs towards min(last cwnd, BDP)
 *     v
 *   YIELD: hold the window while RTT samples show another flow's queue
 *     |   (mltcp_hook_rtt_sample(), on each ACK: mltcp_hook_ack())
 *     |   ends at a sample without one, or at the bound, the gap / 2^n from
 *     |   the restart; backoff + 1 if the queue is still there at the bound
 *     |   (or a learned drain took a quarter of the gap), - 1 for the second
 *     |   yield in a row that ended without one
 *     v
 *   RAMP: F = slope * min(1, ratio + tiebreak * stagger) + intercept
 *     or TOP: F = slope + intercept, at the deepest backoff,
 *     |   MLTCP_BACKOFF_NO_TURNS (takes no turns)
 *     |  the iteration carried more than overrun * size (on an ACK)
 *     v
 *   OVERRUN (F = 1) until the next ITERATION BOUNDARY
 *
 * The backoff (enum mltcp_backoff, 0 to 3: the yield's bound is the gap, a
 * half, a quarter, a 32nd of it) is kept across iterations; F's policy,
 * the phases but YIELD, is enum mltcp_f_state (mltcp_f_state()).
 *
 * This header is plain C: it compiles in the kernel (used by mltcp_core.c),
 * in BPF (bpf/, through include/mltcp_bpf_compat.h), in userspace (unit
 * tests, tools) and as C++17 in the ns-3 simulator (lab/sim), so it uses
 * neither compound literals nor designated initializers.  It never touches
 * a socket; the glue reads the tcp_sock counters and passes them in.  It
 * is the one header to include; its parts, each included in the order
 * below, are:
 *
 *   mltcp_types.h     the platform, limits, struct mltcp_sock and its flags
 *   mltcp_params.h    the global parameters: packing, validation, text form
 *   mltcp_f.h         F, its policy (enum mltcp_f_state), credit and decrease
 *   mltcp_phase.h     the phase (enum mltcp_phase): the diagram's states
 *   mltcp_learner.h   iteration boundaries and sizes, learned or given
 *   mltcp_tiebreak.h  a connection's tie-break and its initial state
 *   mltcp_restart.h   the window restart and the yield that follows it
 *   mltcp_hooks.h     one entry per TCP hook, the steps in their order: the
 *                     kernel and BPF glue only read the socket, call it and
 *                     apply what it returns
 *
 * Fixed point: every fractional quantity is Q10, i.e. 1024 == 1.0.
 *
 *   bytes_ratio = bytes acked in this iteration / bytes per iteration,
 *                 clamped to [0, 1]
 *   F           = slope * bytes_ratio + intercept
 *   credit      = acked * F, the ACK credit fed to the base algorithm's
 *                 additive increase (so AI is scaled by F)
 *
 * Per-socket state (struct mltcp_sock) lives at the start of each
 * algorithm's private area in icsk_ca_priv.  Byte counters are the
 * socket's u64 bytes_acked; all differences are taken modulo 2^64 and
 * interpreted as signed, so a wrap of the counter is harmless.
 *
 * Iteration boundaries and sizes come from two sources:
 *
 *  - learned: on the first transmission after the socket had nothing
 *    outstanding, a send gap longer than the idle threshold ends a burst;
 *    it ends the current iteration when it is about as long as the gap
 *    that ended the last one (mltcp_learn_gap(): a DDP iteration is
 *    several bursts, one per gradient bucket, separated by shorter gaps;
 *    with one burst per iteration every idle gap ends one), or when the
 *    iteration is overdue (mltcp_iter_overdue()).  Its size is recorded;
 *    once three iterations are recorded, bytes per iteration is the
 *    median of the last three, which ignores any single outlier.
 *    Iterations that moved fewer than MLTCP_MIN_ITER_BYTES are not
 *    recorded: their bytes roll over into the next iteration (a heartbeat
 *    in the compute phase must not split an iteration in two); before the
 *    first recorded iteration, the gaps between such small sends are the
 *    connection's setup and teach the learner nothing.
 *  - given: the control plane sets the size and/or marks iteration
 *    starts.  Once a socket got an iteration mark, idle gaps no longer
 *    move its boundaries; once it got a size, the learner no longer
 *    changes its size (but still records history).  Given iteration
 *    marks without a size let the learner learn the size from the
 *    given boundaries, which are exact.
 *
 * Until the size is known F is exactly 1, i.e. the base algorithm.
 *
 * Tie-break.  Identical jobs started at the same instant have the same
 * bytes_ratio, hence the same F, at every instant; fair sharing then keeps
 * them in lockstep for ever (the MLTCP shift is proportional to their
 * offset, zero at zero).  Each socket therefore carries a tie-break t in
 * [0, 1], drawn from its connection's endpoints (the same at both ends,
 * mltcp_flow_tiebreak()) unless the application gives one (one value for
 * all sockets of a job), and F is computed as if the socket were
 * t * stagger of an iteration further through it:
 *
 *   F = slope * min(1, bytes_ratio + t * stagger) + intercept
 *
 * F keeps its range [intercept, slope + intercept]; slope 0 is still the
 * base algorithm, and so is stagger 0 with the papers' F.
 *
 * Policy.  MLTCP is unfair on purpose, between training jobs; what a socket
 * can get from it is bounded whatever it sends and whatever hints it gives
 * (mltcp_f_state()):
 *
 *  - F differs from 1 only inside an iteration of known size, declared or
 *    learned, of at least MLTCP_MIN_ITER_BYTES: a flow with no iteration
 *    structure (one that never idles) runs as its base algorithm;
 *  - only for the bytes of that size: once the iteration has carried more
 *    than @overrun times its size (5/4 by default, mltcp_iter_overrun()),
 *    F is 1 again until the next iteration boundary;
 *  - only once the iteration's communication followed an idle gap (its
 *    compute phase): a marked iteration whose first transmission did not
 *    follow one runs as the base algorithm (mltcp_iter_earned());
 *  - only for a size the socket has shown: a declared size, or any change
 *    of the size, gives F = 1 until an iteration that ends at an idle gap
 *    carried between half of it and @overrun times it (mltcp_size_shown(),
 *    mltcp_confirm_size()); learned sizes are shown by construction;
 *  - the yields' backoff always recovers: a yield is bounded from its own
 *    restart and steps the backoff up only when its last RTT sample still
 *    showed a queue (mltcp_yield_step()); two yields in a row without one
 *    step it back (mltcp_backoff_step()).
 *
 * The tie-break an application may choose (up to 1) moves where F starts
 * in [intercept, slope + intercept], not its range, and only for the bytes
 * above: it buys a head start over other MLTCP jobs, never more than the
 * top of F against other traffic.  The administrator may lift the byte
 * bound (@overrun 0) on hosts whose applications are trusted.
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
