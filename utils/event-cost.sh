#!/bin/sh
# Events per wall second of the LLM experiment's workload shape at several fabric sizes, side by
# side (issue 28 item 1): mose-llm's KV transfers and all-to-all at the defaults' per-group load
# (100 requests/s at 64 groups, so N/64 x 100 at N; the all-to-all of --tokensPerMember 16384
# per training group), one inference-heavy period of DURATION_MS, policy MoSE, compute 2 ms
# per iteration so that the collectives run within the short period. The cost per event at N is
# reported relative to the first size.
#
# usage: utils/event-cost.sh [mose-llm options, e.g. --hostsPerGroup=8]
# environment: MOSE_BUILD_DIR (build), SIZES ("64 256 1024"), DURATION_MS (20)
#
# Each run prints its wall time; on a shared machine the figures move with the load, so run the
# sizes back to back and compare ratios (doc/mose.rst, "Per-event cost of the packet level").
set -eu
BIN="${MOSE_BUILD_DIR:-build}/bin/mose-llm"
SIZES="${SIZES:-64 256 1024}"
DURATION_MS="${DURATION_MS:-20}"
if [ ! -x "$BIN" ]; then
    echo "event-cost.sh: $BIN not found: build first (utils/build.sh)" >&2
    exit 1
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

printf '%-6s %-9s %-8s %-11s %-10s %s\n' N requests wall_s '~events' events/s cost/event
first=""
for n in $SIZES; do
    rate=$((100 * n / 64))
    requests=$((rate * DURATION_MS / 1000))
    [ "$requests" -ge 1 ] || requests=1
    out="$WORK/run-$n.txt"
    "$BIN" --map=false --nodes="$n" --policies=MoSE \
        --schedule="inference-heavy:${DURATION_MS}ms" --rate="$rate" --requests="$requests" \
        --compute=2ms --outputDir="$WORK/out-$n" "$@" >"$out" 2>&1 || {
        echo "event-cost.sh: mose-llm at N=$n failed:" >&2
        cat "$out" >&2
        exit 1
    }
    # the policy row: ... lost wall_s events/s (the last two columns)
    row="$(grep '^MoSE ' "$out" | head -n 1)"
    wall="$(echo "$row" | awk '{print $(NF-1)}')"
    evps="$(echo "$row" | awk '{print $NF}')"
    events="$(awk -v w="$wall" -v e="$evps" 'BEGIN { printf "%.0f", w * e }')"
    [ -n "$first" ] || first="$evps"
    cost="$(awk -v a="$first" -v b="$evps" 'BEGIN { printf "%.2fx", a / b }')"
    printf '%-6s %-9s %-8s %-11s %-10s %s\n' "$n" "$requests" "$wall" "$events" "$evps" "$cost"
done
