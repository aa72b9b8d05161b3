# Sourced by the bench's own TAP tests (scripts/test-*.sh): result DESC STATUS prints
# "ok N - DESC" or "not ok N - DESC" and, on failure, the tail of the file $out (the
# output of the command checked). Counts in $n and $failed.
n=0
failed=0
result() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else
		echo "not ok $n - $1"
		failed=$((failed + 1))
		sed 's/^/#   /' "$out" | tail -n 30
	fi
}
