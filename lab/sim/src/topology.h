/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A simulated network: its hosts, switches and directed links as a graph,
 * the path each flow takes, and the ns-3 network built from the graph.
 *
 * The graph exists before any ns-3 object does, so the path of a flow
 * (per-flow hashing over the equal-cost next hops, topology-routing.h) can
 * be computed without running anything: the centralized schedule and the
 * compat model's predictions use the same paths the packets then take.
 *
 * Every link is a point-to-point link, one queue per direction at the
 * sending end: a queue disc holding the buffer (tail drop, or marking ECN
 * above a step threshold, topology-queue.h, on switch ports; a host's queue
 * is a 1000-packet FIFO, Linux's default txqueuelen) above a one-packet
 * device queue, so that the queue disc is where packets wait and drop.
 */
#ifndef MLTCP_SIM_TOPOLOGY_H
#define MLTCP_SIM_TOPOLOGY_H

#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node-container.h"
#include "ns3/queue-disc.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/** How switch ports queue. */
struct QueueConfig
{
    bool ecn = false;                 //!< marking ECN above the threshold, else tail drop
    uint32_t bufferPackets = 100;     //!< switch port buffer
    uint32_t ecnThreshold = 20;       //!< packets queued from which arrivals are marked
    uint32_t hostQueuePackets = 1000; //!< a host NIC's buffer
    bool hostAcksFirst = false;       //!< hosts send pure ACKs ahead of data (host-queue.h)
};

/** A flow between two hosts, as the routing hashes it. */
struct FlowKey
{
    uint32_t srcHost;
    uint32_t dstHost;
    uint16_t srcPort;
    uint16_t dstPort;
};

/** Drop, mark and transmit counts of a link's queue after a run. */
struct LinkStats
{
    uint64_t drops = 0;
    uint64_t marks = 0;
    uint64_t txBytes = 0;
};

class Topology
{
  public:
    struct Vertex
    {
        std::string name;
        bool host;
        uint32_t group; //!< hosts: the switch or side they hang off (placement)
    };

    struct Link
    {
        uint32_t from;
        uint32_t to;
        double rateBps;
        double delayUs;
        uint32_t reverse; //!< the link in the other direction
        Ipv4Address fromAddr;
        Ipv4Address toAddr;
        std::string name;
    };

    virtual ~Topology() = default;

    /** @return a one-line description: kind and sizes. */
    virtual std::string Describe() const = 0;

    const std::vector<Vertex>& Vertices() const;
    const std::vector<Link>& Links() const;
    uint32_t NumHosts() const;
    uint32_t NumGroups() const;
    /** @return the graph node of host @host. */
    uint32_t HostNode(uint32_t host) const;
    /** @return the hosts of @group, in order. */
    std::vector<uint32_t> GroupHosts(uint32_t group) const;
    Ipv4Address HostAddress(uint32_t host) const;
    /** @return the host whose address is @addr, or -1. */
    int HostOfAddress(Ipv4Address addr) const;
    /** @return the host link's rate (every host has the same). */
    double HostRateBps() const;

    /**
     * The link a packet leaves @node by towards @dstHost: one of the
     * shortest paths' next links, chosen by @hash.
     */
    uint32_t NextLink(uint32_t node, uint32_t dstHost, uint32_t hash) const;
    /** @return the links a flow's data crosses, in order. */
    std::vector<uint32_t> Path(const FlowKey& flow) const;
    /** Salt every node's ECMP hash with @salt (0: the node alone), before Build(). */
    void SetEcmpSalt(uint32_t salt);
    /** @return the salt node @vertex hashes flows with. */
    uint32_t HashSalt(uint32_t vertex) const;
    /** @return the round-trip time of a full-sized packet and its ACK on an idle path, us. */
    double BaseRttUs(uint32_t srcHost, uint32_t dstHost) const;
    /** @return the largest BaseRttUs() between hosts of different groups. */
    double MaxBaseRttUs() const;

    /** Create the ns-3 nodes, links, queues and routing. Once per process. */
    void Build(const QueueConfig& queues);
    /** @return host @host's ns-3 node (after Build()). */
    Ptr<Node> HostNodePtr(uint32_t host) const;
    /** @return the counters of link @link's queue (after Build()). */
    LinkStats GetLinkStats(uint32_t link) const;

    /** For the routing: the graph node of an ns-3 node id, or -1. */
    int GraphNodeOfId(uint32_t nodeId) const;
    /** For the routing: the device link @link leaves by. */
    Ptr<NetDevice> LinkDevice(uint32_t link) const;

  protected:
    uint32_t AddNode(const std::string& name, bool host, uint32_t group);
    /** Add @perGroup hosts to each of @groups groups: host g.i is host g * perGroup + i. */
    void AddHostGroups(uint32_t groups, uint32_t perGroup);
    /** Add a link in each direction between @a and @b. */
    void AddDuplex(uint32_t a, uint32_t b, double rateBps, double delayUs);
    /** Addresses and shortest-path distances; call when the graph is complete. */
    void Finish();

  private:
    std::vector<Vertex> m_vertices;
    std::vector<Link> m_links;
    std::vector<std::vector<uint32_t>> m_out;  //!< out links per node
    std::vector<uint32_t> m_hostNode;          //!< graph node per host
    std::vector<std::vector<uint32_t>> m_dist; //!< [host][node] hops to the host
    std::map<uint32_t, uint32_t> m_hostOfAddr;
    uint32_t m_groups = 0;
    uint32_t m_ecmpSalt = 0;

    NodeContainer m_ns3Nodes;
    std::map<uint32_t, uint32_t> m_graphOfId;
    std::vector<Ptr<NetDevice>> m_dev;
    std::vector<Ptr<QueueDisc>> m_qdisc;
};

} // namespace ns3

#endif /* MLTCP_SIM_TOPOLOGY_H */
