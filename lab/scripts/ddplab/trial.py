# SPDX-License-Identifier: GPL-2.0-only
"""A bench-ddp run: the scenarios of a grid, trial by trial, into OUTDIR.

Per scenario: every job with --comm-share sized by a run alone (fit_jobs()), every
distinct job alone (its ideal) and alone with attach(), then RUNS rounds of the
modes; each trial's row in OUTDIR/ddp.tsv with its run counters.  --rate auto first
sizes the link by a job alone with no bottleneck (calibrate_rate()).
"""
import atexit
import json
import os
import sys
import time

from .grid import comm_share, parse_grid, with_fwd_ms
from .results import AUTO_RATE_SHARE, TSV_HEADER, job_time
from .topology import allow_cc, mltcp_ready, restore_allowed_cc, run_counters, \
    run_delta, set_cc, shape, teardown, topology
from .tracer import Tracer
from .workers import DDP_TRAIN_DIR, Workers

# the trials that run the base algorithm (the rest run the MLTCP variant)
ON_BASE = ("alone", "base", "unshaped", "base-attached")
FIT_HEADER = "scenario\tspec\tshare\tfwd_ms\ttime_s\tbackward_s\tfitted_fwd_ms\n"


def job_cpus(a, jobs):
    """The CPU of each of @jobs (their indexes in the scenario) under --pin job:
    job j runs on the j-th CPU this process may use (modulo their number), so that
    two jobs, like two jobs on their own hosts, do not queue for one CPU; None
    without --pin."""
    if a.pin != "job":
        return None
    cpus = sorted(os.sched_getaffinity(0))
    return [cpus[j % len(cpus)] for j in jobs]


def ddp_fwd_ms(args):
    """The --fwd-ms ddp_train.py would use with @args."""
    sys.path.insert(0, DDP_TRAIN_DIR)
    try:
        import ddp_train
    finally:
        del sys.path[0]
    return ddp_train.parse_args(list(args)).fwd_ms


def run_alone(a, workers, name, label, args, job, what):
    """Runs ddp_train.py @args alone for a.fit_iters iterations on the base algorithm,
    pinned as job @job of the scenario would be, into OUTDIR/NAME/LABEL; the path of
    its rank 0's records.  A failure ends bench-ddp: "NAME: WHAT run failed"."""
    set_cc(a.base)
    outdir = os.path.join(a.outdir, name, label)
    start = ["--start-at", "%.3f" % (time.time() + a.setup_s)]
    common = ["--iters", str(a.fit_iters), "--all-ranks"]
    if any(workers.trial([args + common + start], outdir, a.timeout, job_cpus(a, [job]))):
        sys.exit("bench-ddp: %s: %s run failed (%s)" % (name, what, outdir))
    return os.path.join(outdir, "job0.rank0")


def fit_jobs(a, workers, name, jobs, log):
    """Sizes every job that asks for a --comm-share by its forward time.

    A job's communication window is its backward pass (DDP ends it when the last
    bucket's all-reduce is done), and how long that takes depends on the machine:
    under TCG the gradients' packets and gloo's work cost emulated CPU, so the same
    options give windows of 0.55-0.85 s from one host to the next, and a pair sized
    on one host may not fit on another.  So a job with --comm-share S runs alone
    once (a.fit_iters iterations, the base algorithm) and its --fwd-ms is set so that
    its backward pass is S of its iteration: fwd' = fwd + backward / S - iteration.
    Returns the jobs' ddp_train.py options; writes one line per sized job to @log.
    """
    fitted, out = {}, []
    for args in jobs:
        share, rest = comm_share(args)
        key = tuple(args)
        if share is not None and key not in fitted:
            fwd0 = ddp_fwd_ms(rest)
            path = run_alone(a, workers, name, "fit-%d" % len(fitted), rest,
                             jobs.index(args), "sizing")
            t, _, _, _, b = job_time(path, a.fit_iters)
            fwd = fwd0 + 1000 * (b / share - t)
            if fwd < 0:
                sys.exit("bench-ddp: %s: a backward pass of %.3f s is more than %.2f of the "
                         "iteration even without forward time (%.3f s): lower the job's "
                         "communication or raise --comm-share" % (name, b, share, t - fwd0 / 1000))
            fitted[key] = with_fwd_ms(rest, fwd)
            log.write("%s\t%d\t%.2f\t%.0f\t%.6f\t%.6f\t%.0f\n" % (
                name, len(fitted) - 1, share, fwd0, t, b, fwd))
            log.flush()
            print("bench-ddp: %s: backward %.3f s of %.3f s with --fwd-ms %.0f; %.0f for "
                  "a share of %.2f" % (name, b, t, fwd0, fwd, share), file=sys.stderr)
        out.append(fitted.get(key, rest))
    return out


