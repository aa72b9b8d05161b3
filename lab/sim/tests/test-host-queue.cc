// SPDX-License-Identifier: GPL-2.0
/*
 * A host's egress with host_queue = acks_first (src/host-queue.h): a pure
 * ACK that arrives behind the host's data leaves before it, data leaves in
 * the order it came, and the buffer, both kinds together, drops only when
 * full.
 */
#include <string>
#include <vector>

#include "host-queue.h"
#include "tap.h"

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/packet.h"
#include "ns3/tcp-header.h"

using namespace ns3;
using namespace mltcp_test;

namespace
{

/* A TCP segment with @payload bytes of data, its sequence number @seq. */
Ptr<QueueDiscItem>
Segment(uint32_t payload, uint32_t seq)
{
    Ptr<Packet> p = Create<Packet>(payload);
    TcpHeader tcp;
    Ipv4Header ip;

    tcp.SetSequenceNumber(SequenceNumber32(seq));
    tcp.SetFlags(TcpHeader::ACK);
    p->AddHeader(tcp);
    ip.SetProtocol(6);
    ip.SetPayloadSize(p->GetSize());
    return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, ip);
}

/* The sequence numbers in the order the queue lets them out. */
std::vector<uint32_t>
Drain(Ptr<QueueDisc> q)
{
    std::vector<uint32_t> out;

    for (Ptr<QueueDiscItem> item = q->Dequeue(); item; item = q->Dequeue())
    {
        TcpHeader tcp;
        item->GetPacket()->PeekHeader(tcp);
        out.push_back(tcp.GetSequenceNumber().GetValue());
    }
    return out;
}

std::string
Text(const std::vector<uint32_t>& v)
{
    std::string s;

    for (uint32_t x : v)
    {
        s += (s.empty() ? "" : " ") + std::to_string(x);
    }
    return s;
}

} // namespace

int
main()
{
    Tap tap;
    Ptr<QueueDisc> q = CreateObjectWithAttributes<HostAcksFirstQueueDisc>(
        "MaxSize",
        QueueSizeValue(QueueSize("4p")));
    q->Initialize();

    // three data segments queue, then an ACK, a fourth segment would not fit
    q->Enqueue(Segment(1448, 1));
    q->Enqueue(Segment(1448, 2));
    q->Enqueue(Segment(1448, 3));
    q->Enqueue(Segment(0, 100));
    bool full = !q->Enqueue(Segment(1448, 4));
    tap.Check(full && q->GetStats().nTotalDroppedPackets == 1,
              "a full buffer drops the next arrival, ACKs and data counted together");

    std::vector<uint32_t> order = Drain(q);
    tap.Check(order == std::vector<uint32_t>{100, 1, 2, 3},
              "the ACK leaves first, the data in the order it came (" + Text(order) + ")");

    q->Enqueue(Segment(1448, 5));
    q->Enqueue(Segment(0, 101));
    q->Enqueue(Segment(1448, 6));
    q->Enqueue(Segment(0, 102));
    order = Drain(q);
    tap.Check(order == std::vector<uint32_t>{101, 102, 5, 6},
              "ACKs in their own order ahead of data (" + Text(order) + ")");
    return tap.Finish();
}
