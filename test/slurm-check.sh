#!/usr/bin/env bash
# ctest's slurm label: a small map through a one-node Slurm cluster that this script starts and
# stops (utils/slurm-local.sh), with utils/mose-slurm.sh, against the same map in one process.
#
# usage: test/slurm-check.sh [PROGRAM]
#   PROGRAM  the map program (default: test/slurm-fake-map.sh, a stand-in with the same options)
# Checks, each failing the test:
#   1. a map as an array of 4 tasks plus the merge: every output file byte-identical (cmp) to the
#      map run in one process (16 runs at N = 32, fluid level); the program's path holds a space,
#      a quote and a $, the folder a space, a quote and a $; with the stand-in a map option holds
#      them all and reaches the map's summary intact;
#   2. a second array whose tasks 2 and 3 are killed while they run (scancel, and kill -KILL of
#      the processes scontrol listpids names; MOSE_SLURM_HOLD_TASKS keeps them running): status lists 2 as failed and 3 as
#      never finished, the merge does not run, resubmit runs tasks 2 and 3 alone and the merge,
#      and the map is identical again;
#   4. (mose-llm only) a tiny grid of utils/paper-regime-grid.sh as Slurm arrays (SLURM=2) and
#      its figure job: regime_grid.csv, regime_grid.plt and each part's map identical to the
#      grid run in this process;
#   5. --mpi=2 through a stand-in launcher (test/slurm-fake-mpirun.sh): every task launches -np 2
#      in a job of 2 Slurm tasks, the map is identical to the map in one process; --mpi=0 and
#      --mpi with more than one run a task are refused;
#   3. bad input: --tasks=0 and -1, a folder of another map, sbatch missing, sbatch failing (an
#      unknown partition; a merge whose sbatch fails cancels its array): exit status 1, a message
#      naming the cause, no job left and no map.
# Prints the time to start the cluster and the overhead per task (submit to the merge's end of
# the 4-task array, less the in-process run, over 4).
# Exit status 77 (ctest's SKIP_RETURN_CODE) when Slurm or munge is not installed or not root.
# MOSE_SLURM_CHECK_KEEP=1 keeps the work folder.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { printf '[slurm-check] %s\n' "$*" >&2; }
fail() {
  say "FAIL: $*"
  exit 1
}

for t in munged mungekey slurmctld slurmd sbatch squeue scancel scontrol; do
  if ! command -v "$t" > /dev/null 2>&1; then
    echo "SKIP: $t not found; install Debian's slurm-wlm and munge (utils/install-deps.sh)"
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the one-node cluster's daemons run as root (utils/slurm-local.sh); run as root"
  exit 77
fi

program=${1:-$here/test/slurm-fake-map.sh}
[ -x "$program" ] || fail "PROGRAM $program: not an executable file"
fake=0
[ "$(basename "$program")" != slurm-fake-map.sh ] || fake=1
# a small map: 2 cells, 4 policies, 2 seeds (16 runs, under a second in all at the fluid level;
# N = 32, since the default --pdReservedPorts of 7 needs more than 16 groups)
mapopts=(--nodes=32 --level=fluid --loads=25,200 --intervals=100ms --darkTimes=10ms --seeds=2)
# a typed option with a space, quotes and a $: only the stand-in takes free text
[ "$fake" -eq 0 ] || mapopts+=("--label=it's a \$HOME \"q\" \`x\`")
# the map folders' names hold a space (mose-llm reads --merge whole, AddTextOption)
sp=" "

