#!/usr/bin/python3
"""Side-by-side check and timing of mose's flow evaluation against python3-igraph and NetworkX.

The script
  1. exports one circuit graph (H^U at N=1024, d=4 by default) and one flow list (the paper's
     inference-heavy traffic, 100,000 flows) with build/bin/mose-templates,
  2. evaluates them with the module (build/bin/mose-flow-eval --repeat=K, fastest run),
  3. evaluates the same flows with igraph and with NetworkX, written the way a user would: BFS
     distances from every destination, then per-flow hop counts, and ECMP loads accumulated on
     each destination's shortest-path DAG,
  4. checks that the hop metrics (average hops per class, Direct-KV, 3+-hop share, hop histogram)
     and the ECMP per-circuit loads agree, and prints the time ratios.

It uses Debian's /usr/bin/python3 with python3-igraph and python3-networkx (utils/install-deps.sh).

usage: bench/compare-python.py [--build build] [--repeat 5] [--skip-networkx] [extra mose options]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

import igraph
import networkx


def read_graph(path):
    edges = []
    with open(path) as f:
        assert f.readline().strip() == "u,v"
        for line in f:
            u, v = line.strip().split(",")
            edges.append((int(u), int(v)))
    n = 1 + max(max(e) for e in edges)
    return n, edges


def read_flows(path):
    flows = []
    with open(path) as f:
        assert f.readline().strip() == "src,dst,class,demand"
        for line in f:
            s, t, c, x = line.strip().split(",")
            flows.append((int(s), int(t), c, float(x)))
    return flows


def evaluate(n, edges, flows, distances_to):
    """Hop metrics and ECMP loads; distances_to(t) returns the list of distances to t."""
    adjacency = [[] for _ in range(n)]
    for i, (u, v) in enumerate(edges):
        adjacency[u].append((v, i))
        adjacency[v].append((u, i))
    by_dst = defaultdict(lambda: defaultdict(float))
    for s, t, _c, x in flows:
        by_dst[t][s] += x
    hops = {}
    load = [0.0] * len(edges)
    for t, sources in by_dst.items():
        dist = distances_to(t)
        for s in sources:
            hops[(s, t)] = dist[s]
        # ECMP: demand at u is split evenly over neighbours one step closer, farthest first
        order = sorted(range(n), key=lambda u: -dist[u])
        acc = [0.0] * n
        for s, x in sources.items():
            acc[s] += x
        for u in order:
            if acc[u] == 0.0 or u == t:
                continue
            closer = [(v, i) for v, i in adjacency[u] if dist[v] == dist[u] - 1]
            share = acc[u] / len(closer)
            for v, i in closer:
                load[i] += share
                acc[v] += share
    metrics = {}
    for cls in ("kv", "training"):
        h = [hops[(s, t)] for s, t, c, _x in flows if c == cls]
        if not h:
            continue
        hist = [0] * (max(h) + 1)
        for x in h:
            hist[x] += 1
        metrics[cls] = {"avg_hop": sum(h) / len(h), "hist": hist,
                        "direct": sum(1 for x in h if x == 1) / len(h),
                        "three_plus": sum(1 for x in h if x >= 3) / len(h)}
    return metrics, load


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="the mose build folder")
    parser.add_argument("--repeat", type=int, default=5, help="module evaluations to time (fastest counts)")
    parser.add_argument("--skip-networkx", action="store_true", help="only igraph")
    args, mose_args = parser.parse_known_args()
    bin_dir = os.path.join(args.build, "bin")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([os.path.join(bin_dir, "mose-templates"), "--outputDir=" + tmp] + mose_args,
                       check=True, stdout=subprocess.DEVNULL)
        graph_file = os.path.join(tmp, "uniform.csv")
        flows_file = os.path.join(tmp, "flows_inference.csv")
        loads_file = os.path.join(tmp, "loads.csv")
        out = subprocess.run([os.path.join(bin_dir, "mose-flow-eval"), "--graph=" + graph_file,
                              "--flowsFile=" + flows_file, "--routing=ecmp", "--repeat=%d" % args.repeat,
                              "--loads=" + loads_file], check=True, capture_output=True, text=True)
        mose = json.loads(out.stdout)
        with open(loads_file) as f:
            f.readline()
            mose_load = [float(line.split(",")[3]) for line in f]
        n, edges = read_graph(graph_file)
        flows = read_flows(flows_file)

    print("graph: N=%d, %d circuits; %d flows" % (n, len(edges), len(flows)))
    module_s = mose["evaluate_seconds"]
    print("mose (route + loads + costs, ECMP): %.1f ms (fastest of %d)" % (module_s * 1e3, args.repeat))

    ok = True
    results = []
    g = igraph.Graph(n=n, edges=edges)
    start = time.perf_counter()
    results.append(("igraph", evaluate(n, edges, flows, lambda t: g.distances(source=[t])[0]),
                    time.perf_counter() - start))
    if not args.skip_networkx:
        nxg = networkx.Graph()
        nxg.add_nodes_from(range(n))
        nxg.add_edges_from(edges)

        def nx_distances(t):
            d = networkx.single_source_shortest_path_length(nxg, t)
            return [d[v] for v in range(n)]

        start = time.perf_counter()
        results.append(("networkx", evaluate(n, edges, flows, nx_distances), time.perf_counter() - start))

    for name, (metrics, load), seconds in results:
        checks = []
        for cls, key in (("kv", "kv"), ("training", "training")):
            if cls not in metrics:
                continue
            checks.append(abs(metrics[cls]["avg_hop"] - mose[key]["avg_hop"]) < 1e-9)
            hist = mose["hop_histogram_" + cls]
            checks.append(metrics[cls]["hist"] == hist[: len(metrics[cls]["hist"])] and
                          all(x == 0 for x in hist[len(metrics[cls]["hist"]):]))
        if "kv" in metrics:
            checks.append(abs(metrics["kv"]["direct"] - mose["direct_kv"]) < 1e-12)
            checks.append(abs(metrics["kv"]["three_plus"] - mose["kv_3plus"]) < 1e-12)
        worst = max(abs(a - b) for a, b in zip(load, mose_load))
        checks.append(len(load) == len(mose_load) and worst < 1e-6)
        agree = all(checks)
        ok = ok and agree
        print("%-9s %8.1f ms  = %6.1f x mose   hop metrics and ECMP loads %s (max load difference %.2e)"
              % (name, seconds * 1e3, seconds / module_s, "agree" if agree else "DISAGREE", worst))
    print("ECMP max load %.3f, KV avg hop %.4f, Direct-KV %.4f, 3+hop %.4f"
          % (mose["all"]["max_load"], mose["kv"]["avg_hop"], mose["direct_kv"], mose["kv_3plus"]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
