#!/usr/bin/env bash
# The regime map at the paper's scale over the whole grid (issue 27, item 5): loads 25 to 3,200
# requests/s, mode intervals from 100 ms to a minute, dark times from 10 us to 10 s, N groups,
# unscaled rates and bytes, SEEDS seeds, at the aggregate level (its error against the exact
# fluid level: mose-llm --seeds=3 --level=fluid,aggregate). The grid runs as parts, one
# mose-llm per part, one part after the other, each on JOBS workers (mose-llm --jobs: threads
# at the aggregate level), then mose-regime-figure merges the parts' regime_map.csv into
# OUT/regime_grid.csv and OUT/regime_grid.png (a panel per dark time, a line per load, each
# cell's 95% interval, the tie band, the flow-level T*), with beside each cell the validation
# suite's margin error for its nearest suite cell and whether its verdict lies within it of the
# tie band (--regime).
#
# Every finished run is a record in OUT/PART/runs (mose-llm --resume): a grid stopped half-way
# goes on where it stopped, run by run; delete OUT/PART to run a part again. On a cluster,
# run each part as a Slurm array instead (utils/mose-slurm.sh; doc/mose.rst, "Running big
# studies").
# The parts:
#   short-L   load L (25, 200, 800, 3200), T 100 ms, 1 s, 10 s, dark 10 us, 10 ms, 1 s
#   minute-L  load L, T 60 s, dark 10 us, 10 ms, 1 s, 10 s
# At T = 60 s the static policies that are overloaded at a load do not run: S-Comp at 800/s (its
# mean TTFT at T = 60 s is 3,200x S-Inf's), S-Comp and S-Train at 3,200/s (at T = 10 s 232x and
# 41x S-Inf's). None of them can be the best static policy there, and their growing backlogs
# made each of their runs cost minutes.
#
# With SLURM=K the grid runs on a Slurm cluster instead: each part is a job array of K tasks and
# its merge (utils/mose-slurm.sh submit, into OUT/PART; the map in OUT/PART/map), and the figure
# is one more job that starts when every part's merge succeeded (--dependency=afterok). The
# script submits and returns; OUT/figure.{out,err} are the figure job's logs.
#
# usage: utils/paper-regime-grid.sh [N]        default N = 1024
# env:   SEEDS (20), DEGREE (8), JOBS (the cores: mose-llm --jobs), MOSE_BIN (build/bin), OUT (results/paper-regime-grid-N),
#        PARTS (the parts' names to run, default all, e.g. "short-25 minute-25"),
#        SLURM (tasks per part: submit the grid as Slurm arrays), SLURM_ARGS (more options of
#        utils/mose-slurm.sh, e.g. "--partition=long"),
#        GRID (the parts instead of the paper's, NAME|OPTIONS separated by ";": a small grid
#        for a test)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${MOSE_BIN:-$root/build/bin}
n=${1:-1024}
seeds=${SEEDS:-20}
degree=${DEGREE:-8}
jobs=${JOBS:-$(nproc)}
out=${OUT:-$root/results/paper-regime-grid-$n}
common=(--nodes="$n" --scale=1 --seeds="$seeds" --degree="$degree" --level=aggregate --progress
    --transport=tcp)
# the longest first, so that the cores stay busy to the end
if [ -n "${GRID:-}" ]; then
    IFS=';' read -r -a all <<<"$GRID"
else
all=(
    "minute-3200|--loads=3200 --intervals=60s --darkTimes=10us,10ms,1s,10s --policies=MoSE,S-Inf"
    "short-3200|--loads=3200 --intervals=100ms,1s,10s --darkTimes=10us,10ms,1s"
    "minute-800|--loads=800 --intervals=60s --darkTimes=10us,10ms,1s,10s --policies=MoSE,S-Train,S-Inf"
    "short-800|--loads=800 --intervals=100ms,1s,10s --darkTimes=10us,10ms,1s"
    "minute-200|--loads=200 --intervals=60s --darkTimes=10us,10ms,1s,10s"
    "short-200|--loads=200 --intervals=100ms,1s,10s --darkTimes=10us,10ms,1s"
    "minute-25|--loads=25 --intervals=60s --darkTimes=10us,10ms,1s,10s"
    "short-25|--loads=25 --intervals=100ms,1s,10s --darkTimes=10us,10ms,1s"
)
fi
parts=()
for p in "${all[@]}"; do
    if [ -z "${PARTS:-}" ] || [[ " $PARTS " == *" ${p%%|*} "* ]]; then
        parts+=("$p")
    fi
