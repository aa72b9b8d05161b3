# SPDX-License-Identifier: GPL-2.0-only
"""bench-ddp --phases: how far apart the jobs' iterations ran in each trial."""
import os
import statistics

from .results import read_tsv, scenarios, trial_iters


def trial_offsets(starts):
    """(the first job's period, each later job's offset from it as a share of the
    period, "%.2f"), from the jobs' iteration starts; None where there is nothing to
    tell: one job, or a trial cut short or still running."""
    if len(starts) < 2 or len(starts[0]) < 4 or \
            any(len(x) != len(starts[0]) for x in starts):
        return None
    n = len(starts[0])
    t0 = starts[0]
    period = statistics.median(t0[i + 1] - t0[i] for i in range(n // 2, n - 1))
    offs = []
    for other in starts[1:]:
        d = [((other[i] - t0[i]) / period) % 1 for i in range(n // 2, n)]
        offs.append("%.2f" % statistics.median(min(x, 1 - x) for x in d))
    return period, offs


def phases(outdir):
    """How far apart the jobs' iterations ran, per trial: for each job after the first,
    the offset of its iteration starts from the first job's, as a share of the first
    job's period (0 = lockstep, 0.5 = half a period apart), median over the last half of
    the run (the half whose times the table reports).  Reads the raw records.  It
    means something only where the jobs run at one period (identical jobs): jobs
    of different periods drift through each other whatever the algorithm."""
    out = ["| scenario | trial | period (s) | offsets of jobs 2.. from job 1, share of the "
           "period (median, last half) |", "|---|---|---|---|"]
    for s in scenarios(read_tsv(outdir)):
        for trial in sorted(os.listdir(os.path.join(outdir, s))):
            starts = [[r["start_s"] for r in recs]
                      for recs in trial_iters(os.path.join(outdir, s, trial))]
            found = trial_offsets(starts)
            if found is None:
                continue
            period, offs = found
            out.append("| %s | %s | %.3f | %s |" % (s, trial, period, ", ".join(offs)))
    return "\n".join(out) + "\n"
