// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of what a socket can get from MLTCP whatever it sends or hints
 * (include/mltcp_core.h, "Policy"): the floor of an iteration, the overrun
 * bound, iterations earned by an idle gap, and yields whose backoff always
 * recovers.  Each test drives the core as the kernel glue does and fails if
 * its rule is removed.  Output is TAP with CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "mltcp_core.h"

#define ONE		MLTCP_Q10_ONE
#define TOP		(2 * ONE)	/* slope 1 + intercept 1 */
#define PARAMS		mltcp_params_pack(MLTCP_SLOPE_DEFAULT, MLTCP_INTERCEPT_DEFAULT)
#define BOUND		MLTCP_OVERRUN_DEFAULT
#define KB		1024ULL
#define MB		(1000ULL * 1000ULL)
#define GAP_IDLE	200000U		/* 200 ms: an idle gap, a compute phase */
#define THRESH		mltcp_idle_threshold_us(MLTCP_IDLE_MS_DEFAULT, 1000)
#define QUEUE_RTT	10000U		/* an RTT sample over a standing queue */
#define FREE_RTT	300U		/* one over an empty path */
#define MIN_RTT		100U

static struct mltcp_sock new_sock(void)
{
	struct mltcp_sock ms;

	memset(&ms, 0, sizeof(ms));
	mltcp_sock_init(&ms, 0, 0);
	return ms;
}

/* F with the default parameters, no stagger, under @overrun. */
static u32 f_at(const struct mltcp_sock *ms, u32 overrun, u64 acked)
{
	return mltcp_sock_f_q10(ms, MLTCP_MODE_LEARNED, PARAMS, 0, overrun, acked);
}

/*
 * A transmission @gap_us after the last, as mltcp_hook_tx_start() takes it
 * without a restart: where it begins an iteration's communication, the
 * iteration's clock and allowance start (at 0 ms); then the learner.
 */
static enum mltcp_event idle_tx(struct mltcp_sock *ms, u64 acked, u32 outstanding, u32 gap_us)
{
	if (mltcp_iter_starts(ms, outstanding, gap_us, THRESH))
		mltcp_iter_clock_start(ms, gap_us, 0);
	return mltcp_on_tx_start(ms, acked, outstanding, gap_us, THRESH, BOUND);
}

/* Declared sizes below the floor are refused and change nothing. */
static void test_declared_size_floor(void **state)
{
	struct mltcp_sock ms = new_sock();

	(void)state;
	assert_int_equal(mltcp_set_size(&ms, 1), -EINVAL);
	assert_int_equal(mltcp_set_size(&ms, MLTCP_MIN_ITER_BYTES - 1), -EINVAL);
	assert_int_equal(mltcp_set_size(&ms, MLTCP_MAX_ITER_BYTES + 1), -EINVAL);
	assert_true(ms.bytes_per_iter == 0);
	assert_false(ms.flags & MLTCP_SF_SIZE_GIVEN);
	assert_int_equal(f_at(&ms, BOUND, 10 * MB), ONE);
	assert_int_equal(mltcp_set_size(&ms, MLTCP_MIN_ITER_BYTES), 0);
	assert_true(ms.bytes_per_iter == MLTCP_MIN_ITER_BYTES);
	/* a mark's size below the floor is ignored, the mark itself kept */
	ms = new_sock();
	mltcp_iter_begin(&ms, 0, 0, 1);
	assert_true(ms.bytes_per_iter == 0);
	assert_true(ms.flags & MLTCP_SF_MARKS_GIVEN);
}

/* Tiny iterations marked one after another teach a size F never uses. */
static void test_tiny_marked_iterations(void **state)
{
	struct mltcp_sock ms = new_sock();
	u64 acked = 0;
	int i;

	(void)state;
	for (i = 0; i < 5; i++) {
		mltcp_iter_begin(&ms, acked, 0, 0);
		idle_tx(&ms, acked, 0, GAP_IDLE);
		acked += 1000;
	}
	assert_true(ms.bytes_per_iter == 1000);
	assert_false(mltcp_f_active(&ms, MLTCP_MODE_LEARNED));
	assert_int_equal(f_at(&ms, BOUND, acked - 500), ONE);
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS, 0, GAP_IDLE, THRESH));
}

