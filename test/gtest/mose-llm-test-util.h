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
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{
namespace mose
{
namespace test
{

/// \param nodes groups \return a small fabric: no switch, fast prefill (10^6 tokens/s), no
///         training, 1024 KV bytes per token, 10 Gb/s circuits and host links, end 100 ms
inline LlmExperimentConfig
SmallLlmConfig(uint32_t nodes)
{
    LlmExperimentConfig c = LlmExperimentConfig::Scaled(nodes);
    c.schedule = ModeSchedule();
    c.training = false;
    c.kvBytesPerToken = 1024;
    c.prefillTokensPerSecond = 1e6;
    c.ocsRate = DataRate("10Gbps");
    c.hostRate = DataRate("10Gbps");
    c.end = MilliSeconds(100);
    return c;
}

} // namespace test
} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_TEST_UTIL_H */
