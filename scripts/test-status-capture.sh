#!/bin/bash
# scripts/check-status-capture against shell fragments it must flag (a "$?" that is a
# command substitution's status) and fragments it must pass (the status captured
# first, a substitution that ends in its own "$?", arithmetic, a command separator in
# between, "$?" in quotes or a comment). Prints TAP; runs as any user, in a second.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/tap-result.sh
. "$top/scripts/tap-result.sh"
dir=$(mktemp -d)
out=$dir/out
trap 'rm -rf "$dir"' EXIT

# flagged NAME FRAGMENT: check-status-capture must exit 1 and name the line.
flagged() {
	printf '%s\n' "$2" >"$dir/$1.sh"
	"$top/scripts/check-status-capture" "$dir/$1.sh" >"$out" 2>&1
	[ $? = 1 ] && grep -q "$1.sh:1:" "$out"
	result "flagged: $1" $?
}
# passed NAME FRAGMENT: check-status-capture must exit 0.
passed() {
	printf '%s\n' "$2" >"$dir/$1.sh"
	"$top/scripts/check-status-capture" "$dir/$1.sh" >"$out" 2>&1
	result "passed: $1" $?
}

# shellcheck disable=SC2016
{
	flagged substitution 'tap_result "built for $(uname -r)" $?'
	flagged backticks 'tap_result "built for `uname -r`" $?'
	flagged nested 'tap_result "($(head -n 1 "$(f)"), then x)" "$?"'
	flagged continued 'result "installs (kernel $(uname -r))" $? \
	"$out/install.log" || finish'
	passed captured 'kver=$(uname -r); tap_result "built for $kver" $?'
	passed own-status 'tap_result "none pinned" "$([ ! -e /x ]; echo $?)"'
	passed arithmetic 'tap_result "got $((a - b))" $?'
	passed separated 'x=$(f) && tap_result "ok" $?'
	passed single-quoted "echo '\$(f)' \$?"
	passed comment 'true # tap_result "$(f)" $?'
}
echo "1..$n"
[ "$failed" = 0 ]
