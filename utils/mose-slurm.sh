#!/usr/bin/env bash
# A map (a program with --listRuns, --part and --merge: mose-llm) as a Slurm job array: one task
# per part of the run list, then one merge job that waits for them (doc/mose.rst, "Running big
# studies", Slurm).
#
# usage: utils/mose-slurm.sh write|submit --tasks=K --dir=DIR [--pilot=RUNINDEX | --pilot-record=FILE]
#            [--time-factor=F] [--mem-factor=F] [--mpi=RANKS] [--partition=P] -- PROGRAM MAPOPTIONS...
#        utils/mose-slurm.sh status DIR
#        utils/mose-slurm.sh resubmit DIR
#
#   write     runs a pilot here (PROGRAM MAPOPTIONS --runs=RUNINDEX --outputDir=DIR/pilot; default
#             the list's first run), reads its record's wall_s and max_rss_kb, and writes
#             DIR/array.sbatch (task I of K: PROGRAM MAPOPTIONS --part=I/K --outputDir=DIR/work)
#             and DIR/merge.sbatch (PROGRAM MAPOPTIONS --merge=DIR/work --outputDir=DIR/map).
#             Time limit: the most runs a task has x the pilot's wall time x --time-factor
#             (default 3), at least 1 minute. Memory: the pilot's peak x --mem-factor (default
#             1.5), at least 256 MB (x RANKS with --mpi). A second write keeps the pilot when the
#             command is the same. --pilot-record=FILE takes the pilot's record from FILE (one run
#             of this map carried out elsewhere, e.g. as a Slurm job of its own when a run is too
#             big for this machine) and runs no pilot.
#   submit    write, then sbatch the array and the merge with --dependency=afterok:<array job>.
#   status    the tasks that failed (DIR/tasks/task-I.exit not 0), never finished (no such file,
#             not in the queue) or are still queued; the merge's state. Exit status 1 when a task
#             or the merge failed or never finished.
#   resubmit  sbatch only the failed and unfinished tasks (--array=2,5) and a new merge that
#             depends on them (an earlier merge still waiting on the failed array is cancelled).
#
#   --mpi=RANKS      each task is mpirun -np RANKS PROGRAM ... on RANKS Slurm tasks (one node).
#                    PROGRAM must come from an ns-3 tree built with --enable-mpi and run its
#                    Simulator distributed (give it --distributed); MOSE_SLURM_MPIRUN
#                    (default: mpirun) is the launcher. A distributed program carries out one
#                    run at a time, so --tasks must be the number of runs. The pilot runs
#                    under the same launcher.
#   --jobs=J         (a MAPOPTION, the program's own) J workers in each task: --cpus-per-task=J,
#                    J times the memory, the task's runs J at a time.
#   --partition=P    #SBATCH --partition=P (default: the cluster's default partition)
#
# The map's outputs land in DIR/map only when the merge succeeds (written to DIR/map.partial,
# then renamed); the merge itself refuses a run missing, a run twice, or records made with other
# options or another module version. Every text typed here reaches the sbatch files quoted
# (printf %q); DIR may not hold " \ % or a newline (Slurm's #SBATCH lines cannot carry them).
# A DIR that holds another map's work (another PROGRAM or MAPOPTIONS) is refused.
# Files in DIR: command.txt (the map's command), tasks.txt (K), jobs.txt (submitted job ids),
# pilot/, work/runs/ (the records), logs/task-I.{out,err}, tasks/task-I.exit, map/.
# Test hook: MOSE_SLURM_HOLD_TASKS=I[,J] (in the environment of submit or resubmit) makes those
# tasks sleep before their part, so a test can scancel them while they run.
set -euo pipefail

say() { printf '[mose-slurm] %s\n' "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}
usage() {
  sed -n '6,9p' "$0" >&2
  exit 2
}

need_slurm() {
  local t
  for t in "$@"; do
    command -v "$t" > /dev/null 2>&1 ||
      die "$t not found: install Debian's slurm-wlm (apt-get install slurm-wlm, or utils/install-deps.sh), or load your cluster's Slurm module"
  done
}

positive_int() { [[ $2 =~ ^[0-9]+$ ]] && [ "$((10#$2))" -ge 1 ] || die "$1=$2: want a whole number of at least 1"; }
positive_num() {
  [[ $2 =~ ^[0-9]*\.?[0-9]+$ ]] && awk -v x="$2" 'BEGIN { exit !(x > 0) }' ||
    die "$1=$2: want a number above 0"
}

# --- the map's folder ----------------------------------------------------------------------------

set_dir() {
  local d=$1
  [ -n "$d" ] || die "--dir is required"
  case "$d" in
    *'"'* | *\\* | *%* | *$'\n'*) die "--dir=$d: holds \" \\ % or a newline, which Slurm's #SBATCH lines cannot carry" ;;
  esac
  mkdir -p "$d" || die "--dir=$d: cannot create it"
  dir=$(cd "$d" && pwd)
}

