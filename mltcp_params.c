// SPDX-License-Identifier: GPL-2.0
/*
 * MLTCP shared core (mltcp.ko): the global parameters the hooks read
 * (struct mltcp_globals), their accessors for the control plane and their
 * sysfs form.  It depends on no other file of the module.
 *
 * Parameters (/sys/module/mltcp/parameters/):
 *   slope, intercept  decimals ("1", "0.5", "1.25"), stored Q10;
 *                     F = slope * bytes_ratio + intercept.
 *   idle_ms           floor of the idle threshold; the threshold is
 *                     max(idle_ms, 2 * srtt).
 *   mode              learned | given | off.
 *   decrease          also divide the multiplicative decrease by F (bool).
 *   stagger           largest head start a socket's tie-break gives
 *                     it, a decimal fraction of an iteration in [0, 1];
 *                     breaks the lockstep of identical jobs started
 *                     together (mltcp_head_start_q10()).
 *   overrun           the multiple of its size an iteration may carry
 *                     with F > 1, a decimal in [1, 8], or 0 for no bound
 *                     (trusted hosts only; include/mltcp_core.h, "Policy").
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include "mltcp.h"
#include "mltcp_param_table.h"
#include "uapi/linux/mltcp.h"

/*
 * The global parameters (struct mltcp_globals): read by the hooks with
 * READ_ONCE(), one field at a time; slope and intercept packed in one word,
 * one load on the ACK path.  F on the decrease too: what makes loss-based
 * algorithms interleave over a tail-drop FIFO (docs/DESIGN.md, "Rules and their evidence").
 */
struct mltcp_globals mltcp_globals = {
	.fparams	= MLTCP_SLOPE_DEFAULT | (MLTCP_INTERCEPT_DEFAULT << 16),
	.idle_ms	= MLTCP_IDLE_MS_DEFAULT,
	.stagger	= MLTCP_STAGGER_DEFAULT,
	.overrun	= MLTCP_OVERRUN_DEFAULT,
	.mode		= MLTCP_MODE_LEARNED,
	.decrease	= true,
};

/* Serialises writers of the parameters (sysfs and control plane). */
static DEFINE_MUTEX(mltcp_param_lock);

/* ---- global parameters ------------------------------------------------ */

u32 mltcp_get_slope(void)
{
	return mltcp_params_slope(READ_ONCE(mltcp_globals.fparams));
}
EXPORT_SYMBOL_GPL(mltcp_get_slope);

u32 mltcp_get_intercept(void)
{
	return mltcp_params_intercept(READ_ONCE(mltcp_globals.fparams));
}
EXPORT_SYMBOL_GPL(mltcp_get_intercept);

/**
 * mltcp_set_f_params() - set slope and intercept together
 * @slope_q10: slope, Q10, in [0, 8192]
 * @intercept_q10: intercept, Q10, in [1, 8192]
 *
 * Both are validated before either changes; readers see the old pair or
 * the new pair, never a mix.
 *
 * Return: 0 or -EINVAL.
 */
