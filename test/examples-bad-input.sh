#!/bin/sh
# Bad and edge-case input to the programs: each case must end with exit status 1 (not 0,
# not a signal) and a message that names the option or file and the value, or succeed where the
# input is valid. Run by ctest as mose-examples-bad-input with the folder of the built programs.
#
#   test/examples-bad-input.sh build/bin
set -u
BIN=${1:?usage: examples-bad-input.sh BIN_DIR}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mose-bad-input.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FAILED=0
CASES=0

# expect_error NAME TEXT PROGRAM ARGS...: exit status 1 and TEXT in the output
expect_error() {
    name=$1; text=$2; shift 2
    CASES=$((CASES + 1))
    timeout 600 "$@" >"$WORK/out" 2>&1 </dev/null
    rc=$?
    if [ "$rc" -ne 1 ]; then
        echo "FAIL $name: exit status $rc (expected 1; >128 is a signal, 124 a timeout)"
        sed 's/^/    /' "$WORK/out" | head -5
        FAILED=$((FAILED + 1))
    elif ! grep -qF -- "$text" "$WORK/out"; then
        echo "FAIL $name: message lacks: $text"
        sed 's/^/    /' "$WORK/out" | head -5
        FAILED=$((FAILED + 1))
    else
        echo "ok   $name: $(grep -F -- "$text" "$WORK/out" | head -1 | cut -c1-150)"
    fi
}

# expect_ok NAME TEXT PROGRAM ARGS...: exit status 0 and TEXT on standard output
expect_ok() {
    name=$1; text=$2; shift 2
    CASES=$((CASES + 1))
    timeout 600 "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
    rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qF -- "$text" "$WORK/out"; then
        echo "FAIL $name: exit status $rc, expected 0 with: $text"
        sed 's/^/    /' "$WORK/out" "$WORK/err" | head -5
        FAILED=$((FAILED + 1))
    else
        echo "ok   $name"
    fi
}

# expect_same NAME FILE1 FILE2: both files exist and are byte-identical
expect_same() {
    name=$1
    CASES=$((CASES + 1))
    if [ -f "$2" ] && [ -f "$3" ] && cmp -s "$2" "$3"; then
        echo "ok   $name"
    else
        echo "FAIL $name: $2 and $3 differ (or one is missing)"
        FAILED=$((FAILED + 1))
    fi
}

# expect_no_work NAME DIR: the program of the last expect_error refused before any work: no
# progress or timing line ("run 1/1 done: ...", "study time: ...") and no run record in its
# output folder DIR (a study writes DIR/runs before its report)
expect_no_work() {
    name=$1
    CASES=$((CASES + 1))
    if grep -qE ' done: | time: ' "$WORK/out" || [ -e "$2/runs" ]; then
        echo "FAIL $name: the program worked before it refused"
        sed 's/^/    /' "$WORK/out" | head -5
        FAILED=$((FAILED + 1))
    else
        echo "ok   $name"
    fi
}

# seeds_as_runs NAME PROGRAM TEXT ARGS...: a flow-level study's seeds as a list of runs (issue 40,
# SeedList), with ARGS giving 3 seeds: bad run options refused with the option and value; --jobs=2,
# and two parts merged, write every file of --jobs=1 (TEXT: a line of a whole study's output);
# a merge with a part missing, or of parts made with other options, is refused
seeds_as_runs() {
    sname=$1; sprog=$2; stext=$3; shift 3
    expect_error "$sname-jobs-zero" 'invalid --jobs = "0": the workers, a whole number 1 or more' \
        "$sprog" "$@" --jobs=0
    expect_error "$sname-jobs-and-threads" '--jobs = "2" and --threads = "1": both set the worker threads' \
        "$sprog" "$@" --jobs=2 --threads=1
    expect_error "$sname-part-above" 'invalid --part = "3/2": I/K with 1 <= I <= K' \
        "$sprog" "$@" --part=3/2
    expect_error "$sname-part-zero" 'invalid --part = "0/2": I/K with 1 <= I <= K' \
        "$sprog" "$@" --part=0/2
    expect_error "$sname-runs-out-of-list" 'invalid --runs = "3": run 3 is not in the list: its 3 runs are 0 to 2' \
        "$sprog" "$@" --runs=3 --outputDir="$WORK/$sname-r3"
    expect_ok "$sname-list" "2,$sname seed 2 (run 3)" "$sprog" "$@" --listRuns
    expect_ok "$sname-one-worker" "$stext" "$sprog" "$@" --jobs=1 --outputDir="$WORK/$sname-j1"
    expect_ok "$sname-two-workers" "$stext" "$sprog" "$@" --jobs=2 --outputDir="$WORK/$sname-j2"
    expect_ok "$sname-part-1" "part 1/2: 2 of 3 runs done" \
        "$sprog" "$@" --part=1/2 --outputDir="$WORK/$sname-p1"
    expect_ok "$sname-part-2" "part 2/2: 1 of 3 runs done" \
        "$sprog" "$@" --part=2/2 --jobs=2 --outputDir="$WORK/$sname-p2"
    expect_ok "$sname-merge" "$stext" \
        "$sprog" "$@" --merge="$WORK/$sname-p1,$WORK/$sname-p2" --outputDir="$WORK/$sname-m"
    for f in "$WORK/$sname-j1"/*; do
        [ -f "$f" ] || continue
        f=${f##*/}
        expect_same "$sname-two-workers-same-$f" "$WORK/$sname-j1/$f" "$WORK/$sname-j2/$f"
        expect_same "$sname-merge-same-$f" "$WORK/$sname-j1/$f" "$WORK/$sname-m/$f"
    done
    expect_error "$sname-merge-missing" "is not whole: 1 of 3 runs have no record" \
        "$sprog" "$@" --merge="$WORK/$sname-p1" --outputDir="$WORK/$sname-m2"
    expect_error "$sname-merge-other-options" "$WORK/$sname-p1/runs/run-000000.txt was made with other options" \
        "$sprog" "$@" --RngRun=1 --merge="$WORK/$sname-p1,$WORK/$sname-p2" --outputDir="$WORK/$sname-m3"
}

EVAL="$BIN/mose-flow-eval"
TPL="$BIN/mose-templates"
PAPER="$BIN/mose-paper"
SMALL="--nodes=64 --prefill=24 --decode=24 --training=16 --trPrefill=8 --trDecode=8 --trTraining=48 --flows=1000"

printf 'u,v\n0,1\n1,2\n2,3\n3,0\n' >"$WORK/ring.csv"
printf 'src,dst,class,demand\n0,1,kv,1\n0,2,training,2\n' >"$WORK/flows.csv"
printf 'src,dst,class,demand\n0,1,kv,1e308\n1,0,kv,1e308\n' >"$WORK/flows-sum.csv"
printf 'src,dst,class,demand\n0,2,kv,1.7e308\n' >"$WORK/flows-big.csv"

# --- mose-flow-eval
expect_error eval-nodes-max 'invalid --nodes = "4294967295": at most 4294967294 groups' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" --nodes=4294967295
expect_error eval-nodes-memory '--nodes=4294967294 needs at least' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" --nodes=4294967294
expect_error eval-demand-sum "$WORK/flows-sum.csv:3: demand \"1e308\" makes the total demand exceed" \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows-sum.csv"
expect_error eval-cost-overflow 'came out as inf: the demands are too large' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows-big.csv"
expect_error eval-rngrun-text 'invalid --RngRun = "abc"' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" --RngRun=abc
expect_error eval-rngrun-negative 'invalid --RngRun = "-1"' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" --RngRun=-1
# the seed acts on random-shortest-path only (doc/mose.rst, Where each option acts)
expect_error eval-scope-rngrun 'invalid --RngRun = "7": the option would not be used with --routing=shortest-path or ecmp (no random choice: the seed is not used): it acts only with --routing=random-shortest-path' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" --RngRun=7 --routing=shortest-path
expect_error eval-scope-rngrun-ecmp 'invalid --RngRun = "7": the option would not be used with --routing=shortest-path or ecmp' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" --RngRun=7 --routing=ecmp
expect_ok eval-scope-rngrun-random '"routing": "random-shortest-path"' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" --RngRun=7
expect_error eval-empty-value 'invalid --nodes = "": the value is empty' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" --nodes=
expect_error eval-routing 'invalid --routing = "ospf": allowed values are shortest-path' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" --routing=ospf
expect_error eval-flows-is-a-count 'Invalid command-line argument: --flows=' \
    "$EVAL" --graph="$WORK/ring.csv" --flows="$WORK/flows.csv"
expect_ok eval-routing-default '"routing": "random-shortest-path"' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv"
expect_ok eval-routing-any-case '"routing": "ecmp"' \
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" --routing=ECMP
if [ -w /dev/full ]; then
    expect_error eval-loads-full-disk 'cannot write /dev/full' \
        "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" --loads=/dev/full
    CASES=$((CASES + 1))
    "$EVAL" --graph="$WORK/ring.csv" --flowsFile="$WORK/flows.csv" >/dev/full 2>"$WORK/err"
    rc=$?
    if [ "$rc" -eq 1 ] && grep -qF 'cannot write to standard output' "$WORK/err"; then
        echo "ok   eval-stdout-full-disk"
    else
        echo "FAIL eval-stdout-full-disk: exit status $rc"; FAILED=$((FAILED + 1))
    fi
fi

# --- mose-templates
expect_error templates-flows-memory '--flows=99999999999 needs at least' \
    "$TPL" --flows=99999999999
expect_error templates-no-seeds 'Invalid command-line argument: --seeds' "$TPL" --seeds=2
expect_error templates-no-routing 'Invalid command-line argument: --routing' "$TPL" --routing=ecmp
expect_error templates-bad-bool 'invalid --biregular = "maybe": allowed values are true, false' \
    "$TPL" --biregular=maybe
expect_error templates-pd-reserved 'invalid --pdReservedPorts = 3: an r-regular bipartite' \
    "$TPL" --prefill=400 --decode=420 --assignment=many-to-one
expect_error templates-pd-biregular 'set --biregular for a biregular split' \
    "$TPL" --prefill=400 --decode=420 --assignment=many-to-one
expect_error llm-tokens-with-ring '--tokensPerMember = "1000": the option would not be used' \
    "$BIN/mose-llm" --map=false --level=aggregate --collective=ring-all-reduce --tokensPerMember=1000
expect_error llm-fluid-tcp-variant 'invalid --ns3::MoseSocketTransfers::TcpVariant = "ns3::TcpVegas": ns3::TcpCubic or ns3::TcpNewReno at the fluid level' \
    "$BIN/mose-llm" --map=false --level=fluid --transport=tcp --requests=5 --ns3::MoseSocketTransfers::TcpVariant=ns3::TcpVegas
expect_error paper-seeds-bound 'invalid --seeds = "4000000000": 4000000000 seeds keep at least' \
    "$BIN/mose-paper" --seeds=4000000000
expect_error sweep-seeds-bound 'invalid --seeds = "4000000000": 4000000000 seeds keep at least 192.0 TB' \
    "$BIN/mose-sweep" --seeds=4000000000
expect_error templates-pd-role-counts "the mode's role counts: --prefill, --decode, --training" \
    "$TPL" --prefill=400 --decode=420 --assignment=many-to-one
expect_error templates-compromise-reserved 'invalid --compromiseReservedPorts = 4' \
    "$TPL" --compromiseReservedPorts=4
expect_error templates-kvshare 'since --kvShareInference = 0.7 and' \
    "$TPL" --prefill=512 --decode=512 --training=0 --roleTransition=nested
expect_error templates-rngrun 'invalid --RngRun = "-1"' "$TPL" --RngRun=-1
expect_ok templates-large-sampled 'from 4096 of 50000 sources' \
    "$TPL" --nodes=50000 --degree=8 --prefill=20000 --decode=20000 --training=10000 \
    --trPrefill=5000 --trDecode=5000 --trTraining=40000 --flows=1000 --progress=false
expect_ok templates-small "files written to $WORK/small/" \
    "$TPL" $SMALL --outputDir="$WORK/small"

expect_ok templates-folder-space "files written to $WORK/with space/" \
    "$TPL" --nodes=64 --flows=100 --progress=false --outputDir="$WORK/with space"
expect_error templates-number-space 'invalid --nodes = "64 x": expected an unsigned decimal' \
    "$TPL" "--nodes=64 x"
expect_ok templates-degree-8 'H^PD r=7, H^C r=1' "$TPL" --degree=8 --flows=1000 --progress=false
expect_ok templates-reserved-0 'H^PD r=0, H^C r=1' "$TPL" --pdReservedPorts=0 --flows=1000 \
    --progress=false
expect_error templates-unused-count 'invalid --prefill = "24": the option would not be used' \
    "$TPL" $SMALL --inferenceRolesFile="$WORK/small/roles_inference.csv"

# --- mose-paper
expect_ok paper-nodes-64 'CSV files written to' \
    "$PAPER" --nodes=64 --flows=500 --seeds=2 --plot=false --progress=false \
    --outputDir="$WORK/paper-64"
expect_error paper-flows-memory '--flows=99999999999' "$PAPER" --flows=99999999999
expect_error paper-rngrun-text 'invalid --RngRun = "abc"' "$PAPER" --RngRun=abc
expect_error paper-bad-bool 'invalid --plot = "maybe"' "$PAPER" --plot=maybe
expect_error paper-empty-bool 'invalid --plot = "": the value is empty' "$PAPER" --plot=
expect_error paper-construction 'invalid --construction = "stale": allowed values are fresh and rewiring-aware' "$PAPER" $SMALL --construction=stale
expect_error paper-empty-value 'invalid --seeds = "": the value is empty' "$PAPER" --seeds=
expect_error paper-file-run \
    "$WORK/small/assignment_training.csv: the assignment does not fit the training-heavy roles of run 2" \
    "$PAPER" $SMALL --seeds=2 --plot=false --progress=false --outputDir="$WORK/paper" \
    --trainingAssignmentFile="$WORK/small/assignment_training.csv"

# --- mose-baselines
BASE="$BIN/mose-baselines"
expect_error baselines-product \
    'invalid --torus2d = "16x16": the product of the dimensions must equal the number of groups --nodes = 1024, but 16 * 16 = 256' \
    "$BASE" --torus2d=16x16
expect_error baselines-dimensions 'invalid --torus3d = "32x32": the 3D torus needs 3 dimensions' \
    "$BASE" --torus3d=32x32
expect_error baselines-ring-of-two 'invalid --torus2d = "2x512": every dimension of a torus must be at least 3' \
    "$BASE" --torus2d=2x512
expect_error baselines-shape-text 'invalid --fullMesh3d = "8x8x16a": dimension "16a" is not' \
    "$BASE" --fullMesh3d=8x8x16a
expect_error baselines-shape-zero 'invalid --fullMesh3d = "0x8x128": a dimension of 0 holds no group' \
    "$BASE" --fullMesh3d=0x8x128
expect_error baselines-shape-empty 'invalid --torus3d = "": the value is empty' "$BASE" --torus3d=
expect_error baselines-name 'invalid --baselines = "ring": allowed values are torus-2d' \
    "$BASE" --baselines=ring
expect_error baselines-twice 'invalid --baselines = "torus-2d,torus-2d": torus-2d is named twice' \
    "$BASE" --baselines=torus-2d,torus-2d
expect_error baselines-shape-unused 'invalid --torus3d = "16x8x8": torus-3d is not in --baselines' \
    "$BASE" --baselines=torus-2d --torus3d=16x8x8
expect_error baselines-prime 'invalid --nodes = 61: it is not a product of 2 dimensions of at least 3' \
    "$BASE" --nodes=61 --prefill=20 --decode=20 --training=21 --trPrefill=8 --trDecode=8 --trTraining=45
expect_error baselines-bad-bool 'invalid --moseAtBaselineDegrees = "maybe"' \
    "$BASE" --moseAtBaselineDegrees=maybe
expect_error baselines-rngrun 'invalid --RngRun = "-1"' "$BASE" --RngRun=-1
expect_ok baselines-small 'full-mesh-3d 4x4x4: d = 9' \
    "$BASE" $SMALL --seeds=2 --plot=false --progress=false --outputDir="$WORK/baselines"
# shellcheck disable=SC2086  # SMALL is a list of options
{
seeds_as_runs mose-baselines "$BASE" 'full-mesh-3d 4x4x4: d = 9' $SMALL --seeds=3 --plot=false
seeds_as_runs mose-paper "$PAPER" 'CSV files written to' $SMALL --seeds=3 --plot=false
# a part of another program with the same options: refused, naming the file and what it holds
expect_error paper-merge-other-program \
    "$WORK/mose-baselines-p1/runs/run-000000.txt is not run 0 of this mose-paper list (mose-paper seed 0 (run 1)): it holds \"mose-baselines seed 0 (run 1)\"" \
    "$PAPER" $SMALL --seeds=3 --plot=false --merge="$WORK/mose-baselines-p1,$WORK/mose-baselines-p2" \
    --outputDir="$WORK/paper-other"
}

