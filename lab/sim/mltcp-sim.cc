/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mltcp-sim: a cluster of training jobs in ns-3, under the stock
 * congestion control, under MLTCP, each job alone (its ideal), and under
 * the centralized schedule (stock algorithm, each iteration held to its
 * slot: src/schedule.h); across the scenario's sweep of load and
 * oversubscription, at one seed or several (--seeds).  Over seeds, stock
 * also runs a second time with its starts nudged by microseconds (its
 * twin, src/run-plan.h): how far a job's figures move for nothing.
 *
 * Every simulation is a process of its own (ns-3 runs once per process),
 * this program re-executed with --run-one; -j of them run at a time.
 * README.md (this directory) describes the model and the output.
 *
 * This file: the options, --run-one, and the sweep's runs planned and
 * reported.  The processes are src/run-pool.*, alone groups and start
 * offsets src/run-plan.*, --check src/check-mode.*, the report's machine
 * and queue lines src/report-setting.*.
 */

#include "src/check-mode.h"
#include "src/report-setting.h"
#include "src/report.h"
#include "src/run-plan.h"
#include "src/run-pool.h"
#include "src/scenario.h"
#include "src/schedule.h"
#include "src/socket-record.h"
#include "src/training-job.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

using namespace ns3;

namespace
{

void
Usage(FILE* f)
{
    std::fprintf(f,
                 "usage: mltcp-sim [options] SCENARIO.conf\n"
                 "       mltcp-sim --check [options] SCENARIO.conf\n"
                 "Runs the scenario's jobs under the stock algorithm, MLTCP, each job alone\n"
                 "and the centralized schedule, at every point of its sweep, and reports;\n"
                 "--check runs its [case]s and exits 1 when a case's expectation fails.\n"
                 "  -j N             simulations at a time (default 2)\n"
                 "  --out DIR        run records, plot data and scripts (default\n"
                 "                   build/sim/out/NAME)\n"
                 "  --results DIR    where NAME.md and the plots go (default: --out)\n"
                 "  --set KEY=VALUE  override a scenario key (mltcp.NAME=VALUE: an MLTCP\n"
                 "                   parameter); repeatable\n"
                 "  --no-sweep       the main point only\n"
                 "  --seeds LIST     run everything at each seed (N-M or N,M,...): placement,\n"
                 "                   ECMP salt and random starts; the report adds the\n"
                 "                   median and spread over seeds\n"
                 "  --report-only    no simulation: report from the records a run with the\n"
                 "                   same options left under --out\n");
}

/** Parse "N-M" or "N,M,...". */
bool
ParseSeeds(const std::string& text, std::vector<uint32_t>* seeds)
{
    unsigned a;
    unsigned b;
    char c;
    if (std::sscanf(text.c_str(), "%u-%u%c", &a, &b, &c) == 2 && a >= 1 && a <= b && b - a < 1000)
    {
        for (unsigned s = a; s <= b; s++)
        {
            seeds->push_back(s);
        }
        return true;
    }
    size_t pos = 0;
    while (pos <= text.size())
    {
        size_t end = text.find(',', pos);
        std::string w = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        char* stop;
        unsigned long v = std::strtoul(w.c_str(), &stop, 10);
        if (w.empty() || *stop || v < 1 || v > 1000000)
        {
            seeds->clear();
            return false;
        }
        seeds->push_back(uint32_t(v));
        if (end == std::string::npos)
        {
            return true;
        }
        pos = end + 1;
    }
    return false;
}

int
RunOne(int argc, char** argv)
{
    // mltcp-sim --run-one CONF --out FILE [--set KEY=VALUE]... RUNSPEC-ARGS
    if (argc < 3 || (argc - 3) % 2 != 0)
    {
        std::fprintf(stderr, "--run-one: CONF, then options with a value each\n");
        return 2;
    }
    std::string conf = argv[2];
    std::string out;
    std::vector<std::string> sets;
    RunSpec spec;
    for (int i = 3; i + 1 < argc; i += 2)
    {
        std::string a = argv[i];
        std::string v = argv[i + 1];
        std::string err;
        if (a == "--out")
        {
            out = v;
        }
        else if (a == "--set")
        {
            sets.push_back(v);
        }
        else if (!ParseRunSpecArg(a, v, &spec, &err))
        {
            std::fprintf(stderr, "--run-one: %s\n", err.c_str());
            return 2;
        }
    }
    Scenario sc;
    std::string err;
    if (!LoadScenario(conf, sets, &sc, &err))
    {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 2;
    }
    RunResult r = RunSimulation(sc, spec);
    if (!WriteRunResult(r, out))
    {
        std::perror(out.c_str());
        return 1;
    }
    if (!WriteSocketRecords(out, r.simS * 1e3))
    {
        std::perror(SocketRecordsPath(out).c_str());
        return 1;
    }
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc > 1 && std::strcmp(argv[1], "--run-one") == 0)
    {
        return RunOne(argc, argv);
    }
    bool check = false;
    bool sweep = true;
    bool reportOnly = false;
    uint32_t parallel = 2;
    std::string outDir;
    std::string resultsDir;
    std::string conf;
    std::vector<std::string> sets;
    std::vector<uint32_t> seeds;
    std::string command = "mltcp-sim";
    for (int i = 1; i < argc; i++)
    {
        std::string a = argv[i];
        command += " " + a;
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
            {
                std::fprintf(stderr, "mltcp-sim: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            command += " " + std::string(argv[i + 1]);
            return argv[++i];
        };
        if (a == "--check")
        {
            check = true;
        }
        else if (a == "--no-sweep")
        {
            sweep = false;
        }
        else if (a == "--report-only")
        {
            reportOnly = true;
        }
        else if (a == "-j")
        {
            parallel = std::max(1, std::atoi(value().c_str()));
        }
        else if (a == "--out")
        {
            outDir = value();
        }
        else if (a == "--results")
        {
            resultsDir = value();
        }
        else if (a == "--set")
        {
            sets.push_back(value());
        }
        else if (a == "--seeds")
        {
            if (!ParseSeeds(value(), &seeds))
            {
                std::fprintf(stderr, "mltcp-sim: --seeds takes N-M or N,M,... (seeds >= 1)\n");
                return 2;
            }
        }
        else if (a == "-h" || a == "--help")
        {
            Usage(stdout);
            return 0;
        }
        else if (a.rfind("-", 0) != 0 && conf.empty())
        {
            conf = a;
        }
        else
        {
            Usage(stderr);
            return 2;
        }
    }
    if (conf.empty())
    {
        Usage(stderr);
        return 2;
    }
    Scenario sc;
    std::string err;
    if (!LoadScenario(conf, sets, &sc, &err))
    {
        std::fprintf(stderr, "mltcp-sim: %s\n", err.c_str());
        return 2;
    }
    if (outDir.empty())
    {
        outDir = "build/sim/out/" + sc.name;
    }
    if (resultsDir.empty())
    {
        resultsDir = outDir;
    }
    std::filesystem::create_directories(outDir + "/runs");
    std::filesystem::create_directories(resultsDir);
    std::string machine = MachineText();
    auto t0 = std::chrono::steady_clock::now();

    if (check)
    {
        return RunCheck(sc, conf, sets, outDir, parallel, reportOnly, t0);
    }
    if (sc.jobs.empty())
    {
        std::fprintf(stderr, "mltcp-sim: %s has only [case]s: run it with --check\n", conf.c_str());
        return 2;
    }
    if (seeds.empty())
    {
        seeds.push_back(sc.seed);
    }
    // the points: the main one first, then fewer jobs, then other oversubscriptions
    // only a leaf-spine has an oversubscription: 0 stands for none
    const double mainOversub = sc.topology == "leafspine" ? sc.oversubscription : 0;
    std::vector<std::pair<uint32_t, double>> points = {{uint32_t(sc.jobs.size()), mainOversub}};
    if (sweep)
    {
        for (uint32_t n : sc.sweepJobs)
        {
            if (n < sc.jobs.size())
            {
                points.emplace_back(n, mainOversub);
            }
        }
        for (double o : sc.sweepOversubscription)
        {
            if (o != mainOversub && sc.topology == "leafspine")
            {
                points.emplace_back(sc.jobs.size(), o);
            }
        }
    }

    // Each job alone under the stock algorithm at every oversubscription (the
    // ideal), and under MLTCP at each (what MLTCP costs a job alone).
    struct AloneSet
    {
        double oversub;
        bool mltcp;
        std::vector<int> tasks;
    };

    // Per seed: its placement, its points' plans and its runs alone.
    struct SeedPlan
    {
        Scenario sc;
        std::vector<std::vector<uint32_t>> hosts;
        std::vector<PointPlan> plans;
        std::vector<AloneSet> alone;
    };

    std::vector<Task> tasks;
    std::vector<SeedPlan> seedPlans;
    for (uint32_t seed : seeds)
    {
        SeedPlan sp;
        sp.sc = sc;
        sp.sc.seed = seed;
        std::unique_ptr<Topology> seedTopo = MakeTopology(sp.sc, sc.oversubscription);
        if (!PlaceJobs(sp.sc, sc.jobs, *seedTopo, &sp.hosts, &err))
        {
            std::fprintf(stderr, "mltcp-sim: %s\n", err.c_str());
            return 2;
        }
        std::map<double, std::set<uint32_t>> aloneNeeded;
        for (const auto& pt : points)
        {
            std::unique_ptr<Topology> topo = MakeTopology(sp.sc, pt.second);
            PointPlan plan;
            PointResult& p = plan.result;
            p.seed = seed;
            p.njobs = pt.first;
            p.oversubscription = pt.second;
            for (uint32_t j = 0; j < pt.first; j++)
            {
                p.jobs.push_back(j);
                p.names.push_back(sc.jobs[j].name);
                aloneNeeded[pt.second].insert(j);
            }
            CompatModel model(sp.sc, *topo, sc.jobs, sp.hosts, p.jobs);
            std::vector<double> periods;
            for (size_t i = 0; i < p.jobs.size(); i++)
            {
                p.predIdealMs.push_back(model.IdealMs(i));
                p.predFairMs.push_back(model.FairMs(i));
                p.predInterleavedMs.push_back(model.InterleavedMs(i));
                periods.push_back(model.IdealMs(i));
            }
            p.links = model.Links();
            p.offsetsMs = RandomOffsets(sp.sc, periods);
            char tag[64];
            std::snprintf(tag, sizeof tag, "s%u-n%u-o%g-", seed, p.njobs, p.oversubscription);
            plan.tag = tag;
            RunSpec spec;
            spec.seed = seed;
            spec.jobs = p.jobs;
            spec.oversubscription = p.oversubscription;
            spec.durationS =
                sp.plans.empty() || sc.sweepDurationS <= 0 ? sc.durationS : sc.sweepDurationS;
            spec.offsetsMs = p.offsetsMs;
            spec.cc = sc.cc;
            spec.label = plan.tag + "stock";
            plan.stock = AddTask(tasks, sc, outDir, spec);
            spec.cc = sc.MltcpAlgo();
            spec.label = plan.tag + "mltcp";
            plan.mltcp = AddTask(tasks, sc, outDir, spec);
            if (seeds.size() > 1)
            {
                // the floor the seed report sets MLTCP against stock beside
                spec.cc = sc.cc;
                spec.offsetsMs = TwinOffsets(p.offsetsMs);
                spec.label = plan.tag + "twin";
                plan.twin = AddTask(tasks, sc, outDir, spec);
            }
            sp.plans.push_back(plan);
        }
        for (const auto& an : aloneNeeded)
        {
            std::unique_ptr<Topology> topo = MakeTopology(sp.sc, an.first);
            std::vector<uint32_t> which(an.second.begin(), an.second.end());
            for (bool mltcp : {false, true})
            {
                sp.alone.push_back({an.first, mltcp, {}});
                int g = 0;
                for (const auto& group : AloneGroups(*topo, sc.jobs, sp.hosts, which))
                {
                    RunSpec alone;
                    alone.seed = seed;
                    alone.jobs = group;
                    alone.oversubscription = an.first;
                    alone.durationS = sc.aloneDurationS;
                    alone.cc = mltcp ? sc.MltcpAlgo() : sc.cc;
                    char label[64];
                    std::snprintf(label,
                                  sizeof label,
                                  "s%u-alone-%s-o%g-%d",
                                  seed,
                                  mltcp ? "mltcp" : "stock",
                                  an.first,
                                  g++);
                    alone.label = label;
                    sp.alone.back().tasks.push_back(AddTask(tasks, sc, outDir, alone));
                }
            }
        }
        seedPlans.push_back(std::move(sp));
    }
    std::printf("%s: %zu seeds, %zu simulations before the centralized runs, %u at a time\n",
                sc.name.c_str(),
                seeds.size(),
                tasks.size(),
                parallel);
    std::fflush(stdout);
    if (!reportOnly && !RunAll(tasks, parallel, conf, sets))
    {
        std::fprintf(stderr, "mltcp-sim: a simulation failed\n");
        return 1;
    }

    // The ideals, then the centralized schedule from them: its periods and
    // traffic are the jobs' runs alone.
    std::vector<Task> central;
    std::vector<std::vector<PointResult>> results(seedPlans.size());
    std::vector<std::vector<int>> centralTask(seedPlans.size());
    std::vector<RunResult> aloneRuns;
    for (size_t si = 0; si < seedPlans.size(); si++)
    {
        SeedPlan& sp = seedPlans[si];
        std::map<double, std::map<uint32_t, double>> ideal;
        std::map<double, std::map<uint32_t, double>> mltcpAlone;
        for (const AloneSet& set : sp.alone)
        {
            for (int t : set.tasks)
            {
                RunResult r;
                if (!ReadRunResult(tasks[t].out, &r, &err))
                {
                    std::fprintf(stderr, "mltcp-sim: %s\n", err.c_str());
                    return 1;
                }
                for (uint32_t j : tasks[t].spec.jobs)
                {
                    (set.mltcp ? mltcpAlone : ideal)[set.oversub][j] = LastHalfMeanMs(r, j);
                }
                if (si == 0)
                {
                    aloneRuns.push_back(r);
                }
            }
        }
        for (PointPlan& plan : sp.plans)
        {
            PointResult& p = plan.result;
            for (uint32_t j : p.jobs)
            {
                p.idealMs.push_back(ideal[p.oversubscription][j]);
                p.mltcpAloneMs.push_back(mltcpAlone[p.oversubscription][j]);
            }
            for (auto [vr, t] : std::vector<std::pair<VariantRun*, int>>{{&p.stock, plan.stock},
                                                                         {&p.mltcp, plan.mltcp},
                                                                         {&p.twin, plan.twin}})
            {
                if (t < 0)
                {
                    continue;
                }
                vr->present = ReadRunResult(tasks[t].out, &vr->run, &err);
                if (!vr->present)
                {
                    std::fprintf(stderr, "mltcp-sim: %s\n", err.c_str());
                    return 1;
                }
            }
            std::unique_ptr<Topology> topo = MakeTopology(sp.sc, p.oversubscription);
            const RunSpec& base = tasks[plan.stock].spec;
            CentralSchedule cs(sp.sc, *topo, sc.jobs, sp.hosts, p.jobs, p.idealMs,
                               base.durationS * 1e3);
            p.centralOffsetsMs = cs.ShiftsMs();
            p.centralPredMs = cs.PredictedMs();
            p.centralExcessMs = cs.ExcessMs();
            p.alignedExcessMs = cs.AlignedExcessMs();
            RunSpec spec = base;
            spec.offsetsMs = p.centralOffsetsMs;
            spec.gatesMs = cs.GatesMs();
            spec.label = plan.tag + "central";
            centralTask[si].push_back(AddTask(central, sc, outDir, spec));
            results[si].push_back(p);
        }
    }
    if (!reportOnly && !RunAll(central, parallel, conf, sets))
    {
        std::fprintf(stderr, "mltcp-sim: a simulation failed\n");
        return 1;
    }

    ReportInput in;
    in.scenario = &sc;
    in.command = command;
    in.machine = machine;
    std::unique_ptr<Topology> mainTopo = MakeTopology(seedPlans[0].sc, sc.oversubscription);
    in.topology = mainTopo->Describe();
    in.queues = QueueText(sc, *mainTopo);
    in.processes = parallel;
    in.aloneRuns = aloneRuns;
    for (size_t si = 0; si < seedPlans.size(); si++)
    {
        for (size_t k = 0; k < results[si].size(); k++)
        {
            PointResult& p = results[si][k];
            p.central.present = ReadRunResult(central[centralTask[si][k]].out, &p.central.run, &err);
            if (!p.central.present)
            {
                std::fprintf(stderr, "mltcp-sim: %s\n", err.c_str());
                return 1;
            }
        }
    }
    in.points = results[0];
    in.seeds = results;
    in.wallS = reportOnly
                   ? 0
                   : std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    WriteReport(in, outDir, resultsDir);
    if (!reportOnly)
    {
        std::printf("wall time %.0f s\n", in.wallS);
    }
    return 0;
}
