/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-placement.h"
#include "ns3/mose-random.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-topology-template.h"

#include <gtest/gtest.h>
#include <memory>
#include <set>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// 10 groups: 0-2 prefill, 3-4 decode, 5-9 training
RoleAssignment
ModeA()
{
    return RoleAssignment::Contiguous({3, 2, 5});
}

/// the same 10 groups in another mode: 7 and 8 prefill, 5 and 9 decode, the rest training
RoleAssignment
ModeB()
{
    std::vector<GroupRole> roles(10, GroupRole::TRAINING);
    roles[7] = roles[8] = GroupRole::PREFILL;
    roles[5] = roles[9] = GroupRole::DECODE;
    return RoleAssignment(roles);
}

/// Circuits 0-4, 1-3, 1-4, 2-6, 0-7, 8-9, 7-5, 3-6 on 10 groups
std::shared_ptr<const CircuitGraph>
SmallGraph()
{
    return std::make_shared<const CircuitGraph>(
        10,
        std::vector<Circuit>{{0, 4}, {1, 3}, {1, 4}, {2, 6}, {0, 7}, {8, 9}, {5, 7}, {3, 6}});
}

/// \return the placement as a pair
std::pair<uint32_t, uint32_t>
Pair(const RequestPlacement& p)
{
    return {p.prefill, p.decode};
}

} // namespace

TEST(Placement, Names)
{
    EXPECT_EQ(ToString(PlacementRule::CIRCUIT_AWARE), "circuit-aware");
    EXPECT_EQ(ParseEnum<PlacementRule>("RR", "--placement"), PlacementRule::ROUND_ROBIN);
    EXPECT_EQ(ParseEnum<PlacementRule>("least-outstanding", "--placement"),
              PlacementRule::LEAST_OUTSTANDING);
}

TEST(Placement, RoundRobin)
{
    RequestPlacer placer(PlacementRule::ROUND_ROBIN, ModeA(), SmallGraph());
    using P = std::pair<uint32_t, uint32_t>;
    const std::vector<P> expected = {{0, 3}, {1, 4}, {2, 3}, {0, 4}, {1, 3}, {2, 4}, {0, 3}};
    for (const P& e : expected)
    {
        RequestPlacement p = placer.Place();
        EXPECT_EQ(Pair(p), e);
        EXPECT_EQ(p.direct, e == P(0, 4) || e == P(1, 3) || e == P(1, 4));
    }
    // work reports do not move round-robin
    placer.StartWork(1, 1000);
    EXPECT_EQ(Pair(placer.Place()), P(1, 4));
}

TEST(Placement, LeastOutstanding)
{
    RequestPlacer placer(PlacementRule::LEAST_OUTSTANDING, ModeA());
    using P = std::pair<uint32_t, uint32_t>;
    // all idle: the lowest ids
    RequestPlacement p = placer.Place();
    EXPECT_EQ(Pair(p), P(0, 3));
    EXPECT_FALSE(p.direct); // no graph given
    // Place() records nothing: the same answer until work is reported
    EXPECT_EQ(Pair(placer.Place()), P(0, 3));
    placer.StartWork(0, 100);
    placer.StartWork(3, 50);
    EXPECT_EQ(Pair(placer.Place()), P(1, 4));
    placer.StartWork(1, 10);
    placer.StartWork(4, 60);
    EXPECT_EQ(Pair(placer.Place()), P(2, 3));
    placer.StartWork(2, 10);
    EXPECT_EQ(Pair(placer.Place()), P(1, 3)); // 1 and 2 tie at 10: the lower id
    placer.FinishWork(0, 100);
    placer.FinishWork(4, 60);
    EXPECT_EQ(Pair(placer.Place()), P(0, 4));
    EXPECT_EQ(placer.GetOutstanding(0), 0U);
    EXPECT_EQ(placer.GetOutstanding(3), 50U);
    EXPECT_EQ(placer.GetOutstanding(1), 10U);
}

