/* SPDX-License-Identifier: GPL-2.0 */

#include "topology-tcp.h"

#include "job-profiles.h"
#include "linux-dctcp.h"
#include "mltcp-socket.h"
#include "socket-record.h"
#include "training-job.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/inet-socket-address.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rtt-estimator.h"
#include "ns3/simulator.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/tcp-tx-buffer.h"
#include "ns3/tcp-tx-item.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SimPrrRecovery);
NS_OBJECT_ENSURE_REGISTERED(SimRate);
NS_OBJECT_ENSURE_REGISTERED(SimTcpSocket);

namespace
{

double
NowMs()
{
    return Simulator::Now().GetSeconds() * 1e3;
}

uint32_t
Us(const Time& t)
{
    int64_t us = t.GetMicroSeconds();
    if (us <= 0)
    {
        return 0;
    }
    return us >= std::numeric_limits<uint32_t>::max() ? std::numeric_limits<uint32_t>::max()
                                                      : uint32_t(us);
}

std::string
AddressText(const Address& a)
{
    std::ostringstream os;
    if (InetSocketAddress::IsMatchingType(a))
    {
        InetSocketAddress in = InetSocketAddress::ConvertFrom(a);
        os << in.GetIpv4() << ":" << in.GetPort();
    }
    return os.str();
}

/* the job whose listening port @a is (JobListenPort()), -1 if none */
int32_t
JobOfPeer(const Address& a)
{
    if (!InetSocketAddress::IsMatchingType(a))
    {
        return -1;
    }
    uint16_t port = InetSocketAddress::ConvertFrom(a).GetPort();
    uint16_t first = JobListenPort(0);
    return port >= first && port < JobChannelPort(0, 0) ? int32_t(port - first) : -1;
}

} // namespace

TypeId
SimRate::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MltcpSimRate")
                            .SetParent<TcpRateLinux>()
                            .SetGroupName("Internet")
                            .AddConstructor<SimRate>();
    return tid;
}

void
SimRate::SkbDelivered(TcpTxItem* skb)
{
    /* a segment SACKed before is not delivered again by the cumulative ACK */
    if (skb->GetRateInformation().m_deliveredTime != Time::Max() && !skb->IsRetrans() &&
        skb->GetLastSent() > m_latestSent)
    {
        m_latestSent = skb->GetLastSent();
        m_rtt = Simulator::Now() - m_latestSent;
        m_minRtt = std::min(m_minRtt, m_rtt);
    }
    TcpRateLinux::SkbDelivered(skb);
}

TypeId
SimTcpSocket::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MltcpSimTcpSocket")
                            .SetParent<TcpSocketBase>()
                            .SetGroupName("Internet")
                            .AddConstructor<SimTcpSocket>();
    return tid;
}

SimTcpSocket::SimTcpSocket()
    : TcpSocketBase()
{
    UseSimRate();
}

SimTcpSocket::SimTcpSocket(const SimTcpSocket& other)
    : TcpSocketBase(other),
      m_record(nullptr)
{
    UseSimRate();
}

void
SimTcpSocket::UseSimRate()
{
    m_simRate = CreateObject<SimRate>();
    m_rateOps = m_simRate;
}

Ptr<SimTcpSocket>
SimTcpSocket::Make(Ptr<Node> node, Ptr<TcpCongestionOps> cc)
{
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    NS_ABORT_MSG_UNLESS(tcp, "SimTcpSocket: the node has no TCP");
    TypeIdValue rttType;
    TypeIdValue recoveryType;
    tcp->GetAttribute("RttEstimatorType", rttType);
    tcp->GetAttribute("RecoveryType", recoveryType);
    ObjectFactory rtt(rttType.Get().GetName());
    ObjectFactory recovery(recoveryType.Get().GetName());
    Ptr<SimTcpSocket> s = CreateObject<SimTcpSocket>();
    s->SetNode(node);
    s->SetTcp(tcp);
    s->SetRtt(rtt.Create<RttEstimator>());
    if (cc)
    {
        s->SetCongestionControlAlgorithm(cc);
    }
    s->SetRecoveryAlgorithm(recovery.Create<TcpRecoveryOps>());
    return s;
}

