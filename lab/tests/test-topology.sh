#!/bin/bash
# The shaped-link topologies of the selftests (selftests/lib.sh's dumbbell), mltcp-bench
# and bench-ddp, built by each caller the way it builds them, must be exactly the
# recorded ones: for every placement and qdisc the selftests and the grids use, the
# state of the caller's namespaces (lab/tests/topology-dump: links and their peers,
# addresses, routes, qdiscs and classes, offloads, the sysctls a builder sets) is
# compared with lab/tests/fixtures/topology/NAME.dump, recorded from the callers' own
# builders before selftests/topology.sh replaced them. After each one no namespace of
# it may be left. Prints TAP; root, on the host or in the guest, seconds a case. A case
# whose qdisc the running kernel lacks (sch_red, sch_netem) is skipped.
#
#   lab/tests/test-topology.sh [-C CHECKOUT] [-b MLTCP_BENCH] [--record] [NAME...]
#
# -C runs the callers of another checkout (default: this one), -b another mltcp-bench
# (default: $BUILD/bin/mltcp-bench, BUILD defaulting to CHECKOUT/build); --record
# writes the fixtures instead of comparing (after a deliberate change of a topology,
# from the callers that make it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
dump=$here/topology-dump
fixtures=$here/fixtures/topology
record=0
bench=
while [ $# -gt 0 ]; do
	case $1 in
	-C) top=$(cd "$2" && pwd) || exit 2; shift 2 ;;
	-b) bench=$2; shift 2 ;;
	--record) record=1; shift ;;
	-*) echo "usage: test-topology.sh [-C CHECKOUT] [-b MLTCP_BENCH] [--record] [NAME...]" >&2
		exit 2 ;;
	*) break ;;
	esac
done
bench=${bench:-${BUILD:-$top/build}/bin/mltcp-bench}
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP namespaces need root"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# NAME NEEDS CALLER ARGS: NEEDS is the qdiscs beyond tbf ("-" none); CALLER selftests
# (ARGS: shell run after sourcing selftests/lib.sh), bench (mltcp-bench options; the
# number of jobs first) or ddp (Python run with ddplab.topology's names imported).
cases=(
	"st-tbf-100        -     selftests dumbbell_setup 100 tbf 1"
	"st-tbf-1000       -     selftests dumbbell_setup 1000 tbf 1"
	"st-red-100        red   selftests dumbbell_setup 100 red_ecn 1"
	"st-red-10         red   selftests dumbbell_setup 10 red_ecn 1"
	"st-tbf-20x2       -     selftests QLIMIT_BYTES=60000 dumbbell_setup 20 tbf 2"
	"st-egress-20x2    -     selftests QLIMIT_BYTES=60000 dumbbell_setup 20 tbf 2 && dumbbell_fifo_at_sender 0"
	"emu-router        -     bench 2 --bottleneck router --queue-bdp 1"
	"emu-router-4-3bdp -     bench 4 --bottleneck router --queue-bdp 3"
	"emu-router-10g    -     bench 2 --bottleneck router --rate-mbit 10000 --queue-bdp 1 --burst-bytes 200000"
	"emu-router-mtu    -     bench 2 --bottleneck router --queue-kb 90 --mtu 9000"
	"emu-egress-0.5bdp -     bench 2 --bottleneck egress --queue-bdp 0.5"
	"emu-egress-3      -     bench 3 --bottleneck egress --queue-bdp 1"
	"emu-router-ecn    red   bench 2 --bottleneck router --queue-bdp 1 --ecn-kb 30"
	"emu-egress-ecn    red   bench 2 --bottleneck egress --queue-bdp 1 --ecn-kb 30"
	"emu-router-rtt2   netem bench 2 --bottleneck router --queue-bdp 1 --delay-ms 2"
	"emu-egress-rtt10  netem bench 2 --bottleneck egress --queue-bdp 1 --delay-ms 10 --rate-mbit 50"
	"ddp-router        -     ddp topology(100, 'router')"
	"ddp-egress        -     ddp topology(100, 'egress')"
	"ddp-unshaped      -     ddp topology(100, 'router'); shape(None)"
	"ddp-auto-egress   -     ddp topology(None, 'egress'); shape(25)"
)

# has_qdisc KIND: the running kernel has the qdisc (a scratch namespace's lo tries it).
has_qdisc() {
	local ns=mlttopo-probe-$$ rc
	case $1 in
	-) return 0 ;;
	red) set -- red limit 60000 min 15000 max 18000 avpkt 1500 burst 11 bandwidth 10mbit ;;
	netem) set -- netem delay 1ms ;;
	esac
	ip netns add "$ns" || return 1
	tc -n "$ns" qdisc add dev lo root "$@" >/dev/null 2>&1
	rc=$?
	ip netns del "$ns"
	return $rc
}

