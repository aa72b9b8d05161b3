#!/bin/bash
# What an unprivileged sender can take from a stock flow of the same base algorithm by
# what it declares, marks or how it pauses: no more than a second stock sender takes.
# F > 1 is earned by iteration structure only, so an MLTCP flow that streams runs as
# its base algorithm (plain Reno here) whatever it told MLTCP. The senders, each
# unprivileged (uid nobody), as on hosts that allow MLTCP to every user
# (contrib/etc/sysctl.d):
#   control    a second stock Reno sender, the same program and receiver as the next
#              ones (mltcp-attack stream on reno): what the harness gives;
#   learned    no hint, five bursts of 64 KB 100 ms apart (the learner learns 64 KB),
#              then streaming (the streaming iteration overruns; mltcp-attack learned);
#   maxsize    tie-break 1.0 and MLTCP_BYTES_PER_ITER_MAX set before connect, then an
#              endless stream (mltcp-attack);
#   redeclare  a stream that re-declares its size as 1.5 x the bytes sent so far, every
#              50 ms;
#   beginzero  a stream that marks an iteration, drops its size (0) and declares one,
#              every 50 ms, with no idle gap;
#   pausing    a bulk sender that waits until all it sent is acked and pauses 25 ms
#              every 10 MB at 100 Mbit/s (the same time at this link's rate: every
#              2 MB at 20 Mbit/s), so that it is idle for about 2% of its time;
#   declared   64 KiB declared before connect, then an endless stream (mltcp-attack);
#   bpi1, bpi64k  libmltcp-preload.so with MLTCP_BYTES_PER_ITER=1 (below
#              the 16 KiB floor: ignored) or 65536, then iperf3 streaming.
# Behind the router: control, learned, maxsize, redeclare, beginzero and pausing, unless
# T37_ROUTER_CASES says otherwise (bpi1 and bpi64k run when it names them).
# Each beside a stock Reno flow (iperf3 -C reno) for 15 s from the moment both are
# under way, 3 runs a case, the cases in turn (control, learned, ..., control, ...) so
# that a change in the host's load meets them alike; behind a router's FIFO, and declared
# behind the senders' own FIFO. Asserts, per case and placement:
#   - F within the rules over every run, from the MLTCP socket's state (mltcpctl -j
#     sockets in the sender's namespace) at the window's start and 2 s before its end,
#     and for mltcp-attack's cases from its own samples (MLTCP_SO_INFO after every
#     send(), over the connection's whole life):
#     bpi64k: a known size, the same completed iterations at both ends and, at the
#       start, more bytes in the iteration than the overrun bound (overrun x size):
#       past it F is 1 until the next iteration, so F was 1 on every ACK of the window;
#     declared: 65536 given and F = 1 at both ends, no sample with F > 1 past the
#       overrun bound (a stream's iterations, made by stalls, are not the size's);
#     learned: a learned size and F = 1 at both ends, no sample with F > 1 past the
#       overrun bound (a receiver that stalls until its window closes makes idle gaps,
#       hence iterations, in a stream: each may earn F over its first overrun x size);
#     bpi1: no size at both ends (the preload ignored it);
#     maxsize: the size 2^48 given at both ends: a given size earns F only once an
#       iteration ending at an idle gap has carried at least half of it, which none
#       does, so F was 1 on every ACK; and no sample with F > 1;
#     redeclare: the size given and F = 1 at both ends, no sample with F > 1 (a size
#       changed is shown again only by an iteration of its own);
#     beginzero: the size given and F = 1 at both ends, no sample with F > 1 (no idle
#       gap earns the marks);
#     pausing: no size given, no sample with F > 1 past the overrun bound, and F > 1
#       in at most half the samples: each 25 ms pause buys F > 1 for at most 16 x 25 ms
#       of the 825 ms it ends (the allowance; 9.5 x when learned), where before it F
#       was above 1 in nearly every sample once the learner took the pauses for
#       iteration gaps (whether it does depends on the queue, see the diagnostics);
#   - the stock flow keeps at least 0.35 of the goodput in the case's median run
#     behind the router, 0.30 behind the senders' FIFO (where two stock Reno flows
#     split 0.33-0.46). The bound sits outside both spreads it separates: beside a
#     second stock sender, or an MLTCP sender whose F the state checks prove was 1
#     throughout, the stock flow kept 0.357-0.639 a run (144 runs on 6.1, idle, the
#     shares in the diagnostics of scripts/flake-report -n 10 --kver 6.1.0-57-amd64
#     test_37; mean 0.47, sd 0.04: by a normal fit a median of three falls below 0.35
#     about once in 10^4 to 10^5 checks; beside a second guest the medians were
#     0.447-0.517 in four runs), and
#     the holes this test was written against left it 0.19-0.34 in every run
#     (docs/DESIGN.md). A bound drawn from the control's three runs in the same boot
#     moves with their noise: their lowest less 0.05 ranged over 0.31-0.46 in ten runs
#     of the test, and twice sat above the median of a case with F = 1 throughout. A
#     median, not the runs pooled: one run in which a stalled receiver makes idle gaps
#     gives the learned sender iterations, each with F within its overrun bound, and
#     took the stock flow to 0.384 once beside a second guest; a hole holds F in every
#     run, and the median sees it. Goodput is what each receiver got over a common
#     window (one dump of the switch's link counters a sample), not each client's own
#     report: under an emulated guest two clients start seconds apart.
#   - premise, behind the router: beside the control, a second stock Reno sender (the
#     same program and receiver, run in turn with the cases), the stock flow keeps the
#     same 0.35 in the median run: the harness is the one the bound was set in.
#   - premise, per placement: the FIFO, not the guest's CPU, limited the flows in every
#     run (at least a quarter of the FIFO's packets waited for the rate) and no flow
#     ended early. The rate is one an emulated guest's two flows exceed (they reached
#     about 32 Mbit/s on a loaded 2-CPU host): 20 Mbit/s with a FIFO of 60 kB, the same
#     24 ms of queue as 100 Mbit/s with 300 kB. A run that misses it fails this check,
#     and is not replaced; its shares are still counted and shown.
# In the synchronised-loss model of docs/DESIGN.md ("What this leaves a stock flow") a
# flow that held F all run keeps the stock flow 1.5/(1.5 + 2F^2 - 0.5F): 0.29 at F =
# 1.5, 0.18 at 2. The F checks are the exact ones; the share is their effect.
# T37_RATE_MBIT and T37_QLIMIT_BYTES change the link, T37_ROUTER_CASES and
# T37_SENDER_CASES the cases of each placement (control is always first behind the
# router), T37_RUNS the runs of a case (3). T37_ML_CC=reno puts the MLTCP senders on
# stock Reno: the share checks then measure the harness (the F checks fail, and
# mltcp-attack's cases end early, as they must without an MLTCP socket):
#   MLTCP_TEST_FILTER=test_37 scripts/vm-run --kver K --modules build/kmod/K -- env \
#     T37_ML_CC=reno T37_RUNS=4 T37_ROUTER_CASES=bpi64k T37_SENDER_CASES= selftests/run.sh
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
# The link must be the bottleneck (the premise, in the header).
RATE=${T37_RATE_MBIT:-20}
QLIMIT=${T37_QLIMIT_BYTES:-60000}
RUN_S=15
RUNS=${T37_RUNS:-3}
ML_CC=${T37_ML_CC:-mltcp_reno}
# the stock flow's least share in a case's median run (the header says why)
ROUTER_SHARE=0.35
SENDER_SHARE=0.30
ROUTER_CASES="control ${T37_ROUTER_CASES-learned maxsize redeclare beginzero pausing}"
# Behind the senders' own FIFO the declared size's overrun only: each case costs about
# a minute under an emulated guest (T37_SENDER_CASES adds the others).
SENDER_CASES=${T37_SENDER_CASES-declared}
# the pausing sender's bytes between pauses: 10 MB at 100 Mbit/s, the same time here
PAUSE_BYTES=$((RATE * 100000))
for f in "$CTL" "$ML_BIN/mltcp-attack" "$ML_LIB/libmltcp-preload.so"; do
	[ -e "$f" ] || { echo "1..1"; echo "not ok 1 - $f is built (make userspace)"; exit 1; }
