/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLTCP's congestion controls in ns-3: ns-3's own TcpLinuxReno, TcpCubic
 * and TcpDctcp, their increase scaled by F through MLTCP's core, with the
 * rules, constants and state machine of the kernel's mltcp_reno,
 * mltcp_cubic and mltcp_dctcp (the glue: mltcp-glue.h; DCTCP with Linux's
 * halving on a loss, linux-dctcp.h).  With F = 1
 * (slope 0) each one is the simulator's stock algorithm exactly
 * (stock-congestion.h: the same base, grown only while the window limits
 * the flow, which the core asks here).
 *
 * Each hook runs the base algorithm's and the glue's part: the glue gives
 * IncreaseWindow the F-scaled credit (or none while a restarted window
 * yields), softens GetSsThresh's cut, restarts the window at
 * CA_EVENT_TX_START, takes PktsAcked's RTT and starts the connection's
 * state at the handshake's CA_OPEN.
 */
#ifndef MLTCP_SIM_CONGESTION_H
#define MLTCP_SIM_CONGESTION_H

#include <cstdint>
#include <string>

#include "linux-dctcp.h"
#include "mltcp-glue.h"
#include "mltcp-socket.h"
#include "named-congestion.h"

#include "ns3/tcp-cubic.h"
#include "ns3/tcp-linux-reno.h"
#include "ns3/tcp-socket-base.h"

namespace ns3
{

/**
 * An ns-3 algorithm @p Base scaled by MLTCP; @p Self is the class that
 * names it (its TypeId, its Fork).
 */
template <class Self, class Base>
class MltcpCongestion : public NamedCongestion<Self, Base>, public MltcpHints
{
  public:
    MltcpCongestion()
        : NamedCongestion<Self, Base>(),
          MltcpHints()
    {
    }

    /** Fork: the base's state and MLTCP's, for the forked socket. */
    MltcpCongestion(const MltcpCongestion& other)
        : NamedCongestion<Self, Base>(other),
          MltcpHints(),
          m_glue(other.m_glue)
    {
    }

    /** Bind to the socket this algorithm runs on (MltcpGlue::Bind()). */
    void Bind(Ptr<TcpSocketBase> socket)
    {
        m_glue.Bind(socket);
    }

    void Init(Ptr<TcpSocketState> tcb) override
    {
        Base::Init(tcb);
        m_glue.Assigned();
    }

    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override
    {
        uint32_t credit;

        if (m_glue.Ack(tcb, segmentsAcked, &credit))
        {
            Base::IncreaseWindow(tcb, credit);
        }
    }

    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override
    {
        return m_glue.Decrease(tcb, Base::GetSsThresh(tcb, bytesInFlight));
    }

    void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt) override
    {
        m_glue.RttSample(rtt);
        Base::PktsAcked(tcb, segmentsAcked, rtt);
    }

    void CongestionStateSet(Ptr<TcpSocketState> tcb,
                            const TcpSocketState::TcpCongState_t newState) override
    {
        Base::CongestionStateSet(tcb, newState);
        m_glue.StateSet(newState);
    }

    /* the restart before the base's part: the whole flight obeys it */
    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override
    {
        if (event == TcpSocketState::CA_EVENT_TX_START)
        {
            m_glue.TxStart(tcb);
        }
        Base::CwndEvent(tcb, event);
    }

    void MarkIteration(uint64_t bytes) override
    {
        m_glue.Mark(bytes);
    }

    void SetIterationBytes(uint64_t bytes) override
    {
        m_glue.SetSize(bytes);
    }

    void SetTiebreak(uint32_t q10) override
    {
        m_glue.SetTiebreak(q10);
    }

    uint32_t GetFQ10() const override
    {
        return m_glue.GetFQ10();
    }

    void AckPhase(uint32_t* fQ10, BusyPhase* phase) const override
    {
        m_glue.AckPhase(fQ10, phase);
    }

    std::string GetName() const override
    {
        return Self::kName;
    }

  private:
    MltcpGlue m_glue;
};

/** TcpLinuxReno scaled by F: the kernel's mltcp_reno. */
class MltcpReno : public MltcpCongestion<MltcpReno, TcpLinuxReno>
{
  public:
    static constexpr const char* kName = "MltcpReno";
};

/** TcpCubic scaled by F: the kernel's mltcp_cubic. */
class MltcpCubic : public MltcpCongestion<MltcpCubic, TcpCubic>
{
  public:
    static constexpr const char* kName = "MltcpCubic";
};

/** TcpDctcp scaled by F: the kernel's mltcp_dctcp (ECN on the socket). */
class MltcpDctcp : public MltcpCongestion<MltcpDctcp, LinuxDctcp>
{
  public:
    static constexpr const char* kName = "MltcpDctcp";
};

} // namespace ns3

#endif /* MLTCP_SIM_CONGESTION_H */
