# SPDX-License-Identifier: GPL-2.0-only
"""A results directory of bench-ddp: what a run writes and the readers of it.

OUTDIR/ddp.tsv (a row per job and trial), OUTDIR/env.txt (the run's settings, KEY=VALUE),
and OUTDIR/SCENARIO/TRIAL/jobJ.rankR (ddp_train.py's records, one JSON object a line).
"""
import json
import os

# base-attached: the base algorithm with ddp_train.py --attach (MLTCP absent, so the hook
# only looks): attach()'s own cost, a control that --modes adds
# unshaped: the base algorithm with the bottleneck's tbf removed for the trial: what
# running side by side costs the jobs where no link is shared (under TCG, the guest's
# CPUs), a part of the base's loss that no congestion control can act on
MODES = ("base", "unshaped", "base-attached", "learned", "attached")
# per trial, summed over both directions: packets the bottleneck dropped, segments
# retransmitted, retransmission timeouts (the counters a run's loss story needs), and
# how busy the machine's CPUs were (percent of all of them, the whole trial): under
# TCG the ranks, gloo and the forwarding of every packet share two emulated CPUs
RUN_COUNTERS = ("drops", "retrans", "timeouts", "cpu_pct")
TSV_HEADER = ("scenario\tkind\tmode\trun\tspec\ttime_s\tlosses\tcounted\tsockets\tlate_ms"
              "\tbackward_s\t" + "\t".join(RUN_COUNTERS) + "\n")
# --rate auto: the bottleneck's rate as a share of what a job alone moves over its
# communication window without one (trial.calibrate_rate()): low enough that the link
# is busy through a job's whole window, with room for the CPU's speed to vary in a
# boot; env.txt records it as rate_auto_share
AUTO_RATE_SHARE = 0.7


def has_results(outdir):
    return os.path.exists(os.path.join(outdir, "ddp.tsv"))


def read_tsv(outdir):
    """OUTDIR/ddp.tsv's rows: s(cenario), k(ind), m(ode), r(un), j (the job's spec),
    t (its time), losses, counted, b (its backward pass), net (the run's drops,
    retransmissions, timeouts and CPU busy percent, RUN_COUNTERS); b and net are
    None in tables written before those columns."""
    rows = []
    with open(os.path.join(outdir, "ddp.tsv")) as f:
        next(f)
        for line in f:
            s, k, m, r, j, t, losses, counted, _, _, *rest = line.rstrip("\n").split("\t")
            net = dict(zip(RUN_COUNTERS, map(int, rest[1:]))) if len(rest) > 1 else None
            rows.append(dict(s=s, k=k, m=m, r=int(r), j=int(j), t=float(t),
                             losses=json.loads(losses), counted=counted,
                             b=float(rest[0]) if rest else None, net=net))
    return rows


def read_env(outdir):
    """OUTDIR/env.txt as {key: value}, values as text."""
    with open(os.path.join(outdir, "env.txt")) as f:
        return dict(line.strip().split("=", 1) for line in f)


def scenarios(rows):
    """The scenarios of ddp.tsv's ROWS, in the order they ran."""
    return list(dict.fromkeys(r["s"] for r in rows))


def mode_rounds(rows, mode):
    """A mode's rounds in one scenario's ROWS, in run order: each the list of its
    jobs' rows."""
    for run in sorted({r["r"] for r in rows if r["m"] == mode}):
        yield [r for r in rows if r["m"] == mode and r["r"] == run]


def trial_iters(trial_dir):
    """A trial's iteration records, one list per job (job0, job1, ... while their
    rank 0 records exist), as ddp_train.py wrote them."""
    jobs = []
    while True:
        f = os.path.join(trial_dir, "job%d.rank0" % len(jobs))
        if not os.path.exists(f):
            return jobs
        with open(f) as fh:
            jobs.append([r for r in map(json.loads, fh) if "iter" in r])


def job_time(path, iters):
    """Mean iteration time over the last half, the losses, the MLTCP sockets, and
    the mean backward pass over the last half (which DDP ends only when the last
    bucket's all-reduce is done: the job's communication window plus the backward
    time before its first bucket)."""
    times, bwd, losses, socks, first = [], [], [], [], None
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if "iter" in r:
                first = r["start_s"] if first is None else first
                times.append(r["end_s"] - r["start_s"])
                bwd.append(r["backward_s"])
                losses.append(r["loss"])
            elif "sockets" in r:
                socks = r["sockets"]
    if len(times) != iters:
        raise ValueError("%s: %d iterations of %d" % (path, len(times), iters))
    half, bhalf = times[iters // 2:], bwd[iters // 2:]
    return sum(half) / len(half), losses, first, socks, sum(bhalf) / len(bhalf)
