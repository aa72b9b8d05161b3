# SPDX-License-Identifier: LGPL-2.1-or-later
"""Tests of mltcp.torch: the hook alone, then two DDP ranks over gloo on
loopback (two processes of this file), without the MLTCP module.

    127.0.0.1: rank 0 <-- gloo TCP (loopback) --> rank 1
               (+ the rendezvous store on MASTER_PORT)
"""
import errno
import json
import os
import shutil
import socket
import sys
import subprocess
import tempfile
import unittest
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mltcp  # noqa: E402
import mltcp_torch  # noqa: E402

import torch  # noqa: E402  (the test fails loudly without it)
import torch.distributed as dist  # noqa: E402
from torch.nn.parallel import DistributedDataParallel as DDP  # noqa: E402

ITERS = 6
ACCUM = 2
LAYERS = 4
WIDTH = 512     # 1 MiB of weights per layer: about one bucket each at 1 MB


class FakeBackend:
    """Records the marks instead of making them."""

    def __init__(self, fds=(10, 11), fail=None):
        self.fds = list(fds)
        self.calls = []
        self.tiebreaks = []
        self.scans = 0
        self.fail = fail or {}

    def sockets(self):
        self.scans += 1
        return list(self.fds)

    def iteration_begin(self, fd, nbytes):
        if fd in self.fail:
            raise OSError(self.fail[fd], os.strerror(self.fail[fd]))
        self.calls.append((fd, nbytes))

    def set_tiebreak(self, fd, value):
        if fd in self.fail:
            raise OSError(self.fail[fd], os.strerror(self.fail[fd]))
        self.tiebreaks.append((fd, value))


class FakeDDP:
    """What the hook reads of a DDP model: no_sync()'s flag."""

    def __init__(self):
        self.require_backward_grad_sync = True


