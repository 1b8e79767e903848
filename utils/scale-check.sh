#!/usr/bin/env bash
# What the packet level's scale-down (--scale) changes, measured against the fluid level at
# scale 1 (issue 27, item 3): one regime-map cell (default: load 800/s, T 100 ms, D 10 ms, the
# four policies, run 1) at the fluid level with --scale=1, then at the packet level with each
# of SCALES; prints per scale and policy the packet figure's relative difference from the
# fluid one (mean KV time, mean TTFT, P99 TTFT, mean iteration time) and the wall time.
#
# usage: utils/scale-check.sh [SCALES...]       default: 2000 500 125
# env:   MOSE_BIN (default build/bin), CELL ("--loads=800 --intervals=100ms --darkTimes=10ms"),
#        OUT (default results/scale-check)
# A packet run costs about scale^-1 of its packets: at 125 a cell takes minutes, at 32 an hour.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${MOSE_BIN:-$root/build/bin}
cell=${CELL:---loads=800 --intervals=100ms --darkTimes=10ms}
out=${OUT:-$root/results/scale-check}
scales=("$@")
[ ${#scales[@]} -gt 0 ] || scales=(2000 500 125)
mkdir -p "$out"
run() { # level scale
    local dir="$out/$1-$2" start=$SECONDS
    mkdir -p "$dir"
    # shellcheck disable=SC2086  # the cell is a list of options
    "$bin/mose-llm" --transport=tcp $cell --flowLevelFlows=0 --plot=false --level="$1" --scale="$2" \
        --outputDir="$dir" >"$dir/stdout.txt"
    echo $((SECONDS - start)) >"$dir/wall_s"
}
run fluid 1
for s in "${scales[@]}"; do
    run packet "$s"
done
python3 - "$out" "${scales[@]}" <<'PY'
import csv, sys
out, scales = sys.argv[1], sys.argv[2:]
def read(d):
    rows = list(csv.DictReader(open(f"{out}/{d}/regime_map.csv")))
    return rows[0], open(f"{out}/{d}/wall_s").read().strip()
ref, ref_wall = read("fluid-1")
figs = [("kv_mean_s", "kv_mean"), ("ttft_mean_s", "ttft_mean"), ("ttft_p99_s", "ttft_p99"),
        ("iter_mean_s", "iter_mean")]
# the policies the cell ran (CELL may name --policies)
pols = [p for p in ["MoSE", "S-Train", "S-Inf", "S-Comp"] if f"{p}_kv_mean_s" in ref]
print(f"packet at --scale=f against the fluid level at --scale=1 (wall {ref_wall} s), "
      "(packet - fluid) / fluid:")
print(f"{'scale':>6} {'policy':8}" + "".join(f"{n:>11}" for _, n in figs) + f"{'wall_s':>8}")
for s in scales:
    row, wall = read(f"packet-{s}")
    for p in pols:
        cells = []
        for key, _ in figs:
            a, b = float(row[f"{p}_{key}"] or 0), float(ref[f"{p}_{key}"] or 0)
            cells.append(f"{(a - b) / b:+.1%}" if a > 0 and b > 0 else "-")
        print(f"{s:>6} {p:8}" + "".join(f"{c:>11}" for c in cells) + f"{wall:>8}")
PY
