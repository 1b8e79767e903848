/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The packet-level route table: MoseRouteTable::Recompute() (all N * N next hops and distances
 * from the flow-level core) at N = 1024 and N = 4096, d = 4, for each rule, and the per-packet
 * lookups (single-path O(1), ECMP with the 5-tuple hash over the d ports).
 *
 *   build/bench/mose-bench-route-table-bench --benchmark_min_time=0.5
 */

#include "ns3/mose-addressing.h"
#include "ns3/mose-random.h"
#include "ns3/mose-route-table.h"
#include "ns3/mose-topology-template.h"

#include <benchmark/benchmark.h>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// A route table over the uniform template of run 1; rule 0 SP, 1 random SP, 2 ECMP
Ptr<MoseRouteTable>
MakeTable(uint32_t n, uint32_t d, int64_t rule)
{
    Random rng = Random::Create(1, Stream::UNIFORM);
    CircuitGraph g = BuildUniformTemplate(n, d, rng);
    auto table = CreateObject<MoseRouteTable>();
    table->SetAddressing(MoseAddressing(n, d));
    table->SetRule(rule == 0   ? RoutingRule::SHORTEST_PATH
                   : rule == 1 ? RoutingRule::RANDOM_SHORTEST_PATH
                               : RoutingRule::ECMP);
    table->SetSeed(12345);
    table->Update(MoseRouteTable::MakePeers(g, d));
    return table;
}

/// Recompute(); arguments: N, d, rule
void
BM_Recompute(benchmark::State& state)
{
    auto n = static_cast<uint32_t>(state.range(0));
    auto d = static_cast<uint32_t>(state.range(1));
    Ptr<MoseRouteTable> table = MakeTable(n, d, state.range(2));
    for (auto _ : state)
    {
        table->Recompute();
        benchmark::DoNotOptimize(table->GetOutputPort(0, n - 1));
    }
    state.SetLabel(ToString(table->GetActiveRule()));
}

/// GetOutputPort(node, dst[, flow hash]) over pseudo-random pairs; arguments: N, d, rule
void
BM_Lookup(benchmark::State& state)
{
    auto n = static_cast<uint32_t>(state.range(0));
    auto d = static_cast<uint32_t>(state.range(1));
    Ptr<MoseRouteTable> table = MakeTable(n, d, state.range(2));
    uint64_t x = 88172645463325252ULL;
    uint64_t sum = 0;
    for (auto _ : state)
    {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17; // xorshift: node, destination and flow from one word
        const auto node = static_cast<uint32_t>(x % n);
        const auto dst = static_cast<uint32_t>((x >> 20) % n);
        sum += table->GetOutputPort(node, dst, x);
    }
    benchmark::DoNotOptimize(sum);
    state.SetLabel(ToString(table->GetActiveRule()));
}

} // namespace

BENCHMARK(BM_Recompute)->ArgsProduct({{1024, 4096}, {4}, {0, 1, 2}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Lookup)->ArgsProduct({{1024, 4096}, {4}, {0, 1, 2}});

BENCHMARK_MAIN();