# --- mose-packet
PACKET="$BIN/mose-packet"
if [ -x "$PACKET" ]; then
    expect_error packet-policy 'invalid --policies = "foo"' "$PACKET" --policies=foo --plot=false
    # this build (Debian's ns-3) has no MPI: --distributed is an error naming what is missing
    expect_error packet-distributed-no-mpi 'this ns-3 build has no MPI module' \
        "$PACKET" --distributed --nodes=16 --plot=false
    expect_error packet-distributed-bool 'distributed' "$PACKET" --distributed=maybe --plot=false
    expect_error packet-mode 'invalid --mode = "bar"' "$PACKET" --mode=bar --plot=false
    # many runs (issue 40): the policies as a list of runs, a process per run
    PKT="--nodes=32 --flows=100 --stopTime=20ms --plot=false"
    # shellcheck disable=SC2086  # PKT is a list of options
    {
    expect_error packet-jobs-zero 'invalid --jobs = "0": the workers, a whole number 1 or more' "$PACKET" $PKT --jobs=0
    expect_error packet-part-above 'invalid --part = "3/2": I/K with 1 <= I <= K' "$PACKET" $PKT --part=3/2
    expect_error packet-part-more-than-runs 'invalid --part = "1/3": 3 parts of a list of 2 runs' \
        "$PACKET" $PKT --part=1/3 --outputDir="$WORK/pk3"
    expect_ok packet-list "1,MoSE" "$PACKET" $PKT --listRuns
    expect_ok packet-one-worker "MoSE" "$PACKET" $PKT --outputDir="$WORK/pk1"
    expect_ok packet-two-workers "MoSE" "$PACKET" $PKT --jobs=2 --outputDir="$WORK/pk2"
    expect_ok packet-part-1 "part 1/2: 1 of 2 runs done" "$PACKET" $PKT --part=1/2 --outputDir="$WORK/pkp1"
    expect_ok packet-part-2 "part 2/2: 1 of 2 runs done" "$PACKET" $PKT --part=2/2 --outputDir="$WORK/pkp2"
    expect_ok packet-merge "MoSE" "$PACKET" $PKT --merge="$WORK/pkp1,$WORK/pkp2" --outputDir="$WORK/pkm"
    for f in inference-heavy_MoSE_transfers.csv inference-heavy_S-Train_summary.csv inference-heavy_S-Train_circuits.csv; do
        expect_same "packet-two-workers-same-$f" "$WORK/pk1/$f" "$WORK/pk2/$f"
        expect_same "packet-merge-same-$f" "$WORK/pk1/$f" "$WORK/pkm/$f"
    done
    }
    expect_error packet-graph-missing 'cannot open /nonexistent.csv' \
        "$PACKET" --graph=/nonexistent.csv --policies=MoSE --plot=false
    expect_error packet-nodes 'invalid --nodes = "1": a circuit graph needs at least 2 groups' \
        "$PACKET" --nodes=1 --plot=false
    expect_error packet-stop 'invalid --stopTime = "-1": a duration >= 0' \
        "$PACKET" --stopTime=-1 --plot=false
    expect_error packet-stop-huge 'invalid --stopTime = "1e308": a duration from 1ns to' \
        "$PACKET" --stopTime=1e308 --plot=false
    expect_error packet-stop-tiny 'invalid --stopTime = "1e-12": a duration from 1ns to' \
        "$PACKET" --stopTime=1e-12 --plot=false
    expect_error packet-stop-zero 'invalid --stopTime = 0 s: the simulation needs a positive' \
        "$PACKET" --stopTime=0ms --plot=false
    expect_error packet-reserved 'invalid --pdReservedPorts = "5": need 0 <= r <= d = 4' \
        "$PACKET" --pdReservedPorts=5 --plot=false
    expect_error packet-roles-sum 'invalid --prefill/--decode/--training = 30 P + 25 D (default) + 14 T (default) = 69' \
        "$PACKET" --prefill=30 --plot=false
    expect_error packet-other-mode-file 'invalid --trainingFlowsFile = "'"$WORK/flows.csv"'": the file would not be used' \
        "$PACKET" --trainingFlowsFile="$WORK/flows.csv" --plot=false
    expect_error packet-flows-file-ids "$WORK/flows.csv:3" \
        "$PACKET" --nodes=2 --degree=1 --inferenceFlowsFile="$WORK/flows.csv" --plot=false
    expect_error packet-kvshare-unused 'invalid --kvShareInference = "0.5": the option would not be used' \
        "$PACKET" --inferenceFlowsFile="$WORK/flows.csv" --kvShareInference=0.5 --plot=false
    expect_error packet-address-base 'invalid address base = 10.255.255.0' \
        "$PACKET" --ns3::MoseTopologyHelper::AddressBase=10.255.255.0 --policies=MoSE \
        --flows=10 --plot=false
    # the transport: tcp or rdma; RED's ECN thresholds only with rdma at the packet level;
    # TCP's attributes refused with rdma
    expect_error packet-transport-bad 'invalid --transport = "roce": tcp (' \
        "$PACKET" --transport=roce --plot=false
    expect_error packet-ecn-with-tcp 'invalid --ecnKmin = "5": the option would not be used: only with --transport=rdma' \
        "$PACKET" --ecnKmin=5 --plot=false
    expect_error packet-ecn-fluid 'invalid --ecnKmax = "100": the option would not be used: the fluid' \
        "$PACKET" --transport=rdma --level=fluid --ecnKmax=100 --plot=false
    expect_error packet-ecn-order 'invalid --ecnKmax = "20": a number of packets above --ecnKmin = 50' \
        "$PACKET" --transport=rdma --ecnKmin=50 --ecnKmax=20 --plot=false
    expect_error packet-pfc-with-tcp 'invalid --pfc = true: only with --transport=rdma' \
        "$PACKET" --pfc --plot=false
    expect_error packet-pfc-fluid 'invalid --pfc = true: only with the packet level' \
        "$PACKET" --transport=rdma --level=fluid --pfc --plot=false
    # the table of doc/mose.rst, Where each option acts: --pfc=false acts with rdma only too
    expect_error packet-scope-pfc-tcp 'invalid --pfc = "false": the option would not be used with --transport=tcp: it acts only with --transport=rdma' \
        "$PACKET" --pfc=false --plot=false
    expect_error packet-pfc-xon-above-xoff 'invalid ns3::MosePfc::XonBytes = 200000: at most ns3::MosePfc::XoffBytes = 100000' \
        "$PACKET" --nodes=16 --flows=50 --transport=rdma --pfc --ns3::MosePfc::XoffBytes=100000 \
        --ns3::MosePfc::XonBytes=200000 --plot=false
    expect_error packet-pfc-xoff-headroom 'invalid ns3::MosePfc::XoffBytes = 250000: at most BufferBytes 300000 minus the headroom 104570' \
        "$PACKET" --nodes=16 --flows=50 --transport=rdma --pfc --ns3::MosePfc::XoffBytes=250000 \
        --plot=false
    expect_error packet-ecn-pmax 'invalid --ecnPmax = "2": a probability in (0, 1]' \
        "$PACKET" --transport=rdma --ecnPmax=2 --plot=false
    expect_error packet-rdma-tcp-variant 'TcpVariant' \
        "$PACKET" --transport=rdma --ns3::MoseTrafficHelper::TcpVariant=ns3::TcpNewReno --plot=false
    expect_error packet-rdma-segment 'SegmentSize' \
        "$PACKET" --transport=rdma --ns3::TcpSocket::SegmentSize=1000 --plot=false
    expect_error packet-rdma-queue-disc 'QueueDiscType' \
        "$PACKET" --transport=rdma --ns3::MoseTopologyHelper::QueueDiscType=ns3::FifoQueueDisc --plot=false
    # no shell sees the folder's name: quotes, $(...) and & stay characters of the name
    if command -v gnuplot >/dev/null 2>&1; then
        WEIRD="$WORK/it's \$(touch pwned) & \`touch pwned2\`"
        expect_ok packet-folder-name 'and its PNG figures' \
            "$PACKET" --nodes=16 --flows=40 --policies=MoSE --outputDir="$WEIRD"
        CASES=$((CASES + 1))
        if [ -f "$WEIRD/fct_cdf_inference-heavy_kv.png" ] && [ ! -e pwned ] && [ ! -e pwned2 ] \
            && [ ! -e "$WORK/pwned" ] && [ ! -e "$WORK/pwned2" ]; then
            echo "ok   packet-folder-name-files"
        else
            echo "FAIL packet-folder-name-files: no figure in $WEIRD, or a shell ran its name"
            FAILED=$((FAILED + 1))
        fi
    fi
    expect_ok packet-small 'circuits whose payload bytes' \
        "$PACKET" --nodes=16 --flows=40 --policies=MoSE --plot=false --outputDir="$WORK/packet"
    # a policy after the first prints its flow-level line as it does alone (the format of the
    # previous report is not left behind)
    grep -F 'flow level' "$WORK/out" >"$WORK/packet-flow-level-alone"
    expect_ok packet-two-policies 'circuits whose payload bytes' \
        "$PACKET" --nodes=16 --flows=40 --policies=S-Train,MoSE --plot=false \
        --outputDir="$WORK/packet-two"
    grep -F 'flow level' "$WORK/out" | tail -1 >"$WORK/packet-flow-level-second"
    expect_same packet-flow-level-format "$WORK/packet-flow-level-alone" \
        "$WORK/packet-flow-level-second"
    if [ -w /dev/full ]; then
        CASES=$((CASES + 1))
        "$PACKET" --nodes=16 --flows=40 --policies=MoSE --plot=false \
            --outputDir="$WORK/packet-full" >/dev/full 2>"$WORK/err"
        rc=$?
        if [ "$rc" -eq 1 ] && grep -qF 'cannot write to standard output: No space left on device' "$WORK/err"; then
            echo "ok   packet-stdout-full-disk"
        else
            echo "FAIL packet-stdout-full-disk: exit status $rc"; sed 's/^/    /' "$WORK/err" | head -3
            FAILED=$((FAILED + 1))
        fi
    fi
    # the module's own attributes: checked with the module's messages before ns-3 parses them
    P16="--nodes=16 --flows=40 --policies=MoSE --plot=false --outputDir=$WORK/packet-attr"
    # shellcheck disable=SC2086 # P16 is a list of options
    {
    expect_error packet-attr-time-text 'invalid --ns3::MoseOcs::Delay = "abc": a time >= 0' \
        "$PACKET" $P16 --ns3::MoseOcs::Delay=abc
    expect_error packet-attr-time-negative 'invalid --ns3::MoseOcs::Delay = "-1us": a time >= 0' \
        "$PACKET" $P16 --ns3::MoseOcs::Delay=-1us
    expect_error packet-attr-rate-zero 'invalid --ns3::MoseOcs::DataRate = "0bps": a data rate > 0' \
        "$PACKET" $P16 --ns3::MoseOcs::DataRate=0bps
    expect_error packet-attr-rate-huge 'invalid --ns3::MoseOcs::DataRate = "1e12bps": a data rate > 0 and at most 18446744073709549568bps' \
        "$PACKET" $P16 --ns3::MoseOcs::DataRate=1e12bps
    expect_error packet-attr-host-rate-zero 'invalid --ns3::MoseTopologyHelper::HostDataRate = "0bps"' \
        "$PACKET" $P16 --ns3::MoseTopologyHelper::HostDataRate=0bps
    expect_error packet-attr-udp-rate-zero 'invalid --ns3::MoseTrafficHelper::UdpDataRate = "0bps"' \
        "$PACKET" $P16 --ns3::MoseTrafficHelper::UdpDataRate=0bps
    expect_error packet-attr-unsigned-negative 'invalid --ns3::MoseTrafficHelper::BytesPerUnit = "-1"' \
        "$PACKET" $P16 --ns3::MoseTrafficHelper::BytesPerUnit=-1
    expect_error packet-attr-unsigned-range 'invalid --ns3::MoseTrafficHelper::BytesPerUnit = "0": an integer in' \
        "$PACKET" $P16 --ns3::MoseTrafficHelper::BytesPerUnit=0
    expect_error packet-attr-address 'invalid --ns3::MoseTopologyHelper::AddressBase = "abc": an IPv4 address' \
        "$PACKET" $P16 --ns3::MoseTopologyHelper::AddressBase=abc
    expect_error packet-attr-enum 'invalid --ns3::MoseRouteTable::Rule = "ECMP": allowed values are shortest-path' \
        "$PACKET" $P16 --ns3::MoseRouteTable::Rule=ECMP
    expect_error packet-attr-type 'invalid --ns3::MoseFoo::Bar = "1": there is no type ns3::MoseFoo' \
        "$PACKET" $P16 --ns3::MoseFoo::Bar=1
    expect_error packet-attr-name 'ns3::MoseOcs has no attribute Dela; its attributes are DataRate, Delay' \
        "$PACKET" $P16 --ns3::MoseOcs::Dela=1
    expect_error packet-attr-typeid 'invalid --ns3::MoseTrafficHelper::SocketFactory = "ns3::Nope": the name of a type' \
        "$PACKET" $P16 --ns3::MoseTrafficHelper::SocketFactory=ns3::Nope
    expect_error packet-socket-factory 'SocketFactory = ns3::MoseOcs: not a socket factory' \
        "$PACKET" $P16 --ns3::MoseTrafficHelper::SocketFactory=ns3::MoseOcs
    expect_error packet-udp-send-size 'SendSize = 70000: a UDP datagram carries at most 65507 bytes' \
        "$PACKET" $P16 --ns3::MoseTrafficHelper::SocketFactory=ns3::UdpSocketFactory \
        --ns3::MoseTrafficHelper::SendSize=70000
    expect_error packet-policies-twice 'invalid --policies = "MoSE,MoSE": MoSE is named twice' \
        "$PACKET" --policies=MoSE,MoSE --plot=false
    expect_error packet-policies-empty-item 'invalid --policies = "MoSE,,S-Inf": an item of the comma-separated list is empty' \
        "$PACKET" --policies=MoSE,,S-Inf --plot=false
    }
    # UDP: no transfer receives more bytes than it was given (the last datagram is short)
    expect_ok packet-udp 'circuits whose payload bytes' \
        "$PACKET" --nodes=16 --flows=40 --policies=MoSE --plot=false --outputDir="$WORK/packet-udp" \
        --ns3::MoseTrafficHelper::SocketFactory=ns3::UdpSocketFactory \
        --ns3::MoseTrafficHelper::UdpDataRate=1Gbps
    CASES=$((CASES + 1))
    if awk -F, 'NR > 1 && ($7 > $6 || $11 != 1) { bad = 1 } END { exit bad || NR < 2 }' \
        "$WORK/packet-udp/inference-heavy_MoSE_transfers.csv"; then
        echo "ok   packet-udp-exact-bytes"
    else
        echo "FAIL packet-udp-exact-bytes: a UDP transfer received more than its bytes, or did not finish"
        FAILED=$((FAILED + 1))
    fi
    # the fluid and aggregate levels (--level): one level per run; an option or attribute that
    # acts on packets only is refused there, naming it
    expect_error packet-level-both 'invalid --level = "both": one level, packet, fluid or aggregate' \
        "$PACKET" --level=both --plot=false
    expect_error packet-level-name 'invalid --level = "foo": packet, fluid, aggregate' \
        "$PACKET" --level=foo --plot=false
    expect_error packet-fluid-flow-monitor 'invalid --flowMonitor = false: the option would not be used' \
        "$PACKET" --level=fluid --flowMonitor=false --plot=false
    expect_error packet-fluid-socket 'invalid --ns3::MoseTrafficHelper::SocketFactory = "ns3::UdpSocketFactory": the attribute would not be used: the fluid level' \
        "$PACKET" --level=fluid --ns3::MoseTrafficHelper::SocketFactory=ns3::UdpSocketFactory --plot=false
    expect_error packet-aggregate-queue-disc 'invalid --ns3::MoseTopologyHelper::QueueDiscType = "ns3::FqCoDelQueueDisc": the attribute would not be used: the aggregate level' \
        "$PACKET" --level=aggregate --ns3::MoseTopologyHelper::QueueDiscType=ns3::FqCoDelQueueDisc --plot=false
    expect_error packet-fluid-tcp-delack 'invalid --ns3::TcpSocket::DelAckTimeout = "1ms": the attribute would not be used' \
        "$PACKET" --level=fluid --ns3::TcpSocket::DelAckTimeout=1ms --plot=false
    expect_error packet-fluid-tcp-variant 'invalid --ns3::MoseTrafficHelper::TcpVariant = "ns3::TcpVegas": ns3::TcpCubic or ns3::TcpNewReno at the fluid level' \
        "$PACKET" --level=fluid --ns3::MoseTrafficHelper::TcpVariant=ns3::TcpVegas --plot=false
    expect_error packet-fluid-ecmp 'invalid --routing = "ecmp": shortest-path or random-shortest-path at the fluid level' \
        "$PACKET" --level=fluid --routing=ecmp --plot=false
    expect_ok packet-fluid-small 'circuits whose payload bytes = flow-level load x bytes per unit: 32 of 32' \
        "$PACKET" --level=fluid --nodes=16 --flows=40 --policies=MoSE --plot=false \
        --outputDir="$WORK/packet-fluid"
    # the packet level's files and columns; what only packets have is "n/a"
    CASES=$((CASES + 1))
    if [ "$(head -1 "$WORK/packet-fluid/inference-heavy_MoSE_summary.csv")" = \
        "$(head -1 "$WORK/packet/inference-heavy_MoSE_summary.csv")" ] \
        && grep -q '^kv,.*,n/a,n/a$' "$WORK/packet-fluid/inference-heavy_MoSE_summary.csv" \
        && grep -q '^total,n/a$' "$WORK/packet-fluid/inference-heavy_MoSE_losses.csv"; then
        echo "ok   packet-fluid-files"
    else
        echo "FAIL packet-fluid-files: the fluid level's summary.csv or losses.csv differ in shape"
        FAILED=$((FAILED + 1))
    fi
