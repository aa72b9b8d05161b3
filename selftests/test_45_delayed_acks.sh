#!/bin/bash
# A receiver that delays its ACKs cannot give its sender the top of F. The top needs
# the deepest backoff and a cut of the window in the same iteration
# (mltcp_top_earned()); RTT samples alone move the backoff, and a receiver can make
# them show a queue, but it cannot cut its sender's window without costing it the cut.
#
# A marked job (mltcp-bench --hints, tie-break 0, so that F ramps from 1 each
# iteration) sends 250 kB iterations after 150 ms of compute through a link it does
# not fill. It runs alone first, its RTT samples setting the path's minimum; then its
# receiver holds every ACK 20 ms (netem on the receiver's eth0: the ACK path only).
# At every restart that reads as another job's queue. Read from the tracepoints of the
# job's socket, with a trace_marker line where the delay starts:
#   1. the job restarts its window before the delay (premise: a minimum RTT is known);
#   2. with the delay, its yields run out their bound and the backoff reaches its
#      deepest, 3 (premise: the attack moves what RTT samples alone can move);
#   3. nothing cut the window: no recovery, no timeout, no drop, no CE mark (premise: the
#      only signal is the ACKs' delay; the tail loss probe the delay's onset may send is
#      not a cut);
#   4. after the deepest backoff, none of the job's ACKs is taken at the top of F
#      (mltcp_ack's phase=top) — without the cut rule, every one after a yield is;
#   5. F still ramps from the bottom in those iterations (from <= 1.25 to >= 1.75).
#
#   NS_S[0] (mltcp-bench job, marks) ── NS_RT ══ tbf 100 Mbit/s, 1 MB FIFO ══> NS_RR ── NS_R[0]
#                                                                              eth0: netem 20 ms
#                                                                              (ACKs only)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_flows.sh"
. "$(dirname "$0")/lib_trace.sh"

PORT=5201
DELAY_MS=20
tap_plan 5
marked_job_prepare
tmp=$MARKED_DIR
QLIMIT_BYTES=1000000 dumbbell_setup 100 tbf 1 || bail "dumbbell topology"

# tcp_ext NAME...: the sender namespace's TcpExt counters NAME, summed (/proc/net/netstat)
tcp_ext() {
	in_ns "${NS_S[0]}" awk -v want=" $* " '$1 == "TcpExt:" && !h { for (i = 2; i <= NF; i++) n[i] = $i; h = 1; next }
		$1 == "TcpExt:" { for (i = 2; i <= NF; i++) if (index(want, " " n[i] " ")) t += $i; print t + 0 }' \
		/proc/net/netstat
}
# What calls the algorithm's ssthresh, the cut: a recovery's start and a timeout (an ECN
# cut would need CE marks, which the FIFO counts). A tail loss probe (TLP) is not one.
CUTS=(TCPSackRecovery TCPRenoRecovery TCPTimeouts)

trace_events mltcp_restart mltcp_yield mltcp_ack || bail "the mltcp tracepoints are on"
marked_job_start $PORT "the delay"

cuts_before=$(tcp_ext "${CUTS[@]}") probes_before=$(tcp_ext TCPLossProbes)
read -r _ drops_before marks_before < <(bottleneck_stats)
echo "receiver delays acks" >$T/trace_marker
in_ns "${NS_R[0]}" tc qdisc add dev eth0 root netem delay ${DELAY_MS}ms limit 10000 ||
	bail "netem on the receiver's eth0"
# Enough restarts at the deepest backoff to see F in each (16 after the first).
marked_job_stop_after "receiver delays acks" "mltcp_yield: sport=[0-9]* dport=$PORT .* backoff=3$" 16
cuts_after=$(tcp_ext "${CUTS[@]}") probes_after=$(tcp_ext TCPLossProbes)
read -r _ drops_after marks_after < <(bottleneck_stats)
grep -E "tracing_mark_write|dport=$PORT " "$T/trace" >"$tmp/trace"

awk '/tracing_mark_write: receiver delays acks/ { s = 1; next }
	s && /mltcp_yield:/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print v["end"], v["backoff"] }' "$tmp/trace" >"$tmp/yields"
diag "yields with the delay (end backoff): $(head -n 12 "$tmp/yields" | tr '\n' ',')"
bounds=$(grep -c '^bound' "$tmp/yields")
deepest=$(awk 'BEGIN { m = -1 } $2 > m { m = $2 } END { print m }' "$tmp/yields")
[ "$bounds" -ge 3 ] && [ "$deepest" = 3 ]
tap_result "premise: with the delay the yields run out their bound ($bounds end=bound) and back off to $deepest (3)" $?

diag "tail loss probes with the delay: $((probes_after - probes_before)) (not a cut)"
[ "$cuts_after" = "$cuts_before" ] && [ "$drops_after" = "$drops_before" ] &&
	[ "$marks_after" = "$marks_before" ]
tap_result "premise: nothing cut the window ($((cuts_after - cuts_before)) recoveries and timeouts, $((drops_after - drops_before)) drops, $((marks_after - marks_before)) CE marks)" $?

# Per iteration (restart to restart) from the first yield at the deepest backoff on:
# the ACKs at the top of F, the lowest and highest F of the others.
awk '
	/tracing_mark_write: receiver delays acks/ { s = 1; next }
	!s { next }
	/mltcp_yield:/ && / backoff=3$/ { deep = 1 }
	/mltcp_restart:/ { if (n) print top, lo, hi, n; top = 0; lo = 99999; hi = 0; n = 0; next }
	deep && /mltcp_ack:/ {
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (v["phase"] == "yield") next
		n++
		if (v["phase"] == "top") { top++; next }
		f = v["f_q10"] + 0
		if (f < lo) lo = f
		if (f > hi) hi = f
	}
	END { if (n) print top, lo, hi, n }' "$tmp/trace" >"$tmp/f"
diag "per iteration at the deepest backoff (acks at the top, lowest F, highest F, acks): $(tr '\n' ',' <"$tmp/f")"
iters=$(wc -l <"$tmp/f")
at_top=$(awk '{ t += $1 } END { print t + 0 }' "$tmp/f")
[ "$iters" -ge 8 ] && [ "$at_top" = 0 ]
tap_result "at the deepest backoff no ACK is taken at the top of F ($at_top of them, over $iters iterations >= 8)" $?
ramps=$(awk '$2 <= 1280 && $3 >= 1792' "$tmp/f" | wc -l)
[ "$ramps" -ge $((iters / 2)) ] && [ "$ramps" -ge 4 ]
tap_result "F ramps from the bottom instead: $ramps of $iters iterations with F from <= 1280 to >= 1792" $?
tap_done
