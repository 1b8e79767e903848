/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-llm-request.h"
#include "ns3/mose-mode-controller.h"
#include "ns3/mose-random.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

constexpr uint64_t SECOND = 1000000000ULL;
constexpr WorkloadMode INFERENCE = WorkloadMode::INFERENCE_HEAVY;
constexpr WorkloadMode TRAINING = WorkloadMode::TRAINING_HEAVY;

/// window 1 s, enter at 10/s, leave at 5/s, no dwell
ModeControllerOptions
Options(uint64_t dwellNs = 0)
{
    ModeControllerOptions o;
    o.windowNs = SECOND;
    o.enterInferenceLoad = 10.0;
    o.exitInferenceLoad = 5.0;
    o.minDwellNs = dwellNs;
    return o;
}

/// \brief Adds m arrivals of 1 spread inside the second (s, s + 1], then decides at s + 1
WorkloadMode
Second(ModeController& c, uint64_t s, uint64_t m)
{
    for (uint64_t k = 0; k < m; ++k)
    {
        c.AddLoad(s * SECOND + (k + 1) * SECOND / (m + 1), 1);
    }
    return c.Update((s + 1) * SECOND);
}

} // namespace

TEST(ModeController, HysteresisByHand)
{
    ModeController c(Options());
    EXPECT_EQ(c.GetMode(), TRAINING);
    EXPECT_EQ(Second(c, 0, 12), INFERENCE); // 12/s >= 10
    EXPECT_EQ(c.GetLoad(), 12.0);
    EXPECT_EQ(c.GetLastSwitchNs(), SECOND);
    EXPECT_EQ(Second(c, 1, 7), INFERENCE); // between the thresholds: no switch
    EXPECT_EQ(c.GetLoad(), 7.0);
    EXPECT_EQ(Second(c, 2, 4), TRAINING); // 4/s <= 5
    EXPECT_EQ(Second(c, 3, 7), TRAINING); // between: no switch back
    EXPECT_EQ(Second(c, 4, 9), TRAINING);
    EXPECT_EQ(Second(c, 5, 10), INFERENCE); // exactly the enter threshold
    EXPECT_EQ(Second(c, 6, 6), INFERENCE);
    EXPECT_EQ(Second(c, 7, 5), TRAINING); // exactly the exit threshold
    EXPECT_EQ(c.GetNSwitches(), 4U);
    EXPECT_EQ(c.GetLastSwitchNs(), 8 * SECOND);
}

TEST(ModeController, SlidingWindowEdges)
{
    ModeControllerOptions o = Options();
    o.windowNs = 2 * SECOND;
    ModeController c(o);
    c.AddLoad(SECOND, 30);
    c.AddLoad(SECOND + 1, 4);
    c.Update(2 * SECOND);
    EXPECT_EQ(c.GetLoad(), 17.0); // 34 over the 2 s window
    c.Update(3 * SECOND);         // the window is (1 s, 3 s]: the amount at exactly 1 s has left
    EXPECT_EQ(c.GetLoad(), 2.0);
    c.Update(3 * SECOND + 1);
    EXPECT_EQ(c.GetLoad(), 0.0);
    // before a full window has passed, the window still divides by W
    ModeController d(o);
    d.AddLoad(0, 10);
    d.Update(SECOND / 2);
    EXPECT_EQ(d.GetLoad(), 5.0);
}

