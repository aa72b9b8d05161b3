/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the report writes its figures: numbers, settling, the name of a
 * point of the sweep and of each variant; shared by its tables and plots.
 */
#ifndef MLTCP_SIM_REPORT_FORMAT_H
#define MLTCP_SIM_REPORT_FORMAT_H

#include "report.h"

#include <string>

namespace ns3
{

/** The variants in the order the report gives them (0 stock, 1 MLTCP, 2 centralized). */
extern const char* const kVariantNames[3];

/** @return @v with @prec decimals, "-" for NaN, "inf" for infinity. */
std::string Fmt(double v, int prec = 2);

/** @return where @vm settled: "ITERATION (SECONDS s)", "never" or "-". */
std::string Settle(const VariantMetrics& vm);

/** @return the RTOs over @vm's sockets, "-" where it did not run or has no records. */
std::string Rtos(const VariantMetrics& vm);

/** @return the point's name: "N jobs" or "N jobs, X:1". */
std::string PointName(const PointResult& p);

} // namespace ns3

#endif /* MLTCP_SIM_REPORT_FORMAT_H */
