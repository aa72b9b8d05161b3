/* SPDX-License-Identifier: GPL-2.0 */

#include "host-queue.h"

#include "ns3/drop-tail-queue.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/tcp-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(HostAcksFirstQueueDisc);

TypeId
HostAcksFirstQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MltcpSimHostAcksFirstQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("TrafficControl")
            .AddConstructor<HostAcksFirstQueueDisc>()
            .AddAttribute("MaxSize",
                          "The buffer, in packets, both bands together",
                          QueueSizeValue(QueueSize("1000p")),
                          MakeQueueSizeAccessor(&QueueDisc::SetMaxSize, &QueueDisc::GetMaxSize),
                          MakeQueueSizeChecker());
    return tid;
}

HostAcksFirstQueueDisc::HostAcksFirstQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::MULTIPLE_QUEUES, QueueSizeUnit::PACKETS)
{
}

bool
HostAcksFirstQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    Ptr<const Packet> p = item->GetPacket();
    TcpHeader tcp;
    uint32_t band = BAND_DATA;

    if (GetCurrentSize() + item > GetMaxSize())
    {
        DropBeforeEnqueue(item, FULL_DROP);
        return false;
    }
    // the queue disc sees the packet below its IP header: a TCP segment
    // whose header is all of it carries no data
    if (p->PeekHeader(tcp) && p->GetSize() == tcp.GetSerializedSize())
    {
        band = BAND_ACKS;
    }
    return GetInternalQueue(band)->Enqueue(item);
}

Ptr<QueueDiscItem>
HostAcksFirstQueueDisc::DoDequeue()
{
    Ptr<QueueDiscItem> item = GetInternalQueue(BAND_ACKS)->Dequeue();

    return item ? item : GetInternalQueue(BAND_DATA)->Dequeue();
}

bool
HostAcksFirstQueueDisc::CheckConfig()
{
    if (GetNQueueDiscClasses() > 0 || GetNPacketFilters() > 0)
    {
        return false;
    }
    while (GetNInternalQueues() < 2)
    {
        AddInternalQueue(
            CreateObjectWithAttributes<DropTailQueue<QueueDiscItem>>("MaxSize",
                                                                     QueueSizeValue(GetMaxSize())));
    }
    return GetNInternalQueues() == 2;
}

void
HostAcksFirstQueueDisc::InitializeParams()
{
}

} // namespace ns3
