#!/bin/bash
# The body of `make check-debug` (opt-in; not part of `make check` or CI): build, once,
# the debug kernel (scripts/debug-kernel: KASAN, lockdep, UBSAN, kmemleak, ...), build
# the modules against it, then run every selftest in a guest booting it and a kmemleak
# scan after them (scripts/debug-guest). Each stage prints TAP, the guest's lines
# tagged [debug]; the run ends with scripts/tap-summary's "N passed, N failed" line and
# the time each stage took. The whole log is kept in $BUILD/check-debug.log.
#
#   scripts/check-debug.sh [PATTERN...]   (PATTERN as for selftests/run.sh; also
#                                          MLTCP_TEST_FILTER)
#
# DEBUG_SERIES: the kernel series (6.12, the default, or 6.1); DEBUG_SANITIZER=kcsan: the
# variant with the data-race detector KCSAN instead of KASAN. The guest is several
# times slower than one booting Debian's kernel (KASAN's checks under QEMU's TCG):
# DEBUG_VM_TIMEOUT limits the whole guest run (default 43200 s), DEBUG_TEST_TIMEOUT
# each selftest (default 3600 s).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
BUILD=${BUILD:-$top/build}
export BUILD
mkdir -p "$BUILD"
log=$BUILD/check-debug.log
: >"$log"
times=()

. "$top/scripts/check-lib.sh"
finish() {
	echo
	local t=""
	[ ${#times[@]} -gt 0 ] && t=$(printf '%s; ' "${times[@]}")
	say "# time: ${t%; }"
	scripts/tap-summary "$log"
	exit
}

say "# ===== dependencies: scripts/deps.sh, with what the kernel build needs"
MLTCP_DEPS_DEBUG_KERNEL=1 scripts/deps.sh --install >>"$log" 2>&1 ||
	{ say "not ok - [debug] scripts/deps.sh installs the packages (see $log)"; finish; }
say "ok - [debug] scripts/deps.sh installs the packages"

series=${DEBUG_SERIES:-6.12}
case ${DEBUG_SANITIZER:-kasan} in
kasan) variant=() ;;
kcsan) variant=(--kcsan) ;;
*)
	say "not ok - [debug] DEBUG_SANITIZER is kasan or kcsan, not '$DEBUG_SANITIZER'"
	finish
	;;
esac
say "# ===== the debug kernel: scripts/debug-kernel ${variant[*]} $series"
start=$(date +%s)
# Its progress and the build time on the console as they come, its release on stdout.
kver=$(scripts/debug-kernel "${variant[@]}" "$series" 2> >(tee -a "$log" >&2))
rc=$?
times+=("debug kernel $(($(date +%s) - start))s")
if [ $rc != 0 ] || [ -z "$kver" ]; then
	say "not ok - [debug] scripts/debug-kernel builds the debug kernel $series${variant:+ (KCSAN)}" \
		"(exit $rc)"
	finish
fi
say "ok - [debug] the debug kernel $kver is built (config: $(scripts/kheaders "$kver")/.config)"

kobj=$BUILD/kmod/$kver
kdir=$(scripts/kheaders "$kver")
start=$(date +%s)
stage "[debug] userspace builds (mltcpctl and the test helpers the guest runs)" \
	make --no-print-directory userspace || finish
stage "[debug] modules build without warnings (W=1) against $kver" \
	make --no-print-directory modules KVER="$kver" KDIR="$kdir" KOBJ="$kobj" || finish
times+=("builds $(($(date +%s) - start))s")

say "# ===== selftests and a kmemleak scan in the guest, kernel $kver"
start=$(date +%s)
KVER=$kver scripts/vm-run --kver "$kver" --modules "$kobj" --boot-timeout 600 \
	--timeout "${DEBUG_VM_TIMEOUT:-43200}" -- \
	env MLTCP_TEST_TIMEOUT="${DEBUG_TEST_TIMEOUT:-3600}" scripts/debug-guest "$@" 2>&1 |
	sed -u -E 's/^([[:space:]]*(not )?ok)( [0-9]+)?( -)?( |$)/\1\3 - [debug] /' | tee -a "$log"
rc=${PIPESTATUS[0]}
times+=("guest $(($(date +%s) - start))s")
# 1 is the guest's own verdict, already in the TAP; anything else is the bench's (3: a
# kernel report in the guest's log, printed above; 4: an unexpected taint).
[ $rc != 0 ] && [ $rc != 1 ] &&
	say "not ok - [debug] the guest run: vm-run exit status $rc (see above)"
# What this run is for, as a result of its own: vm-run scans the guest's kernel log
# after every run, also one that timed out (124); 2 means there was no log to scan.
case $rc in
0 | 1 | 124)
	say "ok - [debug] the guest's kernel logged no report (KASAN or KCSAN, lockdep, UBSAN," \
		"WARNING, BUG, Oops, hung task, refcount) and no taint but O and E"
	;;
esac
finish
