#!/usr/bin/env bash
# Runs the packet-level fabric on ns-3's distributed simulator and checks that one rank and two
# ranks give the same figures (doc/mose.rst, "Distributed simulation (MPI)").
#
# usage: utils/mpi-check.sh [NS3_TREE] [--no-build]
#   NS3_TREE  an ns-3 source tree configured with --enable-mpi and mose among its modules
#             (default: the cached /var/cache/mose-ns3/3.37-mpi/ns-allinone-3.37/ns-3.37)
# Syncs this checkout into NS3_TREE/contrib/mose, builds test/mose-mpi-check there, runs it
# with mpirun -np 1 and -np 2 on a static fabric and across two switches (K = 1 and K = 2, 16 and
# 32 groups, and without drain; TCP, and RoCEv2 on 16 groups static and across a switch with
# drain), merges each run's per-rank files (sum / max / same lines, see
# the program) and diffs the 1-rank and 2-rank figures. Exits non-zero on any difference.
# MPIRUN overrides the launcher (default: mpirun, with --allow-run-as-root --oversubscribe as root).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
tree=/var/cache/mose-ns3/3.37-mpi/ns-allinone-3.37/ns-3.37
build=1
for a in "$@"; do
  case "$a" in
    --no-build) build=0 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) tree=$a ;;
  esac
done
say() { printf '[mpi-check] %s\n' "$*" >&2; }

cache="$tree/cmake-cache/CMakeCache.txt"
if [ ! -f "$cache" ]; then
  say "NS3_TREE = $tree: no cmake-cache/CMakeCache.txt; configure it first with"
  say "  ./ns3 configure --enable-mpi --enable-modules=\"mose;csma;mpi\" --enable-examples"
  exit 2
fi
if ! grep -q '^NS3_MPI:BOOL=ON' "$cache"; then
  say "NS3_TREE = $tree is not configured with --enable-mpi (NS3_MPI is not ON)"
  exit 2
fi
if [ -z "${MPIRUN:-}" ]; then
  MPIRUN=mpirun
  if [ "$(id -u)" -eq 0 ]; then MPIRUN="mpirun --allow-run-as-root --oversubscribe"; fi
fi

if [ "$build" -eq 1 ]; then
  say "sync $here -> $tree/contrib/mose"
  if command -v rsync > /dev/null 2>&1; then
    # every file copied gets the time of now: rsync -a keeps the checkout's time, which can be
    # older than the tree's objects (built from another checkout, or while this one changed),
    # and ninja would then keep an object of the old text
    rsync -a --delete --out-format='%n' --exclude build --exclude 'build-*' --exclude .git \
      "$here/" "$tree/contrib/mose/" |
      while IFS= read -r f; do
        if [ -f "$tree/contrib/mose/$f" ]; then touch "$tree/contrib/mose/$f"; fi
      done
  else
    rm -rf "$tree/contrib/mose"
    mkdir -p "$tree/contrib/mose"
    tar -C "$here" --exclude=./build --exclude='./build-*' --exclude=./.git -cf - . |
      tar -C "$tree/contrib/mose" -xf -
  fi
  say "build mose-mpi-check and mose-llm"
  # as utils/intree-check.sh: ./ns3 configure set CLICOLOR, and a rebuild without it would drop
  # -fdiagnostics-color=always from every compile line and recompile all of ns-3
  # mose-llm too: the map runs below use it, and it links the study library statically
  (cd "$tree" && CLICOLOR=1 nice cmake --build cmake-cache -j2 --target mose-mpi-check mose-llm)
fi
bin=$(find "$tree/build" -type f -perm -u+x -name '*mose-mpi-check*' | head -1)
if [ -z "$bin" ]; then
  say "no mose-mpi-check program under $tree/build"
  exit 2
fi

work=$(mktemp -d /tmp/mose-mpi-check.XXXXXX)
say "outputs in $work"
# merge the per-rank files of one run: sum lines add, max lines take the largest, same lines
# must be written by every rank alike (else MISMATCH)
merge() {
  local ranks=$1; shift
  awk -v R="$ranks" '
    $1 == "sum" || $1 == "max" {
      k = $0; sub(/ [^ ]*$/, "", k); v = $NF
      if ($1 == "sum") a[k] += v
      else if (!(k in a) || v + 0 > a[k] + 0) a[k] = v
      next
    }
    $1 == "same" { s[$0]++; next }
    END {
      for (k in a) printf "%s %.0f\n", k, a[k]
      for (k in s) if (s[k] != R) print "MISMATCH " k " (" s[k] " of " R " ranks)"; else print k
    }' "$@" | LC_ALL=C sort
}

