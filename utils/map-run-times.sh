#!/bin/sh
# What a map's runs cost (issue 39 item 5): reads the run records a map wrote (mose-llm
# --outputDir=DIR writes one per run in DIR/runs/, for the whole map or a part, --runs=...) and
# prints per run its index, what it ran, its processor and wall seconds, events and peak
# resident memory; then their sums, the largest peak, and the map's wall time on JOBS workers
# estimated from the processor seconds: the runs taken in their list order, each by the first
# worker free, as mose-llm --jobs takes them (RunPool). The estimate counts runs that have a
# record only; a run list with runs missing prints which.
#
# usage: utils/map-run-times.sh DIR [JOBS (2)]
#
# doc/mose.rst, "RoCEv2 transport", has the figures of the default map at N = 1024.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: utils/map-run-times.sh DIR [JOBS]" >&2
    exit 1
fi
DIR="$1"
JOBS="${2:-2}"
case "$JOBS" in
'' | *[!0-9]* | 0)
    echo "map-run-times.sh: JOBS must be a whole number of 1 or more, not '$JOBS'" >&2
    exit 1
    ;;
esac
if ! ls "$DIR"/runs/run-*.txt >/dev/null 2>&1; then
    echo "map-run-times.sh: no run records in '$DIR/runs' (mose-llm --outputDir=DIR writes them)" >&2
    exit 1
fi
# one line per record: index, cpu, wall, events, peak kB, what; sorted by index (list order)
for f in "$DIR"/runs/run-*.txt; do
    awk -F= '
        $1 == "index" { index_ = $2 }
        $1 == "cpu_s" { cpu = $2 }
        $1 == "wall_s" { wall = $2 }
        $1 == "max_rss_kb" { rss = $2 }
        $1 == "run.events" { events = $2 }
        $1 == "run" { what = substr($0, 5) }
        END { printf "%s\t%s\t%s\t%s\t%s\t%s\n", index_, cpu, wall, events, rss, what }' "$f"
done | sort -n | awk -F'\t' -v jobs="$JOBS" '
    BEGIN {
        printf "%-6s %-10s %-10s %-12s %-10s %s\n", "index", "CPU s", "wall s", "events",
            "peak MB", "run"
        for (k = 0; k < jobs; ++k) free[k] = 0
    }
    {
        printf "%-6s %-10.0f %-10.0f %-12s %-10.0f %s\n", $1, $2, $3, $4, $5 / 1024, $6
        if (NR > 1 && $1 != last + 1) missing = missing " " (last + 1) "-" ($1 - 1)
        last = $1
        cpu += $2; wall += $3; if ($5 > peak) peak = $5
        # the first worker free takes the next run
        best = 0
        for (k = 1; k < jobs; ++k) if (free[k] < free[best]) best = k
        free[best] += $2
    }
    END {
        end = 0
        for (k = 0; k < jobs; ++k) if (free[k] > end) end = free[k]
        printf "%d runs: %.0f s of CPU, %.0f s of wall time one after the other, peak %.0f MB\n",
            NR, cpu, wall, peak / 1024
        printf "on %d workers in list order, from the CPU seconds: %.0f s (%.2f h)\n", jobs,
            end, end / 3600
        if (missing != "") printf "runs without a record between the first and the last:%s\n",
            missing
    }'
