#!/bin/bash
# The BPF backend against a hostile root and against teardown with live connections:
#  - for 4 s a writer fills every map of the backend with random bytes through the
#    bpf system call (the per-socket state "socks" and "hints" of its own connections,
#    "params", "counters") while those connections, on each MLTCP algorithm, send;
#    the kernel logs no warning, the socket iterator still answers (listing those
#    connections whose state still says "initialised"), `mltcpctl show` shows the
#    parameters as the hooks use them (clamped into their ranges), and a new
#    connection still carries a flow;
#  - a cgroup attached to mltcp_reno is detached while a connection it gave mltcp_reno
#    runs: the connection keeps it and runs to its end, and the next one of the cgroup
#    gets the namespace's default;
#  - the backend unloads while the writer's connections, with the state it wrote,
#    are still open; they close afterwards; nothing stays registered or pinned.
#
#   [ NS: lo ]  the writer's loopback connections (2 per algorithm, drained by
#               threads), iperf3 client (in and out of the cgroup CG) and server
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib_native.sh"
. "$(dirname "$0")/../lib_ecn.sh"

tap_plan 10
native_preconditions
attach_cgroup CG mltcp-hostile || bail "a cgroup v2 directory for the test"
bpf_fresh
tap_check "mltcpctl bpf load" "$MLTCPCTL" bpf load || tap_done
ml_netns NS lo
in_ns "$NS" sysctl -qw net.ipv4.tcp_congestion_control=reno
in_net() { nsenter --net="/run/netns/$NS" "$@"; }
tmp=$(mktemp -d)
at_exit "rm -rf $tmp"
dmesg_lines=$(dmesg | wc -l)

mkfifo "$tmp/writer.in"
in_net python3 -c '
import collections, ctypes, json, os, random, socket, struct, sys, threading, time
libc = ctypes.CDLL(None, use_errno=True)
SYS_bpf, OBJ_GET, UPDATE, INFO = 321, 7, 2, 15
def bpf(cmd, attr):
    buf = ctypes.create_string_buffer(attr, 128)
    r = libc.syscall(SYS_bpf, cmd, buf, 128)
    return r if r >= 0 else -ctypes.get_errno()
def obj_get(path):
    p = ctypes.create_string_buffer(path.encode())
    return bpf(OBJ_GET, struct.pack("QIIi", ctypes.addressof(p), 0, 0, 0))
def map_info(fd):  # key_size, value_size, max_entries of struct bpf_map_info
    info = ctypes.create_string_buffer(80)
    bpf(INFO, struct.pack("IIQ", fd, 80, ctypes.addressof(info)))
    return struct.unpack_from("IIIII", info.raw)[2:5]
maps = {}
for name in ("socks", "hints", "params", "counters"):
    fd = obj_get("/sys/fs/bpf/mltcp/" + name)
    if fd < 0:
        sys.exit("open %s: %s" % (name, os.strerror(-fd)))
    maps[name] = (fd,) + map_info(fd)
l = socket.socket()
l.bind(("127.0.0.1", 0)); l.listen(16)
def drain(s):
    while s.recv(1 << 16):
        pass
conns = []
for algo in (b"mltcp_reno", b"mltcp_cubic", b"mltcp_dctcp") * 2:
    c = socket.socket()
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, algo)
    c.connect(l.getsockname())
    threading.Thread(target=drain, args=(l.accept()[0],), daemon=True).start()
    c.setblocking(False)
    conns.append(c)
seen = collections.Counter()
end = time.time() + float(sys.argv[1])
while time.time() < end:
    name = random.choice(list(maps))
    fd, ksize, vsize, nmax = maps[name]
    if name in ("socks", "hints"):
        key = struct.pack("i", random.choice(conns).fileno())
    else:
        key = struct.pack("I", random.randrange(nmax))
    k = ctypes.create_string_buffer(key, ksize)
    v = ctypes.create_string_buffer(os.urandom(vsize), vsize)
    r = bpf(UPDATE, struct.pack("IIQQQ", fd, 0, ctypes.addressof(k), ctypes.addressof(v), 0))
    seen[name + (" ok" if r >= 0 else " " + os.strerror(-r))] += 1
    try:
        random.choice(conns).send(bytes(16384))
    except BlockingIOError:
        pass
print(json.dumps(seen), flush=True)
sys.stdin.readline()
for c in conns:
    c.close()
