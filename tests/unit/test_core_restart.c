// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the restart and the yield in the MLTCP core (include/mltcp_core.h),
 * compiled in userspace: when the window restarts at an iteration's first
 * transmission and with which ssthresh, the path's BDP, what counts as a queue, how
 * long a restarted flow holds and how its bound backs off.
 * Output is TAP with CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include "test_core.h"

/* The window restarts at an iteration's first transmission only where F is in use. */
static void test_restart_due(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u32 thr = mltcp_idle_threshold_us(10, 0);	/* 10 ms */

	(void)state;
	/* size unknown (learned mode, first iterations): F = 1, no restart */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 50000, thr));
	shown_size(&ms, 4 * MB);
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 50000, thr));
	/* not after an idle gap: data in flight, or a gap below the threshold */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 1, 50000, thr));
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, thr, thr));
	/* slope 0 is exactly the base algorithm, whatever the intercept */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, mltcp_params_pack(0, ONE),
				       0, 50000, thr));
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, mltcp_params_pack(0, 2 * ONE),
				       0, 50000, thr));
	/* mode off; mode given for a socket without hints */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_OFF, PARAMS_DEFAULT, 0, 50000, thr));
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, 50000, thr));
	ms.flags &= (u8)~MLTCP_SF_HINTED;
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, 50000, thr));
	/* learned size (three iterations seen) */
	ms = new_sock(0);
	mltcp_record_iter(&ms, MB);
	mltcp_record_iter(&ms, MB);
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 50000, thr));
	mltcp_record_iter(&ms, MB);
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 50000, thr));
	/*
	 * Learning bucketed traffic: once a 200 ms gap ended an iteration,
	 * a 20 ms gap between buckets does not restart, a 150 ms one does.
	 */
	assert_true(mltcp_learn_gap(&ms, 200000, MB));
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 20000, thr));
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, 150000, thr));
}

/* With given marks the window restarts at the first transmission after a mark only. */
static void test_restart_given(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u32 thr = mltcp_idle_threshold_us(10, 0);
	int i;

	(void)state;
	mltcp_iter_begin(&ms, 0, 0, 4 * MB);
	for (i = 0; i < 3; i++) {
		/* the iteration's first transmission, even after a short gap */
		assert_true(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0,
					      20000, thr));
		assert_true(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0,
					      20000, thr));
		assert_int_equal(mltcp_on_tx_start(&ms, (u64)i * 4 * MB, 0, 20000, thr, OVERRUN),
				 MLTCP_EV_NONE);
		/* the next buckets of the same iteration, even after a long gap */
		assert_false(mltcp_restart_due(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0,
					       300000, thr));
		mltcp_on_tx_start(&ms, (u64)i * 4 * MB + MB, 0, 300000, thr, OVERRUN);
		assert_false(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0,
					       300000, thr));
		assert_int_equal(mltcp_iter_begin(&ms, (u64)(i + 1) * 4 * MB, 0, 0),
				 MLTCP_EV_GIVEN);
	}
	/* a mark while data is in flight: no restart (not idle), still pending */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 1, 20000, thr));
	/* slope 0 ignores the mark */
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, mltcp_params_pack(0, ONE), 0,
				       20000, thr));
	/* a connection (re)start forgets a pending mark */
	mltcp_sock_init(&ms, 0, 0);
	assert_false(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, 20000, thr));
}

/*
 * The restart keeps the window's memory in ssthresh: the threshold climbs to
 * the window the last phase ended with, never falls, and stays put during a
 * reduction.
 */
static void test_restart_ssthresh(void **state)
{
	u32 ssthresh = 57;
	int phase;

	(void)state;
	/* a threshold the first losses left below the window: raised to it */
	assert_int_equal(mltcp_restart_ssthresh(57, 72, 86, true), 72);
	/* a window below the threshold (a phase ended in slow start): unchanged */
	assert_int_equal(mltcp_restart_ssthresh(120, 72, 86, true), 120);
	assert_int_equal(mltcp_restart_ssthresh(72, 72, 86, true), 72);
	/* a window over a full buffer: the climb stops at the path's BDP */
	assert_int_equal(mltcp_restart_ssthresh(60, 170, 86, true), 86);
	/* no rate sample (BDP 0) or a threshold above the BDP: unchanged */
	assert_int_equal(mltcp_restart_ssthresh(57, 72, 0, true), 57);
	assert_int_equal(mltcp_restart_ssthresh(100, 170, 86, true), 100);
	/* the initial, infinite threshold stays infinite */
	assert_int_equal(mltcp_restart_ssthresh(0x7fffffffU, 500, 86, true), 0x7fffffffU);
	/* during CWR, Recovery or Loss: untouched */
	assert_int_equal(mltcp_restart_ssthresh(57, 72, 86, false), 57);
	/*
	 * Phase after phase without a loss, each phase growing the window by
	 * a few segments in congestion avoidance: the threshold follows the
	 * window up to the BDP instead of staying at 57.
	 */
	for (phase = 0; phase < 4; phase++)
		ssthresh = mltcp_restart_ssthresh(ssthresh, ssthresh + 15, 120, true);
	assert_int_equal(ssthresh, 57 + 4 * 15);
	ssthresh = mltcp_restart_ssthresh(ssthresh, ssthresh + 15, 120, true);
	assert_int_equal(ssthresh, 120);
}

