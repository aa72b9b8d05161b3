#!/bin/bash
# check-packages: MLTCP installed the way operators install kernel modules, end to end.
# Part of `make check`; needs root and the packaging tools of scripts/deps.sh. Prints TAP.
#
#   scripts/check-packages.sh [KVER...]    (default: scripts/default-kver --all)
#
#  1. builds the Debian packages from a copy of the checkout (dpkg-buildpackage -us -uc
#     -b: unit tests, and dpkg-gensymbols against debian/libmltcp1.symbols at level 4),
#  2. runs lintian on them: no error or warning may remain (debian/README.source says
#     why the overridden ones are fine); the output goes to $BUILD/packages/lintian.txt,
#  3. installs them on this machine with dpkg -i: mltcp-dkms's postinst runs DKMS for
#     the kernels in /lib/modules, and must not fail for a running kernel without
#     headers; DKMS then builds and installs mltcp for each KVER (dkms install -k,
#     --kernelsourcedir: the headers scripts/deps.sh unpacked, or the installed ones;
#     a /lib/modules/KVER it needs to install into is made, and removed at the end),
#  4. checks that the release in VERSION is the one everything carries, and that the
#     package's DKMS tree is the one `make dkms-install` makes from the checkout,
#  5. boots each KVER in the QEMU bench with the modules DKMS installed (and no others of
#     ours) and runs scripts/check-packages-guest.sh there: modprobe, the boot-time
#     examples, traffic, mltcpctl and the Python binding from the packages,
#  6. purges the packages and compares the file lists of the places they touch before
#     installing and after purging: nothing may be left, nothing else may be gone.
# It refuses to run (not ok) when MLTCP packages or DKMS sources are already installed:
# they are the operator's, not the test's.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
BUILD=${BUILD:-$top/build}
out=$BUILD/packages
version=$(cat VERSION 2>/dev/null)
arch=$(dpkg --print-architecture)
pkgs=(mltcp-dkms libmltcp1 libmltcp-dev mltcpctl python3-mltcp)
# Where the packages, DKMS and dpkg put files.
watched=(/usr/src /usr/lib /usr/include /usr/sbin /usr/bin /usr/share/doc /usr/share/man
	/etc /var/lib/dkms /var/lib/dpkg/info)

