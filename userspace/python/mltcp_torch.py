# SPDX-License-Identifier: LGPL-2.1-or-later
"""MLTCP for PyTorch DistributedDataParallel: one call marks the iterations.

    import mltcp
    model = torch.nn.parallel.DistributedDataParallel(net)
    mltcp.torch.attach(model)

(also available as ``import mltcp_torch``).  attach() registers a forward
pre-hook on the DDP model: at the start of each forward pass whose backward
pass will all-reduce the gradients (grad enabled and not inside
``no_sync()``: DDP's own test), it marks the start of an
iteration (mltcp_iteration_begin()) with the bytes each socket sends for it
on every MLTCP socket of the process.  So it works with DDP's bucketing (one
mark per iteration, not per bucket) and with gradient accumulation (the
iteration is the optimizer step that communicates).  It leaves DDP's
communication alone: the all-reduce stays DDP's own (C++) path, and the
model's one communication hook slot stays free for the user's (compression
hooks, say).

gloo's sockets are not visible from Python: the hook finds the process's
TCP sockets that are on an MLTCP congestion control through /proc/self/fd
(under LD_PRELOAD=libmltcp-preload.so with MLTCP_CC set, all of the
process's connections are), leaving out the rendezvous store's connection
(MASTER_PORT).  Bytes per iteration: a ring all-reduce, gloo's default,
sends 2 (N - 1) / N of the gradient bytes from each of the N ranks to its
neighbour, so ``nbytes="ring"`` (the default) gives each socket that; an
int gives that number; 0 gives none and lets the kernel measure each
socket's size between the marks (exact, from the third iteration on).

One tie-break for the whole job: a job's ranks send in both directions at
once (a ring all-reduce has every rank sending), and the job goes as fast as
its slowest direction, so all of its sockets must lead or yield together.
By default (``tiebreak="job"``) rank 0 draws a value from os.urandom (not
torch's generator: training stays bit-identical) and broadcasts it over the
process group once, at attach(); every rank gives it to each socket it marks.
A float in [0, 1] gives that value; None leaves each socket the kernel's own
(drawn from its connection's endpoints).

When MLTCP is absent (no libmltcp, no module, no socket on an MLTCP
congestion control) the hook warns once and does nothing more: training goes
on unchanged.
"""
import errno
import os
import socket
import warnings

__all__ = ["attach", "Hook", "LibBackend", "gradient_bytes", "job_tiebreak", "ring_bytes"]

_MARK_ERRNOS = (errno.EBADF, errno.ENOTSOCK, errno.ENOTCONN, errno.EOPNOTSUPP,
                errno.ENOPROTOOPT)


def gradient_bytes(module):
    """Bytes of the gradients DDP all-reduces for @module per iteration."""
    return sum(p.numel() * p.element_size()
               for p in module.parameters() if p.requires_grad)


def ring_bytes(grad_bytes, world_size):
    """Bytes one rank sends per iteration in a ring all-reduce."""
    if world_size <= 1:
        return 0
    return grad_bytes * 2 * (world_size - 1) // world_size


class LibBackend:
    """The process's MLTCP sockets, through libmltcp (the mltcp module)."""

    def __init__(self, mltcp_module=None):
        if mltcp_module is None:
            import mltcp as mltcp_module  # raises OSError without libmltcp
        self._m = mltcp_module
        port = os.environ.get("MASTER_PORT", "")
        self._store_port = int(port) if port.isdigit() else None

    def _is_store(self, fd):
        if self._store_port is None:
            return False
        try:
            with socket.socket(fileno=os.dup(fd)) as s:
                ports = (s.getsockname()[1], s.getpeername()[1])
        except OSError:
            return False
        return self._store_port in ports

    def sockets(self):
        """Descriptors of the process's TCP sockets on an MLTCP algorithm."""
        fds = []
        try:
            names = os.listdir("/proc/self/fd")
        except OSError:
            return fds
        for name in names:
            fd = int(name)
            try:
                if not os.readlink("/proc/self/fd/" + name).startswith("socket:"):
                    continue
                self._m.get_state(fd)
            except OSError:
                continue
            if not self._is_store(fd):
                fds.append(fd)
        return sorted(fds)

    def iteration_begin(self, fd, nbytes):
        self._m.iteration_begin(fd, nbytes)

    def set_tiebreak(self, fd, value):
        self._m.set_tiebreak(fd, value)


