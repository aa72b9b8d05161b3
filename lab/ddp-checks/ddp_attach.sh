#!/bin/bash
# Real PyTorch DDP (Debian's python3-torch, gloo) with the one-line attach
# (mltcp.torch.attach(model), examples/pytorch/ddp_train.py --attach) in given mode: two
# ranks, an MLP whose 4.2 MB of gradients DDP all-reduces in 4 buckets during the
# emulated backward pass, so each iteration's traffic comes in 4 bursts.
#   1. attach marks every training iteration on each rank's gloo socket(s), which take
#      the marks (bounds given) and count the loop's iterations;
#   2. the window restarts once per iteration, at the first bucket after the mark, not
#      at each of the 4 buckets (tracepoint mltcp:mltcp_restart).
# About 4 minutes under TCG, most of it importing torch, plus python3-torch itself: on
# demand, like ddp_learned.sh:
#   scripts/vm-run -- lab/ddp-checks/ddp_attach.sh
#
#   127.0.0.1 (lo, MTU 1500): rank 0 <══ gloo TCP, mltcp_cubic ══> rank 1   (+ store, MASTER_PORT)
. "$(dirname "$0")/../../selftests/lib.sh"
. "$(dirname "$0")/lib_ddp.sh"

ITERS=20
tap_plan 4
ddp_setup given
ddp_run --attach
tap_result "ddp_train.py --attach: 2 ranks, $ITERS iterations, 4 buckets, on mltcp_cubic" $?

# per rank: training iterations, marks, MLTCP sockets with bounds given, their iterations
/usr/bin/python3 - "$tmp/out" >"$tmp/sum" <<'PY'
import json, sys
ranks = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    d = ranks.setdefault(r["rank"], {})
    if "summary" in r:
        d["iters"], d["marked"] = r["summary"]["iters"], r["summary"].get("marked", 0)
    if "sockets" in r:
        d["socks"] = [s["iterations"] for s in r["sockets"] if s["bounds_given"]]
for k in sorted(ranks):
    d = ranks[k]
    print(k, d.get("iters", 0), d.get("marked", 0), len(d.get("socks", [])),
          " ".join(str(s) for s in d.get("socks", [])))
PY
diag "rank, training iterations, marks, sockets with bounds given, their iterations"
diag_stream <"$tmp/sum"
marks_ok=1 count_ok=1 nsock=0
while read -r _ iters marked n socks; do
	[ "$marked" = "$iters" ] && [ "$n" -ge 1 ] || marks_ok=0
	for it in $socks; do
		nsock=$((nsock + 1))
		# each mark after the first completes an iteration; the connection's setup
		# traffic (DDP's parameter broadcast) may count one more
		[ "$it" -ge $((iters - 1)) ] && [ "$it" -le $((iters + 1)) ] || count_ok=0
	done
done <"$tmp/sum"
[ $nsock -ge 2 ] && [ $marks_ok = 1 ] && [ $count_ok = 1 ]
tap_result "attach marked each of the $ITERS iterations on every rank; the $nsock marked sockets counted them (iterations - 1 .. + 1)" $?

restarts=$(grep -c 'mltcp_restart:' "$tmp/trace")
diag "$restarts window restarts over $nsock marked sockets in $ITERS iterations"
# at most one per socket and iteration (4 per iteration if every bucket restarted)
[ "$restarts" -le $((nsock * ITERS)) ]
tap_result "at most one restart per socket and iteration: $restarts <= $((nsock * ITERS))" $?
[ "$restarts" -ge $((nsock * ITERS / 2)) ]
tap_result "the iterations' first buckets restart: $restarts >= $((nsock * ITERS / 2))" $?
tap_done
