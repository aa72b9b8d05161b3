#!/bin/bash
# After a retransmission timeout mltcp_cubic (F = 1) restarts its curve like Linux's
# cubic (RFC 9438 4.8): the old W_max is forgotten, so once the path has more room
# than before the timeout the window grows past the old W_max at once instead of
# creeping towards it for K seconds. Each flow runs through a 10 Mbit/s FIFO of 64 KB
# with a 50 ms RTT; at 3 s the bottleneck becomes 30 Mbit/s with a 1 MB FIFO and the
# path after it goes dark (netem loss 100%) until the sender has counted a timeout, and
# 0.1 s more (blackout_until_rto: the RTO is built, not hoped for); the flow is stopped
# 4.8 s after that, however late the guest's shell got there. cwnd is sampled every
# 20 ms (TCP_INFO, mltcp-flow); 2.5-4.5 s after the blackout the median cwnd and the
# goodput of mltcp_cubic must be within 25% of stock cubic's, run alternately in the
# same guest, ROUNDS (4) of each, compared by their medians over the runs.
#
# Premises, built and then checked:
# - no loss after the blackout, which would cut the window the checks read. With a
#   64 KB FIFO after the blackout too, a flow of either algorithm overflowed it on its
#   way up in about one run of three under TCG. The 1 MB FIFO holds about 700 packets
#   over the path's 125; no window reaches that within 5 s of a timeout, and the runs'
#   bottleneck drops after the blackout are checked to be zero.
# - no segment overtakes another (ml_one_cpu). With the guest's two vCPUs, about one
#   run in three of either algorithm met a segment overtaken by later ones after the
#   blackout: a fast recovery, a DSACK and an undo. cubic's ssthresh() sets W_max in
#   the recovery and the undo restores the window but not the curve (Linux's cubic
#   undoes as Reno does), so the window crept up the cubic curve towards W_max instead
#   of growing 5% a round trip as it does while no W_max is known: a median window of
#   77-234 against 305-345. On one CPU no run saw a reordering (TcpExt*Reorder) nor a
#   DSACK; each run's counts are checked to be zero.
# The bug this guards against (W_max kept after the timeout) keeps every run of
# mltcp_cubic creeping towards the old ~70 segments for K seconds.
#
#                     tbf 10→30 Mbit/s,
#   NS_S[0] ── NS_RT ══ 64 KB→1 MB ══> NS_RR ─(blackout)─ NS_R[0] ─(netem 50 ms)─> ACKs
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_flows.sh"

ROUNDS=${ROUNDS:-4}
tap_plan 6
ml_modprobe mltcp_cubic || bail "mltcp_cubic loads"
tmp=$(mktemp -d)
trap 'ml_cleanup; rm -rf "$tmp"' EXIT
ml_force_f1 || bail "set slope 0, intercept 1"
ml_one_cpu || bail "take the second CPU offline"

dumbbell_setup 10 tbf 1 || bail "dumbbell"
S=${NS_S[0]}
R=${NS_R[0]}
DST=${RCV_IP4[0]}
in_ns "$R" tc qdisc add dev eth0 root netem delay 50ms limit 10000 || bail "netem delay"
flows_sink "$R" || bail "sink"
tc_pipe TC_RT "$NS_RT"
tc_pipe TC_RR "$NS_RR"

timeouts() { in_ns "$S" nstat -asz TcpExtTCPTimeouts 2>/dev/null | awk '{ n += $2 } END { print n + 0 }'; }
# counters: the sender's "HyStart train exits, their cwnd sum, delay exits, their cwnd
# sum, fast recoveries, undone reductions, reorderings detected, DSACKs received" (both
# cubic modules count HyStart there)
counters() {
	in_ns "$S" nstat -asz 2>/dev/null | awk '
		$1 == "TcpExtTCPHystartTrainDetect" { t = $2 }
		$1 == "TcpExtTCPHystartTrainCwnd" { tc = $2 }
		$1 == "TcpExtTCPHystartDelayDetect" { d = $2 }
		$1 == "TcpExtTCPHystartDelayCwnd" { dc = $2 }
		$1 ~ /^TcpExtTCP(Sack|Reno)Recovery$/ { r += $2 }
		$1 ~ /^TcpExtTCP(Full|Partial|DSACK|Loss)Undo$/ { u += $2 }
		$1 ~ /^TcpExtTCP(SACK|TS|Reno)Reorder$/ { o += $2 }
		$1 ~ /^TcpExtTCPDSACK(Ofo)?Recv$/ { k += $2 }
		END { print t + 0, tc + 0, d + 0, dc + 0, r + 0, u + 0, o + 0, k + 0 }'
}

