#!/bin/bash
# Side by side at F = 1 (slope 0, intercept 1): each MLTCP module against the kernel's
# own algorithm over the same bottleneck, in the same guest: reno and cubic over a
# tail-drop FIFO, dctcp over RED marking ECN; one flow with an induced RTO (2 s in the
# path after the bottleneck drops everything until the sender has counted a timeout,
# and 0.1 s more: blackout_until_rto; the flows stop 3.3 s after that, however late
# the guest's shell got there) and four flows.
# Runs alternate stock, mltcp, mltcp, stock... (FID_REPEATS of each, default 2; a
# scenario outside a tolerance gets more, up to FID_MAX_REPEATS of each, default twice
# FID_REPEATS, and is judged on all of its runs) and the medians are compared, from
# TCP_INFO/TCP_CC_INFO samples every 20 ms (mltcp-flow; the RTO runs' windows are
# placed on the blackout, one_run):
#   goodput within 2%, cwnd p10/p50/p90 within 10%, retransmissions within 10%,
#   DCTCP alpha within 10%,
# each widened to the spread stock cubic/reno/dctcp shows against itself in the same
# run (max - min over its runs; under TCG one RTO or loss burst more or less moves a
# short flow's counts) and to a floor of 2 segments of cwnd (4 with four flows, whose
# windows of 8-20 segments move by 3-6 between two stock runs), 3 retransmissions, 32/1024
# of alpha (stock dctcp alone: 162-188 after the RTO over 8 runs in 4 boots);
# retransmissions, a count, also to twice its counting noise, 2 * sqrt(stock median)
# (two runs of each cannot resolve less: 48/46 stock vs 48/59 mltcp was seen).
# The table is printed as "# |" lines (lab/results/FIDELITY.md).
# On one CPU (ml_one_cpu, as test_16): with the guest's two vCPUs a segment can overtake
# another on the veth pairs, and the sender then retransmits and cuts for a loss that did
# not happen, in one run and not the next; each run's reorderings and DSACKs are counted,
# and a run with one fails the last check (none in 100 runs on 6.1 beside a second guest).
#
#   NS_S[0] ══ N flows ══ NS_RT ══ tbf 10 Mbit/s [+ RED ECN] ══> NS_RR ─(blackout)─ NS_R[0] ─(netem 10 ms)─> ACKs
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_flows.sh"

REPEATS=${FID_REPEATS:-2}
MAX_REPEATS=${FID_MAX_REPEATS:-$((REPEATS * 2))}
RATE=10
configs=(
	"reno mltcp_reno tbf 1 rto" "reno mltcp_reno tbf 4 -"
	"cubic mltcp_cubic tbf 1 rto" "cubic mltcp_cubic tbf 4 -"
	"dctcp mltcp_dctcp red_ecn 1 rto" "dctcp mltcp_dctcp red_ecn 4 -"
)
# FID_ONLY="cubic dctcp": only those base algorithms (for measuring one change).
if [ -n "${FID_ONLY:-}" ]; then
	keep=()
	for cfg in "${configs[@]}"; do
		[[ " $FID_ONLY " == *" ${cfg%% *} "* ]] && keep+=("$cfg")
	done
	configs=("${keep[@]}")
fi
plan=0
for cfg in "${configs[@]}"; do
	plan=$((plan + 3))
	[ "${cfg%% *}" = dctcp ] && plan=$((plan + 1))
done
tap_plan $((plan + 1))
P=/sys/module/mltcp/parameters
tmp=$(mktemp -d)
trap 'ml_cleanup; rm -rf "$tmp"' EXIT
# prepare: modules, F = 1, one CPU and the allowed list; again after each ml_cleanup.
prepare() {
	local m
	for m in mltcp tcp_dctcp mltcp_reno mltcp_cubic mltcp_dctcp; do
		ml_modprobe "$m" || return 1
	done
	ml_force_f1 || return 1
	ml_one_cpu || return 1
	ml_sysctl_restore net.ipv4.tcp_allowed_congestion_control
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$(sysctl -n net.ipv4.tcp_allowed_congestion_control) dctcp"
}
prepare || bail "modules load, slope 0 and intercept 1 set, one CPU"
diag "F = $(cat $P/slope) * bytes_ratio + $(cat $P/intercept)"

