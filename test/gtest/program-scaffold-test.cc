/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The program scaffold (Program) and the programs' options classes: the options are checked
// by the library, and every message names the option and quotes its text as typed.

#include "mose-baseline-options.h"
#include "mose-program.h"
#include "mose-scenario-options.h"
#include "mose-switch-cost-options.h"
#include "mose-test-util.h"

#include "ns3/command-line.h"
#include "ns3/mose-break-even.h"

#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using ns3::mose::test::ExpectErrorContaining;

namespace
{

/// Parses the given arguments (the program's name first) with a command line
void
ParseArgs(CommandLine& cmd, std::vector<std::string> args)
{
    args.insert(args.begin(), "program");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    cmd.Parse(static_cast<int>(args.size()), argv.data());
}

/// SwitchCostOptions::GetConfig() for the given arguments, at N = 64 and 2000 flows
SwitchCostConfig
ParseSwitchCostConfig(const std::vector<std::string>& args)
{
    SwitchCostOptions options;
    CommandLine cmd;
    options.AddOptions(cmd);
    ParseArgs(cmd, args);
    FlowExperimentConfig study;
    study.nodes = 64;
    study.flows = 2000;
    return options.GetConfig(study);
}

} // namespace

TEST(ProgramScaffold, SwitchCostValidateNamesTheOptionThatGaveAField)
{
    SwitchCostParameters p;
    p.unservedFactor = -2;
    ExpectErrorContaining([&] { p.Validate(); }, "invalid unserved factor = -2");
    p.unservedFactorOption = SwitchCostParameters::Option{"--unservedFactor", "-2.0"};
    ExpectErrorContaining([&] { p.Validate(); },
                          "invalid --unservedFactor = \"-2.0\": a finite number >= 0");
    p.unservedFactor = 1;
    p.unservedShare = 1.5;
    p.unservedShareOption = SwitchCostParameters::Option{"--unservedShare", "1.5"};
    ExpectErrorContaining([&] { p.Validate(); }, "invalid --unservedShare = \"1.5\": a share in");
}

TEST(ProgramScaffold, SwitchCostOptionsAreCheckedByTheLibrary)
{
    ExpectErrorContaining([] { ParseSwitchCostConfig({"--unservedFactor=-2"}); },
                          "invalid --unservedFactor = \"-2\": a finite number >= 0");
    ExpectErrorContaining([] { ParseSwitchCostConfig({"--unservedShare=1.5"}); },
                          "invalid --unservedShare = \"1.5\": a share in [0, 1]");
    ExpectErrorContaining([] { ParseSwitchCostConfig({"--cycles=0"}); },
                          "invalid --cycles = \"0\": at least 1 cycle");
    ExpectErrorContaining([] { ParseSwitchCostConfig({"--points=1"}); },
                          "invalid --points = \"1\": 2 <= points <= 100000");
    ExpectErrorContaining([] { ParseSwitchCostConfig({"--maxDuration=1e-4"}); },
                          "invalid --maxDuration = \"1e-4\": a number of seconds > --minDuration");
    ExpectErrorContaining([] { ParseSwitchCostConfig({"--darkTime=1e308"}); },
                          "invalid --darkTime = \"1e308\" with --unservedFactor = \"1\"");
}

TEST(ProgramScaffold, SwitchCostDefaultsAreTheAlternatingSchedule)
{
    const SwitchCostConfig c = ParseSwitchCostConfig({});
    EXPECT_TRUE(c.alternating);
    ASSERT_EQ(c.schedule.size(), 24U); // 12 cycles of both modes
    EXPECT_DOUBLE_EQ(c.schedule.front().duration, 3600);
    EXPECT_EQ(c.durations.size(), 141U);
    EXPECT_DOUBLE_EQ(c.params.darkTime, 0.025);
    EXPECT_FALSE(c.params.unservedShare.has_value());

    const SwitchCostConfig given =
        ParseSwitchCostConfig({"--schedule=inference-heavy:1h,training-heavy:10min",
                               "--unservedShare=1",
                               "--darkTime=25ms"});
    EXPECT_FALSE(given.alternating);
    ASSERT_EQ(given.schedule.size(), 2U);
    EXPECT_DOUBLE_EQ(given.schedule[1].duration, 600);
    EXPECT_DOUBLE_EQ(*given.params.unservedShare, 1);
    EXPECT_DOUBLE_EQ(given.params.darkTime, 0.025);
}

TEST(ProgramScaffold, BaselineOptionsNameTheShapeOption)
{
    auto config = [](const std::vector<std::string>& args) {
        ScenarioOptions scenario;
        BaselineOptions baselines;
        CommandLine cmd;
        scenario.AddOptions(cmd);
        baselines.AddOptions(cmd);
        ParseArgs(cmd, args);
        return baselines.GetConfig(scenario);
    };
    ExpectErrorContaining(
        [&] {
            config({"--baselines=torus-2d", "--torus3d=16x8x8"});
        },
        "invalid --torus3d = \"16x8x8\": torus-3d is not in --baselines");
    const BaselineComparisonConfig c = config({"--torus3d=16x8x8"});
    ASSERT_EQ(c.baselines.size(), 3U);
    EXPECT_EQ(c.baselines[1].shapeName, "--torus3d");
    EXPECT_FALSE(c.baselineReservedPorts.has_value());
    const FlowExperimentConfig largest = BaselineOptions::GetLargestStudy(c);
    for (const BaselineSpec& spec : c.baselines)
    {
        EXPECT_GE(largest.degree, GetBaselineDegree(spec.baseline, spec.shape));
    }
    EXPECT_GE(largest.degree, c.study.degree);
    EXPECT_EQ(config({"--pdReservedPorts=2"}).baselineReservedPorts, 2U);
}

TEST(ProgramScaffold, StudyWorkersAreTheSeedsHeldAtOnce)
{
    SeedPlan plan;
    plan.threads = 3;
    plan.seeds = 2;
    EXPECT_EQ(Program::GetStudyWorkers(plan), 2U);
    EXPECT_EQ(Program::GetThreads(plan), 3U);
    plan.seeds = 20;
    EXPECT_EQ(Program::GetStudyWorkers(plan), 3U);
    plan.threads = 0; // the hardware's threads, at least 1
    EXPECT_GE(Program::GetStudyWorkers(plan), 1U);
    EXPECT_LE(Program::GetStudyWorkers(plan), 20U);
    EXPECT_EQ(Program::GetThreads(plan), plan.GetThreads());
    EXPECT_GE(plan.GetThreads(), 1U);
}

TEST(ProgramScaffold, PlotsOnlyWhenOffered)
{
    // without PLOT no script is written, whatever the folder
    Program program("test", "/nonexistent/folder", Program::FLOW_LEVEL);
    EXPECT_FALSE(program.IsPlotting());
    EXPECT_FALSE(program.IsShowingProgress());
    bool called = false;
    std::ostringstream os;
    program.WritePlots(
        [&](const std::string&) {
            called = true;
            return std::vector<std::string>{};
        },
        "gnuplot scripts",
        os);
    program.WritePlot(
        "x",
        [&](std::ostream&) { called = true; },
        "x.png",
        os);
    EXPECT_FALSE(called);
    EXPECT_EQ(os.str(), "");
    EXPECT_EQ(program.GetOutputDir(), "/nonexistent/folder");
}
