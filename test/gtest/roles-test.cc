/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-roles.h"

#include <gtest/gtest.h>
#include <set>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

TEST(RoleCounts, PaperDefaultsSumTo1024)
{
    EXPECT_EQ(RoleCounts::InferenceHeavyDefault().Total(), 1024U);
    EXPECT_EQ(RoleCounts::TrainingHeavyDefault().Total(), 1024U);
}

TEST(RoleCounts, CountsThatDoNotSumToNAreRejected)
{
    RoleCounts c{410, 410, 200};
    std::string m = ErrorOf([&] { c.Validate(1024, "inference-heavy"); });
    EXPECT_CONTAINS(m, "1020");
    EXPECT_CONTAINS(m, "1024");
}

TEST(RoleAssignment, ContiguousLayout)
{
    RoleAssignment r = RoleAssignment::Contiguous({2, 3, 4});
    EXPECT_EQ(r.GetN(), 9U);
    EXPECT_EQ(r.GetPrefill(), (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(r.GetDecode(), (std::vector<uint32_t>{2, 3, 4}));
    EXPECT_EQ(r.GetTraining(), (std::vector<uint32_t>{5, 6, 7, 8}));
    EXPECT_TRUE(r.IsPd(4));
    EXPECT_FALSE(r.IsPd(5));
}

TEST(RoleAssignment, SwapMovesTrainingGroupsIntoPd)
{
    RoleAssignment inf = PaperRoles();
    Random rng = Random::Create(1, Stream::ROLES);
    RoleAssignment tr =
        inf.Transition(RoleCounts::TrainingHeavyDefault(), RoleTransition::SWAP, rng);
    EXPECT_EQ(tr.GetCounts().prefill, 102U);
    EXPECT_EQ(tr.GetCounts().decode, 102U);
    EXPECT_EQ(tr.GetCounts().training, 820U);
    for (uint32_t v : tr.GetPrefill())
    {
        EXPECT_EQ(inf.Get(v), GroupRole::TRAINING);
    }
    for (uint32_t v : tr.GetDecode())
    {
        EXPECT_EQ(inf.Get(v), GroupRole::TRAINING);
    }
    for (uint32_t v : inf.GetPrefill())
    {
        EXPECT_EQ(tr.Get(v), GroupRole::TRAINING);
    }
}

TEST(RoleAssignment, NestedDrawsPdFromPd)
{
    RoleAssignment inf = PaperRoles();
    Random rng = Random::Create(1, Stream::ROLES);
    RoleAssignment tr =
        inf.Transition(RoleCounts::TrainingHeavyDefault(), RoleTransition::NESTED, rng);
    EXPECT_EQ(tr.GetCounts().prefill, 102U);
    for (uint32_t v : tr.GetPrefill())
    {
        EXPECT_EQ(inf.Get(v), GroupRole::PREFILL);
    }
    for (uint32_t v : tr.GetDecode())
    {
        EXPECT_EQ(inf.Get(v), GroupRole::DECODE);
    }
}

TEST(RoleAssignment, SwapThatDoesNotFitIsRejected)
{
    RoleAssignment inf = RoleAssignment::Contiguous({4, 4, 2});
    Random rng = Random::Create(1, Stream::ROLES);
    EXPECT_THROW(inf.Transition({2, 2, 6}, RoleTransition::SWAP, rng), Error);
    EXPECT_THROW(inf.Transition({5, 1, 4}, RoleTransition::NESTED, rng), Error);
    EXPECT_THROW(inf.Transition({1, 1, 1}, RoleTransition::NESTED, rng), Error);
}

TEST(RoleAssignment, TransitionIsDeterministicPerRun)
{
    RoleAssignment inf = PaperRoles();
    Random a = Random::Create(3, Stream::ROLES);
    Random b = Random::Create(3, Stream::ROLES);
    Random c = Random::Create(4, Stream::ROLES);
    auto ra = inf.Transition(RoleCounts::TrainingHeavyDefault(), RoleTransition::SWAP, a);
    auto rb = inf.Transition(RoleCounts::TrainingHeavyDefault(), RoleTransition::SWAP, b);
    auto rc = inf.Transition(RoleCounts::TrainingHeavyDefault(), RoleTransition::SWAP, c);
    EXPECT_EQ(ra.GetRoles(), rb.GetRoles());
    EXPECT_NE(ra.GetRoles(), rc.GetRoles());
}

TEST(RoleParsing, NamesAndLetters)
{
    EXPECT_EQ(TryParseEnum<GroupRole>("P"), GroupRole::PREFILL);
    EXPECT_EQ(TryParseEnum<GroupRole>("decode"), GroupRole::DECODE);
    EXPECT_EQ(TryParseEnum<GroupRole>("Training"), GroupRole::TRAINING);
    EXPECT_FALSE(TryParseEnum<GroupRole>("x").has_value());
    EXPECT_EQ(ParseEnum<RoleTransition>("NESTED", "--roleTransition"), RoleTransition::NESTED);
    EXPECT_THROW(ParseEnum<RoleTransition>("sideways", "--roleTransition"), Error);
}
