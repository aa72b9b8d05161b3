/* SPDX-License-Identifier: GPL-2.0 */
/* The report's plots: data, gnuplot scripts and svgs (report-plots.h). */

#include "report-plots.h"

#include "report-format.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace ns3
{

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

} // namespace ns3
