/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator tests' own small dumbbell: senders on 1 Gbit/s access
 * links share a 100 Mbit/s bottleneck (5 ms; 14 ms of RTT in all) to one
 * receiving node, behind a 100-packet FIFO (most of a BDP) or, for ECN, a
 * RED queue that marks from 10 packets on.  Each sender runs a job of
 * iterations: at each iteration's start an optional mark (MltcpHints),
 * then after the compute gap its bytes.  A run records each sender's
 * congestion window, the bytes its receiver got and, for MLTCP senders, F
 * every millisecond.
 *
 * Runs are deterministic and independent: each builds its network afresh,
 * and the RED queue draws from a fixed random stream, so two runs that
 * differ only in their algorithms differ only by what the algorithms do.
 */
#ifndef MLTCP_SIM_TEST_DUMBBELL_H
#define MLTCP_SIM_TEST_DUMBBELL_H

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "mltcp-socket.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/node-container.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-size.h"
#include "ns3/red-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-tx-buffer.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

namespace mltcp_test
{

using namespace ns3;

constexpr uint32_t kSegment = 1448;        //!< the senders' segment size, bytes
constexpr uint32_t kInitialWindow = 10 * kSegment; //!< ns-3's initial window

/** One sender's job. */
struct Job
{
    CcAlgo algo = CcAlgo::RENO;
    Time start = MilliSeconds(100); //!< the first iteration's start
    Time period = MilliSeconds(300); //!< iterations start this far apart
    Time compute = Time(0);         //!< from an iteration's start to its bytes
    uint64_t markBytes = 0;         //!< each iteration is marked with this size; 0: no marks
    uint64_t sizeBytes = 0;         //!< the iterations' size, given once at the start; 0: none
    std::vector<uint64_t> bytes;    //!< each iteration's bytes; the last repeats
};

struct Dumbbell
{
    bool ecn = false;            //!< RED marking ECN instead of the FIFO
    Time duration = Seconds(3);  //!< simulated time
    std::vector<Job> jobs;
};

/** F of an MLTCP sender, at one instant. */
struct FSample
{
    Time at;
    uint32_t f;                //!< Q10
    int32_t iteration;         //!< which iteration was under way (-1: none yet)
    uint64_t iterationAcked;   //!< bytes of it acked so far
    bool sending;              //!< its bytes were written (the compute gap is over)
};

/** What a run recorded of one sender. */
struct FlowTrace
{
    std::vector<std::pair<int64_t, uint32_t>> cwnd; //!< (ns, bytes) at each change
    uint64_t delivered = 0;                         //!< bytes its receiver got
    std::vector<FSample> f;                         //!< every ms, MLTCP senders only
    std::vector<Time> sendAt;                       //!< when each iteration's bytes were written
};

/** The receiving end of one flow: counts what arrives. */
class Receiver
{
  public:
    Receiver(Ptr<Node> node, uint16_t port, CcAlgo algo, FlowTrace* trace)
        : m_trace(trace)
    {
        /* the stock algorithm on the receiving side, whatever the sender runs */
        m_listener = CreateSimSocket(node, CcAlgoBase(algo)).socket;
        m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        m_listener->Listen();
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&Receiver::Accepted, this));
    }

  private:
    void Accepted(Ptr<Socket> socket, const Address&)
    {
        socket->SetRecvCallback(MakeCallback(&Receiver::Read, this));
    }

    void Read(Ptr<Socket> socket)
    {
        Ptr<Packet> p;

        while ((p = socket->Recv()) && p->GetSize() > 0)
        {
            m_trace->delivered += p->GetSize();
        }
    }

    Ptr<Socket> m_listener;
    FlowTrace* m_trace;
};

/** The sending end of one flow: runs its job. */
class Sender
{
  public:
    Sender(Ptr<Node> node, const Address& peer, const Job& job, Time end, FlowTrace* trace)
        : m_job(job),
          m_end(end),
          m_trace(trace),
          m_sock(CreateSimSocket(node, job.algo))
    {
        m_sock.socket->TraceConnectWithoutContext("CongestionWindow",
                                                  MakeCallback(&Sender::Cwnd, this));
        m_sock.socket->SetSendCallback(MakeCallback(&Sender::Space, this));
        Simulator::ScheduleNow(&Sender::Connect, this, peer);
        Simulator::Schedule(job.start, &Sender::Iteration, this);
        if (m_sock.hints)
        {
            Simulator::Schedule(MilliSeconds(1), &Sender::Poll, this);
        }
    }

  private:
    void Connect(Address peer)
    {
        if (m_job.sizeBytes)
        {
            m_sock.hints->SetIterationBytes(m_job.sizeBytes);
        }
        m_sock.socket->Bind();
        m_sock.socket->Connect(peer);
    }

    uint64_t Acked() const
    {
        return m_written - DynamicCast<TcpSocketBase>(m_sock.socket)->GetTxBuffer()->Size();
    }

    void Iteration()
    {
        const std::vector<uint64_t>& b = m_job.bytes;
        uint64_t bytes = b.empty() ? 0 : b[std::min<size_t>(m_iteration, b.size() - 1)];

        m_iterationStart = m_written;
        m_sending = false;
        if (m_job.markBytes)
        {
            m_sock.hints->MarkIteration(m_job.markBytes);
        }
        Simulator::Schedule(m_job.compute, &Sender::Communicate, this, bytes);
        if (Simulator::Now() + m_job.period < m_end)
        {
            Simulator::Schedule(m_job.period, &Sender::Iteration, this);
        }
        m_iteration++;
    }

