/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A scenario's network and where its jobs run: the topology at an
 * oversubscription, its switch ports' queues, the hosts of each job
 * (explicit places, then the placement policy), and a job's profile
 * scaled to the host links.
 */

#include "scenario.h"

#include "topology-dumbbell.h"
#include "topology-leaf-spine.h"
#include "topology-parking-lot.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace ns3
{

std::unique_ptr<Topology>
MakeTopology(const Scenario& sc, double oversubscription)
{
    double host = sc.hostRateMbps * 1e6;
    double core = sc.coreRateMbps * 1e6;
    std::unique_ptr<Topology> t;
    if (sc.topology == "dumbbell")
    {
        t = std::make_unique<DumbbellTopology>(sc.pairs,
                                               host,
                                               core,
                                               sc.hostDelayUs,
                                               sc.coreDelayUs);
    }
    else if (sc.topology == "parkinglot")
    {
        t = std::make_unique<ParkingLotTopology>(sc.switches,
                                                 sc.hostsPerSwitch,
                                                 host,
                                                 core,
                                                 sc.hostDelayUs,
                                                 sc.coreDelayUs);
    }
    else
    {
        t = std::make_unique<LeafSpineTopology>(sc.leaves,
                                                sc.hostsPerLeaf,
                                                sc.spines,
                                                host,
                                                oversubscription,
                                                sc.hostDelayUs,
                                                sc.coreDelayUs);
    }
    // the seed salts ECMP too: another seed, other paths for the same flows
    t->SetEcmpSalt(sc.seed - 1);
    return t;
}

QueueConfig
MakeQueues(const Scenario& sc, const Topology& topology)
{
    // BDP of the longest idle path between hosts of different groups, at the host rate
    double bdpPackets = sc.hostRateMbps * topology.MaxBaseRttUs() / 8 / kSimWireBytes;
    QueueConfig q;
    q.ecn = sc.ecn;
    q.hostAcksFirst = sc.hostAcksFirst;
    q.bufferPackets = sc.bufferPackets
                          ? sc.bufferPackets
                          : std::max<uint32_t>(2, uint32_t(std::lround(sc.bufferBdp * bdpPackets)));
    q.ecnThreshold =
        sc.ecnThresholdPackets
            ? sc.ecnThresholdPackets
            : std::max<uint32_t>(1, uint32_t(std::lround(sc.ecnThresholdBdp * bdpPackets)));
    return q;
}

bool
PlaceJobs(const Scenario& sc,
          const std::vector<JobInstance>& jobs,
          const Topology& topology,
          std::vector<std::vector<uint32_t>>* hosts,
          std::string* err)
{
    std::vector<bool> used(topology.NumHosts(), false);
    hosts->assign(jobs.size(), {});
    for (size_t j = 0; j < jobs.size(); j++)
    {
        for (const auto& gi : jobs[j].place)
        {
            std::vector<uint32_t> group = topology.GroupHosts(gi.first);
            if (gi.second >= group.size() || used[group[gi.second]])
            {
                *err = jobs[j].name + ": host " + std::to_string(gi.first) + "." +
                       std::to_string(gi.second) + " does not exist or is taken";
                return false;
            }
            used[group[gi.second]] = true;
            (*hosts)[j].push_back(group[gi.second]);
        }
    }
    // The order the policy hands out the hosts left.
    std::vector<uint32_t> order;
    if (sc.placement == "spread")
    {
        // one host of each group in turn: a job's workers land on different groups
        std::vector<std::vector<uint32_t>> groups;
        for (uint32_t g = 0; g < topology.NumGroups(); g++)
        {
            groups.push_back(topology.GroupHosts(g));
        }
        for (size_t i = 0; order.size() < topology.NumHosts(); i++)
        {
            for (const auto& g : groups)
            {
                if (i < g.size())
                {
                    order.push_back(g[i]);
                }
            }
        }
    }
    else
    {
        for (uint32_t h = 0; h < topology.NumHosts(); h++)
        {
            order.push_back(h);
        }
        if (sc.placement == "random")
        {
            // Fisher-Yates with a fixed generator: the same placement on every machine
            std::mt19937_64 rng(sc.seed);
            for (size_t i = order.size(); i > 1; i--)
            {
                std::swap(order[i - 1], order[rng() % i]);
            }
        }
    }
    size_t next = 0;
    for (size_t j = 0; j < jobs.size(); j++)
    {
        if (!jobs[j].place.empty())
        {
            continue;
        }
        while ((*hosts)[j].size() < jobs[j].hosts)
        {
            while (next < order.size() && used[order[next]])
            {
                next++;
            }
            if (next == order.size())
            {
                *err = "the jobs need more hosts than the topology's " +
                       std::to_string(topology.NumHosts());
                return false;
            }
            used[order[next]] = true;
            (*hosts)[j].push_back(order[next]);
        }
    }
    return true;
}

ScaledProfile
ScaleJob(const Scenario& sc, const JobInstance& job)
{
    return ScaleProfile(job.profile, sc.hostRateMbps * 1e6, sc.timeScale);
}

} // namespace ns3
