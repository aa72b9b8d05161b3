// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the iteration learner (mltcp_on_tx_start(), mltcp_learn_gap()
 * in include/mltcp_core.h) with recorded send patterns of data-parallel
 * training: several bursts (gradient buckets) per iteration separated by
 * shorter gaps, jitter, a different first iteration, gradient accumulation.
 * Output is TAP with CMOCKA_MESSAGE_OUTPUT=TAP.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "mltcp_core.h"
#include "ddp_recorded.h"

#define KB	1000ULL
#define MB	(1000ULL * 1000ULL)
#define MS	1000U
/* 10 ms floor, srtt 1 ms */
#define THRESH	mltcp_idle_threshold_us(MLTCP_IDLE_MS_DEFAULT, 1000)
#define OVERRUN	MLTCP_OVERRUN_DEFAULT
#define MAXB	16

/*
 * One DDP job seen from one socket: each iteration sends @nb bursts of
 * @size[j] bytes; the gap before burst j > 0 is @inner[j] (backward time of
 * the layers in bucket j), the gap before burst 0 is @inter (optimizer step,
 * forward pass, backward up to the first bucket).  Gaps get +-@jitter_pct
 * uniform jitter.
 */
struct pattern {
	unsigned int nb;
	u64 size[MAXB];
	u32 inner[MAXB];
	u32 inter;
	unsigned int jitter_pct;
};

struct sim {
	struct mltcp_sock ms;
	u64 acked;
	u32 rng;
	unsigned int learned;	/* MLTCP_EV_LEARNED events */
	bool started;
};

static void sim_init(struct sim *s, u32 seed)
{
	memset(s, 0, sizeof(*s));
	mltcp_sock_init(&s->ms, 0, mltcp_tiebreak_from_word(seed));
	s->rng = seed | 1;
}

/* xorshift32: a value in [0, @n) */
static u32 draw(struct sim *s, u32 n)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 17;
	s->rng ^= s->rng << 5;
	return s->rng % n;
}

static u32 jitter(struct sim *s, u32 gap, unsigned int pct)
{
	int64_t r = (int64_t)draw(s, 2 * pct + 1) - (int64_t)pct;

	return (u32)((int64_t)gap * (100 + r) / 100);
}

/* A burst of @bytes after a gap of @gap_us (the first burst has no gap). */
static void burst(struct sim *s, u32 gap_us, u64 bytes)
{
	if (s->started &&
	    mltcp_on_tx_start(&s->ms, s->acked, 0, gap_us, THRESH, OVERRUN) == MLTCP_EV_LEARNED)
		s->learned++;
	s->started = true;
	s->acked += bytes;
}

static void run(struct sim *s, const struct pattern *p, unsigned int iters)
{
	for (unsigned int i = 0; i < iters; i++)
		for (unsigned int j = 0; j < p->nb; j++)
			burst(s, jitter(s, j ? p->inner[j] : p->inter, p->jitter_pct),
			      p->size[j]);
}

/* The training loop's next iteration starts: its first bucket's gap. */
static void finish(struct sim *s, const struct pattern *p)
{
	burst(s, p->inter, 0);
}

static u64 iter_bytes(const struct pattern *p)
{
	u64 t = 0;

	for (unsigned int j = 0; j < p->nb; j++)
		t += p->size[j];
	return t;
}

/*
 * @nb buckets of unequal sizes (last layers small, first layers large, as
 * a CNN's), backward time spread over them: inner gaps 40..110 ms, the
 * iteration gap (forward + optimizer + first bucket's backward) 400 ms.
 */
static struct pattern ddp(unsigned int nb, unsigned int jitter_pct)
{
	struct pattern p = { .nb = nb, .inter = 400 * MS, .jitter_pct = jitter_pct };

	for (unsigned int j = 0; j < nb; j++) {
		p.size[j] = (300 + 150 * j) * KB;
		p.inner[j] = (40 + (j * 37) % 71) * MS;
	}
	return p;
}

static void assert_count(unsigned int got, unsigned int want, unsigned int slack)
{
	if (got + slack < want || got > want + slack)
		fail_msg("counted %u iterations, want %u +- %u", got, want, slack);
}