done

# per placement: its premise, and two checks a case; the control: its premise
n_sender=$(wc -w <<<"$SENDER_CASES")
tap_plan $((2 + (n_sender > 0) + 2 * ($(wc -w <<<"$ROUTER_CASES") - 1 + n_sender)))
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
cp "$ML_LIB/libmltcp-preload.so" "$ML_BIN/mltcp-attack" "$tmp/" ||
	bail "copy the programs"
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

# mltcp_client CASE NS PORT: execs the second sender of CASE, unprivileged, for longer
# than a run (the run kills it); mltcp-attack's summary goes to $tmp/client.out.
mltcp_client() {
	local dst=${RCV_IP4[0]} t=$((RUN_S + 60))
	local -a nobody=(ip netns exec "$2" setpriv --reuid=nobody --regid=nogroup --clear-groups)
	case $1 in
	control)
		exec "${nobody[@]}" "$tmp/mltcp-attack" "$dst" "$3" reno stream $t "$OVERRUN_Q10" \
			>/dev/null
		;;
	bpi1 | bpi64k)
		exec "${nobody[@]}" env LD_PRELOAD="$tmp/libmltcp-preload.so" MLTCP_CC="$ML_CC" \
			MLTCP_DEBUG=1 MLTCP_BYTES_PER_ITER="$([ "$1" = bpi1 ] && echo 1 || echo 65536)" \
			iperf3 -c "$dst" -p "$3" -t $t -w 4M >/dev/null
		;;
	declared | learned | maxsize | redeclare | beginzero)
		exec "${nobody[@]}" "$tmp/mltcp-attack" "$dst" "$3" "$ML_CC" "$1" $t "$OVERRUN_Q10" \
			>"$tmp/client.out"
		;;
	pausing)
		exec "${nobody[@]}" "$tmp/mltcp-attack" "$dst" "$3" "$ML_CC" "$1" $t "$OVERRUN_Q10" \
			"$PAUSE_BYTES" 25 >"$tmp/client.out"
		;;
	esac
}

