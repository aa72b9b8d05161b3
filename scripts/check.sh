#!/bin/bash
# The body of `make check`: install the dependencies (scripts/deps.sh: apt packages; the
# kernels' headers and images are unpacked into a cache, never installed), build
# everything, run the unit tests on the host, test the bench's own failure paths, then,
# for each kernel, build the modules in a directory of their own ($BUILD/kmod/KVER),
# check them with sparse and run every selftest inside a QEMU guest booting that
# kernel; the machine's kernel packages must end as they started. Each stage prints TAP
# (a guest's lines carry its kernel series, e.g. "ok - [6.12] test_10 ..."); the run
# ends with scripts/tap-summary's "N passed, N failed" line and exits non-zero if
# anything failed. The whole log is kept in $BUILD/check.log, the time each kernel's
# stages took in $BUILD/check-times.txt.
#
# Kernels: KVER (one release) if set, else KVERS (releases or series such as 6.12),
# else scripts/default-kver --all (Debian 12's 6.1 and 6.12).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
BUILD=${BUILD:-$top/build}
mkdir -p "$BUILD"
log=$BUILD/check.log
times=$BUILD/check-times.txt
: >"$log"
: >"$times"

. "$top/scripts/check-lib.sh"
# kernels_unchanged SINCE: one TAP line, whether the machine's kernel image and
# headers packages are those it had before SINCE.
kernel_pkgs=$(scripts/deps.sh --kernel-packages)
kernels_unchanged() {
	local now desc n=none
	now=$(scripts/deps.sh --kernel-packages)
	[ -n "$now" ] && n=$(wc -l <<<"$now")
	desc="the machine's linux-image-* and linux-headers-* packages are those it had before $1"
	if [ "$now" = "$kernel_pkgs" ]; then
		say "ok - [deps] $desc ($n installed)"
		return 0
	fi
	diff <(echo "$kernel_pkgs") <(echo "$now") | sed -n '/^[<>] ./s/^/# /p' | tee -a "$log"
	say "not ok - [deps] $desc: a test must not change what the machine boots"
	return 1
}

say "# ===== dependencies: scripts/deps.sh (apt packages; kernel headers unpacked into the cache)"
# shellcheck disable=SC2086
warn_ok=1 stage "[deps] scripts/deps.sh installs the packages and unpacks the kernels' headers" \
	scripts/deps.sh --install ${KVER:-${KVERS:-}}
deps=$?
kernels_unchanged scripts/deps.sh || deps=1
# Nothing after this works without them.
[ $deps = 0 ] || { scripts/tap-summary "$log"; exit 1; }

kvers=()
for k in ${KVER:-${KVERS:-$(scripts/default-kver --all)}}; do
	if [[ $k =~ -amd64$ ]]; then
		kvers+=("$k")
	else
		r=$(scripts/default-kver "$k") || exit 2
		kvers+=("$r")
	fi
