# shellcheck shell=bash
# Sourced by scripts/check.sh and scripts/check-debug.sh, which set $log, the file
# the whole run is kept in.

say() { echo "$*" | tee -a "$log"; }
# stage DESC CMD...: runs CMD with its output in the log (and on the console when
# it fails), then one TAP line for the stage. "warning:" in a build's output fails it
# (not with warn_ok=1: apt and dpkg warn about things that are no build's fault).
stage() {
	local desc=$1 out rc
	shift
	out=$(mktemp)
	"$@" >"$out" 2>&1
	rc=$?
	cat "$out" >>"$log"
	if [ $rc = 0 ] && [ "${warn_ok:-0}" = 0 ] && grep -q 'warning:' "$out"; then
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
