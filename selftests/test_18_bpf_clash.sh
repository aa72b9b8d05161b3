#!/bin/bash
# The modules and the BPF backend in one kernel: whichever registers the names first
# keeps them, the other refuses with a clear reason (selftests/bpf/clash.sh; it
# needs modprobe, so it runs here in the guest rather than in the host's native stage).
#
#   one network namespace, loopback: iperf3 client ── lo ──> iperf3 server
exec "$(dirname "$0")/bpf/clash.sh"
