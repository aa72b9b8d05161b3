// SPDX-License-Identifier: GPL-2.0
/*
 * mltcpctl output formatting.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>

#include "mltcp_core.h"
#include "output.h"

const char *mltcpctl_mode_name(unsigned int mode)
{
	switch (mode) {
	case MLTCP_ABI_MODE_LEARNED:
		return "learned";
	case MLTCP_ABI_MODE_GIVEN:
		return "given";
	case MLTCP_ABI_MODE_OFF:
		return "off";
	}
	return "unknown";
}

const char *mltcpctl_tcp_state_name(unsigned int state)
{
	static const char *const names[] = {
		[TCP_ESTABLISHED] = "ESTAB",
		[TCP_SYN_SENT] = "SYN-SENT",
		[TCP_SYN_RECV] = "SYN-RECV",
		[TCP_FIN_WAIT1] = "FIN-WAIT-1",
		[TCP_FIN_WAIT2] = "FIN-WAIT-2",
		[TCP_TIME_WAIT] = "TIME-WAIT",
		[TCP_CLOSE] = "UNCONN",
		[TCP_CLOSE_WAIT] = "CLOSE-WAIT",
		[TCP_LAST_ACK] = "LAST-ACK",
		[TCP_LISTEN] = "LISTEN",
		[TCP_CLOSING] = "CLOSING",
	};

	if (state < sizeof(names) / sizeof(names[0]) && names[state])
		return names[state];
	return "UNKNOWN";
}

void mltcpctl_format_endpoint(char *buf, size_t len, uint8_t family,
			      const uint8_t *addr, uint16_t port)
{
	char a[INET6_ADDRSTRLEN];

	if (family == AF_INET6) {
		inet_ntop(AF_INET6, addr, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, port);
	} else if (family == AF_INET) {
		inet_ntop(AF_INET, addr, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, port);
	} else {
		snprintf(buf, len, "?:%u", port);
	}
}

static void format_addr(char *buf, size_t len, uint8_t family,
			const uint8_t *addr)
{
	if (family != AF_INET && family != AF_INET6) {
		snprintf(buf, len, "?");
		return;
	}
	inet_ntop(family == AF_INET ? AF_INET : AF_INET6, addr, buf,
		  (socklen_t)len);
}

static const char *q10(uint32_t v, char *buf)
{
	mltcp_format_q10(v, buf);
	return buf;
}

/* ---- a minimal JSON writer ------------------------------------------------ */

#define JW_MAX_DEPTH 8

struct jw {
	FILE *f;
	bool pretty;
	int depth;
	bool first[JW_MAX_DEPTH];
};

static void jw_indent(struct jw *w)
{
	int i;

	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("    ", w->f);
}

/* separator and, inside an object, the key */
static void jw_item(struct jw *w, const char *key)
{
	if (w->depth > 0) {
		if (!w->first[w->depth - 1])
			fputc(',', w->f);
		w->first[w->depth - 1] = false;
		jw_indent(w);
	}
	if (key)
		fprintf(w->f, w->pretty ? "\"%s\": " : "\"%s\":", key);
}

static void jw_open(struct jw *w, const char *key, char c)
{
	jw_item(w, key);
	fputc(c, w->f);
	if (w->depth < JW_MAX_DEPTH)
		w->first[w->depth] = true;
	w->depth++;
}

static void jw_close(struct jw *w, char c)
{
	bool empty = w->first[w->depth - 1];

	w->depth--;
	if (!empty)
		jw_indent(w);
	fputc(c, w->f);
}

static void jw_string(struct jw *w, const char *key, const char *s)
{
	jw_item(w, key);
	fputc('"', w->f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(w->f, "\\%c", c);
		else if (c < 0x20)
			fprintf(w->f, "\\u%04x", c);
		else
			fputc(c, w->f);
	}
	fputc('"', w->f);
}

static void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_item(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

static void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_item(w, key);
	fputs(v ? "true" : "false", w->f);
}

/* a Q10 value as a JSON number ("1.5") */
static void jw_q10(struct jw *w, const char *key, uint32_t v)
{
	char buf[24];

	jw_item(w, key);
	fputs(q10(v, buf), w->f);
}

static void jw_end(struct jw *w)
{
	fputc('\n', w->f);
}

/* ---- show ------------------------------------------------------------------ */

void mltcpctl_print_show(const struct mltcpctl_out *o,
			 const struct mltcpctl_params *p,
			 const struct mltcpctl_algo *algos, size_t nalgos,
			 enum mltcpctl_scope scope)
{
	bool host = scope == MLTCPCTL_SCOPE_HOST;
	char b1[24], b2[24];
	size_t i;

	if (o->json) {
		struct jw w = { .f = o->f, .pretty = o->pretty };

		jw_open(&w, NULL, '{');
		jw_u64(&w, "abi_version", p->abi_version);
		jw_q10(&w, "slope", p->slope);
		jw_u64(&w, "slope_q10", p->slope);
		jw_q10(&w, "intercept", p->intercept);
		jw_u64(&w, "intercept_q10", p->intercept);
		jw_u64(&w, "idle_ms", p->idle_ms);
		jw_string(&w, "mode", mltcpctl_mode_name(p->mode));
		jw_bool(&w, "decrease", p->decrease);
		jw_q10(&w, "stagger", p->stagger);
		jw_u64(&w, "stagger_q10", p->stagger);
		jw_q10(&w, "overrun", p->overrun);
		jw_u64(&w, "overrun_q10", p->overrun);
		jw_string(&w, "counters", host ? "host" : "netns");
		jw_open(&w, "algorithms", '[');
		for (i = 0; i < nalgos; i++) {
			jw_open(&w, NULL, '{');
			jw_string(&w, "name", algos[i].name);
			jw_u64(&w, "sockets", algos[i].sockets);
			jw_u64(&w, "sockets_total", algos[i].sockets_total);
			jw_u64(&w, "iterations_learned", algos[i].iters_learned);
			jw_u64(&w, "iterations_given", algos[i].iters_given);
			jw_close(&w, '}');
		}
		jw_close(&w, ']');
		jw_close(&w, '}');
		jw_end(&w);
		return;
	}

