/* SPDX-License-Identifier: GPL-2.0 */

#include "topology-dumbbell.h"

#include <sstream>

namespace ns3
{

DumbbellTopology::DumbbellTopology(uint32_t pairs,
                                   double hostRateBps,
                                   double bottleneckBps,
                                   double hostDelayUs,
                                   double bottleneckDelayUs)
    : m_pairs(pairs),
      m_bottleneckBps(bottleneckBps)
{
    for (uint32_t i = 0; i < pairs; i++)
    {
        AddNode("l" + std::to_string(i), true, 0);
    }
    for (uint32_t i = 0; i < pairs; i++)
    {
        AddNode("r" + std::to_string(i), true, 1);
    }
    uint32_t left = AddNode("left", false, 0);
    uint32_t right = AddNode("right", false, 0);
    AddDuplex(left, right, bottleneckBps, bottleneckDelayUs);
    for (uint32_t i = 0; i < pairs; i++)
    {
        AddDuplex(i, left, hostRateBps, hostDelayUs);
        AddDuplex(pairs + i, right, hostRateBps, hostDelayUs);
    }
    Finish();
}

std::string
DumbbellTopology::Describe() const
{
    std::ostringstream os;
    os << "dumbbell, " << m_pairs << " hosts a side, bottleneck " << m_bottleneckBps / 1e6
       << " Mbit/s, host links " << HostRateBps() / 1e6 << " Mbit/s";
    return os.str();
}

} // namespace ns3
