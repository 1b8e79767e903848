/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The topology policies (mose-policy.h): which of them is the switching one.

#include "ns3/mose-error.h"
#include "ns3/mose-policy.h"

#include <gtest/gtest.h>

using namespace ns3::mose;

namespace
{

// MoSE is the one switching policy today; the three static ones are not.
TEST(Policy, IsSwitchingForEveryPolicy)
{
    EXPECT_FALSE(IsSwitching(Policy::STATIC_TRAINING));
    EXPECT_FALSE(IsSwitching(Policy::STATIC_INFERENCE));
    EXPECT_FALSE(IsSwitching(Policy::STATIC_COMPROMISE));
    EXPECT_TRUE(IsSwitching(Policy::MOSE));
}

// A policy is switching exactly when its template differs between the two workload modes.
TEST(Policy, IsSwitchingExactlyWhenTheTemplateChangesBetweenModes)
{
    for (Policy p : ALL_POLICIES)
    {
        const bool changes = SelectTemplate(p, WorkloadMode::INFERENCE_HEAVY) !=
                             SelectTemplate(p, WorkloadMode::TRAINING_HEAVY);
        EXPECT_EQ(IsSwitching(p), changes) << ToString(p);
    }
}

// The paper's mapping: S-Train H^U, S-Inf H^PD, S-Comp H^C in both modes; MoSE
// H^PD while inference dominates and H^U while training does.
TEST(Policy, TheTableGivesThePapersTemplates)
{
    const auto I = WorkloadMode::INFERENCE_HEAVY;
    const auto T = WorkloadMode::TRAINING_HEAVY;
    EXPECT_EQ(SelectTemplate(Policy::STATIC_TRAINING, I), TemplateId::UNIFORM);
    EXPECT_EQ(SelectTemplate(Policy::STATIC_TRAINING, T), TemplateId::UNIFORM);
    EXPECT_EQ(SelectTemplate(Policy::STATIC_INFERENCE, I), TemplateId::PD_BIASED);
    EXPECT_EQ(SelectTemplate(Policy::STATIC_INFERENCE, T), TemplateId::PD_BIASED);
    EXPECT_EQ(SelectTemplate(Policy::STATIC_COMPROMISE, I), TemplateId::COMPROMISE);
    EXPECT_EQ(SelectTemplate(Policy::STATIC_COMPROMISE, T), TemplateId::COMPROMISE);
    EXPECT_EQ(SelectTemplate(Policy::MOSE, I), TemplateId::PD_BIASED);
    EXPECT_EQ(SelectTemplate(Policy::MOSE, T), TemplateId::UNIFORM);
    EXPECT_THROW(SelectTemplate(static_cast<Policy>(9), I), Error);
}

// The lists the studies take: the statics in table order, and MoSE before them.
TEST(Policy, ListsFollowTheTable)
{
    EXPECT_EQ(StaticPolicies(),
              (std::vector<Policy>{Policy::STATIC_TRAINING,
                                   Policy::STATIC_INFERENCE,
                                   Policy::STATIC_COMPROMISE}));
    EXPECT_EQ(SwitchingPoliciesFirst(),
              (std::vector<Policy>{Policy::MOSE,
                                   Policy::STATIC_TRAINING,
                                   Policy::STATIC_INFERENCE,
                                   Policy::STATIC_COMPROMISE}));
}

} // namespace
