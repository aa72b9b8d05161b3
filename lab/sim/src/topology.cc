/* SPDX-License-Identifier: GPL-2.0 */

#include "topology.h"

#include "job-profiles.h"
#include "topology-queue.h"
#include "topology-routing.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <deque>

namespace ns3
{

const std::vector<Topology::Vertex>&
Topology::Vertices() const
{
    return m_vertices;
}

const std::vector<Topology::Link>&
Topology::Links() const
{
    return m_links;
}

uint32_t
Topology::NumHosts() const
{
    return m_hostNode.size();
}

uint32_t
Topology::NumGroups() const
{
    return m_groups;
}

uint32_t
Topology::HostNode(uint32_t host) const
{
    return m_hostNode.at(host);
}

std::vector<uint32_t>
Topology::GroupHosts(uint32_t group) const
{
    std::vector<uint32_t> hosts;
    for (uint32_t h = 0; h < m_hostNode.size(); h++)
    {
        if (m_vertices[m_hostNode[h]].group == group)
        {
            hosts.push_back(h);
        }
    }
    return hosts;
}

Ipv4Address
Topology::HostAddress(uint32_t host) const
{
    return m_links[m_out[m_hostNode.at(host)].at(0)].fromAddr;
}

int
Topology::HostOfAddress(Ipv4Address addr) const
{
    auto it = m_hostOfAddr.find(addr.Get());
    return it == m_hostOfAddr.end() ? -1 : int(it->second);
}

double
Topology::HostRateBps() const
{
    return m_links[m_out[m_hostNode.at(0)].at(0)].rateBps;
}

uint32_t
Topology::AddNode(const std::string& name, bool host, uint32_t group)
{
    m_vertices.push_back({name, host, group});
    m_out.emplace_back();
    if (host)
    {
        m_hostNode.push_back(m_vertices.size() - 1);
        m_groups = std::max(m_groups, group + 1);
    }
    return m_vertices.size() - 1;
}

void
Topology::AddHostGroups(uint32_t groups, uint32_t perGroup)
{
    for (uint32_t g = 0; g < groups; g++)
    {
        for (uint32_t i = 0; i < perGroup; i++)
        {
            AddNode("h" + std::to_string(g) + "." + std::to_string(i), true, g);
        }
    }
}

void
Topology::AddDuplex(uint32_t a, uint32_t b, double rateBps, double delayUs)
{
    uint32_t ab = m_links.size();
    m_links.push_back(
        {a, b, rateBps, delayUs, ab + 1, {}, {}, m_vertices[a].name + ">" + m_vertices[b].name});
    m_links.push_back(
        {b, a, rateBps, delayUs, ab, {}, {}, m_vertices[b].name + ">" + m_vertices[a].name});
    m_out[a].push_back(ab);
    m_out[b].push_back(ab + 1);
}

void
Topology::Finish()
{
    // One /30 per cable from 10.0.0.0/8; the first address at the lower link's sender.
    for (uint32_t l = 0; l < m_links.size(); l += 2)
    {
        uint32_t net = (10u << 24) + 4 * (l / 2);
        m_links[l].fromAddr = Ipv4Address(net + 1);
        m_links[l].toAddr = Ipv4Address(net + 2);
        m_links[l + 1].fromAddr = Ipv4Address(net + 2);
        m_links[l + 1].toAddr = Ipv4Address(net + 1);
    }
    for (uint32_t h = 0; h < m_hostNode.size(); h++)
    {
        NS_ABORT_MSG_IF(m_out[m_hostNode[h]].size() != 1, "a host has exactly one link");
        m_hostOfAddr[HostAddress(h).Get()] = h;
    }
    // Hops from every node to every host, breadth first over the links into it.
    std::vector<std::vector<uint32_t>> in(m_vertices.size());
    for (uint32_t l = 0; l < m_links.size(); l++)
    {
        in[m_links[l].to].push_back(l);
    }
    m_dist.assign(m_hostNode.size(), std::vector<uint32_t>(m_vertices.size(), UINT32_MAX));
    for (uint32_t h = 0; h < m_hostNode.size(); h++)
    {
        std::vector<uint32_t>& dist = m_dist[h];
        std::deque<uint32_t> todo{m_hostNode[h]};
        dist[m_hostNode[h]] = 0;
        while (!todo.empty())
        {
            uint32_t v = todo.front();
            todo.pop_front();
            for (uint32_t l : in[v])
            {
                uint32_t u = m_links[l].from;
                if (dist[u] == UINT32_MAX)
                {
                    dist[u] = dist[v] + 1;
                    if (!m_vertices[u].host) // a path runs through no other host
                    {
                        todo.push_back(u);
                    }
                }
            }
        }
    }
}

uint32_t
Topology::NextLink(uint32_t node, uint32_t dstHost, uint32_t hash) const
{
    const std::vector<uint32_t>& dist = m_dist.at(dstHost);
    uint32_t candidates[64];
    uint32_t n = 0;
    for (uint32_t l : m_out[node])
    {
        uint32_t to = m_links[l].to;
        if (dist[node] != UINT32_MAX && dist[to] + 1 == dist[node] && n < 64)
        {
            candidates[n++] = l;
        }
    }
    NS_ABORT_MSG_IF(n == 0, "no path from " << m_vertices[node].name << " to host " << dstHost);
    return candidates[hash % n];
}

std::vector<uint32_t>
Topology::Path(const FlowKey& flow) const
{
    std::vector<uint32_t> path;
    Ipv4Address src = HostAddress(flow.srcHost);
    Ipv4Address dst = HostAddress(flow.dstHost);
    uint32_t v = m_hostNode.at(flow.srcHost);
    while (v != m_hostNode.at(flow.dstHost))
    {
        uint32_t hash = FlowHash(src, dst, flow.srcPort, flow.dstPort, 6, HashSalt(v));
        uint32_t l = NextLink(v, flow.dstHost, hash);
        path.push_back(l);
        v = m_links[l].to;
    }
    return path;
}

void
Topology::SetEcmpSalt(uint32_t salt)
{
    m_ecmpSalt = salt;
}

uint32_t
Topology::HashSalt(uint32_t vertex) const
{
    // FlowHash() keeps a salt's low 24 bits; graphs have far fewer than 4096 nodes
    return vertex + (m_ecmpSalt << 12);
}

double
Topology::BaseRttUs(uint32_t srcHost, uint32_t dstHost) const
{
    double us = 0;
    for (uint32_t l : Path({srcHost, dstHost, 0, 0}))
    {
        // a full-sized packet out, a 66-byte ACK back (TCP with timestamps, IPv4, PPP)
        us += 2 * m_links[l].delayUs + (kSimWireBytes + 66) * 8e6 / m_links[l].rateBps;
    }
    return us;
}

double
Topology::MaxBaseRttUs() const
{
    if (m_groups < 2)
    {
        return NumHosts() < 2 ? 0 : BaseRttUs(0, 1);
    }
    double rtt = 0;
    for (uint32_t g = 0; g < m_groups; g++)
    {
        for (uint32_t k = 0; k < m_groups; k++)
        {
            std::vector<uint32_t> a = GroupHosts(g);
            std::vector<uint32_t> b = GroupHosts(k);
            if (g != k && !a.empty() && !b.empty())
            {
                rtt = std::max(rtt, BaseRttUs(a[0], b[0]));
            }
        }
    }
    return rtt;
}

void
Topology::Build(const QueueConfig& queues)
{
    NS_ABORT_MSG_IF(m_ns3Nodes.GetN() != 0, "a topology is built once");
    m_ns3Nodes.Create(m_vertices.size());
    for (uint32_t v = 0; v < m_vertices.size(); v++)
    {
        m_graphOfId[m_ns3Nodes.Get(v)->GetId()] = v;
    }
    InternetStackHelper stack;
    FlowHashRoutingHelper routing(this);
    stack.SetRoutingHelper(routing);
    stack.Install(m_ns3Nodes);

    m_dev.resize(m_links.size());
    m_qdisc.resize(m_links.size());
    for (uint32_t l = 0; l < m_links.size(); l += 2)
    {
        const Link& link = m_links[l];
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(link.rateBps))));
        p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(int64_t(link.delayUs * 1000))));
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("1p")));
        NetDeviceContainer devs = p2p.Install(m_ns3Nodes.Get(link.from), m_ns3Nodes.Get(link.to));
        for (uint32_t dir = 0; dir < 2; dir++)
        {
            const Link& d = m_links[l + dir];
            Ptr<NetDevice> dev = devs.Get(dir);
            m_dev[l + dir] = dev;

            TrafficControlHelper tc;
            if (m_vertices[d.from].host)
            {
                tc.SetRootQueueDisc(
                    queues.hostAcksFirst ? "ns3::MltcpSimHostAcksFirstQueueDisc"
                                         : "ns3::FifoQueueDisc",
                    "MaxSize",
                    QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queues.hostQueuePackets)));
            }
            else if (queues.ecn)
            {
                tc.SetRootQueueDisc(
                    "ns3::MltcpSimStepMarkQueueDisc",
                    "MaxSize",
                    QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queues.bufferPackets)),
                    "MarkThreshold",
                    UintegerValue(queues.ecnThreshold));
            }
            else
            {
                tc.SetRootQueueDisc(
                    "ns3::FifoQueueDisc",
                    "MaxSize",
                    QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queues.bufferPackets)));
            }
            m_qdisc[l + dir] = tc.Install(dev).Get(0);

            Ptr<Ipv4> ipv4 = m_ns3Nodes.Get(d.from)->GetObject<Ipv4>();
            int32_t ifIndex = ipv4->AddInterface(dev);
            ipv4->AddAddress(ifIndex,
                             Ipv4InterfaceAddress(d.fromAddr, Ipv4Mask("255.255.255.252")));
            ipv4->SetMetric(ifIndex, 1);
            ipv4->SetUp(ifIndex);
        }
    }
}

Ptr<Node>
Topology::HostNodePtr(uint32_t host) const
{
    return m_ns3Nodes.Get(m_hostNode.at(host));
}

LinkStats
Topology::GetLinkStats(uint32_t link) const
{
    LinkStats s;
    const QueueDisc::Stats& q = m_qdisc.at(link)->GetStats();
    s.drops = q.nTotalDroppedPackets;
    s.marks = q.nTotalMarkedPackets;
    s.txBytes = q.nTotalSentBytes;
    Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(m_dev.at(link));
    if (dev)
    {
        s.drops += dev->GetQueue()->GetTotalDroppedPackets();
    }
    return s;
}

int
Topology::GraphNodeOfId(uint32_t nodeId) const
{
    auto it = m_graphOfId.find(nodeId);
    return it == m_graphOfId.end() ? -1 : int(it->second);
}

Ptr<NetDevice>
Topology::LinkDevice(uint32_t link) const
{
    return m_dev.at(link);
}

} // namespace ns3
