/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Planning mltcp-sim's runs: which jobs can run "alone" together, the
 * random start offsets, and the runs planned for a set of jobs.
 */
#ifndef MLTCP_SIM_RUN_PLAN_H
#define MLTCP_SIM_RUN_PLAN_H

#include "report.h"
#include "scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** The runs of one set of jobs: stock, MLTCP and, where it schedules, centralized. */
struct PointPlan
{
    PointResult result;
    std::string tag; //!< its runs' labels start with it
    int stock = -1;
    int mltcp = -1;
    int central = -1;
};

/** Groups of jobs whose connections share no link: a group runs "alone" in one simulation. */
std::vector<std::vector<uint32_t>> AloneGroups(const Topology& topo,
                                               const std::vector<JobInstance>& jobs,
                                               const std::vector<std::vector<uint32_t>>& hosts,
                                               const std::vector<uint32_t>& which);

/**
 * @return each job's start offset: random within its period with start =
 * random, else random within start_jitter_ms (0 without).
 */
std::vector<double> RandomOffsets(const Scenario& sc, const std::vector<double>& periodMs);

} // namespace ns3

#endif /* MLTCP_SIM_RUN_PLAN_H */
