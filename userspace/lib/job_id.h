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
/* the core's SipHash; its per-socket helper's name is libmltcp's */
#define mltcp_set_tiebreak mltcp_core_set_tiebreak
#include "mltcp_core.h"
#undef mltcp_set_tiebreak

/* The longest identity, with its terminating NUL (mltcp_job_identity()'s @len). */
#define MLTCP_JOB_ID_MAX	256

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

/*
 * The key of the job's hash: public and fixed, since every rank must draw
 * the same value with nothing shared but the identity.  It is the bytes
 * "mltcp-job-tiebrk" as two little-endian words.
 */
static const struct mltcp_tiebreak_key mltcp_job_id_key = {
	.k0 = 0x6f6a2d7063746c6dULL,	/* "mltcp-jo" */
	.k1 = 0x6b72626569742d62ULL,	/* "b-tiebrk" */
};

/**
 * mltcp_job_id_tiebreak() - the tie-break of a job's identity
 * @id: mltcp_job_identity()
 *
 * The core's SipHash-2-4 (mltcp_siphash24()) of the identity under a
 * public key, mapped as a drawn tie-break is (mltcp_tiebreak_from_word()):
 * jobs' values are as good as independent draws, and a job's are equal on
 * every rank.  Not secret, and need not be: a socket may ask for any
 * tie-break up to MLTCP_TIEBREAK_ABI_MAX.
 *
 * Return: a tie-break, Q10, in [0, MLTCP_TIEBREAK_ABI_MAX].
 */
static inline uint32_t mltcp_job_id_tiebreak(const char *id)
{
	uint64_t m[MLTCP_JOB_ID_MAX / 8] = { 0 }, tail = 0;
	size_t len = strnlen(id, MLTCP_JOB_ID_MAX - 1), i;

	/* the message as little-endian words: whole blocks in @m, the rest in @tail */
	for (i = 0; i < len; i++) {
		uint64_t byte = (unsigned char)id[i];

		if (i < len - len % 8)
			m[i / 8] |= byte << (8 * (i % 8));
		else
			tail |= byte << (8 * (i % 8));
	}
	return mltcp_tiebreak_from_word((uint32_t)(mltcp_siphash24(&mltcp_job_id_key, m,
								   (u32)(len / 8), tail,
								   (u32)len) >> 32));
}

#endif /* MLTCP_LIB_JOB_ID_H */
