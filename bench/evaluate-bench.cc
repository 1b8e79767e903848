/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Flow-level evaluation times: one EvaluateFlows() call (grouping, the destination sweep with
 * its load and cost passes, summaries) on paper traffic (inference-heavy roles scaled to N with
 * RoleCounts::PaperScaled, one-to-one P-D assignment, rho = 0.7):
 *   - N = 1024, d = 4, 100,000 flows (the paper's scale; target < 20 ms), per routing rule,
 *     on the uniform template H^U and on the P-D-biased template H^PD (r = 3, circulant);
 *   - N = 1024, d = 4, 100,000 flows on H^U, both traffic mixes (inference-heavy roles with
 *     rho = 0.7, training-heavy roles with rho = 0.3), per routing rule (EvaluateMix; issue 6
 *     target < 5 ms under the single-path rules);
 *   - N = 16384, d = 8, 1,000,000 flows on H^U (target < 10 s, < 2 GB), one iteration per
 *     routing rule;
 *   - N = 65536, d = 8, 1,000,000 flows on H^U (issue 9: target < 30 s, < 4 GB), one iteration
 *     per routing rule, with the set-up time (template + traffic) and the process's peak RSS as
 *     counters (run one rule per process for its own peak), and BuildUniformTemplate() at that
 *     size once (UniformTemplateOnce).
 * Graph and flows are built outside the timed loop. Also: traffic generation, a single
 * destination tree (ComputeTree()) and a batch of 64 trees (ComputeTreeBatch()).
 *
 *   build/bin/mose-bench-evaluate-bench --benchmark_filter=EvaluateMix --benchmark_repetitions=5
 *   build/bin/mose-bench-evaluate-bench --benchmark_filter='Evaluate/N:65536/d:8/F:1000000/rule:1'
 *   build/bin/mose-bench-evaluate-bench --benchmark_filter=UniformTemplateOnce
 *
 * Measured (CPU time, medians; 2-core machine; doc/mose.rst, Performance, has the before/after
 * tables and where the time goes):
 *   EvaluateMix, inference-heavy / training-heavy: shortest-path 1.68-1.76 / 3.73-4.07 ms,
 *   random-shortest-path 2.42-2.59 / 6.33-6.82 ms, ecmp 8.29-8.49 / 24.6-25.6 ms (the previous
 *   release, 25ad5e0, in the same runs: 2.29-2.36 / 5.21-5.38, 3.03-3.21 / 7.80-8.13,
 *   8.80-8.91 / 26.3-27.1 ms);
 *   N = 65536, d = 8, 1,000,000 flows: shortest-path 1.79 s (165 MiB peak RSS),
 *   random-shortest-path 2.17 s (216 MiB), ecmp 3.4-3.6 s (116 MiB); set-up 0.2 s;
 * BuildUniformTemplate at N = 65536, d = 8: 96-190 ms.
 */

#include "bench-util.h"

#include "ns3/mose-metrics.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-traffic.h"

#include <benchmark/benchmark.h>
#include <chrono>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::bench;

namespace
{

/// A topology and its paper traffic
struct Setup
{
    CircuitGraph graph;      //!< the topology
    std::vector<Flow> flows; //!< the flows
};

/**
 * \param n N
 * \param d degree
 * \param flows F
 * \param pdBiased H^PD (r = d - 1, circulant completion) instead of H^U
 * \return the topology and rho = 0.7 traffic with a one-to-one assignment (run 1)
 */
Setup
MakeSetup(uint32_t n, uint32_t d, uint64_t flows, bool pdBiased)
{
    RoleAssignment roles = RoleAssignment::Contiguous(ScaledRoles(n));
    PdAssignment assignment = OneToOneAssignment(roles);
    Setup s;
    if (pdBiased)
    {
        Random rng = Random::Create(1, Stream::PD_BIASED);
        PdBiasedOptions o;
        o.reservedPorts = d - 1;
        s.graph = BuildPdBiasedTemplate(roles, d, assignment, o, rng);
    }
    else
    {
        s.graph = UniformGraph(n, d);
    }
    TrafficOptions options;
    options.flows = flows;
    options.kvShare = 0.7;
    Random trng = Random::Create(1, Stream::TRAFFIC);
    s.flows = GenerateTraffic(roles, assignment, options, trng);
    return s;
}

/// EvaluateFlows(); arguments: N, d, F, rule (0 shortest-path, 1 random, 2 ecmp), H^PD (0/1)
void
BM_Evaluate(benchmark::State& state)
{
    auto n = static_cast<uint32_t>(state.range(0));
    auto d = static_cast<uint32_t>(state.range(1));
    auto f = static_cast<uint64_t>(state.range(2));
    auto rule = static_cast<RoutingRule>(state.range(3));
    bool pd = state.range(4) != 0;
    const auto setupStart = std::chrono::steady_clock::now();
    Setup s = MakeSetup(n, d, f, pd);
    const double setupSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - setupStart).count();
    ShortestPathRouting routing(s.graph, rule, 1);
    FlowMetrics m;
    for (auto _ : state)
    {
        m = EvaluateFlows(routing, s.flows);
        benchmark::DoNotOptimize(m.all.avgCost);
    }
    state.SetLabel(ToString(rule) + (pd ? " H^PD" : " H^U"));
    state.counters["maxLoad"] = m.all.maxLoad;
    state.counters["kvAvgCost"] = m.kv.avgCost;
    state.counters["avgHop"] = m.all.avgHop;
    state.counters["flows/s"] =
        benchmark::Counter(static_cast<double>(f), benchmark::Counter::kIsIterationInvariantRate);
    // outside the timed loop: template + traffic, and the process's memory high-water mark
    state.counters["setupSeconds"] = setupSeconds;
    state.counters["peakRssMiB"] = PeakRssMiB();
}

/**
 * BuildUniformTemplate() once, outside any timed loop (a benchmark of its own: at large N it
 * runs once); arguments: N, d. Reports the build's wall seconds and the peak RSS so far.
 */
void
BM_UniformTemplateOnce(benchmark::State& state)
{
    auto n = static_cast<uint32_t>(state.range(0));
    auto d = static_cast<uint32_t>(state.range(1));
    double seconds = 0;
    for (auto _ : state)
    {
        const auto start = std::chrono::steady_clock::now();
        CircuitGraph g = UniformGraph(n, d);
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        benchmark::DoNotOptimize(g.GetNCircuits());
    }
    state.counters["buildSeconds"] = seconds;
    state.counters["peakRssMiB"] = PeakRssMiB();
}

/**
 * EvaluateFlows() on both traffic mixes of the paper at N = 1024, d = 4, 100,000 flows, on H^U;
 * arguments: mix (0 inference-heavy: roles 410/410/204, rho = 0.7; 1 training-heavy: roles
 * 102/102/820, rho = 0.3), rule (0 shortest-path, 1 random, 2 ecmp)
 */
void
BM_EvaluateMix(benchmark::State& state)
{
    const bool training = state.range(0) != 0;
    auto rule = static_cast<RoutingRule>(state.range(1));
    RoleAssignment roles = RoleAssignment::Contiguous(
        training ? RoleCounts::TrainingHeavyDefault() : RoleCounts::InferenceHeavyDefault());
    PdAssignment assignment = OneToOneAssignment(roles);
    CircuitGraph graph = UniformGraph(1024, 4);
    TrafficOptions options;
    options.flows = 100000;
    options.kvShare = training ? 0.3 : 0.7;
    Random trng = Random::Create(1, Stream::TRAFFIC);
    std::vector<Flow> flows = GenerateTraffic(roles, assignment, options, trng);
    ShortestPathRouting routing(graph, rule, 1);
    FlowMetrics m;
    for (auto _ : state)
    {
        m = EvaluateFlows(routing, flows);
        benchmark::DoNotOptimize(m.all.avgCost);
    }
    state.SetLabel(ToString(rule) + (training ? ", training-heavy" : ", inference-heavy"));
    state.counters["maxLoad"] = m.all.maxLoad;
    state.counters["kvAvgCost"] = m.kv.avgCost;
    state.counters["trAvgCost"] = m.training.avgCost;
}

/// GenerateTraffic(); arguments: N, F
void
BM_Traffic(benchmark::State& state)
{
    auto n = static_cast<uint32_t>(state.range(0));
    RoleAssignment roles = RoleAssignment::Contiguous(ScaledRoles(n));
    PdAssignment assignment = OneToOneAssignment(roles);
    TrafficOptions options;
    options.flows = static_cast<uint64_t>(state.range(1));
    Random rng = Random::Create(1, Stream::TRAFFIC);
    for (auto _ : state)
    {
        std::vector<Flow> flows = GenerateTraffic(roles, assignment, options, rng);
        benchmark::DoNotOptimize(flows.data());
    }
}

/// One destination tree (BFS + next hops); arguments: N, d, rule
void
BM_Tree(benchmark::State& state)
{
    auto n = static_cast<uint32_t>(state.range(0));
    auto d = static_cast<uint32_t>(state.range(1));
    CircuitGraph g = UniformGraph(n, d);
    ShortestPathRouting routing(g, static_cast<RoutingRule>(state.range(2)), 1);
    DestinationTree tree;
    uint32_t t = 0;
    for (auto _ : state)
    {
        routing.ComputeTree(t, tree);
        t = (t + 1) % n;
        benchmark::DoNotOptimize(tree.order.data());
    }
    state.SetLabel(ToString(routing.GetRule()));
}

/// 64 destination trees by one bit-parallel search; arguments: N, d, next hops (0/1)
void
BM_TreeBatch(benchmark::State& state)
{
    auto n = static_cast<uint32_t>(state.range(0));
    auto d = static_cast<uint32_t>(state.range(1));
    CircuitGraph g = UniformGraph(n, d);
    ShortestPathRouting routing(g, RoutingRule::SHORTEST_PATH);
    TreeBatch batch;
    std::vector<uint32_t> destinations(ShortestPathRouting::BATCH);
    uint32_t t = 0;
    for (auto _ : state)
    {
        for (uint32_t& x : destinations)
        {
            x = t;
            t = (t + 1) % n;
        }
        routing.ComputeTreeBatch(destinations.data(),
                                 ShortestPathRouting::BATCH,
                                 batch,
                                 state.range(2) != 0);
        benchmark::DoNotOptimize(batch.Distance(0, 0));
    }
    state.SetItemsProcessed(state.iterations() * ShortestPathRouting::BATCH);
    state.SetLabel(state.range(2) != 0 ? "trees/s, with next hops" : "trees/s, distances only");
}

} // namespace

