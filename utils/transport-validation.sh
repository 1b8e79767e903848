#!/bin/sh
# The fluid level against both packet transports (issue 39, item 6): for each transport of
# TRANSPORTS (tcp: ns-3's TCP; rdma: the module's RoCEv2 MoseRdmaTransport with DCQCN and
# RED/ECN ports, mose-llm's default since this validation), mose-llm --level=both --seeds=SEEDS runs
# each cell set of SETS at the packet and the fluid level:
#   default   the default map (N = 64, d = 8, loads 25 and 800/s, T = 100 and 400 ms,
#             D = 10 and 100 ms, the four policies)
#   degree4   --degree=4, the cells of OFF_CELLS
#   ring      --collective=ring-all-reduce, the cells of OFF_CELLS
#   n256      --nodes=256, the cells of N256_CELLS, on N256_SEEDS seeds (1 by default: over tcp
#             one policy run of the cell takes 150-180 s of CPU and 2 GB, 4 of them a seed)
# Each run keeps its folder OUT/SET-TRANSPORT: stdout.txt, stderr.txt (NS_LOG=MoseExperiment=info:
# one "Simulator::Run(): E events, W s wall, C s CPU" line per packet-level simulation), time.txt
# (/usr/bin/time -v), level_validation.csv, packet/ and fluid/regime_map.csv. A folder that holds
# level_validation.csv is reused, not run again (FORCE=1 runs it again).
#
# Then it prints one table from those files: per cell set and load, per policy and transport, the
# packet level's and the fluid level's mean TTFT, mean KV time, mean iteration time and P99 TTFT
# (each the mean over the set's runs: cells x seeds), the relative error of the fluid's mean,
# (fluid - packet) / packet, the worst run's error (largest |error|, signed), the packets the
# packet level lost per cell; and in how many cells the map's verdict (pays, tie, does-not-pay)
# and its winners by mean TTFT, P99 TTFT and mean iteration are the same at both levels. Then each cell's verdicts, the fluid level's
# difference between the transports (it reads the transport's packet size) and each run's cost.
# With RST=FILE it also writes the first table to FILE as doc/mose.rst's reStructuredText table
# ("Validated against both transports"): rows by cell set, load, transport and policy.
#
# usage: nice -n 10 utils/transport-validation.sh
# env:   MOSE_BUILD_DIR (build), OUT (results/transport-validation), TRANSPORTS ("tcp rdma"),
#        SETS ("default degree4 ring n256"), SEEDS (3), N256_SEEDS (1),
#        OFF_CELLS ("--loads=25,800 --intervals=100ms --darkTimes=10ms"),
#        N256_CELLS ("--loads=800 --intervals=100ms --darkTimes=10ms"), FORCE (0),
#        RUN (1; 0: only print the table from the folders under OUT), RST (none: no rst table)
#
# doc/mose.rst, "RoCEv2 transport", "Validated against both transports", has the figures.
set -eu
BIN="${MOSE_BUILD_DIR:-build}/bin/mose-llm"
OUT="${OUT:-results/transport-validation}"
TRANSPORTS="${TRANSPORTS:-tcp rdma}"
SETS="${SETS:-default degree4 ring n256}"
SEEDS="${SEEDS:-3}"
N256_SEEDS="${N256_SEEDS:-1}"
OFF_CELLS="${OFF_CELLS:---loads=25,800 --intervals=100ms --darkTimes=10ms}"
N256_CELLS="${N256_CELLS:---loads=800 --intervals=100ms --darkTimes=10ms}"
FORCE="${FORCE:-0}"
RUN="${RUN:-1}"
RST="${RST:-}"

die() {
    echo "transport-validation.sh: $*" >&2
    exit 1
}

# the options of a cell set, without --seeds
set_options() {
    case "$1" in
    default) echo "" ;;
    degree4) echo "--degree=4 $OFF_CELLS" ;;
    ring) echo "--collective=ring-all-reduce $OFF_CELLS" ;;
    n256) echo "--nodes=256 $N256_CELLS" ;;
    *) die "SETS: unknown cell set '$1' (default, degree4, ring, n256)" ;;
    esac
}

set_seeds() {
    if [ "$1" = n256 ]; then echo "$N256_SEEDS"; else echo "$SEEDS"; fi
}

for t in $TRANSPORTS; do
    case "$t" in
    tcp | rdma) ;;
    *) die "TRANSPORTS: unknown transport '$t' (tcp, rdma)" ;;
    esac
done
for s in $SETS; do
    set_options "$s" >/dev/null
done

