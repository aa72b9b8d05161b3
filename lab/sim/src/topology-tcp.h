/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hosts' TCP: ns-3's TCP with Linux's settings where they matter (MSS
 * 1448 with timestamps, initial window 10, 200 ms minimum RTO, delayed ACK
 * every second segment, 4 MB buffers), and PRR recovery that keeps a
 * segment of window.
 *
 * Linux counts the window in packets and PRR never leaves it below one
 * (tcp_cwnd_reduction()).  ns-3's PRR counts bytes: the ACK of a message's
 * short last segment can set the window to that segment's size with
 * nothing in flight, below one segment, so nothing is sent; and ns-3 leaves
 * the ECN reduction (CWR) only at an ACK beyond the point where it began,
 * which then never comes.  The connection stalls for good (DCTCP jobs
 * stopped mid-run before this).  SimPrrRecovery is ns-3's PRR with the
 * window kept at one segment at least.
 */
#ifndef MLTCP_SIM_TOPOLOGY_TCP_H
#define MLTCP_SIM_TOPOLOGY_TCP_H

#include "ns3/node.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-prr-recovery.h"
#include "ns3/tcp-rate-ops.h"
#include "ns3/tcp-socket-base.h"

#include <cstdint>

namespace ns3
{

struct SocketRecord;

/**
 * ns-3's rate sampling (TcpRateLinux), which also keeps the latest RTT
 * sample as the kernel's RACK does: the time since the most recently sent
 * segment among those an ACK delivered, retransmissions left out (their
 * sample could be of either transmission).
 */
class SimRate : public TcpRateLinux
{
  public:
    static TypeId GetTypeId();
    void SkbDelivered(TcpTxItem* skb) override;

    /** @return the latest RTT sample, zero when none yet */
    Time LatestRtt() const
    {
        return m_rtt;
    }

    /** @return the smallest of the samples, Time::Max() when none yet */
    Time MinRtt() const
    {
        return m_minRtt;
    }

  private:
    Time m_latestSent{Seconds(0)}; //!< send time of the segment m_rtt was taken on
    Time m_rtt{Seconds(0)};        //!< the latest RTT sample
    Time m_minRtt{Time::Max()};    //!< the smallest RTT sample
};

/**
 * The simulator's TCP socket: ns-3's TcpSocketBase with what its congestion
 * controls and the run's records need from it and ns-3 3.37 does not give
 * them:
 *  - a per-socket record (socket-record.h): RTOs, recoveries, ECN
 *    reductions, bytes sent and retransmitted, ACKs and, for MLTCP's
 *    congestion controls (MltcpHints::AckPhase()), their F and phase;
 *  - the latest RTT sample (SimRate) and the smallest of those samples;
 *  - a delivery-rate sample on every ACK (ns-3 makes them only for
 *    algorithms with CongControl, which would also take ns-3's recovery
 *    away from them): the one Linux keeps for tcp_info, the latest not
 *    limited by the application or a higher one (DeliveryRate());
 *  - whether the window limits the flow (CwndLimited()), which the stock
 *    algorithms (stock-congestion.h) and MLTCP's core ask before they grow
 *    it, as Linux's do (ns-3's grow on every ACK);
 *  - slow start after idle (RFC 5681, 4.1, as Linux does it by default):
 *    data written after an idle period longer than the RTO finds the window
 *    halved for every RTO of the idle period, down to the restart window
 *    min(initial window, window), and ssthresh raised to 3/4 of the window
 *    it had if that is more, so that slow start climbs back to where it was
 *    (the window's memory RFC 7661 keeps across an idle period);
 *  - fast recovery from an ECN reduction (ProcessAck()): a loss that the
 *    scoreboard shows while the socket is in CWR enters Recovery, keeping
 *    the reduction's ssthresh, as Linux's tcp_fastretrans_alert() does
 *    (dctcp halves the window reached so far instead, as Linux's does); ns-3
 *    counts those duplicate ACKs and acts on none, so every such loss waited
 *    for the RTO.
 */
class SimTcpSocket : public TcpSocketBase
{
  public:
    static TypeId GetTypeId();
    SimTcpSocket();
    SimTcpSocket(const SimTcpSocket& other);

    /**
     * A socket on @node as TcpL4Protocol::CreateSocket() makes one (its RTT
     * estimator and recovery), running @cc (none yet when null).
     */
    static Ptr<SimTcpSocket> Make(Ptr<Node> node, Ptr<TcpCongestionOps> cc);

    /** @return the socket's record; created the first time it is asked for */
    SocketRecord* Record();
    /** @return the latest RTT sample, microseconds; 0 when none yet */
    uint32_t LatestRttUs() const;
    /** @return the smallest RTT sample, microseconds; ~0U when none yet */
    uint32_t MinRttUs() const;
    /**
     * The delivery-rate sample Linux keeps for tcp_info (rate_delivered
     * over rate_interval_us): @bytes delivered over @us; both 0 when none.
     */
    void DeliveryRate(uint32_t* bytes, uint32_t* us) const;
    /**
     * @return whether the window limits the flow: in slow start, the window
     * is below twice the largest flight of the last round trip (growing
     * it is then of use); after it, the flight filled the window in the
     * last round trip
     */
    bool CwndLimited() const;

    int Send(Ptr<Packet> p, uint32_t flags) override;

  protected:
    Ptr<TcpSocketBase> Fork() override;
    void ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader) override;
    void ProcessAck(const SequenceNumber32& ackNumber,
                    bool scoreboardUpdated,
                    uint32_t currentDelivered,
                    const SequenceNumber32& oldHeadSequence) override;
    uint32_t SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck) override;
    void ReTxTimeout() override;

  private:
    void UseSimRate();
    void StateTo(TcpSocketState::TcpCongState_t state);
    void CountAck();
    void NoteFlight();
    void IdleRestart(const Time& idle);

    Ptr<SimRate> m_simRate;
    SocketRecord* m_record = nullptr;
    Time m_lastDataSent{Seconds(0)}; //!< the last data sent (tcp_sock.lsndtime)
    bool m_sentData = false;
    uint32_t m_roundMaxFlight = 0;   //!< the largest flight of the round trip so far
    SequenceNumber32 m_roundEnd{0};  //!< the round trip ends when this is acked
    bool m_roundFull = false;        //!< the flight filled the window in it
    uint32_t m_ackCwnd = 0;          //!< the window before the ACK being processed
};

class SimPrrRecovery : public TcpPrrRecovery
{
  public:
    static TypeId GetTypeId();
    SimPrrRecovery();
    SimPrrRecovery(const SimPrrRecovery& other);

    std::string GetName() const override;
    void DoRecovery(Ptr<TcpSocketState> tcb, uint32_t deliveredBytes) override;
    Ptr<TcpRecoveryOps> Fork() override;
};

/**
 * Set the TCP defaults of every socket created from now on: Linux's
 * settings, @minRtoMs and @delAckMs, and SimPrrRecovery.
 */
void ConfigureHostTcp(double minRtoMs, double delAckMs);

} // namespace ns3

#endif /* MLTCP_SIM_TOPOLOGY_TCP_H */
