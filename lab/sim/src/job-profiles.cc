/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The built-in profiles and their scaling.
 *
 * Figures come from the MLTCP papers as /work/shared/DESIGN.md and
 * docs/DESIGN.md quote them: VGG16's iteration (255 ms, of which 141 ms
 * compute) and HotNets'22 Table 1, which gives iteration times of job
 * pairs and triples under fair and under unfair (interleaving) DCQCN.  For
 * a compatible job the interleaved time is taken as its time alone.  Where
 * a pair of identical jobs is in the table, fair sharing of two fully
 * overlapping phases doubles the communication, so the communication time
 * is the difference between the fair and the interleaved time.  Where the
 * papers give no split between compute and communication, the share the
 * lab's emulator profiles (lab/grids/profiles/) chose for the same job is
 * used, and the source says so.
 */

#include "job-profiles.h"

namespace ns3
{

bool
ParseCommPattern(const std::string& name, CommPattern* pattern)
{
    if (name == "ring")
    {
        *pattern = CommPattern::RING;
    }
    else if (name == "ps")
    {
        *pattern = CommPattern::PS;
    }
    else if (name == "push")
    {
        *pattern = CommPattern::PUSH;
    }
    else
    {
        return false;
    }
    return true;
}

const char*
CommPatternName(CommPattern pattern)
{
    switch (pattern)
    {
    case CommPattern::RING:
        return "ring";
    case CommPattern::PS:
        return "ps";
    case CommPattern::PUSH:
        return "push";
    }
    return "?";
}

double
JobProfile::IterationMs() const
{
    double ms = 0;
    for (const auto& s : segments)
    {
        ms += s.computeMs + s.commMs;
    }
    return ms;
}

double
JobProfile::CommShare() const
{
    double comm = 0;
    for (const auto& s : segments)
    {
        comm += s.commMs;
    }
    return comm / IterationMs();
}

static std::vector<ProfileSegment>
Hybrid(double firstComputeMs, double gapMs, double commMs, int phases)
{
    std::vector<ProfileSegment> segs;
    segs.push_back({firstComputeMs, commMs});
    for (int i = 1; i < phases; i++)
    {
        segs.push_back({gapMs, commMs});
    }
    return segs;
}

const std::vector<JobProfile>&
BuiltinProfiles()
{
    static const std::vector<JobProfile> profiles = {
        {"vgg16",
         CommPattern::RING,
         4,
         {{141, 114}},
         "iteration 255 ms, the first 141 ms compute (MLTCP paper, DESIGN.md)"},
        {"vgg19",
         CommPattern::RING,
         4,
         {{182, 147}},
         "iteration 329 ms: VGG19(1400) interleaved in the compatible triple of HotNets'22 "
         "Table 1 (389 -> 329 ms); compute share 141/255 taken from VGG16, the same "
         "architecture family (assumed)"},
        {"resnet50",
         CommPattern::RING,
         4,
         {{122, 43}},
         "iteration 165 ms: ResNet50(1600) in the same triple (167 -> 165 ms, nearly "
         "unaffected); communication 26% as in lab/grids/profiles/vgg19-vgg16-resnet50.conf "
         "(assumed)"},
        {"bert",
         CommPattern::RING,
         4,
         {{67, 90}},
         "iteration 157 ms: BERT(8) with the unfairness in its favour, HotNets'22 Table 1 "
         "(183 -> 157 ms, incompatible with VGG19); communication 57% as in "
         "lab/grids/profiles/incompatible-bert-vgg19.conf (assumed)"},
        {"dlrm",
         CommPattern::PS,
         4,
         {{701, 300}},
         "iteration 1001 ms: DLRM+DLRM, HotNets'22 Table 1 (1301 -> 1001 ms); communication "
         "1301 - 1001 = 300 ms (two identical phases fully overlapped take twice as long "
         "under fair sharing); parameter server is this simulator's choice of pattern"},
        {"wrn",
         CommPattern::RING,
         4,
         {{177, 96}},
         "iteration 273 ms: WideResNet(800)+VGG16(1400), HotNets'22 Table 1 (295 -> 273 ms); "
         "communication 35% as in lab/grids/profiles/wrn-vgg16.conf (assumed)"},
        {"gpt",
         CommPattern::RING,
         4,
         Hybrid(60, 20, 20, 6),
         "hybrid parallel, six communication phases per iteration (GPT-3, DESIGN.md); "
         "60 ms compute, then six 20 ms phases 20 ms apart as in "
         "lab/grids/profiles/gpt3-model-parallel.conf (assumed): iteration 280 ms"},
    };
    return profiles;
}

const JobProfile*
FindProfile(const std::string& name)
{
    for (const auto& p : BuiltinProfiles())
    {
        if (p.name == name)
        {
            return &p;
        }
    }
    return nullptr;
}

double
GoodputBps(double rateBps)
{
    return rateBps * kSimMss / kSimWireBytes;
}

ScaledProfile
ScaleProfile(const JobProfile& profile, double hostRateBps, double timeScale)
{
    ScaledProfile scaled;
    double bytesPerMs = GoodputBps(hostRateBps) / 8 / 1000;
    for (const auto& s : profile.segments)
    {
        SimSegment seg;
        seg.computeMs = s.computeMs * timeScale;
        seg.commBytes = s.commMs * timeScale * bytesPerMs;
        scaled.segments.push_back(seg);
        scaled.idealMs += seg.computeMs + s.commMs * timeScale;
    }
    return scaled;
}

} // namespace ns3
