#!/bin/bash
# Bad input, each case checked for the errno the ABI documents
# (userspace/testprogs/mltcp_badinput.c): wrong option lengths, NULL and invalid
# pointers, out-of-range values, option numbers next to the MLTCP range, non-TCP
# (UDP, raw, UNIX) sockets, listening, unconnected and reset sockets, connections on
# other algorithms (EOPNOTSUPP), a connection switched away from MLTCP and back; each
# socket option case at level SOL_IP on IPv4 and IPv6 sockets and at level SOL_IPV6 on
# IPv6 sockets (the same errno and no state change at every level; an IPv4 socket at
# SOL_IPV6 never reaches MLTCP); sizes below the floor (1 and 16383 bytes) refused by
# MLTCP_SO_BYTES_PER_ITER and MLTCP_SO_ITER_BEGIN with EINVAL, changing nothing, 16384
# accepted and 0 still dropping the hints;
# malformed generic netlink messages, unknown and read-only attributes, wrong
# attribute lengths, out-of-range values (with extack messages), unknown commands;
# the global parameters unchanged afterwards.
. "$(dirname "$0")/lib.sh"

ML_BIN=${ML_BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}
[ -x "$ML_BIN/mltcp-badinput" ] ||
	{ echo "1..1"; echo "not ok 1 - userspace tools are built in $ML_BIN (make userspace)"; exit 1; }

tap_plan 2
ml_modprobe mltcp_reno || bail "load mltcp_reno"
ml_netns NS bad || bail "network namespace"
out=$(in_ns "$NS" "$ML_BIN/mltcp-badinput" 2>&1)
rc=$?
printf '%s\n' "$out" | diag_stream
tap_result "bad socket options and netlink messages rejected with the documented errno ($(grep -c '^ok' <<<"$out") cases, $(grep -c '^not ok' <<<"$out") failed)" $rc
sockets=$(cat /sys/module/mltcp_reno/parameters/sockets)
for _ in $(seq 50); do
	[ "$sockets" = 0 ] && break
	sleep 0.1
	sockets=$(cat /sys/module/mltcp_reno/parameters/sockets)
done
[ "$sockets" = 0 ]
tap_result "no mltcp_reno socket left behind (sockets = $sockets)" $?
tap_done
