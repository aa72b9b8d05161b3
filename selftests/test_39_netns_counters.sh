#!/bin/bash
# Counters per network namespace (MLTCP_CMD_GET_COUNTERS, mltcpctl show):
#  - while one namespace runs MLTCP flows that complete iterations (learned by idle
#    gaps on mltcp_reno, marked through libmltcp on mltcp_cubic) and holds MLTCP
#    connections open, a fresh namespace reads zero sockets and iterations for every
#    algorithm, and the initial namespace's own counters do not move;
#  - the busy namespace reads its own sockets and iterations;
#  - host-wide totals (mltcpctl show --host, MLTCP_A_SCOPE) go to root in the initial
#    namespace and grew by exactly the busy namespace's counts; they are refused with
#    EPERM to root in another namespace and to an unprivileged user in the initial one;
#  - the module parameters sockets, sockets_total, iterations_learned and
#    iterations_given are the host-wide totals, mode 0400: root reads them, nobody
#    cannot;
#  - a namespace deleted while its connections are open, then their holder quits, takes
#    its sockets off the counters, and an algorithm loaded again starts from zero in
#    every namespace.
. "$(dirname "$0")/lib.sh"

ml_need_tools mltcp-hold

tap_plan 15
ml_modprobe mltcp_reno && ml_modprobe mltcp_cubic || bail "load mltcp_reno and mltcp_cubic"
orig=$("$CTL" -j show) || bail "mltcpctl -j show"
read -r o_mode o_idle < <(jq -r '"\(.mode) \(.idle_ms)"' <<<"$orig")
at_exit "'$CTL' set mode $o_mode idle_ms $o_idle"
"$CTL" set mode learned idle_ms 10 || bail "mltcpctl set mode learned idle_ms 10"

NOBODY=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
FIELDS="sockets sockets_total iterations_learned iterations_given"

# counters JSON [NS] [--host]: "ALGO.FIELD VALUE" lines of mltcpctl -j show, in NS (the
# initial namespace when empty), and a "scope SCOPE" line
counters() {
	local ns=$1 out
	shift
	if [ -n "$ns" ]; then
		out=$(in_ns "$ns" "$CTL" -j show "$@") || return 1
	else
		out=$("$CTL" -j show "$@") || return 1
	fi
	jq -r '"scope \(.counters)", (.algorithms[] | . as $a |
		("sockets", "sockets_total", "iterations_learned", "iterations_given") |
		"\($a.name).\(.) \($a[.])")' <<<"$out"
}
# get LINES KEY: the value of KEY (e.g. mltcp_reno.sockets) in counters' output
get() { awk -v k="$2" '$1 == k { print $2 }' <<<"$1"; }

ml_netns BUSY busy && ml_netns FRESH fresh || bail "network namespaces"
host0=$(counters "" --host) || bail "mltcpctl show --host as root in the initial namespace"
init0=$(counters "")

# ---- the busy namespace: connections held open, learned and given iterations
hold_dir=$(mktemp -d)
at_exit "rm -rf $hold_dir"
# hold_start NAME NS ARGS...: mltcp-hold in NS, its connections open once it said
# "ready"; the PID of the subshell that runs it in HOLD_PID[NAME], its stdin in
# HOLD_W[NAME] ("quit" or EOF ends it)
declare -A HOLD_PID HOLD_W
hold_start() {
	local name=$1 ns=$2 w r line
	shift 2
	mkfifo "$hold_dir/$name.in" "$hold_dir/$name.out"
	in_ns "$ns" "$ML_BIN/mltcp-hold" "$@" <"$hold_dir/$name.in" >"$hold_dir/$name.out" &
	HOLD_PID[$name]=$!
	exec {w}>"$hold_dir/$name.in"
	exec {r}<"$hold_dir/$name.out"
	HOLD_W[$name]=$w
	# EOF on its stdin ends mltcp-hold ($! is the subshell of in_ns)
	at_exit "exec $w>&-; kill ${HOLD_PID[$name]} 2>/dev/null"
	while IFS= read -r -t 30 line <&"$r"; do
		[ "$line" = ready ] && return 0
	done
	return 1
}
hold_start busy "$BUSY" -a mltcp_cubic -n 2 || bail "mltcp-hold in the busy namespace"

