// SPDX-License-Identifier: GPL-2.0
/*
 * DCTCP's two cuts in the simulator, as Linux's dctcp makes them
 * (linux-dctcp.h): fast recovery halves the window, ECE (CWR) and a
 * timeout cut it by alpha/2.  With alpha at 1/4 the two differ (7/8 of the
 * window against 1/2); stock and MLTCP's DCTCP (at F = 1: no iteration
 * size) ask the same.
 */
#include <string>

#include "linux-dctcp.h"
#include "mltcp-congestion.h"
#include "stock-congestion.h"
#include "tap.h"

#include "ns3/double.h"

using namespace mltcp_test;
using namespace ns3;

namespace
{

constexpr uint32_t kSeg = 1000;

uint32_t
Threshold(Ptr<TcpDctcp> cc, TcpSocketState::TcpCongState_t state, uint32_t cwnd)
{
    Ptr<TcpSocketState> tcb = CreateObject<TcpSocketState>();

    tcb->m_segmentSize = kSeg;
    tcb->m_cWnd = cwnd;
    tcb->m_congState = state;
    return cc->GetSsThresh(tcb, cwnd);
}

void
Cuts(Tap* tap, Ptr<TcpDctcp> cc, const std::string& name)
{
    cc->SetAttribute("DctcpAlphaOnInit", DoubleValue(0.25));
    tap->Check(Threshold(cc, TcpSocketState::CA_RECOVERY, 100 * kSeg) == 50 * kSeg,
               name + ": fast recovery halves 100 segments");
    tap->Check(Threshold(cc, TcpSocketState::CA_RECOVERY, 100 * kSeg + 600) == 50 * kSeg,
               name + ": a loss's threshold is whole segments");
    tap->Check(Threshold(cc, TcpSocketState::CA_RECOVERY, 3 * kSeg) == 2 * kSeg,
               name + ": and at least 2");
    tap->Check(Threshold(cc, TcpSocketState::CA_OPEN, 100 * kSeg) == 87500,
               name + ": ECE in the open state cuts by alpha/2 (1/8)");
    tap->Check(Threshold(cc, TcpSocketState::CA_DISORDER, 100 * kSeg) == 87500,
               name + ": and in disorder");
    tap->Check(Threshold(cc, TcpSocketState::CA_LOSS, 100 * kSeg) == 87500,
               name + ": a timeout cuts by alpha/2");
}

} // namespace

int
main()
{
    Tap tap;

    Cuts(&tap, CreateObject<StockDctcp>(), "dctcp");
    Cuts(&tap, CreateObject<MltcpDctcp>(), "mltcp_dctcp at F = 1");
    return tap.Finish();
}