Ptr<TcpSocketBase>
SimTcpSocket::Fork()
{
    return CopyObject<SimTcpSocket>(this);
}

SocketRecord*
SimTcpSocket::Record()
{
    if (!m_record)
    {
        Address local;
        Address peer;
        m_record = NewSocketRecord(GetNode() ? GetNode()->GetId() : 0,
                                   m_congestionControl ? m_congestionControl->GetName() : "");
        if (GetSockName(local) == 0)
        {
            m_record->local = AddressText(local);
        }
        if (GetPeerName(peer) == 0)
        {
            m_record->peer = AddressText(peer);
            m_record->job = JobOfPeer(peer);
        }
        m_record->state = m_tcb->m_congState.Get();
        m_record->stateSince = NowMs();
        m_record->backoffSince = NowMs();
    }
    return m_record;
}

uint32_t
SimTcpSocket::LatestRttUs() const
{
    return Us(m_simRate->LatestRtt());
}

uint32_t
SimTcpSocket::MinRttUs() const
{
    return m_simRate->MinRtt() == Time::Max() ? ~0U : Us(m_simRate->MinRtt());
}

void
SimTcpSocket::StateTo(TcpSocketState::TcpCongState_t state)
{
    SocketRecord* r = m_record;
    double now = NowMs();

    if (!r || r->state == int(state))
    {
        return;
    }
    if (r->state == TcpSocketState::CA_LOSS)
    {
        r->lossMs += now - r->stateSince;
    }
    else if (r->state == TcpSocketState::CA_RECOVERY)
    {
        r->recoveryMs += now - r->stateSince;
    }
    double seg = m_tcb->m_segmentSize;
    if (state == TcpSocketState::CA_RECOVERY)
    {
        r->recoveries++;
        SocketEvent(r, now, "recovery", m_ackCwnd / seg, r->state, m_tcb->m_ssThresh / seg);
    }
    else if (state == TcpSocketState::CA_CWR)
    {
        r->cwrs++;
        SocketEvent(r, now, "cwr", m_ackCwnd / seg, 0, m_tcb->m_ssThresh / seg);
    }
    r->state = state;
    r->stateSince = now;
}

/* an ACK of new data: its F and phase (MLTCP's), and the time since the last one */
void
SimTcpSocket::CountAck()
{
    SocketRecord* r = Record();
    double now = NowMs();
    uint32_t f = 1024;
    BusyPhase phase = BusyPhase::ONE;
    auto* hints = dynamic_cast<const MltcpHints*>(PeekPointer(m_congestionControl));

    if (hints)
    {
        hints->AckPhase(&f, &phase);
    }
    r->acks++;
    if (phase == BusyPhase::YIELD)
    {
        r->yieldAcks++;
    }
    else
    {
        r->fHist[std::min<uint32_t>((f + 64) >> 7, kFBins - 1)]++;
    }
    if (r->lastFlight && r->lastAckMs >= 0)
    {
        r->busyMs[uint32_t(r->lastPhase)] += now - r->lastAckMs;
    }
    r->lastAckMs = now;
    r->lastPhase = phase;
    r->lastFlight = m_tcb->m_highTxMark.Get() > m_txBuffer->HeadSequence();
}

void
SimTcpSocket::DeliveryRate(uint32_t* bytes, uint32_t* us) const
{
    const TcpRateOps::TcpRateConnection& rc = m_simRate->GetConnectionRate();

    *bytes = rc.m_rateDelivered > 0 ? uint32_t(rc.m_rateDelivered) : 0;
    *us = *bytes ? Us(rc.m_rateInterval) : 0;
}

bool
SimTcpSocket::CwndLimited() const
{
    if (m_tcb->m_cWnd < m_tcb->m_ssThresh)
    {
        return m_tcb->m_cWnd < 2 * uint64_t(m_roundMaxFlight);
    }
    return m_roundFull;
}

/*
 * After a transmission: a round trip starts when the last one's data is
 * acked, or earlier with a larger flight or a full window, which then
 * stands for the round trip.
 */
void
SimTcpSocket::NoteFlight()
{
    uint32_t flight = BytesInFlight();
    bool full = uint64_t(flight) + m_tcb->m_segmentSize > m_tcb->m_cWnd;

    if (m_txBuffer->HeadSequence() >= m_roundEnd || full || flight > m_roundMaxFlight)
    {
        m_roundMaxFlight = flight;
        m_roundEnd = m_tcb->m_highTxMark.Get();
        m_roundFull = full;
    }
}

