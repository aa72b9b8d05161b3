// SPDX-License-Identifier: GPL-2.0
/*
 * The glue between ns-3's congestion-control hooks and MLTCP's core: see
 * mltcp-glue.h for the hooks, the units and what ns-3 has no exact
 * counterpart for.
 */
#include "mltcp-glue.h"

#include "topology-tcp.h"

#include <cstring>
#include <limits>

#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simple-ref-count.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-tx-buffer.h"

namespace ns3
{

/*
 * A socket's "Tx" trace to the MLTCP state bound to it.  ns-3 copies a
 * socket's traces into the sockets a listening socket forks, and the trace
 * may outlive the state (an algorithm replaced): the link forwards only the
 * bound socket's packets, and only while the state lives.
 */
class MltcpSendLink : public SimpleRefCount<MltcpSendLink>
{
  public:
    MltcpSendLink(MltcpGlue* glue, const TcpSocketBase* socket)
        : m_glue(glue),
          m_socket(socket)
    {
    }

    void Detach()
    {
        m_glue = nullptr;
    }

    void Sent(Ptr<const Packet> packet, const TcpHeader&, Ptr<const TcpSocketBase> socket)
    {
        if (m_glue && PeekPointer(socket) == m_socket)
        {
            m_glue->Sent(packet, socket);
        }
    }

