/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The switch planner (PlanSwitchBatches) on small port plans whose chains, batches and
 * connectivity are worked out by hand; mode-switcher-test.cc replays it on template graphs.
 */

#include "ns3/mose-port-plan.h"
#include "ns3/mose-switch-planner.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3::mose;

namespace
{

/// \return the plan of N groups of d ports joined by the given circuits (all others dark)
PortPlan
Plan(uint32_t groups, uint32_t ports, const std::vector<PortCircuit>& circuits)
{
    std::vector<uint32_t> peers(groups * ports, PortPlan::DARK);
    for (const PortCircuit& c : circuits)
    {
        peers[c.groupA * ports + c.portA] = c.groupB * ports + c.portB;
        peers[c.groupB * ports + c.portB] = c.groupA * ports + c.portA;
    }
    return PortPlan::FromPeers(groups, ports, peers);
}

/// Circuits in the planner's output order
using Circuits = std::vector<PortCircuit>;

// Four groups of three ports, a complete graph; the target swaps 0-1 and 2-3 for 0-2 and 1-3:
//   removed (0,0,1,0), (2,2,3,2); added (0,0,2,2), (1,0,3,2); kept 0-2, 0-3, 1-2, 1-3.
// The chain from (0,0,1,0) leaves at port (1,0), added (1,0,3,2) leads to (3,2), removed
// (2,2,3,2) leaves at (2,2), added (0,0,2,2) leads back to (0,0): one chain of both.
const Circuits K4 =
    {{0, 0, 1, 0}, {0, 1, 2, 0}, {0, 2, 3, 0}, {1, 1, 2, 1}, {1, 2, 3, 1}, {2, 2, 3, 2}};
const Circuits K4_TARGET =
    {{0, 0, 2, 2}, {0, 1, 2, 0}, {0, 2, 3, 0}, {1, 0, 3, 2}, {1, 1, 2, 1}, {1, 2, 3, 1}};

} // namespace

TEST(SwitchPlanner, NothingChangesGivesNoBatch)
{
    const PortPlan current = Plan(4, 3, K4);
    EXPECT_TRUE(PlanSwitchBatches(current, DiffPorts(current, current), 1).empty());
    EXPECT_TRUE(PlanSwitchBatches(current, DiffPorts(current, current), 4).empty());
}

TEST(SwitchPlanner, KOneGivesOneBatchOfEverything)
{
    const PortPlan current = Plan(4, 3, K4);
    const PortCircuitDiff diff = DiffPorts(current, Plan(4, 3, K4_TARGET));
    ASSERT_EQ(diff.removed, (Circuits{{0, 0, 1, 0}, {2, 2, 3, 2}}));
    ASSERT_EQ(diff.added, (Circuits{{0, 0, 2, 2}, {1, 0, 3, 2}}));
    for (uint32_t k : {0U, 1U})
    {
        const auto batches = PlanSwitchBatches(current, diff, k);
        ASSERT_EQ(batches.size(), 1U) << "K=" << k;
        EXPECT_EQ(batches[0].removed, diff.removed);
        EXPECT_EQ(batches[0].added, diff.added);
        EXPECT_TRUE(batches[0].connected) << "the four kept circuits form the cycle 0-2-1-3-0";
    }
}

TEST(SwitchPlanner, TwoBatchesKeepTheGraphConnected)
{
    // batch 0 takes (0,0,1,0): kept + (2,2,3,2) is connected; it frees (0,0) and (1,0), but
    // neither added circuit has both ports free yet. Batch 1 takes (2,2,3,2) (the kept cycle
    // stays) and frees (2,2), (3,2): both added circuits go up at its relink.
    const PortPlan current = Plan(4, 3, K4);
    const PortCircuitDiff diff = DiffPorts(current, Plan(4, 3, K4_TARGET));
    for (uint32_t k : {2U, 8U}) // K above the removed count gives one batch per circuit
    {
        const auto batches = PlanSwitchBatches(current, diff, k);
        ASSERT_EQ(batches.size(), 2U) << "K=" << k;
        EXPECT_EQ(batches[0].removed, (Circuits{{0, 0, 1, 0}}));
        EXPECT_TRUE(batches[0].added.empty());
        EXPECT_TRUE(batches[0].connected);
        EXPECT_EQ(batches[1].removed, (Circuits{{2, 2, 3, 2}}));
        EXPECT_EQ(batches[1].added, (Circuits{{0, 0, 2, 2}, {1, 0, 3, 2}}));
        EXPECT_TRUE(batches[1].connected);
    }
}

