#!/bin/bash
#   init netns (README commands, as on a host) ── veth ── NS_R (HOST: iperf3 -s, sink)
#
# The README's examples run as a user would type them. Every code block of README.md
# must be preceded by a marker line saying how it is tested (blank lines may come
# between); a code block without one fails:
#
#	<!-- readme-test -->           shell commands, one a line (a trailing backslash
#	                                continues a line, "# ..." is a comment, as in bash),
#	                                each run as root in the guest's initial network
#	                                namespace and must exit 0 within 60 s
#	<!-- readme-test: c -->         C statements: compiled (-fsyntax-only, -Werror) in a
#	                                function against libmltcp's header, with the names
#	                                they use but do not define declared
#	<!-- readme-test: python -->    Python statements: parsed, and each mltcp.X.Y they
#	                                call must exist in the mltcp package
#	<!-- readme-test: packages -->  the install commands: the packages they build and
#	                                install must be debian/control's (scripts/check-
#	                                packages.sh builds, installs and boots them)
#	<!-- readme-test: ci -->        the test command: .ci/run must run it
#
# The shell commands' environment stands in for a host with MLTCP installed:
#   - the modules are loaded (the README's install step), the userspace tools of
#     build/ are on PATH and LD_LIBRARY_PATH;
#   - the word HOST is replaced by the receiver's address, where iperf3 -s listens
#     (port 5201) and a sink accepts connections on port 5202;
#   - the cgroup /sys/fs/cgroup/mltcp-job exists (and is removed afterwards);
#   - the working directory holds train.py, a stand-in for a training script: it
#     connects to HOST:5202, fails unless its socket uses $MLTCP_CC and has
#     $MLTCP_BYTES_PER_ITER as its bytes per iteration (when set; read back with
#     MLTCP_SO_INFO), and sends 4 MB.
# Global parameters and sysctls are restored on exit. A marker without a code block,
# an unknown marker, or a README without shell commands fails.
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
readme=${MLTCP_README:-$top/README.md}
ML_BIN=${ML_BIN:-$top/build/bin}
ML_LIB=${ML_LIB:-$top/build/lib}

# extract README: prints one record per command, NUL-terminated: "KIND<TAB>LINE<TAB>TEXT"
# (KIND: sh, c, python, packages, ci; c and python blocks are one record each).
extract() {
	python3 - "$1" <<'PY'
import re, sys

path = sys.argv[1]
lines = open(path, encoding="utf-8").read().split("\n")
mark = re.compile(r"^\s*<!--\s*readme-test(?::\s*(\w+))?\s*-->\s*$")
kinds = {None: "sh", "c": "c", "python": "python", "packages": "packages", "ci": "ci"}
fence = re.compile(r"^\s*```")
found = 0
out = []

def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(1)

def block_at(i):
    """The code block starting at line i: (lines [(number, text)], index after it)."""
    block = []
    if fence.match(lines[i]):
        i += 1
        while i < len(lines) and not fence.match(lines[i]):
            block.append((i + 1, lines[i]))
            i += 1
        return block, i + 1
    while i < len(lines) and (lines[i].startswith("    ") or lines[i].startswith("\t")
                              or not lines[i].strip()):
        if lines[i].strip():
            block.append((i + 1, lines[i][4:] if lines[i].startswith("    ") else lines[i][1:]))
        i += 1
    return block, i

def is_code(i, prev_blank):
    return fence.match(lines[i]) or (prev_blank and lines[i].startswith("    ")
                                     and lines[i].strip())

i = 0
prev_blank = True
while i < len(lines):
    m = mark.match(lines[i])
    if not m:
        if re.match(r"^\s*<!--\s*readme-test", lines[i]):
            fail(f"{path}:{i + 1}: unknown readme-test marker: {lines[i].strip()}")
        if is_code(i, prev_blank):
            fail(f"{path}:{i + 1}: code block without a <!-- readme-test ... --> marker")
        prev_blank = not lines[i].strip()
        i += 1
        continue
    if m.group(1) not in kinds:
        fail(f"{path}:{i + 1}: unknown readme-test kind '{m.group(1)}'")
    kind = kinds[m.group(1)]
    at = i + 1
    i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not is_code(i, True):
        fail(f"{path}:{at}: readme-test marker not followed by a code block")
    block, i = block_at(i)
    prev_blank = True
    if kind in ("c", "python"):
        out.append(f"{kind}\t{block[0][0]}\t" + "\n".join(t for _, t in block))
        continue
    cmd, start = "", 0
    for n, text in block:
        if not cmd:
            start = n
        if text.rstrip().endswith("\\"):
            cmd += text.rstrip()[:-1] + " "
            continue
        cmd += text
        if cmd.strip() and not cmd.strip().startswith("#"):
            out.append(f"{kind}\t{start}\t{cmd.strip()}")
            found += kind == "sh"
        cmd = ""
if not found:
    fail(f"{path}: no shell command in blocks marked <!-- readme-test -->")
sys.stdout.write("".join(r + "\0" for r in out))
PY
}