/* Past 5/4 of its size an iteration runs at F = 1 until the next boundary. */
static void test_overrun_declared(void **state)
{
	struct mltcp_sock ms = new_sock();
	u64 acked;

	(void)state;
	assert_int_equal(mltcp_set_size(&ms, MB), 0);
	/* the first iteration shows the size (F = 1 meanwhile) */
	assert_int_equal(f_at(&ms, BOUND, MB / 2), ONE);
	acked = MB;
	assert_int_equal(idle_tx(&ms, acked, 0, GAP_IDLE),
			 MLTCP_EV_LEARNED);
	assert_int_equal(f_at(&ms, BOUND, acked + MB / 2), ONE + ONE / 2);
	assert_int_equal(f_at(&ms, BOUND, acked + MB + MB / 4), TOP);
	assert_int_equal(f_at(&ms, BOUND, acked + MB + MB / 4 + 1), ONE);
	assert_int_equal(f_at(&ms, BOUND, acked + 100 * MB), ONE);
	/* the administrator's bound: twice the size, or none */
	assert_int_equal(f_at(&ms, 2 * ONE, acked + MB + MB / 2), TOP);
	assert_int_equal(f_at(&ms, 2 * ONE, acked + 2 * MB + 1), ONE);
	assert_int_equal(f_at(&ms, 0, acked + 100 * MB), TOP);
	/* the softened decrease goes with it: F = 1 cuts as the base does */
	assert_int_equal(mltcp_soften_cut(100, 50, f_at(&ms, BOUND, acked + 100 * MB)), 50);
	/* an idle gap that ends the iteration starts F's ramp again */
	acked += 3 * MB;
	assert_int_equal(idle_tx(&ms, acked, 0, GAP_IDLE),
			 MLTCP_EV_LEARNED);
	assert_int_equal(f_at(&ms, BOUND, acked + MB / 2), ONE + ONE / 2);
	/* the head start moves where F starts, not how long it lasts */
	ms.tiebreak = MLTCP_TIEBREAK_MAX;
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS, MLTCP_STAGGER_MAX,
					  BOUND, acked), TOP);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS, MLTCP_STAGGER_MAX,
					  BOUND, acked + 2 * MB), ONE);
}

/*
 * A learned sender that sends a few bursts separated by gaps, then streams:
 * it learns a size, and the stream past 5/4 of it runs as the base.
 */
static void test_overrun_learned_stream(void **state)
{
	struct mltcp_sock ms = new_sock();
	u64 acked = 0;
	int i;

	(void)state;
	for (i = 0; i < MLTCP_HIST_LEN; i++) {
		acked += 64 * KB;
		assert_int_equal(mltcp_on_tx_start(&ms, acked, 0, 50000, THRESH, BOUND),
				 MLTCP_EV_LEARNED);
	}
	assert_true(ms.bytes_per_iter == 64 * KB);
	assert_int_equal(f_at(&ms, BOUND, acked + 32 * KB), ONE + ONE / 2);
	/* the stream: no idle gap ever again */
	assert_int_equal(f_at(&ms, BOUND, acked + 80 * KB + 1), ONE);
	assert_int_equal(f_at(&ms, BOUND, acked + 1000 * MB), ONE);
	/* without the bound it would hold the top for the rest of its life */
	assert_int_equal(f_at(&ms, 0, acked + 1000 * MB), TOP);
}

/* A mark earns F only at its first transmission after an idle gap. */
static void test_marks_need_idle_gap(void **state)
{
	struct mltcp_sock ms = new_sock();
	u64 acked = 0;
	int i;

	(void)state;
	/* a stream marked every megabyte: never idle, never F */
	for (i = 0; i < 8; i++) {
		mltcp_iter_begin(&ms, acked, 0, MB);
		assert_int_equal(f_at(&ms, BOUND, acked + MB / 2), ONE);
		/* a transmission after a pause shorter than the threshold */
		idle_tx(&ms, acked, 0, 1000);
		assert_false(mltcp_iter_earned(&ms));
		acked += MB;
	}
	/* a real compute phase: the restart is due, and F applies from there */
	mltcp_iter_begin(&ms, acked, 0, 0);
	idle_tx(&ms, acked, 4096, GAP_IDLE);	/* data in flight */
	assert_false(mltcp_iter_earned(&ms));
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS, 0, GAP_IDLE, THRESH));
	idle_tx(&ms, acked, 0, GAP_IDLE);
	assert_true(mltcp_iter_earned(&ms));
	assert_int_equal(f_at(&ms, BOUND, acked + MB / 2), ONE + ONE / 2);
	/* dropping the hints goes back to learning; the mark still needs its gap */
	mltcp_iter_begin(&ms, acked, 0, 0);
	mltcp_set_size(&ms, 0);
	assert_false(ms.flags & MLTCP_SF_HINTED);
	assert_false(mltcp_iter_earned(&ms));
	idle_tx(&ms, acked, 0, GAP_IDLE);
	assert_true(mltcp_iter_earned(&ms));
}

