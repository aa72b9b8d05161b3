#!/usr/bin/env python3
"""A loopback connection's drawn tie-break against SipHash-2-4 computed here, for the selftests.

    tiebreak.py [-6] [-a ALGO] [-c MLTCPCTL] KEY [NEWKEY CMD [ARG...]]

KEY (and NEWKEY) are 32 hex digits, the tie-break key the module holds.  Opens a
connection over 127.0.0.1 (::1 with -6) on ALGO (mltcp_reno), reads both directions'
first sequence numbers (TCP_REPAIR, so as root) and both ends' tie-break
(MLTCP_SO_INFO; with -c, `MLTCPCTL -j sockets`, which the BPF backend
answers too), and computes what include/mltcp_tiebreak.h's mltcp_flow_tiebreak()
gives under KEY, from the SipHash paper's definition.  With NEWKEY, then runs CMD
(which should make the module hold NEWKEY), opens a second connection and expects
it to draw under NEWKEY, and the first to keep its tie-break.  Prints a line per
connection; exits 0 when every tie-break is the one computed, 1 otherwise.
"""
import json
import socket
import struct
import subprocess
import sys

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1
TIEBREAK_MAX = 1024
MLTCP_SO_INFO = 0x4d4c00 + 16
TCP_CONGESTION = 13
TCP_REPAIR, TCP_REPAIR_QUEUE, TCP_QUEUE_SEQ = 19, 20, 21
TCP_RECV_QUEUE, TCP_SEND_QUEUE = 1, 2


def rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & M64


def siphash24(key, msg):
    """SipHash-2-4 of bytes @msg under the 16 bytes @key (Aumasson, Bernstein)."""
    k0, k1 = struct.unpack("<QQ", key)
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d,
         k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573]

    def rnd():
        v[0] = (v[0] + v[1]) & M64
        v[1] = rotl(v[1], 13) ^ v[0]
        v[0] = rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & M64
        v[3] = rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & M64
        v[3] = rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & M64
        v[1] = rotl(v[1], 17) ^ v[2]
        v[2] = rotl(v[2], 32)

    tail = len(msg) % 8
    for i in range(0, len(msg) - tail, 8):
        m = struct.unpack_from("<Q", msg, i)[0]
        v[3] ^= m
        rnd()
        rnd()
        v[0] ^= m
    b = (len(msg) & 0xff) << 56 | int.from_bytes(msg[len(msg) - tail:], "little")
    v[3] ^= b
    rnd()
    rnd()
    v[0] ^= b
    v[2] ^= 0xff
    for _ in range(4):
        rnd()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def mix32(h):
    h ^= h >> 16
    h = (h * 0x85ebca6b) & M32
    h ^= h >> 13
    h = (h * 0xc2b2ae35) & M32
    return h ^ (h >> 16)


def addr_word(family, packed):
    """An address as the kernel's u32 of it (mltcp_fold_addr6() for IPv6)."""
    if family == socket.AF_INET:
        return int.from_bytes(packed, sys.byteorder)
    a = [int.from_bytes(packed[i:i + 4], sys.byteorder) for i in range(0, 16, 4)]
    if a[0] == 0 and a[1] == 0 and a[2] == int.from_bytes(b"\0\0\xff\xff", sys.byteorder):
        return a[3]
    return a[0] ^ mix32(a[1] ^ mix32(a[2] ^ mix32(a[3])))


def flow_tiebreak(key, addr_a, port_a, isn_a, addr_b, port_b, isn_b):
    """mltcp_flow_tiebreak(): the endpoints ordered, hashed, mapped to [0, 1024]."""
    a, b = addr_a << 16 | port_a, addr_b << 16 | port_b
    if a < b or (a == b and isn_a <= isn_b):
        m = (a, b, isn_a << 32 | isn_b)
    else:
        m = (b, a, isn_b << 32 | isn_a)
    h = siphash24(key, struct.pack("<QQQ", *m))
    return ((h >> 32) * (TIEBREAK_MAX + 1)) >> 32