/* The BDP from a delivery-rate sample: delivered * min_rtt / interval. */
static void test_path_bdp(void **state)
{
	(void)state;
	/* 86 segments over 10.5 ms at a 10.5 ms minimum RTT */
	assert_int_equal(mltcp_path_bdp(86, 10500, 10500), 86);
	/* half the rate: half the BDP */
	assert_int_equal(mltcp_path_bdp(43, 10500, 10500), 43);
	/* a sample over two RTTs */
	assert_int_equal(mltcp_path_bdp(172, 21000, 10500), 86);
	/* no sample, no minimum RTT */
	assert_int_equal(mltcp_path_bdp(86, 0, 10500), 0);
	assert_int_equal(mltcp_path_bdp(86, 10500, ~0U), 0);
}

/* What counts as another flow's queue: 1 ms or an eighth of the minimum RTT above it. */
static void test_queue_seen(void **state)
{
	(void)state;
	/* no sample yet, or no minimum yet */
	assert_false(mltcp_queue_seen(0, 100));
	assert_false(mltcp_queue_seen(5000, ~0U));
	/* a data-centre path (100 us): the 1 ms floor applies */
	assert_false(mltcp_queue_seen(100, 100));
	assert_false(mltcp_queue_seen(1100, 100));
	assert_true(mltcp_queue_seen(1101, 100));
	assert_true(mltcp_queue_seen(10100, 100));
	/* a 10 ms path: its 1.25 ms eighth is more than the floor */
	assert_false(mltcp_queue_seen(11250, 10000));
	assert_true(mltcp_queue_seen(11251, 10000));
	/* 3 ms of a small-queue backlog on a 10 ms path is a queue */
	assert_true(mltcp_queue_seen(13000, 10000));
	/* an 80 ms path: 10 ms */
	assert_false(mltcp_queue_seen(90000, 80000));
	assert_true(mltcp_queue_seen(90001, 80000));
	/* a sample below the recorded minimum (a new path) is no queue */
	assert_false(mltcp_queue_seen(50, 100));
}

/* Begins a yield after an 800 ms gap that drains at @now_ms; returns the backoff. */
static u8 yield_drains_at(struct mltcp_sock *ms, u32 now_ms)
{
	mltcp_enter_yield(ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(ms, 300, 100, now_ms), MLTCP_YIELD_DRAINED);
	return mltcp_yield_backoff(ms);
}

/*
 * The bound backs off: each yield that runs it out shortens the next ones'
 * (a half, a quarter, then a 32nd of the gap); yields that drain take a
 * step back for every two in a row (mltcp_backoff_step()).
 * A learned 800 ms gap, iterations starting at t = 0 ms.
 */
