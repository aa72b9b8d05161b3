#!/bin/bash
# MLTCP_LOAD_CYCLES (default 50) load/unload cycles with traffic in between: each
# cycle loads one of the MLTCP modules (round robin, which loads the core too), runs a
# short iperf3 transfer with it over IPv4 or IPv6, checks its socket counter is back
# to 0, and unloads the module and the core. Afterwards nothing is loaded and the
# kernel log has no warning (the bench also fails the run on any Oops/BUG/WARNING).
#
#   NS_S[0] ── NS_RT ══ tbf 100 Mbit/s ══> NS_RR ── NS_R[0]
. "$(dirname "$0")/lib.sh"

algos=(mltcp_reno mltcp_cubic mltcp_dctcp)
CYCLES=${MLTCP_LOAD_CYCLES:-50}
tap_plan 5

for m in "${algos[@]}" mltcp; do
	[ -d "/sys/module/$m" ] && modprobe -r "$m" 2>/dev/null
done
dumbbell_setup 100 tbf 1 || bail "dumbbell topology"
log_before=$(dmesg | wc -l)

# unload NAME: modprobe -r, retrying for up to 10 s while sockets close.
unload() {
	for _ in $(seq 50); do
		modprobe -r "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

loaded=0 traffic=0 idle=0 unloaded=0
for ((i = 0; i < CYCLES; i++)); do
	algo=${algos[$((i % 3))]}
	if ((i % 2)); then dst=${RCV_IP6[0]}; else dst=${RCV_IP4[0]}; fi
	modprobe "$algo" && [ -d /sys/module/mltcp ] && loaded=$((loaded + 1))
	IPERF_TIME=1 iperf_goodput_mbit "${NS_S[0]}" "$dst" -C "$algo" >/dev/null &&
		traffic=$((traffic + 1))
	for _ in $(seq 50); do
		[ "$(cat "/sys/module/$algo/parameters/sockets" 2>/dev/null)" = 0 ] && {
			idle=$((idle + 1))
			break
		}
		sleep 0.1
	done
	unload "$algo" && unload mltcp && unloaded=$((unloaded + 1))
done
diag "$CYCLES cycles: $loaded loaded, $traffic transfers, $idle idle, $unloaded unloaded"
[ $loaded = "$CYCLES" ]
tap_result "each of $CYCLES cycles loaded its module and the core ($loaded)" $?
[ $traffic = "$CYCLES" ]
tap_result "each cycle carried a transfer ($traffic)" $?
[ $idle = "$CYCLES" ]
tap_result "the sockets counter went back to 0 after each transfer ($idle)" $?
[ $unloaded = "$CYCLES" ] && ! [ -d /sys/module/mltcp ]
tap_result "each cycle unloaded the module and the core ($unloaded)" $?
bad=$(dmesg | tail -n +"$((log_before + 1))" | grep -E 'WARNING|BUG|Oops|refcount|leak|general protection|list_(add|del) corruption')
[ -z "$bad" ]
tap_result "no warning in the kernel log" $?
[ -n "$bad" ] && printf '%s\n' "$bad" | head -n 20 | diag_stream
tap_done
