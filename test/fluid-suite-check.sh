#!/usr/bin/env bash
# ctest mose-fluid-suite: utils/fluid-suite.sh on a small suite (two sets at N = 16, two seeds,
# two policies), then its checks: the table has a row per cell and policy with both levels'
# means and each run's requests served, a second run keeps every finished run (mose-llm's
# --resume) and writes the same table, and a PARTS that names no set fails with a message.
#
# usage: test/fluid-suite-check.sh BIN_DIR
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
export MOSE_BIN=$bin OUT=$out/suite SEEDS=2 JOBS=2
regime="--nodes=16 --degree=4 --transport=rdma --collective=all-to-all --hostsPerGroup=1"
export SUITE="d4|$regime --placement=circuit-aware --loads=200 --policies=MoSE,S-Inf;d4-rr|$regime --placement=round-robin --loads=200 --policies=MoSE,S-Inf"
bash "$root/utils/fluid-suite.sh" >"$out/first.txt" 2>&1 || { cat "$out/first.txt"; fail "the suite failed"; }
csv=$out/suite/level_suite.csv
[ -f "$csv" ] && [ -f "$out/suite/level_suite.rst" ] || fail "no level_suite.csv or .rst"
# a header and 2 sets x 1 cell x 2 policies
[ "$(wc -l <"$csv")" = 5 ] || { cat "$csv"; fail "level_suite.csv: $(wc -l <"$csv") lines, not 5"; }
head -n 1 "$csv" | grep -q '^set,nodes,degree,transport,collective,placement,hosts_per_group,load,interval_s,dark_s,policy,seeds,requests,packet_served,fluid_served,' ||
    fail "level_suite.csv's header: $(head -n 1 "$csv")"
# every row: the regime its records give (N 16, d 4), 2 seeds, MoSE or S-Inf, both levels' KV means
awk -F, 'NR > 1 && ($2 != 16 || $3 != 4 || $12 != 2 || ($11 != "MoSE" && $11 != "S-Inf") || $19 == "" || $20 == "") { bad = 1 }
    END { exit bad }' "$csv" || { cat "$csv"; fail "a row without its seeds, policy or means"; }
grep -q 'bounds (the deciding policies not overloaded' "$out/first.txt" || fail "no bounds line"
cp "$csv" "$out/first.csv"
bash "$root/utils/fluid-suite.sh" >"$out/second.txt" 2>&1 || { cat "$out/second.txt"; fail "the second run failed"; }
cmp "$out/first.csv" "$csv" || fail "the second run wrote another table"
if PARTS=nothing bash "$root/utils/fluid-suite.sh" >"$out/parts.txt" 2>&1; then
    fail "PARTS=nothing ran"
fi
grep -q 'no set named in PARTS=nothing' "$out/parts.txt" || { cat "$out/parts.txt"; fail "PARTS's message"; }
echo "fluid-suite: 2 sets, 4 rows, resumed identically, bad PARTS refused"