int
SimTcpSocket::Send(Ptr<Packet> p, uint32_t flags)
{
    if (m_sentData && m_txBuffer->Size() == 0 && m_tcb->m_congState == TcpSocketState::CA_OPEN)
    {
        Time idle = Simulator::Now() - m_lastDataSent;
        if (idle > m_rto.Get())
        {
            IdleRestart(idle);
        }
    }
    return TcpSocketBase::Send(p, flags);
}

/* RFC 5681, 4.1: the window after an idle period longer than the RTO (SimTcpSocket). */
void
SimTcpSocket::IdleRestart(const Time& idle)
{
    uint32_t cwnd = m_tcb->m_cWnd;
    uint32_t restart = std::min(m_tcb->m_initialCWnd * m_tcb->m_segmentSize, cwnd);
    int64_t rtos = m_rto.Get().IsStrictlyPositive()
                       ? idle.GetNanoSeconds() / m_rto.Get().GetNanoSeconds()
                       : 0;

    m_tcb->m_ssThresh = std::max<uint32_t>(m_tcb->m_ssThresh, cwnd / 4 * 3);
    while (rtos-- > 0 && cwnd > restart)
    {
        cwnd /= 2;
    }
    cwnd = std::max(cwnd, restart);
    if (cwnd != m_tcb->m_cWnd)
    {
        m_tcb->m_cWnd = cwnd;
        m_tcb->m_cWndInfl = cwnd;
        if (m_record)
        {
            m_record->idleRestarts++;
            SocketEvent(m_record, NowMs(), "idle_restart", cwnd / double(m_tcb->m_segmentSize), 0);
        }
    }
}

void
SimTcpSocket::ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader)
{
    SequenceNumber32 head = m_txBuffer->HeadSequence();
    uint64_t delivered = m_simRate->GetConnectionRate().m_delivered;
    uint32_t lost = m_txBuffer->GetLost();
    uint32_t priorInFlight = m_tcb->m_bytesInFlight.Get();

    m_ackCwnd = m_tcb->m_cWnd.Get();
    TcpSocketBase::ReceivedAck(packet, tcpHeader);
    /* the sample TcpSocketBase makes only for algorithms with CongControl */
    if (!m_congestionControl->HasCongControl())
    {
        uint32_t nowLost = m_txBuffer->GetLost();
        m_simRate->GenerateSample(
            uint32_t(m_simRate->GetConnectionRate().m_delivered - delivered),
            nowLost > lost ? nowLost - lost : lost - nowLost,
            false,
            priorInFlight,
            m_simRate->MinRtt() == Time::Max() ? Time(0) : m_simRate->MinRtt());
    }
    if (!m_record)
    {
        return;
    }
    StateTo(m_tcb->m_congState.Get());
    if (m_txBuffer->HeadSequence() > head)
    {
        CountAck();
    }
}

void
SimTcpSocket::ProcessAck(const SequenceNumber32& ackNumber,
                         bool scoreboardUpdated,
                         uint32_t currentDelivered,
                         const SequenceNumber32& oldHeadSequence)
{
    bool dupack = m_sackEnabled ? scoreboardUpdated
                                : ackNumber == oldHeadSequence && ackNumber < m_tcb->m_highTxMark;

    if (m_tcb->m_congState != TcpSocketState::CA_CWR || !dupack ||
        !m_txBuffer->IsLost(oldHeadSequence))
    {
        TcpSocketBase::ProcessAck(ackNumber, scoreboardUpdated, currentDelivered, oldHeadSequence);
        return;
    }
    /*
     * A loss during an ECN reduction.  Through CA_DISORDER, DupAck() enters
     * Recovery on this ACK (the scoreboard shows the head lost); the count
     * stays within the threshold, as it would have from CA_OPEN.  Linux's
     * tcp_enter_recovery() starts no second reduction while one is under
     * way, so the reduction's ssthresh is kept and PRR starts again towards
     * it (Linux's carries on with the reduction's: the one retransmission
     * EnterRecovery() just sent is not counted against it).  Linux's dctcp
     * is the exception: its set_state hook halves the window reached so far
     * on entering Recovery from any state, which is the threshold
     * EnterRecovery() just asked LinuxDctcp for (MltcpDctcp's divided by F,
     * as mltcp_dctcp's); that one stays.
     */
    uint32_t ssthresh = m_tcb->m_ssThresh;
    bool halves = dynamic_cast<const LinuxDctcp*>(PeekPointer(m_congestionControl)) != nullptr;
    m_dupAckCount = std::min(m_dupAckCount, m_retxThresh - 1);
    m_tcb->m_congState = TcpSocketState::CA_DISORDER;
    TcpSocketBase::ProcessAck(ackNumber, scoreboardUpdated, currentDelivered, oldHeadSequence);
    if (m_tcb->m_congState == TcpSocketState::CA_RECOVERY && !halves)
    {
        m_tcb->m_ssThresh = ssthresh;
        m_recoveryOps->EnterRecovery(m_tcb, m_dupAckCount, UnAckDataCount(), currentDelivered);
    }
}