work=$(mktemp -d /tmp/mose-slurm-check.XXXXXX)
chmod 755 "$work" # munged wants the folders above its socket searchable by all
state=$work/cluster
cleanup() {
  "$here/utils/slurm-local.sh" stop "$state" 2> /dev/null || true
  if [ "${MOSE_SLURM_CHECK_KEEP:-0}" = 1 ]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# waits up to $1 seconds for a command to succeed
wait_for() {
  local limit=$1 t0
  shift
  t0=$(date +%s)
  until "$@"; do
    [ $(($(date +%s) - t0)) -lt "$limit" ] || return 1
    sleep 0.1
  done
}
same_map() { # REFERENCE MAP: the same files, each byte-identical (runs/: the in-process records)
  [ -d "$2" ] || fail "no map in $2"
  local a b
  a=$(cd "$1" && find . -type f -not -path './runs/*' | sort)
  b=$(cd "$2" && find . -type f -not -path './runs/*' | sort)
  [ "$a" = "$b" ] || fail "$2 holds other files than $1: $(diff <(echo "$a") <(echo "$b") | tr '\n' ' ')"
  while IFS= read -r f; do cmp "$1/$f" "$2/$f" || fail "$2/$f differs from the in-process map"; done <<< "$a"
  say "identical: $(echo "$a" | wc -l) files of $2 ($(echo "$a" | tr '\n' ' '))"
}

# the program under a path with a space, quotes and a $ (a link, so it runs the same binary)
bindir="$work/bin dir 'q' \$x"
mkdir -p "$bindir"
ln -s "$(cd "$(dirname "$program")" && pwd)/$(basename "$program")" "$bindir/$(basename "$program")"
prog=$bindir/$(basename "$program")
runner=$here/utils/mose-slurm.sh

t0=$(now)
"$here/utils/slurm-local.sh" start "$state"
start_s=$(since "$t0")
export SLURM_CONF=$state/slurm.conf

t0=$(now)
"$prog" "${mapopts[@]}" --outputDir="$work/one" > "$work/one.log" 2>&1 || fail "the in-process map failed: $work/one.log"
one_s=$(since "$t0")
runs=$("$prog" "${mapopts[@]}" --listRuns | tail -n +2 | wc -l)
say "in-process map: $runs runs in $one_s s"

merge_done() { [ -f "$1/tasks/merge.exit" ]; }

# --- 1. the map as 4 tasks and a merge ----------------------------------------------------------
dir1="$work/map${sp}one${sp}'q'${sp}\$y"
"$runner" write --tasks=4 --dir="$dir1" -- "$prog" "${mapopts[@]}"
t0=$(now)
"$runner" submit --tasks=4 --dir="$dir1" -- "$prog" "${mapopts[@]}" > /dev/null
wait_for 300 merge_done "$dir1" || fail "the merge did not finish in 300 s: $("$runner" status "$dir1" 2>&1)"
array_s=$(since "$t0")
"$runner" status "$dir1" || fail "status of a finished map is not 0"
same_map "$work/one" "$dir1/map"
if [ "$fake" -eq 1 ]; then
  grep -qF -- "--label=it\\'s\\ a\\ \\\$HOME\\ \\\"q\\\"\\ \\\`x\\\`" "$dir1/map/summary.txt" ||
    fail "the option with quotes did not reach the map intact: $(cat "$dir1/map/summary.txt")"
fi
per_task=$(awk -v a="$array_s" -v o="$one_s" 'BEGIN { printf "%.2f", (a - o) / 4 }')
say "4-task array plus merge: $array_s s from submit (pilot kept from write) to the merge's end;" \
  "in-process $one_s s; overhead $per_task s a task"

# --- 2. a task cancelled while it runs, then resubmitted -----------------------------------------
dir2="$work/map${sp}two"
read -r a2 m2 < <(MOSE_SLURM_HOLD_TASKS=2,3 "$runner" submit --tasks=4 --dir="$dir2" -- "$prog" "${mapopts[@]}")
others_done() { [ -f "$dir2/tasks/task-1.exit" ] && [ -f "$dir2/tasks/task-4.exit" ]; }
task_running() { [ "$(squeue -h -j "${a2}_$1" -o %T 2> /dev/null)" = RUNNING ]; }
task_gone() { [ -z "$(squeue -h -j "${a2}_$1" 2> /dev/null)" ]; }
# (the held tasks keep their CPUs: on 2 CPUs the others may run only after the kills)
wait_for 120 task_running 2 || fail "task 2 of $a2 is not running: $(squeue -r -j "$a2" 2>&1)"
wait_for 120 task_running 3 || fail "task 3 of $a2 is not running: $(squeue -r -j "$a2" 2>&1)"
# task 2 as a time limit or scancel ends it (SIGTERM, then SIGKILL), task 3 as the kernel's
# out-of-memory killer would (SIGKILL at once to its processes: no exit status written; scancel
# --signal=KILL would not do, Slurm cancels with SIGTERM first)
scancel "${a2}_2"
id3=$(squeue -h -j "${a2}_3" -o %A)
pids3=$(scontrol listpids "$id3" | awk 'NR > 1 && $3 == "batch" { print $1 }')
[ -n "$pids3" ] || fail "scontrol listpids $id3 (task 3) lists no process"
# shellcheck disable=SC2086 # one pid a word
kill -KILL $pids3
wait_for 60 test -f "$dir2/tasks/task-2.exit" || fail "task 2 wrote no exit status after scancel"
wait_for 60 task_gone 3 || fail "task 3 of $a2 still runs after SIGKILL"
wait_for 300 others_done || fail "tasks 1 and 4 of $a2 did not finish"
if "$runner" status "$dir2" > "$work/status2.txt"; then fail "status is 0 with tasks 2 and 3 killed"; fi
cat "$work/status2.txt"
grep -q '^failed: task 2 (exit status 143' "$work/status2.txt" || fail "status does not list task 2 as failed"
grep -q '^never finished: 3$' "$work/status2.txt" || fail "status does not list task 3 as never finished"
never_satisfied() { squeue -h -j "$m2" -o %r 2> /dev/null | grep -q DependencyNeverSatisfied; }
wait_for 30 never_satisfied || fail "merge job $m2: not held as DependencyNeverSatisfied ($(squeue -h -j "$m2" -o '%T %r'))"
[ ! -e "$dir2/map" ] && [ ! -e "$dir2/tasks/merge.exit" ] || fail "the merge ran although tasks 2 and 3 failed"
say "tasks 2 and 3 killed: listed as failed and never finished, merge job $m2 not run ($(squeue -h -j "$m2" -o %r))"
"$runner" resubmit "$dir2"
wait_for 300 merge_done "$dir2" || fail "the resubmitted merge did not finish"
"$runner" status "$dir2" || fail "status after resubmit is not 0"
job_gone() { [ -z "$(squeue -h -j "$1" 2> /dev/null)" ]; }
wait_for 30 job_gone "$m2" || fail "the old merge $m2 is still queued after resubmit"
n2=$(grep -c '' "$dir2/jobs.txt")
[ "$n2" -eq 4 ] || fail "jobs.txt has $n2 lines, want 4 (array, merge, array of tasks 2 and 3, merge)"
same_map "$work/one" "$dir2/map"

# --- 4. a grid (utils/paper-regime-grid.sh SLURM=2): two parts as arrays, the figure after -------
grid_text="skipped (the stand-in makes no grid)"
if [ "$fake" -eq 0 ]; then
  # a tiny grid: 2 parts of 4 runs at N = 32, one seed, the aggregate level
  export GRID="a|--loads=25 --intervals=100ms --darkTimes=10ms;b|--loads=200 --intervals=100ms --darkTimes=10ms"
  gridbin=$(cd "$(dirname "$program")" && pwd)
  [ -x "$gridbin/mose-regime-figure" ] || fail "no mose-regime-figure next to $program"
  SEEDS=1 JOBS=1 OUT="$work/grid local" MOSE_BIN=$gridbin "$here/utils/paper-regime-grid.sh" 32 \
    > "$work/grid-local.log" 2>&1 || fail "the grid in this process failed: $work/grid-local.log"
  t0=$(now)
  SLURM=2 SEEDS=1 JOBS=1 OUT="$work/grid slurm" MOSE_BIN=$gridbin "$here/utils/paper-regime-grid.sh" 32 \
    > "$work/grid-slurm.log" 2>&1 || fail "the grid's submission failed: $(cat "$work/grid-slurm.log")"
  unset GRID
  figure_job=$(cat "$work/grid slurm/figure.job")
  wait_for 300 job_gone "$figure_job" || fail "the figure job $figure_job did not finish in 300 s"
  grid_s=$(since "$t0")
  for f in regime_grid.csv regime_grid.plt; do
    cmp "$work/grid local/$f" "$work/grid slurm/$f" ||
      fail "the grid's $f through Slurm differs from the grid in one process ($(cat "$work/grid slurm/figure.err" 2> /dev/null))"
  done
  for part in a b; do
    cmp "$work/grid local/$part/regime_map.csv" "$work/grid slurm/$part/map/regime_map.csv" ||
      fail "part $part's regime_map.csv through Slurm differs"
  done
  grid_text="$grid_s s"
  say "grid of 2 parts (2 tasks each) and the figure job: $grid_s s; regime_grid.csv, .plt and the parts' maps identical"
fi

# --- 3. bad input ----------------------------------------------------------------------------------
expect_error() { # WHAT PATTERN COMMAND...: exit status 1 and PATTERN in the message
  local what=$1 pattern=$2 out rc=0
  shift 2
  out=$("$@" 2>&1) || rc=$?
  [ "$rc" -eq 1 ] || fail "$what: exit status $rc, want 1 ($out)"
  grep -qF -- "$pattern" <<< "$out" || fail "$what: message '$out' lacks '$pattern'"
  say "$what: $(tail -1 <<< "$out")"
}
bad=$work/bad
expect_error "--tasks=0" "--tasks=0: want a whole number" "$runner" write --tasks=0 --dir="$bad" -- "$prog" "${mapopts[@]}"
expect_error "--tasks=-1" "--tasks=-1: want a whole number" "$runner" write --tasks=-1 --dir="$bad" -- "$prog" "${mapopts[@]}"
expect_error "more tasks than runs" "at most $runs tasks" "$runner" write --tasks=$((runs + 1)) --dir="$bad" -- "$prog" "${mapopts[@]}"
expect_error "another map's folder" "holds the work of another map" \
  "$runner" write --tasks=4 --dir="$dir1" -- "$prog" "${mapopts[@]}" --seeds=1
expect_error "sbatch missing" "install Debian's slurm-wlm" \
  env PATH=/nonexistent /bin/bash "$runner" submit --tasks=2 --dir="$bad" -- "$prog" "${mapopts[@]}"
expect_error "sbatch failing" "sbatch array.sbatch (in $bad) failed" \
  "$runner" submit --tasks=2 --partition=nosuchpartition --dir="$bad" -- "$prog" "${mapopts[@]}"
[ ! -e "$bad/jobs.txt" ] || fail "jobs.txt written although sbatch failed"
# an sbatch that takes the array and refuses the merge: the array is cancelled
mkdir -p "$work/fakebin"
cat > "$work/fakebin/sbatch" << EOF
#!/bin/sh
case "\$*" in *merge.sbatch*) echo "sbatch: error: refused for the test" >&2; exit 1 ;; esac
exec $(command -v sbatch) "\$@"
EOF
chmod +x "$work/fakebin/sbatch"
expect_error "merge not submitted" "the array" \
  env PATH="$work/fakebin:$PATH" MOSE_SLURM_HOLD_TASKS=1,2 "$runner" submit --tasks=2 --dir="$bad" -- "$prog" "${mapopts[@]}"
