#!/bin/bash
# What an unprivileged sender can take from a stock flow of the same base algorithm by
# what it declares: nothing. F > 1 is earned by iteration structure only, so an MLTCP
# flow that streams runs as its base algorithm (plain Reno here) whatever it told MLTCP:
#   1. under libmltcp-preload.so with MLTCP_BYTES_PER_ITER=1 (a size below the 16 KiB
#      floor: the preload ignores it, the socket stays in learned mode, never learns);
#   2. under the preload with MLTCP_BYTES_PER_ITER=65536 (a valid size, then 15 s of
#      streaming: past 5/4 of the size the iteration has overrun, F = 1);
#   3. with no hint, five bursts of 64 KB 100 ms apart (the learner records them and
#      learns 64 KB) and then streaming (the streaming iteration overruns).
# Each beside a stock Reno flow (iperf3 -C reno) for 15 s from the moment both are
# under way, 3 runs a case: all three cases behind a router's FIFO, case 2 behind the
# senders' own FIFO too. Asserts, per case and placement:
#   - F = 1 over every run's measured window, from the MLTCP socket's state (mltcpctl
#     -j sockets in the sender's namespace) at its start and 2 s before its end: case 1,
#     no size at both (the preload ignored it); cases 2 and 3, a known size
#     (bytes_per_iter > 0: the overrun, not "never learned", keeps F at 1), the same
#     completed iterations at both (no iteration began in between) and, at the start,
#     more bytes in the iteration than the overrun bound (overrun x the size): past
#     the bound F is 1 until the next iteration, so F was 1 on every ACK of the window;
#   - the stock flow keeps at least 0.30 of the two flows' goodput over the counted
#     runs together. Goodput is what each receiver got over a common window (one dump
#     of the switch's link counters a sample), not each client's own report: under an
#     emulated guest two clients start seconds apart. A run in which the FIFO seldom
#     held a packet back for the rate is not counted (the guest's CPU limited the
#     flows, not the link), and another is run instead, up to 2 more.
# The share's bound sits below what Reno against Reno does here and above what F > 1
# would take. With the MLTCP sender on stock Reno (T37_ML_CC=reno, below), the stock
# flow kept 0.325-0.458 of single runs, 0.377 on average (20 runs in the 6.12 guest;
# about the same with the senders' namespaces swapped or the other flow started
# first: something of this harness, not of MLTCP, favours the other flow); next to
# MLTCP at F = 1, 0.33-0.50. A bound of 0.40 a run, or on the median of three, failed
# honest runs. A flow that held F all run would grow F segments a round trip and cut
# its window by 1/(2F) (the decrease parameter); in the synchronised-loss model of
# docs/DESIGN.md ("What this leaves a stock flow") the stock flow keeps
# 1.5/(1.5 + 2F^2 - 0.5F): 0.29 at F = 1.5, 0.18 at 2 (before the earned-F rules this
# test measured 0.19-0.34 with F at 2). The first assertion is the exact one, for any
# F > 1; the share is its effect, as the other flow sees it.
# T37_RATE_MBIT and T37_QLIMIT_BYTES change the link (100 and 300000 where the guest
# keeps up), T37_ROUTER_CASES and T37_SENDER_CASES the cases of each placement,
# T37_RUNS the counted runs of a case (3). T37_ML_CC=reno puts the MLTCP sender on
# stock Reno: the share check then measures the harness (the F checks fail, as they
# must without an MLTCP socket):
#   MLTCP_TEST_FILTER=test_37 scripts/vm-run --kver K --modules build/kmod/K -- env \
#     T37_ML_CC=reno T37_RUNS=4 T37_ROUTER_CASES=bpi1 T37_SENDER_CASES= selftests/run.sh
#
#   (a) router FIFO: tail drops, far from the senders
#
#   NS_S[0] (MLTCP, uid nobody) ──┐                                         ┌─ r0 ─ NS_R[0]
#                                 ├─ NS_RT ══ tbf 20 Mbit/s, 60 kB FIFO ══> NS_RR
#   NS_S[1] (iperf3 -C reno)   ───┘                                         └─ r1 ─ NS_R[1]
#
#   (b) the senders' own FIFO: both senders in one namespace, TCP small queues
#
#   NS_S[0] (MLTCP, uid nobody;   ══ eth0: tbf 20 Mbit/s, ══> NS_RT ── NS_RR ┬─ r0 ─ NS_R[0]
#            iperf3 -C reno)           60 kB FIFO                           └─ r1 ─ NS_R[1]
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_flows.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
ML_LIB=${ML_LIB:-$top/build/lib}
CTL=$ML_BIN/mltcpctl
# The link must be the bottleneck: under an emulated guest (TCG) two flows reached
# about 32 Mbit/s together on a loaded 2-CPU host, so at 100 Mbit/s no queue would
# build and the shares would measure the CPU. 20 Mbit/s with a FIFO of 60 kB is the
# same 24 ms of queue as 100 Mbit/s with 300 kB; runs in which the FIFO seldom held
# packets back are not counted (and said so).
RATE=${T37_RATE_MBIT:-20}
QLIMIT=${T37_QLIMIT_BYTES:-60000}
RUN_S=15
RUNS=${T37_RUNS:-3}
ML_CC=${T37_ML_CC:-mltcp_reno}
RETRY_UNTIL_S=330
MIN_SHARE=0.30
ROUTER_CASES=${T37_ROUTER_CASES-bpi1 bpi64k learned}
# Behind the senders' own FIFO the declared size's overrun only: each case costs about
# a minute and a half under an emulated guest (T37_SENDER_CASES adds the others).
SENDER_CASES=${T37_SENDER_CASES-bpi64k}
for f in "$CTL" "$ML_BIN/mltcp-bursts" "$ML_LIB/libmltcp-preload.so"; do
	[ -e "$f" ] || { echo "1..1"; echo "not ok 1 - $f is built (make userspace)"; exit 1; }
