#!/bin/bash
# mltcpctl attach CGROUP mltcp_dctcp with the modules (lib_ecn.sh; the BPF backend's
# counterpart is bpf/test_05), checked on the wire at NS_R[0]'s eth0: the SYNs of
# the cgroup's clients ask for ECN; with a peer that accepts (the job's own server),
# the data carries ECT and ss -ti shows DCTCP's state (ce_state, alpha); with one that
# refuses, nothing after the SYN is ECT and the connection runs DCTCP's fallback
# (mltcp_dctcp, ss: dctcp:fallback_mode); the cgroup's listeners accept ECN; the
# connections of listeners that listened before the attach get mltcp_dctcp with ECN,
# mltcp_reno without; no switch was refused (attach's counters).
#
#   NS_S[0] ── NS_RT ══ tbf 100 Mbit/s FIFO (bn0) ══> NS_RR ── NS_R[0] (capture: eth0)
#   (iperf3 clients in and out of the test cgroup CG, in NS_S[0]; iperf3 servers in
#   and out of CG, in NS_R[0]; the reverse path, iperf3 -R's data, is not shaped)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_ecn.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
MLTCPCTL=${BUILD:-$top/build}/bin/mltcpctl

tap_plan 15
[ -x "$MLTCPCTL" ] || bail "$MLTCPCTL is built (make userspace)"
ml_modprobe mltcp_dctcp || bail "mltcp_dctcp loads"
ml_modprobe mltcp_reno || bail "mltcp_reno loads"
attach_cgroup CG mltcp-attach || bail "a cgroup v2 directory for the test"
ECN_TMP=$(mktemp -d)
at_exit "rm -rf $ECN_TMP"
dumbbell_setup 100 tbf 1 || bail "dumbbell topology"

attach_dctcp_checks "$CG" "mltcp_dctcp.*dctcp:fallback_mode" \
	"dctcp:\(ce_state:[0-9]+,alpha:[0-9]+"
tap_done
