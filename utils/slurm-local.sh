#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for tests and for trying utils/mose-slurm.sh before a
# real cluster (doc/mose.rst, "Running big studies", Slurm).
#
# usage: utils/slurm-local.sh start|stop|status STATEDIR
#   start   writes a munge key and STATEDIR/slurm.conf, starts munged, slurmctld and slurmd, and
#           waits until sinfo shows the node idle (SLURM_LOCAL_TIMEOUT seconds, default 60); when
#           it fails, it says which daemon and its log, and stops what it started
#   stop    cancels this cluster's jobs and stops the three daemons that start started (their pid
#           files under STATEDIR, each checked to be the daemon with this STATEDIR's files)
#   status  prints the node's state and the jobs in the queue (exit status 1 when not running)
# Then point the Slurm commands at it:  . STATEDIR/env   (sets SLURM_CONF)
#
# Everything lives under STATEDIR: the key, munged's socket, pid and log, slurm.conf, the state,
# spool and log folders. Nothing in /etc, /run or /var is written, and a system munged or Slurm
# (if one runs) is not touched: munged listens on STATEDIR/munge/munged.socket, which slurm.conf
# names (AuthInfo), and the daemons take two free TCP ports (SLURM_LOCAL_PORTS="CTLD SLURMD" to
# choose them). The node is "localhost" with the CPUs and memory of /proc; one partition, "local";
# select/cons_tres with CR_CPU_Memory, so each job gets the memory it asks (--mem, default 1 GB per
# CPU); no accounting daemon, no cgroups (proctrack/linuxproc, task/none), so --mem is a scheduling
# figure, not a limit the kernel enforces. No systemd service is needed: Debian's slurmd,
# slurmctld and munge services stay stopped (the daemons are started here by hand, as root).
# Needs Debian's slurm-wlm and munge (utils/install-deps.sh installs them). Runs as root.
set -euo pipefail

say() { printf '[slurm-local] %s\n' "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}

if [ $# -ne 2 ]; then
  sed -n '2,23p' "$0" >&2
  exit 2
fi
action=$1
case "$action" in
  start | stop | status) ;;
  *) die "unknown action '$action' (allowed: start, stop, status)" ;;
esac
case "$2" in
  *[[:space:]]* | *'"'* | *"'"* | *'#'*) die "STATEDIR '$2' holds a space, a quote or a #, which slurm.conf cannot carry" ;;
esac
if [ "$action" = start ]; then mkdir -p "$2"; fi
[ -d "$2" ] || die "STATEDIR $2: no such folder (nothing was started there)"
state=$(cd "$2" && pwd)
conf=$state/slurm.conf
munge_dir=$state/munge
run_dir=$state/run
log_dir=$state/log

# the pid of DAEMON from its pid file when that process is the daemon this STATEDIR started (its
# command line names the daemon and its environment or arguments this STATEDIR's files), else
# nothing: a pid reused by another process is never signalled
our_pid() {
  local daemon=$1 pidfile=$2 pid cmd
  [ -f "$pidfile" ] || return 0
  pid=$(tr -dc '0-9' < "$pidfile")
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 0
  cmd=$(tr '\0' ' ' < "/proc/$pid/cmdline")
  if [[ $cmd == *"$daemon"*"$state/"* ]]; then echo "$pid"; fi
}

check_tools() {
  local missing=()
  for t in munged mungekey slurmctld slurmd sinfo scancel; do
    command -v "$t" > /dev/null 2>&1 || missing+=("$t")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    die "missing ${missing[*]}: install Debian's slurm-wlm and munge (utils/install-deps.sh, or apt-get install slurm-wlm munge)"
  fi
  [ "$(id -u)" -eq 0 ] || die "start runs munged, slurmctld and slurmd as root: run it as root"
}

