/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-flow-experiment-helper.h"
#include "mose-reference-figures.h"
#include "mose-scenario-options.h"
#include "mose-study-report.h"
#include "mose-test-util.h"

#include "ns3/command-line.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-scenario.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h> // getpid: a folder of its own per test process

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// A small study that runs in milliseconds: N = 64, roles 24/24/16 and 8/8/48.
FlowExperimentConfig
SmallConfig()
{
    return SmallStudyConfig(2000);
}

/// Its seeds: 4, on one thread per core
const SeedPlan SMALL_PLAN{4, 0};

} // namespace

TEST(FlowExperimentHelper, ResultsDoNotDependOnThreads)
{
    const FlowExperimentConfig c = SmallConfig();
    FlowExperimentHelper one(c, SeedPlan{SMALL_PLAN.seeds, 1});
    one.Run();
    FlowExperimentHelper three(c, SeedPlan{SMALL_PLAN.seeds, 3});
    three.Run();
    for (uint32_t seed = 0; seed < SMALL_PLAN.seeds; ++seed)
    {
        for (WorkloadMode mode : ALL_MODES)
        {
            for (Policy p : ALL_POLICIES)
            {
                for (Metric m : ALL_METRICS)
                {
                    EXPECT_EQ(GetMetric(one.GetMetrics(seed, mode, p), m),
                              GetMetric(three.GetMetrics(seed, mode, p), m));
                }
            }
        }
    }
    EXPECT_EQ(one.GetMetrics(0, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE).load,
              three.GetMetrics(0, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE).load);
}