  private:
    MltcpGlue* m_glue;
    const TcpSocketBase* m_socket; //!< compared, never dereferenced
};

mltcp_globals
MltcpDefaultGlobals()
{
    mltcp_globals g = {};

    g.fparams = mltcp_params_pack(MLTCP_SLOPE_DEFAULT, MLTCP_INTERCEPT_DEFAULT);
    g.idle_ms = MLTCP_IDLE_MS_DEFAULT;
    g.stagger = MLTCP_STAGGER_DEFAULT;
    g.overrun = MLTCP_OVERRUN_DEFAULT;
    g.mode = MLTCP_MODE_LEARNED;
    g.decrease = true;
    return g;
}

mltcp_globals&
MltcpGlobals()
{
    static mltcp_globals globals = MltcpDefaultGlobals();
    return globals;
}

bool&
MltcpYieldsAblated()
{
    static bool ablated = false;
    return ablated;
}

namespace
{

/* The core's millisecond clock: the simulator's, wrapping like a u32. */
uint32_t
NowMs()
{
    return static_cast<uint32_t>(Simulator::Now().GetMilliSeconds());
}

/* A duration in microseconds, saturated to the core's u32; 0 if negative. */
uint32_t
ToUs(const Time& t)
{
    int64_t us = t.GetMicroSeconds();

    if (us <= 0)
    {
        return 0;
    }
    return us >= std::numeric_limits<uint32_t>::max() ? std::numeric_limits<uint32_t>::max()
                                                      : static_cast<uint32_t>(us);
}

/* The path's minimum RTT, ~0U while unknown (ns-3 starts it at Time::Max()). */
uint32_t
MinRttUs(Ptr<const TcpSocketState> tcb)
{
    return tcb->m_minRtt == Time::Max() ? ~0U : ToUs(tcb->m_minRtt);
}

/*
 * An endpoint as mltcp_flow_tiebreak() takes it: an IPv4 address as the
 * kernel reads sk_rcv_saddr (network byte order in a native word), an
 * IPv6 one folded (mltcp_fold_addr6()), the port in host order.
 * @return false for an address of neither family
 */
bool
CoreEndpoint(const Address& address, uint32_t* addr, uint16_t* port)
{
    if (InetSocketAddress::IsMatchingType(address))
    {
        InetSocketAddress in = InetSocketAddress::ConvertFrom(address);
        uint8_t bytes[4];

        in.GetIpv4().Serialize(bytes);
        std::memcpy(addr, bytes, sizeof(bytes));
        *port = in.GetPort();
        return true;
    }
    if (Inet6SocketAddress::IsMatchingType(address))
    {
        Inet6SocketAddress in6 = Inet6SocketAddress::ConvertFrom(address);
        uint8_t bytes[16];
        uint32_t words[4];

        in6.GetIpv6().Serialize(bytes);
        std::memcpy(words, bytes, sizeof(bytes));
        *addr = mltcp_fold_addr6(words);
        *port = in6.GetPort();
        return true;
    }
    return false;
}

} // namespace

MltcpGlue::MltcpGlue()
    : m_ms(),
      m_bytesAcked(0),
      m_una(0),
      m_unaKnown(false),
      m_started(false),
      m_lastSend(),
      m_rttUs(0),
      m_creditBytes(0),
      m_flowTiebreak(0),
      m_endpointsKnown(false),
      m_sim(nullptr)
{
}

MltcpGlue::MltcpGlue(const MltcpGlue& other)
    : m_ms(other.m_ms),
      m_bytesAcked(other.m_bytesAcked),
      m_una(other.m_una),
      m_unaKnown(other.m_unaKnown),
      m_started(other.m_started),
      m_lastSend(other.m_lastSend),
      m_rttUs(other.m_rttUs),
      m_creditBytes(other.m_creditBytes),
      m_flowTiebreak(0),
      m_endpointsKnown(false),
      m_sim(nullptr)
{
}

MltcpGlue::~MltcpGlue()
{
    if (m_link)
    {
        m_link->Detach();
    }
}

void
MltcpGlue::Bind(Ptr<TcpSocketBase> socket)
{
    if (m_link)
    {
        m_link->Detach();
    }
    m_txBuffer = socket->GetTxBuffer();
    m_sim = PeekPointer(DynamicCast<SimTcpSocket>(socket));
    m_link = Create<MltcpSendLink>(this, PeekPointer(socket));
    socket->TraceConnectWithoutContext("Tx", MakeCallback(&MltcpSendLink::Sent, m_link));
}

void
MltcpGlue::Assigned()
{
    if (m_started)
    {
        mltcp_hook_release(&m_ms);
        m_started = false;
    }
}

void
MltcpGlue::StateSet(TcpSocketState::TcpCongState_t state)
{
    if (state == TcpSocketState::CA_OPEN && !m_started)
    {
        Start();
    }
}

/*
 * The connection starts (tcp_init_transfer()): the send clock starts now,
 * and bytes_acked counts from the next reading of snd_una, past the SYN.
 */
void
MltcpGlue::Start()
{
    m_started = true;
    m_unaKnown = false;
    m_lastSend = Simulator::Now();
    mltcp_hook_init(&m_ms, m_bytesAcked, m_flowTiebreak, NowMs());
    if (m_sim)
    {
        m_sim->Record()->tiebreak = double(m_ms.tiebreak) / MLTCP_Q10_ONE;
    }
}

SequenceNumber32
MltcpGlue::SndUna(Ptr<const TcpSocketState> tcb) const
{
    return m_txBuffer ? m_txBuffer->HeadSequence() : tcb->m_lastAckedSeq;
}

void
MltcpGlue::AdvanceUna(SequenceNumber32 una)
{
    if (!m_unaKnown)
    {
        m_una = una;
        m_unaKnown = true;
    }
    else if (una > m_una)
    {
        m_bytesAcked += static_cast<uint32_t>(una - m_una);
        m_una = una;
    }
}

uint64_t
MltcpGlue::BytesAckedNow() const
{
    if (!m_txBuffer || !m_unaKnown || !(m_txBuffer->HeadSequence() > m_una))
    {
        return m_bytesAcked;
    }
    return m_bytesAcked + static_cast<uint32_t>(m_txBuffer->HeadSequence() - m_una);
}

uint32_t
MltcpGlue::GapUs() const
{
    return m_link ? ToUs(Simulator::Now() - m_lastSend) : 0;
}

void
MltcpGlue::TxStart(Ptr<TcpSocketState> tcb)
{
    mltcp_tx_in in = {};
    mltcp_tx_out out;
    SequenceNumber32 una = SndUna(tcb);
    int32_t outstanding = tcb->m_highTxMark.Get() - una;

    /* an algorithm set after the handshake starts here */
    if (!m_started)
    {
        Start();
    }
    AdvanceUna(una);
    in.g = &MltcpGlobals();
    in.bytes_acked = m_bytesAcked;
    in.outstanding = outstanding > 0 ? static_cast<uint32_t>(outstanding) : 0;
    in.gap_us = GapUs();
    in.srtt_us = ToUs(tcb->m_lastRtt.Get());
    in.now_ms = NowMs();
    in.cwnd = tcb->m_cWnd.Get();
    in.ssthresh = tcb->m_ssThresh.Get();
    in.init_cwnd = tcb->m_initialCWnd * tcb->m_segmentSize;
    in.delivered = 0;
    in.interval_us = 0;
    in.min_rtt_us = MinRttUs(tcb);
    if (m_sim)
    {
        m_sim->DeliveryRate(&in.delivered, &in.interval_us);
        in.min_rtt_us = m_sim->MinRttUs();
    }
    in.ca_open = tcb->m_congState.Get() < TcpSocketState::CA_CWR;
    mltcp_hook_tx_start(&m_ms, &in, &out);
    if (out.restarted)
    {
        tcb->m_ssThresh = out.ssthresh;
        tcb->m_cWnd = out.cwnd;
        if (m_sim)
        {
            RecordRestart(out.cwnd < out.cwnd_before);
        }
    }
}

/* A restart began a yield: the one before it, if it still held, never ended. */
void
MltcpGlue::RecordRestart(bool lowered)
{
    SocketRecord* r = m_sim->Record();
    double now = Simulator::Now().GetSeconds() * 1e3;

    if (r->inYield)
    {
        r->yieldEnds[uint32_t(YieldEnd::CUT)]++;
        r->yieldMs += now - r->yieldSince;
        SocketEvent(r, now, "yield", double(YieldEnd::CUT), now - r->yieldSince);
    }
    r->restarts++;
    r->lowered += lowered;
    r->inYield = true;
    r->yieldSince = now;
}

/* Whether the yield is within its bound now, as mltcp_yield_step() judges it. */
bool
MltcpGlue::YieldInBound(uint32_t nowMs) const
{
    uint32_t octaves = mltcp_backoff_octaves(mltcp_yield_backoff(&m_ms));

    return m_ms.gap_log8 && mltcp_iter_held_log8(&m_ms, nowMs) + 8U * octaves < m_ms.gap_log8;
}

/* A yield ended on an ACK (@st): how, and the backoff it left. */
void
MltcpGlue::RecordYieldEnd(mltcp_yield_state st, bool inBound, bool late)
{
    SocketRecord* r = m_sim->Record();
    double now = Simulator::Now().GetSeconds() * 1e3;
    YieldEnd end = st == MLTCP_YIELD_EXPIRED ? YieldEnd::BOUND
                   : !inBound             ? YieldEnd::FREE
                   : late                 ? YieldEnd::LATE
                                          : YieldEnd::DRAINED;

    if (r->inYield)
    {
        r->yieldEnds[uint32_t(end)]++;
        r->yieldMs += now - r->yieldSince;
        SocketEvent(r, now, "yield", double(end), now - r->yieldSince);
        r->inYield = false;
    }
    SocketBackoffTo(r, now, mltcp_yield_backoff(&m_ms));
}

void
MltcpGlue::RttSample(const Time& rtt)
{
    m_rttUs = ToUs(rtt);
}

bool
MltcpGlue::Ack(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, uint32_t* credit)
{
    mltcp_ack_in in = {};
    mltcp_ack_out out;
    uint32_t segment = tcb->m_segmentSize;
    uint64_t bytes;

    if (!m_started)
    {
        Start();
    }
    AdvanceUna(SndUna(tcb));
    in.g = &MltcpGlobals();
    in.bytes_acked = m_bytesAcked;
    in.acked = segmentsAcked * segment;
    in.cwnd = tcb->m_cWnd.Get();
    in.ssthresh = tcb->m_ssThresh.Get();
    in.cwnd_clamp = std::numeric_limits<uint32_t>::max();
    in.cwnd_limited = m_sim ? m_sim->CwndLimited() : true;
    bool inBound = false;
    bool late = false;
    in.rtt.now_ms = NowMs();
    if (mltcp_in_yield(&m_ms))
    {
        in.rtt.rtt_us = MltcpYieldsAblated() ? 0 : m_sim ? m_sim->LatestRttUs() : m_rttUs;
        in.rtt.min_rtt_us = m_sim ? m_sim->MinRttUs() : MinRttUs(tcb);
        /* how the yield would end here, for the record */
        inBound = YieldInBound(in.rtt.now_ms);
        late = inBound && mltcp_yield_was_long(&m_ms, mltcp_iter_since_ms(&m_ms, in.rtt.now_ms));
    }
    mltcp_hook_ack(&m_ms, &in, &out);
    if (m_sim && (out.yield == MLTCP_YIELD_DRAINED || out.yield == MLTCP_YIELD_EXPIRED))
    {
        RecordYieldEnd(out.yield, inBound, late);
    }
    /* the base's own slow start takes the segments acked, unscaled (mltcp-glue.h) */
    if (out.slow_start)
    {
        bytes = in.acked;
    }
    else if (out.ca)
    {
        bytes = out.ca_credit;
    }
    else
    {
        return false;
    }
    bytes += m_creditBytes;
    *credit = static_cast<uint32_t>(bytes / segment);
    m_creditBytes = static_cast<uint32_t>(bytes % segment);
    return true;
}

uint32_t
MltcpGlue::Decrease(Ptr<const TcpSocketState> tcb, uint32_t reduced)
{
    AdvanceUna(SndUna(tcb));
    return mltcp_hook_decrease(&m_ms, &MltcpGlobals(), m_bytesAcked, tcb->m_cWnd.Get(), reduced);
}

void
MltcpGlue::Mark(uint64_t bytes)
{
    mltcp_mark_out out;
    uint64_t unacked = 0;

    /* write_seq - snd_una: the data written before the mark is the last iteration's */
    if (m_txBuffer)
    {
        AdvanceUna(m_txBuffer->HeadSequence());
        unacked = m_txBuffer->Size();
    }
    mltcp_hook_mark(&m_ms, m_bytesAcked, unacked, bytes, NowMs(), &out);
}

void
MltcpGlue::SetSize(uint64_t bytes)
{
    /* a size out of range changes nothing, as the kernel refuses it */
    mltcp_set_size(&m_ms, bytes);
}

void
MltcpGlue::SetTiebreak(uint32_t q10)
{
    mltcp_set_tiebreak(&m_ms, q10);
}

uint32_t
MltcpGlue::GetFQ10() const
{
    const mltcp_globals& g = MltcpGlobals();

    return mltcp_sock_f_q10(&m_ms, g.mode, g.fparams, g.stagger, g.overrun, BytesAckedNow());
}

void
MltcpGlue::AckPhase(uint32_t* fQ10, BusyPhase* phase) const
{
    const mltcp_globals& g = MltcpGlobals();
    uint64_t done = mltcp_bytes_done(BytesAckedNow(), m_ms.mark);

    *fQ10 = GetFQ10();
    switch (mltcp_phase(&m_ms, g.mode, g.overrun, done))
    {
    case MLTCP_PHASE_YIELD:
        *phase = BusyPhase::YIELD;
        break;
    case MLTCP_PHASE_TOP:
        *phase = BusyPhase::TOP;
        break;
    case MLTCP_PHASE_RAMP:
        *phase = BusyPhase::RAMP;
        break;
    default:
        *phase = BusyPhase::ONE;
        break;
    }
}

void
MltcpGlue::Sent(Ptr<const Packet> packet, Ptr<const TcpSocketBase> socket)
{
    Address local;
    Address peer;
    uint32_t localAddr = 0;
    uint32_t peerAddr = 0;
    uint16_t localPort = 0;
    uint16_t peerPort = 0;

    /* the first transmission, the SYN, has the connection's endpoints */
    if (!m_endpointsKnown && socket->GetSockName(local) == 0 && socket->GetPeerName(peer) == 0 &&
        CoreEndpoint(local, &localAddr, &localPort) && CoreEndpoint(peer, &peerAddr, &peerPort))
    {
        /* keyed by the run's seed; ns-3 starts every connection at sequence number 0 */
        const struct mltcp_tiebreak_key key = {RngSeedManager::GetSeed(),
                                               RngSeedManager::GetRun()};
        m_flowTiebreak =
            mltcp_flow_tiebreak(&key, localAddr, localPort, 1, peerAddr, peerPort, 1);
        m_endpointsKnown = true;
    }
    if (packet->GetSize() > 0)
    {
        m_lastSend = Simulator::Now();
    }
}

} // namespace ns3
