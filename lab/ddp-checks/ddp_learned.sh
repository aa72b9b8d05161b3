#!/bin/bash
# Real PyTorch DDP (Debian's python3-torch, gloo) under MLTCP's learned mode: two ranks,
# an MLP of 1, 4 and 8 layers of 1 MB whose gradients DDP all-reduces in as many buckets
# during the emulated backward pass (examples/pytorch/ddp_train.py), so each
# iteration's traffic comes in 1, 4 or 8 bursts. The preload library puts the ranks'
# connections on mltcp_cubic; for each bucket count, each rank's gloo socket must count
# the training loop's iterations (within 5% or 1: the last one may still be open, and
# rank 0 may count DDP's model broadcast as one), learn the whole iteration's bytes,
# not a bucket's, and restart its window at most once per iteration (tracepoint
# mltcp:mltcp_restart: at the gaps the learner takes for iteration gaps, not at each
# bucket).
# About 6 minutes under TCG, most of it importing torch (three runs), plus
# python3-torch itself (apt-get install python3-torch, ~3 minutes): too long for
# `make check`'s hour on two cores next to everything else, so it lives here and runs
# on demand:
#   scripts/vm-run -- lab/ddp-checks/ddp_learned.sh
#
#   127.0.0.1 (lo, MTU 1500): rank 0 <══ gloo TCP, mltcp_cubic ══> rank 1   (+ store, MASTER_PORT)
. "$(dirname "$0")/../../selftests/lib.sh"
. "$(dirname "$0")/lib_ddp.sh"

ITERS=20
BUCKETS="1 4 8"
tap_plan 12
ddp_setup learned

for nb in $BUCKETS; do
	# layers of 512x512 floats (1 MB) and 1 MB buckets: one bucket per layer
	ddp_run --layers "$nb" --bucket-mb 1
	tap_result "ddp_train.py: 2 ranks, $ITERS iterations, $nb bucket(s), on mltcp_cubic" $?

	# per rank: training iterations, gradient bytes, MLTCP sockets, their iterations and sizes
	/usr/bin/python3 - "$tmp/out" >"$tmp/sum" <<'PY'
import json, sys
ranks = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    d = ranks.setdefault(r["rank"], {})
    if "summary" in r:
        d["iters"], d["grad"] = r["summary"]["iters"], r["summary"]["grad_bytes"]
    if "sockets" in r:
        d["socks"] = [(s["iterations"], s["bytes_per_iter"]) for s in r["sockets"]]
for k in sorted(ranks):
    d = ranks[k]
    print(k, d.get("iters", 0), d.get("grad", 0), len(d.get("socks", [])),
          " ".join("%d:%d" % s for s in d.get("socks", [])))
PY
	diag "$nb bucket(s): rank, training iterations, gradient bytes, MLTCP sockets, iterations:bytes_per_iter"
	diag_stream <"$tmp/sum"
	count_ok=1 size_ok=1 n=0 counts=""
	while read -r _ iters grad nsock socks; do
		[ "$nsock" -ge 1 ] || { count_ok=0; size_ok=0; }
		for s in $socks; do
			it=${s%%:*} bpi=${s##*:}
			n=$((n + 1)) counts="$counts $it"
			# within 5% of the loop's count, or 1 (the last iteration may be open)
			d=$((it - iters)); d=${d#-}
			[ $((d * 100)) -le $((iters * 5)) ] || [ $d -le 1 ] || count_ok=0
			# the iteration's bytes (gradients + gloo's framing), within 5%
			within_pct "$bpi" "$grad" 5 || size_ok=0
		done
	done <"$tmp/sum"
	[ $n -ge 2 ] && [ $count_ok = 1 ]
	tap_result "$nb bucket(s): each rank's gloo socket counted the $ITERS iterations within 5% or 1:$counts" $?
	[ $n -ge 2 ] && [ $size_ok = 1 ]
	tap_result "$nb bucket(s): each learned the iteration's gradient bytes, not a bucket's (within 5%)" $?
	restarts=$(grep -c 'mltcp_restart:' "$tmp/trace")
	[ $n -ge 2 ] && [ "$restarts" -le $((n * ITERS)) ]
	tap_result "$nb bucket(s): at most one restart per socket and iteration, not one per bucket: $restarts <= $((n * ITERS))" $?
done
tap_done