class TestHook(unittest.TestCase):
    def hook(self, backend, nbytes=1000, grad=None):
        return mltcp_torch.Hook(nbytes, backend, grad_enabled=grad)

    def test_one_mark_per_synchronised_forward(self):
        be = FakeBackend()
        grad = [True]
        h = self.hook(be, grad=lambda: grad[0])
        m = FakeDDP()
        for it in range(6):
            # as under no_sync(): the backward of odd iterations does not all-reduce
            m.require_backward_grad_sync = it % 2 == 0
            self.assertIsNone(h(m, ()))
        grad[0] = False         # a forward under torch.no_grad(): no backward at all
        h(m, ())
        m.require_backward_grad_sync = True
        h(m, ())
        self.assertEqual(h.iterations, 3)
        self.assertEqual(be.calls, [(10, 1000), (11, 1000)] * 3)
        self.assertEqual(be.scans, 1)

    def test_attach_then_remove(self):
        # attach() puts the hook on the model's forward; remove() takes it off
        net = torch.nn.Linear(4, 4)
        be = FakeBackend()
        h = mltcp_torch.attach(net, nbytes=1000, backend=be, tiebreak=None)
        net(torch.zeros(1, 4))
        with torch.no_grad():
            net(torch.zeros(1, 4))
        h.remove()
        net(torch.zeros(1, 4))
        h.remove()      # twice is harmless
        self.assertEqual(h.iterations, 1)
        self.assertEqual(be.calls, [(10, 1000), (11, 1000)])

    def test_socket_gone_rescans(self):
        be = FakeBackend(fail={11: errno.EBADF})
        h = self.hook(be)
        h.mark()
        self.assertEqual(be.calls, [(10, 1000)])
        del be.fail[11]
        h.mark()
        self.assertEqual(be.scans, 2)
        self.assertEqual(be.calls[1:], [(10, 1000), (11, 1000)])

    def test_tiebreak_on_each_socket_found(self):
        be = FakeBackend()
        h = mltcp_torch.Hook(1000, be, tiebreak=0.375)
        h.mark()
        h.mark()
        self.assertEqual(be.tiebreaks, [(10, 0.375), (11, 0.375)])
        be.fds.append(12)
        h.sockets = []       # a rescan: the new socket gets it too
        h.mark()
        self.assertEqual(be.tiebreaks[2:], [(10, 0.375), (11, 0.375), (12, 0.375)])
        be = FakeBackend()
        self.hook(be).mark()
        self.assertEqual(be.tiebreaks, [])   # None: the kernel's own draw stays

    def test_tiebreak_refused_warns_and_marks(self):
        be = FakeBackend()

        def refuse(fd, value):
            raise OSError(errno.EPERM, "Operation not permitted")
        be.set_tiebreak = refuse
        h = mltcp_torch.Hook(1000, be, tiebreak=0.5)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            h.mark()
            h.sockets = []
            h.mark()
        self.assertEqual(len(w), 1)
        self.assertIsNone(h.tiebreak)
        self.assertEqual(be.calls, [(10, 1000), (11, 1000)] * 2)

    def test_bad_tiebreak(self):
        for bad in (-0.1, 1.5, True, "x"):
            with self.assertRaises(ValueError):
                mltcp_torch.attach(None, nbytes=0, tiebreak=bad)

    def test_other_errors_raise(self):
        h = self.hook(FakeBackend(fail={10: errno.EINVAL}))
        with self.assertRaises(OSError):
            h.mark()

    def test_absent_warns_once(self):
        be = FakeBackend(fds=())
        h = self.hook(be)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            for i in range(10):
                h(FakeDDP(), ())
        self.assertEqual(len([x for x in w if issubclass(x.category, RuntimeWarning)]), 1)
        self.assertFalse(h.active)
        self.assertEqual(be.scans, mltcp_torch.Hook.SCANS)
        self.assertEqual(h.iterations, 10)

    def test_ring_bytes(self):
        self.assertEqual(mltcp_torch.ring_bytes(1000, 1), 0)
        self.assertEqual(mltcp_torch.ring_bytes(1000, 2), 1000)
        self.assertEqual(mltcp_torch.ring_bytes(1000, 4), 1500)

    def test_lib_backend_without_module(self):
        # no MLTCP module on this host: no socket qualifies
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            s.listen()
            self.assertNotIn(s.fileno(), mltcp_torch.LibBackend().sockets())

    def test_import_forms(self):
        import mltcp.torch as t
        self.assertIs(t, mltcp_torch)
        self.assertIs(mltcp.torch, mltcp_torch)


def _model():
    torch.manual_seed(3)
    layers = []
    for _ in range(LAYERS):
        layers += [torch.nn.Linear(WIDTH, WIDTH), torch.nn.ReLU()]
    return torch.nn.Sequential(*layers)


