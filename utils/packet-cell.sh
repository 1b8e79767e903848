#!/usr/bin/env bash
# One regime-map cell at the packet level at the paper's scale (issue 28, item 4), and the same
# cell at the fluid and aggregate levels, compared with it (mose-regime-figure --compare,
# LlmLevelValidation::FromCsv): the packet level is the reference the faster levels are judged
# against. The packet map runs in its own process (at N = 1024 it needs one core and about 15 GB
# for about 25 minutes per policy at T = 100 ms), the other levels after it; each map's wall
# time is printed, then each comparison.
#
# usage: utils/packet-cell.sh [N]              default N = 1024
# env:   LOADS (800), INTERVALS (100ms), DARKS (10ms), POLICIES (MoSE,S-Train: the policies
#        that decide the cell at the aggregate level), HOSTS (8: --hostsPerGroup, a host per
#        GPU), LEVELS ("fluid aggregate": the levels compared with the packet level),
#        MOSE_BIN (build/bin), OUT (results/packet-cell-N), EXTRA (more mose-llm options, for
#        every level)
#        The packet level runs with a FIFO root queue disc on every port and host link
#        (--ns3::MoseTopologyHelper::QueueDiscType=ns3::FifoQueueDisc; doc/mose.rst, "Per-event
#        cost of the packet level"); the fluid levels have no queues.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${MOSE_BIN:-$root/build/bin}
n=${1:-1024}
out=${OUT:-$root/results/packet-cell-$n}
opts=(--nodes="$n" --loads="${LOADS:-800}" --intervals="${INTERVALS:-100ms}"
    --darkTimes="${DARKS:-10ms}" --policies="${POLICIES:-MoSE,S-Train}"
    --hostsPerGroup="${HOSTS:-8}" --plot=false --transport=tcp)
# shellcheck disable=SC2206  # EXTRA is a list of options
[ -z "${EXTRA:-}" ] || opts+=($EXTRA)
mkdir -p "$out"
run() { # run LEVEL [more options]: one map, its stdout in OUT/LEVEL.txt, its wall time printed
    local level=$1 start=$SECONDS
    shift
    echo "[packet-cell] $bin/mose-llm ${opts[*]} --level=$level${*:+ $*} --outputDir=$out/$level"
    "$bin/mose-llm" "${opts[@]}" --level="$level" "$@" --outputDir="$out/$level" \
        >"$out/$level.txt" 2>"$out/$level.err"
    echo "[packet-cell] $level: $((SECONDS - start)) s wall"
    sed -n '/^load\/s/,/^$/p' "$out/$level.txt"
}
run packet --ns3::MoseTopologyHelper::QueueDiscType=ns3::FifoQueueDisc --progress
for level in ${LEVELS:-fluid aggregate}; do
    run "$level"
    "$bin/mose-regime-figure" --compare="$out/packet/regime_map.csv,$out/$level/regime_map.csv" \
        --outputDir="$out/$level"
done
