#!/bin/bash
#   init netns: munged, slurmctld, slurmd (cgroup/v2, proctrack/cgroup, task/cgroup,
#   the SPANK plugin spank_mltcp.so); each job's tasks enter NS_S[0] with ip netns exec
#
#   NS_S[0] (the jobs' clients) ── NS_RT ══ tbf 100 Mbit/s FIFO (bn0) ══> NS_RR ── NS_R[0]
#                                                                          (mltcp-flow sink)
#
# The Slurm integration (contrib/slurm) on a one-node cluster of its own: munged,
# slurmctld and slurmd started here with a minimal slurm.conf and cgroup.conf
# (CgroupPlugin=cgroup/v2 on the guest's cgroup2 hierarchy, IgnoreSystemd: no systemd
# here) and a plugstack.conf that loads build/slurm/spank_mltcp.so with this checkout's
# mltcpctl. Batch jobs run one after another, each opening TCP connections
# through the shaped link and printing `ss -ti` of them while they are open:
#  - `sbatch --mltcp=mltcp_cubic`: the batch step's connections and those of an srun
#    step inside the job (which takes the option from the job's environment) run
#    mltcp_cubic; slurmd's log says the plugin attached and detached each step's
#    cgroup;
#  - a job without --mltcp: its connections run the namespace's default and slurmd's
#    log has no line of the plugin about it;
#  - `sbatch --mltcp=mltcp_bogus`: sbatch warns and accepts it, the job completes, its
#    output says why it runs on the default (and it does), slurmd's log has the error;
#  - `sbatch --mltcp=mltcp_dctcp` where its module is not loaded: mltcpctl attach
#    refuses, its reason is in the job's output, the job completes on the default;
#  - afterwards `mltcpctl attach` lists no attachment.
# SLURM_TEST_BACKEND=bpf runs the algorithms from the BPF backend (mltcpctl bpf load)
# instead of the modules; MLTCP_SPANK_PLUGIN=PATH tests another build of the plugin.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_flows.sh"

ml_need_tools mltcp-flow
PLUGIN=${MLTCP_SPANK_PLUGIN:-$(dirname "$ML_BIN")/slurm/spank_mltcp.so}

tap_plan 17
[ -f "$PLUGIN" ] || bail "$PLUGIN is built (make slurm)"
for p in munged slurmctld slurmd sbatch srun scontrol sinfo; do
	command -v "$p" >/dev/null ||
		bail "$p is installed (make deps: munge slurmctld slurmd slurm-client)"
done
cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$cg2" ] && [ "$(cat /proc/self/cgroup)" = "0::/" ] ||
	bail "a pure cgroup v2 hierarchy, with this shell in its root (Slurm's cgroup/v2" \
		"refuses a hybrid layout): /proc/self/cgroup is $(tr '\n' ' ' </proc/self/cgroup)"

case ${SLURM_TEST_BACKEND:-modules} in
modules) ml_modprobe mltcp_cubic || bail "mltcp_cubic loads" ;;
bpf)
	at_exit "'$CTL' bpf unload"
	out=$(MLTCP_BPF_DEBUG=1 "$CTL" bpf load 2>&1) || {
		printf '%s\n' "$out" | tail -n 20 | diag_stream
		bail "mltcpctl bpf load"
	}
	;;
*) bail "SLURM_TEST_BACKEND is modules or bpf, not '$SLURM_TEST_BACKEND'" ;;
esac
dumbbell_setup 100 tbf 1 || bail "dumbbell topology"
flows_sink "${NS_R[0]}" || bail "sink in ${NS_R[0]}"
default_cc=$(in_ns "${NS_S[0]}" sysctl -n net.ipv4.tcp_congestion_control)