static void test_yield_backoff(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	int i;

	(void)state;
	shown_size(&ms, 4 * MB);
	assert_true(mltcp_learn_gap(&ms, 800000, MB));
	assert_int_equal(mltcp_yield_backoff(&ms), 0);
	/* a queue that outlasts the gap: ends on the bound, backoff 1 */
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 700), MLTCP_YIELD_HOLDS);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 850), MLTCP_YIELD_EXPIRED);
	assert_int_equal(mltcp_yield_backoff(&ms), 1);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 860), MLTCP_YIELD_NONE);
	/* the next yield lasts half the gap */
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 350), MLTCP_YIELD_HOLDS);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 450), MLTCP_YIELD_EXPIRED);
	assert_int_equal(mltcp_yield_backoff(&ms), 2);
	/* a quarter of the gap */
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 180), MLTCP_YIELD_HOLDS);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 220), MLTCP_YIELD_EXPIRED);
	assert_int_equal(mltcp_yield_backoff(&ms), MLTCP_BACKOFF_MAX);
	/* then a 32nd (25 ms), and no shorter however often it runs out */
	for (i = 0; i < 3; i++) {
		mltcp_enter_yield(&ms, 800000, 0);
		assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 20), MLTCP_YIELD_HOLDS);
		assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 30), MLTCP_YIELD_EXPIRED);
		assert_int_equal(mltcp_yield_backoff(&ms), MLTCP_BACKOFF_MAX);
	}
	/* the deepest yield still drains when it finds the link free */
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 5), MLTCP_YIELD_DRAINED);
	/* one free restart between another job's phases is not enough ... */
	assert_int_equal(mltcp_yield_backoff(&ms), MLTCP_BACKOFF_MAX);
	assert_true(ms.free_yield);
	/* ... and a bound that runs out on a queue after it starts the count again */
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 30), MLTCP_YIELD_EXPIRED);
	assert_false(ms.free_yield);
	assert_int_equal(yield_drains_at(&ms, 5), MLTCP_BACKOFF_MAX);
	/* two in a row take a step back */
	assert_int_equal(yield_drains_at(&ms, 5), MLTCP_BACKOFF_MAX - 1);
	assert_false(ms.free_yield);
	/* yields that drain bring the bound back, a step for every two */
	for (i = MLTCP_BACKOFF_MAX - 2; i >= 0; i--) {
		assert_int_equal(yield_drains_at(&ms, 20), i + 1);
		assert_int_equal(yield_drains_at(&ms, 20), i);
	}
	/* at 0 there is nothing to step back: no run is kept */
	assert_int_equal(yield_drains_at(&ms, 20), 0);
	assert_false(ms.free_yield);
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 700), MLTCP_YIELD_HOLDS);
	/* the backoff lives in the flags' top bits and leaves the phase alone */
	assert_true(mltcp_in_yield(&ms));
	mltcp_set_yield_backoff(&ms, 3);
	assert_true(mltcp_in_yield(&ms));
	assert_int_equal(mltcp_yield_backoff(&ms), 3);
	/* out of bound on a free link is no evidence: it counts as free */
	mltcp_set_yield_backoff(&ms, 2);
	mltcp_enter_ramp(&ms);
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 250), MLTCP_YIELD_DRAINED);
	assert_int_equal(mltcp_yield_backoff(&ms), 2);
	assert_int_equal(yield_drains_at(&ms, 20), 1);
	/* a drain is free however late while no sending time is known */
	assert_int_equal(yield_drains_at(&ms, 150), 1);
	assert_int_equal(yield_drains_at(&ms, 150), 0);
	/* no gap reference: the yield ends at once and the backoff stays */
	ms = new_sock(0);
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 0), MLTCP_YIELD_DRAINED);
	assert_int_equal(mltcp_yield_backoff(&ms), 0);
}

/* The defaults, mode learned, the decrease not softened. */
static void default_globals(struct mltcp_globals *g)
{
	memset(g, 0, sizeof(*g));
	g->fparams = PARAMS_DEFAULT;
	g->idle_ms = MLTCP_IDLE_MS_DEFAULT;
	g->overrun = OVERRUN;
	g->mode = MLTCP_MODE_LEARNED;
}

/* One TX start with nothing in flight after @gap_us, at @now_ms; what it did in @out. */
static void tx_start_out(struct mltcp_sock *ms, const struct mltcp_globals *g, u64 acked,
			 u32 gap_us, u32 now_ms, struct mltcp_tx_out *out)
{
	struct mltcp_tx_in in;

	memset(&in, 0, sizeof(in));
	in.g = g;
	in.bytes_acked = acked;
	in.gap_us = gap_us;
	in.srtt_us = 1000;
	in.now_ms = now_ms;
	in.cwnd = 40;
	in.ssthresh = 100;
	in.init_cwnd = 10;
	in.min_rtt_us = 100;
	in.ca_open = true;
	mltcp_hook_tx_start(ms, &in, out);
}

/* As tx_start_out(); returns the phase after it. */
static enum mltcp_phase tx_start_at(struct mltcp_sock *ms, const struct mltcp_globals *g,
				    u64 acked, u32 gap_us, u32 now_ms)
{
	struct mltcp_tx_out out;

	tx_start_out(ms, g, acked, gap_us, now_ms, &out);
	return ms->phase;
}

/* One window-limited ACK with RTT sample @rtt_us; returns the phase after it. */
static enum mltcp_phase ack_at(struct mltcp_sock *ms, const struct mltcp_globals *g,
			       u64 acked, u32 rtt_us, u32 now_ms)
{
	struct mltcp_ack_out out;
	struct mltcp_ack_in in;

	memset(&in, 0, sizeof(in));
	in.g = g;
	in.bytes_acked = acked;
	in.acked = 1;
	in.cwnd = 200;
	in.ssthresh = 100;
	in.cwnd_clamp = 10000;
	in.cwnd_limited = true;
	in.rtt.rtt_us = rtt_us;
	in.rtt.min_rtt_us = 100;
	in.rtt.now_ms = now_ms;
	mltcp_hook_ack(ms, &in, &out);
	return ms->phase;
}

/* mltcp_hook_decrease() with the default globals: the base algorithm cut the window */
static void cut_window(struct mltcp_sock *ms)
{
	struct mltcp_globals g;

	default_globals(&g);
	mltcp_hook_decrease(ms, &g, 0, 100, 50);
	mltcp_check_phase(ms, MLTCP_MODE_LEARNED, NO_BOUND, 0, 0);
}

/*
 * mltcp_ms_log4(): four steps an octave, monotonic, 0 only for 0; the
 * shortest duration of a step maps back to it and lies within a fifth of
 * every duration of the step.
 */