done

tap_plan $((2 * $(wc -w <<<"$ROUTER_CASES $SENDER_CASES")))
ml_modprobe mltcp_reno || bail "load mltcp_reno"
# An unprivileged process may only pick allowed algorithms (what an administrator
# does to offer MLTCP to jobs).
ml_sysctl_restore net.ipv4.tcp_allowed_congestion_control
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$(sysctl -n net.ipv4.tcp_allowed_congestion_control) mltcp_reno" ||
	bail "allow mltcp_reno to unprivileged sockets"
# Send buffers of 4 MB for both flows: a stall of a sender under an emulated guest must
# not empty its socket, which would be an idle gap, hence an iteration, to the learner.
for k in net.core.wmem_max net.core.rmem_max; do
	ml_sysctl_restore $k
	sysctl -qw $k=4194304 || bail "$k = 4 MB"
done
diag "mltcp parameters: $("$CTL" show | head -n 3 | tr '\n' ';')"
OVERRUN_Q10=$("$CTL" -j show | jq -r .overrun_q10)
[ "$OVERRUN_Q10" -gt 0 ] 2>/dev/null || bail "the overrun bound (mltcpctl -j show: $OVERRUN_Q10)"
# Copies nobody can read and run whatever the permissions along the checkout's path.
tmp=$(mktemp -d)
at_exit "rm -rf $tmp"
chmod 755 "$tmp"
cp "$ML_LIB/libmltcp-preload.so" "$ML_BIN/mltcp-bursts" "$tmp/" || bail "copy the programs"
chmod 755 "$tmp"/*

# sample: "A B PACKETS OVERLIMITS DROPS": the bytes the switch (NS_RR) has sent to
# receiver 0 (the MLTCP flow's) and to receiver 1 (the stock flow's), from one dump of
# its links' counters, and the FIFO's packets, overlimits (a packet that had to wait
# for the rate) and drops. No jq: under an emulated guest every process costs.
sample() {
	{
		ip -n "$NS_RR" -s -o link show
		tc -n "$BOTTLENECK_NS" -s qdisc show dev "$BOTTLENECK_DEV"
	} | awk '
		/^[0-9]+: / {
			name = $2; sub(/[@:].*/, "", name); n = split($0, seg, "\\\\")
			for (i = 1; i < n; i++) if (seg[i] ~ /TX:/) { split(seg[i + 1], v, " "); tx[name] = v[1] }
		}
		/^qdisc / { root = / root / }
		root && /^ Sent / { pkts = $4; drops = $7; sub(/,/, "", drops); over = $9 }
		END { printf "%.0f %.0f %.0f %.0f %.0f\n", tx["r0"], tx["r1"], pkts, over, drops }'
}