# ---------------------------------------------------------------- the cluster ----
T=$(mktemp -d /tmp/mltcp-slurm.XXXXXX)
chmod 700 "$T"
at_exit "rm -rf $T"
mkdir -p "$T/ctld" "$T/spool"
node=$(hostname -s)
ctld_port=$((20000 + RANDOM % 10000))
slurmd_port=$((ctld_port + 1))
# stop PIDFILE: ends the daemon and waits for it (10 s at most), so that its cgroup
# can go.
stop() {
	local pid i
	pid=$(cat "$1" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || return 0
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -9 "$pid"
}
# slurmd makes system.slice/NODE_slurmstepd.scope for the steps (IgnoreSystemd: with a
# plain mkdir, in the slice systemd would have made); removed deepest first once the
# daemons are gone
if [ ! -d "$cg2/system.slice" ]; then
	mkdir "$cg2/system.slice" || bail "mkdir $cg2/system.slice"
	at_exit "find $cg2/system.slice -depth -type d -exec rmdir {} +"
fi

# Slurm resolves its addresses with AI_ADDRCONFIG, which finds none on a host whose
# only IPv4 address is the loopback's (the guest): a dummy link with one of the
# benchmarking range's, which nothing is sent to (the daemons talk over 127.0.0.1).
if ! ip -4 -o addr show scope global | grep -q .; then
	ip link add mlt$$-dummy type dummy && at_exit "ip link del mlt$$-dummy" &&
		ip addr add 198.18.255.1/32 dev mlt$$-dummy && ip link set mlt$$-dummy up ||
		bail "a dummy link with an IPv4 address for getaddrinfo(AI_ADDRCONFIG)"
fi
t0=$SECONDS
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge.key"
munged --force --key-file="$T/munge.key" --socket="$T/munge.sock" --pid-file="$T/munged.pid" \
	--log-file="$T/munged.log" --seed-file="$T/munged.seed" 2>"$T/munged.err" ||
	bail "munged starts: $(cat "$T/munged.err")"
at_exit "stop $T/munged.pid"

cat >"$T/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v2
CgroupMountpoint=$cg2
IgnoreSystemd=yes
ConstrainCores=no
ConstrainRAMSpace=no
ConstrainDevices=no
EOF
cat >"$T/plugstack.conf" <<EOF
required $PLUGIN mltcpctl=$CTL
EOF
cat >"$T/slurm.conf" <<EOF
ClusterName=mltcp
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.sock
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
StateSaveLocation=$T/ctld
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
SlurmdDebug=info
ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
PlugStackConfig=$T/plugstack.conf
$(slurmd -C | head -n 1) NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$T/slurm.conf
if ! slurmctld -f "$T/slurm.conf" 2>"$T/slurmctld.err"; then
	tail -n 20 "$T/slurmctld.err" "$T/slurmctld.log" 2>&1 | diag_stream
	bail "slurmctld starts"
fi
at_exit "stop $T/slurmctld.pid"
if ! slurmd -f "$T/slurm.conf" 2>"$T/slurmd.err"; then
	tail -n 20 "$T/slurmd.err" "$T/slurmd.log" 2>&1 | diag_stream
	bail "slurmd starts"
fi
at_exit "stop $T/slurmd.pid"
# idle: slurmd registered (60 s at most); the daemons' logs go with a failure
end=$((SECONDS + 60))
until [ "$(sinfo -h -n "$node" -o %T 2>/dev/null)" = idle ] || [ $SECONDS -ge $end ]; do
	sleep 0.2
done
if [ "$(sinfo -h -n "$node" -o %T 2>/dev/null)" != idle ]; then
	diag "sinfo: $(sinfo -h -n "$node" -o '%T %E' 2>&1)"
	tail -n 20 "$T/slurmd.log" "$T/slurmctld.log" 2>&1 | diag_stream
	bail "slurmd registers with slurmctld and the node is idle"
fi
diag "munged, slurmctld and slurmd up in $((SECONDS - t0)) s"

# ---------------------------------------------------------------- the jobs -------
# The client: opens N connections to DST:PORT, sends 256 KB on each, then prints
# `ss -ti` of them, each connection's line prefixed with TAG, and closes them.
cat >"$T/client.py" <<'EOF'
import socket, subprocess, sys
tag, dst, port, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
socks = [socket.create_connection((dst, port)) for _ in range(n)]
for s in socks:
    s.sendall(b"\0" * 262144)
ss = subprocess.run(["ss", "-Htin", "state", "established", "dport = :%d" % port],
                    capture_output=True, text=True, check=True).stdout
for line in ss.splitlines():
    if "cwnd:" in line:
        print(tag, line.strip())
for s in socks:
    s.close()
EOF
client="ip netns exec ${NS_S[0]} python3 $T/client.py"
dst="${RCV_IP4[0]} $SINK_PORT 2"

# job NAME SBATCH_ARGS...: submits $T/NAME.sh, waits for the job to end (120 s at
# most), sets JOB_ID and JOB_STATE (e.g. "COMPLETED 0:0"); sbatch's stderr is in
# $T/NAME.submit.
job() {
	local name=$1 end=$((SECONDS + 120))
	shift
	JOB_ID=$(sbatch --parsable -o "$T/$name.out" "$@" "$T/$name.sh" 2>"$T/$name.submit") ||
		{ JOB_STATE="not submitted: $(cat "$T/$name.submit")"; return 1; }
	while :; do
		JOB_STATE=$(scontrol -o show job "$JOB_ID" 2>/dev/null |
			sed -n -E 's/.*JobState=([A-Z_]+).* ExitCode=([0-9:]+).*/\1 \2/p')
		case $JOB_STATE in
		PENDING* | RUNNING* | CONFIGURING* | COMPLETING* | "") ;;
		*)
			diag "job $name ($JOB_ID) ended in $((SECONDS + 120 - end)) s"
			return 0
			;;
		esac
		if [ $SECONDS -ge $end ]; then
			JOB_STATE="${JOB_STATE:-unknown} after 120 s"
			scancel "$JOB_ID"
			return 1
		fi
		sleep 0.2
	done
}
# conns NAME TAG: the lines of NAME's output for TAG's connections.
conns() { grep "^$2 " "$T/$1.out"; }
# all_on NAME TAG ALGO: TAG printed two connections and every one runs ALGO.
all_on() {
	local lines
	lines=$(conns "$1" "$2")
	[ "$(grep -c . <<<"$lines")" = 2 ] && ! grep -v -q -E "[[:space:]]$3[[:space:]]" <<<"$lines"
}
# show_job NAME: the job's output, submission and slurmd's log as diagnostics, once.
declare -A shown
show_job() {
	[ -z "${shown[$1]:-}" ] || return 0
	shown[$1]=1
	diag "job $1: $JOB_STATE; its output, sbatch's stderr, the end of slurmd.log:"
	cat "$T/$1.out" "$T/$1.submit" 2>&1 | diag_stream
	tail -n 15 "$T/slurmd.log" | diag_stream
}
# expect NAME DESC CMD...: one result, CMD's status; NAME's job shown on failure.
expect() {
	local name=$1 desc=$2
	shift 2
	if "$@"; then
		ok "$desc"
	else
		not_ok "$desc"
		show_job "$name"
	fi
}
completed() { [ "$JOB_STATE" = "COMPLETED 0:0" ]; }
# the plugin's words for a job left on the default
algos="mltcp_reno, mltcp_cubic, mltcp_dctcp"
ondefault="the job runs on the node's default"
# logged N PATTERN: slurmd's log has N lines matching the extended PATTERN.
logged() { [ "$(grep -c -E "$2" "$T/slurmd.log")" = "$1" ]; }

