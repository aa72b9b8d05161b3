// SPDX-License-Identifier: GPL-2.0
/*
 * A run's record comes back with its sockets' records: ReadRunResult()
 * reads RUN-sockets.csv beside RUN.txt, so the report can give RTOs and
 * what MLTCP did per run; a record without one still reads (the report
 * says "-"), and a damaged one is an error that names the file.
 *
 * The VGG16 ring pair for one simulated second (vgg16-pair-run.h).
 */
#include <cstdio>
#include <fstream>
#include <string>

#include "socket-record.h"
#include "tap.h"
#include "vgg16-pair-run.h"

using namespace ns3;
using namespace mltcp_test;

int
main()
{
    Tap tap;
    RunResult r;
    std::string err;

    if (!RunVgg16Pair({}, "records", &r, &err))
    {
        tap.Check(false, "vgg16-pair.conf loads: " + err);
        return tap.Finish();
    }

    const std::string run = "/tmp/mltcp-sim-test-records.txt";
    const std::string csv = SocketRecordsPath(run);
    tap.Check(WriteRunResult(r, run) && WriteSocketRecords(run, r.simS * 1e3),
              "the run's record and its socket records are written");

    RunResult back;
    bool read = ReadRunResult(run, &back, &err);
    tap.Check(read && back.socketsRead,
              "the record reads back with its sockets' records" + (err.empty() ? "" : ": " + err));
    tap.Check(back.sockets.sockets == 4,
              "four sending sockets, one each way of each ring: " +
                  std::to_string(back.sockets.sockets));
    tap.Check(back.sockets.sentBytes > 0 && back.sockets.restarts > 0 && back.sockets.acks > 0,
              "they sent, restarted their windows and counted ACKs");

    std::ofstream(csv, std::ios::app) << "1,2,3\n";
    err.clear();
    read = ReadRunResult(run, &back, &err);
    tap.Check(!read && err.find(csv) != std::string::npos,
              "a damaged RUN-sockets.csv fails the read and is named: " + err);

    std::remove(csv.c_str());
    err.clear();
    read = ReadRunResult(run, &back, &err);
    tap.Check(read && !back.socketsRead && back.iterations.size() == r.iterations.size(),
              "without one the record still reads, its sockets unknown");
    std::remove(run.c_str());
    std::remove(SocketEventsPath(run).c_str());
    return tap.Finish();
}
