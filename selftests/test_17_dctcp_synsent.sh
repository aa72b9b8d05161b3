#!/bin/bash
# mltcp_dctcp chosen while the connection is still in SYN_SENT (TCP_CONGESTION after
# a non-blocking connect(), the SYN-ACK delayed 100 ms by netem) towards a peer that
# does not negotiate ECN falls back at once, like Linux's dctcp: ss -ti shows DCTCP's
# fallback mode and the receiver counts no ECT or CE packet (IpExtInECT0/ECT1/CE).
# Two ways to get there: the SYN did not ask for ECN (the default), and the SYN asked
# (sender tcp_ecn=1) but the SYN-ACK refused. A control run with ECN negotiated shows
# the receiver's counters do see ECT packets.
#
#   NS_S[0] ── NS_RT ══ tbf 100 Mbit/s ══> NS_RR ── NS_R[0] (netem 100 ms on its egress)
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
ML_BIN=${ML_BIN:-$top/build/bin}
PROG=$ML_BIN/mltcp-synsent
[ -x "$PROG" ] || { echo "1..1"; echo "not ok 1 - $PROG is built (make userspace)"; exit 1; }

tap_plan 9
ml_modprobe mltcp_dctcp || bail "mltcp_dctcp loads"
ml_modprobe tcp_dctcp 2>/dev/null
tmp=$(mktemp -d)
trap 'ml_cleanup; rm -rf "$tmp"' EXIT
ml_sysctl_restore net.ipv4.tcp_allowed_congestion_control
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$(sysctl -n net.ipv4.tcp_allowed_congestion_control) mltcp_dctcp dctcp"

dumbbell_setup 100 tbf 1 || bail "dumbbell"
S=${NS_S[0]}
R=${NS_R[0]}
DST=${RCV_IP4[0]}
in_ns "$R" tc qdisc add dev eth0 root netem delay 100ms limit 10000 || bail "netem on the receiver"

# ecn_in: "ect0 ect1 ce noect" packets received in the receiver's namespace so far.
ecn_in() {
	in_ns "$R" nstat -asz 2>/dev/null | awk '
		$1 == "IpExtInECT0Pkts" { e0 = $2 } $1 == "IpExtInECT1Pkts" { e1 = $2 }
		$1 == "IpExtInCEPkts" { ce = $2 } $1 == "IpExtInNoECTPkts" { no = $2 }
		END { print e0 + 0, e1 + 0, ce + 0, no + 0 }'
}

# run NAME ALGO: one connection whose congestion control ALGO is set in SYN_SENT,
# sending for 5 s. Writes NAME.out (the client's summary line), NAME.ss (ss -ti of
# the connection while it sends) and NAME.ecn (receiver ECN counters of this connection).
run() {
	local name=$1 algo=$2 port b0 b1 c
	port=$(free_port "$R")
	in_ns "$R" "$PROG" sink "$port" &
	at_exit "kill $! 2>/dev/null"
	wait_port "$R" "$port" || return 1
	read -ra b0 <<<"$(ecn_in)"
	in_ns "$S" "$PROG" client "$DST" "$port" "$algo" 5 >"$tmp/$name.out" 2>&1 &
	c=$!
	# ss may take seconds to start under emulation: retry while the client sends
	: >"$tmp/$name.ss"
	while kill -0 "$c" 2>/dev/null && ! grep -q 'dctcp' "$tmp/$name.ss"; do
		sleep 0.5
		in_ns "$S" ss -tin state established "dst $DST:$port" >"$tmp/$name.ss"
	done
	wait "$c" || { diag "$name: $(cat "$tmp/$name.out")"; return 1; }
	sleep 0.5
	read -ra b1 <<<"$(ecn_in)"
	echo $((b1[0] - b0[0])) $((b1[1] - b0[1])) $((b1[2] - b0[2])) $((b1[3] - b0[3])) >"$tmp/$name.ecn"
	diag "$name: $(cat "$tmp/$name.out"); receiver ECT0/ECT1/CE/NoECT $(cat "$tmp/$name.ecn")"
	diag "$name: ss: $(grep -o 'mltcp_dctcp.*\|dctcp.*' "$tmp/$name.ss" | head -c 300)"
}

# no_ect NAME: the receiver saw data and none of it was ECT or CE.
no_ect() {
	local e0 e1 ce no
	read -r e0 e1 ce no <"$tmp/$1.ecn"
	[ "$e0" = 0 ] && [ "$e1" = 0 ] && [ "$ce" = 0 ] && [ "$no" -gt 100 ]
}

# 1. The SYN did not ask for ECN (sender default cubic, tcp_ecn=2); receiver refuses too.
in_ns "$S" sysctl -qw net.ipv4.tcp_congestion_control=cubic
in_ns "$R" sysctl -qw net.ipv4.tcp_congestion_control=cubic net.ipv4.tcp_ecn=0
run stock dctcp
no_ect stock
rc=$?
tap_result "reference: Linux's dctcp set in SYN_SENT sends no ECT ($(cat "$tmp/stock.ecn"))" "$rc"
run plain mltcp_dctcp
grep -q '^set_in=SYN_SENT algo=mltcp_dctcp ecn=0 ' "$tmp/plain.out"
tap_result "mltcp_dctcp was set in SYN_SENT and stays selected, without ECN" $?
grep -q 'mltcp_dctcp.*dctcp:fallback_mode' "$tmp/plain.ss" &&
	grep -q ' cc_info=fallback ' "$tmp/plain.out"
tap_result "ss -ti and TCP_CC_INFO show mltcp_dctcp running its fallback (no-ECN) ops" $?
no_ect plain
rc=$?
tap_result "no ECT or CE packet reaches the receiver (ECT0/ECT1/CE/NoECT $(cat "$tmp/plain.ecn"))" "$rc"

# 2. The SYN asked for ECN (sender tcp_ecn=1), the SYN-ACK refused it.
in_ns "$S" sysctl -qw net.ipv4.tcp_ecn=1
run asked mltcp_dctcp
grep -q '^set_in=SYN_SENT algo=mltcp_dctcp ecn=0 cc_info=fallback ' "$tmp/asked.out" &&
	grep -q 'mltcp_dctcp.*dctcp:fallback_mode' "$tmp/asked.ss"
tap_result "ECN asked and refused: mltcp_dctcp in its fallback ops" $?
no_ect asked
rc=$?
tap_result "ECN asked and refused: no ECT or CE packet (ECT0/ECT1/CE/NoECT $(cat "$tmp/asked.ecn"))" "$rc"

# 3. Control: ECN asked and accepted (receiver runs mltcp_dctcp): ECT is counted.
in_ns "$R" sysctl -qw net.ipv4.tcp_congestion_control=mltcp_dctcp
run ecn mltcp_dctcp
grep -q '^set_in=SYN_SENT algo=mltcp_dctcp ecn=1 cc_info=dctcp ' "$tmp/ecn.out"
tap_result "control: ECN negotiated when the peer runs DCTCP" $?
grep -q 'mltcp_dctcp.*dctcp:(ce_state' "$tmp/ecn.ss"
tap_result "control: ss -ti shows DCTCP's ECN state" $?
read -r e0 _ _ _ <"$tmp/ecn.ecn"
[ "${e0:-0}" -gt 100 ]
tap_result "control: the receiver counts ECT(0) packets ($e0)" $?

in_ns "$R" sysctl -qw net.ipv4.tcp_congestion_control=cubic
tap_done