TEST(Placement, CircuitAwarePrefersDirectCircuits)
{
    RequestPlacer placer(PlacementRule::CIRCUIT_AWARE, ModeA(), SmallGraph());
    using P = std::pair<uint32_t, uint32_t>;
    // prefill 0 (least outstanding); its only decode neighbour is 4, not the idle lower id 3
    RequestPlacement p = placer.Place();
    EXPECT_EQ(Pair(p), P(0, 4));
    EXPECT_TRUE(p.direct);
    // even when 4 is far busier than 3
    placer.StartWork(4, 1000);
    EXPECT_EQ(Pair(placer.Place()), P(0, 4));
    // prefill 1 has decode neighbours 3 and 4: the less busy one
    placer.StartWork(0, 5);
    p = placer.Place();
    EXPECT_EQ(Pair(p), P(1, 3));
    EXPECT_TRUE(p.direct);
    placer.StartWork(3, 2000);
    EXPECT_EQ(Pair(placer.Place()), P(1, 4));
    placer.FinishWork(4, 1000);
    placer.StartWork(3, 0);
    EXPECT_EQ(Pair(placer.Place()), P(1, 4));
    // prefill 2 has no decode neighbour (only 6, a training group): least outstanding decode
    placer.StartWork(1, 5);
    p = placer.Place();
    EXPECT_EQ(Pair(p), P(2, 4));
    EXPECT_FALSE(p.direct);
    placer.StartWork(4, 5000);
    EXPECT_EQ(Pair(placer.Place()), P(2, 3));
}

TEST(Placement, CircuitAwareOnPdBiasedTemplate)
{
    // every prefill group of H^PD(3) has 3 decode neighbours: every placement is direct, where
    // least-outstanding placement rarely is
    const uint32_t n = 64;
    RoleAssignment roles =
        RoleAssignment::Contiguous(RoleCounts::PaperScaled(n, WorkloadMode::INFERENCE_HEAVY));
    Random arng = Random::Create(1, Stream::ASSIGNMENT);
    PdAssignment a = PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, arng);
    Random trng = Random::Create(1, Stream::PD_BIASED);
    auto graph = std::make_shared<const CircuitGraph>(BuildPdBiasedTemplate(roles, 4, a, {}, trng));
    RequestPlacer aware(PlacementRule::CIRCUIT_AWARE, roles, graph);
    RequestPlacer least(PlacementRule::LEAST_OUTSTANDING, roles, graph);
    uint32_t direct = 0;
    for (uint32_t k = 0; k < 500; ++k)
    {
        const uint64_t in = 100 + (k * 37) % 900;
        const uint64_t out = 10 + (k * 11) % 90;
        for (RequestPlacer* placer : {&aware, &least})
        {
            RequestPlacement p = placer->Place();
            EXPECT_EQ(roles.Get(p.prefill), GroupRole::PREFILL);
            EXPECT_EQ(roles.Get(p.decode), GroupRole::DECODE);
            EXPECT_EQ(p.direct, graph->HasCircuit(p.prefill, p.decode));
            if (placer == &aware)
            {
                EXPECT_TRUE(p.direct) << "request " << k;
            }
            else
            {
                direct += p.direct ? 1 : 0;
            }
            placer->StartWork(p.prefill, in);
            placer->StartWork(p.decode, out);
            if (k >= 20)
            {
                // finish some older work so that the outstanding tokens vary
                placer->FinishWork(p.prefill, std::min(placer->GetOutstanding(p.prefill), in / 2));
            }
        }
    }
    EXPECT_LT(direct, 250U);
}

