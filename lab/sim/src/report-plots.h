/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's plots: their data and gnuplot scripts under the work
 * directory, the svgs beside the markdown.  Each Plot*() returns the svg's
 * name, or "" when there is nothing to plot or gnuplot failed.
 */
#ifndef MLTCP_SIM_REPORT_PLOTS_H
#define MLTCP_SIM_REPORT_PLOTS_H

#include "report-metrics.h"

#include <string>
#include <vector>

namespace ns3
{

/** What the plots need. */
struct PlotContext
{
    std::string base;
    std::string workDir;
    std::string resultsDir;
    const PointResult& main;
    const PointMetrics& metrics;
};

/**
 * Plot @plots (one gnuplot plot clause each) with @settings into
 * BASE-@name.svg. @return the svg's name or "".
 */
std::string Plot(const PlotContext& pc,
                 const std::string& name,
                 const std::string& title,
                 const std::string& settings,
                 const std::vector<std::string>& plots);

/** Per job at the main point: mean (bars) and p99 (points) over the ideal. */
std::string PlotJobs(const PlotContext& pc);

/** The distribution over jobs of the mean over the ideal. */
std::string PlotCdf(const PlotContext& pc);

/** Over time: the worst job's mean of its last 5 iterations over the ideal. */
std::string PlotSettle(const PlotContext& pc);

/** Against the number of jobs (at the main oversubscription) or the oversubscription. */
std::string PlotSweep(const PlotContext& pc,
                      const std::vector<PointResult>& points,
                      const std::vector<PointMetrics>& metrics,
                      bool oversub);

} // namespace ns3

#endif /* MLTCP_SIM_REPORT_PLOTS_H */
