#!/bin/bash
# `make -C lab native`: the benchmark on the running kernel with the BPF backend, no
# guest. Loads the backend (`mltcpctl bpf load`; one left
# loaded is unloaded first, and it is unloaded again at the end), runs the native
# condition grid (lab/grids/grid-native.conf) with lab/scripts/bench-grid, then parity at F = 1
# and CPU cost with lab/scripts/bench-native-cost, and writes lab/results/RESULTS-native.md: the
# same table and targets as lab/results/RESULTS.md (lab/scripts/bench-grid-table), the single-flow
# table (lab/scripts/bench-goodput-table) and the cost table. ~25 minutes on 2 cores.
#
#   lab/scripts/bench-native.sh              (root: namespaces, tc, BPF)
#   lab/scripts/bench-native.sh report DIR   tables and lab/results/RESULTS-native.md of an earlier
#                                        run again
#
# Environment: RUNS_MLTCP (10), RUNS_BASE (5), ITERATIONS (30), CELLS="a b" (grid cells;
# default all), COST_REPEATS (4: shaped repeats; the cpu test runs 2 more), RESULTS= the
# output directory (default results/native-<UTC time>/). With CELLS or other run counts
# than the defaults the results file is not written (a partial run would replace it), in
# either mode.
# Needs a kernel with BTF and BPF struct_ops, tc with tbf, iperf3 and jq; the modules must
# not be loaded. Faults stop it with a one-line reason, never with a shorter grid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top"
BUILD=${BUILD:-$top/build}
ctl=$BUILD/bin/mltcpctl
runs_m=${RUNS_MLTCP:-10}
runs_b=${RUNS_BASE:-5}
iters=${ITERATIONS:-30}
cost_n=${COST_REPEATS:-4}
die() { echo "bench-native: $*" >&2; exit 1; }

status=0
if [ "${1:-}" = report ]; then
	res=$(cd "${2:?usage: lab/scripts/bench-native.sh report DIR}" && pwd)
else
	[ "$(id -u)" = 0 ] || die "needs root (network namespaces, tc, BPF)"
	{ [ -x "$ctl" ] && [ -x "$BUILD/bin/mltcp-bench" ]; } || die "not built: make userspace"
	[ -r /sys/kernel/btf/vmlinux ] || die "kernel $(uname -r) has no BTF (/sys/kernel/btf/vmlinux)"
	[ -d /sys/module/mltcp ] &&
		die "the mltcp modules are loaded: unload them (the native bench runs the BPF backend)"
	for t in iperf3 jq tc ethtool taskset; do
		command -v "$t" >/dev/null || die "$t is missing (make deps)"
	done

	stamp=$(date -u +%Y%m%d-%H%M%S)
	res=${RESULTS:-$top/results/native-$stamp}
	mkdir -p "$res"
	res=$(cd "$res" && pwd)

	if "$ctl" bpf status >/dev/null 2>&1 || [ -e /sys/fs/bpf/mltcp ]; then
		echo "bench-native: a BPF backend was left loaded; unloading it first" >&2
		"$ctl" bpf unload >/dev/null
	fi
	"$ctl" bpf load >&2 || die "mltcpctl bpf load failed"
	trap '"$ctl" bpf unload >/dev/null 2>&1 || true' EXIT

	t0=$(date +%s)
	# shellcheck disable=SC2086
	lab/scripts/bench-grid -g lab/grids/grid-native.conf -m "$runs_m" -b "$runs_b" -i "$iters" "$res" \
		${CELLS:-} || status=$?
	t1=$(date +%s)
	# the cpu test with more repeats: its spread is larger than the shaped one's
	lab/scripts/bench-native-cost -n "$cost_n" -c $((cost_n + 2)) -t 3 "$res" || status=1
	t2=$(date +%s)
	{
		echo "cells=${CELLS:-}"
		echo "cost_repeats=$cost_n"
		echo "elapsed_cost=$((t2 - t1))"
		echo "elapsed_total=$((t2 - t0))"
	} >>"$res/env.txt"
fi

lab/scripts/bench-goodput-table "$res/goodput.csv" >"$res/goodput.md"
lab/scripts/bench-grid-table "$res" "$res/goodput.md" >"$res/table.md" || status=1

