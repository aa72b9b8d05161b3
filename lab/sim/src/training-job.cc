/* SPDX-License-Identifier: GPL-2.0 */

#include "training-job.h"

#include "mltcp_core.h"

#include "ns3/abort.h"
#include "ns3/inet-socket-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TrainingJob);

/** The push pattern's confirmation, as the bench's 24-byte header. */
static const uint64_t kConfirmBytes = 24;

std::vector<JobChannel>
JobChannels(CommPattern pattern, uint32_t hosts)
{
    std::vector<JobChannel> channels;
    switch (pattern)
    {
    case CommPattern::RING:
        for (uint32_t w = 0; w < hosts; w++)
        {
            channels.push_back({w, (w + 1) % hosts, true});
        }
        break;
    case CommPattern::PS:
        for (uint32_t w = 1; w < hosts; w++)
        {
            channels.push_back({w, 0, true}); // push
            channels.push_back({0, w, true}); // pull
        }
        break;
    case CommPattern::PUSH:
        channels.push_back({0, 1, true});
        channels.push_back({1, 0, false});
        break;
    }
    return channels;
}

std::string
JobHostsError(CommPattern pattern, uint32_t hosts)
{
    if (pattern == CommPattern::PUSH && hosts != 2)
    {
        return "the push pattern takes 2 hosts";
    }
    if (hosts < 2)
    {
        return "a job needs at least 2 hosts";
    }
    if (JobChannels(pattern, hosts).size() > kMaxJobChannels)
    {
        return "too many connections for one job (at most 64)";
    }
    return "";
}

/** @return the size of one message: @bytes split in @parts, at least a byte. */
static uint64_t
Share(double bytes, uint32_t parts)
{
    return std::max<uint64_t>(1, std::llround(bytes / parts));
}

ChannelLoad
ChannelPhaseLoad(CommPattern pattern,
                 uint32_t hosts,
                 const JobChannel& channel,
                 double commBytes,
                 double commMs)
{
    switch (pattern)
    {
    case CommPattern::RING: {
        // the phase is 2(n-1) steps, each 1/n of the gradients, over every ring link
        uint32_t steps = 2 * (hosts - 1);
        return {Share(commBytes, steps) * steps, steps, 0};
    }
    case CommPattern::PS: {
        // the server's link carries n-1 pushes, then n-1 pulls: 2(n-1) transfers
        uint64_t b = Share(commBytes, 2 * (hosts - 1));
        return {b, 1, channel.to == 0 ? 0 : commMs / 2};
    }
    case CommPattern::PUSH:
        if (!channel.data)
        {
            return {kConfirmBytes, 1, commMs};
        }
        return {Share(commBytes, 1), 1, 0};
    }
    return {0, 0, 0};
}

uint32_t
JobTiebreak(uint32_t seed, uint32_t job)
{
    /* eight bytes: never the message of a connection's draw (mltcp_flow_tiebreak()) */
    const struct mltcp_tiebreak_key key = {seed, 0};
    const uint64_t m = job;

    return mltcp_tiebreak_from_word(uint32_t(mltcp_siphash24(&key, &m, 1, 0, 8) >> 32));
}

uint16_t
JobListenPort(uint32_t job)
{
    return uint16_t(5000 + job);
}

uint16_t
JobChannelPort(uint32_t job, uint32_t channel)
{
    return uint16_t(10000 + job * kMaxJobChannels + channel);
}

TypeId
TrainingJob::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MltcpSimTrainingJob")
                            .SetParent<Application>()
                            .SetGroupName("Applications")
                            .AddConstructor<TrainingJob>();
    return tid;
}

TrainingJob::TrainingJob() = default;

void
TrainingJob::Configure(const TrainingJobConfig& config)
{
    uint32_t hosts = config.nodes.size();
    std::string err = JobHostsError(config.pattern, hosts);
    NS_ABORT_MSG_IF(!err.empty(), config.name << ": " << err);
    NS_ABORT_MSG_IF(config.index >= kMaxSimJobs, "too many jobs");
    m_config = config;
    m_workers.assign(hosts, Worker());
    m_channels.clear();
    for (const JobChannel& ends : JobChannels(config.pattern, hosts))
    {
        Channel ch;
        ch.ends = ends;
        for (uint32_t s = 0; s < config.profile.segments.size(); s++)
        {
            ch.iterationBytes += ChannelPhaseLoad(config.pattern,
                                                  hosts,
                                                  ends,
                                                  config.profile.segments[s].commBytes,
                                                  0)
                                     .bytes;
        }
        uint32_t c = m_channels.size();
        m_channels.push_back(ch);
        // a worker has one connection in and one out, except the parameter server
        if (!(config.pattern == CommPattern::PS && ends.from == 0))
        {
            m_workers[ends.from].out = c;
        }
        if (!(config.pattern == CommPattern::PS && ends.to == 0))
        {
            m_workers[ends.to].in = c;
        }
    }
    m_participants = 0;
    for (uint32_t w = 0; w < hosts; w++)
    {
        m_participants += IsParticipant(w);
    }
}

