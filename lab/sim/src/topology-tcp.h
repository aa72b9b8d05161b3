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

  private:
    Time m_latestSent{Seconds(0)}; //!< send time of the segment m_rtt was taken on
    Time m_rtt{Seconds(0)};        //!< the latest RTT sample
};

/**
 * The simulator's TCP socket: ns-3's TcpSocketBase with what its congestion
 * controls and the run's records need from it and ns-3 3.37 does not give
 * them:
 *  - a per-socket record (socket-record.h): RTOs, recoveries, ECN
 *    reductions, bytes sent and retransmitted, ACKs and, for MLTCP's
 *    congestion controls (MltcpHints::AckPhase()), their F and phase;
 *  - the latest RTT sample (SimRate) and the smallest of those samples.
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

  protected:
    Ptr<TcpSocketBase> Fork() override;
    void ReceivedAck(Ptr<Packet> packet, const TcpHeader& tcpHeader) override;
    uint32_t SendDataPacket(SequenceNumber32 seq, uint32_t maxSize, bool withAck) override;
    void ReTxTimeout() override;

  private:
    void UseSimRate();
    void StateTo(TcpSocketState::TcpCongState_t state);
    void CountAck();

    Ptr<SimRate> m_simRate;
    SocketRecord* m_record = nullptr;
    Time m_minRtt{Time::Max()};
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
