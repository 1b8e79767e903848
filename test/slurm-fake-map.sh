#!/usr/bin/env bash
# A stand-in for a map program (mose-llm) with the run-list options of issue 40, so that
# utils/mose-slurm.sh and test/slurm-check.sh can be tried without building ns-3. Not a model:
# each run's "figure" is arithmetic on its cell. It honours
#   MAPOPTIONS --listRuns                         the runs as CSV (index,load,interval,darkTime,seed)
#   MAPOPTIONS --runs=0,3-5 --outputDir=D         those runs, one record each: D/runs/run-NNNNNN.txt
#   MAPOPTIONS --part=I/K --outputDir=D           the runs whose index % K == I-1
#   MAPOPTIONS --merge=D1[,D2...] --outputDir=OUT the map from the records (refuses a run missing,
#                                                 a run twice, other options or version)
#   MAPOPTIONS --outputDir=OUT                    the map in one process
# MAPOPTIONS: --loads=L1,L2 --intervals=.. --darkTimes=.. --seeds=N, any other --name=value kept
# (it goes into the map's summary.txt, to check quoting). --jobs=J is accepted and ignored.
# FAKE_MAP_RUN_SECONDS (default 0): each run sleeps that long.
set -euo pipefail

version=fake-1
loads=25 intervals=100ms darks=10ms seeds=1
list=0 runs='' part='' merge='' out=''
mapopts=()
for a in "$@"; do
  case "$a" in
    --listRuns) list=1 ;;
    --runs=*) runs=${a#--runs=} ;;
    --part=*) part=${a#--part=} ;;
    --merge=*) merge=${a#--merge=} ;;
    --outputDir=*) out=${a#--outputDir=} ;;
    --jobs=*) ;;
    --loads=*) loads=${a#*=} mapopts+=("$a") ;;
    --intervals=*) intervals=${a#*=} mapopts+=("$a") ;;
    --darkTimes=*) darks=${a#*=} mapopts+=("$a") ;;
    --seeds=*) seeds=${a#*=} mapopts+=("$a") ;;
    --*=*) mapopts+=("$a") ;;
    *) echo "fake-map: unknown argument '$a'" >&2; exit 1 ;;
  esac
done
options=$(printf '%q ' "${mapopts[@]}")

# the run list, in index order: load, interval, dark time, seed
cells=()
IFS=, read -ra L <<< "$loads"
IFS=, read -ra I <<< "$intervals"
IFS=, read -ra D <<< "$darks"
for l in "${L[@]}"; do for i in "${I[@]}"; do for d in "${D[@]}"; do
  for ((s = 1; s <= seeds; ++s)); do cells+=("$l,$i,$d,$s"); done
done; done; done
n=${#cells[@]}

if [ "$list" -eq 1 ]; then
  echo "index,load,interval,darkTime,seed"
  for ((k = 0; k < n; ++k)); do echo "$k,${cells[$k]}"; done
  exit 0
fi
[ -n "$out" ] || { echo "fake-map: --outputDir is required" >&2; exit 1; }

figure() {
  local l=${1%%,*} s=${1##*,}
  echo "$(((l * 7 + s * 13) % 97))"
}

run_one() {
  local k=$1 t0 rec
  t0=$(date +%s.%N)
  sleep "${FAKE_MAP_RUN_SECONDS:-0}"
  mkdir -p "$out/runs"
  rec=$(printf '%s/runs/run-%06d.txt' "$out" "$k")
  {
    echo "version=$version"
    echo "options=$options"
    echo "index=$k"
    echo "cell=${cells[$k]}"
    echo "figure=$(figure "${cells[$k]}")"
    echo "wall_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')"
    echo "cpu_s=0.010"
    echo "max_rss_kb=$(awk '/^VmHWM:/ { print $2 }' /proc/$$/status)"
  } > "$rec.tmp"
  mv "$rec.tmp" "$rec"
}

write_map() { # figures in index order on stdin's lines "index figure"
  mkdir -p "$out"
  {
    echo "index,load,interval,darkTime,seed,figure"
    while read -r k f; do echo "$k,${cells[$k]},$f"; done
  } > "$out/regime_map.csv"
  printf 'runs=%s\noptions=%s\n' "$n" "$options" > "$out/summary.txt"
}

if [ -n "$merge" ]; then
  declare -A seen=()
  IFS=, read -ra dirs <<< "$merge"
  for dir in "${dirs[@]}"; do
    for f in "$dir"/runs/run-*.txt; do
      [ -e "$f" ] || continue
      v=$(sed -n 's/^version=//p' "$f")
      o=$(sed -n 's/^options=//p' "$f")
      k=$(sed -n 's/^index=//p' "$f")
      [ "$v" = "$version" ] || { echo "fake-map: $f: made by version $v, not $version" >&2; exit 1; }
      [ "$o" = "$options" ] || { echo "fake-map: $f: made with other options ($o)" >&2; exit 1; }
      [ -z "${seen[$k]:-}" ] || { echo "fake-map: run $k given twice: ${seen[$k]} and $f" >&2; exit 1; }
      seen[$k]=$f
    done
  done
  for ((k = 0; k < n; ++k)); do
    [ -n "${seen[$k]:-}" ] || {
      echo "fake-map: run $k missing: no $(printf 'run-%06d.txt' "$k") in $merge" >&2
      exit 1
    }
  done
  for ((k = 0; k < n; ++k)); do echo "$k $(sed -n 's/^figure=//p' "${seen[$k]}")"; done | write_map
  exit 0
fi

if [ -n "$runs" ] || [ -n "$part" ]; then
  todo=()
  if [ -n "$part" ]; then
    pi=${part%/*} pk=${part#*/}
    if ! [[ $pi =~ ^[0-9]+$ && $pk =~ ^[0-9]+$ ]] || [ "$pk" -lt 1 ] || [ "$pi" -lt 1 ] || [ "$pi" -gt "$pk" ]; then
      echo "fake-map: --part=$part: want I/K with 1 <= I <= K" >&2
      exit 1
    fi
    for ((k = 0; k < n; ++k)); do [ $((k % pk)) -ne $((pi - 1)) ] || todo+=("$k"); done
  else
    IFS=, read -ra R <<< "$runs"
    for r in "${R[@]}"; do
      if [[ $r == *-* ]]; then
        for ((k = ${r%-*}; k <= ${r#*-}; ++k)); do todo+=("$k"); done
      else todo+=("$r"); fi
    done
  fi
  for k in "${todo[@]}"; do
    [ "$k" -lt "$n" ] || { echo "fake-map: run $k out of range (0 to $((n - 1)))" >&2; exit 1; }
    run_one "$k"
  done
  exit 0
fi

for ((k = 0; k < n; ++k)); do echo "$k $(figure "${cells[$k]}")"; done | write_map