/* Begins a marked iteration's yield: mark at @mark_ms, restart at @restart_ms. */
static void marked_restart(struct mltcp_sock *ms, u32 mark_ms, u32 restart_ms)
{
	mltcp_iter_begin(ms, 0, 0, 0);
	ms->start_ms = mark_ms;
	assert_true(mltcp_restart_due(ms, MLTCP_MODE_LEARNED, PARAMS, 0,
				      (restart_ms - mark_ms) * 1000U, THRESH));
	mltcp_enter_yield(ms, (restart_ms - mark_ms) * 1000U, restart_ms);
	mltcp_on_tx_start(ms, 0, 0, (restart_ms - mark_ms) * 1000U, THRESH, BOUND);
}

/*
 * A marked flow whose compute fills most of its gap meets a long queue,
 * then an idle link: its yields are bounded from the restart, so they hold
 * while the queue is there (the bound from the mark had run out before the
 * restart), and its backoff comes back to 0 once the link is free, a step
 * for every two yields.
 */
static void test_marked_backoff_recovers(void **state)
{
	struct mltcp_sock ms = new_sock();
	u32 t = 0, held;
	int i;

	(void)state;
	assert_int_equal(mltcp_set_size(&ms, 4 * MB), 0);
	ms.size_shown = 1;	/* as if an iteration had shown it: F is checked below */
	/* three iterations behind a queue that outlasts each bound: 1, 2, 3 */
	for (i = 1; i <= MLTCP_BACKOFF_MAX; i++) {
		/* 700 ms of compute, the restart's gap; bound 700 ms >> (i - 1) */
		marked_restart(&ms, t, t + 700);
		held = 700U >> (i - 1);
		assert_int_equal(mltcp_yield_step(&ms, QUEUE_RTT, MIN_RTT, t + 700 + held * 3 / 4),
				 MLTCP_YIELD_HOLDS);
		assert_int_equal(mltcp_yield_step(&ms, QUEUE_RTT, MIN_RTT, t + 700 + held + 10),
				 MLTCP_YIELD_EXPIRED);
		assert_int_equal(mltcp_yield_backoff(&ms), i);
		t += 2000;
	}
	assert_true(mltcp_backoff_at_top(&ms));
	/* the link is free: every second yield's first sample steps back, 3 -> 0 */
	for (i = 2 * MLTCP_BACKOFF_MAX - 1; i >= 0; i--) {
		marked_restart(&ms, t, t + 700);
		assert_int_equal(mltcp_yield_step(&ms, FREE_RTT, MIN_RTT, t + 702),
				 MLTCP_YIELD_DRAINED);
		assert_int_equal(mltcp_yield_backoff(&ms), (i + 1) / 2);
		t += 2000;
	}
	assert_false(mltcp_backoff_at_top(&ms));
	/* F ramps from the bottom again */
	assert_int_equal(f_at(&ms, BOUND, 0), ONE);
	assert_int_equal(f_at(&ms, BOUND, 2 * MB), ONE + ONE / 2);
}

/*
 * At the deepest backoff a short gap gives a bound shorter than an RTT: the
 * bound runs out before the first sample, which then judges the yield.
 */
