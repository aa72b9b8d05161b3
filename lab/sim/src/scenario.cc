/* SPDX-License-Identifier: GPL-2.0 */

#include "scenario.h"

#include "topology-dumbbell.h"
#include "topology-leaf-spine.h"
#include "topology-parking-lot.h"
#include "topology-tcp.h"
#include "training-job.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/node.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
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

static std::string
Trim(const std::string& s)
{
    size_t a = s.find_first_not_of(" \t\r");
    size_t b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

static std::vector<std::string>
Words(const std::string& s)
{
    std::vector<std::string> words;
    std::string w;
    for (char c : s)
    {
        if (c == ' ' || c == '\t' || c == ',')
        {
            if (!w.empty())
            {
                words.push_back(w);
            }
            w.clear();
        }
        else
        {
            w += c;
        }
    }
    if (!w.empty())
    {
        words.push_back(w);
    }
    return words;
}

static bool
Number(const std::string& s, double* v)
{
    char* end = nullptr;
    *v = std::strtod(s.c_str(), &end);
    return !s.empty() && end && *end == '\0' && std::isfinite(*v);
}

static bool
Count(const std::string& s, uint32_t* v)
{
    double d;
    if (!Number(s, &d) || d < 0 || d != std::floor(d) || d > 1e9)
    {
        return false;
    }
    *v = uint32_t(d);
    return true;
}

/** A [job] section before it becomes JobInstances. */
struct JobSection
{
    std::string name;
    std::map<std::string, std::string> keys;
    int line;
};

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
    {"hints",
     {"marks", "learned"},
     [](Scenario* sc, const std::string& v) { sc->marks = v == "marks"; }},
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

static bool
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
            if (key != "expect" || (value != "converge" && value != "guard"))
            {
                return fail("a [case] has only expect = converge or guard");
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

std::unique_ptr<Topology>
MakeTopology(const Scenario& sc, double oversubscription)
{
    double host = sc.hostRateMbps * 1e6;
    double core = sc.coreRateMbps * 1e6;
    if (sc.topology == "dumbbell")
    {
        return std::make_unique<DumbbellTopology>(sc.pairs,
                                                  host,
                                                  core,
                                                  sc.hostDelayUs,
                                                  sc.coreDelayUs);
    }
    if (sc.topology == "parkinglot")
    {
        return std::make_unique<ParkingLotTopology>(sc.switches,
                                                    sc.hostsPerSwitch,
                                                    host,
                                                    core,
                                                    sc.hostDelayUs,
                                                    sc.coreDelayUs);
    }
    return std::make_unique<LeafSpineTopology>(sc.leaves,
                                               sc.hostsPerLeaf,
                                               sc.spines,
                                               host,
                                               oversubscription,
                                               sc.hostDelayUs,
                                               sc.coreDelayUs);
}

QueueConfig
MakeQueues(const Scenario& sc, const Topology& topology)
{
    // BDP of the longest idle path between hosts of different groups, at the host rate
    double bdpPackets = sc.hostRateMbps * topology.MaxBaseRttUs() / 8 / kSimWireBytes;
    QueueConfig q;
    q.ecn = sc.ecn;
    q.bufferPackets = sc.bufferPackets
                          ? sc.bufferPackets
                          : std::max<uint32_t>(2, uint32_t(std::lround(sc.bufferBdp * bdpPackets)));
    q.ecnThreshold =
        sc.ecnThresholdPackets
            ? sc.ecnThresholdPackets
            : std::max<uint32_t>(1, uint32_t(std::lround(sc.ecnThresholdBdp * bdpPackets)));
    return q;
}

bool
PlaceJobs(const Scenario& sc,
          const std::vector<JobInstance>& jobs,
          const Topology& topology,
          std::vector<std::vector<uint32_t>>* hosts,
          std::string* err)
{
    std::vector<bool> used(topology.NumHosts(), false);
    hosts->assign(jobs.size(), {});
    for (size_t j = 0; j < jobs.size(); j++)
    {
        for (const auto& gi : jobs[j].place)
        {
            std::vector<uint32_t> group = topology.GroupHosts(gi.first);
            if (gi.second >= group.size() || used[group[gi.second]])
            {
                *err = jobs[j].name + ": host " + std::to_string(gi.first) + "." +
                       std::to_string(gi.second) + " does not exist or is taken";
                return false;
            }
            used[group[gi.second]] = true;
            (*hosts)[j].push_back(group[gi.second]);
        }
    }
    // The order the policy hands out the hosts left.
    std::vector<uint32_t> order;
    if (sc.placement == "spread")
    {
        // one host of each group in turn: a job's workers land on different groups
        std::vector<std::vector<uint32_t>> groups;
        for (uint32_t g = 0; g < topology.NumGroups(); g++)
        {
            groups.push_back(topology.GroupHosts(g));
        }
        for (size_t i = 0; order.size() < topology.NumHosts(); i++)
        {
            for (const auto& g : groups)
            {
                if (i < g.size())
                {
                    order.push_back(g[i]);
                }
            }
        }
    }
    else
    {
        for (uint32_t h = 0; h < topology.NumHosts(); h++)
        {
            order.push_back(h);
        }
        if (sc.placement == "random")
        {
            // Fisher-Yates with a fixed generator: the same placement on every machine
            std::mt19937_64 rng(sc.seed);
            for (size_t i = order.size(); i > 1; i--)
            {
                std::swap(order[i - 1], order[rng() % i]);
            }
        }
    }
    size_t next = 0;
    for (size_t j = 0; j < jobs.size(); j++)
    {
        if (!jobs[j].place.empty())
        {
            continue;
        }
        while ((*hosts)[j].size() < jobs[j].hosts)
        {
            while (next < order.size() && used[order[next]])
            {
                next++;
            }
            if (next == order.size())
            {
                *err = "the jobs need more hosts than the topology's " +
                       std::to_string(topology.NumHosts());
                return false;
            }
            used[order[next]] = true;
            (*hosts)[j].push_back(order[next]);
        }
    }
    return true;
}

ScaledProfile
ScaleJob(const Scenario& sc, const JobInstance& job)
{
    return ScaleProfile(job.profile, sc.hostRateMbps * 1e6, sc.timeScale);
}

RunResult
RunSimulation(const Scenario& sc, const RunSpec& spec)
{
    ConfigureHostTcp(sc.minRtoMs, sc.delAckMs);
    RngSeedManager::SetSeed(sc.seed);
    for (const auto& kv : sc.mltcpParams)
    {
        std::string e;
        NS_ABORT_MSG_IF(!MltcpSetParam(kv.first, kv.second, &e),
                        "mltcp " << kv.first << " = " << kv.second << ": " << e);
    }

    std::unique_ptr<Topology> topology = MakeTopology(sc, spec.oversubscription);
    topology->Build(MakeQueues(sc, *topology));
    const std::vector<JobInstance>& jobs = sc.JobsOf(spec.caseIndex);
    std::vector<std::vector<uint32_t>> hosts;
    std::string err;
    NS_ABORT_MSG_IF(!PlaceJobs(sc, jobs, *topology, &hosts, &err), err);

    Time end = MicroSeconds(uint64_t(kSetupMs * 1000)) + Seconds(spec.durationS);
    std::vector<Ptr<TrainingJob>> apps;
    for (size_t i = 0; i < spec.jobs.size(); i++)
    {
        uint32_t j = spec.jobs[i];
        TrainingJobConfig cfg;
        cfg.name = jobs[j].name;
        cfg.index = j;
        cfg.pattern = jobs[j].profile.pattern;
        for (uint32_t h : hosts[j])
        {
            cfg.nodes.push_back(topology->HostNodePtr(h));
            cfg.addresses.push_back(topology->HostAddress(h));
        }
        cfg.profile = ScaleJob(sc, jobs[j]);
        cfg.cc = spec.cc;
        cfg.marks = sc.marks;
        double offset = i < spec.offsetsMs.size() ? spec.offsetsMs[i] : 0;
        cfg.start = MicroSeconds(int64_t((kSetupMs + offset) * 1000));
        Ptr<TrainingJob> app = CreateObject<TrainingJob>();
        app->Configure(cfg);
        cfg.nodes[0]->AddApplication(app);
        app->SetStartTime(Seconds(0));
        app->SetStopTime(end);
        apps.push_back(app);
    }

    Simulator::Stop(end);
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    auto t1 = std::chrono::steady_clock::now();

    RunResult r;
    r.label = spec.label;
    r.wallS = std::chrono::duration<double>(t1 - t0).count();
    r.simS = Simulator::Now().GetSeconds();
    r.events = Simulator::GetEventCount();
    for (size_t i = 0; i < apps.size(); i++)
    {
        uint32_t k = 0;
        for (const auto& it : apps[i]->CompletedIterations())
        {
            r.iterations.push_back(
                {spec.jobs[i], k++, it.start.GetSeconds() * 1e3, it.end.GetSeconds() * 1e3});
        }
    }
    for (uint32_t l = 0; l < topology->Links().size(); l++)
    {
        LinkStats s = topology->GetLinkStats(l);
        if (s.txBytes || s.drops || s.marks)
        {
            r.links.push_back({l, topology->Links()[l].name, s});
        }
    }
    apps.clear();
    Simulator::Destroy();
    return r;
}

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
    if (key == "--jobs" || key == "--offsets")
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
                spec->offsetsMs.push_back(d);
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
    return true;
}

} // namespace ns3