queued=$(squeue -h -o '%i %j' | grep mose-map || true)
wait_for 30 sh -c '[ -z "$(squeue -h -n mose-map)" ]' || fail "an array is still queued after its merge was refused: $queued"
[ ! -e "$bad/map" ] && [ ! -e "$bad/jobs.txt" ] || fail "a map or jobs.txt after a refused merge"

# --- 5. --mpi: each task an mpirun of 2 ranks on 2 Slurm tasks (test/slurm-fake-mpirun.sh) --------
# the map at one load (one run a task: a distributed program carries out one run)
mpiopts=()
for a in "${mapopts[@]}"; do
  case "$a" in
    --loads=*) mpiopts+=(--loads=25) ;;
    *) mpiopts+=("$a") ;;
  esac
done
"$prog" "${mpiopts[@]}" --outputDir="$work/mpi one" > "$work/mpi-one.log" 2>&1 ||
  fail "the in-process map for --mpi failed: $work/mpi-one.log"
mruns=$("$prog" "${mpiopts[@]}" --listRuns | tail -n +2 | wc -l)
dir5="$work/map${sp}mpi"
export FAKE_MPIRUN_LOG=$work/mpirun.log
launcher=$here/test/slurm-fake-mpirun.sh
expect_error "--mpi=0" "--mpi=0: want a whole number" \
  env MOSE_SLURM_MPIRUN="$launcher" "$runner" write --tasks="$mruns" --mpi=0 --dir="$dir5" -- "$prog" "${mpiopts[@]}"
