#!/bin/bash
# The guest half of scripts/check-packages.sh: runs in the QEMU bench on the host root
# where the MLTCP Debian packages are installed, with the modules DKMS built for this
# kernel as the only MLTCP modules (scripts/vm-run --modules <the DKMS directory>).
# Uses the installed files only: /usr/sbin/mltcpctl, the python3-mltcp module with
# /usr/lib/<triplet>/libmltcp.so.1 and the examples of mltcp-dkms. Prints TAP.
#
#   scripts/check-packages-guest.sh VERSION NAME=SHA256...
#
# VERSION is the release the packages carry, each NAME=SHA256 the checksum of a module
# file DKMS installed on the host (mltcp_cubic=<sha256 of updates/dkms/mltcp_cubic.ko>).
#
#   NS_S[0] ── NS_RT ══ tbf 100 Mbit/s ══> NS_RR ── NS_R[0]
#   iperf3 -C mltcp_cubic, then a Python sender on mltcp_cubic marking iterations
. "$(dirname "$0")/../selftests/lib.sh"

version=${1:?usage: check-packages-guest.sh VERSION NAME=SHA256...}
shift
declare -A sums=()
for a in "$@"; do
	sums[${a%%=*}]=${a#*=}
done
examples=/usr/share/doc/mltcp-dkms/examples/etc
ctl=/usr/sbin/mltcpctl
# The packaged Python module, not a checkout's: isolated mode, no MLTCP_LIBRARY.
tmp=$(mktemp -d)
at_exit "rm -rf $tmp"

tap_plan 10

# 1. The module modprobe finds is the file DKMS built, carrying the release.
ml_modprobe mltcp_cubic || bail "modprobe mltcp_cubic"
fail=0
for m in mltcp mltcp_cubic; do
	f=$(modinfo -n "$m") && sum=$(sha256sum <"$f" | cut -d' ' -f1) || { fail=1; continue; }
	if [ "$sum" != "${sums[$m]:-none}" ]; then
		diag "$m: $f has sha256 $sum, DKMS installed ${sums[$m]:-nothing}"
		fail=1
	fi
done
tap_result "modprobe mltcp_cubic loads the modules DKMS built (mltcp, mltcp_cubic: same sha256)" $fail
v=$(cat /sys/module/mltcp_cubic/version /sys/module/mltcp/version 2>/dev/null | sort -u)
[ "$v" = "$version" ]
tap_result "the loaded modules say version $version (MODULE_VERSION; read: ${v:-none})" $?

# 2. The boot-time examples, applied by hand as systemd would at boot.
fail=0
for m in $(grep -v '^#' "$examples/modules-load.d/mltcp.conf"); do
	ml_modprobe "$m" || fail=1
done
ml_sysctl_restore net.ipv4.tcp_congestion_control
ml_sysctl_restore net.ipv4.tcp_allowed_congestion_control
sysctl -q -p "$examples/sysctl.d/60-mltcp.conf" || fail=1
[ "$(sysctl -n net.ipv4.tcp_congestion_control)" = mltcp_cubic ] || fail=1
allowed=$(sysctl -n net.ipv4.tcp_allowed_congestion_control)
for a in mltcp_reno mltcp_cubic mltcp_dctcp; do
	[[ " $allowed " == *" $a "* ]] || fail=1
done
tap_result "the modules-load.d and sysctl.d examples load all three and select mltcp_cubic (allowed: $allowed)" $fail

# 3. Traffic through the installed module.
dumbbell_setup 100 tbf 1 || bail "dumbbell topology"
iperf_start_server "${NS_R[0]}" || bail "iperf3 server"
in_ns "${NS_S[0]}" iperf3 -c "${RCV_IP4[0]}" -p "$IPERF_PORT" -t 3 -C mltcp_cubic -J \
	>"$tmp/iperf.json" 2>&1 &
client=$!
seen=0
for _ in $(seq 30); do
	sleep 0.2
	if in_ns "${NS_S[0]}" ss -tin "dst ${RCV_IP4[0]}" | grep -q mltcp_cubic; then
		seen=1
		break
	fi
done
wait "$client"
rc=$?
mbit=$(jq -r '.end.sum_received.bits_per_second / 1e6 | floor' "$tmp/iperf.json" 2>/dev/null)
[ $rc = 0 ] && [ $seen = 1 ] && [ "${mbit:-0}" -ge 10 ]
tap_result "iperf3 over the dumbbell runs on mltcp_cubic (ss -ti shows it), ${mbit:-?} Mbit/s of 100" $?

# 4. The installed mltcpctl.
out=$("$ctl" -V 2>&1)
[[ $out == "mltcpctl $version "* ]]
tap_result "$ctl -V reports $version ($out)" $?
tap_check "$ctl show lists the loaded algorithms" \
	bash -c "'$ctl' show | grep -qw mltcp_cubic && '$ctl' show | grep -qw mltcp_dctcp"

# 5. The installed Python binding, on its own connection through the bottleneck.
port=$(free_port "${NS_R[0]}")
in_ns "${NS_R[0]}" python3 -I -c '
import socket, sys
l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind(("0.0.0.0", int(sys.argv[1]))); l.listen(1)
c, _ = l.accept(); n = 0
while True:
    b = c.recv(1 << 16)
    if not b: break
    n += len(b)
print(n)' "$port" >"$tmp/sink.out" 2>&1 &
sink=$!
at_exit "kill $sink 2>/dev/null"
wait_port "${NS_R[0]}" "$port" || bail "python sink"
# the sender's namespace counts its iterations (show --host would too, as root here)
before=$(in_ns "${NS_S[0]}" "$ctl" -j show | jq '.algorithms[] | select(.name == "mltcp_cubic") | .iterations_given')
out=$(in_ns "${NS_S[0]}" env -u MLTCP_LIBRARY -u PYTHONPATH python3 -I -c '
import socket, sys, time, mltcp
lib = [l.split()[-1] for l in open("/proc/self/maps") if "libmltcp.so" in l][0]
s = socket.socket()
mltcp.enable(s, "mltcp_cubic")
mltcp.set_bytes_per_iter(s, 1 << 20)
s.connect((sys.argv[1], int(sys.argv[2])))
for _ in range(4):
    mltcp.iteration_begin(s)
    s.sendall(b"\0" * (1 << 20))
    time.sleep(0.05)
i = mltcp.get_state(s)
print(mltcp.__file__, lib, mltcp.abi_version(), i.algo, int(i.size_given),
      int(i.bounds_given), i.bytes_per_iter, i.iterations)
s.close()' "${RCV_IP4[0]}" "$port" 2>&1)
rc=$?
wait "$sink"
diag "python: $out; sink received $(cat "$tmp/sink.out")"
read -r pyfile pylib abi algo size_given bounds_given per_iter iters <<<"$out"
[ $rc = 0 ] && [[ $pyfile == /usr/lib/python3/dist-packages/mltcp.py ]] &&
	[[ $pylib == /usr/lib/*/libmltcp.so.1* ]]
tap_result "python3 imports mltcp from python3-mltcp, which loads libmltcp1's library" $?
[ "$algo" = mltcp_cubic ] && [ "$size_given$bounds_given" = 11 ] &&
	[ "$per_iter" = $((1 << 20)) ] && [ "${iters:-0}" -ge 3 ] &&
	[ "$(cat "$tmp/sink.out")" = $((4 << 20)) ]
tap_result "a Python sender on mltcp_cubic gives 1 MiB iterations and marks 4 (state: ${algo:-?}, size/marks given ${size_given:-?}/${bounds_given:-?}, ${per_iter:-?} B, ${iters:-?} done)" $?
after=$(in_ns "${NS_S[0]}" "$ctl" -j show | jq '.algorithms[] | select(.name == "mltcp_cubic") | .iterations_given')
[ -n "$before" ] && [ -n "$after" ] && [ $((after - before)) -ge 3 ]
tap_result "mltcpctl -j show counts those iterations (iterations_given ${before:-?} -> ${after:-?})" $?
tap_check "the Python binding reports the module's ABI ($abi) as <linux/mltcp.h> of libmltcp-dev does" \
	grep -Eq "^#define[[:space:]]+MLTCP_ABI_VERSION[[:space:]]+$abi\$" /usr/include/linux/mltcp.h
tap_done
