#!/bin/bash
# Smoke test of the bench: a module built from this tree loads, and a TCP connection
# over veth uses it (per socket, via iperf3 -C).
#
#   NS_S[0] ── NS_RT ══ tbf 100 Mbit/s ══> NS_RR ── NS_R[0]
. "$(dirname "$0")/lib.sh"

tap_plan 4
ml_modprobe mltcp_reno
tap_result "mltcp_reno loads" $?
grep -qw mltcp_reno /proc/sys/net/ipv4/tcp_available_congestion_control
tap_result "mltcp_reno is listed in tcp_available_congestion_control" $?
kver=$(uname -r)
modinfo -F vermagic mltcp_reno | grep -q "^$kver "
tap_result "the loaded module was built for the running kernel $kver" $?

dumbbell_setup 100 tbf 1 || bail "dumbbell topology"
iperf_start_server "${NS_R[0]}" || bail "iperf3 server"
in_ns "${NS_S[0]}" iperf3 -c "${RCV_IP4[0]}" -p "$IPERF_PORT" -t 4 -C mltcp_reno >/dev/null 2>&1 &
client=$!
at_exit "kill $client"
seen=0
ml_poll_while "$client" ss_shows_algo "${NS_S[0]}" mltcp_reno && seen=1
wait "$client"
rc=$?
[ $seen = 1 ] && [ $rc = 0 ]
tap_result "an iperf3 connection over veth runs with mltcp_reno (ss -ti shows it)" $?
tap_done
