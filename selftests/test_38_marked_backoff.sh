#!/bin/bash
# A marked flow that met a long queue recovers once the link is free. A job that marks
# its iterations (mltcp-bench --hints: MLTCP_SO_ITER_BEGIN before each compute phase,
# tie-break 0 so that F starts each iteration at 1) first runs alone, then beside a
# stock Reno bulk flow that holds a standing queue in the FIFO for 8 s, then alone
# again. Read from the tracepoints of the job's socket (mltcp_restart, mltcp_yield,
# mltcp_iteration; mltcp_ack once the bulk flow stopped), with trace_marker lines
# where the bulk flow starts and stops:
#   1. the job's iterations restart the window before the bulk flow starts;
#   2. while the bulk flow runs, the job's yields run out their bound (end=bound) and
#      the backoff climbs to 2 or more;
#   3. after it stopped, a yield finds the link free (end=drained) within 6 yields;
#   4. and the backoff comes back to 0 while the job runs alone (22 iterations), and is
#      at 0 again in one of its last 5 yields (mltcp_backoff_step(): two free yields in
#      a row take a step back, 6 from the deepest; how fast is the unit tests' to pin).
#      Not "0 at the last yield": under TCG a yield now and then sees a queue in a late
#      sample, and one that drains late counts as long against the job's sending time
#      and takes a step up (mltcp_yield_was_long()), which the next two free yields
#      take back; beside a second guest the last yield ended at 1 in 2 runs of 10 (4
#      steps up in 222 yields after the stop). A backoff that climbs back on a free
#      link and stays up through the last 5 yields fails;
#   5. each iteration still starts from the initial window (at least 8 after the stop):
#      one mltcp_restart between each two marks, at 10 segments. The backoff shortens
#      the yields, never the restarts. At 20 Mbit/s the held window of 10 segments
#      queues 5.8 ms of its own, above the 1 ms a yield takes for another's queue
#      (MLTCP_YIELD_QDELAY_US), so a yield whose first sample comes late holds to the
#      next mark or ends on the iteration's last ACKs: that restart finds the window
#      at 10 already and reports cwnd_before=10;
#   6. F ramps again from the bottom once the backoff has left its top (the top of F
#      needs the deepest backoff, mltcp_top_earned()): in some iteration after the
#      first yield that ended below it, F (mltcp_ack's f_q10) rises from 1.25 or less
#      to 1.75 or more, instead of being held at the top of F (2, where a flow that
#      takes no turns stays). Read from the first yield at 0, the check once had
#      no whole iteration left: beside a second guest late queue samples kept the
#      backoff up until the job's last yield.
#
#   NS_S[0] (mltcp-bench job, marks) ──┐
#                                      ├─ NS_RT ══ tbf 20 Mbit/s, 60 kB FIFO ══> NS_RR ──┬─ NS_R[0]
#   NS_S[1] (iperf3 -C reno, 8 s)   ───┘                                              └─ NS_R[1]
# 20 Mbit/s: the bulk flow must fill the FIFO under an emulated guest too (test_37).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_flows.sh"
. "$(dirname "$0")/lib_trace.sh"

RATE=20
BULK_S=8
PORT=5201
tap_plan 6
marked_job_prepare
tmp=$MARKED_DIR
QLIMIT_BYTES=60000 dumbbell_setup $RATE tbf 2 || bail "dumbbell topology"

trace_events mltcp_restart mltcp_yield mltcp_iteration || bail "the mltcp tracepoints are on"
marked_job_start $PORT "the bulk flow"

echo "bulk flow starts" >$T/trace_marker
iperf_start_server "${NS_R[1]}" || bail "iperf3 server"
in_ns "${NS_S[1]}" iperf3 -c "${RCV_IP4[1]}" -p "$IPERF_PORT" -t $BULK_S -C reno >"$tmp/bulk.log" 2>&1
echo "bulk flow stopped" >$T/trace_marker
echo 1 >"$T/events/mltcp/mltcp_ack/enable" || bail "enable mltcp:mltcp_ack"
# Enough iterations alone for the backoff to come back and F to ramp (or not).
marked_job_stop_after "bulk flow stopped" "mltcp_iteration:" 22
# the job's events (mltcp_iteration names the connection as dst=[ADDR]:PORT)
grep -E "tracing_mark_write|dport=$PORT |dst=\[[^]]*\]:$PORT " "$T/trace" >"$tmp/trace"

