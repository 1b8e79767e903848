/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mose-error.h"
#include "ns3/mose-fluid-llm.h"

#include <gtest/gtest.h>

using namespace ns3::mose;

namespace
{

/// Four groups (0 prefill, 1 decode, 2 and 3 training), d = 2, circuits of 1 GB/s with a
/// 1000 ns delay, packets of 1000 B without header, no host links; one request of 1000 tokens
/// of 1000 B arriving at 0, prefilled at 1e6 tokens/s (1 ms): its 1e6 B KV cache leaves at 1 ms
FluidLlmConfig
OneRequest()
{
    FluidLlmConfig c;
    c.fabric.ports = 2;
    c.fabric.circuitBitRate = 8e9;
    c.fabric.hostLinks = false;
    c.fabric.segmentBytes = 1000;
    c.fabric.wireBytesPerSegment = 1000;
    c.fabric.circuitDelayNs = 1000;
    c.fabric.darkNs = 1000000;
    for (auto& roles : c.roles)
    {
        roles = RoleAssignment::Contiguous({1, 1, 2});
    }
    c.graphs[0] = CircuitGraph(4, {{0, 1}, {2, 3}});
    c.graphs[1] = CircuitGraph(4, {{0, 2}, {1, 2}, {1, 3}});
    c.requests = {LlmRequest{0, 1000, 10, "", 0}};
    c.inference.kvBytesPerToken = 1000;
    c.inference.prefillTokensPerSecond = 1e6;
    c.training.reset();
    c.endNs = 10000000;
    c.stopNs = 100000000;
    return c;
}

// Without a switch: prefill 1 ms, then 1e6 B at 1 GB/s over the one circuit 0 - 1 (1 ms) and
// its delay: TTFT 2.001 ms
TEST(FluidLlmRun, OneRequestByHand)
{
    FluidLlmRun run(OneRequest());
    run.Run();
    const RequestRecord& r = run.GetRequests().at(0);
    EXPECT_TRUE(r.done);
    EXPECT_EQ(r.prefill, 0u);
    EXPECT_EQ(r.decode, 1u);
    EXPECT_EQ(r.prefillDone.GetNanoSeconds(), 1000000);
    EXPECT_EQ(r.kvEnd.GetNanoSeconds(), 2001000);
    EXPECT_EQ(r.wireBytes, 1000000u);
    EXPECT_EQ(run.GetNErrors(), 0u);
    EXPECT_EQ(run.GetFabric()->GetBytesBetween(0, 1), 1000000u);
}

// A switch at 1.5 ms to 0 - 2, 2 - 1, 1 - 3 removes the circuit the KV transfer is on after
// 5e5 B: it waits through the 1 ms dark time, then its 5e5 B left go 0 -> 2 -> 1 in 0.5 ms
// (fluid end 3 ms) and its last packet takes the two circuits' delays and one serialisation
// (1000 + 1000 + 1000 ns): TTFT 3.003 ms. The run stops once the request is served (the
// schedule's only boundary is past).
TEST(FluidLlmRun, RequestHeldThroughASwitch)
{
    FluidLlmConfig c = OneRequest();
    c.boundaries = {{1500000, WorkloadMode::TRAINING_HEAVY}};
    FluidLlmRun run(c);
    run.Run();
    const RequestRecord& r = run.GetRequests().at(0);
    EXPECT_TRUE(r.done);
    EXPECT_EQ(r.kvEnd.GetNanoSeconds(), 3003000);
    EXPECT_EQ(run.GetNSwitchesStarted(), 1u);
    const FluidSwitchRecord& s = run.GetFabric()->GetSwitchRecords().at(0);
    EXPECT_TRUE(s.done);
    EXPECT_EQ(s.transfersHeld, 1u);
    EXPECT_EQ(run.GetFabric()->GetTransfer(0).heldNs, 1000000);
    EXPECT_EQ(run.GetEndNs(), 3003000); // stopped at the notice (notice delay 0)
}

// The same inputs give the same records, bit for bit
TEST(FluidLlmRun, Deterministic)
{
    FluidLlmConfig c = OneRequest();
    c.requests.clear();
    for (uint64_t i = 0; i < 50; ++i)
    {
        c.requests.push_back(LlmRequest{i * 37000, 100 + 13 * i, 5, "", 0});
    }
    c.boundaries = {{700000, WorkloadMode::TRAINING_HEAVY}};
    FluidLlmRun a(c);
    FluidLlmRun b(c);
    a.Run();
    b.Run();
    ASSERT_EQ(a.GetRequests().size(), b.GetRequests().size());
    for (std::size_t i = 0; i < a.GetRequests().size(); ++i)
    {
        EXPECT_TRUE(a.GetRequests()[i].done);
        EXPECT_EQ(a.GetRequests()[i].kvEnd.GetNanoSeconds(),
                  b.GetRequests()[i].kvEnd.GetNanoSeconds());
    }
}

// A training job on four groups joined all to all (K4, d = 3) with no inference: every
// transfer of the all-to-all has a circuit direction of its own, so the aggregated collective
// (one weighted flow) ends exactly when the separate transfers do. All-to-all of S = 4e6 B:
// 1e6 B per pair at 1 GB/s after 1 ms of compute: the collective's last byte at 2 ms + 1000 ns,
// the next iteration starting then. A ring's transfers, each waiting for the one before, are
// not aggregated: the same flows as without aggregation.
TEST(FluidLlmRun, AggregatedCollectivesEqualTheTransfersWhenNoneShareALink)
{
    for (CollectiveKind kind : {CollectiveKind::ALL_TO_ALL, CollectiveKind::RING_ALL_REDUCE})
    {
        FluidLlmConfig c = OneRequest();
        c.fabric.ports = 3;
        for (auto& roles : c.roles)
        {
            roles = RoleAssignment::Contiguous({1, 1, 4});
        }
        const CircuitGraph k4(6, {{0, 1}, {2, 3}, {2, 4}, {2, 5}, {3, 4}, {3, 5}, {4, 5}});
        c.graphs = {k4, k4};
        c.requests.clear();
        TrainingSettings& t = c.training.emplace();
        t.collective = kind;
        t.collectiveBytes = 4000000;
        t.computeNs = 1000000;
        t.maxIterations = 3;
        c.endNs = 100000000;
        c.stopNs = 1000000000;
        FluidLlmRun exact(c);
        exact.Run();
        c.training->aggregate = true;
        FluidLlmRun aggregated(c);
        aggregated.Run();
        ASSERT_EQ(exact.GetIterations().size(), 3u);
        ASSERT_EQ(aggregated.GetIterations().size(), 3u);
        for (std::size_t i = 0; i < 3; ++i)
        {
            const IterationRecord& e = exact.GetIterations()[i];
            const IterationRecord& a = aggregated.GetIterations()[i];
            EXPECT_TRUE(a.done);
            EXPECT_EQ(a.start.GetNanoSeconds(), e.start.GetNanoSeconds());
            EXPECT_EQ(a.collectiveEnd.GetNanoSeconds(), e.collectiveEnd.GetNanoSeconds());
            EXPECT_EQ(a.transfers, e.transfers);
            EXPECT_EQ(a.wireBytes, e.wireBytes);
        }
        if (kind == CollectiveKind::ALL_TO_ALL)
        {
            EXPECT_EQ(exact.GetIterations()[0].collectiveEnd.GetNanoSeconds(), 2001000);
            EXPECT_EQ(exact.GetIterations()[1].start.GetNanoSeconds(), 2001000);
            EXPECT_EQ(aggregated.GetFabric()->GetTransfers().size(), 3u); // one flow each
        }
        else
        {
            EXPECT_EQ(aggregated.GetFabric()->GetTransfers().size(),
                      exact.GetFabric()->GetTransfers().size());
        }
        EXPECT_EQ(aggregated.GetFabric()->GetBytesBetween(2, 3),
                  exact.GetFabric()->GetBytesBetween(2, 3));
        EXPECT_EQ(aggregated.GetNErrors(), 0u);
    }
}

TEST(FluidLlmRun, BadInputIsNamed)
{
    FluidLlmConfig c = OneRequest();
    c.boundaries = {{0, WorkloadMode::TRAINING_HEAVY}};
    EXPECT_THROW(FluidLlmRun(c).Run(), Error);
    c = OneRequest();
    c.inference.prefillTokensPerSecond = 0;
    EXPECT_THROW(FluidLlmRun(c).Run(), Error);
    c = OneRequest();
    c.training.emplace().collectiveBytes = 1; // two training groups, S / scale = 1 B below them
    EXPECT_THROW(FluidLlmRun(c).Run(), Error);
    FluidLlmRun once(OneRequest());
    once.Run();
    EXPECT_THROW(once.Run(), Error);
}

} // namespace
