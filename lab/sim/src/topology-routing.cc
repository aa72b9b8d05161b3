/* SPDX-License-Identifier: GPL-2.0 */

#include "topology-routing.h"

#include "topology.h"

#include "ns3/abort.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FlowHashRouting);

static uint64_t
Mix64(uint64_t x)
{
    // splitmix64's finaliser: every input bit reaches every output bit
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

uint32_t
FlowHash(Ipv4Address src,
         Ipv4Address dst,
         uint16_t srcPort,
         uint16_t dstPort,
         uint8_t protocol,
         uint32_t salt)
{
    uint64_t a = (uint64_t(src.Get()) << 32) | dst.Get();
    uint64_t b = (uint64_t(srcPort) << 32) | (uint64_t(dstPort) << 16) | protocol;
    uint64_t h = Mix64(a ^ Mix64(b ^ (uint64_t(salt) << 40) ^ 0x9e3779b97f4a7c15ULL));
    return uint32_t(h >> 32);
}

TypeId
FlowHashRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MltcpSimFlowHashRouting")
                            .SetParent<Ipv4RoutingProtocol>()
                            .SetGroupName("Internet");
    return tid;
}

FlowHashRouting::FlowHashRouting(const Topology* topology, uint32_t vertex)
    : m_topology(topology),
      m_vertex(vertex)
{
}

Ptr<Ipv4Route>
FlowHashRouting::Lookup(Ptr<const Packet> p, const Ipv4Header& header) const
{
    int dstHost = m_topology->HostOfAddress(header.GetDestination());
    if (dstHost < 0)
    {
        return nullptr;
    }
    // The IP header is off the packet here: TCP and UDP start with the ports.
    uint16_t srcPort = 0;
    uint16_t dstPort = 0;
    if (p && p->GetSize() >= 4)
    {
        uint8_t buf[4];
        p->CopyData(buf, 4);
        srcPort = uint16_t((buf[0] << 8) | buf[1]);
        dstPort = uint16_t((buf[2] << 8) | buf[3]);
    }
    uint32_t hash = FlowHash(header.GetSource(),
                             header.GetDestination(),
                             srcPort,
                             dstPort,
                             header.GetProtocol(),
                             m_topology->HashSalt(m_vertex));
    uint32_t link = m_topology->NextLink(m_vertex, uint32_t(dstHost), hash);
    const Topology::Link& l = m_topology->Links()[link];
    Ptr<Ipv4Route> route = Create<Ipv4Route>();
    route->SetDestination(header.GetDestination());
    route->SetSource(l.fromAddr);
    route->SetGateway(l.toAddr);
    route->SetOutputDevice(m_topology->LinkDevice(link));
    return route;
}

Ptr<Ipv4Route>
FlowHashRouting::RouteOutput(Ptr<Packet> p,
                             const Ipv4Header& header,
                             Ptr<NetDevice> /* oif */,
                             Socket::SocketErrno& sockerr)
{
    Ptr<Ipv4Route> route = Lookup(p, header);
    sockerr = route ? Socket::ERROR_NOTERROR : Socket::ERROR_NOROUTETOHOST;
    return route;
}

bool
FlowHashRouting::RouteInput(Ptr<const Packet> p,
                            const Ipv4Header& header,
                            Ptr<const NetDevice> idev,
                            UnicastForwardCallback ucb,
                            MulticastForwardCallback /* mcb */,
                            LocalDeliverCallback lcb,
                            ErrorCallback ecb)
{
    uint32_t iif = m_ipv4->GetInterfaceForDevice(idev);
    if (m_ipv4->IsDestinationAddress(header.GetDestination(), iif))
    {
        if (!lcb.IsNull())
        {
            lcb(p, header, iif);
            return true;
        }
        return false;
    }
    Ptr<Ipv4Route> route = Lookup(p, header);
    if (!route)
    {
        ecb(p, header, Socket::ERROR_NOROUTETOHOST);
        return true;
    }
    ucb(route, p, header);
    return true;
}

// The routes come from the Topology, not from the interfaces' addresses.
void
FlowHashRouting::NotifyInterfaceUp(uint32_t)
{
}

void
FlowHashRouting::NotifyInterfaceDown(uint32_t)
{
}

void
FlowHashRouting::NotifyAddAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
FlowHashRouting::NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
FlowHashRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
}

void
FlowHashRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit) const
{
    *stream->GetStream() << "vertex " << m_vertex << ": per-flow hash over shortest paths\n";
}

FlowHashRoutingHelper::FlowHashRoutingHelper(const Topology* topology)
    : m_topology(topology)
{
}

FlowHashRoutingHelper*
FlowHashRoutingHelper::Copy() const
{
    return new FlowHashRoutingHelper(*this);
}

Ptr<Ipv4RoutingProtocol>
FlowHashRoutingHelper::Create(Ptr<Node> node) const
{
    int vertex = m_topology->GraphNodeOfId(node->GetId());
    NS_ABORT_MSG_IF(vertex < 0, "node " << node->GetId() << " is not in the topology");
    return CreateObject<FlowHashRouting>(m_topology, uint32_t(vertex));
}

} // namespace ns3