if [ "$RUN" != 0 ]; then
    [ -x "$BIN" ] || die "$BIN not found: build mose-llm first (cmake --build build --target mose-llm)"
    [ -x /usr/bin/time ] || die "/usr/bin/time not found (Debian's package time)"
    for s in $SETS; do
        for t in $TRANSPORTS; do
            dir="$OUT/$s-$t"
            if [ -f "$dir/level_validation.csv" ] && [ "$FORCE" = 0 ]; then
                echo "[transport-validation] $s $t: $dir holds a finished run, reused"
                continue
            fi
            mkdir -p "$dir"
            opts="--level=both --seeds=$(set_seeds "$s") --transport=$t $(set_options "$s")"
            opts="$opts --plot=false --flowLevelFlows=0"
            echo "[transport-validation] $s $t: mose-llm $opts --outputDir=$dir"
            # shellcheck disable=SC2086  # opts is a list of options
            NS_LOG="MoseExperiment=info" /usr/bin/time -v -o "$dir/time.txt" "$BIN" $opts \
                --outputDir="$dir" >"$dir/stdout.txt" 2>"$dir/stderr.txt" || {
                tail -5 "$dir/stderr.txt" >&2
                die "mose-llm failed for $s $t (see $dir)"
            }
        done
    done
fi

# the files, with the set and transport each belongs to (awk's var=value arguments)
files=""
for s in $SETS; do
    for t in $TRANSPORTS; do
        dir="$OUT/$s-$t"
        if [ ! -f "$dir/level_validation.csv" ]; then
            echo "[transport-validation] $s $t: no $dir/level_validation.csv, left out" >&2
            continue
        fi
        files="$files set=$s tr=$t FS=, kind=lv $dir/level_validation.csv"
        files="$files kind=pm $dir/packet/regime_map.csv kind=fm $dir/fluid/regime_map.csv"
        files="$files FS=[[:space:]]+ kind=err $dir/stderr.txt kind=time $dir/time.txt"
    done
done
[ -n "$files" ] || die "no finished run under $OUT"

