#!/bin/bash
# The bench's own tests: scripts/vm-run must report the guest kernel it booted and the
# QEMU that ran it, pass a command's failure through, and fail a run on a kernel
# warning, a taint, a timeout and a selftest that dies without TAP; a second run must
# re-use the cached kernel; a checkout under /tmp (in a path with spaces) or /root,
# which the guest covers with tmpfs, must stay visible and its build/ writable. Prints
# TAP. Each case is one guest boot (~10 s under TCG).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
kver=${KVER:-$(scripts/default-kver)}
# The cases below run their own commands in the guest: a selftest filter meant for
# `make check` must not reach them.
unset MLTCP_TEST_FILTER
# shellcheck source=scripts/tap-result.sh
. "$top/scripts/tap-result.sh"
out=$(mktemp)
copies=()
dest= # the last fresh_checkout's copy
trap 'rm -f "$out"; for c in "${copies[@]}"; do rm -rf "$c"; done' EXIT
vm() { scripts/vm-run "$@" >"$out" 2>&1; }

echo "TAP version 13"
echo "1..10"
vm -- uname -r
rc=$?
[ $rc = 0 ] && grep -qx "$kver" "$out"
result "the guest boots kernel $kver and runs a command" $?

# scripts/deps.sh installs QEMU 10 or later: 6.12 guests under 7.2's TCG crashed now
# and then (lab/results/RESULTS.md), and every figure names the emulator that made it.
qemu=$(sed -n 's/^vm-run: QEMU emulator version \([0-9]*\)\..*/\1/p' "$out")
[ "${qemu:-0}" -ge 10 ]
result "vm-run names its emulator, QEMU ${qemu:-?} (10 or later, as scripts/deps.sh installs)" $?

vm -- true
! grep -Eq 'vm-run: (fetching|building)' "$out"
result "a second run re-uses the cached kernel and initramfs" $?

vm -- sh -c 'exit 7'
[ $? = 7 ]
result "the command's exit status comes back from the guest" $?

vm -- env MLTCP_SELFTEST_DIR="$top/lab/tests/fixtures" selftests/run.sh
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
# fresh_checkout TEMPLATE: a fresh copy of this checkout (its working tree, without
# build output) in a new directory made from the mktemp TEMPLATE, its path in $dest.
# Not called in a command substitution: the EXIT trap must see the copy in $copies.
fresh_checkout() {
	local base
	base=$(mktemp -d "$1") || return 1
	copies+=("$base")
	dest=$base/mltcp
	mkdir "$dest" &&
		tar -C "$top" --exclude=./build --exclude=./results --exclude='*.ko' -cf - . |
		tar -C "$dest" -xf -
}
# checkout_case DEST: runs the copy's own vm-run from inside it; the guest must see the
# checkout's files at the same path, start in it and be able to write its build/.
checkout_case() {
	local dest=$1
	(cd "$dest" && scripts/vm-run -- sh -c \
		'[ "$(pwd)" = "$1" ] && grep -q "^# MLTCP" README.md && [ -x scripts/vm-run ] &&
		echo guest-was-here >build/vm-run-probe' sh "$dest") >"$out" 2>&1 &&
		[ "$(cat "$dest/build/vm-run-probe" 2>/dev/null)" = guest-was-here ]
}
fresh_checkout "/tmp/mltcp vm-run test.XXXXXX" && checkout_case "$dest"
result "a checkout under /tmp, in a path with spaces, is visible in the guest" $?

fresh_checkout "/root/mltcp-vm-run-test.XXXXXX" && checkout_case "$dest"
result "a checkout under /root is visible in the guest" $?
exit $((failed > 0))