    void Communicate(uint64_t bytes)
    {
        m_trace->sendAt.push_back(Simulator::Now());
        m_sending = true;
        m_pending += bytes;
        Write();
    }

    void Write()
    {
        while (m_pending > 0)
        {
            uint32_t room = m_sock.socket->GetTxAvailable();
            uint32_t n = static_cast<uint32_t>(std::min<uint64_t>({m_pending, room, 65536}));
            int sent = n ? m_sock.socket->Send(Create<Packet>(n)) : -1;

            if (sent <= 0)
            {
                return;
            }
            m_pending -= static_cast<uint32_t>(sent);
            m_written += static_cast<uint32_t>(sent);
        }
    }

    void Space(Ptr<Socket>, uint32_t)
    {
        Write();
    }

    void Cwnd(uint32_t, uint32_t cwnd)
    {
        m_trace->cwnd.emplace_back(Simulator::Now().GetNanoSeconds(), cwnd);
    }

    void Poll()
    {
        uint64_t acked = Acked();

        m_trace->f.push_back({Simulator::Now(),
                              m_sock.hints->GetFQ10(),
                              static_cast<int32_t>(m_iteration) - 1,
                              acked > m_iterationStart ? acked - m_iterationStart : 0,
                              m_sending});
        Simulator::Schedule(MilliSeconds(1), &Sender::Poll, this);
    }

    Job m_job;
    Time m_end;
    FlowTrace* m_trace;
    SimSocket m_sock;
    uint32_t m_iteration = 0;
    uint64_t m_pending = 0;        //!< bytes of the iterations still to write
    uint64_t m_written = 0;        //!< bytes written to the socket
    uint64_t m_iterationStart = 0; //!< m_written at the current iteration's start
    bool m_sending = false;
};

/** Run @d: one FlowTrace per job, in order. */
inline std::vector<FlowTrace>
Run(const Dumbbell& d)
{
    std::vector<FlowTrace> traces(d.jobs.size());
    std::vector<std::unique_ptr<Receiver>> receivers;
    std::vector<std::unique_ptr<Sender>> senders;
    NodeContainer hosts;
    NodeContainer routers;
    NodeContainer sink;
    PointToPointHelper access;
    PointToPointHelper bottleneck;
    TrafficControlHelper tch;
    InternetStackHelper stack;
    Ipv4AddressHelper addresses;
    NetDeviceContainer core;
    Ipv4InterfaceContainer sinkIf;

    Ipv4AddressGenerator::Reset();
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(kSegment));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(kInitialWindow / kSegment));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(8 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(8 << 20));

    hosts.Create(d.jobs.size());
    routers.Create(2);
    sink.Create(1);
    stack.InstallAll();

    access.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    access.SetChannelAttribute("Delay", StringValue("1ms"));
    bottleneck.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    bottleneck.SetChannelAttribute("Delay", StringValue("5ms"));
    /* the queue is the queue disc's, not the device's */
    bottleneck.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));

    core = bottleneck.Install(routers.Get(0), routers.Get(1));
    if (d.ecn)
    {
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "UseEcn", BooleanValue(true),
                             "UseHardDrop", BooleanValue(false),
                             "MeanPktSize", UintegerValue(1500),
                             "QW", DoubleValue(1.0),
                             "MinTh", DoubleValue(10),
                             "MaxTh", DoubleValue(30),
                             "MaxSize", QueueSizeValue(QueueSize("200p")),
                             "LinkBandwidth", StringValue("100Mbps"),
                             "LinkDelay", StringValue("5ms"));
    }
    else
    {
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(QueueSize("100p")));
    }
    QueueDiscContainer qdiscs = tch.Install(core.Get(0));
    if (Ptr<RedQueueDisc> red = DynamicCast<RedQueueDisc>(qdiscs.Get(0)))
    {
        red->AssignStreams(7);
    }

    addresses.SetBase("10.2.0.0", "255.255.255.0");
    addresses.Assign(core);
    addresses.SetBase("10.3.0.0", "255.255.255.0");
    sinkIf = addresses.Assign(access.Install(routers.Get(1), sink.Get(0)));
    for (uint32_t i = 0; i < d.jobs.size(); i++)
    {
        addresses.SetBase(Ipv4Address(0x0a010000 + (i << 8)), "255.255.255.0");
        addresses.Assign(access.Install(hosts.Get(i), routers.Get(0)));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    for (uint32_t i = 0; i < d.jobs.size(); i++)
    {
        uint16_t port = static_cast<uint16_t>(5000 + i);

        receivers.push_back(
            std::make_unique<Receiver>(sink.Get(0), port, d.jobs[i].algo, &traces[i]));
        senders.push_back(std::make_unique<Sender>(hosts.Get(i),
                                                   InetSocketAddress(sinkIf.GetAddress(1), port),
                                                   d.jobs[i],
                                                   d.duration,
                                                   &traces[i]));
    }
    Simulator::Stop(d.duration);
    Simulator::Run();
    Simulator::Destroy();
    return traces;
}

/** @return how many times @t's window went down */
inline uint32_t
Decreases(const FlowTrace& t)
{
    uint32_t n = 0;

    for (size_t i = 1; i < t.cwnd.size(); i++)
    {
        n += t.cwnd[i].second < t.cwnd[i - 1].second ? 1 : 0;
    }
    return n;
}

/** @return the largest F @t recorded (0 without samples) */
inline uint32_t
MaxF(const FlowTrace& t)
{
    uint32_t f = 0;

    for (const FSample& s : t.f)
    {
        f = std::max(f, s.f);
    }
    return f;
}

} // namespace mltcp_test

#endif /* MLTCP_SIM_TEST_DUMBBELL_H */
