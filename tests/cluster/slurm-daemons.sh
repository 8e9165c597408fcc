# Sourced by start-slurm.sh and stop-slurm.sh: which of the single-node daemons run.
#
# A pid file alone proves nothing: one left behind by a machine image or a crash can name
# a pid that the kernel has since given to another program. Believing it once skipped
# starting slurmctld (and stop-slurm.sh would have sent SIGTERM to that other program).

# running PIDFILE NAME: true if PIDFILE holds the pid of a live process whose name is NAME.
running() {
  local pid
  [[ -s $1 ]] || return 1
  pid=$(<"$1")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$2" ]]
}
