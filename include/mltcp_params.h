/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core: the global parameters, their validation, and their text
 * form (Q10 decimals, the mode's names).  Part of include/mltcp_core.h.
 */
#ifndef _MLTCP_PARAMS_H
#define _MLTCP_PARAMS_H

#include "mltcp_types.h"

/**
 * mltcp_params_pack() - pack slope and intercept into one word
 * @slope: Q10 slope, <= MLTCP_SLOPE_MAX
 * @intercept: Q10 intercept, <= MLTCP_INTERCEPT_MAX
 *
 * The ACK path reads both with one load, so it never sees a torn pair.
 *
 * Return: the packed word.
 */
static inline u32 mltcp_params_pack(u32 slope, u32 intercept)
{
	return (slope & 0xffff) | (intercept << 16);
}

static inline u32 mltcp_params_slope(u32 packed)
{
	return packed & 0xffff;
}

static inline u32 mltcp_params_intercept(u32 packed)
{
	return packed >> 16;
}

static inline bool mltcp_slope_valid(u32 q10)
{
	return q10 <= MLTCP_SLOPE_MAX;
}

static inline bool mltcp_intercept_valid(u32 q10)
{
	return q10 >= MLTCP_INTERCEPT_MIN && q10 <= MLTCP_INTERCEPT_MAX;
}

static inline bool mltcp_stagger_valid(u32 q10)
{
	return q10 <= MLTCP_STAGGER_MAX;
}

static inline bool mltcp_tiebreak_valid(u32 q10)
{
	return q10 <= MLTCP_TIEBREAK_MAX;
}

static inline bool mltcp_idle_ms_valid(u32 ms)
{
	return ms >= MLTCP_IDLE_MS_MIN && ms <= MLTCP_IDLE_MS_MAX;
}

static inline bool mltcp_overrun_valid(u32 q10)
{
	return !q10 || (q10 >= MLTCP_Q10_ONE && q10 <= MLTCP_OVERRUN_MAX);
}

/* A declared iteration size: at least the floor, at most what the ABI allows. */
static inline bool mltcp_iter_size_valid(u64 bytes)
{
	return bytes >= MLTCP_MIN_ITER_BYTES && bytes <= MLTCP_MAX_ITER_BYTES;
}

static inline bool mltcp_str_is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/**
 * mltcp_parse_q10() - parse a non-negative decimal into Q10
 * @s: NUL-terminated text such as "1", "0.5", "1.25" or ".75";
 *     leading and trailing white space (a newline from echo) is allowed
 * @out: result, rounded to the nearest 1/1024; untouched on error
 *
 * At most 9 fractional digits and values below 65536 are accepted.
 *
 * Return: 0 or -EINVAL for anything else (signs, exponents, garbage).
 */
static inline int mltcp_parse_q10(const char *s, u32 *out)
{
	u64 ipart = 0, frac = 0, scale = 1;
	unsigned int idigits = 0, fdigits = 0;
	u64 q;

	while (mltcp_str_is_space(*s))
		s++;
	while (*s >= '0' && *s <= '9') {
		ipart = ipart * 10 + (u64)(*s - '0');
		if (ipart >= 65536)
			return -EINVAL;
		idigits++;
		s++;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			if (++fdigits > 9)
				return -EINVAL;
			frac = frac * 10 + (u64)(*s - '0');
			scale *= 10;
			s++;
		}
	}
	if (!idigits && !fdigits)
		return -EINVAL;
	while (mltcp_str_is_space(*s))
		s++;
	if (*s)
		return -EINVAL;

	q = (ipart << MLTCP_Q10_SHIFT) +
	    div64_u64((frac << MLTCP_Q10_SHIFT) + scale / 2, scale);
	if (q > 0xffffffffULL)
		return -EINVAL;
	*out = (u32)q;
	return 0;
}

/**
 * mltcp_format_q10() - print a Q10 value as the shortest decimal that
 *	parses back to the same value
 * @q: Q10 value
 * @buf: output, at least 24 bytes
 *
 * Return: number of characters written, without the terminating NUL.
 */
static inline int mltcp_format_q10(u32 q, char *buf)
{
	u32 ipart = q >> MLTCP_Q10_SHIFT, rem = q & (MLTCP_Q10_ONE - 1);
	u64 scale = 1, f = 0;
	unsigned int nd, i;
	char tmp[12];
	int n = 0, k = 0;

	for (nd = 0; nd <= 4 && rem; nd++, scale *= 10) {
		f = div64_u64((u64)rem * scale + MLTCP_Q10_ONE / 2, MLTCP_Q10_ONE);
		if (div64_u64((f << MLTCP_Q10_SHIFT) + scale / 2, scale) == rem)
			break;
	}
	/* nd <= 4 always matches: 1e-4 is finer than half of 1/1024 */
	do {
		tmp[k++] = (char)('0' + ipart % 10);
		ipart /= 10;
	} while (ipart);
	while (k)
		buf[n++] = tmp[--k];
	if (rem) {
		buf[n++] = '.';
		for (i = nd; i > 0; i--) {
			buf[n + i - 1] = (char)('0' + f % 10);
			f /= 10;
		}
		n += nd;
	}
	buf[n] = '\0';
	return n;
}

/**
 * mltcp_parse_mode() - parse "learned", "given" or "off"
 * @s: text, optionally followed by white space
 *
 * Return: the enum mltcp_mode value or -EINVAL.
 */
static inline int mltcp_parse_mode(const char *s)
{
	static const char * const names[] = { "learned", "given", "off" };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		j = 0;
		while (names[i][j] && s[j] == names[i][j])
			j++;
		if (names[i][j])
			continue;
		while (mltcp_str_is_space(s[j]))
			j++;
		if (!s[j])
			return (int)i;
	}
	return -EINVAL;
}

static inline const char *mltcp_mode_name(int mode)
{
	switch (mode) {
	case MLTCP_MODE_LEARNED:
		return "learned";
	case MLTCP_MODE_GIVEN:
		return "given";
	case MLTCP_MODE_OFF:
		return "off";
	}
	return "?";
}

#endif /* _MLTCP_PARAMS_H */
