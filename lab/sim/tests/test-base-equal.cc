// SPDX-License-Identifier: GPL-2.0
/*
 * MLTCP at F = 1 is its stock algorithm (ns-3's, as Linux runs it:
 * stock-congestion.h), exactly; at the default slope it is not.
 *
 * Two jobs share the dumbbell's bottleneck, each sending 300 kB every
 * 200 ms for 2 s, so windows are cut (losses at the FIFO; ECN marks at the
 * RED queue for DCTCP) and idle gaps separate iterations.  The same run
 * with the stock algorithm and with its MLTCP algorithm at slope 0 must
 * give the same congestion windows, change for change, and the same bytes
 * delivered; at the default slope the learner finds the 300 kB iterations
 * and F, the restarts and the yields change the windows.
 *
 * Then the same with every other iteration 30 kB, fewer segments than the
 * window holds after the cuts: the ACKs of those iterations arrive while
 * the application, not the window, limits the flow.  Linux neither grows
 * the window on them nor counts them towards its next increase, nor does
 * MLTCP's core; a stock algorithm that counted them would grow its window
 * a few ACKs earlier in the next large iteration than MLTCP at slope 0.
 */
#include <algorithm>
#include <string>
#include <vector>

#include "dumbbell.h"
#include "mltcp_core.h"
#include "tap.h"

using namespace mltcp_test;

namespace
{

constexpr uint64_t kIteration = 300000;

Dumbbell
TwoJobs(CcAlgo algo)
{
    Dumbbell d;
    Job job;

    d.ecn = CcAlgoUsesEcn(algo);
    job.algo = algo;
    job.period = MilliSeconds(200);
    job.bytes = {kIteration};
    d.duration = Seconds(2);
    d.jobs = {job, job};
    d.jobs[1].start = MilliSeconds(130);
    return d;
}

/* TwoJobs() with every other iteration of 30 kB, fewer segments than the cut windows hold. */
Dumbbell
AppLimitedJobs(CcAlgo algo)
{
    Dumbbell d = TwoJobs(algo);

    for (Job& job : d.jobs)
    {
        job.bytes.clear();
        for (int i = 0; i < 10; i++)
        {
            job.bytes.push_back(i % 2 ? 30000 : kIteration);
        }
    }
    return d;
}

/* Do @a and @b, flow by flow, have the same @what? */
template <class T>
bool
Same(const std::vector<FlowTrace>& a, const std::vector<FlowTrace>& b, T FlowTrace::*what)
{
    if (a.size() != b.size())
    {
        return false;
    }
    for (size_t i = 0; i < a.size(); i++)
    {
        if (a[i].*what != b[i].*what)
        {
            return false;
        }
    }
    return true;
}

uint32_t
LargestF(const std::vector<FlowTrace>& traces)
{
    uint32_t f = 0;

    for (const FlowTrace& t : traces)
    {
        f = std::max(f, MaxF(t));
    }
    return f;
}

void
Compare(Tap* tap, CcAlgo base, CcAlgo mltcp)
{
    std::string b = CcAlgoName(base);
    std::string m = CcAlgoName(mltcp);
    std::string err;
    std::vector<FlowTrace> stock;
    std::vector<FlowTrace> one;
    std::vector<FlowTrace> scaled;
    std::vector<FlowTrace> stockSmall;
    std::vector<FlowTrace> oneSmall;

    MltcpResetParams();
    stock = Run(TwoJobs(base));
    stockSmall = Run(AppLimitedJobs(base));
    if (!tap->Check(MltcpSetParam("slope", "0", &err), "\"set slope 0\" is taken"))
    {
        tap->Note(err);
    }
    one = Run(TwoJobs(mltcp));
    oneSmall = Run(AppLimitedJobs(mltcp));
    MltcpResetParams();
    scaled = Run(TwoJobs(mltcp));

    /* ten iterations each; what matters is that data moved */
    tap->Check(stock[0].delivered >= 5 * kIteration && stock[1].delivered >= 5 * kIteration,
               b + ": both jobs delivered at least half their bytes");
    tap->Check(Decreases(stock[0]) > 0 && Decreases(stock[1]) > 0,
               b + ": both windows were cut (the decrease path ran)");
    tap->Check(Same(stock, one, &FlowTrace::cwnd), m + " at slope 0: the windows of " + b + ", change for change");
    tap->Check(Same(stock, one, &FlowTrace::delivered), m + " at slope 0: the bytes delivered of " + b);
    tap->Check(LargestF(one) == MLTCP_Q10_ONE, m + " at slope 0: F stays 1");
    tap->Check(Decreases(stockSmall[0]) > 0 && Decreases(stockSmall[1]) > 0,
               b + ", every other iteration 30 kB: both windows were cut");
    tap->Check(Same(stockSmall, oneSmall, &FlowTrace::cwnd),
               m + " at slope 0, every other iteration 30 kB: the windows of " + b +
                   ", change for change (no increase counted while the window limits nothing)");
    tap->Check(!Same(stock, scaled, &FlowTrace::cwnd), m + " at the default slope: windows unlike " + b + "'s");
    tap->Check(LargestF(scaled) > MLTCP_Q10_ONE, m + " at the default slope: F rises above 1");
}

} // namespace

int
main()
{
    Tap tap;

    Compare(&tap, CcAlgo::RENO, CcAlgo::MLTCP_RENO);
    Compare(&tap, CcAlgo::CUBIC, CcAlgo::MLTCP_CUBIC);
    Compare(&tap, CcAlgo::DCTCP, CcAlgo::MLTCP_DCTCP);
    MltcpResetParams();
    return tap.Finish();
}
