#!/bin/bash
# Faults of the BPF backend on the running kernel:
#  - unload while a connection uses mltcp_cubic: the kernel keeps the ops for that
#    connection, which runs to its end; new sockets can no longer select it; no
#    kernel warning;
#  - the loader killed at random points of `mltcpctl bpf load`, ten times: after
#    each, `mltcpctl bpf unload` (when anything was pinned) leaves nothing
#    registered and nothing pinned (no registration without a pin).
#
#   NS_S[0] ── NS_RT ══ tbf 1 Gbit/s FIFO (bn0) ══> NS_RR ── NS_R[0]
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib_native.sh"

tap_plan 8
native_preconditions
bpf_fresh
tap_check "mltcpctl bpf load" "$MLTCPCTL" bpf load || tap_done
dumbbell_setup 1000 tbf 1 || bail "dumbbell topology"
dmesg_lines=$(dmesg | wc -l)

iperf_start_server "${NS_R[0]}" || bail "iperf3 server"
json=$(mktemp)
at_exit "rm -f $json"
in_ns "${NS_S[0]}" iperf3 -c "${RCV_IP4[0]}" -p "$IPERF_PORT" -t 4 -C mltcp_cubic -J >"$json" &
flow=$!
sleep 1.5
tap_check "unload while a connection uses mltcp_cubic" "$MLTCPCTL" bpf unload
tap_result "mltcp_cubic is no longer available" "$(! ca_listed mltcp_cubic; echo $?)"
err=$(python3 -c '
import socket, errno
s = socket.socket()
try:
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"mltcp_cubic")
    print("selected")
except OSError as e:
    print(errno.errorcode[e.errno])')
tap_result "a new socket cannot select it any more ($err)" "$([ "$err" = ENOENT ]; echo $?)"
wait $flow
rc=$?
mbit=$(jq -r '.end.sum_received.bits_per_second / 1e6 | floor' "$json" 2>/dev/null)
secs=$(jq -r '.end.sum_received.seconds | floor' "$json" 2>/dev/null)
tap_result "the live connection ran to its end on mltcp_cubic (iperf3 exit $rc, ${secs}s, $mbit Mbit/s)" \
	"$([ $rc = 0 ] && [ "${secs:-0}" -ge 3 ] && [ "${mbit:-0}" -gt 100 ]; echo $?)"
new=$(dmesg | tail -n +$((dmesg_lines + 1)) | grep -E 'WARNING|BUG|Oops|general protection')
tap_result "no kernel warning${new:+: $new}" "$([ -z "$new" ]; echo $?)"

leaks=0
for i in $(seq 10); do
	"$MLTCPCTL" bpf load >/dev/null 2>&1 &
	pid=$!
	sleep "0.0$((RANDOM % 10))$((RANDOM % 10))"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	[ -e /sys/fs/bpf/mltcp ] && "$MLTCPCTL" bpf unload >/dev/null 2>&1
	for a in "${BPF_ALGOS[@]}"; do
		ca_listed "$a" && { leaks=$((leaks + 1)); diag "run $i: $a left registered"; }
	done
	[ -e /sys/fs/bpf/mltcp ] && { leaks=$((leaks + 1)); diag "run $i: pins left"; }
done
tap_result "a loader killed mid-load never leaves an unpinned registration (10 runs)" \
	"$([ $leaks = 0 ]; echo $?)"
tap_check "a load after all that works" "$MLTCPCTL" bpf load
tap_done