# ml_state NS DPORT: "algo bytes_per_iter f_q10 size_given iterations bytes_this_iter" of
# the MLTCP socket in NS to DPORT that carried the most in its iteration (iperf3's data
# connection, not its control connection); nothing when there is none.
ml_state() {
	in_ns "$1" "$CTL" -j sockets | jq -r --argjson p "$2" '
		[.[] | select(.dport == $p)] | max_by(.bytes_this_iter) // empty |
		"\(.algo) \(.bytes_per_iter) \(.f_q10) \(.size_given) \(.iterations) \(.bytes_this_iter)"'
}

# iperf_server NS VAR: starts an iperf3 server in NS for any number of tests, one at a
# time (killed on exit), and stores its port in VAR.
iperf_server() {
	local port
	port=$(free_port "$1")
	(exec ip netns exec "$1" iperf3 -s -p "$port" >/dev/null 2>&1) &
	at_exit "kill $!"
	printf -v "$2" '%s' "$port"
	wait_port "$1" "$port"
}

# mltcp_client CASE NS PORT: execs the MLTCP sender of CASE, unprivileged, for longer
# than a run (the run kills it).
mltcp_client() {
	local dst=${RCV_IP4[0]} t=$((RUN_S + 60))
	case $1 in
	bpi1 | bpi64k)
		exec ip netns exec "$2" setpriv --reuid=nobody --regid=nogroup --clear-groups \
			env LD_PRELOAD="$tmp/libmltcp-preload.so" MLTCP_CC="$ML_CC" MLTCP_DEBUG=1 \
			MLTCP_BYTES_PER_ITER="$([ "$1" = bpi1 ] && echo 1 || echo 65536)" \
			iperf3 -c "$dst" -p "$3" -t $t -w 4M >/dev/null
		;;
	learned)
		exec ip netns exec "$2" setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$tmp/mltcp-bursts" "$dst" "$3" "$ML_CC" 5 65536 100 $t >/dev/null
		;;
	esac
}

