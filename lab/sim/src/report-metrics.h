/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's figures from the runs' records: iterations per job, last-half
 * means and p99s against the ideal, settling and stalls (the definitions are
 * report.h's); and the three variants' figures at a point of the sweep.
 * LastHalfMeanMs() and Analyse() are declared in report.h.
 */
#ifndef MLTCP_SIM_REPORT_METRICS_H
#define MLTCP_SIM_REPORT_METRICS_H

#include "report.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/** A job has settled when the mean of this many consecutive iterations is within bound. */
constexpr uint32_t kSettleWindow = 5;

/** @return @run's iterations of @job, in order. */
std::vector<RunResult::Iter> Iterations(const RunResult& run, uint32_t job);

/** A point's figures, per variant. */
struct PointMetrics
{
    VariantMetrics stock;
    VariantMetrics mltcp;
    VariantMetrics central;
};

/** @return variant @v (0 stock, 1 MLTCP, 2 centralized) of @m. */
const VariantMetrics& Variant(const PointMetrics& m, int v);

/** @return variant @v (0 stock, 1 MLTCP, 2 centralized) of @p's runs. */
const VariantRun& VariantOf(const PointResult& p, int v);

} // namespace ns3

#endif /* MLTCP_SIM_REPORT_METRICS_H */
