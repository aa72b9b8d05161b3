#!/bin/bash
# The "mltcp" generic netlink family through mltcpctl:
#  - a clear message when the module is not loaded;
#  - show (table and JSON) with the parameters and per-algorithm counters (those of
#    a namespace in it, all of them with --host: test_39_netns_counters.sh);
#  - "sockets -j" lists exactly the MLTCP sockets of the caller's namespace (IPv4 and
#    IPv6, 5-tuple and state, the phase included, matching what the sockets' owner
#    reads with libmltcp), not the non-MLTCP connections there nor the MLTCP sockets
#    of another namespace;
#  - "metrics FILE" writes the counters and the sockets per phase as Prometheus text
#    (promtool check metrics), replacing the file at once;
#  - "set" changes F of existing and new sockets as documented (and mode off/given);
#  - "set tiebreak-key FILE" (and from stdin): show tells a key is set and never shows
#    it; a new connection, IPv4 or IPv6, draws at both ends the tie-break computed here
#    with SipHash-2-4 under the key (selftests/tiebreak.py), a connection made before a
#    new key keeps its own;
#  - as an unprivileged user (setpriv --reuid=nobody), and as root of an
#    unprivileged user namespace, set fails with EPERM and changes nothing, while
#    show works and sockets lists the caller's own sockets only; uid 0 without
#    CAP_NET_ADMIN cannot write the module's parameter files either;
#  - libmltcp-preload.so gives an unmodified program (iperf3) MLTCP, its bytes
#    per iteration and, with MLTCP_TIEBREAK=job, the tie-break of its Slurm job.
. "$(dirname "$0")/lib.sh"

ml_need_tools mltcp-hold

tap_plan 26

# ---- module not loaded
if [ ! -d /sys/module/mltcp ]; then
	out=$("$CTL" show 2>&1)
	rc=$?
	[ $rc = 1 ] && grep -q "MLTCP module is not loaded" <<<"$out"
	tap_result "without the module: exit 1 and \"$out\"" $?
else
	skip "mltcpctl without the module" "mltcp already loaded"
fi

