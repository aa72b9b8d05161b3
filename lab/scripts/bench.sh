#!/bin/bash
# The guest benchmarks of `make -C lab` (and `make demo`, `make bench`): boot the bench
# guest, run a condition grid under the base algorithms and their MLTCP versions
# (mltcp-bench --runs: a verdict per run), and report success rates, convergence and
# the grid's targets.
#
#   lab/scripts/bench.sh demo     lab/grids/grid-demo.conf: the compatible pair, exact start, on
#                             both placements and with ECN, 3 runs per algorithm; prints
#                             lab/scripts/bench-demo-report's summary and figure, and
#                             writes them to lab/results/DEMO.md and demo.png (~4 min)
#   lab/scripts/bench.sh grid     lab/grids/grid.conf (10 runs per MLTCP variant, 5 per base
#                             algorithm, 30 iterations) plus single-flow goodput;
#                             writes lab/results/RESULTS.md (~70 min under TCG)
#   lab/scripts/bench.sh full     grid, then the DDP stage (~75 min)
#   lab/scripts/bench.sh overcommit   lab/grids/grid-overcommit.conf: four jobs asking ~1.5x
#                             the link, one bound by a barrier over four connections,
#                             behind a shallow buffer; each job under MLTCP against its
#                             base (guards); writes lab/results/RESULTS-overcommit.md
#                             (~20 min under TCG)
#   lab/scripts/bench.sh ddp      only the PyTorch DDP scenarios (lab/grids/grid-ddp.conf,
#                             lab/scripts/bench-ddp; `full` runs them too, after the grid);
#                             writes lab/results/RESULTS-ddp.md (~75 min under TCG)
#   lab/scripts/bench.sh ddp-pinned   the DDP scenarios of lab/grids/grid-ddp-pinned.conf with
#                             each job's ranks on a CPU of their own (bench-ddp --pin
#                             job) through 40 Mbit/s (DDP_RATE: Mbit/s, or auto, a
#                             link sized to the job); writes lab/results/RESULTS-ddp-pinned.md
#                             (~60 min under TCG)
#   lab/scripts/bench.sh report DIR   tables, targets and plots of an earlier run again
#                             (and lab/results/RESULTS.md if DIR is a grid run)
#
# Environment: RUNS_MLTCP, RUNS_BASE, ITERATIONS override the run counts; CELLS="a b"
# picks grid cells; RESULTS= the output directory (default results/<mode>-<UTC time>/).
# DDP_RUNS (3), DDP_ITERS (40) and DDP_SCENARIOS="a b" do the same for the DDP stage;
# DDP_RATE (40) is ddp-pinned's bottleneck, in Mbit/s or auto.
# Needs root (the guest shares / over 9p); everything else is installed by `make deps`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top"
mode=${1:-demo}
status=0

