#!/bin/bash
# The shaped-link topology of the selftests (lib.sh's dumbbell), mltcp-bench and
# bench-ddp: network namespaces joined by veth pairs, one FIFO bottleneck (tbf, with a
# RED child marking ECN or not) either in a router or on the senders' own egress, netem
# on the ACK path when an RTT is added. The one builder of it; lab/tests/test-topology.sh
# checks that each caller gets exactly what it built before.
#
#   senders              left hub                                   right hub    receivers
#
#   S0 eth0 ──── s0 ─┐                                             ┌─ r0 ──── eth0 R0
#   S1 eth0 ──── s1 ─┼─ HUB_L ─ trunk_l ═ FIFO ═> trunk_r ─ HUB_R ─┼─ r1 ──── eth0 R1
#    ...             ┘          router placement  netem (ACKs)     └─  ...
#
#   egress: the FIFO on each sender's eth0 instead (egress:I: on sender I's only), the
#   hubs forward unshaped. --shared-sender: one namespace holds every sender and is
#   the left hub itself, its trunk end is its egress (jobs sharing a NIC):
#
#   S ─ trunk_l ══ FIFO ══> trunk_r ─ HUB_R ─┬─ r0 ──── eth0 R0 ...
#
#   One hub (layout pair): S0 eth0 ──── l0 ─ HUB ─ r0 ──── eth0 R0, the FIFO on the
#   hub's port towards the receiver (router) or on the sender's eth0 (egress);
#   --duplex adds one in the other direction (on the port towards the sender, on the
#   receiver's eth0): both ends send.
#
# Data flows from the senders through the FIFO, the only shaped link. Hubs that hosts
# hang off forward (IPv4, and IPv6 where the layout has it); hosts keep no TCP metrics
# (tcp_no_metrics_save: one connection's losses do not shape the next one's start);
# where the layout has IPv6, DAD is off for what is created after the namespace (the
# addresses are nodad). Namespaces are PREFIX-NAME, NAME from the layout:
#
#                dumbbell (selftests)       bench (mltcp-bench)       pair (bench-ddp)
#   hosts        s<i>, r<i>                 s<i>, d<i>                left, right
#   hubs         rt, rr                     r, w                      router (one)
#   shared       s (trunk bn0)              s (trunk eb)              -
#   hub ports    s<i>, r<i>                 s<i>, d<i>                l0, r0
#   trunk        bn0 ═ bn1                  rb ═ wb                   -
#   sender i     198.18.<i+1>.2/24,         198.18.<i+1>.1/24         10.77.1.2/24
#                2001:db8:1:<i+1>::2/64
#   receiver i   198.19.<i+1>.2/24,         198.19.<i+1>.1/24         10.77.2.2/24
#                2001:db8:2:<i+1>::2/64
#   hub's port   .1, ::1 of the subnet      .254                      .1
#   trunk        198.18.0.1 ═ .2 /24,       198.18.0.1 ═ .2 /30       -
#                2001:db8::1 ═ ::2 /64
#   hub routes   198.19.0.0/16, 2001:db8:2::/48 via the right hub; 198.18.0.0/15,
#                2001:db8:1::/48 via the left (bench: 198.19.0.0/16; 198.18.0.0/16)
#   FIFO handle  1:                         1:                        the kernel's
#   hubs' lo     up                         up                        down
#
# The addresses come from the benchmarking ranges 198.18.0.0/15 and 2001:db8::/32, and
# 10.77.0.0/16 for bench-ddp. Never fq or fq_codel here: per-flow fairness would hide
# what MLTCP does.
#
#   selftests/topology.sh up PREFIX [OPTIONS]     build it; prints what it built
#   selftests/topology.sh shape PREFIX [OPTIONS]  move or re-rate the FIFO of a built one
#   selftests/topology.sh down PREFIX [OPTIONS]   delete its namespaces
#
# shape and down take the options up was given (shape: with another --placement or
# --rate); shape removes the FIFO wherever one can be and puts it where the options say,
# netem stays. up and shape print a line per fact a caller needs:
#
#   sender I NS IPV4 [IPV6]     receiver I NS IPV4 [IPV6]     hub NS     fifo NS DEV
#
# Options:
#   --layout dumbbell|bench|pair  names and addresses, above (default dumbbell)
#   --senders N, --receivers N    hosts (default 1; receivers: as many as senders)
#   --shared-sender               every sender in one namespace, the left hub
#   --placement router|egress|egress:I   where the FIFO is (default router)
#   --duplex                      a FIFO in each direction
#   --rate MBIT|none              the tbf's rate (default 100; none: no FIFO)
#   --buffer BYTES|Xbdp           its limit (default 1 BDP, at least 65536 bytes; BDP =
#                                 the rate x max(--delay, 10 ms))
#   --burst BYTES                 its bucket (default a quarter of 10 ms at the rate, at
#                                 least 15000 bytes)
#   --qdisc tail-drop|red-ecn     tbf's byte FIFO, or a RED child under the tbf marking
#                                 ECN (probability 1, the queue's limit)
#   --ecn-min BYTES, --ecn-max BYTES   RED marks above min (default 2 ms at the rate, at
#                                 least 15000 bytes), max default min + 3000
#   --delay MS                    netem (delay only, FIFO order, 100000 packets) on the
#                                 right hub's trunk end: added RTT on the ACK path
#   --mtu N                       every veth's MTU (default the kernel's)
#   --offloads keep|fifo|off      TSO, GSO and GRO: left as they are, off on the links
#                                 that carry a FIFO (default: the FIFO sees MTU-sized
#                                 packets, as a NIC queue would), or off on every veth
set -u

