#!/bin/bash
# Each MLTCP module loads, is listed in tcp_available_congestion_control, can be the
# default via sysctl net.ipv4.tcp_congestion_control (new sockets use it, ss -ti shows
# it with its cwnd) and can be chosen per socket with TCP_CONGESTION (iperf3 -C), over
# IPv4 and IPv6; its counters under /sys/module/<algo>/parameters/ count the
# sockets. The core's parameters reject invalid values and keep the old one, and an
# on/off traffic pattern is counted as learned iterations.
#
#   NS_S[0] ── NS_RT ══ tbf 100 Mbit/s ══> NS_RR ── NS_R[0]
. "$(dirname "$0")/lib.sh"

algos=(mltcp_reno mltcp_cubic mltcp_dctcp)
tap_plan $((${#algos[@]} * 7 + 8))

P=/sys/module/mltcp/parameters

# flow_shows_algo NS DST ALGO [IPERF3_ARGS...]: runs a 3 s iperf3 flow from NS to
# DST and succeeds when ss -ti in NS shows ALGO with a cwnd while it runs and the
# flow completes.
flow_shows_algo() {
	local ns=$1 dst=$2 algo=$3 client seen=0 rns
	shift 3
	rns=$(rcv_ns_of "$dst") || return 1
	iperf_start_server "$rns" || return 1
	in_ns "$ns" iperf3 -c "$dst" -p "$IPERF_PORT" -t 3 "$@" >/dev/null 2>&1 &
	client=$!
	ml_poll_while "$client" ss_shows_algo "$ns" "$algo" && seen=1
	wait "$client" || { echo "iperf3 failed" >&2; return 1; }
	[ $seen = 1 ] || { echo "ss -ti never showed $algo" >&2; return 1; }
}

# wait_counter ALGO NAME VALUE: waits up to 5 s for a counter to read VALUE.
wait_counter() {
	local f=/sys/module/$1/parameters/$2
	for _ in $(seq 50); do
		[ "$(cat "$f")" = "$3" ] && return 0
		sleep 0.1
	done
	echo "$f is $(cat "$f"), expected $3" >&2
	return 1
}

ml_modprobe mltcp || bail "mltcp core loads"
ml_sysctl_restore net.ipv4.tcp_congestion_control
dumbbell_setup 100 tbf 1 || bail "dumbbell topology"
S=${NS_S[0]}
R=${NS_R[0]}

for algo in "${algos[@]}"; do
	ml_modprobe "$algo"
	tap_result "$algo loads" $?
	grep -qw "$algo" /proc/sys/net/ipv4/tcp_available_congestion_control
	tap_result "$algo is listed in tcp_available_congestion_control" $?

	sysctl -qw net.ipv4.tcp_congestion_control="$algo" &&
		[ "$(sysctl -n net.ipv4.tcp_congestion_control)" = "$algo" ]
	tap_result "$algo can be the system default (sysctl net.ipv4.tcp_congestion_control)" $?
	sysctl -qw net.ipv4.tcp_congestion_control=cubic

	# The namespaces' own default: new sockets (no -C) must use it.
	in_ns "$S" sysctl -qw net.ipv4.tcp_congestion_control="$algo"
	in_ns "$R" sysctl -qw net.ipv4.tcp_congestion_control="$algo"
	tap_check "new sockets use the default $algo (ss -ti shows it and cwnd), IPv4" \
		flow_shows_algo "$S" "${RCV_IP4[0]}" "$algo"
	in_ns "$S" sysctl -qw net.ipv4.tcp_congestion_control=cubic
	in_ns "$R" sysctl -qw net.ipv4.tcp_congestion_control=cubic

	tap_check "$algo per socket (iperf3 -C), IPv4" \
		flow_shows_algo "$S" "${RCV_IP4[0]}" "$algo" -C "$algo"
	tap_check "$algo per socket (iperf3 -C), IPv6" \
		flow_shows_algo "$S" "${RCV_IP6[0]}" "$algo" -C "$algo"

	total=$(cat "/sys/module/$algo/parameters/sockets_total")
	diag "$algo: sockets_total $total"
	[ "$total" -ge 3 ] && wait_counter "$algo" sockets 0
	tap_result "$algo counts its sockets (sockets_total $total, sockets back to 0)" $?
done

# Parameters: invalid values are rejected with EINVAL and the old value is kept.
param_rejects() {
	local name=$1 bad=$2 old
	old=$(cat "$P/$name")
	if echo "$bad" >"$P/$name" 2>/dev/null; then
		echo "$name accepted '$bad'" >&2
		return 1
	fi
	[ "$(cat "$P/$name")" = "$old" ]
}
for f in slope intercept idle_ms mode decrease; do
	at_exit "echo $(cat $P/$f) > $P/$f"
done
tap_check "slope rejects 9, -1 and garbage, keeps its value" \
	eval 'param_rejects slope 9 && param_rejects slope -1 && param_rejects slope 1x'
tap_check "intercept rejects 0 and 8.5, keeps its value" \
	eval 'param_rejects intercept 0 && param_rejects intercept 8.5'
tap_check "idle_ms rejects 0 and garbage; mode rejects garbage" \
	eval 'param_rejects idle_ms 0 && param_rejects idle_ms abc && param_rejects mode fast'
tap_check "slope 0.5 and intercept 1.25 are accepted and read back" \
	eval 'echo 0.5 >$P/slope && echo 1.25 >$P/intercept &&
	      [ "$(cat $P/slope)" = 0.5 ] && [ "$(cat $P/intercept)" = 1.25 ]'
tap_check "decrease rejects garbage, accepts 0 and 1 (read back N/Y)" \
	eval 'param_rejects decrease maybe && echo 0 >$P/decrease && [ "$(cat $P/decrease)" = N ] &&
	      echo 1 >$P/decrease && [ "$(cat $P/decrease)" = Y ]'
tap_check "mode given/off/learned and idle_ms 20 are accepted" \
	eval 'echo given >$P/mode && [ "$(cat $P/mode)" = given ] &&
	      echo off >$P/mode && [ "$(cat $P/mode)" = off ] &&
	      echo learned >$P/mode && [ "$(cat $P/mode)" = learned ] &&
	      echo 20 >$P/idle_ms && [ "$(cat $P/idle_ms)" = 20 ]'
echo 1 >$P/slope
echo 1 >$P/intercept
echo 10 >$P/idle_ms

# Learned iterations: 6 bursts of 512 KB separated by 150 ms of silence over one
# connection end 5 iterations by idle gaps.
port=$(free_port "$R")
in_ns "$R" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET6)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("::", int(sys.argv[1]))); s.listen(1)
c, _ = s.accept()
while c.recv(1 << 16):
    pass
' "$port" &
at_exit "kill $! 2>/dev/null"
wait_port "$R" "$port"
before=$(cat /sys/module/mltcp_reno/parameters/iterations_learned)
# Each gap starts once the burst is acked (SIOCOUTQ 0): sendall() returns when the
# data is queued, and on a slow guest (the debug kernel) a fixed pause after it would
# fall while the burst is still in flight, which is no idle gap.
in_ns "$S" python3 -c '
import array, fcntl, socket, sys, termios, time
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"mltcp_reno")
outq = array.array("i", [0])
for i in range(6):
    s.sendall(b"x" * (512 * 1024))
    while fcntl.ioctl(s.fileno(), termios.TIOCOUTQ, outq) == 0 and outq[0] > 0:
        time.sleep(0.01)
    time.sleep(0.15)
s.close()
' "${RCV_IP4[0]}" "$port"
tap_result "a bursty sender with TCP_CONGESTION=mltcp_reno completes" $?
after=$(cat /sys/module/mltcp_reno/parameters/iterations_learned)
diag "mltcp_reno iterations_learned: $before -> $after"
[ $((after - before)) -ge 4 ] && [ $((after - before)) -le 6 ]
tap_result "idle gaps are counted as learned iterations (5 expected, got $((after - before)))" $?

# Hand the namespaces' module references back before the modules are unloaded.
in_ns "$S" sysctl -qw net.ipv4.tcp_congestion_control=cubic
tap_done