TEST(ModeController, MinimumDwellTime)
{
    ModeController c(Options(5 * SECOND));
    // the start counts as a switch: 20/s at 1 s is held until 5 s
    EXPECT_EQ(Second(c, 0, 20), TRAINING);
    EXPECT_EQ(c.GetLoad(), 20.0);
    EXPECT_EQ(Second(c, 1, 20), TRAINING);
    EXPECT_EQ(Second(c, 2, 20), TRAINING);
    EXPECT_EQ(Second(c, 3, 20), TRAINING);
    EXPECT_EQ(Second(c, 4, 20), INFERENCE); // at 5 s
    EXPECT_EQ(c.GetLastSwitchNs(), 5 * SECOND);
    for (uint64_t s = 5; s < 9; ++s)
    {
        EXPECT_EQ(Second(c, s, 0), INFERENCE) << "at " << s + 1 << " s";
    }
    EXPECT_EQ(Second(c, 9, 0), TRAINING); // at 10 s
    EXPECT_EQ(c.GetNSwitches(), 2U);

    // a start time other than 0
    ModeController late(Options(5 * SECOND), 100 * SECOND);
    late.AddLoad(101 * SECOND, 50);
    EXPECT_EQ(late.Update(101 * SECOND), TRAINING);
    late.AddLoad(105 * SECOND, 50);
    EXPECT_EQ(late.Update(105 * SECOND), INFERENCE);
}

TEST(ModeController, BadInput)
{
    ModeControllerOptions o = Options();
    o.windowNs = 0;
    ExpectErrorContaining([&o] { ModeController c(o); }, "windowNs = 0");
    o = Options();
    o.exitInferenceLoad = -1;
    ExpectErrorContaining([&o] { ModeController c(o); }, "exitInferenceLoad = -1");
    o.exitInferenceLoad = std::nan("");
    ExpectErrorContaining([&o] { ModeController c(o); }, "exitInferenceLoad = nan");
    o = Options();
    o.enterInferenceLoad = 5.0;
    std::string m = ErrorOf([&o] { ModeController c(o); });
    EXPECT_CONTAINS(m, "enterInferenceLoad = 5");
    EXPECT_CONTAINS(m, "above exitInferenceLoad = 5");
    o.enterInferenceLoad = std::numeric_limits<double>::infinity();
    ExpectErrorContaining([&o] { ModeController c(o); }, "enterInferenceLoad = inf");

    ModeController c(Options(), 10 * SECOND);
    m = ErrorOf([&c] { c.Update(5 * SECOND); });
    EXPECT_CONTAINS(m, "Update time = 5000000000 ns");
    EXPECT_CONTAINS(m, "the last one was 10000000000 ns");
    c.Update(20 * SECOND);
    ExpectErrorContaining([&c] { c.AddLoad(19 * SECOND, 1); }, "AddLoad time");
    c.AddLoad(20 * SECOND, UINT64_MAX);
    ExpectErrorContaining([&c] { c.AddLoad(20 * SECOND, 1); }, "64 bits");
}

namespace
{

/// 20/s for 10 s (every 50 ms from 0), then 2/s (every 500 ms from 10 s to 29.5 s)
std::vector<LlmRequest>
BurstThenQuiet()
{
    std::vector<LlmRequest> r;
    for (uint64_t k = 0; k < 200; ++k)
    {
        r.push_back({k * 50000000ULL, 5, 1});
    }
    for (uint64_t j = 0; j < 40; ++j)
    {
        r.push_back({10 * SECOND + j * 500000000ULL, 5, 1});
    }
    return r;
}

} // namespace

