/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-pd-assignment.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <set>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

TEST(PdAssignment, KindNamesRoundTrip)
{
    for (auto kind : {PdAssignmentKind::ONE_TO_ONE, PdAssignmentKind::MANY_TO_ONE})
    {
        EXPECT_EQ(ParseEnum<PdAssignmentKind>(ToString(kind), "--assignment"), kind);
    }
    EXPECT_EQ(ToString(PdAssignmentKind::ONE_TO_ONE), "one-to-one");
    EXPECT_EQ(ToString(PdAssignmentKind::MANY_TO_ONE), "many-to-one");
    std::string m = ErrorOf([] { ParseEnum<PdAssignmentKind>("all-to-all", "--assignment"); });
    EXPECT_CONTAINS(m, "invalid --assignment = \"all-to-all\"");
    EXPECT_CONTAINS(m, "all-to-all");
    EXPECT_CONTAINS(m, "one-to-one");
}

TEST(PdAssignment, OneToOneIsAPerfectMatching)
{
    RoleAssignment roles = PaperRoles();
    Random rng = Random::Create(1, Stream::ASSIGNMENT);
    PdAssignment a = PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, rng);
    ASSERT_EQ(a.GetPairs().size(), 410U);
    std::set<uint32_t> prefills;
    std::set<uint32_t> decodes;
    uint32_t identity = 0;
    for (const PdPair& p : a.GetPairs())
    {
        EXPECT_EQ(roles.Get(p.prefill), GroupRole::PREFILL);
        EXPECT_EQ(roles.Get(p.decode), GroupRole::DECODE);
        EXPECT_EQ(p.weight, 1.0);
        prefills.insert(p.prefill);
        decodes.insert(p.decode);
        identity += (p.decode - 410 == p.prefill) ? 1 : 0;
    }
    EXPECT_EQ(prefills.size(), 410U);
    EXPECT_EQ(decodes.size(), 410U);
    // a random permutation has about one fixed point; the identity would have 410
    EXPECT_LT(identity, 10U);
    EXPECT_DOUBLE_EQ(a.GetTotalWeight(), 410.0);
    EXPECT_NO_THROW(a.Validate(roles));
    // prefills come in id order
    EXPECT_EQ(a.GetPairs().front().prefill, 0U);
    EXPECT_EQ(a.GetPairs().back().prefill, 409U);
}

TEST(PdAssignment, DrawIsDeterministicPerRunAndVariesAcrossRuns)
{
    RoleAssignment roles = PaperRoles();
    auto decodesOf = [&roles](uint64_t run, PdAssignmentKind kind) {
        Random rng = Random::Create(run, Stream::ASSIGNMENT);
        std::vector<uint32_t> d;
        PdAssignment assignment = PdAssignment::Draw(roles, kind, 3, rng);
        for (const PdPair& p : assignment.GetPairs())
        {
            d.push_back(p.decode);
        }
        return d;
    };
    for (auto kind : {PdAssignmentKind::ONE_TO_ONE, PdAssignmentKind::MANY_TO_ONE})
    {
        EXPECT_EQ(decodesOf(4, kind), decodesOf(4, kind));
        std::set<std::vector<uint32_t>> seen;
        for (uint64_t run = 1; run <= 5; ++run)
        {
            seen.insert(decodesOf(run, kind));
        }
        EXPECT_EQ(seen.size(), 5U);
    }
}

TEST(PdAssignment, ManyToOneRespectsTheCap)
{
    RoleAssignment roles = PaperRoles();
    for (uint32_t cap : {1U, 2U, 3U})
    {
        Random rng = Random::Create(2, Stream::ASSIGNMENT);
        PdAssignment a = PdAssignment::Draw(roles, PdAssignmentKind::MANY_TO_ONE, cap, rng);
        ASSERT_EQ(a.GetPairs().size(), 410U);
        std::map<uint32_t, uint32_t> load;
        std::set<uint32_t> prefills;
        for (const PdPair& p : a.GetPairs())
        {
            ++load[p.decode];
            prefills.insert(p.prefill);
            EXPECT_EQ(p.weight, 1.0);
        }
        EXPECT_EQ(prefills.size(), 410U);
        uint32_t maxLoad = 0;
        for (auto [d, l] : load)
        {
            EXPECT_EQ(roles.Get(d), GroupRole::DECODE);
            maxLoad = std::max(maxLoad, l);
        }
        EXPECT_EQ(maxLoad, cap) << "cap " << cap << " should be reached by 410 random draws";
        if (cap > 1)
        {
            // many-to-one really shares decodes: far fewer than 410 distinct decodes
            EXPECT_LT(load.size(), 380U);
        }
        EXPECT_NO_THROW(a.Validate(roles));
    }
}

