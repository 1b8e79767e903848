/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The GoogleTest bridge of builds without GoogleTest in the ns-3 test library (see
 * mose-gtest-bridge.h): the suite "mose" runs its ns-3 cases only.
 */

#include "mose-gtest-bridge.h"

namespace ns3
{
namespace mose
{
namespace test
{

std::vector<TestCase*>
RunGoogleTests()
{
    return {};
}

} // namespace test
} // namespace mose
} // namespace ns3
