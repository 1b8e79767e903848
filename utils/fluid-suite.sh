#!/usr/bin/env bash
# The fluid level's validation suite (issue 41, item 1): cell sets across the regimes, each run
# at the packet and the fluid level over SEEDS seeds (mose-llm --level=packet,fluid), then one
# table per cell and policy (mose-regime-figure --suite): both levels' means of mean KV time,
# mean and P99 TTFT and mean iteration time, their errors and the worst seed's, the requests
# served, the verdicts, and the bounds held (the policies that decide a verdict within 5% on the
# means and 15% on P99 TTFT, in every cell where they are not overloaded).
#
# The cell sets (mose-llm's defaults otherwise: d = 8, N = 64, rdma, all-to-all, circuit-aware
# placement, one host per group; T = 100 ms, D = 10 ms):
#   n64       loads 25, 200, 800, 3200/s: light, the knee, loaded, overloaded
#   n64-d4    d = 4, loads 25 and 800/s
#   n64-ring  ring all-reduce, loads 25 and 800/s
#   n64-rr    round-robin placement, 800/s
#   n64-lo    least-outstanding placement, 800/s
#   n64-gpu   a host per GPU (8 hosts per group), 800/s
#   n64-tcp   ns-3's TCP, loads 25 and 800/s
#   n128      N = 128, 1600/s (800/s at N = 64 per group)
#   n128-d4   N = 128, d = 4, 1600/s
#   n256      N = 256, 3200/s
# 16 cells; at 3 seeds and 4 policies 192 runs per level.
#
# Each set is one mose-llm run list (--jobs workers; every finished run is a record in
# OUT/SET/runs, so a suite stopped half-way goes on where it stopped); with SLURM=K each set is
# a Slurm array of K tasks and its merge (utils/mose-slurm.sh, the map in OUT/SET/map), and the
# table one more job that waits for every merge. The table: OUT/level_suite.csv and
# OUT/level_suite.rst (doc/mose.rst, "The fluid level across regimes").
#
# usage: utils/fluid-suite.sh
# env:   SEEDS (3), JOBS (the cores: mose-llm --jobs), MOSE_BIN (build/bin),
#        OUT (results/fluid-suite), PARTS (the sets to run, default all, e.g. "n64 n64-d4"),
#        SLURM (tasks per set), SLURM_ARGS (more options of utils/mose-slurm.sh),
#        SUITE (the sets instead of these, NAME|OPTIONS separated by ";": a small suite for a
#        test), EXTRA (options added to every set, e.g. "--scale=4000")
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${MOSE_BIN:-$root/build/bin}
seeds=${SEEDS:-3}
jobs=${JOBS:-$(nproc)}
out=${OUT:-$root/results/fluid-suite}
say() { printf '[fluid-suite] %s\n' "$*"; }
die() {
    say "$*" >&2
    exit 1
}
[[ $seeds =~ ^[1-9][0-9]*$ ]] || die "invalid SEEDS=$seeds: the seeds per cell, 1 or more"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "invalid JOBS=$jobs: the workers, 1 or more"
# shellcheck disable=SC2206  # EXTRA is a list of options
common=(--level=packet,fluid --seeds="$seeds" --intervals=100ms --darkTimes=10ms --plot=false
    --flowLevelFlows=0 ${EXTRA:-})
if [ -n "${SUITE:-}" ]; then
    IFS=';' read -r -a all <<<"$SUITE"
