/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A few simulated seconds of scenarios/vgg16-pair.conf, for the
 * tests that read what a run's sockets did: two VGG16 rings of two hosts,
 * each from leaf 0 to leaf 1 and back, so each job sends on two
 * connections, one each way:
 *
 *   h0 (a) --+                      +-- h2 (a)
 *            leaf 0 == spine == leaf 1
 *   h1 (b) --+        2:1           +-- h3 (b)
 */
#ifndef MLTCP_SIM_TEST_VGG16_PAIR_RUN_H
#define MLTCP_SIM_TEST_VGG16_PAIR_RUN_H

#include <string>
#include <vector>

#include "scenario.h"

namespace mltcp_test
{

/**
 * Run the pair for @seconds (simulated) under MLTCP (@mltcp) or its base,
 * the scenario's keys overridden by @sets; @return false, with @err set,
 * when the scenario does not load.
 */
inline bool
RunVgg16Pair(const std::vector<std::string>& sets,
             const std::string& label,
             ns3::RunResult* r,
             std::string* err,
             double seconds = 1,
             bool mltcp = true)
{
    std::string here = __FILE__;
    std::string conf = here.substr(0, here.rfind('/')) + "/../scenarios/vgg16-pair.conf";
    ns3::Scenario sc;

    if (!ns3::LoadScenario(conf, sets, &sc, err))
    {
        return false;
    }
    ns3::RunSpec spec;
    spec.label = label;
    spec.caseIndex = 0;
    spec.jobs = {0, 1};
    spec.offsetsMs = {0, 0};
    spec.oversubscription = sc.oversubscription;
    spec.cc = mltcp ? sc.MltcpAlgo() : sc.cc;
    spec.durationS = seconds;
    *r = ns3::RunSimulation(sc, spec);
    return true;
}

} // namespace mltcp_test

#endif /* MLTCP_SIM_TEST_VGG16_PAIR_RUN_H */