# rto_run ALGO OUT: one flow, blackout 3 s in, stopped 4.8 s after it (120 s at most);
# OUT gets "post_cwnd post_mbit pre_cwnd timeouts blackout_end_ms flow_end_ms
# drops_after_blackout" and counters()'s eight counts since the blackout; OUT.way the
# window's way up.
rto_run() {
	local algo=$1 out=$2 start t_end to0 pre post d0 d1 h0 hs
	echo "qdisc change dev bn0 root handle 1: tbf rate 10mbit burst 15000 limit 65536" >&"$TC_RT"
	to0=$(timeouts)
	flows_start "$S" "$DST" "$algo" 1 120 20 "$out.s" || return 1
	start=$(flows_wait_start "$out.s") || {
		kill "$FLOWS_PID" 2>/dev/null
		diag "$algo: no start: $(cat "$out.s.err")"
		return 1
	}
	nap_until "$start" 3
	# the tc processes run already: the commands take effect at once
	echo "qdisc change dev bn0 root handle 1: tbf rate 30mbit burst 15000 limit 1048576" >&"$TC_RT"
	blackout_until_rto "$FLOWS_PID" "$TC_RR" r0 0.1 2 ||
		diag "$algo: no RTO within 2 s of the blackout's start"
	d0=$(bottleneck_stats | cut -f2)
	h0=$(counters)
	t_end=$(((BLACKOUT_END_US - start / 1000) / 1000))
	flows_stop_at $((BLACKOUT_END_US + 4800000)) || { diag "$(cat "$out.s.err")"; return 1; }
	d1=$(bottleneck_stats | cut -f2)
	hs=$(echo "$h0 $(counters)" |
		awk '{ for (i = 1; i <= 8; i++) printf "%d ", $(i + 8) - $i }')
	# the window's way up: cwnd/ssthresh/ca_state at a few times after the blackout
	awk -v t0="$t_end" '
		BEGIN { n = split("250 500 1000 1500 2000 2500", at, " "); k = 1 }
		$1 == "s" {
			while (k <= n && $2 >= t0 + at[k]) {
				printf "+%dms %d/%d/%d ", at[k], $4, $5, $9
				k++
			}
		}' "$out.s" >"$out.way"
	pre=$(flows_stats "$out.s" 1500 2900)
	post=$(flows_stats "$out.s" $((t_end + 2500)) $((t_end + 4500)))
	echo "$(echo "$post" | awk '{ print $3, $1 }') $(echo "$pre" | awk '{ print $3 }')" \
		"$(($(timeouts) - to0)) $t_end $(flows_end_ms "$out.s") $((d1 - d0)) $hs" >"$out"
}

declare -A cw mb
rto_ok=0 late=0 lossy=0 dup=0
for ((i = 0; i < ROUNDS; i++)); do
	for algo in cubic mltcp_cubic; do
		rto_run "$algo" "$tmp/$algo.$i" || bail "$algo flow"
		read -r c m pre to t_end f_end drops ht htc hd hdc rec undo reo dsack <"$tmp/$algo.$i"
		diag "round $i $algo: median cwnd before the blackout $pre, 2.5-4.5 s after it $c; goodput then $m Mbit/s; RTOs $to; blackout ended at $t_end ms, the flow at $f_end ms; bottleneck drops after the blackout $drops; after it: HyStart $ht train exits (cwnd $htc), $hd delay exits (cwnd $hdc), $rec fast recoveries, $undo undone, $reo reorderings seen, $dsack DSACKs; cwnd/ssthresh/state $(cat "$tmp/$algo.$i.way")"
		cw[$algo]="${cw[$algo]:-} $c"
		mb[$algo]="${mb[$algo]:-} $m"
		[ "$to" -ge 1 ] && rto_ok=$((rto_ok + 1))
		[ "$f_end" -ge $((t_end + 4500)) ] || late=$((late + 1))
		[ "$drops" = 0 ] || lossy=$((lossy + 1))
		[ "$reo" = 0 ] && [ "$dsack" = 0 ] || dup=$((dup + 1))
	done
done
c_st=$(median ${cw[cubic]}) c_ml=$(median ${cw[mltcp_cubic]})
m_st=$(median ${mb[cubic]}) m_ml=$(median ${mb[mltcp_cubic]})
[ "$rto_ok" = $((2 * ROUNDS)) ]
tap_result "every flow had a retransmission timeout (TcpExtTCPTimeouts)" $?
[ "$late" = 0 ]
tap_result "the flow ran until the 2 s window after the blackout had ended" $?
[ "$lossy" = 0 ]
tap_result "premise: the bottleneck dropped nothing after the blackout ($lossy of $((2 * ROUNDS)) runs did)" $?
[ "$dup" = 0 ]
tap_result "premise: no segment overtaken or delivered twice after the blackout (reorderings, DSACKs: $dup of $((2 * ROUNDS)) runs had one)" $?
within_pct "$c_ml" "$c_st" 25
tap_result "after the RTO mltcp_cubic's median cwnd ($c_ml, median of $ROUNDS runs) is within 25% of cubic's ($c_st)" $?
within_pct "$m_ml" "$m_st" 25
tap_result "after the RTO mltcp_cubic's goodput ($m_ml Mbit/s, median of $ROUNDS runs) is within 25% of cubic's ($m_st)" $?
tap_done
