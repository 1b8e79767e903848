#!/bin/sh
# utils/map-run-times.sh on records written by hand: four runs of 100, 300, 200 and 50 s of
# processor time on 2 workers in list order end at 350 s (worker 1: 100 + 200 + 50, worker 2:
# 300); a gap in the indices is named; bad input exits 1 with a message naming it.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
script=$here/utils/map-run-times.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
    echo "map-run-times-check: $*" >&2
    exit 1
}
mkdir -p "$work/map/runs"
record() { # record INDEX CPU RSS_KB
    printf 'mose-run-record 1\nindex=%s\nrun=run %s\nwall_s=%s.5\ncpu_s=%s\nmax_rss_kb=%s\nrun.events=%s000\n' \
        "$1" "$1" "$2" "$2" "$3" "$2" >"$work/map/runs/run-$(printf %06d "$1").txt"
}
record 0 100 1024
record 1 300 4096
record 2 200 2048
record 3 50 1024
out=$(sh "$script" "$work/map" 2)
echo "$out"
echo "$out" | grep -q '^4 runs: 650 s of CPU, 652 s of wall time one after the other, peak 4 MB$' ||
    fail "wrong sums"
echo "$out" | grep -q '^on 2 workers in list order, from the CPU seconds: 350 s (0.10 h)$' ||
    fail "wrong packing on 2 workers"
echo "$out" | grep -q '^1      300        300        300000       4          run 1$' ||
    fail "wrong row of run 1"
sh "$script" "$work/map" 1 | grep -q 'on 1 workers in list order, from the CPU seconds: 650 s' ||
    fail "wrong packing on 1 worker"
if echo "$out" | grep -q 'without a record'; then fail "a gap reported where there is none"; fi
rm "$work/map/runs/run-000001.txt" "$work/map/runs/run-000002.txt"
sh "$script" "$work/map" 2 | grep -q '^runs without a record between the first and the last: 1-2$' ||
    fail "the gap 1-2 not named"
# bad input: exit status 1 and a message naming what is wrong
for args in "$work/map 0" "$work/map two" "$work/none" ""; do
    # shellcheck disable=SC2086  # args is a list of arguments
    if msg=$(sh "$script" $args 2>&1); then fail "'$args' accepted"; fi
    echo "$msg" | grep -q "JOBS\|no run records\|usage" || fail "'$args': no clear message: $msg"
done
echo "map-run-times-check: passed"
