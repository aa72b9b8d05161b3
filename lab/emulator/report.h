/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-bench report: the summaries of result directories written before. */
#ifndef MLTCP_BENCH_REPORT_H
#define MLTCP_BENCH_REPORT_H

/* `mltcp-bench report [options] DIR...`, argv[0] being "report". Returns the exit code. */
int report_main(int argc, char **argv);

#endif
