#!/bin/bash
# scripts/deps.sh's guard of the machine's kernel packages, against a stand-in apt and
# dpkg (on PATH, with their package list in a file): an apt-get whose plan installs a
# linux-image-* or linux-headers-* package must be refused before anything is
# installed; a kernel package that appears all the same must fail the run; a clean
# plan must install the packages and what the unpacked headers need. Prints TAP; runs
# as any user, in seconds.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
# shellcheck source=scripts/tap-result.sh
. "$top/scripts/tap-result.sh"
fake=$(mktemp -d)
out=$fake/out
trap 'rm -rf "$fake"' EXIT
kver=9.9.9-test-amd64

mkdir -p "$fake/bin"
# dpkg-query -W [-f=FORMAT] PATTERN...: from $fake/state, "PACKAGE VERSION" lines.
cat >"$fake/bin/dpkg-query" <<'EOF'
#!/bin/bash
fmt='${Package}\n' pats=() rc=1
for a; do
	case $a in -W) ;; -f=* | --showformat=*) fmt=${a#*=} ;; *) pats+=("$a") ;; esac
done
for pat in "${pats[@]}"; do
	while read -r p v; do
		# shellcheck disable=SC2053
		[[ $p == $pat ]] || continue
		rc=0
		case $fmt in
		*'${db:Status-Status}'*) echo "$p $v installed" ;;
		'${Status}') printf 'install ok installed' ;;
		'${Version}') printf '%s' "$v" ;;
		*) echo "$p" ;;
		esac
	done <"$FAKE/state"
done
exit $rc
EOF
# apt-get: -s prints a plan of the packages asked for, plus $FAKE_PLAN; a real install
# adds them to the state, plus $FAKE_SNEAK.
cat >"$fake/bin/apt-get" <<'EOF'
#!/bin/bash
echo "apt-get $*" >>"$FAKE/calls"
[ "$1" = install ] || exit 0
shift
sim=0 pkgs=()
for a; do
	case $a in -s) sim=1 ;; -*) ;; *) pkgs+=("$a") ;; esac
done
if [ $sim = 1 ]; then
	for p in "${pkgs[@]}" ${FAKE_PLAN:-}; do echo "Inst $p (1.0 Debian:12 [amd64])"; done
	exit 0
fi
for p in "${pkgs[@]}" ${FAKE_SNEAK:-}; do echo "$p 1.0" >>"$FAKE/state"; done
EOF
cat >"$fake/bin/apt-cache" <<'EOF'
#!/bin/bash
[ "$1" = madison ] && echo "$2 | 1.0 | fake"
exit 0
EOF
# deps.sh's own root check; the stand-ins need none.
printf '#!/bin/sh\necho 0\n' >"$fake/bin/id"
chmod +x "$fake"/bin/*
# The kernel's headers as if unpacked, needing one package.
root=$fake/cache/$kver/headers
mkdir -p "$root"
echo "$root" >"$root/.done"
echo fake-headers-need >"$root/.needs"

# deps ENV...: a fresh state (QEMU 10 only), then scripts/deps.sh for $kver.
deps() {
	printf '%s\n' 'qemu-system-x86 1:10.0.2' 'qemu-utils 1:10.0.2' >"$fake/state"
	: >"$fake/calls"
	env FAKE="$fake" PATH="$fake/bin:$PATH" MLTCP_CACHE="$fake/cache" "$@" \
		scripts/deps.sh --install "$kver" >"$out" 2>&1
}
installs() { grep -q '^apt-get install -y' "$fake/calls"; }
has() { grep -q "^$1 " "$fake/state"; }

echo "TAP version 13"
echo "1..4"
deps FAKE_PLAN="linux-image-$kver"
rc=$?
[ $rc != 0 ] && ! installs && ! has "linux-image-$kver" && grep -q 'refusing' "$out"
result "deps.sh refuses an apt-get whose plan installs linux-image-$kver, before installing anything" $?

deps FAKE_PLAN="linux-headers-$kver"
rc=$?
[ $rc != 0 ] && ! installs && grep -q 'refusing' "$out"
result "deps.sh refuses an apt-get whose plan installs linux-headers-$kver" $?

deps FAKE_SNEAK="linux-image-$kver"
rc=$?
[ $rc != 0 ] && grep -q "kernel packages changed" "$out" && grep -q "linux-image-$kver" "$out"
result "deps.sh fails when a kernel package appears although the plan had none" $?

deps
rc=$?
[ $rc = 0 ] && installs && has build-essential && has fake-headers-need && ! grep -q '^linux-' "$fake/state"
result "deps.sh installs the packages and what the unpacked headers need, no kernel package" $?
exit $((failed > 0))
