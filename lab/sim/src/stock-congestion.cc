// SPDX-License-Identifier: GPL-2.0
/*
 * The stock congestion controls as Linux runs them: their registration with
 * ns-3's TypeId system (the algorithms are stock-congestion.h's template).
 */
#include "stock-congestion.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(StockReno);
NS_OBJECT_ENSURE_REGISTERED(StockCubic);
NS_OBJECT_ENSURE_REGISTERED(StockDctcp);

} // namespace ns3
