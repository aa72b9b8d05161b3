# SPDX-License-Identifier: GPL-2.0-only
"""The network bench-ddp's jobs share, and the state of the machine around a trial.

Three namespaces joined by veths, one tbf FIFO per direction as the bottleneck (on the
router, or with --bottleneck egress on the two hosts' own eth0), built by
selftests/topology.sh (its layout pair):

    left (ranks 0) eth0 ==[tbf ->]== router ==[<- tbf]== eth0 right (ranks 1)
      10.77.1.2                                          10.77.2.2

Also the congestion control the hosts default to, the MLTCP variant's loading, and
the counters a trial's row records (RUN_COUNTERS: drops, retransmissions, CPU).
"""
import json
import os
import subprocess
import sys

from . import TOP
from .results import RUN_COUNTERS

BUILDER = os.path.join(TOP, "selftests", "topology.sh")
PREFIX = "mlddp"
# both ranks of a job send, so a FIFO each way; tbf must see MTU-sized packets, as a
# NIC queue would: no offloads on any link
LAYOUT = ("--layout", "pair", "--duplex", "--offloads", "off")
# what topology() built: {"left", "right", "router": namespace}, {"left", "right":
# address}, the (NS key, device) pairs whose tbf is the bottleneck, its placement
NS = {}
ADDR = {}
BOTTLENECKS = []
PLACEMENT = []
ALLOWED_CC = "/proc/sys/net/ipv4/tcp_allowed_congestion_control"


def sh(*cmd, ns=None, check=True):
    """Runs CMD (in namespace NS, a key of NS); its stdout.  With CHECK a failure
    ends bench-ddp with the command's stderr."""
    if ns:
        cmd = ("ip", "netns", "exec", NS[ns]) + cmd
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and r.returncode:
        sys.exit("bench-ddp: %s: %s" % (" ".join(cmd), r.stderr.strip()))
    return r.stdout


def _build(cmd, rate):
    """selftests/topology.sh CMD (up or shape) at @rate Mbit/s (None: no FIFO), and
    what it built into NS, ADDR and BOTTLENECKS."""
    out = sh(BUILDER, cmd, PREFIX, *LAYOUT, "--placement", PLACEMENT[0],
             "--rate", "none" if rate is None else str(rate))
    fifos = []
    for w in (line.split() for line in out.splitlines()):
        if w[0] in ("sender", "receiver"):
            side = "left" if w[0] == "sender" else "right"
            NS[side], ADDR[side] = w[2], w[3]
        elif w[0] == "hub":
            NS["router"] = w[1]
        elif w[0] == "fifo":
            fifos.append((w[1], w[2]))
    key = {ns: k for k, ns in NS.items()}
    BOTTLENECKS[:] = [(key[ns], dev) for ns, dev in fifos]


def topology(rate, bottleneck):
    """The namespaces afresh, the bottleneck (@bottleneck: "router" or "egress") at
    @rate Mbit/s (None: unshaped), and a ping through it."""
    teardown()
    PLACEMENT[:] = [bottleneck]
    _build("up", rate)


def shape(rate):
    """The bottleneck: a tbf FIFO of @rate Mbit/s where topology() placed it, or none
    at all (the devices' default qdisc) when @rate is None."""
    _build("shape", rate)


def teardown():
    subprocess.run((BUILDER, "down", PREFIX) + LAYOUT, stderr=subprocess.DEVNULL)


def set_cc(cc):
    """Both hosts' default congestion control: what every new connection runs."""
    for side in ("left", "right"):
        sh("sysctl", "-qw", "net.ipv4.tcp_congestion_control=" + cc, ns=side)


def allow_cc(names):
    """A namespace's default congestion control must be in the allowed list; adds
    @names to it and returns the list as it was (restore_allowed_cc())."""
    with open(ALLOWED_CC) as f:
        old = f.read().split()
    with open(ALLOWED_CC, "w") as f:
        f.write(" ".join(old + [n for n in names if n not in old]))
    return " ".join(old)


def restore_allowed_cc(allowed):
    with open(ALLOWED_CC, "w") as f:
        f.write(allowed)


def mltcp_ready(algo):
    """Loads the module (or finds the BPF backend's algorithm) and sets learned
    mode: without marks, sockets learn; with marks (attach), they follow them."""
    sh("modprobe", algo, check=False)
    with open("/proc/sys/net/ipv4/tcp_available_congestion_control") as f:
        if algo not in f.read().split():
            sys.exit("bench-ddp: %s is not available (modprobe %s, or mltcpctl bpf load)"
                     % (algo, algo))
    sh(os.path.join(TOP, "build", "bin", "mltcpctl"), "set", "mode", "learned")


def cpu_times():
    """(busy, total) jiffies of all CPUs, from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)         # idle + iowait
    total = sum(v[:8])                                 # guest times are in user already
    return total - idle, total


def run_counters():
    """The bottleneck's tbf drops, both hosts' TCP retransmission counters and the
    CPU times, now (run_delta() turns two of these into a trial's RUN_COUNTERS)."""
    c = dict.fromkeys(("drops", "retrans", "timeouts"), 0)
    for ns, dev in BOTTLENECKS:
        for q in json.loads(sh("tc", "-s", "-j", "qdisc", "show", "dev", dev, ns=ns)):
            if q.get("kind") == "tbf":
                c["drops"] += q.get("drops", 0)
    for side in ("left", "right"):
        k = json.loads(sh("nstat", "-asj", ns=side)).get("kernel", {})
        c["retrans"] += k.get("TcpRetransSegs", 0)
        c["timeouts"] += k.get("TcpExtTCPTimeouts", 0)
    c["cpu"] = cpu_times()
    return c


def run_delta(before, after):
    """A trial's RUN_COUNTERS, tab-separated."""
    d = {k: after[k] - before[k] for k in ("drops", "retrans", "timeouts")}
    busy, total = (a - b for a, b in zip(after["cpu"], before["cpu"]))
    d["cpu_pct"] = round(100 * busy / total) if total > 0 else 0
    return "\t".join(str(d[k]) for k in RUN_COUNTERS)
