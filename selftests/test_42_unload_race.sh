#!/bin/bash
# Unloading the modules races the control paths that reach into them:
#  - a socket dump held open after its first page (mltcp-slowdump) keeps the core
#    loaded: once the 64 connections it walks have closed, mltcp_reno unloads, but the
#    core fails with EBUSY or EAGAIN until the reader has read the dump to its end;
#  - for ROUNDS rounds (MLTCP_UNLOAD_ROUNDS, default 12) mltcp_reno and the core are
#    loaded and unloaded while, all the time, two processes open connections that ask
#    for mltcp_reno and call every per-socket MLTCP option on them (libmltcp), and two
#    more make netlink requests (mltcpctl show and sockets, a socket and a counters dump)
#    and set a parameter. Every unload succeeds within 10 s of its first attempt (a call
#    in progress holds the module only for its length); every option call that failed
#    failed with an errno libmltcp documents for a module that is not there or a socket
#    that is not on MLTCP (TCP_CONGESTION: ENOENT, or EBUSY while the module unloads);
#    the option calls succeeded in some rounds and found no module
#    in others (the race was run); mltcpctl never died of a signal.
# The kernel's own reports (use after free of an unloaded module's code or data,
# lockdep) fail the run in scripts/vm-run and under the debug kernel.
#
#   [ NS: lo ]  loopback connections (the racers) and the netlink requests
. "$(dirname "$0")/lib.sh"

ml_need_tools mltcp-hold mltcp-slowdump
ROUNDS=${MLTCP_UNLOAD_ROUNDS:-12}
tap_plan 7
for m in mltcp_reno mltcp_cubic mltcp_dctcp mltcp; do
	[ -d "/sys/module/$m" ] && modprobe -r "$m" 2>/dev/null
done
[ -d /sys/module/mltcp ] && bail "the modules unload before the test (something still uses them)"
at_exit "modprobe -r mltcp_reno mltcp"
ml_netns NS lo || bail "network namespace"
tmp=$(mktemp -d)
at_exit "rm -rf $tmp"

# ---- a dump held open keeps the core loaded
modprobe mltcp_reno || bail "mltcp_reno loads"
ml_spawn hold "$NS" "$ML_BIN/mltcp-hold" -a mltcp_reno -n 64
ml_wait_line "${SPAWN_OUT[hold]}" '^ready' || bail "mltcp-hold's 64 connections are up"
ml_spawn dump "$NS" "$ML_BIN/mltcp-slowdump" -c sockets
dump=${SPAWN_OUT[dump]}
ml_wait_line "$dump" '^first' || bail "mltcp-slowdump read the first page of a socket dump"
grep -qE '^(done|error)' "$dump" && inflight=0 || inflight=1
# the sockets go, the dump stays
echo quit >&"${SPAWN_IN[hold]}"
ml_spawn_close hold
wait "${SPAWN_PID[hold]}"
ml_unload mltcp_reno >"$tmp/r_algo"
r_algo=$?
r_core=$(ml_try_unload mltcp)
diag "with the dump open: mltcp_reno unloaded: exit $r_algo $(cat "$tmp/r_algo"); delete_module(mltcp): $r_core"
[ $inflight = 1 ] && [ $r_algo = 0 ] && [[ $r_core == EBUSY || $r_core == EAGAIN ]] &&
	[ -d /sys/module/mltcp ]
tap_result "while a socket dump is open the core cannot unload ($r_core); mltcp_reno can once its sockets closed" $?
echo go >&"${SPAWN_IN[dump]}"
ml_spawn_close dump
ml_wait_line "$dump" '^done\|^error'
wait "${SPAWN_PID[dump]}"
rc=$?
end=$(grep -E '^(done|error)' "$dump")
first=$(head -n 1 "$dump")
[ $rc = 0 ] && [[ $end == "done "* ]]
tap_result "the dump is read to its end ($first, then ${end:-nothing}; exit $rc)" $?
tap_check "then the core unloads" ml_unload mltcp

# ---- the rounds, with the racers running all along
stop=$tmp/stop
ip netns exec "$NS" env MLTCP_LIBRARY="$ML_LIB/libmltcp.so.1" python3 -c '
import collections, ctypes, errno, json, os, socket, sys, threading
lib = ctypes.CDLL(os.environ["MLTCP_LIBRARY"], use_errno=True)
stop = sys.argv[1]
seen = collections.Counter()
lock = threading.Lock()
def call(name, *args):
    r = getattr(lib, name)(*args)
    e = "ok" if r == 0 else errno.errorcode.get(ctypes.get_errno(), "?")
    with lock:
        seen[e] += 1
