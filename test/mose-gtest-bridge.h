/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_GTEST_BRIDGE_H
#define MOSE_GTEST_BRIDGE_H

/**
 * \file
 * \ingroup mose-tests
 * \brief Runs the GoogleTest suite mose-gtest inside the ns-3 TestSuite "mose", so that
 *        `./test.py -s mose` in an ns-3 tree runs every test of the module.
 *
 * In a tree, when GoogleTest is installed, the build compiles test/gtest/ into the module's ns-3
 * test library together with mose-gtest-bridge.cc; otherwise it compiles
 * mose-gtest-bridge-none.cc, and the suite runs its own ns-3 cases only. Standalone, ctest runs
 * each GoogleTest case as its own test (mose-gtest) and the ns-3 suite through
 * mose-ns3-test-runner, which links the "none" variant, so nothing runs twice.
 */

#include "ns3/test.h"

#include <vector>

namespace ns3
{
namespace mose
{
namespace test
{

/**
 * \brief Runs every GoogleTest test linked into this program once and returns one ns-3 TestCase
 *        per GoogleTest suite, which reports that suite's results (each failed assertion as an
 *        ns-3 test failure, with its file, line and message).
 *
 * GoogleTest supports one RUN_ALL_TESTS() per process, so the tests run here, at once; the
 * returned cases only report. Call it when the ns-3 suite runs (TestCase::DoSetup()), not at
 * static initialisation: GoogleTest's registrations in other files may not exist yet then.
 * \return the cases (owned by the caller, to be passed to TestCase::AddTestCase()); empty when
 *         the build has no GoogleTest
 */
std::vector<TestCase*> RunGoogleTests();

} // namespace test
} // namespace mose
} // namespace ns3

#endif /* MOSE_GTEST_BRIDGE_H */