# the ids of DIR's jobs (array, merge) still in the queue, if squeue can tell
queued_tasks() { # array job id -> task indices still pending or running, one a line
  [ -n "$1" ] && command -v squeue > /dev/null 2>&1 || return 0
  squeue -h -r -j "$1" -o '%K' 2> /dev/null | grep -E '^[0-9]+$' || true
}
job_queued() { [ -n "$1" ] && command -v squeue > /dev/null 2>&1 && squeue -h -j "$1" -o %i 2> /dev/null | grep -q .; }
jobs_value() { sed -n "s/^$1=//p" "$dir/jobs.txt" 2> /dev/null | tail -1; }

# --- write ---------------------------------------------------------------------------------------

write() {
  local tasks='' d='' pilot='' pilot_record='' time_factor=3 mem_factor=1.5 mpi='' partition=''
  while [ $# -gt 0 ]; do
    case "$1" in
      --tasks=*) tasks=${1#*=} ;;
      --dir=*) d=${1#*=} ;;
      --pilot=*) pilot=${1#*=} ;;
      --pilot-record=*) pilot_record=${1#*=} ;;
      --time-factor=*) time_factor=${1#*=} ;;
      --mem-factor=*) mem_factor=${1#*=} ;;
      --mpi=*) mpi=${1#*=} ;;
      --partition=*) partition=${1#*=} ;;
      --) shift; break ;;
      *) die "unknown option '$1' (allowed: --tasks, --dir, --pilot, --pilot-record, --time-factor, --mem-factor, --mpi, --partition, then -- PROGRAM MAPOPTIONS...)" ;;
    esac
    shift
  done
  [ -n "$tasks" ] || die "--tasks=K is required"
  positive_int --tasks "$tasks"
  tasks=$((10#$tasks))
  positive_num --time-factor "$time_factor"
  positive_num --mem-factor "$mem_factor"
  [ -z "$mpi" ] || positive_int --mpi "$mpi"
  if [ -n "$partition" ] && ! [[ $partition =~ ^[A-Za-z0-9_.,-]+$ ]]; then
    die "--partition=$partition: want a partition name (letters, digits, _ . , -)"
  fi
  [ -z "$pilot" ] || [ -z "$pilot_record" ] || die "--pilot and --pilot-record: give one of them"
  if [ -n "$pilot_record" ]; then
    [ -f "$pilot_record" ] || die "--pilot-record=$pilot_record: no such file"
    pilot=$(sed -n 's/^index=//p' "$pilot_record" | head -1)
    [[ $pilot =~ ^[0-9]+$ ]] || die "--pilot-record=$pilot_record: no index= line, not a run record"
  fi
  [ $# -ge 1 ] || die "no program: write -- PROGRAM MAPOPTIONS... after the options"
  set_dir "$d"
  local program=$1
  shift
  local resolved
  if [[ $program == */* ]]; then resolved=$program; else resolved=$(command -v -- "$program" || true); fi
  [ -n "$resolved" ] && [ -f "$resolved" ] && [ -x "$resolved" ] ||
    die "PROGRAM $program: not an executable file"
  program=$(cd "$(dirname -- "$resolved")" && pwd)/$(basename -- "$resolved")
  local cmd=("$program" "$@")
  local cmdline
  cmdline=$(printf '%q ' "${cmd[@]}")

  # one folder, one map: work of another command is never mixed with this one's
  if [ -f "$dir/command.txt" ]; then
    [ "$(cat "$dir/command.txt")" = "$cmdline" ] ||
      die "--dir=$dir holds the work of another map ($(cat "$dir/command.txt")); use another --dir or remove it"
  else
    if compgen -G "$dir/work/runs/*" > /dev/null; then
      die "--dir=$dir: work/runs/ holds records but no command.txt says of which map; use another --dir or remove it"
    fi
    rm -rf "$dir/pilot" # an earlier write's pilot that failed, or of another command
  fi
  if [ -f "$dir/jobs.txt" ]; then
    local a m
    a=$(jobs_value array)
    m=$(jobs_value merge)
    if job_queued "$a" || job_queued "$m"; then
      die "--dir=$dir: its jobs are still in the queue (array $a, merge $m): wait for them, or scancel them"
    fi
  fi

  # the run list: indices, and the most runs any part has
  local listing n maxper first
  listing=$("${cmd[@]}" --listRuns) || die "$(printf '%q ' "${cmd[@]}")--listRuns failed"
  n=$(printf '%s\n' "$listing" | awk -F, 'NR > 1 && $1 ~ /^[0-9]+$/ { ++n } END { print n + 0 }')
  [ "$n" -ge 1 ] || die "$(printf '%q ' "${cmd[@]}")--listRuns listed no run"
  [ "$tasks" -le "$n" ] || die "--tasks=$tasks: the map has $n runs, so at most $n tasks"
  maxper=$(printf '%s\n' "$listing" | awk -F, -v k="$tasks" 'NR > 1 && $1 ~ /^[0-9]+$/ { c[$1 % k]++ }
    END { m = 0; for (r in c) if (c[r] > m) m = c[r]; print m }')
  first=$(printf '%s\n' "$listing" | awk -F, 'NR > 1 && $1 ~ /^[0-9]+$/ { print $1; exit }')
  pilot=${pilot:-$first}
  printf '%s\n' "$listing" | awk -F, -v p="$pilot" 'NR > 1 && $1 == p { f = 1 } END { exit !f }' ||
    die "--pilot=$pilot${pilot_record:+ (index= of $pilot_record)}: not an index of the run list (0 to $((n - 1)))"
  if [ -n "$mpi" ] && [ "$maxper" -gt 1 ]; then
    die "--mpi=$mpi with --tasks=$tasks: a distributed task carries out one run, so --tasks must be the map's $n runs"
  fi
  local launch=()
  if [ -n "$mpi" ]; then
    read -ra launch <<< "${MOSE_SLURM_MPIRUN:-mpirun}"
    launch+=(-np "$mpi")
  fi

  # the pilot, kept while the command and its index stay the same
  local rec
  rec=$(printf '%s/pilot/runs/run-%06d.txt' "$dir" "$pilot")
  if [ -n "$pilot_record" ]; then
    rm -rf "$dir/pilot"
    mkdir -p "$dir/pilot/runs"
    cp "$pilot_record" "$rec"
  elif [ ! -f "$rec" ]; then
    rm -rf "$dir/pilot"
    mkdir -p "$dir/pilot"
    say "pilot: run $pilot of $n"
    "${launch[@]}" "${cmd[@]}" --runs="$pilot" --outputDir="$dir/pilot" > "$dir/pilot/pilot.log" 2>&1 ||
      die "the pilot run failed: $(tail -1 "$dir/pilot/pilot.log") (log: $dir/pilot/pilot.log)"
    [ -f "$rec" ] || die "the pilot run wrote no record $rec (log: $dir/pilot/pilot.log)"
  fi
  printf '%s' "$cmdline" > "$dir/command.txt.tmp"
  mv "$dir/command.txt.tmp" "$dir/command.txt"
  local wall rss
  wall=$(sed -n 's/^wall_s=//p' "$rec" | head -1)
  rss=$(sed -n 's/^max_rss_kb=//p' "$rec" | head -1)
  [[ $wall =~ ^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$ ]] || die "$rec: no wall_s= line with a number"
  [[ $rss =~ ^[0-9]+$ ]] || die "$rec: no max_rss_kb= line with a number"
  # --jobs=J among MAPOPTIONS: J workers in a task, so J CPUs, J runs' memory (an upper bound:
  # the fluid levels' threads share one process), and the runs J at a time
  local jobs=1 a
  for a in "${cmd[@]:1}"; do
    case "$a" in --jobs=*) jobs=${a#--jobs=} ;; esac
  done
  positive_int "--jobs (a MAPOPTION)" "$jobs"
  [ -z "$mpi" ] || [ "$jobs" -eq 1 ] || die "--mpi=$mpi with --jobs=$jobs: a distributed task carries out one run"
  local minutes mem_mb
  minutes=$(awk -v r="$maxper" -v j="$jobs" -v w="$wall" -v f="$time_factor" \
    'BEGIN { r = int((r + j - 1) / j); m = r * w * f / 60; i = int(m); if (i < m) ++i; if (i < 1) i = 1; print i }')
  mem_mb=$(awk -v k="$rss" -v f="$mem_factor" -v p="$((${mpi:-1} * jobs))" \
    'BEGIN { m = k * f / 1024; i = int(m); if (i < m) ++i; if (i < 256) i = 256; print i * p }')
  wall=$(awk -v w="$wall" 'BEGIN { printf "%.3g", w }')
  say "pilot: run $pilot, ${wall} s, peak ${rss} kB; $tasks tasks of at most $maxper runs: --time=$minutes (minutes) --mem=${mem_mb}M"

  # the task's command, every word quoted
  local qdir qlaunch qcmd qmerge merge_cmd=()
  qdir=$(printf '%q' "$dir")
  qcmd=$(printf '%q ' "${cmd[@]}")
  # the merge carries out no run, and the program refuses --jobs and --resume beside --merge
  for a in "${cmd[@]}"; do
    case "$a" in --jobs=* | --resume=* | --resume) ;; *) merge_cmd+=("$a") ;; esac
  done
  qmerge=$(printf '%q ' "${merge_cmd[@]}")
  qlaunch=
  [ ${#launch[@]} -eq 0 ] || qlaunch=$(printf '%q ' "${launch[@]}")
  local res="#SBATCH --ntasks=1
#SBATCH --cpus-per-task=$jobs"
  [ -z "$mpi" ] || res="#SBATCH --nodes=1
#SBATCH --ntasks=$mpi
#SBATCH --cpus-per-task=1"
  local part_line=
  [ -z "$partition" ] || part_line="#SBATCH --partition=$partition"
  mkdir -p "$dir/logs" "$dir/tasks" "$dir/work"

  cat > "$dir/array.sbatch.tmp" << EOF
#!/bin/bash
# written by utils/mose-slurm.sh: task I of $tasks runs part I/$tasks of the map
# (pilot: run $pilot, ${wall} s, peak ${rss} kB; at most $maxper runs a task)
#SBATCH --job-name=mose-map
#SBATCH --array=1-$tasks
#SBATCH --chdir="$dir"
#SBATCH --output=logs/task-%a.out
#SBATCH --error=logs/task-%a.err
#SBATCH --time=$minutes
#SBATCH --mem=${mem_mb}M
$res
$part_line
dir=$qdir
i=\$SLURM_ARRAY_TASK_ID
rm -f "\$dir/tasks/task-\$i.exit"
finish() {
  printf '%s\n' "\$1" > "\$dir/tasks/task-\$i.exit.tmp"
  mv "\$dir/tasks/task-\$i.exit.tmp" "\$dir/tasks/task-\$i.exit"
  exit "\$1"
}
trap 'finish 143' TERM
trap 'finish 130' INT
case ",\${MOSE_SLURM_HOLD_TASKS:-}," in *",\$i,"*) sleep 3600 & wait ;; esac
$qlaunch$qcmd--part="\$i/$tasks" --outputDir="\$dir/work" &
wait \$!
finish \$?
EOF
  cat > "$dir/merge.sbatch.tmp" << EOF
#!/bin/bash
# written by utils/mose-slurm.sh: the map from the records of the $tasks tasks, into DIR/map
#SBATCH --job-name=mose-merge
#SBATCH --chdir="$dir"
#SBATCH --output=logs/merge.out
#SBATCH --error=logs/merge.err
#SBATCH --time=$minutes
#SBATCH --mem=${mem_mb}M
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
$part_line
dir=$qdir
rm -f "\$dir/tasks/merge.exit"
rm -rf "\$dir/map.partial"
$qmerge--merge="\$dir/work" --outputDir="\$dir/map.partial"
rc=\$?
if [ \$rc -eq 0 ]; then
  rm -rf "\$dir/map" && mv "\$dir/map.partial" "\$dir/map" || rc=1
fi
printf '%s\n' "\$rc" > "\$dir/tasks/merge.exit.tmp"
mv "\$dir/tasks/merge.exit.tmp" "\$dir/tasks/merge.exit"
exit \$rc
EOF
  mv "$dir/array.sbatch.tmp" "$dir/array.sbatch"
  mv "$dir/merge.sbatch.tmp" "$dir/merge.sbatch"
  printf '%s\n' "$tasks" > "$dir/tasks.txt"
  say "wrote $dir/array.sbatch and $dir/merge.sbatch"
}

# --- submit and resubmit -------------------------------------------------------------------------

sbatch_id() { # sbatch ARGS... -> the job id (sbatch --parsable prints "id" or "id;cluster")
  local out
  if ! out=$(cd "$dir" && sbatch --parsable "$@" 2>&1); then
    die "sbatch $* (in $dir) failed: $out"
  fi
  out=${out%%;*}
  [[ $out =~ ^[0-9]+$ ]] || die "sbatch $* printed no job id: $out"
  echo "$out"
}

submit_jobs() { # ARRAY_ARGS... : the array then the merge that depends on it
  local a m
  a=$(sbatch_id "$@" array.sbatch)
  if ! m=$(sbatch_id --dependency=afterok:"$a" merge.sbatch); then
    scancel "$a" 2> /dev/null || true
    die "the merge was not submitted, so the array $a is cancelled"
  fi
  printf 'array=%s\nmerge=%s\n' "$a" "$m" >> "$dir/jobs.txt"
  say "submitted array job $a and merge job $m (afterok:$a); the map goes to $dir/map"
  echo "$a $m"
}

submit() {
  need_slurm sbatch scancel squeue
  write "$@"
  rm -f "$dir"/tasks/*.exit "$dir/jobs.txt"
  submit_jobs
}

# the tasks of DIR: sets expected, ok, failed (index:status), unfinished, queued
scan() {
  set_dir "$1"
  [ -f "$dir/tasks.txt" ] || die "$dir: no tasks.txt, not a folder that utils/mose-slurm.sh wrote"
  local k i s
  k=$(cat "$dir/tasks.txt")
  expected=$k ok=() failed=() unfinished=() queued=()
  local inq=" "
  for a in $(sed -n 's/^array=//p' "$dir/jobs.txt" 2> /dev/null); do
    inq+="$(queued_tasks "$a" | tr '\n' ' ')"
  done
  for ((i = 1; i <= k; ++i)); do
    if [[ $inq == *" $i "* ]]; then
      queued+=("$i")
    elif [ -f "$dir/tasks/task-$i.exit" ]; then
      s=$(cat "$dir/tasks/task-$i.exit")
      if [ "$s" = 0 ]; then ok+=("$i"); else failed+=("$i:$s"); fi
    else
      unfinished+=("$i")
    fi
  done
}

join() { local IFS=,; echo "$*"; }

status() {
  [ $# -eq 1 ] || usage
  scan "$1"
  echo "tasks: $expected; finished: ${#ok[@]}; failed: ${#failed[@]}; never finished: ${#unfinished[@]}; in the queue: ${#queued[@]}"
  local f
  for f in "${failed[@]}"; do
    echo "failed: task ${f%%:*} (exit status ${f#*:}; log: $dir/logs/task-${f%%:*}.err)"
  done
  [ ${#unfinished[@]} -eq 0 ] || echo "never finished: $(join "${unfinished[@]}")"
  [ ${#queued[@]} -eq 0 ] || echo "in the queue: $(join "${queued[@]}")"
  local m rc=0
  m=$(jobs_value merge)
  if [ -f "$dir/tasks/merge.exit" ]; then
    echo "merge: exit status $(cat "$dir/tasks/merge.exit") (log: $dir/logs/merge.err)"
    [ "$(cat "$dir/tasks/merge.exit")" = 0 ] || rc=1
  elif job_queued "$m"; then
    echo "merge: job $m in the queue ($(squeue -h -j "$m" -o '%T %r' 2> /dev/null))"
  else
    echo "merge: not run"
    rc=1
  fi
  [ ${#failed[@]} -eq 0 ] && [ ${#unfinished[@]} -eq 0 ] || rc=1
  return "$rc"
}

resubmit() {
  [ $# -eq 1 ] || usage
  need_slurm sbatch scancel squeue
  scan "$1"
  [ ${#queued[@]} -eq 0 ] || die "tasks $(join "${queued[@]}") of $dir are still in the queue: wait for them, or scancel them"
  local again=() f m
  for f in "${failed[@]}"; do again+=("${f%%:*}"); done
  again+=("${unfinished[@]}")
  # a merge that waits on a failed array never runs (DependencyNeverSatisfied): cancel it
  m=$(jobs_value merge)
  if job_queued "$m"; then scancel "$m" || die "scancel $m (the old merge) failed"; fi
  if [ ${#again[@]} -eq 0 ]; then
    if [ "$(cat "$dir/tasks/merge.exit" 2> /dev/null)" = 0 ]; then
      say "nothing to resubmit: every task and the merge finished"
      return 0
    fi
    m=$(sbatch_id merge.sbatch)
    printf 'merge=%s\n' "$m" >> "$dir/jobs.txt"
    say "every task finished: submitted the merge alone, job $m"
    return 0
  fi
  local list
  list=$(join "${again[@]}")
  for f in "${again[@]}"; do rm -f "$dir/tasks/task-$f.exit"; done
  say "resubmitting tasks $list"
  submit_jobs --array="$list"
}

[ $# -ge 1 ] || usage
action=$1
shift
case "$action" in
  write) write "$@" ;;
  submit) submit "$@" ;;
  status) status "$@" ;;
  resubmit) resubmit "$@" ;;
  -h | --help) sed -n '2,46p' "$0" ;;
  *) die "unknown action '$action' (allowed: write, submit, status, resubmit)" ;;
esac
