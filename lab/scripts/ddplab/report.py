# SPDX-License-Identifier: GPL-2.0-only
"""bench-ddp --report: the Markdown table of a results directory and issue 11's targets.

A row per scenario and mode (each round's worst job against its ideal, the speed-up
over the base, the iterations MLTCP counted, the run counters), a row per job for its
run alone on MLTCP with attach(), then the targets each scenario's kind is judged by.
"""
import json
import statistics

import targets
from .results import AUTO_RATE_SHARE, MODES, RUN_COUNTERS, mode_rounds, read_env, \
    read_tsv, scenarios


def _alone_info(sr):
    """A scenario's jobs alone: {job: ideal time}, {job: the note on its backward
    pass}, {job: its run's counters}."""
    alone = [r for r in sr if r["m"] == "alone"]
    ideal = {r["j"]: r["t"] for r in alone}
    # alone, the backward pass spans the job's communication window
    bwd = {r["j"]: ", backward pass %.3f s = %.2f of it" % (r["b"], r["b"] / r["t"])
           for r in alone if r["b"] is not None}
    # the ideal run's counters, beside its row
    net = {r["j"]: " / ".join(("%d%%" if k == "cpu_pct" else "%d") % r["net"][k]
                              for k in RUN_COUNTERS if k in r["net"])
           for r in alone if r["net"]}
    return ideal, bwd, net


def _per_mode(sr, ideal):
    """{mode: (per round, its worst job's time / ideal; {job index: its times})}."""
    per = {}
    for m in MODES:
        worst, jobt = [], {}
        for rr in mode_rounds(sr, m):
            if all(r["j"] in ideal for r in rr):
                worst.append(max(r["t"] / ideal[r["j"]] for r in rr))
                for i, r in enumerate(rr):
                    jobt.setdefault(i, []).append(r["t"])
        per[m] = (worst, jobt)
    return per


def _alone_attached_rows(s, sr, ideal, bwd, alone_net):
    out = []
    for j in sorted(ideal):
        aa = [r["t"] for r in sr if r["m"] == "alone-attached" and r["j"] == j]
        if aa:
            out.append("| %s | job %d alone, attached | 1 | %.3f (ideal: %.3f s%s) "
                       "| - | - | - | %s |" % (s, j + 1, aa[0] / ideal[j], ideal[j],
                                               bwd.get(j, ""), alone_net.get(j, "-")))
    return out


def _counters_cell(sr, m):
    """The median over a mode's runs of each run counter, or "-"."""
    # one row per job carries its run's counters: one value per run
    nets = {r["r"]: r["net"] for r in sr if r["m"] == m and r["net"]}
    return " / ".join(
        ("%g%%" if k == "cpu_pct" else "%g") % statistics.median(n[k] for n in nets.values())
        for k in RUN_COUNTERS if nets and all(k in n for n in nets.values())) or "-"


def _mode_rows(s, sr, per, iters):
    out = []
    base_w = per["base"][0]
    for m in MODES:
        worst, _ = per[m]
        if not worst:
            continue
        counted = [c for r in sr if r["m"] == m and r["counted"] != "-"
                   for c in r["counted"].split(",")]
        speed = ("%.2fx" % (statistics.median(base_w) / statistics.median(worst))
                 if base_w else "-")
        out.append("| %s | %s | %d | %.3f (%.3f-%.3f) | %d/%d | %s | %s | %s |" % (
            s, m, len(worst), statistics.median(worst), min(worst), max(worst),
            sum(targets.met("converged", w) for w in worst), len(worst),
            speed if m not in ("base", "unshaped") else "-",
            ("%s-%s of %d" % (min(map(int, counted)), max(map(int, counted)), iters))
            if counted else "-", _counters_cell(sr, m)))
    return out


def _pair_targets(s, med):
    b = med("base")
    if not targets.met("ddp.discriminates", b):
        return ["- %s: the base is %.3fx the ideal (< %.2fx): the scenario "
                "does not discriminate" % (s, b, targets.value("ddp.discriminates"))]
    out = []
    for m in ("learned", "attached"):
        if med(m) is None:
            continue
        ok = targets.met("converged", med(m)) and targets.met("ddp.speedup", b / med(m))
        out.append("- %s, MLTCP %s: %.3fx the ideal (<= %.2f) and %.2fx "
                   "faster than the base (>= %.2f): %s" % (
                       s, m, med(m), targets.value("converged"), b / med(m),
                       targets.value("ddp.speedup"), "met" if ok else "NOT met"))
    return out


def _control_target(s, med):
    """How much of the base's loss a shared link explains at all."""
    b, u = med("base"), med("unshaped")
    share = "%.0f%%" % (100 * (b - u) / (b - 1)) if b > 1.0 else "-"
    if b > 1.0 and u <= 1.0:
        # the ideal ran through the tbf too, so the control can beat it
        share = "all"
    return ["- %s, control: the same jobs under the base with no link "
            "bottleneck run %.3fx the ideal, the base %.3fx: the shared "
            "link explains %s of the base's loss" % (s, u, b, share)]


def _multi_targets(s, med):
    return ["- %s, MLTCP %s: %.3fx the ideal (<= %.2f): %s" % (
        s, m, med(m), targets.value("ddp.multi"), targets.verdict("ddp.multi", med(m)))
        for m in ("learned", "attached") if med(m) is not None]


