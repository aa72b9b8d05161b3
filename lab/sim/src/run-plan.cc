/* SPDX-License-Identifier: GPL-2.0 */
/* Planning mltcp-sim's runs: alone groups and start offsets (run-plan.h). */

#include "run-plan.h"

#include "training-job.h"

#include <algorithm>
#include <random>
#include <set>

namespace ns3
{

/** @return the links a job's connections use, both ways (data and ACKs). */
static std::set<uint32_t>
JobLinks(const Topology& topo,
         const JobInstance& job,
         uint32_t j,
         const std::vector<uint32_t>& hosts)
{
    std::set<uint32_t> links;
    std::vector<JobChannel> channels = JobChannels(job.profile.pattern, hosts.size());
    for (uint32_t c = 0; c < channels.size(); c++)
    {
        uint32_t a = hosts[channels[c].from];
        uint32_t b = hosts[channels[c].to];
        for (uint32_t l : topo.Path({a, b, JobChannelPort(j, c), JobListenPort(j)}))
        {
            links.insert(l);
        }
        for (uint32_t l : topo.Path({b, a, JobListenPort(j), JobChannelPort(j, c)}))
        {
            links.insert(l);
        }
    }
    return links;
}

/** Groups of jobs whose connections share no link: a group runs "alone" in one simulation. */
std::vector<std::vector<uint32_t>>
AloneGroups(const Topology& topo,
            const std::vector<JobInstance>& jobs,
            const std::vector<std::vector<uint32_t>>& hosts,
            const std::vector<uint32_t>& which)
{
    std::vector<std::vector<uint32_t>> groups;
    std::vector<std::set<uint32_t>> used;
    for (uint32_t j : which)
    {
        std::set<uint32_t> links = JobLinks(topo, jobs[j], j, hosts[j]);
        size_t g = 0;
        for (; g < groups.size(); g++)
        {
            bool clash = std::any_of(links.begin(), links.end(), [&](uint32_t l) {
                return used[g].count(l) > 0;
            });
            if (!clash)
            {
                break;
            }
        }
        if (g == groups.size())
        {
            groups.emplace_back();
            used.emplace_back();
        }
        groups[g].push_back(j);
        used[g].insert(links.begin(), links.end());
    }
    return groups;
}

std::vector<double>
RandomOffsets(const Scenario& sc, const std::vector<double>& periodMs)
{
    std::vector<double> offsets(periodMs.size(), 0);
    if (sc.randomStart || sc.startJitterMs > 0)
    {
        std::mt19937_64 rng(sc.seed * 7919 + 1);
        for (size_t i = 0; i < offsets.size(); i++)
        {
            double u = double(rng() >> 11) / double(1ULL << 53);
            offsets[i] = u * (sc.randomStart ? periodMs[i] : sc.startJitterMs);
        }
    }
    return offsets;
}

std::vector<double>
TwinOffsets(const std::vector<double>& offsetsMs)
{
    std::vector<double> twin = offsetsMs;
    for (size_t i = 0; i < twin.size(); i++)
    {
        twin[i] += double(i + 1) * kTwinNudgeMs;
    }
    return twin;
}

} // namespace ns3
