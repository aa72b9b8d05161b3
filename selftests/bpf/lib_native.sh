#!/bin/bash
# Helpers of the native BPF selftests; source after ../lib.sh.
#
#   MLTCPCTL     the built mltcpctl (build/bin/mltcpctl)
#   bpf_fresh    unloads a BPF backend left loaded and unloads it again on exit (call
#                it directly, not in $(...) or tap_check, so that the cleanup stays)
#   ca_listed N  true when N is in net.ipv4.tcp_available_congestion_control
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$top/build}
MLTCPCTL=$BUILD/bin/mltcpctl
BPF_ALGOS=(mltcp_reno mltcp_cubic mltcp_dctcp)

native_preconditions() {
	[ -x "$MLTCPCTL" ] || bail "built tree: $MLTCPCTL missing (make userspace)"
	[ -r /sys/kernel/btf/vmlinux ] || bail "kernel $(uname -r) has no BTF (/sys/kernel/btf/vmlinux)"
	[ -d /sys/module/mltcp ] && bail "the mltcp modules are loaded: the native tests need the BPF backend"
	return 0
}

ca_listed() {
	tr ' ' '\n' </proc/sys/net/ipv4/tcp_available_congestion_control | grep -qx "$1"
}

bpf_fresh() {
	if "$MLTCPCTL" bpf status >/dev/null 2>&1 || [ -e /sys/fs/bpf/mltcp ]; then
		diag "a BPF backend was left loaded; unloading it first"
		"$MLTCPCTL" bpf unload >/dev/null 2>&1
	fi
	at_exit "$MLTCPCTL bpf unload"
}

# json_show FILTER: a value of `mltcpctl -j show`
json_show() {
	"$MLTCPCTL" -j show | jq -r "$1"
}