out=$(in_ns "$BUSY" env MLTCP_LIBRARY="$ML_LIB/libmltcp.so.1" \
	python3 - "$top/userspace/python" 2>&1 <<'P'
import socket, sys, threading, time
sys.path.insert(0, sys.argv[1])
import mltcp

srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen()

def drain():
    while True:
        c, _ = srv.accept()
        threading.Thread(target=lambda c=c: [None for _ in iter(lambda: c.recv(1 << 16), b"")],
                         daemon=True).start()

threading.Thread(target=drain, daemon=True).start()
# mltcp_reno: 6 bursts, 150 ms of silence between them: 5 iterations learned
s = socket.socket()
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"mltcp_reno")
s.connect(srv.getsockname())
for _ in range(6):
    s.sendall(b"x" * (256 << 10))
    time.sleep(0.15)
s.close()
# mltcp_cubic: 4 marks through libmltcp; the first starts the clock: 3 given
g = socket.socket()
mltcp.enable(g, "mltcp_cubic")
mltcp.set_bytes_per_iter(g, 256 << 10)
g.connect(srv.getsockname())
for _ in range(4):
    mltcp.iteration_begin(g)
    g.sendall(b"y" * (256 << 10))
    time.sleep(0.05)
print("given socket: %d iterations" % mltcp.get_state(g).iterations)
g.close()
P
)
tap_result "flows in the busy namespace: learned iterations on mltcp_reno, marked ones on mltcp_cubic" $?
printf '%s\n' "$out" | diag_stream
sleep 0.5

fresh=$(counters "$FRESH")
busy=$(counters "$BUSY")
init1=$(counters "")
host1=$(counters "" --host)
diag "fresh: $(paste -sd' ' <<<"$fresh")"
diag "busy: $(paste -sd' ' <<<"$busy")"
diag "host before: $(paste -sd' ' <<<"$host0")"
diag "host after: $(paste -sd' ' <<<"$host1")"

# ---- what each namespace sees
[ "$(get "$fresh" scope)" = netns ] && [ -n "$(get "$fresh" mltcp_reno.sockets)" ] &&
	[ -n "$(get "$fresh" mltcp_cubic.sockets)" ] &&
	grep -v '^scope' <<<"$fresh" | awk '$2 != 0 { bad = 1 } END { exit bad }'
tap_result "a fresh namespace reads zero sockets and iterations for mltcp_reno and mltcp_cubic" $?

b_rl=$(get "$busy" mltcp_reno.iterations_learned)
b_cg=$(get "$busy" mltcp_cubic.iterations_given)
b_cs=$(get "$busy" mltcp_cubic.sockets)
[ "$(get "$busy" scope)" = netns ] && [ "${b_rl:-0}" -ge 3 ] && [ "${b_cg:-0}" -ge 2 ] &&
	[ "${b_cs:-0}" -ge 2 ] && [ "$(get "$busy" mltcp_reno.sockets_total)" -ge 1 ] &&
	[ "$(get "$busy" mltcp_reno.sockets)" = 0 ]
tap_result "the busy namespace reads its own: $b_rl learned (reno), $b_cg given (cubic), $b_cs cubic sockets open" $?

same=0
for a in mltcp_reno mltcp_cubic; do
	for f in $FIELDS; do
		[ "$(get "$init0" $a.$f)" = "$(get "$init1" $a.$f)" ] || same=1
	done
done
[ "$(get "$init1" scope)" = netns ] && [ $same = 0 ]
tap_result "the initial namespace's own counters did not move (show without --host)" $?

# ---- host-wide totals
exact=0
for a in mltcp_reno mltcp_cubic; do
	for f in $FIELDS; do
		d=$(($(get "$host1" $a.$f) - $(get "$host0" $a.$f)))
		[ "$d" = "$(get "$busy" $a.$f)" ] || { exact=1; diag "host $a.$f grew by $d"; }
	done
done
[ "$(get "$host1" scope)" = host ] && [ $exact = 0 ]
tap_result "root in the initial namespace: show --host grew by exactly the busy namespace's counts" $?