# one_run CASE ML_NS STOCK_NS: the MLTCP sender of CASE (to receiver 0) and a stock
# Reno flow (to receiver 1) side by side for RUN_S seconds from the moment both are
# under way; sets BYTES ("MLTCP STOCK": the bytes the two receivers got from 2 s on,
# "-" when the run does not count), SHARE (the stock flow's share of them, or "-"),
# STATE0 and STATE (ml_state at 2 s, when the window starts, and 2 s before the end).
one_run() {
	local c=$1 ml_ns=$2 stock_ns=$3 ml_port i ml_pid stock_pid a0 b0 p0 o0 d0 a1 b1 p1 o1 d1 t0 t1 t2 kbit
	BYTES=- SHARE=- STATE0="" STATE=""
	# exec: $! is the client itself, which the end of the run kills
	(exec ip netns exec "$stock_ns" iperf3 -c "${RCV_IP4[1]}" -p "$STOCK_PORT" \
		-t $((RUN_S + 60)) -w 4M -C reno >/dev/null 2>"$tmp/stock.err") &
	stock_pid=$!
	ml_port=$([ "$c" = learned ] && echo "$SINK_PORT" || echo "$ML_PORT")
	(mltcp_client "$c" "$ml_ns" "$ml_port" 2>"$tmp/client.err") &
	ml_pid=$!
	# both flows under way: an emulated guest takes seconds to start a process
	read -r a0 b0 _ < <(sample)
	for ((i = 0; i < 50; i++)); do
		nap 0.2
		read -r a1 b1 _ < <(sample)
		[ $((a1 - a0)) -gt 100000 ] && [ $((b1 - b0)) -gt 100000 ] && break
		a0=$a1 b0=$b1
	done
	t0=$(now_us)
	nap 2
	t1=$(now_us)
	read -r a0 b0 p0 o0 d0 < <(sample)
	STATE0=$(ml_state "$ml_ns" "$ml_port")
	nap_us $((t0 + (RUN_S - 2) * 1000000))
	STATE=$(ml_state "$ml_ns" "$ml_port")
	nap_us $((t0 + RUN_S * 1000000))
	read -r a1 b1 p1 o1 d1 < <(sample)
	t2=$(now_us)
	kbit="over $(((t2 - t1) / 100000))00 ms: MLTCP $(((a1 - a0) * 8000 / (t2 - t1))) kbit/s, stock $(((b1 - b0) * 8000 / (t2 - t1))) kbit/s; FIFO: $((p1 - p0)) packets, $((o1 - o0)) over the rate, $((d1 - d0)) dropped"
	if ! kill -0 "$stock_pid" 2>/dev/null || ! kill -0 "$ml_pid" 2>/dev/null; then
		diag "  $kbit; a flow ended early: run not counted"
	elif [ $(((o1 - o0) * 4)) -lt $((p1 - p0)) ]; then
		# Under an emulated guest the senders may not keep up with the rate: then the
		# shares are the CPU's, not the congestion controls'.
		diag "  $kbit; the FIFO seldom held packets back: the guest's CPU limited the flows, not the link; run not counted"
	else
		diag "  $kbit"
		BYTES="$((a1 - a0)) $((b1 - b0))"
		SHARE=$(awk -v a=$((a1 - a0)) -v b=$((b1 - b0)) 'BEGIN { printf "%.3f", b / (a + b) }')
	fi
	kill "$ml_pid" "$stock_pid" 2>/dev/null
	wait "$ml_pid" "$stock_pid"
	cat "$tmp/client.err" "$tmp/stock.err" | grep -v 'interrupt - the client has terminated' |
		diag_stream
	# the servers see the clients go before the next run starts
	for ((i = 0; i < 50; i++)); do
		[ -z "$(ss -N "${NS_R[0]}" -Htn state established "( sport = :$ML_PORT or sport = :$SINK_PORT )")" ] &&
			[ -z "$(ss -N "${NS_R[1]}" -Htn state established "( sport = :$STOCK_PORT )")" ] && break
		nap 0.1
	done
	return 0
}

nap_us() {
	local d=$(($1 - $(now_us)))
	[ "$d" -gt 0 ] && nap "$((d / 1000000)).$(printf '%06d' $((d % 1000000)))"
	return 0
}

# pooled_share: the stock flow's share of the bytes of the counted runs together, from
# their "MLTCP STOCK" words on stdin ("-": not counted).
pooled_share() {
	tr ' ' '\n' | grep -E '^[0-9]+$' | paste - - |
		awk '{ a += $1; b += $2 } END { if (a + b > 0) printf "%.3f\n", b / (a + b); else print "-" }'
}

