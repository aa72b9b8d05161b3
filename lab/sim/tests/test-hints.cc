// SPDX-License-Identifier: GPL-2.0
/*
 * An application's hints reach MLTCP's core, and the core's policy holds
 * in the simulator as in the kernel.
 *
 * One job alone on the dumbbell marks each iteration with its size, 400 kB
 * (MltcpHints::MarkIteration()), computes for 50 ms and sends: 400 kB, 400
 * kB, then 1.2 MB (three times what it declared), then 400 kB again.  F is
 * read every millisecond (MltcpHints::GetFQ10()):
 *  - in the first iteration the declared size has not been shown by a
 *    completed iteration: F is exactly 1 throughout;
 *  - from a mark until the first transmission after the compute gap the
 *    iteration has not earned F: exactly 1;
 *  - then, from the second iteration on, it ramps with the bytes acked,
 *    above 1;
 *  - past 5/4 of the declared size (the overrun bound) it is 1 again;
 *  - the marked iteration's first transmission restarts the window.
 * A job that only gives its size (SetIterationBytes()) gets F too, from
 * its second iteration on.
 */
#include <string>
#include <vector>

#include "dumbbell.h"
#include "mltcp_core.h"
#include "tap.h"

using namespace mltcp_test;

namespace
{

constexpr uint64_t kSize = 400000;

/* The samples of iteration @it taken while @p holds. */
template <class Pred>
std::vector<FSample>
Samples(const FlowTrace& t, int32_t it, Pred p)
{
    std::vector<FSample> out;

    for (const FSample& s : t.f)
    {
        if (s.iteration == it && p(s))
        {
            out.push_back(s);
        }
    }
    return out;
}

/* Iteration @it's samples while between @lo and @hi times kSize were acked. */
std::vector<FSample>
Acked(const FlowTrace& t, int32_t it, double lo, double hi)
{
    return Samples(t, it, [lo, hi](const FSample& s) {
        return s.sending && s.iterationAcked > lo * kSize && s.iterationAcked < hi * kSize;
    });
}

bool
AllF(const std::vector<FSample>& samples, bool (*ok)(uint32_t f))
{
    for (const FSample& s : samples)
    {
        if (!ok(s.f))
        {
            return false;
        }
    }
    return !samples.empty();
}

bool
IsOne(uint32_t f)
{
    return f == MLTCP_Q10_ONE;
}

bool
AboveOne(uint32_t f)
{
    return f > MLTCP_Q10_ONE;
}

/* The window just before @at (0 if none yet). */
uint32_t
CwndBefore(const FlowTrace& t, Time at)
{
    uint32_t cwnd = 0;

    for (const auto& c : t.cwnd)
    {
        if (c.first >= at.GetNanoSeconds())
        {
            break;
        }
        cwnd = c.second;
    }
    return cwnd;
}

/* Did the window go back to the initial window as data written at @at left? */
bool
RestartedAt(const FlowTrace& t, Time at)
{
    int64_t from = at.GetNanoSeconds();
    int64_t to = (at + MicroSeconds(10)).GetNanoSeconds();

    for (const auto& c : t.cwnd)
    {
        if (c.first >= from && c.first <= to && c.second == kInitialWindow)
        {
            return true;
        }
    }
    return false;
}

/*
 * Did every marked iteration after the first restart the window at its
 * first transmission, where the window was above the initial one?  (A
 * burst's tail can leave ns-3's PRR with less: then nothing restarts.)
 * @return false also when no iteration had a window to restart
 */
bool
Restarts(const FlowTrace& t)
{
    uint32_t restarted = 0;

    for (size_t k = 1; k < t.sendAt.size(); k++)
    {
        if (CwndBefore(t, t.sendAt[k]) <= kInitialWindow)
        {
            continue;
        }
        if (!RestartedAt(t, t.sendAt[k]))
        {
            return false;
        }
        restarted++;
    }
    return restarted > 0;
}

void
Marked(Tap* tap, CcAlgo algo)
{
    std::string name = CcAlgoName(algo);
    Dumbbell d;
    Job job;
    FlowTrace t;
    std::vector<FSample> ramp;

    job.algo = algo;
    job.start = MilliSeconds(500);
    job.period = MilliSeconds(400);
    job.compute = MilliSeconds(50);
    job.markBytes = kSize;
    job.bytes = {kSize, kSize, 3 * kSize, kSize};
    d.ecn = CcAlgoUsesEcn(algo);
    d.duration = MilliSeconds(2200);
    d.jobs = {job};
    MltcpResetParams();
    t = Run(d)[0];

    tap->Check(AllF(Samples(t, 0, [](const FSample& s) { return !s.sending; }), IsOne) &&
                   AllF(Samples(t, 1, [](const FSample& s) { return !s.sending; }), IsOne),
               name + ": from a mark to the end of its compute gap F is 1 (unearned)");
    tap->Check(AllF(Samples(t, 0, [](const FSample& s) { return s.sending; }), IsOne),
               name + ": the first iteration, its size not yet shown, has F = 1");
    tap->Check(AllF(Acked(t, 1, 0.2, 0.9), AboveOne) && AllF(Acked(t, 3, 0.2, 0.9), AboveOne),
               name + ": once the compute gap earned it, F is above 1");
    ramp = Acked(t, 1, 0.1, 0.9);
    tap->Check(ramp.size() >= 2 && ramp.back().f > ramp.front().f,
               name + ": F grows with the bytes acked");
    tap->Check(AllF(Acked(t, 2, 0.2, 0.9), AboveOne) && AllF(Acked(t, 2, 1.4, 2.8), IsOne),
               name + ": past 5/4 of its declared size an iteration has F = 1 (overrun)");
    tap->Check(Restarts(t), name + ": a marked iteration's first transmission restarts the window");
}

void
SizeOnly(Tap* tap, CcAlgo algo)
{
    Dumbbell d;
    Job job;
    FlowTrace t;

    job.algo = algo;
    job.sizeBytes = kSize;
    job.bytes = {kSize};
    d.ecn = CcAlgoUsesEcn(algo);
    d.duration = MilliSeconds(700);
    d.jobs = {job};
    MltcpResetParams();
    t = Run(d)[0];
    tap->Check(AllF(Acked(t, 0, 0.2, 0.9), IsOne) && AllF(Acked(t, 1, 0.2, 0.9), AboveOne),
               std::string(CcAlgoName(algo)) +
                   ": a size given without marks gives F above 1 once an iteration showed it");
}

} // namespace

int
main()
{
    Tap tap;

    for (CcAlgo algo : {CcAlgo::MLTCP_RENO, CcAlgo::MLTCP_CUBIC, CcAlgo::MLTCP_DCTCP})
    {
        Marked(&tap, algo);
        SizeOnly(&tap, algo);
    }
    return tap.Finish();
}
