#!/bin/bash
# Allocation failures on the control paths (mltcp-failnth): each kernel allocation of
# an operation is made to fail in turn (/proc/thread-self/fail-nth with failslab), and
# the operation must then fail with ENOMEM or ENOBUFS and change nothing:
#  - netlink: parameters read and set (a failed set leaves idle_ms as it was; ENOBUFS
#    can also be netlink's "the answer was lost", after a set that was done), the
#    socket and counters dumps (one that ends without error is complete);
#  - the per-socket options, and a switch of a connection to mltcp_reno by
#    TCP_CONGESTION (the socket runs the algorithm the result says);
#  - a new network namespace (the modules' per-namespace memory; the namespace's setup
#    fails with errnos of its own, ENODEV or ENFILE as well);
#  - registration: loading mltcp_reno, mltcp_cubic and mltcp_dctcp (after a failure,
#    with whatever errno the kernel's loader gives, the module is not loaded; a load
#    that succeeds offers what the module registers, and unloads). Each .ko is read
#    from the guest's tmpfs: read over 9p, a failed allocation in netfs's read path
#    underflows a refcount in 6.12 (refcount_t warning in netfs_put_request()).
#    The core loads once, without a fault: its trace events make the kernel's own
#    event registration fail an allocation with a WARN_ON_ONCE in
#    event_define_fields() and refcount warnings in event_file_put(), kernel code
#    that any module with trace events meets. The core's registrations that allocate
#    are covered otherwise: its per-namespace memory by the netns operation, its
#    netlink family by every netlink operation above.
# The per-socket paths (options, switch) allocate nothing: there "points 0" is the
# answer.
# Whatever an allocation failure leaves behind is kmemleak's to find, in
# scripts/debug-guest's scan after the selftests.
#
# Debian's kernels have no fault injection: there, each operation runs once without
# a fault and the injection is reported as a skip; make check-debug's kernel has it,
# and scripts/debug-guest sets MLTCP_REQUIRE_FAULT_INJECTION=1 so that it cannot skip.
#
#   [ NS: lo ]  mltcp-failnth's loopback connections (mltcp_reno and reno)
. "$(dirname "$0")/lib.sh"

ml_need_tools mltcp-failnth mltcpctl
tmp=$(mktemp -d)
at_exit "rm -rf $tmp"
ops=(get-params set-params dump-sockets dump-counters sockopt switch netns)
mods=(mltcp mltcp_reno mltcp_cubic mltcp_dctcp)
tap_plan $((${#ops[@]} + ${#mods[@]} + 1))
for m in mltcp_reno mltcp_cubic mltcp_dctcp mltcp; do
	[ -d "/sys/module/$m" ] && modprobe -r "$m" 2>/dev/null
done
[ -d /sys/module/mltcp ] && bail "the modules unload before the test (something still uses them)"
ml_netns NS lo || bail "network namespace"

fi=/sys/kernel/debug/failslab
if [ -w /proc/self/fail-nth ] && [ -d $fi ]; then
	inject=1
	# sleeping allocations too (GFP_KERNEL is most of them), quietly: the stack of
	# every injected failure in the log would be tens of thousands of lines
	for k in ignore-gfp-wait verbose; do
		at_exit "echo $(cat $fi/$k) >$fi/$k"
	done
	echo N >$fi/ignore-gfp-wait && echo 0 >$fi/verbose || bail "failslab set up in $fi"
	args=()
else
	inject=0
	[ "${MLTCP_REQUIRE_FAULT_INJECTION:-0}" = 1 ] &&
		bail "the kernel has fault injection (/proc/self/fail-nth, $fi)"
	args=(-m 0) # each operation once, without a fault
fi
why="kernel $(uname -r) without CONFIG_FAULT_INJECTION_DEBUG_FS and FAILSLAB (make check-debug)"

# result DESC OUT RC MIN: one TAP line from mltcp-failnth's last line; with injection,
# the operation must have passed at least MIN allocation points (1 for a path known to
# allocate: 0 points there would mean that nothing was injected)
result() {
	local desc=$1 out=$2 rc=$3 min=$4 last points
	last=$(tail -n 1 <<<"$out")
	grep '^unclean' <<<"$out" | head -n 20 | diag_stream
	points=$(awk '{ for (i = 1; i < NF; i++) if ($i == "points") print $(i + 1) }' <<<"$last")
	if [ $inject = 1 ]; then
		[ "$rc" = 0 ] && [ -n "$points" ] && [ "$points" -ge "$min" ]
		tap_result "$desc: $last" $?
	elif [ "$rc" = 0 ] && [ "$points" = 0 ] && [[ $last == *" ok 1 "* ]]; then
		skip "$desc (ran once without a fault: $last)" "$why"
	else
		not_ok "$desc: $last (exit $rc)"
	fi
}

ml_modprobe mltcp_reno || bail "mltcp_reno loads"
before=$("$CTL" -j show | jq -c '{slope, intercept, mode, idle_ms}')
for op in "${ops[@]}"; do
	out=$(in_ns "$NS" timeout 1200 "$ML_BIN/mltcp-failnth" "${args[@]}" "$op" 2>&1)
	rc=$?
	case $op in sockopt | switch) min=0 ;; *) min=1 ;; esac
	result "$op: every allocation failure fails cleanly" "$out" $rc $min
done
"$CTL" set idle_ms "$(jq .idle_ms <<<"$before")" >/dev/null
after=$("$CTL" -j show | jq -c '{slope, intercept, mode, idle_ms}')
[ "$before" = "$after" ]
tap_result "idle_ms set back, every parameter is as before ($after)" $?

# Registration: each module loaded by finit_module, its dependencies already there.
modprobe -r mltcp_reno mltcp 2>/dev/null
for m in "${mods[@]}"; do
	ko=$(modinfo -n "$m" 2>/dev/null) && cp "$ko" "$tmp/" || bail "modinfo -n $m, copied"
	[ "$m" != mltcp ] && { modprobe mltcp || bail "mltcp loads"; }
	margs=("${args[@]}")
	[ "$m" = mltcp ] && margs=(-m 0)
	out=$(timeout 1200 "$ML_BIN/mltcp-failnth" "${margs[@]}" load "$tmp/$(basename "$ko")" 2>&1)
	rc=$?
	[ -d "/sys/module/$m" ] && { out+=$'\n'"unclean: $m is still loaded"; rc=1; }
	desc="load $m: every allocation failure fails the load cleanly"
	[ "$m" = mltcp ] && desc="load mltcp once, without a fault (the kernel's trace events, above)"
	result "$desc" "$out" $rc $([ "$m" = mltcp ] && echo 0 || echo 1)
done
modprobe -r mltcp 2>/dev/null
tap_done
