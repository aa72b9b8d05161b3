/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's TCP sockets: a stock ns-3 congestion control or MLTCP's,
 * and the hints an application gives MLTCP's (what libmltcp gives the
 * kernel: iteration marks and sizes).
 *
 * Contract between the congestion controls (mltcp-congestion.{h,cc}) and
 * the applications (training-job.{h,cc}): an application creates each
 * connection's sending socket with CreateSimSocket() and sends on the
 * socket it connected; the accepting side only receives.  The hints then
 * reach the congestion control of the socket that sends.
 */
#ifndef MLTCP_SIM_SOCKET_H
#define MLTCP_SIM_SOCKET_H

#include <cstdint>
#include <string>

#include "socket-record.h"

#include "ns3/node.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"
#include "ns3/tcp-congestion-ops.h"

namespace ns3
{

/** The congestion controls a simulated job can run. */
enum class CcAlgo
{
    RENO,        //!< ns3::TcpLinuxReno
    CUBIC,       //!< ns3::TcpCubic
    DCTCP,       //!< ns3::TcpDctcp (ECN on the socket)
    MLTCP_RENO,  //!< MltcpReno: TcpLinuxReno scaled by the core's F
    MLTCP_CUBIC, //!< MltcpCubic
    MLTCP_DCTCP, //!< MltcpDctcp (ECN on the socket)
};

/** @return false when @name is none of reno, cubic, dctcp, mltcp_reno, ... */
bool ParseCcAlgo(const std::string& name, CcAlgo* algo);
/** @return the name ParseCcAlgo() takes. */
const char* CcAlgoName(CcAlgo algo);
/** @return true for the MLTCP algorithms. */
bool CcAlgoIsMltcp(CcAlgo algo);
/** @return true for the algorithms that negotiate ECN (DCTCP and its MLTCP). */
bool CcAlgoUsesEcn(CcAlgo algo);
/** @return the stock algorithm an MLTCP algorithm scales (itself for stock ones). */
CcAlgo CcAlgoBase(CcAlgo algo);

/**
 * What an application tells MLTCP's congestion control about its
 * iterations; implemented by the MLTCP congestion controls.
 */
class MltcpHints
{
  public:
    virtual ~MltcpHints() = default;
    /**
     * An iteration starts on this connection (libmltcp's mltcp_mark()).
     * @param bytes its size, 0 = keep the size the socket has
     */
    virtual void MarkIteration(uint64_t bytes) = 0;
    /** The iteration's size, without marking (MLTCP_BYTES_PER_ITER). */
    virtual void SetIterationBytes(uint64_t bytes) = 0;
    /** The socket's tie-break, Q10 in [0, 1024] (libmltcp's mltcp_set_tiebreak()). */
    virtual void SetTiebreak(uint32_t q10) = 0;
    /** @return the F of the socket's phase now, Q10 (1024 = 1.0). */
    virtual uint32_t GetFQ10() const = 0;
    /** For the socket's record: its F now (Q10) and the phase it counts as busy in. */
    virtual void AckPhase(uint32_t* fQ10, BusyPhase* phase) const = 0;
};

/** A sending socket and, for MLTCP algorithms, its hints. */
struct SimSocket
{
    Ptr<Socket> socket;          //!< not yet bound nor connected
    Ptr<TcpCongestionOps> cc;    //!< its congestion control
    MltcpHints* hints = nullptr; //!< cc's hints; null for stock algorithms
};

/**
 * Create a TCP socket on @node that will run @algo.
 *
 * Every MLTCP socket of a simulation shares the global parameters
 * (MltcpSetParam()), as the sockets of a network namespace do.
 */
SimSocket CreateSimSocket(Ptr<Node> node, CcAlgo algo);

/**
 * Set a global MLTCP parameter for the whole simulation, by the name and
 * text form `mltcpctl set` takes (slope, intercept, idle_ms, mode,
 * decrease, stagger, overrun).
 * @return false, with @err set, for an unknown name or a bad value.
 */
bool MltcpSetParam(const std::string& name, const std::string& value, std::string* err);

/** Set every global MLTCP parameter back to the kernel module's default. */
void MltcpResetParams();

} // namespace ns3

#endif /* MLTCP_SIM_SOCKET_H */
