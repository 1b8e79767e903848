/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The fluid level's rate computation: FluidNetwork::ComputeRates() (max-min fair rates) with
 * 1k, 10k and 100k concurrent flows on the circuits of a uniform template (N = 1024, d = 8),
 * each flow on its shortest path between a pseudo-random pair of groups, with and without the
 * two host links of its ends; and the aggregate level's computation: one weighted flow over every
 * link beside 10 or 100 single flows.
 *
 *   build/bench/mose-bench-fluid-bench --benchmark_min_time=0.5
 */

#include "ns3/mose-fluid-network.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-random.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"

#include <benchmark/benchmark.h>
#include <memory>
#include <vector>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// A network of N x d circuit directions (+ 2N host links) and `flows` flows on shortest paths
FluidNetwork
MakeNetwork(uint32_t n, uint32_t d, uint32_t flows, bool hosts)
{
    Random rng = Random::Create(1, Stream::UNIFORM);
    const PortPlan plan = PlanPorts(BuildUniformTemplate(n, d, rng), d);
    auto graph = std::make_shared<const CircuitGraph>(plan.ToCircuitGraph());
    const ShortestPathRouting routing(graph, RoutingRule::SHORTEST_PATH);
    FluidNetwork net;
    for (uint32_t l = 0; l < n * d; ++l)
    {
        net.AddLink(400e9 / 8);
    }
    for (uint32_t l = 0; l < 2 * n; ++l)
    {
        net.AddLink(3200e9 / 8);
    }
    std::vector<DestinationTree> trees(n);
    std::vector<bool> computed(n, false);
    uint64_t x = 88172645463325252ULL; // xorshift: the same pairs every run
    for (uint32_t f = 0; f < flows; ++f)
    {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const auto src = static_cast<uint32_t>(x % n);
        auto dst = static_cast<uint32_t>((x >> 20) % n);
        if (dst == src)
        {
            dst = (dst + 1) % n;
        }
        if (!computed[dst])
        {
            routing.ComputeTree(dst, trees[dst]);
            computed[dst] = true;
        }
        std::vector<FluidNetwork::LinkId> path;
        if (hosts)
        {
            path.push_back(n * d + src);
        }
        for (uint32_t node = src; node != dst; node = trees[dst].nextHop[node])
        {
            path.push_back(node * d +
                           plan.GetLocalPort(*graph, trees[dst].nextCircuit[node], node));
        }
        if (hosts)
        {
            path.push_back(n * d + n + dst);
        }
        net.AddFlow(1e6 + f, path);
    }
    return net;
}

/// ComputeRates(); arguments: flows, host links (0/1)
void
BM_ComputeRates(benchmark::State& state)
{
    FluidNetwork net = MakeNetwork(1024, 8, static_cast<uint32_t>(state.range(0)), state.range(1));
    for (auto _ : state)
    {
        net.ComputeRates();
        benchmark::DoNotOptimize(net.GetRate(0));
    }
    state.counters["flows"] = static_cast<double>(state.range(0));
    state.counters["flows/s"] = benchmark::Counter(static_cast<double>(state.range(0)) *
                                                       static_cast<double>(state.iterations()),
                                                   benchmark::Counter::kIsRate);
}

/// ComputeRates() of the aggregate level: one weighted flow over every link (an all-to-all's
/// aggregate on N = 1024, d = 8: the weights vary by link) beside `flows` single flows (KV
/// transfers) with host links; argument: flows
void
BM_ComputeRatesAggregate(benchmark::State& state)
{
    FluidNetwork net = MakeNetwork(1024, 8, static_cast<uint32_t>(state.range(0)), true);
    std::vector<FluidNetwork::LinkId> all(net.GetNLinks());
    std::vector<double> weights(all.size());
    for (uint32_t l = 0; l < all.size(); ++l)
    {
        all[l] = l;
        weights[l] = 100.0 + static_cast<double>(l % 7) * 20;
    }
    net.AddFlow(1e6, all, weights);
    for (auto _ : state)
    {
        net.ComputeRates();
        benchmark::DoNotOptimize(net.GetRate(0));
    }
    state.counters["links"] = static_cast<double>(all.size());
}

} // namespace

BENCHMARK(BM_ComputeRatesAggregate)->Arg(10)->Arg(100)->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_ComputeRates)
    ->ArgsProduct({{1000, 10000, 100000}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
