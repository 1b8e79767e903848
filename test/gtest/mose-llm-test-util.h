/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_TEST_UTIL_H
#define MOSE_LLM_TEST_UTIL_H

// What the LLM tests share: the small fabric they run on.

#include "mose-llm-experiment.h"

#include "ns3/data-rate.h"
#include "ns3/mose-llm-request.h"
#include "ns3/mose-random.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{
namespace mose
{
namespace test
{

/// \param nodes groups \return a small fabric: no switch, fast prefill (10^6 tokens/s), no
///         training, 1024 KV bytes per token, 10 Gb/s circuits and host links, end 100 ms,
///         round-robin placement
inline ExperimentConfig
SmallLlmConfig(uint32_t nodes)
{
    ExperimentConfig c = MakeLlmConfig(nodes);
    c.schedule = ModeSchedule();
    c.llm.training = false;
    c.llm.kvBytesPerToken = 1024;
    c.llm.prefillTokensPerSecond = 1e6;
    c.llm.placement = PlacementRule::ROUND_ROBIN;
    c.ocsRate = DataRate("10Gbps");
    c.hostRate = DataRate("10Gbps");
    c.end = MilliSeconds(100);
    return c;
}

/// \param e an experiment, built \param mode a mode \return the mode's roles (of the run's
///         scenario)
inline const RoleAssignment&
RolesOf(const Experiment& e, WorkloadMode mode)
{
    return e.GetScenario().roles.at(static_cast<std::size_t>(mode));
}

/// \param c an LLM configuration \return its run (BuildLlmRun()), built and run
inline LlmRun
RunLlm(const ExperimentConfig& c)
{
    LlmRun run = BuildLlmRun(c);
    run.experiment->Run(GetLlmRunLabel(c));
    return run;
}

/// \param c a configuration \return the roles its experiment gives the inference-heavy mode
///         (built once, then the simulator destroyed), to size a collective by its members
inline RoleAssignment
ProbeRoles(const ExperimentConfig& c)
{
    const LlmRun probe = BuildLlmRun(c);
    RoleAssignment roles = RolesOf(*probe.experiment, WorkloadMode::INFERENCE_HEAVY);
    Simulator::Destroy();
    return roles;
}

/// \return generated requests: `count` at `rate`/s, prompts around `mean` tokens (stream
///         LLM_REQUESTS of `run`)
inline std::vector<LlmRequest>
Requests(uint64_t count, double rate, double mean, uint64_t run = 1)
{
    LlmRequestGeneratorOptions g;
    g.requests = count;
    g.rate = rate;
    g.input = {mean, 0.5, 16, 4 * static_cast<uint64_t>(mean)};
    g.output = {32.0, 0.5, 1, 256};
    Random rng = Random::Create(run, Stream::LLM_REQUESTS);
    return GenerateLlmRequests(g, rng);
}

/// \return 16 groups, 100 requests, a training job, one switch to training-heavy at 150 ms,
///         end 300 ms, 10 Gb/s circuits, round-robin placement
inline ExperimentConfig
OneSwitchConfig()
{
    ExperimentConfig c = MakeLlmConfig(16);
    c.llm.kvBytesPerToken = 2048;
    c.ocsRate = DataRate("10Gbps");
    c.llm.prefillTokensPerSecond = 1e6;
    c.llm.placement = PlacementRule::ROUND_ROBIN;
    c.schedule = {{WorkloadMode::INFERENCE_HEAVY, 0.15}, {WorkloadMode::TRAINING_HEAVY, 0}};
    c.end = MilliSeconds(300);
    c.llm.collectiveBytes = 100000;
    c.llm.computeTime = MilliSeconds(10);
    c.llm.requests = Requests(100, 400, 300);
    return c;
}

} // namespace test
} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_TEST_UTIL_H */