ml_modprobe mltcp_reno && ml_modprobe mltcp_cubic || bail "load mltcp_reno and mltcp_cubic"
orig=$("$CTL" -j show) || bail "mltcpctl -j show"
vals=$(python3 -c '
import json, sys
p = json.loads(sys.argv[1])
print(p["slope"], p["intercept"], p["idle_ms"], p["mode"], "on" if p["decrease"] else "off", p["stagger"])' "$orig")
read -r o_slope o_icpt o_idle o_mode o_decr o_stag <<<"$vals"
at_exit "'$CTL' set slope $o_slope intercept $o_icpt idle_ms $o_idle mode $o_mode decrease $o_decr stagger $o_stag"
"$CTL" set slope 1 intercept 1 idle_ms 10 mode learned decrease on stagger 0.25 ||
	bail "mltcpctl set defaults"

out=$("$CTL" show)
grep -q "slope 1 intercept 1" <<<"$out" && grep -q "^mltcp_reno " <<<"$out" &&
	grep -q "idle_ms 10 mode learned" <<<"$out"
tap_result "mltcpctl show: parameters and a counter line per algorithm" $?
printf '%s\n' "$out" | diag_stream

python3 - "$("$CTL" -j show)" <<'P'
import json, sys
p = json.loads(sys.argv[1])
names = {a["name"] for a in p["algorithms"]}
assert p["abi_version"] == 3 and p["slope_q10"] == 1024 and p["intercept_q10"] == 1024
assert p["idle_ms"] == 10 and p["mode"] == "learned"
assert p["decrease"] is True and p["stagger_q10"] == 256 and p["stagger"] == 0.25
assert {"mltcp_reno", "mltcp_cubic"} <= names, names
assert p["counters"] == "netns"
for a in p["algorithms"]:
    assert set(a) == {"name", "sockets", "sockets_total", "iterations_learned", "iterations_given"}
P
tap_result "mltcpctl -j show: valid JSON with parameters and counters" $?

# ---- held connections: NAME NS ARGS...; lines in HOLD_<NAME> after hold_read NAME
hold_dir=$(mktemp -d)
at_exit "rm -rf $hold_dir"
declare -A HOLD_W HOLD_R
hold_start() {
	local name=$1 ns=$2 w r
	shift 2
	mkfifo "$hold_dir/$name.in" "$hold_dir/$name.out"
	# shellcheck disable=SC2086  # HOLD_AS: a command prefix, e.g. setpriv ...
	in_ns "$ns" ${HOLD_AS:-} "$ML_BIN/mltcp-hold" "$@" <"$hold_dir/$name.in" \
		>"$hold_dir/$name.out" &
	at_exit "kill $! 2>/dev/null"
	exec {w}>"$hold_dir/$name.in"
	exec {r}<"$hold_dir/$name.out"
	HOLD_W[$name]=$w
	HOLD_R[$name]=$r
}
# hold_read NAME: the connection lines up to "ready", into $hold_out
hold_read() {
	local line
	hold_out=""
	while IFS= read -r -t 30 line <&"${HOLD_R[$1]}"; do
		[ "$line" = ready ] && return 0
		hold_out+="$line"$'\n'
	done
	return 1
}
hold_state() {
	echo state >&"${HOLD_W[$1]}"
	hold_read "$1"
}

ml_netns NS_A a && ml_netns NS_B b || bail "network namespaces"
hold_start a "$NS_A" -a mltcp_reno -n 4 -b 1048576 -s 524288
hold_read a || bail "mltcp-hold in namespace a"
held_a=$hold_out
hold_start b "$NS_B" -a mltcp_cubic -n 1
hold_read b || bail "mltcp-hold in namespace b"
held_b=$hold_out
# a connection on a non-MLTCP algorithm in namespace a
in_ns "$NS_A" iperf3 -s -1 -p 5299 -D >/dev/null 2>&1
wait_port "$NS_A" 5299 2>/dev/null || sleep 1
in_ns "$NS_A" iperf3 -c 127.0.0.1 -p 5299 -t 20 -b 1M -C cubic >/dev/null 2>&1 &
at_exit "kill $! 2>/dev/null"
sleep 1
printf '%s' "$held_a" | diag_stream

# compare HELD SOCKETS_JSON [SLOPE INTERCEPT MODE]: the dump lists exactly the held
# connections with the state their owner reads; F as expected from the parameters
compare='
import json, sys
held, dump = sys.argv[1], json.loads(sys.argv[2])
want = {}
for line in held.splitlines():
    _, i, fam, src, sport, dst, dport, bpi, this, f, iters, algo, phase = line.split()
    want[(fam, src, int(sport), dst, int(dport))] = dict(
        bytes_per_iter=int(bpi), bytes_this_iter=int(this), f_q10=int(f),
        iterations=int(iters), algo=algo, phase=phase)
mode = sys.argv[5] if len(sys.argv) > 3 else "learned"
# an idle held socket: the phase of F (base in mode off), or a yield its samples never ended
phases = ("base", "yield") if mode == "off" else ("ramp", "yield")
got = {(s["family"], s["src"], s["sport"], s["dst"], s["dport"]): s for s in dump}
if set(got) != set(want):
    sys.exit("dump %s != held %s" % (sorted(got), sorted(want)))
for k, w in want.items():
    s = got[k]
    for field, v in w.items():
        if s[field] != v:
            sys.exit("%s: %s %s != %s" % (k, field, s[field], v))
    if s["state"] != "ESTAB" or not s["size_given"] or not s["bounds_given"] or s["cwnd"] < 1:
        sys.exit("%s: %s" % (k, s))
    if s["phase"] not in phases:
        sys.exit("%s: phase %s, want one of %s" % (k, s["phase"], phases))
    if len(sys.argv) > 3:
        slope, icpt, mode = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
        ratio = (s["bytes_this_iter"] << 10) // s["bytes_per_iter"]
        # the tie-break is a head start of tiebreak * stagger (0.25 here)
        ahead = min(1024, ratio + ((s["tiebreak_q10"] * 256) >> 10))
        f = 1024 if mode == "off" else ((slope * ahead) >> 10) + icpt
        if s["bytes_ratio_q10"] != ratio or s["f_q10"] != f:
            sys.exit("%s: ratio %d f %d, want %d %d" % (k, s["bytes_ratio_q10"], s["f_q10"], ratio, f))
fams = {k[0] for k in got}
print("%d sockets, families %s, phases %s" % (len(got), sorted(fams),
                                             sorted({s["phase"] for s in got.values()})))
'
dump_a=$(in_ns "$NS_A" "$CTL" -j sockets)
msg=$(python3 -c "$compare" "$held_a" "$dump_a" 1024 1024 learned 2>&1)
tap_result "sockets -j in namespace a: exactly its 4 MLTCP sockets with their state ($msg)" $?
msg=$(python3 -c "$compare" "$held_b" "$(in_ns "$NS_B" "$CTL" -j sockets)" 2>&1)
tap_result "sockets -j in namespace b: exactly its mltcp_cubic socket ($msg)" $?
out=$(in_ns "$NS_A" "$CTL" sockets)
printf '%s\n' "$out" | diag_stream
[ "$(grep -c ESTAB <<<"$out")" = 4 ] && grep -q '\[::1\]:' <<<"$out" && grep -q '127.0.0.1:' <<<"$out" &&
	grep -q ' Algorithm  *Phase ' <<<"$out" &&
	[ "$(grep -Ec ' mltcp_reno  +(ramp|yield) ' <<<"$out")" = 4 ]
tap_result "sockets table: 4 rows, IPv4 and IPv6 endpoints, each with its phase" $?

# ---- metrics: the counters and the phases in the Prometheus text format, the file
# replaced at once (node_exporter's textfile collector)
prom=$hold_dir/mltcp.prom
echo stale >"$prom"
sum_phases() { awk -v re="$1" '$0 ~ "^mltcp_phase_sockets[{]phase=\"(" re ")\"[}]" { n += $2 } END { print n + 0 }' "$prom"; }
out=$(in_ns "$NS_A" "$CTL" metrics "$prom" 2>&1) && promtool check metrics <"$prom" &&
	grep -qx 'mltcp_sockets{algo="mltcp_reno"} 4' "$prom" &&
	[ "$(sum_phases 'ramp|yield')" = 4 ] && [ "$(sum_phases '[a-z]+')" = 4 ] &&
	! compgen -G "$prom.*" >/dev/null
rc=$?
[ $rc = 0 ] || { diag "$out"; diag_stream <"$prom"; }
tap_result "metrics FILE in namespace a: promtool accepts it, 4 mltcp_reno sockets, all in F's ramp or a yield, no temporary file left" $rc

# ---- set changes existing and new sockets
tap_check "mltcpctl set slope 2 intercept 0.5" "$CTL" set slope 2 intercept 0.5
hold_state a && held_a=$hold_out
msg=$(python3 -c "$compare" "$held_a" "$(in_ns "$NS_A" "$CTL" -j sockets)" 2048 512 learned 2>&1)
tap_result "existing sockets use the new F = 2 * ratio + 0.5 ($msg)" $?
hold_start c "$NS_A" -a mltcp_cubic -n 2 -b 2000000 -s 1500000
hold_read c && held_c=$hold_out
msg=$(python3 -c "$compare" "$held_a$held_c" "$(in_ns "$NS_A" "$CTL" -j sockets)" 2048 512 learned 2>&1)
tap_result "new sockets use it too, and the dump now lists 6 ($msg)" $?
"$CTL" set mode off
hold_state a && held_a=$hold_out
hold_state c && held_c=$hold_out
msg=$(python3 -c "$compare" "$held_a$held_c" "$(in_ns "$NS_A" "$CTL" -j sockets)" 2048 512 off 2>&1)
tap_result "mode off: F = 1 for all sockets ($msg)" $?
"$CTL" set mode given
hold_state a && held_a=$hold_out
hold_state c && held_c=$hold_out
msg=$(python3 -c "$compare" "$held_a$held_c" "$(in_ns "$NS_A" "$CTL" -j sockets)" 2048 512 given 2>&1)
tap_result "mode given: sockets with hints use F ($msg)" $?

# params_now: the global parameters as JSON, without the per-algorithm counters (which
# the held connections keep moving)
params_now() {
	"$CTL" -j show | python3 -c '
import json, sys
p = json.load(sys.stdin)
p.pop("algorithms")
print(json.dumps(p, sort_keys=True))'
}

# ---- decrease and stagger (ABI 2): netlink and the module parameters agree
P=/sys/module/mltcp/parameters
"$CTL" set decrease off stagger 0.5 && [ "$(cat $P/decrease)" = N ] &&
	[ "$(cat $P/stagger)" = 0.5 ]
tap_result "mltcpctl set decrease off stagger 0.5: sysfs reads N and 0.5" $?
before=$(params_now)
out=$("$CTL" set stagger 1.5 decrease on 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "invalid stagger" <<<"$out" && [ "$(params_now)" = "$before" ]
tap_result "set stagger 1.5: usage error, nothing changed (\"$out\")" $?
"$CTL" set decrease on stagger 0.25

# ---- the tie-break key: hosts given one key draw alike at both ends of a connection
TIEBREAK=$(cd "$(dirname "$0")" && pwd)/tiebreak.py
newkey() { od -An -tx1 -N16 /dev/urandom | tr -d ' \n'; }
key1=$(newkey)
key2=$(newkey)
key3=$(newkey)
keyfile=$hold_dir/key1
(umask 077 && echo "$key1" >"$keyfile" && echo "$key2" >"$hold_dir/key2")
out=$("$CTL" set tiebreak-key "$keyfile" 2>&1) &&
	json=$("$CTL" -j show) && text=$("$CTL" show) &&
	python3 -c 'import json, sys; assert json.loads(sys.argv[1])["tiebreak_key_set"] is True' "$json" &&
	grep -qx 'tiebreak_key set (hosts with the same key draw alike)' <<<"$text" &&
	! grep -qi "$key1" <<<"$json$text"
tap_result "set tiebreak-key FILE: show -j and show tell a key is set, never the key (\"$out\")" $?
msg=$(python3 "$TIEBREAK" "$key1" "$key2" "$CTL" set tiebreak-key "$hold_dir/key2" 2>&1)
rc=$?
printf '%s\n' "$msg" | diag_stream
tap_result "IPv4: both ends draw SipHash-2-4 under the key; after a new key, a new connection draws under it and the old one keeps its own" $rc
msg=$(python3 "$TIEBREAK" -6 -a mltcp_cubic "$key2" "$key3" \
	bash -c "echo $key3 | '$CTL' set tiebreak-key -" 2>&1)
rc=$?
printf '%s\n' "$msg" | diag_stream
tap_result "IPv6, mltcp_cubic, a key from stdin: the same" $rc

# ---- privilege
before=$(params_now)
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$CTL" set slope 3 intercept 2 2>&1)
rc=$?
[ $rc = 1 ] && grep -q "permission denied" <<<"$out"
tap_result "as nobody, set fails with EPERM: \"$out\"" $?
[ "$(params_now)" = "$before" ]
tap_result "and nothing changed" $?
# a socket's iteration timing is its owner's to see: nobody's dump lists nobody's own
# MLTCP connection in namespace a and none of root's six there; root's lists all seven
NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups"
ml_sysctl_restore net.ipv4.tcp_allowed_congestion_control
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$(sysctl -n net.ipv4.tcp_allowed_congestion_control) mltcp_reno"
HOLD_AS=$NOBODY hold_start n "$NS_A" -a mltcp_reno -n 1
hold_read n || diag "mltcp-hold as nobody: $hold_out"
held_n=$hold_out
msg=$($NOBODY "$CTL" -j show >/dev/null &&
	python3 -c "$compare" "$held_n" "$(in_ns "$NS_A" $NOBODY "$CTL" -j sockets)" 2>&1)
tap_result "as nobody, show works and sockets lists nobody's own socket only ($msg)" $?
n=$(in_ns "$NS_A" "$CTL" -j sockets | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
[ "$n" = 7 ]
tap_result "root's dump lists every MLTCP socket of the namespace, nobody's too ($n of 7)" $?
echo quit >&"${HOLD_W[n]}"
# uid 0 without CAP_NET_ADMIN: the module's parameter files refuse it like netlink does
p=/sys/module/mltcp/parameters
out=$(setpriv --inh-caps=-net_admin --bounding-set=-net_admin bash -c "echo 0 >$p/overrun" 2>&1)
rc=$?
[ $rc != 0 ] && grep -q "not permitted" <<<"$out" && [ "$(params_now)" = "$before" ]
tap_result "uid 0 without CAP_NET_ADMIN: writing $p/overrun fails with EPERM, nothing changed (\"$out\")" $?
if setpriv --reuid=nobody --regid=nogroup --clear-groups unshare -Urn true 2>/dev/null; then
	# a copy nobody can reach: in its own user namespace it cannot enter a checkout
	# under /root (0700)
	uctl=$(mktemp -d)
	at_exit "rm -rf $uctl"
	chmod 755 "$uctl" && cp "$CTL" "$uctl/mltcpctl" || bail "copy mltcpctl to $uctl"
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups unshare -Urn "$uctl/mltcpctl" set slope 3 2>&1)
	rc=$?
	[ $rc = 1 ] && grep -q "permission denied" <<<"$out" && [ "$(params_now)" = "$before" ] ||
		diag "exit $rc: \"$out\"; parameters before: $before; now: $(params_now)"
	[ $rc = 1 ] && grep -q "permission denied" <<<"$out" && [ "$(params_now)" = "$before" ]
	tap_result "root of an unprivileged user namespace: EPERM, nothing changed" $?
else
	skip "root of an unprivileged user namespace" "unprivileged user namespaces disabled"
fi

# ---- closing the held sockets removes them from the dump
echo quit >&"${HOLD_W[c]}"
sleep 0.5
n=$(in_ns "$NS_A" "$CTL" -j sockets | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
[ "$n" = 4 ]
tap_result "after one holder quit, the dump lists its remaining 4 ($n)" $?

# ---- LD_PRELOAD
"$CTL" set mode learned
ml_netns NS_C c || bail "namespace c"
in_ns "$NS_C" iperf3 -s -1 -p 5301 -D >/dev/null 2>&1
wait_port "$NS_C" 5301 2>/dev/null || sleep 1
in_ns "$NS_C" env LD_PRELOAD="$ML_LIB/libmltcp-preload.so" MLTCP_CC=mltcp_reno \
	MLTCP_BYTES_PER_ITER=3000000 MLTCP_TIEBREAK=job SLURM_JOB_ID=4242 SLURM_STEP_ID=0 \
	MLTCP_DEBUG=1 iperf3 -c 127.0.0.1 -p 5301 -t 4 -b 20M >/dev/null 2>"$hold_dir/preload.err" &
client=$!
sleep 2
dump_c=$(in_ns "$NS_C" "$CTL" -j sockets)
wait $client
rc=$?
python3 - "$dump_c" "$(dirname "$TIEBREAK")" <<'P'
import json, sys
sys.path.insert(0, sys.argv[2])
from tiebreak import siphash24

def job_tiebreak(identity):
    # userspace/lib/job_id.h: SipHash-2-4 under the public key "mltcp-job-tiebrk"
    h = siphash24(b"mltcp-job-tiebrk", identity.encode())
    return ((h >> 32) * 1025) >> 32

d = json.loads(sys.argv[1])
assert len(d) >= 2, d           # iperf3's control and data connections
for s in d:
    assert s["algo"] == "mltcp_reno" and s["bytes_per_iter"] == 3000000 and s["size_given"], s
    assert s["dport"] == 5301, s
    assert s["tiebreak_given"] and s["tiebreak_q10"] == job_tiebreak("slurm:4242.0"), s
P
[ $? = 0 ] && [ $rc = 0 ] && [ ! -s "$hold_dir/preload.err" ]
tap_result "LD_PRELOAD=libmltcp-preload.so: iperf3's connections run mltcp_reno with 3000000 bytes per iteration and Slurm job 4242's tie-break" $?
[ -s "$hold_dir/preload.err" ] && diag_stream <"$hold_dir/preload.err"

tap_check "counters: namespace a's mltcp_reno saw its sockets, the host's all of them" python3 -c '
import json, sys
a, host = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert a["counters"] == "netns" and host["counters"] == "host", (a["counters"], host["counters"])
assert [x for x in a["algorithms"] if x["name"] == "mltcp_reno" and x["sockets_total"] >= 4], a
assert [x for x in host["algorithms"] if x["name"] == "mltcp_reno" and x["sockets_total"] >= 6], host
' "$(in_ns "$NS_A" "$CTL" -j show)" "$("$CTL" -j show --host)"
tap_done
