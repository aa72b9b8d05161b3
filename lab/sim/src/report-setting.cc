/* SPDX-License-Identifier: GPL-2.0 */
/* The report's lines about the machine and the queues (report-setting.h). */

#include "report-setting.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace ns3
{

/** @return the first value of @key ("key : value" or key=value lines) in @file, or "". */
static std::string
FileValue(const std::string& file, const std::string& key)
{
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line))
    {
        size_t sep = line.find_first_of(":=");
        if (sep == std::string::npos)
        {
            continue;
        }
        std::string k = line.substr(0, sep);
        while (!k.empty() && (k.back() == ' ' || k.back() == '\t'))
        {
            k.pop_back();
        }
        if (k != key)
        {
            continue;
        }
        std::string v = line.substr(sep + 1);
        v.erase(0, v.find_first_not_of(" \t\""));
        while (!v.empty() && (v.back() == '"' || v.back() == ' '))
        {
            v.pop_back();
        }
        return v;
    }
    return "";
}

/** @return the machine this runs on: CPU, CPUs, system, ns-3, and its load now. */
std::string
MachineText()
{
    std::string cpu = FileValue("/proc/cpuinfo", "model name");
    std::string os = FileValue("/etc/os-release", "PRETTY_NAME");
    std::string load;
    std::ifstream("/proc/loadavg") >> load;
    std::ostringstream os2;
    os2 << (cpu.empty() ? "a CPU" : cpu) << ", " << sysconf(_SC_NPROCESSORS_ONLN) << " CPUs"
        << (os.empty() ? "" : ", " + os) << ", ns-3 " << MLTCP_SIM_NS3_VERSION;
    if (!load.empty())
    {
        os2 << "; load average " << load << " when it started";
    }
    return os2.str();
}

std::string
QueueText(const Scenario& sc, const Topology& topo)
{
    QueueConfig q = MakeQueues(sc, topo);
    char buf[256];
    std::snprintf(
        buf,
        sizeof buf,
        "%s, %u packets a switch port (%.2g BDP: %.0f us longest idle RTT between "
        "groups at the host rate)%s%s",
        sc.ecn ? "ECN marking above a step" : "tail drop",
        q.bufferPackets,
        q.bufferPackets / (sc.hostRateMbps * topo.MaxBaseRttUs() / 8 / kSimWireBytes),
        topo.MaxBaseRttUs(),
        sc.ecn ? (", marking above " + std::to_string(q.ecnThreshold) + " packets").c_str() : "",
        sc.hostAcksFirst ? "; hosts send pure ACKs ahead of data" : "");
    return buf;
}

} // namespace ns3