fi

# --- mose-mode-switch
SWITCH="$BIN/mose-mode-switch"
if [ -x "$SWITCH" ]; then
    expect_error switch-seeds-bound 'invalid --seeds = "4000000000": 4000000000 seeds keep at least 300.0 TB' \
        "$SWITCH" --seeds=4000000000 --policies=MoSE,S-Inf
    expect_error switch-policy 'invalid --policies = "foo"' "$SWITCH" --policies=foo --plot=false
    expect_error switch-compare-gone 'Invalid command-line argument: --compare' "$SWITCH" --compare=false --plot=false
    expect_error switch-distributed-no-mpi 'this ns-3 build has no MPI module' \
        "$SWITCH" --distributed --nodes=16 --plot=false
    expect_error switch-construction 'invalid --construction = "keep-all"' "$SWITCH" --construction=keep-all --plot=false
    expect_error switch-schedule-zero 'invalid --schedule period 2 duration = 0 s: every period' \
        "$SWITCH" --schedule=inference-heavy:200ms,training-heavy:0 --plot=false
    expect_error switch-schedule-mode 'invalid --schedule period 1 mode = "bar"' \
        "$SWITCH" --schedule=bar:0.2s --plot=false
    expect_error switch-schedule-time 'invalid --schedule period 2 duration = "soon"' \
        "$SWITCH" --schedule=inference-heavy:0.2s,training-heavy:soon --plot=false
    expect_error switch-schedule-old-form 'invalid --schedule period 1 = "0.2s:training-heavy": the mode comes first: a schedule is MODE:DURATION periods' \
        "$SWITCH" --schedule=0.2s:training-heavy,0.4s:inference-heavy --plot=false
    expect_error switch-schedule-first 'the first period must last longer than the first transfers' \
        "$SWITCH" --schedule=inference-heavy:1ms,training-heavy:10ms --plot=false
    # a period between two switches shorter than the longest switch: named as the --schedule
    # period, before the run (the switcher's "schedule[1].at" before)
    expect_error switch-schedule-gap 'invalid --schedule period 2 duration = 0.005 s: every period between two switches must last more than Phases x (DrainTimeout + ReconfigurationDelay) = 0.11 s' \
        "$SWITCH" --schedule=inference-heavy:0.25s,training-heavy:5ms,inference-heavy:0.25s --plot=false
    expect_error switch-last-interval 'Invalid command-line argument: --lastInterval' \
        "$SWITCH" --lastInterval=0.2s --plot=false
    expect_error switch-transport-bad 'invalid --transport = "RDMA"' \
        "$SWITCH" --transport=RDMA --plot=false
    expect_error switch-ecn-with-tcp 'invalid --ecnPmax = "0.1": the option would not be used: only with --transport=rdma' \
        "$SWITCH" --transport=tcp --ecnPmax=0.1 --plot=false
    expect_error switch-ecn-fluid 'invalid --ecnKmin = "10": the option would not be used: the fluid' \
        "$SWITCH" --transport=rdma --level=fluid --ecnKmin=10 --plot=false
    expect_error switch-pfc-with-tcp 'invalid --pfc = true: only with --transport=rdma' \
        "$SWITCH" --pfc --plot=false
    # the table of doc/mose.rst, Where each option acts
    expect_error switch-scope-pfc-fluid 'invalid --pfc = "false": the option would not be used at the fluid level: it acts at the packet level only' \
        "$SWITCH" --transport=rdma --level=fluid --pfc=false --plot=false
    expect_error switch-scope-tolerance-one-policy 'invalid --tolerance = "0.05": the option would not be used with one policy (--policies): it acts only with several policies' \
        "$SWITCH" --policies=MoSE --tolerance=0.05 --plot=false
    expect_error switch-ecn-kmax-above-queue 'invalid --ecnKmax = "5000": at most the ports'"'"' queue of 1000 packets' \
        "$SWITCH" --transport=rdma --ecnKmax=5000 --plot=false
    expect_error switch-rdma-socket-factory 'SocketFactory' \
        "$SWITCH" --transport=rdma --ns3::MoseTrafficHelper::SocketFactory=ns3::UdpSocketFactory --plot=false
    expect_error switch-stop 'invalid --stopTime = "soon": a duration >= 0' \
        "$SWITCH" --stopTime=soon --plot=false
    expect_error switch-bad-bool 'invalid --writeScenario = "maybe"' "$SWITCH" --writeScenario=maybe
    # time options: the text as typed, ns-3's time range
    expect_error switch-bin-width 'invalid --binWidth = "1ns": a positive duration, at most 1e8 bins up to --stopTime = "30s"' \
        "$SWITCH" --binWidth=1ns --plot=false
    expect_error switch-stop-range 'invalid --stopTime = "1e308s": a duration from 1ns to' \
        "$SWITCH" --stopTime=1e308s --plot=false
    expect_error switch-window-range 'invalid --startWindow = "1e-12": a duration from 1ns to' \
        "$SWITCH" --startWindow=1e-12 --plot=false
    # the verdict over seeds: its tie band, seeds only with a comparison, no threads
    expect_error switch-tolerance-negative 'invalid --tolerance = "-0.1": a relative difference from 0 to below 1' \
        "$SWITCH" --tolerance=-0.1 --plot=false
    expect_error switch-tolerance-one 'invalid --tolerance = "1": a relative difference from 0 to below 1' \
        "$SWITCH" --tolerance=1 --plot=false
    expect_error switch-tolerance-text 'invalid --tolerance = "tight"' \
        "$SWITCH" --tolerance=tight --plot=false
    expect_error switch-seeds-zero 'invalid --seeds' "$SWITCH" --seeds=0 --plot=false
    expect_error switch-seeds-one-policy 'invalid --seeds = "2": 1 with one policy' \
        "$SWITCH" --seeds=2 --policies=MoSE --plot=false
    expect_error switch-threads-unused 'invalid --threads = "2": the option would not be used' \
        "$SWITCH" --threads=2 --plot=false
    # module attributes that an option sets: both given and different, or set by the program
    expect_error switch-attr-groups '--nodes = "64" and --ns3::MoseTopologyHelper::Groups = "32" disagree: give one' \
        "$SWITCH" --nodes=64 --ns3::MoseTopologyHelper::Groups=32 --plot=false
    expect_error switch-attr-rule '--routing = "ecmp" and --ns3::MoseRouteTable::Rule = "shortest-path" disagree' \
        "$SWITCH" --routing=ecmp --ns3::MoseRouteTable::Rule=shortest-path --plot=false
    expect_error switch-attr-window '--startWindow = "20ms" and --ns3::MoseTrafficHelper::StartWindow = "10ms" disagree' \
        "$SWITCH" --startWindow=20ms --ns3::MoseTrafficHelper::StartWindow=10ms --plot=false
    expect_error switch-attr-start-mode 'invalid --ns3::MoseTrafficHelper::StartMode = "poisson": the attribute would not be used' \
        "$SWITCH" --ns3::MoseTrafficHelper::StartMode=poisson --plot=false
    expect_error switch-attr-seed 'invalid --ns3::MoseRouteTable::Seed = "5": the attribute would not be used' \
        "$SWITCH" --ns3::MoseRouteTable::Seed=5 --plot=false
    # the attribute alone wins: N = 16 from Groups, and the same files as --nodes=16
    expect_ok switch-attr-groups-alone 'N=16' \
        "$SWITCH" --ns3::MoseTopologyHelper::Groups=16 --flows=40 --policies=MoSE \
        --schedule=inference-heavy:150ms,training-heavy:150ms,inference-heavy:150ms \
        --startWindow=20ms --plot=false --outputDir="$WORK/switch-groups-attr"
    expect_ok switch-attr-groups-option 'N=16' \
        "$SWITCH" --nodes=16 --flows=40 --policies=MoSE \
        --schedule=inference-heavy:150ms,training-heavy:150ms,inference-heavy:150ms \
        --startWindow=20ms --plot=false --outputDir="$WORK/switch-groups-option"
    expect_same switch-attr-groups-same "$WORK/switch-groups-attr/MoSE_transfers.csv" \
        "$WORK/switch-groups-option/MoSE_transfers.csv"
    # without the hold queue a transfer that opens its connection in a blackout loses its SYN
    # (counted: no route) and completes on the retransmission; before, its Connect() failed for
    # good: 0 bytes, no drop counted, no word
    expect_ok switch-no-hold 'whole run: 52 of 52 transfers completed' \
        "$SWITCH" --nodes=16 --flows=40 --policies=MoSE \
        --schedule=inference-heavy:150ms,training-heavy:150ms,inference-heavy:150ms \
        --startWindow=20ms --plot=false --outputDir="$WORK/switch-no-hold" \
        --ns3::MoseRoutingProtocol::HoldPackets=false
    CASES=$((CASES + 1))
    if grep -qF 'packets lost in the interval 13 (no-route 13)' "$WORK/out"; then
        echo "ok   switch-no-hold-losses-counted"
    else
        echo "FAIL switch-no-hold-losses-counted: the SYNs without a route are not counted"
        FAILED=$((FAILED + 1))
    fi
    expect_ok switch-small 'verdict: switching' \
        "$SWITCH" --nodes=16 --flows=40 \
        --schedule=inference-heavy:150ms,training-heavy:150ms,inference-heavy:150ms \
        --startWindow=20ms --plot=false --outputDir="$WORK/switch"
    # many runs (issue 40): seed x policy as a list of runs, a process per run, as mose-packet's
    SWL="--nodes=16 --flows=40 --policies=MoSE,S-Train --seeds=2 --schedule=inference-heavy:150ms,training-heavy:150ms,inference-heavy:150ms --startWindow=20ms --plot=false"
    # shellcheck disable=SC2086  # SWL is a list of options
    {
    expect_error switch-jobs-zero 'invalid --jobs = "0": the workers, a whole number 1 or more' "$SWITCH" $SWL --jobs=0
    expect_error switch-jobs-text 'invalid --jobs = "all": the workers' "$SWITCH" $SWL --jobs=all
    expect_error switch-part-above 'invalid --part = "3/2": I/K with 1 <= I <= K' "$SWITCH" $SWL --part=3/2
    expect_error switch-part-more-than-runs 'invalid --part = "1/5": 5 parts of a list of 4 runs' \
        "$SWITCH" $SWL --part=1/5 --outputDir="$WORK/sw5"
    expect_error switch-runs-out-of-list 'invalid --runs = "4": run 4 is not in the list: its 4 runs are 0 to 3' \
        "$SWITCH" $SWL --runs=4 --outputDir="$WORK/sw4"
    expect_error switch-runs-and-part '--runs = "0" and --part = "1/2" both choose runs: give one' \
        "$SWITCH" $SWL --runs=0 --part=1/2
    expect_error switch-merge-and-jobs '--jobs = "2" and --merge = "x": --merge runs nothing' \
        "$SWITCH" $SWL --merge=x --jobs=2
    expect_error switch-merge-no-records 'invalid --merge: "'"$WORK"'/none" has no folder runs/ of run records' \
        "$SWITCH" $SWL --merge="$WORK/none" --outputDir="$WORK/swm0"
    expect_ok switch-list "3,1,2,S-Train" "$SWITCH" $SWL --listRuns
    expect_ok switch-one-worker "verdict with 95% confidence over 2 seeds" "$SWITCH" $SWL --writeScenario --outputDir="$WORK/sw1"
    expect_ok switch-two-workers "verdict with 95% confidence over 2 seeds" "$SWITCH" $SWL --writeScenario --jobs=2 --outputDir="$WORK/sw2"
    expect_ok switch-part-1 "part 1/2: 2 of 4 runs done" "$SWITCH" $SWL --writeScenario --part=1/2 --outputDir="$WORK/swp1"
    expect_error switch-merge-part-missing 'the mose-mode-switch study is not whole: 2 of 4 runs have no record in '"$WORK"'/swp1/runs (the first, run 1: seed 0 (run 1), S-Train' \
        "$SWITCH" $SWL --writeScenario --merge="$WORK/swp1" --outputDir="$WORK/swm1"
    expect_ok switch-part-2 "part 2/2: 2 of 4 runs done" "$SWITCH" $SWL --writeScenario --part=2/2 --outputDir="$WORK/swp2"
    expect_ok switch-merge "verdict with 95% confidence over 2 seeds" "$SWITCH" $SWL --writeScenario --merge="$WORK/swp1,$WORK/swp2" --outputDir="$WORK/swm"
    for f in comparison.csv MoSE_intervals.csv MoSE_transfers.csv S-Train_goodput.csv S-Train_circuits.csv flows_training.csv uniform.dot; do
        expect_same "switch-two-workers-same-$f" "$WORK/sw1/$f" "$WORK/sw2/$f"
        expect_same "switch-merge-same-$f" "$WORK/sw1/$f" "$WORK/swm/$f"
    done
    expect_error switch-merge-run-twice 'run 0 (seed 0 (run 1), MoSE) is given twice: '"$WORK"'/swp1/runs/run-000000.txt and '"$WORK"'/sw1/runs/run-000000.txt' \
        "$SWITCH" $SWL --writeScenario --merge="$WORK/swp1,$WORK/swp2,$WORK/sw1" --outputDir="$WORK/swm2"
    expect_error switch-merge-other-options "$WORK/swp1/runs/run-000000.txt was made with other options" \
        "$SWITCH" $SWL --merge="$WORK/swp1,$WORK/swp2" --outputDir="$WORK/swm3"
    expect_ok switch-resume-keeps "kept 4 of 4 runs that a run with the same options and build finished before" \
        "$SWITCH" $SWL --writeScenario --outputDir="$WORK/sw1"
    # a run's file cut after it ran: the merge names it
    printf 'x\n' >"$WORK/swp1/runs/run-000000.out.MoSE_intervals.csv"
    expect_error switch-merge-cut-file "$WORK/swp1/runs/run-000000.out.MoSE_intervals.csv is not the file its run wrote" \
        "$SWITCH" $SWL --writeScenario --merge="$WORK/swp1,$WORK/swp2" --outputDir="$WORK/swm4"
    }
    # the fluid and aggregate levels (--level): one level per run; what acts on packets only is
    # refused there, naming it; the same files, with "n/a" where only packets have a figure
    expect_error switch-level-both 'invalid --level = "both": one level, packet, fluid or aggregate' \
        "$SWITCH" --level=both --plot=false
    expect_error switch-fluid-hold 'invalid --ns3::MoseRoutingProtocol::HoldPackets = "false": the attribute would not be used: the fluid level' \
        "$SWITCH" --level=fluid --ns3::MoseRoutingProtocol::HoldPackets=false --plot=false
    expect_error switch-aggregate-ecmp 'invalid --routing = "ecmp": shortest-path or random-shortest-path at the aggregate level' \
        "$SWITCH" --level=aggregate --routing=ecmp --plot=false
    expect_ok switch-fluid-small 'verdict: switching' \
        "$SWITCH" --level=fluid --nodes=16 --flows=40 \
        --schedule=inference-heavy:150ms,training-heavy:150ms,inference-heavy:150ms \
        --startWindow=20ms --plot=false --outputDir="$WORK/switch-fluid"
    CASES=$((CASES + 1))
    if [ "$(head -1 "$WORK/switch-fluid/comparison.csv")" = "$(head -1 "$WORK/switch/comparison.csv")" ] \
        && grep -q '^MoSE,.*,n/a,n/a,n/a$' "$WORK/switch-fluid/comparison.csv" \
        && [ "$(head -1 "$WORK/switch-fluid/MoSE_intervals.csv")" = \
            "$(head -1 "$WORK/switch/MoSE_intervals.csv")" ]; then
        echo "ok   switch-fluid-files"
    else
        echo "FAIL switch-fluid-files: the fluid level's comparison.csv or intervals.csv differ in shape"
        FAILED=$((FAILED + 1))
    fi
fi