/* 1, 4 and 8 buckets: one iteration per cycle, the iteration's size. */
static void test_buckets(void **state)
{
	static const unsigned int nbs[] = { 1, 2, 4, 8, 12 };

	(void)state;
	for (unsigned int n = 0; n < sizeof(nbs) / sizeof(nbs[0]); n++) {
		struct pattern p = ddp(nbs[n], 0);
		struct sim s;

		sim_init(&s, 7 + n);
		run(&s, &p, 100);
		finish(&s, &p);
		print_message("# %u buckets: %u iterations counted for 100\n", nbs[n], s.learned);
		/* the first iteration's inner gaps may count before the
		 * first iteration gap is seen: at most nb extra */
		assert_count(s.learned, 100, nbs[n]);
		assert_true(s.ms.iters == s.learned);
		assert_true(s.ms.bytes_per_iter == iter_bytes(&p));
		assert_true(mltcp_last_iter_bytes(&s.ms) == iter_bytes(&p));
		assert_int_equal(s.ms.bursts >> 4, nbs[n]);
	}
}

/* +-25% jitter on every gap: still one iteration per cycle. */
static void test_jitter(void **state)
{
	(void)state;
	for (unsigned int nb = 1; nb <= 8; nb++) {
		struct pattern p = ddp(nb, 25);
		struct sim s;

		sim_init(&s, 100 + nb);
		run(&s, &p, 200);
		finish(&s, &p);
		assert_count(s.learned, 200, nb);
		assert_true(s.ms.bytes_per_iter == iter_bytes(&p));
	}
}

/* The old behaviour, one burst per iteration: every idle gap ends one,
 * even when the gaps vary by +-25% from one iteration to the next. */
static void test_one_burst_per_iter(void **state)
{
	struct pattern p = { .nb = 1, .size = { 5 * MB }, .inter = 300 * MS,
			     .jitter_pct = 25 };
	struct sim s;

	(void)state;
	sim_init(&s, 3);
	run(&s, &p, 500);
	finish(&s, &p);
	assert_int_equal(s.learned, 500);
	assert_true(s.ms.bytes_per_iter == 5 * MB);
}

/*
 * A different first iteration: DDP broadcasts the model from rank 0 at
 * construction (one big burst), the first iteration is 3x slower (lazy
 * initialisation) and its buckets come in the default order; then the
 * steady pattern.
 */
static void test_first_iteration_differs(void **state)
{
	struct pattern p = ddp(4, 10);
	struct sim s;

	(void)state;
	sim_init(&s, 11);
	burst(&s, 0, iter_bytes(&p));		/* broadcast */
	for (unsigned int j = 0; j < p.nb; j++)	/* slow first iteration */
		burst(&s, 3 * (j ? p.inner[p.nb - 1 - j] : p.inter), p.size[p.nb - 1 - j]);
	run(&s, &p, 60);
	finish(&s, &p);
	/* broadcast + 61 iterations; the slow one may cost a few */
	assert_count(s.learned, 62, 3);
	assert_true(s.ms.bytes_per_iter == iter_bytes(&p));

	/* a first gap three times too long, one burst per iteration:
	 * the reference comes down within a few iterations */
	{
		struct pattern q = { .nb = 1, .size = { 2 * MB }, .inter = 200 * MS };

		sim_init(&s, 12);
		burst(&s, 0, 2 * MB);
		burst(&s, 600 * MS, 2 * MB);
		run(&s, &q, 40);
		finish(&s, &q);
		/* up to 5 iterations merged while it comes down */
		assert_count(s.learned, 42, 5);
		assert_true(s.ms.bytes_per_iter == 2 * MB);
	}
}

/*
 * Gradient accumulation: DDP under no_sync() communicates only on every
 * @acc-th iteration; the network sees one iteration per optimizer step,
 * with an iteration gap @acc times as long.  Also a run whose accumulation
 * changes from 1 to 4 midway.
 */
static void test_accumulation(void **state)
{
	(void)state;
	for (unsigned int acc = 2; acc <= 8; acc *= 2) {
		struct pattern p = ddp(4, 15);
		struct sim s;

		p.inter = p.inter + (acc - 1) * 500 * MS;
		sim_init(&s, 20 + acc);
		run(&s, &p, 50);
		finish(&s, &p);
		assert_count(s.learned, 50, 3);
		assert_true(s.ms.bytes_per_iter == iter_bytes(&p));
	}
	{
		struct pattern p = ddp(4, 15), q;
		struct sim s;

		q = p;
		q.inter = p.inter + 3 * 500 * MS;
		sim_init(&s, 30);
		run(&s, &p, 40);
		run(&s, &q, 40);
		run(&s, &p, 40);
		finish(&s, &p);
		assert_count(s.learned, 120, 4);
		assert_true(s.ms.bytes_per_iter == iter_bytes(&p));
	}
}

