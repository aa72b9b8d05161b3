// SPDX-License-Identifier: GPL-2.0
/*
 * MLTCP's congestion controls in ns-3: their registration with ns-3's
 * TypeId system (the algorithms are mltcp-congestion.h's template).
 */
#include "mltcp-congestion.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MltcpReno);
NS_OBJECT_ENSURE_REGISTERED(MltcpCubic);
NS_OBJECT_ENSURE_REGISTERED(MltcpDctcp);

} // namespace ns3
