/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ns-3 TestSuite "mose" (./test.py -s mose in a tree; mose-ns3-test-runner --suite=mose
 * standalone): the checks that matter most, in ns-3's own test framework. The exhaustive checks
 * live in the GoogleTest suite test/gtest.
 */

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-roles.h"
#include "ns3/test.h"

using namespace ns3;

/**
 * \ingroup mose-tests
 * \brief The (policy, mode) -> template mapping of the paper.
 */
class MosePolicyMappingTestCase : public TestCase
{
  public:
    MosePolicyMappingTestCase()
        : TestCase("Policy to template mapping")
    {
    }

  private:
    void DoRun() override
    {
        using W = WorkloadMode;
        NS_TEST_EXPECT_MSG_EQ(int(SelectTemplate(Policy::MOSE, W::INFERENCE_HEAVY)),
                              int(TemplateId::PD_BIASED),
                              "MoSE uses H^PD in inference-heavy mode");
        NS_TEST_EXPECT_MSG_EQ(int(SelectTemplate(Policy::MOSE, W::TRAINING_HEAVY)),
                              int(TemplateId::UNIFORM),
                              "MoSE uses H^U in training-heavy mode");
        NS_TEST_EXPECT_MSG_EQ(int(SelectTemplate(Policy::STATIC_INFERENCE, W::TRAINING_HEAVY)),
                              int(TemplateId::PD_BIASED),
                              "S-Inf keeps the stale H^PD");
        NS_TEST_EXPECT_MSG_EQ(int(SelectTemplate(Policy::STATIC_COMPROMISE, W::INFERENCE_HEAVY)),
                              int(TemplateId::COMPROMISE),
                              "S-Comp uses H^C");
        NS_TEST_EXPECT_MSG_EQ(int(SelectTemplate(Policy::STATIC_TRAINING, W::INFERENCE_HEAVY)),
                              int(TemplateId::UNIFORM),
                              "S-Train uses H^U");
    }
};

/**
 * \ingroup mose-tests
 * \brief The mose TestSuite.
 */
class MoseTestSuite : public TestSuite
{
  public:
    MoseTestSuite()
        : TestSuite("mose")
    {
        AddTestCase(new MosePolicyMappingTestCase);
    }
};

/// The suite's static instance, registered with ns-3's TestRunner
static MoseTestSuite g_moseTestSuite;