bool
TrainingJob::IsParticipant(uint32_t w) const
{
    switch (m_config.pattern)
    {
    case CommPattern::RING:
        return true;
    case CommPattern::PS:
        return w != 0;
    case CommPattern::PUSH:
        return w == 0;
    }
    return false;
}

uint64_t
TrainingJob::MessageBytes(uint32_t segment, uint32_t c) const
{
    const JobChannel& ends = m_channels[c].ends;
    ChannelLoad load = ChannelPhaseLoad(m_config.pattern,
                                        m_workers.size(),
                                        ends,
                                        m_config.profile.segments[segment].commBytes,
                                        0);
    return load.bytes / load.messages;
}

std::vector<TrainingJob::Iteration>
TrainingJob::CompletedIterations() const
{
    std::vector<Iteration> done;
    for (const Record& r : m_records)
    {
        if (r.ended < m_participants)
        {
            break;
        }
        done.push_back({r.start, r.end});
    }
    return done;
}

void
TrainingJob::StartApplication()
{
    m_running = true;
    const uint32_t hosts = m_workers.size();
    std::vector<bool> listens(hosts, false);
    for (const Channel& ch : m_channels)
    {
        listens[ch.ends.to] = true;
    }
    for (uint32_t w = 0; w < hosts; w++)
    {
        if (!listens[w])
        {
            continue;
        }
        // The accepting side only receives; it runs the base algorithm, whose
        // receiver side DCTCP's ECN echo needs.
        Ptr<Socket> listener = CreateSimSocket(m_config.nodes[w], CcAlgoBase(m_config.cc)).socket;
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), JobListenPort(m_config.index)));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&TrainingJob::OnAccept, this));
        m_listeners.push_back(listener);
    }
    for (uint32_t c = 0; c < m_channels.size(); c++)
    {
        Channel& ch = m_channels[c];
        ch.tx = CreateSimSocket(m_config.nodes[ch.ends.from], m_config.cc);
        ch.tx.socket->Bind(
            InetSocketAddress(Ipv4Address::GetAny(), JobChannelPort(m_config.index, c)));
        ch.tx.socket->Connect(
            InetSocketAddress(m_config.addresses[ch.ends.to], JobListenPort(m_config.index)));
        ch.tx.socket->SetSendCallback(MakeCallback(&TrainingJob::OnSendSpace, this, c));
        // one tie-break for the whole job: a ring sends both ways at once,
        // and a job that led on one uplink and trailed on the other would
        // wait at every step for the direction it trails in
        if (m_config.tiebreak >= 0 && ch.tx.hints)
        {
            ch.tx.hints->SetTiebreak(m_config.tiebreak);
        }
    }
    Time wait = std::max(Time(), m_config.start - Simulator::Now());
    for (uint32_t w = 0; w < hosts; w++)
    {
        if (IsParticipant(w))
        {
            Simulator::Schedule(wait, &TrainingJob::StartIteration, this, w);
        }
    }
    if (m_config.pattern == CommPattern::PS)
    {
        Simulator::Schedule(wait, &TrainingJob::MarkChannels, this, 0);
    }
}

void
TrainingJob::StopApplication()
{
    m_running = false;
    for (Worker& w : m_workers)
    {
        w.compute.Cancel();
    }
}

void
TrainingJob::DoDispose()
{
    for (Channel& ch : m_channels)
    {
        if (ch.tx.socket)
        {
            ch.tx.socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        }
        if (ch.rx)
        {
            ch.rx->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        }
        ch.tx = SimSocket();
        ch.rx = nullptr;
    }
    m_listeners.clear();
    Application::DoDispose();
}

void
TrainingJob::MarkChannels(uint32_t from)
{
    if (!m_config.marks)
    {
        return;
    }
    for (Channel& ch : m_channels)
    {
        // below MLTCP's smallest iteration a mark would only be refused
        if (ch.ends.from == from && ch.ends.data && ch.tx.hints)
        {
            ch.tx.hints->MarkIteration(ch.iterationBytes);
        }
    }
}

void
TrainingJob::StartIteration(uint32_t w)
{
    if (!m_running)
    {
        return;
    }
    Worker& worker = m_workers[w];
    // An iteration starts when its first worker is ready for it: a gated
    // job's time at its gate counts, as it does in the job's throughput.
    if (worker.iteration >= m_records.size())
    {
        m_records.push_back({Simulator::Now(), Time(), 0});
    }
    if (m_config.gate.IsStrictlyPositive())
    {
        // a centralized schedule's agent: hold the iteration until its slot
        Time slot = m_config.start + m_config.gate * int64_t(worker.iteration);
        if (Simulator::Now() < slot)
        {
            worker.compute = Simulator::Schedule(slot - Simulator::Now(),
                                                 &TrainingJob::StartIteration,
                                                 this,
                                                 w);
            return;
        }
    }
    worker.segment = 0;
    MarkChannels(w);
    StartCompute(w);
}