# one_run CASE ML_NS STOCK_NS: the second sender of CASE (to receiver 0) and a stock
# Reno flow (to receiver 1) side by side for RUN_S seconds from the moment both are
# under way; sets BYTES ("SECOND STOCK": the bytes the two receivers got from 2 s on),
# SHARE (the stock flow's share of them), PREMISE (0 when the FIFO limited the flows
# and both ran to the end), STATE0 and STATE (ml_state at 2 s, when the window starts,
# and 2 s before the end) and SUMMARY (mltcp-attack's line, or empty).
one_run() {
	local c=$1 ml_ns=$2 stock_ns=$3 ml_port i ml_pid stock_pid a0 b0 p0 o0 d0 a1 b1 p1 o1 d1 t0 t1 t2 kbit
	BYTES="0 0" SHARE=- PREMISE=1 STATE0="" STATE="" SUMMARY=""
	: >"$tmp/client.out"
	# exec: $! is the client itself, which the end of the run kills
	(exec ip netns exec "$stock_ns" iperf3 -c "${RCV_IP4[1]}" -p "$STOCK_PORT" \
		-t $((RUN_S + 60)) -w 4M -C reno >/dev/null 2>"$tmp/stock.err") &
	stock_pid=$!
	case $c in
	bpi1 | bpi64k) ml_port=$ML_PORT ;;
	*) ml_port=$SINK_PORT ;;
	esac
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
	kbit="over $(((t2 - t1) / 100000))00 ms: $c $(((a1 - a0) * 8000 / (t2 - t1))) kbit/s, stock $(((b1 - b0) * 8000 / (t2 - t1))) kbit/s; FIFO: $((p1 - p0)) packets, $((o1 - o0)) over the rate, $((d1 - d0)) dropped"
	BYTES="$((a1 - a0)) $((b1 - b0))"
	[ $((a1 - a0 + b1 - b0)) -gt 0 ] &&
		SHARE=$(awk -v a=$((a1 - a0)) -v b=$((b1 - b0)) 'BEGIN { printf "%.3f", b / (a + b) }')
	if ! kill -0 "$stock_pid" 2>/dev/null || ! kill -0 "$ml_pid" 2>/dev/null; then
		diag "  $kbit; premise missed: a flow ended early"
	elif [ $(((o1 - o0) * 4)) -lt $((p1 - p0)) ]; then
		diag "  $kbit; premise missed: the FIFO seldom held packets back (the guest's CPU limited the flows, not the link)"
	else
		diag "  $kbit"
		PREMISE=0
	fi
	kill "$ml_pid" "$stock_pid" 2>/dev/null
	wait "$ml_pid" "$stock_pid"
	SUMMARY=$(cat "$tmp/client.out")
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