status=0
run_case() {
  local name=$1; shift
  for np in 1 2; do
    rm -f "$work/$name.np$np".rank*.txt
    if ! $MPIRUN -np "$np" "$bin" "$@" --out="$work/$name.np$np" > "$work/$name.np$np.log" 2>&1; then
      say "$name: mpirun -np $np failed:"; tail -20 "$work/$name.np$np.log" >&2; status=1; return
    fi
    merge "$np" "$work/$name.np$np".rank*.txt > "$work/$name.np$np.merged"
    grep -h '^info' "$work/$name.np$np".rank*.txt | sed "s/^/[mpi-check] $name np=$np: /" >&2
  done
  if grep -q '^MISMATCH' "$work/$name.np2.merged"; then
    say "$name: the ranks disagree:"; grep '^MISMATCH' "$work/$name.np2.merged" >&2; status=1
  fi
  if diff "$work/$name.np1.merged" "$work/$name.np2.merged" > "$work/$name.diff"; then
    say "$name: 1 rank and 2 ranks identical ($(wc -l < "$work/$name.np1.merged") figures)"
  else
    say "$name: 1 rank and 2 ranks differ ($(grep -c '^>' "$work/$name.diff") figures):"
    head -20 "$work/$name.diff" >&2
    status=1
  fi
}

run_case static16 --groups=16 --switches=0
# a dark port at Run(), which ns-3's lookahead computation looks at
run_case dark16 --groups=16 --switches=0 --darkPort=true
run_case switch16 --groups=16 --switches=2 --phases=1
run_case switch32k2 --groups=32 --switches=2 --phases=2
# without drain: packets are lost on the wire and at dark ports, some across ranks; the counts
# must still agree
run_case nodrain32 --groups=32 --switches=2 --drain=false
# the same on RoCEv2 (MoseRdmaTransport): a QP's sender state on its source's rank, its
# receiver state on its destination's, QP numbers and completions alike on every rank
run_case rdma-static16 --groups=16 --switches=0 --transport=rdma
run_case rdma-switch16 --groups=16 --switches=2 --phases=1 --transport=rdma
# one run of mose-llm's regime map on MPI ranks, as a Slurm array task under mpirun carries it out
# (doc/mose.rst, "Running big studies"): its record's figures on 1 and 2 ranks (the run's
# counts per rank, its wall and processor time left out), over TCP and over RoCEv2
llm=$(find "$tree/build" -type f -perm -u+x -name '*mose-llm-default*' ! -name '*script*' | head -1)
# run_llm NAME TRANSPORT: run 3 of the map, its record on 1 and 2 ranks
run_llm() {
  local name=$1 transport=$2
  if [ -z "$llm" ]; then
    say "$name: no mose-llm program under $tree/build"; status=1; return
  fi
  for np in 1 2; do
    rm -rf "$work/$name.np$np"
    # MoSE's run (it switches): a polled drain cannot end alike on two ranks, so a fixed one
    if ! $MPIRUN -np "$np" "$llm" --distributed --nodes=16 --degree=4 --loads=25 \
        --intervals=400ms --darkTimes=10ms --flowLevelFlows=0 --plot=false --runs=3 \
        --transport="$transport" --ns3::MoseModeSwitcher::FixedDrain=true \
        --outputDir="$work/$name.np$np" > "$work/$name.np$np.log" 2>&1; then
      say "$name: mpirun -np $np failed:"; tail -20 "$work/$name.np$np.log" >&2; status=1
    fi
    grep -Ev '^(wall_s|cpu_s|max_rss_kb|run\.(wall_seconds|events|ranks|events_rank[0-9]+|circuits_cut))=' \
      "$work/$name.np$np/runs/run-000003.txt" > "$work/$name.np$np.figures" 2>/dev/null || true
  done
  if [ -s "$work/$name.np1.figures" ] && diff "$work/$name.np1.figures" "$work/$name.np2.figures" > "$work/$name.diff"; then
    say "$name: run 3 of the map on 1 rank and 2 ranks identical ($(wc -l < "$work/$name.np1.figures") lines of its record)"
  else
    say "$name: run 3 of the map differs between 1 and 2 ranks (or has no record):"
    head -20 "$work/$name.diff" >&2 2>/dev/null || true
    status=1
  fi
}
run_llm llm-map-run tcp
run_llm llm-map-run-rdma rdma
# a circuit delay below the lookahead at run time: an error naming both, on 2 ranks
if $MPIRUN -np 2 "$bin" --groups=16 --switches=2 --shrinkDelay=10 --out="$work/shrink" \
    > "$work/shrink.log" 2>&1; then
  say "shrinkDelay: the run did not stop at a circuit delay below the lookahead"; status=1
elif ! grep -q 'below the lookahead\|and lookahead = ' "$work/shrink.log"; then
  say "shrinkDelay: the run failed without the lookahead error:"; tail -5 "$work/shrink.log" >&2
  status=1
else
  say "shrinkDelay: stopped with: $(grep -m1 -o 'MoseOcsChannel.*' "$work/shrink.log")"
fi
if [ "$status" -eq 0 ]; then say "all identical"; else say "FAILED"; fi
exit "$status"