BENCHMARK(BM_Evaluate)
    ->ArgNames({"N", "d", "F", "rule", "pd"})
    ->Args({1024, 4, 100000, 0, 0})
    ->Args({1024, 4, 100000, 1, 0})
    ->Args({1024, 4, 100000, 2, 0})
    ->Args({1024, 4, 100000, 0, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Evaluate)
    ->ArgNames({"N", "d", "F", "rule", "pd"})
    ->Args({16384, 8, 1000000, 0, 0})
    ->Args({16384, 8, 1000000, 1, 0})
    ->Args({16384, 8, 1000000, 2, 0})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
// Issue 9: N = 65536, d = 8, 1,000,000 flows (targets < 30 s and < 4 GB per rule); run one rule
// per process for its own peakRssMiB (the counter is the process's high-water mark)
BENCHMARK(BM_Evaluate)
    ->ArgNames({"N", "d", "F", "rule", "pd"})
    ->Args({65536, 8, 1000000, 0, 0})
    ->Args({65536, 8, 1000000, 1, 0})
    ->Args({65536, 8, 1000000, 2, 0})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_UniformTemplateOnce)
    ->ArgNames({"N", "d"})
    ->Args({65536, 8})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
// Scaling: one parameter at a time from (N=4096, d=4, F=100k, random-shortest-path); under
// load-aware evaluation the work is O(D (N + E)) for D destinations with demand plus O(F log F).
BENCHMARK(BM_Evaluate)
    ->ArgNames({"N", "d", "F", "rule", "pd"})
    ->Args({1024, 4, 100000, 1, 0})
    ->Args({4096, 4, 100000, 1, 0})
    ->Args({16384, 4, 100000, 1, 0})
    ->Args({4096, 8, 100000, 1, 0})
    ->Args({4096, 16, 100000, 1, 0})
    ->Args({4096, 4, 400000, 1, 0})
    ->Args({4096, 4, 1600000, 1, 0})
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EvaluateMix)
    ->ArgNames({"mix", "rule"})
    ->ArgsProduct({{0, 1}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Traffic)->ArgNames({"N", "F"})->Args({1024, 100000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Tree)
    ->ArgNames({"N", "d", "rule"})
    ->Args({1024, 4, 0})
    ->Args({1024, 4, 1})
    ->Args({16384, 8, 0})
    ->Args({16384, 8, 1})
    ->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_TreeBatch)
    ->ArgNames({"N", "d", "hops"})
    ->Args({1024, 4, 1})
    ->Args({16384, 8, 1})
    ->Args({16384, 8, 0})
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