else
    # the longest first, so that the cores stay busy to the end
    # every set names each regime setting (not the program's default): the table reads them
    # from the runs' records to find the regime nearest to a run (mose-llm's "validated" line)
    regime() { # N d transport collective placement hosts
        echo "--nodes=$1 --degree=$2 --transport=$3 --collective=$4 --placement=$5 --hostsPerGroup=$6"
    }
    all=(
        "n256|$(regime 256 8 rdma all-to-all circuit-aware 1) --loads=3200"
        "n128-d4|$(regime 128 4 rdma all-to-all circuit-aware 1) --loads=1600"
        "n128|$(regime 128 8 rdma all-to-all circuit-aware 1) --loads=1600"
        "n64|$(regime 64 8 rdma all-to-all circuit-aware 1) --loads=25,200,800,3200"
        "n64-tcp|$(regime 64 8 tcp all-to-all circuit-aware 1) --loads=25,800"
        "n64-gpu|$(regime 64 8 rdma all-to-all circuit-aware 8) --loads=800"
        "n64-d4|$(regime 64 4 rdma all-to-all circuit-aware 1) --loads=25,800"
        "n64-ring|$(regime 64 8 rdma ring-all-reduce circuit-aware 1) --loads=25,800"
        "n64-rr|$(regime 64 8 rdma all-to-all round-robin 1) --loads=800"
        "n64-lo|$(regime 64 8 rdma all-to-all least-outstanding 1) --loads=800"
    )
fi
sets=()
for p in "${all[@]}"; do
    name=${p%%|*}
    [[ $name =~ ^[A-Za-z0-9._-]+$ ]] || die "set name '$name': letters, digits, . _ - only"
    if [ -z "${PARTS:-}" ] || [[ " $PARTS " == *" $name "* ]]; then
        sets+=("$p")
    fi
done
[ "${#sets[@]}" -gt 0 ] || die "no set named in PARTS=${PARTS:-}"
[ -x "$bin/mose-llm" ] || die "$bin/mose-llm not found: build first (utils/build.sh)"

if [ -n "${SLURM:-}" ]; then
    [[ $SLURM =~ ^[1-9][0-9]*$ ]] || die "invalid SLURM=$SLURM: the tasks per set, 1 or more"
    command -v sbatch >/dev/null 2>&1 || die "SLURM=$SLURM: sbatch not found; install Debian's slurm-wlm, or run without SLURM"
    mkdir -p "$out"
    merges=()
    folders=""
    for p in "${sets[@]}"; do
        name=${p%%|*}
        # shellcheck disable=SC2086  # the set's options and SLURM_ARGS are lists of options
        "$root/utils/mose-slurm.sh" submit --tasks="$SLURM" --dir="$out/$name" ${SLURM_ARGS:-} -- \
            "$bin/mose-llm" "${common[@]}" ${p#*|} --jobs="$jobs" >/dev/null
        merges+=("$(sed -n 's/^merge=//p' "$out/$name/jobs.txt" | tail -n 1)")
        folders+="${folders:+,}$out/$name/map"
    done
    dependency=$(IFS=:; echo "afterok:${merges[*]}")
    table=$(printf '%q ' "$bin/mose-regime-figure" --suite="$folders" --outputDir="$out")
    id=$(sbatch --parsable --job-name=fluid-suite-table --dependency="$dependency" \
        --output="$out/table.out" --error="$out/table.err" --time=10 --mem=1G --wrap="$table")
    echo "${id%%;*}" >"$out/table.job"
    say "${#sets[@]} sets as Slurm arrays of $SLURM tasks; the table is job ${id%%;*} ($dependency): $out/level_suite.csv"
    exit 0
fi

start=$SECONDS
failed=0
folders=""
for p in "${sets[@]}"; do
    name=${p%%|*}
    dir=$out/$name
    mkdir -p "$dir"
    s=$SECONDS
    rc=0
    # shellcheck disable=SC2086  # the set's options are a list of options
    "$bin/mose-llm" "${common[@]}" ${p#*|} --jobs="$jobs" --outputDir="$dir" >"$dir/stdout.txt" \
        2>"$dir/stderr.txt" || rc=$?
    say "$name: exit $rc, $((SECONDS - s)) s wall (mose-llm ${common[*]} ${p#*|} --jobs=$jobs)"
    if [ "$rc" != 0 ]; then
        tail -n 3 "$dir/stderr.txt" >&2
        failed=1
    else
        folders+="${folders:+,}$dir"
    fi
done
say "${#sets[@]} sets, $((SECONDS - start)) s wall in all"
[ "$failed" = 0 ] || die "a set failed: no table"
"$bin/mose-regime-figure" --suite="$folders" --outputDir="$out"
