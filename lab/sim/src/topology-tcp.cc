/* SPDX-License-Identifier: GPL-2.0 */

#include "topology-tcp.h"

#include "job-profiles.h"

#include "ns3/config.h"
#include "ns3/nstime.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SimPrrRecovery);

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
