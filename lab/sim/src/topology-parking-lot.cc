/* SPDX-License-Identifier: GPL-2.0 */

#include "topology-parking-lot.h"

#include <sstream>

namespace ns3
{

ParkingLotTopology::ParkingLotTopology(uint32_t switches,
                                       uint32_t hostsPerSwitch,
                                       double hostRateBps,
                                       double trunkBps,
                                       double hostDelayUs,
                                       double trunkDelayUs)
    : m_switches(switches),
      m_hostsPerSwitch(hostsPerSwitch),
      m_trunkBps(trunkBps)
{
    AddHostGroups(switches, hostsPerSwitch);
    uint32_t first = NumHosts();
    for (uint32_t g = 0; g < switches; g++)
    {
        AddNode("s" + std::to_string(g), false, g);
        if (g > 0)
        {
            AddDuplex(first + g - 1, first + g, trunkBps, trunkDelayUs);
        }
        for (uint32_t i = 0; i < hostsPerSwitch; i++)
        {
            AddDuplex(g * hostsPerSwitch + i, first + g, hostRateBps, hostDelayUs);
        }
    }
    Finish();
}

std::string
ParkingLotTopology::Describe() const
{
    std::ostringstream os;
    os << "parking lot, " << m_switches << " switches of " << m_hostsPerSwitch << " hosts, trunks "
       << m_trunkBps / 1e6 << " Mbit/s, host links " << HostRateBps() / 1e6 << " Mbit/s";
    return os.str();
}

} // namespace ns3
