/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a scenario: the .conf format's sections and keys, includes, and
 * --set overrides (LoadScenario()).  The [job] sections become jobs in
 * scenario-jobs.cc; the network and placement are scenario-network.cc's,
 * a run scenario-run.cc's, its arguments and record scenario-run-io.cc's.
 */

#include "scenario.h"

#include "scenario-jobs.h"
#include "scenario-values.h"
#include "training-job.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <type_traits>

namespace ns3
{

const std::vector<JobInstance>&
Scenario::JobsOf(int caseIndex) const
{
    return caseIndex < 0 ? jobs : cases.at(caseIndex).jobs;
}

CcAlgo
Scenario::MltcpAlgo() const
{
    switch (cc)
    {
    case CcAlgo::CUBIC:
        return CcAlgo::MLTCP_CUBIC;
    case CcAlgo::DCTCP:
        return CcAlgo::MLTCP_DCTCP;
    default:
        return CcAlgo::MLTCP_RENO;
    }
}

/** A scenario key whose value is a number, a whole number or one of some words. */
struct NumberKey
{
    const char* key;
    double Scenario::*field;
    double min;
};

struct CountKey
{
    const char* key;
    uint32_t Scenario::*field;
    uint32_t min;
};

struct ChoiceKey
{
    const char* key;
    std::vector<std::string> values;
    void (*set)(Scenario* sc, const std::string& value);
};

static const NumberKey kNumberKeys[] = {
    {"oversubscription", &Scenario::oversubscription, 0.01},
    {"host_rate_mbps", &Scenario::hostRateMbps, 0.001},
    {"core_rate_mbps", &Scenario::coreRateMbps, 0.001},
    {"host_delay_us", &Scenario::hostDelayUs, 0},
    {"core_delay_us", &Scenario::coreDelayUs, 0},
    {"buffer_bdp", &Scenario::bufferBdp, 0.01},
    {"ecn_threshold_bdp", &Scenario::ecnThresholdBdp, 0.001},
    {"min_rto_ms", &Scenario::minRtoMs, 1},
    {"delack_ms", &Scenario::delAckMs, 0.001},
    {"time_scale", &Scenario::timeScale, 1e-6},
    {"duration_s", &Scenario::durationS, 0.001},
    {"sweep_duration_s", &Scenario::sweepDurationS, 0.001},
    {"alone_duration_s", &Scenario::aloneDurationS, 0.001},
    {"jc_threshold", &Scenario::jcThreshold, 0},
    {"start_jitter_ms", &Scenario::startJitterMs, 0},
    {"central_slack", &Scenario::centralSlack, 0},
};

static const CountKey kCountKeys[] = {
    {"leaves", &Scenario::leaves, 1},
    {"hosts_per_leaf", &Scenario::hostsPerLeaf, 1},
    {"spines", &Scenario::spines, 1},
    {"pairs", &Scenario::pairs, 1},
    {"switches", &Scenario::switches, 2},
    {"hosts_per_switch", &Scenario::hostsPerSwitch, 1},
    {"buffer_packets", &Scenario::bufferPackets, 1},
    {"ecn_threshold_packets", &Scenario::ecnThresholdPackets, 1},
    {"seed", &Scenario::seed, 1},
};

static const ChoiceKey kChoiceKeys[] = {
    {"topology",
     {"leafspine", "dumbbell", "parkinglot"},
     [](Scenario* sc, const std::string& v) { sc->topology = v; }},
    {"queue",
     {"droptail", "ecn"},
     [](Scenario* sc, const std::string& v) { sc->ecn = v == "ecn"; }},
    {"host_queue",
     {"fifo", "acks_first"},
     [](Scenario* sc, const std::string& v) { sc->hostAcksFirst = v == "acks_first"; }},
    {"hints",
     {"marks", "learned"},
     [](Scenario* sc, const std::string& v) { sc->marks = v == "marks"; }},
    {"tiebreak",
     {"job", "connection"},
     [](Scenario* sc, const std::string& v) { sc->jobTiebreak = v == "job"; }},
    {"start",
     {"aligned", "random"},
     [](Scenario* sc, const std::string& v) { sc->randomStart = v == "random"; }},
    {"placement",
     {"random", "packed", "spread"},
     [](Scenario* sc, const std::string& v) { sc->placement = v; }},
};

/**
 * Set @key from a table of keys of one kind, with @parse turning the text
 * into the field's type.  @return 1 when set, 0 on a bad value, -1 when the
 * table has no such key.
 */
template <typename Table, typename Parse>
static int
SetFromTable(const Table& table,
             Parse parse,
             Scenario* sc,
             const std::string& key,
             const std::string& value,
             std::string* err)
{
    for (const auto& k : table)
    {
        if (key == k.key)
        {
            auto v = sc->*k.field;
            if (!parse(value, &v) || v < k.min)
            {
                std::ostringstream os;
                os << key << ": not a" << (std::is_integral_v<decltype(v)> ? " whole" : "")
                   << " number >= " << k.min;
                *err = os.str();
                return 0;
            }
            sc->*k.field = v;
            return 1;
        }
    }
    return -1;
}

static bool
SetScenarioKey(Scenario* sc, const std::string& key, const std::string& value, std::string* err)
{
    int set = SetFromTable(kNumberKeys, Number, sc, key, value, err);
    if (set < 0)
    {
        set = SetFromTable(kCountKeys, Count, sc, key, value, err);
    }
    if (set >= 0)
    {
        return set == 1;
    }
    double d;
    for (const ChoiceKey& k : kChoiceKeys)
    {
        if (key == k.key)
        {
            auto it = std::find(k.values.begin(), k.values.end(), value);
            if (it == k.values.end())
            {
                *err = key + ": one of";
                for (const std::string& v : k.values)
                {
                    *err += (v == k.values.front() ? " " : ", ") + v;
                }
                return false;
            }
            k.set(sc, value);
            return true;
        }
    }
    if (key.rfind("mltcp.", 0) == 0)
    {
        sc->mltcpParams.emplace_back(key.substr(6), value);
    }
    else if (key == "name")
    {
        sc->name = value;
    }
    else if (key == "description")
    {
        sc->description = value;
    }
    else if (key == "cc")
    {
        CcAlgo algo;
        if (!ParseCcAlgo(value, &algo) || CcAlgoIsMltcp(algo))
        {
            *err = "cc: the stock algorithm (reno, cubic, dctcp); runs use its MLTCP variant too";
            return false;
        }
        sc->cc = algo;
    }
    else if (key == "sweep_jobs" || key == "sweep_oversubscription")
    {
        std::vector<double> values;
        for (const std::string& w : Words(value))
        {
            if (!Number(w, &d) || d <= 0 || (key == "sweep_jobs" && d != std::floor(d)))
            {
                *err = key + ": numbers > 0" + (key == "sweep_jobs" ? ", whole" : "");
                return false;
            }
            values.push_back(d);
        }
        if (key == "sweep_jobs")
        {
            sc->sweepJobs.assign(values.begin(), values.end());
        }
        else
        {
            sc->sweepOversubscription = values;
        }
    }
    else
    {
        *err = "unknown key " + key;
        return false;
    }
    return true;
}

/** What the lines of a scenario file and the files it includes build up. */
struct ConfState
{
    Scenario* sc;
    std::vector<JobSection> topJobs;
    std::vector<std::vector<JobSection>> caseJobs;
};

/**
 * Read @file's lines into @st.  "include = FILE" (before any section; FILE
 * relative to @file's directory) reads FILE there, so that a scenario can
 * be another with a few keys changed.
 */
static bool
ParseConf(const std::string& file, ConfState* st, int depth, std::string* err)
{
    std::ifstream in(file);
    if (!in)
    {
        *err = file + ": cannot open";
        return false;
    }
    Scenario* sc = st->sc;

    enum
    {
        IN_SCENARIO,
        IN_MLTCP,
        IN_JOB,
        IN_CASE
    } section = IN_SCENARIO;

    bool sectionSeen = false;
    std::string line;
    int lineNo = 0;
    auto fail = [&](const std::string& msg) {
        if (err->empty())
        {
            *err = file + ":" + std::to_string(lineNo) + ": " + msg;
        }
        return false;
    };
    while (std::getline(in, line))
    {
        lineNo++;
        size_t hash = line.find('#');
        if (hash != std::string::npos)
        {
            line = line.substr(0, hash);
        }
        line = Trim(line);
        if (line.empty())
        {
            continue;
        }
        if (line.front() == '[')
        {
            if (line.back() != ']')
            {
                return fail("a section is [NAME]");
            }
            sectionSeen = true;
            std::vector<std::string> w = Words(line.substr(1, line.size() - 2));
            if (w.size() == 1 && (w[0] == "scenario" || w[0] == "mltcp"))
            {
                section = w[0] == "mltcp" ? IN_MLTCP : IN_SCENARIO;
            }
            else if (w.size() == 2 && w[0] == "job")
            {
                section = IN_JOB;
                auto& list = st->caseJobs.empty() ? st->topJobs : st->caseJobs.back();
                list.push_back({w[1], {}, lineNo});
            }
            else if (w.size() == 2 && w[0] == "case")
            {
                section = IN_CASE;
                sc->cases.push_back({w[1], "", {}});
                st->caseJobs.emplace_back();
            }
            else
            {
                return fail("sections: [scenario], [mltcp], [job NAME], [case NAME]");
            }
            continue;
        }
        size_t eq = line.find('=');
        if (eq == std::string::npos)
        {
            return fail("expected key = value");
        }
        std::string key = Trim(line.substr(0, eq));
        std::string value = Trim(line.substr(eq + 1));
        std::string e;
        if (key == "include")
        {
            if (sectionSeen || depth >= 4)
            {
                return fail("include comes before any section, at most 4 deep");
            }
            std::string dir =
                file.find('/') == std::string::npos ? "" : file.substr(0, file.rfind('/') + 1);
            if (!ParseConf(value.front() == '/' ? value : dir + value, st, depth + 1, err))
            {
                return fail("");
            }
            continue;
        }
        switch (section)
        {
        case IN_SCENARIO:
            if (!SetScenarioKey(sc, key, value, &e))
            {
                return fail(e);
            }
            break;
        case IN_MLTCP:
            sc->mltcpParams.emplace_back(key, value);
            break;
        case IN_JOB: {
            auto& list = st->caseJobs.empty() ? st->topJobs : st->caseJobs.back();
            list.back().keys[key] = value;
            break;
        }
        case IN_CASE:
            if (key != "expect" || (value != "converge" && value != "guard" && value != "turns" &&
                                     value != "noharm"))
            {
                return fail("a [case] has only expect = converge, guard, turns or noharm");
            }
            sc->cases.back().expect = value;
            break;
        }
    }
    return true;
}

bool
LoadScenario(const std::string& file,
             const std::vector<std::string>& overrides,
             Scenario* sc,
             std::string* err)
{
    *sc = Scenario();
    sc->file = file;
    std::string base = file.substr(file.find_last_of('/') + 1);
    sc->name = base.substr(0, base.rfind(".conf"));
    ConfState st{sc, {}, {}};
    err->clear();
    if (!ParseConf(file, &st, 0, err))
    {
        return false;
    }
    std::vector<JobSection>& topJobs = st.topJobs;
    std::vector<std::vector<JobSection>>& caseJobs = st.caseJobs;
    for (const std::string& o : overrides)
    {
        size_t eq = o.find('=');
        std::string e;
        if (eq == std::string::npos ||
            !SetScenarioKey(sc, Trim(o.substr(0, eq)), Trim(o.substr(eq + 1)), &e))
        {
            *err = "--set " + o + ": " + (e.empty() ? "expected KEY=VALUE" : e);
            return false;
        }
    }
    if (!MakeJobs(topJobs, &sc->jobs, err))
    {
        return false;
    }
    for (size_t c = 0; c < sc->cases.size(); c++)
    {
        if (sc->cases[c].expect.empty())
        {
            *err = file + ": [case " + sc->cases[c].name + "] has no expect";
            return false;
        }
        if (!MakeJobs(caseJobs[c], &sc->cases[c].jobs, err))
        {
            return false;
        }
    }
    if (sc->jobs.empty() && sc->cases.empty())
    {
        *err = file + ": no [job] and no [case]";
        return false;
    }
    if (sc->jobs.size() > kMaxSimJobs)
    {
        *err = file + ": at most " + std::to_string(kMaxSimJobs) + " jobs";
        return false;
    }
    return true;
}

} // namespace ns3