die() {
	echo "topology.sh: $*" >&2
	exit 2
}

# run CMD...: CMD, or a message naming it and a failure.
run() {
	"$@" && return 0
	echo "topology.sh: failed: $*" >&2
	return 1
}

# nsexec NS CMD...: CMD inside NS.
nsexec() {
	local ns=$1
	shift
	run ip netns exec "$ns" "$@"
}

# calc EXPR: the awk expression EXPR, truncated to a whole number (of any size).
calc() {
	awk "BEGIN { printf \"%.0f\", int($1) }"
}

# layout NAME: the names and addresses of the table above.
layout() {
	case $1 in
	dumbbell)
		snd_ns=s%d rcv_ns=r%d hubs=(rt rr) shared_ns=s shared_trunk=bn0
		snd_port=s%d rcv_port=r%d trunk=(bn0 bn1)
		snd_net=198.18.%d rcv_net=198.19.%d host=2 gw=1
		trunk4=(198.18.0.1/24 198.18.0.2/24) to_rcv4=198.19.0.0/16 to_snd4=198.18.0.0/15
		snd_net6=2001:db8:1:%d rcv_net6=2001:db8:2:%d
		trunk6=(2001:db8::1/64 2001:db8::2/64) to_rcv6=2001:db8:2::/48 to_snd6=2001:db8:1::/48
		handle=1: hub_lo=up ;;
	bench)
		snd_ns=s%d rcv_ns=d%d hubs=(r w) shared_ns=s shared_trunk=eb
		snd_port=s%d rcv_port=d%d trunk=(rb wb)
		snd_net=198.18.%d rcv_net=198.19.%d host=1 gw=254
		trunk4=(198.18.0.1/30 198.18.0.2/30) to_rcv4=198.19.0.0/16 to_snd4=198.18.0.0/16
		snd_net6='' rcv_net6='' trunk6=() to_rcv6='' to_snd6=''
		handle=1: hub_lo=up ;;
	pair)
		snd_ns=left rcv_ns=right hubs=(router) shared_ns='' shared_trunk=''
		snd_port=l0 rcv_port=r0 trunk=()
		snd_net=10.77.1 rcv_net=10.77.2 host=2 gw=1
		trunk4=() to_rcv4='' to_snd4=''
		snd_net6='' rcv_net6='' trunk6=() to_rcv6='' to_snd6=''
		handle='' hub_lo=down ;;
	*) die "--layout: '$1' is not dumbbell, bench or pair" ;;
	esac
}