# left PREFIX: the namespaces PREFIX-* that still exist.
left() {
	ip netns list | awk -v p="$1-" 'index($1, p) == 1 { print $1 }'
}

# build_selftests CODE OUT: sources lib.sh, runs CODE, dumps; the test's exit removes
# the namespaces. Prints the prefix.
build_selftests() {
	bash -c '. "$1/selftests/lib.sh" || exit 1
		echo "$_ns_prefix" >"$3.prefix"
		eval "$2" || { echo "building failed: $2" >&2; exit 1; }
		"$4" "$_ns_prefix" >"$3"' _ "$top" "$1" "$2" "$dump" >"$2.log" 2>&1 || return 1
	cat "$2.prefix"
}

# build_bench NJOBS OPTIONS... OUT (last): mltcp-bench with NJOBS jobs that compute for
# ten minutes, dumped once the last receiver has a socket (its jobs start after the
# topology is built), then stopped (it removes its namespaces on SIGTERM). Prints the
# prefix.
build_bench() {
	local n=$1 out=${*: -1} jobs=() i pid rc=1
	set -- "${@:2:$#-2}"
	for ((i = 0; i < n; i++)); do
		jobs+=(-j "name=j$i,compute_ms=600000,bytes=10k,iterations=1")
	done
	"$bench" -q --no-ideal "$@" "${jobs[@]}" -o "$tmp/bench" >"$out.bench" 2>&1 &
	pid=$!
	echo "mb$pid"
	for ((i = 0; i < 1800; i++)); do
		if ip netns exec "mb$pid-d$((n - 1))" ss -Hta 2>/dev/null | grep -q .; then
			"$dump" "mb$pid" >"$out" 2>"$out.log"
			rc=$?
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	[ $i -lt 1800 ] || echo "mltcp-bench started no job in 180 s" >"$out.log"
	kill "$pid" 2>/dev/null
	wait "$pid"
	cat "$out.bench" >>"$out.log"
	return $rc
}

# build_ddp CODE OUT: ddplab.topology's functions, dumped, torn down. Prints the prefix.
build_ddp() {
	echo mlddp
	python3 -c 'import subprocess, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1] + "/lab/scripts")
from ddplab.topology import topology, shape, teardown
try:
    exec(sys.argv[2])
    with open(sys.argv[3], "w") as f:
        sys.exit(subprocess.run([sys.argv[4], "mlddp"], stdout=f).returncode)
finally:
    teardown()' "$top" "$1" "$2" "$dump" >"$2.log" 2>&1
}

echo "TAP version 13"
n=0
failed=0
mkdir -p "$fixtures"
for c in "${cases[@]}"; do
	read -r name needs caller args <<<"$c"
	[ $# = 0 ] || [[ " $* " == *" $name "* ]] || continue
	n=$((n + 1))
	if ! has_qdisc "$needs"; then
		echo "ok $n - $name # SKIP the kernel has no sch_$needs"
		continue
	fi
	out=$tmp/$name.dump
	case $caller in
	selftests) prefix=$(build_selftests "$args" "$out") ;;
	bench) read -ra words <<<"$args"; prefix=$(build_bench "${words[@]}" "$out") ;;
	ddp) prefix=$(build_ddp "$args" "$out") ;;
	esac
	rc=$?
	stale=$(left "${prefix:-none}")
	if [ $rc != 0 ] || [ ! -s "$out" ]; then
		echo "not ok $n - $name: $caller built and dumped the topology"
		sed 's/^/#   /' "$out.log" | tail -n 20
		failed=$((failed + 1))
	elif [ -n "$stale" ]; then
		echo "not ok $n - $name: $caller removed its namespaces (left: ${stale//$'\n'/ })"
		failed=$((failed + 1))
	elif [ $record = 1 ]; then
		cp "$out" "$fixtures/$name.dump"
		echo "ok $n - $name: recorded ($(wc -l <"$out") lines)"
	elif diff -u "$fixtures/$name.dump" "$out" >"$tmp/diff" 2>&1; then
		echo "ok $n - $name: $caller's topology is the recorded one ($(wc -l <"$out") lines)"
	else
		echo "not ok $n - $name: $caller's topology is the recorded one"
		sed 's/^/#   /' "$tmp/diff" | head -n 60
		failed=$((failed + 1))
	fi
	for ns in $stale; do ip netns del "$ns"; done
done
echo "1..$n"
[ $failed = 0 ]
