/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-socket records of a run: what each sending socket's TCP and MLTCP
 * did, for finding out why a run came out as it did.
 *
 * Every sending socket (SimTcpSocket, the first time it sends data) gets a
 * SocketRecord in the process's registry; the socket, and the MLTCP glue
 * bound to it, count into it as the run goes.  After the run,
 * WriteSocketRecords() writes two plain CSV files beside the run's record
 * (RUN.txt): RUN-sockets.csv, a row per socket (the columns:
 * kSocketColumns in socket-record.cc), and RUN-events.csv, one line per
 * RTO, recovery, ECN reduction, end of a yield and change of the yield's
 * backoff, in time order.  ReadSocketSummary() reads a RUN-sockets.csv back
 * into per-job and whole-run sums, and FormatSocketSummary() prints one.
 */
#ifndef MLTCP_SIM_SOCKET_RECORD_H
#define MLTCP_SIM_SOCKET_RECORD_H

#include <cstdint>
#include <map>
#include <string>

namespace ns3
{

/** How a yield ended (mltcp_yield_step()). */
enum class YieldEnd
{
    DRAINED, //!< a sample without another's queue, within the bound
    LATE,    //!< drained, but after longer than the flow last sent: counts as a bound
    BOUND,   //!< the bound ran out with the queue still there
    FREE,    //!< out of bound on a free link: no evidence
    CUT,     //!< never ended: the next restart came first, or the run ended
    COUNT,
};

/** @return the CSV name of @end: drained, late, bound, free, cut. */
const char* YieldEndName(YieldEnd end);

/* F over ACKs: F rounded to an eighth, bin 8 is F = 1, the last takes all above */
constexpr uint32_t kFBins = 25;
/* the yield's backoff depths, MLTCP_BACKOFF_GAP .. MLTCP_BACKOFF_TOP */
constexpr uint32_t kBackoffDepths = 4;
/* the phases busy time is counted in: F = 1, RAMP, TOP, YIELD */
enum class BusyPhase
{
    ONE,
    RAMP,
    TOP,
    YIELD,
    COUNT,
};

/** One sending socket's record. */
struct SocketRecord
{
    uint32_t id = 0;
    uint32_t node = 0;
    int32_t job = -1;      //!< the job whose listening port the socket connected to
    std::string cc;        //!< its congestion control's name
    std::string local;     //!< address:port
    std::string peer;      //!< address:port
    double tiebreak = -1;  //!< MLTCP's tie-break when it started, in [0, 1]; -1: stock
    uint64_t sentBytes = 0;    //!< payload sent, retransmissions included
    uint64_t retxBytes = 0;    //!< payload retransmitted
    uint32_t rtos = 0;         //!< retransmission timeouts that fired with data out
    uint32_t recoveries = 0;   //!< fast recoveries entered
    uint32_t recoveryRtos = 0; //!< of those, ended by an RTO
    uint32_t cwrs = 0;         //!< ECN reductions entered
    double lossMs = 0;         //!< time in CA_LOSS (after an RTO)
    double recoveryMs = 0;     //!< time in CA_RECOVERY
    uint32_t idleRestarts = 0; //!< slow start after idle (longer than the RTO)
    uint32_t restarts = 0;     //!< MLTCP window restarts (each begins a yield)
    uint32_t lowered = 0;      //!< of those, the window was above the initial one
    uint32_t yieldEnds[uint32_t(YieldEnd::COUNT)] = {};
    double yieldMs = 0;        //!< time yields held, restart to end
    double backoffMs[kBackoffDepths] = {}; //!< time at each backoff depth
    double busyMs[uint32_t(BusyPhase::COUNT)] = {}; //!< time with data out, by phase
    uint64_t acks = 0;                     //!< ACKs of new data
    uint64_t fHist[kFBins] = {};           //!< their F (yielding ACKs not counted)
    uint64_t yieldAcks = 0;                //!< ACKs while a yield held

    /* running state, not written */
    uint8_t backoff = 0;
    double backoffSince = 0;
    double stateSince = 0;
    int state = 0;
    bool inYield = false;
    double yieldSince = 0;
    double lastAckMs = -1;
    BusyPhase lastPhase = BusyPhase::ONE;
    bool lastFlight = false;
};

/** A new record in the registry, for a socket on @node. */
SocketRecord* NewSocketRecord(uint32_t node, const std::string& cc);

/**
 * An event of @rec at @nowMs, for RUN-events.csv.
 * @param what rto, recovery, recovery_rto, cwr, idle_restart, yield, backoff
 * @param a its value (yield: YieldEndName() index; backoff: the new depth;
 *	rto: the congestion state it fired in; recovery, cwr: the window
 *	before the ACK that started it, segments; idle_restart: the window
 *	it restarts at, segments)
 * @param b a second value (yield: how long it held, ms; rto: the new RTO, ms;
 *	recovery: the congestion state it was entered from)
 * @param c a third (recovery, cwr: the threshold it reduces towards,
 *	segments)
 */
void SocketEvent(SocketRecord* rec,
                 double nowMs,
                 const char* what,
                 double a,
                 double b,
                 double c = 0);

/** The time since the last change of the backoff counted to its depth, up to @nowMs. */
void SocketBackoffTo(SocketRecord* rec, double nowMs, uint8_t depth);

/**
 * Write the registry's records and events beside @runOut (a run's RUN.txt:
 * RUN-sockets.csv and RUN-events.csv), the running times closed at @endMs.
 * @return false when a file could not be written
 */
bool WriteSocketRecords(const std::string& runOut, double endMs);

/** What the report prints of a run's sockets: sums over a set of them. */
struct SocketSummary
{
    uint32_t sockets = 0;
    uint64_t sentBytes = 0;
    uint64_t retxBytes = 0;
    uint32_t rtos = 0;
    uint32_t recoveries = 0;
    uint32_t recoveryRtos = 0;
    uint32_t cwrs = 0;
    uint32_t idleRestarts = 0;
    uint32_t restarts = 0;
    uint32_t yieldEnds[uint32_t(YieldEnd::COUNT)] = {};
    double yieldMs = 0;
    double lossMs = 0;
    double backoffMs[kBackoffDepths] = {};
    double busyMs[uint32_t(BusyPhase::COUNT)] = {};
    uint64_t acks = 0;
    uint64_t fHist[kFBins] = {};
};

/**
 * Read a RUN-sockets.csv: @total the whole run's sums, @perJob each job's
 * (by job index).
 * @return false, with @err set, when the file cannot be read or parsed
 */
bool ReadSocketSummary(const std::string& csv,
                       SocketSummary* total,
                       std::map<int32_t, SocketSummary>* perJob,
                       std::string* err);

/**
 * One line of @s: "rto N (N ms in loss), recov N (N ended by rto), ...", and
 * with @mltcp what MLTCP did: "; restarts N, yields N: drained N late N
 * bound N free N cut N; backoff 0/1/2/3 a/b/c/d%; busy at top T%, yielding
 * Y%; F>1 on X% of ACKs, mean F M".
 */
std::string FormatSocketSummary(const SocketSummary& s, bool mltcp);

/** The registry's path for a run's RUN.txt: RUN-sockets.csv. */
std::string SocketRecordsPath(const std::string& runOut);

/** The events' path for a run's RUN.txt: RUN-events.csv. */
std::string SocketEventsPath(const std::string& runOut);

} // namespace ns3

#endif /* MLTCP_SIM_SOCKET_RECORD_H */
