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

/** The runs of one set of jobs: stock, MLTCP, stock's twin and, where it schedules, centralized. */
struct PointPlan
{
    PointResult result;
    std::string tag; //!< its runs' labels start with it
    int stock = -1;
    int mltcp = -1;
    int twin = -1; //!< over seeds only (TwinOffsets())
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

/*
 * The twin's nudge: job i starts (i + 1) x 10 us later than in stock's run,
 * a fiftieth of a full-size packet's time on a 25 Mbit/s host link: no
 * operator, scheduler or congestion control could choose between the two.
 */
constexpr double kTwinNudgeMs = 0.010;

/**
 * @return the start offsets of stock's twin: @offsetsMs, job i's moved
 * (i + 1) x kTwinNudgeMs later.  The twin runs the stock algorithm again:
 * what its figures move by against stock's is what a run's figures move by
 * for nothing, the floor under which MLTCP against stock says nothing.
 */
std::vector<double> TwinOffsets(const std::vector<double>& offsetsMs);

} // namespace ns3

#endif /* MLTCP_SIM_RUN_PLAN_H */
