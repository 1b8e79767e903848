/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The whole flow-level study of the paper (what mose-paper computes, without writing files):
 * 4 policies x 2 modes x 20 seeds at N = 1024, d = 4, 100,000 flows per mode. Each seed draws
 * roles, assignments, 3 templates and 200,000 flows and runs 6 evaluations.
 *
 *   build/bin/mose-bench-study-bench
 */

#include "mose-flow-experiment-helper.h"

#include <benchmark/benchmark.h>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// The paper's study; argument: worker threads (0 = one per core)
void
BM_PaperStudy(benchmark::State& state)
{
    const FlowExperimentConfig config; // the paper's defaults
    SeedPlan plan;                     // 20 seeds
    plan.threads = static_cast<uint32_t>(state.range(0));
    double maxLoad = 0;
    for (auto _ : state)
    {
        FlowExperimentHelper helper(config, plan);
        helper.Run();
        maxLoad =
            helper.Summarize(WorkloadMode::INFERENCE_HEAVY, Policy::MOSE, Metric::MAX_LOAD).mean;
    }
    // Run() fills the helper's results, so the loop cannot be optimised away
    state.counters["MoSE_maxLoad"] = benchmark::Counter(maxLoad);
    state.SetLabel(state.range(0) == 0 ? "threads: one per core" : "threads: 1");
}

BENCHMARK(BM_PaperStudy)
    ->ArgNames({"threads"})
    ->Arg(1)
    ->Arg(0)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