static void test_ms_log4(void **state)
{
	u32 ms, prev = 0;

	(void)state;
	assert_int_equal(mltcp_ms_log4(0), 0);
	assert_int_equal(mltcp_log4_ms(0), 0);
	assert_int_equal(mltcp_ms_log4(1), 1);
	assert_int_equal(mltcp_ms_log4(2), 5);
	assert_int_equal(mltcp_ms_log4(100) + 4, mltcp_ms_log4(200));
	for (ms = 1; ms < 70000; ms += 1 + ms / 64) {
		u32 code = mltcp_ms_log4(ms);

		assert_true(code >= prev && code >= 1 && code <= MLTCP_MS_LOG4_MAX);
		prev = code;
		if (code == MLTCP_MS_LOG4_MAX)
			continue;
		assert_int_equal(mltcp_ms_log4(mltcp_log4_ms(code)), code);
		assert_true(mltcp_log4_ms(code) <= ms);
		assert_true(ms - mltcp_log4_ms(code) <= ms / 5);
	}
	/* 49 s and longer share the top step */
	assert_int_equal(mltcp_log4_ms(MLTCP_MS_LOG4_MAX), 49152);
	assert_int_equal(mltcp_ms_log4(60000), MLTCP_MS_LOG4_MAX);
	assert_int_equal(mltcp_ms_log4(~0U), MLTCP_MS_LOG4_MAX);
}

/*
 * A drained yield is long when it held longer than the flow sent in its
 * last iteration after its own yield (mltcp_yield_was_long()), marked or
 * learned: it met a phase that does not end before its own would have.
 * Iterations of a 800 ms gap; the clock in ms.
 */
/* A yield that holds on a queue at @hold_ms and drains at @drain_ms; the backoff after. */
static u8 holds_then_drains(struct mltcp_sock *ms, u32 hold_ms, u32 drain_ms)
{
	assert_int_equal(mltcp_yield_step(ms, 10000, 100, hold_ms), MLTCP_YIELD_HOLDS);
	assert_int_equal(mltcp_yield_step(ms, 300, 100, drain_ms), MLTCP_YIELD_DRAINED);
	return mltcp_yield_backoff(ms);
}

static void test_yield_long_against_sent(void **state)
{
	struct mltcp_sock ms = new_sock(0);

	(void)state;
	shown_size(&ms, 4 * MB);
	assert_true(mltcp_learn_gap(&ms, 800000, MB));
	/* the clock started at 0: the first iteration sent 9.2 s */
	mltcp_enter_yield(&ms, 800000, 10000);
	assert_int_equal(mltcp_log4_ms(ms.sent_log4), 8192);
	assert_int_equal(holds_then_drains(&ms, 10300, 10300), 0);
	/* it held 300 ms, sent until 10400: 100 ms, within a fifth of the yield */
	mltcp_enter_yield(&ms, 800000, 11200);
	assert_false(ms.yield_held);
	assert_true(mltcp_log4_ms(ms.sent_log4) >= 100 && mltcp_log4_ms(ms.sent_log4) <= 160);
	/* a wait of 200 ms for a phase of ~100 ms is long: the backoff steps up */
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 11400), MLTCP_YIELD_DRAINED);
	assert_int_equal(mltcp_yield_backoff(&ms), 1);
	/* no yield this time: it sent 100 ms; a wait of 80 ms is no loss */
	ms.sent_log4 = 0;
	ms.yield_held = 0;
	mltcp_enter_ramp(&ms);
	mltcp_iter_clock_start(&ms, 800000, 12000);
	mltcp_enter_yield(&ms, 800000, 12900);
	assert_int_equal(mltcp_log4_ms(ms.sent_log4), 96);
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 12980), MLTCP_YIELD_DRAINED);
	assert_int_equal(mltcp_yield_backoff(&ms), 1);
	assert_true(ms.free_yield);
	/* marked flows alike: a wait of 1 s against 100 ms sent (the gap 1.3 s) */
	ms = new_sock(0);
	ms.flags |= MLTCP_SF_MARKS_GIVEN;
	mltcp_iter_clock_start(&ms, 1300000, 20000);
	mltcp_enter_yield(&ms, 1300000, 21400);
	assert_int_equal(mltcp_log4_ms(ms.sent_log4), 96);
	assert_int_equal(holds_then_drains(&ms, 22000, 22400), 1);
	/* ... and one that waited less than it sent is free */
	mltcp_enter_yield(&ms, 1300000, 23800);
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 23850), MLTCP_YIELD_DRAINED);
	assert_int_equal(mltcp_yield_backoff(&ms), 1);
	assert_true(ms.free_yield);
	/* two starts in one hook: the second notes nothing and keeps the first's */
	mltcp_enter_yield(&ms, 1300000, 25200);
	assert_int_equal(mltcp_log4_ms(ms.sent_log4), 48);
	mltcp_iter_clock_start(&ms, 1300000, 25200);
	assert_int_equal(mltcp_log4_ms(ms.sent_log4), 48);
}

