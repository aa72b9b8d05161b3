#!/bin/bash
# Shared by the PyTorch DDP tests of this directory. Source after selftests/lib.sh.
#   ddp_setup MODE: checks python3-torch and the preload library, loads mltcp_cubic,
#     sets the mltcp mode to MODE (restored on exit), puts loopback at MTU 1500
#     (64 kB segments would carry an iteration within the initial window, leaving
#     nothing to restart) and makes $tmp.
#   ddp_run [ddp_train.py options]: 2 ranks on mltcp_cubic through the preload library,
#     ITERS iterations of an MLP whose 4.2 MB of gradients go in 4 buckets (the options
#     come last: --layers 8 overrides the default 4), tracing mltcp:mltcp_restart; output
#     in $tmp/out, the run's restart trace in $tmp/trace; returns ddp_train.py's status.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
T=/sys/kernel/tracing

ddp_setup() {
	local old mtu
	[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import torch' 2>/dev/null ||
		bail "python3-torch is installed (apt-get install python3-torch)"
	[ -e "$top/build/lib/libmltcp-preload.so" ] ||
		bail "libmltcp-preload.so is built (make userspace)"
	[ -d "$T/events" ] || mount -t tracefs tracefs "$T" || bail "tracefs is mounted"
	ml_modprobe mltcp_cubic || bail "load mltcp_cubic"
	old=$(cat /sys/module/mltcp/parameters/mode)
	at_exit "echo $old >/sys/module/mltcp/parameters/mode"
	echo "$1" >/sys/module/mltcp/parameters/mode || bail "mode $1"
	mtu=$(cat /sys/class/net/lo/mtu)
	at_exit "ip link set lo mtu $mtu"
	ip link set lo mtu 1500 || bail "loopback MTU 1500"
	tmp=$(mktemp -d)
	at_exit "rm -rf $tmp"
	at_exit "echo 0 >$T/events/mltcp/mltcp_restart/enable; echo >$T/trace"
}

ddp_run() {
	local rc
	echo >"$T/trace"
	echo 1 >"$T/events/mltcp/mltcp_restart/enable" || bail "enable mltcp:mltcp_restart"
	PYTHONPATH="$top/userspace/python" MLTCP_LIBRARY="$top/build/lib/libmltcp.so.1" \
		MLTCP_CC=mltcp_cubic LD_PRELOAD="$top/build/lib/libmltcp-preload.so" \
		timeout 400 /usr/bin/python3 "$top/examples/pytorch/ddp_train.py" --spawn 2 \
		--iters "$ITERS" --layers 4 --width 512 --bucket-mb 1 --fwd-ms 150 --bwd-ms 300 \
		--report-sockets --all-ranks --port $((20000 + RANDOM % 20000)) "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	echo 0 >"$T/events/mltcp/mltcp_restart/enable"
	cat "$T/trace" >"$tmp/trace"
	[ $rc = 0 ] || tail -n 20 "$tmp/err" | diag_stream
	return $rc
}
