#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The lab's targets (lab/targets.conf, or the file MLTCP_TARGETS names): the one
reader of the file.  Each target is a name, a comparison and a value; a measured value
meets it when "value OP VALUE" holds.

As a module (bench-ddp's reports): value(NAME), met(NAME, X), verdict(NAME, X).
As a tool, for the reports in shell and awk and for mltcp-bench's build:

    lab/scripts/targets.py get NAME    the value, as the file writes it
    lab/scripts/targets.py awk         awk program text to put before a report's own:
                                       T[NAME] and OP[NAME], target_met(NAME, X) (1 or 0)
                                       and target_verdict(NAME, X) ("met" or "NOT met")
    lab/scripts/targets.py c           a C header: TARGET_NAME for each (upper case, "."
                                       as "_"), its value as the file writes it
"""
import math
import os
import re
import sys

OPS = {"<=": lambda x, v: x <= v, "<": lambda x, v: x < v,
       ">=": lambda x, v: x >= v, ">": lambda x, v: x > v}
FILE = os.environ.get("MLTCP_TARGETS") or os.path.join(
    os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "targets.conf")


def load(path=FILE):
    """{name: (op, value text)} of the targets file; a malformed line ends the caller."""
    out = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            w = line.split(None, 3)
            if not w or w[0].startswith("#"):
                continue
            if len(w) < 4 or w[1] not in OPS or not re.match(r"^[0-9]+(\.[0-9]+)?$", w[2]) \
                    or not re.match(r"^[a-z][a-z0-9.]*$", w[0]) or w[0] in out:
                sys.exit("targets: %s:%d: not NAME OP VALUE WHY (OP <=, <, >= or >; a "
                         "name once)" % (path, n))
            out[w[0]] = (w[1], w[2])
    return out


TARGETS = load()


def value(name):
    return float(TARGETS[name][1])


def met(name, x):
    """Whether the measured @x meets target @name (never for None or NaN)."""
    if x is None or math.isnan(x):
        return False
    op, v = TARGETS[name]
    return OPS[op](x, float(v))


def verdict(name, x):
    return "met" if met(name, x) else "NOT met"


def awk():
    body = "".join('\tT["%s"] = %s; OP["%s"] = "%s"\n' % (n, v, n, op)
                   for n, (op, v) in TARGETS.items())
    return ("BEGIN {\n%s}\n"
            "function target_met(n, x) {\n"
            "\tx += 0\n"
            "\treturn OP[n] == \"<=\" ? x <= T[n] : OP[n] == \"<\" ? x < T[n] : "
            "OP[n] == \">=\" ? x >= T[n] : x > T[n]\n"
            "}\n"
            "function target_verdict(n, x) { return target_met(n, x) ? \"met\" : \"NOT met\" }\n"
            % body)


def c_header():
    lines = ["/* Generated from %s by lab/scripts/targets.py: the lab's targets. */"
             % os.path.basename(FILE),
             "#ifndef MLTCP_BENCH_TARGETS_H", "#define MLTCP_BENCH_TARGETS_H", ""]
    lines += ["#define TARGET_%s %s" % (n.upper().replace(".", "_"), v)
              for n, (_, v) in TARGETS.items()]
    return "\n".join(lines + ["", "#endif", ""])


def main(argv):
    if argv[1:2] == ["get"] and len(argv) == 3 and argv[2] in TARGETS:
        print(TARGETS[argv[2]][1])
    elif argv[1:] == ["awk"]:
        sys.stdout.write(awk())
    elif argv[1:] == ["c"]:
        sys.stdout.write(c_header())
    else:
        sys.exit("usage: targets.py get NAME | awk | c (targets: %s)" % " ".join(TARGETS))


if __name__ == "__main__":
    main(sys.argv)
