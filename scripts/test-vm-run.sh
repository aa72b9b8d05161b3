#!/bin/bash
# The bench's own tests: scripts/vm-run must report the guest kernel it booted, pass
# a command's failure through, and fail a run on a kernel warning, a taint, a timeout
# and a selftest that dies without TAP; a second run must re-use the cached kernel.
# Prints TAP. Each case is one guest boot (~10 s under TCG).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
kver=${KVER:-$(scripts/default-kver)}
n=0
failed=0
result() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else
		echo "not ok $n - $1"
		failed=$((failed + 1))
		sed 's/^/#   /' "$out" | tail -n 30
	fi
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
vm() { scripts/vm-run "$@" >"$out" 2>&1; }

echo "TAP version 13"
echo "1..7"
vm -- uname -r
rc=$?
[ $rc = 0 ] && grep -qx "$kver" "$out"
result "the guest boots kernel $kver and runs a command" $?

vm -- true
! grep -Eq 'vm-run: (fetching|building)' "$out"
result "a second run re-uses the cached kernel and initramfs" $?

vm -- sh -c 'exit 7'
[ $? = 7 ]
result "the command's exit status comes back from the guest" $?

vm -- env MLTCP_SELFTEST_DIR="$top/tests/bench/fixtures" selftests/run.sh
rc=$?
[ $rc = 1 ] && grep -q '^not ok - test_exits_1 exited 1' "$out"
result "a guest test that exits 1 without TAP fails the selftest run" $?

vm -- sh -c 'echo "WARNING: CPU: 0 PID: 1 at simulated.c:1 bench_selftest" >/dev/kmsg'
[ $? = 3 ] && grep -q 'logged a report' "$out"
result "a kernel WARNING in the guest log fails the run although the command passed" $?

# 512 is TAINT_WARN (W); root may add taint bits through this sysctl.
vm -- sh -c 'echo 512 >/proc/sys/kernel/tainted'
[ $? = 4 ] && grep -q 'taint mask' "$out"
result "an unexpected taint bit fails the run" $?

start=$(date +%s)
vm --timeout 5 -- sleep 300
rc=$?
[ $rc = 124 ] && grep -q 'timed out after 5s' "$out" && [ $(($(date +%s) - start)) -lt 120 ]
result "a command that hangs is stopped by its timeout with a clear message" $?
exit $((failed > 0))
