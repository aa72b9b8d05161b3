#!/bin/bash
# Shared helpers for the MLTCP selftests: TAP output, module loading, network
# namespaces with a dumbbell topology (selftests/topology.sh), and iperf3 runs.
# Source it from a test:
#
#   . "$(dirname "$0")/lib.sh"
#
# Tests run as root, inside the QEMU bench (scripts/vm-run) or on a real host where
# the MLTCP modules are installed (sudo selftests/run.sh). Everything a test creates
# (namespaces, processes, modules it loaded) is removed on exit.

set -u

# ---------------------------------------------------------------- TAP ------------
_tap_n=0
_tap_failed=0
_tap_planned=""

tap_plan() {
	_tap_planned=$1
	echo "TAP version 13"
	echo "1..$1"
}
ok() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $*"
}
not_ok() {
	_tap_n=$((_tap_n + 1))
	_tap_failed=$((_tap_failed + 1))
	echo "not ok $_tap_n - $*"
}
# tap_result DESC STATUS: ok when STATUS is 0.
tap_result() {
	if [ "$2" = 0 ]; then ok "$1"; else not_ok "$1"; fi
}
# tap_check DESC CMD...: runs CMD, ok when it exits 0; its output is shown as
# diagnostics on failure.
tap_check() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "command: $* (exit $rc)"
		[ -n "$out" ] && printf '%s\n' "$out" | diag_stream
	fi
	return $rc
}
skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}
diag() { echo "# $*"; }
diag_stream() { sed 's/^/#   /'; }
# bail DESC: a precondition failed; report it and end the test.
bail() {
	not_ok "$*"
	tap_done
}
# tap_done: closes the test; exits non-zero if anything failed or the plan was not met.
tap_done() {
	if [ -n "$_tap_planned" ] && [ "$_tap_n" != "$_tap_planned" ]; then
		echo "not ok $((_tap_n + 1)) - planned $_tap_planned tests but ran $_tap_n"
		_tap_failed=$((_tap_failed + 1))
	fi
	exit $((_tap_failed > 0))
}

