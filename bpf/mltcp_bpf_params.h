/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP BPF backend: the global parameters the hooks use, from the "params"
 * map entry (bpf/mltcp_bpf.h).  Shared by the BPF side, which runs on them,
 * and mltcpctl, which shows them: `mltcpctl show` tells what is in effect,
 * not what a hostile write left in the map.  Include after mltcp_core.h and
 * mltcp_bpf.h.
 */
#ifndef _MLTCP_BPF_PARAMS_H
#define _MLTCP_BPF_PARAMS_H

/* HZ when the loader did not give one (the module's default on Debian) */
#define MLTCP_BPF_HZ_DEFAULT	250U

/**
 * mltcp_bpf_params_effective() - the parameters a map entry gives the hooks
 * @m: the "params" entry, NULL if there is none
 * @g: output, the parameters the core's math runs on
 *
 * The BPF side trusts no map value (root can write the map through the bpf
 * system call): an entry no loader set (hz 0) gives the module's defaults;
 * slope, intercept, idle_ms and stagger are clamped into their ranges; an
 * unknown mode is the safe one, the base algorithm; an invalid overrun bound
 * is the strict default.
 *
 * Return: the kernel's HZ as the loader gave it, or MLTCP_BPF_HZ_DEFAULT.
 */
static __always_inline __u32 mltcp_bpf_params_effective(const struct mltcp_bpf_params *m,
							struct mltcp_globals *g)
{
	__u32 slope, icpt;

	if (!m || !m->hz) {
		g->fparams = mltcp_params_pack(MLTCP_SLOPE_DEFAULT, MLTCP_INTERCEPT_DEFAULT);
		g->idle_ms = MLTCP_IDLE_MS_DEFAULT;
		g->mode = MLTCP_MODE_LEARNED;
		g->stagger = MLTCP_STAGGER_DEFAULT;
		g->overrun = MLTCP_OVERRUN_DEFAULT;
		g->decrease = true;
		return MLTCP_BPF_HZ_DEFAULT;
	}
	slope = mltcp_params_slope(m->fparams);
	icpt = mltcp_params_intercept(m->fparams);
	slope = slope < MLTCP_SLOPE_MAX ? slope : MLTCP_SLOPE_MAX;
	icpt = icpt < MLTCP_INTERCEPT_MIN ? MLTCP_INTERCEPT_MIN :
	       icpt > MLTCP_INTERCEPT_MAX ? MLTCP_INTERCEPT_MAX : icpt;
	g->fparams = mltcp_params_pack(slope, icpt);
	g->idle_ms = m->idle_ms < MLTCP_IDLE_MS_MIN ? MLTCP_IDLE_MS_MIN :
		     m->idle_ms > MLTCP_IDLE_MS_MAX ? MLTCP_IDLE_MS_MAX : m->idle_ms;
	g->mode = m->mode <= MLTCP_MODE_OFF ? (int)m->mode : MLTCP_MODE_OFF;
	g->stagger = m->stagger < MLTCP_STAGGER_MAX ? m->stagger : MLTCP_STAGGER_MAX;
	g->overrun = mltcp_overrun_valid(m->overrun) ? m->overrun : MLTCP_OVERRUN_DEFAULT;
	g->decrease = m->decrease != 0;
	return m->hz >= 100 && m->hz <= 1000 ? m->hz : MLTCP_BPF_HZ_DEFAULT;
}

#endif /* _MLTCP_BPF_PARAMS_H */
