#!/bin/bash
# Per-socket control: a program using libmltcp sets bytes per iteration and marks
# iteration starts on loopback connections (IPv4 and IPv6) and reads the state back:
# bytes_ratio rises from 0 to 1 across an iteration, F follows slope/intercept, the
# iteration counter advances once per begin call, the phase is base on a fresh connection,
# unearned right after a mark and overrun past the bound (userspace/testprogs/mltcp_state_test.c).
# Repeated for mltcp_reno and mltcp_cubic, with other slope/intercept values set
# through mltcpctl, and with mode off (F stays 1).  These run with stagger 0 (no
# tie-break head start) so F is exactly slope * ratio + intercept; the Python part
# then sets a tie-break and checks the head start it gives.
. "$(dirname "$0")/lib.sh"

ML_BIN=${ML_BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}
[ -x "$ML_BIN/mltcp-state-test" ] && [ -x "$ML_BIN/mltcpctl" ] ||
	{ echo "1..1"; echo "not ok 1 - userspace tools are built in $ML_BIN (make userspace)"; exit 1; }

# run_prog DESC CMD...: runs a TAP-printing test program; its output becomes
# diagnostics, its exit status the result.
run_prog() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | diag_stream
	tap_result "$desc ($(grep -c '^ok' <<<"$out") checks passed, $(grep -c '^not ok' <<<"$out") failed)" $rc
}

tap_plan 7
ml_modprobe mltcp_reno && ml_modprobe mltcp_cubic || bail "load mltcp_reno and mltcp_cubic"
ml_netns NS st || bail "network namespace"
params=$("$ML_BIN/mltcpctl" -j show) || bail "mltcpctl show"
old=$(python3 -c 'import json,sys; p=json.load(sys.stdin); print(p["slope"], p["intercept"], p["mode"], p["stagger"])' <<<"$params")
read -r old_slope old_intercept old_mode old_stagger <<<"$old"
at_exit "'$ML_BIN/mltcpctl' set slope $old_slope intercept $old_intercept mode $old_mode stagger $old_stagger"

"$ML_BIN/mltcpctl" set slope 1 intercept 1 mode learned stagger 0
run_prog "mltcp_reno, slope 1 intercept 1: state read back over 4 iterations" \
	in_ns "$NS" "$ML_BIN/mltcp-state-test" -a mltcp_reno -i 4
run_prog "mltcp_cubic, slope 1 intercept 1" \
	in_ns "$NS" "$ML_BIN/mltcp-state-test" -a mltcp_cubic -i 3 -b 524288

tap_check "mltcpctl set slope 0.5 intercept 1.25" "$ML_BIN/mltcpctl" set slope 0.5 intercept 1.25
run_prog "mltcp_reno, slope 0.5 intercept 1.25: F follows the new parameters" \
	in_ns "$NS" "$ML_BIN/mltcp-state-test" -a mltcp_reno -i 3

"$ML_BIN/mltcpctl" set slope 2 intercept 0.25 mode given
run_prog "mltcp_cubic, slope 2 intercept 0.25, mode given (hinted sockets use F)" \
	in_ns "$NS" "$ML_BIN/mltcp-state-test" -a mltcp_cubic -i 3

"$ML_BIN/mltcpctl" set slope 1 intercept 1 mode learned
out=$(in_ns "$NS" env MLTCP_LIBRARY="$ML_BIN/../lib/libmltcp.so.1" \
	python3 - "$(dirname "$0")/../userspace/python" 2>&1 <<'P'
import fcntl, socket, struct, sys, termios, time, threading
sys.path.insert(0, sys.argv[1])
import mltcp
srv = socket.socket(socket.AF_INET6)
srv.bind(("::1", 0)); srv.listen()
cli = socket.socket(socket.AF_INET6)
mltcp.enable(cli, "mltcp_cubic")
mltcp.set_bytes_per_iter(cli, 200000)     # before connect: kept
mltcp.set_tiebreak(cli, 0)                # before connect: kept (no head start)
cli.connect(srv.getsockname()[:2])
peer, _ = srv.accept()
threading.Thread(target=lambda: [None for _ in iter(lambda: peer.recv(65536), b"")], daemon=True).start()
mltcp.register(cli)
def drained():
    for _ in range(500):
        if struct.unpack("i", fcntl.ioctl(cli, termios.TIOCOUTQ, b"\0" * 4))[0] == 0:
            return
        time.sleep(0.01)
# each iteration: a mark, the compute phase (the mark earns F at the first send after
# an idle gap: idle_ms, 10 ms, from the last send; lsndtime is in jiffies), the bytes.
# The first, of the declared size, shows it (F = 1 through it); the second earns F.
for sent in (200000, 100000):
    mltcp.iteration_begin_all()
    time.sleep(0.05)
    cli.sendall(bytes(sent))
    drained()
    if sent == 200000:
        assert mltcp.get_state(cli).f_q10 == 1024, mltcp.get_state(cli)
st = mltcp.get_state(cli)
print(st)
assert mltcp.abi_version() == 3 and st.algo == "mltcp_cubic" and st.size_given and st.bounds_given
assert st.tiebreak_given and st.tiebreak_q10 == 0, st
assert (st.bytes_per_iter, st.bytes_this_iter, st.bytes_ratio_q10, st.f_q10, st.iterations) == (200000, 100000, 512, 1536, 1), st
# tie-break 1 with stagger 0.5 (set by the caller): F as if half an iteration ahead,
# clamped at slope + intercept; 0.5 -> head start 0.25 -> F = 1 + 0.75
with open("/sys/module/mltcp/parameters/stagger", "w") as p:
    p.write("0.5")
mltcp.set_tiebreak(cli, 1.0)
st = mltcp.get_state(cli)
assert (st.tiebreak_q10, st.bytes_ratio_q10, st.f_q10) == (1024, 512, 2048), st
assert st.stagger == 0.5 and st.head_start, (st.stagger, st.head_start)
assert st.decrease == (open("/sys/module/mltcp/parameters/decrease").read().strip() == "Y")
mltcp.set_tiebreak(cli, 0.5)
st = mltcp.get_state(cli)
assert (st.tiebreak, st.f_q10) == (0.5, 1792), st
try:
    mltcp.set_tiebreak(cli, 2)
    raise SystemExit("tie-break 2 accepted")
except ValueError:
    pass
with open("/sys/module/mltcp/parameters/stagger", "w") as p:
    p.write("0")
mltcp.set_tiebreak(cli, 0)
before = mltcp.get_state(cli)
mltcp.iteration_begin_all()
st = mltcp.get_state(cli)
# right after a mark F waits for its idle gap, and the state says so.  The phase does
# too, unless the last iteration ended inside its yield (its samples on this loopback
# all read as a queue, which a loaded host makes happen): a mark does not end a yield,
# the next restart does (include/mltcp_phase.h)
want = "yield" if before.phase == "yield" else "unearned"
assert st.iterations == 2 and st.unearned and st.f_q10 == 1024 and st.phase == want, (before, st)
mltcp.unregister(cli)
print("ok")
P
)
rc=$?
printf '%s\n' "$out" | diag_stream
tap_result "Python binding (ctypes): size and tie-break before connect, registry begin, F 1 through the iteration that shows the size, then state 100000/200000 -> ratio 0.5, F 1.5; tie-break head start; phase unearned after a mark" $rc

"$ML_BIN/mltcpctl" set slope 1 intercept 1 mode off
run_prog "mode off: F stays 1 through the iteration" \
	in_ns "$NS" "$ML_BIN/mltcp-state-test" -a mltcp_reno -i 2
tap_done
