/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The global parameters as one table (mltcp.ko): their names, limits, text
 * form and netlink attribute, so that the module parameter files
 * (mltcp_params.c) and MLTCP_CMD_SET_PARAMS (mltcp_netlink.c) validate and
 * set every parameter the same way.  The limits are include/mltcp_types.h's.
 */
#ifndef _MLTCP_PARAM_TABLE_H
#define _MLTCP_PARAM_TABLE_H

#include <linux/types.h>

/* Index of a parameter in mltcp_param_table, in the order netlink applies them. */
enum mltcp_param_id {
	MLTCP_P_SLOPE,
	MLTCP_P_INTERCEPT,
	MLTCP_P_IDLE_MS,
	MLTCP_P_MODE,
	MLTCP_P_STAGGER,
	MLTCP_P_OVERRUN,
	MLTCP_P_DECREASE,
	MLTCP_P_NUM,
};

/* The text form of a parameter in its sysfs file. */
enum mltcp_param_text {
	MLTCP_PT_Q10,	/* a decimal, stored Q10 */
	MLTCP_PT_UINT,	/* an unsigned integer */
	MLTCP_PT_MODE,	/* learned | given | off */
	MLTCP_PT_BOOL,	/* Y/N, 1/0, on/off */
};

/**
 * struct mltcp_param - one global parameter
 * @name: its name (the sysfs file, mltcpctl's word)
 * @min: smallest valid value
 * @max: largest valid value
 * @zero_off: 0 is valid too, outside [@min, @max]: the feature off
 * @text: enum mltcp_param_text
 * @nl_u8: the netlink attribute is a u8 (else a u32)
 * @nl_attr: its netlink attribute, MLTCP_A_*
 * @nl_err: the extack message for a value out of range
 * @get: read the value in force
 * @set: set a valid value; the core's setter, which checks again
 */
struct mltcp_param {
	const char *name;
	u32 min;
	u32 max;
	bool zero_off;
	u8 text;
	bool nl_u8;
	u16 nl_attr;
	const char *nl_err;
	u32 (*get)(void);
	int (*set)(u32 v);
};

extern const struct mltcp_param mltcp_param_table[MLTCP_P_NUM];

static inline bool mltcp_param_valid(const struct mltcp_param *p, u32 v)
{
	return (v >= p->min && v <= p->max) || (p->zero_off && !v);
}

#endif /* _MLTCP_PARAM_TABLE_H */
