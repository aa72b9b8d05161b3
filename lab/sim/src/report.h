/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the runs of a scenario mean to an operator: each job's iteration
 * time against its time alone, under the stock algorithm, MLTCP and the
 * centralized schedule; when the cluster settles; drops and marks; the
 * targets, met or not; and the compat model's predictions beside the
 * simulated times.  Printed, written as markdown, and plotted with gnuplot.
 *
 * Definitions (lab/sim/README.md):
 * - a job's ideal is its mean iteration time alone on the same network;
 * - a job's mean and p99 are over the iterations that start in the last
 *   half of the run, divided by its ideal; the cluster's mean is the mean
 *   over jobs, its p99 the 99th percentile of all those iterations;
 * - a job has stalled when it finished no iteration in the last
 *   max(2 s, 5 ideal iterations) of a run; a stalled job's unfinished
 *   iteration counts in its mean and p99 at the time it has taken so far,
 *   and a job with no iteration in the last half fails: it counts at that
 *   time alone, never left out of the cluster's mean;
 * - a job has settled at iteration k when the mean of every five
 *   consecutive iterations from k on is within 1.10x its ideal; the
 *   cluster has settled when every job has, at the latest of those
 *   iterations' start times.
 *
 * report.cc writes the text; the figures are report-metrics.*'s, the
 * targets report-targets.*'s, the plots report-plots.*'s, and how numbers
 * are written report-format.*'s.
 */
#ifndef MLTCP_SIM_REPORT_H
#define MLTCP_SIM_REPORT_H

#include "scenario.h"
#include "schedule.h"

#include <string>
#include <vector>

namespace ns3
{

/** One variant's run at one point of the sweep. */
struct VariantRun
{
    bool present = false;
    std::string note; //!< why it is absent
    RunResult run;
};

/** A point of the sweep (the number of jobs and the oversubscription) and its runs. */
struct PointResult
{
    uint32_t seed = 0; //!< the run's seed, 0: the scenario's
    uint32_t njobs = 0;
    double oversubscription = 0; //!< 0: the topology has none
    std::vector<uint32_t> jobs;  //!< indices into the scenario's jobs
    std::vector<std::string> names;
    std::vector<double> idealMs;      //!< measured alone, stock algorithm
    std::vector<double> mltcpAloneMs; //!< measured alone under MLTCP
    std::vector<double> offsetsMs;    //!< stock's and MLTCP's start offsets
    std::vector<double> centralOffsetsMs; //!< the centralized schedule's shifts
    std::vector<double> centralPredMs;    //!< its fluid model's iteration under them
    std::vector<double> predIdealMs; //!< the compat model's
    std::vector<double> predFairMs;
    std::vector<double> predInterleavedMs;
    std::vector<SharedLink> links;
    double centralExcessMs = 0; //!< the model's traffic above capacity at the shifts
    double alignedExcessMs = 0; //!< the same with every job released at once
    VariantRun stock;
    VariantRun mltcp;
    VariantRun central;
    VariantRun twin; //!< stock again, its starts nudged (TwinOffsets()); over seeds only
};

struct ReportInput
{
    const Scenario* scenario = nullptr;
    std::string command;  //!< the command line that produced it
    std::string machine;  //!< what it ran on
    std::string topology; //!< Topology::Describe() at the main point
    std::string queues;   //!< how the switch ports queue
    double wallS = 0;     //!< all runs, wall clock; 0: not measured (--report-only)
    uint32_t processes = 1;
    std::vector<PointResult> points; //!< the first seed's; the first is the main point
    std::vector<std::vector<PointResult>> seeds; //!< every seed's points, the first's first
    std::vector<RunResult> aloneRuns;
};

/** Per job, per variant: the figures the report gives. */
struct JobMetrics
{
    double mean = 0;    //!< last-half mean / ideal
    double p99 = 0;     //!< last-half p99 / ideal
    uint32_t count = 0; //!< iterations in the last half
    int settle = -1;    //!< iteration it settled at, -1 never
    double settleMs = 0;
    double stalledMs = -1; //!< when it stopped finishing iterations, -1: it did not
    bool failed = false;   //!< no iteration in the last half: counted at its open one
};

struct VariantMetrics
{
    bool present = false;
    std::vector<JobMetrics> jobs;
    double mean = 0;      //!< mean over every job, failed and stalled ones included
    uint32_t missing = 0; //!< jobs that failed: no iteration in the last half
    uint32_t stalled = 0; //!< jobs that stopped finishing iterations
    double p99 = 0;       //!< over all last-half iterations
    double worst = 0;     //!< the largest job mean
    int settle = -1;      //!< the largest job settle iteration, -1 never
    double settleS = 0;
    uint64_t drops = 0;
    uint64_t marks = 0;
    int64_t rtos = -1; //!< RTOs over every sending socket, -1: no socket records
};

/** @return @run's mean iteration time of @job over the last half of the run, ms. */
double LastHalfMeanMs(const RunResult& run, uint32_t job);

/** Analyse @run's jobs @jobs with ideals @idealMs. */
VariantMetrics Analyse(const Scenario& scenario,
                       const VariantRun& run,
                       const std::vector<uint32_t>& jobs,
                       const std::vector<double>& idealMs);

/**
 * Print the summary, write @resultsDir/<scenario>.md and its plots (data
 * and gnuplot scripts under @workDir).  @return true when every target is met.
 */
bool WriteReport(const ReportInput& input,
                 const std::string& workDir,
                 const std::string& resultsDir);

} // namespace ns3

#endif /* MLTCP_SIM_REPORT_H */