done
[ ${#kvers[@]} -gt 0 ] || { echo "check: no kernel to test" >&2; exit 2; }
# KDIR only makes sense for a single kernel.
if [ ${#kvers[@]} -gt 1 ] && [ -n "${KDIR:-}" ]; then
	echo "check: KDIR=$KDIR ignored: several kernels (${kvers[*]}); set KVER= to test one" >&2
	unset KDIR
fi

# stream CMD...: runs CMD, showing and logging its TAP as it comes.
stream() {
	"$@" 2>&1 | tee -a "$log"
	return "${PIPESTATUS[0]}"
}
# series KVER: 6.1.0-56-amd64 -> 6.1, 6.12.117+deb12-amd64 -> 6.12
series() { echo "$1" | cut -d. -f1-2; }
# tag KVER: marks the TAP results of one kernel with its series, so that the summary
# of a run over several kernels tells them apart.
tag() { sed -u -E "s/^([[:space:]]*(not )?ok)( [0-9]+)?( -)?( |\$)/\\1\\3 - [$(series "$1")] /"; }
say "# make check: kernels ${kvers[*]}"
stage "userspace builds with -Wall -Wextra -Werror" make --no-print-directory userspace
# ~15 s (the first run also downloads Debian's linux-source once, ~150 MB)
stage "checkpatch.pl --strict finds nothing in the kernel C and the core headers (make checkpatch)" \
	make --no-print-directory checkpatch
stage "no shell check passes \"\$?\" after a command substitution in its own words, whose\
 status it would take for the check's (scripts/check-status-capture)" scripts/check-status-capture
stage "[slurm] the SPANK plugin (contrib/slurm) builds with -Wall -Wextra -Werror" \
	make --no-print-directory slurm
say "# ===== unit tests (cmocka, host)"
stream make --no-print-directory -s -k unit || say "not ok - unit tests exited non-zero"
stage "fuzz: the core under libFuzzer from tests/fuzz/corpus for ${FUZZ_SECONDS:-60} s: no\
 sequence of sizes, marks, sends, ACKs, losses and parameters breaks the bound on F" \
	make --no-print-directory fuzz
say "# ===== the cluster simulator: MLTCP's core in ns-3 (lab/sim, host)"
stage "[sim] the simulator and its tests build with -Wall -Wextra -Werror" \
	make --no-print-directory -C lab/sim -j2 BUILD="$BUILD" all
make --no-print-directory -s -C lab/sim BUILD="$BUILD" test 2>&1 |
	sed -u -E 's/^([[:space:]]*(not )?ok)( [0-9]+)?( -)?( |$)/\1\3 - [sim] /' | tee -a "$log"
[ "${PIPESTATUS[0]}" = 0 ] || say "not ok - [sim] make -C lab/sim test exited non-zero"
stage "[sim] the fast scenario: the compatible dumbbell pair converges under MLTCP where stock\
 lost, no job of the incompatible pair over 1.10x its stock time" \
	"$BUILD/sim/mltcp-sim" --check lab/sim/scenarios/check.conf
stage "[sim] three Reno jobs behind a tail-drop FIFO converge under MLTCP (its window restart\
 takes them apart) where stock lost" \
	"$BUILD/sim/mltcp-sim" --check lab/sim/scenarios/check-restart.conf
stage "[sim] two jobs on one 2:1 uplink of a leaf-spine: MLTCP within 1.10x of the gated\
 centralized schedule, which beats stock by 1.2x (fails with mltcp.slope=0)" \
	"$BUILD/sim/mltcp-sim" --check lab/sim/scenarios/check-cluster.conf
say "# ===== lab/scripts/sim-alone-costs.py on run records written by its test (host)"
stream lab/tests/test-sim-alone-costs.sh || true
say "# ===== the DDP benchmark's report and grid checks (recorded results, host)"
stream lab/tests/test-bench-reports.sh || true
stream lab/tests/test-demo-report.sh || true
say "# ===== each caller's topology against its recorded dump (selftests/topology.sh, host)"
stream lab/tests/test-topology.sh || true
say "# ===== mltcp-bench: a job over several connections, one barrier (stock Reno, host)"
stream lab/tests/test-bench-conns.sh || true
say "# ===== scripts/deps.sh refuses kernel packages (stand-in apt and dpkg, host)"
stream scripts/test-deps.sh || true
say "# ===== scripts/check-status-capture on fragments it must flag and pass (host)"
stream scripts/test-status-capture.sh || true
say "# ===== native: the BPF backend on this machine's kernel, $(uname -r) (no guest)"
start=$(date +%s)
selftests/bpf/run.sh 2>&1 |
	sed -u -E 's/^([[:space:]]*(not )?ok)( [0-9]+)?( -)?( |$)/\1\3 - [native] /' | tee -a "$log"
echo "native BPF $(($(date +%s) - start))s" >>"$times"
say "# ===== bench self-test (runner failure paths), kernel ${kvers[0]}"
KVER=${kvers[0]} stream scripts/test-vm-run.sh || true

# Selftests run on the first kernel only: those that measure the shared core's own
# rules over a bottleneck (lockstep, interleaving, the earned share, the backoff on
# marks, the top of F beside a receiver that delays its ACKs) and test_11 (F = 1 equals
# the base at 20 Mbit/s, which test_15 checks more strictly at 10 Mbit/s on every
# kernel). The core is the same code on every kernel;
# what differs (the hooks' glue, the socket options, netlink, lifecycles, the base
# algorithms each module must equal at F = 1) is tested on each. KVER= runs them all.
core_only_once="test_11 test_35 test_36 test_37 test_38 test_45"
# test_44, the Slurm plugin on a one-node cluster (about 2 minutes), also runs on the
# first kernel only: the plugin is userspace, and the cgroup attach it asks of each kernel
# is test_19's and the native stage's.
slurm_once="test_44"

# kernel_stages KVER FIRST: build, sparse and the selftests for one kernel; FIRST is 1
# for the first kernel of the run.
kernel_stages() {
	local kver=$1 first=$2 s kobj kdir built=0 rc start exclude=${MLTCP_TEST_EXCLUDE:-}
	s=$(series "$kver")
	kobj=$BUILD/kmod/$kver
	kdir=${KDIR:-$(scripts/kheaders "$kver")}
	say "# ===== kernel $kver (KDIR=$kdir, modules built in $kobj)"
	start=$(date +%s)
	stage "[$s] modules build without warnings (W=1) against $kver" \
		make --no-print-directory modules KVER="$kver" KDIR="$kdir" KOBJ="$kobj" && built=1
	stage "[$s] modules are sparse-clean (C=2) against $kver" \
		make --no-print-directory sparse KVER="$kver" KDIR="$kdir" KOBJ="$kobj"
	echo "$kver build+sparse $(($(date +%s) - start))s" >>"$times"
	say "# ===== selftests in the guest, kernel $kver"
	if [ $built = 1 ]; then
		if [ "$first" = 0 ] && [ -z "${MLTCP_TEST_FILTER:-}" ]; then
			exclude="$exclude $core_only_once $slurm_once"
			say "# $core_only_once: run on ${kvers[0]} (the shared core's behaviour)"
			say "# $slurm_once: run on ${kvers[0]} (the Slurm plugin, userspace)"
		fi
		start=$(date +%s)
		# test_33's burst at half its default and test_14's load cycles at a
		# quarter (test_42 loads and unloads 12 times more, racing the control
		# paths) keep both kernels' guests within CI's hour; make check-debug
		# runs them whole.
		MLTCP_STRESS_CALLS=${MLTCP_STRESS_CALLS:-50000} \
		MLTCP_LOAD_CYCLES=${MLTCP_LOAD_CYCLES:-12} MLTCP_TEST_EXCLUDE=$exclude \
		KVER=$kver scripts/vm-run --kver "$kver" --modules "$kobj" \
			--timeout "${VM_TIMEOUT:-2700}" -- selftests/run.sh 2>&1 |
			tag "$kver" | tee -a "$log"
		rc=${PIPESTATUS[0]}
		echo "$kver selftests $(($(date +%s) - start))s" >>"$times"
		# 1 is run.sh's own verdict, already in the TAP; anything else is the bench's.
		[ $rc != 0 ] && [ $rc != 1 ] &&
			say "not ok - [$s] selftests in the guest: vm-run exit status $rc (see above)"
	else
		say "not ok - [$s] selftests in the guest not run: the modules did not build"
	fi
	return 0
}
first=1
for k in "${kvers[@]}"; do
	kernel_stages "$k" $first
	first=0
done
# Build, install (DKMS for each kernel), boot and purge the Debian packages.
start=$(date +%s)
stream scripts/check-packages.sh "${kvers[@]}"
rc=$?
[ $rc != 0 ] && [ $rc != 1 ] && say "not ok - [pkg] scripts/check-packages.sh: exit status $rc"
echo "packages $(($(date +%s) - start))s" >>"$times"
kernels_unchanged "make check"
echo
say "# time per kernel: $(tr '\n' ';' <"$times" | sed 's/;$//; s/;/; /g')"
scripts/tap-summary "$log"
