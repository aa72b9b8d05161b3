# SPDX-License-Identifier: GPL-2.0-only
"""bench-ddp --guard: the incompatible mix's guard pooled over several results (boots).

Each round's slowest job against its median time under the base, per results and over
all of them, and the pooled slowest job's time against the base with a bootstrap
interval that says whether the rounds settle the guard.
"""
import math
import random
import statistics

import targets
from .results import mode_rounds, read_tsv

# issue 11's guard: in the incompatible mix no job slower than this against the base
GUARD_LIMIT = targets.value("guard")
# the modes the guard judges, the base's own rounds as the noise reference
GUARD_MODES = ("base", "learned", "attached")
# the pooled guard's bootstrap: resamples, and a fixed seed so a report reproduces
GUARD_RESAMPLES = 2000
GUARD_SEED = 11


def guard_boot_rounds(outdir):
    """Per guard scenario of OUTDIR: {mode: [per round, {job: its time}]}, the base's
    rounds among them: what guard_rounds() judges and guard_estimate() resamples."""
    rows = read_tsv(outdir)
    out = {}
    for s in dict.fromkeys(r["s"] for r in rows if r["k"] == "guard"):
        sr = [r for r in rows if r["s"] == s]
        out[s] = {m: [{r["j"]: r["t"] for r in rr} for rr in mode_rounds(sr, m)]
                  for m in GUARD_MODES}
    return out


def guard_rounds(boot):
    """One scenario of one results (guard_boot_rounds()): {mode: [per round, the
    slowest job's time over that job's median time under the base]}.  The base's own
    rounds are judged the same way: how far a round strays from its own median is
    the noise any one round of another mode is read against."""
    jobs = {j for rnd in boot["base"] for j in rnd}
    bmed = {j: statistics.median(r[j] for r in boot["base"] if j in r) for j in jobs}
    per = {}
    for m in GUARD_MODES:
        for rnd in boot[m]:
            if rnd and all(j in bmed for j in rnd):
                per.setdefault(m, []).append(max(t / bmed[j] for j, t in rnd.items()))
    return per


def guard_ratio(boots, mode):
    """The slowest job's time under MODE against its time under the base, pooled over
    BOOTS (each {mode: [per round, {job: time}]}): per boot and job the ratio of the
    medians over rounds, its logarithm averaged over the boots weighted by their
    rounds under MODE, the largest over jobs.  None when no boot ran both."""
    logs = {}
    for b in boots:
        if not b["base"] or not b[mode]:
            continue
        for j in b["base"][0]:
            base = statistics.median(r[j] for r in b["base"])
            t = statistics.median(r[j] for r in b[mode])
            logs.setdefault(j, []).append((len(b[mode]), math.log(t / base)))
    if not logs:
        return None
    return max(math.exp(sum(w * x for w, x in v) / sum(w for w, _ in v))
               for v in logs.values())


def guard_estimate(boots, mode, resamples=GUARD_RESAMPLES):
    """guard_ratio() and its bootstrap interval: each boot's base and MODE rounds
    resampled with replacement, a round kept whole (its jobs ran together), the
    statistic recomputed RESAMPLES times; a fixed seed, so that the same results
    always print the same interval.  (ratio, low, high) with low and high the 5th and
    95th percentiles, or None."""
    est = guard_ratio(boots, mode)
    if est is None:
        return None
    rng = random.Random(GUARD_SEED)
    stats = []
    for _ in range(resamples):
        rb = [{m: [rng.choice(b[m]) for _ in b[m]] if b[m] else [] for m in ("base", mode)}
              for b in boots]
        stats.append(guard_ratio(rb, mode))
    stats.sort()
    return est, stats[int(0.05 * (resamples - 1))], stats[int(0.95 * (resamples - 1))]


def guard_verdict(low, high):
    """What an interval says about the guard: met only when all of it is within."""
    if targets.met("guard", high):
        return "met"
    if not targets.met("guard", low):
        return "not met"
    return "not resolved: the interval straddles %.2fx" % GUARD_LIMIT


def _rounds_row(results, scenario, mode, ratios):
    """A row of the per-round table: the rounds' ratios and how many are within."""
    return "| %s | %s| %s | %d | %.3f (%.3f-%.3f) | %d/%d |" % (
        results, scenario + " " if scenario else "", mode, len(ratios),
        statistics.median(ratios), min(ratios), max(ratios),
        sum(targets.met("guard", x) for x in ratios), len(ratios))


def _estimate_rows(boots):
    """The pooled estimate's table: a row per scenario and MLTCP mode."""
    out = ["", "Pooled estimate: per job, its median time under the mode over its median "
           "time under the base in the same results, averaged over the results "
           "(geometric, weighted by rounds); the slowest job's; a %d-resample bootstrap "
           "of the rounds gives the 90%% interval." % GUARD_RESAMPLES, "",
           "| scenario | mode | results | rounds | slowest job / its time under the base "
           "| 90%% interval | guard (<= %.2fx) |" % GUARD_LIMIT,
           "|---|---|---|---|---|---|---|"]
    for s, bl in boots.items():
        for m in GUARD_MODES[1:]:
            e = guard_estimate(bl, m)
            if e is None:
                continue
            used = [b for b in bl if b["base"] and b[m]]
            out.append("| %s | %s | %d | %d | %.3f | %.3f-%.3f | %s |" % (
                s, m, len(used), sum(len(b[m]) for b in used), e[0], e[1], e[2],
                guard_verdict(e[1], e[2])))
    return out


def guard(outdirs):
    """The incompatible mixes' guard pooled over several results (boots): each
    round's slowest job against its median time under the base, and how many rounds
    stay within the guard; (Markdown, status)."""
    out = ["| results | scenario | mode | rounds | slowest job / its median time under "
           "the base, per round: median (min-max) | rounds within %.2fx |" % GUARD_LIMIT,
           "|---|---|---|---|---|---|"]
    pooled = {}
    boots = {}
    for d in outdirs:
        for s, b in guard_boot_rounds(d).items():
            boots.setdefault(s, []).append(b)
            for m, v in guard_rounds(b).items():
                pooled.setdefault(m, []).extend(v)
                out.append(_rounds_row(d, s, m, v))
    if not pooled:
        return "bench-ddp: no incompatible mix (a guard scenario) in %s\n" % \
            " ".join(outdirs), 1
    out += [_rounds_row("all", "", m, pooled[m]) for m in GUARD_MODES if m in pooled]
    out += _estimate_rows(boots)
    return "\n".join(out) + "\n", 0
