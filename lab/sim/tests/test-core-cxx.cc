// SPDX-License-Identifier: GPL-2.0
/*
 * MLTCP's core (include/mltcp_core.h) as C++17: the header on its own,
 * before anything else, compiles with the simulator's flags (-Wall -Wextra
 * -Werror), and the parts C++ compiles differently from C (the structures
 * zeroed in place of C's compound literals, the hook entries' outputs)
 * compute what the C unit tests (tests/unit) expect.
 */
#include "mltcp_core.h"

#include <cstring>
#include <string>

#include "tap.h"

/* the kernel's layout: what CUBIC's private area leaves (MLTCP_CHECK_PRIV) */
static_assert(sizeof(struct mltcp_sock) == 56, "struct mltcp_sock is 56 bytes, as in C");

using namespace mltcp_test;

namespace
{

void
Params(Tap* tap)
{
    u32 q = 0;
    char buf[24];

    tap->Check(mltcp_parse_q10("1.25\n", &q) == 0 && q == 1280, "\"1.25\" parses to 1280/1024");
    tap->Check(mltcp_parse_q10("-1", &q) == -EINVAL, "\"-1\" is refused");
    mltcp_format_q10(1280, buf);
    tap->Check(std::string(buf) == "1.25", "1280/1024 prints as 1.25");
    tap->Check(mltcp_parse_mode("given") == MLTCP_MODE_GIVEN, "\"given\" is mode given");
    tap->Check(mltcp_f_q10(mltcp_params_pack(MLTCP_Q10_ONE, MLTCP_Q10_ONE), 512) == 1536,
               "F = slope * ratio + intercept: 1 * 0.5 + 1 = 1.5");
}

void
SockInit(Tap* tap)
{
    mltcp_sock ms;

    std::memset(&ms, 0xa5, sizeof(ms));
    ms.flags = MLTCP_SF_SIZE_GIVEN;
    ms.phase = MLTCP_PHASE_YIELD;
    ms.bytes_per_iter = 100000;
    mltcp_sock_init(&ms, 4242, 77);
    tap->Check(ms.flags == MLTCP_SF_SIZE_GIVEN && ms.bytes_per_iter == 100000 &&
                   ms.mark == 4242 && ms.tiebreak == 77,
               "mltcp_sock_init() keeps a given size and takes the flow's tie-break");
    tap->Check(ms.iters == 0 && ms.hist[0] == 0 && ms.hist[2] == 0 && ms.carry == 0 &&
                   ms.gap_log8 == 0 && ms.mark_ms == 0 && ms.start_ms == 0 &&
                   ms.phase == MLTCP_PHASE_BASE,
               "mltcp_sock_init() zeroes everything else");
}

void
TxStart(Tap* tap)
{
    mltcp_globals g = {};
    mltcp_sock ms = {};
    mltcp_tx_in in = {};
    mltcp_tx_out out;

    g.fparams = mltcp_params_pack(MLTCP_SLOPE_DEFAULT, MLTCP_INTERCEPT_DEFAULT);
    g.idle_ms = MLTCP_IDLE_MS_DEFAULT;
    g.mode = MLTCP_MODE_GIVEN;
    in.g = &g;
    in.cwnd = 40;
    in.ssthresh = 30;
    in.init_cwnd = 10;
    in.gap_us = 50000;
    in.min_rtt_us = ~0U;
    std::memset(&out, 0xa5, sizeof(out));
    mltcp_hook_tx_start(&ms, &in, &out);
    tap->Check(!out.restarted && out.cwnd_before == 0 && out.cwnd == 40 && out.ssthresh == 30 &&
                   out.gap_seen && out.gap_bytes == 0 && !out.iter_done && out.iter_ms == 0,
               "mltcp_hook_tx_start() unhinted: no restart, an idle gap seen, every output set");

    mltcp_hook_init(&ms, 0, 0, 0);
    mltcp_set_size(&ms, 100000);
    mltcp_mark_out mark;
    mltcp_hook_mark(&ms, 0, 0, 0, 0, &mark);
    mltcp_hook_tx_start(&ms, &in, &out);
    tap->Check(out.restarted && out.cwnd == 10 && out.cwnd_before == 40 && mltcp_in_yield(&ms),
               "a marked iteration after an idle gap restarts the window and yields");
}

void
Tiebreak(Tap* tap)
{
    const struct mltcp_tiebreak_key key = {1, 2};
    u16 ab = mltcp_flow_tiebreak(&key, 0x0100000a, 40000, 7, 0x0200000a, 5000, 9);
    u16 ba = mltcp_flow_tiebreak(&key, 0x0200000a, 5000, 9, 0x0100000a, 40000, 7);

    tap->Check(ab == ba && ab <= MLTCP_TIEBREAK_MAX, "both ends of a connection draw one tie-break");
}

} // namespace

int
main()
{
    Tap tap;

    Params(&tap);
    SockInit(&tap);
    TxStart(&tap);
    Tiebreak(&tap);
    return tap.Finish();
}
