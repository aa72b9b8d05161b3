/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The glue between ns-3's congestion-control hooks and MLTCP's core
 * (include/mltcp_core.h, its hook entries in mltcp_hooks.h): the
 * simulator's counterpart of mltcp_core.c.  Each method reads ns-3's
 * TcpSocketState (and the socket the state is bound to), calls the core's
 * entry and applies what it returns; it decides nothing itself.
 *
 *   ns-3                                    core
 *   CongestionStateSet(CA_OPEN), the first  mltcp_hook_init(): ns-3 reports
 *     one (the handshake's end)               CA_OPEN as the handshake ends
 *   Init (the algorithm assigned to a       mltcp_hook_release() of the
 *     socket)                                 connection it ran on, if any
 *   CwndEvent(CA_EVENT_TX_START)            mltcp_hook_tx_start()
 *   PktsAcked                               the RTT sample of the ACK entry
 *   IncreaseWindow                          mltcp_hook_ack(): its F-scaled
 *                                             credit is what the base
 *                                             algorithm increases by
 *   GetSsThresh                             mltcp_hook_decrease() of the
 *                                             base algorithm's threshold
 *   MltcpHints::MarkIteration()             mltcp_hook_mark()
 *   Fork                                    the same state, not bound
 *
 * Units.  ns-3 keeps its windows in bytes, not always whole segments (a
 * halving leaves half a segment), and converting them to segments would
 * round them.  The core's window arithmetic is unit-free (it compares,
 * adds and scales), so the glue gives it every window in bytes and the
 * segments acked as bytes (segments times the segment size); the credit it
 * returns, in bytes, goes to the base algorithm in whole segments, the
 * remainder kept for the next ACK.  At F = 1 the credit is exactly the
 * segments acked and nothing remains.
 *
 * What ns-3 3.37 does not give and the simulator's socket (SimTcpSocket,
 * topology-tcp.h) does, on the socket the state is bound to:
 *  - the delivery-rate sample the restart sizes ssthresh by (ns-3 makes
 *    samples only for algorithms with CongControl);
 *  - the latest RTT sample the yield is judged on, RACK's in the kernel,
 *    and the smallest of them as the path's minimum (ns-3's m_lastRtt is
 *    the smoothed RTT, which the idle threshold uses as srtt);
 *  - tcp_is_cwnd_limited() (ns-3's algorithms grow on every ACK);
 * unbound, the glue falls back on ns-3's smoothed RTT and minimum, no
 * sample, and a window always limited.  What has no counterpart:
 *  - the window's clamp: none;
 *  - the time since the last data sent (tcp_sock.lsndtime): the socket's
 *    "Tx" trace, on the socket the state is bound to (Bind()); unbound
 *    (a socket accepted from a listening one, which only receives) the
 *    state sees no gap, so neither the learner nor the restart run;
 *  - the connection's endpoints for its tie-break: the bound socket's
 *    addresses at its first transmission (the SYN); unbound, tie-break 0;
 *  - TCP small queues: ns-3 has none, so behind a sender's own FIFO its
 *    drops, not TSQ's backpressure, bound each flow.
 * Slow start is the base algorithm's own, fed the segments acked (the core
 * does not scale slow start): ns-3's TcpLinuxReno drops the credit left at
 * ssthresh and TcpCubic does not stop at ssthresh, so the core's
 * slow-start window is not applied, and at F = 1 each algorithm is its
 * ns-3 base exactly.
 */
#ifndef MLTCP_SIM_GLUE_H
#define MLTCP_SIM_GLUE_H

#include <cstdint>

#include "mltcp_core.h"
#include "socket-record.h"

#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/sequence-number.h"
#include "ns3/tcp-socket-state.h"

