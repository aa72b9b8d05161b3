/* SPDX-License-Identifier: GPL-2.0 */

#include "topology-leaf-spine.h"

#include <sstream>

namespace ns3
{

LeafSpineTopology::LeafSpineTopology(uint32_t leaves,
                                     uint32_t hostsPerLeaf,
                                     uint32_t spines,
                                     double hostRateBps,
                                     double oversubscription,
                                     double hostDelayUs,
                                     double fabricDelayUs)
    : m_leaves(leaves),
      m_hostsPerLeaf(hostsPerLeaf),
      m_spines(spines),
      m_oversubscription(oversubscription),
      m_uplinkBps(hostsPerLeaf * hostRateBps / (oversubscription * spines))
{
    AddHostGroups(leaves, hostsPerLeaf);
    uint32_t firstLeaf = NumHosts();
    for (uint32_t g = 0; g < leaves; g++)
    {
        AddNode("leaf" + std::to_string(g), false, g);
        for (uint32_t i = 0; i < hostsPerLeaf; i++)
        {
            AddDuplex(g * hostsPerLeaf + i, firstLeaf + g, hostRateBps, hostDelayUs);
        }
    }
    for (uint32_t s = 0; s < spines; s++)
    {
        uint32_t spine = AddNode("spine" + std::to_string(s), false, 0);
        for (uint32_t g = 0; g < leaves; g++)
        {
            AddDuplex(firstLeaf + g, spine, m_uplinkBps, fabricDelayUs);
        }
    }
    Finish();
}

std::string
LeafSpineTopology::Describe() const
{
    std::ostringstream os;
    os << "leaf-spine, " << m_leaves << " leaves x " << m_hostsPerLeaf << " hosts, " << m_spines
       << " spines, oversubscription " << m_oversubscription << ":1 (uplinks " << m_uplinkBps / 1e6
       << " Mbit/s, host links " << HostRateBps() / 1e6 << " Mbit/s)";
    return os.str();
}

} // namespace ns3