	fprintf(o->f, "F = slope * bytes_ratio + intercept: slope %s intercept %s\n",
		q10(p->slope, b1), q10(p->intercept, b2));
	fprintf(o->f, "decrease %s stagger %s overrun %s\n", p->decrease ? "on" : "off",
		q10(p->stagger, b1), q10(p->overrun, b2));
	fprintf(o->f, "idle_ms %u mode %s abi %u\n", p->idle_ms,
		mltcpctl_mode_name(p->mode), p->abi_version);
	if (!nalgos) {
		fprintf(o->f, "no MLTCP congestion control loaded\n");
		return;
	}
	fprintf(o->f, "\ncounters of %s\n", host ? "the host (every network namespace)" :
		"this network namespace");
	fprintf(o->f, "%-16s %10s %14s %14s %14s\n", "Algorithm", "Sockets",
		"SocketsTotal", "ItersLearned", "ItersGiven");
	for (i = 0; i < nalgos; i++)
		fprintf(o->f, "%-16s %10" PRIu64 " %14" PRIu64 " %14" PRIu64
			" %14" PRIu64 "\n", algos[i].name, algos[i].sockets,
			algos[i].sockets_total, algos[i].iters_learned,
			algos[i].iters_given);
}

/* ---- sockets --------------------------------------------------------------- */

static void print_sock_json(struct jw *w, const struct mltcpctl_sock *s)
{
	char a[INET6_ADDRSTRLEN];

	jw_open(w, NULL, '{');
	jw_string(w, "family", s->family == AF_INET6 ? "inet6" :
		  s->family == AF_INET ? "inet" : "unknown");
	format_addr(a, sizeof(a), s->family, s->saddr);
	jw_string(w, "src", a);
	jw_u64(w, "sport", s->sport);
	format_addr(a, sizeof(a), s->family, s->daddr);
	jw_string(w, "dst", a);
	jw_u64(w, "dport", s->dport);
	jw_string(w, "state", mltcpctl_tcp_state_name(s->tcp_state));
	jw_u64(w, "inode", s->inode);
	jw_string(w, "algo", s->algo);
	jw_string(w, "mode", mltcpctl_mode_name(s->mode));
	jw_bool(w, "size_given", s->flags & MLTCP_INFO_F_SIZE_GIVEN);
	jw_bool(w, "bounds_given", s->flags & MLTCP_INFO_F_BOUNDS_GIVEN);
	jw_u64(w, "iterations", s->iterations);
	jw_u64(w, "bytes_this_iter", s->bytes_this_iter);
	jw_u64(w, "bytes_per_iter", s->bytes_per_iter);
	jw_q10(w, "bytes_ratio", s->bytes_ratio);
	jw_u64(w, "bytes_ratio_q10", s->bytes_ratio);
	jw_q10(w, "f", s->f);
	jw_u64(w, "f_q10", s->f);
	jw_u64(w, "cwnd", s->cwnd);
	jw_bool(w, "tiebreak_given", s->flags & MLTCP_INFO_F_TIEBREAK_GIVEN);
	jw_q10(w, "tiebreak", s->tiebreak);
	jw_u64(w, "tiebreak_q10", s->tiebreak);
	jw_close(w, '}');
}

void mltcpctl_print_sockets(const struct mltcpctl_out *o,
			    const struct mltcpctl_sock *socks, size_t nsocks)
{
	char local[64], peer[64], r[24], f[24], t[24], hint[4];
	size_t i;

	if (o->json) {
		struct jw w = { .f = o->f, .pretty = o->pretty };

		jw_open(&w, NULL, '[');
		for (i = 0; i < nsocks; i++)
			print_sock_json(&w, &socks[i]);
		jw_close(&w, ']');
		jw_end(&w);
		return;
	}

	fprintf(o->f, "%-10s %-28s %-28s %-12s %-4s %8s %14s %14s %6s %6s %6s %6s\n",
		"State", "Local Address:Port", "Peer Address:Port", "Algorithm",
		"Hint", "Iters", "BytesThisIter", "BytesPerIter", "Ratio", "F",
		"Cwnd", "Tie");
	for (i = 0; i < nsocks; i++) {
		const struct mltcpctl_sock *s = &socks[i];

		mltcpctl_format_endpoint(local, sizeof(local), s->family,
					 s->saddr, s->sport);
		mltcpctl_format_endpoint(peer, sizeof(peer), s->family,
					 s->daddr, s->dport);
		/* S: size, B: boundaries, T: tie-break given; -: learned/the connection's */
		hint[0] = s->flags & MLTCP_INFO_F_SIZE_GIVEN ? 'S' : '-';
		hint[1] = s->flags & MLTCP_INFO_F_BOUNDS_GIVEN ? 'B' : '-';
		hint[2] = s->flags & MLTCP_INFO_F_TIEBREAK_GIVEN ? 'T' : '-';
		hint[3] = '\0';
		fprintf(o->f, "%-10s %-28s %-28s %-12s %-4s %8u %14" PRIu64
			" %14" PRIu64 " %6s %6s %6u %6s\n",
			mltcpctl_tcp_state_name(s->tcp_state), local, peer,
			s->algo, hint, s->iterations, s->bytes_this_iter,
			s->bytes_per_iter, q10(s->bytes_ratio, r), q10(s->f, f),
			s->cwnd, q10(s->tiebreak, t));
	}
}