def race():
    l = socket.socket()
    l.bind(("127.0.0.1", 0)); l.listen(128)
    info = ctypes.create_string_buffer(512)
    while not os.path.exists(stop):
        c = socket.socket()
        try:
            c.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"mltcp_reno")
        except OSError as e:
            with lock:
                seen["TCP_CONGESTION " + errno.errorcode.get(e.errno, "?")] += 1
        call("mltcp_set_bytes_per_iter", c.fileno(), ctypes.c_uint64(1 << 20))
        c.connect(l.getsockname())
        a = l.accept()[0]
        call("mltcp_set_bytes_per_iter", c.fileno(), ctypes.c_uint64(1 << 20))
        call("mltcp_set_tiebreak", c.fileno(), ctypes.c_uint32(512))
        call("mltcp_iteration_begin", c.fileno(), ctypes.c_uint64(0))
        c.send(bytes(4096))
        call("mltcp_get_state", c.fileno(), info)
        c.close(); a.close()
threads = [threading.Thread(target=race) for _ in range(2)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps(seen))
' "$stop" >"$tmp/racer" 2>&1 &
racer=$!
at_exit "touch $stop; kill -9 $racer"
for i in 1 2; do
	ip netns exec "$NS" bash -c "n=0
		while [ ! -e '$stop' ]; do
			for c in 'show' 'sockets' 'show --host' 'set idle_ms 100'; do
				'$CTL' -j \$c >/dev/null 2>&1; rc=\$?
				[ \$rc -ge 128 ] && echo \"signal: mltcpctl \$c exit \$rc\"
				n=\$((n + 1))
			done
		done
		echo calls \$n" >"$tmp/nl$i" 2>&1 &
	nl[i]=$!
	at_exit "kill -9 ${nl[i]}"
done

loaded=0 unloaded=0
for r in $(seq "$ROUNDS"); do
	modprobe mltcp_reno && loaded=$((loaded + 1))
	sleep 0.5
	ml_unload mltcp_reno >>"$tmp/unload" && ml_unload mltcp >>"$tmp/unload" &&
		unloaded=$((unloaded + 1))
	sleep 0.3
done
touch "$stop"
wait "$racer" "${nl[1]}" "${nl[2]}"
diag "unload failures: $(tr '\n' ' ' <"$tmp/unload")"
[ $loaded = "$ROUNDS" ] && [ $unloaded = "$ROUNDS" ]
tap_result "$ROUNDS rounds: mltcp_reno loaded $loaded times, it and the core unloaded $unloaded times within 10 s" $?

seen=$(tail -n 1 "$tmp/racer")
diag "the option calls: $seen"
# documented errnos: ENOPROTOOPT (no module), EOPNOTSUPP (not on MLTCP; Python names
# it ENOTSUP, the same number on Linux), and TCP_CONGESTION's ENOENT (no such algorithm
# loaded) or EBUSY (the kernel's answer for an algorithm whose module is unloading)
bad=$(jq -r 'to_entries[] | select(.key |
	test("^(ok|ENOPROTOOPT|EOPNOTSUPP|ENOTSUP|TCP_CONGESTION (ENOENT|EBUSY))$") | not)
	| "\(.key) \(.value)"' <<<"$seen" 2>&1)
[ -n "$seen" ] && [ -z "$bad" ]
tap_result "every option call that failed failed with a documented errno (${bad:-none other})" $?
okn=$(jq '.ok // 0' <<<"$seen" 2>/dev/null)
absent=$(jq '.ENOPROTOOPT // 0' <<<"$seen" 2>/dev/null)
[ "${okn:-0}" -gt 0 ] && [ "${absent:-0}" -gt 0 ]
tap_result "the calls raced the module: ${okn:-0} succeeded, ${absent:-0} found no module" $?

signals=$(cat "$tmp/nl1" "$tmp/nl2" | grep -c '^signal')
calls=$(cat "$tmp/nl1" "$tmp/nl2" | awk '$1 == "calls" { n += $2 } END { print n + 0 }')
grep '^signal' "$tmp/nl1" "$tmp/nl2" | diag_stream
[ "$signals" = 0 ] && [ "$calls" -gt 0 ]
tap_result "$calls netlink requests during the rounds, none died of a signal" $?
tap_done
