# SPDX-License-Identifier: LGPL-2.1-or-later
"""ctypes binding of libmltcp: tell MLTCP congestion controls about
training iterations from Python.

    import socket, mltcp
    s = socket.socket()
    mltcp.enable(s, "mltcp_cubic")
    mltcp.set_bytes_per_iter(s, 25 << 20)
    s.connect(addr)
    mltcp.register(s)
    for step in range(steps):
        compute()
        mltcp.iteration_begin_all()
        send_gradients(s)

Sockets may be given as socket objects or file descriptors.  Errors raise
OSError with the errno libmltcp documents (see <mltcp/libmltcp.h>):
ENOPROTOOPT when the module is not loaded or the socket is not TCP,
EOPNOTSUPP when the socket is not on an MLTCP congestion control, EINVAL
for values out of range, ENOTCONN for listening or unconnected sockets.

The library is looked up as $MLTCP_LIBRARY, then libmltcp.so.1 on the
dynamic linker's path, then in ../../build/lib relative to this file.
"""
import ctypes
import ctypes.util
import os

__all__ = ["Info", "Job", "abi_version", "enable", "set_bytes_per_iter",
           "iteration_begin", "get_state", "register", "unregister",
           "iteration_begin_all", "set_bytes_per_iter_all", "set_tiebreak",
           "set_tiebreak_all",
           "BYTES_PER_ITER_MIN", "BYTES_PER_ITER_MAX", "Q10_ONE"]

BYTES_PER_ITER_MIN = 16 << 10
BYTES_PER_ITER_MAX = 1 << 48
Q10_ONE = 1024
MODES = {0: "learned", 1: "given", 2: "off"}
# enum mltcp_abi_phase
PHASES = {0: "base", 1: "unearned", 2: "overrun", 3: "ramp", 4: "top", 5: "yield"}
INFO_SIZE_V3 = 80
F_SIZE_GIVEN = 0x1
F_BOUNDS_GIVEN = 0x2
F_TIEBREAK_GIVEN = 0x4
F_OVERRUN = 0x8
F_UNEARNED = 0x10


class _MltcpInfo(ctypes.Structure):
    """struct mltcp_info of <linux/mltcp.h>"""
    _fields_ = [
        ("abi_version", ctypes.c_uint32),
        ("size", ctypes.c_uint32),
        ("algo", ctypes.c_char * 16),
        ("mode", ctypes.c_uint8),
        ("flags", ctypes.c_uint8),
        ("reserved0", ctypes.c_uint16),
        ("iterations", ctypes.c_uint32),
        ("bytes_this_iter", ctypes.c_uint64),
        ("bytes_per_iter", ctypes.c_uint64),
        ("bytes_ratio", ctypes.c_uint32),
        ("f", ctypes.c_uint32),
        ("cwnd", ctypes.c_uint32),
        ("tiebreak", ctypes.c_uint32),
        ("stagger", ctypes.c_uint32),
        ("decrease", ctypes.c_uint8),
        ("head_start", ctypes.c_uint8),
        ("reserved2", ctypes.c_uint16),
        ("phase", ctypes.c_uint8),
        ("reserved3", ctypes.c_uint8 * 7),
    ]


assert ctypes.sizeof(_MltcpInfo) == INFO_SIZE_V3


