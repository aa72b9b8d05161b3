/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report over seeds: each point of the sweep run at several seeds
 * (placement, ECMP salt, start offsets), per variant the median and the
 * range over seeds of the cluster's mean, p99, worst job, drops and failed
 * jobs; the do-no-harm and turn-taking targets judged on those medians,
 * the do-no-harm figures beside the floor of stock against its twin; and
 * plots of both.
 */
#ifndef MLTCP_SIM_REPORT_SEEDS_H
#define MLTCP_SIM_REPORT_SEEDS_H

#include "report-plots.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * Write the section over seeds of @in (every seed's points) to @md and
 * print its tables; its plots go where @pc says.  @return the svgs' names.
 */
std::vector<std::string> WriteSeedSummary(const ReportInput& in,
                                          const PlotContext& pc,
                                          std::ostream& md);

} // namespace ns3

#endif /* MLTCP_SIM_REPORT_SEEDS_H */