/* Small sends (< MLTCP_MIN_ITER_BYTES) between gaps are not bursts. */
static void test_heartbeats(void **state)
{
	struct pattern p = ddp(4, 10);
	struct sim s;

	(void)state;
	sim_init(&s, 40);
	for (unsigned int i = 0; i < 50; i++) {
		run(&s, &p, 1);
		burst(&s, 90 * MS, 100);	/* a 100-byte heartbeat */
	}
	finish(&s, &p);
	assert_count(s.learned, 50, 2);
	assert_true(s.ms.bytes_per_iter == iter_bytes(&p) + 100);
}

/* Given marks still win: idle gaps never end an iteration after a mark;
 * a given size stays while the learner counts the iterations. */
static void test_given_paths(void **state)
{
	struct pattern p = ddp(4, 10);
	struct sim s;

	(void)state;
	sim_init(&s, 50);
	mltcp_iter_begin(&s.ms, 0, 0, 0);
	run(&s, &p, 20);
	finish(&s, &p);
	assert_int_equal(s.learned, 0);
	assert_int_equal(s.ms.iters, 0);

	sim_init(&s, 51);
	mltcp_set_size(&s.ms, 7 * MB);
	run(&s, &p, 30);
	finish(&s, &p);
	assert_count(s.learned, 30, 3);
	assert_true(s.ms.bytes_per_iter == 7 * MB);
	/* dropping the hint gives the learned size, the whole iteration */
	mltcp_set_size(&s.ms, 0);
	assert_true(s.ms.bytes_per_iter == iter_bytes(&p));
}

/* The gap scale: monotonic, 8 steps per octave, never 0. */
static void test_gap_q8(void **state)
{
	(void)state;
	assert_int_equal(mltcp_gap_log8(0), 1);
	assert_int_equal(mltcp_gap_log8(1), 1);
	assert_int_equal(mltcp_gap_log8(1024), 80);
	assert_int_equal(mltcp_gap_log8(2048), 88);
	assert_int_equal(mltcp_gap_log8(1536), 84);
	assert_int_equal(mltcp_gap_log8(UINT32_MAX), 255);
	for (u32 g = 1; g < 5000000; g += g / 7 + 1)
		assert_true(mltcp_gap_log8(g) <= mltcp_gap_log8(g + g / 7 + 1));
	/* the size of struct mltcp_sock did not grow */
	assert_int_equal(sizeof(struct mltcp_sock), 56);
}

/*
 * Where the learner must count buckets, documented: inner gaps as long as
 * the iteration gap (no forward time, equal layers) carry no period in the
 * gaps; every burst is an iteration, as before.
 */
static void test_equal_gaps_limit(void **state)
{
	struct pattern p = ddp(4, 0);
	struct sim s;

	(void)state;
	for (unsigned int j = 0; j < p.nb; j++)
		p.inner[j] = p.inter;
	sim_init(&s, 60);
	run(&s, &p, 10);
	finish(&s, &p);
	assert_int_equal(s.learned, 40);
}

/*
 * Where the learner must merge iterations, documented: a job that sends to
 * several peers at once (a parameter-server worker, the guest's over-commit
 * cell's job of four connections) ends its phase when the last connection
 * is done, so each connection's gap is the compute plus the wait for the
 * slowest of the others.  Spread over up to 2/3 of the compute, that wait
 * costs nothing.  When a sibling's retransmission timeout adds 200-300 ms
 * to one gap in ten, the reference follows that gap up at once, the usual
 * gaps then fall below 0.59 of it and iterations merge until the overdue
 * rule brings it down: one socket cannot tell this from a job whose
 * bucket gaps are half its iteration gap.  Marks count every iteration.
 */
static void test_sibling_delays_limit(void **state)
{
	struct sim s, marked;

	(void)state;
	sim_init(&s, 90);
	for (unsigned int i = 0; i < 1000; i++)
		burst(&s, (150 + draw(&s, 101)) * MS, 256 * KB);
	burst(&s, 150 * MS, 0);		/* the next iteration ends the last */
	assert_int_equal(s.learned, 1000);

	sim_init(&s, 91);
	sim_init(&marked, 91);
	for (unsigned int i = 0; i < 1000; i++) {
		u32 gap = (150 + draw(&s, 101)) * MS;

		if (draw(&s, 10) == 0)
			gap += (200 + draw(&s, 101)) * MS;
		burst(&s, gap, 256 * KB);
		mltcp_iter_begin(&marked.ms, marked.acked, 0, 0);
		burst(&marked, gap, 256 * KB);
	}
	burst(&s, 150 * MS, 0);
	print_message("# one gap in ten 200-300 ms longer: %u of 1000 learned\n", s.learned);
	assert_true(s.learned < 900);
	/* marked: each mark but the first completes one, of its size */
	assert_int_equal(marked.ms.iters, 999);
	assert_true(mltcp_last_iter_bytes(&marked.ms) == 256 * KB);
}