# ddp_stage DIR [VARIANT BENCH-DDP-OPTIONS...]: the PyTorch DDP scenarios of
# lab/grids/grid-ddp[-VARIANT].conf in one guest, their table and plots; with every
# scenario (no DDP_SCENARIOS), lab/results/RESULTS-ddp[-VARIANT].md (make -C lab ddp[-VARIANT]).
ddp_stage() {
	local out=$1 name=ddp${2:+-$2} rc=0
	local grid=lab/grids/grid-$name.conf
	shift $(($# < 2 ? $# : 2))
	/usr/bin/python3 -c 'import torch' 2>/dev/null ||
		{ echo "bench: python3-torch is missing (make deps)" >&2; status=1; return; }
	mkdir -p "$out"
	# shellcheck disable=SC2086
	scripts/vm-run --rw "$out" --timeout 7200 -- lab/scripts/bench-ddp -g "$grid" "$@" \
		-n "${DDP_RUNS:-3}" -i "${DDP_ITERS:-40}" "$out" ${DDP_SCENARIOS:-} || rc=$?
	# the run writes ddp.md; it is missing only if the run stopped early
	[ -f "$out/ddp.tsv" ] || { status=1; return; }
	[ -f "$out/ddp.md" ] || lab/scripts/bench-ddp --report "$out" >"$out/ddp.md" || rc=1
	lab/scripts/bench-ddp --plot "$out" >>"$out/plot.log" 2>&1 ||
		echo "bench: plotting $out failed, see $out/plot.log" >&2
	[ $rc = 0 ] || status=1
	[ -n "${DDP_SCENARIOS:-}" ] && return
	local env=$out/env.txt
	{
		echo "# MLTCP with PyTorch DDP: benchmark results"
		echo
		echo "Measured $(sed -n 's/^date=//p' "$env") on kernel $(sed -n 's/^kernel=//p' "$env")"
		echo "($(sed -n 's/^cpus=//p' "$env") vCPUs, TCG guest) in $(($(sed -n 's/^elapsed=//p' "$env") / 60)) minutes:"
		echo "the scenarios of \`$grid\`, $(sed -n 's/^runs=//p' "$env") rounds each of"
		echo "$(sed -n 's/^base=//p' "$env") (the base), the base with no link bottleneck (unshaped, a control),"
		echo "$(sed -n 's/^mltcp=//p' "$env") learned (the jobs unmodified) and"
		echo "$(sed -n 's/^mltcp=//p' "$env") attached (\`mltcp.torch.attach()\`), $(sed -n 's/^iters=//p' "$env") training iterations per job,"
		echo "every job's first iteration released at the same instant, through a router's"
		echo "$(sed -n 's/^rate_mbit=//p' "$env") Mbit/s tbf FIFO in each direction. Reproduce with:"
		echo
		echo "    ${DDP_RUNS:+DDP_RUNS=$DDP_RUNS }${DDP_ITERS:+DDP_ITERS=$DDP_ITERS }${DDP_RATE:+DDP_RATE=$DDP_RATE }make -C lab $name        # = lab/scripts/bench.sh $name${*:+ (bench-ddp $*)}"
		echo
		echo "Each job: examples/pytorch/ddp_train.py, two ranks (one per side), gloo, sized on"
		echo "this machine where its line gives a --comm-share (its forward time set so that its"
		echo "backward pass, the window in which it communicates, is that share of its iteration"
		echo "alone; the share reached is printed beside the ideal). A job's"
		echo "time is its mean iteration time over the last half of the run, from the training"
		echo "loop's own clock; the ideal is the same job alone in the same boot (base"
		echo "algorithm). A run converges when its worst job is at most $(lab/scripts/targets.py get converged)x its ideal."
		echo "\"base / mode\" is the base's median worst-job ratio over the mode's; the last"
		echo "column: each run's drops at the bottleneck, TCP segments retransmitted, timeouts"
		echo "and the share of the guest's CPUs busy over the run (medians). Plots:"
		echo "\`lab/scripts/bench-ddp --plot DIR\` (DIR/plots/SCENARIO.svg, the first round)."
		echo
		echo "## Scenarios"
		echo
		sed '/^## Targets/,$d' "$out/ddp.md"
		sed -n '/^## Targets/,$p' "$out/ddp.md"
	} >"$top/lab/results/RESULTS-$name.md"
}
if [ "$mode" = report ]; then
	res=$(cd "${2:?usage: lab/scripts/bench.sh report DIR}" && pwd)
	[ -f "$res/goodput.csv" ] && mode=grid
else
	case $mode in
	demo)
		grid=lab/grids/grid-demo.conf runs_m=${RUNS_MLTCP:-3} runs_b=${RUNS_BASE:-3}
		timeout=1800
		;;
	grid | full)
		grid=lab/grids/grid.conf runs_m=${RUNS_MLTCP:-10} runs_b=${RUNS_BASE:-5}
		timeout=10800
		;;
	overcommit)
		grid=lab/grids/grid-overcommit.conf runs_m=${RUNS_MLTCP:-10} runs_b=${RUNS_BASE:-10}
		timeout=5400
		;;
	ddp | ddp-pinned) ;;
	*)
		echo "usage: lab/scripts/bench.sh demo|grid|full|overcommit|ddp|ddp-pinned|report DIR" >&2
		exit 2
		;;
	esac
	stamp=$(date -u +%Y%m%d-%H%M%S)
	res=${RESULTS:-$top/results/$mode-$stamp}
	mkdir -p "$res"
	res=$(cd "$res" && pwd)
	export KVER=${KVER:-$(scripts/default-kver)}

	echo "bench: building modules and tools for $KVER" >&2
	make --no-print-directory -s modules userspace >"$res/build.log" 2>&1 ||
		{ tail -n 30 "$res/build.log" >&2; exit 1; }
	if [ "$mode" = ddp ] || [ "$mode" = ddp-pinned ]; then
		if [ "$mode" = ddp ]; then
			ddp_stage "$res/ddp"
		else
			# a job to a CPU, as jobs on their own hosts; 40 Mbit/s, where CUBIC
			# loses in lockstep; DDP_RATE=auto sizes the link below the rate a job
			# averages over its window (lab/grids/grid-ddp-pinned.conf)
			DDP_ITERS=${DDP_ITERS:-24}     # ~2.5-4.5 s iterations here
			ddp_stage "$res/ddp" pinned --pin job --rate "${DDP_RATE:-40}"
		fi
		cat "$res/ddp/ddp.md" 2>/dev/null
		echo "results, records and plots: $res/ddp"
		exit $status
	fi

	# A failed cell still leaves the others' results: report them, then fail.
	# shellcheck disable=SC2086
	gridcmd="lab/scripts/bench-grid -g $grid -m $runs_m -b $runs_b -i ${ITERATIONS:-30} '$res' ${CELLS:-}"
	[ "$mode" = grid ] || [ "$mode" = full ] &&
		gridcmd="$gridcmd; m=\$?; lab/scripts/bench-goodput -n 3 -c 10 '$res' && exit \$m"
	scripts/vm-run --rw "$res" --timeout "$timeout" -- bash -c "$gridcmd" || status=$?
	[ "$mode" = full ] && ddp_stage "$res/ddp"
