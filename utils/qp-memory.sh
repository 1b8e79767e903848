#!/bin/sh
# Memory per RDMA queue pair (issue 39 item 5), measured by heaptrack on mose-llm's workload shape
# at N groups (utils/event-cost.sh's: 100 requests/s per 64 groups, one inference-heavy period of
# 20 ms, compute 2 ms, so that the all-to-all of the training groups runs twice on kept QPs),
# one host per group, over --transport=rdma. It prints the QPs the transport opened and the QP
# records it held (its log line at the end of the run), the heap at its peak, and heaptrack's
# peak-memory call sites whose stack names MoseRdmaTransport: the QP records themselves, the
# map of kept QPs and the message queues. Bytes per QP is their sum over the QP records.
#
# usage: utils/qp-memory.sh [N (1024)] [more mose-llm options]
# environment: MOSE_BUILD_DIR (build), KEEP (a folder to keep heaptrack's file and report in)
# needs heaptrack and heaptrack_print (Debian's heaptrack; utils/test.sh installs it)
#
# doc/mose.rst, "RoCEv2 transport", has the figures.
set -eu
BIN="${MOSE_BUILD_DIR:-build}/bin/mose-llm"
N="${1:-1024}"
[ $# -gt 0 ] && shift
case "$N" in
'' | *[!0-9]*)
    echo "qp-memory.sh: N must be a group count (a whole number of 2 or more), not '$N'" >&2
    exit 1
    ;;
esac
for tool in heaptrack heaptrack_print; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "qp-memory.sh: $tool not found: install Debian's heaptrack (utils/test.sh does)" >&2
        exit 1
    }
done
if [ ! -x "$BIN" ]; then
    echo "qp-memory.sh: $BIN not found: build first (utils/build.sh)" >&2
    exit 1
fi
WORK="${KEEP:-$(mktemp -d)}"
mkdir -p "$WORK"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
rate=$((100 * N / 64))
requests=$((rate * 20 / 1000))
[ "$requests" -ge 1 ] || requests=1

echo "heaptrack mose-llm --map=false --nodes=$N --policies=MoSE --schedule=inference-heavy:20ms" \
    "--rate=$rate --requests=$requests --compute=2ms --hostsPerGroup=1 --transport=rdma $*"
NS_LOG="MoseRdmaTransport=info" heaptrack -o "$WORK/heap" "$BIN" --map=false --nodes="$N" \
    --policies=MoSE --schedule=inference-heavy:20ms --rate="$rate" --requests="$requests" \
    --compute=2ms --hostsPerGroup=1 --transport=rdma --outputDir="$WORK/out" "$@" \
    >"$WORK/run.txt" 2>&1 || {
    echo "qp-memory.sh: mose-llm failed:" >&2
    cat "$WORK/run.txt" >&2
    exit 1
}
file=$(ls "$WORK"/heap.* | head -n 1)
heaptrack_print -f "$file" --print-peaks 1 --print-allocators 0 --print-temporary 0 \
    --print-leaks 0 --peak-limit 200 -s 0 >"$WORK/report.txt" 2>/dev/null
# the transport's log line: "Q QPs opened in R QP records, P data packets, A ACKs"
records=$(sed -n 's/.* QPs opened in \([0-9]*\) QP records.*/\1/p' "$WORK/run.txt" | tail -n 1)
grep -o '[0-9]* QPs opened in [0-9]* QP records' "$WORK/run.txt" | tail -n 1
grep 'peak heap memory consumption' "$WORK/report.txt" || true
# heaptrack's blocks are separated by blank lines; the first line holds the peak ("12.92M peak
# memory consumed over C calls from"), a later line the frame naming the transport
awk -v records="$records" '
    function bytes(s,    v, u) {
        v = s + 0; u = substr(s, length(s), 1)
        return u == "K" ? v * 1e3 : u == "M" ? v * 1e6 : u == "G" ? v * 1e9 : v
    }
    /peak memory consumed over/ { head = $0; peak = bytes($1); seen = 0; next }
    /MoseRdmaTransport/ && head != "" && !seen {
        seen = 1; total += peak
        line = $0; sub(/^ +/, "", line)
        printf "  %s\n      %s\n", head, substr(line, 1, 100)
    }
    END {
        if (records > 0)
            printf "the transport: %.0f bytes at the peak, %.0f bytes per QP record\n", total,
                total / records
    }' "$WORK/report.txt"