topo=""
# setup QDISC: a fresh dumbbell with QDISC unless the current one has it; the
# receiver runs the stock algorithm's receiver side (DCTCP's ECE feedback).
setup() {
	[ "$topo" = "$1" ] && return 0
	[ -n "$topo" ] && { ml_cleanup; prepare || return 1; }
	topo=$1
	dumbbell_setup "$RATE" "$1" 1 || return 1
	in_ns "${NS_R[0]}" tc qdisc add dev eth0 root netem delay 10ms limit 10000 || return 1
	if [ "$1" = red_ecn ]; then
		in_ns "${NS_R[0]}" sysctl -qw net.ipv4.tcp_congestion_control=dctcp || return 1
	fi
	flows_sink "${NS_R[0]}" || return 1
	tc_pipe TC_RR "$NS_RR"
}

# dup_counts: the sender's reorderings detected and DSACKs received so far. With the
# guest's two vCPUs a segment can overtake another on the veth pairs (test_16), and the
# sender then recovers from a loss that did not happen; on one CPU (prepare) none should.
dup_counts() {
	in_ns "${NS_S[0]}" nstat -asz 2>/dev/null | awk '
		$1 ~ /^TcpExtTCP(SACK|TS|Reno)Reorder$/ { o += $2 }
		$1 ~ /^TcpExtTCPDSACK(Ofo)?Recv$/ { k += $2 }
		END { print o + 0, k + 0 }'
}

# one_run ALGO N RTO OUT: N flows of ALGO for 5 s; OUT: flows_stats of [0.5 s, end].
# With RTO, 2 s in, the path after the bottleneck goes dark until the sender has had
# a retransmission timeout, and 0.1 s more (blackout_until_rto: the premise is built,
# not hoped for), and the flows are stopped 3.3 s after it (flows_stop_at; 120 s at
# most). The windows are placed on the blackout as it happened, so a guest that
# reaches it late moves them, never cuts them short: goodput over the 1.5 s before it
# and [1 s, 3 s] after it, cwnd over the latter (the curve after the timeout).
# Neither counts the blackout nor the second after it: how long the path stays dark
# depends on when this shell saw the RTO, and so does when the retransmission that
# gets through starts the recovery. Returns 2, with PREMISE saying why, when no RTO
# came or the flows ended before the last window did.
one_run() {
	local algo=$1 n=$2 rto=$3 out=$4 secs=5 start from=500 to=5000 bs be stop=0 end dup0
	[ "$rto" = rto ] && secs=120
	dup0=$(dup_counts)
	flows_start "${NS_S[0]}" "${RCV_IP4[0]}" "$algo" "$n" "$secs" 20 "$out.s" || return 1
	if [ "$rto" = rto ]; then
		start=$(flows_wait_start "$out.s") || {
			kill "$FLOWS_PID" 2>/dev/null
			diag "$(cat "$out.s.err")"
			return 1
		}
		nap_until "$start" 2
		if blackout_until_rto "$FLOWS_PID" "$TC_RR" r0 0.1 2; then
			stop=$((BLACKOUT_END_US + 3300000))
		else
			PREMISE="$algo: no RTO within 2 s of the blackout"
		fi
		bs=$(((BLACKOUT_START_US - start / 1000) / 1000))
		be=$(((BLACKOUT_END_US - start / 1000) / 1000))
		from=$((bs - 1500)) to=$((be + 3000))
		diag "$algo: blackout $bs-$be ms$([ -n "$BLACKOUT_RTO_US" ] &&
			echo ", RTO seen at $(((BLACKOUT_RTO_US - start / 1000) / 1000)) ms")"
		flows_stop_at "$stop" || { diag "$(cat "$out.s.err")"; return 1; }
		end=$(flows_end_ms "$out.s")
		[ "$end" -lt "$to" ] &&
			: "${PREMISE:=$algo: the flows ended at $end ms, before 3 s after the blackout ($bs-$be ms)}"
	else
		wait "$FLOWS_PID" || { diag "$(cat "$out.s.err")"; return 1; }
	fi
	echo "$dup0 $(dup_counts)" | awk '{ print $3 - $1, $4 - $2 }' >"$out.dup"
	[ -n "${PREMISE:-}" ] && return 2
	flows_stats "$out.s" "$from" "$to" >"$out"
	if [ "$rto" = rto ]; then
		local w b c
		read -ra w <"$out"
		read -ra b <<<"$(flows_stats "$out.s" "$from" "$bs")"
		read -ra c <<<"$(flows_stats "$out.s" $((be + 1000)) "$to")"
		echo "$(awk -v b="${b[0]}" -v c="${c[0]}" 'BEGIN { printf "%.2f", (b * 1.5 + c * 2) / 3.5 }')" \
			"${c[1]} ${c[2]} ${c[3]} ${w[4]} ${w[5]} ${w[6]}" >"$out"
	fi
}

