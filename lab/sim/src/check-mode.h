/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp-sim --check: the scenario's [case]s, each under the stock
 * algorithm, MLTCP and its jobs alone, and whether each case's expectation
 * (converge or guard) holds.
 */
#ifndef MLTCP_SIM_CHECK_MODE_H
#define MLTCP_SIM_CHECK_MODE_H

#include "scenario.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * Run (unless @reportOnly) and check @sc's cases, read from @conf with
 * @sets; records under @outDir/runs, @parallel simulations at a time, the
 * time taken counted from @t0.  @return the exit code: 0 passed, 1 failed,
 * 2 the cases cannot run.
 */
int RunCheck(const Scenario& sc,
             const std::string& conf,
             const std::vector<std::string>& sets,
             const std::string& outDir,
             uint32_t parallel,
             bool reportOnly,
             std::chrono::steady_clock::time_point t0);

} // namespace ns3

#endif /* MLTCP_SIM_CHECK_MODE_H */
