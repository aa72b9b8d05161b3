/* SPDX-License-Identifier: GPL-2.0 */
/* The targets checked at every point of the sweep (report-targets.h). */

#include "report-targets.h"

#include "report-format.h"

#include <cmath>

namespace ns3
{

std::vector<Target>
Targets(const PointResult& p, const PointMetrics& m)
{
    std::vector<Target> ts;
    Target t1;
    t1.what = "MLTCP mean job iteration <= 1.10x ideal";
    if (m.mltcp.present)
    {
        t1.applicable = true;
        t1.met = m.mltcp.mean <= 1.10 && m.mltcp.missing == 0 && m.mltcp.stalled == 0;
        t1.detail = Fmt(m.mltcp.mean) + "x";
        if (m.mltcp.missing)
        {
            t1.detail += " (" + std::to_string(m.mltcp.missing) +
                         " jobs finished no iteration in the last half)";
        }
        if (m.mltcp.stalled)
        {
            t1.detail += " (" + std::to_string(m.mltcp.stalled) + " jobs stalled)";
        }
    }
    ts.push_back(t1);

    Target t2;
    t2.what = "MLTCP p99 within 1.2x of the centralized schedule's";
    if (m.mltcp.present && m.central.present)
    {
        t2.applicable = true;
        t2.met = m.mltcp.p99 <= 1.2 * m.central.p99;
        t2.detail = Fmt(m.mltcp.p99) + "x against " + Fmt(m.central.p99) + "x (limit " +
                    Fmt(1.2 * m.central.p99) + "x)";
    }
    else if (!p.central.present)
    {
        t2.detail = "no centralized run: " + p.central.note;
    }
    ts.push_back(t2);

    Target t3;
    t3.what = ">= 1.2x faster mean than stock wherever stock >= 1.3x ideal";
    if (m.mltcp.present && m.stock.present)
    {
        uint32_t where = 0;
        uint32_t ok = 0;
        std::string misses;
        for (size_t i = 0; i < p.jobs.size(); i++)
        {
            double s = m.stock.jobs[i].mean;
            double x = m.mltcp.jobs[i].mean;
            if (s >= 1.3)
            {
                where++;
                if (s / x >= 1.2)
                {
                    ok++;
                }
                else
                {
                    misses += (misses.empty() ? "" : ", ") + p.names[i] + " " + Fmt(s) + "x -> " +
                              Fmt(x) + "x";
                }
            }
        }
        t3.applicable = where > 0;
        t3.met = ok == where;
        t3.detail = where ? std::to_string(ok) + " of " + std::to_string(where) + " jobs" +
                                (misses.empty() ? "" : " (not: " + misses + ")")
                          : "no job at >= 1.3x under stock";
    }
    ts.push_back(t3);

    Target t4;
    t4.what = "no job slower than under stock by > 5%";
    if (m.mltcp.present && m.stock.present)
    {
        t4.applicable = true;
        t4.met = true;
        double worst = 0;
        std::string who;
        std::string unmeasured;
        for (size_t i = 0; i < p.jobs.size(); i++)
        {
            double r = m.mltcp.jobs[i].mean / m.stock.jobs[i].mean;
            if (std::isnan(r))
            {
                unmeasured += (unmeasured.empty() ? "" : ", ") + p.names[i];
                t4.met = false;
                continue;
            }
            if (r > 1.05)
            {
                t4.met = false;
            }
            if (r > worst)
            {
                worst = r;
                who = p.names[i];
            }
        }
        t4.detail = "slowest against stock: " + who + " " + Fmt(worst, 3) + "x";
        if (!unmeasured.empty())
        {
            t4.detail += "; no last-half iteration: " + unmeasured;
        }
    }
    ts.push_back(t4);
    return ts;
}

std::string
Verdict(const Target& t)
{
    return !t.applicable ? "n/a" : t.met ? "met" : "NOT met";
}

} // namespace ns3