static void test_deepest_bound_judged_by_queue(void **state)
{
	struct mltcp_sock ms = new_sock();

	(void)state;
	assert_int_equal(mltcp_set_size(&ms, 4 * MB), 0);
	mltcp_set_yield_backoff(&ms, MLTCP_BACKOFF_MAX);
	/* a 64 ms gap: the bound is 2 ms, the first sample comes at 5 ms: free */
	marked_restart(&ms, 1000, 1064);
	assert_int_equal(mltcp_yield_step(&ms, FREE_RTT, MIN_RTT, 1069), MLTCP_YIELD_DRAINED);
	assert_true(ms.free_yield);
	marked_restart(&ms, 1500, 1564);
	assert_int_equal(mltcp_yield_step(&ms, FREE_RTT, MIN_RTT, 1569), MLTCP_YIELD_DRAINED);
	assert_int_equal(mltcp_yield_backoff(&ms), MLTCP_BACKOFF_MAX - 1);
	/* the same with the queue still there keeps it deepest */
	mltcp_set_yield_backoff(&ms, MLTCP_BACKOFF_MAX);
	marked_restart(&ms, 2000, 2064);
	assert_int_equal(mltcp_yield_step(&ms, QUEUE_RTT, MIN_RTT, 2069), MLTCP_YIELD_EXPIRED);
	assert_int_equal(mltcp_yield_backoff(&ms), MLTCP_BACKOFF_MAX);
}

/* A marked yield's clock wraps after 65.5 s; its bound stays below that. */
static void test_marked_yield_clock(void **state)
{
	struct mltcp_sock ms = new_sock();
	u32 restart = 0xfffff000U;	/* the ms clock about to wrap */

	(void)state;
	assert_int_equal(mltcp_set_size(&ms, 4 * MB), 0);
	/* a 100 s compute: the reference is capped at 60 s */
	marked_restart(&ms, restart - 100000, restart);
	assert_int_equal(mltcp_iter_since_ms(&ms, restart + 5000), 5000);
	assert_int_equal(mltcp_yield_step(&ms, QUEUE_RTT, MIN_RTT, restart + 50000),
			 MLTCP_YIELD_HOLDS);
	assert_int_equal(mltcp_yield_step(&ms, QUEUE_RTT, MIN_RTT, restart + 62000),
			 MLTCP_YIELD_EXPIRED);
}

/*
 * A socket driven through the hook entries, as the kernel glue drives it:
 * compute phases (the transmission-start hook after an idle gap) and ACKs
 * of 64 KB in congestion avoidance.
 */
struct job {
	struct mltcp_sock ms;
	struct mltcp_globals g;
	u64 acked;
	u32 now_ms;
};

static void job_new(struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->g.fparams = PARAMS;
	j->g.idle_ms = MLTCP_IDLE_MS_DEFAULT;
	j->g.stagger = 0;
	j->g.overrun = BOUND;
	j->g.mode = MLTCP_MODE_LEARNED;
	j->g.decrease = true;
}

/* The connection starts; hints given before are kept. */
static void job_connect(struct job *j)
{
	mltcp_hook_init(&j->ms, j->acked, 0, j->now_ms);
}

/* A compute phase of @gap_ms, then the iteration's first transmission. */
static void job_idle(struct job *j, u32 gap_ms)
{
	struct mltcp_tx_in in;
	struct mltcp_tx_out out;

	memset(&in, 0, sizeof(in));
	j->now_ms += gap_ms;
	in.g = &j->g;
	in.bytes_acked = j->acked;
	in.gap_us = gap_ms * 1000U;
	in.srtt_us = 1000;
	in.now_ms = j->now_ms;
	in.cwnd = 100;
	in.ssthresh = 10;
	in.init_cwnd = 10;
	in.min_rtt_us = MIN_RTT;
	in.ca_open = true;
	mltcp_hook_tx_start(&j->ms, &in, &out);
}

/*
 * @bytes acked back to back in ACKs of 64 KB; *@fmax is the largest F the
 * ACK hook used, and each F is checked against F's ramp over @ramp_size
 * bytes from @ramp_from (0: F must be 1; ANY_F: not checked).
 */
#define ANY_F	(~0ULL)

