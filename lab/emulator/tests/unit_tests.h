/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MLTCP_BENCH_UNIT_TESTS_H
#define MLTCP_BENCH_UNIT_TESTS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

extern const struct CMUnitTest metrics_tests[];
extern const size_t metrics_ntests;
extern const struct CMUnitTest profile_tests[];
extern const size_t profile_ntests;
extern const struct CMUnitTest records_tests[];
extern const size_t records_ntests;
extern const struct CMUnitTest verdict_tests[];
extern const size_t verdict_ntests;

#endif
