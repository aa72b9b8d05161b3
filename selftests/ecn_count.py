#!/usr/bin/env python3
"""ECN on the wire of one TCP port, for the selftests (no tcpdump needed).

    ecn_count.py IFACE PORT [client|server]

Captures on IFACE (a packet socket: both directions) the TCP packets to or from
PORT, over IPv4 and IPv6, until SIGTERM or SIGINT, then prints one line:

    syn=N syn_ecn=N synack=N synack_ece=N data=N data_ect=N data_ce=N data_notect=N ect=N

  syn, syn_ecn        SYNs to PORT, and those asking for ECN (ECE and CWR set)
  synack, synack_ece  SYN-ACKs from PORT, and those accepting ECN (ECE set, CWR not)
  data*               packets with payload that the chosen side sent (the client,
                      to PORT, by default; the server, from PORT) by their
                      codepoint: ECT(0) or ECT(1), CE, Not-ECT
  ect                 packets of that side other than SYNs and SYN-ACKs, with
                      payload or not, with ECT(0) or ECT(1)
Prints "ready" on a line of its own once capturing.
"""
import signal
import socket
import struct
import sys

ETH_P_ALL = 0x0003
FIN, SYN, RST, PSH, ACK, URG, ECE, CWR = (1 << i for i in range(8))


def main():
    iface, port = sys.argv[1], int(sys.argv[2])
    server = len(sys.argv) > 3 and sys.argv[3] == "server"
    keys = ("syn syn_ecn synack synack_ece data data_ect data_ce data_notect ect").split()
    n = dict.fromkeys(keys, 0)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.bind((iface, 0))
    s.settimeout(0.1)
    print("ready", flush=True)
    while not stop:
        try:
            pkt = s.recv(256)
        except (socket.timeout, InterruptedError):
            continue
        if len(pkt) < 14:
            continue
        etype = struct.unpack_from("!H", pkt, 12)[0]
        if etype == 0x0800 and len(pkt) >= 34:
            ihl = (pkt[14] & 0x0F) * 4
            ecn = pkt[15] & 3
            total, proto = struct.unpack_from("!H", pkt, 16)[0], pkt[23]
            tcp, payload = 14 + ihl, total - ihl
        elif etype == 0x86DD and len(pkt) >= 54:
            ecn = (pkt[15] >> 4) & 3
            payload, proto = struct.unpack_from("!H", pkt, 18)[0], pkt[20]
            tcp = 54
        else:
            continue
        if proto != 6 or len(pkt) < tcp + 14:
            continue
        sport, dport = struct.unpack_from("!HH", pkt, tcp)
        doff = (pkt[tcp + 12] >> 4) * 4
        flags = pkt[tcp + 13]
        data = payload - doff
        if dport == port and flags & SYN:
            n["syn"] += 1
            n["syn_ecn"] += flags & (ECE | CWR) == ECE | CWR
            continue
        if sport == port and flags & SYN:
            n["synack"] += 1
            n["synack_ece"] += flags & (ECE | CWR) == ECE
            continue
        if (sport if server else dport) != port:
            continue
        n["ect"] += ecn in (1, 2)
        if data > 0:
            n["data"] += 1
            n["data_ect" if ecn in (1, 2) else "data_ce" if ecn == 3 else "data_notect"] += 1
    print(" ".join("%s=%d" % (k, n[k]) for k in keys), flush=True)


if __name__ == "__main__":
    main()
