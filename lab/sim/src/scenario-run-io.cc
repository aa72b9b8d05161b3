/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's spec as mltcp-sim --run-one's arguments and back, and its record
 * (RunResult) as a file and back.
 */

#include "scenario.h"

#include "scenario-values.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace ns3
{

static std::string
Join(const std::vector<double>& v)
{
    std::ostringstream os;
    os.precision(10);
    for (size_t i = 0; i < v.size(); i++)
    {
        os << (i ? "," : "") << v[i];
    }
    return os.str();
}

std::vector<std::string>
RunSpecArgs(const RunSpec& spec)
{
    std::vector<double> jobs(spec.jobs.begin(), spec.jobs.end());
    std::ostringstream os;
    os.precision(10);
    os << spec.oversubscription;
    std::ostringstream dur;
    dur.precision(10);
    dur << spec.durationS;
    return {"--label",
            spec.label,
            "--case",
            std::to_string(spec.caseIndex),
            "--jobs",
            Join(jobs),
            "--offsets",
            Join(spec.offsetsMs),
            "--gates",
            Join(spec.gatesMs),
            "--seed",
            std::to_string(spec.seed),
            "--oversub",
            os.str(),
            "--cc",
            CcAlgoName(spec.cc),
            "--duration",
            dur.str()};
}

bool
ParseRunSpecArg(const std::string& key, const std::string& value, RunSpec* spec, std::string* err)
{
    double d;
    if (key == "--label")
    {
        spec->label = value;
        return true;
    }
    if (key == "--case" && Number(value, &d))
    {
        spec->caseIndex = int(d);
        return true;
    }
    if (key == "--seed" && Number(value, &d) && d >= 0)
    {
        spec->seed = uint32_t(d);
        return true;
    }
    if (key == "--jobs" || key == "--offsets" || key == "--gates")
    {
        for (const std::string& w : Words(value))
        {
            if (!Number(w, &d))
            {
                *err = key + ": numbers";
                return false;
            }
            if (key == "--jobs")
            {
                spec->jobs.push_back(uint32_t(d));
            }
            else
            {
                (key == "--offsets" ? spec->offsetsMs : spec->gatesMs).push_back(d);
            }
        }
        return true;
    }
    if (key == "--oversub" && Number(value, &d))
    {
        spec->oversubscription = d;
        return true;
    }
    if (key == "--cc" && ParseCcAlgo(value, &spec->cc))
    {
        return true;
    }
    if (key == "--duration" && Number(value, &d))
    {
        spec->durationS = d;
        return true;
    }
    *err = "bad " + key + " " + value;
    return false;
}

bool
WriteRunResult(const RunResult& r, const std::string& path)
{
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        return false;
    }
    std::fprintf(f,
                 "label %s\nevents %llu\nwall_s %.3f\nsim_s %.6f\n",
                 r.label.c_str(),
                 (unsigned long long)r.events,
                 r.wallS,
                 r.simS);
    for (const auto& it : r.iterations)
    {
        std::fprintf(f, "iter %u %u %.6f %.6f\n", it.job, it.k, it.startMs, it.endMs);
    }
    for (const auto& l : r.links)
    {
        std::fprintf(f,
                     "link %u %s %llu %llu %llu\n",
                     l.link,
                     l.name.c_str(),
                     (unsigned long long)l.stats.drops,
                     (unsigned long long)l.stats.marks,
                     (unsigned long long)l.stats.txBytes);
    }
    return std::fclose(f) == 0;
}

bool
ReadRunResult(const std::string& path, RunResult* r, std::string* err)
{
    std::ifstream in(path);
    if (!in)
    {
        *err = path + ": cannot open";
        return false;
    }
    *r = RunResult();
    std::string line;
    while (std::getline(in, line))
    {
        std::istringstream is(line);
        std::string tag;
        is >> tag;
        if (tag == "label")
        {
            is >> r->label;
        }
        else if (tag == "events")
        {
            is >> r->events;
        }
        else if (tag == "wall_s")
        {
            is >> r->wallS;
        }
        else if (tag == "sim_s")
        {
            is >> r->simS;
        }
        else if (tag == "iter")
        {
            RunResult::Iter it;
            is >> it.job >> it.k >> it.startMs >> it.endMs;
            r->iterations.push_back(it);
        }
        else if (tag == "link")
        {
            RunResult::LinkCount l;
            is >> l.link >> l.name >> l.stats.drops >> l.stats.marks >> l.stats.txBytes;
            r->links.push_back(l);
        }
        if (!is)
        {
            *err = path + ": bad line: " + line;
            return false;
        }
    }
    /* the socket records beside it, where the run wrote them (RunOne()) */
    std::string sockets = SocketRecordsPath(path);
    if (std::ifstream(sockets))
    {
        r->socketsRead = ReadSocketSummary(sockets, &r->sockets, nullptr, err);
        return r->socketsRead;
    }
    return true;
}

} // namespace ns3
