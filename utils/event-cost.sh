#!/bin/sh
# Events per wall second of the LLM experiment's workload shape at several fabric sizes, side by
# side (issue 28 item 1): mose-llm's KV transfers and all-to-all at the defaults' per-group load
# (100 requests/s at 64 groups, so N/64 x 100 at N; the all-to-all of --tokensPerMember 16384
# bytes' worth per training group), one inference-heavy period of DURATION_MS, policy MoSE,
# compute 2 ms per iteration so that the collectives run within the short period. For every N
# the host counts of HOSTS run back to back (so that a shared machine's load is about the same
# for them). Printed per run of Simulator::Run() (the experiment's log line,
# NS_LOG=MoseExperiment=info): its events, events per wall second (what mose-llm prints) and
# per processor second (about the same on a loaded machine), and the cost per event (processor
# time) relative to the first N's run with the same G.
#
# usage: utils/event-cost.sh [more mose-llm options, e.g. --ns3::MoseTopologyHelper::DefaultQueueDisc=false]
# (over tcp, as the doc's figures were measured; --transport=rdma among them measures RoCEv2)
# environment: MOSE_BUILD_DIR (build), SIZES ("64 256 1024"), HOSTS ("1 8": mose-llm
#              --hostsPerGroup), DURATION_MS (20), REPEAT (3: runs of under 10 s wall are
#              repeated, the median counts), KEEP (a folder to keep every run's output in)
#
# doc/mose.rst, "Per-event cost of the packet level", has the figures and what they mean.
set -eu
BIN="${MOSE_BUILD_DIR:-build}/bin/mose-llm"
SIZES="${SIZES:-64 256 1024}"
HOSTS="${HOSTS:-1 8}"
DURATION_MS="${DURATION_MS:-20}"
REPEAT="${REPEAT:-3}"
if [ ! -x "$BIN" ]; then
    echo "event-cost.sh: $BIN not found: build first (utils/build.sh)" >&2
    exit 1
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "mose-llm --map=false --policies=MoSE --schedule=inference-heavy:${DURATION_MS}ms" \
    "--rate=100N/64 --requests=rate x ${DURATION_MS} ms --compute=2ms --transport=tcp $*"
printf '%-6s %-4s %-9s %-10s %-12s %-11s %s\n' N G requests events events/wall-s \
    events/CPU-s cost/event
for n in $SIZES; do
    rate=$((100 * n / 64))
    requests=$((rate * DURATION_MS / 1000))
    [ "$requests" -ge 1 ] || requests=1
    for g in $HOSTS; do
        # short runs (under 10 s of wall time) are repeated REPEAT times: the median counts
        rates=""
        walls=""
        r=0
        while [ "$r" -lt "$REPEAT" ]; do
            r=$((r + 1))
            out="$WORK/run-$n-$g-$r.txt"
            # --resume=false: a repetition runs again instead of keeping the first one's record
            NS_LOG="MoseExperiment=info" "$BIN" --map=false --nodes="$n" --policies=MoSE \
                --schedule="inference-heavy:${DURATION_MS}ms" --rate="$rate" \
                --requests="$requests" --compute=2ms --hostsPerGroup="$g" --transport=tcp \
                --outputDir="$WORK/out-$n-$g" --resume=false "$@" >"$out" 2>&1 || {
                echo "event-cost.sh: mose-llm at N=$n, G=$g failed:" >&2
                cat "$out" >&2
                exit 1
            }
            if [ -n "${KEEP:-}" ]; then
                mkdir -p "$KEEP"
                cp "$out" "$KEEP/"
            fi
            # the experiment's log line: "Simulator::Run(): E events, W s wall, C s CPU"
            line="$(grep -o 'Simulator::Run(): .* s CPU' "$out" | head -n 1)"
            if [ -z "$line" ]; then
                echo "event-cost.sh: no 'Simulator::Run()' line from mose-llm (a build with" \
                    "MOSE_NS3_ASSERT=OFF logs nothing):" >&2
                cat "$out" >&2
                exit 1
            fi
            events="$(echo "$line" | awk '{print $2}')"
            wall="$(echo "$line" | awk '{print $4}')"
            cpu="$(echo "$line" | awk '{print $7}')"
            walls="$walls $(awk -v e="$events" -v w="$wall" 'BEGIN { printf "%.0f", e / w }')"
            rates="$rates $(awk -v e="$events" -v c="$cpu" 'BEGIN { printf "%.0f", e / c }')"
            if awk -v w="$wall" 'BEGIN { exit !(w >= 10) }'; then
                break
            fi
        done
        median() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
        evps="$(echo "$rates" | median)"
        wevps="$(echo "$walls" | median)"
        first="$(cat "$WORK/first-$g" 2>/dev/null || true)"
        if [ -z "$first" ]; then
            first="$evps"
            echo "$evps" >"$WORK/first-$g"
        fi
        cost="$(awk -v a="$first" -v b="$evps" 'BEGIN { printf "%.2fx", a / b }')"
        printf '%-6s %-4s %-9s %-10s %-12s %-11s %s\n' "$n" "$g" "$requests" "$events" "$wevps" \
            "$evps" "$cost"
    done
done
