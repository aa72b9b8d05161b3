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

/** Width of the centralized schedule's time bins, ms. */
static const double kBinMs = 1.0;
/** Shifts tried per period, and the passes over the jobs. */
static const int kShiftSteps = 64;
static const int kPasses = 6;

CentralSchedule::CentralSchedule(const Scenario& sc,
                                 const Topology& topology,
                                 const std::vector<JobInstance>& jobs,
                                 const std::vector<std::vector<uint32_t>>& hosts,
                                 const std::vector<uint32_t>& subset,
                                 const std::vector<double>& idealMs,
                                 double durationMs)
{
    const size_t n = subset.size();
    const double hostGoodput = GoodputBps(sc.hostRateMbps * 1e6);
    const int horizon = int(std::ceil(durationMs / kBinMs));
    // every job's rate on every link it crosses, as a share of the link, per bin
    std::vector<std::map<uint32_t, std::vector<float>>> rates(n);
    std::map<uint32_t, uint32_t> users;
    for (size_t i = 0; i < n; i++)
    {
        const uint32_t j = subset[i];
        const JobInstance& job = jobs[j];
        ScaledProfile prof = ScaleJob(sc, job);
        double compute = 0;
        double comm = 0;
        for (const SimSegment& seg : prof.segments)
        {
            compute += seg.computeMs;
            comm += seg.commBytes * 8e3 / hostGoodput;
        }
        const double alone = std::isfinite(idealMs[i]) && idealMs[i] > 0 ? idealMs[i]
                                                                          : prof.idealMs;
        const double scale = std::max(0.1, (alone - compute) / comm);
        // the gate's period: the iteration alone and the slack that lets a late job catch up
        m_gateMs.push_back(alone * (1 + sc.centralSlack));
        m_period.push_back(std::max(1, int(std::lround(m_gateMs.back() / kBinMs))));
        const uint32_t nh = hosts[j].size();
        std::vector<JobChannel> channels = JobChannels(job.profile.pattern, nh);
        for (uint32_t c = 0; c < channels.size(); c++)
        {
            const JobChannel& ch = channels[c];
            if (!ch.data)
            {
                continue;
            }
            FlowKey flow{hosts[j][ch.from], hosts[j][ch.to], JobChannelPort(j, c), JobListenPort(j)};
            std::vector<uint32_t> path = topology.Path(flow);
            double t = 0;
            for (const SimSegment& seg : prof.segments)
            {
                const double phaseMs = seg.commBytes * 8e3 / hostGoodput * scale;
                const double start = t + seg.computeMs;
                t = start + phaseMs;
                ChannelLoad load = ChannelPhaseLoad(job.profile.pattern, nh, ch, seg.commBytes, 1);
                // the channel's part of the phase: from load.startMs (of a 1 ms phase) on
                // a ring step's and a push's to the end, a parameter server's push to half
                double from = load.startMs;
                double to = job.profile.pattern == CommPattern::PS && load.startMs == 0 ? 0.5 : 1;
                double b = start + from * phaseMs;
                double e = start + to * phaseMs;
                double bps = load.bytes * 8e3 / std::max(e - b, 1e-3);
                for (uint32_t l : path)
                {
                    std::vector<float>& r = rates[i][l];
                    if (r.empty())
                    {
                        r.assign(m_period[i], 0);
                        users[l]++;
                    }
                    double share = bps / GoodputBps(topology.Links()[l].rateBps);
                    for (int k = int(b / kBinMs); k < m_period[i] && k * kBinMs < e; k++)
                    {
                        // the part of bin k the channel sends in
                        double lo = std::max(b, k * kBinMs);
                        double hi = std::min(e, (k + 1) * kBinMs);
                        r[k] += float(share * std::max(0.0, hi - lo) / kBinMs);
                    }
                }
            }
        }
    }
    std::map<uint32_t, uint32_t> shared; // link -> its row in m_load
    for (const auto& u : users)
    {
        if (u.second >= 2)
        {
            shared[u.first] = m_load.size();
            m_load.emplace_back(horizon, 0.0f);
        }
    }
    m_uses.resize(n);
    for (size_t i = 0; i < n; i++)
    {
        for (auto& r : rates[i])
        {
            auto it = shared.find(r.first);
            if (it != shared.end())
            {
                m_uses[i].push_back({it->second, std::move(r.second)});
            }
        }
    }

    // coordinate descent from every job released at once
    std::vector<int> shift(n, 0);
    for (size_t i = 0; i < n; i++)
    {
        for (const Use& u : m_uses[i])
        {
            Add(m_load[u.link], u, i, 0, 1);
        }
    }
    auto total = [&]() {
        double x = 0;
        for (const auto& load : m_load)
        {
            for (float v : load)
            {
                x += std::max(0.0f, v - 1.0f);
            }
        }
        return x * kBinMs;
    };
    m_alignedExcess = total();
    // the jobs that cross the most shared traffic move first
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; i++)
    {
        order[i] = i;
    }
    for (int pass = 0; pass < kPasses; pass++)
    {
        bool moved = false;
        for (size_t i : order)
        {
            if (m_uses[i].empty())
            {
                continue;
            }
            for (const Use& u : m_uses[i])
            {
                Add(m_load[u.link], u, i, shift[i], -1);
            }
            // the cost of every shift, then the middle of the widest run of the
            // cheapest (circular): the largest margin for a late iteration
            std::vector<double> cost(kShiftSteps, 0);
            std::vector<int> at(kShiftSteps);
            double low = std::numeric_limits<double>::infinity();
            for (int step = 0; step < kShiftSteps; step++)
            {
                at[step] = int(std::lround(double(step) * m_period[i] / kShiftSteps));
                for (const Use& u : m_uses[i])
                {
                    cost[step] += LinkExcess(m_load[u.link], u, i, at[step]);
                }
                low = std::min(low, cost[step]);
            }
            const double tol = 1e-6 + 1e-3 * low;
            int bestStart = 0;
            int bestLen = 0;
            for (int step = 0; step < kShiftSteps; step++)
            {
                int len = 0;
                while (len < kShiftSteps && cost[(step + len) % kShiftSteps] <= low + tol)
                {
                    len++;
                }
                if (len > bestLen)
                {
                    bestLen = len;
                    bestStart = step;
                }
            }
            // where every shift does as well, the job keeps its own
            int best = bestLen == kShiftSteps ? shift[i]
                                              : at[(bestStart + bestLen / 2) % kShiftSteps];
            moved = moved || best != shift[i];
            shift[i] = best;
            for (const Use& u : m_uses[i])
            {
                Add(m_load[u.link], u, i, shift[i], 1);
            }
        }
        if (!moved)
        {
            break;
        }
    }
    m_excess = total();
    for (size_t i = 0; i < n; i++)
    {
        m_shiftMs.push_back(shift[i] * kBinMs);
        // the model's iteration: the ideal, plus the excess of its worst link while it sends
        double extra = 0;
        uint32_t its = 0;
        for (int k0 = shift[i]; k0 + m_period[i] <= horizon; k0 += m_period[i])
        {
            if (k0 < horizon / 2)
            {
                continue;
            }
            its++;
            for (int k = 0; k < m_period[i]; k++)
            {
                double worst = 0;
                for (const Use& u : m_uses[i])
                {
                    if (u.share[k] > 0)
                    {
                        worst = std::max(worst, double(m_load[u.link][k0 + k]) - 1.0);
                    }
                }
                extra += std::max(0.0, worst) * kBinMs;
            }
        }
        m_predMs.push_back(m_period[i] * kBinMs + (its ? extra / its : 0));
    }
}