class Hook:
    """The forward pre-hook that marks the iterations; its state after
    attach() is the object attach() returns.

    Attributes: iterations (marked or, without MLTCP, seen), nbytes (bytes
    per socket per iteration given with each mark), tiebreak (the job's
    tie-break given to each socket, or None), sockets (descriptors marked at
    the last iteration), active (False once MLTCP was found absent).
    remove() takes the hook off the model.
    """

    # rescans of the descriptors before giving up when none is MLTCP
    SCANS = 3

    def __init__(self, nbytes, backend, tiebreak=None, grad_enabled=None):
        self.nbytes = nbytes
        self.tiebreak = tiebreak
        self.iterations = 0
        self.sockets = []
        self.active = True
        self._backend = backend
        self._scans = 0
        self._warned = False
        self._grad_enabled = grad_enabled or (lambda: True)
        self._handle = None

    def _warn(self, why):
        if not self._warned:
            self._warned = True
            warnings.warn("mltcp.torch: %s; training goes on without "
                          "iteration marks" % why, RuntimeWarning, stacklevel=3)

    def _scan(self):
        self._scans += 1
        self.sockets = self._backend.sockets()
        if self.tiebreak is not None:
            for fd in self.sockets:
                try:
                    self._backend.set_tiebreak(fd, self.tiebreak)
                except OSError as e:
                    if e.errno in _MARK_ERRNOS:
                        continue
                    # optional: the marks still go on without it
                    warnings.warn("mltcp.torch: no job tie-break (%s)" % e,
                                  RuntimeWarning, stacklevel=3)
                    self.tiebreak = None
                    break
        if not self.sockets and self._scans >= self.SCANS:
            self.active = False
            self._warn("no TCP socket of this process is on an MLTCP congestion "
                       "control (module not loaded, or run without "
                       "LD_PRELOAD=libmltcp-preload.so and MLTCP_CC)")

    def mark(self):
        """Mark an iteration start on every MLTCP socket."""
        self.iterations += 1
        if not self.active:
            return
        if not self.sockets:
            self._scan()
        marked = []
        for fd in self.sockets:
            try:
                self._backend.iteration_begin(fd, self.nbytes)
                marked.append(fd)
            except OSError as e:
                if e.errno not in _MARK_ERRNOS:
                    raise
        if len(marked) != len(self.sockets):
            # a socket went away: look again at the next iteration
            self.sockets = []
        else:
            self.sockets = marked

    def __call__(self, module, inputs):
        # DDP's own test for a forward whose backward synchronises
        if self._grad_enabled() and getattr(module, "require_backward_grad_sync", True):
            self.mark()

    def remove(self):
        """Take the hook off the model: no more marks."""
        if self._handle is not None:
            self._handle.remove()
            self._handle = None


def job_tiebreak(process_group=None):
    """One random tie-break in [0, 1] for every rank of @process_group:
    rank 0's draw (os.urandom), broadcast.  A collective: every rank calls it."""
    import torch
    import torch.distributed as dist

    value = int.from_bytes(os.urandom(4), "little") / 0xffffffff
    t = torch.tensor([value], dtype=torch.float64)
    src = 0
    if process_group is not None:
        c10d = dist.distributed_c10d
        get = getattr(c10d, "get_global_rank", None) or c10d._get_global_rank
        src = get(process_group, 0)
    dist.broadcast(t, src, group=process_group)
    return min(1.0, max(0.0, float(t.item())))


def attach(ddp_model, nbytes="ring", backend=None, process_group=None, tiebreak="job"):
    """Mark @ddp_model's iterations on the process's MLTCP sockets.

    @ddp_model: a torch.nn.parallel.DistributedDataParallel (its
    communication hook, if any, is left alone); @nbytes: "ring" (default),
    an int, or 0 (see the module's documentation); @backend: where the
    marks go (LibBackend() unless given: an object with sockets(),
    iteration_begin(fd, nbytes) and set_tiebreak(fd, value));
    @process_group: DDP's process group (None: the default group);
    @tiebreak: "job" (default: one random value for all ranks, a collective
    call), a float in [0, 1], or None (each socket keeps the kernel's, drawn
    from its connection's endpoints).

    Returns the Hook.  Never raises because MLTCP is absent: it warns once.
    """
    import torch
    import torch.distributed as dist

    if nbytes == "ring":
        size = dist.get_world_size(process_group)
        nbytes = ring_bytes(gradient_bytes(ddp_model.module), size)
    elif isinstance(nbytes, bool) or not isinstance(nbytes, int) or nbytes < 0:
        raise ValueError("nbytes must be 'ring' or an int >= 0")
    if tiebreak == "job":
        tiebreak = job_tiebreak(process_group)
    elif tiebreak is not None and (isinstance(tiebreak, bool) or
                                   not isinstance(tiebreak, (int, float)) or
                                   not 0 <= tiebreak <= 1):
        raise ValueError("tiebreak must be 'job', a number from 0 to 1, or None")
    hook = Hook(nbytes, None, tiebreak, torch.is_grad_enabled)
    if backend is None:
        try:
            backend = LibBackend()
        except OSError as e:
            hook.active = False
            hook._warn("libmltcp not found (%s)" % e)
    hook._backend = backend
    hook._handle = ddp_model.register_forward_pre_hook(hook)
    return hook