def calibrate_rate(a, workers, cell):
    """--rate auto: the Mbit/s the scenario's first job moves over its communication
    window, alone with no bottleneck at all (the base algorithm, pinned as the trials
    are; a.fit_iters iterations): its gradient bytes per iteration over its backward
    pass, which DDP spreads them over, bucket by bucket between the layers' compute.
    Through a link faster than that the job's buckets come and go with idle gaps
    between them, and a job that starts its phase in such a gap finds no queue to
    yield to: MLTCP has nothing to act on, and a pair contends only while both send
    (lab/README.md).  Measured with the compute, not without: the same job's
    buckets back to back (--bwd-ms 0) moved 60 Mbit/s where its window averaged 25.
    The caller sets the link to AUTO_RATE_SHARE of it."""
    name, _, jobs = cell
    rest = comm_share(jobs[0])[1]
    path = run_alone(a, workers, name, "calibrate-0", rest, 0, "calibration")
    bwd = job_time(path, a.fit_iters)[4]
    with open(path) as f:
        grad = [json.loads(line)["summary"]["grad_bytes"] for line in f if '"summary"' in line]
    if not grad or bwd <= 0:
        sys.exit("bench-ddp: %s: no gradient size or backward pass in %s" % (name, path))
    return grad[0] * 8 / bwd / 1e6


def selected_cells(a):
    """The grid's scenarios that the command line names (all when it names none)."""
    cells = parse_grid(a.grid)
    if a.scenarios:
        cells = [c for c in cells if c[0] in a.scenarios]
        if not cells:
            sys.exit("bench-ddp: no scenario of %s matches %s" % (a.grid, a.scenarios))
    return cells


def auto_rate(a, workers, cell):
    """--rate auto: sets a.rate and the link from a calibration run of @cell's first
    job; the Mbit/s it moved with no bottleneck."""
    unbound = calibrate_rate(a, workers, cell)
    a.rate = max(1, int(AUTO_RATE_SHARE * unbound))
    shape(a.rate)
    print("bench-ddp: a job alone moves %.1f Mbit/s over its backward pass with no "
          "bottleneck: the bottleneck runs at %d Mbit/s" % (unbound, a.rate),
          file=sys.stderr)
    return unbound


def write_env(a, unbound):
    """OUTDIR/env.txt: the run's settings, which the report reads back."""
    with open(os.path.join(a.outdir, "env.txt"), "w") as f:
        f.write("kernel=%s\ncpus=%d\nrate_mbit=%d\nbottleneck=%s\nruns=%d\niters=%d\n"
                "base=%s\nmltcp=%s\npin=%s\ntrace=%d\ndate=%s\n" % (
                    os.uname().release, os.cpu_count(), a.rate, a.bottleneck, a.runs,
                    a.iters, a.base, a.mltcp, a.pin, a.trace, time.strftime("%Y-%m-%d")))
        if unbound is not None:
            f.write("rate_auto_unbound_mbit=%.1f\nrate_auto_share=%.2f\n" % (
                unbound, AUTO_RATE_SHARE))


def plan(a, jobs):
    """A scenario's trials: (mode, round, its jobs, the job run alone or None)."""
    out = []
    for j, args in enumerate(jobs):
        if args not in jobs[:j]:
            # the ideal, and the same job alone on MLTCP (its cost alone)
            out += [("alone", 0, [args], j), ("alone-attached", 0, [args], j)]
    for r in range(1, a.runs + 1):
        out += [(m, r, jobs, None) for m in a.modes]
    return out


