// SPDX-License-Identifier: GPL-2.0
/*
 * The centralized schedule (CentralSchedule, src/schedule.h) on small
 * networks, no simulation:
 *  - two identical jobs behind one bottleneck overlap when released
 *    together and not at the shifts it solves, which put them about half
 *    an iteration apart, and it predicts each at its gate period;
 *  - two host-capped rings on a 1:1 leaf-spine uplink that carries both at
 *    their host rate do not overlap even released together (a flow counts
 *    at the rate it gets, not at the uplink's); at 2:1 they do, and the
 *    shifts take that away.
 */
#include <cmath>
#include <string>
#include <vector>

#include "scenario.h"
#include "schedule.h"
#include "tap.h"

using namespace ns3;
using namespace mltcp_test;

namespace
{

JobInstance
Job(const std::string& name, CommPattern pattern, double computeMs, double commMs)
{
    JobInstance j;
    j.name = name;
    j.profile.name = name;
    j.profile.pattern = pattern;
    j.profile.hosts = 2;
    j.profile.segments = {{computeMs, commMs}};
    j.hosts = 2;
    return j;
}

struct Setup
{
    Scenario sc;
    std::unique_ptr<Topology> topo;
    std::vector<JobInstance> jobs;
    std::vector<std::vector<uint32_t>> hosts;
};

bool
Place(Setup& s, double oversub)
{
    s.topo = MakeTopology(s.sc, oversub);
    std::string err;
    return PlaceJobs(s.sc, s.jobs, *s.topo, &s.hosts, &err);
}

} // namespace

int
main()
{
    Tap tap;
    {
        Setup s;
        s.sc.topology = "dumbbell";
        s.sc.placement = "spread";
        s.jobs = {Job("a", CommPattern::PUSH, 150, 100), Job("b", CommPattern::PUSH, 150, 100)};
        tap.Check(Place(s, 0), "dumbbell: two push jobs placed");
        CentralSchedule cs(s.sc, *s.topo, s.jobs, s.hosts, {0, 1}, {250, 250}, 10000);
        tap.Check(cs.AlignedExcessMs() > 1000,
                  "dumbbell: released together the pair overlaps (excess " +
                      std::to_string(cs.AlignedExcessMs()) + " ms)");
        tap.Check(cs.ExcessMs() < 1, "dumbbell: at the shifts nothing overlaps");
        double gate = cs.GatesMs()[0];
        tap.Check(std::fabs(gate - 252.5) < 1e-9, "dumbbell: the gate is the ideal + 1%");
        double d = std::fmod(std::fabs(cs.ShiftsMs()[1] - cs.ShiftsMs()[0]), gate);
        d = std::min(d, gate - d);
        tap.Check(d >= 110 && d <= 140,
                  "dumbbell: the shifts about half an iteration apart (" + std::to_string(d) +
                      " ms)");
        tap.Check(std::fabs(cs.PredictedMs()[0] - gate) < 1.5 &&
                      std::fabs(cs.PredictedMs()[1] - gate) < 1.5,
                  "dumbbell: each predicted at its gate period");
    }
    for (double oversub : {1.0, 2.0})
    {
        Setup s;
        s.sc.leaves = 2;
        s.sc.hostsPerLeaf = 2;
        s.sc.spines = 1;
        s.sc.hostRateMbps = 25;
        s.jobs = {Job("a", CommPattern::RING, 141, 114), Job("b", CommPattern::RING, 141, 114)};
        s.jobs[0].place = {{0, 0}, {1, 0}};
        s.jobs[1].place = {{0, 1}, {1, 1}};
        std::string at = "leaf-spine " + std::to_string(int(oversub)) + ":1: ";
        tap.Check(Place(s, oversub), at + "two rings placed across the uplink");
        CentralSchedule cs(s.sc, *s.topo, s.jobs, s.hosts, {0, 1}, {255, 255}, 10000);
        if (oversub == 1)
        {
            tap.Check(cs.AlignedExcessMs() < 1,
                      at + "host-capped flows fit the uplink together (excess " +
                          std::to_string(cs.AlignedExcessMs()) + " ms)");
        }
        else
        {
            tap.Check(cs.AlignedExcessMs() > 1000, at + "released together they overlap");
            tap.Check(cs.ExcessMs() < 1, at + "at the shifts they do not");
        }
    }
    return tap.Finish();
}