out=$(in_ns "$BUSY" "$CTL" show --host 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "permission denied" <<<"$out"
tap_result "root in another namespace: show --host fails with EPERM (\"$out\")" $?
out=$(in_ns "$FRESH" "$CTL" -j show --host 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "permission denied" <<<"$out" && ! grep -q algorithms <<<"$out"
tap_result "and prints no counters from the fresh namespace either" $?
out=$("${NOBODY[@]}" "$CTL" show --host 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "permission denied" <<<"$out"
tap_result "nobody in the initial namespace: show --host fails with EPERM" $?
out=$(in_ns "$FRESH" "${NOBODY[@]}" "$CTL" -j show 2>&1)
[ $? = 0 ] && [ "$(jq -r .counters <<<"$out")" = netns ] &&
	[ "$(jq '[.algorithms[] | .sockets_total + .iterations_learned + .iterations_given] | add' <<<"$out")" = 0 ]
tap_result "nobody in the fresh namespace: show works and reads its zeros" $?

# ---- the module parameters: host-wide, root only
modes=$(for a in mltcp_reno mltcp_cubic; do
	for f in sockets sockets_total iterations_learned iterations_given; do
		stat -c %a "/sys/module/$a/parameters/$f"
	done
done | sort -u | paste -sd' ')
[ "$modes" = 400 ]
tap_result "sysfs counters are mode 0400 (modes: $modes)" $?
s_total=$(cat /sys/module/mltcp_reno/parameters/sockets_total)
s_given=$(cat /sys/module/mltcp_cubic/parameters/iterations_given)
[ "$s_total" = "$(get "$host1" mltcp_reno.sockets_total)" ] &&
	[ "$s_given" = "$(get "$host1" mltcp_cubic.iterations_given)" ]
tap_result "root reads the host-wide totals there (reno sockets_total $s_total, cubic given $s_given)" $?
! "${NOBODY[@]}" cat /sys/module/mltcp_reno/parameters/sockets_total >/dev/null 2>&1 &&
	! in_ns "$FRESH" "${NOBODY[@]}" cat /sys/module/mltcp_cubic/parameters/iterations_given \
		>/dev/null 2>&1
tap_result "nobody cannot read them, in the initial namespace or another" $?

# ---- a namespace deleted under open connections
# host_sockets ALGO: sockets now, host-wide
host_sockets() { get "$(counters "" --host)" "$1.sockets"; }
base=$(host_sockets mltcp_reno)
ml_netns DOOMED doomed || bail "namespace doomed"
hold_start doomed "$DOOMED" -a mltcp_reno -n 4 || bail "mltcp-hold in namespace doomed"
during=$(host_sockets mltcp_reno)
ip netns del "$DOOMED"
echo quit >&"${HOLD_W[doomed]}"
wait "${HOLD_PID[doomed]}" 2>/dev/null
# sysfs, not mltcpctl, to poll: cheap under an emulated guest
for _ in $(seq 50); do
	[ "$(cat /sys/module/mltcp_reno/parameters/sockets)" = "$base" ] && break
	sleep 0.1
done
after=$(host_sockets mltcp_reno)
[ "$during" -ge $((base + 4)) ] && [ "$after" = "$base" ]
tap_result "namespace deleted, then its holder quit: mltcp_reno sockets $base -> $during -> $after" $?

# ---- an algorithm loaded again starts from zero in every namespace
for _ in $(seq 50); do
	[ "$(cat /sys/module/mltcp_reno/refcnt)" = 0 ] && break
	sleep 0.1
done
if [ "$(cat /sys/module/mltcp_reno/refcnt)" = 0 ] && modprobe -r mltcp_reno; then
	modprobe mltcp_reno || bail "load mltcp_reno again"
	busy2=$(counters "$BUSY")
	sum=0
	for f in $FIELDS; do
		sum=$((sum + $(get "$busy2" mltcp_reno.$f)))
	done
	[ "$sum" = 0 ] && [ "$(get "$busy2" mltcp_cubic.iterations_given)" = "$b_cg" ]
	tap_result "mltcp_reno unloaded and loaded again: the busy namespace reads zeros for it (sum $sum), its cubic counts stay" $?
else
	skip "mltcp_reno loaded again starts from zero" "mltcp_reno in use (refcnt $(cat /sys/module/mltcp_reno/refcnt))"
fi

echo quit >&"${HOLD_W[busy]}"
wait "${HOLD_PID[busy]}" 2>/dev/null
for _ in $(seq 50); do
	[ "$(cat /sys/module/mltcp_cubic/parameters/sockets)" = 0 ] && break
	sleep 0.1
done
[ "$(get "$(counters "$BUSY")" mltcp_cubic.sockets)" = 0 ]
tap_result "the busy namespace's holder quit: its mltcp_cubic sockets back to 0" $?
tap_done