static void job_send(struct job *j, u64 bytes, u64 ramp_from, u64 ramp_size, u32 *fmax)
{
	struct mltcp_ack_in in;
	struct mltcp_ack_out out;
	u64 sent = 0;

	*fmax = 0;
	while (sent < bytes) {
		u64 n = bytes - sent < 64 * KB ? bytes - sent : 64 * KB;

		sent += n;
		j->acked += n;
		memset(&in, 0, sizeof(in));
		in.g = &j->g;
		in.bytes_acked = j->acked;
		in.acked = (u32)((n + 1447) / 1448);
		in.cwnd = 100;
		in.ssthresh = 10;
		in.cwnd_clamp = 10000;
		in.cwnd_limited = true;
		in.rtt.rtt_us = FREE_RTT;
		in.rtt.min_rtt_us = MIN_RTT;
		in.rtt.now_ms = j->now_ms;
		mltcp_hook_ack(&j->ms, &in, &out);
		if (out.f > *fmax)
			*fmax = out.f;
		if (!ramp_size)
			assert_int_equal(out.f, ONE);
		else if (ramp_size != ANY_F)
			assert_int_equal(out.f, mltcp_f_q10(PARAMS,
							    mltcp_ratio_q10(j->acked - ramp_from,
									    ramp_size)));
	}
}

/*
 * A declared size, first variant: the largest size with tie-break 1.0,
 * then an endless stream.  Never shown, F = 1 on every ACK, before and
 * after a pause.
 */
static void test_declared_max_stream(void **state)
{
	struct job j;
	u32 fmax;

	(void)state;
	job_new(&j);
	j.g.stagger = MLTCP_STAGGER_DEFAULT;
	assert_int_equal(mltcp_set_tiebreak(&j.ms, MLTCP_TIEBREAK_MAX), 0);
	assert_int_equal(mltcp_set_size(&j.ms, MLTCP_MAX_ITER_BYTES), 0);
	job_connect(&j);
	job_send(&j, 100 * MB, 0, 0, &fmax);
	job_idle(&j, 200);
	job_send(&j, 100 * MB, 0, 0, &fmax);
	assert_false(mltcp_size_shown(&j.ms));
	/* the same on a live socket */
	assert_int_equal(mltcp_set_size(&j.ms, MLTCP_MAX_ITER_BYTES - 1), 0);
	job_send(&j, 10 * MB, 0, 0, &fmax);
}

/*
 * Second variant: a stream that re-declares its size as 1.5 times what it
 * sent so far.  Each new size is one no iteration showed: F = 1.
 */
static void test_redeclared_above_sent(void **state)
{
	struct job j;
	u32 fmax;
	int i;

	(void)state;
	job_new(&j);
	assert_int_equal(mltcp_set_size(&j.ms, MB), 0);
	job_connect(&j);
	job_send(&j, MB, 0, 0, &fmax);
	job_idle(&j, 200);		/* an honest first iteration shows 1 MB */
	assert_true(mltcp_size_shown(&j.ms));
	job_send(&j, MB, j.acked, MB, &fmax);
	assert_int_equal(fmax, TOP);
	for (i = 0; i < 26; i++) {
		assert_int_equal(mltcp_set_size(&j.ms, j.acked * 3 / 2), 0);
		job_send(&j, j.acked / 4, 0, 0, &fmax);
	}
}

/*
 * Third variant: ITER_BEGIN, size 0, a size, on a stream past its bound.
 * Neither call makes the mark earned nor the new size shown.
 */
static void test_begin_zero_size(void **state)
{
	struct mltcp_mark_out mark;
	struct job j;
	u32 fmax;

	(void)state;
	job_new(&j);
	assert_int_equal(mltcp_set_size(&j.ms, MB), 0);
	job_connect(&j);
	job_send(&j, MB, 0, 0, &fmax);
	job_idle(&j, 200);
	job_send(&j, 4 * MB, 0, ANY_F, &fmax);
	assert_int_equal(f_at(&j.ms, BOUND, j.acked), ONE);	/* past 5/4 MB */
	mltcp_hook_mark(&j.ms, j.acked, 0, 0, j.now_ms, &mark);
	assert_int_equal(mltcp_set_size(&j.ms, 0), 0);
	assert_int_equal(mltcp_set_size(&j.ms, MB), 0);
	assert_true(j.ms.flags & MLTCP_SF_MARK_PENDING);
	assert_false(mltcp_size_shown(&j.ms));
	job_send(&j, 10 * MB, 0, 0, &fmax);

	/* a learned size: size 0 goes back to it, the mark still needs its gap */
	job_new(&j);
	job_connect(&j);
	job_idle(&j, 200);
	for (int i = 0; i < MLTCP_HIST_LEN; i++) {
		job_send(&j, MB, 0, ANY_F, &fmax);
		job_idle(&j, 200);
	}
	assert_true(j.ms.bytes_per_iter == MB && mltcp_size_shown(&j.ms));
	job_send(&j, 2 * MB, 0, ANY_F, &fmax);
	mltcp_hook_mark(&j.ms, j.acked, 0, 0, j.now_ms, &mark);
	assert_int_equal(mltcp_set_size(&j.ms, 0), 0);
	assert_int_equal(mltcp_set_size(&j.ms, MB), 0);
	job_send(&j, 10 * MB, 0, 0, &fmax);
	/* an idle gap earns it: that is an iteration */
	job_idle(&j, 200);
	job_send(&j, MB, j.acked, MB, &fmax);
	assert_int_equal(fmax, TOP);
}