expect_error "--mpi with runs a task" "a distributed task carries out one run, so --tasks must be the map's $mruns runs" \
  env MOSE_SLURM_MPIRUN="$launcher" "$runner" write --tasks=1 --mpi=2 --dir="$dir5" -- "$prog" "${mpiopts[@]}"
MOSE_SLURM_MPIRUN=$launcher "$runner" submit --tasks="$mruns" --mpi=2 --dir="$dir5" -- "$prog" "${mpiopts[@]}" > /dev/null
wait_for 300 merge_done "$dir5" || fail "the --mpi map's merge did not finish in 300 s: $("$runner" status "$dir5" 2>&1)"
"$runner" status "$dir5" || fail "status of the finished --mpi map is not 0"
grep -qx '#SBATCH --ntasks=2' "$dir5/array.sbatch" || fail "array.sbatch does not ask for 2 Slurm tasks"
grep -qF "slurm-fake-mpirun.sh -np 2 " "$dir5/array.sbatch" || fail "array.sbatch does not launch -np 2"
# the pilot (here, outside Slurm) and each of the tasks, with 2 Slurm tasks for its 2 ranks
launched=$(grep -c '^np=2 ntasks=2$' "$FAKE_MPIRUN_LOG" || true)
[ "$launched" -eq "$mruns" ] || fail "$launched of $mruns tasks launched -np 2 on 2 Slurm tasks: $(cat "$FAKE_MPIRUN_LOG")"
grep -qx 'np=2 ntasks=none' "$FAKE_MPIRUN_LOG" || fail "the pilot did not run through the launcher"
same_map "$work/mpi one" "$dir5/map"
say "--mpi=2: $mruns tasks, each -np 2 on 2 Slurm tasks; the map identical"

say "PASS: cluster up in $start_s s; 4-task array plus merge $array_s s against $one_s s in one process" \
  "($per_task s a task); grid through Slurm: $grid_text; --mpi=2 array of $mruns tasks"
