// SPDX-License-Identifier: GPL-2.0
/* Per-socket records of a run (socket-record.h). */

#include "socket-record.h"

#include <cstdio>
#include <deque>
#include <fstream>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{

struct Event
{
    double ms;
    uint32_t socket;
    const char* what;
    double a;
    double b;
    double c;
};

std::deque<SocketRecord>&
Records()
{
    static std::deque<SocketRecord> records;
    return records;
}

std::vector<Event>&
Events()
{
    static std::vector<Event> events;
    return events;
}

const char* const kYieldEndNames[] = {"drained", "late", "bound", "free", "cut"};
const char* const kBusyNames[] = {"busy_one_ms", "busy_ramp_ms", "busy_top_ms", "busy_yield_ms"};

/* F at the middle of bin @i, for the column names: f0.000 .. f3.000 */
std::string
FBinName(uint32_t i)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "f%.3f", i / 8.0);
    return buf;
}

std::vector<std::string>
Columns()
{
    std::vector<std::string> c = {"id",          "job",        "node",          "cc",
                                  "local",       "peer",       "tiebreak",      "sent_bytes",
                                  "retx_bytes",  "rtos",       "loss_ms",       "recoveries",
                                  "recovery_rtos", "recovery_ms", "cwrs",       "idle_restarts",
                                  "restarts",    "lowered"};
    for (const char* n : kYieldEndNames)
    {
        c.push_back(std::string("yield_") + n);
    }
    c.push_back("yield_ms");
    for (uint32_t d = 0; d < kBackoffDepths; d++)
    {
        c.push_back("backoff" + std::to_string(d) + "_ms");
    }
    for (const char* n : kBusyNames)
    {
        c.push_back(n);
    }
    c.push_back("acks");
    c.push_back("yield_acks");
    for (uint32_t i = 0; i < kFBins; i++)
    {
        c.push_back(FBinName(i));
    }
    return c;
}

void
Close(SocketRecord* r, double endMs)
{
    SocketBackoffTo(r, endMs, r->backoff);
    if (r->inYield)
    {
        r->yieldEnds[uint32_t(YieldEnd::CUT)]++;
        r->yieldMs += endMs - r->yieldSince;
        r->inYield = false;
    }
    /* CA_LOSS = 4, CA_RECOVERY = 3 (TcpSocketState::TcpCongState_t) */
    if (r->state == 4)
    {
        r->lossMs += endMs - r->stateSince;
    }
    else if (r->state == 3)
    {
        r->recoveryMs += endMs - r->stateSince;
    }
    r->stateSince = endMs;
}

void
Add(SocketSummary* s, const SocketSummary& r)
{
    s->sockets += r.sockets;
    s->sentBytes += r.sentBytes;
    s->retxBytes += r.retxBytes;
    s->rtos += r.rtos;
    s->recoveries += r.recoveries;
    s->recoveryRtos += r.recoveryRtos;
    s->cwrs += r.cwrs;
    s->idleRestarts += r.idleRestarts;
    s->restarts += r.restarts;
    for (uint32_t i = 0; i < uint32_t(YieldEnd::COUNT); i++)
    {
        s->yieldEnds[i] += r.yieldEnds[i];
    }
    s->yieldMs += r.yieldMs;
    s->lossMs += r.lossMs;
    for (uint32_t d = 0; d < kBackoffDepths; d++)
    {
        s->backoffMs[d] += r.backoffMs[d];
    }
    for (uint32_t p = 0; p < uint32_t(BusyPhase::COUNT); p++)
    {
        s->busyMs[p] += r.busyMs[p];
    }
    s->acks += r.acks;
    for (uint32_t i = 0; i < kFBins; i++)
    {
        s->fHist[i] += r.fHist[i];
    }
}

/* RUN.txt -> RUN@suffix */
std::string
BesideRun(const std::string& runOut, const char* suffix)
{
    std::string base = runOut;
    if (base.size() > 4 && base.compare(base.size() - 4, 4, ".txt") == 0)
    {
        base.resize(base.size() - 4);
    }
    return base + suffix;
}

} // namespace

const char*
YieldEndName(YieldEnd end)
{
    return kYieldEndNames[uint32_t(end)];
}

