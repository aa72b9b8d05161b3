#!/bin/bash
# `make demo`'s short answer, on a recorded demo (host, no guest, seconds):
# lab/scripts/bench-demo-report must print a summary that parses (a row per cell with
# the base and MLTCP side by side, the definition of "took turns" once, the figure and
# the full table named) and draw the figure it names, a non-empty PNG with a row of
# panels per cell; the checker must refuse a broken summary; a run counts as taking
# turns by the definition the summary states. Prints TAP.
#
# The fixture, lab/tests/fixtures/demo, is a `make demo` run's results cut to what the
# report reads (the shared runs' iteration records, run 1's summary, link rate and the
# end of its share.csv), without dates or paths; it was made, and is made again, by
#
#   lab/tests/test-demo-report.sh --fixture results/demo-TIME
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
fix=$top/lab/tests/fixtures/demo

if [ "${1:-}" = --fixture ]; then
	src=${2:?usage: test-demo-report.sh --fixture RESULTS}
	[ -s "$src/grid.tsv" ] || { echo "test-demo-report: no $src/grid.tsv" >&2; exit 1; }
	rm -rf "$fix" && mkdir -p "$fix" && cp "$src/grid.tsv" "$fix/" || exit 1
	while IFS=$'\t' read -r _ _ _ dir; do
		mkdir -p "$fix/$dir" && cp "$src/$dir/runs.csv" "$fix/$dir/" || exit 1
		for r in "$src/$dir"/run*/; do
			r=$(basename "$r")
			mkdir -p "$fix/$dir/$r"
			awk -F, -v OFS=, '
				NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
				NR == 1 || $c["mode"] == "shared" {
					print $c["mode"], $c["job"], $c["name"], $c["iter"], $c["start_ms"],
						$c["end_ms"], $c["overlap"], $c["contended"], $c["link_overlap"]
				}' "$src/$dir/$r/iterations.csv" >"$fix/$dir/$r/iterations.csv"
		done
		cp "$src/$dir/run1/summary.csv" "$fix/$dir/run1/"
		grep -E '^(label|jobs|rate_mbit|bottleneck|queue_bdp)=' "$src/$dir/run1/meta.txt" \
			>"$fix/$dir/run1/meta.txt"
		# share.csv from four of the longest mean iterations before the first job ended
		from=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ j = $c["job"]; s[j] += $c["end_ms"] - $c["start_ms"]; n[j]++
			  if (!(j in e) || $c["end_ms"] > e[j]) e[j] = $c["end_ms"] }
			END { m = 0; E = -1; for (j in n) { if (s[j] / n[j] > m) m = s[j] / n[j]
			      if (E < 0 || e[j] < E) E = e[j] }; print E - 4 * m }' "$fix/$dir/run1/iterations.csv")
		awk -F, -v a="$from" 'NR == 1 || $1 >= a' "$src/$dir/run1/share.csv" >"$fix/$dir/run1/share.csv"
	done <"$src/grid.tsv"
	du -sh "$fix"
	exit 0
fi

tmp=$(mktemp -d)
out=$tmp/out
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=scripts/tap-result.sh
. "$top/scripts/tap-result.sh"

# parse_summary SUMMARY GRID_TSV: the summary's form, checked apart from the script that
# prints it; says what is wrong on stdout and fails. The table: the header, its rule and
# one row per MLTCP algorithm of the grid, each with the base beside it ("N of M" runs,
# ratios as 1.23x), then the definitions, "took turns" once, the figure (a PNG that
# exists and is not empty) and the full table; above the table a title with the runs.
parse_summary() {
	awk -v grid="$2" '
	BEGIN {
		while ((getline l < grid) > 0) { split(l, f, "\t"); if (f[3] ~ /^mltcp_/) want[f[1] " " f[3]]++ }
		num = "[0-9]+\\.[0-9][0-9]x"
		row = "^\\| [^ |]+ +\\| [^ |]+ +\\| [0-9]+ of [0-9]+ +\\| " num " +\\| mltcp_[^ |]+ +\\| [0-9]+ of [0-9]+ +\\| " num " +\\| " num " +\\|$"
	}
	NR == 1 { if ($0 !~ /^make demo: two jobs share a link in each cell, [0-9]+ runs under the base algorithm and [0-9]+ under MLTCP$/) bad("title: " $0); next }
	NR == 2 { if ($0 != "") bad("no blank line after the title"); next }
	NR == 3 {
		if ($0 !~ /^\| cell +\| base +\| took turns +\| worst\/ideal +\| MLTCP +\| took turns +\| worst\/ideal +\| MLTCP faster +\|$/) bad("header: " $0)
		next
	}
	NR == 4 { if ($0 !~ /^\|[-|]+\|$/) bad("rule: " $0); next }
	/^\|/ {
		if ($0 !~ row) { bad("row: " $0); next }
		split($0, f, "|"); cell = f[2]; mc = f[6]; gsub(/ /, "", cell); gsub(/ /, "", mc)
		if (!((cell " " mc) in want)) bad("row of no grid cell: " $0)
		got[cell " " mc]++
		split(f[4], t, " of "); split(f[7], u, " of ")
		if (t[1] + 0 > t[2] + 0 || u[1] + 0 > u[2] + 0) bad("more runs took turns than ran: " $0)
		next
	}
	/^took turns: / { defs++ }
	/^figure: / { fig = substr($0, 9) }
	/^the full grid table: / { table++ }
	END {
		for (k in want) if (got[k] != 1) bad("cell " k ": " got[k] + 0 " rows")
		if (defs != 1) bad("\"took turns:\" defined " defs + 0 " times")
		if (table != 1) bad("no line naming the full grid table")
		if (fig == "") bad("no figure named")
		else {
			cmd = "head -c 8 \"" fig "\" 2>/dev/null | od -An -tx1 | tr -d \" \\n\""
			cmd | getline magic; close(cmd)
			if (magic != "89504e470d0a1a0a") bad("figure " fig ": not a PNG or empty")
		}
		exit err
	}
	function bad(m) { print "parse_summary: " m; err = 1 }' "$1"
}

