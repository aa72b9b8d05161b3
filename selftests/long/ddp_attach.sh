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
#   scripts/vm-run -- selftests/long/ddp_attach.sh
#
#   127.0.0.1 (lo, MTU 1500): rank 0 <══ gloo TCP, mltcp_cubic ══> rank 1   (+ store, MASTER_PORT)
. "$(dirname "$0")/../lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
T=/sys/kernel/tracing
ITERS=20
tap_plan 4
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import torch' 2>/dev/null ||
	bail "python3-torch is installed (apt-get install python3-torch)"
[ -e "$top/build/lib/libmltcp-preload.so" ] || bail "libmltcp-preload.so is built (make userspace)"
[ -d "$T/events" ] || mount -t tracefs tracefs "$T" || bail "tracefs is mounted"
ml_modprobe mltcp_cubic || bail "load mltcp_cubic"
P=/sys/module/mltcp/parameters
old=$(cat $P/mode)
at_exit "echo $old >$P/mode"
echo given >$P/mode || bail "mode given"
# loopback's 64 kB MTU would carry an iteration in fewer segments than the initial
# window, leaving nothing to restart: the gloo connection gets Ethernet's segments
mtu=$(cat /sys/class/net/lo/mtu)
at_exit "ip link set lo mtu $mtu"
ip link set lo mtu 1500 || bail "loopback MTU 1500"
tmp=$(mktemp -d)
at_exit "rm -rf $tmp"
at_exit "echo 0 >$T/events/mltcp/mltcp_restart/enable; echo >$T/trace"
echo >"$T/trace"
echo 1 >"$T/events/mltcp/mltcp_restart/enable" || bail "enable mltcp:mltcp_restart"

PYTHONPATH="$top/userspace/python" MLTCP_LIBRARY="$top/build/lib/libmltcp.so.1" \
	MLTCP_CC=mltcp_cubic LD_PRELOAD="$top/build/lib/libmltcp-preload.so" \
	timeout 400 /usr/bin/python3 "$top/examples/pytorch/ddp_train.py" --spawn 2 --attach \
	--iters $ITERS --layers 4 --width 512 --bucket-mb 1 --fwd-ms 150 --bwd-ms 300 \
	--report-sockets --all-ranks --port $((20000 + RANDOM % 20000)) >"$tmp/out" 2>"$tmp/err"
rc=$?
echo 0 >"$T/events/mltcp/mltcp_restart/enable"
cat "$T/trace" >"$tmp/trace"
[ $rc = 0 ] || tail -n 20 "$tmp/err" | diag_stream
tap_result "ddp_train.py --attach: 2 ranks, $ITERS iterations, 4 buckets, on mltcp_cubic" $rc

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
