/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP core outside the kernel (unit tests, the fuzzer, ns-3, userspace):
 * the kernel types and helpers the core uses, from the C library.  A shim,
 * so not held to checkpatch (the Makefile's CHECKPATCH_FILES).
 */
#ifndef _MLTCP_USER_COMPAT_H
#define _MLTCP_USER_COMPAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#ifndef READ_ONCE
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#endif /* _MLTCP_USER_COMPAT_H */