TEST(PdAssignment, ManyToOneFillsEveryDecodeWhenTight)
{
    // |P| = cap * |D|: every decode ends with exactly cap prefills
    RoleAssignment roles = RoleAssignment::Contiguous({12, 4, 2});
    Random rng = Random::Create(3, Stream::ASSIGNMENT);
    PdAssignment a = PdAssignment::Draw(roles, PdAssignmentKind::MANY_TO_ONE, 3, rng);
    std::map<uint32_t, uint32_t> load;
    for (const PdPair& p : a.GetPairs())
    {
        ++load[p.decode];
    }
    ASSERT_EQ(load.size(), 4U);
    for (auto [d, l] : load)
    {
        EXPECT_EQ(l, 3U) << "decode " << d;
    }
}

TEST(PdAssignment, OneToOneNeedsEqualSides)
{
    RoleAssignment roles = RoleAssignment::Contiguous({4, 8, 4});
    Random rng = Random::Create(1, Stream::ASSIGNMENT);
    std::string m =
        ErrorOf([&] { PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, rng); });
    EXPECT_CONTAINS(m, "invalid assignment = one-to-one");
    EXPECT_CONTAINS(m, "4 prefill");
    EXPECT_CONTAINS(m, "8 decode");
}

TEST(PdAssignment, ManyToOneNeedsEnoughDecodes)
{
    RoleAssignment roles = RoleAssignment::Contiguous({10, 3, 3});
    Random rng = Random::Create(1, Stream::ASSIGNMENT);
    std::string m =
        ErrorOf([&] { PdAssignment::Draw(roles, PdAssignmentKind::MANY_TO_ONE, 3, rng); });
    EXPECT_CONTAINS(m, "invalid assignment = many-to-one");
    EXPECT_CONTAINS(m, "cap = 3");
    EXPECT_CONTAINS(m, "10 prefill > 3 * 3");
    std::string zero =
        ErrorOf([&] { PdAssignment::Draw(roles, PdAssignmentKind::MANY_TO_ONE, 0, rng); });
    EXPECT_CONTAINS(zero, "invalid assignment cap = 0");
}

TEST(PdAssignment, ValidateNamesTheBadPair)
{
    RoleAssignment roles = RoleAssignment::Contiguous({2, 2, 2}); // P 0,1  D 2,3  T 4,5
    std::string training = ErrorOf([&] {
        PdAssignment({{0, 2, 1.0}, {1, 4, 1.0}}).Validate(roles);
    });
    EXPECT_CONTAINS(training, "(1, 4)");
    EXPECT_CONTAINS(training, "training");

    std::string reversed = ErrorOf([&] { PdAssignment({{2, 0, 1.0}}).Validate(roles); });
    EXPECT_CONTAINS(reversed, "(2, 0)");
    EXPECT_CONTAINS(reversed, "not a prefill group");

    std::string outOfRange = ErrorOf([&] { PdAssignment({{0, 9, 1.0}}).Validate(roles); });
    EXPECT_CONTAINS(outOfRange, "(0, 9)");
    EXPECT_CONTAINS(outOfRange, "not a node");

    std::string repeated = ErrorOf([&] {
        PdAssignment({{0, 2, 1.0}, {1, 3, 1.0}, {0, 2, 2.0}}).Validate(roles);
    });
    EXPECT_CONTAINS(repeated, "(0, 2)");
    EXPECT_CONTAINS(repeated, "more than once");

    for (double w : {0.0, -1.0, std::numeric_limits<double>::infinity(), std::nan("")})
    {
        std::string weight = ErrorOf([&] { PdAssignment({{1, 3, w}}).Validate(roles); });
        EXPECT_CONTAINS(weight, "(1, 3)");
        EXPECT_CONTAINS(weight, "weight");
    }
    PdAssignment ok({{0, 2, 0.5}, {0, 3, 1.5}, {1, 3, 2.0}});
    EXPECT_NO_THROW(ok.Validate(roles));
    EXPECT_DOUBLE_EQ(ok.GetTotalWeight(), 4.0);
}