fi

[ -f "$res/goodput.csv" ] && lab/scripts/bench-goodput-table "$res/goodput.csv" >"$res/goodput.md"
lab/scripts/bench-grid-table "$res" $([ -f "$res/goodput.md" ] && echo "$res/goodput.md") \
	>"$res/table.md" || status=1
for d in "$res"/*/*/run1; do
	[ -d "$d" ] || continue
	lab/scripts/bench-plot -o "$(dirname "$d")/plots" "$d" >>"$res/plot.log" 2>&1 ||
		echo "bench: plotting $(dirname "$d") failed, see $res/plot.log" >&2
done

# the demo's short answer (a grid-demo run, or its report again): the summary and one
# figure, and the latest of them in lab/results/DEMO.md and demo.png for the README
if [ "$mode" = demo ] || { [ "$mode" = report ] &&
	grep -qx 'grid=lab/grids/grid-demo.conf' "$res/env.txt" 2>/dev/null; }; then
	env=$res/env.txt
	# the whole of bench.sh demo (the build, the guest, the runs), kept for a report again
	[ "$mode" = demo ] && echo "demo_seconds=$SECONDS" >>"$env"
	mode=demo
	lab/scripts/bench-demo-report "$res" >"$res/summary.txt" || status=1
	el=$(sed -n 's/^elapsed=//p' "$env")
	all=$(sed -n 's/^demo_seconds=//p' "$env" | tail -n 1)
	{
		echo "# make demo: its latest output"
		echo
		echo "Two training jobs share a link in each cell of \`lab/grids/grid-demo.conf\`, released"
		echo "together: $(sed -n 's/^runs_base=//p' "$env") runs of the base algorithm and $(sed -n 's/^runs_mltcp=//p' "$env") of its MLTCP version, $(sed -n 's/^iterations=//p' "$env") iterations a"
		echo "run, on kernel $(sed -n 's/^kernel=//p' "$env") ($(sed -n 's/^cpus=//p' "$env") vCPUs, a $(sed -n 's/^virt=//p' "$env") guest). The runs took $((${el:-0} / 60)) min $((${el:-0} % 60)) s$([ -n "$all" ] && echo ";" || echo ".")"
		[ -n "$all" ] && echo "the whole demo, with the build and the guest's boot, $((all / 60)) min $((all % 60)) s."
		echo "The command:"
		echo
		echo "    make demo      # = lab/scripts/bench.sh demo"
		echo
		sed -e "s|^figure: $res/|figure: |" -e "s|^the full grid table: .*|the full grid table: below|" \
			"$res/summary.txt"
		echo
		[ -f "$res/demo.png" ] && echo "![make demo: base and MLTCP on the same axes](demo.png)" && echo
		echo "## The full grid table"
		echo
		echo "Column meanings: \`lab/scripts/bench-grid-table\`."
		echo
		cat "$res/table.md"
	} >"$top/lab/results/DEMO.md"
	[ -f "$res/demo.png" ] && cp "$res/demo.png" "$top/lab/results/demo.png"
fi

