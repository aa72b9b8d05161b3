#!/bin/bash
# The native stage of `make check`: the BPF backend (bpf/, `mltcpctl bpf`) on the
# running kernel, no guest. Runs selftests/bpf/test_*.sh with the selftest runner
# (TAP). Needs root, the built tree (make userspace) and a kernel with BTF and BPF
# struct_ops; without them the tests FAIL, they never skip.
#
#   sudo selftests/bpf/run.sh [PATTERN...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" != 0 ]; then
	echo "not ok - native BPF selftests need root (CAP_BPF, CAP_NET_ADMIN)"
	exit 1
fi
MLTCP_SELFTEST_DIR=$here exec "$here/../run.sh" "$@"
