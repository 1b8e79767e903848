/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-random.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-traffic.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <set>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// Roles 0-2 prefill, 3-5 decode, 6-9 training
RoleAssignment
SmallRoles()
{
    return RoleAssignment::Contiguous({3, 3, 4});
}

/// Pairs 0->3, 1->4, 2->5, weight 1
PdAssignment
SmallAssignment()
{
    return PdAssignment({{0, 3, 1.0}, {1, 4, 1.0}, {2, 5, 1.0}});
}

} // namespace

TEST(TrafficClass, NamesRoundTrip)
{
    EXPECT_EQ(ToString(TrafficClass::KV), "kv");
    EXPECT_EQ(ToString(TrafficClass::TRAINING), "training");
    EXPECT_EQ(TryParseEnum<TrafficClass>("training"), TrafficClass::TRAINING);
    EXPECT_EQ(TryParseEnum<TrafficClass>("KV"), TrafficClass::KV);
    EXPECT_EQ(TryParseEnum<TrafficClass>("Tr"), TrafficClass::TRAINING);
    EXPECT_FALSE(TryParseEnum<TrafficClass>("prefill").has_value());
}

TEST(GenerateTraffic, ExactCountsAndShapes)
{
    RoleAssignment roles = SmallRoles();
    PdAssignment assignment = SmallAssignment();
    Random rng = Random::Create(1, Stream::TRAFFIC);
    TrafficOptions options;
    options.flows = 1000;
    options.kvShare = 0.7;
    options.demand = 2.5;
    std::vector<Flow> flows = GenerateTraffic(roles, assignment, options, rng);
    ASSERT_EQ(flows.size(), 1000U);
    std::set<std::pair<uint32_t, uint32_t>> pairs{{0, 3}, {1, 4}, {2, 5}};
    std::set<std::pair<uint32_t, uint32_t>> trainingPairs;
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        const Flow& f = flows[i];
        EXPECT_EQ(f.demand, 2.5);
        if (i < 700)
        {
            // KV flows come first and follow the assignment
            ASSERT_EQ(f.cls, TrafficClass::KV);
            EXPECT_EQ(pairs.count({f.src, f.dst}), 1U);
        }
        else
        {
            ASSERT_EQ(f.cls, TrafficClass::TRAINING);
            EXPECT_EQ(roles.Get(f.src), GroupRole::TRAINING);
            EXPECT_EQ(roles.Get(f.dst), GroupRole::TRAINING);
            EXPECT_NE(f.src, f.dst);
            trainingPairs.insert({f.src, f.dst});
        }
    }
    // 4 training groups give 12 ordered pairs; 300 uniform draws hit them all
    EXPECT_EQ(trainingPairs.size(), 12U);
}

TEST(GenerateTraffic, KvCountIsRoundedHalfAwayFromZero)
{
    RoleAssignment roles = SmallRoles();
    PdAssignment assignment = SmallAssignment();
    Random rng = Random::Create(1, Stream::TRAFFIC);
    auto countKv = [&](uint64_t f, double rho) {
        TrafficOptions o;
        o.flows = f;
        o.kvShare = rho;
        uint64_t kv = 0;
        for (const Flow& flow : GenerateTraffic(roles, assignment, o, rng))
        {
            kv += flow.cls == TrafficClass::KV ? 1 : 0;
        }
        return kv;
    };
    EXPECT_EQ(countKv(10, 0.25), 3U); // llround(2.5) = 3
    EXPECT_EQ(countKv(10, 0.24), 2U);
    EXPECT_EQ(countKv(10, 0.0), 0U);
    EXPECT_EQ(countKv(10, 1.0), 10U);
    EXPECT_EQ(countKv(100000, 0.3), 30000U);
}

TEST(GenerateTraffic, DeterministicPerRunAndDifferentAcrossRuns)
{
    RoleAssignment roles = SmallRoles();
    PdAssignment assignment = SmallAssignment();
    TrafficOptions options;
    options.flows = 500;
    auto draw = [&](uint64_t run) {
        Random rng = Random::Create(run, Stream::TRAFFIC);
        std::vector<std::pair<uint32_t, uint32_t>> out;
        for (const Flow& f : GenerateTraffic(roles, assignment, options, rng))
        {
            out.emplace_back(f.src, f.dst);
        }
        return out;
    };
    EXPECT_EQ(draw(1), draw(1));
    EXPECT_NE(draw(1), draw(2));
}

