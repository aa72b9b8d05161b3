#!/bin/bash
# Bulk flows that sample their own congestion state (userspace/testprogs/mltcp_flow.c)
# and statistics over a time window of their samples, for the side-by-side selftests
# (test_15, test_16). Source after lib.sh. Under an emulated guest a process per sample
# (ss, iperf3 intervals) takes seconds; mltcp-flow samples TCP_INFO/TCP_CC_INFO of its
# own sockets every few ms.

ML_BIN=${ML_BIN:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/bin}
FLOW=$ML_BIN/mltcp-flow
[ -x "$FLOW" ] || { echo "1..1"; echo "not ok 1 - $FLOW is built (make userspace)"; exit 1; }

# now_ns: CLOCK_REALTIME in ns (the clock of mltcp-flow's "start" line).
now_ns() { date +%s%N; }

# flows_sink NS: starts a sink in NS (killed on exit) and sets SINK_PORT.
flows_sink() {
	SINK_PORT=$(free_port "$1")
	# exec: $! is the sink itself (killing a subshell would leave it running, holding
	# the test's output open); no output either, for the same reason
	(exec ip netns exec "$1" "$FLOW" sink "$SINK_PORT" >/dev/null 2>&1) &
	at_exit "kill $! 2>/dev/null"
	wait_port "$1" "$SINK_PORT"
}

# flows_start NS_SRC DST ALGO N SECONDS INTERVAL_MS OUT: starts N flows in the
# background (FLOWS_PID), samples to OUT. The receiver's sink must run (flows_sink).
# SECONDS is the most they run: flows_stop_at ends them earlier. OUT is emptied
# before they start, not by the background job: flows_wait_start must not read the
# "start" line a former run left in OUT.
flows_start() {
	: >"$7" && : >"$7.err" || return 1
	(exec ip netns exec "$1" "$FLOW" send "$2" "$SINK_PORT" "$3" "$4" "$5" "$6" >"$7" 2>"$7.err") &
	FLOWS_PID=$!
}

# flows_wait_start OUT: waits (60 s max: a loaded emulated guest may take that long
# to start the program and connect) for OUT's start line; prints its time in ns.
flows_wait_start() {
	local i tag t
	for ((i = 0; i < 1200; i++)); do
		if read -r tag t 2>/dev/null <"$1" && [ "$tag" = start ]; then
			echo "$t"
			return 0
		fi
		nap 0.05
	done
	return 1
}

# flows_stop_at US: at US (CLOCK_REALTIME, microseconds) stops the flows (SIGTERM:
# mltcp-flow still writes its "end" lines) and waits for them; returns their status.
# A test that stops them a fixed time after an event it waited for keeps its windows
# within the flows however late its shell got there.
flows_stop_at() {
	nap_until_us "$1"
	kill -TERM "$FLOWS_PID" 2>/dev/null
	wait "$FLOWS_PID"
}

# flows_end_ms OUT: how long the flows of OUT ran, in ms (0 without an "end" line).
flows_end_ms() {
	awk '$1 == "end" { n = int($5 * 1000); exit } END { print n + 0 }' "$1"
}

# flows_stats OUT FROM_MS TO_MS: statistics of the samples in [FROM_MS, TO_MS]:
#   goodput_mbit cwnd_p10 cwnd_p50 cwnd_p90 retrans alpha_p50 samples
# goodput: bytes acked by all flows in the window / its length; cwnd percentiles over
# every sample of every flow; retrans: retransmitted segments of all flows in the
# window; alpha: median DCTCP alpha (/1024), -1 without DCTCP.
flows_stats() {
	python3 - "$@" <<'PYEOF'
import sys
path, lo, hi = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
cw, al, first, last = [], [], {}, {}
for line in open(path):
    f = line.split()
    if len(f) != 9 or f[0] != "s":
        continue
    t = float(f[1])
    if not lo <= t <= hi:
        continue
    cw.append(int(f[3]))
    if int(f[7]) >= 0:
        al.append(int(f[7]))
    rec = (t, int(f[6]), int(f[5]))
    first.setdefault(f[2], rec)
    last[f[2]] = rec
def pct(a, p):
    a = sorted(a)
    return a[int(p * (len(a) - 1) + 0.5)] if a else 0
span = max([last[k][0] - first[k][0] for k in first] or [0])
nbytes = sum(last[k][1] - first[k][1] for k in first)
retr = sum(last[k][2] - first[k][2] for k in first)
print("%.2f %d %d %d %d %d %d" % (nbytes * 8 / span / 1000 if span > 0 else 0,
      pct(cw, .1), pct(cw, .5), pct(cw, .9), retr, pct(al, .5) if al else -1, len(cw)))
PYEOF
}