done
[ "${#parts[@]}" -gt 0 ] || { echo "[paper-regime-grid] no part named in PARTS=$PARTS" >&2; exit 1; }

run_part() {
    local name=${1%%|*} opts=${1#*|} dir s rc
    dir=$out/$name
    mkdir -p "$dir"
    rm -f "$dir/exit"
    echo "${common[*]} $opts" >"$dir/options"
    s=$SECONDS
    rc=0
    # shellcheck disable=SC2086  # opts is a list of options
    "$bin/mose-llm" "${common[@]}" $opts --jobs="$jobs" --outputDir="$dir" >"$dir/stdout.txt" \
        2>"$dir/stderr.txt" || rc=$?
    echo $((SECONDS - s)) >"$dir/wall_s"
    echo "$rc" >"$dir/exit"
    echo "[paper-regime-grid] $name: exit $rc, $((SECONDS - s)) s wall ($bin/mose-llm ${common[*]} $opts --jobs=$jobs)"
}

title="Regime grid (aggregate level), N=$n, d=$degree, scale 1, $seeds seeds per cell"
# the grid's regime: beside each cell the validation suite's margin error (mose-regime-figure)
regime="nodes=$n,degree=$degree,transport=tcp"

if [ -n "${SLURM:-}" ]; then
    [[ $SLURM =~ ^[1-9][0-9]*$ ]] || { echo "[paper-regime-grid] invalid SLURM=$SLURM: the tasks per part, 1 or more" >&2; exit 1; }
    command -v sbatch >/dev/null 2>&1 || { echo "[paper-regime-grid] SLURM=$SLURM: sbatch not found; install Debian's slurm-wlm, or run without SLURM" >&2; exit 1; }
    mkdir -p "$out"
    merges=()
    maps=""
    for p in "${parts[@]}"; do
        name=${p%%|*}
        # shellcheck disable=SC2086  # opts and SLURM_ARGS are lists of options
        "$root/utils/mose-slurm.sh" submit --tasks="$SLURM" --dir="$out/$name" ${SLURM_ARGS:-} -- \
            "$bin/mose-llm" "${common[@]}" ${p#*|} --jobs="$jobs" >/dev/null
        merges+=("$(sed -n 's/^merge=//p' "$out/$name/jobs.txt" | tail -n 1)")
        maps+="${maps:+,}$out/$name/map/regime_map.csv"
    done
    dependency=$(IFS=:; echo "afterok:${merges[*]}")
    figure=$(printf '%q ' "$bin/mose-regime-figure" --maps="$maps" --outputDir="$out" --title="$title" \
        --regime="$regime")
    id=$(sbatch --parsable --job-name=regime-grid-figure --dependency="$dependency" \
        --output="$out/figure.out" --error="$out/figure.err" --time=10 --mem=1G \
        --wrap="$figure")
    echo "${id%%;*}" >"$out/figure.job"
    echo "[paper-regime-grid] ${#parts[@]} parts as Slurm arrays of $SLURM tasks; the figure is job ${id%%;*} ($dependency): $out/regime_grid.csv"
    exit 0
fi

start=$SECONDS
for p in "${parts[@]}"; do
    run_part "$p"
done
failed=0
maps=""
for p in "${all[@]}"; do
    name=${p%%|*}
    [ -f "$out/$name/exit" ] || continue # not run (PARTS)
    if [ "$(cat "$out/$name/options" 2>/dev/null)" != "${common[*]} ${p#*|}" ]; then
        echo "[paper-regime-grid] $name: run before with other options, left out of the figure"
        continue
    fi
    if [ "$(cat "$out/$name/exit")" != 0 ]; then
        echo "[paper-regime-grid] $name FAILED (exit $(cat "$out/$name/exit")):"
        tail -n 3 "$out/$name/stderr.txt"
        failed=1
    else
        maps+="${maps:+,}$out/$name/regime_map.csv"
    fi
done
echo "[paper-regime-grid] ${#parts[@]} parts, $((SECONDS - start)) s wall in all"
[ "$failed" = 0 ] || exit 1
"$bin/mose-regime-figure" --maps="$maps" --outputDir="$out" --title="$title" --regime="$regime"