/*
 * A flow at the deepest backoff takes no turns: once the window was cut in
 * the iteration, F is at its top through the rest of it; two yields in a
 * row that drain step it back to the ramp.
 */
static void test_no_turns_top_of_f(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u32 top = 2 * ONE;

	(void)state;
	shown_size(&ms, 4 * MB);
	assert_true(mltcp_learn_gap(&ms, 800000, MB));
	assert_false(mltcp_backoff_at_top(&ms));
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 0), ONE);
	/* three yields that run out their bound reach the deepest backoff */
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 850), MLTCP_YIELD_EXPIRED);
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 450), MLTCP_YIELD_EXPIRED);
	assert_false(mltcp_backoff_at_top(&ms));
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, MB),
			 ONE + ONE / 4);
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 10000, 100, 220), MLTCP_YIELD_EXPIRED);
	assert_true(mltcp_backoff_at_top(&ms));
	/* RTT samples alone do not earn the top: F ramps until the window is cut */
	assert_int_equal(ms.phase, MLTCP_PHASE_RAMP);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 0), ONE);
	cut_window(&ms);
	assert_int_equal(ms.phase, MLTCP_PHASE_TOP);
	/* then the top of F, whatever the bytes acked */
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 0), top);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, MB), top);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, mltcp_params_pack(ONE / 2, ONE),
					  0, NO_BOUND, 0), ONE + ONE / 2);
	/* a size given: mode given applies it too; off is exactly 1, slope 0 the intercept */
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, NO_BOUND, 0), top);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_OFF, PARAMS_DEFAULT, 0, NO_BOUND, 0), ONE);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, mltcp_params_pack(0, ONE), 0, NO_BOUND,
					  0), ONE);
	/* one yield that finds the link free keeps the deepest backoff; the cut is the next one's */
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 5), MLTCP_YIELD_DRAINED);
	assert_true(mltcp_backoff_at_top(&ms));
	assert_int_equal(ms.phase, MLTCP_PHASE_RAMP);
	cut_window(&ms);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 0), top);
	/* ... a second in a row: back to the ramp, cut or not */
	mltcp_enter_yield(&ms, 800000, 0);
	assert_int_equal(mltcp_yield_step(&ms, 300, 100, 5), MLTCP_YIELD_DRAINED);
	assert_false(mltcp_backoff_at_top(&ms));
	cut_window(&ms);
	assert_int_equal(ms.phase, MLTCP_PHASE_RAMP);
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 0), ONE);
	/* the size unknown: F = 1 at any backoff */
	ms = new_sock(0);
	mltcp_set_yield_backoff(&ms, MLTCP_BACKOFF_MAX);
	ms.cut = 1;
	assert_true(mltcp_backoff_at_top(&ms));
	assert_int_equal(mltcp_sock_f_q10(&ms, MLTCP_MODE_LEARNED, PARAMS_DEFAULT, 0, NO_BOUND, 0), ONE);
}

/*
 * A receiver that delays its ACKs at every restart makes every yield run
 * out its limit, and walks its sender to the deepest backoff; it never
 * moves F to the top unless it also forges a loss, which costs the window.
 */
static void test_delayed_acks_do_not_earn_top(void **state)
{
	struct mltcp_globals g;
	struct mltcp_sock ms = new_sock(0);
	u64 acked = 0;
	u32 t = 0, reduced;
	int i, k;

	(void)state;
	default_globals(&g);
	g.overrun = 0;
	shown_size(&ms, MB);
	assert_true(mltcp_learn_gap(&ms, 200000, MB));
	for (i = 0; i < 12; i++) {
		mltcp_enter_yield(&ms, 200000, t);
		/* every sample 20 ms over a 100 us path, to the end of the limit */
		for (k = 1; k <= 220; k += 20)
			mltcp_yield_step(&ms, 20100, 100, t + k);
		assert_false(mltcp_in_yield(&ms));
		for (k = 1; k <= 50; k++) {
			acked += MB / 50;
			ack_at(&ms, &g, acked, 20100, t + 220 + 2 * k);
			assert_int_not_equal(ms.phase, MLTCP_PHASE_TOP);
		}
		t += 520;
	}
	assert_true(mltcp_backoff_at_top(&ms));
	/* the one cut that does earn it halves the window, the base's cut */
	reduced = mltcp_hook_decrease(&ms, &g, acked, 100, 50);
	assert_int_equal(reduced, 50);
	ack_at(&ms, &g, acked + 1000, 20100, t);
	assert_int_equal(ms.phase, MLTCP_PHASE_TOP);
}

/* mltcp_yield_step() as a yes/no: true while the flow holds its window */
static bool mltcp_yield_holds(struct mltcp_sock *ms, u32 rtt_us, u32 min_rtt_us, u32 now_ms)
{
	return mltcp_yield_step(ms, rtt_us, min_rtt_us, now_ms) == MLTCP_YIELD_HOLDS;
}

