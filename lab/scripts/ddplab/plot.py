# SPDX-License-Identifier: GPL-2.0-only
"""bench-ddp --plot: the first round's iteration times, a figure per scenario (gnuplot).

OUTDIR/plots/SCENARIO.{png,svg}, one panel per mode and one line per job, its ideal
dashed; the plotted data beside them as OUTDIR/plots/SCENARIO-MODE-jobJ.dat.
"""
import os
import subprocess
import sys

from .results import MODES, read_tsv, scenarios, trial_iters

# the height of a mode's panel, in pixels
PANEL_HEIGHT = 260


def _write_series(outdir, pdir, s):
    """The .dat files of each mode's first round: [(mode, [file per job])]."""
    panels = []
    for m in MODES:
        d = os.path.join(outdir, s, "%s-1" % m)
        series = []
        for j, recs in enumerate(trial_iters(d)):
            t = [r["end_s"] - r["start_s"] for r in recs]
            dat = os.path.join(pdir, "%s-%s-job%d.dat" % (s, m, j))
            with open(dat, "w") as o:
                o.write("".join("%d %.4f\n" % (i, x) for i, x in enumerate(t)))
            series.append(dat)
        if series:
            panels.append((m, series))
    return panels


def _script(pdir, s, term, ext, panels, ideal):
    """The gnuplot script of one scenario's figure in one format."""
    g = ["set terminal %s" % term, "set output '%s/%s.%s'" % (pdir, s, ext),
         "set multiplot layout %d,1 title 'bench-ddp %s: iteration time "
         "(training loop), round 1'" % (len(panels), s),
         "set ylabel 's'", "set grid", "set key outside right",
         "set yrange [0:%.2f]" % (2 * max(ideal.values() or [1.0]))]
    for m, series in panels:
        g.append("set title '%s'" % m)
        g.append("set xlabel 'iteration'")
        parts = ["'%s' using 1:2 with linespoints pt 7 ps 0.4 title 'job %d'" %
                 (dat, j + 1) for j, dat in enumerate(series)]
        parts += ["%f with lines dt 2 lc rgb 'gray' title 'ideal %d'" % (v, k + 1)
                  for k, v in sorted(ideal.items())]
        g.append("plot " + ", ".join(parts))
    g.append("unset multiplot")
    return "\n".join(g) + "\n"


def plot(outdir):
    """OUTDIR/plots/SCENARIO.{png,svg}: iteration times of the first round, one
    panel per mode, one line per job, its ideal dashed (gnuplot)."""
    rows = read_tsv(outdir)
    pdir = os.path.join(outdir, "plots")
    os.makedirs(pdir, exist_ok=True)
    for s in scenarios(rows):
        ideal = {r["j"]: r["t"] for r in rows if r["s"] == s and r["m"] == "alone"}
        panels = _write_series(outdir, pdir, s)
        if not panels:
            continue
        height = PANEL_HEIGHT * len(panels)
        for term, ext in (("pngcairo size 900,%d" % height, "png"),
                          ("svg size 900,%d" % height, "svg")):
            r = subprocess.run(["gnuplot"], input=_script(pdir, s, term, ext, panels, ideal),
                               text=True, stderr=subprocess.PIPE)
            if r.returncode:
                print("bench-ddp: gnuplot: %s" % r.stderr.strip(), file=sys.stderr)
                return 1
    return 0
