#!/bin/bash
# A module cannot be unloaded while a connection uses it, and neither can the core
# (mltcp) under it; the connection survives the attempts and keeps the link busy;
# once it has closed, both unload. For each of mltcp_reno, mltcp_cubic and mltcp_dctcp.
#
# "Keeps the link busy" is checked per second of the transfer, not only as its
# total: every one-second interval carries at least half the link (a connection left
# without its congestion control would stall for a retransmission timeout or more),
# and the whole transfer at least 3/4 of it. The rate itself is test_02's and
# test_11's to measure; the link runs at 40 Mbit/s so that it, and not the guest's CPU,
# limits the flow: at 100 Mbit/s a guest beside a second guest on two cores sent
# 64.9-70.7 Mbit/s (scripts/flake-report -n 5 --beside test_13), and one CI run 84.7,
# which is no fault of the module.
#
# The unload is attempted with the delete_module system call itself (rmmod and
# modprobe -r refuse in userspace when the reference count is non-zero). For a module
# in use, Linux answers EWOULDBLOCK (= EAGAIN); EBUSY is accepted too. The attempts are
# made a second after ss shows the connection (past its slow start), and the
# diagnostics say whether ss still shows it after them: an unload that succeeds is a
# bug only if it does (on a slow guest, the debug kernel, the connection showed late
# and had ended before the attempts).
#
#   NS_S[0] ── NS_RT ══ tbf 40 Mbit/s ══> NS_RR ── NS_R[0]
. "$(dirname "$0")/lib.sh"

algos=(mltcp_reno mltcp_cubic mltcp_dctcp)
tap_plan $((${#algos[@]} * 5))
RATE=40
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
	IPERF_TIME=6 IPERF_JSON=$tmp/json \
		iperf_goodput_mbit "${NS_S[0]}" "${RCV_IP4[0]}" -C "$algo" >"$tmp/g" &
	client=$!
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

	wait "$client"
	rc=$?
	g=$(cat "$tmp/g")
	slowest=$(jq -r '[.intervals[] | select(.sum.seconds > 0.5) | .sum.bits_per_second]
		| min / 1e6 * 100 | round / 100' "$tmp/json" 2>/dev/null)
	diag "$algo: goodput ${g:-?} Mbit/s, slowest second ${slowest:-?} Mbit/s"
	[ $rc = 0 ] && at_least "${g:-0}" "$(awk -v w="$want" 'BEGIN { print w * 3 / 4 }')" &&
		at_least "${slowest:-0}" "$(awk -v w="$want" 'BEGIN { print w / 2 }')"
	tap_result "the $algo connection keeps the link busy through the attempts (${g:-?} Mbit/s, no second below ${slowest:-?})" $?

	tap_check "after the connection closed, $algo unloads" ml_unload "$algo"
	tap_check "then the core mltcp unloads" ml_unload mltcp
done
tap_done