TEST(SwitchPlanner, ChainOrderAndTheFallbackWhenNoBatchKeepsTheGraphConnected)
{
    // Ring 0-1-2-3-0 of two ports (port 0 to the right, port 1 to the left) becomes the ring
    // 0-2-1-3-0; (0,1,3,0) is kept. Chain order: (0,0,1,1) leaves at (1,1), added (1,1,2,0)
    // leads to (2,0): (2,0,3,1) leaves at (3,1), added (1,0,3,1) leads to (1,0): (1,0,2,1).
    const PortPlan current = Plan(4, 2, {{0, 0, 1, 1}, {0, 1, 3, 0}, {1, 0, 2, 1}, {2, 0, 3, 1}});
    const PortPlan target = Plan(4, 2, {{0, 0, 2, 1}, {0, 1, 3, 0}, {1, 0, 3, 1}, {1, 1, 2, 0}});
    const PortCircuitDiff diff = DiffPorts(current, target);
    ASSERT_EQ(diff.kept, (Circuits{{0, 1, 3, 0}}));

    // K=2: batch 0 wants ceil(3/2) = 2. (0,0,1,1) alone keeps the path 1-2-3-0; adding
    // (2,0,3,1) or (1,0,2,1) cuts it, so (2,0,3,1), the next in chain order, fills the batch,
    // which is marked not connected ({0,3} and {1,2}). It frees (0,0), (1,1), (2,0), (3,1):
    // (1,1,2,0) goes up. Batch 1 takes (1,0,2,1); routed on 0-3 and the new 1-2: not connected.
    const auto two = PlanSwitchBatches(current, diff, 2);
    ASSERT_EQ(two.size(), 2U);
    EXPECT_EQ(two[0].removed, (Circuits{{0, 0, 1, 1}, {2, 0, 3, 1}}));
    EXPECT_EQ(two[0].added, (Circuits{{1, 1, 2, 0}}));
    EXPECT_FALSE(two[0].connected);
    EXPECT_EQ(two[1].removed, (Circuits{{1, 0, 2, 1}}));
    EXPECT_EQ(two[1].added, (Circuits{{0, 0, 2, 1}, {1, 0, 3, 1}}));
    EXPECT_FALSE(two[1].connected);

    // K=3: one circuit per batch in chain order; only the first keeps the graph connected
    const auto three = PlanSwitchBatches(current, diff, 3);
    ASSERT_EQ(three.size(), 3U);
    EXPECT_EQ(three[0].removed, (Circuits{{0, 0, 1, 1}}));
    EXPECT_TRUE(three[0].added.empty());
    EXPECT_TRUE(three[0].connected);
    EXPECT_EQ(three[1].removed, (Circuits{{2, 0, 3, 1}}));
    EXPECT_EQ(three[1].added, (Circuits{{1, 1, 2, 0}}));
    EXPECT_FALSE(three[1].connected);
    EXPECT_EQ(three[2].removed, (Circuits{{1, 0, 2, 1}}));
    EXPECT_EQ(three[2].added, (Circuits{{0, 0, 2, 1}, {1, 0, 3, 1}}));
    EXPECT_FALSE(three[2].connected);
}

TEST(SwitchPlanner, OnlyAddedCircuitsGiveOneBatch)
{
    // two dark groups joined: nothing to tear down, one batch that only relinks (the graph
    // routed on before it, no circuit at all, is not connected)
    const PortPlan current = Plan(2, 1, {});
    const PortCircuitDiff diff = DiffPorts(current, Plan(2, 1, {{0, 0, 1, 0}}));
    const auto batches = PlanSwitchBatches(current, diff, 4);
    ASSERT_EQ(batches.size(), 1U);
    EXPECT_TRUE(batches[0].removed.empty());
    EXPECT_EQ(batches[0].added, (Circuits{{0, 0, 1, 0}}));
    EXPECT_FALSE(batches[0].connected);
}
