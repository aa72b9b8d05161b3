/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parking lot: a chain of switches, hosts on each; a flow from one end to
 * the other crosses every trunk, flows between neighbours cross one.  The
 * case where a job meets different jobs on different links, so one start
 * shift has to suit several links at once.
 *
 *     h0.*       h1.*       h2.*             h(K-1).*
 *      |          |          |                  |
 *    [ s0 ]=====[ s1 ]=====[ s2 ]==  ...  ==[ s(K-1) ]
 *         trunk 0    trunk 1                (trunks: the bottlenecks)
 *
 * Hosts hang off switch s<g> in group g, host g.i is host g*H + i.
 */
#ifndef MLTCP_SIM_TOPOLOGY_PARKING_LOT_H
#define MLTCP_SIM_TOPOLOGY_PARKING_LOT_H

#include "topology.h"

namespace ns3
{

class ParkingLotTopology : public Topology
{
  public:
    ParkingLotTopology(uint32_t switches,
                       uint32_t hostsPerSwitch,
                       double hostRateBps,
                       double trunkBps,
                       double hostDelayUs,
                       double trunkDelayUs);
    std::string Describe() const override;

  private:
    uint32_t m_switches;
    uint32_t m_hostsPerSwitch;
    double m_trunkBps;
};

} // namespace ns3

#endif /* MLTCP_SIM_TOPOLOGY_PARKING_LOT_H */