def _guard_targets(s, per):
    bj = per["base"][1]

    def slowest(mj):
        """The worst job's median time in a mode over its median under the base."""
        return max(statistics.median(mj[i]) / statistics.median(bj[i]) for i in mj)
    out = []
    hj = per["base-attached"][1]
    if hj and bj:
        out.append("- %s, control: with attach() on the base algorithm (no "
                   "MLTCP), slowest job %.3fx its time under the base" % (s, slowest(hj)))
    for m in ("learned", "attached"):
        mj = per[m][1]
        if not mj or not bj:
            continue
        worst = slowest(mj)
        out.append("- %s, MLTCP %s: slowest job %.3fx its time under the base "
                   "(<= %.2f): %s" % (s, m, worst, targets.value("guard"),
                                      targets.verdict("guard", worst)))
    return out


def _same_losses(sr):
    """Whether each job's loss curve is the same in every run and mode."""
    curves = {}
    for r in sr:
        curves.setdefault(r["j"], set()).add(json.dumps(r["losses"]))
    return all(len(c) == 1 for c in curves.values())


def _targets(s, kind, sr, per):
    """A scenario's targets, and whether its loss curves are all the same."""
    def med(m):
        return statistics.median(per[m][0]) if per[m][0] else None
    out = []
    if kind == "pair" and med("base") is not None:
        out += _pair_targets(s, med)
    if med("unshaped") is not None and med("base") is not None:
        out += _control_target(s, med)
    if kind == "multi":
        out += _multi_targets(s, med)
    elif kind == "guard":
        out += _guard_targets(s, per)
    # the same seed gives the same losses, whatever the congestion control
    same = _same_losses(sr)
    out.append("- %s: loss curves identical in every run and mode (same seed): %s" % (
        s, "met" if same else "NOT met"))
    return out, same


def _notes(env):
    """What the run's settings (env.txt) add below the table."""
    out = []
    if env.get("pin") == "job":
        # the ideal and every round alike: a job's two ranks share its CPU
        out += ["", "Each job's two ranks ran on one CPU of their own, job j on CPU j "
                "modulo the machine's %s (`--pin job`), its ideal too." % env.get("cpus", "?")]
    if "rate_auto_unbound_mbit" in env:
        out += ["", "The bottleneck ran at %s Mbit/s (`--rate auto`): %.0f%% of the %s "
                "Mbit/s the first job moved alone over its backward pass with no "
                "bottleneck, so that the link is busy through a job's whole window." % (
                    env["rate_mbit"], 100 * float(env.get("rate_auto_share", AUTO_RATE_SHARE)),
                    env["rate_auto_unbound_mbit"])]
    return out


def report(outdir):
    """The table and the targets of issue 11 from OUTDIR/ddp.tsv: (Markdown, status)."""
    rows = read_tsv(outdir)
    env = read_env(outdir)
    iters = int(env["iters"])
    out = ["| scenario | mode | runs | worst job / ideal: median (min-max) | "
           "converged (<= %.2fx) | base / mode (worst job) | iterations counted | "
           "per run, median: drops / retransmitted / timeouts / CPU busy |"
           % targets.value("converged"),
           "|---|---|---|---|---|---|---|---|"]
    judged = []
    status = 0
    for s in scenarios(rows):
        sr = [r for r in rows if r["s"] == s]
        ideal, bwd, alone_net = _alone_info(sr)
        per = _per_mode(sr, ideal)
        out += _alone_attached_rows(s, sr, ideal, bwd, alone_net)
        out += _mode_rows(s, sr, per, iters)
        scen_targets, same = _targets(s, sr[0]["k"], sr, per)
        judged += scen_targets
        status |= 0 if same else 1
    out += _notes(env)
    return "\n".join(out + ["", "## Targets", ""] + judged) + "\n", status


def ab_rows(variants):
    """bench-ab -d's table: VARIANTS is [(name, [results directory of each round])].
    Per scenario, mode and variant, pooled over the rounds: converged runs, each run's
    worst job against its ideal (the ideal measured in the same directory), and the
    slowest job's median time against its median under the base in the same rounds."""
    out = ["| scenario | mode | variant | converged (<= %.2fx) | worst job / ideal: "
           "median (min-max) | slowest job / its base time |" % targets.value("converged"),
           "|---|---|---|---|---|---|"]
    pooled = {}
    for name, dirs in variants:
        for d in dirs:
            rows = read_tsv(d)
            for s in scenarios(rows):
                sr = [r for r in rows if r["s"] == s]
                ideal = _alone_info(sr)[0]
                for m, (worst, jobt) in _per_mode(sr, ideal).items():
                    p = pooled.setdefault((s, m, name), ([], {}))
                    p[0].extend(worst)
                    for i, t in jobt.items():
                        p[1].setdefault(i, []).extend(t)
    for s in dict.fromkeys(k[0] for k in pooled):
        for m in MODES:
            for name, _ in variants:
                worst, jobt = pooled.get((s, m, name), ([], {}))
                if not worst:
                    continue
                bj = pooled.get((s, "base", name), ([], {}))[1]
                slow = "-"
                if m != "base" and bj and all(i in bj for i in jobt):
                    slow = "%.3f" % max(statistics.median(jobt[i]) / statistics.median(bj[i])
                                        for i in jobt)
                out.append("| %s | %s | %s | %d/%d | %.3f (%.3f-%.3f) | %s |" % (
                    s, m, name, sum(targets.met("converged", w) for w in worst), len(worst),
                    statistics.median(worst), min(worst), max(worst), slow))
    return "\n".join(out) + "\n"
