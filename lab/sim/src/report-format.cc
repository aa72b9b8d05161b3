/* SPDX-License-Identifier: GPL-2.0 */
/* How the report writes its figures (report-format.h). */

#include "report-format.h"

#include <cmath>
#include <cstdio>

namespace ns3
{

const char* const kVariantNames[3] = {"stock", "MLTCP", "centralized"};

std::string
Fmt(double v, int prec)
{
    if (std::isnan(v))
    {
        return "-";
    }
    if (std::isinf(v))
    {
        return "inf";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", prec, v);
    return buf;
}

std::string
Settle(const VariantMetrics& vm)
{
    if (!vm.present)
    {
        return "-";
    }
    if (vm.settle < 0)
    {
        return "never";
    }
    return std::to_string(vm.settle) + " (" + Fmt(vm.settleS, 1) + " s)";
}

std::string
Rtos(const VariantMetrics& vm)
{
    return vm.present && vm.rtos >= 0 ? std::to_string(vm.rtos) : std::string("-");
}

std::string
PointName(const PointResult& p)
{
    char buf[64];
    if (p.oversubscription > 0)
    {
        std::snprintf(buf, sizeof buf, "%u jobs, %g:1", p.njobs, p.oversubscription);
    }
    else
    {
        std::snprintf(buf, sizeof buf, "%u jobs", p.njobs);
    }
    return buf;
}

} // namespace ns3
