/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// CheckOutputsAreNotInputs() and the Program's declared files: an output never replaces one
// of the program's input files or another of its outputs, however the path reaches it.

#include "mose-program.h"
#include "mose-test-util.h"

#include "ns3/mose-scenario.h"
#include "ns3/mose-text-io.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// \return a fresh folder in the test's temporary folder, holding trace.csv ("t\n")
std::filesystem::path
MakeFolderWithTrace(const std::string& name)
{
    const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "sub");
    std::ofstream(dir / "trace.csv") << "t\n";
    return dir;
}

} // namespace

TEST(OutputsNotInputs, DistinctFilesPass)
{
    const std::filesystem::path dir = MakeFolderWithTrace("distinct");
    EXPECT_NO_THROW(CheckOutputsAreNotInputs(
        {{"--trace", (dir / "trace.csv").string()}},
        {{"--kvExport", (dir / "kv.csv").string()},
         {"--outputDir (requests.csv)", (dir / "requests.csv").string()}}));
    EXPECT_NO_THROW(CheckOutputsAreNotInputs({}, {}));
}

TEST(OutputsNotInputs, TheSamePathNamesBothOptions)
{
    const std::filesystem::path dir = MakeFolderWithTrace("same");
    const std::string trace = (dir / "trace.csv").string();
    const std::string m = ErrorOf([&]() {
        CheckOutputsAreNotInputs({{"--trace", trace}}, {{"--kvExport", trace}});
    });
    EXPECT_NE(m.find("--kvExport = \"" + trace + "\""), std::string::npos) << m;
    EXPECT_NE(m.find("the input --trace = \"" + trace + "\""), std::string::npos) << m;
    EXPECT_NE(m.find("give --kvExport another path"), std::string::npos) << m;
    // the input is untouched
    EXPECT_EQ(ReadLines(trace), std::vector<std::string>{"t"});
}

TEST(OutputsNotInputs, ASymlinkToTheInputIsTheInput)
{
    const std::filesystem::path dir = MakeFolderWithTrace("symlink");
    std::filesystem::create_symlink(dir / "trace.csv", dir / "link.csv");
    const std::string m = ErrorOf([&]() {
        CheckOutputsAreNotInputs({{"--trace", (dir / "trace.csv").string()}},
                                 {{"--kvExport", (dir / "link.csv").string()}});
    });
    // the message gives the file both resolve to
    EXPECT_NE(m.find("both are " + std::filesystem::canonical(dir / "trace.csv").string()),
              std::string::npos)
        << m;
}

TEST(OutputsNotInputs, ALinkToAFileNotWrittenYetIsThatFile)
{
    // a link whose target does not exist yet is followed: gnuplot writes a PNG through a link
    // to sweep.csv, which the program writes first
    const std::filesystem::path dir = MakeFolderWithTrace("dangling");
    std::filesystem::create_symlink("sweep.csv", dir / "fig.png");
    std::filesystem::create_symlink("fig.png", dir / "chain.png");
    EXPECT_EQ(ResolveFilePath((dir / "chain.png").string()),
              std::filesystem::canonical(dir) / "sweep.csv");
    ExpectErrorContaining(
        [&]() {
            CheckOutputsAreNotInputs({},
                                     {{"--outputDir (sweep.csv)", (dir / "sweep.csv").string()},
                                      {"--outputDir (fig.png)", (dir / "fig.png").string()}});
        },
        "--outputDir (fig.png) = \"" + (dir / "fig.png").string() +
            "\" would replace the output --outputDir (sweep.csv)");
    // links in a cycle end (the path is left where it stands)
    std::filesystem::create_symlink("b", dir / "a");
    std::filesystem::create_symlink("a", dir / "b");
    EXPECT_EQ(ResolveFilePath((dir / "a").string()).parent_path(), std::filesystem::canonical(dir));
}

TEST(OutputsNotInputs, DotsAndALinkedFolderAreResolved)
{
    const std::filesystem::path dir = MakeFolderWithTrace("dots");
    std::filesystem::create_directory_symlink(dir, dir / "sub" / "up");
    ExpectErrorContaining(
        [&]() {
            CheckOutputsAreNotInputs({{"--graph", (dir / "sub" / ".." / "trace.csv").string()}},
                                     {{"--loads", (dir / "sub" / "up" / "trace.csv").string()}});
        },
        "would replace the input --graph");
}

TEST(OutputsNotInputs, TwoOutputsOfTheSameFileAreRefused)
{
    const std::filesystem::path dir = MakeFolderWithTrace("outputs");
    ExpectErrorContaining(
        [&]() {
            CheckOutputsAreNotInputs(
                {},
                {{"--outputDir (requests.csv)", (dir / "requests.csv").string()},
                 {"--kvExport", (dir / "sub" / ".." / "requests.csv").string()}});
        },
        "--kvExport = \"" + (dir / "sub" / ".." / "requests.csv").string() +
            "\" would replace the output --outputDir (requests.csv)");
}