# --- mose-break-even
BREAK="$BIN/mose-break-even"
if [ -x "$BREAK" ]; then
    expect_error break-metric 'invalid --metric = "foo": allowed values are avg_cost' \
        "$BREAK" --metric=foo
    expect_error break-dark-negative 'invalid --darkTime = "-1": a duration >= 0' \
        "$BREAK" --darkTime=-1
    expect_error break-dark-text 'invalid --darkTime = "25 ms": a duration >= 0: a number with an optional unit' \
        "$BREAK" "--darkTime=25 ms"
    expect_error break-schedule-old-form 'the mode comes first: a schedule is MODE:DURATION periods' \
        "$BREAK" --schedule=0.2s:training-heavy
    expect_error break-dark-inf 'invalid --darkTime = "inf"' "$BREAK" --darkTime=inf
    # known before the study: drawn flows bound the cost rates (the penalty can overflow)
    expect_error break-dark-huge 'invalid --darkTime = "1e308" with --unservedFactor = "1": a switch'"'"'s penalty' \
        "$BREAK" $SMALL --seeds=1 --plot=false --progress=false --outputDir="$WORK/break-huge" \
        --darkTime=1e308
    expect_error break-factor 'invalid --unservedFactor = "-2": a finite number >= 0' \
        "$BREAK" --unservedFactor=-2
    expect_error break-share 'invalid --unservedShare = "1.5": a share in [0, 1]' \
        "$BREAK" --unservedShare=1.5
    expect_error break-share-empty 'invalid --unservedShare = "": the value is empty' \
        "$BREAK" --unservedShare=
    expect_error break-schedule-colon 'invalid --schedule period 1 = "inference-heavy"' \
        "$BREAK" --schedule=inference-heavy
    expect_error break-schedule-mode 'invalid --schedule period 2 mode = "bar"' \
        "$BREAK" --schedule=inference-heavy:10,bar:5
    expect_error break-schedule-negative 'invalid --schedule period 2 duration = "-5"' \
        "$BREAK" --schedule=inference-heavy:10,training-heavy:-5
    expect_error break-schedule-trailing 'invalid --schedule period 2 = ' \
        "$BREAK" --schedule=inference-heavy:10,
    # the default schedule's options with --schedule (doc/mose.rst, Where each option acts)
    expect_error break-even-scope-cycles 'invalid --cycles = "3": the option would not be used with --schedule: it acts only with the default schedule' \
        "$BREAK" --schedule=inference-heavy:1,training-heavy:1 --cycles=3
    expect_error break-even-scope-mode-duration 'invalid --modeDuration = "2": the option would not be used with --schedule' \
        "$BREAK" --schedule=inference-heavy:1,training-heavy:1 --modeDuration=2
    expect_error break-schedule-zero 'the durations add up to 0 s' \
        "$BREAK" --schedule=inference-heavy:0,training-heavy:0
    expect_error break-schedule-overflow 'the durations add up to more than' \
        "$BREAK" --schedule=inference-heavy:1e308,training-heavy:1e308
    expect_error break-mode-duration 'invalid --modeDuration = "0": a finite number of seconds > 0' \
        "$BREAK" --modeDuration=0
    expect_error break-cycles 'invalid --cycles = "0": at least 1 cycle' "$BREAK" --cycles=0
    expect_error break-cycles-negative 'invalid --cycles = "-1"' "$BREAK" --cycles=-1
    expect_error break-min-duration 'invalid --minDuration = "0"' "$BREAK" --minDuration=0
    expect_error break-max-duration 'invalid --maxDuration = "1e-4": a number of seconds > --minDuration' \
        "$BREAK" --maxDuration=1e-4
    expect_error break-points 'invalid --points = "1": 2 <= points <= 100000' "$BREAK" --points=1
    expect_error break-bad-bool 'invalid --plot = "maybe"' "$BREAK" --plot=maybe
    expect_error break-nodes 'invalid --nodes = "10x"' "$BREAK" --nodes=10x
    expect_ok break-small 'Break-even mode duration T*' \
        "$BREAK" $SMALL --seeds=2 --plot=false --progress=false --outputDir="$WORK/break" \
        --schedule=inference-heavy:3600,training-heavy:600
    # units: the same schedule and dark time written with units give the same files
    expect_ok break-small-units 'Break-even mode duration T*' \
        "$BREAK" $SMALL --seeds=2 --plot=false --progress=false --outputDir="$WORK/break-units" \
        --schedule=inference-heavy:1h,training-heavy:10min --darkTime=25ms
    for f in rates per_seed break_even schedule cost_vs_duration; do
        expect_same "break-units-$f" "$WORK/break/$f.csv" "$WORK/break-units/$f.csv"
    done
    # shellcheck disable=SC2086  # SMALL is a list of options
    seeds_as_runs mose-break-even "$BREAK" 'Break-even mode duration T*' $SMALL --seeds=3 --plot=false
fi

# --- mose-sweep
SWEEP="$BIN/mose-sweep"
if [ -x "$SWEEP" ]; then
    expect_error sweep-degree-small 'invalid --sweepDegrees = 2: need 3 <= d' \
        "$SWEEP" --sweepDegrees=2:5
    expect_error sweep-degree-text 'invalid --sweepDegrees = "x"' "$SWEEP" --sweepDegrees=4,x
    expect_error sweep-degree-empty-item 'invalid --sweepDegrees = "4,,8": an item' \
        "$SWEEP" --sweepDegrees=4,,8
    expect_error sweep-range-reversed 'invalid --sweepNodes = "1024:256": a range a:b needs a <= b' \
        "$SWEEP" --sweepNodes=1024:256
    expect_error sweep-range-step 'invalid --sweepNodes = "256:1024:0": the step' \
        "$SWEEP" --sweepNodes=256:1024:0
    expect_error sweep-range-huge 'the list has more than 10000 values' \
        "$SWEEP" --sweepNodes=16:4000000000
    expect_error sweep-nodes-small 'invalid --sweepNodes = 8: need 16 <= N' "$SWEEP" --sweepNodes=8
    expect_error sweep-r-above 'invalid --sweepR = 17: need r <= d for some swept d' \
        "$SWEEP" --sweepR=3,17
    expect_error sweep-r-word 'invalid --sweepR = "some"' "$SWEEP" --sweepR=some
    expect_error sweep-share-zero 'invalid --sweepKvShare = 0: a share must lie in (0, 1]' \
        "$SWEEP" --sweepKvShare=0
    expect_error sweep-share-text 'invalid --sweepKvShare = "0.7x"' "$SWEEP" --sweepKvShare=0.7x
    expect_error sweep-construction 'invalid --sweepConstruction = "new"' \
        "$SWEEP" --sweepConstruction=fresh,new
    expect_error sweep-twice 'invalid --sweepDegrees = "4,4": 4 is named twice' \
        "$SWEEP" --sweepDegrees=4,4
    expect_error sweep-degree-option 'invalid --degree = "8": a sweep takes d from --sweepDegrees' \
        "$SWEEP" --degree=8
    # many runs (issue 40): the points as a list of runs on worker threads
    SWP="--sweepNodes=64 --sweepDegrees=4,6 --sweepR=0,3 --flows=500 --seeds=2 --plot=false"
    # shellcheck disable=SC2086  # SWP is a list of options
    {
    expect_error sweep-jobs-zero 'invalid --jobs = "0": the workers, a whole number 1 or more' "$SWEEP" $SWP --jobs=0
    expect_error sweep-jobs-and-threads '--jobs = "2" and --threads = "2": both set the worker threads' \
        "$SWEEP" $SWP --jobs=2 --threads=2
    expect_error sweep-part-above 'invalid --part = "0/2": I/K with 1 <= I <= K' "$SWEEP" $SWP --part=0/2
    expect_error sweep-runs-out-of-list 'invalid --runs = "8": run 8 is not in the list: its 8 runs are 0 to 7' \
        "$SWEEP" $SWP --runs=8 --outputDir="$WORK/sw8"
    expect_ok sweep-list "3,N=64 d=6 r=3 rho=0.7" "$SWEEP" $SWP --sweepConstruction=fresh --listRuns
    expect_ok sweep-threads "sweep.csv and skipped.csv written" "$SWEEP" $SWP --threads=1 --outputDir="$WORK/sw1"
    expect_ok sweep-two-workers "sweep.csv and skipped.csv written" "$SWEEP" $SWP --jobs=2 --outputDir="$WORK/sw2"
    expect_ok sweep-part-1 "part 1/3:" "$SWEEP" $SWP --part=1/3 --outputDir="$WORK/swp"
    expect_ok sweep-part-2 "part 2/3:" "$SWEEP" $SWP --part=2/3 --outputDir="$WORK/swp"
    expect_ok sweep-part-3 "part 3/3:" "$SWEEP" $SWP --part=3/3 --jobs=2 --outputDir="$WORK/swp3"
    expect_ok sweep-merge "sweep.csv and skipped.csv written" "$SWEEP" $SWP --merge="$WORK/swp,$WORK/swp3" --outputDir="$WORK/swm"
    for f in sweep.csv skipped.csv; do
        expect_same "sweep-two-workers-same-$f" "$WORK/sw1/$f" "$WORK/sw2/$f"
        expect_same "sweep-merge-same-$f" "$WORK/sw1/$f" "$WORK/swm/$f"
    done
    expect_error sweep-merge-other-study "was made with other options" \
        "$SWEEP" $SWP --seeds=3 --merge="$WORK/swp,$WORK/swp3" --outputDir="$WORK/swm2"
    # a folder of another program (mose-packet's parts): another study's records, named
    expect_error sweep-merge-other-program "$WORK/pkp1/runs/run-000000.txt was made with other options" \
        "$SWEEP" $SWP --merge="$WORK/pkp1" --outputDir="$WORK/swm3"
    }
    expect_error sweep-flows-file 'invalid --inferenceFlowsFile = "'"$WORK/flows.csv"'": a sweep draws' \
        "$SWEEP" --inferenceFlowsFile="$WORK/flows.csv"
    expect_error sweep-empty-value 'invalid --sweepR = "": the value is empty' "$SWEEP" --sweepR=
    expect_error sweep-bad-bool 'invalid --plot = "maybe"' "$SWEEP" --plot=maybe
    expect_error sweep-rngrun 'invalid --RngRun = "-1"' "$SWEEP" --RngRun=-1
    # --nodes names the point of the role counts given (doc/mose.rst, Where each option acts)
    expect_error sweep-scope-nodes 'invalid --nodes = "64": the option would not be used without a role count' \
        "$SWEEP" --nodes=64 --sweepNodes=64,128
    expect_ok sweep-small 'skipped): sweep.csv and skipped.csv written' \
        "$SWEEP" --nodes=64 --sweepNodes=64 --sweepDegrees=4 --sweepConstruction=fresh \
        --prefill=24 --decode=24 --training=16 --trPrefill=8 --trDecode=8 --trTraining=48 \
        --flows=500 --plot=false --progress=false --outputDir="$WORK/sweep"
fi

# --- mose-regime-figure: the maps it merges
FIG="$BIN/mose-regime-figure"
if [ -x "$FIG" ]; then
    printf 'level,load_per_s,interval_s,dark_s,samples,margin_mean,margin_ci_low,margin_ci_high,ci_verdict,best_static,flow_break_even_s\n' >"$WORK/map-head.csv"
    { cat "$WORK/map-head.csv"; echo 'aggregate,25,1,0.01,20,0.03,0.025,0.035,does-not-pay,S-Train,0.017'; } >"$WORK/map-a.csv"
    { cat "$WORK/map-head.csv"; echo 'aggregate,25,1x,0.01,20,0.03,0.025,0.035,does-not-pay,S-Train,'; } >"$WORK/map-bad.csv"
    { cat "$WORK/map-head.csv"; echo 'fluid,800,1,0.01,20,0.03,0.025,0.035,does-not-pay,S-Train,'; } >"$WORK/map-fluid.csv"
    expect_error figure-no-maps 'invalid --maps = "": one or more regime_map.csv files' "$FIG"
    expect_error figure-empty-item 'invalid --maps = "a.csv,,b.csv": an item of the comma-separated list is empty' \
        "$FIG" --maps=a.csv,,b.csv
    expect_error figure-missing 'cannot open /nonexistent/regime_map.csv' \
        "$FIG" --maps=/nonexistent/regime_map.csv --outputDir="$WORK/fig"
    expect_error figure-malformed "map-bad.csv:2: column interval_s = \"1x\"" \
        "$FIG" --maps="$WORK/map-bad.csv" --outputDir="$WORK/fig"
    expect_error figure-twice 'load 25/s, T 1 s, dark 10 ms is there twice' \
        "$FIG" --maps="$WORK/map-a.csv,$WORK/map-a.csv" --outputDir="$WORK/fig"
    expect_error figure-levels 'is not the level of the cells before (aggregate)' \
        "$FIG" --maps="$WORK/map-a.csv,$WORK/map-fluid.csv" --outputDir="$WORK/fig"
    expect_error figure-other-band 'does not follow from its interval with a tie band of +-5%' \
        "$FIG" --maps="$WORK/map-a.csv" --tolerance=0.05 --outputDir="$WORK/fig"
    expect_error figure-tolerance 'invalid --tolerance = "-1": a finite number >= 0' \
        "$FIG" --maps="$WORK/map-a.csv" --tolerance=-1
    expect_ok figure-ok 'with 95% confidence switching pays in 0 of 1 cells' \
        "$FIG" --maps="$WORK/map-a.csv" --plot=false --outputDir="$WORK/fig"
    # a title is text, never a command: quotes, backslashes and system() are drawn as typed; a
    # line break is refused (gnuplot ends a command there)
    expect_error figure-title-newline 'invalid --title = "a\x0Ab": a text of one line' \
        "$FIG" --maps="$WORK/map-a.csv" --title="a
b" --outputDir="$WORK/fig"
    if command -v gnuplot >/dev/null 2>&1; then
        expect_ok figure-title-hostile 'and regime_grid.png' \
            "$FIG" --maps="$WORK/map-a.csv" --outputDir="$WORK/fig-title" \
            --title="x\" . system(\"touch $WORK/pwned\") . \"\\ \`touch $WORK/pwned2\` '"
        CASES=$((CASES + 1))
        if [ -e "$WORK/pwned" ] || [ -e "$WORK/pwned2" ] || [ ! -s "$WORK/fig-title/regime_grid.png" ]; then
            echo "FAIL figure-title-ran: a command ran, or the PNG is missing or empty"
            FAILED=$((FAILED + 1))
        else
            echo "ok   figure-title-ran"
        fi
    fi
    # --regime: the maps' regime for the validated error beside each cell
    expect_error figure-regime-key 'invalid --regime = "nodes=64,degree=8": no transport' \
        "$FIG" --maps="$WORK/map-a.csv" --regime=nodes=64,degree=8 --outputDir="$WORK/fig"
    expect_error figure-regime-transport 'invalid --regime transport = "udp": tcp or rdma' \
        "$FIG" --maps="$WORK/map-a.csv" --regime=nodes=64,degree=8,transport=udp --outputDir="$WORK/fig"
    expect_error figure-regime-unknown '"speed=1" is not KEY=VALUE' \
        "$FIG" --maps="$WORK/map-a.csv" --regime=nodes=64,degree=8,transport=tcp,speed=1 --outputDir="$WORK/fig"
    expect_error figure-regime-compare 'invalid --regime = "nodes=64,degree=8,transport=tcp": the option would not be used in a comparison' \
        "$FIG" --compare=a.csv,b.csv --regime=nodes=64,degree=8,transport=tcp
    expect_ok figure-regime-ok 'within the validated margin error of the tie band: 0 of 1 cells' \
        "$FIG" --maps="$WORK/map-a.csv" --regime=nodes=64,degree=8,transport=tcp --plot=false --outputDir="$WORK/fig-regime"
    # --compare: two maps' files run apart, compared per cell and policy
    expect_error figure-compare-one 'invalid --compare = "a.csv": two regime_map.csv files' \
        "$FIG" --compare=a.csv
    expect_error figure-compare-and-maps 'either --maps (merge) or --compare (two maps)' \
        "$FIG" --compare=a.csv,b.csv --maps=a.csv
    expect_error figure-compare-columns "map-a.csv:1: no column verdict" \
        "$FIG" --compare="$WORK/map-a.csv,$WORK/map-a.csv" --outputDir="$WORK/fig"
fi

# --- an output folder that cannot be created or written: rejected before the run, every program
: >"$WORK/a-file"
for prog in mose-packet mose-mode-switch mose-paper mose-sweep mose-break-even mose-baselines \
    mose-templates mose-regime-figure; do
    [ -x "$BIN/$prog" ] || continue
    expect_error "$prog-output-under-file" "invalid --outputDir = \"$WORK/a-file/x\": cannot create folder" \
        "$BIN/$prog" --outputDir="$WORK/a-file/x"
    expect_error "$prog-output-proc" 'invalid --outputDir = "/proc/mose-out": cannot create folder' \
        "$BIN/$prog" --outputDir=/proc/mose-out
done
# the flow-level programs create no ns-3 object of the module: its attributes are refused
for prog in mose-paper mose-sweep mose-break-even mose-baselines mose-templates \
    mose-regime-figure; do
    [ -x "$BIN/$prog" ] || continue
    expect_error "$prog-module-attribute" "invalid --ns3::MoseTopologyHelper::Groups = \"32\": the attribute would not be used: $prog works at the flow level" \
        "$BIN/$prog" --ns3::MoseTopologyHelper::Groups=32
done
[ -x "$BIN/mose-fabric" ] && expect_error fabric-attr-groups '--groups = "32" and --ns3::MoseTopologyHelper::Groups = "16" disagree' \
    "$BIN/mose-fabric" --groups=32 --ns3::MoseTopologyHelper::Groups=16
# mose-templates runs one seed: the --RngRun limit names no --seeds
[ -x "$TPL" ] && expect_error templates-rngrun-max 'invalid --RngRun = "18446744073709551615": at most 18446744073709551614 (this program runs one seed' \
    "$TPL" --RngRun=18446744073709551615