free_ports() {
  python3 - << 'EOF'
import socket
socks = []
for _ in range(2):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

# waits up to $1 seconds for a command to succeed
wait_for() {
  local limit=$1 t0
  shift
  t0=$(date +%s)
  until "$@"; do
    [ $(($(date +%s) - t0)) -lt "$limit" ] || return 1
    sleep 0.2
  done
}

first_error() { grep -m1 -E 'fatal|error' "$log_dir/$1.log" 2> /dev/null || echo "no error in its log"; }
node_state() { SLURM_CONF=$conf sinfo -h -N -n localhost -o %T 2> /dev/null | head -1; }
node_idle() { [ "$(node_state)" = idle ]; }

start() {
  check_tools
  local timeout=${SLURM_LOCAL_TIMEOUT:-60}
  for d in munged slurmctld slurmd; do
    local f
    case "$d" in munged) f=$munge_dir/munged.pid ;; *) f=$run_dir/$d.pid ;; esac
    if [ -n "$(our_pid "$d" "$f")" ]; then
      die "$d of $state already runs (pid $(our_pid "$d" "$f")): utils/slurm-local.sh stop $state first"
    fi
  done
  rm -rf "$munge_dir" "$run_dir" "$log_dir" "$state/ctld" "$state/spool"
  mkdir -p "$munge_dir" "$run_dir" "$log_dir" "$state/ctld" "$state/spool"
  # munged wants its socket's folder writable by its owner only and searchable by all, and the
  # folders above it searchable by all
  chmod 755 "$state" "$munge_dir"

  local t0 ports ctld_port slurmd_port cpus mem_mb
  ports=${SLURM_LOCAL_PORTS:-$(free_ports)}
  read -r ctld_port slurmd_port <<< "$ports"
  [[ $ctld_port =~ ^[0-9]+$ && $slurmd_port =~ ^[0-9]+$ ]] ||
    die "SLURM_LOCAL_PORTS='$ports': want two port numbers, slurmctld's then slurmd's"
  t0=$(date +%s.%N)
  # a start that fails stops what it started
  trap 'stop > /dev/null 2>&1' EXIT
  mungekey --create --keyfile="$munge_dir/munge.key" 2> "$log_dir/mungekey.log" ||
    die "mungekey failed ($log_dir/mungekey.log)"
  chmod 600 "$munge_dir/munge.key"
  munged --key-file="$munge_dir/munge.key" --socket="$munge_dir/munged.socket" \
    --pid-file="$munge_dir/munged.pid" --log-file="$log_dir/munged.log" \
    --seed-file="$munge_dir/munged.seed" 2>> "$log_dir/munged.log" ||
    die "munged did not start: $(grep -m1 Error: "$log_dir/munged.log" || true) (log: $log_dir/munged.log; munged wants every folder above its socket searchable by all)"
  wait_for 10 test -S "$munge_dir/munged.socket" ||
    die "munged's socket $munge_dir/munged.socket did not appear (log: $log_dir/munged.log)"

  cpus=$(nproc --all)
  mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
  cat > "$conf" << EOF
# written by utils/slurm-local.sh start: a one-node cluster on localhost, every file under
# $state
ClusterName=mose-local
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$munge_dir/munged.socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$run_dir/slurmctld.pid
SlurmdPidFile=$run_dir/slurmd.pid
SlurmctldLogFile=$log_dir/slurmctld.log
SlurmdLogFile=$log_dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MpiDefault=none
SwitchType=switch/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
# schedule at once when a job ends, not in the next pass (a test's tasks last a second)
SchedulerParameters=sched_min_interval=0,batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
DefMemPerCPU=1024
SlurmdParameters=config_overrides
ReturnToService=2
InactiveLimit=0
KillWait=5
MinJobAge=600
MailProg=/bin/true
MaxArraySize=100001
NodeName=localhost NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  printf 'export SLURM_CONF=%q\n' "$conf" > "$state/env"

  # -c: a fresh start, no jobs or node state from an earlier cluster in this STATEDIR
  SLURM_CONF=$conf slurmctld -c -f "$conf" 2>> "$log_dir/slurmctld.log" ||
    die "slurmctld did not start: $(first_error slurmctld) (log: $log_dir/slurmctld.log)"
  SLURM_CONF=$conf slurmd -N localhost -f "$conf" 2>> "$log_dir/slurmd.log" ||
    die "slurmd did not start: $(first_error slurmd) (log: $log_dir/slurmd.log)"
  if ! wait_for "$timeout" node_idle; then
    local who=slurmd
    SLURM_CONF=$conf sinfo -h > /dev/null 2>&1 || who=slurmctld
    die "the node is not idle after ${timeout} s (state: '$(node_state)'): $(first_error "$who") (log: $log_dir/$who.log)"
  fi
  trap - EXIT
  say "up in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s: node localhost idle, $cpus CPUs, $mem_mb MB; ports $ctld_port/$slurmd_port"
  say "use it with: . $state/env"
}

stop() {
  local pids=() p
  if [ -n "$(our_pid slurmctld "$run_dir/slurmctld.pid")" ]; then
    # jobs first, so that no slurmstepd and no job outlives the daemons
    SLURM_CONF=$conf scancel --quiet --user="$(id -un)" 2> /dev/null || true
    wait_for 15 sh -c "[ -z \"\$(SLURM_CONF='$conf' squeue -h -t running,completing 2>/dev/null)\" ]" || true
  fi
  for d in slurmd slurmctld munged; do
    local f
    case "$d" in munged) f=$munge_dir/munged.pid ;; *) f=$run_dir/$d.pid ;; esac
    p=$(our_pid "$d" "$f")
    if [ -n "$p" ]; then
      kill -TERM "$p" 2> /dev/null || true
      pids+=("$p")
      say "stopped $d (pid $p)"
    fi
  done
  for p in "${pids[@]}"; do
    if ! wait_for 15 sh -c "! kill -0 $p 2>/dev/null"; then
      kill -KILL "$p" 2> /dev/null || true
    fi
  done
  [ ${#pids[@]} -gt 0 ] || say "nothing of $state runs"
}

status() {
  local rc=0
  for d in munged slurmctld slurmd; do
    local f p
    case "$d" in munged) f=$munge_dir/munged.pid ;; *) f=$run_dir/$d.pid ;; esac
    p=$(our_pid "$d" "$f")
    if [ -n "$p" ]; then echo "$d: running (pid $p)"; else
      echo "$d: not running"
      rc=1
    fi
  done
  if [ "$rc" -eq 0 ]; then
    echo "node localhost: $(node_state)"
    SLURM_CONF=$conf squeue
  fi
  return "$rc"
}

"$action"
