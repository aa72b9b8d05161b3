#!/bin/bash
# Runs every selftest (selftests/test_*.sh, in name order) and streams their TAP.
# Each test is one process with its own namespaces; a test that dies or exits
# non-zero without reporting a failure gets a "not ok" line of its own here.
#
#   sudo selftests/run.sh [PATTERN...]     (PATTERN: substring of a test's name;
#                                           also MLTCP_TEST_FILTER)
# MLTCP_TEST_EXCLUDE (patterns as above) leaves out the tests it matches; each one
# left out is named in a TAP comment.
# MLTCP_TEST_TIMEOUT (default 600) limits each test in seconds. MLTCP_SELFTEST_DIR
# runs the tests of another directory (the bench's own tests use it).
set -u
here=${MLTCP_SELFTEST_DIR:-$(cd "$(dirname "$0")" && pwd)}
filters=("$@")
[ ${#filters[@]} = 0 ] && [ -n "${MLTCP_TEST_FILTER:-}" ] && read -ra filters <<<"$MLTCP_TEST_FILTER"
excludes=()
[ -n "${MLTCP_TEST_EXCLUDE:-}" ] && read -ra excludes <<<"$MLTCP_TEST_EXCLUDE"

# matches NAME PATTERN...: NAME contains one of the patterns.
matches() {
	local name=$1 f
	shift
	for f in "$@"; do [[ $name == *"$f"* ]] && return 0; done
	return 1
}

echo "# selftests on $(uname -r), $(nproc) CPUs"
failed=0
for t in "$here"/test_*.sh; do
	name=$(basename "$t" .sh)
	[ ${#filters[@]} -gt 0 ] && ! matches "$name" "${filters[@]}" && continue
	if [ ${#excludes[@]} -gt 0 ] && matches "$name" "${excludes[@]}"; then
		echo "# ===== $name: left out (MLTCP_TEST_EXCLUDE)"
		continue
	fi
	echo "# ===== $name"
	out=$(mktemp)
	start=$(date +%s)
	timeout -k 10 "${MLTCP_TEST_TIMEOUT:-600}" bash "$t" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	echo "# ----- $name: exit $rc in $(($(date +%s) - start))s"
	if [ "$rc" != 0 ] && ! grep -q '^not ok' "$out"; then
		if [ "$rc" = 124 ]; then
			echo "not ok - $name timed out after ${MLTCP_TEST_TIMEOUT:-600}s"
		else
			echo "not ok - $name exited $rc without reporting a failure"
		fi
	fi
	[ "$rc" != 0 ] && failed=$((failed + 1))
	rm -f "$out"
done
exit $((failed > 0))