/*
 * A restarted flow holds while samples show a queue, until the first sample
 * without one or until it has waited as long as the iteration gap; then it
 * stays released for the rest of the iteration.
 */
static void test_yield(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	u32 thr = mltcp_idle_threshold_us(10, 0);

	(void)state;
	/* never without a restart */
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 0));
	/* learned: the gap reference (200 ms) bounds the hold */
	shown_size(&ms, 4 * MB);
	assert_true(mltcp_learn_gap(&ms, 200000, MB));
	mltcp_enter_yield(&ms, 200000, 0);
	assert_true(mltcp_in_yield(&ms));
	assert_true(mltcp_yield_holds(&ms, 10000, 100, 0));
	assert_true(mltcp_yield_holds(&ms, 10000, 100, 40));
	/*
	 * the queue drains (no sending time is known yet, so the drain
	 * leaves the backoff at 0): released, and a new queue does not hold
	 * it again
	 */
	assert_false(mltcp_yield_holds(&ms, 300, 100, 45));
	assert_false(mltcp_in_yield(&ms));
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 170));
	/* a queue that never drains: released after about the iteration gap */
	mltcp_enter_yield(&ms, 200000, 0);
	assert_true(mltcp_yield_holds(&ms, 10000, 100, 190));
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 230));
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 1));
	/* no gap reference (no learned iteration gap yet): no hold */
	ms = new_sock(0);
	mltcp_enter_yield(&ms, 200000, 0);
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 0));
	/* given marks: the restart's own gap is the reference */
	ms = new_sock(0);
	mltcp_iter_begin(&ms, 0, 0, 4 * MB);
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, 100000, thr));
	mltcp_enter_yield(&ms, 100000, 0);
	assert_true(mltcp_yield_holds(&ms, 10000, 100, 90));
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 120));
	/*
	 * given marks, the restart 500 ms after the mark (the job's compute):
	 * the bound still runs for the gap from the restart, not from the mark
	 */
	ms = new_sock(0);
	mltcp_iter_begin(&ms, 0, 0, 4 * MB);
	ms.start_ms = 1000;
	assert_true(mltcp_restart_due(&ms, MLTCP_MODE_GIVEN, PARAMS_DEFAULT, 0, 100000, thr));
	mltcp_enter_yield(&ms, 100000, 1500);
	assert_true(mltcp_yield_holds(&ms, 10000, 100, 1540));
	assert_false(mltcp_yield_holds(&ms, 10000, 100, 1680));
}

/*
 * The stored phase follows the diagram in mltcp_phase.h through the hook
 * entries: a mark, its restart and yield, a shown size, the overrun, the
 * administrator's mode.
 */
static void test_phase_stored(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	struct mltcp_globals g;
	struct mltcp_mark_out mo;

	(void)state;
	default_globals(&g);
	assert_int_equal(ms.phase, MLTCP_PHASE_BASE);
	/* a declared size and a mark: the idle gap restarts the window */
	mltcp_hook_mark(&ms, 0, 0, 4 * MB, 0, &mo);
	assert_int_equal(tx_start_at(&ms, &g, 0, GAP_IDLE, 200), MLTCP_PHASE_YIELD);
	assert_int_equal(ack_at(&ms, &g, MB, 10000, 210), MLTCP_PHASE_YIELD);
	/* the queue gone: the size is not shown yet */
	assert_int_equal(ack_at(&ms, &g, MB, 300, 220), MLTCP_PHASE_UNEARNED);
	/* the next mark's iteration carried the size; its idle gap shows it */
	mltcp_hook_mark(&ms, 4 * MB, 0, 0, 400, &mo);
	assert_int_equal(tx_start_at(&ms, &g, 4 * MB, GAP_IDLE, 600), MLTCP_PHASE_YIELD);
	assert_int_equal(ack_at(&ms, &g, 5 * MB, 300, 610), MLTCP_PHASE_RAMP);
	/* past 5/4 of the size, then the administrator's mode off and back */
	assert_int_equal(ack_at(&ms, &g, 10 * MB, 0, 620), MLTCP_PHASE_OVERRUN);
	g.mode = MLTCP_MODE_OFF;
	assert_int_equal(ack_at(&ms, &g, 10 * MB, 0, 630), MLTCP_PHASE_BASE);
	g.mode = MLTCP_MODE_LEARNED;
	g.overrun = 0;
	assert_int_equal(ack_at(&ms, &g, 10 * MB, 0, 640), MLTCP_PHASE_RAMP);
	/* a mark while F ramps: UNEARNED at once */
	mltcp_hook_mark(&ms, 10 * MB, 0, 0, 650, &mo);
	assert_int_equal(ms.phase, MLTCP_PHASE_UNEARNED);
	/* what readers see is the phase the next hook stores */
	assert_int_equal(mltcp_phase(&ms, g.mode, g.overrun, 0), MLTCP_PHASE_UNEARNED);
}

