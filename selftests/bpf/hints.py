#!/usr/bin/env python3
# Per-socket hints through libmltcp's Python binding on the BPF backend, one
# loopback connection with ALGO (argv[1]); prints TAP lines (no plan), exit 1 on
# a failure. Run by test_03_bpf_hints.sh with stagger 0 and the default F.
import errno
import json
import os
import socket
import subprocess
import sys
import threading
import time

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(top, "userspace", "python"))
import mltcp  # noqa: E402

algo = sys.argv[1]
mltcpctl = os.environ["MLTCPCTL"]
n = int(os.environ.get("TAP_FIRST", "1"))
failed = 0


def tap(cond, desc):
    global n, failed
    print(("ok %d - " if cond else "not ok %d - ") % n + desc, flush=True)
    n += 1
    failed += 0 if cond else 1


def given(name):
    show = json.loads(subprocess.check_output([mltcpctl, "-j", "show"]))
    return [a for a in show["algorithms"] if a["name"] == name][0]["iterations_given"]


def errno_of(fn, *args):
    try:
        fn(*args)
    except OSError as e:
        return e.errno
    return 0


srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
port = srv.getsockname()[1]


def sink():
    c, _ = srv.accept()
    while c.recv(1 << 20):
        pass


threading.Thread(target=sink, daemon=True).start()

tap(mltcp.abi_version() == 3, "%s: libmltcp sees the BPF backend (ABI %d)" % (algo, mltcp.abi_version()))
s = socket.socket()
mltcp.enable(s, algo)
mltcp.set_bytes_per_iter(s, 1 << 20)           # before connect(): kept by init
s.connect(("127.0.0.1", port))
st = mltcp.get_state(s)
tap(st.bytes_per_iter == 1 << 20 and st.size_given and st.algo == algo,
    "%s: a size given before connect() reads back (%s)" % (algo, st))
b = socket.socket()
mltcp.enable(b, algo)
b.connect(("127.0.0.1", port))
st = mltcp.get_state(b)
tap(st.phase == "base", "%s: a connection without hints is in phase base (%s)" % (algo, st))
b.close()
mltcp.set_tiebreak(s, 0.5)
mltcp.iteration_begin(s)
st = mltcp.get_state(s)
tap(st.phase == "unearned", "%s: right after a mark the phase is unearned (%s)" % (algo, st))
time.sleep(0.05)        # the compute phase: the first send after it earns the iteration F
s.sendall(b"x" * (1 << 20))
time.sleep(0.3)
st = mltcp.get_state(s)
# the first iteration shows the declared size: F = 1 through it
tap(st.bytes_this_iter == 1 << 20 and st.f == 1.0 and st.tiebreak == 0.5
    and st.bounds_given and st.tiebreak_given,
    "%s: after a mark and one iteration's bytes: ratio 1, F 1 (the size not yet shown), "
    "tie-break 0.5 (%s)" % (algo, st))
g0 = given(algo)
mltcp.iteration_begin(s)
s.sendall(b"x" * (1 << 18))
time.sleep(0.3)
st = mltcp.get_state(s)
tap(st.iterations == 1 and st.bytes_this_iter == 1 << 18 and abs(st.f - 1.25) < 1e-9,
    "%s: a second mark completes an iteration; a quarter through it F is 1.25 (%s)" % (algo, st))
g1 = given(algo)
tap(g1 == g0 + 1, "%s: the BPF side applied the mark (iterations_given %d -> %d)" % (algo, g0, g1))
mltcp.set_bytes_per_iter(s, 0)
s.sendall(b"x" * 1000)
time.sleep(0.1)
st = mltcp.get_state(s)
tap(not st.size_given and not st.bounds_given,
    "%s: size 0 drops the hints (%s)" % (algo, st))

plain = socket.socket()
plain.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"reno")
tap(errno_of(mltcp.set_bytes_per_iter, plain, 65536) == errno.EOPNOTSUPP,
    "%s: a socket on another algorithm: EOPNOTSUPP" % algo)
tap(errno_of(mltcp.set_bytes_per_iter, s, 4096) == errno.EINVAL,
    "%s: a size below the 16 KiB floor: EINVAL" % algo)
tap(errno_of(mltcp.get_state, srv) == errno.ENOTCONN, "%s: a listening socket: ENOTCONN" % algo)
tap(errno_of(mltcp.iteration_begin, s, (1 << 48) + 1) == errno.EINVAL,
    "%s: a size above 2^48: EINVAL" % algo)
s.close()
sys.exit(1 if failed else 0)