class Info:
    """MLTCP state of a socket; bytes_ratio and f are floats, *_q10 exact."""

    def __init__(self, raw):
        self.abi_version = raw.abi_version
        self.algo = raw.algo.decode()
        self.mode = MODES.get(raw.mode, "unknown")
        self.size_given = bool(raw.flags & F_SIZE_GIVEN)
        self.bounds_given = bool(raw.flags & F_BOUNDS_GIVEN)
        self.iterations = raw.iterations
        self.bytes_this_iter = raw.bytes_this_iter
        self.bytes_per_iter = raw.bytes_per_iter
        self.bytes_ratio_q10 = raw.bytes_ratio
        self.f_q10 = raw.f
        self.bytes_ratio = raw.bytes_ratio / Q10_ONE
        self.f = raw.f / Q10_ONE
        self.cwnd = raw.cwnd
        self.tiebreak_given = bool(raw.flags & F_TIEBREAK_GIVEN)
        # F is 1: the iteration passed its bound, or a mark awaits its idle gap
        self.overrun = bool(raw.flags & F_OVERRUN)
        self.unearned = bool(raw.flags & F_UNEARNED)
        self.tiebreak_q10 = raw.tiebreak
        self.tiebreak = raw.tiebreak / Q10_ONE
        # zero from an ABI 1 module, which fills only the first 64 bytes
        self.stagger_q10 = raw.stagger
        self.stagger = raw.stagger / Q10_ONE
        self.decrease = bool(raw.decrease)
        self.head_start = bool(raw.head_start)
        # None from a module (or library) before ABI 3
        self.phase = (PHASES.get(raw.phase, "unknown")
                      if raw.size >= INFO_SIZE_V3 else None)

    def __repr__(self):
        return ("Info(algo=%r, mode=%r, phase=%r, iterations=%d, bytes_this_iter=%d, "
                "bytes_per_iter=%d, bytes_ratio=%.4f, f=%.4f, cwnd=%d)" %
                (self.algo, self.mode, self.phase, self.iterations, self.bytes_this_iter,
                 self.bytes_per_iter, self.bytes_ratio, self.f, self.cwnd))


def _load():
    names = []
    if os.environ.get("MLTCP_LIBRARY"):
        names.append(os.environ["MLTCP_LIBRARY"])
    names.append("libmltcp.so.1")
    here = os.path.dirname(os.path.abspath(__file__))
    names.append(os.path.join(here, "..", "..", "build", "lib", "libmltcp.so.1"))
    err = None
    for name in names:
        try:
            return ctypes.CDLL(name, use_errno=True)
        except OSError as e:
            err = e
    raise OSError("libmltcp not found (set MLTCP_LIBRARY): %s" % err)


_lib = _load()
_u64 = ctypes.c_uint64
for _name, _args, _res in [
        ("mltcp_abi_version", [], ctypes.c_int),
        ("mltcp_enable", [ctypes.c_int, ctypes.c_char_p], ctypes.c_int),
        ("mltcp_set_bytes_per_iter", [ctypes.c_int, _u64], ctypes.c_int),
        ("mltcp_iteration_begin", [ctypes.c_int, _u64], ctypes.c_int),
        ("mltcp_get_state", [ctypes.c_int, ctypes.POINTER(_MltcpInfo)], ctypes.c_int),
        ("mltcp_job_new", [], ctypes.c_void_p),
        ("mltcp_job_free", [ctypes.c_void_p], None),
        ("mltcp_job_add", [ctypes.c_void_p, ctypes.c_int], ctypes.c_int),
        ("mltcp_job_remove", [ctypes.c_void_p, ctypes.c_int], ctypes.c_int),
        ("mltcp_job_size", [ctypes.c_void_p], ctypes.c_int),
        ("mltcp_job_iteration_begin", [ctypes.c_void_p, _u64], ctypes.c_int),
        ("mltcp_job_set_bytes_per_iter", [ctypes.c_void_p, _u64], ctypes.c_int),
        ("mltcp_register", [ctypes.c_int], ctypes.c_int),
        ("mltcp_unregister", [ctypes.c_int], ctypes.c_int),
        ("mltcp_iteration_begin_all", [_u64], ctypes.c_int),
        ("mltcp_set_bytes_per_iter_all", [_u64], ctypes.c_int),
        ("mltcp_set_tiebreak", [ctypes.c_int, ctypes.c_uint32], ctypes.c_int),
        ("mltcp_job_set_tiebreak", [ctypes.c_void_p, ctypes.c_uint32], ctypes.c_int),
        ("mltcp_set_tiebreak_all", [ctypes.c_uint32], ctypes.c_int)]:
    _f = getattr(_lib, _name)
    _f.argtypes = _args
    _f.restype = _res
# the sized read of struct mltcp_info (the phase); a library before it has only get_state
_has_get_info = hasattr(_lib, "mltcp_get_info")
if _has_get_info:
    _lib.mltcp_get_info.argtypes = [ctypes.c_int, ctypes.POINTER(_MltcpInfo), ctypes.c_size_t]
    _lib.mltcp_get_info.restype = ctypes.c_int


def _fd(sock):
    return sock if isinstance(sock, int) else sock.fileno()


def _bytes(n):
    n = int(n)
    if n < 0 or n >= 1 << 64:
        raise OSError(22, os.strerror(22))      # EINVAL, as the library
    return n


