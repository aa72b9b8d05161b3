// SPDX-License-Identifier: GPL-2.0
/*
 * mltcp-state-test: drives iterations on a loopback connection with
 * libmltcp and checks the state read back (TAP).
 *
 *	mltcp-state-test [-a ALGO] [-b BYTES] [-i ITERATIONS] [-4|-6]
 *
 * Per iteration: mltcp_iteration_begin(), a pause longer than the idle
 * threshold (the compute phase), then BYTES in 8 chunks, each acked before
 * the state is read.  Checks: F is 1 from the mark until the first send
 * after the pause (MLTCP_INFO_F_UNEARNED), bytes_this_iter counts exactly
 * the acked bytes of the iteration, bytes_ratio rises from 0 to 1 in steps
 * of 1/8 and stays at 1 past the end, F is 1 through the first iteration
 * (the declared size is not yet shown), then F = slope * ratio + intercept
 * with the module's current parameters until the iteration carried 5/4 of its
 * size, 1 past that (MLTCP_INFO_F_OVERRUN), the iteration counter advances
 * once per begin call, and the hint flags; at the end, size 0 drops the
 * hints and the size learned from the given boundaries takes over.  The
 * phase read back: base on a fresh connection, unearned right after a mark,
 * overrun past the bound (base throughout in mode off).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mltcp/libmltcp.h"
#include "common.h"

static struct params prm;

static uint32_t expect_f(uint32_t ratio)
{
	if (prm.mode == MLTCP_ABI_MODE_OFF)
		return MLTCP_ABI_Q10_ONE;
	return ((prm.slope * ratio) >> 10) + prm.intercept;
}

static int get(int fd, struct mltcp_info *st, const char *when)
{
	if (mltcp_get_info(fd, st, sizeof(*st)) == 0)
		return 0;
	tap_ok(false, "%s: mltcp_get_info: %s", when, errname(errno));
	return -1;
}

/* @phase in mode off, where F never applies, is base */
static unsigned int want_phase(unsigned int phase)
{
	return prm.mode == MLTCP_ABI_MODE_OFF ? MLTCP_ABI_PHASE_BASE : phase;
}

/*
 * The phase a mark leaves: unearned, unless the last iteration ended inside its
 * yield (every sample read as a queue, which a loaded host can make happen): a
 * mark does not end a yield, the next restart does (include/mltcp_phase.h).
 */
static unsigned int phase_after_mark(int fd)
{
	struct mltcp_info before;

	if (mltcp_get_info(fd, &before, sizeof(before)) == 0 &&
	    before.phase == MLTCP_ABI_PHASE_YIELD)
		return MLTCP_ABI_PHASE_YIELD;
	return want_phase(MLTCP_ABI_PHASE_UNEARNED);
}

