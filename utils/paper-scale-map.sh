#!/usr/bin/env bash
# The regime map at the paper's scale (issue 27, item 4): mose-llm's default map (loads, dark
# times, policies, placement, model) at N groups, unscaled rates and bytes (--scale=1), with
# SEEDS seeds and mode intervals INTERVALS, at the aggregate level (the fluid level with each
# all-to-all one aggregated flow; its error against the exact fluid level is measured on
# the 64-group map by mose-llm --seeds=3 --level=fluid,aggregate). One mose-llm per degree,
# one after the other, each on JOBS workers (mose-llm --jobs); prints each map's verdict and
# timing and the whole wall time. Outputs in OUT/d<D>/ (regime_map.csv, .png, stdout.txt, and
# runs/, the runs' records: a map stopped half-way goes on where it stopped).
#
# usage: utils/paper-scale-map.sh [N]        default N = 1024
# env:   JOBS (the cores), DEGREES ("4 8"), SEEDS (20), INTERVALS (1s,10s), LOADS (mose-llm's default),
#        DARKS (mose-llm's default), LEVEL (aggregate), MOSE_BIN (build/bin),
#        OUT (results/paper-scale-map-N), EXTRA (more mose-llm options)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${MOSE_BIN:-$root/build/bin}
n=${1:-1024}
degrees=${DEGREES:-4 8}
out=${OUT:-$root/results/paper-scale-map-$n}
opts=(--nodes="$n" --scale=1 --seeds="${SEEDS:-20}" --intervals="${INTERVALS:-1s,10s}"
    --level="${LEVEL:-aggregate}" --jobs="${JOBS:-$(nproc)}" --transport=tcp)
[ -z "${LOADS:-}" ] || opts+=(--loads="$LOADS")
[ -z "${DARKS:-}" ] || opts+=(--darkTimes="$DARKS")
# shellcheck disable=SC2206  # EXTRA is a list of options
[ -z "${EXTRA:-}" ] || opts+=($EXTRA)
start=$SECONDS
status=0
for d in $degrees; do
    mkdir -p "$out/d$d"
    echo "[paper-scale-map] $bin/mose-llm ${opts[*]} --degree=$d --outputDir=$out/d$d"
    rm -f "$out/d$d/wall_s" "$out/d$d/exit"
    (
        s=$SECONDS
        rc=0
        "$bin/mose-llm" "${opts[@]}" --degree="$d" --outputDir="$out/d$d" >"$out/d$d/stdout.txt" \
            2>"$out/d$d/stderr.txt" || rc=$?
        echo $((SECONDS - s)) >"$out/d$d/wall_s"
        echo "$rc" >"$out/d$d/exit"
        exit "$rc"
    ) || status=1
done
for d in $degrees; do
    echo
    echo "== N=$n, d=$d: $(cat "$out/d$d/wall_s" 2>/dev/null || echo '?') s wall =="
    rc=$(cat "$out/d$d/exit" 2>/dev/null || echo '?')
    if [ "$rc" != 0 ]; then
        echo "mose-llm FAILED (exit $rc; above 128: a signal)"
        tail -n 5 "$out/d$d/stderr.txt"
    fi
    sed -n '/^verdict/,$p' "$out/d$d/stdout.txt"
done
echo
echo "[paper-scale-map] N=$n, degrees $degrees, ${SEEDS:-20} seeds, intervals ${INTERVALS:-1s,10s}: $((SECONDS - start)) s wall in all"
exit "$status"
