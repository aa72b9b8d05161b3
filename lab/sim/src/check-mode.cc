/* SPDX-License-Identifier: GPL-2.0 */
/* mltcp-sim --check: run the [case]s and check their expectations (check-mode.h). */

#include "check-mode.h"

#include "report.h"
#include "run-plan.h"
#include "run-pool.h"
#include "schedule.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>

namespace ns3
{

int
RunCheck(const Scenario& sc,
         const std::string& conf,
         const std::vector<std::string>& sets,
         const std::string& outDir,
         uint32_t parallel,
         bool reportOnly,
         std::chrono::steady_clock::time_point t0)
{
    std::string err;
    std::vector<Task> tasks;
    auto addTask = [&](RunSpec spec) {
        return AddTask(tasks, sc, outDir, spec);
    };

    if (sc.cases.empty())
    {
        std::fprintf(stderr, "mltcp-sim: --check needs [case] sections in %s\n", conf.c_str());
        return 2;
    }
    std::unique_ptr<Topology> topo = MakeTopology(sc, sc.oversubscription);
    std::vector<PointPlan> plans;
    std::vector<std::vector<int>> aloneTasks;
    for (size_t c = 0; c < sc.cases.size(); c++)
    {
        const std::vector<JobInstance>& jobs = sc.cases[c].jobs;
        std::vector<std::vector<uint32_t>> hosts;
        if (!PlaceJobs(sc, jobs, *topo, &hosts, &err))
        {
            std::fprintf(stderr, "mltcp-sim: case %s: %s\n", sc.cases[c].name.c_str(), err.c_str());
            return 2;
        }
        PointPlan plan;
        std::vector<double> periods;
        for (uint32_t j = 0; j < jobs.size(); j++)
        {
            plan.result.jobs.push_back(j);
            plan.result.names.push_back(jobs[j].name);
            periods.push_back(ScaleJob(sc, jobs[j]).idealMs);
        }
        plan.result.offsetsMs = RandomOffsets(sc, periods);
        RunSpec spec;
        spec.caseIndex = int(c);
        spec.jobs = plan.result.jobs;
        spec.offsetsMs = plan.result.offsetsMs;
        spec.oversubscription = sc.oversubscription;
        spec.durationS = sc.durationS;
        spec.cc = sc.cc;
        spec.label = sc.cases[c].name + "-stock";
        plan.stock = addTask(spec);
        spec.cc = sc.MltcpAlgo();
        spec.label = sc.cases[c].name + "-mltcp";
        plan.mltcp = addTask(spec);
        aloneTasks.emplace_back();
        int g = 0;
        for (const auto& group : AloneGroups(*topo, jobs, hosts, plan.result.jobs))
        {
            RunSpec alone;
            alone.caseIndex = int(c);
            alone.jobs = group;
            alone.oversubscription = sc.oversubscription;
            alone.durationS = sc.aloneDurationS;
            alone.cc = sc.cc;
            alone.label = sc.cases[c].name + "-alone" + std::to_string(g++);
            aloneTasks.back().push_back(addTask(alone));
        }
        plans.push_back(plan);
    }
    if (!reportOnly && !RunAll(tasks, parallel, conf, sets))
    {
        std::fprintf(stderr, "mltcp-sim: a simulation failed\n");
        return 1;
    }
    // the ideals first: a turns case's centralized schedule is built from them
    std::vector<Task> central;
    std::vector<int> centralTask(sc.cases.size(), -1);
    for (size_t c = 0; c < sc.cases.size(); c++)
    {
        PointResult& p = plans[c].result;
        p.idealMs.assign(p.jobs.size(), NAN);
        for (int t : aloneTasks[c])
        {
            RunResult r;
            if (!ReadRunResult(tasks[t].out, &r, &err))
            {
                std::fprintf(stderr, "mltcp-sim: %s\n", err.c_str());
                return 1;
            }
            for (uint32_t j : tasks[t].spec.jobs)
            {
                p.idealMs[j] = LastHalfMeanMs(r, j);
            }
        }
        if (sc.cases[c].expect == "turns")
        {
            std::vector<std::vector<uint32_t>> hosts;
            PlaceJobs(sc, sc.cases[c].jobs, *topo, &hosts, &err);
            CentralSchedule cs(sc, *topo, sc.cases[c].jobs, hosts, p.jobs, p.idealMs,
                               sc.durationS * 1e3);
            RunSpec spec = tasks[plans[c].stock].spec;
            spec.offsetsMs = cs.ShiftsMs();
            spec.gatesMs = cs.GatesMs();
            spec.label = sc.cases[c].name + "-central";
            centralTask[c] = AddTask(central, sc, outDir, spec);
        }
    }
    if (!reportOnly && !central.empty() && !RunAll(central, parallel, conf, sets))
    {
        std::fprintf(stderr, "mltcp-sim: a simulation failed\n");
        return 1;
    }
    bool pass = true;
    for (size_t c = 0; c < sc.cases.size(); c++)
    {
        PointResult& p = plans[c].result;
        if (centralTask[c] >= 0)
        {
            p.central.present = ReadRunResult(central[centralTask[c]].out, &p.central.run, &err);
            if (!p.central.present)
            {
                std::fprintf(stderr, "mltcp-sim: %s\n", err.c_str());
                return 1;
            }
        }
        for (auto [vr, t] : std::vector<std::pair<VariantRun*, int>>{{&p.stock, plans[c].stock},
                                                                     {&p.mltcp, plans[c].mltcp}})
        {
            vr->present = ReadRunResult(tasks[t].out, &vr->run, &err);
            if (!vr->present)
            {
                std::fprintf(stderr, "mltcp-sim: %s\n", err.c_str());
                return 1;
            }
        }
        VariantMetrics stock = Analyse(sc, p.stock, p.jobs, p.idealMs);
        VariantMetrics mltcp = Analyse(sc, p.mltcp, p.jobs, p.idealMs);
        VariantMetrics cent = Analyse(sc, p.central, p.jobs, p.idealMs);
        const CheckCase& cc = sc.cases[c];
        std::printf("\ncase %s (%s): iteration / ideal over the last half, per job\n",
                    cc.name.c_str(),
                    cc.expect.c_str());
        for (size_t i = 0; i < p.jobs.size(); i++)
        {
            std::printf("  %-12s ideal %7.1f ms  stock %.3fx  MLTCP %.3fx  (MLTCP / stock "
                        "%.3f)\n",
                        p.names[i].c_str(),
                        p.idealMs[i],
                        stock.jobs[i].mean,
                        mltcp.jobs[i].mean,
                        mltcp.jobs[i].mean / stock.jobs[i].mean);
        }
        bool ok;
        if (cc.expect == "converge")
        {
            bool conv = mltcp.worst <= 1.10;
            bool loses = stock.worst >= 1.15;
            std::printf("  worst job under MLTCP %.3fx ideal (<= 1.10: %s); under stock "
                        "%.3fx (>= 1.15: %s)\n",
                        mltcp.worst,
                        conv ? "ok" : "FAILED",
                        stock.worst,
                        loses ? "ok" : "FAILED");
            ok = conv && loses;
        }
        else if (cc.expect == "turns")
        {
            // MLTCP against the gated centralized schedule, and the schedule
            // clearly ahead of stock (else the case discriminates nothing)
            bool near = mltcp.mean <= 1.10 * cent.mean && mltcp.missing == 0;
            bool wins = stock.mean >= 1.2 * cent.mean;
            std::printf("  mean over jobs: stock %.3fx, MLTCP %.3fx, centralized %.3fx\n"
                        "  MLTCP within 1.10x of the centralized schedule: %s; the schedule "
                        ">= 1.2x faster than stock: %s\n",
                        stock.mean,
                        mltcp.mean,
                        cent.mean,
                        near ? "ok" : "FAILED",
                        wins ? "ok" : "FAILED");
            ok = near && wins;
        }
        else if (cc.expect == "noharm")
        {
            // do no harm where links are over-committed: the cluster's mean
            // within 1.02x of stock's, no job over 1.05x its stock time, none failed
            bool mean = mltcp.mean <= 1.02 * stock.mean && mltcp.missing == 0;
            bool jobs = true;
            for (size_t i = 0; i < p.jobs.size(); i++)
            {
                jobs = jobs && mltcp.jobs[i].mean <= 1.05 * stock.jobs[i].mean;
            }
            std::printf("  mean over jobs: stock %.3fx, MLTCP %.3fx (<= 1.02x stock's: %s); "
                        "no job over 1.05x its stock time: %s\n",
                        stock.mean,
                        mltcp.mean,
                        mean ? "ok" : "FAILED",
                        jobs ? "ok" : "FAILED");
            ok = mean && jobs;
        }
        else
        {
            // A safety bound, not the 1.05 target, which the full
            // scenarios report: over random starts of this pair MLTCP's DCTCP
            // costs BERT 1.01-1.08x its stock time (scenarios/check.conf).
            ok = true;
            for (size_t i = 0; i < p.jobs.size(); i++)
            {
                ok = ok && mltcp.jobs[i].mean <= 1.10 * stock.jobs[i].mean;
            }
            std::printf("  no job over 1.10x its stock time: %s\n", ok ? "ok" : "FAILED");
        }
        pass = pass && ok;
    }
    std::printf("\n%s (%.0f s)\n",
                pass ? "check passed" : "check FAILED",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return pass ? 0 : 1;
}

} // namespace ns3
