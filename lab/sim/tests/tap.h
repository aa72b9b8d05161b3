/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP output for the simulator's tests: one "ok" or "not ok" line per
 * check, the plan at the end, exit status 1 when a check failed.
 */
#ifndef MLTCP_SIM_TEST_TAP_H
#define MLTCP_SIM_TEST_TAP_H

#include <cstdio>
#include <string>

namespace mltcp_test
{

class Tap
{
  public:
    /** Report one check. @return @ok */
    bool Check(bool ok, const std::string& what)
    {
        std::printf("%s %d - %s\n", ok ? "ok" : "not ok", ++m_count, what.c_str());
        std::fflush(stdout);
        m_failed += ok ? 0 : 1;
        return ok;
    }

    /** A comment line (details of a failure). */
    void Note(const std::string& text)
    {
        std::printf("# %s\n", text.c_str());
    }

    /** Print the plan. @return the test program's exit status */
    int Finish()
    {
        std::printf("1..%d\n", m_count);
        return m_failed || !m_count ? 1 : 0;
    }

  private:
    int m_count = 0;
    int m_failed = 0;
};

} // namespace mltcp_test

#endif /* MLTCP_SIM_TEST_TAP_H */
