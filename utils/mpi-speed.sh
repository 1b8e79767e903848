#!/usr/bin/env bash
# Wall time of the paper-scale packet-level programs on one process and on ns-3's distributed
# simulator with 1 and K MPI ranks, side by side, with the events per rank and a check that the
# runs wrote the same figures (doc/mose.rst, "Distributed simulation (MPI)", "Speed").
#
# usage: utils/mpi-speed.sh [NS3_TREE] [--ranks=K] [--only=packet|mode-switch|llm]
#   NS3_TREE  an ns-3 source tree configured with --enable-mpi and mose built in it (default:
#             the cached /var/cache/mose-ns3/3.37-mpi/ns-allinone-3.37/ns-3.37, which
#             utils/intree-check.sh builds)
#   --ranks   K (default 2: this machine's cores)
# The runs (N = 1024 groups, d = 4 (mose-llm: its default 8), run 1, groups by Partition=min-cut):
#   packet       mose-packet --nodes=1024 --policies=MoSE --flowMonitor=false --plot=false
#   mode-switch  mose-mode-switch --nodes=1024 --flows=2000 --policies=MoSE --plot=false, with
#                FixedDrain (the drain end every rank agrees on)
#   llm          mose-llm --map=false --policies=MoSE --nodes=1024 (d = 8) $LLM_ARGS (default
#                below), with FixedDrain: KV transfers and an all-to-all training job across a
#                switch
# Each as one ordinary process, then mpirun -np 1 and -np K with --distributed. Prints a table:
# whole-process wall seconds (/usr/bin/time), the program's simulation wall seconds, events per
# rank, and the speed-up of K ranks over one process. Exits non-zero if a run fails or the
# K-rank outputs differ from the one-process outputs.
# MPIRUN overrides the launcher (default: mpirun, with --allow-run-as-root --oversubscribe as root).
set -euo pipefail

tree=/var/cache/mose-ns3/3.37-mpi/ns-allinone-3.37/ns-3.37
ranks=2
# the LLM run: 40 requests at 400/s with their KV transfers, an all-to-all training job of 64 MiB
# per member over the 204 training groups (41,412 transfers) after 100 ms compute, and one
# switch to training-heavy at 50 ms (20 ms fixed drain, 10 ms dark)
LLM_ARGS=${LLM_ARGS:-"--requests=40 --rate=400 --schedule=inference-heavy:0.05s,training-heavy:0.05s \
  --placement=least-outstanding --prefillRate=200000 --tokensPerMember=4096 --compute=100ms \
  --hostRate=400Gbps --scale=1000 --ns3::MoseModeSwitcher::DrainTimeout=20ms"}
