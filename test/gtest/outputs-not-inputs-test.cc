/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// CheckOutputsAreNotInputs() and the Program's declared files: an output never replaces one
// of the program's input files or another of its outputs, however the path reaches it.

#include "mose-program.h"
#include "mose-test-util.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

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
