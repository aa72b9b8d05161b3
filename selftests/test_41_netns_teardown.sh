#!/bin/bash
# A network namespace torn down while MLTCP sockets in it are alive, in every state a
# teardown meets them in:
#  - established connections whose owner left the namespace (it keeps them open from
#    the initial one), with data the peer does not read;
#  - connections in FIN-WAIT-2 (shut down for writing, the peer never closes), and in
#    FIN-WAIT-1 orphaned (closed by their owner with data still unsent);
#  - 64 loopback connections of mltcp-hold, in the middle of an MLTCP socket dump that
#    mltcp-slowdump holds open after its first page.
# The path to the peer goes down, every process in the namespaces is killed and the
# namespaces deleted; then the dump is read to its end, the owner that left closes its
# sockets (more orphans, in a namespace with no process and no name), and everything
# has to go: the host-wide socket counter comes back to where it was within a minute
# (short orphan timers in the namespace), and the algorithms and the core unload,
# which they cannot while any socket still holds them. Whatever the kernel reports on
# the way (use after free, lockdep, leaks) fails the run in scripts/vm-run and under
# the debug kernel (make check-debug).
#
#   NS_S[0] (sender: mltcp_reno and mltcp_cubic; mltcp-hold and the dump on its lo)
#      │ eth0 (set down before the teardown)
#   NS_RT ══ tbf 100 Mbit/s FIFO (bn0) ══> NS_RR ── NS_R[0] (receiver: accepts,
#                                                            never reads)
. "$(dirname "$0")/lib.sh"

ml_need_tools mltcp-hold mltcp-slowdump

tap_plan 8
for m in mltcp_reno mltcp_cubic; do ml_modprobe "$m" || bail "$m loads"; done
dumbbell_setup 100 tbf 1 || bail "dumbbell topology"
S=${NS_S[0]} R=${NS_R[0]} DST=${RCV_IP4[0]} PORT=5301

# host_sockets: MLTCP sockets of every namespace (root, initial namespace)
host_sockets() { "$CTL" -j show --host | jq '[.algorithms[].sockets] | add'; }
base=$(host_sockets) || bail "mltcpctl -j show --host"

# The receiver: accepts and keeps every connection, reads nothing, with a small window.
ml_spawn receiver "$R" python3 -c '
import socket, sys
l = socket.socket()
l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
# a small window, which the unread data closes: what the senders still hold stays
# unsent (an orphan whose data all fit would finish before the teardown)
l.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
l.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"mltcp_cubic")
l.bind(("0.0.0.0", int(sys.argv[1]))); l.listen(64)
print("listening", flush=True)
held = []
while True:
    held.append(l.accept()[0])
' "$PORT"
ml_wait_line "${SPAWN_OUT[receiver]}" '^listening' || bail "the receiver listens"

# The sender, in NS_S: 4 established connections with their send buffers full, 2
# shut down for writing, 2 closed with data unsent (orphans). On "leave" it moves to
# the initial namespace with the established ones; on EOF or "quit" it exits.
ml_spawn sender "$S" python3 -c '
import ctypes, os, socket, sys
dst, port = sys.argv[1], int(sys.argv[2])
def connect(algo):
    s = socket.socket()
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, algo)
    s.connect((dst, port))
    return s
def fill(s):
    s.setblocking(False)
    try:
        while True:
            s.send(bytes(65536))
    except BlockingIOError:
        pass
algos = [b"mltcp_reno", b"mltcp_cubic"]
established = [connect(algos[i % 2]) for i in range(4)]
for s in established:
    fill(s)
shut = [connect(algos[i % 2]) for i in range(2)]
for s in shut:
    s.send(b"x" * 1000)
    s.shutdown(socket.SHUT_WR)
for i in range(2):
    s = connect(algos[i % 2])
    fill(s)
    s.close()
print("ready", flush=True)
for line in sys.stdin:
    if line.strip() == "leave":
        libc = ctypes.CDLL(None, use_errno=True)
        fd = os.open("/proc/1/ns/net", os.O_RDONLY)
        if libc.setns(fd, 0x40000000) != 0:  # CLONE_NEWNET
            print("setns", os.strerror(ctypes.get_errno()), flush=True)
            continue
        os.close(fd)
        # TCP_INFO byte 0 is the state; 1 is ESTABLISHED
        states = [s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0] for s in established]
        print("left", sum(1 for st in states if st == 1), flush=True)
    elif line.strip() == "quit":
        break
' "$DST" "$PORT"

ml_wait_line "${SPAWN_OUT[sender]}" '^ready' || {
	cat "${SPAWN_OUT[sender]}" "${SPAWN_OUT[receiver]}" | diag_stream
	bail "the sender's connections are up"
}

# mltcp-hold's 64 loopback connections make the dump longer than one page.
ml_spawn hold "$S" "$ML_BIN/mltcp-hold" -a mltcp_cubic -n 64
ml_wait_line "${SPAWN_OUT[hold]}" '^ready' || bail "mltcp-hold's connections are up"

