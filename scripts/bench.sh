#!/bin/bash
# `make demo` and `make bench`: boot the bench guest, run training-job scenarios under
# the base algorithms and their MLTCP versions, and report against the ideal.
#
#   scripts/bench.sh demo     two compatible jobs started together (pair-aligned), once,
#                             under reno, cubic, dctcp and mltcp_*; table + plots
#   scripts/bench.sh full     bench/scenarios.conf, each repeated (REPEATS, default 3),
#                             plus single-flow and CPU-bound goodput; writes
#                             bench/RESULTS.md
#   scripts/bench.sh report DIR   tables, target checks and plots of an earlier run
#                             again (and bench/RESULTS.md if DIR is a full run)
#
# Results (raw records, tables, plots) go to results/<mode>-<UTC time>/ (RESULTS= to
# choose). Needs root (the guest shares / over 9p); everything else is installed by
# `make deps`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
cd "$top"
mode=${1:-demo}
repeats=${REPEATS:-3}
status=0
if [ "$mode" = report ]; then
	res=$(cd "${2:?usage: scripts/bench.sh report DIR}" && pwd)
	repeats=$(sed -n 's/^repeats=//p' "$res/env.txt")
	[ -f "$res/goodput.csv" ] && mode=full
else
	stamp=$(date -u +%Y%m%d-%H%M%S)
	res=${RESULTS:-$top/results/$mode-$stamp}
	mkdir -p "$res"
	res=$(cd "$res" && pwd)
	export KVER=${KVER:-$(scripts/default-kver)}

	echo "bench: building modules and tools for $KVER" >&2
	make --no-print-directory -s modules userspace >"$res/build.log" 2>&1 ||
		{ tail -n 30 "$res/build.log" >&2; exit 1; }

	# A failed scenario still leaves the others' results: report them, then fail.
	case $mode in
	demo)
		scripts/vm-run --rw "$res" --timeout 900 -- \
			scripts/bench-matrix -n 1 "$res" pair-aligned || status=$?
		;;
	full)
		scripts/vm-run --rw "$res" --timeout 14400 -- bash -c \
			"scripts/bench-matrix -n $repeats '$res'; m=\$?; scripts/bench-goodput -n $repeats '$res' && exit \$m" ||
			status=$?
		;;
	*)
		echo "usage: scripts/bench.sh demo|full|report DIR" >&2
		exit 2
		;;
	esac
fi

scripts/bench-table "$res" >"$res/table.md"
[ -f "$res/goodput.csv" ] && scripts/bench-goodput-table "$res/goodput.csv" >"$res/goodput.md"
scripts/bench-targets "$res/table.md" $([ -f "$res/goodput.md" ] && echo "$res/goodput.md") \
	>"$res/targets.txt"
for scen in "$res"/*/; do
	scen=${scen%/}
	runs=("$scen"/*/run1)
	[ -d "${runs[0]}" ] || continue
	scripts/bench-plot -o "$scen/plots" "${runs[@]}" >>"$res/plot.log" 2>&1 ||
		echo "bench: plotting $(basename "$scen") failed, see $res/plot.log" >&2
done

if [ "$mode" = full ]; then
	{
		echo "# MLTCP benchmark results"
		echo
		echo "Measured $(sed -n 's/^date=//p' "$res/env.txt") on kernel $(sed -n 's/^kernel=//p' "$res/env.txt")"
		echo "($(sed -n 's/^cpus=//p' "$res/env.txt") vCPUs, $(sed -n 's/^virt=//p' "$res/env.txt")),"
		echo "$repeats repeats per scenario, medians with min–max. Reproduce with:"
		echo
		echo "    make bench            # = scripts/bench.sh full; REPEATS=$repeats"
		echo
		echo "Scenarios: \`bench/scenarios.conf\`; job profiles: \`bench/profiles/\`;"
		echo "column meanings: \`scripts/bench-table\`. The ideal is each job alone on the"
		echo "same 100 Mbit/s bottleneck, measured in the same run. What the figures say, and"
		echo "what was tried where targets are not met: [ANALYSIS.md](ANALYSIS.md)."
		echo
		echo "## Training-job scenarios"
		echo
		cat "$res/table.md"
		echo
		echo "## Single flow"
		echo
		cat "$res/goodput.md"
		echo
		echo "## Targets"
		echo
		sed 's/^/    /' "$res/targets.txt"
	} >"$top/bench/RESULTS.md"
fi

echo
cat "$res/table.md"
[ -f "$res/goodput.md" ] && { echo; cat "$res/goodput.md"; }
echo
cat "$res/targets.txt"
echo
echo "results, records and plots: $res"
[ $status = 0 ] || echo "bench: some runs failed (exit $status), see above" >&2
exit $status
