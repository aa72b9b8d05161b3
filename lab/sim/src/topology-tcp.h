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

#include "ns3/tcp-prr-recovery.h"

namespace ns3
{

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