printf '#!/bin/bash\n%s batch %s\nsrun -n 1 %s srun %s\n' "$client" "$dst" "$client" "$dst" \
	>"$T/asks.sh"
job asks --mltcp=mltcp_cubic
expect asks "sbatch --mltcp=mltcp_cubic: the job completes ($JOB_STATE)" completed
expect asks "its batch step's connections run mltcp_cubic (ss -ti)" all_on asks batch mltcp_cubic
expect asks "its srun step's connections run mltcp_cubic (the option from the job's environment)" \
	all_on asks srun mltcp_cubic
expect asks "slurmd's log: the plugin attached both steps' cgroups, job_$JOB_ID/step_{batch,0}" \
	logged 2 "mltcp: job $JOB_ID: .*/job_$JOB_ID/step_(batch|0) attached to mltcp_cubic$"
expect asks "slurmd's log: and detached both" \
	logged 2 "mltcp: job $JOB_ID: .*/job_$JOB_ID/step_(batch|0) detached$"
grep "mltcp: job $JOB_ID:" "$T/slurmd.log" | diag_stream

printf '#!/bin/bash\n%s plain %s\n' "$client" "$dst" >"$T/plain.sh"
job plain
expect plain "a job without --mltcp completes ($JOB_STATE)" completed
expect plain "its connections run the default, $default_cc (ss -ti)" \
	all_on plain plain "$default_cc"
expect plain "slurmd's log has no line of the plugin about it" logged 0 "mltcp: job $JOB_ID:"

printf '#!/bin/bash\n%s bogus %s\n' "$client" "$dst" >"$T/bogus.sh"
job bogus --mltcp=mltcp_bogus
expect bogus "sbatch --mltcp=mltcp_bogus warns at submission and takes the job" \
	grep -q "^mltcp: --mltcp=mltcp_bogus: not an MLTCP congestion control" "$T/bogus.submit"
expect bogus "the job completes all the same ($JOB_STATE)" completed
expect bogus "its output says why it runs on the default" \
	grep -q "^mltcp: --mltcp=mltcp_bogus: not an MLTCP congestion control ($algos); $ondefault\$" \
	"$T/bogus.out"
expect bogus "and it does: its connections run $default_cc" all_on bogus bogus "$default_cc"
expect bogus "slurmd's log has the error" \
	logged 1 "error: mltcp: job $JOB_ID: --mltcp=mltcp_bogus: not an MLTCP congestion control"

# An algorithm the node does not have (its module not loaded): mltcpctl attach refuses,
# and its reason reaches the job's output.
printf '#!/bin/bash\n%s unavail %s\n' "$client" "$dst" >"$T/unavail.sh"
if [ "${SLURM_TEST_BACKEND:-modules}" = modules ] && [ ! -d /sys/module/mltcp_dctcp ]; then
	job unavail --mltcp=mltcp_dctcp
	expect unavail "--mltcp=mltcp_dctcp without its module: the job completes ($JOB_STATE)" \
		completed
	why="^mltcp: --mltcp=mltcp_dctcp not applied: $CTL attach .*/job_$JOB_ID/step_batch"
	why+=" mltcp_dctcp failed (mltcpctl: attach: mltcp_dctcp is not available: .*); $ondefault\$"
	expect unavail "its output has mltcpctl's reason" grep -q "$why" "$T/unavail.out"
	expect unavail "and its connections run $default_cc" all_on unavail unavail "$default_cc"
else
	for d in "completes" "its output has mltcpctl's reason" "its connections run the default"
	do
		skip "--mltcp=mltcp_dctcp without its module: $d" \
			"the BPF backend or mltcp_dctcp is loaded"
	done
fi

left=$("$CTL" attach 2>&1)
if [ -z "$left" ]; then
	ok "after the jobs, mltcpctl attach lists no attachment"
else
	not_ok "after the jobs, mltcpctl attach lists no attachment"
	printf '%s\n' "$left" | diag_stream
fi
tap_done
