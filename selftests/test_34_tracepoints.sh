#!/bin/bash
# The mltcp tracepoints exist under tracefs and fire during transfers: mltcp_ack per
# ACK in congestion avoidance, mltcp_iteration at each iteration boundary, learned
# (idle gaps, no hints) and given (mltcp-bench --hints through libmltcp), mltcp_restart
# when an iteration restart lowers the window and mltcp_yield when the restarted flow
# stops holding it (here, alone on the path, on its first RTT samples: "drained", with
# hints or without).  mltcp_ack and mltcp_iteration carry the socket's phase: base
# before the size is known, unearned right after a mark, and F above 1 only in the
# ramp, at the top or in a yield.
#
#   mltcp-bench's own dumbbell: sender ── router ══ tbf 100 Mbit/s ══> switch ── receiver
. "$(dirname "$0")/lib.sh"

ML_BIN=${ML_BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}
T=/sys/kernel/tracing
tap_plan 13
[ -x "$ML_BIN/mltcp-bench" ] || bail "mltcp-bench is built ($ML_BIN; make userspace)"
[ -d "$T/events" ] || mount -t tracefs tracefs "$T" || bail "tracefs is mounted"
ml_modprobe mltcp_reno || bail "load mltcp_reno"

[ -d "$T/events/mltcp/mltcp_iteration" ] && [ -d "$T/events/mltcp/mltcp_ack" ]
tap_result "events mltcp:mltcp_iteration and mltcp:mltcp_ack are listed" $?

at_exit "echo 0 >$T/events/mltcp/enable; echo >$T/trace"
echo >"$T/trace"
echo 1 >"$T/events/mltcp/enable" || bail "enable the mltcp events"
tmp=$(mktemp -d)
at_exit "rm -rf $tmp"

# bench RUN_ARGS...: 6 iterations of 120 ms compute + 400 kB, one job, mltcp_reno.
bench() {
	"$ML_BIN/mltcp-bench" -q --no-ideal -j compute_ms=120,bytes=400k,iterations=6 \
		--cc mltcp_reno -o "$tmp/$1" "${@:2}" >"$tmp/$1.log" 2>&1
}
bench learned
tap_result "a 6-iteration job runs with mltcp_reno (no hints)" $?
cp "$T/trace" "$tmp/learned.trace"
echo >"$T/trace"
bench given --hints
tap_result "the same job runs with --hints" $?
cp "$T/trace" "$tmp/given.trace"
echo 0 >"$T/events/mltcp/enable"

acks=$(grep -c 'mltcp_ack:' "$tmp/learned.trace")
diag "mltcp_ack events in the learned run: $acks"
[ "$acks" -gt 0 ] && grep -m1 'mltcp_ack:' "$tmp/learned.trace" | grep -q 'f_q10=[0-9]* .*cwnd='
tap_result "mltcp_ack fires during the transfer and carries F and cwnd" $?

n=$(grep -c 'mltcp_iteration:.*source=learned' "$tmp/learned.trace")
diag "learned iteration events: $n"
grep 'mltcp_iteration:' "$tmp/learned.trace" | head -n 3 | diag_stream
# Idle gaps end iterations 1..5 (the first transmission after each compute phase).
[ "$n" -ge 4 ] && [ "$n" -le 6 ]
tap_result "mltcp_iteration fires once per idle gap with source=learned" $?
# Most learned iterations carry the job's ~400 kB and a 120 ms+ period; a stall of the
# emulated CPU mid-transfer may split one (it is an idle gap to the learner).
grep 'mltcp_iteration:.*source=learned' "$tmp/learned.trace" |
	awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	       if (v["bytes"] >= 400000 && v["bytes"] < 420000 &&
	           v["duration_ms"] >= 100 && v["duration_ms"] < 2000) good++ }
	     END { exit !(good >= 3) }'
tap_result "learned iterations report their bytes (~400 kB) and duration (3 or more of them)" $?

