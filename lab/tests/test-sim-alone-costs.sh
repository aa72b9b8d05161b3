#!/bin/bash
# lab/scripts/sim-alone-costs.py on run records written here (host, no simulation,
# under a second): two jobs alone, each run once under stock and once under MLTCP.
# Job 0 takes 200 ms an iteration under both and its MLTCP connection held 5 ms a
# restart; job 1 takes 200 ms under stock and 230 under MLTCP, held 25 ms a restart
# and timed out once. Only iterations that start in the run's last half count (the
# first, 1 s long, does not). The script must print each job's ratio, its timeouts
# and its time held per restart, group the job without a timeout by that time, count
# the one with more timeouts, and refuse a directory with no runs. Prints TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/tap-result.sh
. "$top/scripts/tap-result.sh"
tool=$top/lab/scripts/sim-alone-costs.py
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir "$out/runs"

# record VARIANT MS1: a run of 2 s; job 0 at 200 ms, job 1 at MS1 an iteration
record() {
	local f=$out/runs/s1-alone-$1-o2-0 t
	{
		echo "label s1-alone-$1-o2-0"
		echo "sim_s 2.000000"
		echo "iter 0 0 0.0 1000.0"
		for t in 1000 1200 1400 1600 1800; do echo "iter 0 1 $t $((t + 200))"; done
		echo "iter 1 0 0.0 1000.0"
		for t in 1000 1300 1600; do echo "iter 1 1 $t $((t + $2))"; done
	} >"$f.txt"
}
record stock 200
record mltcp 230
hdr=id,job,node,cc,rtos,restarts,yield_ms,yield_bound
printf '%s\n0,0,1,TcpLinuxReno,0,0,0,0\n1,1,2,TcpLinuxReno,0,0,0,0\n' "$hdr" \
	>"$out/runs/s1-alone-stock-o2-0-sockets.csv"
printf '%s\n0,0,1,MltcpReno,0,10,50,0\n1,1,2,MltcpReno,1,4,100,1\n' "$hdr" \
	>"$out/runs/s1-alone-mltcp-o2-0-sockets.csv"

echo "TAP version 13"
echo "1..5"
report=$("$tool" "$out")
result "the script reads the records (exit 0)" $?
grep -Eq '^1\.000 +s1-o2 +0 +0/0 +5\.0 ms +0$' <<<"$report"
result "job 0: MLTCP / stock 1.000, no timeout, 5.0 ms held a restart" $?
grep -Eq '^1\.150 +s1-o2 +1 +0/1 +25\.0 ms +1$' <<<"$report"
result "job 1: MLTCP / stock 1.150 (the first iteration left out), 0/1 timeouts, 25.0 ms, 1 at its bound" $?
grep -q '^  < 10 ms     1 jobs  MLTCP / stock: median 1.000' <<<"$report" &&
	grep -q '^jobs with more timeouts under MLTCP: 1, median 1.150' <<<"$report" &&
	! grep -q '>= 20 ms' <<<"$report"
result "the groups: job 0 under 10 ms, job 1 counted with the timeouts, not in a group" $?
rmdir "$out/runs" 2>/dev/null || rm -rf "$out/runs"
"$tool" "$out" >/dev/null 2>&1
[ $? = 1 ]
result "a directory with no runs/ is refused (exit 1)" $?
exit $((failed > 0))
