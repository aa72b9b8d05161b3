#!/bin/bash
# mltcp-bench's jobs of several connections (conns=N), on the host with stock Reno:
#
#   mb<pid>: job 0 "ps" (conns=4) ──┐                                ┌── receiver of ps: 4 connections
#                                   ├── router: tbf 100 Mbit/s FIFO ═┤
#            job 1 "dp" (conns=1) ──┘                                └── receiver of dp: 1 connection
#
# While the run goes on, the namespaces of the run hold exactly four established
# connections on job 0's port and one on job 1's; the run ends, each job with all its
# iterations, each phase confirmed by the barrier over its connections. Prints TAP;
# root (namespaces), a few seconds.
#
#   lab/tests/test-bench-conns.sh [-b MLTCP_BENCH]
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bench=${BUILD:-$top/build}/bin/mltcp-bench
[ "${1:-}" = -b ] && bench=$2
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP namespaces need root"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ITERS=12
PORT=5301

failed=0
# result OK(0/1) TEXT: one TAP line
result() {
	[ "$1" = 0 ] && echo "ok $2" || { echo "not ok $2"; failed=$((failed + 1)); }
}
echo "1..3"
"$bench" -q --no-ideal --cc reno --port $PORT -o "$tmp/out" \
	-j name=ps,compute_ms=100,bytes=1M,conns=4,iterations=$ITERS \
	-j name=dp,compute_ms=100,bytes=1M,iterations=$ITERS >"$tmp/log" 2>&1 &
pid=$!
# established connections on PORT in every namespace of the run (the receivers' ends)
conns_on() {
	local ns n=0
	for ns in $(ip netns list | awk -v p="mb$pid" 'index($1, p) == 1 { print $1 }'); do
		n=$((n + $(ss -N "$ns" -Htn state established "( sport = :$1 )" | wc -l)))
	done
	echo $n
}
seen=""
# the connections live from before the first iteration to after the last (>= 1.2 s)
while kill -0 $pid 2>/dev/null; do
	a=$(conns_on $PORT) b=$(conns_on $((PORT + 1)))
	[ "$a $b" = "4 1" ] && { seen=1; break; }
	sleep 0.05
done
wait $pid
rc=$?
[ -n "$seen" ]
result $? "1 - during the run: 4 connections on the conns=4 job's port, 1 on the other's (last seen: ${a:-none} and ${b:-none})"
[ $rc = 0 ]
result $? "2 - mltcp-bench ran both jobs to the end (exit $rc)"
[ $rc = 0 ] || sed 's/^/#   /' "$tmp/log"
n0=$(awk -F, '$1 == "shared" && $2 == 0' "$tmp/out/iterations.csv" 2>/dev/null | wc -l)
n1=$(awk -F, '$1 == "shared" && $2 == 1' "$tmp/out/iterations.csv" 2>/dev/null | wc -l)
[ "$n0" = $ITERS ] && [ "$n1" = $ITERS ]
result $? "3 - each job completed its $ITERS iterations, barrier and all (ps $n0, dp $n1)"
exit $((failed > 0))
