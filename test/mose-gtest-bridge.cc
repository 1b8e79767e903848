/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The GoogleTest bridge (see mose-gtest-bridge.h): the GoogleTest cases of test/gtest/ run inside
 * the ns-3 TestSuite "mose" of an ns-3 tree.
 */

#include "mose-gtest-bridge.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace ns3
{
namespace mose
{
namespace test
{

namespace
{

/// One failed GoogleTest assertion
struct GoogleTestFailure
{
    std::string test;    //!< Suite.Test
    std::string file;    //!< source file of the assertion
    int32_t line;        //!< line of the assertion (-1 if unknown)
    std::string message; //!< GoogleTest's message
};

/**
 * \ingroup mose-tests
 * \brief Reports the results of one GoogleTest suite that RunGoogleTests() ran.
 */
class GoogleTestSuiteCase : public TestCase
{
  public:
    /**
     * \param suite the GoogleTest suite's name
     * \param tests how many of its tests ran
     * \param failures its failed assertions
     */
    GoogleTestSuiteCase(const std::string& suite,
                        int tests,
                        std::vector<GoogleTestFailure> failures)
        : TestCase("GoogleTest " + suite + " (" + std::to_string(tests) + " tests)"),
          m_failures(std::move(failures))
    {
    }

    /// \return the suite's failed assertions
    const std::vector<GoogleTestFailure>& GetFailures() const
    {
        return m_failures;
    }

  private:
    void DoRun() override
    {
        for (const auto& f : m_failures)
        {
            std::ostringstream where;
            where << f.test << " at " << f.file << ":" << f.line << ": " << f.message;
            NS_TEST_EXPECT_MSG_EQ(false, true, where.str());
        }
    }

    std::vector<GoogleTestFailure> m_failures; //!< the suite's failed assertions
};

} // namespace

std::vector<TestCase*>
RunGoogleTests()
{
    int argc = 1;
    char name[] = "mose-ns3-suite";
    char* argv[] = {name, nullptr};
    ::testing::InitGoogleTest(&argc, argv);
    // Failures reach ns-3's report through the cases below; GoogleTest's own printer would
    // interleave its output with test.py's.
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    // the cases below report each suite's result; the status adds nothing
    [[maybe_unused]] const int status = RUN_ALL_TESTS();

    std::vector<TestCase*> cases;
    const auto* unit = ::testing::UnitTest::GetInstance();
    for (int i = 0; i < unit->total_test_suite_count(); ++i)
    {
        const ::testing::TestSuite* suite = unit->GetTestSuite(i);
        std::vector<GoogleTestFailure> failures;
        int ran = 0;
        for (int j = 0; j < suite->total_test_count(); ++j)
        {
            const ::testing::TestInfo* info = suite->GetTestInfo(j);
            if (!info->should_run())
            {
                continue;
            }
            ++ran;
            const ::testing::TestResult* result = info->result();
            for (int k = 0; k < result->total_part_count(); ++k)
            {
                const ::testing::TestPartResult& part = result->GetTestPartResult(k);
                if (part.failed())
                {
                    failures.push_back({std::string(suite->name()) + "." + info->name(),
                                        part.file_name() ? part.file_name() : "?",
                                        part.line_number(),
                                        part.message()});
                }
            }
        }
        cases.push_back(new GoogleTestSuiteCase(suite->name(), ran, std::move(failures)));
    }
    // MOSE_GTEST_REPORT=FILE: what ran, for a caller that sees only test.py's PASS or FAIL
    // (utils/intree-check.sh)
    if (const char* report = std::getenv("MOSE_GTEST_REPORT"); report != nullptr && *report)
    {
        std::ofstream out(report);
        out << "suites " << unit->total_test_suite_count() << " tests " << unit->test_to_run_count()
            << " failed " << unit->failed_test_count() << "\n";
        // then each failed assertion, for a caller that would otherwise see only "FAIL: mose"
        for (const auto* c : cases)
        {
            for (const auto& f : static_cast<const GoogleTestSuiteCase*>(c)->GetFailures())
            {
                out << "FAILED " << f.test << " at " << f.file << ":" << f.line << ": " << f.message
                    << "\n";
            }
        }
    }
    return cases;
}

} // namespace test
} // namespace mose
} // namespace ns3