kvers=("$@")
[ ${#kvers[@]} -gt 0 ] || mapfile -t kvers < <(scripts/default-kver --all)

failed=0
ok() { echo "ok - [pkg] $1"; }
not_ok() {
	echo "not ok - [pkg] $1"
	failed=$((failed + 1))
}
diag() { echo "# $*"; }
# result DESC STATUS [LOG]: one TAP line; LOG's tail as diagnostics on failure.
result() {
	if [ "$2" = 0 ]; then ok "$1"; else
		not_ok "$1"
		[ -n "${3:-}" ] && [ -s "$3" ] && tail -n 30 "$3" | sed 's/^/#   /'
	fi
	return "$2"
}
finish() {
	echo "# check-packages: $failed failed, $(($(date +%s) - start))s"
	exit $((failed > 0))
}
start=$(date +%s)
lap_t=$start
# lap WHAT: how long WHAT took, as a diagnostic line.
lap() {
	local now
	now=$(date +%s)
	diag "time: $1 $((now - lap_t))s"
	lap_t=$now
}

echo "# ===== Debian packages and DKMS (release ${version:-?}, kernels ${kvers[*]})"
[ "$(id -u)" = 0 ] || { not_ok "check-packages needs root (dpkg -i, dkms)"; finish; }
[[ $version =~ ^[0-9]+(\.[0-9]+)*$ ]] || { not_ok "VERSION holds a release (read '$version')"; finish; }
for t in dpkg-buildpackage lintian dkms dh_dkms; do
	command -v "$t" >/dev/null || { not_ok "$t is installed (scripts/deps.sh)"; finish; }
done
mine=$(dpkg-query -W -f='${Package} ${Status}\n' "${pkgs[@]}" 2>/dev/null | grep -v not-installed)
if [ -n "$mine" ] || [ -e /var/lib/dkms/mltcp ] || compgen -G '/usr/src/mltcp-*' >/dev/null; then
	not_ok "the machine has no MLTCP package or DKMS tree to start with (found: ${mine:-} $(ls -d /var/lib/dkms/mltcp /usr/src/mltcp-* 2>/dev/null | tr '\n' ' '))"
	finish
fi

# ---- 1. build -----------------------------------------------------------------------
rm -rf "$out"
src=$out/mltcp-$version
mkdir -p "$src"
# The checkout's sources (tracked and new files, not build output).
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -C "$src" -xf -
else
	tar --exclude=./build --exclude-vcs --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
		-cf - . | tar -C "$src" -xf -
fi
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1
result "dpkg-buildpackage -us -uc -b builds ${pkgs[*]} (unit tests run, symbols checked)" $? \
	"$out/build.log" || finish
debs=()
for p in "${pkgs[@]}"; do
	f=$(ls "$out/${p}_${version}_"{"$arch",all}.deb 2>/dev/null | head -n 1)
	[ -n "$f" ] || { not_ok "package $p was built"; finish; }
	debs+=("$f")
done

lap build
# ---- 2. lintian ---------------------------------------------------------------------
changes=$out/mltcp_${version}_$arch.changes
# Exit status 1 is a lintian run-time error; with --show-overrides an overridden error
# gives 2 (--fail-on error), so the verdict comes from the tags.
lintian -I -E --pedantic --show-overrides --tag-display-limit 0 "$changes" >"$out/lintian.txt" 2>&1
rc=$?
[ $rc = 2 ] && rc=0
tags=$(grep -Ec '^[IPX]: ' "$out/lintian.txt")
overridden=$(grep -Ec '^O: ' "$out/lintian.txt")
! grep -Eq '^[EW]: ' "$out/lintian.txt" && [ $rc = 0 ]
result "lintian: no error or warning ($tags info/pedantic/experimental tags, $overridden overridden with a reason; $out/lintian.txt)" $? \
	"$out/lintian.txt"

lap lintian
# ---- 3. install ---------------------------------------------------------------------
# DKMS installs only into a kernel's existing /lib/modules/KVER, which the bench
# kernels, neither image nor headers installed, do not have: the test makes it (before
# the file lists are taken, so that they compare what the packages and DKMS did) and
# removes it at the end.
made=()
for k in "${kvers[@]}"; do
	[ -e "/lib/modules/$k" ] && continue
	mkdir -p "/lib/modules/$k" && made+=("/lib/modules/$k")
done
unmake() {
	[ ${#made[@]} = 0 ] || rm -rf "${made[@]}"
	made=()
}
snapshot() { find "${watched[@]}" -xdev 2>/dev/null | LC_ALL=C sort; }
snapshot >"$out/files-before.txt"
installed=1
cleanup() {
	if [ $installed = 1 ]; then
		installed=0
		dpkg -P "${pkgs[@]}" >>"$out/purge.log" 2>&1
		dkms status -m mltcp 2>/dev/null | grep -q . &&
			dkms remove -m mltcp -v "$version" --all >>"$out/purge.log" 2>&1
	fi
	unmake
}
trap cleanup EXIT
trap 'exit 130' INT TERM
dpkg -i "${debs[@]}" >"$out/install.log" 2>&1
rc=$?
states=$(dpkg-query -W -f='${Status}\n' "${pkgs[@]}" 2>/dev/null | grep -c 'install ok installed')
kver=$(uname -r)
headers=none
[ -e "/lib/modules/$kver/build" ] && headers=yes
[ $rc = 0 ] && [ "$states" = ${#pkgs[@]} ]
result "dpkg -i installs the ${#pkgs[@]} packages; mltcp-dkms's postinst succeeds (running kernel $kver, headers: $headers)" $? \
	"$out/install.log" || finish
diag "postinst: $(grep -E '^(Building for|Module build|It is likely)' "$out/install.log" | tr '\n' ' ')"

for k in "${kvers[@]}"; do
	how=postinst
	if ! dkms status -m mltcp -v "$version" -k "$k" 2>/dev/null | grep -q ': installed'; then
		how="dkms install -k $k"
		dkms install -m mltcp -v "$version" -k "$k" \
			--kernelsourcedir "$(scripts/kheaders "$k")" >>"$out/dkms-$k.log" 2>&1
	fi
	dir=/lib/modules/$k/updates/dkms
	fail=0
	for m in mltcp mltcp_reno mltcp_cubic mltcp_dctcp; do
		f=$(ls "$dir/$m.ko"* 2>/dev/null | head -n 1)
		if [ -z "$f" ]; then
			echo "no $m.ko in $dir" >>"$out/dkms-$k.log"
			fail=1
			continue
		fi
		v=$(modinfo -F version "$f") vm=$(modinfo -F vermagic "$f" | cut -d' ' -f1)
		if [ "$v" != "$version" ] || [ "$vm" != "$k" ]; then
			echo "$f: version '$v', vermagic '$vm'" >>"$out/dkms-$k.log"
			fail=1
		fi
	done
	result "DKMS built and installed mltcp $version for $k (by $how): 4 modules in $dir, version $version" \
		$fail "$out/dkms-$k.log"
done

lap "install and DKMS"
# ---- 4. one release everywhere ------------------------------------------------------
(
	fail=0
	for p in "${pkgs[@]}"; do
		v=$(dpkg-query -W -f='${Version}' "$p")
		[ "$v" = "$version" ] || { echo "package $p: $v"; fail=1; }
	done
	v=$(/usr/sbin/mltcpctl -V)
	[[ $v == "mltcpctl $version "* ]] || { echo "mltcpctl -V: $v"; fail=1; }
	v=$(pkg-config --modversion mltcp)
	[ "$v" = "$version" ] || { echo "pkg-config --modversion mltcp: $v"; fail=1; }
	lib=$(ls /usr/lib/*/libmltcp.so.1)
	so=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	real=$(basename "$(readlink -f "$lib")")
	[ "$so" = libmltcp.so.1 ] && [ "$real" = "libmltcp.so.$version" ] ||
		{ echo "soname $so, file $real"; fail=1; }
	v=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "/usr/src/mltcp-$version/dkms.conf")
	[ "$v" = "$version" ] || { echo "dkms.conf PACKAGE_VERSION: $v"; fail=1; }
	exit $fail
) >"$out/versions.log" 2>&1
result "one release $version: the packages, mltcpctl -V, mltcp.pc, dkms.conf, libmltcp.so.$version (soname libmltcp.so.1)" $? \
	"$out/versions.log"

# `make dkms-install` from a checkout and the package install the same DKMS tree.
make --no-print-directory -s dkms-src DKMS_SRC="$out/dkms-src" >"$out/dkms-src.log" 2>&1 &&
	diff -r "$out/dkms-src" "/usr/src/mltcp-$version" >>"$out/dkms-src.log" 2>&1
result "make dkms-src (what make dkms-install adds) is the tree mltcp-dkms put in /usr/src/mltcp-$version" $? \
	"$out/dkms-src.log"

# ---- 5. the guest -------------------------------------------------------------------
for k in "${kvers[@]}"; do
	s=$(echo "$k" | cut -d. -f1-2)
	args=("$version")
	for m in mltcp mltcp_cubic; do
		f=$(ls "/lib/modules/$k/updates/dkms/$m.ko"* 2>/dev/null | head -n 1)
		[ -n "$f" ] && args+=("$m=$(sha256sum <"$f" | cut -d' ' -f1)")
	done
	KVER=$k scripts/vm-run --kver "$k" --modules "/lib/modules/$k/updates/dkms" --timeout 300 \
		-- scripts/check-packages-guest.sh "${args[@]}" 2>&1 |
		sed -u -E "s/^([[:space:]]*(not )?ok)( [0-9]+)?( -)?( |\$)/\\1\\3 - [pkg $s] /" |
		tee "$out/guest-$k.log"
	rc=${PIPESTATUS[0]}
	grep -q '^not ok' "$out/guest-$k.log" && failed=$((failed + 1))
	[ "$rc" != 0 ] && [ "$rc" != 1 ] && not_ok "[$s] the guest run on the installed packages: vm-run exit status $rc"
	lap "guest $s"
done

# ---- 6. purge -----------------------------------------------------------------------
installed=0
dpkg -P "${pkgs[@]}" >"$out/purge.log" 2>&1
rc=$?
left=$(dpkg-query -W -f='${Package} ${Status}\n' "${pkgs[@]}" 2>/dev/null | grep -v not-installed)
[ $rc = 0 ] && [ -z "$left" ] && [ -z "$(dkms status -m mltcp 2>/dev/null)" ]
result "dpkg -P purges the packages; mltcp-dkms's prerm removes mltcp from DKMS (dkms status is empty)" $? \
	"$out/purge.log"
snapshot >"$out/files-after.txt"
# Two kinds of new files are not the packages' and are the test's to remove, as it
# caused them: depmod's index files (modules.dep, ...) of a kernel whose image is not
# installed (the bench kernels), which exist only because DKMS installed into that
# tree; and the module signing key DKMS makes on its first build (/var/lib/dkms/mok.*),
# which on a real host stays for every DKMS module and Secure Boot enrolment. Anything
# else is a leftover.
LC_ALL=C comm -13 "$out/files-before.txt" "$out/files-after.txt" >"$out/files-new.txt"
: >"$out/files-ours.txt"
for d in /usr/lib/modules/*; do
	[ -e "$d/kernel" ] && continue
	# $d literally: a release such as 6.12.117+deb12-amd64 is no regular expression.
	awk -v d="$d/" 'index($0, d) == 1 && substr($0, length(d) + 1) ~ /^modules\.[a-z.]+$/' \
		"$out/files-new.txt" >>"$out/files-ours.txt"
done
grep -Ex '/var/lib/dkms/mok\.(key|pub)' "$out/files-new.txt" >>"$out/files-ours.txt"
if [ -s "$out/files-ours.txt" ]; then
	xargs -r rm -f <"$out/files-ours.txt"
	diag "removed what DKMS made outside the packages: $(sed 's|/modules\.[a-z.]*$|/modules.*|' "$out/files-ours.txt" | sort -u | tr '\n' ' ')"
fi
snapshot >"$out/files-after.txt"
diff "$out/files-before.txt" "$out/files-after.txt" >"$out/files-diff.txt"
result "nothing is left and nothing else is gone: the file lists of ${watched[*]} before installing and after purging are the same" $? \
	"$out/files-diff.txt"
lap "purge and compare"
finish
