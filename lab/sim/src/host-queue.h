/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A host's egress as a Linux host serves it: a connection's pure ACKs go out
 * ahead of the data the host is sending on its other connections
 * (host_queue = acks_first).
 *
 * Debian's hosts run fq_codel (systemd's default qdisc), where a connection
 * that only ACKs is a sparse flow served before the backlogged ones, and TCP
 * small queues keep a sender's data in its socket rather than the qdisc.
 * ns-3 has neither: behind a plain FIFO a ring's ACKs, or a server's, wait
 * for the host's own data, and every RTT sample of the connection they
 * acknowledge carries that wait.  Without AQM: the buffer drops only when
 * full, as the FIFO does.
 */
#ifndef MLTCP_SIM_HOST_QUEUE_H
#define MLTCP_SIM_HOST_QUEUE_H

#include "ns3/queue-disc.h"

namespace ns3
{

class HostAcksFirstQueueDisc : public QueueDisc
{
  public:
    static TypeId GetTypeId();
    HostAcksFirstQueueDisc();

    static constexpr const char* FULL_DROP = "Buffer full";

  private:
    /* the internal queues: pure ACKs (and other segments without data), data */
    enum Band : uint32_t
    {
        BAND_ACKS = 0,
        BAND_DATA = 1,
    };

    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;
};

} // namespace ns3

#endif /* MLTCP_SIM_HOST_QUEUE_H */