print("closed", flush=True)
' 4 <"$tmp/writer.in" >"$tmp/writer" 2>&1 &
writer=$!
exec {to_writer}>"$tmp/writer.in"
at_exit "kill -9 $writer"
for _ in $(seq 300); do
	grep -q '^{' "$tmp/writer" && break
	kill -0 $writer 2>/dev/null || break
	sleep 0.1
done
seen=$(grep '^{' "$tmp/writer")
diag "map updates: ${seen:-$(cat "$tmp/writer")}"
for m in socks hints params counters; do
	[ "$(jq --arg k "$m ok" '.[$k] // 0' <<<"${seen:-{\}}")" -gt 0 ] || miss+=" $m"
done
[ -n "$seen" ] && [ -z "${miss:-}" ]
tap_result "root wrote random bytes into every map while the connections sent (the premise${miss:+; not:$miss})" $?

new=$(dmesg | tail -n +$((dmesg_lines + 1)) | grep -E 'WARNING|BUG|Oops|general protection')
[ -z "$new" ]
tap_result "the kernel logged no warning${new:+: $new}" $?

n=$(in_net "$MLTCPCTL" -j sockets | jq 'length')
show=$("$MLTCPCTL" -j show)
diag "after the writes: $n sockets listed; $(jq -c '{slope_q10, intercept_q10, idle_ms, stagger_q10}' <<<"$show")"
[ -n "$n" ] && [ "$n" -le 6 ] && jq -e '.slope_q10 <= 8192 and .intercept_q10 >= 1 and
	.intercept_q10 <= 8192 and .idle_ms >= 1 and .idle_ms <= 60000 and
	.stagger_q10 <= 1024' <<<"$show" >/dev/null
tap_result "the socket iterator answers (${n:-no} of the 6 listed) and show gives the parameters in their ranges" $?

"$MLTCPCTL" set slope 0.5 intercept 1.25 idle_ms 100 >/dev/null
in_ns "$NS" iperf3 -s -p 5201 >/dev/null 2>&1 &
at_exit "kill $! 2>/dev/null"
wait_port "$NS" 5201
mbit=$(in_ns "$NS" iperf3 -c 127.0.0.1 -p 5201 -t 1 -C mltcp_cubic -J |
	jq -r '.end.sum_received.bits_per_second / 1e6 | floor')
[ "${mbit:-0}" -gt 100 ] 2>/dev/null
tap_result "a new mltcp_cubic connection carries a flow (${mbit:-no} Mbit/s)" $?

# Detach while a connection the attachment gave mltcp_reno runs.
tap_check "attach $CG mltcp_reno" "$MLTCPCTL" attach "$CG" mltcp_reno
nsenter --net="/run/netns/$NS" bash -c "echo \$\$ > $CG/cgroup.procs
	exec iperf3 -c 127.0.0.1 -p 5201 -t 4 -J" >"$tmp/flow.json" &
flow=$!
sleep 1.5
"$MLTCPCTL" detach "$CG"
rc=$?
wait $flow
cc=$(jq -r .end.sender_tcp_congestion "$tmp/flow.json")
slowest=$(jq '[.intervals[].sum.bits_per_second] | min / 1e6 | floor' "$tmp/flow.json")
[ $rc = 0 ] && [ "$cc" = mltcp_reno ] && [ "${slowest:-0}" -gt 10 ] 2>/dev/null
tap_result "detached while its connection ran: it kept $cc and ran to its end (slowest second ${slowest:-?} Mbit/s)" $?
cc=$(nsenter --net="/run/netns/$NS" bash -c "echo \$\$ > $CG/cgroup.procs
	exec iperf3 -c 127.0.0.1 -p 5201 -t 1 -J" | jq -r .end.sender_tcp_congestion)
[ "$cc" = reno ]
tap_result "the cgroup's next connection gets the default ($cc)" $?

# Unload under the writer's open connections, then let them close.
"$MLTCPCTL" bpf unload >/dev/null
rc=$?
echo quit >&"$to_writer"
exec {to_writer}>&-
wait $writer
grep -q '^closed' "$tmp/writer" && [ $rc = 0 ] && [ ! -e /sys/fs/bpf/mltcp ] &&
	! ca_listed mltcp_reno && ! ca_listed mltcp_cubic && ! ca_listed mltcp_dctcp
tap_result "unloaded with the written-over connections open, which then closed; nothing left registered or pinned" $?
new=$(dmesg | tail -n +$((dmesg_lines + 1)) | grep -E 'WARNING|BUG|Oops|general protection')
[ -z "$new" ]
tap_result "still no kernel warning${new:+: $new}" $?
tap_done
