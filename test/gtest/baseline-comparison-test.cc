/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-baseline-comparison.h"
#include "mose-flow-experiment-helper.h"
#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-scenario.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// A small comparison that runs in milliseconds: N = 64, roles 24/24/16 and 8/8/48, the default
/// baselines (8x8 torus, 4x4x4 torus, 4x4x4 full-mesh of degree 9)
BaselineComparisonConfig
SmallConfig()
{
    BaselineComparisonConfig c;
    c.study = SmallStudyConfig(2000);
    c.seedPlan = SeedPlan{3, 1};
    c.baselines = DefaultBaselineSpecs(64);
    return c;
}

/// Expects every metric of two evaluations to be equal
void
ExpectSameMetrics(const FlowMetrics& a, const FlowMetrics& b, const std::string& what)
{
    for (Metric m : ALL_METRICS)
    {
        EXPECT_EQ(GetMetric(a, m), GetMetric(b, m)) << what << " " << ToString(m);
    }
}

} // namespace

TEST(BaselineComparison, RowsAndPortBudgets)
{
    BaselineComparison cmp(SmallConfig());
    const std::vector<ComparisonRow>& rows = cmp.GetRows();
    ASSERT_EQ(rows.size(), 15u);
    // by degree: 4 policies then the baseline of that degree
    const std::vector<uint32_t> degrees = {4, 6, 9};
    const std::vector<std::string> baselines = {"torus-2d", "torus-3d", "full-mesh-3d"};
    const std::vector<std::string> shapes = {"8x8", "4x4x4", "4x4x4"};
    for (std::size_t g = 0; g < 3; ++g)
    {
        for (std::size_t p = 0; p < 4; ++p)
        {
            const ComparisonRow& r = rows[g * 5 + p];
            EXPECT_FALSE(r.isBaseline);
            EXPECT_EQ(r.policy, ALL_POLICIES[p]);
            EXPECT_EQ(r.degree, degrees[g]);
            EXPECT_EQ(r.GetShapeText(), "random");
        }
        const ComparisonRow& b = rows[g * 5 + 4];
        EXPECT_TRUE(b.isBaseline);
        EXPECT_EQ(b.GetName(), baselines[g]);
        EXPECT_EQ(b.GetShapeText(), shapes[g]);
        EXPECT_EQ(b.degree, degrees[g]);
        EXPECT_EQ(b.GetLabel(), baselines[g] + " d=" + std::to_string(degrees[g]));
        EXPECT_TRUE(cmp.GetBaselineGraph(g).IsRegular(degrees[g]));
    }
    ASSERT_EQ(cmp.GetNotes().size(), 3u);
    EXPECT_CONTAINS(cmp.GetNotes()[0], "torus-2d 8x8: d = 4, equal port budget");
    EXPECT_CONTAINS(cmp.GetNotes()[1], "pdReservedPorts = 5");
    EXPECT_CONTAINS(cmp.GetNotes()[2], "full-mesh-3d 4x4x4: d = 9 (its own degree");
    EXPECT_THROW(cmp.GetBaselineGraph(3), Error);
    EXPECT_THROW(cmp.GetMetrics(0, WorkloadMode::INFERENCE_HEAVY, 0), Error);
}

TEST(BaselineComparison, SameResultsAsTheStudyAndDirectEvaluation)
{
    BaselineComparisonConfig c = SmallConfig();
    BaselineComparison cmp(c);
    cmp.Run();
    ASSERT_EQ(cmp.GetSeedsDone(), c.seedPlan.seeds);

    // the policies at the study's d are the study's results
    FlowExperimentHelper study(c.study, c.seedPlan);
    study.Run();
    // and at d = 6 those of the study with degree 6 and the paper's H^PD (r = d - 1)
    FlowExperimentConfig c6 = c.study;
    c6.degree = 6;
    c6.pdReservedPorts = 5;
    FlowExperimentHelper study6(c6, c.seedPlan);
    study6.Run();
    for (uint32_t seed = 0; seed < c.seedPlan.seeds; ++seed)
    {
        const Scenario s = study.BuildScenario(c.study.firstRun + seed);
        for (WorkloadMode mode : ALL_MODES)
        {
            for (std::size_t p = 0; p < ALL_POLICIES.size(); ++p)
            {
                ExpectSameMetrics(cmp.GetMetrics(seed, mode, p),
                                  study.GetMetrics(seed, mode, ALL_POLICIES[p]),
                                  "d=4 " + ToString(ALL_POLICIES[p]));
                ExpectSameMetrics(cmp.GetMetrics(seed, mode, 5 + p),
                                  study6.GetMetrics(seed, mode, ALL_POLICIES[p]),
                                  "d=6 " + ToString(ALL_POLICIES[p]));
            }
            // the baselines: the same flows, routing rule and routing seed
            for (std::size_t b = 0; b < 3; ++b)
            {
                ShortestPathRouting routing(cmp.GetBaselineGraph(b),
                                            c.study.routing,
                                            s.routingSeed);
                FlowMetrics direct =
                    EvaluateFlows(routing, s.flows[static_cast<std::size_t>(mode)]);
                ExpectSameMetrics(cmp.GetMetrics(seed, mode, 5 * b + 4),
                                  direct,
                                  cmp.GetRows()[5 * b + 4].GetLabel());
            }
        }
    }
    // the statistics are those of the study
    Summary a = cmp.Summarize(WorkloadMode::INFERENCE_HEAVY, 3, Metric::KV_AVG_COST);
    Summary b = study.Summarize(WorkloadMode::INFERENCE_HEAVY, Policy::MOSE, Metric::KV_AVG_COST);
    EXPECT_EQ(a.mean, b.mean);
    EXPECT_EQ(a.ci95, b.ci95);
    EXPECT_EQ(a.n, b.n);
}

