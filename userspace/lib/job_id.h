/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One tie-break for every rank of a job, with no message between them: a
 * hash of the identity the job's launcher gives every rank in its
 * environment (libmltcp-preload.so's MLTCP_TIEBREAK=job).
 *
 * A ring all-reduce sends both ways at once, each rank on its own
 * connections.  With a tie-break per connection a job leads on some links
 * and trails on others, and waits at every step for the link it trails
 * on; one value per process does the same across ranks.  The job needs
 * one value on all its ranks, as mltcp.torch.attach() broadcasts rank 0's.
 */
#ifndef MLTCP_LIB_JOB_ID_H
#define MLTCP_LIB_JOB_ID_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mltcp/libmltcp.h"

/**
 * mltcp_job_identity() - the job's identity, as every rank sees it
 * @buf: where to write it
 * @len: its size
 *
 * The first of: MLTCP_JOB_ID (set it to anything unique per job);
 * SLURM_JOB_ID, with SLURM_STEP_ID when set (srun: every rank of a step);
 * TORCHELASTIC_RUN_ID unless "none" (torchrun's --rdzv-id, shared by its
 * ranks); MASTER_ADDR:MASTER_PORT (torch.distributed's env:// start,
 * unique while the job runs).  Empty values do not count.
 *
 * Return: 0, or -1 when none is set or @buf is too small.
 */
static inline int mltcp_job_identity(char *buf, size_t len)
{
	const char *own = getenv("MLTCP_JOB_ID");
	const char *slurm = getenv("SLURM_JOB_ID");
	const char *step = getenv("SLURM_STEP_ID");
	const char *elastic = getenv("TORCHELASTIC_RUN_ID");
	const char *addr = getenv("MASTER_ADDR");
	const char *port = getenv("MASTER_PORT");
	int n;

	if (own && *own)
		n = snprintf(buf, len, "job:%s", own);
	else if (slurm && *slurm)
		n = snprintf(buf, len, "slurm:%s.%s", slurm, step && *step ? step : "");
	else if (elastic && *elastic && strcmp(elastic, "none"))
		n = snprintf(buf, len, "torchelastic:%s", elastic);
	else if (addr && *addr && port && *port)
		n = snprintf(buf, len, "master:%s:%s", addr, port);
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/**
 * mltcp_job_id_tiebreak() - the tie-break of a job's identity
 * @id: mltcp_job_identity()
 *
 * FNV-1a over the identity, then MurmurHash3's 64-bit finaliser so that
 * identities a digit apart land far apart; the upper half is spread over
 * the range as a random draw is.  Jobs' values are as good as independent
 * draws, and a job's are equal on every rank.  Not secret, and need not be: a socket
 * may ask for any tie-break up to MLTCP_TIEBREAK_ABI_MAX.
 *
 * Return: a tie-break, Q10, in [0, MLTCP_TIEBREAK_ABI_MAX].
 */
static inline uint32_t mltcp_job_id_tiebreak(const char *id)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *id; id++) {
		h ^= (unsigned char)*id;
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (uint32_t)(((h >> 32) * (MLTCP_TIEBREAK_ABI_MAX + 1)) >> 32);
}

#endif /* MLTCP_LIB_JOB_ID_H */
