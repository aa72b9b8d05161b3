/* SPDX-License-Identifier: GPL-2.0 */

#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace ns3
{

static const double kSettleBound = 1.10;
static const uint32_t kSettleWindow = 5;

static double
Percentile(std::vector<double> v, double p)
{
    if (v.empty())
    {
        return NAN;
    }
    std::sort(v.begin(), v.end());
    size_t rank = size_t(std::ceil(p * v.size()));
    return v[std::max<size_t>(rank, 1) - 1];
}

/** @return @run's iterations of @job, in order. */
static std::vector<RunResult::Iter>
Iterations(const RunResult& run, uint32_t job)
{
    std::vector<RunResult::Iter> its;
    for (const auto& it : run.iterations)
    {
        if (it.job == job)
        {
            its.push_back(it);
        }
    }
    std::sort(its.begin(), its.end(), [](const auto& a, const auto& b) { return a.k < b.k; });
    return its;
}

/** @return where the last half of @run starts, ms. */
static double
HalfMs(const RunResult& run)
{
    return kSetupMs + (run.simS * 1e3 - kSetupMs) / 2;
}

double
LastHalfMeanMs(const RunResult& run, uint32_t job)
{
    double sum = 0;
    uint32_t n = 0;
    for (const auto& it : Iterations(run, job))
    {
        if (it.startMs >= HalfMs(run))
        {
            sum += it.endMs - it.startMs;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

VariantMetrics
Analyse(const Scenario& sc,
        const VariantRun& vr,
        const std::vector<uint32_t>& jobs,
        const std::vector<double>& idealMs)
{
    VariantMetrics vm;
    if (!vr.present)
    {
        return vm;
    }
    vm.present = true;
    const RunResult& run = vr.run;
    std::vector<double> all;
    double sum = 0;
    for (size_t i = 0; i < jobs.size(); i++)
    {
        JobMetrics jm;
        std::vector<RunResult::Iter> its = Iterations(run, jobs[i]);
        std::vector<double> window;
        std::vector<double> smooth;
        double acc = 0;
        for (size_t k = 0; k < its.size(); k++)
        {
            double r = (its[k].endMs - its[k].startMs) / idealMs[i];
            if (its[k].startMs >= HalfMs(run))
            {
                window.push_back(r);
            }
            acc += r;
            if (k >= kSettleWindow)
            {
                acc -= (its[k - kSettleWindow].endMs - its[k - kSettleWindow].startMs) / idealMs[i];
            }
            smooth.push_back(acc / std::min<size_t>(k + 1, kSettleWindow));
        }
        jm.count = window.size();
        // a run's jobs keep iterating to its end unless something stopped one
        double lastEnd = its.empty() ? kSetupMs : its.back().endMs;
        if (run.simS * 1e3 - lastEnd > std::max(2000.0, 5 * idealMs[i]))
        {
            jm.stalledMs = lastEnd;
            vm.stalled++;
        }
        if (!window.empty())
        {
            double s = 0;
            for (double r : window)
            {
                s += r;
            }
            jm.mean = s / window.size();
            jm.p99 = Percentile(window, 0.99);
        }
        else
        {
            jm.mean = jm.p99 = NAN;
        }
        // smooth[e] is the window ending at e; the last bad one starts at max(0, e - 4)
        int last = -1;
        for (size_t e = 0; e < smooth.size(); e++)
        {
            if (smooth[e] > kSettleBound)
            {
                last = int(e);
            }
        }
        if (!smooth.empty() && last < int(smooth.size()) - 1)
        {
            jm.settle = last < 0 ? 0 : std::max(0, last - int(kSettleWindow) + 1) + 1;
            jm.settleMs = its[jm.settle].startMs - kSetupMs;
        }
        all.insert(all.end(), window.begin(), window.end());
        if (window.empty())
        {
            vm.missing++;
        }
        else
        {
            sum += jm.mean;
            vm.worst = std::max(vm.worst, jm.mean);
        }
        vm.jobs.push_back(jm);
    }
    vm.mean = vm.missing == jobs.size() ? NAN : sum / (jobs.size() - vm.missing);
    vm.p99 = Percentile(all, 0.99);
    vm.settle = 0;
    for (const JobMetrics& jm : vm.jobs)
    {
        if (jm.settle < 0)
        {
            vm.settle = -1;
            break;
        }
        vm.settle = std::max(vm.settle, jm.settle);
        vm.settleS = std::max(vm.settleS, jm.settleMs / 1e3);
    }
    for (const auto& l : run.links)
    {
        vm.drops += l.stats.drops;
        vm.marks += l.stats.marks;
    }
    (void)sc;
    return vm;
}

namespace
{

struct Target
{
    std::string what;
    bool applicable = false;
    bool met = false;
    std::string detail;
};

struct PointMetrics
{
    VariantMetrics stock;
    VariantMetrics mltcp;
    VariantMetrics central;
};

std::string
Fmt(double v, int prec = 2)
{
    if (std::isnan(v))
    {
        return "-";
    }
    if (std::isinf(v))
    {
        return "inf";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", prec, v);
    return buf;
}

std::string
Settle(const VariantMetrics& vm)
{
    if (!vm.present)
    {
        return "-";
    }
    if (vm.settle < 0)
    {
        return "never";
    }
    return std::to_string(vm.settle) + " (" + Fmt(vm.settleS, 1) + " s)";
}

std::string
PointName(const PointResult& p)
{
    char buf[64];
    if (p.oversubscription > 0)
    {
        std::snprintf(buf, sizeof buf, "%u jobs, %g:1", p.njobs, p.oversubscription);
    }
    else
    {
        std::snprintf(buf, sizeof buf, "%u jobs", p.njobs);
    }
    return buf;
}

std::vector<Target>
Targets(const PointResult& p, const PointMetrics& m)
{
    std::vector<Target> ts;
    Target t1;
    t1.what = "MLTCP mean job iteration <= 1.10x ideal";
    if (m.mltcp.present)
    {
        t1.applicable = true;
        t1.met = m.mltcp.mean <= 1.10 && m.mltcp.missing == 0 && m.mltcp.stalled == 0;
        t1.detail = Fmt(m.mltcp.mean) + "x";
        if (m.mltcp.missing)
        {
            t1.detail += " (" + std::to_string(m.mltcp.missing) +
                         " jobs finished no iteration in the last half)";
        }
        if (m.mltcp.stalled)
        {
            t1.detail += " (" + std::to_string(m.mltcp.stalled) + " jobs stalled)";
        }
    }
    ts.push_back(t1);

    Target t2;
    t2.what = "MLTCP p99 within 1.2x of the centralized schedule's";
    if (m.mltcp.present && m.central.present)
    {
        t2.applicable = true;
        t2.met = m.mltcp.p99 <= 1.2 * m.central.p99;
        t2.detail = Fmt(m.mltcp.p99) + "x against " + Fmt(m.central.p99) + "x (limit " +
                    Fmt(1.2 * m.central.p99) + "x)";
    }
    else if (!p.central.present)
    {
        t2.detail = "no centralized run: " + p.central.note;
    }
    ts.push_back(t2);

    Target t3;
    t3.what = ">= 1.2x faster mean than stock wherever stock >= 1.3x ideal";
    if (m.mltcp.present && m.stock.present)
    {
        uint32_t where = 0;
        uint32_t ok = 0;
        std::string misses;
        for (size_t i = 0; i < p.jobs.size(); i++)
        {
            double s = m.stock.jobs[i].mean;
            double x = m.mltcp.jobs[i].mean;
            if (s >= 1.3)
            {
                where++;
                if (s / x >= 1.2)
                {
                    ok++;
                }
                else
                {
                    misses += (misses.empty() ? "" : ", ") + p.names[i] + " " + Fmt(s) + "x -> " +
                              Fmt(x) + "x";
                }
            }
        }
        t3.applicable = where > 0;
        t3.met = ok == where;
        t3.detail = where ? std::to_string(ok) + " of " + std::to_string(where) + " jobs" +
                                (misses.empty() ? "" : " (not: " + misses + ")")
                          : "no job at >= 1.3x under stock";
    }
    ts.push_back(t3);

    Target t4;
    t4.what = "no job slower than under stock by > 5%";
    if (m.mltcp.present && m.stock.present)
    {
        t4.applicable = true;
        t4.met = true;
        double worst = 0;
        std::string who;
        std::string unmeasured;
        for (size_t i = 0; i < p.jobs.size(); i++)
        {
            double r = m.mltcp.jobs[i].mean / m.stock.jobs[i].mean;
            if (std::isnan(r))
            {
                unmeasured += (unmeasured.empty() ? "" : ", ") + p.names[i];
                t4.met = false;
                continue;
            }
            if (r > 1.05)
            {
                t4.met = false;
            }
            if (r > worst)
            {
                worst = r;
                who = p.names[i];
            }
        }
        t4.detail = "slowest against stock: " + who + " " + Fmt(worst, 3) + "x";
        if (!unmeasured.empty())
        {
            t4.detail += "; no last-half iteration: " + unmeasured;
        }
    }
    ts.push_back(t4);
    return ts;
}

std::string
Verdict(const Target& t)
{
    return !t.applicable ? "n/a" : t.met ? "met" : "NOT met";
}

/** What the plots need. */
struct PlotContext
{
    std::string base;
    std::string workDir;
    std::string resultsDir;
    const PointResult& main;
    const PointMetrics& metrics;
};

const char* const kVariantNames[] = {"stock", "MLTCP", "centralized"};

const VariantMetrics&
Variant(const PointMetrics& m, int v)
{
    return v == 0 ? m.stock : v == 1 ? m.mltcp : m.central;
}

const VariantRun&
VariantOf(const PointResult& p, int v)
{
    return v == 0 ? p.stock : v == 1 ? p.mltcp : p.central;
}

/** Plot @plots (one gnuplot plot clause each) into @name.svg. @return the svg's name or "". */
std::string
Plot(const PlotContext& pc,
     const std::string& name,
     const std::string& title,
     const std::string& settings,
     const std::vector<std::string>& plots)
{
    if (plots.empty())
    {
        return "";
    }
    std::string svg = pc.base + "-" + name + ".svg";
    std::string gp = "set terminal svg size 760,420 dynamic font 'sans,11'\n"
                     "set output '" +
                     pc.resultsDir + "/" + svg + "'\nset title '" + title +
                     "'\nset grid ytics\nset key top left\n" + settings + "plot ";
    for (size_t i = 0; i < plots.size(); i++)
    {
        gp += (i ? ", \\\n     " : "") + plots[i];
    }
    std::string path = pc.workDir + "/" + name + ".gp";
    std::ofstream(path) << gp << "\n";
    std::string cmd = "gnuplot '" + path + "'";
    return std::system(cmd.c_str()) == 0 ? svg : "";
}

std::string
PlotJobs(const PlotContext& pc)
{
    std::string dat = pc.workDir + "/jobs.dat";
    std::ofstream out(dat);
    for (size_t i = 0; i < pc.main.jobs.size(); i++)
    {
        out << pc.main.names[i];
        for (int v = 0; v < 3; v++)
        {
            const VariantMetrics& vm = Variant(pc.metrics, v);
            out << " " << (vm.present ? Fmt(vm.jobs[i].mean, 4) : "NaN") << " "
                << (vm.present ? Fmt(vm.jobs[i].p99, 4) : "NaN");
        }
        out << "\n";
    }
    out.close();
    std::vector<std::string> plots;
    int shown = 0;
    for (int v = 0; v < 3; v++)
    {
        if (Variant(pc.metrics, v).present)
        {
            shown++;
        }
    }
    int k = 0;
    for (int v = 0; v < 3; v++)
    {
        if (!Variant(pc.metrics, v).present)
        {
            continue;
        }
        // bars side by side around each job, its p99 a point above its bar
        double dx = 0.8 / shown;
        double x = -0.4 + dx * (k + 0.5);
        char buf[256];
        std::snprintf(buf,
                      sizeof buf,
                      "'%s' using ($0%+.3f):%d:(%.3f)%s with boxes lc %d title '%s', "
                      "'' using ($0%+.3f):%d with points pt 7 lc %d notitle",
                      dat.c_str(),
                      x,
                      2 + 2 * v,
                      dx,
                      k == 0 ? ":xtic(1)" : "",
                      v + 1,
                      kVariantNames[v],
                      x,
                      3 + 2 * v,
                      v + 1);
        plots.push_back(buf);
        k++;
    }
    return Plot(pc,
                "jobs",
                "iteration time / ideal per job (bars: mean, points: p99)",
                "set style fill solid 0.7 border -1\nset xtics rotate by -45 scale 0\n"
                "set yrange [0:*]\nset arrow from graph 0, first 1.1 to graph 1, first 1.1 "
                "nohead dt 2\n",
                plots);
}

std::string
PlotCdf(const PlotContext& pc)
{
    std::vector<std::string> plots;
    for (int v = 0; v < 3; v++)
    {
        const VariantMetrics& vm = Variant(pc.metrics, v);
        if (!vm.present)
        {
            continue;
        }
        std::string dat = pc.workDir + "/cdf-" + std::to_string(v) + ".dat";
        std::vector<double> means;
        for (const JobMetrics& jm : vm.jobs)
        {
            means.push_back(jm.mean);
        }
        std::sort(means.begin(), means.end());
        std::ofstream out(dat);
        for (size_t k = 0; k < means.size(); k++)
        {
            out << Fmt(means[k], 4) << " " << Fmt(double(k + 1) / means.size(), 4) << "\n";
        }
        plots.push_back("'" + dat + "' using 1:2 with steps lw 2 lc " + std::to_string(v + 1) +
                        " title '" + kVariantNames[v] + "'");
    }
    return Plot(pc,
                "cdf",
                "distribution over jobs of the mean iteration time / ideal",
                "set key bottom right\nset xlabel 'iteration time / ideal'\n"
                "set ylabel 'share of jobs'\nset yrange [0:1.05]\n",
                plots);
}

std::string
PlotSettle(const PlotContext& pc)
{
    // after each iteration end: the worst job's mean of its last five iterations / ideal
    std::vector<std::string> plots;
    for (int v = 0; v < 3; v++)
    {
        const VariantRun& vr = VariantOf(pc.main, v);
        if (!vr.present)
        {
            continue;
        }
        std::vector<std::pair<double, std::pair<size_t, double>>> ends;
        for (size_t i = 0; i < pc.main.jobs.size(); i++)
        {
            std::vector<RunResult::Iter> its = Iterations(vr.run, pc.main.jobs[i]);
            for (size_t k = 0; k < its.size(); k++)
            {
                size_t from = k + 1 - std::min<size_t>(k + 1, kSettleWindow);
                double acc = 0;
                for (size_t q = from; q <= k; q++)
                {
                    acc += its[q].endMs - its[q].startMs;
                }
                ends.push_back({its[k].endMs, {i, acc / (k + 1 - from) / pc.main.idealMs[i]}});
            }
        }
        std::sort(ends.begin(), ends.end());
        std::string dat = pc.workDir + "/settle-" + std::to_string(v) + ".dat";
        std::ofstream out(dat);
        // sampled every 100 ms: a small plot whatever the number of iterations
        std::vector<double> latest(pc.main.jobs.size(), 0);
        double sampleMs = kSetupMs + 100;
        for (const auto& e : ends)
        {
            for (; sampleMs <= e.first; sampleMs += 100)
            {
                out << Fmt((sampleMs - kSetupMs) / 1e3, 1) << " "
                    << Fmt(*std::max_element(latest.begin(), latest.end()), 3) << "\n";
            }
            latest[e.second.first] = e.second.second;
        }
        plots.push_back("'" + dat + "' using 1:2 with lines lc " + std::to_string(v + 1) +
                        " title '" + kVariantNames[v] + "'");
    }
    return Plot(pc,
                "settle",
                "the worst job: mean of its last 5 iterations / ideal",
                "set key top right\nset xlabel 'time (s)'\nset yrange [0.9:*]\n"
                "set arrow from graph 0, first 1.1 to graph 1, first 1.1 nohead dt 2\n",
                plots);
}

/** Against the number of jobs (at the main oversubscription) or the oversubscription. */
std::string
PlotSweep(const PlotContext& pc,
          const std::vector<PointResult>& points,
          const std::vector<PointMetrics>& metrics,
          bool oversub)
{
    std::vector<size_t> idx;
    for (size_t i = 0; i < points.size(); i++)
    {
        if (oversub ? points[i].njobs == pc.main.njobs
                    : points[i].oversubscription == pc.main.oversubscription)
        {
            idx.push_back(i);
        }
    }
    if (idx.size() < 2)
    {
        return "";
    }
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
        return oversub ? points[a].oversubscription < points[b].oversubscription
                       : points[a].njobs < points[b].njobs;
    });
    std::string name = oversub ? "oversub" : "load";
    std::vector<std::string> plots;
    for (int v = 0; v < 3; v++)
    {
        std::string dat = pc.workDir + "/" + name + "-" + std::to_string(v) + ".dat";
        std::ofstream out(dat);
        size_t rows = 0;
        for (size_t i : idx)
        {
            const VariantMetrics& vm = Variant(metrics[i], v);
            if (vm.present)
            {
                out << (oversub ? points[i].oversubscription : double(points[i].njobs)) << " "
                    << Fmt(vm.mean, 4) << " " << Fmt(vm.p99, 4) << "\n";
                rows++;
            }
        }
        if (rows)
        {
            std::string lc = " lc " + std::to_string(v + 1);
            plots.push_back("'" + dat + "' using 1:2 with linespoints" + lc + " title '" +
                            kVariantNames[v] + "'");
            plots.push_back("'" + dat + "' using 1:3 with linespoints dt 2" + lc + " notitle");
        }
    }
    return Plot(pc,
                name,
                std::string("iteration time / ideal against ") +
                    (oversub ? "the oversubscription" : "the number of jobs") +
                    " (solid: mean, dashed: p99)",
                std::string("set xlabel '") + (oversub ? "oversubscription (x:1)" : "jobs") +
                    "'\nset yrange [0.9:*]\n",
                plots);
}

} // namespace

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
    md << "- Centralized: start offsets from jc_schedule() under stock " << CcAlgoName(sc.cc)
       << "; overlap score at those offsets, summed over shared links: "
       << Fmt(main.centralOverlap, 3) << ".\n\n";
    md << "Iteration times are each job's last-half mean (or p99) over its time alone; "
          "definitions in lab/sim/README.md.\n\n";

    // the main point
    md << "## Main point: " << PointName(main) << "\n\n";
    md << "| | mean | p99 | worst job | settled at iteration | drops | ECN marks |\n"
          "|---|---|---|---|---|---|---|\n";
    for (int v = 0; v < 3; v++)
    {
        const VariantMetrics& vm = Variant(mm, v);
        if (!vm.present)
        {
            md << "| " << kVariantNames[v] << " | not run | | | | | |\n";
            continue;
        }
        md << "| " << kVariantNames[v] << " | " << Fmt(vm.mean) << "x | " << Fmt(vm.p99) << "x | "
           << Fmt(vm.worst) << "x | " << Settle(vm) << " | " << vm.drops << " | " << vm.marks
           << " |\n";
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
               << " jobs finished no iteration in the last half; the mean leaves them out.\n";
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
              "ECN marks |\n|---|---|---|---|---|---|---|\n";
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
               << n(m.central, m.central.marks) << " |\n";
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