# the module's attributes in the mode switcher: what ns-3's CommandLine rejected without a reason
if [ -x "$SWITCH" ]; then
    expect_error switch-attr-drain-timeout 'invalid --ns3::MoseModeSwitcher::DrainTimeout = "0s": a time > 0' \
        "$SWITCH" --ns3::MoseModeSwitcher::DrainTimeout=0s
    expect_error switch-attr-phases 'invalid --ns3::MoseModeSwitcher::Phases = "0": an integer in uint32_t 1:4294967295' \
        "$SWITCH" --ns3::MoseModeSwitcher::Phases=0
    expect_error switch-attr-poll 'invalid --ns3::MoseModeSwitcher::DrainPollInterval = "0s": a time > 0' \
        "$SWITCH" --ns3::MoseModeSwitcher::DrainPollInterval=0s
    expect_error switch-attr-reconfiguration 'invalid --ns3::MoseModeSwitcher::ReconfigurationDelay = "-1ms": a time >= 0' \
        "$SWITCH" --ns3::MoseModeSwitcher::ReconfigurationDelay=-1ms
    # README's batched example (its schedule's boundaries are 200 ms apart: a switch must fit)
    expect_ok switch-readme-phases 'verdict' \
        "$SWITCH" --ns3::MoseModeSwitcher::Phases=4 --ns3::MoseModeSwitcher::ReconfigurationDelay=1ms \
        --ns3::MoseModeSwitcher::DrainTimeout=20ms --policies=MoSE --plot=false \
        --outputDir="$WORK/switch-phases"
fi

# --- one scenario, every program: the same scenario options give the same roles, P-D
# assignments, flows and circuit graphs in mose-templates, mose-packet and mose-mode-switch, and
# the packet programs run from mose-templates' files give the same results as from the options.
# same_scenario TAG FLOWS "GRAPH" "DRAW": GRAPH are options that shape the templates (N, d, r,
# completion, run), DRAW options of what the files replace (role counts, assignment); every
# one of the three programs takes both; the runs from files take GRAPH only
same_scenario() {
    tag=$1; flows=$2; G=$3; W=$4
    D="$WORK/same-$tag"
    T="$D/templates"
    # shellcheck disable=SC2086 # G and W are lists of options
    expect_ok "same-$tag-templates" "files written to $T/" \
        "$TPL" $G $W --flows="$flows" --progress=false --outputDir="$T"
    # shellcheck disable=SC2086
    expect_ok "same-$tag-packet" 'circuits whose payload bytes' \
        "$PACKET" $G $W --flows="$flows" --policies=S-Train,S-Inf,S-Comp,MoSE \
        --writeScenario=true --plot=false --outputDir="$D/packet"
    for f in roles_inference assignment_inference flows_inference; do
        expect_same "same-$tag-packet-$f" "$D/packet/$f.csv" "$T/$f.csv"
    done
    for pt in S-Train:uniform S-Inf:pd-biased S-Comp:compromise MoSE:pd-biased; do
        expect_same "same-$tag-packet-graph-${pt%%:*}" \
            "$D/packet/inference-heavy_${pt%%:*}_graph.csv" "$T/${pt#*:}.csv"
    done
    # shellcheck disable=SC2086
    expect_ok "same-$tag-switch" 'verdict' \
        "$SWITCH" $G $W --flows="$flows" --policies=MoSE --writeScenario=true --plot=false \
        --schedule=inference-heavy:60ms,training-heavy:60ms --startWindow=10ms \
        --outputDir="$D/switch"
    for f in uniform.csv pd-biased.csv compromise.csv uniform.dot pd-biased.dot compromise.dot \
        roles_inference.csv roles_training.csv assignment_inference.csv \
        assignment_training.csv flows_inference.csv flows_training.csv; do
        expect_same "same-$tag-switch-$f" "$D/switch/$f" "$T/$f"
    done
    # the inputs read back from mose-templates' files: the same packet-level results
    # shellcheck disable=SC2086
    expect_ok "same-$tag-packet-files" 'circuits whose payload bytes' \
        "$PACKET" $G --policies=MoSE --plot=false --outputDir="$D/packet-files" \
        --inferenceRolesFile="$T/roles_inference.csv" \
        --inferenceAssignmentFile="$T/assignment_inference.csv" \
        --inferenceFlowsFile="$T/flows_inference.csv" --graph="$T/pd-biased.csv"
    for f in transfers circuits summary losses; do
        expect_same "same-$tag-packet-files-$f" "$D/packet-files/inference-heavy_MoSE_$f.csv" \
            "$D/packet/inference-heavy_MoSE_$f.csv"
    done
    # shellcheck disable=SC2086
    expect_ok "same-$tag-switch-files" 'verdict' \
        "$SWITCH" $G --policies=MoSE --plot=false \
        --schedule=inference-heavy:60ms,training-heavy:60ms --startWindow=10ms \
        --outputDir="$D/switch-files" \
        --inferenceRolesFile="$T/roles_inference.csv" --trainingRolesFile="$T/roles_training.csv" \
        --inferenceAssignmentFile="$T/assignment_inference.csv" \
        --trainingAssignmentFile="$T/assignment_training.csv" \
        --inferenceFlowsFile="$T/flows_inference.csv" --trainingFlowsFile="$T/flows_training.csv"
    for f in intervals circuits goodput transfers; do
        expect_same "same-$tag-switch-files-$f" "$D/switch-files/MoSE_$f.csv" \
            "$D/switch/MoSE_$f.csv"
    done
}
if [ -x "$PACKET" ] && [ -x "$SWITCH" ]; then
    # the packet programs' default N with the paper's role shares of it
    same_scenario n64 300 "--nodes=64" ""
    # d = 8: r = d - 1 = 7 in every program
    same_scenario d8 200 "--nodes=64 --degree=8" ""
    # r = 0 (H^PD(0)), the random completion, another run; role counts and the assignment given
    same_scenario r0 200 "--nodes=48 --degree=6 --pdReservedPorts=0 --completion=random --RngRun=3" \
        "--prefill=18 --decode=18 --training=12 --assignment=many-to-one"
fi

SCRIPT="$BIN/mose-llm-script"
if [ -x "$SCRIPT" ]; then
    # the script's scale is the global value MoseScale: no --scale of its own, 0 refused
    expect_error llm-script-scale-zero 'invalid --MoseScale = "0"' "$SCRIPT" --MoseScale=0
    expect_error llm-script-no-scale-option 'Invalid command-line argument: --scale' \
        "$SCRIPT" --scale=4
fi

FIGURE="$BIN/mose-regime-figure"
if [ -x "$FIGURE" ]; then
    # the merge's options in a comparison of files: refused before any file is read
    expect_error figure-scope-tolerance-compare 'invalid --tolerance = "0.05": the option would not be used in a comparison of two maps'"'"' files (--compare)' \
        "$FIGURE" --compare=a.csv,b.csv --tolerance=0.05 --outputDir="$WORK/fig"
    expect_error figure-scope-title-compare 'invalid --title = "x": the option would not be used in a comparison' \
        "$FIGURE" --compare=a.csv,b.csv --title=x --outputDir="$WORK/fig"
    # --suite: the level validation suite's folders
    expect_error figure-suite-and-maps 'invalid --suite = "a": one of --maps (merge), --compare (two maps) or --suite' \
        "$FIGURE" --suite=a --maps=a.csv
    expect_error figure-suite-title 'invalid --title = "x": the option would not be used in the level validation suite (--suite)' \
        "$FIGURE" --suite=a --title=x --outputDir="$WORK/fig"
    expect_error figure-suite-missing 'cannot open /nonexistent/set/level_validation.csv' \
        "$FIGURE" --suite=/nonexistent/set --outputDir="$WORK/fig"
    mkdir -p "$WORK/suite-means"
    printf 'load,interval_s,dark_s,seeds,policy,packet_kv_mean_s\n25,0.1,0.01,3,MoSE,0.01\n' \
        >"$WORK/suite-means/level_validation.csv"
    expect_error figure-suite-means "level_validation.csv:1: a comparison of two files' means" \
        "$FIGURE" --suite="$WORK/suite-means" --outputDir="$WORK/fig"
    expect_error figure-suite-twice 'the cell set "suite-means" of' \
        "$FIGURE" --suite="$WORK/suite-means,$WORK/suite-means/" --outputDir="$WORK/fig"
fi

