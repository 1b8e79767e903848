/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ns-3 TestSuite "mose" (./test.py -s mose in a tree; mose-ns3-test-runner --suite=mose
 * standalone): the checks that matter most, in ns-3's own test framework. The exhaustive checks
 * live in the GoogleTest suite test/gtest.
 */

#include "mose-gtest-bridge.h"
#include "mose-test-cases.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-random.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-traffic.h"
#include "ns3/test.h"

#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::mose;

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
 * \brief H^U at the paper's scale is simple, connected, 4-regular and a function of the run.
 */
class MoseUniformTemplateTestCase : public TestCase
{
  public:
    MoseUniformTemplateTestCase()
        : TestCase("Uniform template H^U at N=1024, d=4")
    {
    }

  private:
    void DoRun() override
    {
        Random a = Random::Create(1, Stream::UNIFORM);
        Random b = Random::Create(1, Stream::UNIFORM);
        Random c = Random::Create(2, Stream::UNIFORM);
        CircuitGraph ga = BuildUniformTemplate(1024, 4, a);
        CircuitGraph gb = BuildUniformTemplate(1024, 4, b);
        CircuitGraph gc = BuildUniformTemplate(1024, 4, c);
        NS_TEST_EXPECT_MSG_EQ(ga.GetNCircuits(), 2048U, "N d / 2 circuits");
        NS_TEST_EXPECT_MSG_EQ(ga.FindProblem(4), "", "simple, connected, 4-regular");
        NS_TEST_EXPECT_MSG_EQ((ga.GetCircuits() == gb.GetCircuits()), true, "same run, same graph");
        NS_TEST_EXPECT_MSG_EQ((ga.GetCircuits() == gc.GetCircuits()), false, "runs differ");
    }
};

/**
 * \ingroup mose-tests
 * \brief H^PD (r = 3) and H^C (r = 1) at the paper's scale: exactly r P-D circuits per P/D group
 *        and every one-to-one assignment pair a circuit.
 */
class MosePdBiasedTemplateTestCase : public TestCase
{
  public:
    MosePdBiasedTemplateTestCase()
        : TestCase("P-D-biased templates H^PD and H^C at N=1024, d=4")
    {
    }

  private:
    void DoRun() override
    {
        RoleAssignment roles = RoleAssignment::Contiguous(RoleCounts::InferenceHeavyDefault());
        Random arng = Random::Create(1, Stream::ASSIGNMENT);
        PdAssignment assignment = PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, arng);
        for (uint32_t r : {3U, 1U})
        {
            for (auto completion : {BipartiteCompletion::CIRCULANT, BipartiteCompletion::RANDOM})
            {
                PdBiasedOptions options;
                options.reservedPorts = r;
                options.completion = completion;
                Random rng = Random::Create(1, Stream::PD_BIASED);
                CircuitGraph g = BuildPdBiasedTemplate(roles, 4, assignment, options, rng);
                NS_TEST_EXPECT_MSG_EQ(g.FindProblem(4), "", "simple, connected, 4-regular");
                std::vector<uint32_t> pd = CountPdCircuits(g, roles);
                uint32_t wrong = 0;
                for (uint32_t v = 0; v < roles.GetN(); ++v)
                {
                    wrong += (roles.IsPd(v) && pd[v] != r) ? 1 : 0;
                }
                NS_TEST_EXPECT_MSG_EQ(wrong, 0U, "every P and D group has exactly r P-D circuits");
                uint32_t missing = 0;
                for (const PdPair& pair : assignment.GetPairs())
                {
                    missing += g.HasCircuit(pair.prefill, pair.decode) ? 0 : 1;
                }
                NS_TEST_EXPECT_MSG_EQ(missing, 0U, "every assignment pair is a circuit");
            }
        }
    }
};

/**
 * \ingroup mose-tests
 * \brief Loads and costs on a 6-ring, computed by hand, under both routing rules.
 *
 * Flows: KV 0 -> 3 (two shortest paths, 0-1-2-3 and 0-5-4-3) and training 1 -> 2.
 * Lowest-id tie-break: 0 -> 3 takes 0-1-2-3, loads (0,1) = 1, (1,2) = 2, (2,3) = 1; KV cost
 * 1 + 2 + 1 = 4, training cost 2, MaxLoad 2. ECMP: half each way, loads (0,1) = (2,3) = (0,5) =
 * (4,5) = (3,4) = 0.5, (1,2) = 1.5; KV cost 0.5 (0.5 + 1.5 + 0.5) + 0.5 (0.5 + 0.5 + 0.5) = 2,
 * training cost 1.5, MaxLoad 1.5. Either way, sum of loads = 3 + 1 = demand x hops.
 */
