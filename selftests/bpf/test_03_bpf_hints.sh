#!/bin/bash
# Per-socket hints on the BPF backend, through libmltcp unchanged: mltcp-hold's
# sizes, marks and bytes read back with the F the core's math gives, for each
# algorithm; then hints.py: a size given before connect(), tie-break, two marks (the
# BPF side counts the completed iteration), size 0, and the errno contract; the phase
# (base without hints, unearned right after a mark, the ramp or a yield where F ramps).
#
#   [ NS: lo ]  loopback connections, IPv4 and IPv6
#
# For mltcp_dctcp the namespace's default congestion control is mltcp_dctcp too, so
# that the listener accepts ECN (a SYN of a DCTCP socket carries ECT, which a
# listener on another algorithm refuses): without ECN the BPF mltcp_dctcp hands the
# socket to mltcp_reno.
#
# The programs enter NS with nsenter --net, not ip netns exec: that one mounts a
# sysfs of its own over /sys, which hides the pins in /sys/fs/bpf.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib_native.sh"

tap_plan 45
native_preconditions
bpf_fresh
tap_check "mltcpctl bpf load" "$MLTCPCTL" bpf load || tap_done
tap_check "mltcpctl set stagger 0 (F without a head start)" "$MLTCPCTL" set stagger 0
ml_netns NS lo
in_ns "$NS" sysctl -qw net.ipv4.tcp_ecn=1
in_net() { nsenter --net="/run/netns/$NS" "$@"; }
# a namespace may default to an algorithm only when it is in the allowed list
ml_sysctl_restore net.ipv4.tcp_allowed_congestion_control
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$(sysctl -n \
	net.ipv4.tcp_allowed_congestion_control) mltcp_dctcp" || bail "allow mltcp_dctcp"

# conn I FAMILY SRC SPORT DST DPORT BYTES_PER_ITER BYTES_THIS_ITER F_Q10 ITERATIONS ALGO PHASE
# ns_default ALGO: the namespace's default congestion control
ns_default() { in_ns "$NS" sysctl -qw net.ipv4.tcp_congestion_control="$1"; }
for a in "${BPF_ALGOS[@]}"; do
	ns_default "$([ "$a" = mltcp_dctcp ] && echo mltcp_dctcp || echo reno)"
	out=$(echo quit | in_net timeout 30 "$BUILD/bin/mltcp-hold" -a "$a" -n 2 \
		-b 100000 -s 50000 2>&1)
	for i in 0 1; do
		line=$(grep "^conn $i " <<<"$out")
		read -r _ _ _ _ _ _ _ bpi bti f iters algo phase <<<"$line"
		ebpi=$((100000 + i)) ebti=$((50000 + 1000 * i))
		ef=$((1024 + (ebti * 1024 / ebpi)))
		# F ramps: the phase is the ramp, or a yield that has not yet seen a free link
		tap_result "$a conn $i: size $bpi, bytes $bti, F $f (want $ebpi $ebti $ef) on $algo, phase $phase" \
			"$([ "$bpi" = $ebpi ] && [ "$bti" = $ebti ] && [ "$f" = $ef ] &&
				[ "$algo" = "$a" ] && { [ "$phase" = ramp ] || [ "$phase" = yield ]; }
				echo $?)"
	done
done

for a in "${BPF_ALGOS[@]}"; do
	ns_default "$([ "$a" = mltcp_dctcp ] && echo mltcp_dctcp || echo reno)"
	while read -r l; do
		case $l in
		"ok - "*) ok "${l#ok - }" ;;
		"not ok - "*) not_ok "${l#not ok - }" ;;
		*) diag "$l" ;;
		esac
	done < <(MLTCPCTL=$MLTCPCTL MLTCP_LIBRARY=$BUILD/lib/libmltcp.so.1 \
		in_net python3 "$(dirname "$0")/hints.py" "$a" 2>&1 |
		sed -E 's/^(not )?ok [0-9]+ - /\1ok - /')
done
ns_default reno
tap_check "mltcpctl bpf unload" "$MLTCPCTL" bpf unload
tap_done
