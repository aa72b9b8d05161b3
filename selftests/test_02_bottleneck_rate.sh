#!/bin/bash
# The dumbbell's bottleneck really limits throughput to its configured rate: one
# iperf3 flow (the kernel's cubic) gets no more than 5% above the rate's goodput and
# at least 80% of it, IPv4 and IPv6, at two rates, and the tbf counts what it sent.
# The upper bound is the limiter's; the lower one is looser, for the guest's own
# stalls. The premise, that the link and not the guest's CPU limits the flow, is
# built: 10 and 40 Mbit/s, which a loaded emulated guest still sends (50 and 100 it
# may not), behind 50 ms of FIFO, so that a stall of the sender's vCPU does not idle
# the link: `scripts/flake-report -n 2 --beside test_02` (docs/TESTING.md).
#
#   NS_S[0] ── NS_RT ══ tbf RATE, byte FIFO ══> NS_RR ── NS_R[0]
. "$(dirname "$0")/lib.sh"

rates=(10 40)
tap_plan 5

# TCP goodput is at most 1448/1514 of the wire rate tbf meters.
expect() { awk -v r="$1" 'BEGIN { printf "%.1f\n", r * 1448 / 1514 }'; }

for rate in "${rates[@]}"; do
	ml_cleanup
	QLIMIT_BYTES=$((rate * 50000 / 8)) dumbbell_setup "$rate" tbf 1 ||
		bail "dumbbell at $rate Mbit/s"
	for fam in 4 6; do
		if [ $fam = 4 ]; then dst=${RCV_IP4[0]}; else dst=${RCV_IP6[0]}; fi
		got=$(iperf_goodput_mbit "${NS_S[0]}" "$dst" -C cubic)
		want=$(expect "$rate")
		diag "rate $rate Mbit/s IPv$fam: goodput $got Mbit/s (expected about $want)"
		at_least "$(awk -v w="$want" 'BEGIN { print w * 1.05 }')" "${got:-0}" &&
			at_least "${got:-0}" "$(awk -v w="$want" 'BEGIN { print w * 0.8 }')"
		tap_result "IPv$fam goodput at a $rate Mbit/s bottleneck ($got) is 80-105% of $want" $?
	done
done
read -r sent drops marked < <(bottleneck_stats)
diag "bottleneck: sent $sent bytes, $drops drops, $marked marks"
# the last rate's two flows: more than half of one flow's bytes at that rate
[ "${sent:-0}" -gt $((rate * 1000000 / 8 * ${IPERF_TIME:-5} / 2)) ]
tap_result "the bottleneck qdisc accounts for the traffic" $?
tap_done
