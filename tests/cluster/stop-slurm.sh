#!/usr/bin/env bash
# Stop the single-node Slurm started by tests/cluster/start-slurm.sh: cancel its jobs,
# stop slurmd and slurmctld (SIGTERM to the pids in their pid files), then munged
# (unless --keep-munge). Packages and state stay; start-slurm.sh starts it again.
set -euo pipefail

say() { echo "stop-slurm: $*"; }
# shellcheck source=tests/cluster/slurm-daemons.sh
source "$(dirname "$0")/slurm-daemons.sh"

[[ $(id -u) -eq 0 ]] || { echo "stop-slurm: error: run as root" >&2; exit 1; }
keep_munge=
[[ ${1:-} == --keep-munge ]] && keep_munge=1

stop() {  # stop NAME PIDFILE: SIGTERM, wait up to 15 s, then SIGKILL
  local name=$1 pidfile=$2 pid
  running "$pidfile" "$name" || return 0
  pid=$(cat "$pidfile")
  say "stopping $name ($pid)"
  kill -TERM "$pid"
  for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  say "$name did not stop in 15 s: SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
}

if running /run/slurmctld.pid slurmctld && command -v squeue >/dev/null; then
  jobs=$(squeue -h -t PENDING,RUNNING,SUSPENDED,COMPLETING -o %A 2>/dev/null | sort -u | tr '\n' ' ' || true)
  if [[ -n ${jobs// } ]]; then
    say "cancelling jobs $jobs"
    # shellcheck disable=SC2086
    scancel $jobs 2>/dev/null || true
    for _ in $(seq 50); do
      [[ -z $(squeue -h -t PENDING,RUNNING,SUSPENDED,COMPLETING -o %A 2>/dev/null) ]] && break
      sleep 0.2
    done
  fi
fi

stop slurmd /run/slurmd.pid
stop slurmctld /run/slurmctld.pid
[[ -n $keep_munge ]] || stop munged /run/munge/munged.pid
say "stopped"