TEST(Placement, FollowsTheRolesAcrossAModeBoundary)
{
    const RoleAssignment a = ModeA();
    const RoleAssignment b = ModeB();
    auto graphA = SmallGraph();
    auto graphB =
        std::make_shared<const CircuitGraph>(10,
                                             std::vector<Circuit>{{7, 9}, {8, 5}, {8, 9}, {0, 1}});
    for (PlacementRule rule : {PlacementRule::ROUND_ROBIN,
                               PlacementRule::LEAST_OUTSTANDING,
                               PlacementRule::CIRCUIT_AWARE})
    {
        RequestPlacer placer(rule, a, graphA);
        std::set<uint32_t> prefill;
        std::set<uint32_t> decode;
        for (int k = 0; k < 50; ++k)
        {
            RequestPlacement p = placer.Place();
            prefill.insert(p.prefill);
            decode.insert(p.decode);
            placer.StartWork(p.prefill, 10 + k);
            placer.StartWork(p.decode, 5 + k);
        }
        EXPECT_EQ(prefill, (std::set<uint32_t>{0, 1, 2})) << ToString(rule);
        EXPECT_EQ(decode, (std::set<uint32_t>{3, 4})) << ToString(rule);
        const uint64_t oldWork = placer.GetOutstanding(0);
        EXPECT_GT(oldWork, 0U);

        placer.SetMode(b, graphB);
        EXPECT_EQ(placer.GetRoles().GetPrefill(), (std::vector<uint32_t>{7, 8}));
        prefill.clear();
        decode.clear();
        for (int k = 0; k < 50; ++k)
        {
            RequestPlacement p = placer.Place();
            EXPECT_EQ(b.Get(p.prefill), GroupRole::PREFILL) << ToString(rule);
            EXPECT_EQ(b.Get(p.decode), GroupRole::DECODE) << ToString(rule);
            if (rule == PlacementRule::CIRCUIT_AWARE)
            {
                EXPECT_TRUE(p.direct);
            }
            prefill.insert(p.prefill);
            decode.insert(p.decode);
            placer.StartWork(p.prefill, 10 + k);
            placer.StartWork(p.decode, 5 + k);
        }
        EXPECT_EQ(prefill, (std::set<uint32_t>{7, 8})) << ToString(rule);
        EXPECT_EQ(decode, (std::set<uint32_t>{5, 9})) << ToString(rule);
        // work started in the old mode is still outstanding and finishes normally
        EXPECT_EQ(placer.GetOutstanding(0), oldWork);
        placer.FinishWork(0, oldWork);
        EXPECT_EQ(placer.GetOutstanding(0), 0U);
    }
}

TEST(Placement, RoundRobinRestartsAtTheBoundary)
{
    RequestPlacer placer(PlacementRule::ROUND_ROBIN, ModeA());
    placer.Place();
    placer.SetMode(ModeB());
    EXPECT_EQ(Pair(placer.Place()), (std::pair<uint32_t, uint32_t>{7, 5}));
    EXPECT_EQ(Pair(placer.Place()), (std::pair<uint32_t, uint32_t>{8, 9}));
    EXPECT_EQ(Pair(placer.Place()), (std::pair<uint32_t, uint32_t>{7, 5}));
}

TEST(Placement, BadInput)
{
    // no decode group
    std::string m = ErrorOf([] {
        RequestPlacer p(PlacementRule::ROUND_ROBIN, RoleAssignment::Contiguous({3, 0, 2}));
    });
    EXPECT_CONTAINS(m, "roles");
    EXPECT_CONTAINS(m, "3 prefill and 0 decode");
    ExpectErrorContaining([] { RequestPlacer p(PlacementRule::CIRCUIT_AWARE, ModeA()); },
                          "circuit-aware placement rule needs the current circuit graph");
    auto small = std::make_shared<const CircuitGraph>(4, std::vector<Circuit>{{0, 1}});
    ExpectErrorContaining([&small] { RequestPlacer p(PlacementRule::ROUND_ROBIN, ModeA(), small); },
                          "invalid graph = 4 groups");

    auto graph = SmallGraph();
    RequestPlacer placer(PlacementRule::CIRCUIT_AWARE, ModeA(), graph);
    placer.StartWork(0, 7);
    ExpectErrorContaining(
        [&placer] {
            placer.SetMode(RoleAssignment::Contiguous({2, 2, 2}));
        },
        "the same N = 10");
    ExpectErrorContaining([&placer] { placer.SetMode(ModeB()); }, "graph");
    // a call that throws changes nothing
    EXPECT_EQ(placer.GetRoles().GetPrefill(), (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(placer.GetGraph(), graph);
    EXPECT_EQ(Pair(placer.Place()), (std::pair<uint32_t, uint32_t>{1, 3}));

    m = ErrorOf([&placer] { placer.FinishWork(0, 8); });
    EXPECT_CONTAINS(m, "FinishWork tokens = 8");
    EXPECT_CONTAINS(m, "7 tokens outstanding on group 0");
    EXPECT_EQ(placer.GetOutstanding(0), 7U);
    ExpectErrorContaining([&placer] { placer.StartWork(10, 1); }, "StartWork group = 10");
    ExpectErrorContaining([&placer] { placer.GetOutstanding(99); }, "below N = 10");
    ExpectErrorContaining([&placer] { placer.StartWork(0, UINT64_MAX); }, "64 bits");
}
