/* SPDX-License-Identifier: GPL-2.0 */

#include "topology-queue.h"

#include "ns3/drop-tail-queue.h"
#include "ns3/object-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(StepMarkQueueDisc);

TypeId
StepMarkQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MltcpSimStepMarkQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("TrafficControl")
            .AddConstructor<StepMarkQueueDisc>()
            .AddAttribute("MaxSize",
                          "The buffer, in packets",
                          QueueSizeValue(QueueSize("100p")),
                          MakeQueueSizeAccessor(&QueueDisc::SetMaxSize, &QueueDisc::GetMaxSize),
                          MakeQueueSizeChecker())
            .AddAttribute("MarkThreshold",
                          "Packets queued from which arriving ECN-capable packets are marked",
                          UintegerValue(20),
                          MakeUintegerAccessor(&StepMarkQueueDisc::m_threshold),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

StepMarkQueueDisc::StepMarkQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE, QueueSizeUnit::PACKETS),
      m_threshold(20)
{
}

bool
StepMarkQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    if (GetCurrentSize() + item > GetMaxSize())
    {
        DropBeforeEnqueue(item, FULL_DROP);
        return false;
    }
    if (GetCurrentSize().GetValue() >= m_threshold)
    {
        // a packet that is not ECN-capable passes unmarked: only a full buffer drops
        Mark(item, STEP_MARK);
    }
    return GetInternalQueue(0)->Enqueue(item);
}

Ptr<QueueDiscItem>
StepMarkQueueDisc::DoDequeue()
{
    return GetInternalQueue(0)->Dequeue();
}

Ptr<const QueueDiscItem>
StepMarkQueueDisc::DoPeek()
{
    return GetInternalQueue(0)->Peek();
}

bool
StepMarkQueueDisc::CheckConfig()
{
    if (GetNQueueDiscClasses() > 0 || GetNPacketFilters() > 0)
    {
        return false;
    }
    if (GetNInternalQueues() == 0)
    {
        AddInternalQueue(
            CreateObjectWithAttributes<DropTailQueue<QueueDiscItem>>("MaxSize",
                                                                     QueueSizeValue(GetMaxSize())));
    }
    return GetNInternalQueues() == 1;
}

void
StepMarkQueueDisc::InitializeParams()
{
}

} // namespace ns3
