#!/usr/bin/env bash
# ci/slurm-down.sh — stop what ci/slurm-up.sh started: slurmd, slurmctld
# and munged (only when slurm-up started it), each by the pid file in
# $DH_SLURM_DIR (default /tmp/divharness-slurm) and only while that pid
# still runs the same program. Idempotent; exits 0 when nothing runs.
set -uo pipefail
dir=${DH_SLURM_DIR:-/tmp/divharness-slurm}
stop() {  # name, pidfile
  local name=$1 f=$2 pid
  [ -s "$f" ] || return 0
  pid=$(cat "$f")
  if [ -d "/proc/$pid" ] && grep -q "$name" "/proc/$pid/cmdline" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 50); do [ -d "/proc/$pid" ] || break; sleep 0.2; done
    if [ -d "/proc/$pid" ]; then
      echo "slurm-down: $name ($pid) did not stop in 10 s: killing it" >&2
      kill -KILL "$pid" 2>/dev/null
    fi
    echo "slurm-down: stopped $name ($pid)" >&2
  fi
  rm -f "$f"
}
stop slurmd "$dir/slurmd.pid"
stop slurmctld "$dir/slurmctld.pid"
stop munged "$dir/munged.pid"
exit 0