records=$(mktemp)
at_exit "rm -f '$records'"
extract "$readme" >"$records" 2>"$records.err" ||
	{ echo "1..1"; echo "not ok 1 - README examples: $(cat "$records.err")"; rm -f "$records.err"; exit 1; }
rm -f "$records.err"
kinds=() lines=() texts=()
while IFS= read -r -d '' rec; do
	kinds+=("${rec%%$'\t'*}")
	rec=${rec#*$'\t'}
	lines+=("${rec%%$'\t'*}")
	texts+=("${rec#*$'\t'}")
done <"$records"
[ -x "$ML_BIN/mltcpctl" ] && [ -e "$ML_LIB/libmltcp-preload.so" ] ||
	{ echo "1..1"; echo "not ok 1 - userspace tools are built in $top/build (make userspace)"; exit 1; }

tap_plan $((${#kinds[@]} + 2))
ok "README.md: every code block is marked; ${#kinds[@]} commands and snippets to check"

# check_c TEXT: the C statements of a README block compile against libmltcp's header.
check_c() {
	local src
	src=$(mktemp --suffix=.c)
	{
		grep '^#' <<<"$1"
		echo 'static void compute(void) { }'
		echo 'static void send_gradients(int fd) { (void)fd; }'
		echo 'void readme_example(int fd, unsigned long grad_bytes);'
		echo 'void readme_example(int fd, unsigned long grad_bytes) {'
		grep -v '^#' <<<"$1"
		echo '}'
	} >"$src"
	cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$top/userspace/lib/include" \
		-I"$top/include/uapi" "$src" 2>&1
	local rc=$?
	rm -f "$src"
	return $rc
}

# check_python TEXT: the statements parse, and every mltcp.* they call exists.
check_python() {
	PYTHONPATH="$top/userspace/python" python3 - "$1" <<'PY'
import ast, importlib, sys

tree = ast.parse(sys.argv[1])
calls = []
for node in ast.walk(tree):
    if isinstance(node, ast.Call):
        parts, f = [], node.func
        while isinstance(f, ast.Attribute):
            parts.insert(0, f.attr)
            f = f.value
        if isinstance(f, ast.Name) and f.id == "mltcp":
            calls.append(parts)
if not calls:
    sys.exit("no call into mltcp")
for parts in calls:
    obj = importlib.import_module("mltcp")
    for i, name in enumerate(parts):
        if not hasattr(obj, name):
            obj = importlib.import_module("mltcp." + ".".join(parts[: i + 1]))
        else:
            obj = getattr(obj, name)
    if not callable(obj):
        sys.exit("mltcp." + ".".join(parts) + " is not callable")
PY
}

# check_packages CMD: an install command names exactly debian/control's packages
# (the -dev package aside, which users add when they build against libmltcp), its
# build dependencies, or the build command scripts/check-packages.sh runs.
check_packages() {
	python3 - "$1" "$top/debian/control" "$top/scripts/check-packages.sh" <<'PY'
import re, sys

cmd, control, checker = sys.argv[1], open(sys.argv[2]).read(), open(sys.argv[3]).read()
pkgs = set(re.findall(r"^Package:\s*(\S+)", control, re.M))
m = re.search(r"^Build-Depends:(.*?)^\S", control, re.M | re.S)
deps = {re.split(r"[\s:(]", d.strip())[0] for d in m.group(1).split(",") if d.strip()}
# Build-Depends names virtual or bundled packages; these are what provides them.
provider = {"debhelper-compat": "debhelper", "dh-sequence-dkms": "dh-dkms",
            "dh-sequence-python3": "dh-python"}
words = cmd.split()
if "dpkg-buildpackage" in words:
    if cmd.replace("sudo ", "") not in checker:
        sys.exit(f"scripts/check-packages.sh does not run '{cmd}'")
elif any(w.endswith(".deb") for w in words):
    named = {re.sub(r"^\.\./", "", w).split("_")[0] for w in words if w.endswith(".deb")}
    want = {p for p in pkgs if not p.endswith("-dev")}
    if named != want:
        sys.exit(f"installs {sorted(named)}, debian/control builds {sorted(want)}")
else:
    need = {provider.get(d, d) for d in deps} - {"python3"} | {"dkms", "dpkg-dev"}
    missing = need - set(words)
    if missing:
        sys.exit(f"build dependencies missing from the command: {sorted(missing)}")
PY
}

for m in mltcp mltcp_reno mltcp_cubic mltcp_dctcp; do
	ml_modprobe "$m" || bail "load $m"
done
orig=$("$ML_BIN/mltcpctl" -j show) || bail "mltcpctl -j show"
restore=$(python3 -c '
import json, sys
p = json.loads(sys.argv[1])
keys = ("slope", "intercept", "idle_ms", "mode", "decrease", "stagger", "overrun")
val = lambda v: ("on" if v else "off") if isinstance(v, bool) else v
print("set", " ".join(f"{k} {val(p[k])}" for k in keys if k in p))' "$orig")
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

cg=/sys/fs/cgroup/mltcp-job
mkdir "$cg" || bail "the cgroup $cg"
at_exit "rmdir $cg"
at_exit "'$ML_BIN/mltcpctl' detach $cg 2>/dev/null"

for i in "${!kinds[@]}"; do
	kind=${kinds[$i]} n=${lines[$i]} cmd=${texts[$i]}
	desc="README.md:$n: $(head -n1 <<<"$cmd" | tr -s " ")"
	case $kind in
	c) out=$(check_c "$cmd"); rc=$?; desc="README.md:$n: the C example compiles" ;;
	python) out=$(check_python "$cmd" 2>&1); rc=$?
		desc="README.md:$n: the Python example parses and its mltcp calls exist" ;;
	packages) out=$(check_packages "$cmd" 2>&1); rc=$? ;;
	ci) grep -qx "$cmd" "$top/.ci/run"; rc=$?; out="'$cmd' is not a line of .ci/run"
		desc="$desc: CI runs it" ;;
	sh)
		run=$(sed -E "s/(^|[^[:alnum:]_])HOST([^[:alnum:]_]|$)/\\1$host\\2/g" <<<"$cmd")
		out=$(cd "$work" && PATH="$ML_BIN:$PATH" LD_LIBRARY_PATH="$ML_LIB" \
			timeout -k 5 60 bash -o pipefail -c "$run" 2>&1)
		rc=$?
		[ "$run" != "$cmd" ] && out="ran: $run"$'\n'"$out" ;;
	esac
	if [ $rc = 0 ]; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc)"
		printf '%s\n' "$out" | tail -n 20 | diag_stream
	fi
done
tap_done