env=$res/env.txt
val() { sed -n "s/^$1=//p" "$env"; }
cost_n=$(val cost_repeats)
if [ -z "$(val cells)" ] && [ "$(val runs_mltcp)" = 10 ] && [ "$(val runs_base)" = 5 ] &&
	[ "$(val iterations)" = 30 ]; then
	{
		echo "# MLTCP native benchmark results (BPF backend)"
		echo
		echo "Measured $(val date) on the host's own kernel $(val kernel) ($(val cpus) CPUs,"
		echo "$(val virt); no guest, no TCG) with the BPF backend (\`mltcpctl bpf load\`), in"
		echo "$(($(val elapsed_total) / 60)) minutes: the condition grid \`lab/grids/grid-native.conf\`,"
		echo "$(val runs_mltcp) runs per MLTCP variant and $(val runs_base) per base algorithm, $(val iterations) iterations a run,"
		echo "every job released by one barrier (exact start). Reproduce with:"
		echo
		echo "    make -C lab native    # = lab/scripts/bench-native.sh (root)"
		echo
		echo "Same verdicts, columns and targets as \`lab/results/RESULTS.md\` (\`lab/scripts/bench-grid-table\`)."
		echo "The bottleneck is a tbf FIFO in a router namespace, 1x BDP (rate x 10 ms) of buffer;"
		echo "veth's own RTT is tens of µs. At 100 Mbit/s the guest's profiles, at 1 and 10 Gbit/s"
		echo "the same shapes with 10x and 100x the bytes (\`lab/grids/profiles/*MB.conf\`, see the grid's"
		echo "header). A cell whose base algorithm stays below $(lab/scripts/targets.py get pair.discriminates)x the ideal does not"
		echo "discriminate and its targets are not checked."
		echo
		echo "Not measured natively, and why: this kernel has no netem, red, fq or fq_codel, so"
		echo "the added-RTT cells and the RED/ECN cells, and with them dctcp / mltcp_dctcp (DCTCP"
		echo "needs ECN marks at the bottleneck), stay in the guest grid (\`lab/results/RESULTS.md\`); so"
		echo "do the friendliness, random-offset and four-job cells (time budget). The modules"
		echo "cannot be loaded on this kernel, so module vs BPF cost is not comparable here: the"
		echo "cost table compares the BPF algorithms with the kernel's own reno and cubic."
		echo
		echo "## Condition grid"
		echo
		sed '/^## Targets/,$d' "$res/table.md"
		echo "## Parity at F = 1 and CPU-bound goodput"
		echo
		echo "\`lab/scripts/bench-native-cost\`: with \`mltcpctl set slope 0 intercept 1\` (F = 1: every MLTCP"
		echo "algorithm behaves as its base) one iperf3 flow, 3 s, per algorithm through the router"
		echo "tbf FIFO at 100 Mbit/s and 1 Gbit/s (shaped-100m, shaped-1000m), $cost_n runs each,"
		echo "algorithms alternating; \`cpu\`: one flow over a bare veth pair (no qdisc limit,"
		echo "offloads off), sender and receiver pinned to one CPU, default parameters, $((cost_n + 2)) runs. Medians;"
		echo "\"vs base\" = BPF mltcp_X / the kernel's X, run by run (the median of the paired ratios)."
		echo
		cat "$res/goodput.md"
		echo
		echo "## CPU cost"
		echo
		echo "The \`cpu\` flows above: CPU time of the flow = both iperf3 processes' getrusage user +"
		echo "system time (as iperf3 reports it) + the pinned CPU's ksoftirqd; with tick-based"
		echo "accounting (no IRQ_TIME_ACCOUNTING) softirq work in a task's context is charged to"
		echo "that task. ACKs = TCP segments the sender received; how many a GB takes follows how"
		echo "sender and receiver share the one CPU (one ACK may cover many segments), so the"
		echo "target is CPU time per GB and per ACK is shown for information. perf's cycle counter"
		echo "is not used: this host exposes no PMU (\`perf stat -e cycles\` reports <not supported>)."
		echo
		sed '/^## Cost targets/,$d' "$res/cost.md"
		sed -n '/^## Targets/,$p' "$res/table.md"
		sed -n '/^## Cost targets/,$p' "$res/cost.md" | sed '1,2d'
		echo
		echo "Records of every run: \`$(basename "$res")\` (results/ is not committed); plots with"
		echo "\`lab/scripts/bench-plot -o DIR/plots DIR/run1\`. Grid $(($(val elapsed) / 60)) min, parity and"
		echo "cost $(($(val elapsed_cost) / 60)) min."
	} >"$top/lab/results/RESULTS-native.md"
	echo "bench-native: wrote lab/results/RESULTS-native.md" >&2
fi

echo
cat "$res/table.md"
echo
cat "$res/goodput.md"
echo
cat "$res/cost.md"
echo
echo "results and records: $res"
[ $status = 0 ] || echo "bench-native: some runs failed (exit $status), see above" >&2
exit $status