# check NAME NOMINAL_PCT FLOOR ST_VALUES ML_VALUES: prints "st_med ml_med tol" and
# succeeds when |ml_med - st_med| <= max(NOMINAL_PCT% of st_med, stock spread, FLOOR),
# for the count NAME "r" also 2 * sqrt(st_med).
check() {
	python3 - "$@" <<'EOF'
import statistics, sys
_, pct, floor, st, ml = sys.argv[1:]
st = [float(x) for x in st.split()]
ml = [float(x) for x in ml.split()]
sm, mm = statistics.median(st), statistics.median(ml)
tol = max(float(pct) / 100 * abs(sm), max(st) - min(st), float(floor))
if sys.argv[1] == "r":
    tol = max(tol, 2 * abs(sm) ** 0.5)
print("%g %g %g %g" % (sm, mm, tol, max(st) - min(st)))
sys.exit(0 if abs(mm - sm) <= tol + 1e-9 else 1)
EOF
}

diag "| scenario | metric | stock (runs) | mltcp (runs) | stock median | mltcp median | diff | allowed | stock-vs-stock spread |"
diag "|---|---|---|---|---|---|---|---|---|"
# row SCEN METRIC ST ML RESULT(check output): one table line.
row() {
	local sm mm tol spread
	read -r sm mm tol spread <<<"$5"
	diag "| $1 | $2 | $3 | $4 | $sm | $mm | $(awk -v a="$mm" -v b="$sm" 'BEGIN { printf "%+.1f%%", b ? (a - b) * 100 / b : 0 }') | ±$tol | $spread |"
}

# run_pair R: one run of each algorithm into vals[] (stock first on even R). Returns
# non-zero, with PREMISE saying why, when a run measured nothing.
run_pair() {
	local order=("$base" "$ml") algo v g p10 p50 p90 retr alpha nsamp reo dsack
	[ $(($1 % 2)) = 1 ] && order=("$ml" "$base")
	for algo in "${order[@]}"; do
		one_run "$algo" "$n" "$rto" "$tmp/run" || {
			: "${PREMISE:=$algo: the flows failed}"
			return 1
		}
		read -r g p10 p50 p90 retr alpha nsamp <"$tmp/run"
		read -r reo dsack <"$tmp/run.dup"
		diag "$scen $algo: $retr retransmissions, $reo reorderings seen, $dsack DSACKs"
		runs=$((runs + 1))
		[ "$reo" = 0 ] && [ "$dsack" = 0 ] || dup=$((dup + 1))
		[ "$nsamp" -gt 50 ] || { PREMISE="$algo: only $nsamp samples"; return 1; }
		v=$([ "$algo" = "$base" ] && echo st || echo ml)
		vals[$v.g]+=" $g" vals[$v.p10]+=" $p10" vals[$v.p50]+=" $p50"
		vals[$v.p90]+=" $p90" vals[$v.r]+=" $retr" vals[$v.a]+=" $alpha"
	done
}