void
TrainingJob::StartCompute(uint32_t w)
{
    double ms = m_config.profile.segments[m_workers[w].segment].computeMs;
    m_workers[w].compute = Simulator::Schedule(NanoSeconds(std::llround(ms * 1e6)),
                                               &TrainingJob::ComputeDone,
                                               this,
                                               w);
}

void
TrainingJob::ComputeDone(uint32_t w)
{
    Worker& worker = m_workers[w];
    worker.communicating = true;
    worker.sent = 0;
    Progress(w);
}

void
TrainingJob::Progress(uint32_t w)
{
    Worker& worker = m_workers[w];
    if (!worker.communicating)
    {
        return;
    }
    uint64_t arrived = m_channels[worker.in].rxMessages - worker.consumed;
    uint32_t needed = 1;
    if (m_config.pattern == CommPattern::RING)
    {
        // step k+1 leaves once step k has come in from the previous worker
        needed = 2 * (m_workers.size() - 1);
        while (worker.sent < needed && (worker.sent == 0 || arrived >= worker.sent))
        {
            Write(worker.out, MessageBytes(worker.segment, worker.out));
            worker.sent++;
        }
    }
    else if (worker.sent == 0)
    {
        // a push to the parameter server, or the bench's transfer
        Write(worker.out, MessageBytes(worker.segment, worker.out));
        worker.sent = 1;
    }
    if (arrived >= needed)
    {
        worker.consumed += needed;
        PhaseDone(w);
    }
}

void
TrainingJob::PhaseDone(uint32_t w)
{
    Worker& worker = m_workers[w];
    worker.communicating = false;
    worker.segment++;
    if (worker.segment < m_config.profile.segments.size())
    {
        StartCompute(w);
        return;
    }
    Record& r = m_records[worker.iteration];
    r.end = std::max(r.end, Simulator::Now());
    r.ended++;
    worker.iteration++;
    StartIteration(w);
}

void
TrainingJob::ServeParameters()
{
    // The server answers a phase once every worker's push for it is in.
    for (;;)
    {
        for (const Channel& ch : m_channels)
        {
            if (ch.ends.to == 0 && ch.rxMessages <= m_served)
            {
                return;
            }
        }
        uint32_t segment = m_served % m_config.profile.segments.size();
        for (uint32_t c = 0; c < m_channels.size(); c++)
        {
            if (m_channels[c].ends.from == 0)
            {
                Write(c, MessageBytes(segment, c));
            }
        }
        m_served++;
        if (m_served % m_config.profile.segments.size() == 0 && m_running)
        {
            MarkChannels(0);
        }
    }
}

void
TrainingJob::Write(uint32_t c, uint64_t bytes)
{
    Channel& ch = m_channels[c];
    ch.pending += bytes;
    ch.sizes.push_back(bytes);
    TryWrite(c);
}

void
TrainingJob::TryWrite(uint32_t c)
{
    Channel& ch = m_channels[c];
    while (ch.pending > 0)
    {
        uint32_t room = ch.tx.socket->GetTxAvailable();
        if (room == 0)
        {
            return;
        }
        uint32_t n = uint32_t(std::min<uint64_t>({ch.pending, room, 1u << 20}));
        int taken = ch.tx.socket->Send(Create<Packet>(n));
        if (taken <= 0)
        {
            return;
        }
        ch.pending -= uint32_t(taken);
    }
}

void
TrainingJob::OnSendSpace(uint32_t c, Ptr<Socket>, uint32_t)
{
    TryWrite(c);
}

void
TrainingJob::OnAccept(Ptr<Socket> socket, const Address& from)
{
    uint16_t port = InetSocketAddress::ConvertFrom(from).GetPort();
    uint32_t first = JobChannelPort(m_config.index, 0);
    NS_ABORT_MSG_IF(port < first || port - first >= m_channels.size(),
                    m_config.name << ": a connection from an unknown port " << port);
    uint32_t c = port - first;
    m_channels[c].rx = socket;
    socket->SetRecvCallback(MakeCallback(&TrainingJob::OnReceive, this, c));
}

void
TrainingJob::OnReceive(uint32_t c, Ptr<Socket> socket)
{
    Channel& ch = m_channels[c];
    while (Ptr<Packet> p = socket->Recv())
    {
        if (p->GetSize() == 0)
        {
            break;
        }
        ch.rxBytes += p->GetSize();
        while (!ch.sizes.empty() && ch.rxBytes >= ch.sizes.front())
        {
            ch.rxBytes -= ch.sizes.front();
            ch.sizes.pop_front();
            ch.rxMessages++;
            OnMessage(c);
        }
    }
}

void
TrainingJob::OnMessage(uint32_t c)
{
    const JobChannel& ends = m_channels[c].ends;
    if (m_config.pattern == CommPattern::PS && ends.to == 0)
    {
        ServeParameters();
    }
    else if (m_config.pattern == CommPattern::PUSH && ends.to == 1)
    {
        Write(m_workers[1].out, kConfirmBytes);
    }
    else
    {
        Progress(ends.to);
    }
}

} // namespace ns3
