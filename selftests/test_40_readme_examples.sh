#!/bin/bash
#   init netns (README commands, as on a host) ── veth ── NS_R (HOST: iperf3 -s, sink)
#
# The README's examples run as a user would type them. Every code block of README.md
# preceded by the marker line
#
#	<!-- readme-test -->
#
# (blank lines may come between) is a list of shell commands, one a line (a trailing
# backslash continues a line, "# ..." is a comment, as in bash). Each runs with bash,
# as root in the guest's initial network namespace (the README's commands are for a
# host: e.g. a netns other than the initial one may only pick an algorithm of
# tcp_allowed_congestion_control as its default), and must exit 0 within 60 s.
# The environment stands in for a host with MLTCP installed:
#   - the modules are loaded (the README's build/install step), the userspace tools
#     of build/ are on PATH and LD_LIBRARY_PATH;
#   - the word HOST is replaced by the receiver's address, where iperf3 -s listens
#     (port 5201) and a sink accepts connections on port 5202;
#   - the working directory holds train.py, a stand-in for a training script: it
#     connects to HOST:5202, fails unless its socket uses $MLTCP_CC and has
#     $MLTCP_BYTES_PER_ITER as its bytes per iteration (when set; read back with
#     MLTCP_SO_INFO), and sends 4 MB.
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

tap_plan $((${#cmdlines[@]} + 2))
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

ml_netns rcv r || bail "receiver namespace"
link=rdm$$
ip link add "$link" type veth peer name eth0 netns "$rcv" || bail "veth to $rcv"
at_exit "ip link del $link"
ip addr add 198.18.200.1/24 dev "$link" && ip link set "$link" up &&
	ip -n "$rcv" addr add 198.18.200.2/24 dev eth0 && ip -n "$rcv" link set eth0 up ||
	bail "addresses on $link"
host=198.18.200.2
ping -c1 -W5 -q "$host" >/dev/null || bail "ping $host"
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
import os, socket, struct, sys
MLTCP_SO_INFO = 0x4d4c00 + 16       # include/uapi/linux/mltcp.h
s = socket.create_connection(("$host", 5202))
cc = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).split(b"\\0")[0].decode()
want = os.environ.get("MLTCP_CC")
if want and cc != want:
    sys.exit(f"train.py: socket uses {cc}, not MLTCP_CC={want}")
bpi = os.environ.get("MLTCP_BYTES_PER_ITER")
if bpi:
    info = s.getsockopt(socket.IPPROTO_IP, MLTCP_SO_INFO, 64)
    got = struct.unpack_from("=Q", info, 40)[0]   # mltcp_info.bytes_per_iter
    if got != int(bpi):
        sys.exit(f"train.py: bytes per iteration {got}, not MLTCP_BYTES_PER_ITER={bpi}")
s.sendall(b"x" * (4 << 20))
s.close()
print(f"train.py: sent 4 MB with {cc}")
PY

# The stand-in must notice when the preload library did not do its job.
(cd "$work" && MLTCP_CC=mltcp_cubic MLTCP_BYTES_PER_ITER=26214400 python3 train.py \
	>/dev/null 2>&1)
[ $? != 0 ]
tap_result "train.py fails when it runs without libmltcp-preload.so" $?

for line in "${cmdlines[@]}"; do
	n=${line%%$'\t'*}
	cmd=${line#*$'\t'}
	run=$(sed -E "s/(^|[^[:alnum:]_])HOST([^[:alnum:]_]|$)/\\1$host\\2/g" <<<"$cmd")
	out=$(cd "$work" && PATH="$ML_BIN:$PATH" LD_LIBRARY_PATH="$ML_LIB" \
		timeout -k 5 60 bash -o pipefail -c "$run" 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		ok "README.md:$n: $(tr -s " " <<<"$cmd")"
	else
		not_ok "README.md:$n: $(tr -s " " <<<"$cmd") (exit $rc)"
		[ "$run" != "$cmd" ] && diag "ran: $run"
		printf '%s\n' "$out" | tail -n 20 | diag_stream
	fi
done
tap_done
