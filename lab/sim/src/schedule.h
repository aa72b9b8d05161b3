/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compat model (userspace/jobcompat) applied to a simulated cluster:
 * which jobs share which links, what jc_link_eval() predicts for each
 * shared link, and the centralized schedule, jc_schedule()'s start shift
 * for every job.
 *
 * A job looks different from each link: a ring link carries the whole
 * phase, a parameter server's downlink only the pushes, a worker's downlink
 * only its pull, half a phase later.  Each job's view of a link is built
 * from the paths its connections take (Topology::Path()) and what each
 * carries (ChannelPhaseLoad()): the intervals the link is busy with the
 * job within an iteration, as compute-then-communication segments whose
 * sum is the job's iteration alone.  jc_schedule() takes one profile per
 * job for all links; each job gets its view of the shared link it keeps
 * busy longest, so a link where two of a job's connections meet counts the
 * job once there.
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

    /**
     * The centralized schedule: each job's start offset (ms, within its
     * iteration) from jc_schedule() over the shared links.
     * @return false with @err set when the model cannot take the cluster.
     */
    bool Schedule(std::vector<double>* offsetsMs, double* overlapSum, std::string* err) const;

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

} // namespace ns3

#endif /* MLTCP_SIM_SCHEDULE_H */
