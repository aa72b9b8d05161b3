#!/bin/bash
# Installs (or, with --check, only lists) the Debian packages the MLTCP build and the
# QEMU bench need, and unpacks the kernel headers the modules are built against.
# Idempotent: packages already installed and headers already unpacked are left alone.
#
#   scripts/deps.sh [--install|--check] [KVER...]
#   scripts/deps.sh --kernel-packages    the linux-image-* and linux-headers-* packages
#                                        dpkg has (name, version, state), one a line
#   MLTCP_DEPS_DEBUG_KERNEL=1 scripts/deps.sh ...   also what scripts/debug-kernel needs
#
# Each KVER (a release like 6.12.117+deb12-amd64, or a series like 6.12) selects the
# linux-headers package the modules are built against; default: the kernels `make
# check` tests (scripts/default-kver --all: Debian 12's 6.1 and 6.12). Neither the
# headers nor the kernel image are installed: scripts/kheaders downloads and unpacks
# the headers (and the kbuild packages they need) into $MLTCP_CACHE/KVER/headers,
# scripts/vm-run the image into $MLTCP_CACHE/KVER/image. apt-get is never let install,
# upgrade or remove a linux-image-* or linux-headers-* package (Debian's 6.12 headers
# depend on their image, which would change what the machine boots): an apt-get that
# would is refused, and the script fails if those packages changed all the same.
#
# Where the kernels come from: 6.1 (linux-image-amd64) and 6.12 (linux-image-6.12-amd64)
# from bookworm and bookworm-security; a KVER that no configured source serves (an
# older 6.12 build, e.g. 6.12.95+deb12-amd64) from bookworm-backports, which this
# script then adds as /etc/apt/sources.list.d/mltcp-bookworm-backports.sources.
#
# QEMU: 10.0 or later (bookworm-backports on Debian 12, whose own 7.2 is older). Under
# QEMU 7.2's TCG, 6.12 guests died now and then in the network receive path with
# impossible saved register frames.
set -euo pipefail

# Kernel image and headers packages dpkg knows in any state but not-installed.
kernel_pkgs() {
	dpkg-query -W -f='${Package} ${Version} ${db:Status-Status}\n' 'linux-image-*' \
		'linux-headers-*' 2>/dev/null | grep -v ' not-installed$' || true
}

mode=--install
case "${1:-}" in
--install | --check) mode=$1; shift ;;
--kernel-packages) kernel_pkgs; exit 0 ;;
-h | --help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
	# PyTorch DDP over gloo: mltcp.torch tests, lab/ddp-checks/ddp_*, lab/scripts/bench-ddp
	python3-torch
	# Debian packages and DKMS (scripts/check-packages.sh)
	dpkg-dev debhelper dh-dkms dkms dh-python lintian
	# the BPF backend (bpf/, make native)
	clang bpftool libbpf-dev
	# make fuzz (tests/fuzz): libFuzzer's runtime for Debian 12's clang
	libclang-rt-14-dev
	# the cluster simulator (lab/sim: ns-3, whose pkg-config files link GSL)
	libns3-dev libgsl-dev
	# the Slurm SPANK plugin (contrib/slurm: spank.h) and its one-node cluster (test_44)
	libslurm-dev munge slurmctld slurmd slurm-client
	# promtool checks mltcpctl metrics' Prometheus text (userspace/mltcpctl tests)
	prometheus
)
# The debug kernel of `make check-debug` (scripts/debug-kernel) is built from Debian's
# source: Kconfig needs flex and bison, objtool libelf, the BTF the BPF backend needs
# pahole. Only asked for by that target.
[ "${MLTCP_DEPS_DEBUG_KERNEL:-0}" = 1 ] && pkgs+=(flex bison libelf-dev pahole)

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

kernel_before=$(kernel_pkgs)
# The last word on the machine's kernel packages, however this script ends.
kernel_unchanged() {
	local rc=$? now
	now=$(kernel_pkgs)
	[ "$now" = "$kernel_before" ] && return $rc
	echo "deps: FAIL: the machine's kernel packages changed (a test command must not change what it boots):" >&2
	diff <(echo "$kernel_before") <(echo "$now") | sed -n '/^[<>] ./s/^/deps:   /p' >&2
	exit 1
}
trap kernel_unchanged EXIT

# apt_install ARG...: apt-get install without recommends, refused if apt's plan
# installs, upgrades or removes a kernel image or headers package.
apt_install() {
	local plan kern
	plan=$(apt-get install -s -q --no-install-recommends "$@" 2>&1) || { echo "$plan" >&2; exit 1; }
	kern=$(sed -n -E 's/^(Inst|Remv|Purg) (linux-(image|headers)-[^ ]+).*/\1 \2/p' <<<"$plan")
	if [ -n "$kern" ]; then
		echo "deps: FAIL: refusing 'apt-get install $*', its plan touches kernel packages:" $kern >&2
		exit 1
	fi
	apt-get install -y -q --no-install-recommends "$@" >&2
}

# Packages for apt: the list above, QEMU apart, and what each kernel's unpacked headers
# need (known once they are unpacked).
missing_pkgs() {
	local p k
	for p in "${pkgs[@]}"; do
		installed "$p" || echo "$p"
	done
	for k in "${kvers[@]}"; do
		{ "$here/kheaders" --needs "$k" 2>/dev/null || true; } | while read -r p; do
			installed "$p" || echo "$p"
		done
	done
}
missing_headers() {
	local k
	for k in "${kvers[@]}"; do
		"$here/kheaders" "$k" >/dev/null 2>&1 || echo "linux-headers-$k"
	done
}
missing_list() {
	missing_pkgs
	missing_headers
	qemu_ok || echo "qemu-system-x86(>=$qemu_min)"
}

missing=$(missing_list)
if [ -z "$missing" ] && [ $need_update = 0 ]; then
	exit 0
fi

if [ "$mode" = --check ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "deps: missing (Debian packages; linux-headers-* to unpack into the cache):" $missing >&2
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
	apt_install "${qemu_from[@]}" qemu-system-x86 qemu-utils
fi
for k in $(missing_headers | sed 's/^linux-headers-//'); do
	"$here/kheaders" --fetch "$k" >/dev/null
done
missing=$(missing_pkgs)
if [ -n "$missing" ]; then
	echo "deps: installing:" $missing >&2
	# shellcheck disable=SC2086
	apt_install $missing
fi
missing=$(missing_list)
if [ -n "$missing" ]; then
	echo "deps: still missing after apt-get install:" $missing >&2
	exit 1
fi