# ---------------------------------------------------------------- cleanup --------
_cleanup_cmds=()
# at_exit CMD...: runs CMD (via eval) on exit, last registered first.
at_exit() { _cleanup_cmds+=("$*"); }
ml_cleanup() {
	local i
	for ((i = ${#_cleanup_cmds[@]} - 1; i >= 0; i--)); do
		eval "${_cleanup_cmds[$i]}" >/dev/null 2>&1
	done
	_cleanup_cmds=()
}
trap ml_cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP selftests need root"; exit 4; }

# ---------------------------------------------------------------- modules --------
# ml_modprobe NAME [PARAM=VALUE...]: loads a module; one the test loaded itself is
# unloaded again on exit (a module that was already loaded is left alone).
# ml_params NAME=VALUE...: sets parameters of the mltcp module, in order, for this
# test; the previous values come back on exit.
ml_params() {
	local P=/sys/module/mltcp/parameters kv
	for kv in "$@"; do
		at_exit "echo $(cat "$P/${kv%%=*}") >$P/${kv%%=*}"
		echo "${kv#*=}" >"$P/${kv%%=*}" || return 1
	done
}
# ml_force_f1: slope 0, intercept 1 (F = 1, every MLTCP module is its base algorithm)
# for this test.
ml_force_f1() { ml_params slope=0 intercept=1; }

# ml_one_cpu: every CPU but the first goes offline for this test (back on exit), so
# that one CPU carries every packet of every namespace. veth queues a packet on the
# backlog of the CPU that sends it; with two vCPUs, packets behind one that TCG left
# unscheduled for a while are overtaken by later ones on the other, tens of ms late:
# enough for the sender to retransmit one that arrives after all.
ml_one_cpu() {
	local c
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
		[ -e "$c" ] || continue
		[ "$(cat "$c")" = 1 ] || continue
		at_exit "echo 1 >$c"
		echo 0 >"$c" || return 1
	done
}

ml_modprobe() {
	local name=$1
	if [ -d "/sys/module/$name" ]; then
		modprobe "$@" >/dev/null 2>&1
		return 0
	fi
	modprobe "$@" || return 1
	at_exit "modprobe -r $name"
}

# ml_try_unload NAME: one delete_module(NAME, O_NONBLOCK), the system call itself (rmmod
# and modprobe -r refuse in userspace when the reference count is non-zero); prints OK
# or the errno's name (EAGAIN or EBUSY: the module is in use).
# ml_unload NAME [SECONDS]: unloads NAME, trying every 10 ms for SECONDS (default 10)
# while what holds it lets go; prints the last errno's name if it never did.
ml_try_unload() { ml_unload "$1" 0; }
ml_unload() {
	python3 - "$1" "${2:-10}" <<'EOF'
import ctypes, errno, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
SYS_delete_module = 176  # x86_64
end = time.monotonic() + float(sys.argv[2])
while True:
    if libc.syscall(SYS_delete_module, sys.argv[1].encode(), os.O_NONBLOCK) == 0:
        print("OK")
        sys.exit(0)
    if time.monotonic() >= end:
        print(errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno())))
        sys.exit(1)
    time.sleep(0.01)
EOF
}

# ml_need_tools PROG...: sets top (the checkout), ML_BIN, ML_LIB and CTL (mltcpctl), and
# ends the test with a failure unless mltcpctl and each PROG of ML_BIN are built.
ml_need_tools() {
	local p
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	ML_BIN=${ML_BIN:-$top/build/bin}
	ML_LIB=${ML_LIB:-$top/build/lib}
	CTL=$ML_BIN/mltcpctl
	for p in mltcpctl "$@"; do
		[ -x "$ML_BIN/$p" ] && continue
		echo "1..1"
		echo "not ok 1 - userspace tools are built in $ML_BIN (make userspace)"
		exit 1
	done
}

# ml_sysctl_restore KEY: puts KEY back to its current value on exit.
ml_sysctl_restore() {
	at_exit "sysctl -qw $1=$(sysctl -n "$1" | tr '\t' ' ' | sed 's/ /\\ /g')"
}

# ---------------------------------------------------------------- namespaces -----
# Namespace names carry the test's PID so that tests never collide.
_ns_prefix="mlt$$"
# ml_netns VAR NAME: creates namespace <prefix>-NAME (deleted on exit), stores its
# name in VAR. Not for use inside $(...): the cleanup must be registered here.
ml_netns() {
	local ns="${_ns_prefix}-$2"
	ip netns add "$ns" || return 1
	# A server started in the background outlives the shell that started it
	# (and any lock that shell held): end what still runs in the namespace.
	at_exit "ip netns pids $ns | xargs -r kill -9; ip netns del $ns"
	ip -n "$ns" link set lo up
	printf -v "$1" '%s' "$ns"
}
# in_ns NS CMD...: run CMD inside NS.
in_ns() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@"
}

# dumbbell_setup RATE_MBIT [QDISC] [NPAIRS]
#
#   NS_S[0] ──┐                                      ┌── NS_R[0]
#   NS_S[1] ──┤ NS_RT ═══ bottleneck (bn0) ═══> NS_RR ├── NS_R[1]
#      ...  ──┘    one FIFO on NS_RT's bn0 egress     └──   ...
#
# Built by selftests/topology.sh (its layout dumbbell; the drawing at its top), removed
# on exit. Every sender i reaches every receiver through the one bottleneck: a tbf of
# RATE_MBIT with a byte FIFO (QDISC=tbf, default), or the same tbf with a RED child
# marking ECN (QDISC=red_ecn) for DCTCP. The reverse path (ACKs) is not shaped.
# Addresses come from the benchmarking range 198.18.0.0/15 and 2001:db8::/32:
#   sender i   198.18.<i+1>.2   2001:db8:1:<i+1>::2   (SND_IP4[i], SND_IP6[i])
#   receiver i 198.19.<i+1>.2   2001:db8:2:<i+1>::2   (RCV_IP4[i], RCV_IP6[i])
# QLIMIT_BYTES (default: 10 ms at RATE, at least 64 KB) sizes the FIFO; RED marks
# above RED_MIN_BYTES (default: 2 ms at RATE, at least 15 KB). Every sender has
# pinged its receiver (IPv4 and IPv6) when it returns.
_topology=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/topology.sh
dumbbell_setup() {
	local rate=$1 qdisc=${2:-tbf} npairs=${3:-1} out
	case $qdisc in
	tbf) qdisc=tail-drop ;;
	red_ecn) qdisc=red-ecn ;;
	*)
		echo "dumbbell_setup: unknown qdisc $qdisc" >&2
		return 1
		;;
	esac
	_dumbbell=(--layout dumbbell --senders "$npairs" --rate "$rate" --qdisc "$qdisc"
		${QLIMIT_BYTES:+--buffer "$QLIMIT_BYTES"} ${RED_MIN_BYTES:+--ecn-min "$RED_MIN_BYTES"})
	at_exit "$_topology down $_ns_prefix ${_dumbbell[*]}"
	out=$("$_topology" up "$_ns_prefix" "${_dumbbell[@]}") || return 1
	_dumbbell_names "$out"
}