uint32_t
SimTcpSocket::SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck)
{
    bool retx = seq < m_tcb->m_highTxMark.Get();
    bool idle = m_tcb->m_highTxMark.Get() <= m_txBuffer->HeadSequence();
    uint32_t sz = TcpSocketBase::SendDataPacket(seq, maxSize, withAck);

    if (sz)
    {
        m_sentData = true;
        m_lastDataSent = Simulator::Now();
        NoteFlight();
        SocketRecord* r = Record();
        r->sentBytes += sz;
        if (retx)
        {
            r->retxBytes += sz;
        }
        if (idle)
        {
            /* busy from here: the phase of the flight's first segment */
            uint32_t f = 1024;
            auto* hints = dynamic_cast<const MltcpHints*>(PeekPointer(m_congestionControl));
            r->lastPhase = BusyPhase::ONE;
            if (hints)
            {
                hints->AckPhase(&f, &r->lastPhase);
            }
            r->lastAckMs = NowMs();
            r->lastFlight = true;
        }
    }
    return sz;
}

void
SimTcpSocket::ReTxTimeout()
{
    TcpSocketState::TcpCongState_t before = m_tcb->m_congState.Get();
    uint32_t retries = m_dataRetrCount;

    TcpSocketBase::ReTxTimeout();
    if (m_record && m_dataRetrCount != retries)
    {
        m_record->rtos++;
        if (before == TcpSocketState::CA_RECOVERY)
        {
            m_record->recoveryRtos++;
        }
        SocketEvent(m_record, NowMs(), "rto", before, Us(m_rto.Get()) / 1e3);
        StateTo(m_tcb->m_congState.Get());
    }
}

TypeId
SimPrrRecovery::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MltcpSimPrrRecovery")
                            .SetParent<TcpPrrRecovery>()
                            .SetGroupName("Internet")
                            .AddConstructor<SimPrrRecovery>();
    return tid;
}

SimPrrRecovery::SimPrrRecovery() = default;

SimPrrRecovery::SimPrrRecovery(const SimPrrRecovery& other) = default;

std::string
SimPrrRecovery::GetName() const
{
    return "SimPrrRecovery";
}

void
SimPrrRecovery::DoRecovery(Ptr<TcpSocketState> tcb, uint32_t deliveredBytes)
{
    TcpPrrRecovery::DoRecovery(tcb, deliveredBytes);
    if (tcb->m_cWnd < tcb->m_segmentSize)
    {
        tcb->m_cWnd = tcb->m_segmentSize;
        tcb->m_cWndInfl = tcb->m_cWnd;
    }
}

Ptr<TcpRecoveryOps>
SimPrrRecovery::Fork()
{
    return CopyObject<SimPrrRecovery>(this);
}

void
ConfigureHostTcp(double minRtoMs, double delAckMs)
{
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(kSimMss));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(2));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout",
                       TimeValue(MicroSeconds(uint64_t(delAckMs * 1000))));
    Config::SetDefault("ns3::TcpSocketBase::MinRto",
                       TimeValue(MicroSeconds(uint64_t(minRtoMs * 1000))));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MilliSeconds(1)));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(SimPrrRecovery::GetTypeId()));
}

} // namespace ns3
