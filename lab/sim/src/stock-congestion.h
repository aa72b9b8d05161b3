/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stock congestion controls as Linux runs them: ns-3's TcpLinuxReno,
 * TcpCubic and TcpDctcp (with Linux's halving on a loss: linux-dctcp.h)
 * behind Linux's rule that a window that does not
 * limit the flow does not grow.  Linux asks tcp_is_cwnd_limited() before
 * any increase (tcp_reno_cong_avoid(), cubictcp_cong_avoid()), so an ACK
 * that arrives while the application, not the window, limits the flow
 * neither grows the window nor counts towards its next increase.  ns-3
 * 3.37 has no such test: its algorithms grow on every ACK, and
 * TcpLinuxReno's count of ACKs towards the next segment (snd_cwnd_cnt)
 * keeps counting.
 *
 * MLTCP's algorithms take the same test from the same socket
 * (SimTcpSocket::CwndLimited()) through the core (mltcp_hook_ack()), at
 * the same moment, so with F = 1 an MLTCP flow is its stock flow exactly.
 */
#ifndef MLTCP_SIM_STOCK_CONGESTION_H
#define MLTCP_SIM_STOCK_CONGESTION_H

#include "linux-dctcp.h"
#include "named-congestion.h"
#include "topology-tcp.h"

#include "ns3/tcp-cubic.h"
#include "ns3/tcp-linux-reno.h"

namespace ns3
{

/**
 * An ns-3 algorithm @p Base that grows only a window that limits its flow;
 * @p Self is the class that names it (its TypeId, its Fork).
 */
template <class Self, class Base>
class StockCongestion : public NamedCongestion<Self, Base>
{
  public:
    StockCongestion()
        : NamedCongestion<Self, Base>()
    {
    }

    /**
     * Fork: the base's state, not bound (as MLTCP's glue): a listener's
     * accepted connection, which only receives in the simulator's jobs.
     */
    StockCongestion(const StockCongestion& other)
        : NamedCongestion<Self, Base>(other),
          m_socket(nullptr)
    {
    }

    /** Bind to the socket this algorithm runs on (its CwndLimited()). */
    void Bind(Ptr<SimTcpSocket> socket)
    {
        m_socket = PeekPointer(socket);
    }

    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override
    {
        /* unbound (a listener's fork, which only receives): as ns-3 */
        if (!m_socket || m_socket->CwndLimited())
        {
            Base::IncreaseWindow(tcb, segmentsAcked);
        }
    }

  private:
    /*
     * The socket it runs on, not a reference: the socket holds this
     * algorithm, and only that socket calls IncreaseWindow(), while it lives.
     */
    SimTcpSocket* m_socket = nullptr;
};

/** TcpLinuxReno as Linux's reno. */
class StockReno : public StockCongestion<StockReno, TcpLinuxReno>
{
  public:
    static constexpr const char* kName = "StockReno";
};

/** TcpCubic as Linux's cubic. */
class StockCubic : public StockCongestion<StockCubic, TcpCubic>
{
  public:
    static constexpr const char* kName = "StockCubic";
};

/** TcpDctcp as Linux's dctcp (ECN on the socket). */
class StockDctcp : public StockCongestion<StockDctcp, LinuxDctcp>
{
  public:
    static constexpr const char* kName = "StockDctcp";
};

} // namespace ns3

#endif /* MLTCP_SIM_STOCK_CONGESTION_H */
