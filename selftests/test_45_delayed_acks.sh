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
#   3. at least 8 iterations at the deepest backoff that nothing cut, and no drop and no
#      CE mark at the bottleneck (premise: there the only signal is the ACKs' delay). A
#      cut is the socket entering CWR, Recovery or Loss (the kernel's own
#      tcp:tcp_cong_state_set, state >= 2), as the algorithm's ssthresh runs only there;
#      nothing is lost here, but a loaded guest can still take one now and then
#      (beside a second guest, 3 runs of 10 had one), and an iteration it cut may
#      rightly reach the top, so such iterations are counted and left out, never hoped
#      away;
#   4. in those uncut iterations none of the job's ACKs is taken at the top of F
#      (mltcp_ack's phase=top) — without the cut rule, every one after a yield is;
#   5. F still ramps from the bottom in them (from <= 1.25 to >= 1.75).
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

trace_events mltcp_restart mltcp_yield mltcp_ack || bail "the mltcp tracepoints are on"
# The cuts: the socket's congestion state, from the kernel's own tracepoint.
echo 1 >$T/events/tcp/tcp_cong_state_set/enable || bail "tcp:tcp_cong_state_set is on"
at_exit "echo 0 >$T/events/tcp/tcp_cong_state_set/enable"
marked_job_start $PORT "the delay"

read -r _ drops_before marks_before < <(bottleneck_stats)
echo "receiver delays acks" >$T/trace_marker
in_ns "${NS_R[0]}" tc qdisc add dev eth0 root netem delay ${DELAY_MS}ms limit 10000 ||
	bail "netem on the receiver's eth0"
# Enough restarts at the deepest backoff to see F in each (16 after the first).
marked_job_stop_after "receiver delays acks" "mltcp_yield: sport=[0-9]* dport=$PORT .* backoff=3$" 16
echo 0 >$T/events/tcp/tcp_cong_state_set/enable
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

# Per iteration (restart to restart) from the first yield at the deepest backoff on:
# the ACKs at the top of F, the lowest and highest F of the others, and whether
# anything cut the window (a congestion state of CWR or above).
awk '
	/tracing_mark_write: receiver delays acks/ { s = 1; next }
	!s { next }
	/mltcp_yield:/ && / backoff=3$/ { deep = 1 }
	/mltcp_restart:/ { if (n) print top, lo, hi, n, cut; top = 0; lo = 99999; hi = 0; n = 0; cut = 0; next }
	/tcp_cong_state_set:/ && / cong_state=[234]$/ { cut = 1; next }
	deep && /mltcp_ack:/ {
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (v["phase"] == "yield") next
		n++
		if (v["phase"] == "top") { top++; next }
		f = v["f_q10"] + 0
		if (f < lo) lo = f
		if (f > hi) hi = f
	}
	END { if (n) print top, lo, hi, n, cut }' "$tmp/trace" >"$tmp/f"
diag "per iteration at the deepest backoff (acks at the top, lowest F, highest F, acks, cut): $(tr '\n' ',' <"$tmp/f")"
awk '!$5' "$tmp/f" >"$tmp/uncut"
iters=$(wc -l <"$tmp/uncut")
cut_iters=$(($(wc -l <"$tmp/f") - iters))
[ "$iters" -ge 8 ] && [ "$drops_after" = "$drops_before" ] && [ "$marks_after" = "$marks_before" ]
tap_result "premise: $iters iterations at the deepest backoff that nothing cut (>= 8; $cut_iters cut, left out), $((drops_after - drops_before)) drops and $((marks_after - marks_before)) CE marks at the bottleneck" $?

at_top=$(awk '{ t += $1 } END { print t + 0 }' "$tmp/uncut")
[ "$iters" -ge 8 ] && [ "$at_top" = 0 ]
tap_result "at the deepest backoff no ACK of an uncut iteration is taken at the top of F ($at_top of them, over $iters iterations >= 8)" $?
ramps=$(awk '$2 <= 1280 && $3 >= 1792' "$tmp/uncut" | wc -l)
[ "$ramps" -ge $((iters / 2)) ] && [ "$ramps" -ge 4 ]
tap_result "F ramps from the bottom instead: $ramps of $iters iterations with F from <= 1280 to >= 1792" $?
tap_done
