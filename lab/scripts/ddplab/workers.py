# SPDX-License-Identifier: GPL-2.0-only
"""The processes that run the jobs' ranks, one per namespace, and their protocol.

Importing torch takes ~45 s per process under TCG, so each namespace gets one worker
(lab/scripts/bench-ddp --worker) that imports torch once and forks a child per rank
and trial; the children run ddp_train.py's training loop, which times every iteration
itself.  Workers is the parent's side: it starts both workers and hands them trials.
"""
import json
import os
import select
import signal
import subprocess
import sys
import time
import traceback

from . import TOP
from .topology import ADDR, NS

# examples/pytorch/ddp_train.py, the training loop every job runs
DDP_TRAIN_DIR = os.path.join(TOP, "examples", "pytorch")
# the script a worker runs as, with --worker
ENTRY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                     "bench-ddp")
# the exit code of a rank killed at the trial's timeout, as timeout(1) reports one
TIMED_OUT = 124


def worker():
    """In a namespace: import torch once, then run trials read from stdin.

    A trial is one JSON line {"jobs": [{"rank", "port", "args", "out"}...],
    "timeout": s}; every job is a forked child running ddp_train.run_rank() with
    its stdout and stderr in "out" and "out".err.  Answers {"rcs": [...]}.
    """
    sys.path[:0] = [DDP_TRAIN_DIR, os.path.join(TOP, "userspace", "python")]
    import torch  # noqa: F401  (imported once here, inherited by the children)
    import torch.distributed  # noqa: F401
    import torch.nn.parallel  # noqa: F401
    import ddp_train
    try:
        import mltcp  # noqa: F401
    except (ImportError, OSError):
        pass
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        # what the parent buffered would be written again by every child
        sys.stdout.flush()
        sys.stderr.flush()
        pids = []
        for job in req["jobs"]:
            pid = os.fork()
            if pid == 0:
                _child(ddp_train, job, req["master"])
            pids.append(pid)
        rcs = _wait_all(pids, time.time() + req["timeout"])
        print(json.dumps({"rcs": [rcs[p] for p in pids]}), flush=True)
    return 0


def _wait_all(pids, deadline):
    """{pid: exit code} of every child, those still running at @deadline killed."""
    rcs = {}
    while len(rcs) < len(pids):
        for pid in pids:
            if pid in rcs:
                continue
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                rcs[pid] = os.waitstatus_to_exitcode(status)
        if time.time() > deadline:
            for pid in pids:
                if pid not in rcs:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    rcs[pid] = TIMED_OUT
        time.sleep(0.05)
    return rcs


def _child(ddp_train, job, master):
    rc = 1
    try:
        out = os.open(job["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        err = os.open(job["out"] + ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
        os.dup2(err, 2)
        if job.get("cpu") is not None:
            # before torch starts its threads: they inherit the mask
            os.sched_setaffinity(0, {job["cpu"]})
        os.environ.update(MASTER_ADDR=master, MASTER_PORT=str(job["port"]),
                          RANK=str(job["rank"]), WORLD_SIZE="2", GLOO_SOCKET_IFNAME="eth0")
        ddp_train.run_rank(job["rank"], 2, ddp_train.parse_args(job["args"]))
        rc = 0
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(rc)


class Workers:
    """The two workers, rank 0's in "left" and rank 1's in "right", ready."""
    def __init__(self):
        env = dict(os.environ, MLTCP_LIBRARY=os.path.join(TOP, "build/lib/libmltcp.so.1"),
                   PYTHONUNBUFFERED="1")
        self.p = {}
        for side in ("left", "right"):
            # nsenter, not ip netns exec: the BPF backend's maps stay visible
            # in /sys/fs/bpf (attach's marks go through them)
            self.p[side] = subprocess.Popen(
                ("nsenter", "--net=/run/netns/" + NS[side], sys.executable,
                 ENTRY, "--worker"), stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, text=True, env=env)
        for side in self.p:
            self._read(side, 300)

    def _read(self, side, timeout):
        f = self.p[side].stdout
        if not select.select([f], [], [], timeout)[0]:
            sys.exit("bench-ddp: the %s worker did not answer in %d s" % (side, timeout))
        line = f.readline()
        if not line:
            sys.exit("bench-ddp: the %s worker died" % side)
        return json.loads(line)

    def trial(self, jobs, outdir, timeout, cpus=None):
        """Starts every job's two ranks at once; returns their exit codes.  With
        @cpus, job j's two ranks run on CPU cpus[j] only (both sides)."""
        os.makedirs(outdir, exist_ok=True)
        port0 = 20000 + (int(time.time() * 10) % 2000) * 10
        for rank, side in enumerate(("left", "right")):
            req = {"master": ADDR["left"], "timeout": timeout,
                   "jobs": [{"rank": rank, "port": port0 + j, "args": args,
                             "cpu": cpus[j] if cpus else None,
                             "out": os.path.join(outdir, "job%d.rank%d" % (j, rank))}
                            for j, args in enumerate(jobs)]}
            self.p[side].stdin.write(json.dumps(req) + "\n")
            self.p[side].stdin.flush()
        return [rc for side in ("left", "right")
                for rc in self._read(side, timeout + 60)["rcs"]]

    def close(self):
        for p in self.p.values():
            p.stdin.close()
            p.wait()
