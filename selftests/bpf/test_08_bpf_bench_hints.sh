#!/bin/bash
# mltcp-bench --hints tells every connection of a job of several (conns=N) its
# iterations, not only one: while a run goes on, the sender's namespace lists the
# job's four MLTCP sockets, each with its size and its boundaries given (S and B
# of `mltcpctl sockets`). A bench that marked one connection of four left the
# other three to the learner, and measured a job half told.
#
#   mb<pid>: job "ps" (conns=4) ── router: tbf 100 Mbit/s FIFO ──> its receiver, 4 connections
#
# The programs enter the namespaces with nsenter --net, not ip netns exec: that one
# mounts a sysfs of its own over /sys, which hides the pins in /sys/fs/bpf.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib_native.sh"

tap_plan 4
native_preconditions
bpf_fresh
tap_check "mltcpctl bpf load" "$MLTCPCTL" bpf load || tap_done
PORT=5321
out=$(mktemp -d)
at_exit "rm -rf $out"
"$BUILD/bin/mltcp-bench" -q --no-ideal --cc mltcp_reno --hints --port $PORT -o "$out/run" \
	-j name=ps,compute_ms=100,bytes=1M,conns=4,iterations=20 >"$out/log" 2>&1 &
pid=$!
at_exit "kill $pid 2>/dev/null"
# the job's sockets as the sender's namespace lists them: "SIZE_GIVEN BOUNDS_GIVEN" each
told() {
	local ns
	for ns in $(ip netns list | awk -v p="mb$pid" 'index($1, p) == 1 { print $1 }'); do
		nsenter --net="/run/netns/$ns" "$MLTCPCTL" -j sockets 2>/dev/null |
			jq -r --argjson p $PORT '.[] | select(.dport == $p) | "\(.size_given) \(.bounds_given)"'
	done
}
# until every socket has had its first mark, or the run ends: the last listing with
# all four sockets in it counts ("N x SIZE/BOUNDS given" per kind)
seen=""
while kill -0 $pid 2>/dev/null; do
	now=$(told | sort | uniq -c)
	if [ "$(awk '{ n += $1 } END { print n + 0 }' <<<"$now")" = 4 ]; then
		seen=$(awk '{ printf "%s%s x %s/%s", s, $1, $2, $3; s = ", " }' <<<"$now")
		[ "$seen" = "4 x true/true" ] && break
	fi
	sleep 0.05
done
tap_result "the sender's namespace lists the job's 4 MLTCP sockets (size/boundaries given: ${seen:-never 4})" \
	"$([ -n "$seen" ]; echo $?)"
tap_result "... each told its size and its iterations' boundaries ($seen)" \
	"$([ "$seen" = "4 x true/true" ]; echo $?)"
wait $pid
rc=$?
tap_result "mltcp-bench ran the job to the end (exit $rc)" "$([ $rc = 0 ]; echo $?)"
[ $rc = 0 ] || diag_stream <"$out/log"
tap_done
