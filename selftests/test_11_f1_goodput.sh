#!/bin/bash
# With F = 1 (slope 0, intercept 1) each MLTCP module is its base algorithm: in the
# same run, its single-flow goodput over a 20 Mbit/s bottleneck is within 5% of the
# kernel's own reno/cubic/dctcp (medians; more flows of each, up to 5, while the
# medians differ by more), and two flows share the link like the base
# algorithm's two flows do (medians over up to 5 pairs of each, as for one flow:
# aggregate within 5%, Jain's fairness index no worse than the base's by more than
# 0.08: stock dctcp's own index ranged 0.735-0.812 over five runs in this test, so a
# 0.05 margin sat on its noise). DCTCP runs over the RED+ECN bottleneck, the others
# over the tbf FIFO.
#
# Premise: the link, not the guest's CPU, limits the flows. At 100 Mbit/s, beside a
# second guest, two flows of the same algorithm summed 54-90 Mbit/s (reno 64-88,
# mltcp_reno with F = 1, the same code path, 60-88), and in ten runs the medians missed
# the 5% once for two flows and once for one; at 20 Mbit/s an emulated guest fills
# the link beside a second one (test_13's flows: 17.6-19.3 of 19.1).
#
#   NS_S[0] ── NS_RT ══ tbf 20 Mbit/s [+ RED ECN] ══> NS_RR ── NS_R[0]
. "$(dirname "$0")/lib.sh"

