/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ns-3's TcpDctcp with Linux's answer to a loss.  ns-3 3.37 cuts the
 * window by alpha/2 for marks and losses alike (its GetSsThresh); Linux's
 * dctcp halves it when it enters fast recovery, as standard TCP does (RFC
 * 8257 3.3 recommends reacting to loss as conventional TCP does), and cuts
 * by alpha/2 for marks (CWR) and at a timeout.  ns-3's socket is already in
 * CA_RECOVERY when fast recovery asks for the threshold
 * (TcpSocketBase::EnterRecovery()) and not yet in CA_CWR when ECE does, so
 * the state tells the two apart.
 */
#ifndef MLTCP_SIM_LINUX_DCTCP_H
#define MLTCP_SIM_LINUX_DCTCP_H

#include <algorithm>
#include <cstdint>

#include "ns3/tcp-dctcp.h"
#include "ns3/tcp-socket-state.h"

namespace ns3
{

class LinuxDctcp : public TcpDctcp
{
  public:
    /** Fast recovery: half the window, at least 2 segments; else DCTCP's alpha cut. */
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override
    {
        uint32_t seg = tcb->m_segmentSize;

        if (tcb->m_congState == TcpSocketState::CA_RECOVERY)
        {
            return std::max<uint32_t>(tcb->m_cWnd.Get() / seg / 2, 2) * seg;
        }
        return TcpDctcp::GetSsThresh(tcb, bytesInFlight);
    }
};

} // namespace ns3

#endif /* MLTCP_SIM_LINUX_DCTCP_H */
