#!/bin/bash
# mltcpctl attach CGROUP ALGO / detach CGROUP on the running kernel: a process in the
# cgroup gets ALGO on its connections without asking (iperf3 without -C), one outside
# gets the namespace's default; a second attach and a detach of nothing fail with a
# reason; bad arguments change nothing; after detach the cgroup gets the default.
# Then mltcp_dctcp (../lib_ecn.sh), checked on the wire at NS_R[0]'s eth0: the SYNs
# of the cgroup's clients ask for ECN; with a peer that accepts, the data carries ECT
# and the connection runs mltcp_dctcp with ECN; with one that refuses, nothing after
# the SYN is ECT and the connection runs mltcp_reno (the BPF mltcp_dctcp's no-ECN
# fallback); the cgroup's listeners accept ECN; connections of listeners that
# listened before the attach get mltcp_dctcp with ECN, mltcp_reno without; no switch
# was refused (attach's counters, and the BPF mltcp_dctcp's own in bpf status).
#
#   NS_S[0] ── NS_RT ══ tbf 500 Mbit/s FIFO (bn0) ══> NS_RR ── NS_R[0] (capture: eth0)
#   (iperf3 clients in and out of the test cgroup CG, in NS_S[0]; iperf3 servers in
#   and out of CG, in NS_R[0])
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib_native.sh"
. "$(dirname "$0")/../lib_ecn.sh"

tap_plan 27
native_preconditions
attach_cgroup CG mltcp-native || bail "a cgroup v2 directory for the test"
bpf_fresh
tap_check "mltcpctl bpf load" "$MLTCPCTL" bpf load || tap_done
dumbbell_setup 500 tbf 1 || bail "dumbbell topology"
in_ns "${NS_S[0]}" sysctl -qw net.ipv4.tcp_congestion_control=reno

# cc_of IN_CG: the sender's congestion control of a 1 s iperf3 run, from a shell
# that joined CG first (IN_CG=1) or not
cc_of() {
	iperf_start_server "${NS_R[0]}" || return 1
	# nsenter, not ip netns exec: that one mounts its own /sys, without the cgroups
	nsenter --net="/run/netns/${NS_S[0]}" bash -c "[ $1 = 1 ] && echo \$\$ > $CG/cgroup.procs
		exec iperf3 -c ${RCV_IP4[0]} -p $IPERF_PORT -t 1 -J" | jq -r .end.sender_tcp_congestion
}

tap_check "attach $CG mltcp_cubic" "$MLTCPCTL" attach "$CG" mltcp_cubic
cc=$(cc_of 1)
tap_result "a process in the cgroup runs mltcp_cubic without asking ($cc)" \
	"$([ "$cc" = mltcp_cubic ]; echo $?)"
cc=$(cc_of 0)
tap_result "a process outside it keeps the default ($cc)" "$([ "$cc" = reno ]; echo $?)"
out=$("$MLTCPCTL" attach "$CG" mltcp_reno 2>&1)
tap_result "a second attach fails with a reason ($out)" \
	"$([[ $out == *"attached to mltcp_cubic already"* ]]; echo $?)"
out=$("$MLTCPCTL" attach "$CG" cubic 2>&1)
tap_result "a non-MLTCP algorithm is refused ($out)" "$([[ $out == *"not an MLTCP"* ]]; echo $?)"
out=$("$MLTCPCTL" attach /tmp mltcp_reno 2>&1)
tap_result "a directory that is no cgroup v2 is refused ($out)" "$([[ $out == *"not a cgroup v2"* ]]; echo $?)"
cc=$(cc_of 1)
tap_result "after the refused requests the cgroup still gets mltcp_cubic ($cc)" \
	"$([ "$cc" = mltcp_cubic ]; echo $?)"
tap_check "detach $CG" "$MLTCPCTL" detach "$CG"
cc=$(cc_of 1)
tap_result "after detach the cgroup gets the default ($cc)" "$([ "$cc" = reno ]; echo $?)"
out=$("$MLTCPCTL" detach "$CG" 2>&1)
tap_result "detaching nothing fails with a reason ($out)" "$([[ $out == *"nothing is attached"* ]]; echo $?)"

ECN_TMP=$(mktemp -d)
at_exit "rm -rf $ECN_TMP"
attach_dctcp_checks "$CG" "mltcp_reno" ""
out=$("$MLTCPCTL" bpf status | grep 'switches to mltcp_reno refused')
tap_result "the BPF mltcp_dctcp's switches to its fallback were never refused ($out)" \
	"$([[ $out == *"refused: 0" ]]; echo $?)"
tap_done
