// SPDX-License-Identifier: GPL-2.0
/*
 * A loss during an ECN reduction is recovered as Linux recovers it: the
 * socket leaves CWR for fast recovery once the scoreboard shows the loss
 * (SimTcpSocket::ProcessAck()).  ns-3 3.37 counts those duplicate ACKs in
 * CA_CWR and acts on none of them, so each such loss waited for the RTO:
 * in the cluster sweeps over DCTCP most RTOs fired in CWR.
 *
 * The VGG16 ring pair of vgg16-pair-run.h over DCTCP, its 2:1 uplink a 1-BDP
 * queue marking ECN: both jobs start together and overflow it, their flows
 * already reducing for the marks.
 */
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "socket-record.h"
#include "tap.h"
#include "vgg16-pair-run.h"

#include "ns3/tcp-socket-state.h"

using namespace ns3;
using namespace mltcp_test;

/* long enough for the pair's flows to lose segments while reducing for marks */
const double kSeconds = 5;

int
main()
{
    Tap tap;
    RunResult r;
    std::string err;

    if (!RunVgg16Pair({"queue=ecn", "cc=dctcp"}, "cwr-recovery", &r, &err, kSeconds))
    {
        tap.Check(false, "vgg16-pair.conf loads over DCTCP: " + err);
        return tap.Finish();
    }
    const std::string run = "/tmp/mltcp-sim-test-cwr-recovery.txt";
    tap.Check(WriteSocketRecords(run, r.simS * 1e3), "the run's socket records are written");

    /* RUN-events.csv: t_ms,socket,event,a,b */
    std::string events = SocketEventsPath(run);
    std::ifstream in(events);
    std::string line;
    uint32_t cwrs = 0, fromCwr = 0, recoveries = 0, rtos = 0, rtosInCwr = 0;
    std::getline(in, line);
    while (std::getline(in, line))
    {
        std::istringstream is(line);
        std::string t, socket, what, a, b;
        std::getline(is, t, ',');
        std::getline(is, socket, ',');
        std::getline(is, what, ',');
        std::getline(is, a, ',');
        std::getline(is, b, ',');
        if (what == "cwr")
        {
            cwrs++;
        }
        else if (what == "recovery")
        {
            recoveries++;
            fromCwr += std::stoi(b) == TcpSocketState::CA_CWR;
        }
        else if (what == "rto")
        {
            rtos++;
            rtosInCwr += std::stoi(a) == TcpSocketState::CA_CWR;
        }
    }
    std::printf("# %u ECN reductions, %u recoveries (%u from CWR), %u RTOs (%u in CWR)\n",
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
    std::remove(run.c_str());
    std::remove(events.c_str());
    std::remove(SocketRecordsPath(run).c_str());
    return tap.Finish();
}
