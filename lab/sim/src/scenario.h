/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A scenario: the network, the jobs and how to run them, read from a
 * scenario file (scenarios/NAME.conf); and one simulation of it (a run):
 * a set of its jobs, their start offsets and congestion control, on the
 * scenario's network at one oversubscription.
 *
 * The .conf format: "key = value" lines and "# comments"; a section
 * "[job NAME]" adds a job (or "count" copies of it), "[mltcp]" sets MLTCP's
 * parameters (MltcpSetParam()), "[case NAME]" starts a set of jobs of its
 * own for --check.  scenarios/README.md lists every key.
 *
 * scenario.cc reads the .conf (scenario-values.* its words and numbers,
 * scenario-jobs.* its [job] sections); scenario-network.cc builds the
 * network and places the jobs; scenario-run.cc runs a simulation and
 * scenario-run-io.cc passes its spec and record between processes.
 */
#ifndef MLTCP_SIM_SCENARIO_H
#define MLTCP_SIM_SCENARIO_H

#include "job-profiles.h"
#include "mltcp-socket.h"
#include "socket-record.h"
#include "topology.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/** One job of a scenario (one copy of a [job] section). */
struct JobInstance
{
    std::string name;
    JobProfile profile;
    uint32_t hosts = 0;
    std::vector<std::pair<uint32_t, uint32_t>> place; //!< group.index per worker, or empty
};

/** A set of jobs with the check it must pass ([case] sections). */
struct CheckCase
{
    std::string name;
    std::string expect; //!< "converge", "guard", "turns" or "noharm"
    std::vector<JobInstance> jobs;
};

struct Scenario
{
    std::string name;
    std::string file;
    std::string description;

    std::string topology = "leafspine"; //!< leafspine, dumbbell, parkinglot
    uint32_t leaves = 8;
    uint32_t hostsPerLeaf = 8;
    uint32_t spines = 4;
    double oversubscription = 2;
    uint32_t pairs = 2;          //!< dumbbell: hosts a side
    uint32_t switches = 4;       //!< parking lot
    uint32_t hostsPerSwitch = 2; //!< parking lot
    double hostRateMbps = 100;
    double coreRateMbps = 100; //!< dumbbell bottleneck, parking-lot trunks
    double hostDelayUs = 100;
    double coreDelayUs = 250; //!< switch-to-switch links

    bool ecn = false;
    bool hostAcksFirst = false; //!< host_queue = acks_first (host-queue.h), else a FIFO
    double bufferBdp = 1;       //!< switch port buffer, BDPs of the longest idle path
    uint32_t bufferPackets = 0; //!< overrides bufferBdp when set
    double ecnThresholdBdp = 0.5;
    uint32_t ecnThresholdPackets = 0;

    CcAlgo cc = CcAlgo::RENO; //!< the stock algorithm; MLTCP runs its MLTCP variant
    bool marks = true;        //!< iteration marks through MltcpHints, else learned
    bool jobTiebreak = true;  //!< one tie-break per job, else one per connection
    std::vector<std::pair<std::string, std::string>> mltcpParams;
    double minRtoMs = 200; //!< Linux's TCP_RTO_MIN
    double delAckMs = 40;  //!< Linux's TCP_DELACK_MIN

    double timeScale = 1;
    double durationS = 30;
    double sweepDurationS = 0; //!< of the runs at the sweep's other points, 0: durationS
    double aloneDurationS = 10;
    bool randomStart = false;
    double startJitterMs = 0; //!< aligned starts: each job's uniform in [0, this)
    uint32_t seed = 1;
    std::string placement = "random"; //!< random, packed, spread
    double jcThreshold = 0.05;
    double centralSlack = 0.01; //!< the centralized schedule's gate over the ideal, minus 1
    std::vector<uint32_t> sweepJobs;
    std::vector<double> sweepOversubscription;

    std::vector<JobInstance> jobs;
    std::vector<CheckCase> cases;

    /** @return the jobs of case @index, or the scenario's jobs for -1. */
    const std::vector<JobInstance>& JobsOf(int caseIndex) const;
    /** @return the MLTCP algorithm runs use in place of cc. */
    CcAlgo MltcpAlgo() const;
};

/**
 * Read @file, then apply @overrides ("key=value", scenario keys).
 * @return false with @err set on any unknown key or bad value.
 */
bool LoadScenario(const std::string& file,
                  const std::vector<std::string>& overrides,
                  Scenario* scenario,
                  std::string* err);

/** @return the scenario's network at @oversubscription (leaf-spine only uses it). */
std::unique_ptr<Topology> MakeTopology(const Scenario& scenario, double oversubscription);

/** @return the queues of @topology's switch ports as @scenario sizes them. */
QueueConfig MakeQueues(const Scenario& scenario, const Topology& topology);

/**
 * The hosts of each job, in worker order: explicit places first, then the
 * scenario's placement policy over the hosts left; at most one worker per
 * host.  @return false with @err set when the jobs do not fit.
 */
bool PlaceJobs(const Scenario& scenario,
               const std::vector<JobInstance>& jobs,
               const Topology& topology,
               std::vector<std::vector<uint32_t>>* hosts,
               std::string* err);

/** @return job @job scaled to @scenario's host links. */
ScaledProfile ScaleJob(const Scenario& scenario, const JobInstance& job);

/** One simulation. */
struct RunSpec
{
    std::string label;
    int caseIndex = -1;            //!< the jobs of a [case], or -1
    std::vector<uint32_t> jobs;    //!< which of them run
    std::vector<double> offsetsMs; //!< each one's start offset
    /**
     * Each one's gate, ms (empty or 0: none): iteration k starts no earlier
     * than its start offset + k x the gate, as a centralized schedule's agents hold it.
     */
    std::vector<double> gatesMs;
    uint32_t seed = 0; //!< placement, ECMP salt and random starts; 0: the scenario's
    double oversubscription = 2;
    CcAlgo cc = CcAlgo::RENO;
    double durationS = 30;
};

/** What a run measured. */
struct RunResult
{
    struct Iter
    {
        uint32_t job; //!< index into the case's or scenario's jobs
        uint32_t k;
        double startMs;
        double endMs;
    };

    struct LinkCount
    {
        uint32_t link;
        std::string name;
        LinkStats stats;
    };

    std::string label;
    std::vector<Iter> iterations;
    std::vector<LinkCount> links; //!< every link that carried anything
    bool socketsRead = false;     //!< @sockets holds the run's RUN-sockets.csv
    SocketSummary sockets;        //!< every sending socket's records, summed
    uint64_t events = 0;
    double wallS = 0;
    double simS = 0;
};

/** The time jobs get to connect before the first iteration, ms. */
constexpr double kSetupMs = 50;

/** Run @spec of @scenario in this process (ns-3 runs once per process). */
RunResult RunSimulation(const Scenario& scenario, const RunSpec& spec);

/** @return @spec as command-line arguments of mltcp-sim --run-one. */
std::vector<std::string> RunSpecArgs(const RunSpec& spec);
/** Parse what RunSpecArgs() wrote; @return false with @err set. */
bool ParseRunSpecArg(const std::string& key,
                     const std::string& value,
                     RunSpec* spec,
                     std::string* err);

/**
 * Write @result to @path; read it back, with the socket records beside it
 * (SocketRecordsPath()) where they exist.
 */
bool WriteRunResult(const RunResult& result, const std::string& path);
bool ReadRunResult(const std::string& path, RunResult* result, std::string* err);

} // namespace ns3

#endif /* MLTCP_SIM_SCENARIO_H */
