/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the simulator's congestion controls share as ns-3 objects: each is
 * an ns-3 algorithm @p Base wrapped by a template, and named by the class
 * @p Self that instantiates it (its kName): its TypeId and its Fork.
 */
#ifndef MLTCP_SIM_NAMED_CONGESTION_H
#define MLTCP_SIM_NAMED_CONGESTION_H

#include <string>

#include "ns3/tcp-congestion-ops.h"

namespace ns3
{

template <class Self, class Base>
class NamedCongestion : public Base
{
  public:
    /** @return the TypeId "ns3::" Self::kName, a @p Base */
    static TypeId GetTypeId()
    {
        static TypeId tid = MakeTypeId();
        return tid;
    }

    /** The socket's fork (a listener's accepted connection) gets a copy. */
    Ptr<TcpCongestionOps> Fork() override
    {
        return CopyObject<Self>(static_cast<Self*>(this));
    }

  private:
    static TypeId MakeTypeId()
    {
        TypeId tid(std::string("ns3::") + Self::kName);

        tid.SetParent<Base>();
        tid.SetGroupName("Mltcp");
        tid.AddConstructor<Self>();
        return tid;
    }
};

} // namespace ns3

#endif /* MLTCP_SIM_NAMED_CONGESTION_H */
