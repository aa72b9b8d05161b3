/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-flow ECMP: every node forwards a packet over one of its next links on
 * a shortest path to the destination host, chosen by a hash of the
 * packet's addresses, ports and protocol salted with the node, as switches
 * hash flows.  A flow keeps its path, so TCP sees no reordering (ns-3's
 * RandomEcmpRouting picks a path per packet), and Topology::Path() knows
 * the path before the packet is sent.
 */
#ifndef MLTCP_SIM_TOPOLOGY_ROUTING_H
#define MLTCP_SIM_TOPOLOGY_ROUTING_H

#include "ns3/ipv4-routing-helper.h"
#include "ns3/ipv4-routing-protocol.h"

#include <cstdint>

namespace ns3
{

class Topology;

/** @return the hash a node @salt computes for a packet of this flow. */
uint32_t FlowHash(Ipv4Address src,
                  Ipv4Address dst,
                  uint16_t srcPort,
                  uint16_t dstPort,
                  uint8_t protocol,
                  uint32_t salt);

class FlowHashRouting : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId();
    FlowHashRouting(const Topology* topology, uint32_t vertex);

    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb,
                    ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  private:
    /** @return the route for @header's destination, or null when it is no host. */
    Ptr<Ipv4Route> Lookup(Ptr<const Packet> p, const Ipv4Header& header) const;

    const Topology* m_topology;
    uint32_t m_vertex;
    Ptr<Ipv4> m_ipv4;
};

/** Installs FlowHashRouting on the nodes of a Topology. */
class FlowHashRoutingHelper : public Ipv4RoutingHelper
{
  public:
    explicit FlowHashRoutingHelper(const Topology* topology);
    FlowHashRoutingHelper* Copy() const override;
    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node> node) const override;

  private:
    const Topology* m_topology;
};

} // namespace ns3

#endif /* MLTCP_SIM_TOPOLOGY_ROUTING_H */