TEST(GenerateTraffic, WeightsAreRespected)
{
    // pair 0->3 with weight 3 and 1->4 with weight 1: 0->3 gets 75% of the KV flows. 10,000
    // draws have a standard deviation of 0.43%, so 70-80% is a > 10-sigma window.
    RoleAssignment roles = SmallRoles();
    PdAssignment assignment({{0, 3, 3.0}, {1, 4, 1.0}});
    Random rng = Random::Create(5, Stream::TRAFFIC);
    TrafficOptions options;
    options.flows = 10000;
    options.kvShare = 1.0;
    uint32_t heavy = 0;
    for (const Flow& f : GenerateTraffic(roles, assignment, options, rng))
    {
        ASSERT_EQ(f.cls, TrafficClass::KV);
        heavy += (f.src == 0 && f.dst == 3) ? 1 : 0;
    }
    EXPECT_GT(heavy, 7000U);
    EXPECT_LT(heavy, 8000U);
}

TEST(GenerateTraffic, TrainingPairsAreUniform)
{
    // 3 training groups: 6 ordered pairs, 6000 flows, about 1000 each
    RoleAssignment roles = RoleAssignment::Contiguous({1, 1, 3});
    PdAssignment assignment({{0, 1, 1.0}});
    Random rng = Random::Create(2, Stream::TRAFFIC_TRAINING);
    TrafficOptions options;
    options.flows = 6000;
    options.kvShare = 0.0;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> seen;
    for (const Flow& f : GenerateTraffic(roles, assignment, options, rng))
    {
        ++seen[{f.src, f.dst}];
    }
    EXPECT_EQ(seen.size(), 6U);
    for (const auto& [pair, count] : seen)
    {
        EXPECT_NE(pair.first, pair.second);
        EXPECT_GT(count, 850U);
        EXPECT_LT(count, 1150U);
    }
}

TEST(GenerateTraffic, BadInputsNameTheParameter)
{
    RoleAssignment roles = SmallRoles();
    PdAssignment assignment = SmallAssignment();
    Random rng = Random::Create(1, Stream::TRAFFIC);
    auto with = [&](uint64_t flows, double rho, double demand) {
        TrafficOptions o;
        o.flows = flows;
        o.kvShare = rho;
        o.demand = demand;
        return [&, o]() { GenerateTraffic(roles, assignment, o, rng); };
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    ExpectErrorContaining(with(10, -0.1, 1), "kvShare");
    ExpectErrorContaining(with(10, 1.1, 1), "kvShare");
    ExpectErrorContaining(with(10, nan, 1), "kvShare");
    ExpectErrorContaining(with(0, 0.5, 1), "flows");
    ExpectErrorContaining(with(10, 0.5, 0), "demand");
    ExpectErrorContaining(with(10, 0.5, -1), "demand");
    ExpectErrorContaining(with(10, 0.5, inf), "demand");
    ExpectErrorContaining(with(10, 0.5, nan), "demand");

    TrafficOptions o;
    o.flows = 10;
    o.kvShare = 0.5;
    ExpectErrorContaining([&]() { GenerateTraffic(roles, PdAssignment(), o, rng); }, "assignment");
    // no KV flow: an empty assignment is fine
    o.kvShare = 0.0;
    EXPECT_EQ(GenerateTraffic(roles, PdAssignment(), o, rng).size(), 10U);

    RoleAssignment oneTrainer = RoleAssignment::Contiguous({3, 3, 1});
    o.kvShare = 0.5;
    ExpectErrorContaining([&]() { GenerateTraffic(oneTrainer, assignment, o, rng); }, "roles");
    // only KV flows: a single training group is fine
    o.kvShare = 1.0;
    EXPECT_EQ(GenerateTraffic(oneTrainer, assignment, o, rng).size(), 10U);

    // pairs that do not match the roles: 3 is a decode group, not a prefill group
    PdAssignment wrong({{3, 4, 1.0}});
    o.kvShare = 0.5;
    EXPECT_THROW(GenerateTraffic(roles, wrong, o, rng), Error);
}
