/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The topology policies (mose-policy.h): which of them is the switching one.

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

} // namespace