# f_window CASE STATE0 STATE SUMMARY: true when the two states (and mltcp-attack's
# summary) show F within the rules over the window (the header's first assertion);
# OVERRUN_Q10 is the bound.
f_window() {
	local algo0 bpi0 f0 given0 iters0 carried0 algo bpi f given iters carried
	local mode samples over1 past
	read -r algo0 bpi0 f0 given0 iters0 carried0 <<<"${2:-none - - - - -}"
	read -r algo bpi f given iters carried <<<"${3:-none - - - - -}"
	read -r mode _ samples _ over1 _ past _ <<<"${4:-none - - - - - - -}"
	[ "$algo0" = mltcp_reno ] && [ "$algo" = mltcp_reno ] || return 1
	case $1 in
	declared | learned | maxsize | redeclare | beginzero | pausing)
		[ "$mode" = "$1" ] && [ "$samples" -gt 0 ] 2>/dev/null && [ "$past" = 0 ] || return 1
		case $1 in pausing | learned | declared) ;; *) [ "$over1" = 0 ] || return 1 ;; esac
		;;
	esac
	case $1 in
	bpi1) [ "$f0" = 1024 ] && [ "$f" = 1024 ] && [ "$bpi0" = 0 ] && [ "$bpi" = 0 ] &&
		[ "$given0" = false ] && [ "$given" = false ] ;;
	bpi64k)
		[ "$f0" = 1024 ] && [ "$f" = 1024 ] &&
			[ "$bpi0" = 65536 ] && [ "$bpi" = "$bpi0" ] && [ "$iters" = "$iters0" ] &&
			[ "$given0" = true ] && [ "$given" = true ] && [ "$carried" -ge "$carried0" ] &&
			[ "$carried0" -gt $((bpi0 * OVERRUN_Q10 / 1024)) ]
		;;
	learned)
		[ "$f0" = 1024 ] && [ "$f" = 1024 ] && [ "$bpi0" -gt 0 ] && [ "$bpi" -gt 0 ] &&
			[ "$given0" = false ] && [ "$given" = false ]
		;;
	declared)
		[ "$f0" = 1024 ] && [ "$f" = 1024 ] && [ "$bpi0" = 65536 ] && [ "$bpi" = 65536 ] &&
			[ "$given0" = true ] && [ "$given" = true ]
		;;
	maxsize | redeclare)
		[ "$f0" = 1024 ] && [ "$f" = 1024 ] && [ "$given0" = true ] && [ "$given" = true ] &&
			{ [ "$1" = redeclare ] || { [ "$bpi0" = $((1 << 48)) ] && [ "$bpi" = "$bpi0" ]; }; }
		;;
	beginzero)
		[ "$f0" = 1024 ] && [ "$f" = 1024 ] && [ "$given0" = true ] && [ "$given" = true ]
		;;
	pausing) [ "$given0" = false ] && [ "$given" = false ] && [ $((2 * over1)) -le "$samples" ] ;;
	*) return 1 ;;
	esac
}