# The sender's side as ss sees it: state and congestion control of each connection
ss_states() {
	in_ns "$S" ss -tin "dst $DST" | awk '
		/^[A-Z]/ { st = $1 } / mltcp_(reno|cubic) / { n[st]++ }
		END { for (s in n) print s, n[s] }'
}
sleep 0.5 # the receiver's ACK of the FINs
states=$(ss_states)
diag "sender's MLTCP connections by state: $(tr '\n' ' ' <<<"$states")"
est=$(awk '$1 == "ESTAB" { print $2 }' <<<"$states")
fw1=$(awk '$1 == "FIN-WAIT-1" { print $2 }' <<<"$states")
fw2=$(awk '$1 == "FIN-WAIT-2" { print $2 }' <<<"$states")
[ "${est:-0}" -ge 4 ] && [ "${fw1:-0}" -ge 2 ] && [ "${fw2:-0}" -ge 2 ]
tap_result "before the teardown: MLTCP connections established (${est:-0}), in FIN-WAIT-1 orphaned (${fw1:-0}) and FIN-WAIT-2 (${fw2:-0})" $?

live=$(host_sockets)
diag "MLTCP sockets host-wide: $base before, $live now"
[ "$live" -ge $((base + 8 + 64)) ]
tap_result "the host-wide counter holds them ($live sockets, $base before the test)" $?

# Dumps all along: mltcpctl and ss in both namespaces, and one held open by its reader.
for ns in "$S" "$R"; do
	ip netns exec "$ns" bash -c "while :; do '$CTL' -j sockets; ss -tin; sleep 0.05; done" >/dev/null 2>&1 &
	at_exit "kill -9 $!"
	dumpers+=("$!")
done
ml_spawn dump "$S" "$ML_BIN/mltcp-slowdump" -c sockets
dump=${SPAWN_OUT[dump]}
ml_wait_line "$dump" '^first' || bail "mltcp-slowdump read the dump's first page"
first=$(awk '$1 == "first" { print $2 }' "$dump")
# still in flight: mltcp-slowdump waits for "go" only when the dump has more pages
grep -qE '^(done|error)' "$dump" && inflight=0 || inflight=1

# The teardown: no path, the owner of the established connections leaves, every
# process in the namespaces dies, the namespaces are deleted. Set only now (the
# receiver answers the orphans' window probes until then): an orphan gives up after
# one unanswered probe, FIN-WAIT-2 lasts 2 s.
in_ns "$S" sysctl -qw net.ipv4.tcp_orphan_retries=1 net.ipv4.tcp_fin_timeout=2
in_ns "$S" ip link set eth0 down
echo leave >&"${SPAWN_IN[sender]}"
ml_wait_line "${SPAWN_OUT[sender]}" '^left\|^setns' || bail "the sender answered"
left=$(awk '$1 == "left" { print $2 }' "${SPAWN_OUT[sender]}")
kill -9 "${SPAWN_PID[hold]}" "${SPAWN_PID[receiver]}" "${dumpers[@]}"
wait "${SPAWN_PID[hold]}" "${SPAWN_PID[receiver]}" "${dumpers[@]}" 2>/dev/null
"$_topology" down "$_ns_prefix" "${_dumbbell[@]}" >/dev/null 2>&1
gone=1
for ns in $(ip netns list | awk '{ print $1 }'); do
	[[ $ns == "$_ns_prefix"-* ]] && gone=0
done
[ "${left:-0}" = 4 ] && [ $gone = 1 ]
tap_result "the namespaces are deleted while the sender, gone to the initial namespace, keeps its 4 connections established (${left:-none})" $?

echo go >&"${SPAWN_IN[dump]}"
ml_wait_line "$dump" '^done\|^error'
end=$(grep -E '^(done|error)' "$dump")
diag "mltcp-slowdump: first page $first sockets, then: ${end:-nothing}"
[ $inflight = 1 ] && [[ $end == "done "* ]] && [ "${end#done }" -ge "$first" ]
tap_result "the socket dump held open after its first page ($first sockets) across the teardown reads to its end (${end:-no end})" $?
ml_spawn_close dump
wait "${SPAWN_PID[dump]}"
tap_result "mltcp-slowdump exits 0" $?

echo quit >&"${SPAWN_IN[sender]}"
ml_spawn_close sender
wait "${SPAWN_PID[sender]}"
tap_result "the sender closes its connections and exits" $?

now=
for _ in $(seq 120); do
	now=$(host_sockets)
	[ "$now" -le "$base" ] && break
	sleep 0.5
done
diag "MLTCP sockets host-wide after the teardown: $now"
[ "$now" = "$base" ]
tap_result "every socket of the torn-down namespaces is gone from the counter within 60 s ($now, $base before)" $?

# unload_all: the algorithms, then the core; a socket still holding one refuses it
unload_all() { ml_unload mltcp_reno && ml_unload mltcp_cubic && ml_unload mltcp; }
tap_check "then mltcp_reno, mltcp_cubic and the core mltcp unload" unload_all
tap_done
