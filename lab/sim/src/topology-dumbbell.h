/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dumbbell: N hosts on each side of one bottleneck, the guest bench's
 * router topology (lab/emulator/README.md), for the cross-check.
 *
 *     l0 --\                                      /-- r0
 *     l1 ---[ left ]==========================[ right ]--- r1
 *     ...  /     queue of left>right: the      \  ...
 *     lN-1       bottleneck (tail drop or ECN)   r(N-1)
 *
 * Hosts l0..l(N-1) are hosts 0..N-1 (group 0), r0..r(N-1) hosts N..2N-1
 * (group 1).  Host links run at the host rate, the link between the
 * switches at the bottleneck rate.
 */
#ifndef MLTCP_SIM_TOPOLOGY_DUMBBELL_H
#define MLTCP_SIM_TOPOLOGY_DUMBBELL_H

#include "topology.h"

namespace ns3
{

class DumbbellTopology : public Topology
{
  public:
    DumbbellTopology(uint32_t pairs,
                     double hostRateBps,
                     double bottleneckBps,
                     double hostDelayUs,
                     double bottleneckDelayUs);
    std::string Describe() const override;

  private:
    uint32_t m_pairs;
    double m_bottleneckBps;
};

} // namespace ns3

#endif /* MLTCP_SIM_TOPOLOGY_DUMBBELL_H */
