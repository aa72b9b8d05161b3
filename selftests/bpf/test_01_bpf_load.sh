#!/bin/bash
# The BPF backend's life cycle on the running kernel: mltcpctl bpf load registers
# mltcp_reno, mltcp_cubic and mltcp_dctcp (listed by the kernel, pinned under
# /sys/fs/bpf/mltcp), a second load fails and changes nothing, show/set work on its
# parameters and reject bad values, a hostile write to the parameter map is clamped
# by the BPF side (a flow still runs), unload removes everything; bpf load
# --tiebreak-key FILE: show tells a key is set, a connection draws at both ends the
# tie-break computed with SipHash-2-4 under it (selftests/tiebreak.py), set tiebreak-key
# cannot change it.
# No network topology: one loopback flow in a namespace.
#
#   [ NS: lo ]  127.0.0.1 -> 127.0.0.1, mltcp_reno
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib_native.sh"

tap_plan 19
native_preconditions

bpf_fresh
tap_check "mltcpctl bpf load registers the BPF backend" "$MLTCPCTL" bpf load || tap_done
missing=""
for a in "${BPF_ALGOS[@]}"; do ca_listed "$a" || missing="$missing $a"; done
tap_result "kernel lists mltcp_reno mltcp_cubic mltcp_dctcp as available${missing:+ (missing:$missing)}" \
	"$([ -z "$missing" ]; echo $?)"
tap_check "maps and struct_ops pinned under /sys/fs/bpf/mltcp" \
	test -e /sys/fs/bpf/mltcp/params -a -e /sys/fs/bpf/mltcp/hints -a -e /sys/fs/bpf/mltcp/mltcp_reno
tap_check "mltcpctl bpf status: loaded, all registered" "$MLTCPCTL" bpf status

before=$(json_show .)
out=$("$MLTCPCTL" bpf load 2>&1)
rc=$?
tap_result "a second load fails with a one-line reason (exit $rc: $out)" \
	"$([ $rc = 1 ] && [[ $out == *"already loaded"* ]] && [ "$(wc -l <<<"$out")" = 1 ]; echo $?)"
tap_result "the failed load changed nothing" "$([ "$(json_show .)" = "$before" ]; echo $?)"

tap_check "mltcpctl set slope 0.5 intercept 1.25 mode given stagger 0" \
	"$MLTCPCTL" set slope 0.5 intercept 1.25 mode given stagger 0
got=$(json_show '"\(.slope_q10) \(.intercept_q10) \(.mode) \(.stagger_q10) \(.decrease)"')
tap_result "show reads back the new parameters ($got)" \
	"$([ "$got" = "512 1280 given 0 true" ]; echo $?)"
"$MLTCPCTL" set slope 9 >/dev/null 2>&1
rc=$?
"$MLTCPCTL" set intercept 0 >/dev/null 2>&1
rc2=$?
tap_result "out-of-range values rejected (exit $rc, $rc2) and nothing changed" \
	"$([ $rc != 0 ] && [ $rc2 != 0 ] && [ "$(json_show .slope_q10)" = 512 ] &&
		[ "$(json_show .intercept_q10)" = 1280 ]; echo $?)"

# Hostile values written straight into the map: slope 0xffff, intercept 0, mode 99,
# stagger 0xffffffff, idle_ms 0, hz 7, tiebreak_key_given 7. The BPF side clamps them;
# a flow must run.
bpftool map update pinned /sys/fs/bpf/mltcp/params key hex 00 00 00 00 \
	value hex ff ff 00 00  00 00 00 00  63 00 00 00  ff ff ff ff  05 00 00 00  07 00 00 00 \
		  07 00 00 00  07 00 00 00
tap_result "a hostile parameter map update is possible for root (the test's premise)" $?
ml_netns NS lo
in_ns "$NS" iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
at_exit "kill $! 2>/dev/null"
wait_port "$NS" 5201
mbit=$(in_ns "$NS" iperf3 -c 127.0.0.1 -p 5201 -t 1 -C mltcp_reno -J |
	jq -r '.end.sum_received.bits_per_second / 1e6 | floor')
tap_result "mltcp_reno still carries a flow after the hostile update (${mbit:-no} Mbit/s)" \
	"$([ "${mbit:-0}" -gt 100 ] 2>/dev/null; echo $?)"

tap_check "mltcpctl bpf unload" "$MLTCPCTL" bpf unload
left=""
for a in "${BPF_ALGOS[@]}"; do ca_listed "$a" && left="$left $a"; done
tap_result "unloaded algorithms are no longer available${left:+ (still:$left)}" \
	"$([ -z "$left" ]; echo $?)"
tap_result "nothing left pinned in /sys/fs/bpf/mltcp" "$([ ! -e /sys/fs/bpf/mltcp ]; echo $?)"
out=$("$MLTCPCTL" bpf status 2>&1)
tap_result "mltcpctl bpf status says not loaded and exits 1" \
	"$("$MLTCPCTL" bpf status >/dev/null 2>&1; [ $? = 1 ] && [[ $out == *"not loaded"* ]]; echo $?)"

# ---- the tie-break key, fixed at load
keydir=$(mktemp -d)
at_exit "rm -rf $keydir"
key=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
(umask 077 && echo "$key" >"$keydir/key" && echo "${key:16}${key:0:16}" >"$keydir/other")
tap_check "mltcpctl bpf load --tiebreak-key FILE" "$MLTCPCTL" bpf load --tiebreak-key "$keydir/key"
tap_result "show -j: tiebreak_key_set true, the key nowhere" \
	"$([ "$(json_show .tiebreak_key_set)" = true ] && ! "$MLTCPCTL" show | grep -qi "$key"; echo $?)"
msg=$(python3 "$(dirname "$0")/../tiebreak.py" -c "$MLTCPCTL" "$key" 2>&1)
rc=$?
printf '%s\n' "$msg" | diag_stream
tap_result "a connection draws at both ends SipHash-2-4 under the key" $rc
out=$("$MLTCPCTL" set tiebreak-key "$keydir/other" 2>&1)
rc=$?
msg=$(python3 "$(dirname "$0")/../tiebreak.py" -c "$MLTCPCTL" "$key" 2>&1)
rc2=$?
printf '%s\n' "$msg" | diag_stream
tap_result "set tiebreak-key refused (exit $rc: $out); a new connection still draws under the key" \
	"$([ $rc = 1 ] && [[ $out == *"fixed when it loads"* ]] && [ $rc2 = 0 ]; echo $?)"
"$MLTCPCTL" bpf unload >/dev/null
tap_done