/*
 * A yield that still holds when the next iteration restarts never ended: its
 * whole phase went out at the initial window behind a queue.  It deepens the
 * backoff as a yield that ran out its limit does, or a job whose compute is
 * longer than its phase would yield every phase in full and never learn.
 */
static void test_held_yield_deepens(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	struct mltcp_globals g;
	struct mltcp_mark_out mo;

	(void)state;
	default_globals(&g);
	mltcp_hook_mark(&ms, 0, 0, 4 * MB, 0, &mo);
	assert_int_equal(tx_start_at(&ms, &g, 0, 700000, 700), MLTCP_PHASE_YIELD);
	/* every sample shows a queue, and the phase ends within the yield's limit */
	assert_int_equal(ack_at(&ms, &g, MB, 10000, 720), MLTCP_PHASE_YIELD);
	assert_int_equal(ack_at(&ms, &g, 4 * MB, 10000, 780), MLTCP_PHASE_YIELD);
	assert_int_equal(mltcp_yield_backoff(&ms), 0);
	mltcp_hook_mark(&ms, 4 * MB, 0, 0, 800, &mo);
	assert_int_equal(tx_start_at(&ms, &g, 4 * MB, 700000, 1500), MLTCP_PHASE_YIELD);
	assert_int_equal(mltcp_yield_backoff(&ms), 1);
	/* a yield that drained before the next restart leaves the backoff alone */
	assert_int_equal(ack_at(&ms, &g, 5 * MB, 300, 1510), MLTCP_PHASE_RAMP);
	mltcp_hook_mark(&ms, 8 * MB, 0, 0, 1600, &mo);
	tx_start_at(&ms, &g, 8 * MB, 700000, 2300);
	assert_int_equal(mltcp_yield_backoff(&ms), 1);
}

/*
 * The softened cut divides by F, which says how far through its iteration
 * a flow is; at the top of F it says nothing, and the cut is the base's.
 */
static void test_top_cuts_as_base(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	struct mltcp_globals g;

	(void)state;
	default_globals(&g);
	g.decrease = true;
	shown_size(&ms, 4 * MB);
	assert_true(mltcp_learn_gap(&ms, 800000, MB));
	mltcp_set_yield_backoff(&ms, MLTCP_BACKOFF_TOP - 1);
	/* in the ramp, past the head start: F > 1 softens the cut */
	assert_true(mltcp_hook_decrease(&ms, &g, 3 * MB, 100, 50) > 50);
	mltcp_set_yield_backoff(&ms, MLTCP_BACKOFF_TOP);
	assert_int_equal(mltcp_hook_decrease(&ms, &g, 3 * MB, 100, 50), 50);
	assert_int_equal(mltcp_hook_decrease(&ms, &g, 0, 100, 50), 50);
}

/*
 * The allowance: a marked iteration begun by a 25 ms idle gap has F > 1 for
 * sixteen times that (400 ms of its clock), then F = 1 (OVERRUN) until the
 * next iteration's communication, whatever the clock does meanwhile; a new
 * gap gives a new allowance.
 */
static void test_allowance_marked(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	struct mltcp_globals g;
	struct mltcp_mark_out mo;
	u64 acked = 0;
	u32 t = 1000;
	int i;

	(void)state;
	default_globals(&g);
	g.overrun = 0;	/* the time alone bounds F here */
	/* two honest iterations show the size */
	for (i = 0; i < 2; i++) {
		mltcp_hook_mark(&ms, acked, 0, 4 * MB, t, &mo);
		tx_start_at(&ms, &g, acked, 25000, t + 25);
		acked += 4 * MB;
		t += 1000;
	}
	mltcp_hook_mark(&ms, acked, 0, 0, t, &mo);
	assert_int_equal(ms.flags & MLTCP_SF_SPENT, MLTCP_SF_SPENT);	/* a mark spends it */
	assert_int_equal(tx_start_at(&ms, &g, acked, 25000, t + 25), MLTCP_PHASE_YIELD);
	assert_false(ms.flags & MLTCP_SF_SPENT);
	assert_int_equal(ack_at(&ms, &g, acked + MB, 300, t + 30), MLTCP_PHASE_RAMP);
	assert_int_equal(ack_at(&ms, &g, acked + 2 * MB, 300, t + 25 + 390), MLTCP_PHASE_RAMP);
	assert_int_equal(ack_at(&ms, &g, acked + 2 * MB, 300, t + 25 + 400), MLTCP_PHASE_OVERRUN);
	assert_int_equal(mltcp_sock_f_q10(&ms, g.mode, g.fparams, g.stagger, g.overrun,
					  acked + 2 * MB), ONE);
	/* spent until the next iteration, even a minute and more later */
	assert_int_equal(ack_at(&ms, &g, acked + 3 * MB, 300, t + 70000), MLTCP_PHASE_OVERRUN);
	/* the next mark and its 25 ms gap: a new allowance */
	mltcp_hook_mark(&ms, acked + 3 * MB, 0, 0, t + 70001, &mo);
	tx_start_at(&ms, &g, acked + 3 * MB, 25000, t + 70026);
	assert_int_equal(ack_at(&ms, &g, acked + 4 * MB, 300, t + 70030), MLTCP_PHASE_RAMP);
}

