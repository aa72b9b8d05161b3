#!/bin/bash
# Two identical jobs released by one barrier at the same instant (mltcp-bench --start
# exact) and told their iterations (--hints, given mode) start in perfect lockstep:
# same bytes_ratio, same F, so the MLTCP shift, proportional to their offset, is zero.
# The tie-break breaks the tie: with tie-breaks 1 and 0 (stagger 0.5) the first job
# behaves as if half an iteration ahead, gets the larger share while they overlap,
# finishes its communication first, and the phases drift apart until they interleave.
# Asserted: the favoured job finishes first in most early contended iterations, and the
# pair interleaves (overlap < 10% for good) within a bounded number of iterations in
# most runs. Without a stagger the lockstep is broken only by noise (reported).
#
#   mltcp-bench's dumbbell: 2 senders ── router ══ tbf 100 Mbit/s FIFO ══> switch ── 2 receivers
. "$(dirname "$0")/lib.sh"

ML_BIN=${ML_BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}
RUNS=${LOCKSTEP_RUNS:-3}
ITERS=${LOCKSTEP_ITERS:-30}
BOUND=${LOCKSTEP_BOUND:-20}	# interleaved from this iteration on, at the latest
tap_plan 4
[ -x "$ML_BIN/mltcp-bench" ] || bail "mltcp-bench is built ($ML_BIN; make userspace)"
ml_modprobe mltcp_reno || bail "load mltcp_reno"
P=/sys/module/mltcp/parameters
old="$(cat $P/stagger) $(cat $P/mode) $(cat $P/slope) $(cat $P/intercept)"
at_exit "read -r s m sl i <<<'$old'; echo \$s >$P/stagger; echo \$m >$P/mode; echo \$sl >$P/slope; echo \$i >$P/intercept"
echo given >$P/mode && echo 1 >$P/slope && echo 1 >$P/intercept || bail "mode given, F = ratio + 1"
tmp=$(mktemp -d)
at_exit "rm -rf $tmp"

# pair OUT STAGGER: RUNS exact-start runs of the bench pair, tie-breaks 1 and 0.
pair() {
	echo "$2" >$P/stagger || return 1
	"$ML_BIN/mltcp-bench" -q --start exact --hints --cc mltcp_reno --runs "$RUNS" \
		-j name=ahead,compute_ms=150,bytes=1.25M,iterations=$ITERS,tiebreak=1 \
		-j name=behind,compute_ms=150,bytes=1.25M,iterations=$ITERS,tiebreak=0 \
		-o "$tmp/$1" >"$tmp/$1.log" 2>&1
}

pair tie 0.5
tap_result "mltcp-bench: $RUNS exact-start runs with tie-breaks 1 and 0, stagger 0.5" $? ||
	tail -n 20 "$tmp/tie.log" | diag_stream
grep -E "verdict|success" "$tmp/tie.log" | diag_stream

# first: iterations 1-8 of each run in which both jobs communicated at the same time;
# the fraction of them in which "ahead" finished its communication first.
first=$(python3 - "$tmp/tie" "$RUNS" <<'EOF'
import csv, sys
d, runs = sys.argv[1], int(sys.argv[2])
won = total = 0
for r in range(1, runs + 1):
    it = {}
    for row in csv.DictReader(open("%s/run%d/iterations.csv" % (d, r))):
        if row["mode"] == "shared" and row["comm_end_ms"]:
            it.setdefault(int(row["iter"]), {})[row["name"]] = row
    for k in range(1, 9):
        a, b = it.get(k, {}).get("ahead"), it.get(k, {}).get("behind")
        if not a or not b:
            continue
        # both communicating at once: the phases overlap
        if float(a["comm_start_ms"]) < float(b["comm_end_ms"]) and \
           float(b["comm_start_ms"]) < float(a["comm_end_ms"]):
            total += 1
            won += float(a["comm_end_ms"]) <= float(b["comm_end_ms"])
print(won, total)
EOF
)
read -r won total <<<"$first"
diag "the job with tie-break 1 finished first in $won of $total overlapping early iterations"
[ "${total:-0}" -ge 3 ] && [ $((won * 4)) -ge $((total * 3)) ]
tap_result "tie-break 1 gets the larger share: finishes first in >= 3/4 of overlapping iterations ($won/$total)" $?

# converged runs with the interleaving iteration (runs.csv: converged, conv_iter)
conv=$(awk -F, -v b="$BOUND" 'NR > 1 { n++; if ($6 >= 0 && $6 <= b) c++ } END { print c + 0, n + 0 }' \
	"$tmp/tie/runs.csv")
read -r c n <<<"$conv"
[ "$n" = "$RUNS" ] && [ $((c * 3)) -ge $((n * 2)) ]
tap_result "interleaved (overlap < 10% for good) by iteration $BOUND in >= 2/3 of runs ($c/$n)" $?

pair notie 0
c0=$(awk -F, -v b="$BOUND" 'NR > 1 { if ($6 >= 0 && $6 <= b) c++ } END { print c + 0 }' \
	"$tmp/notie/runs.csv" 2>/dev/null)
diag "control, stagger 0 (lockstep broken only by noise): interleaved by iteration $BOUND in ${c0:-?}/$RUNS runs"
[ -s "$tmp/notie/runs.csv" ]
tap_result "control run with stagger 0 completed" $?
tap_done