/*
 * An honest job, its size declared (MLTCP_SO_BYTES_PER_ITER) or given with
 * each mark (ITER_BEGIN, as mltcp.torch does): F = 1 in its first iteration
 * only, then F's ramp on every ACK, as before the rule.
 */
static void test_honest_first_iteration(void **state)
{
	const u64 size = 4 * MB;
	struct mltcp_mark_out mark;
	struct job j;
	u32 fmax;
	int i, marked;

	(void)state;
	for (marked = 0; marked < 2; marked++) {
		job_new(&j);
		if (!marked)
			assert_int_equal(mltcp_set_size(&j.ms, size), 0);
		job_connect(&j);
		for (i = 0; i < 6; i++) {
			if (marked)
				mltcp_hook_mark(&j.ms, j.acked, 0, size, j.now_ms, &mark);
			job_idle(&j, 200);
			job_send(&j, size, j.acked, i ? size : 0, &fmax);
			assert_int_equal(fmax, i ? TOP : ONE);
		}
	}
}

/*
 * A size changed on a live socket: F = 1 from the change until an iteration
 * of the new size has been shown; one of the old size does not show it.
 */
static void test_size_change_mid_run(void **state)
{
	const u64 size = 2 * MB;
	struct job j;
	u32 fmax;
	int i;

	(void)state;
	job_new(&j);
	assert_int_equal(mltcp_set_size(&j.ms, size), 0);
	job_connect(&j);
	for (i = 0; i < 3; i++) {
		job_idle(&j, 200);
		job_send(&j, size, j.acked, i ? size : 0, &fmax);
	}
	job_idle(&j, 200);
	job_send(&j, size / 2, j.acked, size, &fmax);
	assert_int_equal(mltcp_set_size(&j.ms, 4 * size), 0);
	job_send(&j, size / 2, 0, 0, &fmax);
	job_idle(&j, 200);		/* that iteration was the old size */
	assert_false(mltcp_size_shown(&j.ms));
	job_send(&j, 4 * size, 0, 0, &fmax);
	job_idle(&j, 200);		/* this one the new */
	assert_true(mltcp_size_shown(&j.ms));
	job_send(&j, 4 * size, j.acked, 4 * size, &fmax);
	assert_int_equal(fmax, TOP);
	/* setting the size it has changes nothing */
	assert_int_equal(mltcp_set_size(&j.ms, 4 * size), 0);
	assert_true(mltcp_size_shown(&j.ms));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_declared_size_floor),
		cmocka_unit_test(test_tiny_marked_iterations),
		cmocka_unit_test(test_overrun_declared),
		cmocka_unit_test(test_overrun_learned_stream),
		cmocka_unit_test(test_marks_need_idle_gap),
		cmocka_unit_test(test_marked_backoff_recovers),
		cmocka_unit_test(test_deepest_bound_judged_by_queue),
		cmocka_unit_test(test_marked_yield_clock),
		cmocka_unit_test(test_declared_max_stream),
		cmocka_unit_test(test_redeclared_above_sent),
		cmocka_unit_test(test_begin_zero_size),
		cmocka_unit_test(test_honest_first_iteration),
		cmocka_unit_test(test_size_change_mid_run),
	};

	return cmocka_run_group_tests_name("mltcp_policy", tests, NULL, NULL);
}
