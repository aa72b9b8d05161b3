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
# the global parameters unchanged afterwards; tie-break keys of a wrong length (netlink),
# an unprivileged mltcpctl set tiebreak-key (EPERM), key files that are short, long, not
# hex or readable by others (refused by mltcpctl), after all of which a new connection
# still draws under the key set before them (selftests/tiebreak.py).
. "$(dirname "$0")/lib.sh"

ML_BIN=${ML_BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}
[ -x "$ML_BIN/mltcp-badinput" ] ||
	{ echo "1..1"; echo "not ok 1 - userspace tools are built in $ML_BIN (make userspace)"; exit 1; }

CTL=$ML_BIN/mltcpctl
TIEBREAK=$(cd "$(dirname "$0")" && pwd)/tiebreak.py

tap_plan 5
ml_modprobe mltcp_reno || bail "load mltcp_reno"
ml_netns NS bad || bail "network namespace"
# a key in force, known here, that every bad input below must leave in force
keydir=$(mktemp -d)
at_exit "rm -rf $keydir"
key=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
(umask 077 && echo "$key" >"$keydir/key") && "$CTL" set tiebreak-key "$keydir/key" ||
	bail "mltcpctl set tiebreak-key"
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

other=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$CTL" set tiebreak-key - \
	<<<"$other" 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "permission denied" <<<"$out"
tap_result "as nobody, set tiebreak-key fails with EPERM: \"$out\"" $?

# lines TEXT|MODE|WANT: mltcpctl refuses a key file of TEXT (printf %b) and MODE, exit 1
# and WANT in its message, never the text
rc=0
while IFS='|' read -r text mode want; do
	printf '%b' "$text" >"$keydir/bad" && chmod "$mode" "$keydir/bad"
	out=$("$CTL" set tiebreak-key "$keydir/bad" 2>&1)
	r=$?
	diag "mode $mode, want \"$want\": exit $r, \"$out\""
	[ $r = 1 ] && grep -q -- "$want" <<<"$out" && ! grep -qi "${other:4:20}" <<<"$out" || rc=1
done <<EOF
${other:0:30}\\n|600|too short: 30 hex digits
${other}0\\n|600|too long: 33 hex digits
0x${other:2}|600|not a hex digit at byte 2
${other} \\n|600|not a hex digit at byte 33
${other}\\n|644|group or others may read or write it (mode 0644)
|600|too short: 0 hex digits
EOF
out=$("$CTL" set tiebreak-key "$keydir/none" 2>&1)
[ $? = 1 ] && grep -q "No such file" <<<"$out" || rc=1
tap_result "mltcpctl refuses short, long, non-hex, others-readable and missing key files" $rc

msg=$(python3 "$TIEBREAK" "$key" 2>&1)
rc=$?
printf '%s\n' "$msg" | diag_stream
[ $rc = 0 ] && "$CTL" -j show |
	python3 -c 'import json, sys; assert json.load(sys.stdin)["tiebreak_key_set"] is True'
tap_result "after all of it, a new connection still draws under the key set first" $?
tap_done
