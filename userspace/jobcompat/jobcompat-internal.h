/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobcompat's internals shared by its two parts: the circle and the search
 * (jobcompat.c), the fluid models (jobcompat-fluid.c).  Not part of the API.
 */
#ifndef _JOBCOMPAT_INTERNAL_H
#define _JOBCOMPAT_INTERNAL_H

#include <limits.h>

#include "jobcompat.h"

/* jc_link_check()'s @njobs when the caller does not know the jobs' count */
#define JC_NJOBS_UNKNOWN	UINT_MAX

int jc_link_check(const struct jc_job *jobs, unsigned int njobs, const struct jc_link *link);

#endif /* _JOBCOMPAT_INTERNAL_H */