LLM="$BIN/mose-llm"
if [ -x "$LLM" ]; then
    # a trace gives the requests: the generator's options are refused, not ignored
    printf 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n' \
        >"$WORK/llm-trace.csv"
    for opt in --requests=20 --rate=50 --promptMean=1000; do
        expect_error "llm-trace-with-${opt%%=*}" "only without --trace" \
            "$LLM" --map=false --trace="$WORK/llm-trace.csv" "$opt"
        expect_error "llm-trace-with-${opt%%=*}-names-it" "${opt%%=*}" \
            "$LLM" --map=false --trace="$WORK/llm-trace.csv" "$opt"
    done
    expect_error "llm-host-rate-bad" '--hostRate = "fast"' "$LLM" --hostRate=fast
    expect_error "llm-host-rate-zero" '--hostRate = "0bps"' "$LLM" --hostRate=0bps
    expect_error "llm-host-rate-huge" 'invalid --hostRate = "20000000000Gbps": a data rate > 0 and at most 18446744073709549568bps' \
        "$LLM" --hostRate=20000000000Gbps
    expect_error "llm-host-rate-conflict" "--ns3::MoseTopologyHelper::HostDataRate" \
        "$LLM" --hostRate=800Gbps --ns3::MoseTopologyHelper::HostDataRate=400Gbps
    # one scale: the global value MoseScale and --scale may not differ; 0 is no scale
    expect_error llm-scale-conflict 'the global value MoseScale = 4' \
        "$LLM" --map=false --nodes=16 --degree=4 --requests=5 --policies=MoSE --MoseScale=4
    expect_error llm-mose-scale-zero 'MoseScale' "$LLM" --map=false --MoseScale=0
    # --hostsPerGroup: 1 to 128 endpoints per group; the attribute may give it, not both apart
    expect_error llm-hosts-zero 'invalid --hostsPerGroup = "0": 1 to 128 (endpoints per group' \
        "$LLM" --map=false --hostsPerGroup=0
    expect_error llm-hosts-huge 'invalid --hostsPerGroup = "100000": 1 to 128' \
        "$LLM" --map=false --hostsPerGroup=100000
    expect_error llm-hosts-text '--hostsPerGroup' "$LLM" --map=false --hostsPerGroup=eight
    expect_error llm-hosts-attribute-huge 'invalid --ns3::MoseTopologyHelper::HostsPerGroup = "300": 0 to 128' \
        "$LLM" --map=false --ns3::MoseTopologyHelper::HostsPerGroup=300
    expect_error llm-hosts-conflict 'disagree' \
        "$LLM" --map=false --hostsPerGroup=8 --ns3::MoseTopologyHelper::HostsPerGroup=4
    expect_error llm-hosts-global-routing 'GlobalRouting = true with HostsPerGroup = 8' \
        "$LLM" --map=false --policies=MoSE --hostsPerGroup=8 --transport=tcp \
        --ns3::MoseTopologyHelper::GlobalRouting=true
    expect_error llm-queue-disc-type 'invalid MoseTopologyHelper::QueueDiscType = ns3::TcpSocketBase: a root queue disc type' \
        "$LLM" --map=false --policies=MoSE --transport=tcp --ns3::MoseTopologyHelper::QueueDiscType=ns3::TcpSocketBase
    # the transport: tcp or rdma; RED's ECN thresholds only with rdma and the packet level
    expect_error llm-transport-bad 'invalid --transport = "roce": tcp (' "$LLM" --transport=roce
    expect_error llm-transport-case 'invalid --transport = "RDMA"' "$LLM" --transport=RDMA
    expect_error llm-ecn-with-tcp 'invalid --ecnKmin = "5": the option would not be used: only with --transport=rdma' \
        "$LLM" --map=false --transport=tcp --ecnKmin=5
    expect_error llm-ecn-pmax-with-tcp 'invalid --ecnPmax = "0.1": the option would not be used' \
        "$LLM" --map=false --transport=tcp --ecnPmax=0.1
    expect_error llm-ecn-fluid 'invalid --ecnKmax = "100": the option would not be used: the fluid' \
        "$LLM" --map=false --transport=rdma --level=fluid --ecnKmax=100
    expect_error llm-ecn-order 'invalid --ecnKmax = "20": a number of packets above --ecnKmin = 50' \
        "$LLM" --map=false --transport=rdma --ecnKmin=50 --ecnKmax=20
    expect_error llm-pfc-with-tcp 'invalid --pfc = true: only with --transport=rdma' \
        "$LLM" --map=false --transport=tcp --pfc
    expect_error llm-scope-pfc-tcp 'invalid --pfc = "false": the option would not be used with --transport=tcp: it acts only with --transport=rdma' \
        "$LLM" --map=false --transport=tcp --pfc=false
    expect_error llm-pfc-fluid 'invalid --pfc = true: only with the packet level' \
        "$LLM" --map=false --level=fluid --pfc
    expect_error llm-ecn-equal 'invalid --ecnKmax = "50": a number of packets above --ecnKmin = 50' \
        "$LLM" --map=false --transport=rdma --ecnKmin=50 --ecnKmax=50
    expect_error llm-ecn-kmin-default-kmax 'invalid --ecnKmin = "250": a number of packets below --ecnKmax = 200' \
        "$LLM" --map=false --transport=rdma --ecnKmin=250
    expect_error llm-ecn-kmin-negative 'invalid --ecnKmin = "-1": a number of packets >= 0' \
        "$LLM" --map=false --transport=rdma --ecnKmin=-1
    expect_error llm-ecn-kmax-above-queue 'invalid --ecnKmax = "5000": at most the ports'"'"' queue of 1000 packets' \
        "$LLM" --map=false --transport=rdma --ecnKmax=5000
    expect_error llm-ecn-pmax-zero 'invalid --ecnPmax = "0": a probability in (0, 1]' \
        "$LLM" --map=false --transport=rdma --ecnPmax=0
    expect_error llm-ecn-pmax-above-one 'invalid --ecnPmax = "1.01": a probability in (0, 1]' \
        "$LLM" --map=false --transport=rdma --ecnPmax=1.01
    expect_error llm-ecn-kmin-text 'invalid --ecnKmin = "five"' \
        "$LLM" --map=false --transport=rdma --ecnKmin=five
    expect_error llm-ecn-pmax-text 'invalid --ecnPmax = "1%"' \
        "$LLM" --map=false --transport=rdma --ecnPmax=1%
    expect_error llm-rdma-red-default 'ns3::RedQueueDisc::MinTh = 20 (set by Config::SetDefault or --ns3::RedQueueDisc::MinTh) conflicts with ExperimentConfig::ecn.kmin = 5' \
        "$LLM" --map=false --policies=MoSE --requests=5 --transport=rdma --ns3::RedQueueDisc::MinTh=20
    expect_error llm-rdma-queue-disc-type 'ns3::MoseTopologyHelper::QueueDiscType = ns3::FifoQueueDisc' \
        "$LLM" --map=false --policies=MoSE --requests=5 --transport=rdma --ns3::MoseTopologyHelper::QueueDiscType=ns3::FifoQueueDisc
    expect_error llm-rdma-max-in-flight 'invalid ns3::MoseRdmaTransport::MaxInFlight = 8: 0 (no cap) or at least AckInterval = 16 packets' \
        "$LLM" --map=false --policies=MoSE --requests=5 --transport=rdma --ns3::MoseRdmaTransport::MaxInFlight=8
    # the shared scenario options, with their validation; --training is the role count
    expect_error "llm-training-count" "--prefill/--decode/--training" "$LLM" --training=3
    expect_error "llm-training-job-bool" "trainingJob" "$LLM" --trainingJob=maybe
    expect_error "llm-progress-bool" 'invalid --progress = "maybe"' "$LLM" --progress=maybe
    expect_error "llm-nodes-groups" "disagree" \
        "$LLM" --nodes=32 --ns3::MoseTopologyHelper::Groups=16
    expect_error "llm-flows-unused" "would not be used" "$LLM" --flows=100
    expect_error "llm-threads-unused" "would not be used" "$LLM" --threads=2
    expect_error "llm-seeds-zero" "--seeds" "$LLM" --seeds=0
    # the map's tie band, which the confident verdict uses too
    expect_error "llm-tolerance-negative" "tolerance" "$LLM" --tolerance=-0.1
    expect_error "llm-tolerance-one" "tolerance" "$LLM" --tolerance=1
    expect_error "llm-tolerance-text" 'invalid --tolerance = "tight"' "$LLM" --tolerance=tight
    # many runs (issue 40): the map as a list of runs, its parts and their merge
    MAP="--nodes=32 --level=fluid --loads=25 --intervals=100ms --darkTimes=10ms --seeds=2 --flowLevelFlows=0 --plot=false"
    # shellcheck disable=SC2086  # MAP is a list of options
    {
    expect_error llm-jobs-zero 'invalid --jobs = "0": the workers, a whole number 1 or more' "$LLM" $MAP --jobs=0
    expect_error llm-jobs-negative 'invalid --jobs = "-2": the workers' "$LLM" $MAP --jobs=-2
    expect_error llm-jobs-text 'invalid --jobs = "all": the workers' "$LLM" $MAP --jobs=all
    expect_error llm-jobs-empty 'invalid --jobs = "": the value is empty' "$LLM" $MAP --jobs=
    expect_error llm-merge-empty 'invalid --merge = "": the value is empty' "$LLM" $MAP --merge=
    expect_error llm-part-zero 'invalid --part = "0/4": I/K with 1 <= I <= K' "$LLM" $MAP --part=0/4
    expect_error llm-part-above 'invalid --part = "5/4": I/K with 1 <= I <= K' "$LLM" $MAP --part=5/4
    expect_error llm-part-text 'invalid --part = "half": I/K with 1 <= I <= K' "$LLM" $MAP --part=half
    expect_error llm-part-more-than-runs 'invalid --part = "1/9": 9 parts of a list of 8 runs' \
        "$LLM" $MAP --part=1/9 --outputDir="$WORK/p9"
    expect_error llm-runs-twice 'invalid --runs = "1,0-3": run 1 is given twice' "$LLM" $MAP --runs=1,0-3
    expect_error llm-runs-backwards 'invalid --runs = "5-2": the range 5-2 runs backwards' "$LLM" $MAP --runs=5-2
    expect_error llm-runs-out-of-list 'invalid --runs = "8": run 8 is not in the list: its 8 runs are 0 to 7' \
        "$LLM" $MAP --runs=8 --outputDir="$WORK/r8"
    expect_error llm-runs-and-part '--runs = "0" and --part = "1/2" both choose runs: give one' \
        "$LLM" $MAP --runs=0 --part=1/2
    expect_error llm-merge-and-jobs '--jobs = "2" and --merge = "x": --merge runs nothing' \
        "$LLM" $MAP --merge=x --jobs=2
    expect_error llm-merge-no-records 'invalid --merge: "'"$WORK"'/none" has no folder runs/ of run records' \
        "$LLM" $MAP --merge="$WORK/none" --outputDir="$WORK/m0"
    # a map in one process, on two workers, and as four parts merged: the same files
    expect_ok llm-map-one-worker "wrote $WORK/one/regime_map.csv" "$LLM" $MAP --outputDir="$WORK/one"
    expect_ok llm-map-two-workers "wrote $WORK/two/regime_map.csv" "$LLM" $MAP --jobs=2 --outputDir="$WORK/two"
    expect_same llm-map-two-workers-same "$WORK/one/regime_map.csv" "$WORK/two/regime_map.csv"
    for i in 1 2 3; do
        expect_ok "llm-map-part-$i" "part $i/4: 2 of 8 runs done" "$LLM" $MAP --part=$i/4 --outputDir="$WORK/parts"
    done
    expect_error llm-merge-part-missing 'the map is not whole: 2 of 8 runs have no record in '"$WORK"'/parts/runs (the first, run 3:' \
        "$LLM" $MAP --merge="$WORK/parts" --outputDir="$WORK/merged"
    expect_ok llm-map-part-4 "part 4/4: 2 of 8 runs done" "$LLM" $MAP --part=4/4 --outputDir="$WORK/part 4"
    expect_ok llm-merge "wrote $WORK/merged/regime_map.csv" "$LLM" $MAP --merge="$WORK/parts,$WORK/part 4" --outputDir="$WORK/merged"
    expect_same llm-merge-same "$WORK/one/regime_map.csv" "$WORK/merged/regime_map.csv"
    expect_same llm-merge-same-plot "$WORK/one/regime_map.plt" "$WORK/merged/regime_map.plt"
    expect_error llm-merge-run-twice 'run 0 (load 25/s, interval 100 ms, seed 0 (run 1), S-Train) is given twice: '"$WORK"'/parts/runs/run-000000.txt and '"$WORK"'/one/runs/run-000000.txt' \
        "$LLM" $MAP --merge="$WORK/parts,$WORK/one" --outputDir="$WORK/merged2"
    expect_error llm-merge-other-options "$WORK/parts/runs/run-000000.txt was made with other options" \
        "$LLM" $MAP --tolerance=0.05 --merge="$WORK/parts,$WORK/part 4" --outputDir="$WORK/merged3"
    cp -r "$WORK/one" "$WORK/other"
    expect_ok llm-resume-other-options "8 of the records in $WORK/other/runs are another study's (the first: $WORK/other/runs/run-000000.txt was made with other options" \
        "$LLM" $MAP --tolerance=0.05 --outputDir="$WORK/other"
    expect_ok llm-resume-keeps "kept 8 of 8 runs that a run with the same options and build finished before" \
        "$LLM" $MAP --outputDir="$WORK/one"
    expect_same llm-resume-same "$WORK/two/regime_map.csv" "$WORK/one/regime_map.csv"
    sed 's/^build=.*/build=0.0.1+000000000000/' "$WORK/part 4/runs/run-000003.txt" >"$WORK/b" && mv "$WORK/b" "$WORK/part 4/runs/run-000003.txt"
    expect_error llm-merge-other-build "$WORK/part 4/runs/run-000003.txt was made by mose build \"0.0.1+000000000000\"" \
        "$LLM" $MAP --merge="$WORK/parts,$WORK/part 4" --outputDir="$WORK/merged4"
    printf 'half a record\n' >"$WORK/part 4/runs/run-000003.txt"
    expect_error llm-merge-torn-record "$WORK/part 4/runs/run-000003.txt:1: not a run record" \
        "$LLM" $MAP --merge="$WORK/parts,$WORK/part 4" --outputDir="$WORK/merged5"
    }
    # the comparison (--map=false) as a list of runs: level x policy, 4 runs here
    CMP="--map=false --nodes=32 --level=fluid,aggregate --policies=MoSE,S-Comp"
    # shellcheck disable=SC2086  # CMP is a list of options
    {
    # a rate epoch runs each fluid run beside its exact one, in one process: no run options
    expect_error llm-cmp-rate-epoch-jobs '--jobs = "2" acts on a list of runs, and --rateEpoch runs each fluid-level run beside its exact-rate run, in one process: leave it out' \
        "$LLM" --map=false --nodes=16 --degree=4 --level=fluid --policies=MoSE --rateEpoch=100ms --jobs=2
    expect_error llm-cmp-jobs-zero 'invalid --jobs = "0": the workers, a whole number 1 or more' "$LLM" $CMP --jobs=0
    expect_error llm-cmp-part-above 'invalid --part = "5/4": I/K with 1 <= I <= K' "$LLM" $CMP --part=5/4
    expect_error llm-cmp-part-more-than-runs 'invalid --part = "1/5": 5 parts of a list of 4 runs' \
        "$LLM" $CMP --part=1/5 --outputDir="$WORK/c5"
    expect_error llm-cmp-runs-out-of-list 'invalid --runs = "4": run 4 is not in the list: its 4 runs are 0 to 3' \
        "$LLM" $CMP --runs=4 --outputDir="$WORK/c4"
    expect_ok llm-cmp-list "3,aggregate,S-Comp" "$LLM" $CMP --listRuns
    expect_ok llm-cmp-one-worker "wrote $WORK/cmp1/{requests,iterations,intervals}.csv" \
        "$LLM" $CMP --outputDir="$WORK/cmp1" --kvExport="$WORK/cmp1.jsonl"
    expect_ok llm-cmp-two-workers "wrote $WORK/cmp2/{requests,iterations,intervals}.csv" \
        "$LLM" $CMP --jobs=2 --outputDir="$WORK/cmp2" --kvExport="$WORK/cmp2.jsonl"
    expect_ok llm-cmp-part-1 "part 1/2: 2 of 4 runs done" "$LLM" $CMP --part=1/2 --outputDir="$WORK/cp1" --kvExport="$WORK/x.jsonl"
    expect_ok llm-cmp-part-2 "part 2/2: 2 of 4 runs done" "$LLM" $CMP --part=2/2 --outputDir="$WORK/cp2" --kvExport="$WORK/x.jsonl"
    expect_error llm-cmp-merge-part-missing 'the mose-llm study is not whole: 2 of 4 runs have no record in '"$WORK"'/cp1/runs (the first, run 1: S-Comp, fluid level' \
        "$LLM" $CMP --merge="$WORK/cp1" --outputDir="$WORK/cmpm0" --kvExport="$WORK/x.jsonl"
    expect_ok llm-cmp-merge "wrote $WORK/cmpm/{requests,iterations,intervals}.csv" \
        "$LLM" $CMP --merge="$WORK/cp1,$WORK/cp2" --outputDir="$WORK/cmpm" --kvExport="$WORK/cmpm.jsonl"
    for f in requests.csv iterations.csv intervals.csv; do
        expect_same "llm-cmp-two-workers-same-$f" "$WORK/cmp1/$f" "$WORK/cmp2/$f"
        expect_same "llm-cmp-merge-same-$f" "$WORK/cmp1/$f" "$WORK/cmpm/$f"
    done
    expect_same llm-cmp-two-workers-same-kv "$WORK/cmp1.jsonl" "$WORK/cmp2.jsonl"
    expect_same llm-cmp-merge-same-kv "$WORK/cmp1.jsonl" "$WORK/cmpm.jsonl"
    # a folder of another program (mose-packet's parts): another study's records, named
    expect_error llm-cmp-merge-packet-folder "$WORK/pkp1/runs/run-000000.txt was made with other options" \
        "$LLM" $CMP --merge="$WORK/pkp1" --outputDir="$WORK/cmpm4" --kvExport="$WORK/x.jsonl"
    # a folder of the regime map's runs: another study's records, named
    expect_error llm-cmp-merge-map-folder "$WORK/parts/runs/run-000000.txt was made with other options" \
        "$LLM" $CMP --merge="$WORK/parts" --outputDir="$WORK/cmpm2"
    # a run's file cut after it ran: the merge names it
    printf 'policy\n' >"$WORK/cp2/runs/run-000001.requests.csv"
    expect_error llm-cmp-merge-cut-file "$WORK/cp2/runs/run-000001.requests.csv is not the file its run wrote" \
        "$LLM" $CMP --merge="$WORK/cp1,$WORK/cp2" --outputDir="$WORK/cmpm3" --kvExport="$WORK/x.jsonl"
    }
    expect_error "llm-cycles-zero" 'invalid --cycles = "0": at least 1' "$LLM" --cycles=0
    expect_error "llm-seeds-one-experiment" "only with the regime map" "$LLM" --map=false --seeds=2
    expect_error "llm-route-rule-unused" "ns3::MoseRouteTable::Rule" \
        "$LLM" --ns3::MoseRouteTable::Rule=ecmp
    # the regime map generates its own requests and schedule
    expect_error "llm-map-with-requests" "only with --map=false" "$LLM" --requests=20
    expect_error "llm-map-with-trace" "only with --map=false" "$LLM" --trace="$WORK/llm-trace.csv"
    # this build has no MPI: --distributed names what is missing; a bad notice delay names itself
    expect_error llm-distributed-no-mpi 'this ns-3 build has no MPI module' \
        "$LLM" --map=false --policies=MoSE --transport=tcp --distributed
    # the level: packet, fluid, aggregate, both or two of them
    expect_error llm-level-bad 'invalid --level = "fast": packet, fluid, aggregate, both' "$LLM" --level=fast
    expect_error llm-level-empty 'invalid --level = ""' "$LLM" --map=false --level=
    expect_error llm-level-twice 'invalid --level = "fluid,fluid"' "$LLM" --map=false --level=fluid,fluid
    expect_error llm-level-three 'invalid --level = "packet,fluid,aggregate"' \
        "$LLM" --level=packet,fluid,aggregate
    # the fluid levels model the rails (--hostsPerGroup) as the packet level does: the limit is
    # the experiment's
    expect_error llm-level-fluid-hosts-huge 'invalid --hostsPerGroup = "100000": 1 to 128' \
        "$LLM" --map=false --level=fluid --hostsPerGroup=100000
    expect_error llm-rate-epoch-packet '--rateEpoch = "10us": the option would not be used' \
        "$LLM" --map=false --rateEpoch=10us
    expect_error llm-rate-epoch-bad 'invalid --rateEpoch' "$LLM" --map=false --level=fluid --rateEpoch=soon
    # the fluid queues (--fluidQueues): the fluid level only, exact rates, rdma
    expect_error llm-fluid-queues-packet '--fluidQueues = true: the option would not be used' \
        "$LLM" --map=false --fluidQueues=true
    expect_error llm-fluid-queues-aggregate '--fluidQueues = true: not at the aggregate level' \
        "$LLM" --map=false --level=fluid,aggregate --fluidQueues=true
    expect_error llm-fluid-queues-epoch '--fluidQueues = true: exact rates (no --rateEpoch' \
        "$LLM" --map=false --level=fluid --rateEpoch=1ms --fluidQueues=true
    expect_error llm-fluid-queues-tcp '--fluidQueues = true: --transport=rdma' \
        "$LLM" --map=false --level=fluid --transport=tcp --fluidQueues=true
    expect_error llm-level-fluid-ecmp "ns3::MoseRouteTable::Rule" \
        "$LLM" --map=false --level=fluid --ns3::MoseRouteTable::Rule=ecmp
    expect_error llm-notice-delay-bad '--noticeDelay' "$LLM" --map=false --noticeDelay=soon
    expect_error llm-notice-delay-negative '--noticeDelay' "$LLM" --map=false --noticeDelay=-1us
    # the trace forms: detected, forced, filtered; every problem names the file and line
    printf 'a,b,c\n1,2,3\n' >"$WORK/llm-unknown.csv"
    expect_error llm-trace-unknown-form "llm-unknown.csv:1: the first line" \
        "$LLM" --map=false --trace="$WORK/llm-unknown.csv"
    printf 'request_id,request_type,application_id,arrival_timestamp,batch_size,prompt_size,token_size\na,2,0,0,4,100,1\n' \
        >"$WORK/llm-splitwise-batch.csv"
    expect_error llm-trace-splitwise-batch 'llm-splitwise-batch.csv:2: batch_size "4" is not modelled' \
        "$LLM" --map=false --trace="$WORK/llm-splitwise-batch.csv"
    printf '{"input_toks": 4, "output_toks": 2, "arrival_time_ns": 0, "sub_requests": []}\n' \
        >"$WORK/llm-agentic.jsonl"
    expect_error llm-trace-agentic "llm-agentic.jsonl:1: the agentic form" \
        "$LLM" --map=false --trace="$WORK/llm-agentic.jsonl"
    expect_error llm-trace-format-bad '--traceFormat = "vidurr"' \
        "$LLM" --map=false --trace="$WORK/llm-trace.csv" --traceFormat=vidurr
    expect_error llm-trace-format-forced 'llm-trace.csv:1: expected the header "arrived_at' \
        "$LLM" --map=false --trace="$WORK/llm-trace.csv" --traceFormat=vidur
    expect_error llm-trace-filter-other-form '--traceModel = "GPT-4": only with a burstgpt trace' \
        "$LLM" --map=false --trace="$WORK/llm-trace.csv" --traceModel=GPT-4
    expect_error llm-trace-filter-bad-model '--traceModel = "gpt4"' \
        "$LLM" --map=false --trace="$WORK/llm-trace.csv" --traceModel=gpt4
    expect_error llm-trace-failed-bad '--traceFailed = "drop"' \
        "$LLM" --map=false --trace="$WORK/llm-trace.csv" --traceFailed=drop
    expect_error llm-trace-filter-without-trace '--traceDate' "$LLM" --map=false --traceDate=x
    printf 'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n5,ChatGPT,4,0,4,API log\n' \
        >"$WORK/llm-burst-failed.csv"
    expect_error llm-trace-all-failed 'none of the 1 requests is kept' \
        "$LLM" --map=false --trace="$WORK/llm-burst-failed.csv"
    # the KV export: one experiment only, a known extension, an existing folder
    expect_error llm-kv-export-map '--kvExport' "$LLM" --kvExport="$WORK/kv.csv"
    expect_error llm-kv-export-ext '--kvExport = "' \
        "$LLM" --map=false --policies=MoSE --kvExport="$WORK/kv.txt"
    expect_error llm-kv-export-folder 'a file in an existing folder' \
        "$LLM" --map=false --policies=MoSE --kvExport="$WORK/none/kv.csv"
    expect_error llm-schedule-gap 'invalid --schedule period 2 duration = 0.005 s: every period between two switches' \
        "$LLM" --map=false --schedule=inference-heavy:0.25s,training-heavy:5ms,inference-heavy:0.25s
    # role counts that the role transition cannot fit: named with their options
    expect_error llm-role-swap 'invalid --roleTransition = swap (default): swap draws the training-heavy prefill and decode groups, --trPrefill = 40 + --trDecode = 20, from the inference-heavy --training = 14 (default) training groups' \
        "$LLM" --map=false --trPrefill=40 --trDecode=20 --trTraining=4
    # a notice that cannot come before the stop serves no request: refused before the run
    expect_error llm-notice-delay-after-stop 'invalid --noticeDelay = "40s": a delay under 30 s: the run stops at 30 s' \
        "$LLM" --map=false --policies=MoSE --requests=40 --transport=tcp --noticeDelay=40s --stopTime=30s
    # one that comes after the stop for some: the report says how many and why
    expect_ok llm-notice-delay-late-report 'MoSE: 39 of 40 requests not served when the run stopped at 30 s: 39 had their KV bytes delivered, but the completion notice (--noticeDelay = 29.99 s after the last byte) was due after the stop' \
        "$LLM" --map=false --policies=MoSE --requests=40 --transport=tcp --noticeDelay=29.99s --stopTime=30s \
        --outputDir="$WORK/llm-notice"
    # the trace's clock: a slice that starts late is served whole (the end follows the trace),
    # --traceStart moves its start; an end or a start that leaves no request is refused, naming
    # the first and last arrival and the end
    printf 'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n1200,ChatGPT,400,40,440,Conversation log\n1200.5,ChatGPT,300,30,330,Conversation log\n1201,ChatGPT,500,50,550,Conversation log\n' \
        >"$WORK/llm-burst-slice.csv"
    LLM_SMALL="--nodes=16 --degree=4 --policies=MoSE --level=fluid"
    expect_ok llm-trace-slice-served 'fluid  MoSE         3/3' \
        "$LLM" --map=false $LLM_SMALL --trace="$WORK/llm-burst-slice.csv" --outputDir="$WORK/llm-slice"
    expect_ok llm-trace-slice-noted "note: every request arrives after the schedule's end, 1.5 s" \
        "$LLM" --map=false $LLM_SMALL --trace="$WORK/llm-burst-slice.csv" --outputDir="$WORK/llm-slice"
    expect_ok llm-trace-start-first "arrivals from 0 s to 1 s (--traceStart=first: the trace's clock minus 1200 s)" \
        "$LLM" --map=false $LLM_SMALL --trace="$WORK/llm-burst-slice.csv" --traceStart=first \
        --outputDir="$WORK/llm-slice"
    expect_ok llm-trace-start-time "1 requests before it left out" \
        "$LLM" --map=false $LLM_SMALL --trace="$WORK/llm-burst-slice.csv" --traceStart=1200.5s \
        --outputDir="$WORK/llm-slice"
    expect_error llm-trace-start-after-last 'invalid --traceStart = "2000s": first (the trace'"'"'s first request) or a time of the trace'"'"'s clock up to its last arrival' \
        "$LLM" --map=false --trace="$WORK/llm-burst-slice.csv" --traceStart=2000s
    expect_error llm-trace-start-bad 'invalid --traceStart = "soon"' \
        "$LLM" --map=false --trace="$WORK/llm-burst-slice.csv" --traceStart=soon
    expect_error llm-trace-start-no-trace 'invalid --traceStart = "first": only with --trace' \
        "$LLM" --map=false --traceStart=first
    expect_error llm-stop-time-none-arrives '3 of the 3 requests of --trace='"$WORK"'/llm-burst-slice.csv arrive at or after it (first arrival 1200 s, last 1201 s, run end 30 s)' \
        "$LLM" --map=false --trace="$WORK/llm-burst-slice.csv" --stopTime=30s
    expect_error llm-stop-time-most-late 'invalid --stopTime = "1.5s": an end that at least 90% of the requests arrive before' \
        "$LLM" --map=false --requests=400 --rate=100 --stopTime=1.5s
    expect_error llm-stop-time-before-schedule "invalid --stopTime = \"1s\": a time at or after the schedule's end, 1.5 s" \
        "$LLM" --map=false --stopTime=1s
    expect_error llm-stop-time-bad 'invalid --stopTime = "never"' "$LLM" --map=false --stopTime=never
    expect_error llm-stop-time-map 'invalid --stopTime = "60s": only with --map=false' "$LLM" --stopTime=60s
    # an approximation carries its error: the exact rates run beside it; the map refuses it
    expect_ok llm-rate-epoch-error 'MoSE with rate epoch 5 ms (--rateEpoch) against exact rates: served' \
        "$LLM" --map=false $LLM_SMALL --requests=20 --rateEpoch=5ms --outputDir="$WORK/llm-epoch"
    expect_error llm-rate-epoch-map 'invalid --rateEpoch = "1ms": only with --map=false: one experiment also runs the exact rates' \
        "$LLM" --level=fluid --rateEpoch=1ms
    # every option acts or is refused (doc/mose.rst, Where each option acts)
    for opt in --tolerance=0.05 --cycles=3 --loads=25 --intervals=100ms --darkTimes=10ms \
        --trainingLoadShare=0.5 --flowLevelFlows=0 --plot=false; do
        expect_error "llm-scope-one${opt%%=*}" "invalid ${opt%%=*} = \"${opt#*=}\": the option would not be used in one experiment" \
            "$LLM" --map=false "$opt"
    done
    for opt in --period=50ms --window=1s --dwell=1s --enterLoad=200 --exitLoad=10; do
        expect_error "llm-scope-periods${opt%%=*}" "invalid ${opt%%=*} = \"${opt#*=}\": the option would not be used in one experiment with a schedule of periods" \
            "$LLM" --map=false "$opt"
    done
    expect_error llm-scope-reuse-fluid 'invalid --reuseConnections = "false": the option would not be used at the fluid level: it acts at the packet level only' \
        "$LLM" --map=false --level=fluid --reuseConnections=false
    expect_error llm-scope-reuse-fluid-map 'invalid --reuseConnections = "false": the option would not be used at the fluid, aggregate levels' \
        "$LLM" --level=fluid,aggregate --reuseConnections=false
    expect_error llm-scope-module-attribute-fluid 'invalid --ns3::MoseTrainingWorkload::ReuseConnections = "false": the attribute would not be used: the fluid and aggregate levels send no packets' \
        "$LLM" --map=false --level=fluid --ns3::MoseTrainingWorkload::ReuseConnections=false
    # the generator's mean prompt: within the lengths it draws, not clamped silently
    expect_error llm-prompt-mean-huge 'invalid --promptMean = "100000": a mean prompt length from 1 to 32768 tokens' \
        "$LLM" --map=false --promptMean=100000
    expect_error llm-prompt-mean-map 'invalid --promptMean = "40000": a mean prompt length from 1 to 32768 tokens' \
        "$LLM" --promptMean=40000
    # the threshold controller's options, named as typed; the keyword in any letter case
    expect_error llm-enter-load 'invalid --enterLoad = "40": a finite load above --exitLoad = "50" requests/s' \
        "$LLM" --map=false --schedule=threshold --enterLoad=40
    expect_error llm-period 'invalid --period = "2s": a decision period > 0 and at most --end = "1.5s"' \
        "$LLM" --map=false --schedule=threshold --period=2s
    expect_error llm-window 'invalid --window = "0": a sliding window of at least 1ns' \
        "$LLM" --map=false --schedule=Threshold --window=0
    expect_error llm-exit-load 'invalid --exitLoad = "-1": a finite load >= 0 requests/s' \
        "$LLM" --map=false --schedule=THRESHOLD --exitLoad=-1
