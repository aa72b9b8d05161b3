/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulations of mltcp-sim as processes of their own (ns-3 runs once
 * per process): each is this program re-executed with --run-one, a given
 * number at a time, the longest first.
 */
#ifndef MLTCP_SIM_RUN_POOL_H
#define MLTCP_SIM_RUN_POOL_H

#include "scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** A simulation to run and where its record goes. */
struct Task
{
    RunSpec spec;
    std::string out;
    double cost;
};

/**
 * Add @spec of @sc to @tasks, its record under @outDir/runs.
 * @return its index in @tasks.
 */
int AddTask(std::vector<Task>& tasks,
            const Scenario& sc,
            const std::string& outDir,
            const RunSpec& spec);

/** Run @tasks, @parallel at a time, each as `self --run-one`. @return false when one failed. */
bool RunAll(std::vector<Task>& tasks,
            uint32_t parallel,
            const std::string& conf,
            const std::vector<std::string>& sets);

} // namespace ns3

#endif /* MLTCP_SIM_RUN_POOL_H */