only=""
for a in "$@"; do
  case "$a" in
    --ranks=*) ranks=${a#--ranks=} ;;
    --only=*) only=${a#--only=} ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) tree=$a ;;
  esac
done
say() { printf '[mpi-speed] %s\n' "$*" >&2; }
if [ -z "${MPIRUN:-}" ]; then
  MPIRUN=mpirun
  if [ "$(id -u)" -eq 0 ]; then MPIRUN="mpirun --allow-run-as-root --oversubscribe"; fi
fi
find_bin() {
  find "$tree/build" -type f -perm -u+x -name "*$1-default" 2>/dev/null | head -1
}

work=$(mktemp -d /tmp/mose-mpi-speed.XXXXXX)
say "outputs in $work"
status=0
rows=()

# run NAME LAUNCH... : runs one configuration, keeps the whole-process wall time
run() {
  local name=$1; shift
  mkdir -p "$work/$name"
  if ! /usr/bin/time -f '%e' -o "$work/$name.time" "$@" --outputDir="$work/$name" \
      > "$work/$name.log" 2>&1; then
    say "$name failed:"; tail -20 "$work/$name.log" >&2; status=1; return 1
  fi
}

# sim_wall LOG: the sum of the program's "run X s wall" figures (mose-llm: its wall_s column)
sim_wall() {
  if grep -q '^policy .*wall_s' "$1"; then
    awk '/^policy / { for (i = 1; i <= NF; i++) if ($i == "wall_s") c = i; next }
         c && $1 == "MoSE" { print $c; exit }' "$1"
    return
  fi
  grep -o 'run [0-9.]* s wall' "$1" | awk '{ s += $2 } END { printf "%.2f", s }'
}

# events LOG: the per-rank events line of a distributed run, or the total of a one-process run
events() {
  local line
  line=$(grep -m1 'MPI ranks: events' "$1" || true)
  if [ -n "$line" ]; then
    sed 's/.*MPI ranks: events \([0-9 +]*\) (busiest \/ mean \([0-9.]*\)).*/\1 (busiest\/mean \2)/' <<<"$line"
  else
    grep -o '[0-9]* events' "$1" | head -1 | awk '{ print $1 }'
  fi
}

# fct_diff A B: transfers.csv of two runs; the same but for the end_s and fct_s columns (found by
# the header), else non-zero
fct_diff() {
  paste -d '|' "$1" "$2" | awk -F'|' '
    NR == 1 { n = split($1, h, ","); for (i = 1; i <= n; i++) { if (h[i] == "end_s") e = i; if (h[i] == "fct_s") f = i }; next }
    {
      n = split($1, a, ","); split($2, b, ",")
      for (i = 1; i <= n; i++) if (i != e && i != f && a[i] != b[i]) bad++
      if (a[f] != b[f]) { k++; d = a[f] - b[f]; if (d < 0) d = -d; if (d > m) m = d; if (d / a[f] > r) r = d / a[f] }
      t++
    }
    END {
      if (!e || !f) { print "DIFFER: transfers.csv (no end_s and fct_s columns)"; exit 1 }
      if (bad) { printf "DIFFER: transfers.csv (%d fields besides completion times)", bad; exit 1 }
      printf "identical but %d of %d completion times (largest %.0f ns, %.2f%%)", k, t, m * 1e9, r * 100 }'
}

# stat_diff A B: a per-class or per-interval CSV of two runs; the same but for the columns of
# completion-time statistics (fct_*, goodput*), else non-zero
stat_diff() {
  paste -d '|' "$1" "$2" | awk -F'|' -v name="$(basename "$1")" '
    NR == 1 { n = split($1, h, ","); next }
    {
      split($1, a, ","); split($2, b, ",")
      for (i = 1; i <= n; i++) if (a[i] != b[i]) { if (h[i] ~ /fct|goodput/) k++; else bad = bad " " h[i] }
    }
    END {
      if (bad != "") { printf "DIFFER: %s (%s)", name, bad; exit 1 }
      printf "%s: %d FCT statistics differ", name, k }'
}

measure() {
  local key=$1 program=$2; shift 2
  local bin
  bin=$(find_bin "$program")
  if [ -z "$bin" ]; then say "no $program under $tree/build (build the tree first)"; status=1; return; fi
  say "$key: one process"
  run "$key.process" "$bin" "$@" || return
  say "$key: mpirun -np 1 --distributed"
  run "$key.np1" $MPIRUN -np 1 "$bin" "$@" --distributed || return
  say "$key: mpirun -np $ranks --distributed"
  run "$key.np$ranks" $MPIRUN -np "$ranks" "$bin" "$@" --distributed || return
  # every file identical, but for completion times of transfers.csv where packets from two
  # ranks tie at a node (doc, "Same results"): those are counted and their largest difference
  # printed; any other difference fails
  local same="identical" f g tail=""
  for f in "$work/$key.process"/*.csv; do
    g="$work/$key.np$ranks/$(basename "$f")"
    cmp -s "$f" "$g" && continue
    case "$f" in
      *transfers.csv) same="$(fct_diff "$f" "$g")$tail" || status=1 ;;
      *intervals.csv | *summary.csv) tail="$tail; $(stat_diff "$f" "$g")" || status=1 ;;
      *) same="DIFFER: $(basename "$f")"; status=1 ;;
    esac
  done
  local t0 t1 tk
  t0=$(cat "$work/$key.process.time"); t1=$(cat "$work/$key.np1.time"); tk=$(cat "$work/$key.np$ranks.time")
  rows+=("$(printf '%-12s | %8s s (%s s sim) | %8s s (%s s sim) | %8s s (%s s sim) | %5s x | %s | %s' \
    "$key" "$t0" "$(sim_wall "$work/$key.process.log")" "$t1" "$(sim_wall "$work/$key.np1.log")" \
    "$tk" "$(sim_wall "$work/$key.np$ranks.log")" "$(awk -v a="$t0" -v b="$tk" 'BEGIN { printf "%.2f", a / b }')" \
    "$(events "$work/$key.np$ranks.log")" "$same")")
}

if [ -z "$only" ] || [ "$only" = packet ]; then
  measure packet mose-packet --nodes=1024 --policies=MoSE --flowMonitor=false --plot=false \
    --ns3::MoseTopologyHelper::Partition=min-cut
fi
if [ -z "$only" ] || [ "$only" = mode-switch ]; then
  measure mode-switch mose-mode-switch --nodes=1024 --flows=2000 --policies=MoSE --plot=false \
    --ns3::MoseModeSwitcher::FixedDrain=true --ns3::MoseTopologyHelper::Partition=min-cut
fi
if [ -z "$only" ] || [ "$only" = llm ]; then
  measure llm mose-llm --map=false --policies=MoSE --nodes=1024 --transport=tcp $LLM_ARGS \
    --ns3::MoseModeSwitcher::FixedDrain=true --ns3::MoseTopologyHelper::Partition=min-cut
fi

echo
printf '%-12s | %-24s | %-24s | %-24s | %-7s | %s | %s\n' run "one process" "1 rank" "$ranks ranks" \
  speed-up "events per rank ($ranks ranks)" "outputs"
for r in "${rows[@]}"; do echo "$r"; done
exit "$status"
