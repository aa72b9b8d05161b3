#!/bin/bash
# Installs (or, with --check, only lists) the Debian packages the MLTCP build and the
# QEMU bench need. Idempotent: packages already installed are left alone.
#
#   scripts/deps.sh [--install|--check] [KVER]
#
# KVER selects the linux-headers package the modules are built against (default:
# scripts/default-kver). The matching linux-image is not installed: scripts/vm-run
# downloads and unpacks it into its cache.
set -euo pipefail

mode=--install
case "${1:-}" in
--install | --check) mode=$1; shift ;;
-h | --help) sed -n '2,10p' "$0"; exit 0 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
kver=${1:-}

need_update=0
if [ -z "$kver" ]; then
	kver=$("$here/default-kver" 2>/dev/null) || need_update=1
fi

pkgs=(
	build-essential bc kmod cpio busybox-static qemu-system-x86 qemu-utils
	iproute2 iputils-ping iperf3 jq procps util-linux ethtool python3
	pkg-config libcmocka-dev libmnl-dev sparse gnuplot-nox
)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

missing_list() {
	local p
	for p in "${pkgs[@]}" ${kver:+linux-headers-$kver}; do
		installed "$p" || echo "$p"
	done
}

missing=$(missing_list)
if [ -z "$missing" ] && [ $need_update = 0 ]; then
	exit 0
fi

if [ "$mode" = --check ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "deps: missing Debian packages:" $missing >&2
	[ "$(id -u)" != 0 ] && echo "deps: run 'sudo scripts/deps.sh' (needs root and apt-get)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "deps: apt-get update" >&2
apt-get update -q >&2
if [ -z "$kver" ]; then
	kver=$("$here/default-kver")
fi
missing=$(missing_list)
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
