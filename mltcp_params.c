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

/*
 * The global parameters (struct mltcp_globals): read by the hooks with
 * READ_ONCE(), one field at a time; slope and intercept packed in one word,
 * one load on the ACK path.  F on the decrease too: what makes loss-based
 * algorithms interleave over a tail-drop FIFO (docs/DESIGN.md, "The rules").
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

/*
 * The decimal parameters (slope, intercept, stagger, overrun): text in and
 * out as Q10 decimals, through the accessors above, which validate.
 */
struct mltcp_q10_param {
	u32 (*get)(void);
	int (*set)(u32 q10);
};

static int mltcp_param_set_q10(const char *val, const struct kernel_param *kp)
{
	const struct mltcp_q10_param *p = kp->arg;
	u32 q;

	if (mltcp_param_may_set())
		return -EPERM;
	if (mltcp_parse_q10(val, &q))
		return -EINVAL;
	return p->set(q);
}

static int mltcp_param_get_q10(char *buf, const struct kernel_param *kp)
{
	const struct mltcp_q10_param *p = kp->arg;
	int n = mltcp_format_q10(p->get(), buf);

	buf[n++] = '\n';
	buf[n] = '\0';
	return n;
}

static const struct kernel_param_ops mltcp_q10_ops = {
	.set = mltcp_param_set_q10,
	.get = mltcp_param_get_q10,
};

static struct mltcp_q10_param mltcp_slope_param = { mltcp_get_slope, mltcp_set_slope };
static struct mltcp_q10_param mltcp_intercept_param = { mltcp_get_intercept, mltcp_set_intercept };
static struct mltcp_q10_param mltcp_stagger_param = { mltcp_get_stagger, mltcp_set_stagger };
static struct mltcp_q10_param mltcp_overrun_param = { mltcp_get_overrun, mltcp_set_overrun };

static int mltcp_param_set_idle_ms(const char *val,
				   const struct kernel_param *kp)
{
	u32 ms;

	if (mltcp_param_may_set())
		return -EPERM;
	if (kstrtou32(val, 10, &ms))
		return -EINVAL;
	return mltcp_set_idle_ms(ms);
}

static int mltcp_param_get_idle_ms(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%u\n", mltcp_get_idle_ms());
}

static int mltcp_param_set_mode(const char *val, const struct kernel_param *kp)
{
	int mode = mltcp_parse_mode(val);

	if (mltcp_param_may_set())
		return -EPERM;
	if (mode < 0)
		return -EINVAL;
	return mltcp_set_mode(mode);
}

static int mltcp_param_get_mode(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n", mltcp_mode_name(mltcp_get_mode()));
}

static int mltcp_param_set_decrease(const char *val, const struct kernel_param *kp)
{
	bool on;

	if (mltcp_param_may_set())
		return -EPERM;
	if (kstrtobool(val, &on))
		return -EINVAL;
	mltcp_set_decrease(on);
	return 0;
}

static int mltcp_param_get_decrease(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%c\n", mltcp_get_decrease() ? 'Y' : 'N');
}

static const struct kernel_param_ops mltcp_decrease_ops = {
	.set = mltcp_param_set_decrease,
	.get = mltcp_param_get_decrease,
};

static const struct kernel_param_ops mltcp_idle_ms_ops = {
	.set = mltcp_param_set_idle_ms,
	.get = mltcp_param_get_idle_ms,
};

static const struct kernel_param_ops mltcp_mode_ops = {
	.set = mltcp_param_set_mode,
	.get = mltcp_param_get_mode,
};

module_param_cb(slope, &mltcp_q10_ops, &mltcp_slope_param, 0644);
MODULE_PARM_DESC(slope,
		 "Slope of F = slope * bytes_ratio + intercept, decimal in [0, 8] (default 1)");
module_param_cb(intercept, &mltcp_q10_ops, &mltcp_intercept_param, 0644);
MODULE_PARM_DESC(intercept,
		 "Intercept of F, decimal in (0, 8] (default 1; slope 0, intercept 1: base algorithm)");
module_param_cb(idle_ms, &mltcp_idle_ms_ops, NULL, 0644);
MODULE_PARM_DESC(idle_ms,
		 "Idle gap ending a learned iteration: max(idle_ms, 2*srtt); [1, 60000] (default 10)");
module_param_cb(decrease, &mltcp_decrease_ops, NULL, 0644);
MODULE_PARM_DESC(decrease,
		 "Also divide the multiplicative decrease by F (default Y; N: F scales the increase only)");
module_param_cb(stagger, &mltcp_q10_ops, &mltcp_stagger_param, 0644);
MODULE_PARM_DESC(stagger,
		 "Largest head start breaking the lockstep of identical jobs, fraction of an iteration in [0, 1] (default 0.5; 0: off)");
module_param_cb(overrun, &mltcp_q10_ops, &mltcp_overrun_param, 0644);
MODULE_PARM_DESC(overrun,
		 "F applies to at most this multiple of an iteration's size, decimal in [1, 8] (default 1.25; 0: no bound, trusted hosts only)");
module_param_cb(mode, &mltcp_mode_ops, NULL, 0644);
MODULE_PARM_DESC(mode,
		 "learned (default): learn unless hinted; given: only hinted sockets; off: F = 1");
