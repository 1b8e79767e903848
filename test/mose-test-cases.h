/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_TEST_CASES_H
#define MOSE_TEST_CASES_H

/**
 * \file
 * \ingroup mose-tests
 * \brief The ns-3 test cases of the suite "mose" that live in files of their own, one file per
 *        part of the module; test/mose-test-suite.cc adds them to the suite.
 */

#include "ns3/mose-error.h"
#include "ns3/test.h"

#include <string>
#include <vector>

namespace ns3
{
namespace mose
{
namespace test
{

/**
 * \brief Whether a call fails as bad input should: with a mose::Error naming the value.
 * \param f the call
 * \param text a part of the message it must contain
 * \return true if f throws a mose::Error whose message contains text
 */
template <class F>
bool
Throws(F f, const std::string& text)
{
    try
    {
        f();
    }
    catch (const Error& e)
    {
        return std::string(e.what()).find(text) != std::string::npos;
    }
    return false;
}

/// \return the optical circuit switch's cases (test/mose-ocs-test-cases.cc)
std::vector<TestCase*> OcsTestCases();
/// \return the packet-level routing's cases (test/mose-routing-test-cases.cc)
std::vector<TestCase*> RoutingTestCases();
/// \return the packet-level fabric's cases (test/mose-packet-test-cases.cc)
std::vector<TestCase*> PacketTestCases();
/// \return the ModeSwitcher's cases (test/mose-switch-test-cases.cc)
std::vector<TestCase*> SwitchTestCases();
/// \return the distributed runs' cases, under mpirun (test/mose-mpi-test-cases.cc; none
///         without NS3_MPI)
std::vector<TestCase*> DistributedTestCases();

} // namespace test
} // namespace mose
} // namespace ns3

#endif /* MOSE_TEST_CASES_H */