fi

# --- ns-3's global values that name a type: checked before the Simulator (a segmentation fault
# before), in every program; an empty value of a name that is no option says so
for prog in mose-packet mose-mode-switch mose-llm mose-fabric mose-paper mose-flow-eval; do
    [ -x "$BIN/$prog" ] || continue
    expect_error "$prog-simulator-type" 'invalid --SimulatorImplementationType = "ns3::Foo": allowed values are ns3::DefaultSimulatorImpl or ns3::RealtimeSimulatorImpl' \
        "$BIN/$prog" --SimulatorImplementationType=ns3::Foo
    expect_error "$prog-scheduler-type" 'invalid --SchedulerType = "ns3::Foo": allowed values are ns3::CalendarScheduler' \
        "$BIN/$prog" --SchedulerType=ns3::Foo
    expect_error "$prog-unknown-empty" 'invalid --bogus = "": there is no option --bogus' \
        "$BIN/$prog" --bogus=
    # ns-3's own attributes: its parser aborted (SIGABRT) before
    expect_error "$prog-ns3-attribute" 'invalid --ns3::TcpSocketBase::MinRto = "abc": a time: a number with an optional unit' \
        "$BIN/$prog" --ns3::TcpSocketBase::MinRto=abc
done

# --- an output never replaces an input or another output (after resolving links), before any
# work: the input is left as it was
printf 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n' \
    >"$WORK/keep-trace.csv"
ln -sf "$WORK/keep-trace.csv" "$WORK/keep-link.csv"
mkdir -p "$WORK/keep-out" "$WORK/keep-out2"
cp "$WORK/keep-trace.csv" "$WORK/keep-out/requests.csv"
if [ -x "$BIN/mose-llm" ]; then
    expect_error llm-export-is-trace "--kvExport = \"$WORK/keep-trace.csv\" would replace the input --trace = \"$WORK/keep-trace.csv\"" \
        "$BIN/mose-llm" --map=false --policies=MoSE --trace="$WORK/keep-trace.csv" \
        --kvExport="$WORK/keep-trace.csv" --outputDir="$WORK/keep-out2"
    expect_error llm-export-is-trace-link "--kvExport = \"$WORK/keep-link.csv\" would replace the input --trace" \
        "$BIN/mose-llm" --map=false --policies=MoSE --trace="$WORK/keep-trace.csv" \
        --kvExport="$WORK/keep-link.csv" --outputDir="$WORK/keep-out2"
    expect_error llm-output-is-trace "--outputDir (requests.csv) = \"$WORK/keep-out/requests.csv\" would replace the input --trace" \
        "$BIN/mose-llm" --map=false --policies=MoSE --trace="$WORK/keep-out/requests.csv" \
        --outputDir="$WORK/keep-out"
    expect_error llm-export-is-output "--kvExport = \"$WORK/keep-out2/intervals.csv\" would replace the output --outputDir (intervals.csv)" \
        "$BIN/mose-llm" --map=false --policies=MoSE --kvExport="$WORK/keep-out2/intervals.csv" \
        --outputDir="$WORK/keep-out2"
    expect_same llm-trace-kept "$WORK/keep-trace.csv" "$WORK/keep-out/requests.csv"
fi
if [ -x "$BIN/mose-flow-eval" ]; then
    cp "$WORK/ring.csv" "$WORK/keep-ring.csv"
    expect_error eval-loads-is-graph "--loads = \"$WORK/keep-ring.csv\" would replace the input --graph" \
        "$BIN/mose-flow-eval" --graph="$WORK/keep-ring.csv" --flowsFile="$WORK/flows.csv" \
        --loads="$WORK/keep-ring.csv"
    expect_same eval-graph-kept "$WORK/ring.csv" "$WORK/keep-ring.csv"
fi
if [ -x "$BIN/mose-regime-figure" ]; then
    mkdir -p "$WORK/keep-fig"
    cp "$WORK/map-a.csv" "$WORK/keep-fig/regime_grid.csv"
    expect_error figure-output-is-map "--outputDir (regime_grid.csv) = \"$WORK/keep-fig/regime_grid.csv\" would replace the input --maps" \
        "$BIN/mose-regime-figure" --maps="$WORK/keep-fig/regime_grid.csv" --outputDir="$WORK/keep-fig"
    expect_same figure-map-kept "$WORK/map-a.csv" "$WORK/keep-fig/regime_grid.csv"
fi
if [ -x "$BIN/mose-packet" ]; then
    mkdir -p "$WORK/keep-pkt"
    printf 'u,v\n0,1\n' >"$WORK/keep-pkt/inference-heavy_MoSE_transfers.csv"
    expect_error packet-output-is-graph "--outputDir (inference-heavy_MoSE_transfers.csv) = \"$WORK/keep-pkt/inference-heavy_MoSE_transfers.csv\" would replace the input --graph" \
        "$BIN/mose-packet" --policies=MoSE --graph="$WORK/keep-pkt/inference-heavy_MoSE_transfers.csv" \
        --outputDir="$WORK/keep-pkt"
fi

# --- counts that size memory: refused above what the machine can hold (the memory available
# over what each keeps) before anything is allocated (an enormous --cycles allocated for minutes
# before)
if [ -x "$BIN/mose-llm" ]; then
    expect_error llm-cycles-bound 'invalid --cycles = "4000000000": 4000000000 cycles keep at least' \
        "$BIN/mose-llm" --cycles=4000000000 --listRuns
    expect_error llm-seeds-bound 'invalid --seeds = "4000000000": 4000000000 seeds keep at least' \
        "$BIN/mose-llm" --seeds=4000000000 --listRuns
    expect_error llm-requests-bound 'invalid --requests = "4000000000": 4000000000 requests keep at least 5.6 TB' \
        "$BIN/mose-llm" --map=false --requests=4000000000
    expect_error llm-cell-requests-bound 'give too large a cell: 80000000000 requests keep at least 112.0 TB (1.4 kB each: a request of the largest cell' \
        "$BIN/mose-llm" --loads=1000000 --intervals=4000s --cycles=10 --listRuns
    LONG=$(i=1; while [ $i -le 1001 ]; do printf '%s,' $i; i=$((i + 1)); done; printf '1002')
    expect_error llm-loads-bound 'at most 1000 items (1002 given)' \
        "$BIN/mose-llm" --loads="$LONG" --listRuns
    expect_error llm-runs-bound 'invalid --seeds = "1000000": 1000000 seeds keep at least' \
        "$BIN/mose-llm" --loads="$(i=1; while [ $i -le 999 ]; do printf '%s,' $i; i=$((i + 1)); done; printf '1000')" \
        --seeds=1000000 --listRuns
fi

# --- messages that name the option as typed, its value and what is allowed
if [ -x "$BIN/mose-llm" ]; then
    expect_error llm-prefix-length 'invalid ns3::MoseTopologyHelper::BlockPrefixLength = 29: a prefix length of 1 to 28 with PortsPerGroup = 8' \
        "$BIN/mose-llm" --map=false --policies=MoSE --ns3::MoseTopologyHelper::BlockPrefixLength=29
    expect_error llm-prefix-length-range 'invalid ns3::MoseTopologyHelper::BlockPrefixLength = 31: 1 to 30' \
        "$BIN/mose-llm" --map=false --policies=MoSE --ns3::MoseTopologyHelper::BlockPrefixLength=31
    expect_error llm-dense-all-to-all 'invalid --collective = "all-to-all": --model = "llama-3-8b" is dense (no experts)' \
        "$BIN/mose-llm" --map=false --policies=MoSE --model=llama-3-8b
    expect_error llm-all-to-all-overflow 'invalid --tokensPerMember = "18446744073709551615": 1 to ' \
        "$BIN/mose-llm" --map=false --policies=MoSE --tokensPerMember=18446744073709551615
    expect_error llm-host-rate-scale 'invalid --scale = 2000: --hostRate (or --ns3::MoseTopologyHelper::HostDataRate) = 1bps divided by --scale would be 0 bit/s' \
        "$BIN/mose-llm" --map=false --policies=MoSE --hostRate=1bps
fi
# --- training traces (--trainingTrace): Chakra files written byte by byte from Chakra's schema
# (each message preceded by its length; GlobalMetadata version "0.0.4"; Node id 1, type 3,
# data_deps 5, attr 10 with name 1 and int64_val 9; COMP_NODE 4, COMM_COLL_NODE 7)
if [ -x "$BIN/mose-llm" ]; then
    META='\007\012\0050.0.4'
    COMM_TYPE_REDUCE='\122\015\012\011comm_type\110\001'
    COMM_SIZE_8='\122\015\012\011comm_size\110\010'
    COMM_TYPE_ALL_REDUCE='\122\015\012\011comm_type\110\000'
    COMM_SIZE_0='\122\015\012\011comm_size\110\000'
    mkdir -p "$WORK/et-dep" "$WORK/et-cycle" "$WORK/et-coll" "$WORK/et-zero" "$WORK/et-ok" \
        "$WORK/et-deadlock"
    # node 4 depends on node 9, which the rank does not have
    printf "$META"'\007\010\004\030\004\052\001\011' >"$WORK/et-dep/t.0.et"
    # nodes 1 and 2 depend on each other
    printf "$META"'\007\010\001\030\004\052\001\002\007\010\002\030\004\052\001\001' >"$WORK/et-cycle/t.0.et"
    # comm_type REDUCE (1)
    printf "$META"'\042\010\004\030\007'"$COMM_TYPE_REDUCE$COMM_SIZE_8" >"$WORK/et-coll/t.0.et"
    # an all-reduce of 0 bytes on both ranks
    for r in 0 1; do
        printf "$META"'\042\010\004\030\007'"$COMM_TYPE_ALL_REDUCE$COMM_SIZE_0" >"$WORK/et-zero/t.$r.et"
    done
    # a deadlock across ranks: two all-reduces of 8 B over both ranks, matched by order (node 1
    # with node 1); rank 0's node 1 depends on its node 2, rank 1's node 2 on its node 1
    printf "$META"'\045\010\001\030\007\052\001\002'"$COMM_TYPE_ALL_REDUCE$COMM_SIZE_8"'\042\010\002\030\007'"$COMM_TYPE_ALL_REDUCE$COMM_SIZE_8" >"$WORK/et-deadlock/t.0.et"
    printf "$META"'\042\010\001\030\007'"$COMM_TYPE_ALL_REDUCE$COMM_SIZE_8"'\045\010\002\030\007\052\001\001'"$COMM_TYPE_ALL_REDUCE$COMM_SIZE_8" >"$WORK/et-deadlock/t.1.et"
    # a valid trace: a compute of 5 us on each of two ranks
    for r in 0 1; do
        printf "$META"'\006\010\001\030\004\070\005' >"$WORK/et-ok/t.$r.et"
    done
    printf '0 0 0\n1 9999 0\n' >"$WORK/et-mapping.txt"
    expect_error llm-trace-missing-dep 't.0.et node 4: depends on node 9, which rank 0 does not have' \
        "$BIN/mose-llm" --map=false --policies=MoSE --trainingTrace=chakra:"$WORK/et-dep"
    expect_error llm-trace-cycle 'a cycle of dependencies: node ' \
        "$BIN/mose-llm" --map=false --policies=MoSE --trainingTrace=chakra:"$WORK/et-cycle"
    expect_error llm-trace-deadlock 'et-deadlock: a deadlock across ranks, each node waiting for the next (a collective, or a send and its receive, starts when every rank of it reached it): '"$WORK"'/et-deadlock/t.0.et node 1 (rank 0, all-reduce on ranks {0,1}) -> its dependency '"$WORK"'/et-deadlock/t.0.et node 2 (rank 0, all-reduce on ranks {0,1}) -> its collective'"'"'s member '"$WORK"'/et-deadlock/t.1.et node 2' \
        "$BIN/mose-llm" --map=false --policies=MoSE --trainingTrace=chakra:"$WORK/et-deadlock"
    expect_error llm-trace-unknown-collective 't.0.et node 4: comm_type 1 (REDUCE) is a collective mose does not plan' \
        "$BIN/mose-llm" --map=false --policies=MoSE --trainingTrace=chakra:"$WORK/et-coll"
    expect_error llm-trace-size-zero 't.0.et node 4: all-reduce of 0 bytes' \
        "$BIN/mose-llm" --map=false --policies=MoSE --trainingTrace=chakra:"$WORK/et-zero"
    expect_error llm-trace-rank-outside 'rank 1 maps to training member 9999' \
        "$BIN/mose-llm" --map=false --policies=MoSE --level=fluid --trainingTrace=chakra:"$WORK/et-ok" \
        --rankMapping="$WORK/et-mapping.txt"
    expect_error llm-trace-and-collective '--trainingTrace and --collective were both given' \
        "$BIN/mose-llm" --map=false --policies=MoSE --trainingTrace=chakra:"$WORK/et-ok" --collective=all-to-all
    expect_error llm-trace-and-tokens '--trainingTrace and --tokensPerMember were both given' \
        "$BIN/mose-llm" --map=false --policies=MoSE --trainingTrace=chakra:"$WORK/et-ok" --tokensPerMember=8
    expect_error llm-trace-kind 'invalid --trainingTrace = "gem5:x": chakra:PATH' \
        "$BIN/mose-llm" --map=false --policies=MoSE --trainingTrace=gem5:x
    expect_error llm-trace-no-files 'no Chakra trace (files PREFIX.0.et' \
        "$BIN/mose-llm" --map=false --policies=MoSE --trainingTrace=chakra:"$WORK"
