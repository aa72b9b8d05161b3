/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compat model (userspace/jobcompat) applied to a simulated cluster:
 * which jobs share which links and what jc_link_eval() predicts for each
 * shared link (CompatModel); and the centralized schedule, a Cassini-like
 * shift per job solved over every shared link from the jobs' runs alone
 * (CentralSchedule).
 *
 * A job looks different from each link: a ring link carries the whole
 * phase, a parameter server's downlink only the pushes, a worker's downlink
 * only its pull, half a phase later.  Each job's view of a link is built
 * from the paths its connections take (Topology::Path()) and what each
 * carries (ChannelPhaseLoad()): the intervals the link is busy with the
 * job within an iteration, as compute-then-communication segments whose
 * sum is the job's iteration alone; a link where two of a job's
 * connections meet counts the job once there.
 */
#ifndef MLTCP_SIM_SCHEDULE_H
#define MLTCP_SIM_SCHEDULE_H

#include "scenario.h"

extern "C"
{
#include "jobcompat.h"
}

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/** A link that two jobs or more cross, and what the compat model expects there. */
struct SharedLink
{
    uint32_t link;
    std::string name;
    double goodputBps;
    std::vector<uint32_t> jobs; //!< positions in the model's job list
    std::vector<jc_job> views;  //!< each one's view of this link
    double demand = 0;          //!< busy share of an iteration, summed over the jobs
    bool evaluated = false;     //!< jc_link_eval() accepted it
    jc_link_result result;
};

class CompatModel
{
  public:
    /**
     * @jobs and @hosts: the scenario's (or a case's) jobs and their hosts;
     * @subset: the ones running, in the order the model numbers them.
     */
    CompatModel(const Scenario& scenario,
                const Topology& topology,
                const std::vector<JobInstance>& jobs,
                const std::vector<std::vector<uint32_t>>& hosts,
                const std::vector<uint32_t>& subset);

    /** @return the shared links, the busiest first. */
    const std::vector<SharedLink>& Links() const;
    /** @return job @i's iteration alone (jc_ideal_ms() of its view). */
    double IdealMs(size_t i) const;
    /** @return job @i's iteration under fair sharing: its slowest shared link's. */
    double FairMs(size_t i) const;
    /** @return the same when the jobs take turns. */
    double InterleavedMs(size_t i) const;

  private:
    /** What a job puts on one link in each segment of its iteration. */
    struct LinkUse
    {
        std::vector<double> bytes;   //!< payload bytes
        std::vector<double> startMs; //!< from the start of the segment's communication
    };

    struct JobModel
    {
        std::string name;
        double periodMs = 0;               //!< its iteration alone
        std::vector<double> computeMs;     //!< per segment
        std::vector<double> phaseStartMs;  //!< per segment, from the iteration's start
        std::map<uint32_t, LinkUse> links; //!< every link it uses
        double fairMs = 0;
        double interleavedMs = 0;
    };

    /** @return job @i's view of link @link and where the view's iteration starts. */
    jc_job View(size_t i, uint32_t link, double* originMs) const;
    /** @return the time job @i keeps @link busy per iteration. */
    double BusyMs(size_t i, uint32_t link) const;

    const Topology& m_topology;
    std::vector<JobModel> m_jobs;
    std::vector<SharedLink> m_links;
};

/**
 * The centralized schedule, as Cassini's agents hold it: job i's iteration
 * k starts no earlier than shift_i + k x period_i, period_i its iteration
 * alone measured in the simulator (its ideal) times 1 + central_slack: a
 * job held to exactly its ideal never makes up a late iteration (the
 * first's slow start, a loss), so every lag would shift it for good into
 * its neighbour's turn; the slack lets it catch up by that share of an
 * iteration each iteration.
 *
 * Each job's traffic on each link is a rate over its period, from the
 * same run alone: a communication phase lasts its share of the measured
 * iteration (the profile's phase times scaled so that compute plus
 * communication is the ideal), each connection sends its bytes over its
 * part of the phase (a ring step's connection the whole phase, a
 * parameter server's pushes the first half and pulls the second) at the
 * rate that takes, the rate it gets alone (a host-capped flow at its
 * host's, not at the uplink's).  The shifts minimise the traffic above
 * capacity, summed over every link two jobs cross, over the run's length
 * (periods that are not commensurate drift against each other and the
 * sum sees it), by coordinate descent over each job's shift in 1/64ths
 * of its period, each job taking the middle of its widest range of
 * cheapest shifts (the largest margin).  The same fluid model predicts each job's iteration
 * under the schedule: its ideal plus, per millisecond it sends, its most
 * over-committed link's excess (load / capacity - 1).
 */
class CentralSchedule
{
  public:
    /**
     * @idealMs: each of @subset's jobs' iteration alone (ms, measured);
     * @durationMs: the run's length.
     */
    CentralSchedule(const Scenario& scenario,
                    const Topology& topology,
                    const std::vector<JobInstance>& jobs,
                    const std::vector<std::vector<uint32_t>>& hosts,
                    const std::vector<uint32_t>& subset,
                    const std::vector<double>& idealMs,
                    double durationMs);

    /** @return each job's shift, ms within its period. */
    const std::vector<double>& ShiftsMs() const;
    /** @return each job's gate period, ms: its ideal and the slack (central_slack). */
    const std::vector<double>& GatesMs() const;
    /** @return each job's predicted iteration under the schedule, mean over the run's last half. */
    const std::vector<double>& PredictedMs() const;
    /** @return the traffic above capacity at the shifts, ms of a full link, over the run. */
    double ExcessMs() const;
    /** @return the same with every shift 0 (every job released at once). */
    double AlignedExcessMs() const;

  private:
    /** A job's rate on one link, per bin of its period, as a share of the link. */
    struct Use
    {
        uint32_t link; //!< index into m_capacity
        std::vector<float> share;
    };

    /** @return the excess of @link's @load with job @i added at @shift bins. */
    double LinkExcess(const std::vector<float>& load, const Use& use, uint32_t i, int shift) const;
    void Add(std::vector<float>& load, const Use& use, uint32_t i, int shift, float sign) const;

    std::vector<int> m_period;             //!< per job, bins
    std::vector<std::vector<Use>> m_uses;  //!< per job, its shared links only
    std::vector<std::vector<float>> m_load; //!< per shared link, per bin of the run
    std::vector<double> m_shiftMs;
    std::vector<double> m_gateMs;
    std::vector<double> m_predMs;
    double m_excess = 0;
    double m_alignedExcess = 0;
};

} // namespace ns3

#endif /* MLTCP_SIM_SCHEDULE_H */
