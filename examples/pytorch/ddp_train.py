#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""DDP training on synthetic data (an MLP), gloo backend, for MLTCP.

Every rank trains the same MLP on its own synthetic batches; DDP all-reduces
the gradients bucket by bucket (--bucket-mb) during the backward pass.  An
accelerator's compute time is emulated with sleeps: --fwd-ms before the
forward pass, and --bwd-ms spread over the layers' backward passes (a
gradient hook per layer sleeps its share before the layer's gradient is
ready), so that the buckets' all-reduces are separated by gaps as on a
real accelerator.  The training loop itself times each iteration.

    # two ranks on this machine (spawned), alone:
    ddp_train.py --spawn 2 --iters 50
    # unmodified, under MLTCP's learned mode:
    MLTCP_CC=mltcp_cubic LD_PRELOAD=libmltcp-preload.so ddp_train.py --spawn 2
    # with the one-line attach (mltcp.torch.attach(model)):
    MLTCP_CC=mltcp_cubic LD_PRELOAD=libmltcp-preload.so ddp_train.py --spawn 2 --attach
    # one rank per host or per process, torchrun style:
    MASTER_ADDR=10.0.0.1 MASTER_PORT=29500 WORLD_SIZE=2 RANK=0 ddp_train.py

Output, one JSON object per line on stdout from rank 0 (--all-ranks: every
rank): {"rank", "iter", "start_s", "end_s", "loss", "synced", "backward_s"} per
iteration (backward_s: the backward pass, which DDP ends only when the last
bucket's all-reduce is done, so it spans the iteration's communication), then
{"rank", "summary": {...}} with the mean iteration time, the gradient bytes
and, with --attach, the iterations marked.  --report-sockets adds, before the
summary, {"rank", "sockets": [...]}: each MLTCP socket's state (mltcp.get_state())
and its ports ("sport", "dport"), which name it in the mltcp tracepoints.
"""
import argparse
import json
import os
import sys
import time


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--iters", type=int, default=30, help="training iterations (default 30)")
    p.add_argument("--layers", type=int, default=6, help="hidden layers (default 6)")
    p.add_argument("--width", type=int, default=512,
                   help="hidden width; a layer has width^2 weights (default 512: 1 MB)")
    p.add_argument("--batch", type=int, default=32, help="batch size per rank (default 32)")
    p.add_argument("--bucket-mb", type=float, default=1.0,
                   help="DDP bucket_cap_mb (default 1: about one bucket per layer)")
    p.add_argument("--fwd-ms", type=float, default=100.0,
                   help="emulated forward time per iteration (default 100)")
    p.add_argument("--bwd-ms", type=float, default=200.0,
                   help="emulated backward time, spread over the layers (default 200)")
    p.add_argument("--accum", type=int, default=1,
                   help="gradient accumulation: synchronise every N iterations (no_sync)")
    p.add_argument("--attach", action="store_true", help="mltcp.torch.attach(model)")
    p.add_argument("--nbytes", default="ring",
                   help="attach's bytes per iteration: ring (default), 0, or a number")
    p.add_argument("--tiebreak", default="job", type=tiebreak_arg,
                   help="with --attach: job (default: one random value for the job), "
                        "none (each socket its connection's), or a number from 0 to 1")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--start-at", type=float, default=0.0, metavar="T",
                   help="wait until wall-clock time T (seconds since the epoch) before the "
                        "first iteration: jobs given one T start together")
    p.add_argument("--spawn", type=int, default=0, metavar="N",
                   help="spawn N ranks on this machine (gloo over loopback)")
    p.add_argument("--port", type=int, default=29500, help="MASTER_PORT for --spawn")
    p.add_argument("--all-ranks", action="store_true", help="every rank prints its records")
    p.add_argument("--threads", type=int, default=1, help="torch threads per rank (default 1)")
    p.add_argument("--report-sockets", action="store_true",
                   help="print the MLTCP state of the process's MLTCP sockets at the end")
    a = p.parse_args(argv)
    if a.iters < 1 or a.layers < 1 or a.width < 1 or a.batch < 1 or a.accum < 1:
        p.error("--iters, --layers, --width, --batch and --accum must be >= 1")
    if a.fwd_ms < 0 or a.bwd_ms < 0 or a.bucket_mb <= 0:
        p.error("--fwd-ms and --bwd-ms must be >= 0, --bucket-mb > 0")
    if a.nbytes != "ring":
        try:
            a.nbytes = int(a.nbytes)
        except ValueError:
            p.error("--nbytes must be ring or an integer")
        if a.nbytes < 0:
            p.error("--nbytes must be >= 0")
    return a


def tiebreak_arg(text):
    """--tiebreak's value as attach() takes it: "job", None, or a float in [0, 1]."""
    if text in ("job", "none"):
        return None if text == "none" else text
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError("job, none or a number from 0 to 1")
    return value


def build(args, torch):
    nn = torch.nn
    torch.manual_seed(args.seed)
    layers = []
    for _ in range(args.layers):
        layers += [nn.Linear(args.width, args.width), nn.ReLU()]
    layers.append(nn.Linear(args.width, 10))
    return nn.Sequential(*layers)


