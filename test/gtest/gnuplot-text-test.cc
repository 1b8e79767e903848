/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// EscapeGnuplotText(): a text from the command line in a gnuplot script is shown as typed and
// never run, checked with the real gnuplot (Debian's; the render tests skip without it).

#include "mose-llm-regime-figure.h"
#include "mose-study-report.h"
#include "mose-test-util.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// \return a fresh temporary folder for one test
std::string
TempFolder(const std::string& name)
{
    const std::string dir = testing::TempDir() + "mose-gnuplot-text-" + name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

} // namespace

TEST(GnuplotText, QuotesBackslashesBackquotesAndMacrosAreEscaped)
{
    EXPECT_EQ(EscapeGnuplotText("--title", "N=64, d=8"), "N=64, d=8");
    // each character by hand: \ -> \\, " -> \", ` -> \140, @ -> \100
    EXPECT_EQ(EscapeGnuplotText("--title", "a\"b\\c`d@e"), "a\\\"b\\\\c\\140d\\100e");
    EXPECT_EQ(EscapeGnuplotText("--title", "it's"), "it's"); // no special meaning in "..."
}

TEST(GnuplotText, ALineBreakIsRefusedNamingTheOption)
{
    ExpectErrorContaining([]() { EscapeGnuplotText("--title", "one\nset output"); },
                          "invalid --title = \"one\\x0Aset output\": a text of one line");
    ExpectErrorContaining([]() { EscapeGnuplotText("--title", "a\rb"); }, "--title");
    ExpectErrorContaining([]() { EscapeGnuplotText("--title", std::string("a\0b", 3)); },
                          "no line break or other control character");
}

// The regime figure with hostile titles, rendered by gnuplot: nothing runs, the PNG has bytes
TEST(GnuplotText, HostileTitlesRenderAndRunNothing)
{
    const std::string dir = TempFolder("gnuplot-text");
    const std::string mark = dir + "/pwned";
    const std::vector<std::string> titles = {
        "a \" quote",
        "back\\slash\\ and \\\" escaped quote\\",
        "\"; system(\"touch " + mark + "1\"); print \"",
        "`touch " + mark + "2`",
        "x\" . system(\"touch " + mark + "3\") . \"",
        "@GPVAL_TERM ' single ' quotes",
    };
    LlmRegimePoint p;
    p.level = "aggregate";
    p.load = 25;
    p.interval = 1;
    p.darkTime = 0.01;
    p.samples = 20;
    p.mean = 0.03;
    p.low = 0.02;
    p.high = 0.04;
    p.verdict = MarginVerdict::DOES_NOT_PAY;
    p.bestStatic = "S-Train";
    LlmRegimeFigure figure(0.02);
    figure.Add(p);
    for (std::size_t i = 0; i < titles.size(); ++i)
    {
        const std::string base = "t" + std::to_string(i);
        {
            std::ofstream plt(dir + "/" + base + ".plt");
            figure.WritePlot(plt,
                             EscapeGnuplotText("--title", titles[i]) + "\\nsecond line",
                             base + ".png");
        }
        const GnuplotResult r = RunGnuplot(dir, base + ".plt");
        if (r == GnuplotResult::NOT_INSTALLED)
        {
            GTEST_SKIP() << "gnuplot is not installed (utils/install-deps.sh installs it)";
        }
        EXPECT_EQ(r, GnuplotResult::RENDERED) << titles[i];
        std::error_code ec;
        EXPECT_GT(std::filesystem::file_size(dir + "/" + base + ".png", ec), 0u) << titles[i];
        EXPECT_EQ(StudyReport::RenderPlots(dir, {base + ".plt"}), 1u) << titles[i];
    }
    for (const char* k : {"1", "2", "3"})
    {
        EXPECT_FALSE(std::filesystem::exists(mark + k)) << mark + k;
    }
}

// Unescaped, the same title breaks out of its string: what the escape prevents (and a check
// that the test above could fail)
TEST(GnuplotText, UnescapedTheTitleWouldRunACommand)
{
    const std::string dir = TempFolder("gnuplot-raw");
    const std::string mark = dir + "/ran";
    {
        std::ofstream plt(dir + "/raw.plt");
        plt << "set terminal dumb\nset output 'raw.txt'\nset title \"\" . system(\"touch " << mark
            << "\") . \"\"\nplot x\n";
    }
    if (RunGnuplot(dir, "raw.plt") == GnuplotResult::NOT_INSTALLED)
    {
        GTEST_SKIP() << "gnuplot is not installed";
    }
    EXPECT_TRUE(std::filesystem::exists(mark));
}
