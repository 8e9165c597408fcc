#!/usr/bin/env bash
# Install (if missing) and start a single-node Slurm with munge on this Debian machine.
#
# For tests and trying the Slurm profile on one machine: run as root on a machine
# without systemd (a container, a CI machine). The node's CPUs and memory come from
# `slurmd -C`; accounting is off; finished jobs stay visible to `squeue` for MinJobAge
# seconds (what Snakemake's Slurm plugin needs to read job states without sacct).
# Idempotent: a second call, with the daemons up, only checks that the node is idle.
# A pid file counts only if it names a live process of the daemon's name (slurm-daemons.sh).
# Stop with tests/cluster/stop-slurm.sh.
set -euo pipefail

CONF=/etc/slurm/slurm.conf
MARK="# Written by knight's tests/cluster/start-slurm.sh"
STATE=/var/lib/slurm/slurmctld
SPOOL=/var/lib/slurm/slurmd
LOGS=/var/log/slurm
PARTITION=${SLURM_PARTITION_NAME:-main}

say() { echo "start-slurm: $*"; }
die() { echo "start-slurm: error: $*" >&2; exit 1; }
# shellcheck source=tests/cluster/slurm-daemons.sh
source "$(dirname "$0")/slurm-daemons.sh"

[[ $(id -u) -eq 0 ]] || die "run as root (it installs packages and starts daemons)"
t0=$SECONDS

# --- packages ---------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  say "installing slurmctld, slurmd, slurm-client, munge (apt)"
  export DEBIAN_FRONTEND=noninteractive
  # Keep the packages' scripts from starting daemons with their default configs.
  added_policy=
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    added_policy=1
  fi
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
  if [[ -n $added_policy ]]; then rm -f /usr/sbin/policy-rc.d; fi
fi

# --- munge --------------------------------------------------------------------
mkdir -p /run/munge /var/log/munge /var/lib/munge /etc/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
chmod 0755 /run/munge
if [[ ! -s /etc/munge/munge.key ]]; then
  mungekey --create --keyfile=/etc/munge/munge.key
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
if ! running /run/munge/munged.pid munged; then
  say "starting munged"
  runuser -u munge -- /usr/sbin/munged
fi
for _ in $(seq 50); do munge -n </dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
munge -n </dev/null | unmunge >/dev/null 2>&1 || die "munge does not answer (see /var/log/munge/munged.log)"

# --- slurm.conf -----------------------------------------------------------------
host=$(hostname -s)
# slurmd -C: "NodeName=vm CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=24105"
node=$(slurmd -C | head -1)
[[ $node == NodeName=* ]] || die "unexpected output of slurmd -C: $node"
mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$node")
# Leave the system and the test driver some memory outside Slurm's reach.
node=${node/RealMemory=$mem/RealMemory=$(( mem * 9 / 10 ))}
cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$node")

if [[ -e $CONF ]] && ! grep -qF "$MARK" "$CONF"; then
  die "$CONF exists and was not written by this script: not touching a real cluster's config"
fi
new=$(mktemp)
cat >"$new" <<EOF
$MARK: a single-node Slurm for tests.
ClusterName=knight
SlurmctldHost=$host(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=$STATE
SlurmdSpoolDir=$SPOOL
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
# No cgroups, no systemd: processes tracked by their parents, no CPU binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
# Cores and memory are both consumable, so several small jobs share the node.
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1000
# No accounting database: job states come from squeue, so finished jobs must stay
# listed long enough (MinJobAge >= 3 x the plugin's init seconds, and longer than
# its status poll interval, which grows to 180 s; 600 s leaves the tests time to
# read the records of a whole run).
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=600
# A job asking for more than the partition can ever give is refused at sbatch,
# instead of pending forever.
EnforcePartLimits=ALL
ReturnToService=2
SlurmdTimeout=60
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=$PARTITION Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

changed=
if ! cmp -s "$new" "$CONF"; then
  mkdir -p "$(dirname "$CONF")"
  install -m 0644 "$new" "$CONF"
  changed=1
fi
rm -f "$new"

mkdir -p "$STATE" "$SPOOL" "$LOGS"
chown slurm:slurm "$STATE" "$LOGS"

logs_tail() {
  local f
  for f in "$LOGS/slurmctld.log" "$LOGS/slurmd.log"; do
    if [[ -s $f ]]; then echo "--- last lines of $f:"; tail -n 20 "$f"; fi
  done >&2
}

# --- daemons ----------------------------------------------------------------------
if [[ -n $changed ]] && { running /run/slurmctld.pid slurmctld || running /run/slurmd.pid slurmd; }; then
  say "slurm.conf changed: restarting the daemons"
  "$(dirname "$0")/stop-slurm.sh" --keep-munge
fi
# A controller started here starts empty (-c): job records kept in $STATE by an earlier
# run, or by the machine image this machine booted from, are not recovered (a job pending
# there would run again beside the tests).
# start NAME COMMAND...: run COMMAND unless NAME runs; the daemon forks and writes
# /run/NAME.pid, and its child is given 10 s to do so.
start() {
  local name=$1
  shift
  running "/run/$name.pid" "$name" && return 0
  say "starting $name"
  "$@"
  for _ in $(seq 100); do running "/run/$name.pid" "$name" && break; sleep 0.1; done
}
start slurmctld slurmctld -c
start slurmd slurmd

# --- wait for the node ----------------------------------------------------------------
# By the clock, not by a count of tries: sinfo takes 9 s to give up on a controller that
# is down, so 120 tries once took 18 minutes. A daemon that dies while we wait is reported
# with its log, not waited for.
state=
deadline=$(( SECONDS + 60 ))
tries=0
while (( SECONDS < deadline )); do
  for d in slurmctld slurmd; do
    if ! running "/run/$d.pid" "$d"; then
      logs_tail
      die "$d stopped while starting (its log is above)"
    fi
  done
  state=$(timeout 5 sinfo -h -n "$host" -o %T 2>/dev/null | head -1 || true)
  case $state in
    idle|mixed|allocated) break ;;
    drain*|down*|fail*)
      if (( ++tries % 10 == 5 )); then scontrol update NodeName="$host" State=RESUME 2>/dev/null || true; fi ;;
  esac
  sleep 0.5
done
case $state in
  idle|mixed|allocated) ;;
  *) logs_tail; die "node $host is '${state:-not listed}' after 60 s (the daemons' logs are above)" ;;
esac
say "node $host ($cpus CPUs) is $state in partition $PARTITION, after $(( SECONDS - t0 )) s"