if [ "$mode" = overcommit ] || { [ "$mode" = report ] &&
	grep -qx 'grid=lab/grids/grid-overcommit.conf' "$res/env.txt" 2>/dev/null; }; then
	# run_env KEY: the run's KEY from its env.txt
	run_env() { sed -n "s/^$1=//p" "$res/env.txt"; }
	{
		echo "# MLTCP where the link is over-committed: guest results"
		echo
		printf '%s\n' "Measured on kernel $(run_env kernel) ($(run_env cpus) vCPUs, $(run_env virt)) in" \
			"$(($(run_env elapsed) / 60)) minutes: the cells of \`lab/grids/grid-overcommit.conf\`," \
			"$(run_env runs_mltcp) runs per MLTCP variant and $(run_env runs_base) per base algorithm," \
			"$(run_env iterations) iterations a run, every job released by one barrier. Reproduce with:"
		echo
		echo "    make -C lab overcommit      # = lab/scripts/bench.sh overcommit"
		echo
		echo "Four jobs whose phases ask about 1.5 times the link's time every iteration"
		echo "(\`lab/grids/profiles/overcommit-four.conf\`): three with one connection (dp-1..3)"
		echo "and one (ps) whose phase is split over four connections and ends when the last"
		echo "of them has its share. No schedule lets them take turns; the guard asks that no"
		echo "job run slower under MLTCP than under its base by more than"
		echo "$(lab/scripts/targets.py get guard)x (each job's mean over the last half of a run,"
		echo "median over the runs). Column meanings: \`lab/scripts/bench-grid-table\`; what the"
		echo "cluster simulator finds in the same regime: \`lab/sim/README.md\`."
		echo
		echo "## Cells"
		echo
		sed '/^## Targets/,$d' "$res/table.md"
		echo "## Jobs"
		echo
		echo "Who pays and who gains (\`lab/scripts/bench-grid-jobs\`):"
		echo
		lab/scripts/bench-grid-jobs "$res"
		echo
		sed -n '/^## Targets/,$p' "$res/table.md"
	} >"$top/lab/results/RESULTS-overcommit.md"
fi

if [ "$mode" = full ] || [ "$mode" = grid ]; then
	env=$res/env.txt
	{
		echo "# MLTCP benchmark results"
		echo
		echo "Measured $(sed -n 's/^date=//p' "$env") on kernel $(sed -n 's/^kernel=//p' "$env")"
		echo "($(sed -n 's/^cpus=//p' "$env") vCPUs, $(sed -n 's/^virt=//p' "$env")) in"
		echo "$(($(sed -n 's/^elapsed=//p' "$env") / 60)) minutes: the condition grid"
		echo "\`lab/grids/grid.conf\`, $(sed -n 's/^runs_mltcp=//p' "$env") runs per MLTCP variant and"
		echo "$(sed -n 's/^runs_base=//p' "$env") per base algorithm, $(sed -n 's/^iterations=//p' "$env") iterations a run, every job"
		echo "released by one barrier (exact start) unless the cell says otherwise. Reproduce with:"
		echo
		echo "    make -C lab grid      # = lab/scripts/bench.sh grid"
		echo
		echo "A run converges when its worst job's mean iteration time over the last half of the"
		echo "run is at most $(lab/scripts/targets.py get converged)x its ideal (the job alone on the same bottleneck, measured once"
		echo "per cell and algorithm). Column meanings: \`lab/scripts/bench-grid-table\`; what was cut"
		echo "from the grid to fit the time budget: the header of \`lab/grids/grid.conf\`."
		echo
		echo "## Condition grid"
		echo
		sed '/^## Targets/,$d' "$res/table.md"
		if [ -f "$res/goodput.md" ]; then
			echo "## Single flow"
			echo
			cat "$res/goodput.md"
			echo
		fi
		sed -n '/^## Targets/,$p' "$res/table.md"
	} >"$top/lab/results/RESULTS.md"
fi

echo
if [ "$mode" = demo ]; then cat "$res/summary.txt"; else cat "$res/table.md"; fi
[ -f "$res/goodput.md" ] && { echo; cat "$res/goodput.md"; }
[ -f "$res/ddp/ddp.md" ] && { echo; cat "$res/ddp/ddp.md"; }
echo
echo "results, records and plots: $res"
[ $status = 0 ] || echo "bench: some runs failed (exit $status), see above" >&2
exit $status
