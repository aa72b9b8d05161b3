#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What a job alone pays under MLTCP in the simulator, and where it goes.

    lab/scripts/sim-alone-costs.py OUT      (OUT: a mltcp-sim --out directory)

Each job alone runs once under stock and once under MLTCP (runs/*-alone-stock-*
and *-alone-mltcp-*). For every job it prints its last-half mean iteration under
MLTCP over stock's (the report's "alone" ratio), its timeouts under each, and
its MLTCP connections' yields: time held per restart and how many ended at
their bound. Then the jobs without a timeout in either run, grouped by time
held per restart, with the median ratio of each group: a yield holds while
the RTT shows a queue, and a job alone has only its own connections to queue
behind.
"""
import csv
import glob
import os
import re
import signal
import statistics
import sys
from collections import Counter, defaultdict

RUN = re.compile(r"(?P<seed>s\d+-)?alone-stock-(?P<point>o[\d.]+-)?(?P<group>\d+)\.txt$")
GROUPS = ((0, 10, "< 10 ms"), (10, 20, "10-20 ms"), (20, float("inf"), ">= 20 ms"))


def last_half_means(path):
    """Each job's mean iteration (ms) over the iterations that start in the run's last half."""
    sim_ms = None
    iters = defaultdict(list)
    with open(path) as f:
        for line in f:
            p = line.split()
            if p and p[0] == "sim_s":
                sim_ms = float(p[1]) * 1000
            elif p and p[0] == "iter":
                iters[int(p[1])].append((float(p[3]), float(p[4])))
    out = {}
    for job, spans in iters.items():
        half = [end - start for start, end in spans if start >= sim_ms / 2]
        out[job] = sum(half) / len(half) if half else None
    return out


def socket_sums(path):
    """Per job, the sums over its sending sockets of the fields that matter here."""
    sums = defaultdict(Counter)
    with open(path) as f:
        for row in csv.DictReader(f):
            c = sums[int(row["job"])]
            for key in ("rtos", "restarts", "yield_ms", "yield_bound"):
                c[key] += float(row[key])
    return sums


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends it quietly
    if len(argv) != 2 or not os.path.isdir(os.path.join(argv[1], "runs")):
        sys.exit("usage: sim-alone-costs.py OUT (a mltcp-sim --out directory, with runs/)")
    rows = []
    for stock in sorted(glob.glob(os.path.join(argv[1], "runs", "*alone-stock-*.txt"))):
        m = RUN.search(os.path.basename(stock))
        mltcp = stock.replace("-alone-stock-", "-alone-mltcp-")
        if not m or not os.path.exists(mltcp):
            continue
        base, ml = last_half_means(stock), last_half_means(mltcp)
        s_socks = socket_sums(stock[:-4] + "-sockets.csv")
        m_socks = socket_sums(mltcp[:-4] + "-sockets.csv")
        for job in sorted(base):
            if not base[job] or not ml.get(job):
                continue
            mc = m_socks[job]
            held = mc["yield_ms"] / mc["restarts"] if mc["restarts"] else 0.0
            rows.append((ml[job] / base[job], (m["seed"] or "") + (m["point"] or ""), job,
                         int(s_socks[job]["rtos"]), int(mc["rtos"]), held, int(mc["yield_bound"])))
    if not rows:
        sys.exit("sim-alone-costs.py: no pair of alone runs under %s/runs" % argv[1])
    print("ratio  run        job  timeouts stock/MLTCP  held per restart  yields at bound")
    for ratio, run, job, rs, rm, held, bound in sorted(rows):
        print("%.3f  %-9s  %3d  %8d/%-5d  %13.1f ms  %15d" % (ratio, run.rstrip("-"), job,
                                                             rs, rm, held, bound))
    print()
    clean = [r for r in rows if r[3] == 0 and r[4] == 0]
    print("jobs alone with no timeout in either run (%d of %d), by time held per restart:"
          % (len(clean), len(rows)))
    for lo, hi, name in GROUPS:
        ratios = [r[0] for r in clean if lo <= r[5] < hi]
        if ratios:
            print("  %-8s  %3d jobs  MLTCP / stock: median %.3f, %.3f-%.3f"
                  % (name, len(ratios), statistics.median(ratios), min(ratios), max(ratios)))
    more = [r[0] for r in rows if r[4] > r[3]]
    if more:
        print("jobs with more timeouts under MLTCP: %d, median %.3f"
              % (len(more), statistics.median(more)))


if __name__ == "__main__":
    main(sys.argv)
