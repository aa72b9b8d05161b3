/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The words and numbers of a scenario file's values, and of the arguments
 * mltcp-sim --run-one gets: trimmed text, lists, numbers, whole numbers.
 */
#ifndef MLTCP_SIM_SCENARIO_VALUES_H
#define MLTCP_SIM_SCENARIO_VALUES_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** @return @s without leading and trailing blanks. */
std::string Trim(const std::string& s);

/** @return the words of @s, separated by blanks or commas. */
std::vector<std::string> Words(const std::string& s);

/** Parse @s as a finite number into @v; @return false when it is not one. */
bool Number(const std::string& s, double* v);

/** Parse @s as a whole number >= 0 (at most 1e9) into @v; @return false when it is not one. */
bool Count(const std::string& s, uint32_t* v);

} // namespace ns3

#endif /* MLTCP_SIM_SCENARIO_VALUES_H */