runs=("reno mltcp_reno tbf" "cubic mltcp_cubic tbf" "dctcp mltcp_dctcp red_ecn")
tap_plan $((${#runs[@]} * 2))
RATE=20
P=/sys/module/mltcp/parameters

ml_modprobe mltcp || bail "mltcp loads"
tmp=$(mktemp -d)
trap 'ml_cleanup; rm -rf "$tmp"' EXIT
ml_force_f1 || bail "set slope 0, intercept 1"
diag "F = $(cat $P/slope) * bytes_ratio + $(cat $P/intercept)"

# set_default ALGO: the default congestion control of every namespace, so that the
# receivers of a DCTCP flow run DCTCP's receiver side too.
set_default() {
	local ns
	for ns in "${NS_S[@]}" "${NS_R[@]}"; do
		in_ns "$ns" sysctl -qw net.ipv4.tcp_congestion_control="$1" || return 1
	done
}

# allow ALGO...: lets namespaces other than the initial one use ALGO as their
# default (only algorithms in tcp_allowed_congestion_control may be).
allow() {
	ml_sysctl_restore net.ipv4.tcp_allowed_congestion_control
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$(sysctl -n net.ipv4.tcp_allowed_congestion_control) $*"
}

# two_flows ALGO: prints the receiver goodputs of two flows that start and end
# together (one iperf3 client, two parallel streams, both through the bottleneck).
two_flows() {
	local json
	iperf_start_server "${NS_R[0]}" >/dev/null || return 1
	json=$(in_ns "${NS_S[0]}" iperf3 -c "${RCV_IP4[0]}" -p "$IPERF_PORT" \
		-t "${IPERF_TIME:-5}" -P 2 -C "$1" -J) || return 1
	printf '%s' "$json" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(" ".join("%.2f" % (s["receiver"]["bits_per_second"] / 1e6) for s in r["end"]["streams"]))'
}

jain() { python3 -c 'import sys; a, b = map(float, sys.argv[1:]); print("%.3f" % ((a + b) ** 2 / (2 * (a * a + b * b)) if a + b > 0 else 0))' "$@"; }

# alternate MEASURE OK: up to ROUNDS rounds; each runs MEASURE ALGO for $base and
# $ml ($ml first in even rounds) and stops as soon as OK, which checks the medians
# of every round so far, succeeds. Returns 0 when it did, 1 after ROUNDS without.
# Five, not three: CI once saw two of three 5 s mltcp_reno flows starved under TCG
# (76.7 and 83.2 Mbit/s against reno's 90.6-94.7, with F = 1 the same code path),
# and a median of five needs three such flows on one side to fail.
ROUNDS=5
alternate() {
	local measure=$1 ok=$2 k algo order
	for ((k = 1; k <= ROUNDS; k++)); do
		order=("$base" "$ml")
		[ $((k % 2)) = 0 ] && order=("$ml" "$base")
		for algo in "${order[@]}"; do
			set_default "$algo"
			"$measure" "$algo"
		done
		"$ok" && return 0
	done
	return 1
}

# one_flow ALGO: one flow's goodput, appended to gs_base or gs_ml.
one_flow() {
	local g
	g=$(iperf_goodput_mbit "${NS_S[0]}" "${RCV_IP4[0]}" -C "$1")
	if [ "$1" = "$base" ]; then gs_base+=" ${g:-0}"; else gs_ml+=" ${g:-0}"; fi
}

one_flow_ok() {
	med_base=$(median $gs_base) med_ml=$(median $gs_ml)
	within_pct "$med_ml" "$med_base" 5
}

# two_flow_pair ALGO: two flows' Jain index and sum, appended to js_*, ss_*, pairs_*.
two_flow_pair() {
	local f1 f2 j sum
	two_flows "$1" >"$tmp/two"
	read -r f1 f2 <"$tmp/two"
	j=$(jain "${f1:-0}" "${f2:-0}")
	sum=$(python3 -c "print('%.2f' % (${f1:-0} + ${f2:-0}))")
	if [ "$1" = "$base" ]; then
		js_base+=" $j" ss_base+=" $sum" pairs_base+=" ${f1:-?}+${f2:-?}"
	else
		js_ml+=" $j" ss_ml+=" $sum" pairs_ml+=" ${f1:-?}+${f2:-?}"
	fi
}

two_flows_ok() {
	jb=$(median $js_base) jm=$(median $js_ml)
	sb=$(median $ss_base) sm=$(median $ss_ml)
	within_pct "$sm" "$sb" 5 &&
		python3 -c "import sys; sys.exit(0 if $jm >= min($jb, 0.95) - 0.08 else 1)"
}

for run in "${runs[@]}"; do
	read -r base ml qdisc <<<"$run"
	ml_modprobe "tcp_$base" 2>/dev/null || ml_modprobe "$base" 2>/dev/null
	ml_modprobe "$ml" || bail "$ml loads"
	allow "$base" "$ml"
	dumbbell_setup "$RATE" "$qdisc" 1 || bail "dumbbell ($qdisc)"

	# One flow of each, then more (alternating, up to 5 of each) while the medians
	# differ by more than 5%: under TCG one 5 s flow can miss the CPU it needs (at
	# 100 Mbit/s CI saw cubic 94.2 against mltcp_cubic 89.2 once), which one more
	# flow of each tells from a real difference.
	gs_base="" gs_ml=""
	alternate one_flow one_flow_ok
	fail=$?
	diag "$qdisc: one flow: $base$gs_base Mbit/s (median $med_base), $ml$gs_ml (median $med_ml)"
	tap_result "$ml single-flow goodput is within 5% of $base (same run, F = 1; medians)" $fail

	# The same for two flows of each: one pair's Jain index is noisy (stock dctcp
	# alone ranged 0.735-0.859 here; CI saw mltcp_dctcp 0.754 against dctcp 0.859).
	js_base="" js_ml="" ss_base="" ss_ml="" pairs_base="" pairs_ml=""
	alternate two_flow_pair two_flows_ok
	fail=$?
	diag "two flows: $base$pairs_base (Jain$js_base, median $jb; sum median $sb);" \
		"$ml$pairs_ml (Jain$js_ml, median $jm; sum median $sm)"
	tap_result "two $ml flows share the link like $base (medians: aggregate within 5%, Jain >= base - 0.08)" $fail

	set_default cubic
	# next run gets a fresh topology (and frees this one's module references)
	ml_cleanup
	ml_modprobe mltcp
	echo 0 >$P/slope && echo 1 >$P/intercept
	for f in slope intercept; do
		at_exit "echo 1 > $P/$f"
	done
done
tap_done