/*
 * A checkpoint: one iteration gap ten times as long in the middle of the
 * run.  The reference jumps to it; the learner must come back within a few
 * iterations, whatever the number of buckets (1 to 15 bursts: the burst
 * counts saturate at 15), and then count every iteration again.
 */
static void test_long_gap_midway(void **state)
{
	bool ok = true;

	(void)state;
	for (unsigned int nb = 1; nb <= 15; nb++) {
		struct pattern p = ddp(nb, 10), q;
		unsigned int before, after;
		struct sim s;

		q = p;
		q.inter = 10 * p.inter;
		sim_init(&s, 80 + nb);
		run(&s, &p, 30);
		before = s.learned;
		run(&s, &q, 1);
		run(&s, &p, 30);
		after = s.learned;
		run(&s, &p, 30);
		finish(&s, &p);
		print_message("# %u buckets: %u of 31 after the long gap, then %u of 31\n",
			      nb, after - before, s.learned - after);
		/* at most 8 merged while the reference comes down */
		if (after - before + 8 < 31 || after - before > 31 ||
		    s.learned - after != 31 || s.ms.bytes_per_iter != iter_bytes(&p))
			ok = false;
	}
	assert_true(ok);
}

/*
 * The recorded patterns (ddp_recorded.h): the training loop ran 20
 * iterations; the last one's end has no gap after it (at most one short),
 * and rank 0 may count DDP's model broadcast as one more (its size is the
 * iteration's).  The learned size is the iteration's, not a bucket's.
 */
struct recorded {
	const char *name;
	const struct rec_gap *gaps;
	unsigned int n;
	u64 grad;
};

#define REC(a, g) { #a, a, sizeof(a) / sizeof(a[0]), g }

/* Replays @r; returns the iterations counted, *@whole those of about @grad. */
static unsigned int replay(struct sim *s, const struct recorded *r, unsigned int *whole)
{
	sim_init(s, 70);
	*whole = 0;
	for (unsigned int i = 0; i < r->n; i++) {
		u64 last;

		s->acked += r->gaps[i].bytes;
		if (mltcp_on_tx_start(&s->ms, s->acked, 0, r->gaps[i].gap_ms * MS,
				      THRESH, OVERRUN) != MLTCP_EV_LEARNED)
			continue;
		s->learned++;
		last = mltcp_last_iter_bytes(&s->ms);
		if (last >= r->grad && last <= r->grad + r->grad / 20)
			(*whole)++;
	}
	return s->learned;
}

static void test_recorded(void **state)
{
	static const struct recorded recs[] = {
		REC(rec_b1_r0, 1071144), REC(rec_b1_r1, 1071144),
		REC(rec_b4_r0, 4223016), REC(rec_b4_r1, 4223016),
		REC(rec_b8_r0, 8425512), REC(rec_b8_r1, 8425512),
		REC(rec2_b1_r0, 1071144), REC(rec2_b1_r1, 1071144),
		REC(rec2_b4_r0, 4223016), REC(rec2_b4_r1, 4223016),
		REC(rec2_b8_r0, 8425512), REC(rec2_b8_r1, 8425512),
	};
	bool ok = true;

	(void)state;
	for (unsigned int i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		struct sim s;
		unsigned int whole, got = replay(&s, &recs[i], &whole);
		u64 bpi = s.ms.bytes_per_iter;

		print_message("# %s: %u counted for 20 (%u whole), %llu bytes per iteration\n",
			      recs[i].name, got, whole, (unsigned long long)bpi);
		/* within 5% (+-1), and at most one iteration split in two */
		if (got < 19 || got > 21 || whole + 2 < got)
			ok = false;
		if (bpi < recs[i].grad || bpi > recs[i].grad + recs[i].grad / 20)
			ok = false;
	}
	assert_true(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gap_q8),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_jitter),
		cmocka_unit_test(test_one_burst_per_iter),
		cmocka_unit_test(test_first_iteration_differs),
		cmocka_unit_test(test_accumulation),
		cmocka_unit_test(test_heartbeats),
		cmocka_unit_test(test_given_paths),
		cmocka_unit_test(test_equal_gaps_limit),
		cmocka_unit_test(test_long_gap_midway),
		cmocka_unit_test(test_sibling_delays_limit),
		cmocka_unit_test(test_recorded),
	};

	return cmocka_run_group_tests_name("mltcp_learner", tests, NULL, NULL);
}