# _dumbbell_names LINES: NS_*, *_IP4, *_IP6 and BOTTLENECK_* from topology.sh's lines.
# shellcheck disable=SC2034  # the tests read them
_dumbbell_names() {
	local what i ns a4 a6 hubs=()
	NS_S=() NS_R=() SND_IP4=() SND_IP6=() RCV_IP4=() RCV_IP6=()
	while read -r what i ns a4 a6; do
		case $what in
		sender) NS_S[i]=$ns SND_IP4[i]=$a4 SND_IP6[i]=$a6 ;;
		receiver) NS_R[i]=$ns RCV_IP4[i]=$a4 RCV_IP6[i]=$a6 ;;
		hub) hubs+=("$i") ;;
		fifo) BOTTLENECK_NS=$i BOTTLENECK_DEV=$ns ;;
		esac
	done <<<"$1"
	NS_RT=${hubs[0]} NS_RR=${hubs[1]}
}

# dumbbell_fifo_at_sender I: moves the FIFO of a dumbbell_setup topology from the
# router onto the egress of sender I's own link, as jobs sharing a NIC: every flow from
# NS_S[I] queues in its own namespace, where TCP sees the queue (TCP small queues,
# qdisc backpressure; local drops, if any, are a congestion signal without a loss on
# the wire). The router forwards unshaped.
#
#   NS_S[I] ══ eth0: tbf RATE_MBIT, the same FIFO ══> NS_RT ── bn0 ──> NS_RR ── NS_R[j]
#
# bottleneck_stats reads the moved FIFO.
dumbbell_fifo_at_sender() {
	local out
	out=$("$_topology" shape "$_ns_prefix" "${_dumbbell[@]}" --placement "egress:$1") ||
		return 1
	_dumbbell_names "$out"
}

# bottleneck_stats: "sent_bytes dropped marked" of the bottleneck qdiscs.
bottleneck_stats() {
	in_ns "$BOTTLENECK_NS" tc -s -j qdisc show dev "$BOTTLENECK_DEV" |
		jq -r '[(.[] | select(.root) | .bytes), (map(.drops // 0) | add), (map(.marked // 0) | add)] | @tsv'
}

# ---------------------------------------------------------------- traffic --------
# ml_spawn NAME NS CMD...: runs CMD in NS in the background under ip netns exec, which
# execs it: SPAWN_PID[NAME] is CMD itself, which kill reaches (in_ns would put a
# subshell in between). Its stdin is a FIFO whose write end is the descriptor
# SPAWN_IN[NAME] (echo a line to it; ml_spawn_close NAME gives CMD its EOF), its
# stdout and stderr the file SPAWN_OUT[NAME] (ml_wait_line reads it). Killed on exit.
declare -A SPAWN_PID SPAWN_IN SPAWN_OUT
_spawn_dir=
ml_spawn() {
	local name=$1 ns=$2 fd
	shift 2
	if [ -z "$_spawn_dir" ]; then
		_spawn_dir=$(mktemp -d) || return 1
		at_exit "rm -rf $_spawn_dir"
	fi
	mkfifo "$_spawn_dir/$name.in" || return 1
	SPAWN_OUT[$name]=$_spawn_dir/$name.out
	ip netns exec "$ns" "$@" <"$_spawn_dir/$name.in" >"${SPAWN_OUT[$name]}" 2>&1 &
	SPAWN_PID[$name]=$!
	exec {fd}>"$_spawn_dir/$name.in"
	SPAWN_IN[$name]=$fd
	at_exit "kill -9 ${SPAWN_PID[$name]}"
}
ml_spawn_close() { eval "exec ${SPAWN_IN[$1]}>&-"; }