# options ARGS...: the options into their variables, checked.
options() {
	local v
	layout_name=dumbbell nsnd=1 nrcv='' shared=0 placement=router duplex=0 rate=100
	buffer='' burst='' qdisc=tail-drop ecn_min='' ecn_max='' delay='' mtu='' offloads=fifo
	while [ $# -gt 0 ]; do
		case $1 in
		--shared-sender) shared=1; shift; continue ;;
		--duplex) duplex=1; shift; continue ;;
		esac
		[ $# -ge 2 ] || die "$1: needs a value"
		v=$2
		case $1 in
		--layout) layout_name=$v ;;
		--senders) nsnd=$v ;;
		--receivers) nrcv=$v ;;
		--placement) placement=$v ;;
		--rate) rate=$v ;;
		--buffer) buffer=$v ;;
		--burst) burst=$v ;;
		--qdisc) qdisc=$v ;;
		--ecn-min) ecn_min=$v ;;
		--ecn-max) ecn_max=$v ;;
		--delay) delay=$v ;;
		--mtu) mtu=$v ;;
		--offloads) offloads=$v ;;
		*) die "unknown option $1 (see the top of selftests/topology.sh)" ;;
		esac
		shift 2
	done
	nrcv=${nrcv:-$nsnd}
	layout "$layout_name"
	[[ $nsnd =~ ^[1-9][0-9]*$ && $nrcv =~ ^[1-9][0-9]*$ ]] ||
		die "--senders/--receivers: whole numbers from 1"
	[[ ($snd_ns == *%d* || $nsnd = 1) && ($rcv_ns == *%d* || $nrcv = 1) ]] ||
		die "layout $layout_name has one host a side"
	[ $shared = 0 ] || [ -n "$shared_ns" ] || die "layout $layout_name has no shared sender"
	case $placement in
	router | egress) ;;
	egress:*) [[ ${placement#egress:} =~ ^[0-9]+$ && ${placement#egress:} -lt $nsnd ]] ||
		die "--placement $placement: no such sender" ;;
	*) die "--placement: '$placement' is not router, egress or egress:I" ;;
	esac
	[[ $rate = none || ($rate =~ ^[0-9]+(\.[0-9]+)?$ && ! $rate =~ ^0+(\.0+)?$) ]] ||
		die "--rate: Mbit/s or none, not '$rate'"
	case $qdisc in tail-drop | red-ecn) ;; *) die "--qdisc: tail-drop or red-ecn" ;; esac
	case $offloads in keep | fifo | off) ;; *) die "--offloads: keep, fifo or off" ;; esac
	for v in "$burst" "$ecn_min" "$ecn_max" "$mtu"; do
		[[ -z $v || $v =~ ^[0-9]+$ ]] || die "'$v' is not a whole number"
	done
	[[ -z $buffer || $buffer =~ ^[0-9]+$ || $buffer =~ ^[0-9]+(\.[0-9]+)?bdp$ ]] ||
		die "--buffer: bytes or Xbdp, not '$buffer'"
	[[ -z $delay || $delay =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--delay: ms, not '$delay'"
	[ -z "$delay" ] || [ ${#hubs[@]} = 2 ] || die "--delay needs a trunk (two hubs)"
	[ $duplex = 0 ] || [ -z "$delay" ] || die "--duplex: the ACK path carries data too"
}

# names PREFIX: every namespace, device and address of the topology. Host i is
# snd_*[i] / rcv_*[i]; its hub's port carries the subnet's gw address.
names() {
	local p=$1 i n
	hub_l=$p-${hubs[0]} hub_r=$p-${hubs[${#hubs[@]} - 1]}
	snd=() snd4=() snd6=() sport=() rcv=() rcv4=() rcv6=() rport=()
	if [ $shared = 1 ]; then
		hub_l=$p-$shared_ns
		trunk[0]=$shared_trunk
	fi
	for ((i = 0; i < nsnd; i++)); do
		n=$((i + 1))
		# shellcheck disable=SC2059  # the layout's names and nets are formats
		{
			snd[i]=$p-$(printf "$snd_ns" "$i") sport[i]=$(printf "$snd_port" "$i")
			snd4[i]=$(printf "$snd_net" "$n") snd6[i]=${snd_net6:+$(printf "$snd_net6" "$n")}
		}
		[ $shared = 0 ] || snd[i]=$hub_l
	done
	for ((i = 0; i < nrcv; i++)); do
		n=$((i + 1))
		# shellcheck disable=SC2059
		{
			rcv[i]=$p-$(printf "$rcv_ns" "$i") rport[i]=$(printf "$rcv_port" "$i")
			rcv4[i]=$(printf "$rcv_net" "$n") rcv6[i]=${rcv_net6:+$(printf "$rcv_net6" "$n")}
		}
	done
}

# fifo_devs PLACEMENT: "NS DEV" of every FIFO that PLACEMENT puts in the topology.
fifo_devs() {
	local i first=0 slast=$((nsnd - 1)) rlast=$((nrcv - 1))
	if [[ $1 == egress:* ]]; then
		first=${1#egress:} slast=${1#egress:} rlast=${1#egress:}
	fi
	if [[ $1 == egress* ]]; then
		if [ $shared = 1 ]; then
			echo "$hub_l ${trunk[0]}"
		else
			for ((i = first; i <= slast; i++)); do echo "${snd[i]} eth0"; done
		fi
		[ $duplex = 0 ] || for ((i = first; i <= rlast && i < nrcv; i++)); do
			echo "${rcv[i]} eth0"
		done
	elif [ ${#hubs[@]} = 2 ]; then
		echo "$hub_l ${trunk[0]}"
		[ $duplex = 0 ] || echo "$hub_r ${trunk[1]}"
	else
		[ $duplex = 0 ] || for ((i = 0; i < nsnd; i++)); do echo "$hub_l ${sport[i]}"; done
		for ((i = 0; i < nrcv; i++)); do echo "$hub_l ${rport[i]}"; done
	fi
}

# offloads_off NS DEV: no TSO, GSO or GRO on DEV (a veth without the ethtool ops for it
# keeps them).
offloads_off() {
	ip netns exec "$1" ethtool -K "$2" tso off gso off gro off >/dev/null 2>&1
	return 0
}

# fifo NS DEV: the FIFO on DEV's egress: tbf, and RED under it with --qdisc red-ecn.
fifo() {
	local bits bdp bdp10 limit bucket min max
	bits=$(calc "$rate * 1e6")
	bdp=$(calc "$rate * 1e6 / 8 * (${delay:-0} > 10 ? ${delay:-0} : 10) / 1000")
	bdp10=$(calc "$rate * 1e6 / 8 / 100")
	case $buffer in
	'') limit=$((bdp > 65536 ? bdp : 65536)) ;;
	*bdp) limit=$(calc "${buffer%bdp} * $bdp") ;;
	*) limit=$buffer ;;
	esac
	bucket=${burst:-$((bdp10 / 4 > 15000 ? bdp10 / 4 : 15000))}
	[ "$offloads" != fifo ] || offloads_off "$1" "$2"
	run tc -n "$1" qdisc add dev "$2" root ${handle:+handle "$handle"} tbf rate "${bits}bit" \
		burst "$bucket" limit "$limit" || return 1
	[ "$qdisc" = red-ecn ] || return 0
	min=${ecn_min:-$(calc "$rate * 1e6 / 8 / 500")}
	((min > 15000)) || [ -n "$ecn_min" ] || min=15000
	max=${ecn_max:-$((min + 3000))}
	run tc -n "$1" qdisc add dev "$2" parent 1:1 handle 10: red limit "$limit" min "$min" \
		max "$max" avpkt 1500 burst $((min / 1500 + 1)) probability 1.0 \
		bandwidth "${bits}bit" ecn
}

# netns NS [lo]: a namespace, its loopback up unless lo is "down".
netns() {
	run ip netns add "$1" || return 1
	[ "${2:-up}" = down ] || run ip -n "$1" link set lo up
}

# veth NS_A DEV_A NS_B DEV_B: a veth pair between two namespaces, with --mtu.
veth() {
	run ip link add "$2" netns "$1" ${mtu:+mtu "$mtu"} type veth \
		peer name "$4" netns "$3" ${mtu:+mtu "$mtu"} || return 1
	[ "$offloads" != off ] || { offloads_off "$1" "$2" && offloads_off "$3" "$4"; }
}

# addr NS DEV IPV4/LEN [IPV6/LEN]: the addresses (IPv6 without DAD), DEV up.
addr() {
	run ip -n "$1" addr add "$3" dev "$2" || return 1
	[ -z "${4:-}" ] || run ip -n "$1" -6 addr add "$4" dev "$2" nodad || return 1
	run ip -n "$1" link set "$2" up
}

# sysctls NS hub|host: a hub forwards; a host keeps no TCP metrics. With IPv6, no DAD on
# what is created from now on.
sysctls() {
	local v6=()
	[ -z "$snd_net6" ] || v6=(net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0)
	if [ "$2" = hub ]; then
		nsexec "$1" sysctl -qw net.ipv4.ip_forward=1 ${snd_net6:+net.ipv6.conf.all.forwarding=1} ||
			return 1
	fi
	[ ${#v6[@]} = 0 ] || nsexec "$1" sysctl -qw "${v6[@]}" || return 1
	[ "$2" = hub ] || nsexec "$1" sysctl -qw net.ipv4.tcp_no_metrics_save=1
}

# host NS HUB PORT NET NET6: host NS on the hub's PORT, subnet NET (and NET6), its
# default routes through the hub.
host() {
	local ns=$1 hub=$2 port=$3 net=$4 net6=$5
	netns "$ns" && sysctls "$ns" host && veth "$ns" eth0 "$hub" "$port" &&
		addr "$ns" eth0 "$net.$host/24" ${net6:+"$net6::$host/64"} &&
		addr "$hub" "$port" "$net.$gw/24" ${net6:+"$net6::$gw/64"} &&
		run ip -n "$ns" route add default via "$net.$gw" || return 1
	[ -z "$net6" ] || run ip -n "$ns" -6 route add default via "$net6::$gw"
}

# hubs: the hub namespaces (the left one the shared sender with --shared-sender), the
# trunk between two, and their routes to each other's side.
build_hubs() {
	local lrole=hub
	[ $shared = 0 ] || lrole=host
	if [ ${#hubs[@]} = 1 ]; then
		netns "$hub_l" "$hub_lo" && sysctls "$hub_l" hub
		return
	fi
	netns "$hub_l" "$hub_lo" && netns "$hub_r" "$hub_lo" &&
		veth "$hub_l" "${trunk[0]}" "$hub_r" "${trunk[1]}" &&
		addr "$hub_l" "${trunk[0]}" "${trunk4[0]}" ${trunk6[0]:+"${trunk6[0]}"} &&
		addr "$hub_r" "${trunk[1]}" "${trunk4[1]}" ${trunk6[1]:+"${trunk6[1]}"} &&
		sysctls "$hub_l" "$lrole" && sysctls "$hub_r" hub &&
		run ip -n "$hub_l" route add "$to_rcv4" via "${trunk4[1]%/*}" || return 1
	[ -z "$to_rcv6" ] || run ip -n "$hub_l" -6 route add "$to_rcv6" via "${trunk6[1]%/*}" ||
		return 1
	# the senders behind the left hub; a shared sender is on the trunk itself
	[ $shared = 0 ] || return 0
	run ip -n "$hub_r" route add "$to_snd4" via "${trunk4[0]%/*}" || return 1
	[ -z "$to_snd6" ] || run ip -n "$hub_r" -6 route add "$to_snd6" via "${trunk6[0]%/*}"
}

# place: the FIFOs of --placement (none with --rate none).
place() {
	local ns dev
	[ "$rate" != none ] || return 0
	while read -r ns dev; do
		fifo "$ns" "$dev" || return 1
	done < <(fifo_devs "$placement")
}

# report: the lines a caller reads (the top of this file).
report() {
	local i ns dev
	for ((i = 0; i < nsnd; i++)); do
		if [ $shared = 1 ]; then
			echo "sender $i ${snd[i]} ${trunk4[0]%/*}${trunk6[0]:+ ${trunk6[0]%/*}}"
		else
			echo "sender $i ${snd[i]} ${snd4[i]}.$host${snd6[i]:+ ${snd6[i]}::$host}"
		fi
	done
	for ((i = 0; i < nrcv; i++)); do
		echo "receiver $i ${rcv[i]} ${rcv4[i]}.$host${rcv6[i]:+ ${rcv6[i]}::$host}"
	done
	[ $shared = 1 ] || echo "hub $hub_l"
	[ "$hub_r" = "$hub_l" ] || echo "hub $hub_r"
	[ "$rate" = none ] || fifo_devs "$placement" | while read -r ns dev; do
		echo "fifo $ns $dev"
	done
}

# ping_all: every sender reaches its receiver (and each receiver with a shared sender or
# more receivers than senders), before a caller starts timing anything.
ping_all() {
	local i s
	for ((i = 0; i < nrcv; i++)); do
		s=${snd[i < nsnd ? i : 0]}
		nsexec "$s" ping -c1 -W5 -q "${rcv4[i]}.$host" >/dev/null || return 1
		[ -z "${rcv6[i]}" ] || nsexec "$s" ping -6 -c1 -W5 -q "${rcv6[i]}::$host" >/dev/null ||
			return 1
	done
}

up() {
	local i
	build_hubs || return 1
	for ((i = 0; i < nsnd && shared == 0; i++)); do
		host "${snd[i]}" "$hub_l" "${sport[i]}" "${snd4[i]}" "${snd6[i]}" || return 1
	done
	for ((i = 0; i < nrcv; i++)); do
		host "${rcv[i]}" "$hub_r" "${rport[i]}" "${rcv4[i]}" "${rcv6[i]}" || return 1
	done
	place || return 1
	if [ -n "$delay" ]; then
		run tc -n "$hub_r" qdisc add dev "${trunk[1]}" root netem delay "${delay}ms" \
			limit 100000 || return 1
	fi
	ping_all
}

shape() {
	local p ns dev
	for p in router egress; do
		fifo_devs $p
	done | sort -u | while read -r ns dev; do
		# only a FIFO: the default qdisc has no handle to delete, netem is elsewhere
		tc -n "$ns" qdisc del dev "$dev" root >/dev/null 2>&1
	done
	place
}

down() {
	local ns
	for ns in "${snd[@]}" "${rcv[@]}" "$hub_l" "$hub_r"; do
		[ -e "/run/netns/$ns" ] && ip netns del "$ns"
	done
	return 0
}

[ $# -ge 2 ] || die "usage: topology.sh up|shape|down PREFIX [OPTIONS] (see its top)"
cmd=$1 prefix=$2
shift 2
options "$@"
names "$prefix"
case $cmd in
up)
	if ! up; then
		down
		exit 1
	fi
	report ;;
shape) shape && report ;;
down) down ;;
*) die "'$cmd' is not up, shape or down" ;;
esac