# Under emulation starting a process (tc, sleep, date) may take seconds, so the
# blackouts are driven without starting any: tc processes started beforehand read
# their commands from a pipe, and waits use bash's read timeout and $EPOCHREALTIME.

# tc_pipe VAR NS: starts "tc -force -batch -" in NS reading from a new fd, stored in
# VAR; a line written to it later takes effect at once. Closed on exit.
tc_pipe() {
	local fd
	exec {fd}> >(exec ip netns exec "$2" tc -force -batch - >/dev/null 2>&1)
	printf -v "$1" '%s' "$fd"
	at_exit "exec $fd>&-"
}

# nap SECONDS: sleeps without starting a process (a read that times out on a FIFO
# nobody writes to).
_nap_f=$(mktemp -u)
mkfifo "$_nap_f" && exec {_nap_fd}<>"$_nap_f" && rm -f "$_nap_f"
nap() {
	read -rt "$1" -u "$_nap_fd"
	return 0
}

# now_us: CLOCK_REALTIME in microseconds, without a process.
now_us() { echo "${EPOCHREALTIME/./}"; }

# rto_count PID: sets RTO_COUNT to TcpExtTCPTimeouts of the network namespace PID runs
# in (/proc/PID/net is that namespace's), read without starting a process.
rto_count() {
	local -a head vals
	local i
	RTO_COUNT=
	while read -ra head && read -ra vals; do
		[ "${head[0]}" = TcpExt: ] || continue
		for i in "${!head[@]}"; do
			[ "${head[i]}" = TCPTimeouts ] && RTO_COUNT=${vals[i]} && return 0
		done
	done <"/proc/$1/net/netstat"
	return 1
}

# blackout_until_rto PID TC_FD DEV HOLD_S MAX_S: the premise "one retransmission
# timeout", built rather than hoped for. DEV (on the path after the bottleneck, in the
# namespace of the tc pipe TC_FD) drops every packet until the namespace of the sender
# PID counts a new RTO, and HOLD_S seconds more; then it forwards again. With HOLD_S
# 0.1 the timeout's retransmission is lost and the next one, at least 2 x 200 ms
# (RTO_min, doubled by the backoff) after it, gets through even when this shell saw
# the RTO 0.2 s late: every run recovers the same way. Sets BLACKOUT_START_US,
# BLACKOUT_RTO_US and BLACKOUT_END_US (CLOCK_REALTIME).
# Returns 1 when no RTO came within MAX_S (the path is lit again; say why and fail).
blackout_until_rto() {
	local pid=$1 fd=$2 dev=$3 hold=$4 max_us=$(($5 * 1000000)) before
	rto_count "$pid" || return 1
	before=$RTO_COUNT
	echo "qdisc add dev $dev root netem loss 100%" >&"$fd"
	BLACKOUT_START_US=${EPOCHREALTIME/./}
	BLACKOUT_RTO_US=
	while [ $((${EPOCHREALTIME/./} - BLACKOUT_START_US)) -lt "$max_us" ]; do
		nap 0.01
		rto_count "$pid" || break
		if [ "$RTO_COUNT" -gt "$before" ]; then
			BLACKOUT_RTO_US=${EPOCHREALTIME/./}
			nap "$hold"
			break
		fi
	done
	echo "qdisc del dev $dev root" >&"$fd"
	BLACKOUT_END_US=${EPOCHREALTIME/./}
	[ -n "$BLACKOUT_RTO_US" ]
}

# nap_until_us US: sleeps until US (CLOCK_REALTIME, microseconds).
nap_until_us() {
	local d=$(($1 - $(now_us)))
	[ "$d" -gt 0 ] && nap "$((d / 1000000)).$(printf '%06d' $((d % 1000000)))"
	return 0
}

# nap_until START_NS OFFSET_S: sleeps until OFFSET_S seconds after START_NS.
nap_until() { nap_until_us $(($1 / 1000 + ${2%.*} * 1000000)); }