/*
 * A learned bulk sender pausing 25 ms every 800 ms: its pauses are its
 * iteration gaps, and each buys F > 1 for under 16 x 25 ms (the learned
 * allowance, 2^(26/8) of the reference), so F is 1 for most of its time.
 */
static void test_allowance_pausing_bulk(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	struct mltcp_globals g;
	u64 acked = 0;
	u32 t = 0, ms_f = 0, ms_all = 0;
	int i, k;

	(void)state;
	default_globals(&g);
	g.overrun = 0;
	for (i = 0; i < 20; i++) {
		tx_start_at(&ms, &g, acked, 25000, t);
		/* 800 ms of sending, an ACK every 5 ms carrying 50 kB */
		for (k = 1; k <= 160; k++) {
			acked += 50000;
			ack_at(&ms, &g, acked, 300, t + 5 * k);
			if (i >= 5) {
				ms_all += 5;
				if (ms.phase == MLTCP_PHASE_RAMP || ms.phase == MLTCP_PHASE_TOP)
					ms_f += 5;
			}
		}
		t += 800 + 25;
	}
	assert_true(ms.size_shown);
	assert_true(ms_f > 0);
	assert_true(ms_f <= 16 * 25 * 15);	/* at most 16 x the gap per iteration */
	assert_true(ms_f * 3 < ms_all);		/* F = 1 most of the time */
}

/*
 * The restart sets the initial window from either side: from above, so the
 * phase does not burst into another's queue; from below, where a loss late
 * in the last phase left it small.  A window already at the initial one is
 * left alone, threshold and all; the restart is reported and the yield
 * begins all the same.
 */
static void test_restart_window(void **state)
{
	static const u32 before[] = { 40, 1, 10 };
	struct mltcp_globals g;
	struct mltcp_tx_out out;
	struct mltcp_mark_out mo;
	struct mltcp_tx_in in;
	unsigned int i;

	(void)state;
	default_globals(&g);
	for (i = 0; i < sizeof(before) / sizeof(before[0]); i++) {
		struct mltcp_sock ms = new_sock(0);

		mltcp_hook_mark(&ms, 0, 0, 4 * MB, 0, &mo);
		memset(&in, 0, sizeof(in));
		in.g = &g;
		in.gap_us = GAP_IDLE;
		in.srtt_us = 1000;
		in.now_ms = 200;
		in.cwnd = before[i];
		in.ssthresh = 8;
		in.init_cwnd = 10;
		in.min_rtt_us = 100;
		in.ca_open = true;
		mltcp_hook_tx_start(&ms, &in, &out);
		assert_int_equal(ms.phase, MLTCP_PHASE_YIELD);
		assert_int_equal(out.cwnd, 10);
		/* every restart is reported, one with nothing to lower too */
		assert_true(out.restarted);
		assert_int_equal(out.cwnd_before, before[i]);
		/* the threshold climbs towards the last window only, never down */
		assert_int_equal(out.ssthresh, 8);
	}
}

/* A learned iteration reports its whole length, from start to start. */
static void test_learned_iter_ms(void **state)
{
	struct mltcp_sock ms = new_sock(0);
	struct mltcp_globals g;
	struct mltcp_tx_out out;
	u64 acked = 0;
	int i;

	(void)state;
	default_globals(&g);
	for (i = 0; i < 5; i++) {
		acked += 2 * MB;
		tx_start_out(&ms, &g, acked, GAP_IDLE, 1000 + 700 * i, &out);
		if (i >= 1) {
			assert_true(out.iter_done);
			assert_int_equal(out.iter_ms, 700);
		}
	}
	assert_true(out.restarted);	/* the size known: the restarts ran too */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restart_due),
		cmocka_unit_test(test_restart_given),
		cmocka_unit_test(test_restart_ssthresh),
		cmocka_unit_test(test_restart_window),
		cmocka_unit_test(test_path_bdp),
		cmocka_unit_test(test_queue_seen),
		cmocka_unit_test(test_yield_backoff),
		cmocka_unit_test(test_ms_log4),
		cmocka_unit_test(test_yield_long_against_sent),
		cmocka_unit_test(test_no_turns_top_of_f),
		cmocka_unit_test(test_delayed_acks_do_not_earn_top),
		cmocka_unit_test(test_yield),
		cmocka_unit_test(test_phase_stored),
		cmocka_unit_test(test_allowance_marked),
		cmocka_unit_test(test_allowance_pausing_bulk),
		cmocka_unit_test(test_learned_iter_ms),
		cmocka_unit_test(test_held_yield_deepens),
		cmocka_unit_test(test_top_cuts_as_base),
	};

	return cmocka_run_group_tests_name("mltcp_core_restart", tests, NULL, NULL);
}
