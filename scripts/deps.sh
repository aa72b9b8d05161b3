#!/bin/bash
# Installs (or, with --check, only lists) the Debian packages the MLTCP build and the
# QEMU bench need. Idempotent: packages already installed are left alone.
#
#   scripts/deps.sh [--install|--check] [KVER...]
#
# Each KVER (a release like 6.12.117+deb12-amd64, or a series like 6.12) selects a
# linux-headers package the modules are built against; default: the kernels
# `make check` tests (scripts/default-kver --all: Debian 12's 6.1 and 6.12). The
# matching linux-image is not installed by this script: scripts/vm-run downloads and
# unpacks it into its cache (Debian's 6.12 headers package depends on its image, so
# apt installs that one too, unused).
#
# Where the kernels come from: 6.1 (linux-image-amd64) and 6.12 (linux-image-6.12-amd64)
# from bookworm and bookworm-security; a KVER that no configured source serves (an
# older 6.12 build, e.g. 6.12.95+deb12-amd64) from bookworm-backports, which this
# script then adds as /etc/apt/sources.list.d/mltcp-bookworm-backports.sources.
#
# QEMU: 10.0 or later (bookworm-backports on Debian 12, whose own 7.2 is older). Under
# QEMU 7.2's TCG, 6.12 guests died now and then in the network receive path with
# impossible saved register frames (bench/RESULTS.md, session 17, "The 6.12 guest
# crashes").
set -euo pipefail

mode=--install
case "${1:-}" in
--install | --check) mode=$1; shift ;;
-h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
backports=/etc/apt/sources.list.d/mltcp-bookworm-backports.sources

# A series (6.12) stands for its newest release; resolved once the apt lists exist.
is_release() { [[ $1 =~ -amd64$ ]]; }
asked=("$@")
kvers=()
need_update=0
resolve() {
	local k out
	kvers=()
	if [ ${#asked[@]} = 0 ]; then
		out=$("$here/default-kver" --all 2>/dev/null) || return 1
		mapfile -t kvers <<<"$out"
		return 0
	fi
	for k in "${asked[@]}"; do
		if is_release "$k"; then
			kvers+=("$k")
		else
			out=$("$here/default-kver" "$k" 2>/dev/null) || return 1
			kvers+=("$out")
		fi
	done
}
resolve || need_update=1

pkgs=(
	build-essential bc kmod cpio xz-utils busybox-static
	iproute2 iputils-ping iperf3 jq procps util-linux ethtool python3
	pkg-config libcmocka-dev libmnl-dev sparse gnuplot-nox
	# PyTorch DDP over gloo: mltcp.torch tests, selftests/long/ddp_*, scripts/bench-ddp
	python3-torch
	# Debian packages and DKMS (scripts/check-packages.sh)
	dpkg-dev debhelper dh-dkms dkms dh-python lintian
	# the BPF backend (bpf/, make native)
	clang bpftool libbpf-dev
)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# The QEMU the guests need (see the header) and where Debian 12 has it.
qemu_min=1:10.0
qemu_ok() {
	local p v
	for p in qemu-system-x86 qemu-utils; do
		installed "$p" || return 1
		v=$(dpkg-query -W -f='${Version}' "$p")
		dpkg --compare-versions "$v" ge "$qemu_min" || return 1
	done
}

missing_list() {
	local p k
	for p in "${pkgs[@]}"; do
		installed "$p" || echo "$p"
	done
	for k in "${kvers[@]}"; do
		installed "linux-headers-$k" || echo "linux-headers-$k"
	done
	qemu_ok || echo "qemu-system-x86(>=$qemu_min)"
}

missing=$(missing_list)
if [ -z "$missing" ] && [ $need_update = 0 ]; then
	exit 0
fi

if [ "$mode" = --check ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "deps: missing Debian packages:" $missing >&2
	[ $need_update = 1 ] && echo "deps: cannot tell the kernel versions without 'apt-get update'" >&2
	[ "$(id -u)" != 0 ] && echo "deps: run 'sudo scripts/deps.sh' (needs root and apt-get)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "deps: apt-get update" >&2
apt-get update -q >&2
resolve || true
# A kernel no configured source serves: add bookworm-backports (once) and look again.
served() { [ -n "$(apt-cache madison "linux-headers-$1" 2>/dev/null)" ]; }
unserved=0
for k in "${kvers[@]}"; do served "$k" || unserved=1; done
add_backports() {
	cat >"$backports" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	apt-get update -q >&2
}
if { [ $unserved = 1 ] || [ ${#kvers[@]} = 0 ]; } && [ ! -e "$backports" ]; then
	echo "deps: adding bookworm-backports ($backports)" >&2
	add_backports
	resolve || true
fi
if [ ${#kvers[@]} = 0 ]; then
	echo "deps: cannot tell the kernel version(s) ${asked[*]:-of scripts/default-kver --all}" >&2
	exit 1
fi
for k in "${kvers[@]}"; do
	served "$k" || { echo "deps: Debian serves no linux-headers-$k" >&2; exit 1; }
done
if ! qemu_ok; then
	# Debian 12's own QEMU is 7.2: take bookworm-backports' where that is the newer one.
	qemu_from=()
	if ! dpkg --compare-versions "$(apt-cache policy qemu-system-x86 |
		sed -n 's/^ *Candidate: //p')" ge "$qemu_min" && [ ! -e "$backports" ]; then
		echo "deps: adding bookworm-backports for QEMU $qemu_min or later ($backports)" >&2
		add_backports
	fi
	[ -e "$backports" ] && qemu_from=(-t bookworm-backports)
	echo "deps: installing QEMU (>= $qemu_min) ${qemu_from[*]}" >&2
	apt-get install -y -q --no-install-recommends "${qemu_from[@]}" \
		qemu-system-x86 qemu-utils >&2
fi
missing=$(missing_list | grep -v '^qemu-system-x86(' || true)
if [ -n "$missing" ]; then
	echo "deps: installing:" $missing >&2
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >&2
fi
missing=$(missing_list)
if [ -n "$missing" ]; then
	echo "deps: still missing after apt-get install:" $missing >&2
	exit 1
fi
