/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two-tier leaf-spine (folded Clos) with per-flow ECMP over the spines.
 *
 *          [ spine0 ]   [ spine1 ]   ...   [ spine(S-1) ]
 *             |  \  \    /  |  \            /  /  |
 *             |   (every leaf has one uplink to every spine)
 *             |  /  /    \  |  /            \  \  |
 *          [ leaf0 ]    [ leaf1 ]    ...    [ leaf(L-1) ]
 *           /  |  \      /  |  \             /   |   \
 *        h0.0 ... h0.(H-1)  h1.0 ...       h(L-1).0 ... h(L-1).(H-1)
 *
 * An uplink runs at H x host rate / (oversubscription x S): with
 * oversubscription 1 a leaf's uplinks carry what its hosts can send, with 4
 * a quarter of it.  A flow between leaves takes the spine its source leaf's
 * hash picks (topology-routing.h); host g.i is host g*H + i, in group g.
 */
#ifndef MLTCP_SIM_TOPOLOGY_LEAF_SPINE_H
#define MLTCP_SIM_TOPOLOGY_LEAF_SPINE_H

#include "topology.h"

namespace ns3
{

class LeafSpineTopology : public Topology
{
  public:
    LeafSpineTopology(uint32_t leaves,
                      uint32_t hostsPerLeaf,
                      uint32_t spines,
                      double hostRateBps,
                      double oversubscription,
                      double hostDelayUs,
                      double fabricDelayUs);
    std::string Describe() const override;

  private:
    uint32_t m_leaves;
    uint32_t m_hostsPerLeaf;
    uint32_t m_spines;
    double m_oversubscription;
    double m_uplinkBps;
};

} // namespace ns3

#endif /* MLTCP_SIM_TOPOLOGY_LEAF_SPINE_H */
