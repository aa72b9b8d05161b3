/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Training-job profiles: the papers' jobs as compute and communication
 * times, and their scaling to the simulated link.
 *
 * A profile is given at the scale the papers measured (milliseconds on
 * their testbeds): each segment of an iteration is a compute phase and
 * then a communication phase that would take comm_ms on an otherwise idle
 * network.  Scaling keeps every ratio: times are multiplied by the
 * scenario's time scale, and a communication phase becomes the bytes that
 * take the scaled time at the simulated link's goodput.
 */
#ifndef MLTCP_SIM_JOB_PROFILES_H
#define MLTCP_SIM_JOB_PROFILES_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** How a job's workers exchange an iteration's bytes. */
enum class CommPattern
{
    RING, //!< ring all-reduce: 2(n-1) steps of 1/n of the gradients each
    PS,   //!< parameter server on the job's first host: push, barrier, pull
    PUSH, //!< one sender, one receiver that confirms (the guest bench's job)
};

/** @return false when @name is none of ring, ps, push. */
bool ParseCommPattern(const std::string& name, CommPattern* pattern);
/** @return the name ParseCommPattern() takes. */
const char* CommPatternName(CommPattern pattern);

/** One compute phase and the communication after it, at the papers' scale. */
struct ProfileSegment
{
    double computeMs; //!< compute time
    double commMs;    //!< the communication phase alone on the network
};

/** A job as the papers describe it. */
struct JobProfile
{
    std::string name;
    CommPattern pattern = CommPattern::RING;
    uint32_t hosts = 4;                   //!< hosts by default (PS: the server's included)
    std::vector<ProfileSegment> segments; //!< one per communication phase
    std::string source;                   //!< where each figure comes from

    /** @return the iteration time alone: all compute plus all communication. */
    double IterationMs() const;
    /** @return the share of the iteration spent communicating. */
    double CommShare() const;
};

/** @return the built-in profiles (job-profiles.cc says where each number comes from). */
const std::vector<JobProfile>& BuiltinProfiles();
/** @return the built-in profile called @name, or null. */
const JobProfile* FindProfile(const std::string& name);

/** TCP payload per full-sized packet, and the packet's size on a point-to-point link. */
constexpr uint32_t kSimMss = 1448;
constexpr uint32_t kSimWireBytes = 1502; // + TCP 32 (timestamps), IPv4 20, PPP 2

/** @return the payload rate, bits/s, of a link of @rateBps carrying full-sized packets. */
double GoodputBps(double rateBps);

/** One segment of a job scaled to the simulated network. */
struct SimSegment
{
    double computeMs; //!< simulated compute time
    double commBytes; //!< payload bytes whose transfer at the host link's goodput takes
                      //!< the scaled communication time
};

/** A profile scaled to the simulated host link. */
struct ScaledProfile
{
    std::vector<SimSegment> segments;
    double idealMs = 0; //!< compute plus communication at the host link's goodput
};

/**
 * Scale @profile: times times @timeScale, communication at @hostRateBps.
 */
ScaledProfile ScaleProfile(const JobProfile& profile, double hostRateBps, double timeScale);

} // namespace ns3

#endif /* MLTCP_SIM_JOB_PROFILES_H */
