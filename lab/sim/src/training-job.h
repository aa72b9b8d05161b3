/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A distributed training job: N workers on N hosts repeat an iteration of
 * compute phases, each followed by a communication phase over TCP.
 *
 * Patterns (job-profiles.h): ring all-reduce (worker w sends to w+1; a
 * phase is 2(n-1) steps of 1/n of the gradients, step k+1 leaves once step k
 * has arrived from w-1), parameter server (host 0 is the server: each
 * worker pushes its gradients, the server waits for all of them and sends
 * every worker the update back), and the bench's push (host 0 sends, host
 * 1 confirms each phase with a small message).  A hybrid-parallel job has
 * several segments per iteration.
 *
 * Each connection is a socket the sending worker connects
 * (CreateSimSocket(), mltcp-socket.h) and the receiving one accepts.  With
 * marks on, every iteration start marks each sending socket with the bytes
 * it carries per iteration (MltcpHints::MarkIteration(), as libmltcp's
 * mltcp_mark() does); without, MLTCP learns the iterations.
 *
 * One Application object drives all of a job's workers; they interact only
 * through their connections, and a worker only acts on what it has
 * received, so the job behaves as N processes would.
 */
#ifndef MLTCP_SIM_TRAINING_JOB_H
#define MLTCP_SIM_TRAINING_JOB_H

#include "job-profiles.h"
#include "mltcp-socket.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/** A directed connection of a job, by worker index. */
struct JobChannel
{
    uint32_t from; //!< connects and sends
    uint32_t to;   //!< accepts and receives
    bool data;     //!< false for the push pattern's confirmations
};

/** @return the connections of a job of @hosts hosts with @pattern. */
std::vector<JobChannel> JobChannels(CommPattern pattern, uint32_t hosts);

/** @return an error message when @hosts cannot run @pattern, else empty. */
std::string JobHostsError(CommPattern pattern, uint32_t hosts);

/** What a connection carries in one communication phase. */
struct ChannelLoad
{
    uint64_t bytes;    //!< payload bytes
    uint32_t messages; //!< in how many messages
    double startMs;    //!< how long after the phase starts, the phase alone on the network
};

/**
 * @return what @channel carries in a phase of @commBytes (SimSegment) for a
 * job of @hosts hosts, the phase taking @commMs alone.
 */
ChannelLoad ChannelPhaseLoad(CommPattern pattern,
                             uint32_t hosts,
                             const JobChannel& channel,
                             double commBytes,
                             double commMs);

/**
 * @return the tie-break, Q10, that all of job @job's sockets get at seed
 * @seed: one draw for the job, as mltcp.torch.attach() broadcasts rank 0's.
 */
uint32_t JobTiebreak(uint32_t seed, uint32_t job);

/** The port job @job listens on, and the one its connection @channel sends from. */
uint16_t JobListenPort(uint32_t job);
uint16_t JobChannelPort(uint32_t job, uint32_t channel);
/** The largest job index and hosts per job the port plan allows. */
constexpr uint32_t kMaxSimJobs = 800;
constexpr uint32_t kMaxJobChannels = 64;

struct TrainingJobConfig
{
    std::string name;
    uint32_t index = 0; //!< unique within the simulation: the job's ports
    CommPattern pattern = CommPattern::RING;
    std::vector<Ptr<Node>> nodes;       //!< one host per worker, in worker order
    std::vector<Ipv4Address> addresses; //!< their addresses
    ScaledProfile profile;
    CcAlgo cc = CcAlgo::RENO;
    bool marks = false; //!< mark iterations through MltcpHints
    int32_t tiebreak = -1; //!< every sending socket's tie-break, Q10; -1: each draws its own
    Time start;         //!< when the first iteration starts
    Time gate;          //!< if positive: iteration k starts no earlier than start + k x gate
};

class TrainingJob : public Application
{
  public:
    static TypeId GetTypeId();
    TrainingJob();

    /** Set the job up; then add it to config.nodes[0] and start it at time 0. */
    void Configure(const TrainingJobConfig& config);

    struct Iteration
    {
        Time start; //!< the first worker's start of its compute
        Time end;   //!< the last worker's end of its last communication phase
    };

    /** @return the iterations every worker completed, in order. */
    std::vector<Iteration> CompletedIterations() const;

  private:
    struct Channel
    {
        JobChannel ends;
        SimSocket tx;
        Ptr<Socket> rx;
        uint64_t pending = 0;       //!< written by the application, not yet taken by TCP
        std::deque<uint64_t> sizes; //!< sizes of the messages not yet received
        uint64_t rxBytes = 0;       //!< received beyond the last complete message
        uint64_t rxMessages = 0;    //!< complete messages received
        uint64_t iterationBytes = 0;
    };

    struct Worker
    {
        uint32_t iteration = 0;
        uint32_t segment = 0;
        bool communicating = false;
        uint32_t sent = 0;     //!< messages sent in this phase
        uint64_t consumed = 0; //!< messages of the inbound channel earlier phases took
        uint32_t in = UINT32_MAX;
        uint32_t out = UINT32_MAX;
        EventId compute;
    };

    struct Record
    {
        Time start;
        Time end;
        uint32_t ended = 0;
    };

    void StartApplication() override;
    void StopApplication() override;
    void DoDispose() override;

    bool IsParticipant(uint32_t w) const;
    uint64_t MessageBytes(uint32_t segment, uint32_t channel) const;
    void MarkChannels(uint32_t from);

    void StartIteration(uint32_t w);
    void StartCompute(uint32_t w);
    void ComputeDone(uint32_t w);
    void Progress(uint32_t w);
    void PhaseDone(uint32_t w);
    void ServeParameters();

    void Write(uint32_t c, uint64_t bytes);
    void TryWrite(uint32_t c);
    void OnSendSpace(uint32_t c, Ptr<Socket> socket, uint32_t available);
    void OnAccept(Ptr<Socket> socket, const Address& from);
    void OnReceive(uint32_t c, Ptr<Socket> socket);
    void OnMessage(uint32_t c);

    TrainingJobConfig m_config;
    std::vector<Channel> m_channels;
    std::vector<Worker> m_workers;
    std::vector<Ptr<Socket>> m_listeners;
    std::vector<Record> m_records;
    uint32_t m_participants = 0;
    uint32_t m_served = 0; //!< parameter-server phases answered
    bool m_running = false;
};

} // namespace ns3

#endif /* MLTCP_SIM_TRAINING_JOB_H */