SocketRecord*
NewSocketRecord(uint32_t node, const std::string& cc)
{
    Records().emplace_back();
    SocketRecord* r = &Records().back();
    r->id = uint32_t(Records().size() - 1);
    r->node = node;
    r->cc = cc;
    return r;
}

void
SocketEvent(SocketRecord* rec, double nowMs, const char* what, double a, double b, double c)
{
    Events().push_back({nowMs, rec->id, what, a, b, c});
}

void
SocketBackoffTo(SocketRecord* rec, double nowMs, uint8_t depth)
{
    if (rec->backoff < kBackoffDepths)
    {
        rec->backoffMs[rec->backoff] += nowMs - rec->backoffSince;
    }
    rec->backoffSince = nowMs;
    if (depth != rec->backoff)
    {
        SocketEvent(rec, nowMs, "backoff", depth, 0);
    }
    rec->backoff = depth;
}

std::string
SocketRecordsPath(const std::string& runOut)
{
    return BesideRun(runOut, "-sockets.csv");
}

std::string
SocketEventsPath(const std::string& runOut)
{
    return BesideRun(runOut, "-events.csv");
}

bool
WriteSocketRecords(const std::string& runOut, double endMs)
{
    std::string path = SocketRecordsPath(runOut);
    std::string events = SocketEventsPath(runOut);
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f)
    {
        return false;
    }
    std::vector<std::string> cols = Columns();
    for (size_t i = 0; i < cols.size(); i++)
    {
        std::fprintf(f, "%s%s", i ? "," : "", cols[i].c_str());
    }
    std::fprintf(f, "\n");
    for (SocketRecord& r : Records())
    {
        if (!r.sentBytes)
        {
            continue;
        }
        Close(&r, endMs);
        std::fprintf(f,
                     "%u,%d,%u,%s,%s,%s,%.4f,%llu,%llu,%u,%.1f,%u,%u,%.1f,%u,%u,%u,%u",
                     r.id,
                     r.job,
                     r.node,
                     r.cc.c_str(),
                     r.local.c_str(),
                     r.peer.c_str(),
                     r.tiebreak,
                     (unsigned long long)r.sentBytes,
                     (unsigned long long)r.retxBytes,
                     r.rtos,
                     r.lossMs,
                     r.recoveries,
                     r.recoveryRtos,
                     r.recoveryMs,
                     r.cwrs,
                     r.idleRestarts,
                     r.restarts,
                     r.lowered);
        for (uint32_t n : r.yieldEnds)
        {
            std::fprintf(f, ",%u", n);
        }
        std::fprintf(f, ",%.1f", r.yieldMs);
        for (double ms : r.backoffMs)
        {
            std::fprintf(f, ",%.1f", ms);
        }
        for (double ms : r.busyMs)
        {
            std::fprintf(f, ",%.1f", ms);
        }
        std::fprintf(f, ",%llu,%llu", (unsigned long long)r.acks, (unsigned long long)r.yieldAcks);
        for (uint64_t n : r.fHist)
        {
            std::fprintf(f, ",%llu", (unsigned long long)n);
        }
        std::fprintf(f, "\n");
    }
    bool ok = std::fclose(f) == 0;
    f = std::fopen(events.c_str(), "w");
    if (!f)
    {
        return false;
    }
    std::fprintf(f, "t_ms,socket,event,a,b,c\n");
    for (const Event& e : Events())
    {
        std::fprintf(f, "%.3f,%u,%s,%g,%g,%g\n", e.ms, e.socket, e.what, e.a, e.b, e.c);
    }
    return std::fclose(f) == 0 && ok;
}