def first_seqs(sock):
    """(ours, the peer's) first data byte of a connection that sent nothing yet."""
    sock.setsockopt(socket.IPPROTO_TCP, TCP_REPAIR, 1)
    try:
        sock.setsockopt(socket.IPPROTO_TCP, TCP_REPAIR_QUEUE, TCP_SEND_QUEUE)
        ours = sock.getsockopt(socket.IPPROTO_TCP, TCP_QUEUE_SEQ)
        sock.setsockopt(socket.IPPROTO_TCP, TCP_REPAIR_QUEUE, TCP_RECV_QUEUE)
        peers = sock.getsockopt(socket.IPPROTO_TCP, TCP_QUEUE_SEQ)
    finally:
        sock.setsockopt(socket.IPPROTO_TCP, TCP_REPAIR, 0)
    return ours & M32, peers & M32


def tiebreak_of(sock, ctl):
    if not ctl:
        info = sock.getsockopt(socket.SOL_IP, MLTCP_SO_INFO, 80)
        return struct.unpack_from("=I", info, 60)[0]
    ports = (sock.getsockname()[1], sock.getpeername()[1])
    dump = json.loads(subprocess.run([ctl, "-j", "sockets"], check=True,
                                     capture_output=True, text=True).stdout)
    found = [s["tiebreak_q10"] for s in dump if (s["sport"], s["dport"]) == ports]
    return found[0] if len(found) == 1 else None


def connect(family, algo):
    host = "::1" if family == socket.AF_INET6 else "127.0.0.1"
    lst = socket.socket(family, socket.SOCK_STREAM)
    lst.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, algo.encode())
    lst.bind((host, 0))
    lst.listen(1)
    cli = socket.socket(family, socket.SOCK_STREAM)
    cli.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, algo.encode())
    cli.connect(lst.getsockname()[:2])
    srv, _ = lst.accept()
    lst.close()
    return cli, srv


def expected(key, family, cli):
    """What mltcp_flow_tiebreak() gives the connection of @cli under @key."""
    la, lp = cli.getsockname()[:2]
    ra, rp = cli.getpeername()[:2]
    ours, peers = first_seqs(cli)
    return flow_tiebreak(key, addr_word(family, socket.inet_pton(family, la)), lp, ours,
                         addr_word(family, socket.inet_pton(family, ra)), rp, peers)


def check(name, want, cli, srv, ctl):
    got = (tiebreak_of(cli, ctl), tiebreak_of(srv, ctl))
    print("%s: computed %d, client %s, server %s" % (name, want, got[0], got[1]))
    return got == (want, want)


def main(argv):
    family, algo, ctl = socket.AF_INET, "mltcp_reno", None
    while argv and argv[0] in ("-6", "-a", "-c"):
        if argv[0] == "-6":
            family, argv = socket.AF_INET6, argv[1:]
        elif argv[0] == "-a":
            algo, argv = argv[1], argv[2:]
        else:
            ctl, argv = argv[1], argv[2:]
    if not argv or len(argv) == 2:
        sys.exit(__doc__)
    key = bytes.fromhex(argv[0])
    # the SipHash paper's test vector: this implementation is SipHash-2-4
    assert siphash24(bytes(range(16)), bytes(range(15))) == 0xa129ca6149be45e5
    assert len(key) == 16, "a key is 32 hex digits"

    cli, srv = connect(family, algo)
    want = expected(key, family, cli)
    ok = check("under KEY", want, cli, srv, ctl)
    if len(argv) > 2:
        newkey = bytes.fromhex(argv[1])
        subprocess.run(argv[2:], check=True)
        cli2, srv2 = connect(family, algo)
        ok &= check("after CMD, under NEWKEY", expected(newkey, family, cli2), cli2, srv2, ctl)
        ok &= check("the first connection, still under KEY", want, cli, srv, ctl)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
