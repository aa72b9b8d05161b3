// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's TCP sockets (mltcp-socket.h): a socket with a stock or an
 * MLTCP congestion control, the algorithms' names (the kernel modules'),
 * and the simulation's MLTCP parameters in the text form of `mltcpctl set`
 * (the core's, mltcp_params.h).
 */
#include "mltcp-socket.h"

#include <cstdint>

#include "mltcp-congestion.h"
#include "mltcp-glue.h"
#include "stock-congestion.h"
#include "topology-tcp.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/tcp-socket-factory.h"

namespace ns3
{

namespace
{

struct CcAlgoInfo
{
    CcAlgo algo;
    const char* name;
    CcAlgo base; //!< the stock algorithm it scales, itself if stock
};

const CcAlgoInfo kCcAlgos[] = {
    {CcAlgo::RENO, "reno", CcAlgo::RENO},
    {CcAlgo::CUBIC, "cubic", CcAlgo::CUBIC},
    {CcAlgo::DCTCP, "dctcp", CcAlgo::DCTCP},
    {CcAlgo::MLTCP_RENO, "mltcp_reno", CcAlgo::RENO},
    {CcAlgo::MLTCP_CUBIC, "mltcp_cubic", CcAlgo::CUBIC},
    {CcAlgo::MLTCP_DCTCP, "mltcp_dctcp", CcAlgo::DCTCP},
};

const CcAlgoInfo&
Info(CcAlgo algo)
{
    for (const CcAlgoInfo& info : kCcAlgos)
    {
        if (info.algo == algo)
        {
            return info;
        }
    }
    NS_FATAL_ERROR("unknown CcAlgo " << static_cast<int>(algo));
}

/* A stock algorithm on @socket, bound to it. */
template <class Algo>
Ptr<TcpCongestionOps>
CreateStock(Ptr<TcpSocketBase> socket)
{
    Ptr<Algo> algo = CreateObject<Algo>();

    algo->Bind(DynamicCast<SimTcpSocket>(socket));
    return algo;
}

/* An MLTCP algorithm on @socket, bound to it; its hints in @hints. */
template <class Algo>
Ptr<TcpCongestionOps>
CreateMltcp(Ptr<TcpSocketBase> socket, MltcpHints** hints)
{
    Ptr<Algo> algo = CreateObject<Algo>();

    algo->Bind(socket);
    *hints = PeekPointer(algo);
    return algo;
}

bool
Fail(std::string* err, const std::string& message)
{
    if (err)
    {
        *err = message;
    }
    return false;
}

/* The decimal parameters: Q10 in the core's text form (mltcp_parse_q10()). */
struct Q10Param
{
    const char* name;
    bool (*valid)(u32 q10);
    void (*apply)(mltcp_globals* g, u32 q10);
    const char* range; //!< what `mltcpctl set` says it takes
};

const Q10Param kQ10Params[] = {
    {"slope",
     mltcp_slope_valid,
     [](mltcp_globals* g, u32 q10) {
         g->fparams = mltcp_params_pack(q10, mltcp_params_intercept(g->fparams));
     },
     "a decimal from 0 to 8"},
    {"intercept",
     mltcp_intercept_valid,
     [](mltcp_globals* g, u32 q10) {
         g->fparams = mltcp_params_pack(mltcp_params_slope(g->fparams), q10);
     },
     "a decimal above 0, at most 8"},
    {"stagger",
     mltcp_stagger_valid,
     [](mltcp_globals* g, u32 q10) { g->stagger = q10; },
     "a decimal from 0 to 1"},
    {"overrun",
     mltcp_overrun_valid,
     [](mltcp_globals* g, u32 q10) { g->overrun = q10; },
     "0, or a decimal from 1 to 8"},
};

/* A decimal u32, digits only. */
bool
ParseU32(const std::string& text, uint32_t* out)
{
    uint64_t v = 0;

    if (text.empty())
    {
        return false;
    }
    for (char c : text)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        v = v * 10 + static_cast<uint64_t>(c - '0');
        if (v > UINT32_MAX)
        {
            return false;
        }
    }
    *out = static_cast<uint32_t>(v);
    return true;
}

} // namespace

bool
ParseCcAlgo(const std::string& name, CcAlgo* algo)
{
    for (const CcAlgoInfo& info : kCcAlgos)
    {
        if (name == info.name)
        {
            *algo = info.algo;
            return true;
        }
    }
    return false;
}

const char*
CcAlgoName(CcAlgo algo)
{
    return Info(algo).name;
}

bool
CcAlgoIsMltcp(CcAlgo algo)
{
    return Info(algo).base != algo;
}

bool
CcAlgoUsesEcn(CcAlgo algo)
{
    return Info(algo).base == CcAlgo::DCTCP;
}

CcAlgo
CcAlgoBase(CcAlgo algo)
{
    return Info(algo).base;
}

SimSocket
CreateSimSocket(Ptr<Node> node, CcAlgo algo)
{
    SimSocket s;
    Ptr<TcpSocketBase> tcp;

    tcp = SimTcpSocket::Make(node, nullptr);
    s.socket = tcp;
    if (CcAlgoUsesEcn(algo))
    {
        tcp->SetAttribute("UseEcn", EnumValue(TcpSocketState::On));
    }
    switch (algo)
    {
    case CcAlgo::RENO:
        s.cc = CreateStock<StockReno>(tcp);
        break;
    case CcAlgo::CUBIC:
        s.cc = CreateStock<StockCubic>(tcp);
        break;
    case CcAlgo::DCTCP:
        s.cc = CreateStock<StockDctcp>(tcp);
        break;
    case CcAlgo::MLTCP_RENO:
        s.cc = CreateMltcp<MltcpReno>(tcp, &s.hints);
        break;
    case CcAlgo::MLTCP_CUBIC:
        s.cc = CreateMltcp<MltcpCubic>(tcp, &s.hints);
        break;
    case CcAlgo::MLTCP_DCTCP:
        s.cc = CreateMltcp<MltcpDctcp>(tcp, &s.hints);
        break;
    }
    /* before connect(): the handshake's end starts MLTCP's state */
    tcp->SetCongestionControlAlgorithm(s.cc);
    return s;
}

bool
MltcpSetParam(const std::string& name, const std::string& value, std::string* err)
{
    mltcp_globals* g = &MltcpGlobals();
    uint32_t v;
    int mode;

    for (const Q10Param& p : kQ10Params)
    {
        if (name != p.name)
        {
            continue;
        }
        if (mltcp_parse_q10(value.c_str(), &v) || !p.valid(v))
        {
            return Fail(err, "invalid " + name + " '" + value + "' (" + p.range + ")");
        }
        p.apply(g, v);
        return true;
    }
    if (name == "idle_ms")
    {
        if (!ParseU32(value, &v) || !mltcp_idle_ms_valid(v))
        {
            return Fail(err,
                        "invalid idle_ms '" + value + "' (milliseconds, " +
                            std::to_string(MLTCP_IDLE_MS_MIN) + " to " +
                            std::to_string(MLTCP_IDLE_MS_MAX) + ")");
        }
        g->idle_ms = v;
        return true;
    }
    if (name == "mode")
    {
        mode = mltcp_parse_mode(value.c_str());
        if (mode < 0)
        {
            return Fail(err, "invalid mode '" + value + "' (learned, given or off)");
        }
        g->mode = mode;
        return true;
    }
    if (name == "yield")
    {
        if (value != "on" && value != "off")
        {
            return Fail(err, "invalid yield '" + value + "' (on or off: the simulator's ablation)");
        }
        MltcpYieldsAblated() = value == "off";
        return true;
    }
    if (name == "decrease")
    {
        if (value != "on" && value != "1" && value != "off" && value != "0")
        {
            return Fail(err, "invalid decrease '" + value + "' (on or off)");
        }
        g->decrease = value == "on" || value == "1";
        return true;
    }
    return Fail(err,
                "unknown parameter '" + name +
                    "' (slope, intercept, idle_ms, mode, decrease, stagger, overrun;"
                    " yield, the simulator's ablation)");
}

void
MltcpResetParams()
{
    MltcpGlobals() = MltcpDefaultGlobals();
    MltcpYieldsAblated() = false;
}

} // namespace ns3