static void run(int family, const char *algo, uint64_t bytes, int iters)
{
	const char *fam = family == AF_INET6 ? "IPv6" : "IPv4";
	uint64_t chunk = bytes / 8;
	struct mltcp_info st;
	unsigned int want_last;
	struct conn c;
	int k, j, rc;

	if (conn_open(&c, family, algo) < 0) {
		tap_ok(false, "%s: connection with %s: %s", fam, algo,
		       strerror(errno));
		return;
	}
	/* read first: the arguments below are evaluated in no particular order */
	memset(&st, 0, sizeof(st));
	rc = mltcp_get_info(c.cli, &st, sizeof(st));
	tap_ok(rc == 0 && !strcmp(st.algo, algo) &&
	       st.abi_version == MLTCP_ABI_VERSION && st.size == sizeof(st) &&
	       st.iterations == 0 && st.flags == 0 && st.cwnd > 0 &&
	       st.phase == MLTCP_ABI_PHASE_BASE,
	       "%s: fresh %s connection: abi %u size %u algo %s flags %u cwnd %u phase %u (want base)",
	       fam, algo, st.abi_version, st.size, st.algo, st.flags, st.cwnd, st.phase);
	/* the ABI 2 read of callers built before the phase: 72 bytes, no more */
	memset(&st, 0x5a, sizeof(st));
	rc = mltcp_get_state(c.cli, &st);
	tap_ok(rc == 0 && st.size == MLTCP_INFO_SIZE_V2 && st.phase == 0x5a,
	       "%s: mltcp_get_state() fills the ABI 2 size only: size %u", fam, st.size);
	errno = 0;
	tap_ok(mltcp_get_state(c.srv, &st) < 0 && errno == EOPNOTSUPP,
	       "%s: accepted socket on the default algorithm: EOPNOTSUPP (%s)",
	       fam, errname(errno));

	for (k = 0; k < iters; k++) {
		bool ok = true, mono = true;
		uint32_t last = 0;
		/* F's phase: unearned while the size is not shown, then the ramp
		 * (a yield, after the restart, ends on a sample without a queue)
		 */
		unsigned int want_phase_f = want_phase(k ? MLTCP_ABI_PHASE_RAMP :
						       MLTCP_ABI_PHASE_UNEARNED);
		unsigned int want_mark = phase_after_mark(c.cli);

		if (mltcp_iteration_begin(c.cli, k == 0 ? bytes : 0) < 0) {
			tap_ok(false, "%s: iteration_begin: %s", fam,
			       errname(errno));
			break;
		}
		if (get(c.cli, &st, "after begin"))
			break;
		tap_ok(st.iterations == (uint32_t)k && st.bytes_this_iter == 0 &&
		       st.bytes_ratio == 0 && st.f == MLTCP_ABI_Q10_ONE &&
		       st.bytes_per_iter == bytes &&
		       st.flags == (MLTCP_INFO_F_SIZE_GIVEN | MLTCP_INFO_F_BOUNDS_GIVEN |
				    MLTCP_INFO_F_UNEARNED) &&
		       st.phase == want_mark,
		       "%s: begin #%d: iterations %u (want %d), bytes %llu, ratio %u, F %u (want 1024 until a send after an idle gap), flags %u, phase %u (want %u)",
		       fam, k + 1, st.iterations, k,
		       (unsigned long long)st.bytes_this_iter, st.bytes_ratio,
		       st.f, st.flags, st.phase, want_mark);
		idle_pause();

		for (j = 1; j <= 8; j++) {
			uint32_t want = (uint32_t)(((uint64_t)j * chunk << 10) / bytes);
			/* the first iteration shows the size: F = 1 until it has */
			uint32_t want_f = k ? expect_f(want) : MLTCP_ABI_Q10_ONE;

			if (send_all(c.cli, chunk) < 0 || wait_acked(c.cli) < 0 ||
			    get(c.cli, &st, "in iteration")) {
				ok = false;
				break;
			}
			if (st.bytes_ratio < last)
				mono = false;
			last = st.bytes_ratio;
			if (st.bytes_this_iter != j * chunk ||
			    st.bytes_ratio != want || st.f != want_f ||
			    (st.phase != MLTCP_ABI_PHASE_YIELD && st.phase != want_phase_f)) {
				tap_diag("chunk %d: bytes %llu (want %llu) ratio %u (want %u) F %u (want %u) phase %u (want %u or yield)",
					 j, (unsigned long long)st.bytes_this_iter,
					 (unsigned long long)(j * chunk),
					 st.bytes_ratio, want, st.f, want_f, st.phase, want_phase_f);
				ok = false;
			}
		}
		tap_ok(ok && mono && last == MLTCP_ABI_Q10_ONE,
		       "%s: iteration %d: ratio rose monotonically 0 -> 1 in steps of 1/8, %s",
		       fam, k + 1, k ? "F followed slope/intercept" :
		       "F 1 (the size not yet shown by a completed iteration)");
	}

	/* past the end of the iteration the ratio stays clamped at 1 */
	if (send_all(c.cli, chunk) == 0 && wait_acked(c.cli) == 0 &&
	    !get(c.cli, &st, "past the end"))
		tap_ok(st.bytes_this_iter == bytes + chunk &&
		       st.bytes_ratio == MLTCP_ABI_Q10_ONE &&
		       st.f == expect_f(MLTCP_ABI_Q10_ONE),
		       "%s: past the end: bytes %llu, ratio clamped at %u, F %u",
		       fam, (unsigned long long)st.bytes_this_iter,
		       st.bytes_ratio, st.f);

	/* past 5/4 of the size F is 1 until the next iteration */
	if (send_all(c.cli, 2 * chunk) == 0 && wait_acked(c.cli) == 0 &&
	    !get(c.cli, &st, "past the bound"))
		tap_ok(st.bytes_this_iter == bytes + 3 * chunk && st.f == MLTCP_ABI_Q10_ONE &&
		       !!(st.flags & MLTCP_INFO_F_OVERRUN) == (prm.mode != MLTCP_ABI_MODE_OFF) &&
		       st.phase == want_phase(iters > 1 ? MLTCP_ABI_PHASE_OVERRUN :
					      MLTCP_ABI_PHASE_UNEARNED),
		       "%s: past 5/4 of the size: bytes %llu, F %u (want 1024), flags %u, phase %u",
		       fam, (unsigned long long)st.bytes_this_iter, st.f, st.flags, st.phase);

	/* one more begin completes the last iteration */
	want_last = phase_after_mark(c.cli);
	if (mltcp_iteration_begin(c.cli, 0) == 0 && !get(c.cli, &st, "final begin"))
		tap_ok(st.iterations == (uint32_t)iters && st.bytes_this_iter == 0 &&
		       st.phase == want_last,
		       "%s: begin #%d: iterations %u, phase %u (want %u)", fam, iters + 1,
		       st.iterations, st.phase, want_last);

	/*
	 * size 0: hints dropped; the size learned from given boundaries is
	 * used.  The last begin's mark still waits for its idle gap: dropping
	 * the hints does not earn it.
	 */
	if (mltcp_set_bytes_per_iter(c.cli, 0) == 0 && !get(c.cli, &st, "size 0"))
		tap_ok(st.flags == MLTCP_INFO_F_UNEARNED &&
		       (iters < 3 || st.bytes_per_iter == bytes),
		       "%s: bytes_per_iter 0 drops hints (flags %u), learned size %llu",
		       fam, st.flags, (unsigned long long)st.bytes_per_iter);

	/* a new size applies to the iteration in progress */
	if (mltcp_set_bytes_per_iter(c.cli, bytes * 2) == 0 &&
	    !get(c.cli, &st, "new size"))
		tap_ok(st.bytes_per_iter == bytes * 2 &&
		       st.flags == (MLTCP_INFO_F_SIZE_GIVEN | MLTCP_INFO_F_UNEARNED),
		       "%s: bytes_per_iter %llu given, flags %u", fam,
		       (unsigned long long)st.bytes_per_iter, st.flags);
	conn_close(&c);
}

