/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's figures from the runs' records (report-metrics.h): a job's
 * last-half mean and p99 over its ideal, when it settled or stalled, and
 * the cluster's over its jobs.
 */

#include "report-metrics.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

static const double kSettleBound = 1.10;

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
std::vector<RunResult::Iter>
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
        double open = run.simS * 1e3 - lastEnd;
        if (open > std::max(2000.0, 5 * idealMs[i]))
        {
            jm.stalledMs = lastEnd;
            vm.stalled++;
        }
        // A job stalled, or with no iteration in the last half, is counted, not
        // left out: its unfinished iteration enters at the time it has taken so
        // far (a lower bound), and a job with nothing else fails.
        if (jm.stalledMs >= 0 || window.empty())
        {
            window.push_back(open / idealMs[i]);
            jm.failed = jm.count == 0;
        }
        double s = 0;
        for (double r : window)
        {
            s += r;
        }
        jm.mean = s / window.size();
        jm.p99 = Percentile(window, 0.99);
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
        vm.missing += jm.failed;
        sum += jm.mean;
        vm.worst = std::max(vm.worst, jm.mean);
        vm.jobs.push_back(jm);
    }
    vm.mean = jobs.empty() ? NAN : sum / jobs.size();
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
    if (run.socketsRead)
    {
        vm.rtos = run.sockets.rtos;
    }
    (void)sc;
    return vm;
}

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

} // namespace ns3
