/* SPDX-License-Identifier: GPL-2.0 */
/* The words and numbers of scenario values and --run-one arguments (scenario-values.h). */

#include "scenario-values.h"

#include <cmath>
#include <cstdlib>

namespace ns3
{

std::string
Trim(const std::string& s)
{
    size_t a = s.find_first_not_of(" \t\r");
    size_t b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string>
Words(const std::string& s)
{
    std::vector<std::string> words;
    std::string w;
    for (char c : s)
    {
        if (c == ' ' || c == '\t' || c == ',')
        {
            if (!w.empty())
            {
                words.push_back(w);
            }
            w.clear();
        }
        else
        {
            w += c;
        }
    }
    if (!w.empty())
    {
        words.push_back(w);
    }
    return words;
}

bool
Number(const std::string& s, double* v)
{
    char* end = nullptr;
    *v = std::strtod(s.c_str(), &end);
    return !s.empty() && end && *end == '\0' && std::isfinite(*v);
}

bool
Count(const std::string& s, uint32_t* v)
{
    double d;
    if (!Number(s, &d) || d < 0 || d != std::floor(d) || d > 1e9)
    {
        return false;
    }
    *v = uint32_t(d);
    return true;
}

} // namespace ns3
