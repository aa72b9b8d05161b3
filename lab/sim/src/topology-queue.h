/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A switch port that marks ECN the way DCTCP's switches do (RFC 8257): a
 * FIFO that marks CE on every ECN-capable packet arriving while at least
 * the step threshold of packets is queued, and drops only when the buffer
 * is full.
 *
 * ns-3's RED with UseEcn drops the packets it cannot mark (SYNs, pure ACKs,
 * retransmissions, which RFC 3168 sends without ECT) from the marking
 * threshold on, a few packets in; a flow whose retransmissions keep meeting
 * that queue backs its RTO off for seconds.
 */
#ifndef MLTCP_SIM_TOPOLOGY_QUEUE_H
#define MLTCP_SIM_TOPOLOGY_QUEUE_H

#include "ns3/queue-disc.h"

#include <cstdint>

namespace ns3
{

class StepMarkQueueDisc : public QueueDisc
{
  public:
    static TypeId GetTypeId();
    StepMarkQueueDisc();

    static constexpr const char* FULL_DROP = "Buffer full";
    static constexpr const char* STEP_MARK = "Above the step";

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    Ptr<const QueueDiscItem> DoPeek() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    uint32_t m_threshold; //!< packets queued from which arrivals are marked
};

} // namespace ns3

#endif /* MLTCP_SIM_TOPOLOGY_QUEUE_H */
