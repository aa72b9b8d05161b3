#!/bin/bash
# mltcpctl sockets on the BPF backend (its TCP socket iterator): the connections
# mltcp-hold keeps open are listed with their addresses, algorithm, hints, the F
# the core's math gives and the phase their owner reads through libmltcp (and counted
# per phase by mltcpctl metrics, which promtool accepts); their peers (accepted sockets on the default algorithm) and
# the sockets of another namespace are not.
#
#   [ NS: lo ]  mltcp-hold: 2 loopback connections (IPv4, IPv6) on mltcp_cubic;
#               mltcpctl reads from NS and from the initial namespace
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib_native.sh"

tap_plan 8
native_preconditions
bpf_fresh
tap_check "mltcpctl bpf load" "$MLTCPCTL" bpf load || tap_done
tap_check "the socket iterator is pinned" test -e /sys/fs/bpf/mltcp/sockets
"$MLTCPCTL" set stagger 0 >/dev/null
ml_netns NS lo
in_net() { nsenter --net="/run/netns/$NS" "$@"; }
fifo=$(mktemp -u)
mkfifo "$fifo"
at_exit "rm -f $fifo"
out=$(mktemp)
at_exit "rm -f $out"
in_net "$BUILD/bin/mltcp-hold" -a mltcp_cubic -n 2 -b 100000 -s 50000 <"$fifo" >"$out" &
hold=$!
exec 7>"$fifo"
at_exit "kill $hold"
for i in $(seq 50); do grep -q ready "$out" && break; sleep 0.1; done
json=$(in_net "$MLTCPCTL" -j sockets)
n=$(jq length <<<"$json")
tap_result "two MLTCP sockets listed in the namespace ($n)" "$([ "$n" = 2 ]; echo $?)"
got=$(jq -r 'sort_by(.bytes_per_iter) | map("\(.family) \(.algo) \(.bytes_per_iter) \(.bytes_this_iter) \(.f_q10) \(.size_given) \(.bounds_given)") | join(", ")' <<<"$json")
want="inet mltcp_cubic 100000 50000 1536 true true, inet6 mltcp_cubic 100001 51000 1546 true true"
tap_result "their state ($got)" "$([ "$got" = "$want" ]; echo $?)"
# conn I FAMILY SRC SPORT DST DPORT BYTES_PER_ITER BYTES_THIS_ITER F_Q10 ITERATIONS ALGO PHASE
owner=$(awk '$1 == "conn" { printf "%s%s %s", sep, $8, $13; sep = ", " }' "$out")
got=$(jq -r 'sort_by(.bytes_per_iter) | map("\(.bytes_per_iter) \(.phase)") | join(", ")' <<<"$json")
tap_result "each one's phase is the one its owner reads ($got; owner: $owner), F's ramp or a yield" \
	"$([ "$got" = "$owner" ] && ! grep -Eqv '^(ramp|yield)$' <<<"$(jq -r '.[].phase' <<<"$json")"
		echo $?)"
prom=$(in_net "$MLTCPCTL" metrics)
printf '%s\n' "$prom" | promtool check metrics &&
	[ "$(awk '/^mltcp_phase_sockets[{]/ { n += $2 } END { print n + 0 }' <<<"$prom")" = 2 ] &&
	grep -q '^mltcp_sockets{algo="mltcp_cubic"} [1-9]' <<<"$prom"
tap_result "mltcpctl metrics: Prometheus text promtool accepts, the 2 sockets counted by phase" $?
sport=$(awk '$2 == 0 { print $5 }' "$out")
tap_result "addresses and ports match mltcp-hold's (port $sport)" \
	"$(jq -e --argjson p "${sport:-0}" 'map(select(.src == "127.0.0.1" and .sport == $p)) | length == 1' <<<"$json" >/dev/null; echo $?)"
n=$("$MLTCPCTL" -j sockets | jq length)
tap_result "none in the initial namespace ($n)" "$([ "$n" = 0 ]; echo $?)"
echo quit >&7
exec 7>&-
wait $hold
tap_done