TEST(OutputsNotInputs, TheProgramChecksItsDeclaredFilesBeforeTheFolder)
{
    const std::filesystem::path dir = MakeFolderWithTrace("program");
    Program program("mose-test", (dir / "out").string(), Program::FLOW_LEVEL);
    program.AddInput("--trace", (dir / "out" / "requests.csv").string());
    program.AddOutput("--kvExport", ""); // not given: nothing declared
    program.AddOutputFiles({"requests.csv"});
    ExpectErrorContaining([&]() { program.CheckOutput(); },
                          "--outputDir (requests.csv) = \"" + (dir / "out").string() +
                              "/requests.csv\" would replace the input --trace");
    // refused before the output folder is made
    EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(OutputsNotInputs, AScriptsPngIsDeclaredWithIt)
{
    // gnuplot writes the PNG, past WriteTextFile()'s protection: AddPlotFiles() declares it
    // beside its script, with --plot only
    const std::filesystem::path dir = MakeFolderWithTrace("plots");
    const auto check = [&dir](const std::string& plot) {
        Program program("mose-test", dir.string(), Program::FLOW_LEVEL | Program::PLOT);
        program.AddOutputOptions("folder", "plot");
        std::string arg0 = "mose-test";
        std::string arg1 = plot;
        char* argv[] = {arg0.data(), arg1.data()};
        program.Parse(2, argv);
        program.AddInput("--trainingRolesFile", (dir / "fig.png").string());
        program.AddPlotFiles({"fig.plt"});
        program.CheckOutput();
        SetProtectedInputs({});
    };
    ExpectErrorContaining([&]() { check("--plot=true"); },
                          "--outputDir (fig.png) = \"" + dir.string() +
                              "/fig.png\" would replace the input --trainingRolesFile");
    EXPECT_NO_THROW(check("--plot=false"));
}

TEST(OutputsNotInputs, AnUndeclaredOutputIsRefusedWhenWritten)
{
    // the safety net behind the declared files: WriteTextFile() refuses an input the program
    // declared, reached by any path, and leaves it as it was
    const std::filesystem::path dir = MakeFolderWithTrace("undeclared");
    std::filesystem::create_symlink(dir / "trace.csv", dir / "link.csv");
    Program program("mose-test", (dir / "out").string(), Program::FLOW_LEVEL);
    program.AddInput("--inferenceRolesFile", (dir / "sub" / ".." / "trace.csv").string());
    program.CheckOutput();
    for (const std::filesystem::path& target : {dir / "trace.csv", dir / "link.csv"})
    {
        ExpectErrorContaining(
            [&]() { WriteTextFile(target.string(), [](std::ostream& os) { os << "x\n"; }); },
            "cannot write " + target.string() + ": it is the input --inferenceRolesFile = \"");
    }
    EXPECT_EQ(ReadLines((dir / "trace.csv").string()), std::vector<std::string>{"t"});
    // another file is written, and a program without inputs protects nothing
    WriteTextFile((dir / "other.csv").string(), [](std::ostream& os) { os << "x\n"; });
    EXPECT_TRUE(std::filesystem::exists(dir / "other.csv"));
    SetProtectedInputs({});
    WriteTextFile((dir / "trace.csv").string(), [](std::ostream& os) { os << "y\n"; });
    EXPECT_EQ(ReadLines((dir / "trace.csv").string()), std::vector<std::string>{"y"});
}

TEST(OutputsNotInputs, TheScenarioFilesAreInputs)
{
    // CheckStudy() declares the scenario's files: a roles file named as an output is refused
    const std::filesystem::path dir = MakeFolderWithTrace("scenario");
    Program program("mose-test", dir.string(), Program::FLOW_LEVEL);
    FlowExperimentConfig config;
    config.nodes = 16;
    config.degree = 4;
    config.flows = 10;
    config.trainingFlowsFile = (dir / "flows_training.csv").string();
    program.AddOutputFiles(GetScenarioFileNames());
    ExpectErrorContaining([&]() { program.CheckStudy(config, 1); },
                          "--outputDir (flows_training.csv) = \"" + dir.string() +
                              "/flows_training.csv\" would replace the input --trainingFlowsFile");
    SetProtectedInputs({});
}

TEST(OutputsNotInputs, ScenarioFileNamesAreTheFilesWritten)
{
    // GetScenarioFileNames() is what WriteScenarioFiles() writes: the names a program declares
    const std::filesystem::path dir = MakeFolderWithTrace("names") / "written";
    FlowExperimentConfig config;
    config.nodes = 16;
    config.degree = 4;
    config.flows = 10;
    config.inferenceRoles = RoleCounts::PaperScaled(16, WorkloadMode::INFERENCE_HEAVY);
    config.trainingRoles = RoleCounts::PaperScaled(16, WorkloadMode::TRAINING_HEAVY);
    WriteScenarioFiles(ScenarioBuilder(config).Build(1), dir.string());
    std::vector<std::string> written;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
    {
        written.push_back(entry.path().filename().string());
    }
    std::vector<std::string> names = GetScenarioFileNames();
    std::sort(written.begin(), written.end());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(written, names);
    EXPECT_EQ(names.size(), 12u); // 3 templates x (CSV, DOT) + 2 modes x 3 files
}