def add_backward_time(model, ms, torch):
    """Each Linear layer's weight gradient waits its share of @ms."""
    linears = [m for m in model.modules() if isinstance(m, torch.nn.Linear)]
    share = ms / 1000.0 / len(linears)

    def wait(grad):
        time.sleep(share)
        return grad
    if share > 0:
        for m in linears:
            m.weight.register_hook(wait)


def train(rank, world, args, out=sys.stdout):
    import contextlib
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP

    torch.set_num_threads(args.threads)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    net = build(args, torch)
    add_backward_time(net, args.bwd_ms, torch)
    model = DDP(net, bucket_cap_mb=args.bucket_mb)
    hook = None
    if args.attach:
        try:
            import mltcp
        except (ImportError, OSError) as e:
            print("ddp_train.py: mltcp not available (%s); training without "
                  "attach" % e, file=sys.stderr)
        else:
            hook = mltcp.torch.attach(model, nbytes=args.nbytes, tiebreak=args.tiebreak)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    gen = torch.Generator().manual_seed(args.seed * 1000 + rank)
    loss_fn = torch.nn.CrossEntropyLoss()
    show = rank == 0 or args.all_ranks
    if args.start_at:
        dist.barrier()
        late = time.time() - args.start_at
        if late > 0:
            print("ddp_train.py: set up %.1f s after --start-at" % late, file=sys.stderr)
        else:
            time.sleep(-late)
    times = []
    for it in range(args.iters):
        t0 = time.time()
        x = torch.randn(args.batch, args.width, generator=gen)
        y = torch.randint(0, 10, (args.batch,), generator=gen)
        time.sleep(args.fwd_ms / 1000.0)
        synced = (it + 1) % args.accum == 0
        ctx = contextlib.nullcontext() if synced else model.no_sync()
        with ctx:
            loss = loss_fn(model(x), y)
            tb = time.time()
            loss.backward()
            tb = time.time() - tb
        if synced:
            opt.step()
            opt.zero_grad()
        t1 = time.time()
        times.append(t1 - t0)
        if show:
            print(json.dumps({"rank": rank, "iter": it, "start_s": round(t0, 6),
                              "end_s": round(t1, 6), "loss": float(loss),
                              "synced": synced, "backward_s": round(tb, 6)}),
                  file=out, flush=True)
    dist.barrier()
    if args.report_sockets:
        report_sockets(rank, out)
    return times, hook


def socket_ports(fd):
    """{"sport", "dport"}: the ports that name the connection in tracepoints."""
    import socket
    dup = os.dup(fd)
    try:
        s = socket.socket(fileno=dup)   # the family and type are the socket's own
    except OSError:
        os.close(dup)
        return {}
    with s:
        try:
            return {"sport": s.getsockname()[1], "dport": s.getpeername()[1]}
        except OSError:
            return {}


def report_sockets(rank, out):
    """One JSON line: the MLTCP state of each of the process's MLTCP sockets."""
    socks = []
    try:
        import mltcp
        import mltcp_torch
        for fd in mltcp_torch.LibBackend().sockets():
            st = mltcp.get_state(fd)
            socks.append({"fd": fd, "algo": st.algo, "iterations": st.iterations,
                          "bytes_per_iter": st.bytes_per_iter,
                          "bounds_given": st.bounds_given, "size_given": st.size_given,
                          "tiebreak": st.tiebreak, **socket_ports(fd)})
    except (ImportError, OSError) as e:
        print("ddp_train.py: no MLTCP state (%s)" % e, file=sys.stderr)
    print(json.dumps({"rank": rank, "sockets": socks}), file=out, flush=True)


def summary(rank, args, times, hook, model_bytes):
    s = {"iters": len(times), "mean_iter_s": sum(times) / len(times),
         "grad_bytes": model_bytes}
    if hook is not None:
        s.update(marked=hook.iterations, nbytes=hook.nbytes,
                 sockets=len(hook.sockets), active=hook.active)
    return {"rank": rank, "summary": s}


def run_rank(rank, world, args):
    import torch
    model_bytes = sum(p.numel() * p.element_size() for p in build(args, torch).parameters())
    times, hook = train(rank, world, args)
    if rank == 0 or args.all_ranks:
        print(json.dumps(summary(rank, args, times, hook, model_bytes)), flush=True)
    _exit_now(0)


def _exit_now(rc):
    """torch 1.13: tearing down DDP and gloo sometimes hangs (in C++
    destructors, about one run in three here): flush and leave."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc)


def _spawned(rank, world, args):
    run_rank(rank, world, args)
    _exit_now(0)


def main(argv=None):
    args = parse_args(argv)
    if args.spawn:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(args.port))
        mp.spawn(_spawned, args=(args.spawn, args), nprocs=args.spawn, join=True)
        return 0
    for v in ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE"):
        if v not in os.environ:
            sys.exit("ddp_train.py: %s not set (or use --spawn N)" % v)
    run_rank(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), args)
    _exit_now(0)


if __name__ == "__main__":
    sys.exit(main())
