#!/bin/bash
# The name clash between the two backends, where modules can be loaded (the guest;
# not part of the host's native stage, whose kernel cannot load modules):
#  - with the mltcp modules loaded, `mltcpctl bpf load` fails with a one-line reason
#    naming them and registers and pins nothing;
#  - with the BPF backend loaded, mltcp_reno.ko does not load: its registration
#    fails with EBUSY and a message naming the BPF backend (the core turns TCP's
#    EEXIST into EBUSY, which modprobe would report as success: it takes EEXIST for
#    "the module is loaded already"), modprobe fails, and the BPF mltcp_reno keeps
#    working.
# No network topology: one loopback flow.
#
#   sudo selftests/bpf/clash.sh     (modules built in the checkout: make modules)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib_native.sh"

tap_plan 9
[ -x "$MLTCPCTL" ] || bail "built tree: $MLTCPCTL missing (make userspace)"
bpf_fresh
ml_modprobe mltcp_reno || bail "modprobe mltcp_reno (make modules)"
out=$("$MLTCPCTL" bpf load 2>&1)
rc=$?
tap_result "bpf load with the modules loaded fails with a one-line reason (exit $rc: $out)" \
	"$([ $rc = 1 ] && [[ $out == *"mltcp modules are loaded"* ]] && [ "$(wc -l <<<"$out")" = 1 ]; echo $?)"
tap_result "... and pins nothing" "$([ ! -e /sys/fs/bpf/mltcp ]; echo $?)"
out=$("$MLTCPCTL" bpf status 2>&1)
tap_result "bpf status: not loaded, the modules are ($out)" "$([[ $out == *"modules are loaded"* ]]; echo $?)"
modprobe -r mltcp_reno mltcp
tap_result "modules unloaded" "$([ ! -d /sys/module/mltcp ]; echo $?)"

# With the verifier's statistics: how near the kernel's limit the largest program
# came is in the log (docs/TESTING.md, "The BPF backend's verifier budget"), and a
# program over it is named in the failure's diagnostics.
out=$(MLTCP_BPF_DEBUG=stats "$MLTCPCTL" bpf load 2>&1)
rc=$?
grep '^mltcpctl: bpf: verifier: ' <<<"$out" | sort -t ' ' -k6,6n | tail -n 1 | diag_stream
tap_result "bpf load without the modules (exit $rc)" "$rc"
[ $rc = 0 ] || grep -v '^mltcpctl: bpf: verifier: ' <<<"$out" | diag_stream
err=$(modprobe mltcp_reno 2>&1)
rc=$?
msg=$(dmesg | grep -o 'mltcp_reno: a congestion control of that name.*' | tail -n 1)
tap_result "mltcp_reno.ko does not load over the BPF mltcp_reno (modprobe exit $rc $err; kernel: $msg)" \
	"$([ $rc != 0 ] && [ ! -d /sys/module/mltcp_reno ] && [ -n "$msg" ]; echo $?)"
# The failed modprobe leaves the core, mltcp.ko, loaded: its socket options now
# answer, EOPNOTSUPP for the BPF sockets; libmltcp must still reach the BPF backend.
"$MLTCPCTL" set stagger 0 >/dev/null
line=$(echo quit | timeout 30 "$BUILD/bin/mltcp-hold" -a mltcp_reno -n 1 -b 100000 -s 50000 |
	grep '^conn 0 ')
read -r _ _ _ _ _ _ _ bpi bti f _ algo _ <<<"$line"
tap_result "with mltcp.ko loaded next to it, hints still reach the BPF mltcp_reno ($line)" \
	"$([ -d /sys/module/mltcp ] && [ "$bpi $bti $f $algo" = "100000 50000 1536 mltcp_reno" ]; echo $?)"
modprobe -r mltcp 2>/dev/null
ml_netns NS lo
in_ns "$NS" iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
at_exit "kill $! 2>/dev/null"
wait_port "$NS" 5201
cc=$(in_ns "$NS" iperf3 -c 127.0.0.1 -p 5201 -t 1 -C mltcp_reno -J | jq -r .end.sender_tcp_congestion)
tap_result "the BPF mltcp_reno still carries a flow ($cc)" "$([ "$cc" = mltcp_reno ]; echo $?)"
tap_check "bpf unload" "$MLTCPCTL" bpf unload
tap_done
