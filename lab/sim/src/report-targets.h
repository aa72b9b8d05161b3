/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The targets the report checks at every point of the sweep, and whether
 * each is met, not met or does not apply.
 */
#ifndef MLTCP_SIM_REPORT_TARGETS_H
#define MLTCP_SIM_REPORT_TARGETS_H

#include "report-metrics.h"

#include <string>
#include <vector>

namespace ns3
{

struct Target
{
    std::string what;
    bool applicable = false;
    bool met = false;
    std::string detail;
};

/** @return the targets at point @p with figures @m, in the report's order. */
std::vector<Target> Targets(const PointResult& p, const PointMetrics& m);

/** @return "met", "NOT met" or "n/a". */
std::string Verdict(const Target& t);

} // namespace ns3

#endif /* MLTCP_SIM_REPORT_TARGETS_H */