bool
ReadSocketSummary(const std::string& csv,
                  SocketSummary* total,
                  std::map<int32_t, SocketSummary>* perJob,
                  std::string* err)
{
    std::ifstream in(csv);
    std::string line;
    if (!in || !std::getline(in, line))
    {
        *err = csv + ": cannot read";
        return false;
    }
    std::vector<std::string> cols = Columns();
    std::map<std::string, size_t> at;
    for (size_t i = 0; i < cols.size(); i++)
    {
        at[cols[i]] = i;
    }
    *total = SocketSummary();
    if (perJob)
    {
        perJob->clear();
    }
    while (std::getline(in, line))
    {
        std::vector<std::string> v;
        std::istringstream is(line);
        std::string cell;
        while (std::getline(is, cell, ','))
        {
            v.push_back(cell);
        }
        if (v.size() != cols.size())
        {
            *err = csv + ": bad line: " + line;
            return false;
        }
        auto num = [&](const char* name) { return std::stod(v[at[name]]); };
        SocketSummary s;
        s.sockets = 1;
        s.sentBytes = uint64_t(num("sent_bytes"));
        s.retxBytes = uint64_t(num("retx_bytes"));
        s.rtos = uint32_t(num("rtos"));
        s.lossMs = num("loss_ms");
        s.recoveries = uint32_t(num("recoveries"));
        s.recoveryRtos = uint32_t(num("recovery_rtos"));
        s.cwrs = uint32_t(num("cwrs"));
        s.idleRestarts = uint32_t(num("idle_restarts"));
        s.restarts = uint32_t(num("restarts"));
        for (uint32_t i = 0; i < uint32_t(YieldEnd::COUNT); i++)
        {
            s.yieldEnds[i] = uint32_t(num((std::string("yield_") + kYieldEndNames[i]).c_str()));
        }
        s.yieldMs = num("yield_ms");
        for (uint32_t d = 0; d < kBackoffDepths; d++)
        {
            s.backoffMs[d] = num(("backoff" + std::to_string(d) + "_ms").c_str());
        }
        for (uint32_t p = 0; p < uint32_t(BusyPhase::COUNT); p++)
        {
            s.busyMs[p] = num(kBusyNames[p]);
        }
        s.acks = uint64_t(num("acks"));
        for (uint32_t i = 0; i < kFBins; i++)
        {
            s.fHist[i] = uint64_t(num(FBinName(i).c_str()));
        }
        Add(total, s);
        if (perJob)
        {
            Add(&(*perJob)[int32_t(num("job"))], s);
        }
    }
    return true;
}

std::string
FormatSocketSummary(const SocketSummary& s, bool mltcp)
{
    double busy = 0;
    double backoff = 0;
    uint64_t above = 0;
    double fSum = 0;
    uint64_t counted = 0;
    uint32_t yields = 0;
    for (double ms : s.busyMs)
    {
        busy += ms;
    }
    for (double ms : s.backoffMs)
    {
        backoff += ms;
    }
    for (uint32_t i = 0; i < kFBins; i++)
    {
        counted += s.fHist[i];
        fSum += s.fHist[i] * (i / 8.0);
        if (i > 8)
        {
            above += s.fHist[i];
        }
    }
    for (uint32_t n : s.yieldEnds)
    {
        yields += n;
    }
    auto pct = [](double a, double b) { return b > 0 ? 100.0 * a / b : 0.0; };
    char tcp[256];
    std::snprintf(tcp,
                  sizeof tcp,
                  "rto %u (%.0f ms in loss), recov %u (%u ended by rto), cwr %u, idle restarts %u,"
                  " retx %.1f%%",
                  s.rtos,
                  s.lossMs,
                  s.recoveries,
                  s.recoveryRtos,
                  s.cwrs,
                  s.idleRestarts,
                  pct(double(s.retxBytes), double(s.sentBytes)));
    if (!mltcp)
    {
        return tcp;
    }
    char buf[512];
    std::snprintf(buf,
                  sizeof buf,
                  "%s; restarts %u, yields %u: drained %u late %u bound %u free %u"
                  " cut %u; backoff 0/1/2/3 %.0f/%.0f/%.0f/%.0f%%; busy at top %.0f%%, yielding"
                  " %.0f%%; F>1 on %.0f%% of ACKs, mean F %.2f",
                  tcp,
                  s.restarts,
                  yields,
                  s.yieldEnds[0],
                  s.yieldEnds[1],
                  s.yieldEnds[2],
                  s.yieldEnds[3],
                  s.yieldEnds[4],
                  pct(s.backoffMs[0], backoff),
                  pct(s.backoffMs[1], backoff),
                  pct(s.backoffMs[2], backoff),
                  pct(s.backoffMs[3], backoff),
                  pct(s.busyMs[uint32_t(BusyPhase::TOP)], busy),
                  pct(s.busyMs[uint32_t(BusyPhase::YIELD)], busy),
                  pct(double(above), double(counted)),
                  counted ? fSum / counted : 1.0);
    return buf;
}

} // namespace ns3