# yields SECTION: the job's yields in SECTION (during, after) as "end backoff" lines
yields() {
	awk -v want="$1" '
		/tracing_mark_write: bulk flow starts/ { s = "during"; next }
		/tracing_mark_write: bulk flow stopped/ { s = "after"; next }
		s == want && /mltcp_yield:/ {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			print v["end"], v["backoff"]
		}' "$tmp/trace"
}
yields during >"$tmp/during"
yields after >"$tmp/after"
diag "yields while the bulk flow ran (end backoff): $(tr '\n' ',' <"$tmp/during")"
diag "yields after it stopped: $(tr '\n' ',' <"$tmp/after")"
bounds=$(grep -c '^bound' "$tmp/during")
deepest=$(awk 'BEGIN { m = -1 } $2 > m { m = $2 } END { print m }' "$tmp/during")
[ "$bounds" -ge 2 ] && [ "$deepest" -ge 2 ]
tap_result "beside the bulk flow the yields run out their bound ($bounds end=bound) and back off to $deepest (>= 2)" $?

first_drained=$(awk '$1 == "drained" { print NR; exit }' "$tmp/after")
[ -n "$first_drained" ] && [ "$first_drained" -le 6 ]
tap_result "after the bulk flow stopped, a yield finds the link free within 6 yields (yield ${first_drained:-none})" $?
first_zero=$(awk '$2 == 0 { print NR; exit }' "$tmp/after")
yields=$(wc -l <"$tmp/after")
last5=$(tail -n 5 "$tmp/after" | awk '{ printf "%s%s", sep, $2; sep = " " }')
[ -n "$first_zero" ] && [[ " $last5 " == *" 0 "* ]]
tap_result "and the backoff comes back to 0 alone (yield ${first_zero:-none} of $yields) and is at 0 again at the end (the last 5 yields: ${last5:-none})" $?

# Between two marks (mltcp_iteration) after the stop: the restarts and the window each
# one set; an iteration without exactly one restart to 10 segments is listed with what it
# had (the window of the last ACK in congestion avoidance before its mark, mltcp_ack's
# cwnd, and its restarts' windows).
read -r iters good bad < <(awk '
	/tracing_mark_write: bulk flow stopped/ { s = 1; next }
	!s { next }
	/mltcp_ack:/ { for (i = 1; i <= NF; i++) if ($i ~ /^cwnd=/) cwnd = substr($i, 6) }
	/mltcp_restart:/ {
		n++
		for (i = 1; i <= NF; i++) if ($i ~ /^cwnd=/) to = to " " substr($i, 6)
	}
	/mltcp_iteration:/ {
		if (marked) {
			it++
			if (n == 1 && to == " 10") g++
			else which = which sprintf(" %d:acked_cwnd=%s,restarts=%d(cwnd%s)", it, at_mark, n, to)
		}
		marked = 1; n = 0; to = ""
		at_mark = cwnd == "" ? "none" : cwnd
	}
	END { printf "%d %d%s\n", it, g, which }' "$tmp/trace")
[ -z "$bad" ] || diag "iterations without one restart to 10 segments: $bad"
[ "$iters" -ge 8 ] && [ "$good" = "$iters" ]
tap_result "after the stop each of $iters iterations (>= 8) restarts once at the initial window ($good did)" $?

# Per iteration (restart to restart) after the first yield that ended below the deepest
# backoff (3): the lowest and the highest F of the job's ACKs.
awk '
	/tracing_mark_write: bulk flow stopped/ { s = 1; next }
	!s { next }
	/mltcp_yield:/ && !/ backoff=3$/ { below = 1 }
	/mltcp_restart:/ { if (n) print lo, hi, n; lo = 99999; hi = 0; n = 0; next }
	below && /mltcp_ack:/ {
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		f = v["f_q10"] + 0; n++
		if (f < lo) lo = f
		if (f > hi) hi = f
	}
	END { if (n) print lo, hi, n }' "$tmp/trace" >"$tmp/f"
diag "F per iteration after the backoff left its top (lowest highest acks): $(tr '\n' ',' <"$tmp/f")"
diag "F of the ACKs after the stop: $(awk '/tracing_mark_write: bulk flow stopped/ { s = 1 }
	s && /mltcp_ack:/ { for (i = 1; i <= NF; i++) if ($i ~ /^f_q10=/) c[substr($i, 7)]++ }
	END { for (f in c) printf "%s x%d ", f, c[f] }' "$tmp/trace")"
ramps=$(awk '$1 <= 1280 && $2 >= 1792' "$tmp/f" | wc -l)
[ "$ramps" -ge 1 ]
tap_result "F ramps again from the bottom: $ramps iterations with F from <= 1280 to >= 1792" $?
tap_done