int mltcp_set_f_params(u32 slope_q10, u32 intercept_q10)
{
	if (!mltcp_slope_valid(slope_q10) || !mltcp_intercept_valid(intercept_q10))
		return -EINVAL;
	mutex_lock(&mltcp_param_lock);
	WRITE_ONCE(mltcp_globals.fparams, mltcp_params_pack(slope_q10, intercept_q10));
	mutex_unlock(&mltcp_param_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_f_params);

/**
 * mltcp_set_slope() - set the slope of F
 * @q10: slope, Q10, in [0, 8192]
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_slope(u32 q10)
{
	if (!mltcp_slope_valid(q10))
		return -EINVAL;
	mutex_lock(&mltcp_param_lock);
	WRITE_ONCE(mltcp_globals.fparams,
		   mltcp_params_pack(q10, mltcp_params_intercept(mltcp_globals.fparams)));
	mutex_unlock(&mltcp_param_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_slope);

/**
 * mltcp_set_intercept() - set the intercept of F
 * @q10: intercept, Q10, in [1, 8192]
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_intercept(u32 q10)
{
	if (!mltcp_intercept_valid(q10))
		return -EINVAL;
	mutex_lock(&mltcp_param_lock);
	WRITE_ONCE(mltcp_globals.fparams,
		   mltcp_params_pack(mltcp_params_slope(mltcp_globals.fparams), q10));
	mutex_unlock(&mltcp_param_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_intercept);

u32 mltcp_get_idle_ms(void)
{
	return READ_ONCE(mltcp_globals.idle_ms);
}
EXPORT_SYMBOL_GPL(mltcp_get_idle_ms);

/**
 * mltcp_set_idle_ms() - set the floor of the idle threshold
 * @ms: milliseconds, in [1, 60000]
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_idle_ms(u32 ms)
{
	if (!mltcp_idle_ms_valid(ms))
		return -EINVAL;
	WRITE_ONCE(mltcp_globals.idle_ms, ms);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_idle_ms);

int mltcp_get_mode(void)
{
	return READ_ONCE(mltcp_globals.mode);
}
EXPORT_SYMBOL_GPL(mltcp_get_mode);

/**
 * mltcp_set_mode() - set the global mode
 * @mode: enum mltcp_mode
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_mode(int mode)
{
	if (mode != MLTCP_MODE_LEARNED && mode != MLTCP_MODE_GIVEN &&
	    mode != MLTCP_MODE_OFF)
		return -EINVAL;
	WRITE_ONCE(mltcp_globals.mode, mode);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_mode);

u32 mltcp_get_stagger(void)
{
	return READ_ONCE(mltcp_globals.stagger);
}
EXPORT_SYMBOL_GPL(mltcp_get_stagger);

/**
 * mltcp_set_stagger() - set the largest tie-break head start
 * @q10: fraction of an iteration, Q10, in [0, 1024]; 0 = no tie-break
 *
 * Applies to existing sockets at their next ACK.
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_stagger(u32 q10)
{
	if (!mltcp_stagger_valid(q10))
		return -EINVAL;
	WRITE_ONCE(mltcp_globals.stagger, q10);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_stagger);

u32 mltcp_get_overrun(void)
{
	return READ_ONCE(mltcp_globals.overrun);
}
EXPORT_SYMBOL_GPL(mltcp_get_overrun);

/**
 * mltcp_set_overrun() - set the bound on the bytes of an iteration F applies to
 * @q10: multiple of the iteration's size, Q10, in [1024, 8192]; 0 lifts the
 *	bound (hosts whose applications are trusted)
 *
 * Applies to existing sockets at their next ACK.
 *
 * Return: 0 or -EINVAL (the old value is kept).
 */
int mltcp_set_overrun(u32 q10)
{
	if (!mltcp_overrun_valid(q10))
		return -EINVAL;
	WRITE_ONCE(mltcp_globals.overrun, q10);
	return 0;
}
EXPORT_SYMBOL_GPL(mltcp_set_overrun);

bool mltcp_get_decrease(void)
{
	return READ_ONCE(mltcp_globals.decrease);
}
EXPORT_SYMBOL_GPL(mltcp_get_decrease);

void mltcp_set_decrease(bool on)
{
	WRITE_ONCE(mltcp_globals.decrease, on);
}
EXPORT_SYMBOL_GPL(mltcp_set_decrease);

/* The table's form of the accessors whose type is not u32. */
static u32 mltcp_param_get_mode(void)
{
	return (u32)mltcp_get_mode();
}

static int mltcp_param_set_mode(u32 mode)
{
	return mltcp_set_mode((int)mode);
}

static u32 mltcp_param_get_decrease(void)
{
	return mltcp_get_decrease();
}

static int mltcp_param_set_decrease(u32 on)
{
	mltcp_set_decrease(on);
	return 0;
}

const struct mltcp_param mltcp_param_table[MLTCP_P_NUM] = {
	[MLTCP_P_SLOPE] = {
		"slope", 0, MLTCP_SLOPE_MAX, false, MLTCP_PT_Q10, false, MLTCP_A_SLOPE,
		"slope out of range", mltcp_get_slope, mltcp_set_slope,
	},
	[MLTCP_P_INTERCEPT] = {
		"intercept", MLTCP_INTERCEPT_MIN, MLTCP_INTERCEPT_MAX, false, MLTCP_PT_Q10,
		false, MLTCP_A_INTERCEPT, "intercept out of range",
		mltcp_get_intercept, mltcp_set_intercept,
	},
	[MLTCP_P_IDLE_MS] = {
		"idle_ms", MLTCP_IDLE_MS_MIN, MLTCP_IDLE_MS_MAX, false, MLTCP_PT_UINT, false,
		MLTCP_A_IDLE_MS, "idle_ms out of range", mltcp_get_idle_ms, mltcp_set_idle_ms,
	},
	[MLTCP_P_MODE] = {
		"mode", MLTCP_MODE_LEARNED, MLTCP_MODE_OFF, false, MLTCP_PT_MODE, true,
		MLTCP_A_MODE, "mode out of range", mltcp_param_get_mode, mltcp_param_set_mode,
	},
	[MLTCP_P_STAGGER] = {
		"stagger", 0, MLTCP_STAGGER_MAX, false, MLTCP_PT_Q10, false, MLTCP_A_STAGGER,
		"stagger out of range", mltcp_get_stagger, mltcp_set_stagger,
	},
	[MLTCP_P_OVERRUN] = {
		"overrun", MLTCP_Q10_ONE, MLTCP_OVERRUN_MAX, true, MLTCP_PT_Q10, false,
		MLTCP_A_OVERRUN, "overrun is 0 or from 1 to 8",
		mltcp_get_overrun, mltcp_set_overrun,
	},
	[MLTCP_P_DECREASE] = {
		"decrease", 0, 1, false, MLTCP_PT_BOOL, true, MLTCP_A_DECREASE,
		"decrease is 0 or 1", mltcp_param_get_decrease, mltcp_param_set_decrease,
	},
};

/*
 * A write to /sys/module/mltcp/parameters changes every socket on the host,
 * as MLTCP_CMD_SET_PARAMS does: it needs the same capability, CAP_NET_ADMIN
 * in the initial user namespace (GENL_ADMIN_PERM), not only the file's mode.
 * Values given at load time come from a caller that may load modules.
 */
static int mltcp_param_may_set(void)
{
	return capable(CAP_NET_ADMIN) ? 0 : -EPERM;
}

/* A parameter file: text in, by the parameter's form; validated by the table. */
static int mltcp_param_set(const char *val, const struct kernel_param *kp)
{
	const struct mltcp_param *p = kp->arg;
	bool on;
	u32 v;
	int m;

	if (mltcp_param_may_set())
		return -EPERM;
	switch (p->text) {
	case MLTCP_PT_Q10:
		if (mltcp_parse_q10(val, &v))
			return -EINVAL;
		break;
	case MLTCP_PT_UINT:
		if (kstrtou32(val, 10, &v))
			return -EINVAL;
		break;
	case MLTCP_PT_MODE:
		m = mltcp_parse_mode(val);
		if (m < 0)
			return -EINVAL;
		v = (u32)m;
		break;
	default:
		if (kstrtobool(val, &on))
			return -EINVAL;
		v = on;
		break;
	}
	if (!mltcp_param_valid(p, v))
		return -EINVAL;
	return p->set(v);
}

static int mltcp_param_get(char *buf, const struct kernel_param *kp)
{
	const struct mltcp_param *p = kp->arg;
	u32 v = p->get();
	int n;

	switch (p->text) {
	case MLTCP_PT_Q10:
		n = mltcp_format_q10(v, buf);
		buf[n++] = '\n';
		buf[n] = '\0';
		return n;
	case MLTCP_PT_UINT:
		return scnprintf(buf, PAGE_SIZE, "%u\n", v);
	case MLTCP_PT_MODE:
		return scnprintf(buf, PAGE_SIZE, "%s\n", mltcp_mode_name((int)v));
	default:
		return scnprintf(buf, PAGE_SIZE, "%c\n", v ? 'Y' : 'N');
	}
}

static const struct kernel_param_ops mltcp_param_ops = {
	.set = mltcp_param_set,
	.get = mltcp_param_get,
};

/* kernel_param's arg is not const; the ops never write through it */
#define MLTCP_PARAM_ARG(id)	((void *)&mltcp_param_table[id])

module_param_cb(slope, &mltcp_param_ops, MLTCP_PARAM_ARG(MLTCP_P_SLOPE), 0644);
MODULE_PARM_DESC(slope,
		 "Slope of F = slope * bytes_ratio + intercept, decimal in [0, 8] (default 1)");
module_param_cb(intercept, &mltcp_param_ops, MLTCP_PARAM_ARG(MLTCP_P_INTERCEPT), 0644);
MODULE_PARM_DESC(intercept,
		 "Intercept of F, decimal in (0, 8] (default 1; slope 0, intercept 1: base algorithm)");
module_param_cb(idle_ms, &mltcp_param_ops, MLTCP_PARAM_ARG(MLTCP_P_IDLE_MS), 0644);
MODULE_PARM_DESC(idle_ms,
		 "Idle gap ending a learned iteration: max(idle_ms, 2*srtt); [1, 60000] (default 10)");
module_param_cb(decrease, &mltcp_param_ops, MLTCP_PARAM_ARG(MLTCP_P_DECREASE), 0644);
MODULE_PARM_DESC(decrease,
		 "Also divide the multiplicative decrease by F (default Y; N: F scales the increase only)");
module_param_cb(stagger, &mltcp_param_ops, MLTCP_PARAM_ARG(MLTCP_P_STAGGER), 0644);
MODULE_PARM_DESC(stagger,
		 "Largest head start breaking the lockstep of identical jobs, fraction of an iteration in [0, 1] (default 0.5; 0: off)");
module_param_cb(overrun, &mltcp_param_ops, MLTCP_PARAM_ARG(MLTCP_P_OVERRUN), 0644);
MODULE_PARM_DESC(overrun,
		 "F applies to at most this multiple of an iteration's size, decimal in [1, 8] (default 1.25; 0: no bound, trusted hosts only)");
module_param_cb(mode, &mltcp_param_ops, MLTCP_PARAM_ARG(MLTCP_P_MODE), 0644);
MODULE_PARM_DESC(mode,
		 "learned (default): learn unless hinted; given: only hinted sockets; off: F = 1");
