#!/usr/bin/env bash
# ci/slurm-up.sh — start a single-node Slurm on this machine, without
# systemd: munged (unless one answers already), slurmctld and slurmd, all
# on 127.0.0.1, with a cgroup-free configuration (proctrack/linuxproc,
# task/none) and no accounting database. Idempotent: what runs already is
# kept. State, configuration, logs and pid files live in $DH_SLURM_DIR
# (default /tmp/divharness-slurm); ci/slurm-down.sh stops what this script
# started and nothing else. Prints the line that points clients at it:
#   export SLURM_CONF=$DH_SLURM_DIR/slurm.conf
# Exit: 0 up; 77 Slurm cannot start here (not root, packages missing: the
# reason on stderr; `--install` installs the packages with apt-get);
# 1 a daemon did not come up (its log is shown).
set -euo pipefail
dir=${DH_SLURM_DIR:-/tmp/divharness-slurm}
node=dhnode
install=0
[ "${1:-}" = "--install" ] && install=1

cannot() { echo "slurm-up: Slurm cannot start here: $*" >&2; exit 77; }
[ "$(id -u)" -eq 0 ] || cannot "not root (munged, slurmctld and slurmd are started as root)"
pkgs=(slurmctld slurmd slurm-client munge)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ $install = 1 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" \
      >/dev/null || cannot "apt-get install ${missing[*]} failed"
  else
    cannot "packages missing: ${missing[*]} (bash ci/deps.sh, or ci/slurm-up.sh --install)"
  fi
fi

mkdir -p "$dir/ctld" "$dir/spool"
conf=$dir/slurm.conf
export SLURM_CONF=$conf
cpus=$(nproc)
cat > "$conf.new" <<CONF
# written by ci/slurm-up.sh: one node, this machine, 127.0.0.1
ClusterName=divharness
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=6817
SlurmdPort=6818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
if ! cmp -s "$conf.new" "$conf"; then mv "$conf.new" "$conf"; else rm -f "$conf.new"; fi

alive() {  # pidfile, program: the pid in the file runs that program
  local pid
  [ -s "$1" ] || return 1
  pid=$(cat "$1")
  [ -d "/proc/$pid" ] && grep -q "$2" "/proc/$pid/cmdline" 2>/dev/null
}
wait_for() {  # seconds, what, command...
  local t=$1 what=$2; shift 2
  for _ in $(seq $((t * 5))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "slurm-up: $what did not come up in ${t} s" >&2
  return 1
}

# munge: one that answers already is used (and never stopped by slurm-down)
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  mkdir -p /run/munge && chown munge:munge /run/munge && chmod 0755 /run/munge
  [ -s /etc/munge/munge.key ] || { mungekey --create >/dev/null && chown munge:munge /etc/munge/munge.key; }
  runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid
  wait_for 10 munged sh -c 'munge -n | unmunge' || exit 1
  cp /run/munge/munged.pid "$dir/munged.pid"       # ours: slurm-down stops it
fi

# Debian installs the daemons as *-wlm behind alternatives, and Slurm tells
# which daemon it is from argv[0]: start them by their own names
if ! alive "$dir/slurmctld.pid" slurmctld; then
  /usr/sbin/slurmctld -f "$conf"
fi
wait_for 20 slurmctld scontrol ping || { tail -20 "$dir/slurmctld.log" >&2; exit 1; }
if ! alive "$dir/slurmd.pid" slurmd; then
  /usr/sbin/slurmd -f "$conf" -N "$node"
fi
node_ready() {
  local st
  st=$(sinfo -h -n "$node" -o %T 2>/dev/null | head -1)
  case $st in
    idle*|mixed*|allocated*|completing*) return 0 ;;
    down*|drain*|fail*) scontrol update nodename="$node" state=resume >/dev/null 2>&1; return 1 ;;
    *) return 1 ;;
  esac
}
wait_for 30 "slurmd (node $node)" node_ready || { tail -20 "$dir/slurmd.log" >&2; exit 1; }
echo "slurm-up: Slurm $(sinfo -V | awk '{print $2}') up: node $node, $cpus CPUs, partition debug" >&2
echo "export SLURM_CONF=$conf"