def _worker(rank, world, port, mode, outdir):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    model = DDP(_model(), bucket_cap_mb=1)
    res = {"buckets": []}
    be = None
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        if mode == "fake":
            be = FakeBackend()
            hook = mltcp_torch.attach(model, backend=be)
        elif mode == "absent":
            hook = mltcp_torch.attach(model)
        else:
            hook = None
        if hook is not None:
            # attach() leaves the communication hook slot free: count the
            # buckets with one, and the marks made before each bucket 0
            from torch.distributed.algorithms.ddp_comm_hooks import default_hooks

            def counting(pg, bucket):
                if bucket.index() == 0:
                    res["marks_before"].append(hook.iterations)
                res["buckets"].append(bucket.index())
                return default_hooks.allreduce_hook(pg, bucket)
            res["marks_before"] = []
            model.register_comm_hook(None, counting)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        gen = torch.Generator().manual_seed(rank)
        losses = []
        for it in range(ITERS):
            x = torch.randn(8, WIDTH, generator=gen)
            synced = (it + 1) % ACCUM == 0
            if synced:
                loss = model(x).pow(2).mean()
                loss.backward()
                opt.step()
                opt.zero_grad()
            else:
                with model.no_sync():
                    loss = model(x).pow(2).mean()
                    loss.backward()
            losses.append(float(loss))
    res.update(losses=losses,
               warnings=[str(x.message) for x in w if issubclass(x.category, RuntimeWarning)],
               grad_bytes=mltcp_torch.gradient_bytes(model.module))
    if hook is not None:
        res.update(iterations=hook.iterations, nbytes=hook.nbytes, active=hook.active)
    if be is not None:
        res["calls"] = be.calls
        res["tiebreaks"] = be.tiebreaks
    with open(os.path.join(outdir, "%s-%d.json" % (mode, rank)), "w") as f:
        json.dump(res, f)
    # torch 1.13: tearing down DDP and gloo sometimes hangs (about one
    # run in three here, in C++ destructors): the results are written, leave
    sys.stdout.flush()
    os._exit(0)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TestDDP(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="mltcp-torch-")
        # removed after the class's tests, and also when this setup fails
        cls.addClassCleanup(shutil.rmtree, cls.dir, ignore_errors=True)
        cls.res = {}
        for mode in ("none", "fake", "absent"):
            port = str(_free_port())
            procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker",
                                       str(rank), "2", port, mode, cls.dir],
                                      stdin=subprocess.DEVNULL)
                     for rank in (0, 1)]
            for p in procs:
                try:
                    rc = p.wait(timeout=240)
                except subprocess.TimeoutExpired:
                    for q in procs:
                        q.kill()
                    raise
                if rc:
                    raise RuntimeError("DDP rank exited %d (mode %s)" % (rc, mode))
            for rank in (0, 1):
                with open(os.path.join(cls.dir, "%s-%d.json" % (mode, rank))) as f:
                    cls.res[mode, rank] = json.load(f)

    def test_marks(self):
        synced = ITERS // ACCUM
        for rank in (0, 1):
            r = self.res["fake", rank]
            # several buckets per synced iteration (none under no_sync),
            # bucket 0 first, one mark per synced iteration
            # (DDP rebuilds its buckets after the first iteration)
            nb = len(set(r["buckets"]))
            self.assertGreaterEqual(nb, 3)
            self.assertEqual(r["buckets"].count(0), synced)
            self.assertEqual(r["buckets"][-2 * nb:], list(range(nb)) * 2)
            self.assertEqual(r["iterations"], synced)
            # each synchronised all-reduce comes after its iteration's mark
            self.assertEqual(r["marks_before"], list(range(1, synced + 1)))
            self.assertEqual(r["grad_bytes"], LAYERS * (WIDTH * WIDTH + WIDTH) * 4)
            # two ranks: a ring all-reduce sends the gradient bytes once
            self.assertEqual(r["nbytes"], r["grad_bytes"])
            self.assertEqual(r["calls"], [[10, r["grad_bytes"]], [11, r["grad_bytes"]]] * synced)
            self.assertEqual(r["warnings"], [])
        # one tie-break for the job: rank 0's draw on every socket of both ranks
        t = self.res["fake", 0]["tiebreaks"]
        self.assertEqual(len(t), 2)
        self.assertTrue(0 <= t[0][1] <= 1)
        self.assertEqual(self.res["fake", 1]["tiebreaks"], t)
        self.assertEqual(t[0][1], t[1][1])

    def test_absent_warns_and_trains(self):
        for rank in (0, 1):
            r = self.res["absent", rank]
            self.assertEqual(len(r["warnings"]), 1, r["warnings"])
            self.assertIn("training goes on", r["warnings"][0])
            self.assertFalse(r["active"])
            self.assertEqual(r["iterations"], ITERS // ACCUM)
            # the hook touches only timing: the same losses as without it
            self.assertEqual(r["losses"], self.res["none", rank]["losses"])
            self.assertEqual(self.res["fake", rank]["losses"], r["losses"])


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "--worker":
        import faulthandler
        faulthandler.dump_traceback_later(200, exit=True)  # a hung rank says where
        _worker(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6])
    else:
        unittest.main()
