#!/bin/bash
# A burst of 100,000 random MLTCP socket options, congestion-control switches,
# connection churn and generic netlink requests (valid and malformed) from 4 threads
# while traffic flows over 8 MLTCP connections (userspace/testprogs/mltcp_stress.c),
# plus mltcpctl dumping sockets from outside at the same time. Afterwards: every
# failure had a documented errno, no socket is left on an MLTCP algorithm, the
# module reference counts are back to 0 and all modules unload (vm-run fails the run
# on any kernel warning).
. "$(dirname "$0")/lib.sh"

ML_BIN=${ML_BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}
CALLS=${MLTCP_STRESS_CALLS:-100000}
[ -x "$ML_BIN/mltcp-stress" ] ||
	{ echo "1..1"; echo "not ok 1 - userspace tools are built in $ML_BIN (make userspace)"; exit 1; }

tap_plan 5
ml_modprobe mltcp_reno && ml_modprobe mltcp_cubic || bail "load mltcp_reno and mltcp_cubic"
ml_netns NS stress || bail "network namespace"

# an outside observer dumping sockets and counters during the burst
(
	while :; do
		in_ns "$NS" "$ML_BIN/mltcpctl" -j sockets >/dev/null 2>&1
		"$ML_BIN/mltcpctl" -j show >/dev/null 2>&1
	done
) &
observer=$!
at_exit "kill $observer 2>/dev/null"

start=$(date +%s)
out=$(in_ns "$NS" "$ML_BIN/mltcp-stress" -c "$CALLS" -t 4 -n 8 2>&1)
rc=$?
kill $observer 2>/dev/null
wait $observer 2>/dev/null
printf '%s\n' "$out" | diag_stream
tap_result "$CALLS random calls from 4 threads with traffic, in $(($(date +%s) - start)) s: documented errnos only" $rc

# the sockets are closed: wait for the last ones to be destroyed
n=""
for _ in $(seq 100); do
	n=$(($(cat /sys/module/mltcp_reno/parameters/sockets) + $(cat /sys/module/mltcp_cubic/parameters/sockets)))
	[ "$n" = 0 ] && break
	sleep 0.1
done
[ "$n" = 0 ]
tap_result "no socket left on mltcp_reno or mltcp_cubic ($n)" $?
ip netns del "$NS"
refs=$(cat /sys/module/mltcp_reno/refcnt /sys/module/mltcp_cubic/refcnt | paste -sd' ')
[ "$refs" = "0 0" ]
tap_result "module reference counts back to 0 ($refs)" $?
rmmod mltcp_reno mltcp_cubic
tap_result "mltcp_reno and mltcp_cubic unload" $?
if [ -z "$(ls /sys/module/mltcp/holders 2>/dev/null)" ]; then
	refcnt=$(cat /sys/module/mltcp/refcnt 2>/dev/null || echo none)
	rmmod mltcp
	tap_result "mltcp unloads (refcnt was $refcnt)" $?
else
	skip "mltcp unloads" "other MLTCP modules loaded: $(ls /sys/module/mltcp/holders | paste -sd' ')"
fi
tap_done
