# SPDX-License-Identifier: GPL-2.0-only
"""ddplab: the parts of lab/scripts/bench-ddp, the PyTorch DDP benchmark.

results: the files a run writes and their readers; grid: the scenario files;
topology: the namespaces, the bottleneck and its counters; tracer: --trace's
tracepoints; workers: the processes that run the ranks; trial: a run, scenario by
scenario; report, guard, phases, plot: what the results say.

TOP is the repository's top directory, which the benchmark's paths are relative to
(examples/pytorch, userspace/python, build/, lab/grids).
"""
import os

# lab/scripts/ddplab/__init__.py, three directories below the top
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