echo "TAP version 13"
echo "1..7"

cp -r "$fix" "$tmp/demo"
lab/scripts/bench-demo-report "$tmp/demo" >"$tmp/summary" 2>"$out"
rc=$?
cat "$tmp/summary" >>"$out"
[ $rc = 0 ] && parse_summary "$tmp/summary" "$tmp/demo/grid.tsv" >>"$out"
result "bench-demo-report's summary of the recorded demo parses, its figure is a PNG" $?

# the figure: a row of two panels per cell, 340 pixels high each
[ -s "$tmp/demo/demo.png" ] && [ "$(stat -c %s "$tmp/demo/demo.png")" -gt 20000 ] &&
	[ "$(od -An -tu1 -j 16 -N 8 "$tmp/demo/demo.png" | tr -s ' ' | sed 's/^ //')" = "0 0 5 120 0 0 4 36" ]
result "the figure is drawn, 1400 x 1060 pixels: a row per cell of the three" $?

# the values, from the recorded runs: runs.csv's worst_ratio (medians 1.4050 and
# 1.0167 in the first cell) and the link overlaps of the last half of each run
grep -qxF '| pair-egress-1bdp   | reno  | 0 of 3     | 1.41x       | mltcp_reno  | 3 of 3     | 1.02x       | 1.38x        |' "$tmp/summary" &&
	grep -qxF '| pair-router-1bdp   | reno  | 0 of 3     | 1.43x       | mltcp_reno  | 1 of 3     | 1.18x       | 1.22x        |' "$tmp/summary" &&
	grep -qxF '| pair-router-ecn    | dctcp | 0 of 3     | 1.78x       | mltcp_dctcp | 0 of 3     | 1.44x       | 1.23x        |' "$tmp/summary" &&
	grep -qxF "figure: $tmp/demo/demo.png" "$tmp/summary" &&
	grep -qF 'the host: a job alone took 1.21x its time on paper' "$tmp/summary"
result "the summary gives each cell's runs that took turns, worst/ideal and speed-up, and the host's load" $?

# broken summaries: each one must be refused by the checker above
broken() { # NAME SED-EXPRESSION: the summary edited, refused with a reason
	sed -e "$2" "$tmp/summary" >"$tmp/broken-$1"
	if parse_summary "$tmp/broken-$1" "$tmp/demo/grid.tsv" >"$tmp/why-$1" || [ ! -s "$tmp/why-$1" ]; then
		echo "not refused: $1" >>"$out"
		return 1
	fi
}
: >"$out"
broken title '1d' &&
	broken row '/^| pair-router-1bdp/d' &&
	broken column 's/| 1.43x       |/|/' &&
	broken ratio 's/1\.02x/1.0x/' &&
	broken turns 's/| 3 of 3     |/| 4 of 3     |/' &&
	broken definition '/^took turns:/d' &&
	broken twice '/^took turns:/p' &&
	broken figure "s|^figure: .*|figure: $tmp/missing.png|" &&
	{ : >"$tmp/empty.png"; broken emptyfig "s|^figure: .*|figure: $tmp/empty.png|"; }
result "the checker refuses a summary with the title, a row, a column, a ratio, a count, the definition or the figure broken" $?

# the definition decides: one MLTCP run whose jobs sent side by side for the whole last
# half (every link_overlap 0.5) no longer counts as taking turns
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 { $c["link_overlap"] = "0.5000" } 1' \
	"$fix/pair-egress-1bdp/mltcp_reno/run2/iterations.csv" >"$tmp/demo/pair-egress-1bdp/mltcp_reno/run2/iterations.csv"
lab/scripts/bench-demo-report "$tmp/demo" >"$out" 2>&1 &&
	grep -q '^| pair-egress-1bdp   | reno  | 0 of 3     | 1.41x       | mltcp_reno  | 2 of 3     |' "$out"
result "a run whose jobs overlapped at the bottleneck does not count as taking turns" $?

# the threshold is lab/targets.conf's interleaved: another file moves the count and the text
sed 's/^interleaved\( *\)<   0.10/interleaved\1<   0.02/' lab/targets.conf >"$tmp/targets.conf"
cp "$fix/pair-egress-1bdp/mltcp_reno/run2/iterations.csv" "$tmp/demo/pair-egress-1bdp/mltcp_reno/run2/"
MLTCP_TARGETS=$tmp/targets.conf lab/scripts/bench-demo-report "$tmp/demo" >"$out" 2>&1 &&
	grep -q '^  less than 2% of its bytes across the bottleneck' "$out" &&
	! grep -q '^| pair-egress-1bdp .*| 3 of 3 ' "$out"
result "took turns follows the targets file's interleaved" $?

lab/scripts/bench-demo-report "$tmp/nothing" >"$out" 2>&1
rc=$?
[ $rc = 1 ] && grep -qF "bench-demo-report: no $tmp/nothing/grid.tsv" "$out"
result "bench-demo-report on a directory without results says so" $?

[ $failed = 0 ]
