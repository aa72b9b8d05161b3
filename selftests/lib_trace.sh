#!/bin/bash
# The marked job of the tests that read the core's steps from its tracepoints
# (test_38, test_45), and the trace they read. Source after lib.sh and lib_flows.sh.

T=/sys/kernel/tracing

# trace_events EVENT...: an empty trace of a larger buffer with the mltcp EVENTs on;
# all of mltcp's events off, the trace emptied and the buffer's size back on exit.
trace_events() {
	local e
	[ -d "$T/events" ] || mount -t tracefs tracefs "$T" || return 1
	at_exit "echo 0 >$T/events/mltcp/enable; echo >$T/trace; echo $(cat $T/buffer_size_kb) >$T/buffer_size_kb"
	echo 4096 >$T/buffer_size_kb
	echo >$T/trace
	for e in "$@"; do
		echo 1 >"$T/events/mltcp/$e/enable" || return 1
	done
}

# marked_job_prepare: mltcp_reno loaded with F = ratio + 1 (slope 1, intercept 1, mode
# learned) and mltcp-bench built, or bails; MARKED_DIR, a directory removed on exit.
marked_job_prepare() {
	[ -x "$ML_BIN/mltcp-bench" ] || bail "mltcp-bench is built ($ML_BIN; make userspace)"
	ml_modprobe mltcp_reno || bail "load mltcp_reno"
	ml_params slope=1 intercept=1 mode=learned || bail "F = ratio + 1, mode learned"
	MARKED_DIR=$(mktemp -d)
	at_exit "rm -rf $MARKED_DIR"
}

# marked_job_start PORT BEFORE: mltcp-bench's marked job (MLTCP_SO_ITER_BEGIN before each
# 150 ms compute phase, 250 kB iterations, tie-break 0 so that F starts each iteration
# at 1) from NS_S[0] to NS_R[0] in the background, its output in MARKED_DIR; MARKED_PID.
# A TAP check that it restarts its window three times BEFORE (what the test does next),
# with the job's log and a bail when it does not.
marked_job_start() {
	local n
	"$ML_BIN/mltcp-bench" -q --no-ideal --hints --cc mltcp_reno --no-topology \
		--snd-ns "${NS_S[0]}" --rcv-ns "${NS_R[0]}" --rcv-addr "${RCV_IP4[0]}" --port "$1" \
		-j name=marked,compute_ms=150,bytes=250k,iterations=400,tiebreak=0 \
		-o "$MARKED_DIR/bench" >"$MARKED_DIR/bench.log" 2>&1 &
	MARKED_PID=$!
	at_exit "kill $MARKED_PID 2>/dev/null"
	n=$(marked_job_restarts "$1" 3)
	[ "$n" -ge 3 ]
	tap_result "the marked job runs and restarts its window ($n restarts before $2)" $? ||
		{ tail -n 20 "$MARKED_DIR/bench.log" | diag_stream; bail "the marked job runs"; }
}

# trace_count PATTERN: lines of the trace so far that match PATTERN
trace_count() { grep -c -- "$1" "$T/trace"; }

# marked_job_restarts PORT N: waits up to 60 s for N restarts of the marked job's
# window; prints how many there were.
marked_job_restarts() {
	local i
	for ((i = 0; i < 300; i++)); do
		[ "$(trace_count "mltcp_restart: sport=[0-9]* dport=$1 ")" -ge "$2" ] && break
		kill -0 "$MARKED_PID" 2>/dev/null || break
		nap 0.2
	done
	trace_count "mltcp_restart: sport=[0-9]* dport=$1 "
}

# marked_job_stop_after MARKER PATTERN N: waits up to 120 s for N lines that match
# PATTERN in the trace since the trace_marker line MARKER, then stops the job and the
# trace.
marked_job_stop_after() {
	local i
	for ((i = 0; i < 600; i++)); do
		[ "$(sed -n "/$1/,\$p" "$T/trace" | grep -c -- "$2")" -ge "$3" ] && break
		kill -0 "$MARKED_PID" 2>/dev/null || break
		nap 0.2
	done
	kill "$MARKED_PID" 2>/dev/null
	wait "$MARKED_PID"
	echo 0 >"$T/events/mltcp/enable"
}
