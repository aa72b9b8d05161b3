#!/bin/bash
# `make checkpatch`: the kernel's scripts/checkpatch.pl --strict, file by file, over the
# files given (the Makefile's CHECKPATCH_FILES), as a netdev reviewer runs it. Exits 1 if
# it reports anything (error, warning or check).
#
# The script and the two data files it reads (spelling.txt, const_structs.checkpatch)
# come from Debian's linux-source-SERIES: the package is downloaded (apt-get download,
# never installed, as scripts/debug-kernel does), only those three files are unpacked
# from its tarball, into the bench cache, once per package version (~150 MB download and
# ~20 s the first time; then a few seconds a run).
#
#   scripts/checkpatch.sh FILE...
#
# Environment: MLTCP_CACHE (default /var/cache/mltcp-bench), CHECKPATCH_SERIES (6.12).
# A trace header (*_trace.h) is checked without OPEN_ENDED_LINE and PARENTHESIS_ALIGNMENT:
# TRACE_EVENT()'s own layout (TP_STRUCT__entry( on a line of its own, as in the kernel's
# include/trace/events/) trips both; include/mltcp.h without MACRO_ARG_REUSE (below).
set -euo pipefail
die() { echo "checkpatch: $*" >&2; exit 1; }
[ $# -gt 0 ] || die "usage: scripts/checkpatch.sh FILE..."
series=${CHECKPATCH_SERIES:-6.12}
pkg=linux-source-$series
cache=${MLTCP_CACHE:-/var/cache/mltcp-bench}

debver=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
if [ -z "$debver" ] || [ "$debver" = "(none)" ]; then
	# without apt lists, a copy unpacked before
	shopt -s nullglob
	old=("$cache/checkpatch-$series-"*/checkpatch.pl)
	shopt -u nullglob
	[ ${#old[@]} -gt 0 ] || die "apt knows no $pkg (apt-get update)"
	dir=$(dirname "${old[-1]}")
else
	dir=$cache/checkpatch-$series-$debver
fi

if [ ! -x "$dir/checkpatch.pl" ]; then
	[ "$(id -u)" = 0 ] || die "$dir is missing: run once as root (the cache is root's)"
	command -v perl >/dev/null || die "perl is missing"
	echo "checkpatch: unpacking checkpatch.pl from $pkg $debver into $dir" >&2
	mkdir -p "$cache"
	tmp=$(mktemp -d "$cache/checkpatch-dl.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# apt downloads as its sandbox user, who must be able to write there.
	chmod 755 "$tmp"
	chown _apt "$tmp" 2>/dev/null || true
	(cd "$tmp" && apt-get download -q "$pkg=$debver" >&2) ||
		die "apt-get download $pkg=$debver failed"
	mkdir -p "$tmp/out"
	dpkg-deb --fsys-tarfile "$tmp/${pkg}_"*.deb | tar -xO "./usr/src/$pkg.tar.xz" |
		tar -xJ -C "$tmp/out" --strip-components=2 "$pkg/scripts/checkpatch.pl" \
			"$pkg/scripts/spelling.txt" "$pkg/scripts/const_structs.checkpatch"
	rm -rf "$dir"
	mv "$tmp/out" "$dir"
fi

status=0
for f in "$@"; do
	ignore=()
	case $f in
	*_trace.h) ignore=(--ignore OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT) ;;
	# MLTCP_ALGO_COUNTERS(algo): the argument is a variable, whose address
	# each module_param_cb() takes; naming it twice has no side effect.
	include/mltcp.h) ignore=(--ignore MACRO_ARG_REUSE) ;;
	esac
	"$dir/checkpatch.pl" --no-tree --strict --quiet --show-types "${ignore[@]}" -f "$f" ||
		status=1
done
if [ $status = 0 ]; then
	echo "checkpatch --strict: no findings in $# files"
fi
exit $status
