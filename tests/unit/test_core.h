/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the unit tests of the MLTCP core (test_core_*.c) share: the constants they
 * state F and the learner's inputs in, a fresh socket, one learned iteration.
 */
#ifndef MLTCP_TEST_CORE_H
#define MLTCP_TEST_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "mltcp_core.h"

#define ONE	MLTCP_Q10_ONE
#define PARAMS_DEFAULT	mltcp_params_pack(MLTCP_SLOPE_DEFAULT, MLTCP_INTERCEPT_DEFAULT)
#define MB	(1000ULL * 1000ULL)
/* idle gap well above / below the default threshold */
#define GAP_IDLE	200000U
#define THRESH		mltcp_idle_threshold_us(MLTCP_IDLE_MS_DEFAULT, 1000)
/* no overrun bound: the tests of F's ramp past an iteration's size */
#define NO_BOUND	0U
/* the bound an iteration's end checks a declared size against (mltcp_confirm_size()) */
#define OVERRUN		MLTCP_OVERRUN_DEFAULT

static inline struct mltcp_sock new_sock(u64 acked)
{
	struct mltcp_sock ms;

	memset(&ms, 0xa5, sizeof(ms));	/* init must not depend on garbage */
	ms.flags = 0;
	mltcp_sock_init(&ms, acked, 0);
	return ms;
}

/*
 * A declared size that F applies to at once, as if a completed iteration had
 * shown it (mltcp_confirm_size()) and an idle gap had begun the next one with
 * its allowance (mltcp_iter_clock_start()): for the tests of F itself.
 */
static inline void shown_size(struct mltcp_sock *ms, u64 bytes)
{
	assert_int_equal(mltcp_set_size(ms, bytes), 0);
	ms->size_shown = 1;
	mltcp_iter_clock_start(ms, GAP_IDLE, 0);
}

/* An idle gap begins an iteration's communication (mltcp_hook_tx_start()'s clock). */
static inline void idle_begins(struct mltcp_sock *ms)
{
	assert_true(mltcp_iter_starts(ms, 0, GAP_IDLE, THRESH));
	mltcp_iter_clock_start(ms, GAP_IDLE, 0);
}

/* One learned iteration of @size bytes: send it, go idle, restart. */
static inline enum mltcp_event learned_iter(struct mltcp_sock *ms, u64 *acked, u64 size)
{
	*acked += size;
	return mltcp_on_tx_start(ms, *acked, 0, GAP_IDLE, THRESH, OVERRUN);
}

#endif
