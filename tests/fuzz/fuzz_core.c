// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the MLTCP core (include/mltcp_core.h): one socket
 * driven through the hook entries the kernel, BPF and simulator glue call
 * (mltcp_hooks.h) and the control plane's calls (mltcp_set_size(),
 * mltcp_hook_mark(), mltcp_set_tiebreak()), in the order and with the
 * values an input decodes to, over a small model of a TCP sender (bytes
 * written, sent and acked, a window, an RTT, a clock).
 *
 * A shadow model checks what docs/DESIGN.md, "What a socket can get",
 * promises whatever the socket does:
 *
 *  (a) the bytes acked with F > 1 between two idle gaps (and from the
 *      connection's start to the first) are at most the largest overrun in
 *      force meanwhile times the size in use when that stretch began; none
 *      while a declared size has not been shown, that is before an idle
 *      gap that came after the size was declared, with at least half of it
 *      written since the connection started; none after a mark before
 *      the next idle gap;
 *  (d) F > 1 only within sixteen times an idle gap's length after it ends
 *      (the allowance), to the core's millisecond clock;
 *  (e) F at its top (MLTCP_PHASE_TOP) only after a cut of the window
 *      (mltcp_hook_decrease()) since the connection or the algorithm began:
 *      RTT samples, which a receiver can delay, never reach it alone;
 *  (b) every F is exactly 1 (1024) or within [intercept, slope + intercept],
 *      and a softened decrease stays within [reduced, cwnd];
 *  (c) no undefined behaviour nor memory error (UBSan, ASan).
 *
 * The bytes of an ACK count with the F computed after it, as the hooks
 * compute it; of the one ACK that covers a mark only the bytes past the
 * mark count (F is per ACK; the ones before it are at most a window).
 *
 * The model is looser than the core on purpose (it does not know how the
 * core counts an iteration), so anything it reports is a hole.  A failed
 * check aborts with a message saying which.  To steer a run at one kind of
 * hole (tests/fuzz/README): FUZZ_CHECK=bound, =shown, =earned, =time or =top
 * keeps one of the three checks of (a), or (d), or (e), with (b) and (c); FUZZ_SIZES=max or =fixed
 * restricts declared sizes to 2^48 or to 1 MB; FUZZ_START=shown starts
 * after an honest first iteration.  FUZZ_TRACE=1 prints each operation.
 *
 * Input: a sequence of operations, an opcode byte then its arguments; a
 * short input is padded with zeros.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mltcp_core.h"

#define MSS		1448U
#define INIT_CWND	10U

enum op {
	OP_SET_SIZE,	/* size: mltcp_set_size() */
	OP_TIEBREAK,	/* u16: mltcp_set_tiebreak() */
	OP_MARK,	/* size: mltcp_hook_mark() (ITER_BEGIN) */
	OP_WRITE,	/* amount: the application writes */
	OP_SEND,	/* gap, amount: a transmission after a gap */
	OP_ACK,		/* amount, rtt, flags: an ACK */
	OP_ACK_ALL,	/* rtt: everything in flight is acked */
	OP_LOSS,	/* kind: loss, ECN or RTO */
	OP_PARAM,	/* which, value: a parameter within its range */
	OP_CLOCK,	/* gap: time passes */
	OP_RTT,		/* rtt: an RTT sample alone (mltcp_hook_rtt_sample()) */
	OP_SWITCH,	/* the congestion control is set again (TCP_CONGESTION) */
	OP_STREAM,	/* n: write, send and ack n chunks back to back */
	OP_MAX,
};

struct in {
	const uint8_t *p;
	size_t n;
};

static uint8_t get8(struct in *in)
{
	uint8_t v = 0;

	if (in->n) {
		v = *in->p++;
		in->n--;
	}
	return v;
}

static uint16_t get16(struct in *in)
{
	return (uint16_t)(get8(in) | (get8(in) << 8));
}

static uint32_t get32(struct in *in)
{
	return get16(in) | ((uint32_t)get16(in) << 16);
}

static uint64_t get64(struct in *in)
{
	return get32(in) | ((uint64_t)get32(in) << 32);
}

/* The socket, its sender and the model. */
struct sim {
	struct mltcp_sock ms;
	struct mltcp_globals g;
	int connected;
	u64 written, sent, acked;	/* since the connection started */
	u64 now_us, last_tx_us;
	u32 srtt_us, min_rtt_us, rtt_us;
	u32 cwnd, ssthresh;
	/* (a): the stretch since the last idle gap */
	u64 win_fbytes;		/* bytes acked with F > 1 */
	u64 win_bpi;		/* the size in use when it began */
	u32 win_overrun;	/* the largest overrun in force meanwhile */
	int win_unbounded;	/* overrun 0 at some point */
	/* (a): a declared size and whether the model lets it earn F */
	int decl;
	int decl_shown;
	u64 decl_size;
	/* (a): a mark not yet followed by an idle gap */
	int mark_pending;
	/* (d): until when the idle gaps so far allow F > 1 */
	u64 allowed_until_us;
	/* (e): the window was cut since the connection or the algorithm began */
	int cut;
};

static int check_bound = 1, check_shown = 1, check_earned = 1, check_time = 1, check_top = 1;
static int sizes_mode;	/* 0 any, 1 max, 2 fixed */
static int start_shown;	/* FUZZ_START=shown */
static int trace;	/* FUZZ_TRACE=1 */

static const char *const op_names[OP_MAX] = {
	"set_size", "tiebreak", "mark", "write", "send", "ack", "ack_all", "loss",
	"param", "clock", "rtt", "switch", "stream",
};

static void fail(const struct sim *s, const char *what)
{
	fprintf(stderr,
		"mltcp fuzz: %s\n  acked %llu written %llu bpi %llu flags %#x iters %u mark %llu\n"
		"  window: F>1 bytes %llu, size %llu, overrun %u%s;"
		" declared %d size %llu shown %d\n",
		what, (unsigned long long)s->acked, (unsigned long long)s->written,
		(unsigned long long)s->ms.bytes_per_iter, s->ms.flags, (unsigned int)s->ms.iters,
		(unsigned long long)s->ms.mark, (unsigned long long)s->win_fbytes,
		(unsigned long long)s->win_bpi, s->win_overrun,
		s->win_unbounded ? " (lifted)" : "", s->decl, (unsigned long long)s->decl_size,
		s->decl_shown);
	abort();
}

static void new_window(struct sim *s)
{
	u32 overrun = s->g.overrun;

	s->win_fbytes = 0;
	s->win_bpi = s->ms.bytes_per_iter;
	s->win_overrun = overrun;
	s->win_unbounded = !overrun;
}

static void connect_sock(struct sim *s)
{
	if (s->connected)
		return;
	mltcp_hook_init(&s->ms, s->acked, 77, (u32)(s->now_us / 1000));
	s->connected = 1;
	s->decl_shown = 0;
	new_window(s);
}

/* (b): F within its range */
static void check_f(const struct sim *s, u32 f)
{
	u32 p = s->g.fparams;
	u32 lo = mltcp_params_intercept(p), hi = mltcp_params_slope(p) + lo;

	if (f != MLTCP_Q10_ONE && (f < lo || f > hi))
		fail(s, "F outside [intercept, slope + intercept]");
}

static u64 decode_size(struct sim *s, struct in *in)
{
	uint8_t sel = get8(in);

	if (sizes_mode == 1)
		return sel & 1 ? MLTCP_MAX_ITER_BYTES : 0;
	if (sizes_mode == 2)
		return sel & 1 ? 1000000 : 0;
	switch (sel & 7) {
	case 0:
		return 0;
	case 1:
		return MLTCP_MAX_ITER_BYTES;
	case 2:
		return MLTCP_MAX_ITER_BYTES + 1;
	case 3:
		return MLTCP_MIN_ITER_BYTES;
	case 4:
		return MLTCP_MIN_ITER_BYTES - 1;
	case 5:
		return get64(in);
	case 6:	/* a multiple of what was written so far, in eighths */
		return s->written / 8 * (1 + (get8(in) & 31));
	default:
		return (u64)get16(in) * 1024;
	}
}

static u64 decode_amount(struct in *in)
{
	u16 v = get16(in);
	u64 n = v & 0x3fff;

	switch (v >> 14) {
	case 0:
		return n;
	case 1:
		return n * 64;
	case 2:
		return n * 1024;
	default:
		return ~0ULL;	/* as much as there is */
	}
}

static u32 decode_gap_us(struct in *in)
{
	uint8_t v = get8(in);

	if (v < 128)
		return v * 100U;		/* 0-12.7 ms: around the idle floor */
	if (v < 255)
		return (v - 128U) * 2000U;	/* up to 254 ms: compute phases */
	return get32(in);
}

/* A size the core accepted: not shown, in the model, if it changes the size in use. */
static void model_declare(struct sim *s, u64 bytes, u64 bpi_before)
{
	if (bytes != bpi_before)
		s->decl_shown = 0;
	s->decl = 1;
	s->decl_size = bytes;
}

static void op_set_size(struct sim *s, struct in *in)
{
	u64 bytes = decode_size(s, in), before = s->ms.bytes_per_iter;
	int rc = mltcp_set_size(&s->ms, bytes);

	if (rc && rc != -EINVAL)
		fail(s, "mltcp_set_size() returned neither 0 nor -EINVAL");
	if (rc)
		return;
	if (bytes)
		model_declare(s, bytes, before);
	else
		s->decl = 0;
}

static void op_mark(struct sim *s, struct in *in)
{
	u64 bytes = decode_size(s, in), before = s->ms.bytes_per_iter;
	struct mltcp_mark_out out;

	mltcp_hook_mark(&s->ms, s->acked, s->written - s->acked, bytes,
			(u32)(s->now_us / 1000), &out);
	if (mltcp_iter_size_valid(bytes))
		model_declare(s, bytes, before);
	s->mark_pending = 1;
}

static void op_send(struct sim *s, struct in *in)
{
	u32 gap = decode_gap_us(in);
	u64 n = decode_amount(in);

	connect_sock(s);
	s->now_us += gap;
	if (s->written == s->sent)
		return;
	if (s->sent == s->acked) {
		/* nothing in flight: TCP's CA_EVENT_TX_START */
		struct mltcp_tx_in tin;
		struct mltcp_tx_out out;
		u64 since = s->now_us - s->last_tx_us;
		u32 thresh;

		memset(&tin, 0, sizeof(tin));
		tin.g = &s->g;
		tin.bytes_acked = s->acked;
		tin.outstanding = 0;
		tin.gap_us = since > 0xffffffffULL ? 0xffffffffU : (u32)since;
		tin.srtt_us = s->srtt_us;
		tin.now_ms = (u32)(s->now_us / 1000);
		tin.cwnd = s->cwnd;
		tin.ssthresh = s->ssthresh;
		tin.init_cwnd = INIT_CWND;
		tin.delivered = s->cwnd;
		tin.interval_us = s->srtt_us;
		tin.min_rtt_us = s->min_rtt_us;
		tin.ca_open = 1;
		thresh = mltcp_idle_threshold_us(s->g.idle_ms, s->srtt_us);
		mltcp_hook_tx_start(&s->ms, &tin, &out);
		s->cwnd = out.cwnd;
		s->ssthresh = out.ssthresh;
		if (mltcp_is_idle_gap(0, tin.gap_us, thresh)) {
			/* an idle gap: the model's stretch begins again */
			if (s->decl && s->written >= s->decl_size / 2)
				s->decl_shown = 1;
			s->mark_pending = 0;
			new_window(s);
			if (s->now_us + 16ULL * tin.gap_us > s->allowed_until_us)
				s->allowed_until_us = s->now_us + 16ULL * tin.gap_us;
		}
	}
	if (n > s->written - s->sent)
		n = s->written - s->sent;
	s->sent += n;
	s->last_tx_us = s->now_us;
}

static void sample_rtt(struct sim *s, u32 rtt)
{
	s->rtt_us = rtt;
	if (rtt && rtt < s->min_rtt_us)
		s->min_rtt_us = rtt;
	s->srtt_us = s->srtt_us ? (7 * s->srtt_us + rtt) / 8 : rtt;
}

static void do_ack(struct sim *s, u64 n, u32 rtt, uint8_t flags)
{
	struct mltcp_ack_in ain;
	struct mltcp_ack_out out;
	u32 f;

	connect_sock(s);
	if (n > s->sent - s->acked)
		n = s->sent - s->acked;
	if (!n)
		return;
	s->acked += n;
	s->now_us += rtt / 4;
	sample_rtt(s, rtt);
	memset(&ain, 0, sizeof(ain));
	ain.g = &s->g;
	ain.bytes_acked = s->acked;
	ain.acked = (u32)((n + MSS - 1) / MSS);
	ain.cwnd = s->cwnd;
	ain.ssthresh = s->ssthresh;
	ain.cwnd_clamp = flags & 2 ? s->cwnd + 1 : 0xffffffffU;
	ain.cwnd_limited = !(flags & 1);
	ain.rtt.rtt_us = rtt;
	ain.rtt.min_rtt_us = s->min_rtt_us;
	ain.rtt.now_ms = (u32)(s->now_us / 1000);
	if (mltcp_hook_ack(&s->ms, &ain, &out) || out.slow_start) {
		check_f(s, out.f);
		if (out.slow_start)
			s->cwnd = out.cwnd;
		if (out.ca && s->cwnd)
			s->cwnd += out.ca_credit / s->cwnd;
		if (!s->cwnd)
			s->cwnd = 1;
	}
	/* (a): the F this ACK's bytes got, the one every hook computes */
	f = mltcp_sock_f_q10(&s->ms, s->g.mode, s->g.fparams, s->g.stagger, s->g.overrun,
			     s->acked);
	check_f(s, f);
	if (check_top && s->ms.phase == MLTCP_PHASE_TOP && !s->cut)
		fail(s, "F at its top with no cut of the window");
	if (f <= MLTCP_Q10_ONE)
		return;
	/*
	 * The one ACK that covers a mark gets the F of its bytes past it:
	 * its bytes before the mark (at most a window) are not counted.
	 */
	if ((s64)(s->acked - n - s->ms.mark) < 0)
		n = s->acked - s->ms.mark;
	s->win_fbytes += n;
	if (check_earned && s->mark_pending)
		fail(s, "F > 1 after a mark before an idle gap");
	if (check_shown && s->decl && !s->decl_shown)
		fail(s, "F > 1 for a declared size no idle gap has shown");
	/* the core reads whole milliseconds: up to 1 ms more */
	if (check_time && s->now_us >= s->allowed_until_us + 1000)
		fail(s, "F > 1 longer than sixteen times the idle gap before it");
	if (check_bound && !s->win_unbounded &&
	    s->win_fbytes > ((s->win_bpi * s->win_overrun) >> MLTCP_Q10_SHIFT))
		fail(s, "F > 1 for more than overrun x the size between two idle gaps");
}

static void op_loss(struct sim *s, struct in *in)
{
	uint8_t kind = get8(in) % 3;
	u32 reduced, out;

	connect_sock(s);
	reduced = s->cwnd / 2 ? s->cwnd / 2 : 1;
	out = mltcp_hook_decrease(&s->ms, &s->g, s->acked, s->cwnd, reduced);
	s->cut = 1;
	if (out < reduced || (out > s->cwnd && out != reduced))
		fail(s, "softened decrease outside [reduced, cwnd]");
	s->ssthresh = out;
	s->cwnd = kind == 2 ? 1 : out;
	if (kind == 2)
		s->sent = s->acked;	/* RTO: everything in flight goes again */
}

static void op_param(struct sim *s, struct in *in)
{
	uint8_t which = get8(in) % 7;
	u32 v = get16(in);
	u32 slope = mltcp_params_slope(s->g.fparams);
	u32 icpt = mltcp_params_intercept(s->g.fparams);

	switch (which) {
	case 0:
		slope = v % (MLTCP_SLOPE_MAX + 1);
		break;
	case 1:
		icpt = MLTCP_INTERCEPT_MIN + v % MLTCP_INTERCEPT_MAX;
		break;
	case 2:
		s->g.stagger = v % (MLTCP_STAGGER_MAX + 1);
		break;
	case 3:
		v %= MLTCP_OVERRUN_MAX + 1;
		s->g.overrun = v < MLTCP_Q10_ONE ? (v & 1 ? MLTCP_OVERRUN_DEFAULT : 0) : v;
		if (s->g.overrun > s->win_overrun)
			s->win_overrun = s->g.overrun;
		if (!s->g.overrun)
			s->win_unbounded = 1;
		break;
	case 4:
		s->g.idle_ms = MLTCP_IDLE_MS_MIN + v % 200;
		break;
	case 5:
		s->g.mode = (int)(v % 3);
		break;
	default:
		s->g.decrease = v & 1;
		break;
	}
	s->g.fparams = mltcp_params_pack(slope, icpt);
}

static void op_switch(struct sim *s)
{
	/* tcp_reinit_congestion_control(): release, zeroed state, init */
	if (s->connected)
		mltcp_hook_release(&s->ms);
	memset(&s->ms, 0, sizeof(s->ms));
	s->decl = 0;
	s->mark_pending = 0;
	s->cut = 0;
	s->connected = 0;
	connect_sock(s);
}

/* A stream: chunks written, sent without a gap and acked, back to back. */
static void op_stream(struct sim *s, struct in *in)
{
	unsigned int i, chunks = 1 + get8(in) % 64;
	u64 chunk = (u64)(1 + get8(in)) * MSS * 4;
	u32 rtt = 1000 + get8(in) * 100U;
	/* gap 0, amount "as much as there is" */
	static const uint8_t send_now[3] = { 0, 0xff, 0xff };

	connect_sock(s);
	for (i = 0; i < chunks; i++) {
		struct in a = { send_now, sizeof(send_now) };

		s->written += chunk;
		s->now_us += 100;
		op_send(s, &a);
		do_ack(s, chunk, rtt, 0);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *c = getenv("FUZZ_CHECK"), *z = getenv("FUZZ_SIZES");

	(void)argc;
	(void)argv;
	if (c) {
		check_bound = !strcmp(c, "bound");
		check_shown = !strcmp(c, "shown");
		check_earned = !strcmp(c, "earned");
		check_time = !strcmp(c, "time");
		check_top = !strcmp(c, "top");
	}
	if (z && !strcmp(z, "max"))
		sizes_mode = 1;
	if (z && !strcmp(z, "fixed"))
		sizes_mode = 2;
	trace = getenv("FUZZ_TRACE") != NULL;
	z = getenv("FUZZ_START");
	if (z && !strcmp(z, "shown"))
		start_shown = 1;
	return 0;
}

static void run_ops(struct sim *s, struct in *in)
{
	unsigned int steps = 0;

	while (in->n && steps++ < 4096) {
		unsigned int op = get8(in) % OP_MAX;

		if (trace)
			fprintf(stderr, "%s (acked %llu written %llu bpi %llu flags %#x)\n",
				op_names[op], (unsigned long long)s->acked,
				(unsigned long long)s->written,
				(unsigned long long)s->ms.bytes_per_iter, s->ms.flags);
		switch (op) {
		case OP_SET_SIZE:
			op_set_size(s, in);
			break;
		case OP_TIEBREAK:
			mltcp_set_tiebreak(&s->ms, get16(in) % (MLTCP_TIEBREAK_MAX + 64));
			break;
		case OP_MARK:
			op_mark(s, in);
			break;
		case OP_WRITE: {
			u64 n = decode_amount(in);

			s->written += n > (1ULL << 40) ? 64ULL << 20 : n;
			break;
		}
		case OP_SEND:
			op_send(s, in);
			break;
		case OP_ACK: {
			u64 n = decode_amount(in);
			u32 rtt = get16(in) * 4U;

			do_ack(s, n, rtt, get8(in));
			break;
		}
		case OP_ACK_ALL:
			do_ack(s, ~0ULL, 200U + get8(in) * 100U, 0);
			break;
		case OP_LOSS:
			op_loss(s, in);
			break;
		case OP_PARAM:
			op_param(s, in);
			break;
		case OP_CLOCK:
			s->now_us += decode_gap_us(in);
			break;
		case OP_RTT: {
			struct mltcp_rtt_in r;
			u32 rtt = get16(in) * 4U;

			connect_sock(s);
			sample_rtt(s, rtt);
			r.rtt_us = rtt;
			r.min_rtt_us = s->min_rtt_us;
			r.now_ms = (u32)(s->now_us / 1000);
			if (mltcp_in_yield(&s->ms))
				mltcp_hook_rtt_sample(&s->ms, &r);
			break;
		}
		case OP_SWITCH:
			op_switch(s);
			break;
		default:
			op_stream(s, in);
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct sim s;

	memset(&s, 0, sizeof(s));
	s.g.fparams = mltcp_params_pack(MLTCP_SLOPE_DEFAULT, MLTCP_INTERCEPT_DEFAULT);
	s.g.idle_ms = MLTCP_IDLE_MS_DEFAULT;
	s.g.stagger = MLTCP_STAGGER_DEFAULT;
	s.g.overrun = MLTCP_OVERRUN_DEFAULT;
	s.g.mode = MLTCP_MODE_LEARNED;
	s.g.decrease = 1;
	s.min_rtt_us = ~0U;
	s.cwnd = INIT_CWND;
	s.ssthresh = 0x7fffffff;
	if (start_shown) {
		/*
		 * An honest job's first iteration: about 1 MB declared before
		 * the connection, sent and acked, then a compute phase; the
		 * input starts where the size may earn F.
		 */
		static const uint8_t honest[] = {
			OP_SET_SIZE, 7, 0xd0, 0x03,	/* 976 x 1024 bytes */
			OP_STREAM, 15, 10, 0,		/* 16 chunks of 11 x 4 MSS */
			OP_CLOCK, 0xe4,			/* 200 ms */
		};
		struct in h = { honest, sizeof(honest) };

		run_ops(&s, &h);
	}
	run_ops(&s, &in);
	if (s.connected)
		mltcp_hook_release(&s.ms);
	return 0;
}
