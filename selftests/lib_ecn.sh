#!/bin/bash
# `mltcpctl attach CGROUP mltcp_dctcp` checked on the wire, with either backend: the
# SYN asks for ECN, data carries ECT only where ECN was negotiated, and each connection
# runs DCTCP or its no-ECN fallback (selftests/bpf/test_05 for the BPF backend,
# selftests/test_19 for the modules). Source after lib.sh, once dumbbell_setup ran
# (NS_S[0], NS_R[0], RCV_IP4[0]); MLTCPCTL is the mltcpctl to use.

ECN_COUNT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ecn_count.py

# attach_cgroup VAR NAME: creates the cgroup v2 directory NAME-<pid>, detached and
# removed on exit, and stores its path in VAR. Not for use inside $(...).
attach_cgroup() {
	local cg2
	cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$cg2" ] || { echo "attach_cgroup: no cgroup v2 hierarchy mounted" >&2; return 1; }
	mkdir "$cg2/$2-$$" || return 1
	at_exit "rmdir $cg2/$2-$$"
	at_exit "$MLTCPCTL detach $cg2/$2-$$"
	printf -v "$1" '%s' "$cg2/$2-$$"
}

# ecn_capture_start NS IFACE PORT OUT [SIDE]: counts the ECN codepoints and flags of
# the TCP packets of PORT on IFACE in NS (ecn_count.py; SIDE: whose data, client or
# server) until ecn_capture_stop, which writes its line to OUT.
ecn_capture_start() {
	local i
	(exec ip netns exec "$1" python3 "$ECN_COUNT" "$2" "$3" "${5:-client}" >"$4") &
	_ecn_pid=$!
	at_exit "kill $_ecn_pid 2>/dev/null"
	for ((i = 0; i < 100; i++)); do
		grep -q '^ready' "$4" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "ecn_capture_start: ecn_count.py did not start on $2 in $1" >&2
	return 1
}
ecn_capture_stop() {
	kill -TERM "$_ecn_pid" 2>/dev/null
	wait "$_ecn_pid"
}

# cap_val FILE KEY: KEY's count in an ecn_count.py line.
cap_val() {
	tr ' ' '\n' <"$1" | awk -F= -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print -1 }'
}

# cg_run NS CG CMD...: CMD in NS, in a process that joined the cgroup CG first (none
# when CG is ""). nsenter, not ip netns exec: that one mounts its own /sys, without the
# cgroups, and a socket belongs to the cgroup of the process that created it.
cg_run() {
	local ns=$1 cg=$2
	shift 2
	nsenter --net="/run/netns/$ns" bash -c \
		'[ -z "$1" ] || echo $$ >"$1/cgroup.procs" || exit 1; shift; exec "$@"' \
		cg_run "$cg" "$@"
}

# cg_server VAR CG: starts a one-shot iperf3 server in NS_R[0] (in the cgroup CG, or
# none when ""), stores its port in VAR.
cg_server() {
	local _cg_port
	_cg_port=$(free_port "${NS_R[0]}")
	cg_run "${NS_R[0]}" "$2" iperf3 -s -1 -p "$_cg_port" >/dev/null 2>&1 &
	at_exit "kill $! 2>/dev/null"
	wait_port "${NS_R[0]}" "$_cg_port" || return 1
	printf -v "$1" '%s' "$_cg_port"
}