# placement NAME ML_NS STOCK_NS BOUND CASES: RUNS runs of each case, the cases in turn;
# the premise, the control's when CASES has it, and each case's two assertions, the
# stock flow's share in the median run at least BOUND.
placement() {
	local name=$1 ml_ns=$2 stock_ns=$3 bound=$4 cases=$5 c r mid together rc missed=0 runs=0
	local start=$SECONDS
	local -A bytes shares states bad
	for c in $cases; do
		bytes[$c]="" shares[$c]="" states[$c]="" bad[$c]=0
	done
	for ((r = 1; r <= RUNS; r++)); do
		for c in $cases; do
			one_run "$c" "$ml_ns" "$stock_ns" || bail "$name, $c: run $r set up"
			diag "$name, $c, run $r: stock share $SHARE; MLTCP socket at the start" \
				"and near the end: ${STATE0:-none} / ${STATE:-none}${SUMMARY:+; $SUMMARY}"
			runs=$((runs + 1)) missed=$((missed + PREMISE))
			bytes[$c]+="$BYTES " shares[$c]+="$SHARE "
			states[$c]+="[${STATE0:-none} / ${STATE:-none}${SUMMARY:+; $SUMMARY}] "
			[ "$c" = control ] || f_window "$c" "$STATE0" "$STATE" "$SUMMARY" || bad[$c]=1
		done
	done
	tap_result "$name: premise: the FIFO, not the guest's CPU, limited the flows, and both ran to the end ($missed of $runs runs missed it)" $missed
	for c in $cases; do
		# a run with no bytes at all counts as the stock flow's worst, not as none
		mid=$(median $(sed 's/-/0/g' <<<"${shares[$c]}"))
		together=$(pooled_share <<<"${bytes[$c]}")
		at_least "$mid" "$bound"
		rc=$?
		if [ "$c" = control ]; then
			tap_result "$name: premise: beside a second stock Reno sender the stock flow keeps >= $bound of the goodput in the median run ($mid; each: ${shares[$c]}; the $RUNS together: $together)" $rc
			continue
		fi
		tap_result "$name, $c: the stock flow keeps >= $bound of the goodput in the median run ($mid; each: ${shares[$c]}; the $RUNS together: $together)" $rc
		case $c in
		bpi1) what="no size (the preload ignored MLTCP_BYTES_PER_ITER=1)" ;;
		bpi64k) what="bytes_per_iter 65536 (given), past its overrun bound, no iteration begun" ;;
		learned) what="a learned bytes_per_iter, F > 1 only within the overrun bound" ;;
		declared) what="bytes_per_iter 65536 (given), F > 1 only within the overrun bound" ;;
		maxsize) what="size 2^48 and tie-break 1.0 given, never shown: F = 1 throughout" ;;
		redeclare) what="the size re-declared, never shown: F = 1 throughout" ;;
		beginzero) what="marks, size 0 and a size, no idle gap: F = 1 throughout" ;;
		pausing) what="F > 1 only within the overrun bound" ;;
		esac
		tap_result "$name, $c: F within the rules over every run: $what; algo bytes_per_iter f_q10 size_given iterations bytes_this_iter: ${states[$c]}" "${bad[$c]}"
	done
	diag "$name: $((SECONDS - start)) s"
}

QLIMIT_BYTES=$QLIMIT dumbbell_setup "$RATE" tbf 2 || bail "dumbbell topology"
# the receivers, for every run: iperf3 servers and the other senders' sink
iperf_server "${NS_R[1]}" STOCK_PORT && iperf_server "${NS_R[0]}" ML_PORT || bail "iperf3 servers"
flows_sink "${NS_R[0]}" || bail "sink for the learned sender and mltcp-attack"
sample | grep -qE '^[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+$' || bail "the switch's and the FIFO's counters"
placement "router FIFO" "${NS_S[0]}" "${NS_S[1]}" $ROUTER_SHARE "$ROUTER_CASES"
if [ -n "$SENDER_CASES" ]; then
	dumbbell_fifo_at_sender 0 || bail "FIFO moved onto the senders' egress"
	placement "senders' FIFO" "${NS_S[0]}" "${NS_S[0]}" $SENDER_SHARE "$SENDER_CASES"
fi
tap_done
