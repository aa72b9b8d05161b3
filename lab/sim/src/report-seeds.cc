/* SPDX-License-Identifier: GPL-2.0 */
/* The report over seeds (report-seeds.h). */

#include "report-seeds.h"

#include "report-format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{

/** The median and range of some figures, NaNs left out. */
struct Spread
{
    double med = NAN;
    double lo = NAN;
    double hi = NAN;
};

Spread
Over(std::vector<double> v)
{
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
    Spread s;
    if (v.empty())
    {
        return s;
    }
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    s.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    s.lo = v.front();
    s.hi = v.back();
    return s;
}

std::string
Cell(const Spread& s, int prec = 2)
{
    if (std::isnan(s.med))
    {
        return "-";
    }
    if (s.lo == s.hi)
    {
        return Fmt(s.med, prec);
    }
    return Fmt(s.med, prec) + " (" + Fmt(s.lo, prec) + "-" + Fmt(s.hi, prec) + ")";
}

std::string
Verdict(bool applicable, bool met)
{
    return !applicable ? "n/a" : met ? "met" : "**NOT met**";
}

/** A variant's figures against stock's at one point, over seeds. */
struct HarmFigures
{
    bool present = false;
    Spread mean;               //!< per-seed ratios of the cluster's means
    Spread p99;                //!< and of its p99s
    std::vector<double> pairs; //!< per (job, seed): the job's mean over its mean under stock
    size_t within = 0;         //!< pairs at or below 1.05

    double Share() const
    {
        return pairs.empty() ? NAN : double(within) / pairs.size();
    }
};

/**
 * @return MLTCP's figures at point @k against stock's, or with @twin, stock's
 * twin's: the seeds without a twin run are left out.
 */
HarmFigures
AgainstStock(const std::vector<std::vector<PointMetrics>>& metrics,
             const std::vector<std::vector<VariantMetrics>>& twins,
             size_t k,
             bool twin)
{
    HarmFigures h;
    std::vector<double> rMean, rP99;
    for (size_t s = 0; s < metrics.size(); s++)
    {
        const VariantMetrics& stock = metrics[s][k].stock;
        const VariantMetrics& other = twin ? twins[s][k] : metrics[s][k].mltcp;
        if (!other.present)
        {
            continue;
        }
        h.present = true;
        rMean.push_back(other.mean / stock.mean);
        rP99.push_back(other.p99 / stock.p99);
        for (size_t i = 0; i < other.jobs.size(); i++)
        {
            double r = other.jobs[i].mean / stock.jobs[i].mean;
            h.pairs.push_back(r);
            h.within += r <= 1.05;
        }
    }
    h.mean = Over(rMean);
    h.p99 = Over(rP99);
    std::sort(h.pairs.begin(), h.pairs.end());
    return h;
}

/** "N of M (P%)": the pairs within 1.05x. */
std::string
WithinCell(const HarmFigures& h)
{
    return std::to_string(h.within) + " of " + std::to_string(h.pairs.size()) + " (" +
           Fmt(100 * h.Share(), 0) + "%)";
}

/** Writes sorted @pairs as a CDF for gnuplot; @return the file's path. */
std::string
PairsData(const PlotContext& pc, const std::string& prefix, size_t k,
          const std::vector<double>& pairs)
{
    std::string dat = pc.workDir + "/" + prefix + std::to_string(k) + ".dat";
    std::ofstream out(dat);
    for (size_t i = 0; i < pairs.size(); i++)
    {
        out << Fmt(pairs[i], 4) << " " << Fmt(double(i + 1) / pairs.size(), 4) << "\n";
    }
    return dat;
}

} // namespace