fi
# --- SimAI/AICB workload files (--trainingTrace=aicb:FILE): header, count, 12-field layer lines
if [ -x "$BIN/mose-llm" ]; then
    AICB_HEAD='HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 1 ep: 2 pp: 1 vpp: 1 ga: 1 all_gpus: 2 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 0'
    AICB_LINE='a\t-1\t1000\tALLTOALL_EP\t4096\t1000\tNONE\t0\t1000\tALLREDUCE\t4096\t100\n'
    printf '%s\n1\na\t-1\t1000\tALLTOALL_EP\t4096\t1000\n' "$AICB_HEAD" >"$WORK/aicb-short.txt"
    printf '%s\n1\na\t-1\t1000\tALLREDUCEALLTOALL\t4096\t1000\tNONE\t0\t1000\tNONE\t0\t100\n' "$AICB_HEAD" >"$WORK/aicb-coll.txt"
    printf '%s\n1\na\t-1\t1000\tNONE\t0\t1000\tNONE\t0\t1000\tALLREDUCE\t-8\t100\n' "$AICB_HEAD" >"$WORK/aicb-negative.txt"
    printf '%s\n1\na\t-1\t1000\tALLTOALL_EP\t0\t1000\tNONE\t0\t1000\tNONE\t0\t100\n' "$AICB_HEAD" >"$WORK/aicb-zero.txt"
    printf 'HYBRID_TRANSFORMER model_parallel_NPU_group: 4 all_gpus: 2\n1\n'"$AICB_LINE" >"$WORK/aicb-group.txt"
    printf '%s\n3\n'"$AICB_LINE$AICB_LINE" "$AICB_HEAD" >"$WORK/aicb-count.txt"
    printf '1\n'"$AICB_LINE" >"$WORK/aicb-header.txt"
    # NAME TEXT FILE: mose-llm refuses $WORK/FILE with TEXT
    expect_aicb() {
        expect_error "$1" "$2" "$BIN/mose-llm" --map=false --policies=MoSE --trainingTrace=aicb:"$WORK/$3"
    }
    expect_aicb llm-aicb-short-line 'aicb-short.txt:3: 6 fields (no input-gradient collective)' aicb-short.txt
    expect_aicb llm-aicb-unknown-collective 'aicb-coll.txt:3: forward collective = "ALLREDUCEALLTOALL": a collective mose does not plan' aicb-coll.txt
    expect_aicb llm-aicb-negative-size 'aicb-negative.txt:3: weight-gradient collective size = -8: bytes >= 0' aicb-negative.txt
    expect_aicb llm-aicb-size-zero 'aicb-zero.txt:3: forward collective ALLTOALL_EP of size 0' aicb-zero.txt
    expect_aicb llm-aicb-group-too-large 'aicb-group.txt:1: model_parallel_NPU_group: 4: a TP group divides all_gpus: 2' aicb-group.txt
    expect_aicb llm-aicb-layer-count 'aicb-count.txt:4: line 2 announces 3 layers and the file has 2 layer lines' aicb-count.txt
    expect_aicb llm-aicb-no-header 'aicb-header.txt:1: no header' aicb-header.txt
fi
if [ -x "$BIN/mose-packet" ]; then
    expect_error packet-queue-size-forms 'invalid --ns3::DropTailQueue<Packet>::MaxSize = "100": a queue size: a count with its unit, packets (100p) or bytes (64kB, 1500B)' \
        "$BIN/mose-packet" --policies=MoSE '--ns3::DropTailQueue<Packet>::MaxSize=100'
fi
if [ -x "$BIN/mose-templates" ]; then
    expect_error templates-one-to-one 'invalid --assignment = one-to-one (default): one-to-one pairs each prefill group with one decode group, and --prefill = 32 and --decode = 0 differ' \
        "$BIN/mose-templates" --nodes=64 --prefill=32 --decode=0 --training=32 --kvShareInference=0
    expect_error templates-no-decode '--prefill = 32 and --decode = 0 leave the inference-heavy KV flows (--kvShareInference = 0.7 (default) of --flows' \
        "$BIN/mose-templates" --nodes=64 --prefill=32 --decode=0 --training=32
    expect_error templates-tr-one-to-one '--trPrefill = 0 and --trDecode = 6 (default)' \
        "$BIN/mose-templates" --nodes=64 --trPrefill=0 --trTraining=58
    expect_error templates-many-to-one-cap 'invalid --assignmentCap = 1 (default: max(r of H^PD, 1)): --assignment=many-to-one gives each decode group at most 1 prefill groups, and --prefill = 30 is more than 1 x --decode = 1' \
        "$BIN/mose-templates" --nodes=64 --prefill=30 --decode=1 --training=33 --assignment=many-to-one --pdReservedPorts=0
    expect_error templates-many-to-one-cap-given 'invalid --assignmentCap = "2": --assignment=many-to-one gives each decode group at most 2 prefill groups, and --trPrefill = 20 is more than 2 x --trDecode = 5' \
        "$BIN/mose-templates" --nodes=64 --trPrefill=20 --trDecode=5 --trTraining=39 --roleTransition=nested --assignment=many-to-one --assignmentCap=2 --biregular
fi

# issue 42's probe: an output that is an input (declared before any work, or refused when
# written), options that did nothing, a short rank mapping, a map compared with itself
if [ -x "$BIN/mose-mode-switch" ] && [ -x "$BIN/mose-templates" ]; then
    "$BIN/mose-templates" --nodes=16 --degree=4 --flows=20 --outputDir="$WORK/io-scn" >/dev/null 2>&1
    cp "$WORK/io-scn/roles_inference.csv" "$WORK/io-scn/roles-copy.csv"
    expect_error io-switch-write-scenario 'would replace the input --inferenceRolesFile' \
        "$BIN/mose-mode-switch" --nodes=16 --degree=4 --flows=20 --level=fluid --writeScenario \
        --outputDir="$WORK/io-scn" --inferenceRolesFile="$WORK/io-scn/roles_inference.csv"
    expect_error io-templates-output 'would replace the input --trainingFlowsFile' \
        "$BIN/mose-templates" --nodes=16 --degree=4 --flows=20 --outputDir="$WORK/io-scn" \
        --trainingFlowsFile="$WORK/io-scn/flows_training.csv"
    expect_same io-scenario-input-kept "$WORK/io-scn/roles_inference.csv" "$WORK/io-scn/roles-copy.csv"
    # the PNG gnuplot renders from a policy's goodput script is declared with it
    mkdir -p "$WORK/io-switch"
    cp "$WORK/io-scn/roles_training.csv" "$WORK/io-switch/goodput_MoSE.png"
    cp "$WORK/io-scn/roles_training.csv" "$WORK/io-switch/copy.csv"
    expect_error io-switch-png '--outputDir (goodput_MoSE.png) = "'"$WORK"'/io-switch/goodput_MoSE.png" would replace the input --trainingRolesFile' \
        "$BIN/mose-mode-switch" --nodes=16 --degree=4 --flows=20 --level=fluid --policies=MoSE \
        --outputDir="$WORK/io-switch" --trainingRolesFile="$WORK/io-switch/goodput_MoSE.png"
    expect_same io-switch-png-input-kept "$WORK/io-switch/goodput_MoSE.png" "$WORK/io-switch/copy.csv"
fi
# the flow-level studies declare every file their reports write (CSV files, gnuplot scripts and
# the PNGs gnuplot renders), named from the configuration: an input among them is refused before
# the study runs, not when the report is written after it
if [ -x "$BIN/mose-paper" ]; then
    mkdir -p "$WORK/io-paper"
    cp "$WORK/io-scn/roles_inference.csv" "$WORK/io-paper/summary.csv"
    cp "$WORK/io-scn/roles_training.csv" "$WORK/io-paper/fig5_kv_max_load.png"
    cp "$WORK/io-scn/roles_inference.csv" "$WORK/io-paper/copy.csv"
    cp "$WORK/io-scn/roles_training.csv" "$WORK/io-paper/copy-training.csv"
    expect_error io-paper-csv '--outputDir (summary.csv) = "'"$WORK"'/io-paper/summary.csv" would replace the input --inferenceRolesFile' \
        "$BIN/mose-paper" --nodes=16 --degree=4 --flows=100 --seeds=1 --plot=false \
        --outputDir="$WORK/io-paper" --inferenceRolesFile="$WORK/io-paper/summary.csv"
    expect_no_work io-paper-csv-early "$WORK/io-paper"
    expect_error io-paper-png '--outputDir (fig5_kv_max_load.png) = "'"$WORK"'/io-paper/fig5_kv_max_load.png" would replace the input --trainingRolesFile' \
        "$BIN/mose-paper" --nodes=16 --degree=4 --flows=100 --seeds=1 \
        --outputDir="$WORK/io-paper" --trainingRolesFile="$WORK/io-paper/fig5_kv_max_load.png"
    expect_no_work io-paper-png-early "$WORK/io-paper"
    expect_same io-paper-input-kept "$WORK/io-paper/summary.csv" "$WORK/io-paper/copy.csv"
    expect_same io-paper-png-input-kept "$WORK/io-paper/fig5_kv_max_load.png" "$WORK/io-paper/copy-training.csv"
    expect_error runs-list-merge '--listRuns and --merge = ' \
        "$BIN/mose-paper" --nodes=16 --degree=4 --flows=100 --listRuns --merge="$WORK/io-paper"
    expect_error runs-list-bool 'invalid --listRuns = "2": allowed values are true, false' \
        "$BIN/mose-paper" --listRuns=2
fi
if [ -x "$BIN/mose-baselines" ]; then
    mkdir -p "$WORK/io-base"
    cp "$WORK/io-scn/roles_inference.csv" "$WORK/io-base/baselines_per_seed.csv"
    expect_error io-baselines-csv '--outputDir (baselines_per_seed.csv) = "'"$WORK"'/io-base/baselines_per_seed.csv" would replace the input --inferenceRolesFile' \
        "$BIN/mose-baselines" --nodes=16 --degree=4 --flows=100 --seeds=1 --baselines=torus-2d \
        --outputDir="$WORK/io-base" --inferenceRolesFile="$WORK/io-base/baselines_per_seed.csv"
    expect_no_work io-baselines-csv-early "$WORK/io-base"
    expect_same io-baselines-input-kept "$WORK/io-scn/roles_inference.csv" "$WORK/io-base/baselines_per_seed.csv"
fi
if [ -x "$BIN/mose-break-even" ]; then
    mkdir -p "$WORK/io-be"
    cp "$WORK/io-scn/roles_training.csv" "$WORK/io-be/break_even.png"
    expect_error io-break-even-png '--outputDir (break_even.png) = "'"$WORK"'/io-be/break_even.png" would replace the input --trainingRolesFile' \
        "$BIN/mose-break-even" --nodes=16 --degree=4 --flows=100 --seeds=1 \
        --outputDir="$WORK/io-be" --trainingRolesFile="$WORK/io-be/break_even.png"
    expect_no_work io-break-even-png-early "$WORK/io-be"
    expect_same io-break-even-input-kept "$WORK/io-scn/roles_training.csv" "$WORK/io-be/break_even.png"
fi
if [ -x "$BIN/mose-sweep" ]; then
    # the sweep reads no scenario file: its outputs collide with each other. A figure's PNG that
    # is a link to sweep.csv (gnuplot writes through the link: it replaced the table with a
    # picture, exit 0, before), and two shares that the files name alike (one figure written twice)
    mkdir -p "$WORK/io-sweep"
    ln -sf sweep.csv "$WORK/io-sweep/switch_vs_r_n16_kv0.7.png"
    expect_error io-sweep-png-link '--outputDir (switch_vs_r_n16_kv0.7.png) = "'"$WORK"'/io-sweep/switch_vs_r_n16_kv0.7.png" would replace the output --outputDir (sweep.csv)' \
        "$BIN/mose-sweep" --sweepNodes=16 --sweepDegrees=4 --flows=100 --outputDir="$WORK/io-sweep"
    expect_no_work io-sweep-png-link-early "$WORK/io-sweep"
    expect_error io-sweep-share-names 'invalid --sweepKvShare = 0.1234561 and 0.1234562: both are 0.123456 to 6 significant digits' \
        "$BIN/mose-sweep" --sweepNodes=16 --sweepDegrees=4 --flows=100 --sweepKvShare=0.1234561,0.1234562 \
        --outputDir="$WORK/io-sweep"
    expect_no_work io-sweep-share-names-early "$WORK/io-sweep"
fi
if [ -x "$BIN/mose-llm" ]; then
    mkdir -p "$WORK/io-llm"
    cp "$(dirname "$0")/../examples/traces/moe-aicb.txt" "$WORK/io-llm/requests.csv"
    expect_error io-llm-aicb '--outputDir (requests.csv) = "'"$WORK"'/io-llm/requests.csv" would replace the input --trainingTrace' \
        "$BIN/mose-llm" --map=false --nodes=16 --degree=4 --level=fluid --policies=MoSE --hostsPerGroup=2 \
        --trainingTrace=aicb:"$WORK/io-llm/requests.csv" --outputDir="$WORK/io-llm"
    expect_error llm-nccl-without-trace 'invalid --ncclChannels = "4": the option would not be used: only with --trainingTrace' \
        "$BIN/mose-llm" --map=false --policies=MoSE --ncclChannels=4
    expect_error llm-rank-mapping-without-trace 'invalid --rankMapping = "r.txt": the option would not be used' \
        "$BIN/mose-llm" --map=false --policies=MoSE --rankMapping=r.txt
    printf '0 0 0\n' > "$WORK/one-rank.txt"
    expect_error llm-rank-mapping-short 'one-rank.txt: the rank mapping lists ranks 0 to 0' \
        "$BIN/mose-llm" --map=false --policies=MoSE --hostsPerGroup=2 --level=fluid \
        --trainingTrace=aicb:"$(dirname "$0")/../examples/traces/moe-aicb.txt" --rankMapping="$WORK/one-rank.txt"
    expect_error llm-scale-zero 'invalid --scale = "0": an integer >= 1' \
        "$BIN/mose-llm" --map=false --policies=MoSE --scale=0
fi
if [ -x "$BIN/mose-mode-switch" ]; then
    expect_error switch-pfc-bool 'invalid --pfc = "maybe": allowed values are true, false' \
        "$BIN/mose-mode-switch" --transport=rdma --pfc=maybe
fi
if [ -x "$BIN/mose-regime-figure" ]; then
    printf 'load_per_s,interval_s,dark_s,MoSE_kv_mean_s,MoSE_ttft_mean_s,MoSE_ttft_p99_s,MoSE_iter_mean_s,verdict\n25,0.1,0.01,1,1,1,1,tie\n' > "$WORK/self.csv"
    expect_error figure-compare-itself 'self.csv are the same file' \
        "$BIN/mose-regime-figure" --compare="$WORK/self.csv,$WORK/self.csv" --outputDir="$WORK/self-out"
fi

echo "$CASES cases, $FAILED failed"
[ "$FAILED" -eq 0 ]