namespace ns3
{

class TcpSocketBase;
class TcpTxBuffer;
class MltcpSendLink;
class SimTcpSocket;

/**
 * The simulation's MLTCP parameters: one struct mltcp_globals for every
 * MLTCP socket, as the sockets of a network namespace share the module's.
 */
mltcp_globals& MltcpGlobals();

/** @return the kernel module's defaults (mltcp_params.c). */
mltcp_globals MltcpDefaultGlobals();

/**
 * An ablation the simulator alone offers (mltcp.yield=off): the core sees
 * no RTT sample in a yield, so every yield ends at its first ACK, as if no
 * queue were there.  Not an MLTCP parameter: it measures what yields cost.
 */
bool& MltcpYieldsAblated();

/** One socket's MLTCP state and the glue of its hooks to the core. */
class MltcpGlue
{
  public:
    MltcpGlue();
    /** A forked socket's state: the same, not bound to a socket. */
    MltcpGlue(const MltcpGlue& other);
    ~MltcpGlue();
    MltcpGlue& operator=(const MltcpGlue&) = delete;

    /**
     * Bind the state to the socket its algorithm runs on: the socket's
     * transmissions give the send clock and the endpoints, its send buffer
     * snd_una and write_seq.
     */
    void Bind(Ptr<TcpSocketBase> socket);
    /** Init: the algorithm was assigned to a socket. */
    void Assigned();
    /** CongestionStateSet: @state is the socket's new congestion state. */
    void StateSet(TcpSocketState::TcpCongState_t state);
    /** CwndEvent(CA_EVENT_TX_START): a transmission with nothing in flight. */
    void TxStart(Ptr<TcpSocketState> tcb);
    /** PktsAcked: @rtt is the RTT the next ACK entry takes. */
    void RttSample(const Time& rtt);
    /**
     * IncreaseWindow.
     * @param segmentsAcked the segments the ACK acknowledged
     * @param credit out: the segments the base algorithm increases by
     * @return false when the window holds (a yield): no increase at all
     */
    bool Ack(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, uint32_t* credit);
    /**
     * GetSsThresh.
     * @param reduced the base algorithm's threshold
     * @return the threshold to use
     */
    uint32_t Decrease(Ptr<const TcpSocketState> tcb, uint32_t reduced);
    /** An iteration starts, of @bytes (0 = the size the socket has). */
    void Mark(uint64_t bytes);
    /** The iteration's size, without a mark; 0 drops the hints. */
    void SetSize(uint64_t bytes);
    /** The socket's tie-break, Q10; kept when the connection starts. */
    void SetTiebreak(uint32_t q10);
    /** @return the F of the socket's phase now, Q10. */
    uint32_t GetFQ10() const;
    /** The F now and the phase the socket's record counts it busy in. */
    void AckPhase(uint32_t* fQ10, BusyPhase* phase) const;
    /** The bound socket sent @packet (payload only). */
    void Sent(Ptr<const Packet> packet, Ptr<const TcpSocketBase> socket);

  private:
    void Start();
    void RecordRestart(bool lowered);
    void RecordYieldEnd(mltcp_yield_state st, bool inBound, bool late);
    bool YieldInBound(uint32_t nowMs) const;
    SequenceNumber32 SndUna(Ptr<const TcpSocketState> tcb) const;
    void AdvanceUna(SequenceNumber32 una);
    uint64_t BytesAckedNow() const;
    uint32_t GapUs() const;

    mltcp_sock m_ms;           //!< the core's state
    uint64_t m_bytesAcked;     //!< tcp_sock.bytes_acked: how far snd_una moved
    SequenceNumber32 m_una;    //!< snd_una when m_bytesAcked was last advanced
    bool m_unaKnown;           //!< m_una was read since the connection started
    bool m_started;            //!< mltcp_hook_init() ran, no release since
    Time m_lastSend;           //!< tcp_sock.lsndtime: the last data sent
    uint32_t m_rttUs;          //!< PktsAcked's RTT, microseconds (0 = none)
    uint32_t m_creditBytes;    //!< F-scaled credit short of a whole segment
    uint16_t m_flowTiebreak;   //!< mltcp_flow_tiebreak() of the endpoints
    bool m_endpointsKnown;     //!< m_flowTiebreak was drawn from them
    Ptr<TcpTxBuffer> m_txBuffer; //!< the bound socket's send buffer
    Ptr<MltcpSendLink> m_link;   //!< the bound socket's "Tx" trace to Sent()
    SimTcpSocket* m_sim;         //!< the bound socket, null if unbound or not one;
                                 //!< it owns the algorithm, so it outlives the state
};

} // namespace ns3

#endif /* MLTCP_SIM_GLUE_H */