std::vector<std::string>
WriteSeedSummary(const ReportInput& in, const PlotContext& pc, std::ostream& md)
{
    const Scenario& sc = *in.scenario;
    const size_t nseeds = in.seeds.size();
    const size_t npoints = in.seeds.front().size();
    // metrics[s][k]: seed s, point k
    std::vector<std::vector<PointMetrics>> metrics(nseeds);
    // twins[s][k]: stock's twin, absent where it did not run
    std::vector<std::vector<VariantMetrics>> twins(nseeds);
    std::ostringstream seedList;
    for (size_t s = 0; s < nseeds; s++)
    {
        seedList << (s ? ", " : "") << in.seeds[s].front().seed;
        for (const PointResult& p : in.seeds[s])
        {
            metrics[s].push_back({Analyse(sc, p.stock, p.jobs, p.idealMs),
                                  Analyse(sc, p.mltcp, p.jobs, p.idealMs),
                                  Analyse(sc, p.central, p.jobs, p.idealMs)});
            twins[s].push_back(Analyse(sc, p.twin, p.jobs, p.idealMs));
        }
    }
    md << "## Over seeds\n\n"
       << nseeds << " seeds (" << seedList.str()
       << "): each draws the placement, the ECMP salt and the start offsets. Per point and "
          "variant, the median over seeds and the range in brackets; a job that finished no "
          "iteration in the last half counts at the time its open iteration had taken (failed "
          "jobs: summed over seeds); RTOs over every sending socket of a run.\n\n"
          "| point | variant | mean | p99 | worst job | drops | RTOs | failed jobs |\n"
          "|---|---|---|---|---|---|---|---|\n";
    std::printf(
        "\nover %zu seeds (median, range): mean | p99 | worst job | drops | RTOs | failed\n",
        nseeds);
    for (size_t k = 0; k < npoints; k++)
    {
        const std::string name = PointName(in.seeds.front()[k]);
        // the three variants, then stock's twin where it ran
        for (int v = 0; v < 4; v++)
        {
            const char* variant = v < 3 ? kVariantNames[v] : "stock's twin";
            std::vector<double> mean, p99, worst, drops, rtos;
            uint32_t failed = 0;
            for (size_t s = 0; s < nseeds; s++)
            {
                const VariantMetrics& vm = v < 3 ? Variant(metrics[s][k], v) : twins[s][k];
                if (!vm.present)
                {
                    continue;
                }
                mean.push_back(vm.mean);
                p99.push_back(vm.p99);
                worst.push_back(vm.worst);
                drops.push_back(double(vm.drops));
                rtos.push_back(vm.rtos < 0 ? NAN : double(vm.rtos));
                failed += vm.missing;
            }
            if (mean.empty())
            {
                continue;
            }
            std::string row = Cell(Over(mean)) + " | " + Cell(Over(p99)) + " | " +
                              Cell(Over(worst)) + " | " + Cell(Over(drops), 0) + " | " +
                              Cell(Over(rtos), 0) + " | " + std::to_string(failed);
            md << "| " << name << " | " << variant << " | " << row << " |\n";
            std::printf("  %-14s %-12s %s\n", name.c_str(), variant, row.c_str());
        }
    }

    md << "\n### Do no harm\n\nMLTCP against stock at every point: the cluster's mean within "
          "1.02x and p99 within 1.05x (medians over seeds of the per-seed ratios); no job more "
          "than 5% slower than under stock in at least 95% of (job, seed) pairs; every job "
          "alone under MLTCP within 1.02x of its time alone under stock.\n\n"
          "| point | mean: MLTCP / stock | p99: MLTCP / stock | (job, seed) within 1.05x | "
          "alone: MLTCP / stock, worst job |\n|---|---|---|---|---|\n";
    std::printf("\ndo no harm (MLTCP / stock, median over seeds and range):\n");
    std::vector<std::string> cdfPlots;
    std::vector<HarmFigures> floors;
    for (size_t k = 0; k < npoints; k++)
    {
        HarmFigures h = AgainstStock(metrics, twins, k, false);
        std::vector<double> alone;
        for (size_t s = 0; s < nseeds; s++)
        {
            const PointResult& p = in.seeds[s][k];
            for (size_t i = 0; i < p.jobs.size() && i < p.mltcpAloneMs.size(); i++)
            {
                alone.push_back(p.mltcpAloneMs[i] / p.idealMs[i]);
            }
        }
        Spread sa = Over(alone);
        const std::string name = PointName(in.seeds.front()[k]);
        md << "| " << name << " | " << Cell(h.mean, 3) << ", " << Verdict(true, h.mean.med <= 1.02)
           << " | " << Cell(h.p99, 3) << ", " << Verdict(true, h.p99.med <= 1.05) << " | "
           << WithinCell(h) << ", " << Verdict(true, h.Share() >= 0.95) << " | "
           << Fmt(sa.med, 3) << " median, " << Fmt(sa.hi, 3) << " worst, "
           << Verdict(!alone.empty(), sa.hi <= 1.02) << " |\n";
        std::printf("  %-14s mean %s, p99 %s, pairs within 1.05x %zu/%zu, alone worst %s\n",
                    name.c_str(),
                    Cell(h.mean, 3).c_str(),
                    Cell(h.p99, 3).c_str(),
                    h.within,
                    h.pairs.size(),
                    Fmt(sa.hi, 3).c_str());
        cdfPlots.push_back("'" + PairsData(pc, "seeds-pairs-", k, h.pairs) +
                           "' using 1:2 with steps lw 2 lc " + std::to_string(k + 1) +
                           " title '" + name + "'");
        floors.push_back(AgainstStock(metrics, twins, k, true));
        if (floors.back().present)
        {
            cdfPlots.push_back("'" + PairsData(pc, "seeds-twin-", k, floors.back().pairs) +
                               "' using 1:2 with steps lw 1 dt 2 lc " + std::to_string(k + 1) +
                               " title '" + name + ", stock twin'");
        }
    }
    if (!floors.empty() && floors.front().present)
    {
        md << "\nThe floor under these figures: stock run again at each point and seed with each "
              "job's start a few microseconds later (job i's by (i + 1) x 10 us: the twin, "
              "`TwinOffsets()` in `lab/sim/src/run-plan.h`), and the same figures for the twin "
              "against stock. A change of starts no scheduler could choose moves them this far; "
              "where MLTCP's figure lies inside the twin's range, these seeds cannot tell it "
              "from no change.\n\n"
              "| point | mean: twin / stock | p99: twin / stock | (job, seed) within 1.05x |\n"
              "|---|---|---|---|\n";
        std::printf("the floor (stock's twin, its starts nudged by microseconds, / stock):\n");
        for (size_t k = 0; k < npoints; k++)
        {
            const HarmFigures& h = floors[k];
            const std::string name = PointName(in.seeds.front()[k]);
            md << "| " << name << " | " << Cell(h.mean, 3) << " | " << Cell(h.p99, 3) << " | "
               << WithinCell(h) << " |\n";
            std::printf("  %-14s mean %s, p99 %s, pairs within 1.05x %zu/%zu\n",
                        name.c_str(),
                        Cell(h.mean, 3).c_str(),
                        Cell(h.p99, 3).c_str(),
                        h.within,
                        h.pairs.size());
        }
    }

    md << "\n### Taking turns\n\nMLTCP against the centralized schedule: mean within 1.05x, "
          "p99 within 1.2x (medians over seeds of the per-seed ratios), settled (every job's "
          "five-iteration mean within 1.10x its ideal from then on) within 30 iterations. The "
          "schedule must beat stock by 1.3x in the mean for the point to discriminate. The "
          "schedule's model error: mean over jobs of |predicted - simulated| / simulated.\n\n"
          "| point | stock / centralized | MLTCP / centralized, mean | MLTCP / centralized, "
          "p99 | MLTCP settled at iteration | model error |\n|---|---|---|---|---|---|\n";
    std::printf("\ntaking turns (median over seeds and range):\n");
    for (size_t k = 0; k < npoints; k++)
    {
        std::vector<double> disc, rMean, rP99, settle, err;
        uint32_t never = 0;
        for (size_t s = 0; s < nseeds; s++)
        {
            const PointMetrics& m = metrics[s][k];
            const PointResult& p = in.seeds[s][k];
            if (!m.central.present)
            {
                continue;
            }
            disc.push_back(m.stock.mean / m.central.mean);
            rMean.push_back(m.mltcp.mean / m.central.mean);
            rP99.push_back(m.mltcp.p99 / m.central.p99);
            if (m.mltcp.settle < 0)
            {
                never++;
                settle.push_back(INFINITY);
            }
            else
            {
                settle.push_back(m.mltcp.settle);
            }
            double e = 0;
            size_t n = 0;
            for (size_t i = 0; i < p.jobs.size() && i < p.centralPredMs.size(); i++)
            {
                double simMs = m.central.jobs[i].mean * p.idealMs[i];
                if (std::isfinite(simMs))
                {
                    e += std::fabs(p.centralPredMs[i] - simMs) / simMs;
                    n++;
                }
            }
            err.push_back(n ? 100 * e / n : NAN);
        }
        if (disc.empty())
        {
            continue;
        }
        Spread sd = Over(disc);
        Spread sm = Over(rMean);
        Spread sp = Over(rP99);
        Spread ss = Over(settle);
        const std::string name = PointName(in.seeds.front()[k]);
        std::string settleText = (std::isinf(ss.med) ? std::string("never") : Fmt(ss.med, 0)) +
                                 (never ? " (never in " + std::to_string(never) + " of " +
                                              std::to_string(settle.size()) + " seeds)"
                                        : "");
        md << "| " << name << " | " << Cell(sd) << (sd.med >= 1.3 ? "" : ", does not discriminate")
           << " | " << Cell(sm, 3) << ", " << Verdict(true, sm.med <= 1.05) << " | "
           << Cell(sp, 3) << ", " << Verdict(true, sp.med <= 1.2) << " | " << settleText << ", "
           << Verdict(true, ss.med <= 30) << " | " << Cell(Over(err), 1) << "% |\n";
        std::printf("  %-14s stock/central %s, MLTCP/central mean %s p99 %s, settled %s, model "
                    "error %s%%\n",
                    name.c_str(),
                    Cell(sd).c_str(),
                    Cell(sm, 3).c_str(),
                    Cell(sp, 3).c_str(),
                    settleText.c_str(),
                    Cell(Over(err), 1).c_str());
    }
    md << "\n";

    // the cluster's mean per point and variant: the median, the range as error bars
    std::vector<std::string> svgs;
    std::vector<std::string> plots;
    std::string xtics = "set xtics (";
    for (size_t k = 0; k < npoints; k++)
    {
        xtics += (k ? ", '" : "'") + PointName(in.seeds.front()[k]) + "' " + std::to_string(k);
    }
    xtics += ")\n";
    for (const char* what : {"mean", "p99"})
    {
        plots.clear();
        for (int v = 0; v < 3; v++)
        {
            std::string dat = pc.workDir + "/seeds-" + what + "-" + std::to_string(v) + ".dat";
            std::ofstream out(dat);
            for (size_t k = 0; k < npoints; k++)
            {
                std::vector<double> x;
                for (size_t s = 0; s < nseeds; s++)
                {
                    const VariantMetrics& vm = Variant(metrics[s][k], v);
                    if (vm.present)
                    {
                        x.push_back(std::string(what) == "mean" ? vm.mean : vm.p99);
                    }
                }
                Spread sp = Over(x);
                if (!std::isnan(sp.med))
                {
                    out << k + 0.2 * (v - 1) << " " << Fmt(sp.med, 4) << " " << Fmt(sp.lo, 4)
                        << " " << Fmt(sp.hi, 4) << "\n";
                }
            }
            plots.push_back("'" + dat + "' using 1:2:3:4 with yerrorbars pt 7 lc " +
                            std::to_string(v + 1) + " title '" + kVariantNames[v] + "'");
        }
        std::string svg = Plot(pc,
                               std::string("seeds-") + what,
                               std::string("cluster ") + what +
                                   " iteration / ideal: median over " + std::to_string(nseeds) +
                                   " seeds, bars from the lowest to the highest",
                               xtics + "set xrange [-0.5:" + std::to_string(npoints - 0.5) +
                                   "]\nset yrange [0.9:*]\n",
                               plots);
        if (!svg.empty())
        {
            svgs.push_back(svg);
        }
    }
    std::string svg = Plot(pc,
                           "seeds-harm",
                           "MLTCP / stock per (job, seed), dashed: stock twin / stock; the "
                           "share of pairs at or below x",
                           "set xlabel 'job mean under MLTCP / under stock'\nset key bottom "
                           "right\nset arrow from 1.05, graph 0 to 1.05, graph 1 nohead dt 2\n"
                           "set yrange [0:1]\n",
                           cdfPlots);
    if (!svg.empty())
    {
        svgs.push_back(svg);
    }
    return svgs;
}

} // namespace ns3