# ml_wait_line FILE PATTERN [SECONDS]: waits (default 30 s) for a line of FILE that
# matches the grep PATTERN, e.g. a background program's "ready".
ml_wait_line() {
	local i
	for ((i = 0; i < ${3:-30} * 10; i++)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# ml_poll_while PID CMD...: runs CMD every 0.2 s for as long as process PID runs;
# succeeds as soon as CMD does, fails once PID has ended. The poll is bounded by what
# it watches (a client's connection), not by a fixed time, which a slow guest (the
# debug kernel) can overrun before the connection shows.
ml_poll_while() {
	local pid=$1
	shift
	while kill -0 "$pid" 2>/dev/null; do
		"$@" && return 0
		sleep 0.2
	done
	return 1
}

# ss_shows_algo NS ALGO: ss -ti in NS shows an established connection on ALGO with
# its cwnd.
ss_shows_algo() {
	in_ns "$1" ss -tin state established |
		grep -E "(^|[[:space:]])$2[[:space:]].*cwnd:[0-9]+" -q
}

# wait_port NS PORT [TIMEOUT_S]: waits until something listens on TCP PORT in NS.
wait_port() {
	local ns=$1 port=$2 t=${3:-10} i
	for ((i = 0; i < t * 10; i++)); do
		in_ns "$ns" ss -Htln "sport = :$port" | grep -q . && return 0
		sleep 0.1
	done
	echo "wait_port: nothing listens on port $port in $ns after ${t}s" >&2
	return 1
}

# rcv_ns_of IP: the receiver namespace that owns IP.
rcv_ns_of() {
	local i
	for i in "${!NS_R[@]}"; do
		if [ "${RCV_IP4[$i]}" = "$1" ] || [ "${RCV_IP6[$i]}" = "$1" ]; then
			echo "${NS_R[$i]}"
			return 0
		fi
	done
	echo "rcv_ns_of: $1 is no receiver address" >&2
	return 1
}

# free_port NS: prints a random TCP port nothing listens on in NS.
free_port() {
	local port
	while :; do
		port=$((20000 + RANDOM % 20000))
		in_ns "$1" ss -Htln "sport = :$port" | grep -q . || break
	done
	echo "$port"
}

# iperf_start_server NS: starts a one-shot iperf3 server in NS and sets IPERF_PORT.
# Call it directly, not inside $(...), so that its cleanup is registered.
iperf_start_server() {
	local ns=$1
	IPERF_PORT=$(free_port "$ns")
	in_ns "$ns" iperf3 -s -1 -p "$IPERF_PORT" >/dev/null 2>&1 &
	at_exit "kill $! 2>/dev/null"
	wait_port "$ns" "$IPERF_PORT"
}

# iperf_goodput_mbit NS_SRC DEST_IP [IPERF3_ARGS...]: runs iperf3 for IPERF_TIME
# seconds (default 5) from NS_SRC to DEST_IP (a receiver address; its server is
# started here) and prints the receiver-side goodput in Mbit/s. Several may run at
# once in the background (each picks its own port). With IPERF_JSON set, iperf3's
# JSON report is also written to that file.
iperf_goodput_mbit() {
	local src=$1 dst=$2 ns json
	shift 2
	ns=$(rcv_ns_of "$dst") || return 1
	iperf_start_server "$ns" || return 1
	json=$(in_ns "$src" iperf3 -c "$dst" -p "$IPERF_PORT" -t "${IPERF_TIME:-5}" -J "$@") || {
		echo "iperf3 to $dst failed: $(printf '%s' "$json" | head -c 400)" >&2
		return 1
	}
	[ -z "${IPERF_JSON:-}" ] || printf '%s' "$json" >"$IPERF_JSON"
	printf '%s' "$json" | jq -r '.end.sum_received.bits_per_second / 1e6 * 100 | round / 100'
}

# at_least A B: true when the number A >= B.
at_least() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'
}

# median X...: the median of the numbers X (the mean of the middle two for an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# within_pct A B PCT: true when A is within PCT percent of B.
within_pct() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'
}