class Run:
    """A run's trials, written to OUTDIR/ddp.tsv as they end."""
    def __init__(self, a, workers, tracer, tsv):
        self.a, self.workers, self.tracer, self.tsv = a, workers, tracer, tsv
        self.common = ["--iters", str(a.iters), "--all-ranks", "--report-sockets"]
        self.failed = 0

    def trial(self, name, kind, jobs, mode, r, tjobs, alone_job):
        """One trial of scenario NAME (its jobs @jobs) and its rows."""
        a = self.a
        cc = a.base if mode in ON_BASE else a.mltcp
        set_cc(cc)
        if mode == "unshaped":
            shape(None)
        extra = ["--attach"] if mode.endswith("attached") else []
        label = "%s-%d" % (mode, r if alone_job is None else alone_job)
        outdir = os.path.join(a.outdir, name, label)
        t = time.time()
        start = ["--start-at", "%.3f" % (t + a.setup_s)]
        before = run_counters()
        cpus = job_cpus(a, [alone_job] if alone_job is not None else range(len(tjobs)))
        if self.tracer:
            self.tracer.start()
        rcs = self.workers.trial([args + self.common + extra + start for args in tjobs],
                                 outdir, a.timeout, cpus)
        net = run_delta(before, run_counters())
        if self.tracer:
            self.tracer.stop(outdir)
        if mode == "unshaped":
            shape(a.rate)
        print("bench-ddp: %s %s on %s: %.0f s, exit %s" % (name, label, cc,
              time.time() - t, rcs), file=sys.stderr)
        if any(rcs):
            self.failed += 1
            return
        for j in range(len(tjobs)):
            # identical jobs share one ideal: the first such job's, alone
            js = alone_job if alone_job is not None else jobs.index(tjobs[j])
            self._row("%s\t%s\t%s\t%d\t%d" % (name, kind, mode, r, js), outdir, j,
                      t, net)

    def _row(self, key, outdir, j, t, net):
        """Job @j's row of the trial in @outdir, started at @t: KEY, then its time,
        losses, MLTCP's counted iterations, sockets, lateness, backward pass and
        the trial's counters."""
        a = self.a
        try:
            mean, losses, first, socks, bwd = job_time(
                os.path.join(outdir, "job%d.rank0" % j), a.iters)
        except (OSError, ValueError) as e:
            print("bench-ddp: %s" % e, file=sys.stderr)
            self.failed += 1
            return
        try:    # the other direction: rank 1's sockets
            socks += job_time(os.path.join(outdir, "job%d.rank1" % j), a.iters)[3]
        except (OSError, ValueError):
            pass
        counted = ",".join(str(s["iterations"]) for s in socks)
        self.tsv.write("%s\t%.6f\t%s\t%s\t%d\t%.0f\t%.6f\t%s\n" % (
            key, mean, json.dumps(losses), counted or "-",
            len(socks), (first - t - a.setup_s) * 1000, bwd, net))
        self.tsv.flush()


def run(a):
    """The whole run (the caller tears the namespaces down whatever happens): 1 when a
    trial failed, else 0."""
    cells = selected_cells(a)
    os.makedirs(a.outdir, exist_ok=True)
    tsv = open(os.path.join(a.outdir, "ddp.tsv"), "w")
    tsv.write(TSV_HEADER)
    auto = a.rate == "auto"
    topology(None if auto else a.rate, a.bottleneck)
    mltcp_ready(a.mltcp)
    allowed = allow_cc((a.base, a.mltcp))
    tracer = Tracer() if a.trace else None
    if tracer:
        atexit.register(tracer.close)
    t0 = time.time()
    workers = Workers()
    print("bench-ddp: workers ready in %.0f s" % (time.time() - t0), file=sys.stderr)
    write_env(a, auto_rate(a, workers, cells[0]) if auto else None)
    trials = Run(a, workers, tracer, tsv)
    with open(os.path.join(a.outdir, "fit.tsv"), "w") as fitlog:
        fitlog.write(FIT_HEADER)
        for name, kind, jobs in cells:
            jobs = fit_jobs(a, workers, name, jobs, fitlog)
            for mode, r, tjobs, alone_job in plan(a, jobs):
                trials.trial(name, kind, jobs, mode, r, tjobs, alone_job)
    tsv.close()
    workers.close()
    teardown()
    restore_allowed_cc(allowed)
    with open(os.path.join(a.outdir, "env.txt"), "a") as f:
        f.write("elapsed=%d\n" % (time.time() - t0))
    return 1 if trials.failed else 0
