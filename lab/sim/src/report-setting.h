/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's lines about the setting of the runs: the machine they ran
 * on, and how the switch ports queue.
 */
#ifndef MLTCP_SIM_REPORT_SETTING_H
#define MLTCP_SIM_REPORT_SETTING_H

#include "scenario.h"

#include <string>

namespace ns3
{

/** @return the machine this runs on: CPU, CPUs, system, ns-3, and its load now. */
std::string MachineText();

/** @return how @topo's switch ports queue as @sc sizes them, for the report. */
std::string QueueText(const Scenario& sc, const Topology& topo);

} // namespace ns3

#endif /* MLTCP_SIM_REPORT_SETTING_H */
