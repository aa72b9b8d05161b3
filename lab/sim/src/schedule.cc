/* SPDX-License-Identifier: GPL-2.0 */

#include "schedule.h"

#include "training-job.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace ns3
{

CompatModel::CompatModel(const Scenario& sc,
                         const Topology& topology,
                         const std::vector<JobInstance>& jobs,
                         const std::vector<std::vector<uint32_t>>& hosts,
                         const std::vector<uint32_t>& subset)
    : m_topology(topology)
{
    const double hostGoodput = GoodputBps(sc.hostRateMbps * 1e6);
    for (uint32_t j : subset)
    {
        const JobInstance& job = jobs[j];
        ScaledProfile prof = ScaleJob(sc, job);
        const size_t nseg = prof.segments.size();
        const uint32_t n = hosts[j].size();
        std::vector<JobChannel> channels = JobChannels(job.profile.pattern, n);
        JobModel m;
        m.name = job.name;
        for (uint32_t c = 0; c < channels.size(); c++)
        {
            const JobChannel& ch = channels[c];
            if (!ch.data)
            {
                continue;
            }
            FlowKey flow{hosts[j][ch.from],
                         hosts[j][ch.to],
                         JobChannelPort(j, c),
                         JobListenPort(j)};
            for (uint32_t link : topology.Path(flow))
            {
                LinkUse& use = m.links[link];
                if (use.bytes.empty())
                {
                    use.bytes.assign(nseg, 0);
                    use.startMs.assign(nseg, std::numeric_limits<double>::infinity());
                }
                for (size_t s = 0; s < nseg; s++)
                {
                    double commMs = prof.segments[s].commBytes * 8e3 / hostGoodput;
                    ChannelLoad load = ChannelPhaseLoad(job.profile.pattern,
                                                        n,
                                                        ch,
                                                        prof.segments[s].commBytes,
                                                        commMs);
                    use.bytes[s] += load.bytes;
                    use.startMs[s] = std::min(use.startMs[s], load.startMs);
                }
            }
        }
        // A phase lasts until its slowest link is through, at least its time at the host rate.
        double t = 0;
        for (size_t s = 0; s < nseg; s++)
        {
            double phase = prof.segments[s].commBytes * 8e3 / hostGoodput;
            for (const auto& lu : m.links)
            {
                double goodput = GoodputBps(topology.Links()[lu.first].rateBps);
                phase = std::max(phase, lu.second.startMs[s] + lu.second.bytes[s] * 8e3 / goodput);
            }
            m.computeMs.push_back(prof.segments[s].computeMs);
            m.phaseStartMs.push_back(t + prof.segments[s].computeMs);
            t += prof.segments[s].computeMs + phase;
        }
        m.periodMs = t;
        m.fairMs = t;
        m.interleavedMs = t;
        m_jobs.push_back(m);
    }

    std::map<uint32_t, std::vector<uint32_t>> users;
    for (uint32_t i = 0; i < m_jobs.size(); i++)
    {
        for (const auto& lu : m_jobs[i].links)
        {
            users[lu.first].push_back(i);
        }
    }
    for (const auto& u : users)
    {
        if (u.second.size() < 2)
        {
            continue;
        }
        SharedLink sl;
        sl.link = u.first;
        sl.name = topology.Links()[u.first].name;
        sl.goodputBps = GoodputBps(topology.Links()[u.first].rateBps);
        sl.jobs = u.second;
        for (uint32_t i : u.second)
        {
            double origin;
            sl.views.push_back(View(i, u.first, &origin));
            sl.demand += BusyMs(i, u.first) / m_jobs[i].periodMs;
        }
        m_links.push_back(sl);
    }
    std::stable_sort(m_links.begin(), m_links.end(), [](const SharedLink& a, const SharedLink& b) {
        return a.demand > b.demand;
    });
    for (SharedLink& sl : m_links)
    {
        if (sl.jobs.size() > JC_MAX_JOBS)
        {
            continue;
        }
        jc_link l{};
        l.rate_bps = sl.goodputBps;
        l.njobs = sl.jobs.size();
        for (uint32_t k = 0; k < l.njobs; k++)
        {
            l.job[k] = k;
        }
        sl.evaluated = jc_link_eval(sl.views.data(), &l, sc.jcThreshold, &sl.result) == 0;
        if (!sl.evaluated)
        {
            continue;
        }
        for (uint32_t k = 0; k < l.njobs; k++)
        {
            JobModel& m = m_jobs[sl.jobs[k]];
            m.fairMs = std::max(m.fairMs, sl.result.fair_ms[k]);
            m.interleavedMs = std::max(m.interleavedMs, sl.result.interleaved_ms[k]);
        }
    }
}

const std::vector<SharedLink>&
CompatModel::Links() const
{
    return m_links;
}

double
CompatModel::BusyMs(size_t i, uint32_t link) const
{
    const LinkUse& use = m_jobs[i].links.at(link);
    double bytes = 0;
    for (double b : use.bytes)
    {
        bytes += b;
    }
    return bytes * 8e3 / GoodputBps(m_topology.Links()[link].rateBps);
}

jc_job
CompatModel::View(size_t i, uint32_t link, double* originMs) const
{
    const JobModel& m = m_jobs[i];
    const LinkUse& use = m.links.at(link);
    double goodput = GoodputBps(m_topology.Links()[link].rateBps);
    // the intervals the link carries the job's bytes, from the iteration's start
    std::vector<double> begin;
    std::vector<double> end;
    std::vector<double> bytes;
    for (size_t s = 0; s < use.bytes.size(); s++)
    {
        if (use.bytes[s] <= 0)
        {
            continue;
        }
        double b = m.phaseStartMs[s] + use.startMs[s];
        double e = b + use.bytes[s] * 8e3 / goodput;
        if (!end.empty() && b <= end.back())
        {
            end.back() = std::max(end.back(), e);
            bytes.back() += use.bytes[s];
        }
        else
        {
            begin.push_back(b);
            end.push_back(e);
            bytes.push_back(use.bytes[s]);
        }
    }
    // The idle time after the last interval wraps to the front: the view's
    // iteration starts that long before the job's.
    *originMs = std::max(0.0, m.periodMs - end.back());
    jc_job v{};
    std::strncpy(v.name, m.name.c_str(), JC_NAME_LEN - 1);
    v.nseg = std::min<size_t>(begin.size(), JC_MAX_SEGMENTS);
    for (unsigned k = 0; k < v.nseg; k++)
    {
        v.seg[k].compute_ms = k == 0 ? begin[0] + *originMs : std::max(0.0, begin[k] - end[k - 1]);
        v.seg[k].bytes = bytes[k];
    }
    return v;
}

double
CompatModel::IdealMs(size_t i) const
{
    // the view of the link the job keeps busy longest adds up to its iteration alone
    const JobModel& m = m_jobs[i];
    uint32_t best = m.links.begin()->first;
    for (const auto& lu : m.links)
    {
        if (BusyMs(i, lu.first) > BusyMs(i, best))
        {
            best = lu.first;
        }
    }
    double origin;
    jc_job v = View(i, best, &origin);
    return jc_ideal_ms(&v, GoodputBps(m_topology.Links()[best].rateBps));
}

double
CompatModel::FairMs(size_t i) const
{
    return m_jobs[i].fairMs;
}

double
CompatModel::InterleavedMs(size_t i) const
{
    return m_jobs[i].interleavedMs;
}

bool
CompatModel::Schedule(std::vector<double>* offsetsMs, double* overlapSum, std::string* err) const
{
    const size_t n = m_jobs.size();
    offsetsMs->assign(n, 0);
    *overlapSum = 0;
    if (n > JC_MAX_JOBS)
    {
        *err = "the compat model schedules at most " + std::to_string(JC_MAX_JOBS) + " jobs";
        return false;
    }
    std::vector<jc_link> links;
    for (const SharedLink& sl : m_links)
    {
        if (links.size() == JC_MAX_LINKS || sl.jobs.size() > JC_MAX_JOBS)
        {
            continue; // the busiest links come first: the ones left out matter least
        }
        jc_link l{};
        l.rate_bps = sl.goodputBps;
        l.njobs = sl.jobs.size();
        std::copy(sl.jobs.begin(), sl.jobs.end(), l.job);
        links.push_back(l);
    }
    if (links.empty())
    {
        return true;
    }
    // each job's profile: its view of the shared link it keeps busy longest
    std::vector<jc_job> profiles(n);
    std::vector<double> origins(n, 0);
    for (size_t i = 0; i < n; i++)
    {
        int best = -1;
        for (const SharedLink& sl : m_links)
        {
            if (std::find(sl.jobs.begin(), sl.jobs.end(), i) != sl.jobs.end() &&
                (best < 0 || BusyMs(i, sl.link) > BusyMs(i, uint32_t(best))))
            {
                best = int(sl.link);
            }
        }
        if (best < 0)
        {
            best = int(m_jobs[i].links.begin()->first);
        }
        profiles[i] = View(i, uint32_t(best), &origins[i]);
    }
    std::vector<double> shift(n, 0);
    std::vector<double> overlap(links.size(), 0);
    if (jc_schedule(profiles.data(), n, links.data(), links.size(), shift.data(), overlap.data()) !=
        0)
    {
        *err = "jc_schedule() refused the cluster";
        return false;
    }
    for (size_t i = 0; i < n; i++)
    {
        (*offsetsMs)[i] = std::fmod(shift[i] + origins[i], m_jobs[i].periodMs);
    }
    for (double o : overlap)
    {
        *overlapSum += o;
    }
    return true;
}

} // namespace ns3
