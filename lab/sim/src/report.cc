/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's text (report.h): the summary printed and the markdown, with
 * its tables; the figures come from report-metrics.*, the targets from
 * report-targets.*, the plots from report-plots.*.
 */

#include "report.h"

#include "report-format.h"
#include "report-metrics.h"
#include "report-plots.h"
#include "report-seeds.h"
#include "report-targets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace ns3
{

bool
WriteReport(const ReportInput& in, const std::string& workDir, const std::string& resultsDir)
{
    const Scenario& sc = *in.scenario;
    std::vector<PointMetrics> metrics;
    for (const PointResult& p : in.points)
    {
        metrics.push_back({Analyse(sc, p.stock, p.jobs, p.idealMs),
                           Analyse(sc, p.mltcp, p.jobs, p.idealMs),
                           Analyse(sc, p.central, p.jobs, p.idealMs)});
    }
    const PointResult& main = in.points.front();
    const PointMetrics& mm = metrics.front();
    bool allMet = true;

    std::ostringstream md;
    md << "# Cluster simulation: " << sc.name << "\n\n";
    if (!sc.description.empty())
    {
        md << sc.description << "\n\n";
    }
    md << "Produced by\n\n    " << in.command << "\n\n";
    if (!in.machine.empty())
    {
        md << "on " << in.machine << "; ";
    }
    uint64_t events = 0;
    double simWall = 0;
    auto countRun = [&](const RunResult& r) {
        events += r.events;
        simWall += r.wallS;
    };
    for (const PointResult& p : in.points)
    {
        for (const VariantRun* v : {&p.stock, &p.mltcp, &p.central})
        {
            if (v->present)
            {
                countRun(v->run);
            }
        }
    }
    for (const RunResult& r : in.aloneRuns)
    {
        countRun(r);
    }
    if (in.wallS > 0)
    {
        md << "in " << Fmt(in.wallS, 0) << " s of wall-clock time with " << in.processes
           << " simulations at a time; ";
    }
    md << "the simulations took " << Fmt(simWall, 0) << " s in all (" << Fmt(events / 1e6, 1)
       << " M events, " << Fmt(events / std::max(simWall, 1e-9) / 1e3, 0)
       << " k events/s per process).\n\n";
    md << "- Network: " << in.topology << "; " << in.queues << ".\n";
    md << "- Transport: stock " << CcAlgoName(sc.cc) << " against " << CcAlgoName(sc.MltcpAlgo())
       << ", iterations " << (sc.marks ? "marked through MltcpHints" : "learned (no hints)")
       << ", " << (sc.jobTiebreak ? "one tie-break per job" : "a tie-break per connection")
       << "; MSS " << kSimMss << " B, initial window 10, min RTO " << Fmt(sc.minRtoMs, 0)
       << " ms, delayed ACK " << Fmt(sc.delAckMs, 1) << " ms.\n";
    md << "- Jobs: " << main.jobs.size() << " at the main point, time scale " << sc.timeScale
       << ", " << Fmt(sc.durationS, 0) << " s simulated per run ("
       << (in.points.size() > 1 && sc.sweepDurationS > 0
               ? "at the other points of the sweep " + Fmt(sc.sweepDurationS, 0) + " s, "
               : std::string())
       << "each job alone: " << Fmt(sc.aloneDurationS, 0) << " s), starts "
       << (sc.randomStart ? "at random offsets within an iteration" : "aligned") << ", placement "
       << sc.placement << ", seed " << sc.seed << ".\n";
    md << "- Centralized: stock " << CcAlgoName(sc.cc)
       << ", each job's iteration k held until its shift + k x its ideal (Cassini's agents), "
          "the shifts solved over every shared link from the runs alone (lab/sim/README.md); "
          "the model's traffic above capacity at those shifts "
       << Fmt(main.centralExcessMs / 1e3, 2) << " link-s over a run, "
       << Fmt(main.alignedExcessMs / 1e3, 2) << " link-s with every job released at once.\n\n";
    md << "Iteration times are each job's last-half mean (or p99) over its time alone; "
          "definitions in lab/sim/README.md.\n\n";

    // the main point
    md << "## Main point: " << PointName(main) << "\n\n";
    md << "| | mean | p99 | worst job | settled at iteration | drops | ECN marks | RTOs |\n"
          "|---|---|---|---|---|---|---|---|\n";
    for (int v = 0; v < 3; v++)
    {
        const VariantMetrics& vm = Variant(mm, v);
        if (!vm.present)
        {
            md << "| " << kVariantNames[v] << " | not run | | | | | | |\n";
            continue;
        }
        md << "| " << kVariantNames[v] << " | " << Fmt(vm.mean) << "x | " << Fmt(vm.p99) << "x | "
           << Fmt(vm.worst) << "x | " << Settle(vm) << " | " << vm.drops << " | " << vm.marks
           << " | " << Rtos(vm) << " |\n";
    }
    md << "\nWhat the sending sockets did, summed over each run (RUN-sockets.csv: "
          "lab/sim/README.md, Records):\n\n";
    const VariantRun* mainRuns[3] = {&main.stock, &main.mltcp, &main.central};
    for (int v = 0; v < 3; v++)
    {
        if (mainRuns[v]->present && mainRuns[v]->run.socketsRead)
        {
            md << "- " << kVariantNames[v] << ": "
               << FormatSocketSummary(mainRuns[v]->run.sockets, v == 1) << ".\n";
        }
    }
    if (!main.mltcpAloneMs.empty())
    {
        double sum = 0;
        double worst = 0;
        for (size_t i = 0; i < main.jobs.size(); i++)
        {
            sum += main.mltcpAloneMs[i] / main.idealMs[i];
            worst = std::max(worst, main.mltcpAloneMs[i] / main.idealMs[i]);
        }
        md << "\nEach job alone under MLTCP, against its ideal (alone under stock): mean "
           << Fmt(sum / main.jobs.size(), 3) << "x, worst " << Fmt(worst, 3)
           << "x: what MLTCP costs a job with no one to take turns with.\n";
        std::printf("each job alone under MLTCP / alone under stock: mean %.3f, worst %.3f\n",
                    sum / main.jobs.size(),
                    worst);
    }
    for (int v = 0; v < 3; v++)
    {
        if (Variant(mm, v).missing)
        {
            md << "\n"
               << kVariantNames[v] << ": " << Variant(mm, v).missing
               << " jobs finished no iteration in the last half; each counts at the time its "
                  "open iteration had taken.\n";
        }
    }
    md << "\n";

    std::cout << "\n" << sc.name << ": " << in.topology << "\n";
    std::cout << "iteration / ideal, last half: mean over jobs, p99 of all iterations\n";
    std::printf("%-16s %-15s %-15s %-15s %-26s %s\n",
                "point",
                "stock",
                "MLTCP",
                "centralized",
                "settled (stock/MLTCP/cent)",
                "drops+marks (stock/MLTCP/cent)");
    for (size_t i = 0; i < in.points.size(); i++)
    {
        const PointMetrics& m = metrics[i];
        auto mp = [](const VariantMetrics& vm) {
            return vm.present ? Fmt(vm.mean) + " / " + Fmt(vm.p99) : std::string("-");
        };
        auto st = [](const VariantMetrics& vm) {
            return !vm.present     ? std::string("-")
                   : vm.settle < 0 ? std::string("never")
                                   : std::to_string(vm.settle);
        };
        auto dm = [](const VariantMetrics& vm) {
            return vm.present ? std::to_string(vm.drops + vm.marks) : std::string("-");
        };
        std::printf("%-16s %-15s %-15s %-15s %-26s %s\n",
                    PointName(in.points[i]).c_str(),
                    mp(m.stock).c_str(),
                    mp(m.mltcp).c_str(),
                    mp(m.central).c_str(),
                    (st(m.stock) + " / " + st(m.mltcp) + " / " + st(m.central)).c_str(),
                    (dm(m.stock) + " / " + dm(m.mltcp) + " / " + dm(m.central)).c_str());
    }

    // targets at every point
    // jobs that stopped iterating: a connection stuck, a result to explain, not a speed
    std::ostringstream stalls;
    for (size_t i = 0; i < in.points.size(); i++)
    {
        for (int v = 0; v < 3; v++)
        {
            const VariantMetrics& vm = Variant(metrics[i], v);
            for (size_t k = 0; k < vm.jobs.size(); k++)
            {
                if (vm.jobs[k].stalledMs >= 0)
                {
                    stalls << "- " << PointName(in.points[i]) << ", " << kVariantNames[v] << ": "
                           << in.points[i].names[k] << " finished no iteration after "
                           << Fmt((vm.jobs[k].stalledMs - kSetupMs) / 1e3, 2) << " s\n";
                }
            }
        }
    }
    if (!stalls.str().empty())
    {
        md << "## Stalled jobs\n\nThese jobs stopped finishing iterations before their run "
              "ended (a connection that stopped sending): their figures are not a speed.\n\n"
           << stalls.str() << "\n";
        std::cout << "\nSTALLED jobs:\n" << stalls.str();
    }

    md << "## Targets\n\n| point | target | measured | |\n|---|---|---|---|\n";
    std::cout << "\ntargets:\n";
    for (size_t i = 0; i < in.points.size(); i++)
    {
        for (const Target& t : Targets(in.points[i], metrics[i]))
        {
            if (t.applicable && !t.met)
            {
                allMet = false;
            }
            md << "| " << PointName(in.points[i]) << " | " << t.what << " | " << t.detail << " | "
               << (Verdict(t) == "NOT met" ? "**NOT met**" : Verdict(t)) << " |\n";
            std::printf("  %-16s %-62s %-8s %s\n",
                        PointName(in.points[i]).c_str(),
                        t.what.c_str(),
                        Verdict(t).c_str(),
                        t.detail.c_str());
        }
    }
    md << "\n";

    // who pays: the jobs MLTCP makes slower than stock does, at the main point
    if (mm.stock.present && mm.mltcp.present)
    {
        std::vector<std::pair<double, size_t>> slower;
        for (size_t i = 0; i < main.jobs.size(); i++)
        {
            double r = mm.mltcp.jobs[i].mean / mm.stock.jobs[i].mean;
            if (r > 1)
            {
                slower.emplace_back(r, i);
            }
        }
        std::sort(slower.rbegin(), slower.rend());
        std::ostringstream list;
        for (const auto& sl : slower)
        {
            list << (list.tellp() ? ", " : "") << main.names[sl.second] << " " << Fmt(sl.first, 3)
                 << "x";
        }
        md << "## Who pays\n\n"
           << slower.size() << " of " << main.jobs.size()
           << " jobs are slower under MLTCP than under stock at the main point"
           << (slower.empty() ? "." : ": " + list.str() + " (MLTCP's mean / stock's).") << "\n\n";
        std::printf("\nwho pays: %zu of %zu jobs slower under MLTCP than under stock%s%s\n",
                    slower.size(),
                    main.jobs.size(),
                    slower.empty() ? "" : ": ",
                    list.str().c_str());
    }

    // per job at the main point
    md << "## Jobs at the main point\n\n"
          "| job | pattern | hosts | alone ms (ideal) | model ms | MLTCP alone / ideal | start "
          "ms (stock, MLTCP / cent.) | stock mean / p99 | MLTCP mean / p99 | centralized mean "
          "/ p99 | settled (stock / MLTCP / cent.) |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (size_t i = 0; i < main.jobs.size(); i++)
    {
        const JobInstance& job = sc.jobs[main.jobs[i]];
        auto mp = [&](const VariantMetrics& vm) {
            return vm.present ? Fmt(vm.jobs[i].mean) + " / " + Fmt(vm.jobs[i].p99) : "-";
        };
        auto st = [&](const VariantMetrics& vm) {
            return !vm.present             ? std::string("-")
                   : vm.jobs[i].settle < 0 ? std::string("never")
                                           : std::to_string(vm.jobs[i].settle);
        };
        md << "| " << main.names[i] << " | " << CommPatternName(job.profile.pattern) << " | "
           << job.hosts << " | " << Fmt(main.idealMs[i], 1) << " | " << Fmt(main.predIdealMs[i], 1)
           << " | "
           << (i < main.mltcpAloneMs.size() ? Fmt(main.mltcpAloneMs[i] / main.idealMs[i], 3) : "-")
           << " | " << Fmt(main.offsetsMs[i], 1) << " / "
           << (main.central.present ? Fmt(main.centralOffsetsMs[i], 1) : "-") << " | "
           << mp(mm.stock) << " | " << mp(mm.mltcp) << " | " << mp(mm.central) << " | "
           << st(mm.stock) << " / " << st(mm.mltcp) << " / " << st(mm.central) << " |\n";
    }
    md << "\nProfiles (iteration alone at the papers' scale, and where the figures come from):\n\n";
    std::map<std::string, const JobProfile*> profiles;
    for (uint32_t j : main.jobs)
    {
        profiles[sc.jobs[j].profile.name] = &sc.jobs[j].profile;
    }
    for (const auto& kv : profiles)
    {
        md << "- " << kv.first << ": " << Fmt(kv.second->IterationMs(), 0) << " ms, "
           << Fmt(100 * kv.second->CommShare(), 0) << "% communication; " << kv.second->source
           << ".\n";
    }
    md << "\n";

    // sweeps
    if (in.points.size() > 1)
    {
        md << "## Load and oversubscription\n\n"
              "| point | stock mean / p99 | MLTCP mean / p99 | centralized mean / p99 | "
              "settled (stock / MLTCP / cent.) | drops (stock / MLTCP / cent.) | "
              "ECN marks | RTOs |\n|---|---|---|---|---|---|---|---|\n";
        for (size_t i = 0; i < in.points.size(); i++)
        {
            const PointMetrics& m = metrics[i];
            auto mp = [](const VariantMetrics& vm) {
                return vm.present ? Fmt(vm.mean) + " / " + Fmt(vm.p99) : std::string("-");
            };
            auto n = [](const VariantMetrics& vm, uint64_t v) {
                return vm.present ? std::to_string(v) : std::string("-");
            };
            md << "| " << PointName(in.points[i]) << " | " << mp(m.stock) << " | " << mp(m.mltcp)
               << " | " << mp(m.central) << " | " << Settle(m.stock) << " / " << Settle(m.mltcp)
               << " / " << Settle(m.central) << " | " << n(m.stock, m.stock.drops) << " / "
               << n(m.mltcp, m.mltcp.drops) << " / " << n(m.central, m.central.drops) << " | "
               << n(m.stock, m.stock.marks) << " / " << n(m.mltcp, m.mltcp.marks) << " / "
               << n(m.central, m.central.marks) << " | " << Rtos(m.stock) << " / "
               << Rtos(m.mltcp) << " / " << Rtos(m.central) << " |\n";
        }
        md << "\n";
    }

    // the compat model against the simulation
    md << "## The compat model against the simulation (main point)\n\n"
          "jc_link_eval() per shared link (link goodput, threshold "
       << sc.jcThreshold
       << "); a job's predicted fair and interleaved times are its slowest shared link's. "
          "Simulated: last-half means in ms.\n\n"
          "| job | alone: model / sim | fair (model) / stock (sim) | interleaved (model) / "
          "MLTCP / centralized (sim) |\n|---|---|---|---|\n";
    std::cout << "\ncompat model against simulation, per job (ms): ideal model/sim, "
                 "fair model/stock, interleaved model/MLTCP/centralized\n";
    auto simMs = [&](const VariantMetrics& vm, size_t i) {
        return vm.present ? vm.jobs[i].mean * main.idealMs[i] : NAN;
    };
    for (size_t i = 0; i < main.jobs.size(); i++)
    {
        md << "| " << main.names[i] << " | " << Fmt(main.predIdealMs[i], 1) << " / "
           << Fmt(main.idealMs[i], 1) << " | " << Fmt(main.predFairMs[i], 1) << " / "
           << Fmt(simMs(mm.stock, i), 1) << " | " << Fmt(main.predInterleavedMs[i], 1) << " / "
           << Fmt(simMs(mm.mltcp, i), 1) << " / " << Fmt(simMs(mm.central, i), 1) << " |\n";
        std::printf("  %-12s %7s/%-7s %7s/%-7s %7s/%s/%s\n",
                    main.names[i].c_str(),
                    Fmt(main.predIdealMs[i], 0).c_str(),
                    Fmt(main.idealMs[i], 0).c_str(),
                    Fmt(main.predFairMs[i], 0).c_str(),
                    Fmt(simMs(mm.stock, i), 0).c_str(),
                    Fmt(main.predInterleavedMs[i], 0).c_str(),
                    Fmt(simMs(mm.mltcp, i), 0).c_str(),
                    Fmt(simMs(mm.central, i), 0).c_str());
    }
    // how far the fluid model is off, over the jobs
    auto error = [&](const std::vector<double>& model, auto sim) {
        double sum = 0;
        size_t n = 0;
        for (size_t i = 0; i < main.jobs.size(); i++)
        {
            double s = sim(i);
            if (std::isfinite(s) && std::isfinite(model[i]))
            {
                sum += (model[i] - s) / s;
                n++;
            }
        }
        return n ? 100 * sum / n : NAN;
    };
    double eIdeal = error(main.predIdealMs, [&](size_t i) { return main.idealMs[i]; });
    double eFair = error(main.predFairMs, [&](size_t i) { return simMs(mm.stock, i); });
    double eTurnsCentral =
        error(main.predInterleavedMs, [&](size_t i) { return simMs(mm.central, i); });
    double eTurnsMltcp =
        error(main.predInterleavedMs, [&](size_t i) { return simMs(mm.mltcp, i); });
    // the same for the slowdowns, each against its own ideal: the contention part alone
    double slowFairModel = 0;
    double slowTurnsModel = 0;
    for (size_t i = 0; i < main.jobs.size(); i++)
    {
        slowFairModel += main.predFairMs[i] / main.predIdealMs[i] / main.jobs.size();
        slowTurnsModel += main.predInterleavedMs[i] / main.predIdealMs[i] / main.jobs.size();
    }
    md << "\nSlowdowns, mean over jobs of the iteration over its own ideal: fair sharing "
       << Fmt(slowFairModel) << "x in the model, " << Fmt(mm.stock.mean)
       << "x under stock; taking turns " << Fmt(slowTurnsModel) << "x in the model, "
       << Fmt(mm.central.mean) << "x under the centralized schedule, " << Fmt(mm.mltcp.mean)
       << "x under MLTCP.\n";
    std::printf("  slowdown over the own ideal, mean over jobs: fair %s model / %s stock, turns %s "
                "model / %s centralized / %s MLTCP\n",
                Fmt(slowFairModel).c_str(),
                Fmt(mm.stock.mean).c_str(),
                Fmt(slowTurnsModel).c_str(),
                Fmt(mm.central.mean).c_str(),
                Fmt(mm.mltcp.mean).c_str());
    // the centralized schedule's own fluid model against its run
    double cAbs = 0;
    double cSigned = 0;
    double cWorst = 0;
    size_t cN = 0;
    for (size_t i = 0; i < main.jobs.size() && i < main.centralPredMs.size(); i++)
    {
        double sim = simMs(mm.central, i);
        if (std::isfinite(sim))
        {
            double e = (main.centralPredMs[i] - sim) / sim;
            cAbs += std::fabs(e);
            cSigned += e;
            cWorst = std::max(cWorst, std::fabs(e));
            cN++;
        }
    }
    if (cN)
    {
        md << "\nThe centralized schedule's model (its fluid prediction of each job's iteration "
              "under the shifts) against its run: mean |error| "
           << Fmt(100 * cAbs / cN, 1) << "%, mean signed " << Fmt(100 * cSigned / cN, 1)
           << "%, worst job " << Fmt(100 * cWorst, 1) << "%.\n";
        std::printf("  centralized model / its run: mean |error| %.1f%%, signed %.1f%%, worst "
                    "%.1f%%\n",
                    100 * cAbs / cN,
                    100 * cSigned / cN,
                    100 * cWorst);
    }
    md << "\nThe model against the simulation, mean over jobs of (model - simulated) / "
          "simulated: ideal "
       << Fmt(eIdeal, 1) << "%, fair against stock " << Fmt(eFair, 1)
       << "%, interleaved against centralized " << Fmt(eTurnsCentral, 1) << "% and against MLTCP "
       << Fmt(eTurnsMltcp, 1) << "%.\n";
    std::printf("  model error, mean (model - sim) / sim: ideal %s%%, fair/stock %s%%, "
                "interleaved/centralized %s%%, interleaved/MLTCP %s%%\n",
                Fmt(eIdeal, 1).c_str(),
                Fmt(eFair, 1).c_str(),
                Fmt(eTurnsCentral, 1).c_str(),
                Fmt(eTurnsMltcp, 1).c_str());
    md << "\nPer shared link, the busiest first (demand: the jobs' busy time on it per "
          "iteration, summed; fair / interleaved predicted beside stock / MLTCP / centralized "
          "simulated, ms):\n\n| link | demand | overlap | compatible | job: fair / "
          "interleaved (model) - stock / MLTCP / centralized (sim) |\n|---|---|---|---|---|\n";
    std::cout << "\nper bottleneck link (busiest first): job fair/interleaved predicted - "
                 "stock/MLTCP/centralized simulated, ms\n";
    size_t shown = 0;
    for (const SharedLink& sl : main.links)
    {
        if (shown++ == 12)
        {
            break;
        }
        std::ostringstream cell;
        std::ostringstream line;
        for (size_t k = 0; k < sl.jobs.size(); k++)
        {
            size_t i = sl.jobs[k];
            std::string pred = sl.evaluated ? Fmt(sl.result.fair_ms[k], 0) + " / " +
                                                  Fmt(sl.result.interleaved_ms[k], 0)
                                            : "-";
            std::string sim = Fmt(simMs(mm.stock, i), 0) + " / " + Fmt(simMs(mm.mltcp, i), 0) +
                              " / " + Fmt(simMs(mm.central, i), 0);
            cell << (k ? "; " : "") << main.names[i] << ": " << pred << " - " << sim;
            line << "    " << main.names[i] << ": " << pred << " - " << sim << "\n";
        }
        md << "| " << sl.name << " | " << Fmt(sl.demand) << " | "
           << (sl.evaluated ? Fmt(sl.result.overlap, 3) : "-") << " | "
           << (sl.evaluated ? (sl.result.compatible ? "yes" : "no") : "-") << " | " << cell.str()
           << " |\n";
        std::cout << "  " << sl.name << " demand " << Fmt(sl.demand) << ", overlap "
                  << (sl.evaluated ? Fmt(sl.result.overlap, 3) : "-") << "\n"
                  << line.str();
    }
    if (main.links.size() > 12)
    {
        md << "\n" << main.links.size() - 12 << " more shared links not shown.\n";
    }
    md << "\n";

    // runs
    md << "## Runs\n\n| run | simulated s | wall s | events | k events/s "
          "|\n|---|---|---|---|---|\n";
    auto runRow = [&](const RunResult& r) {
        md << "| " << r.label << " | " << Fmt(r.simS, 1) << " | " << Fmt(r.wallS, 1) << " | "
           << r.events << " | " << Fmt(r.events / std::max(r.wallS, 1e-9) / 1e3, 0) << " |\n";
    };
    for (const PointResult& p : in.points)
    {
        for (const VariantRun* v : {&p.stock, &p.mltcp, &p.central})
        {
            if (v->present)
            {
                runRow(v->run);
            }
        }
    }
    for (const RunResult& r : in.aloneRuns)
    {
        runRow(r);
    }
    md << "\n";

    // plots
    std::vector<std::string> svgs;
    PlotContext pc{sc.name, workDir, resultsDir, main, mm};
    if (in.seeds.size() > 1)
    {
        svgs = WriteSeedSummary(in, pc, md);
    }
    for (const std::string& svg : {PlotJobs(pc),
                                   PlotCdf(pc),
                                   PlotSettle(pc),
                                   PlotSweep(pc, in.points, metrics, false),
                                   PlotSweep(pc, in.points, metrics, true)})
    {
        if (!svg.empty())
        {
            svgs.push_back(svg);
        }
    }
    if (!svgs.empty())
    {
        md << "## Plots\n\n";
        for (const std::string& s : svgs)
        {
            md << "![" << s << "](" << s << ")\n\n";
        }
    }
    else
    {
        md << "(No plots: gnuplot failed or is not installed.)\n\n";
    }
    md << "All targets " << (allMet ? "met." : "are NOT met; the table above says which.") << "\n";

    std::string mdPath = resultsDir + "/" + sc.name + ".md";
    std::ofstream(mdPath) << md.str();
    std::cout << "\n"
              << (allMet ? "all targets met" : "targets NOT met (see above)") << "; " << mdPath
              << "\n";
    return allMet;
}

} // namespace ns3