TEST(FlowExperimentHelper, PoliciesThatShareATemplateShareItsResults)
{
    FlowExperimentHelper h(SmallConfig(), SMALL_PLAN);
    h.Run();
    for (uint32_t seed = 0; seed < 4; ++seed)
    {
        const auto& mi = h.GetMetrics(seed, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
        const auto& si =
            h.GetMetrics(seed, WorkloadMode::INFERENCE_HEAVY, Policy::STATIC_INFERENCE);
        const auto& mt = h.GetMetrics(seed, WorkloadMode::TRAINING_HEAVY, Policy::MOSE);
        const auto& st = h.GetMetrics(seed, WorkloadMode::TRAINING_HEAVY, Policy::STATIC_TRAINING);
        EXPECT_EQ(mi.all.maxLoad, si.all.maxLoad);
        EXPECT_EQ(mi.kv.avgCost, si.kv.avgCost);
        EXPECT_EQ(mt.all.maxLoad, st.all.maxLoad);
        EXPECT_EQ(mt.training.p95Cost, st.training.p95Cost);
        // the P-D-biased template realises every one-to-one pair: all KV flows are direct
        EXPECT_EQ(mi.directKv, 1.0);
        EXPECT_EQ(mi.kvThreePlus, 0.0);
    }
    // the reduction is computed from the means
    double base =
        h.Summarize(WorkloadMode::INFERENCE_HEAVY, Policy::STATIC_TRAINING, Metric::KV_AVG_COST)
            .mean;
    double ours =
        h.Summarize(WorkloadMode::INFERENCE_HEAVY, Policy::MOSE, Metric::KV_AVG_COST).mean;
    EXPECT_DOUBLE_EQ(h.Reduction(WorkloadMode::INFERENCE_HEAVY,
                                 Policy::MOSE,
                                 Policy::STATIC_TRAINING,
                                 Metric::KV_AVG_COST),
                     100.0 * (1.0 - ours / base));
}

TEST(FlowExperimentHelper, WritesCsvAndPlots)
{
    FlowExperimentHelper h(SmallConfig(), SeedPlan{2, 0});
    h.Run();
    std::string dir =
        std::filesystem::temp_directory_path() / ("mose-helper-test-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    StudyReport report(h);
    report.WriteCsv(dir);
    std::vector<std::string> plots = report.WritePlots(dir);
    EXPECT_EQ(plots.size(), 10U);
    const std::vector<std::string> summary = ReadLines(dir + "/summary.csv");
    ASSERT_FALSE(summary.empty());
    EXPECT_EQ(summary[0], "mode,policy,metric,mean,ci95,n");
    EXPECT_EQ(summary.size() - 1, 2U * 4U * ALL_METRICS.size());
    // header + one row per circuit
    EXPECT_EQ(ReadLines(dir + "/loads_inference_MoSE.csv").size(), 1U + 64U * 4U / 2U);
    // the names a program declares before the study are the files written, and no other:
    // 3 tables + per mode 4 policies' loads and the hops; 8 panels + 2 hop figures
    const std::vector<std::string> csv = StudyReport::GetCsvFileNames();
    const std::vector<std::string> scripts = StudyReport::GetPlotFileNames();
    EXPECT_EQ(csv.size(), 3U + 2U * (4U + 1U));
    EXPECT_EQ(scripts.size(), 8U + 2U);
    EXPECT_EQ(ListFileNames(dir), SortedNames({csv, scripts}));
    for (const std::string& script : scripts)
    {
        EXPECT_NE(std::find(plots.begin(), plots.end(), dir + "/" + script), plots.end()) << script;
    }
    std::filesystem::remove_all(dir);
    // the reference's table, headline.csv, alone in its folder
    std::filesystem::create_directories(dir);
    ReferenceFigures::Paper().WriteCsv(h, dir);
    EXPECT_EQ(ListFileNames(dir), std::vector<std::string>{ReferenceFigures::GetCsvFileName()});
    EXPECT_EQ(ReferenceFigures::GetCsvFileName(), "headline.csv");
    std::filesystem::remove_all(dir);
}

TEST(FlowExperimentHelper, BadConfigurationIsRejected)
{
    auto message = [](const FlowExperimentConfig& c) {
        return ErrorOf([&c] { FlowExperimentHelper h(c, SMALL_PLAN); });
    };
    FlowExperimentConfig c = SmallConfig();
    c.kvShareInference = 1.5;
    EXPECT_NE(message(c).find("kvShareInference = 1.5"), std::string::npos) << message(c);
    c = SmallConfig();
    c.trainingRoles = {8, 8, 40};
    EXPECT_NE(message(c).find("training-heavy role counts"), std::string::npos) << message(c);
    // the seed plan beside the scenario: no seed, or runs beyond 64 bits
    c = SmallConfig();
    EXPECT_CONTAINS(ErrorOf([&c] {
                        FlowExperimentHelper h(c, SeedPlan{0, 1});
                    }),
                    "--seeds = 0: need at least one seed");
    c.firstRun = UINT64_MAX - 3; // 4 seeds: firstRun + seeds = 2^64 does not fit; 3 do
    EXPECT_CONTAINS(ErrorOf([&c] { FlowExperimentHelper h(c, SMALL_PLAN); }),
                    "run + seeds overflows 64 bits");
    EXPECT_NO_THROW(FlowExperimentHelper h(c, SeedPlan{3, 1}));
    c = SmallConfig();
    c.pdReservedPorts = 5;
    EXPECT_NE(message(c).find("pdReservedPorts = 5"), std::string::npos);
    c = SmallConfig();
    c.degree = 3;
    c.nodes = 63;
    c.inferenceRoles = {24, 24, 15};
    c.trainingRoles = {8, 8, 47};
    EXPECT_NE(message(c).find("63"), std::string::npos) << message(c);
}

TEST(ScenarioOptions, MalformedNumbersAreRejected)
{
    auto parse = [](std::vector<std::string> args) {
        return ParseOptions<ScenarioOptions>(std::move(args));
    };
    EXPECT_EQ(parse({"--nodes=64",
                     "--prefill=24",
                     "--decode=24",
                     "--training=16",
                     "--trPrefill=8",
                     "--trDecode=8",
                     "--trTraining=48"})
                  .nodes,
              64U);
    EXPECT_THROW(parse({"--nodes=1024x"}), Error);
    EXPECT_THROW(parse({"--degree=-4"}), Error);
    EXPECT_THROW(parse({"--flows=1e5"}), Error);
    EXPECT_THROW(parse({"--kvShareInference=0.7abc"}), Error);
    EXPECT_THROW(parse({"--routing=fastest"}), Error);
    std::string m = ErrorOf([&] { parse({"--degree=4.5"}); });
    EXPECT_CONTAINS(m, "degree = \"4.5\"");
}

TEST(FlowExperimentHelper, RolesAndAssignmentsFromFilesGiveTheSameStudy)
{
    const FlowExperimentConfig c = SmallConfig();
    const SeedPlan one{1, 0};
    FlowExperimentHelper generated(c, one);
    Scenario s = generated.BuildScenario(c.firstRun);
    std::string dir =
        std::filesystem::temp_directory_path() / ("mose-helper-files-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    WriteRolesCsv(s.roles[0], dir + "/roles_inference.csv");
    WriteRolesCsv(s.roles[1], dir + "/roles_training.csv");
    WritePdAssignmentCsv(s.assignment[0], dir + "/assignment_inference.csv");
    WritePdAssignmentCsv(s.assignment[1], dir + "/assignment_training.csv");

    FlowExperimentConfig f = c;
    f.inferenceRoles = {};
    f.trainingRoles = {}; // counts are ignored when the roles come from files
    f.inferenceRolesFile = dir + "/roles_inference.csv";
    f.trainingRolesFile = dir + "/roles_training.csv";
    f.inferenceAssignmentFile = dir + "/assignment_inference.csv";
    f.trainingAssignmentFile = dir + "/assignment_training.csv";
    FlowExperimentHelper fromFiles(f, one);
    Scenario t = fromFiles.BuildScenario(c.firstRun);
    for (std::size_t m = 0; m < 2; ++m)
    {
        EXPECT_EQ(s.roles[m].GetRoles(), t.roles[m].GetRoles());
        ASSERT_EQ(s.assignment[m].GetPairs().size(), t.assignment[m].GetPairs().size());
        for (std::size_t i = 0; i < s.assignment[m].GetPairs().size(); ++i)
        {
            EXPECT_EQ(s.assignment[m].GetPairs()[i].prefill, t.assignment[m].GetPairs()[i].prefill);
            EXPECT_EQ(s.assignment[m].GetPairs()[i].decode, t.assignment[m].GetPairs()[i].decode);
        }
    }
    generated.Run();
    fromFiles.Run();
    for (WorkloadMode mode : ALL_MODES)
    {
        for (Policy p : ALL_POLICIES)
        {
            for (Metric m : ALL_METRICS)
            {
                EXPECT_EQ(GetMetric(generated.GetMetrics(0, mode, p), m),
                          GetMetric(fromFiles.GetMetrics(0, mode, p), m));
            }
        }
    }

    // a roles file for another N, and an assignment that breaks the roles, are named
    FlowExperimentConfig bad = f;
    bad.nodes = 66;
    EXPECT_CONTAINS(ErrorOf([&] { FlowExperimentHelper h(bad, one); }), "roles_inference.csv");
    bad = f;
    bad.inferenceAssignmentFile = dir + "/assignment_training.csv";
    EXPECT_CONTAINS(ErrorOf([&] { FlowExperimentHelper h(bad, one); }), "assignment_training.csv");
    std::filesystem::remove_all(dir);
}

TEST(ScenarioBuilder, PartsBuiltAloneMatchTheWholeScenario)
{
    FlowExperimentConfig c = SmallConfig();
    ScenarioBuilder builder(c);
    const uint64_t run = 5;
    Scenario s = builder.Build(run);
    for (WorkloadMode mode : ALL_MODES)
    {
        const auto m = static_cast<std::size_t>(mode);
        ModeScenario part = builder.BuildMode(run, mode);
        EXPECT_EQ(part.run, run);
        EXPECT_EQ(part.mode, mode);
        EXPECT_EQ(part.roles.GetRoles(), s.roles[m].GetRoles());
        ASSERT_EQ(part.assignment.GetPairs().size(), s.assignment[m].GetPairs().size());
        for (std::size_t k = 0; k < part.assignment.GetPairs().size(); ++k)
        {
            EXPECT_EQ(part.assignment.GetPairs()[k].prefill, s.assignment[m].GetPairs()[k].prefill);
            EXPECT_EQ(part.assignment.GetPairs()[k].decode, s.assignment[m].GetPairs()[k].decode);
        }
        ASSERT_EQ(part.flows.size(), s.flows[m].size());
        for (std::size_t i = 0; i < part.flows.size(); ++i)
        {
            EXPECT_EQ(part.flows[i].src, s.flows[m][i].src);
            EXPECT_EQ(part.flows[i].dst, s.flows[m][i].dst);
            EXPECT_EQ(part.flows[i].cls, s.flows[m][i].cls);
        }
        for (Policy p : ALL_POLICIES)
        {
            const CircuitGraph& expected =
                s.templates[static_cast<std::size_t>(SelectTemplate(p, mode))];
            EXPECT_EQ(builder.BuildCircuitGraph(run, mode, p).GetCircuits(),
                      expected.GetCircuits());
        }
    }
    // the modes' roles follow the configured counts
    EXPECT_EQ(builder.BuildMode(run, WorkloadMode::INFERENCE_HEAVY).roles.GetCounts().training,
              16U);
    EXPECT_EQ(builder.BuildMode(run, WorkloadMode::TRAINING_HEAVY).roles.GetCounts().training, 48U);
    EXPECT_EQ(builder.BuildRoutingSeed(run), s.routingSeed);
    EXPECT_NE(builder.BuildRoutingSeed(run + 1), s.routingSeed);
    // another run draws another uniform template
    EXPECT_NE(builder.BuildTemplate(run, TemplateId::UNIFORM).GetCircuits(),
              builder.BuildTemplate(run + 1, TemplateId::UNIFORM).GetCircuits());
}

TEST(FlowExperimentHelper, RewiringAwareMoseKeepsCircuitsAndStaticPoliciesStay)
{
    FlowExperimentConfig c = SmallConfig();
    FlowExperimentHelper fresh(c, SMALL_PLAN);
    fresh.Run();
    c.construction = TemplateConstruction::REWIRING_AWARE;
    FlowExperimentHelper rewired(c, SMALL_PLAN);
    rewired.Run();
    const Scenario s = rewired.BuildScenario(c.firstRun);
    const ScenarioBuilder& builder = rewired.GetScenarioBuilder();
    const RoleAssignment& roles = s.roles[0];
    for (WorkloadMode mode : ALL_MODES)
    {
        SCOPED_TRACE(ToString(mode));
        // MoSE's graph: a valid template, built from the graph it replaces
        const CircuitGraph& g = s.GetGraph(Policy::MOSE, mode);
        EXPECT_TRUE(g.IsSimple());
        EXPECT_TRUE(g.IsConnected());
        EXPECT_TRUE(g.IsRegular(c.degree));
        EXPECT_EQ(builder.BuildCircuitGraph(c.firstRun, mode, Policy::MOSE).GetCircuits(),
                  g.GetCircuits());
        if (mode == WorkloadMode::INFERENCE_HEAVY)
        {
            for (uint32_t v = 0; v < c.nodes; ++v)
            {
                EXPECT_EQ(CountPdCircuits(g, roles)[v],
                          roles.Get(v) == GroupRole::TRAINING ? 0U : c.pdReservedPorts);
            }
        }
        for (uint32_t seed = 0; seed < SMALL_PLAN.seeds; ++seed)
        {
            // static policies: the fresh templates, never switched
            for (Policy p : {Policy::STATIC_TRAINING, Policy::STATIC_INFERENCE})
            {
                EXPECT_EQ(rewired.GetMetrics(seed, mode, p).all.maxLoad,
                          fresh.GetMetrics(seed, mode, p).all.maxLoad);
                EXPECT_EQ(rewired.GetSwitchCount(seed, mode, p).added, 0U);
                EXPECT_EQ(rewired.GetSwitchCount(seed, mode, p).kept, c.nodes * c.degree / 2);
            }
            const SwitchCount& sw = rewired.GetSwitchCount(seed, mode, Policy::MOSE);
            const SwitchCount& fw = fresh.GetSwitchCount(seed, mode, Policy::MOSE);
            EXPECT_EQ(sw.kept + sw.added, c.nodes * c.degree / 2);
            EXPECT_EQ(sw.added, sw.removed);
            EXPECT_GT(sw.kept, 2 * fw.kept) << "rewiring-aware keeps more than fresh";
        }
    }
    const CircuitDiff d =
        DiffCircuits(s.GetPreviousGraph(Policy::MOSE, WorkloadMode::TRAINING_HEAVY),
                     s.GetGraph(Policy::MOSE, WorkloadMode::TRAINING_HEAVY));
    EXPECT_EQ(rewired.GetSwitchCount(0, WorkloadMode::TRAINING_HEAVY, Policy::MOSE).kept,
              d.kept.size());
}
