#!/bin/bash
# A module cannot be unloaded while a connection uses it, and neither can the core
# (mltcp) under it; the connection survives the attempts and keeps the link busy;
# once it has closed, both unload. For each of mltcp_reno, mltcp_cubic and mltcp_dctcp.
#
# "Keeps the link busy" is checked per second of the transfer, not only as its
# total: every one-second interval carries at least half the link (a connection left
# without its congestion control would stall for a retransmission timeout or more),
# and the whole transfer at least 3/4 of it. The rate itself is test_02's and
# test_11's to measure; the link runs at 20 Mbit/s so that it, and not the guest's CPU,
# limits the flow: beside a second guest on two cores one flow sent 64.9-70.7 Mbit/s at
# 100 Mbit/s and 28.5-34.5 Mbit/s at 40, which is no fault of the module
# (scripts/flake-report -n 5 --beside test_13).
#
# The unload is attempted with the delete_module system call itself (rmmod and
# modprobe -r refuse in userspace when the reference count is non-zero). For a module
# in use, Linux answers EWOULDBLOCK (= EAGAIN); EBUSY is accepted too. The attempts are
# made a second after ss shows the connection (past its slow start), and the transfer
# lasts until two seconds after them, and 6 s at least: iperf3 runs for up to two
# minutes and is stopped with SIGINT, after which it still writes its per-second
# intervals. So the connection uses the module through every attempt however slowly
# the guest runs (with a fixed 6 s transfer, a guest loaded beyond a second guest
# showed the connection so late that it had ended before the attempts, and the unload
# succeeded). "Keeps the link busy" is read from the sender's intervals up to the stop.
#
#   NS_S[0] ── NS_RT ══ tbf 20 Mbit/s ══> NS_RR ── NS_R[0]
. "$(dirname "$0")/lib.sh"

algos=(mltcp_reno mltcp_cubic mltcp_dctcp)
tap_plan $((${#algos[@]} * 5))
RATE=20
want=$(python3 -c "print($RATE * 1448 / 1514)")

is_busy() { case $1 in EBUSY | EAGAIN | EWOULDBLOCK) return 0 ;; esac; return 1; }

for m in "${algos[@]}" mltcp; do
	[ -d "/sys/module/$m" ] && modprobe -r "$m" 2>/dev/null
done
dumbbell_setup "$RATE" tbf 1 || bail "dumbbell topology"
tmp=$(mktemp -d)
at_exit "rm -rf $tmp"

for algo in "${algos[@]}"; do
	ml_modprobe "$algo" || bail "$algo loads"
	iperf_start_server "${NS_R[0]}" || bail "iperf3 server"
	# not through in_ns (a function): $! must be iperf3 itself, for the SIGINT
	ip netns exec "${NS_S[0]}" iperf3 -c "${RCV_IP4[0]}" -p "$IPERF_PORT" -t 120 -J \
		-C "$algo" >"$tmp/json" 2>"$tmp/stderr" &
	client=$!
	started=$SECONDS
	# by its command line, not $client: by the exit that PID may be another process's
	at_exit "pkill -f 'iperf3 -c ${RCV_IP4[0]} -p $IPERF_PORT -t 120'"
	up=0 still=0
	ml_poll_while "$client" ss_shows_algo "${NS_S[0]}" "$algo" && up=1
	sleep 1
	r_algo=$(ml_try_unload "$algo")
	r_core=$(ml_try_unload mltcp)
	ss_shows_algo "${NS_S[0]}" "$algo" && still=1
	diag "$algo: connection up=$up, still up after the attempts=$still;" \
		"delete_module($algo): $r_algo, delete_module(mltcp): $r_core"
	[ $up = 1 ] && is_busy "$r_algo" && [ -d "/sys/module/$algo" ]
	tap_result "unloading $algo while a connection uses it fails ($r_algo)" $?
	is_busy "$r_core" && [ -d /sys/module/mltcp ]
	tap_result "unloading the core mltcp under $algo fails ($r_core)" $?

	# at least 2 s after the attempts and 6 s in all, the transfer the bound was set on
	sleep $((SECONDS - started < 4 ? 6 - (SECONDS - started) : 2))
	kill -INT "$client" 2>/dev/null
	wait "$client"
	# iperf3 stopped by SIGINT exits non-zero and reports the interrupt as its error
	err=$(jq -r '.error // ""' "$tmp/json" 2>/dev/null)
	read -r g slowest < <(jq -r '[.intervals[].sum | select(.seconds > 0.5)] |
		if length > 0 then "\((map(.bytes) | add) * 8 / (map(.seconds) | add) / 1e4 |
		round / 100) \(map(.bits_per_second) | min / 1e4 | round / 100)" else "0 0" end' \
		"$tmp/json" 2>/dev/null)
	diag "$algo: ${g:-?} Mbit/s sent until stopped, slowest second ${slowest:-?} Mbit/s;" \
		"iperf3: ${err:-no error}"
	[ $still = 1 ] && [[ $err == *interrupt* ]] &&
		at_least "${g:-0}" "$(awk -v w="$want" 'BEGIN { print w * 3 / 4 }')" &&
		at_least "${slowest:-0}" "$(awk -v w="$want" 'BEGIN { print w / 2 }')"
	tap_result "the $algo connection survives the attempts and keeps the link busy until stopped (${g:-?} Mbit/s, no second below ${slowest:-?})" $?

	tap_check "after the connection closed, $algo unloads" ml_unload "$algo"
	tap_check "then the core mltcp unloads" ml_unload mltcp
done
tap_done
