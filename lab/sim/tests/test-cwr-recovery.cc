// SPDX-License-Identifier: GPL-2.0
/*
 * A loss during an ECN reduction is recovered as Linux recovers it: the
 * socket leaves CWR for fast recovery once the scoreboard shows the loss
 * (SimTcpSocket::ProcessAck()).  ns-3 3.37 counts those duplicate ACKs in
 * CA_CWR and acts on none of them, so each such loss waited for the RTO:
 * in the cluster sweeps over DCTCP most RTOs fired in CWR.  And the
 * recovery halves the window reached so far, as Linux's dctcp does on
 * entering Recovery from any state, rather than keeping the reduction's
 * gentler threshold.
 *
 * The VGG16 ring pair of vgg16-pair-run.h over DCTCP, its 2:1 uplink a 1-BDP
 * queue marking ECN: both jobs start together and overflow it, their flows
 * already reducing for the marks.  Once under MLTCP, once under stock DCTCP
 * (whose threshold after a loss is exactly half the window).
 */
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "socket-record.h"
#include "tap.h"
#include "vgg16-pair-run.h"

#include "ns3/tcp-socket-state.h"

using namespace ns3;
using namespace mltcp_test;

namespace
{

/* long enough for the pair's flows to lose segments while reducing for marks */
const double kSeconds = 5;

/* one line of RUN-events.csv: t_ms,socket,event,a,b,c */
struct Event
{
    uint32_t socket;
    std::string what;
    double a, b, c;
};

/*
 * Run the pair (@mltcp or stock DCTCP) and @return its events of sockets
 * numbered above @after (the registry keeps the process's earlier runs);
 * @last gets the highest socket number seen.
 */
std::vector<Event>
RunEvents(Tap* tap, bool mltcp, uint32_t after, uint32_t* last)
{
    std::vector<Event> out;
    RunResult r;
    std::string err;
    std::string label = mltcp ? "cwr-recovery" : "cwr-recovery-stock";

    if (!RunVgg16Pair({"queue=ecn", "cc=dctcp"}, label, &r, &err, kSeconds, mltcp))
    {
        tap->Check(false, "vgg16-pair.conf loads over DCTCP: " + err);
        return out;
    }
    const std::string run = "/tmp/mltcp-sim-test-" + label + ".txt";
    if (!tap->Check(WriteSocketRecords(run, r.simS * 1e3),
                    label + ": the run's socket records are written"))
    {
        return out;
    }
    std::string events = SocketEventsPath(run);
    std::ifstream in(events);
    std::string line;
    *last = after;
    std::getline(in, line);
    while (std::getline(in, line))
    {
        std::istringstream is(line);
        std::string t, socket, what, a, b, c;
        std::getline(is, t, ',');
        std::getline(is, socket, ',');
        std::getline(is, what, ',');
        std::getline(is, a, ',');
        std::getline(is, b, ',');
        std::getline(is, c, ',');
        uint32_t id = std::stoul(socket);
        if (id > after)
        {
            out.push_back({id, what, std::stod(a), std::stod(b), std::stod(c)});
            *last = std::max(*last, id);
        }
    }
    std::remove(run.c_str());
    std::remove(events.c_str());
    std::remove(SocketRecordsPath(run).c_str());
    return out;
}

} // namespace

int
main()
{
    Tap tap;
    uint32_t last = 0;

    uint32_t cwrs = 0, fromCwr = 0, recoveries = 0, rtos = 0, rtosInCwr = 0;
    for (const Event& e : RunEvents(&tap, true, 0, &last))
    {
        cwrs += e.what == "cwr";
        recoveries += e.what == "recovery";
        fromCwr += e.what == "recovery" && int(e.b) == TcpSocketState::CA_CWR;
        rtos += e.what == "rto";
        rtosInCwr += e.what == "rto" && int(e.a) == TcpSocketState::CA_CWR;
    }
    std::printf("# MLTCP: %u ECN reductions, %u recoveries (%u from CWR), %u RTOs (%u in CWR)\n",
                cwrs,
                recoveries,
                fromCwr,
                rtos,
                rtosInCwr);
    tap.Check(cwrs > 0, "the flows reduced for ECN marks: " + std::to_string(cwrs));
    tap.Check(fromCwr > 0,
              "losses during a reduction entered fast recovery: " + std::to_string(fromCwr));
    tap.Check(rtosInCwr == 0,
              "no RTO fired while a reduction was under way: " + std::to_string(rtosInCwr));

    /* stock: the threshold after a loss in CWR is half the window it had, at least 2 */
    uint32_t stockFromCwr = 0, halved = 0;
    for (const Event& e : RunEvents(&tap, false, last, &last))
    {
        if (e.what != "recovery" || int(e.b) != TcpSocketState::CA_CWR)
        {
            continue;
        }
        stockFromCwr++;
        if (e.c <= std::max(2.0, e.a / 2))
        {
            halved++;
        }
        else
        {
            char what[96];
            std::snprintf(what,
                          sizeof(what),
                          "a recovery from CWR at a window of %.1f segments set ssthresh %.1f",
                          e.a,
                          e.c);
            tap.Note(what);
        }
    }
    tap.Check(stockFromCwr > 0,
              "stock: losses during a reduction entered fast recovery: " +
                  std::to_string(stockFromCwr));
    tap.Check(halved == stockFromCwr,
              "stock: each halved the window it had reached: " + std::to_string(halved) + " of " +
                  std::to_string(stockFromCwr));
    return tap.Finish();
}