# checks: CHECKS, the scenario's TAP descriptions, in judge's order.
checks() {
	CHECKS=("$scen: $ml goodput within 2% of $base (or stock's own spread)"
		"$scen: $ml cwnd p10/p50/p90 within 10% of $base (or stock's own spread)"
		"$scen: $ml retransmissions within 10% of $base (or stock's own spread, or 2 sqrt(n))")
	[ "$base" = dctcp ] &&
		CHECKS+=("$scen: $ml alpha within 10% of $base (or stock's own spread)")
	return 0
}

# judge: every comparison of the scenario on the runs so far; with "report" it
# prints the table rows and the TAP results, otherwise it only says whether all hold.
judge() {
	local report=${1:-} fail all=0 res p cwnd_floor
	fail=0
	res=$(check g 2 0 "${vals[st.g]}" "${vals[ml.g]}") || fail=1
	all=$((all | fail))
	if [ -n "$report" ]; then
		row "$scen" "goodput Mbit/s" "${vals[st.g]}" "${vals[ml.g]}" "$res"
		tap_result "${CHECKS[0]}" $fail
	fi
	fail=0
	cwnd_floor=$([ "$n" -gt 1 ] && echo 4 || echo 2)
	for p in p10 p50 p90; do
		res=$(check "$p" 10 "$cwnd_floor" "${vals[st.$p]}" "${vals[ml.$p]}") || fail=1
		[ -n "$report" ] && row "$scen" "cwnd $p" "${vals[st.$p]}" "${vals[ml.$p]}" "$res"
	done
	all=$((all | fail))
	[ -n "$report" ] &&
		tap_result "${CHECKS[1]}" $fail
	fail=0
	res=$(check r 10 3 "${vals[st.r]}" "${vals[ml.r]}") || fail=1
	all=$((all | fail))
	if [ -n "$report" ]; then
		row "$scen" "retransmissions" "${vals[st.r]}" "${vals[ml.r]}" "$res"
		tap_result "${CHECKS[2]}" $fail
	fi
	if [ "$base" = dctcp ]; then
		fail=0
		# stock dctcp's own alpha after the RTO ranged 162-188/1024 over 8 runs in 4 boots
		res=$(check a 10 32 "${vals[st.a]}" "${vals[ml.a]}") || fail=1
		all=$((all | fail))
		if [ -n "$report" ]; then
			row "$scen" "alpha /1024" "${vals[st.a]}" "${vals[ml.a]}" "$res"
			tap_result "${CHECKS[3]}" $fail
		fi
	fi
	return $all
}

runs=0 dup=0
# A scenario whose premise failed (no topology, no RTO, flows that did not run) fails
# each of its checks as itself and the next scenario still runs.
for cfg in "${configs[@]}"; do
	read -r base ml qdisc n rto <<<"$cfg"
	scen="$base $qdisc ${n}f$([ "$rto" = rto ] && echo " +RTO")"
	PREMISE=
	checks
	setup "$qdisc" || { PREMISE="the dumbbell with $qdisc"; topo=failed; }
	declare -A vals=()
	for ((r = 0; r < REPEATS && !${#PREMISE}; r++)); do
		run_pair $r || break
	done
	# Sequential design: a scenario outside a tolerance after REPEATS of each gets
	# more runs, up to MAX_REPEATS of each, and is judged on all of them. One stray
	# trajectory in two runs (a second loss after the RTO: cwnd p10 28 against 37 37,
	# seen on 6.12) then moves a median of three or four by less, while a real difference of
	# more than the tolerance still shows in every added run.
	while [ -z "$PREMISE" ] && ! judge && [ "$r" -lt "$MAX_REPEATS" ]; do
		diag "$scen: outside a tolerance after $r runs of each; one more of each"
		run_pair $r || break
		r=$((r + 1))
	done
	if [ -n "$PREMISE" ]; then
		diag "$scen: premise failed: $PREMISE"
		for c in "${CHECKS[@]}"; do
			tap_result "$c: premise failed: $PREMISE" 1
		done
	else
		judge report || true
	fi
	unset vals
done
[ "$runs" -gt 0 ] && [ "$dup" = 0 ]
tap_result "premise: no segment overtaken or delivered twice (reorderings, DSACKs: $dup of $runs runs had one)" $?
tap_done