void
CentralSchedule::Add(std::vector<float>& load, const Use& use, uint32_t i, int shift, float sign)
    const
{
    const int p = m_period[i];
    for (int t = shift, k = 0; t < int(load.size()); t++, k = k + 1 == p ? 0 : k + 1)
    {
        load[t] += sign * use.share[k];
    }
}

double
CentralSchedule::LinkExcess(const std::vector<float>& load, const Use& use, uint32_t i, int shift)
    const
{
    // the excess over the link's capacity this job's traffic adds at @shift
    const int p = m_period[i];
    double x = 0;
    for (int t = shift, k = 0; t < int(load.size()); t++, k = k + 1 == p ? 0 : k + 1)
    {
        float s = use.share[k];
        if (s > 0)
        {
            float before = std::max(0.0f, load[t] - 1.0f);
            float after = std::max(0.0f, load[t] + s - 1.0f);
            x += after - before;
        }
    }
    return x * kBinMs;
}

const std::vector<double>&
CentralSchedule::ShiftsMs() const
{
    return m_shiftMs;
}

const std::vector<double>&
CentralSchedule::GatesMs() const
{
    return m_gateMs;
}

const std::vector<double>&
CentralSchedule::PredictedMs() const
{
    return m_predMs;
}

double
CentralSchedule::ExcessMs() const
{
    return m_excess;
}

double
CentralSchedule::AlignedExcessMs() const
{
    return m_alignedExcess;
}

} // namespace ns3
