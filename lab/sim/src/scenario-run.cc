/* SPDX-License-Identifier: GPL-2.0 */
/* One simulation of a scenario in this process: RunSimulation(). */

#include "scenario.h"

#include "topology-tcp.h"
#include "training-job.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/node.h"

#include <chrono>

namespace ns3
{

RunResult
RunSimulation(const Scenario& scenario, const RunSpec& spec)
{
    Scenario sc = scenario;
    if (spec.seed)
    {
        sc.seed = spec.seed;
    }
    ConfigureHostTcp(sc.minRtoMs, sc.delAckMs);
    RngSeedManager::SetSeed(sc.seed);
    for (const auto& kv : sc.mltcpParams)
    {
        std::string e;
        NS_ABORT_MSG_IF(!MltcpSetParam(kv.first, kv.second, &e),
                        "mltcp " << kv.first << " = " << kv.second << ": " << e);
    }

    std::unique_ptr<Topology> topology = MakeTopology(sc, spec.oversubscription);
    topology->Build(MakeQueues(sc, *topology));
    const std::vector<JobInstance>& jobs = sc.JobsOf(spec.caseIndex);
    std::vector<std::vector<uint32_t>> hosts;
    std::string err;
    NS_ABORT_MSG_IF(!PlaceJobs(sc, jobs, *topology, &hosts, &err), err);

    Time end = MicroSeconds(uint64_t(kSetupMs * 1000)) + Seconds(spec.durationS);
    std::vector<Ptr<TrainingJob>> apps;
    for (size_t i = 0; i < spec.jobs.size(); i++)
    {
        uint32_t j = spec.jobs[i];
        TrainingJobConfig cfg;
        cfg.name = jobs[j].name;
        cfg.index = j;
        cfg.pattern = jobs[j].profile.pattern;
        for (uint32_t h : hosts[j])
        {
            cfg.nodes.push_back(topology->HostNodePtr(h));
            cfg.addresses.push_back(topology->HostAddress(h));
        }
        cfg.profile = ScaleJob(sc, jobs[j]);
        cfg.cc = spec.cc;
        cfg.marks = sc.marks;
        if (sc.jobTiebreak)
        {
            cfg.tiebreak = JobTiebreak(sc.seed, j);
        }
        double offset = i < spec.offsetsMs.size() ? spec.offsetsMs[i] : 0;
        cfg.start = MicroSeconds(int64_t((kSetupMs + offset) * 1000));
        if (i < spec.gatesMs.size() && spec.gatesMs[i] > 0)
        {
            cfg.gate = MicroSeconds(int64_t(spec.gatesMs[i] * 1000));
        }
        Ptr<TrainingJob> app = CreateObject<TrainingJob>();
        app->Configure(cfg);
        cfg.nodes[0]->AddApplication(app);
        app->SetStartTime(Seconds(0));
        app->SetStopTime(end);
        apps.push_back(app);
    }

    Simulator::Stop(end);
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    auto t1 = std::chrono::steady_clock::now();

    RunResult r;
    r.label = spec.label;
    r.wallS = std::chrono::duration<double>(t1 - t0).count();
    r.simS = Simulator::Now().GetSeconds();
    r.events = Simulator::GetEventCount();
    for (size_t i = 0; i < apps.size(); i++)
    {
        uint32_t k = 0;
        for (const auto& it : apps[i]->CompletedIterations())
        {
            r.iterations.push_back(
                {spec.jobs[i], k++, it.start.GetSeconds() * 1e3, it.end.GetSeconds() * 1e3});
        }
    }
    for (uint32_t l = 0; l < topology->Links().size(); l++)
    {
        LinkStats s = topology->GetLinkStats(l);
        if (s.txBytes || s.drops || s.marks)
        {
            r.links.push_back({l, topology->Links()[l].name, s});
        }
    }
    apps.clear();
    Simulator::Destroy();
    return r;
}

} // namespace ns3