def _check(ret):
    if ret is None or ret < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return ret


def abi_version():
    """ABI version of the loaded MLTCP module (OSError ENOPROTOOPT if none)."""
    return _check(_lib.mltcp_abi_version())


def enable(sock, algo=None):
    """Set the socket's congestion control (default mltcp_cubic)."""
    _check(_lib.mltcp_enable(_fd(sock), algo.encode() if algo else None))


def set_bytes_per_iter(sock, nbytes):
    """Bytes the socket sends per iteration; 0 goes back to learning."""
    _check(_lib.mltcp_set_bytes_per_iter(_fd(sock), _bytes(nbytes)))


def _tiebreak(value):
    """A tie-break given as a float in [0, 1] -> Q10."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("tie-break must be a number from 0 to 1")
    if not 0 <= value <= 1:
        raise ValueError("tie-break must be from 0 to 1, got %r" % (value,))
    return int(round(value * Q10_ONE))


def set_tiebreak(sock, value):
    """The socket's tie-break, a float from 0 to 1 (its head start is
    value * stagger of an iteration); give one job's sockets one value."""
    _check(_lib.mltcp_set_tiebreak(_fd(sock), _tiebreak(value)))


def set_tiebreak_all(value):
    """set_tiebreak() on every registered socket, and on those registered later."""
    _check(_lib.mltcp_set_tiebreak_all(_tiebreak(value)))


def iteration_begin(sock, nbytes=0):
    """Mark the start of an iteration (optionally with its size)."""
    _check(_lib.mltcp_iteration_begin(_fd(sock), _bytes(nbytes)))


def get_state(sock):
    """The socket's MLTCP state as an Info."""
    raw = _MltcpInfo()
    if _has_get_info:
        _check(_lib.mltcp_get_info(_fd(sock), ctypes.byref(raw), ctypes.sizeof(raw)))
    else:
        _check(_lib.mltcp_get_state(_fd(sock), ctypes.byref(raw)))
    return Info(raw)


def register(sock):
    """Add the socket to the process-wide registry."""
    _check(_lib.mltcp_register(_fd(sock)))


def unregister(sock):
    """Remove the socket from the process-wide registry (before closing it)."""
    _check(_lib.mltcp_unregister(_fd(sock)))


def iteration_begin_all(nbytes=0):
    """iteration_begin() on every registered socket."""
    _check(_lib.mltcp_iteration_begin_all(_bytes(nbytes)))


def set_bytes_per_iter_all(nbytes):
    """set_bytes_per_iter() on every registered socket."""
    _check(_lib.mltcp_set_bytes_per_iter_all(_bytes(nbytes)))


class Job:
    """A set of sockets that start their iterations together."""

    def __init__(self):
        self._job = _lib.mltcp_job_new()
        if not self._job:
            raise MemoryError("mltcp_job_new")

    def close(self):
        if self._job:
            _lib.mltcp_job_free(self._job)
            self._job = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def _handle(self):
        if not self._job:
            raise ValueError("job is closed")
        return self._job

    def add(self, sock):
        _check(_lib.mltcp_job_add(self._handle(), _fd(sock)))

    def remove(self, sock):
        _check(_lib.mltcp_job_remove(self._handle(), _fd(sock)))

    def __len__(self):
        return _check(_lib.mltcp_job_size(self._handle()))

    def iteration_begin(self, nbytes=0):
        _check(_lib.mltcp_job_iteration_begin(self._handle(), _bytes(nbytes)))

    def set_bytes_per_iter(self, nbytes):
        _check(_lib.mltcp_job_set_bytes_per_iter(self._handle(), _bytes(nbytes)))

    def set_tiebreak(self, value):
        """One tie-break (0..1) for the job's sockets, now and added later."""
        _check(_lib.mltcp_job_set_tiebreak(self._handle(), _tiebreak(value)))


# mltcp.torch: DDP iteration marks (mltcp_torch.py; it imports torch only in
# attach()).  "import mltcp.torch" works too.
try:
    import mltcp_torch as torch  # noqa: E402
    import sys as _sys
    _sys.modules[__name__ + ".torch"] = torch
    __all__.append("torch")
except ImportError:  # installed without mltcp_torch.py
    pass
