/* SPDX-License-Identifier: GPL-2.0 */
/* A scenario file's [job] sections into jobs (scenario-jobs.h). */

#include "scenario-jobs.h"

#include "scenario-values.h"
#include "training-job.h"

#include <algorithm>
#include <iterator>

namespace ns3
{

bool
MakeJobs(const std::vector<JobSection>& sections, std::vector<JobInstance>* out, std::string* err)
{
    std::vector<std::pair<JobInstance, uint32_t>> kinds;
    for (const JobSection& s : sections)
    {
        JobInstance job;
        job.name = s.name;
        uint32_t copies = 1;
        std::string where = "[job " + s.name + "] (line " + std::to_string(s.line) + "): ";
        auto get = [&](const char* key) {
            auto it = s.keys.find(key);
            return it == s.keys.end() ? std::string() : it->second;
        };
        std::string profile = get("profile");
        double compute = 0;
        double comm = 0;
        double gap = 0;
        uint32_t segments = 1;
        if (!get("compute_ms").empty() || !get("comm_ms").empty())
        {
            if (!profile.empty() || !Number(get("compute_ms"), &compute) ||
                !Number(get("comm_ms"), &comm) || compute < 0 || comm <= 0)
            {
                *err = where + "a job of its own has compute_ms >= 0 and comm_ms > 0, no profile";
                return false;
            }
            if ((!get("segments").empty() &&
                 (!Count(get("segments"), &segments) || segments < 1 || segments > 8)) ||
                (!get("gap_ms").empty() && (!Number(get("gap_ms"), &gap) || gap < 0)))
            {
                *err = where + "segments is 1 to 8, gap_ms >= 0";
                return false;
            }
            job.profile.name = s.name;
            job.profile.source = "this scenario file";
            job.profile.segments.push_back({compute, comm});
            for (uint32_t i = 1; i < segments; i++)
            {
                job.profile.segments.push_back({gap, comm});
            }
        }
        else
        {
            const JobProfile* p = FindProfile(profile.empty() ? s.name : profile);
            if (!p)
            {
                *err = where + "no profile called " + (profile.empty() ? s.name : profile);
                return false;
            }
            job.profile = *p;
        }
        job.hosts = job.profile.hosts;
        if (!get("pattern").empty() && !ParseCommPattern(get("pattern"), &job.profile.pattern))
        {
            *err = where + "pattern: ring, ps or push";
            return false;
        }
        if (job.profile.pattern == CommPattern::PUSH)
        {
            job.hosts = 2;
        }
        if ((!get("hosts").empty() && !Count(get("hosts"), &job.hosts)) ||
            (!get("count").empty() && (!Count(get("count"), &copies) || copies < 1)))
        {
            *err = where + "hosts and count are whole numbers";
            return false;
        }
        std::string herr = JobHostsError(job.profile.pattern, job.hosts);
        if (!herr.empty())
        {
            *err = where + herr;
            return false;
        }
        for (const std::string& w : Words(get("place")))
        {
            uint32_t g;
            uint32_t i;
            size_t dot = w.find('.');
            if (dot == std::string::npos || !Count(w.substr(0, dot), &g) ||
                !Count(w.substr(dot + 1), &i))
            {
                *err = where + "place: GROUP.INDEX for each worker";
                return false;
            }
            job.place.emplace_back(g, i);
        }
        if (!job.place.empty() && (job.place.size() != job.hosts || copies != 1))
        {
            *err = where + "place names one host per worker of a single job";
            return false;
        }
        for (const auto& kv : s.keys)
        {
            static const char* known[] = {"profile",
                                          "count",
                                          "hosts",
                                          "pattern",
                                          "compute_ms",
                                          "comm_ms",
                                          "segments",
                                          "gap_ms",
                                          "place"};
            if (std::find_if(std::begin(known), std::end(known), [&](const char* k) {
                    return kv.first == k;
                }) == std::end(known))
            {
                *err = where + "unknown key " + kv.first;
                return false;
            }
        }
        kinds.emplace_back(job, copies);
    }
    // Copies of the sections in turn, so that the first N jobs are a mix (sweep_jobs).
    for (uint32_t round = 0;; round++)
    {
        bool any = false;
        for (const auto& kind : kinds)
        {
            if (round < kind.second)
            {
                JobInstance job = kind.first;
                if (kind.second > 1)
                {
                    job.name += "-" + std::to_string(round);
                }
                out->push_back(job);
                any = true;
            }
        }
        if (!any)
        {
            break;
        }
    }
    return true;
}

} // namespace ns3