# cg_flow NAME PORT SENDER CG: an iperf3 transfer at 50 Mbit/s from NS_S[0] to the
# server on PORT, sent by SENDER (client, or server: iperf3 -R); the client runs in the
# cgroup CG (none when ""). The capture at NS_R[0]'s eth0 goes to $ECN_TMP/NAME.cap,
# with the data of the SYN's direction (client) or of the SYN-ACK's (server:
# ecn_count.py counts the packets from PORT then); ss -tin of the sending side, sampled
# while it sends, to NAME.ss. The rate leaves a guest's CPUs to the capture and to ss.
#
# The samples end before the connections do: the client would run for a minute, and
# is stopped (SIGTERM) once IPERF_TIME s (default 3) have passed and three samples
# show its connections. A socket that closes while ss dumps it is shown with its
# algorithm's name but not the algorithm's state (the kernel reports that state only
# before TIME_WAIT), so a sample taken as iperf3 closes would prove nothing.
cg_flow() {
	local name=$1 port=$2 sender=$3 cg=$4 out=$ECN_TMP/$1 ns=${NS_S[0]} c i seen=0
	local args=(-c "${RCV_IP4[0]}" -p "$port" -t 60 -b 50M -J)
	local filter="( dport = :$port )" until=$((SECONDS + ${IPERF_TIME:-3}))
	if [ "$sender" = server ]; then
		args+=(-R)
		ns=${NS_R[0]}
		filter="( sport = :$port )"
	fi
	ecn_capture_start "${NS_R[0]}" eth0 "$port" "$out.cap.raw" "$sender" || return 1
	# a guest's first ss can take seconds to load: not while the transfer runs
	in_ns "$ns" ss -tinH state established "$filter" >/dev/null
	cg_run "${NS_S[0]}" "$cg" iperf3 "${args[@]}" >"$out.json" 2>&1 &
	c=$!
	: >"$out.ss"
	for ((i = 0; i < 200; i++)); do
		kill -0 "$c" 2>/dev/null || break
		[ "$SECONDS" -ge "$until" ] && [ "$seen" -ge 3 ] && break
		in_ns "$ns" ss -tinH state established "$filter" >"$out.ss.one"
		grep -qE 'mltcp_|cubic|reno' "$out.ss.one" && seen=$((seen + 1))
		cat "$out.ss.one" >>"$out.ss"
		sleep 0.3
	done
	# iperf3 is the child of the job (cg_run's nsenter execs it)
	if kill -0 "$c" 2>/dev/null; then
		pkill -TERM -P "$c"
		wait "$c"
	else
		wait "$c" || diag "$name: iperf3 ended early: $(head -c 300 "$out.json")"
	fi
	ecn_capture_stop
	grep -v '^ready' "$out.cap.raw" >"$out.cap"
	diag "$name: $(cat "$out.cap")"
	diag "$name: ss: $(grep -E 'mltcp_|cubic|reno' "$out.ss" | tail -n1 | head -c 300)"
}

# ss_all NAME RE: every ss sample of NAME's sending side that shows a congestion control
# matches the extended regular expression RE (and there is at least one).
ss_all() {
	local lines
	lines=$(grep -E 'mltcp_|cubic|reno' "$ECN_TMP/$1.ss")
	[ -n "$lines" ] && ! grep -qvE "$2" <<<"$lines" && return 0
	diag "$1: $(grep -c . <<<"$lines") samples of ss -tin, those not matching '$2':"
	grep -vE "$2" <<<"$lines" | head -n 4 | cut -c1-600 | diag_stream
	return 1
}

