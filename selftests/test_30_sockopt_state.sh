#!/bin/bash
# Per-socket control: a program using libmltcp sets bytes per iteration and marks
# iteration starts on loopback connections (IPv4 and IPv6) and reads the state back:
# bytes_ratio rises from 0 to 1 across an iteration, F follows slope/intercept, the
# iteration counter advances once per begin call (userspace/testprogs/mltcp_state_test.c).
# Repeated for mltcp_reno and mltcp_cubic, with other slope/intercept values set
# through mltcpctl, and with mode off (F stays 1).
. "$(dirname "$0")/lib.sh"

ML_BIN=${ML_BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}
[ -x "$ML_BIN/mltcp-state-test" ] && [ -x "$ML_BIN/mltcpctl" ] ||
	{ echo "1..0 # SKIP userspace not built (make userspace)"; exit 0; }

# run_prog DESC CMD...: runs a TAP-printing test program; its output becomes
# diagnostics, its exit status the result.
run_prog() {
	local desc=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | diag_stream
	tap_result "$desc ($(grep -c '^ok' <<<"$out") checks passed, $(grep -c '^not ok' <<<"$out") failed)" $rc
}

tap_plan 6
ml_modprobe mltcp_reno && ml_modprobe mltcp_cubic || bail "load mltcp_reno and mltcp_cubic"
ml_netns NS st || bail "network namespace"
params=$("$ML_BIN/mltcpctl" -j show) || bail "mltcpctl show"
old=$(python3 -c 'import json,sys; p=json.load(sys.stdin); print(p["slope"], p["intercept"], p["mode"])' <<<"$params")
read -r old_slope old_intercept old_mode <<<"$old"
at_exit "'$ML_BIN/mltcpctl' set slope $old_slope intercept $old_intercept mode $old_mode"

"$ML_BIN/mltcpctl" set slope 1 intercept 1 mode learned
run_prog "mltcp_reno, slope 1 intercept 1: state read back over 4 iterations" \
	in_ns "$NS" "$ML_BIN/mltcp-state-test" -a mltcp_reno -i 4
run_prog "mltcp_cubic, slope 1 intercept 1" \
	in_ns "$NS" "$ML_BIN/mltcp-state-test" -a mltcp_cubic -i 3 -b 524288

tap_check "mltcpctl set slope 0.5 intercept 1.25" "$ML_BIN/mltcpctl" set slope 0.5 intercept 1.25
run_prog "mltcp_reno, slope 0.5 intercept 1.25: F follows the new parameters" \
	in_ns "$NS" "$ML_BIN/mltcp-state-test" -a mltcp_reno -i 3

"$ML_BIN/mltcpctl" set slope 2 intercept 0.25 mode given
run_prog "mltcp_cubic, slope 2 intercept 0.25, mode given (hinted sockets use F)" \
	in_ns "$NS" "$ML_BIN/mltcp-state-test" -a mltcp_cubic -i 3

"$ML_BIN/mltcpctl" set slope 1 intercept 1 mode off
run_prog "mode off: F stays 1 through the iteration" \
	in_ns "$NS" "$ML_BIN/mltcp-state-test" -a mltcp_reno -i 2
tap_done
