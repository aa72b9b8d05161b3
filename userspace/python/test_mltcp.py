# SPDX-License-Identifier: LGPL-2.1-or-later
"""Unit tests of the ctypes binding; they run without the MLTCP module."""
import errno
import os
import socket
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mltcp  # noqa: E402

# With MLTCP present (the module or the BPF backend) a TCP socket not on an MLTCP
# algorithm gets EOPNOTSUPP, and an iteration mark on one that is not connected gets
# ENOTCONN first (the module checks the state before the algorithm); without it, both
# get ENOPROTOOPT.
try:
    mltcp.abi_version()
    TCP_ERRNO = errno.EOPNOTSUPP
    UNCONNECTED_ERRNO = errno.ENOTCONN
except OSError:
    TCP_ERRNO = errno.ENOPROTOOPT
    UNCONNECTED_ERRNO = errno.ENOPROTOOPT


class TestBinding(unittest.TestCase):
    def assertErrno(self, err, fn, *args):
        with self.assertRaises(OSError) as cm:
            fn(*args)
        self.assertEqual(cm.exception.errno, err)

    def test_arguments(self):
        with socket.socket() as tcp, socket.socket(type=socket.SOCK_DGRAM) as udp:
            self.assertErrno(errno.EBADF, mltcp.set_bytes_per_iter, -1, 1)
            self.assertErrno(errno.EINVAL, mltcp.set_bytes_per_iter, tcp, -1)
            self.assertErrno(errno.EINVAL, mltcp.iteration_begin, tcp, 1 << 49)
            self.assertErrno(errno.EINVAL, mltcp.enable, tcp, "cubic")
            self.assertErrno(errno.ENOPROTOOPT, mltcp.get_state, udp)
            self.assertErrno(errno.ENOPROTOOPT, mltcp.iteration_begin, udp)
            self.assertErrno(TCP_ERRNO, mltcp.set_bytes_per_iter, tcp, 65536)
            self.assertErrno(errno.EINVAL, mltcp.set_bytes_per_iter, tcp, mltcp.BYTES_PER_ITER_MIN - 1)
            self.assertErrno(errno.EBADF, mltcp.set_tiebreak, -1, 0.5)
            self.assertErrno(TCP_ERRNO, mltcp.set_tiebreak, tcp, 0.5)
            self.assertErrno(errno.ENOPROTOOPT, mltcp.set_tiebreak, udp, 0)
            with self.assertRaises(ValueError):
                mltcp.set_tiebreak(tcp, 1.5)
            with self.assertRaises(ValueError):
                mltcp.set_tiebreak(tcp, -0.1)
            with self.assertRaises(TypeError):
                mltcp.set_tiebreak(tcp, "0.5")

    def test_job_and_registry(self):
        with socket.socket() as tcp, mltcp.Job() as job:
            job.add(tcp)
            self.assertErrno(errno.EEXIST, job.add, tcp)
            self.assertEqual(len(job), 1)
            self.assertErrno(UNCONNECTED_ERRNO, job.iteration_begin)
            self.assertErrno(TCP_ERRNO, job.set_tiebreak, 0.25)
            job.remove(tcp)
            self.assertEqual(len(job), 0)
            job.iteration_begin()
            mltcp.register(tcp)
            self.assertErrno(errno.EEXIST, mltcp.register, tcp.fileno())
            mltcp.unregister(tcp)
            self.assertErrno(errno.ENOENT, mltcp.unregister, tcp)
            mltcp.iteration_begin_all()


if __name__ == "__main__":
    unittest.main()