int main(int argc, char **argv)
{
	const char *algo = "mltcp_reno";
	uint64_t bytes = 1 << 20;
	int iters = 4, opt, fam4 = 1, fam6 = 1;

	while ((opt = getopt(argc, argv, "a:b:i:46")) != -1) {
		switch (opt) {
		case 'a':
			algo = optarg;
			break;
		case 'b':
			bytes = strtoull(optarg, NULL, 0);
			break;
		case 'i':
			iters = atoi(optarg);
			break;
		case '4':
			fam6 = 0;
			break;
		case '6':
			fam4 = 0;
			break;
		default:
			fprintf(stderr, "usage: %s [-a ALGO] [-b BYTES] [-i ITERATIONS] [-4|-6]\n",
				argv[0]);
			return 2;
		}
	}
	if (bytes < MLTCP_BYTES_PER_ITER_MIN || bytes % 8 || iters < 1) {
		fprintf(stderr, "BYTES must be a multiple of 8, >= %llu; ITERATIONS >= 1\n",
			MLTCP_BYTES_PER_ITER_MIN);
		return 2;
	}
	if (read_params(&prm) < 0) {
		printf("1..0 # SKIP mltcp module parameters not readable\n");
		return 0;
	}
	tap_diag("slope %u intercept %u (Q10), mode %d, %llu bytes per iteration",
		 prm.slope, prm.intercept, prm.mode, (unsigned long long)bytes);
	if (fam4)
		run(AF_INET, algo, bytes, iters);
	if (fam6)
		run(AF_INET6, algo, bytes, iters);
	return tap_finish();
}