class MoseRingMetricsTestCase : public TestCase
{
  public:
    MoseRingMetricsTestCase()
        : TestCase("Flow metrics on a 6-ring, by hand")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<Circuit> circuits;
        for (uint32_t i = 0; i < 6; ++i)
        {
            circuits.push_back({i, (i + 1) % 6});
        }
        CircuitGraph ring(6, circuits);
        std::vector<Flow> flows = {{0, 3, TrafficClass::KV, 1.0},
                                   {1, 2, TrafficClass::TRAINING, 1.0}};
        const double tol = 1e-12;

        ShortestPathRouting sp(ring, RoutingRule::SHORTEST_PATH);
        FlowMetrics m = EvaluateFlows(sp, flows);
        NS_TEST_EXPECT_MSG_EQ_TOL(m.all.maxLoad, 2.0, tol, "MaxLoad, lowest-id tie-break");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.load[ring.FindCircuit(1, 2)], 2.0, tol, "load (1,2)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.load[ring.FindCircuit(0, 5)], 0.0, tol, "load (0,5)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.kv.avgCost, 4.0, tol, "KV cost");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.training.avgCost, 2.0, tol, "training cost");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.kv.avgHop, 3.0, tol, "KV hops");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.kvThreePlus, 1.0, tol, "3+hop share");

        ShortestPathRouting ecmp(ring, RoutingRule::ECMP);
        FlowMetrics e = EvaluateFlows(ecmp, flows);
        NS_TEST_EXPECT_MSG_EQ_TOL(e.all.maxLoad, 1.5, tol, "MaxLoad, ECMP");
        NS_TEST_EXPECT_MSG_EQ_TOL(e.load[ring.FindCircuit(0, 5)], 0.5, tol, "ECMP load (0,5)");
        NS_TEST_EXPECT_MSG_EQ_TOL(e.kv.avgCost, 2.0, tol, "ECMP KV cost");
        NS_TEST_EXPECT_MSG_EQ_TOL(e.training.avgCost, 1.5, tol, "ECMP training cost");
        double sum = 0;
        for (double l : e.load)
        {
            sum += l;
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(sum, 4.0, tol, "sum of loads = demand x hops");
    }
};

/**
 * \ingroup mose-tests
 * \brief Impossible parameters are reported with a mose::Error, in release builds too.
 */
class MoseBadInputTestCase : public TestCase
{
  public:
    MoseBadInputTestCase()
        : TestCase("Bad input gets a mose::Error")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(
            test::Throws([] { ValidateRegularParameters(1024, 0); }, "degree = 0"),
            true,
            "d = 0");
        NS_TEST_EXPECT_MSG_EQ(test::Throws([] { ValidateRegularParameters(1023, 3); }, "1023"),
                              true,
                              "N d odd");
        NS_TEST_EXPECT_MSG_EQ(test::Throws([] { ValidateRegularParameters(4, 4); }, "degree = 4"),
                              true,
                              "d >= N");
        NS_TEST_EXPECT_MSG_EQ(test::Throws(
                                  [] {
                                      RoleCounts{410, 410, 200}.Validate(1024, "x");
                                  },
                                  "1024"),
                              true,
                              "role counts that do not sum to N");
        RoleAssignment roles = RoleAssignment::Contiguous({4, 4, 4});
        PdBiasedOptions options;
        options.reservedPorts = 5;
        Random rng = Random::Create(1, Stream::PD_BIASED);
        NS_TEST_EXPECT_MSG_EQ(
            test::Throws([&] { BuildPdBiasedTemplate(roles, 4, PdAssignment(), options, rng); },
                         "reservedPorts"),
            true,
            "r > d");
    }
};

/**
 * \ingroup mose-tests
 * \brief The mose TestSuite: the ns-3 cases below and, in an ns-3 tree with GoogleTest, one case
 *        per GoogleTest suite of test/gtest (see mose-gtest-bridge.h).
 */
class MoseTestSuite : public TestSuite
{
  public:
    MoseTestSuite()
        : TestSuite("mose")
    {
        AddTestCase(new MosePolicyMappingTestCase);
        AddTestCase(new MoseUniformTemplateTestCase);
        AddTestCase(new MosePdBiasedTemplateTestCase);
        AddTestCase(new MoseRingMetricsTestCase);
        AddTestCase(new MoseBadInputTestCase);
        for (auto* cases : {test::OcsTestCases,
                            test::RoutingTestCases,
                            test::PacketTestCases,
                            test::SwitchTestCases,
                            test::DistributedTestCases})
        {
            for (TestCase* c : cases())
            {
                AddTestCase(c);
            }
        }
    }

  private:
    /// Adds the GoogleTest suites' cases when the suite runs, once every file's GoogleTest
    /// registrations exist (they may not at this suite's static construction).
    void DoSetup() override
    {
        if (!m_googleTestsAdded)
        {
            m_googleTestsAdded = true;
            for (TestCase* c : mose::test::RunGoogleTests())
            {
                AddTestCase(c);
            }
        }
    }

    bool m_googleTestsAdded{false}; //!< whether DoSetup() added the GoogleTest cases
};

/// The suite's static instance, registered with ns-3's TestRunner
static MoseTestSuite g_moseTestSuite;