# f1_window CASE STATE0 STATE: true when the two states show F = 1 on every ACK between
# them (the header's first assertion); OVERRUN_Q10 is the bound.
f1_window() {
	local algo0 bpi0 f0 given0 iters0 carried0 algo bpi f given iters carried
	read -r algo0 bpi0 f0 given0 iters0 carried0 <<<"${2:-none - - - - -}"
	read -r algo bpi f given iters carried <<<"${3:-none - - - - -}"
	[ "$algo0" = mltcp_reno ] && [ "$algo" = mltcp_reno ] && [ "$f0" = 1024 ] && [ "$f" = 1024 ] ||
		return 1
	case $1 in
	bpi1) [ "$bpi0" = 0 ] && [ "$bpi" = 0 ] && [ "$given0" = false ] && [ "$given" = false ] ;;
	bpi64k | learned)
		[ "$bpi0" -gt 0 ] && [ "$bpi" = "$bpi0" ] && [ "$iters" = "$iters0" ] &&
			{ [ "$1" = learned ] || [ "$bpi0" = 65536 ]; } &&
			[ "$given0" = "$([ "$1" = bpi64k ] && echo true || echo false)" ] &&
			[ "$given" = "$given0" ] && [ "$carried" -ge "$carried0" ] &&
			[ "$carried0" -gt $((bpi0 * OVERRUN_Q10 / 1024)) ]
		;;
	*) return 1 ;;
	esac
}

# placement NAME ML_NS STOCK_NS CASES: each case until RUNS runs count (RUNS + 2 at
# most, and no more than RUNS once the test has run RETRY_UNTIL_S seconds: it must end
# within run.sh's limit), and its two assertions.
placement() {
	local name=$1 ml_ns=$2 stock_ns=$3 c r counted bytes shares states pooled bad start=$SECONDS
	for c in $4; do
		bytes="" shares="" states="" bad=0 counted=0
		for ((r = 1; counted < RUNS && (r <= RUNS || (r <= RUNS + 2 && SECONDS < RETRY_UNTIL_S)); r++)); do
			one_run "$c" "$ml_ns" "$stock_ns" || bail "$name, $c: run $r set up"
			diag "$name, $c, run $r: stock share $SHARE; MLTCP socket at the start" \
				"and near the end: ${STATE0:-none} / ${STATE:-none}"
			[ "$SHARE" != - ] && counted=$((counted + 1))
			bytes+="$BYTES " shares+="$SHARE "
			states+="[${STATE0:-none} / ${STATE:-none}] "
			f1_window "$c" "$STATE0" "$STATE" || bad=1
		done
		pooled=$(pooled_share <<<"$bytes")
		[ "$counted" -ge "$RUNS" ] && at_least "$pooled" "$MIN_SHARE"
		tap_result "$name, $c: the stock flow keeps >= $MIN_SHARE of the goodput ($pooled of $counted counted runs together; each: $shares)" $?
		case $c in
		bpi1) what="no size (the preload ignored MLTCP_BYTES_PER_ITER=1)" ;;
		bpi64k) what="bytes_per_iter 65536 (given), past its overrun bound, no iteration begun" ;;
		learned) what="a learned bytes_per_iter, past its overrun bound, no iteration begun" ;;
		esac
		tap_result "$name, $c: F = 1 over every run's window: $what; algo bytes_per_iter f_q10 size_given iterations bytes_this_iter: $states" $bad
	done
	diag "$name: $((SECONDS - start)) s"
}

QLIMIT_BYTES=$QLIMIT dumbbell_setup "$RATE" tbf 2 || bail "dumbbell topology"
# the receivers, for every run: iperf3 servers and the learned sender's sink
iperf_server "${NS_R[1]}" STOCK_PORT && iperf_server "${NS_R[0]}" ML_PORT || bail "iperf3 servers"
flows_sink "${NS_R[0]}" || bail "sink for the learned sender"
sample | grep -qE '^[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+$' || bail "the switch's and the FIFO's counters"
placement "router FIFO" "${NS_S[0]}" "${NS_S[1]}" "$ROUTER_CASES"
dumbbell_fifo_at_sender 0 || bail "FIFO moved onto the senders' egress"
placement "senders' FIFO" "${NS_S[0]}" "${NS_S[0]}" "$SENDER_CASES"
tap_done