TEST(BaselineComparison, ResultsDoNotDependOnThreads)
{
    BaselineComparisonConfig c = SmallConfig();
    BaselineComparison one(c);
    one.Run();
    c.seedPlan.threads = 3;
    BaselineComparison three(c);
    three.Run();
    for (uint32_t seed = 0; seed < c.seedPlan.seeds; ++seed)
    {
        for (WorkloadMode mode : ALL_MODES)
        {
            for (std::size_t row = 0; row < one.GetRows().size(); ++row)
            {
                ExpectSameMetrics(one.GetMetrics(seed, mode, row),
                                  three.GetMetrics(seed, mode, row),
                                  one.GetRows()[row].GetLabel());
            }
        }
    }
}

TEST(BaselineComparison, PoliciesOnlyAtTheStudyDegree)
{
    BaselineComparisonConfig c = SmallConfig();
    c.moseAtBaselineDegrees = false;
    BaselineComparison cmp(c);
    ASSERT_EQ(cmp.GetRows().size(), 7u);
    EXPECT_EQ(cmp.GetRows()[4].GetLabel(), "torus-2d d=4");
    EXPECT_EQ(cmp.GetRows()[5].GetLabel(), "torus-3d d=6");
    EXPECT_EQ(cmp.GetRows()[6].GetLabel(), "full-mesh-3d d=9");
    EXPECT_CONTAINS(cmp.GetNotes()[1], "policies at baseline degrees switched off");
}

TEST(BaselineComparison, InfeasibleDegreeIsANote)
{
    // a 1x1x64 full-mesh is the complete graph, d = 63: H^PD would need r = 62 > |D| = 24
    BaselineComparisonConfig c = SmallConfig();
    c.baselines[2].shape.dims = {1, 1, 64};
    BaselineComparison cmp(c);
    ASSERT_EQ(cmp.GetRows().size(), 11u);
    EXPECT_EQ(cmp.GetRows().back().GetLabel(), "full-mesh-3d d=63");
    EXPECT_CONTAINS(cmp.GetNotes()[2], "the policies cannot be built at d = 63");
    EXPECT_CONTAINS(cmp.GetNotes()[2], "--pdReservedPorts = 62");
    cmp.Run();
    // the complete graph: every flow is direct
    EXPECT_EQ(cmp.Summarize(WorkloadMode::TRAINING_HEAVY, 10, Metric::AVG_HOP).mean, 1.0);
}

TEST(BaselineComparison, Errors)
{
    BaselineComparisonConfig c = SmallConfig();
    c.baselines[0].shape.dims = {16, 16};
    c.baselines[0].shapeName = "--torus2d";
    std::string m = ErrorOf([&c] { BaselineComparison cmp(c); });
    EXPECT_CONTAINS(m, "invalid --torus2d = \"16x16\"");
    EXPECT_CONTAINS(m, "--nodes = 64, but 16 * 16 = 256");

    c = SmallConfig();
    c.seedPlan.seeds = 0;
    ExpectErrorContaining([&c] { BaselineComparison cmp(c); }, "--seeds");
    c = SmallConfig();
    c.study.firstRun = UINT64_MAX - 2; // firstRun + 3 seeds = 2^64 does not fit
    ExpectErrorContaining([&c] { BaselineComparison cmp(c); }, "run + seeds overflows 64 bits");

    m = ErrorOf([] { DefaultBaselineSpecs(61, "--nodes"); });
    EXPECT_CONTAINS(m, "invalid --nodes = 61");
}

TEST(BaselineComparison, OutputFiles)
{
    BaselineComparisonConfig c = SmallConfig();
    c.seedPlan.seeds = 2;
    BaselineComparison cmp(c);
    cmp.Run();
    std::ostringstream table;
    cmp.PrintTables(table);
    EXPECT_CONTAINS(table.str(), "full-mesh-3d  4x4x4     9");
    EXPECT_CONTAINS(table.str(), "Port budgets");
    const std::string dir = ::testing::TempDir() + "mose-baseline-comparison-test";
    std::filesystem::remove_all(dir);
    cmp.WriteCsv(dir);
    std::vector<std::string> plots = cmp.WritePlots(dir);
    EXPECT_EQ(plots.size(), 8u);
    const std::vector<std::string> summary = ReadLines(dir + "/baselines_summary.csv");
    ASSERT_FALSE(summary.empty());
    EXPECT_EQ(summary[0], "mode,topology,shape,degree,metric,mean,ci95,n");
    EXPECT_EQ(summary.size() - 1, 2u * 15 * ALL_METRICS.size());
    EXPECT_EQ(ReadLines(dir + "/baselines_per_seed.csv").size(), 1u + 2 * 2 * 15);
    // the names a program declares before the comparison are the files written, and no other
    EXPECT_EQ(BaselineComparison::GetCsvFileNames().size(), 2u);
    EXPECT_EQ(BaselineComparison::GetPlotFileNames().size(), 8u);
    EXPECT_EQ(ListFileNames(dir),
              SortedNames(
                  {BaselineComparison::GetCsvFileNames(), BaselineComparison::GetPlotFileNames()}));
    std::filesystem::remove_all(dir);
}
