#!/bin/bash
#   NS_S[0] (README commands) ── NS_RT ═══ bn0 100 Mbit/s ═══> NS_RR ── NS_R[0] (HOST)
#
# The README's examples run as a user would type them. Every code block of README.md
# preceded by the marker line
#
#	<!-- readme-test -->
#
# (blank lines may come between) is a list of shell commands, one a line (a trailing
# backslash continues a line, "# ..." is a comment, as in bash). Each runs with bash,
# in the sender namespace of a one-pair dumbbell, as root, and must exit 0 within 60 s.
# The environment stands in for a host with MLTCP installed:
#   - the modules are loaded (the README's build/install step), the userspace tools
#     of build/ are on PATH and LD_LIBRARY_PATH;
#   - the word HOST is replaced by the receiver's address, where iperf3 -s listens
#     (port 5201) and a sink accepts connections on port 5202;
#   - the working directory holds train.py, a stand-in for a training script: it
#     connects to HOST:5202, fails unless its socket uses $MLTCP_CC (when set), and
#     sends 4 MB.
# Global parameters and sysctls are restored on exit. A marker without a code block,
# or a README without any marker, fails.
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
readme=${MLTCP_README:-$top/README.md}
ML_BIN=${ML_BIN:-$top/build/bin}
ML_LIB=${ML_LIB:-$top/build/lib}

# extract README: prints "LINE<TAB>COMMAND" for every command of the marked blocks.
extract() {
	python3 - "$1" <<'PY'
import re, sys

path = sys.argv[1]
lines = open(path, encoding="utf-8").read().split("\n")
mark = re.compile(r"^\s*<!--\s*readme-test\s*-->\s*$")
found = 0
i = 0
while i < len(lines):
    if not mark.match(lines[i]):
        i += 1
        continue
    at = i + 1
    i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    block = []
    if i < len(lines) and lines[i].lstrip().startswith("```"):
        i += 1
        while i < len(lines) and not lines[i].lstrip().startswith("```"):
            block.append((i + 1, lines[i]))
            i += 1
    else:
        while i < len(lines) and (lines[i].startswith("    ") or lines[i].startswith("\t")
                                  or not lines[i].strip()):
            if lines[i].strip():
                block.append((i + 1, lines[i][4:] if lines[i].startswith("    ") else lines[i][1:]))
            i += 1
    cmd, start = "", 0
    for n, text in block:
        if not cmd:
            start = n
        if text.rstrip().endswith("\\"):
            cmd += text.rstrip()[:-1] + " "
            continue
        cmd += text
        if cmd.strip() and not cmd.strip().startswith("#"):
            print(f"{start}\t{cmd.strip()}")
            found += 1
        cmd = ""
    if not block:
        print(f"{path}:{at}: readme-test marker not followed by a code block", file=sys.stderr)
        sys.exit(1)
if not found:
    print(f"{path}: no command in blocks marked <!-- readme-test -->", file=sys.stderr)
    sys.exit(1)
PY
}

cmds=$(extract "$readme") || { echo "1..1"; echo "not ok 1 - README examples: $(extract "$readme" 2>&1 >/dev/null)"; exit 1; }
mapfile -t cmdlines <<<"$cmds"
[ -x "$ML_BIN/mltcpctl" ] && [ -e "$ML_LIB/libmltcp-preload.so" ] ||
	{ echo "1..1"; echo "not ok 1 - userspace tools are built in $top/build (make userspace)"; exit 1; }

tap_plan $((${#cmdlines[@]} + 1))
ok "README.md: ${#cmdlines[@]} commands in blocks marked <!-- readme-test -->"

for m in mltcp mltcp_reno mltcp_cubic mltcp_dctcp; do
	ml_modprobe "$m" || bail "load $m"
done
orig=$("$ML_BIN/mltcpctl" -j show) || bail "mltcpctl -j show"
restore=$(python3 -c '
import json, sys
p = json.loads(sys.argv[1])
print("set", " ".join(f"{k} {p[k]}" for k in ("slope", "intercept", "idle_ms", "mode")))' "$orig")
at_exit "'$ML_BIN/mltcpctl' $restore"
ml_sysctl_restore net.ipv4.tcp_congestion_control

dumbbell_setup 100 tbf 1 || bail "dumbbell setup"
snd=${NS_S[0]}
rcv=${NS_R[0]}
host=${RCV_IP4[0]}
in_ns "$rcv" iperf3 -s -p 5201 >/dev/null 2>&1 &
at_exit "kill $!"
in_ns "$rcv" python3 -c '
import socket, threading
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 5202))
s.listen(16)
def sink(c):
    while c.recv(1 << 16):
        pass
    c.close()
while True:
    c, _ = s.accept()
    threading.Thread(target=sink, args=(c,), daemon=True).start()
' >/dev/null 2>&1 &
at_exit "kill $!"
wait_port "$rcv" 5201 && wait_port "$rcv" 5202 || bail "servers on $host"

work=$(mktemp -d)
at_exit "rm -rf '$work'"
cat >"$work/train.py" <<PY
# Stand-in for a training script (test_40_readme_examples.sh).
import os, socket, sys
s = socket.create_connection(("$host", 5202))
cc = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).split(b"\\0")[0].decode()
want = os.environ.get("MLTCP_CC")
if want and cc != want:
    sys.exit(f"train.py: socket uses {cc}, not MLTCP_CC={want}")
s.sendall(b"x" * (4 << 20))
s.close()
print(f"train.py: sent 4 MB with {cc}")
PY

for line in "${cmdlines[@]}"; do
	n=${line%%$'\t'*}
	cmd=${line#*$'\t'}
	run=$(sed -E "s/(^|[^[:alnum:]_])HOST([^[:alnum:]_]|$)/\\1$host\\2/g" <<<"$cmd")
	out=$(cd "$work" && PATH="$ML_BIN:$PATH" LD_LIBRARY_PATH="$ML_LIB" \
		timeout -k 5 60 ip netns exec "$snd" bash -o pipefail -c "$run" 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		ok "README.md:$n: $cmd"
	else
		not_ok "README.md:$n: $cmd (exit $rc)"
		[ "$run" != "$cmd" ] && diag "ran: $run"
		printf '%s\n' "$out" | tail -n 20 | diag_stream
	fi
done
tap_done
