#!/bin/bash
# mltcp-bench command-line checks that need no root and no network: bad input must give a
# clear message and a non-zero exit before anything is built. TAP output.
# usage: tests/cli.sh path/to/mltcp-bench
set -u
bin=${1:?usage: cli.sh MLTCP_BENCH}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

# check NAME EXPECTED_RC MESSAGE_SUBSTRING ARGS...
check() {
	local name=$1 want=$2 msg=$3 out rc
	shift 3
	n=$((n + 1))
	out=$("$bin" "$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ] && [[ "$out" == *"$msg"* ]]; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		echo "# exit $rc (want $want), output:"
		printf '%s\n' "$out" | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}

printf '[job]\ncompute_ms = 150\nbytes = 1.25M\nspeed = 3\n' >"$tmp/bad.conf"
printf '[job]\nbytes = 1.25M\n' >"$tmp/nocompute.conf"
printf 'compute_ms = 150\nbytes = 1.25M\n' >"$tmp/good.conf"
printf 'mode,job,iter,start_ms\nshared,0,0,1\n' >"$tmp/iterations.csv"

echo "1..18"
check "unknown profile key" 2 "bad.conf:4: unknown key 'speed'" -p "$tmp/bad.conf"
check "missing compute_ms" 2 "nocompute.conf:1: job has no compute_ms" -p "$tmp/nocompute.conf"
check "missing profile file" 2 "$tmp/none.conf: No such file" -p "$tmp/none.conf"
check "bad --job" 2 "bytes: 'lots' is not a byte count" --job compute_ms=1,bytes=lots
check "no jobs" 2 "no jobs" --no-ideal
check "--cc count mismatch" 2 "--cc: 3 names for 1 jobs" --cc reno,cubic,bbr -p "$tmp/good.conf"
check "bad rate" 2 "--rate-mbit" --rate-mbit fast -p "$tmp/good.conf"
check "--no-topology needs --rcv-addr" 2 "needs --rcv-addr" --no-topology -p "$tmp/good.conf"
check "stray argument" 2 "unexpected argument 'extra'" -p "$tmp/good.conf" extra
check "report of a broken csv" 1 "header has no 'end_ms' column" report "$tmp"
check "bad --start" 2 "--start: 'soon' is not exact or timed" --start soon -p "$tmp/good.conf"
check "--runs 0" 2 "--runs must be 1..10000" --runs 0 -p "$tmp/good.conf"
check "bad --converge-ratio" 2 "--converge-ratio must be 1..100" --converge-ratio 0.5 -p "$tmp/good.conf"
mkdir -p "$tmp/multi/run1" && cp "$tmp/iterations.csv" "$tmp/multi/run1/"
check "report of a broken multi-run directory" 1 "header has no 'end_ms' column" report "$tmp/multi"
check "bad --bottleneck" 2 "--bottleneck: 'nic' is not router or egress" --bottleneck nic -p "$tmp/good.conf"
check "--queue-kb and --queue-bdp" 2 "give --queue-kb or --queue-bdp, not both" --queue-kb 100 --queue-bdp 1 -p "$tmp/good.conf"
check "--delay-ms with --no-topology" 2 "not with --no-topology" --no-topology --rcv-addr 127.0.0.1 --delay-ms 2 -p "$tmp/good.conf"
check "help" 0 "usage: mltcp-bench" --help
[ "$failed" -eq 0 ]
