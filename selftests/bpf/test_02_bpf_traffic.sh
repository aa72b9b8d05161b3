#!/bin/bash
# Each BPF algorithm carries a bulk flow through a 500 Mbit/s bottleneck on the running
# kernel: the sender's socket really runs it (iperf3 reports its congestion control),
# the goodput is at least 70% of the bottleneck (the machine may be busy; a broken
# algorithm stalls far below that), and the algorithm's counters count the connections. mltcp_dctcp negotiates ECN (tcp_ecn=1 at the sender) and keeps its name;
# without ECN it hands the socket to mltcp_reno.
#
#   NS_S[0] ── NS_RT ══ tbf 500 Mbit/s FIFO (bn0) ══> NS_RR ── NS_R[0]
#   198.18.1.2                                               198.19.1.2
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib_native.sh"

RATE=500
IPERF_TIME=${IPERF_TIME:-3}
tap_plan 12
native_preconditions
bpf_fresh
tap_check "mltcpctl bpf load" "$MLTCPCTL" bpf load || tap_done
dumbbell_setup $RATE tbf 1 || bail "dumbbell topology"
in_ns "${NS_S[0]}" sysctl -qw net.ipv4.tcp_ecn=1

# run_algo ALGO: one iperf3 flow; sets MBIT and CC (the sender's congestion control)
run_algo() {
	local json
	iperf_start_server "${NS_R[0]}" || return 1
	json=$(in_ns "${NS_S[0]}" iperf3 -c "${RCV_IP4[0]}" -p "$IPERF_PORT" -t "$IPERF_TIME" \
		-C "$1" -J) || return 1
	MBIT=$(jq -r '.end.sum_received.bits_per_second / 1e6 | floor' <<<"$json")
	CC=$(jq -r '.end.sender_tcp_congestion' <<<"$json")
}

for a in "${BPF_ALGOS[@]}"; do
	idx=$(jq -n --arg a "$a" '["mltcp_reno","mltcp_cubic","mltcp_dctcp"] | index($a)')
	total0=$(json_show ".algorithms[$idx].sockets_total")
	MBIT=0 CC=none
	run_algo "$a"
	tap_result "$a: the sender's socket runs $a (iperf3: $CC)" "$([ "$CC" = "$a" ]; echo $?)"
	tap_result "$a: goodput $MBIT Mbit/s >= 70% of $RATE" "$([ "$MBIT" -ge $((RATE * 70 / 100)) ]; echo $?)"
	total1=$(json_show ".algorithms[$idx].sockets_total")
	tap_result "$a: counted the connections (sockets_total $total0 -> $total1)" \
		"$([ "$total1" -gt "$total0" ]; echo $?)"
	diag "native $a: $MBIT Mbit/s through a $RATE Mbit/s tbf FIFO, ${IPERF_TIME}s"
done

in_ns "${NS_S[0]}" sysctl -qw net.ipv4.tcp_ecn=0
MBIT=0 CC=none
run_algo mltcp_dctcp
tap_result "mltcp_dctcp without ECN falls back to mltcp_reno ($CC, $MBIT Mbit/s)" \
	"$([ "$CC" = mltcp_reno ] && [ "$MBIT" -ge $((RATE * 70 / 100)) ]; echo $?)"
tap_check "mltcpctl bpf unload" "$MLTCPCTL" bpf unload
tap_done