set -f # FS=[[:space:]]+ below is no file pattern
# shellcheck disable=SC2086  # files is a list of awk arguments (no blanks in the paths)
awk -v transports="$TRANSPORTS" -v rst="$RST" '
function add(list, item) { return index(" " list " ", " " item " ") ? list : list (list == "" ? "" : " ") item }
# the winners by the three criteria, a tie counted as "tie" whoever leads it
function winners(a, b, c) { return (a ~ /^tie:/ ? "tie" : a) " " (b ~ /^tie:/ ? "tie" : b) " " (c ~ /^tie:/ ? "tie" : c) }
function ms(x) { return sprintf("%.3f", x * 1000) }
# the cells of set s at load l over transport tr: nc of them, same whose verdict and wsame whose
# winners are the same at both levels (globals, for the two tables)
function agree(s, l, tr,    C, k, td, key) {
    nc = split(cells[s SUBSEP l SUBSEP tr], C, " "); same = 0; wsame = 0
    for (k = 1; k <= nc; k++) {
        split(C[k], td, "/"); key = l SUBSEP td[1] SUBSEP td[2]
        same += v["pm", s, tr, key] == v["fm", s, tr, key]
        wsame += wn["pm", s, tr, key] == wn["fm", s, tr, key]
    }
}
function pct(x) { return sprintf("%+.1f%%", x * 100) }
# a row of the rst table, without trailing blanks
function rstrow(a, b, c, d, e, f, g, h, i,    line) {
    line = sprintf("%-11s  %-7s  %-4s  %-18s  %-18s  %-18s  %-18s  %-6s  %s", a, b, c, d, e, f, g, h, i)
    sub(/ +$/, "", line)
    print line > rst
}
FNR == 1 {
    for (i = 1; i <= NF; i++) col[kind, $i] = i
    if (kind == "lv" || kind == "pm" || kind == "fm") { sets = add(sets, set); next }
}
kind == "lv" {
    load = $col["lv", "load"]; pol = $col["lv", "policy"]
    loads[set] = add(loads[set], load); pols = add(pols, pol)
    g = set SUBSEP load SUBSEP pol SUBSEP tr
    runs[g]++
    for (f = 1; f <= 4; f++) {
        p = $col["lv", "packet_" fig[f] "_s"]; q = $col["lv", "fluid_" fig[f] "_s"]
        d = $col["lv", "diff_" fig[f]]
        if (p > 0 && q > 0) {
            sp[g, f] += p; sf[g, f] += q; n[g, f]++
            if (!((g, f) in worst) || (d < 0 ? -d : d) > (worst[g, f] < 0 ? -worst[g, f] : worst[g, f]))
                worst[g, f] = d
        }
    }
    next
}
kind == "pm" || kind == "fm" {
    key = $col[kind, "load_per_s"] SUBSEP $col[kind, "interval_s"] SUBSEP $col[kind, "dark_s"]
    cell = set SUBSEP $col[kind, "load_per_s"] SUBSEP tr
    if (kind == "pm") {
        cells[cell] = add(cells[cell], $col[kind, "interval_s"] "/" $col[kind, "dark_s"])
        # the packets the packet level lost per cell (the mean over the cell seeds)
        np = split(pols, P, " ")
        for (c = 1; c <= np; c++) if ((kind, P[c] "_lost") in col) {
            lost[set, $col[kind, "load_per_s"], P[c], tr] += $col[kind, P[c] "_lost"]
            lostn[set, $col[kind, "load_per_s"], P[c], tr]++
        }
    }
    v[kind, set, tr, key] = $col[kind, "verdict"]
    w[kind, set, tr, key] = $col[kind, "win_ttft_mean"] " " $col[kind, "win_ttft_p99"] " " $col[kind, "win_iter_mean"]
    wn[kind, set, tr, key] = winners($col[kind, "win_ttft_mean"], $col[kind, "win_ttft_p99"], $col[kind, "win_iter_mean"])
    next
}
kind == "err" && /Simulator::Run\(\): / {
    for (i = 1; i <= NF; i++) {
        if ($(i + 1) == "events,") ev[set, tr] += $i
        if ($(i + 1) == "s" && $(i + 2) == "CPU") pcpu[set, tr] += $i
    }
    nsim[set, tr]++
    next
}
kind == "time" && /User time|System time/ { cpu[set, tr] += $NF; next }
kind == "time" && /Maximum resident set size/ { rss[set, tr] = $NF; next }
kind == "time" && /Elapsed \(wall clock\)/ { wall[set, tr] = $NF; next }
BEGIN {
    fig[1] = "ttft_mean"; fig[2] = "kv_mean"; fig[3] = "iter_mean"; fig[4] = "ttft_p99"
    name[1] = "TTFT"; name[2] = "KV"; name[3] = "iter"; name[4] = "P99 TTFT"
}
END {
    nt = split(transports, trs, " ")
    print "The fluid level against the packet level, per transport: means over the runs (cells x seeds) in ms;"
    print "err = (fluid mean - packet mean) / packet mean; worst = the run with the largest |(fluid - packet) / packet|;"
    print "lost/cell = packets the packet level lost per cell (mean over the seeds);"
    print "verdict = cells whose verdict, and whose winners (mean TTFT, P99 TTFT, mean iteration; a tie counts as tie whoever leads it), are the same at both levels."
    printf "%-8s %5s %-8s %-4s %4s", "set", "load", "policy", "tr", "runs"
    for (f = 1; f <= 4; f++) printf " | %-34s", name[f] " packet / fluid, err, worst"
    printf " | %-9s | %s\n", "lost/cell", "verdict"
    ns = split(sets, S, " "); np = split(pols, P, " ")
    for (a = 1; a <= ns; a++) {
        nl = split(loads[S[a]], L, " ")
        for (b = 1; b <= nl; b++) for (c = 1; c <= np; c++) for (t = 1; t <= nt; t++) {
            g = S[a] SUBSEP L[b] SUBSEP P[c] SUBSEP trs[t]
            if (!(g in runs)) continue
            printf "%-8s %5s %-8s %-4s %4d", S[a], L[b], P[c], trs[t], runs[g]
            for (f = 1; f <= 4; f++) {
                if (n[g, f] == 0) { printf " | %-34s", "-"; continue }
                mp = sp[g, f] / n[g, f]; mf = sf[g, f] / n[g, f]
                printf " | %-34s", ms(mp) " / " ms(mf) ", " pct((mf - mp) / mp) ", " pct(worst[g, f])
            }
            printf " | %9s", (g in lostn) ? sprintf("%.0f", lost[g] / lostn[g]) : "-"
            agree(S[a], L[b], trs[t])
            printf " | %d/%d same, winners %d/%d\n", same, nc, wsame, nc
        }
    }
    if (rst != "") {
        # the table above for doc/mose.rst: per cell set and load, per transport and policy, the
        # packet / fluid means on one line and their errors (worst run) below; the verdicts on
        # the first row of a transport
        label["default"] = "map"; label["degree4"] = "d=4"; label["ring"] = "ring"; label["n256"] = "N=256"
        bar = "===========  =======  ====  ==================  ==================  ==================  ==================  ======  ========"
        print bar > rst
        rstrow("cells", "policy", "tr.", "mean TTFT", "mean KV time", "mean iteration", "P99 TTFT", "lost", "verdict")
        print bar > rst
        for (a = 1; a <= ns; a++) {
            nl = split(loads[S[a]], L, " ")
            for (b = 1; b <= nl; b++) for (t = 1; t <= nt; t++) {
                first = 1
                for (c = 1; c <= np; c++) {
                    g = S[a] SUBSEP L[b] SUBSEP P[c] SUBSEP trs[t]
                    if (!(g in runs)) continue
                    for (f = 1; f <= 4; f++) {
                        if (n[g, f] == 0) { top[f] = "-"; low[f] = ""; continue }
                        mp = sp[g, f] / n[g, f]; mf = sf[g, f] / n[g, f]
                        top[f] = ms(mp) " / " ms(mf); low[f] = pct((mf - mp) / mp) " (" pct(worst[g, f]) ")"
                    }
                    verdict = ""
                    if (first) {
                        agree(S[a], L[b], trs[t])
                        verdict = same "/" nc ", " wsame "/" nc
                    }
                    first = 0
                    rstrow((S[a] in label ? label[S[a]] : S[a]) " " L[b] "/s", P[c], trs[t], top[1], top[2], top[3], top[4],
                           (g in lostn) ? sprintf("%.0f", lost[g] / lostn[g]) : "-", verdict)
                    rstrow("", "", "", low[1], low[2], low[3], low[4], "", "")
                }
            }
        }
        print bar > rst
        close(rst)
    }
    print ""
    print "Per cell: verdict and winners (mean TTFT, P99 TTFT, mean iteration), packet | fluid:"
    for (a = 1; a <= ns; a++) for (t = 1; t <= nt; t++) {
        nl = split(loads[S[a]], L, " ")
        for (b = 1; b <= nl; b++) {
            cell = S[a] SUBSEP L[b] SUBSEP trs[t]
            nc = split(cells[cell], C, " ")
            for (k = 1; k <= nc; k++) {
                split(C[k], td, "/"); key = L[b] SUBSEP td[1] SUBSEP td[2]
                x = v["pm", S[a], trs[t], key] " " w["pm", S[a], trs[t], key]
                y = v["fm", S[a], trs[t], key] " " w["fm", S[a], trs[t], key]
                same = v["pm", S[a], trs[t], key] == v["fm", S[a], trs[t], key]
                wsame = wn["pm", S[a], trs[t], key] == wn["fm", S[a], trs[t], key]
                printf "  %-8s %-4s %5s/s T %-5s D %-5s %-44s | %-44s %s\n", S[a], trs[t], L[b], td[1], td[2], x, y, (!same ? "<- verdict differs" : !wsame ? "<- a winner differs" : "")
            }
        }
    }
    if (nt == 2) {
        print ""
        print "The fluid level over " trs[2] " against the fluid level over " trs[1] " (it reads the transport packet size): (" trs[2] " - " trs[1] ") / " trs[1] " of the means"
        for (a = 1; a <= ns; a++) {
            nl = split(loads[S[a]], L, " ")
            for (b = 1; b <= nl; b++) for (c = 1; c <= np; c++) {
                g1 = S[a] SUBSEP L[b] SUBSEP P[c] SUBSEP trs[1]; g2 = S[a] SUBSEP L[b] SUBSEP P[c] SUBSEP trs[2]
                if (!(g1 in runs) || !(g2 in runs)) continue
                printf "  %-8s %5s %-8s", S[a], L[b], P[c]
                for (f = 1; f <= 4; f++) {
                    if (n[g1, f] == 0 || n[g2, f] == 0) { printf "  %s -", name[f]; continue }
                    f1 = sf[g1, f] / n[g1, f]; f2 = sf[g2, f] / n[g2, f]
                    printf "  %s %s", name[f], pct((f2 - f1) / f1)
                }
                printf "\n"
            }
        }
    }
    print ""
    print "Cost per run: CPU of the process (user + system), of the packet level Simulator::Run() (summed), wall, peak RSS:"
    for (a = 1; a <= ns; a++) for (t = 1; t <= nt; t++) {
        if (!((S[a], trs[t]) in cpu)) continue
        printf "  %-8s %-4s process %8.1f s CPU, packet Simulator::Run %8.1f s CPU (%d runs, %d events), wall %s, peak %.0f MB\n", S[a], trs[t], cpu[S[a], trs[t]], pcpu[S[a], trs[t]], nsim[S[a], trs[t]], ev[S[a], trs[t]], wall[S[a], trs[t]], rss[S[a], trs[t]] / 1024
    }
}
' $files
