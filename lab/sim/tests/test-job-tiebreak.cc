// SPDX-License-Identifier: GPL-2.0
/*
 * A job's connections share one tie-break, as mltcp.torch.attach() gives
 * them (rank 0's draw, broadcast), unless the scenario says each
 * connection draws its own (`tiebreak = connection`, the kernel's default
 * when nobody gives one).
 *
 * The VGG16 ring pair for one simulated second (vgg16-pair-run.h).  With
 * one tie-break per job both of a job's sending sockets carry the same one
 * and the two jobs differ; with one per connection a job's two directions
 * differ (at this seed), which is what lets each job lead on one uplink and
 * trail on the other.
 */
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "socket-record.h"
#include "tap.h"
#include "vgg16-pair-run.h"

using namespace ns3;
using namespace mltcp_test;

namespace
{

/* Rows of RUN-sockets.csv already read: every file repeats the process's earlier runs first. */
size_t g_rowsRead = 0;

/*
 * Run the pair under MLTCP for a second with @tiebreak; @return the
 * tie-breaks of each job's MLTCP sockets (by job index), read back from the
 * run's RUN-sockets.csv.
 */
std::map<int, std::vector<double>>
JobTiebreaks(const std::string& tiebreak, Tap* tap)
{
    std::map<int, std::vector<double>> out;
    RunResult r;
    std::string err;

    if (!RunVgg16Pair({"tiebreak=" + tiebreak}, "tiebreak-" + tiebreak, &r, &err))
    {
        tap->Check(false, "vgg16-pair.conf loads: " + err);
        return out;
    }

    std::string run = "/tmp/mltcp-sim-test-tiebreak.txt";
    if (!WriteSocketRecords(run, r.simS * 1e3))
    {
        tap->Check(false, "the run's socket records are written");
        return out;
    }
    std::ifstream csv(SocketRecordsPath(run));
    std::string line;
    std::vector<std::string> cols;
    std::getline(csv, line);
    std::istringstream head(line);
    for (std::string c; std::getline(head, c, ',');)
    {
        cols.push_back(c);
    }
    size_t rows = 0;
    while (std::getline(csv, line))
    {
        if (rows++ < g_rowsRead)
        {
            continue;
        }
        std::map<std::string, std::string> row;
        std::istringstream is(line);
        std::string cell;
        for (size_t i = 0; i < cols.size() && std::getline(is, cell, ','); i++)
        {
            row[cols[i]] = cell;
        }
        double t = std::stod(row["tiebreak"]);
        if (t >= 0)
        {
            out[std::stoi(row["job"])].push_back(t);
        }
    }
    g_rowsRead = rows;
    return out;
}

/* Do job @j's two sockets carry one tie-break? */
bool
Shared(std::map<int, std::vector<double>>& t, int j)
{
    return t[j].size() == 2 && t[j][0] == t[j][1];
}

} // namespace

int
main()
{
    Tap tap;

    std::map<int, std::vector<double>> job = JobTiebreaks("job", &tap);
    tap.Check(job.size() == 2 && job[0].size() == 2 && job[1].size() == 2,
              "tiebreak = job: each ring sends on two MLTCP connections");
    tap.Check(Shared(job, 0) && Shared(job, 1),
              "tiebreak = job: a job's connections, one each way, share one tie-break");
    tap.Check(Shared(job, 0) && Shared(job, 1) && job[0][0] != job[1][0],
              "tiebreak = job: the two jobs drew different tie-breaks");

    std::map<int, std::vector<double>> conn = JobTiebreaks("connection", &tap);
    tap.Check(conn[0].size() == 2 && !Shared(conn, 0),
              "tiebreak = connection: a job's two directions draw apart");
    return tap.Finish();
}