TEST(ScheduleModes, ByHand)
{
    ModeControllerOptions o = Options();
    o.windowNs = 2 * SECOND;
    ModelShape tiny; // 2 KV bytes per token, 10 per request
    tiny.layers = 1;
    tiny.kvHeads = 1;
    tiny.headDim = 1;
    tiny.kvBytesPerElement = 1;
    // at 1 s: 21 arrivals in (-1 s, 1 s] -> 10.5/s; at 11 s: 19 + 3 in (9 s, 11 s] -> 11/s;
    // at 12 s: 4 in (10 s, 12 s] -> 2/s
    ModeSchedule s =
        ScheduleModes(BurstThenQuiet(), OfferedLoad::REQUESTS, tiny, o, SECOND, 30 * SECOND);
    ASSERT_EQ(s.size(), 3U);
    EXPECT_EQ(s.GetStartNs(0), 0U);
    EXPECT_EQ(s[0].mode, TRAINING);
    EXPECT_EQ(s.GetStartNs(1), SECOND);
    EXPECT_EQ(s[1].mode, INFERENCE);
    EXPECT_EQ(s[1].load, 10.5);
    EXPECT_EQ(s.GetStartNs(2), 12 * SECOND);
    EXPECT_EQ(s[2].mode, TRAINING);
    EXPECT_EQ(s[2].load, 2.0);

    // the same in KV bytes per second, thresholds x 10 bytes per request
    o.enterInferenceLoad = 100.0;
    o.exitInferenceLoad = 50.0;
    ModeSchedule kv =
        ScheduleModes(BurstThenQuiet(), OfferedLoad::KV_BYTES, tiny, o, SECOND, 30 * SECOND);
    ASSERT_EQ(kv.size(), 3U);
    EXPECT_EQ(kv.GetStartNs(1), SECOND);
    EXPECT_EQ(kv[1].load, 105.0);
    EXPECT_EQ(kv.GetStartNs(2), 12 * SECOND);
    EXPECT_EQ(kv[2].load, 20.0);

    // decisions stop at endNs
    EXPECT_EQ(
        ScheduleModes(BurstThenQuiet(), OfferedLoad::KV_BYTES, tiny, o, SECOND, 11 * SECOND).size(),
        2U);
}

TEST(ScheduleModes, DwellBoundsTheSwitchingRate)
{
    LlmRequestGeneratorOptions g;
    g.requests = 3000;
    g.rate = 15.0;
    Random rng = Random::Create(1, Stream::LLM_REQUESTS);
    const std::vector<LlmRequest> requests = GenerateLlmRequests(g, rng);
    ModelShape shape = ModelShape::FromPreset(ModelPreset::LLAMA_3_8B);
    ModeControllerOptions o = Options();
    o.enterInferenceLoad = 16.0; // the load wanders around 15/s
    o.exitInferenceLoad = 14.0;
    const uint64_t end = 200 * SECOND;
    ModeSchedule free = ScheduleModes(requests, OfferedLoad::REQUESTS, shape, o, SECOND / 10, end);
    EXPECT_GT(free.size(), 20U);
    o.minDwellNs = 10 * SECOND;
    ModeSchedule held = ScheduleModes(requests, OfferedLoad::REQUESTS, shape, o, SECOND / 10, end);
    EXPECT_LT(held.size(), free.size());
    EXPECT_GE(held.size(), 3U);
    for (std::size_t i = 1; i < held.size(); ++i)
    {
        EXPECT_NE(held[i].mode, held[i - 1].mode);
        EXPECT_GE(held.GetStartNs(i) - held.GetStartNs(i - 1), 10 * SECOND);
    }
    // deterministic
    ModeSchedule again = ScheduleModes(requests, OfferedLoad::REQUESTS, shape, o, SECOND / 10, end);
    ASSERT_EQ(again.size(), held.size());
    for (std::size_t i = 0; i < held.size(); ++i)
    {
        EXPECT_EQ(again.GetStartNs(i), held.GetStartNs(i));
        EXPECT_EQ(again[i].load, held[i].load);
    }
}

TEST(ScheduleModes, BadInput)
{
    ModelShape shape = ModelShape::FromPreset(ModelPreset::LLAMA_3_8B);
    ExpectErrorContaining(
        [&shape] {
            ScheduleModes(BurstThenQuiet(), OfferedLoad::REQUESTS, shape, Options(), 0, SECOND);
        },
        "periodNs = 0");
    ExpectErrorContaining(
        [&shape] {
            ScheduleModes(BurstThenQuiet(), OfferedLoad::REQUESTS, shape, Options(), SECOND, 10);
        },
        "endNs = 10");
    std::vector<LlmRequest> unsorted = {{5, 1, 1}, {4, 1, 1}};
    ExpectErrorContaining(
        [&] { ScheduleModes(unsorted, OfferedLoad::REQUESTS, shape, Options(), SECOND, SECOND); },
        "requests[1].arrivalNs = 4");
    EXPECT_EQ(ParseEnum<OfferedLoad>("KV-Bytes", "--load"), OfferedLoad::KV_BYTES);
}
