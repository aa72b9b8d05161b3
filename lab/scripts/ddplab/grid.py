# SPDX-License-Identifier: GPL-2.0-only
"""The scenario files of bench-ddp (lab/grids/grid-ddp*.conf).

One scenario a line, "NAME KIND ddp_train options | options | ...", one job per part;
KIND (pair, multi, guard) names the targets the report judges it by; # starts a
comment.  A job's options may carry --comm-share S, bench-ddp's own (trial.fit_jobs()).
"""
import shlex
import sys


def parse_grid(path):
    """NAME KIND ddp_train options | options | ... (one job per | part)."""
    cells = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, kind, rest = line.split(None, 2)
            jobs = [shlex.split(j) for j in rest.split("|")]
            for j in jobs:
                comm_share(j)       # a bad share stops the run before it starts
            cells.append((name, kind, jobs))
    return cells


def comm_share(args):
    """A job's --comm-share S (bench-ddp's own option, see trial.fit_jobs()), and its
    ddp_train.py options without it; S is None when absent."""
    args = list(args)
    if "--comm-share" not in args:
        return None, args
    i = args.index("--comm-share")
    try:
        share = float(args[i + 1])
    except (IndexError, ValueError):
        sys.exit("bench-ddp: --comm-share takes a fraction, in %s" % " ".join(args))
    if not 0.05 <= share <= 0.95:
        sys.exit("bench-ddp: --comm-share %s is outside [0.05, 0.95]" % args[i + 1])
    return share, args[:i] + args[i + 2:]


def with_fwd_ms(args, ms):
    """ddp_train.py options with --fwd-ms set to @ms."""
    args = list(args)
    if "--fwd-ms" in args:
        i = args.index("--fwd-ms")
        del args[i:i + 2]
    return args + ["--fwd-ms", "%.0f" % ms]
