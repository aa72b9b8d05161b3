# SPDX-License-Identifier: GPL-2.0-only
"""bench-ddp --trace: MLTCP's tracepoints and TCP's retransmissions, per trial.

Each trial's TRIAL/trace.txt holds the events on the monotonic clock, and its
TRIAL/clock.txt CLOCK_REALTIME - CLOCK_MONOTONIC, which puts them beside the training
loop's records (lab/scripts/bench-ddp-trace reads both).
"""
import os
import sys
import time

# the events a trial's trace.txt keeps, a few per phase each (mltcp_ack, one per ACK,
# would slow the guest's CPUs down and change what it measures)
TRACE_EVENTS = ("mltcp/mltcp_restart", "mltcp/mltcp_yield", "mltcp/mltcp_iteration",
                "mltcp/mltcp_gap", "tcp/tcp_retransmit_skb")
TRACEFS = "/sys/kernel/tracing"


class Tracer:
    """--trace: TRACE_EVENTS into each trial's trace.txt (see this module's doc)."""
    def __init__(self):
        for ev in TRACE_EVENTS:
            if not os.path.exists(os.path.join(TRACEFS, "events", ev, "enable")):
                sys.exit("bench-ddp: --trace: no tracepoint %s under %s (the modules' "
                         "tracepoints; the BPF backend has none)" % (ev, TRACEFS))
        with open(os.path.join(TRACEFS, "trace_clock")) as f:
            # "[local] global counter ...": the clock in brackets is the one in use
            self.clock = f.read().split("[", 1)[-1].split("]", 1)[0] or "local"
        self._write("tracing_on", "0")
        self._write("trace_clock", "mono")
        self._write("buffer_size_kb", "8192")
        for ev in TRACE_EVENTS:
            self._write(os.path.join("events", ev, "enable"), "1")

    @staticmethod
    def _write(name, value):
        with open(os.path.join(TRACEFS, name), "w") as f:
            f.write(value)

    def start(self):
        self._write("trace", "")                 # empties the buffer
        self._write("tracing_on", "1")

    def stop(self, outdir):
        self._write("tracing_on", "0")
        with open(os.path.join(TRACEFS, "trace")) as src, \
                open(os.path.join(outdir, "trace.txt"), "w") as dst:
            dst.write(src.read())
        with open(os.path.join(outdir, "clock.txt"), "w") as f:
            f.write("%.6f\n" % (time.clock_gettime(time.CLOCK_REALTIME) -
                                 time.clock_gettime(time.CLOCK_MONOTONIC)))

    def close(self):
        """Leaves tracefs as it was; runs at exit, however the run ends."""
        self._write("tracing_on", "0")
        for ev in TRACE_EVENTS:
            self._write(os.path.join("events", ev, "enable"), "0")
        self._write("trace_clock", self.clock)
