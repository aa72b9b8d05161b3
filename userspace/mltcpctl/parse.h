/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcpctl command-line parsing; no I/O, so it is unit-testable.
 */
#ifndef MLTCPCTL_PARSE_H
#define MLTCPCTL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/mltcp.h>

enum mltcpctl_cmd {
	MLTCPCTL_CMD_SHOW,
	MLTCPCTL_CMD_SET,
	MLTCPCTL_CMD_SOCKETS,
	MLTCPCTL_CMD_HELP,
	MLTCPCTL_CMD_VERSION,
	MLTCPCTL_CMD_BPF,
	MLTCPCTL_CMD_ATTACH,
	MLTCPCTL_CMD_DETACH,
	MLTCPCTL_CMD_COMPAT,
	MLTCPCTL_CMD_METRICS,
};

/* mltcpctl_args.by: compat --by, how trace records are grouped into jobs */
enum mltcpctl_by {
	MLTCPCTL_BY_DPORT,
	MLTCPCTL_BY_SRC,
	MLTCPCTL_BY_DST,
};

/* compat --threshold's default: the largest overlap score called compatible */
#define MLTCPCTL_COMPAT_THRESHOLD	0.05

/* mltcpctl_args.bpf_op: mltcpctl bpf load|unload|status */
enum mltcpctl_bpf_op {
	MLTCPCTL_BPF_STATUS,
	MLTCPCTL_BPF_LOAD,
	MLTCPCTL_BPF_UNLOAD,
};

/* mltcpctl_args.set_mask */
#define MLTCPCTL_SET_SLOPE	0x1
#define MLTCPCTL_SET_INTERCEPT	0x2
#define MLTCPCTL_SET_IDLE_MS	0x4
#define MLTCPCTL_SET_MODE	0x8
#define MLTCPCTL_SET_DECREASE	0x10
#define MLTCPCTL_SET_STAGGER	0x20
#define MLTCPCTL_SET_OVERRUN	0x40
#define MLTCPCTL_SET_TIEBREAK_KEY	0x80

/**
 * struct mltcpctl_args - a parsed command line
 * @cmd: command
 * @json: -j: JSON output
 * @pretty: -p: indented JSON
 * @host: -H: host-wide counters (show, metrics) instead of the network namespace's
 * @set_mask: MLTCPCTL_SET_* given to "set"
 * @slope: Q10, valid when MLTCPCTL_SET_SLOPE
 * @intercept: Q10, valid when MLTCPCTL_SET_INTERCEPT
 * @idle_ms: valid when MLTCPCTL_SET_IDLE_MS
 * @mode: enum mltcp_abi_mode, valid when MLTCPCTL_SET_MODE
 * @decrease: 0 or 1, valid when MLTCPCTL_SET_DECREASE
 * @stagger: Q10, valid when MLTCPCTL_SET_STAGGER
 * @overrun: Q10, valid when MLTCPCTL_SET_OVERRUN
 * @key_file: the tie-break key file of "set tiebreak-key FILE" (with
 *	MLTCPCTL_SET_TIEBREAK_KEY) or of "bpf load --tiebreak-key FILE", "-" for
 *	stdin (points into argv); NULL when not given
 * @tiebreak_key: the key read from @key_file (key.h), before anything changes
 * @bpf_op: enum mltcpctl_bpf_op, for MLTCPCTL_CMD_BPF
 * @cgroup: the cgroup directory of attach/detach (points into argv); NULL
 *	for attach alone (list the attachments)
 * @algo: the algorithm of attach (points into argv)
 * @file: compat -f: the profile file, "-" for stdin (points into argv)
 * @trace: compat --trace: the tracepoint text, "-" for stdin
 * @by: compat --by: enum mltcpctl_by
 * @rate_bps: compat --rate, bits per second; 0 when not given
 * @threshold: compat --threshold, MLTCPCTL_COMPAT_THRESHOLD by default
 * @metrics_file: metrics FILE: the file to replace (points into argv); NULL:
 *	standard output
 */
struct mltcpctl_args {
	enum mltcpctl_cmd cmd;
	bool json;
	bool pretty;
	bool host;
	unsigned int set_mask;
	uint32_t slope;
	uint32_t intercept;
	uint32_t idle_ms;
	uint8_t mode;
	uint8_t decrease;
	uint32_t stagger;
	uint32_t overrun;
	const char *key_file;
	uint8_t tiebreak_key[MLTCP_TIEBREAK_KEY_LEN];
	int bpf_op;
	const char *cgroup;
	const char *algo;
	const char *file;
	const char *trace;
	int by;
	double rate_bps;
	double threshold;
	const char *metrics_file;
};

/**
 * mltcpctl_parse() - parse the command line
 * @argc: argument count, including the program name
 * @argv: arguments
 * @args: result
 * @err: error message on failure (without "mltcpctl: ")
 * @errlen: size of @err
 *
 * Without a command, "show" is assumed.  Commands may be abbreviated to
 * any unique prefix ("sh", "se", "so").
 *
 * Return: 0 or -1 (usage error, message in @err).
 */
int mltcpctl_parse(int argc, char *const argv[], struct mltcpctl_args *args,
		   char *err, size_t errlen);

/**
 * mltcpctl_parse_u32() - parse a decimal unsigned 32-bit number
 * @s: text, digits only
 * @out: result
 *
 * Return: 0 or -1.
 */
int mltcpctl_parse_u32(const char *s, uint32_t *out);

/**
 * mltcpctl_parse_rate() - parse a link rate
 * @s: a decimal and a unit: bit, bps or b/s, with k, m, g or t (either
 *	case, powers of 1000) before it, e.g. 10gbit, 25Gbps, 2.5Gb/s; "bps"
 *	is bits per second, not tc's bytes per second
 * @bps: result, bits per second, JC_MIN_RATE_BPS to JC_MAX_RATE_BPS
 *
 * Return: 0 or -1.
 */
int mltcpctl_parse_rate(const char *s, double *bps);

/**
 * mltcpctl_parse_bytes() - parse a byte count
 * @s: a decimal and an optional unit, either case: b; k, m, g, t or kb, mb,
 *	gb, tb (powers of 1000); kib, mib, gib, tib (powers of 1024)
 * @bytes: result, rounded to a whole byte, 1 to JC_MAX_BYTES
 *
 * Return: 0 or -1.
 */
int mltcpctl_parse_bytes(const char *s, double *bytes);

/**
 * mltcpctl_parse_decimal() - parse a plain decimal ("12", "0.5")
 * @s: digits, optionally a point and digits; no sign, exponent or unit
 * @out: result
 *
 * Return: 0 or -1.
 */
int mltcpctl_parse_decimal(const char *s, double *out);

#endif /* MLTCPCTL_PARSE_H */
