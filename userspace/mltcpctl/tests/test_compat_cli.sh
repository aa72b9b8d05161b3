#!/bin/bash
# mltcpctl compat end to end (TAP): the sample profiles and trace beside this
# script, text and JSON output, and the exit status of bad input.
#
#   tests/test_compat_cli.sh BUILD/bin/mltcpctl
set -u
bin=${1:?usage: $0 MLTCPCTL}
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

# check DESC CMD...: one TAP line, ok when CMD succeeds
check() {
	local desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		failed=$((failed + 1))
	fi
}
# run ARGS...: mltcpctl's stdout, stderr and exit status in $tmp/{out,err,rc}
run() {
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	echo $? >"$tmp/rc"
}
rc_is() { [ "$(cat "$tmp/rc")" = "$1" ]; }
out_has() { grep -qF -- "$1" "$tmp/out"; }
err_has() { grep -qF -- "$1" "$tmp/err"; }
out_empty() { [ ! -s "$tmp/out" ]; }
# all CMD...: each CMD, a string, evaluated; all must succeed
all() {
	local c
	for c in "$@"; do
		eval "$c" || return 1
	done
}
# json EXPR: python3 loads stdout as JSON and asserts EXPR about it (d)
json() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$tmp/out" "$1"
}

echo "TAP version 13"

run compat -f "$dir/compat-jobs.txt" --rate 100mbit
check "profile file: exit 0" rc_is 0
check "profile file: the link's verdict line" \
	out_has "link link, 100Mbit/s, 3 jobs: NOT compatible, overlap"
check "profile file: a row per job, with its times and shift" all \
	"grep -qE '^vgg16-a +1 +141.000 +1425000 +255.000 ' $tmp/out" \
	"grep -qE '^gpt-mp +3 +100.000 +750000 +160.000 ' $tmp/out"
check "profile file: the table's columns" \
	out_has "Job              Segs  ComputeMs          Bytes    IdealMs     FairMs InterleavedMs    ShiftMs"

run compat -f "$dir/compat-jobs.txt" --rate 1gbit -j
check "-j: exit 0" rc_is 0
check "-j: JSON with a link, three jobs and their fields" \
	json 'len(d["links"]) == 1 and [j["name"] for j in d["links"][0]["jobs"]] ==
	      ["vgg16-a", "vgg16-b", "gpt-mp"] and
	      all(set(j) >= {"ideal_ms", "fair_ms", "interleaved_ms", "shift_ms", "segments"}
		  for j in d["links"][0]["jobs"]) and d["threshold"] == 0.05'
check "-j: at 1 Gbit/s the three are compatible, the VGG16 jobs at their ideal taking turns" \
	json 'd["links"][0]["compatible"] is True and d["links"][0]["overlap"] <= 0.05 and
	      all(abs(j["interleaved_ms"] - j["ideal_ms"]) < 0.01 * j["ideal_ms"] and
		  j["interleaved_ms"] < j["fair_ms"] for j in d["links"][0]["jobs"][:2])'

run compat -f "$dir/compat-jobs.txt" --rate 100mbit -j -p --threshold 0.5
check "-j -p: indented JSON that parses, --threshold taken" all \
	"json 'd[\"threshold\"] == 0.5'" "out_has '    \"links\": ['"

"$bin" compat --rate 100mbit -j <"$dir/compat-jobs.txt" >"$tmp/out" 2>"$tmp/err"
echo $? >"$tmp/rc"
check "stdin: the same jobs" json 'len(d["links"][0]["jobs"]) == 3'

run compat -f "$dir/compat-links.txt" -j
check "link lines: two links, a schedule with no overlap" \
	json '[l["name"] for l in d["links"]] == ["tor1", "tor2"] and
	      d["schedule"]["overlap_sum"] < 1e-3 and len(d["schedule"]["jobs"]) == 3'
run compat -f "$dir/compat-links.txt"
check "link lines: the schedule's table" \
	out_has "schedule: one shift per job on every link, overlap summed over links 0.0000"

run compat --trace "$dir/compat-trace.txt" --rate 100mbit -j
check "trace: exit 0, two jobs by destination port" \
	json '[j["name"] for j in d["links"][0]["jobs"]] == ["29500", "29600"] and
	      d["source"] == "trace" and d["by"] == "dport"'
check "trace: profiles estimated (bytes: median; compute: median duration - bytes at rate)" \
	json 'd["links"][0]["jobs"][0]["segments"] == [{"compute_ms": 150.0, "bytes": 1250000}] and
	      d["links"][0]["jobs"][1]["segments"] == [{"compute_ms": 200.0, "bytes": 625000}] and
	      d["links"][0]["jobs"][0]["records"] == 3'
run compat --trace "$dir/compat-trace.txt" --rate 100mbit --by src
check "trace --by src: one job, 10.0.0.1" all "out_has 'grouped by src'" \
	"grep -qE '^10\\.0\\.0\\.1 ' $tmp/out" "! grep -qE '^29500 ' $tmp/out"

printf 'a 100:1M\nb 100:x\n' >"$tmp/bad.txt"
run compat -f "$tmp/bad.txt" --rate 1gbit
check "bad profile: exit 1, the line and the reason, nothing on stdout" all "rc_is 1" \
	out_empty "err_has \"mltcpctl: $tmp/bad.txt:2: job 'b': invalid byte count 'x'\""
printf 'x-1 [001] 1.0: mltcp_iteration: src=[10.0.0.1]:1 dst=[10.0.0.2]:2 bytes=1\n' >"$tmp/bad.trace"
run compat --trace "$tmp/bad.trace" --rate 1gbit
check "bad trace: exit 1, nothing on stdout" all "rc_is 1" out_empty \
	"err_has 'without duration_ms'"
run compat -f "$tmp/missing.txt" --rate 1gbit
check "missing file: exit 1" all "rc_is 1" out_empty "err_has 'No such file'"

run compat -f "$dir/compat-jobs.txt" --rate 10
check "bad --rate: usage error, exit 2, nothing on stdout" all "rc_is 2" out_empty \
	"err_has 'invalid rate'"
run compat -f "$dir/compat-jobs.txt"
check "no --rate for a file without link lines: exit 2" all "rc_is 2" out_empty \
	"err_has 'give the link'"
run compat --trace "$dir/compat-trace.txt"
check "--trace without --rate: exit 2" rc_is 2
run help
check "help names compat" out_has "compat --trace FILE --rate RATE"

echo "1..$n"
[ $failed = 0 ]