# attach_dctcp_checks CG FALLBACK_RE DCTCP_RE: the TAP checks of `mltcpctl attach CG
# mltcp_dctcp` (14 results); FALLBACK_RE matches ss -ti of a connection whose SYN
# asked for ECN and was refused (the backend's no-ECN fallback), DCTCP_RE one that
# negotiated ECN (with the backend's DCTCP state where ss can show it).
attach_dctcp_checks() {
	local cg=$1 fallback_re=$2 dctcp_re=$3 port port_on port_off e f
	local S=${NS_S[0]} R=${NS_R[0]}

	in_ns "$S" sysctl -qw net.ipv4.tcp_ecn=2
	in_ns "$R" sysctl -qw net.ipv4.tcp_ecn=2
	tap_check "attach $cg mltcp_dctcp" "$MLTCPCTL" attach "$cg" mltcp_dctcp

	# 1. A client and a server of the cgroup. DCTCP's SYN carries ECT, and a Linux
	# peer accepts ECN from such a SYN only when its listener needs ECN (DCTCP): the
	# peer of the job is the job's.
	cg_server port "$cg" && cg_flow active_ecn "$port" client "$cg"
	f=$ECN_TMP/active_ecn.cap
	e=$(cap_val "$f" syn)
	[ "$e" -ge 1 ] && [ "$(cap_val "$f" syn_ecn)" = "$e" ] &&
		[ "$(cap_val "$f" synack_ece)" = "$(cap_val "$f" synack)" ]
	tap_result "ECN peer: the client's SYNs ask for ECN, the SYN-ACKs accept" $?
	[ "$(cap_val "$f" data_ect)" -gt 20 ] && [ "$(cap_val "$f" data_notect)" = 0 ]
	tap_result "ECN peer: the client's data carries ECT" $?
	ss_all active_ecn "mltcp_dctcp.*$dctcp_re"
	tap_result "ECN peer: the client runs mltcp_dctcp${dctcp_re:+ ($dctcp_re)} (ss -ti)" $?

	# 2. The peer refuses ECN: the SYN still asks, nothing after it is ECT.
	in_ns "$R" sysctl -qw net.ipv4.tcp_ecn=0
	cg_server port "" && cg_flow active_noecn "$port" client "$cg"
	f=$ECN_TMP/active_noecn.cap
	e=$(cap_val "$f" syn)
	[ "$e" -ge 1 ] && [ "$(cap_val "$f" syn_ecn)" = "$e" ] &&
		[ "$(cap_val "$f" synack)" -ge 1 ] && [ "$(cap_val "$f" synack_ece)" = 0 ]
	tap_result "peer without ECN: the SYNs ask for ECN, the SYN-ACKs refuse" $?
	[ "$(cap_val "$f" ect)" = 0 ] && [ "$(cap_val "$f" data_ce)" = 0 ] &&
		[ "$(cap_val "$f" data_notect)" -gt 20 ]
	tap_result "peer without ECN: no packet after the SYN is ECT" $?
	ss_all active_noecn "$fallback_re"
	tap_result "peer without ECN: the client runs DCTCP's no-ECN fallback ($fallback_re)" $?
	in_ns "$R" sysctl -qw net.ipv4.tcp_ecn=2

	# 3. A listener of the cgroup (after the attach), its client asks for ECN.
	in_ns "$S" sysctl -qw net.ipv4.tcp_ecn=1
	cg_server port "$cg" && cg_flow listen_ecn "$port" server ""
	f=$ECN_TMP/listen_ecn.cap
	[ "$(cap_val "$f" synack)" -ge 1 ] &&
		[ "$(cap_val "$f" synack_ece)" = "$(cap_val "$f" synack)" ] &&
		[ "$(cap_val "$f" data_ect)" -gt 20 ] && [ "$(cap_val "$f" data_notect)" = 0 ]
	tap_result "listener of the cgroup, client with ECN: ECN accepted, data ECT" $?
	ss_all listen_ecn "mltcp_dctcp.*$dctcp_re"
	tap_result "listener of the cgroup: the accepted connections run mltcp_dctcp" $?

	# 4. Listeners that listened before the attach: chosen at the establishment.
	tap_check "detach $cg" "$MLTCPCTL" detach "$cg"
	cg_server port_off "$cg" && cg_server port_on "$cg"
	tap_check "attach $cg mltcp_dctcp again, over two listening servers" \
		"$MLTCPCTL" attach "$cg" mltcp_dctcp
	in_ns "$S" sysctl -qw net.ipv4.tcp_ecn=0
	cg_flow est_noecn "$port_off" server ""
	f=$ECN_TMP/est_noecn.cap
	[ "$(cap_val "$f" synack_ece)" = 0 ] && [ "$(cap_val "$f" ect)" = 0 ] &&
		[ "$(cap_val "$f" data_notect)" -gt 20 ] && ss_all est_noecn "mltcp_reno"
	tap_result "listener from before, client without ECN: mltcp_reno, no ECT" $?
	in_ns "$S" sysctl -qw net.ipv4.tcp_ecn=1
	cg_flow est_ecn "$port_on" server ""
	f=$ECN_TMP/est_ecn.cap
	[ "$(cap_val "$f" synack_ece)" -ge 1 ] && [ "$(cap_val "$f" data_ect)" -gt 20 ] &&
		[ "$(cap_val "$f" data_notect)" = 0 ] && ss_all est_ecn "mltcp_dctcp.*$dctcp_re"
	tap_result "listener from before, client with ECN: mltcp_dctcp, data ECT" $?
	in_ns "$S" sysctl -qw net.ipv4.tcp_ecn=2

	# 5. The programs' counters.
	local j sw ne rf out
	j=$("$MLTCPCTL" -j attach | jq -c --arg cg "$cg" '.[] | select(.cgroup == $cg)')
	read -r sw ne rf <<<"$(jq -r '"\(.switched) \(.without_ecn) \(.refused)"' <<<"$j")"
	diag "mltcpctl attach: $j"
	[ "${rf:-x}" = 0 ] && [ "${ne:-0}" -ge 2 ] && [ "${sw:-0}" -ge 2 ]
	tap_result "mltcpctl attach lists the counters: 0 refused, >= 2 without ECN, >= 2 switched" $?
	out=$("$MLTCPCTL" detach "$cg")
	diag "detach: $out"
	[[ $out == *"0 refused"* ]]
	tap_result "detach reports the counters" $?
}