# Once F is in use (the learner knows the iteration's size: the last two or three of
# the six iterations, fewer if a stall splits one), every iteration the learner ends
# restarts the window (mltcp_restart, at every restart) and begins a yield,
# which ends once: at least one mltcp_yield, at most one per learned iteration. Alone on
# the path, they end on a drained queue, never on the bound.
learned=$(grep -c 'mltcp_iteration:.*source=learned' "$tmp/learned.trace")
yields=$(grep -c 'mltcp_yield:.*held_ms=[0-9]* end=drained rtt_us=[0-9]* min_rtt_us=' \
	"$tmp/learned.trace")
diag "learned iterations: $learned, yields ending on a drained queue: $yields"
grep -m2 'mltcp_yield:' "$tmp/learned.trace" | diag_stream
[ "$yields" -ge 1 ] && [ "$yields" -le "$learned" ] &&
	grep -q 'mltcp_restart:.*cwnd_before=[0-9]* cwnd=[0-9]* ' "$tmp/learned.trace" &&
	! grep -q 'mltcp_yield:.*end=bound' "$tmp/learned.trace"
tap_result "mltcp_restart and mltcp_yield fire at iteration starts, one yield per iteration at most" $?
# Only a yield that runs out its bound backs the next bound off: alone, every yield
# drained, so each one reports backoff=0.
[ "$yields" -ge 1 ] &&
	[ "$(grep -c 'mltcp_yield:.* backoff=0$' "$tmp/learned.trace")" = "$yields" ]
tap_result "alone, the yields' bound never backs off (backoff=0 on all $yields)" $?

# F is 1 in base, unearned and overrun: an ACK's F above 1 comes with the ramp, the top
# or a yield (whose F is the one of the phase it ends in)
cat "$tmp/learned.trace" "$tmp/given.trace" | grep 'mltcp_ack:' |
	awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	       if (v["phase"] !~ /^(base|unearned|overrun|ramp|top|yield)$/) bad++
	       else if (v["f_q10"] + 0 > 1024 && v["phase"] !~ /^(ramp|top|yield)$/) bad++
	       n[v["phase"]]++ }
	     END { for (p in n) printf "%s %d\n", p, n[p] >"/dev/stderr"; exit bad > 0 }' \
	2>"$tmp/ack-phases"
rc=$?
diag "mltcp_ack events by phase: $(sort "$tmp/ack-phases" | paste -sd, -)"
[ $rc = 0 ] && grep -q '^base ' "$tmp/ack-phases" && grep -q '^ramp ' "$tmp/ack-phases"
tap_result "mltcp_ack carries the phase: base before the size is known, then the ramp; F above 1 only in ramp, top or yield" $?

# the learner knows no size at its first boundary: F does not apply yet
grep -m1 'mltcp_iteration:.*source=learned' "$tmp/learned.trace" | grep -q ' phase=base$'
tap_result "the first learned mltcp_iteration reports phase=base" $?

n=$(grep -c 'mltcp_iteration:.*source=given' "$tmp/given.trace")
diag "given iteration events: $n"
# Six begin marks complete five iterations.
[ "$n" = 5 ] && ! grep -q 'source=learned' "$tmp/given.trace"
tap_result "with hints, each begin mark after the first ends one iteration (source=given)" $?
# the mark starts the next iteration unearned: F waits for the idle gap that follows it
m=$(grep 'mltcp_iteration:.*source=given' "$tmp/given.trace" | grep -c ' phase=unearned$')
[ "$n" = 5 ] && [ "$m" = "$n" ]
tap_result "each given mltcp_iteration reports phase=unearned ($m of $n)" $?

# With hints the mark comes before the 120 ms compute, the restart after it. The yield's
# bound (the restart's gap) counts from the restart there too: alone, the yields end on a
# drained queue, as in the learned run, not on a bound the compute already used up.
yields=$(grep -c 'mltcp_yield:.*end=drained' "$tmp/given.trace")
diag "yields with hints ending on a drained queue: $yields"
grep -m2 'mltcp_yield:' "$tmp/given.trace" | diag_stream
[ "$yields" -ge 1 ] && ! grep -q 'mltcp_yield:.*end=bound' "$tmp/given.trace"
tap_result "with hints, yields are bounded from the restart, not from the mark" $?
tap_done
