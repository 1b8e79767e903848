/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every GoogleTest case starts from ns-3's original defaults. ctest runs each case in a process
 * of its own, but the ns-3 suite "mose" (test/mose-gtest-bridge.cc) and a plain run of mose-gtest
 * run them all in one process, where an attribute default or a global value (RngRun, set by a
 * parsed --RngRun) that one case changed would reach the cases after it. A listener resets them
 * (Config::Reset(): every attribute's initial value and every GlobalValue) before each case, so
 * a case passes or fails alike in both runs. GoogleTest has no per-case hook of its own for this
 * but its listeners; ns-3 has Config::Reset() but no notion of a test case outside its TestCase.
 */

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Resets ns-3's defaults before each GoogleTest case.
class ResetDefaultsBeforeEachTest : public testing::EmptyTestEventListener
{
    void OnTestStart(const testing::TestInfo& /* info */) override
    {
        Config::Reset();
    }
};

/// Appends the listener before RUN_ALL_TESTS (gtest_main's or the bridge's) starts.
const bool g_registered = [] {
    testing::UnitTest::GetInstance()->listeners().Append(new ResetDefaultsBeforeEachTest);
    return true;
}();

} // namespace

TEST(Isolation, ACaseChangesTheRunAndAnAttributeDefault)
{
    // what a parsed --RngRun=5 and --ns3::MoseTopologyHelper::... leave behind
    GlobalValue::Bind("RngRun", UintegerValue(5));
    Config::SetDefault("ns3::MoseTopologyHelper::DefaultQueueDisc", BooleanValue(false));
    EXPECT_EQ(RngSeedManager::GetRun(), 5U);
    EXPECT_TRUE(g_registered);
}

TEST(Isolation, TheNextCaseStartsFromTheOriginalDefaults)
{
    // in one process this case runs right after the one above (in a process of its own it
    // sees the defaults anyway)
    EXPECT_EQ(RngSeedManager::GetRun(), 1U);
    ns3::TypeId::AttributeInformation info;
    ASSERT_TRUE(ns3::TypeId::LookupByName("ns3::MoseTopologyHelper")
                    .LookupAttributeByName("DefaultQueueDisc", &info));
    EXPECT_EQ(info.initialValue->SerializeToString(info.checker), "true");
}
