#!/bin/bash
# The body of `make check`: build everything, run the unit tests on the host, test the
# bench's own failure paths, then run every selftest inside the QEMU guest. Each stage
# prints TAP; the run ends with scripts/tap-summary's "N passed, N failed" line and
# exits non-zero if anything failed. The whole log is kept in $BUILD/check.log.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
BUILD=${BUILD:-$top/build}
mkdir -p "$BUILD"
log=$BUILD/check.log
: >"$log"
export KVER=${KVER:-$(scripts/default-kver)}

say() { echo "$*" | tee -a "$log"; }
# stage DESC CMD...: runs CMD with its output in the log (and on the console when
# it fails), then one TAP line for the stage. "warning:" in a build's output fails it.
stage() {
	local desc=$1 out rc
	shift
	out=$(mktemp)
	"$@" >"$out" 2>&1
	rc=$?
	cat "$out" >>"$log"
	if [ $rc = 0 ] && grep -q 'warning:' "$out"; then
		grep 'warning:' "$out" | head -n 20
		rc=1
	fi
	if [ $rc = 0 ]; then
		say "ok - $desc"
	else
		tail -n 40 "$out" | sed 's/^/# /'
		say "not ok - $desc (exit $rc)"
	fi
	rm -f "$out"
	return $rc
}
# stream CMD...: runs CMD, showing and logging its TAP as it comes.
stream() {
	"$@" 2>&1 | tee -a "$log"
	return "${PIPESTATUS[0]}"
}

say "# make check: kernel $KVER, KDIR=${KDIR:-/usr/src/linux-headers-$KVER}"
built=0
stage "modules build without warnings (W=1) against $KVER" make --no-print-directory modules && built=1
stage "modules are sparse-clean (C=2)" make --no-print-directory sparse
stage "userspace builds with -Wall -Wextra -Werror" make --no-print-directory userspace
say "# ===== unit tests (cmocka, host)"
stream make --no-print-directory -s -k unit || say "not ok - unit tests exited non-zero"
say "# ===== bench self-test (runner failure paths)"
stream scripts/test-vm-run.sh || true
say "# ===== selftests in the guest"
if [ $built = 1 ]; then
	stream scripts/vm-run --timeout "${VM_TIMEOUT:-1500}" -- selftests/run.sh
	rc=$?
	# 1 is run.sh's own verdict, already in the TAP; anything else is the bench's.
	[ $rc != 0 ] && [ $rc != 1 ] &&
		say "not ok - selftests in the guest: vm-run exit status $rc (see above)"
else
	say "not ok - selftests in the guest not run: the modules did not build"
fi
echo
scripts/tap-summary "$log"
