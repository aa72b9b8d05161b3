/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A scenario file's [job] sections into jobs: each section's keys checked,
 * its profile looked up or made from compute_ms / comm_ms, its hosts and
 * places checked, and its copies ("count") expanded.
 */
#ifndef MLTCP_SIM_SCENARIO_JOBS_H
#define MLTCP_SIM_SCENARIO_JOBS_H

#include "scenario.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/** A [job] section before it becomes JobInstances. */
struct JobSection
{
    std::string name;
    std::map<std::string, std::string> keys;
    int line;
};

/**
 * Append the jobs of @sections to @out, copies of the sections in turn.
 * @return false with @err set on a bad or unknown key.
 */
bool MakeJobs(const std::vector<JobSection>& sections,
              std::vector<JobInstance>* out,
              std::string* err);

} // namespace ns3

#endif /* MLTCP_SIM_SCENARIO_JOBS_H */
