/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Template construction times: the uniform template H^U and the P-D-biased template H^PD(r)
 * (one-to-one assignment, circulant or random completion) at the paper's scale (N = 1024,
 * d = 4, 410/410/204 roles) and at N = 16384, d = 8 (the same proportions: 6560/6560/3264).
 * Every iteration draws a fresh graph from a new run of the template's stream.
 *
 *   build/bench/mose-bench-template-bench --benchmark_min_time=0.5
 */

#include "bench-util.h"

#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-topology-template.h"

#include <benchmark/benchmark.h>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::bench;

namespace
{

/// H^U; arguments: N, d
void
BM_Uniform(benchmark::State& state)
{
    auto n = static_cast<uint32_t>(state.range(0));
    auto d = static_cast<uint32_t>(state.range(1));
    uint64_t run = 1;
    for (auto _ : state)
    {
        Random rng = Random::Create(run++, Stream::UNIFORM);
        CircuitGraph g = BuildUniformTemplate(n, d, rng);
        benchmark::DoNotOptimize(g.GetNCircuits());
    }
    state.counters["circuits"] = static_cast<double>(n) * d / 2;
}

/// H^PD(r), one-to-one assignment; arguments: N, d, r, completion (0 circulant, 1 random)
void
BM_PdBiased(benchmark::State& state)
{
    auto n = static_cast<uint32_t>(state.range(0));
    auto d = static_cast<uint32_t>(state.range(1));
    RoleAssignment roles = RoleAssignment::Contiguous(ScaledRoles(n));
    PdAssignment a = OneToOneAssignment(roles);
    PdBiasedOptions o;
    o.reservedPorts = static_cast<uint32_t>(state.range(2));
    o.completion =
        state.range(3) == 0 ? BipartiteCompletion::CIRCULANT : BipartiteCompletion::RANDOM;
    uint64_t run = 1;
    for (auto _ : state)
    {
        Random rng = Random::Create(run++, Stream::PD_BIASED);
        CircuitGraph g = BuildPdBiasedTemplate(roles, d, a, o, rng);
        benchmark::DoNotOptimize(g.GetNCircuits());
    }
    state.SetLabel(ToString(o.completion));
}

/// The P-D assignment draw; arguments: N, kind (0 one-to-one, 1 many-to-one with cap 3)
void
BM_Assignment(benchmark::State& state)
{
    RoleAssignment roles =
        RoleAssignment::Contiguous(ScaledRoles(static_cast<uint32_t>(state.range(0))));
    auto kind = state.range(1) == 0 ? PdAssignmentKind::ONE_TO_ONE : PdAssignmentKind::MANY_TO_ONE;
    uint64_t run = 1;
    for (auto _ : state)
    {
        Random rng = Random::Create(run++, Stream::ASSIGNMENT);
        PdAssignment a = PdAssignment::Draw(roles, kind, 3, rng);
        benchmark::DoNotOptimize(a.GetPairs().data());
    }
}

} // namespace

BENCHMARK(BM_Uniform)->Args({1024, 4})->Args({16384, 8})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PdBiased)
    ->Args({1024, 4, 3, 0})
    ->Args({1024, 4, 1, 0})
    ->Args({1024, 4, 3, 1})
    ->Args({1024, 4, 1, 1})
    ->Args({16384, 8, 7, 0})
    ->Args({16384, 8, 3, 0})
    ->Args({16384, 8, 1, 0})
    ->Args({16384, 8, 1, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Assignment)->Args({1024, 0})->Args({1024, 1})->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
