/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// LlmRegimeFigure: a grid merged from several regime_map.csv files, its CSV, its figure and
// its refusals, on hand-made cells.

#include "mose-llm-regime-figure.h"
#include "mose-test-util.h"

#include "ns3/mose-error.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// A cell: margin m with the interval [lo, hi] over 20 samples, its verdict with a +-2% band
LlmRegimePoint
Cell(double load, double interval, double dark, double m, double lo, double hi)
{
    LlmRegimePoint p;
    p.level = "aggregate";
    p.load = load;
    p.interval = interval;
    p.darkTime = dark;
    p.samples = 20;
    p.mean = m;
    p.low = lo;
    p.high = hi;
    MeanInterval mi;
    mi.n = 20;
    mi.mean = m;
    mi.halfWidth = (hi - lo) / 2;
    p.verdict = DecideMargin(mi, 0.02);
    p.bestStatic = "S-Train";
    return p;
}

/// a file of the test's own under the temporary folder
std::string
TempFile(const std::string& name, const std::string& text)
{
    return ns3::mose::test::TempFile("mose-figure", name, text);
}

const std::string HEADER = "level,load_per_s,interval_s,dark_s,samples,margin_mean,margin_ci_low,"
                           "margin_ci_high,ci_verdict,best_static,flow_break_even_s\n";

// Two maps run apart (by interval) merge into one grid: the rows come back sorted by load, dark
// time and interval, with their verdicts, and WriteCsv() reads back to the same grid.
TEST(LlmRegimeFigure, MapsRunApartMergeIntoOneGrid)
{
    const std::string a = TempFile("a.csv",
                                   HEADER + "aggregate,800,1,0.01,20,-0.03,-0.04,-0.025,pays,"
                                            "S-Train,0.017\n"
                                            "aggregate,25,1,0.01,20,0.03,0.02,0.04,does-not-pay,"
                                            "S-Train,0.017\n");
    // the other map's columns in another order, with more of them (mose-llm's per-seed ones)
    const std::string b = TempFile("b.csv",
                                   "load_per_s,interval_s,dark_s,verdict,samples,margin_mean,"
                                   "margin_ci_low,margin_ci_high,ci_verdict,best_static,"
                                   "flow_break_even,flow_break_even_s,level\n"
                                   "25,60,0.01,tie,20,0.001,-0.01,0.012,tie,S-Inf,17 ms,0.017,"
                                   "aggregate\n"
                                   "25,60,1,x,1,0.5,,,undecided,S-Train,never,inf,aggregate\n");
    LlmRegimeFigure f(0.02);
    EXPECT_EQ(f.AddCsv(a), 2u);
    EXPECT_EQ(f.AddCsv(b), 2u);
    const std::vector<LlmRegimePoint> p = f.GetPoints();
    ASSERT_EQ(p.size(), 4u);
    // load, then dark time, then interval
    EXPECT_EQ(p[0].load, 25);
    EXPECT_EQ(p[0].interval, 1);
    EXPECT_EQ(p[1].interval, 60);
    EXPECT_EQ(p[1].darkTime, 0.01);
    EXPECT_EQ(p[2].darkTime, 1);
    EXPECT_EQ(p[3].load, 800);
    EXPECT_EQ(p[0].verdict, MarginVerdict::DOES_NOT_PAY);
    EXPECT_EQ(p[1].verdict, MarginVerdict::TIE);
    EXPECT_EQ(p[1].bestStatic, "S-Inf");
    EXPECT_EQ(p[2].verdict, MarginVerdict::UNDECIDED);
    EXPECT_FALSE(p[2].low.has_value());
    EXPECT_FALSE(p[2].flowBreakEven.has_value()); // "inf": no T* to mark
    EXPECT_EQ(p[3].verdict, MarginVerdict::PAYS);
    ASSERT_TRUE(p[3].flowBreakEven.has_value());
    EXPECT_DOUBLE_EQ(*p[3].flowBreakEven, 0.017);
    EXPECT_CONTAINS(f.Summarize(),
                    "with 95% confidence switching pays in 1 of 4 cells, ties in 1, does not pay "
                    "in 1, undecided in 1 (tie band +-2%)");
    EXPECT_CONTAINS(f.Summarize(), "load 800/s, T 1 s, dark 10 ms: pays (mean -3.0%");
    // the merged CSV reads back to the same grid
    std::ostringstream csv;
    f.WriteCsv(csv);
    EXPECT_EQ(csv.str().substr(0, HEADER.size()), HEADER);
    EXPECT_CONTAINS(csv.str(), "aggregate,800,1,0.01,20,-0.03,-0.04,-0.025,pays,S-Train,0.017\n");
    EXPECT_CONTAINS(csv.str(), "aggregate,25,60,1,1,0.5,,,undecided,S-Train,\n");
    LlmRegimeFigure back(0.02);
    EXPECT_EQ(back.AddCsv(TempFile("grid.csv", csv.str())), 4u);
    std::ostringstream again;
    back.WriteCsv(again);
    EXPECT_EQ(again.str(), csv.str());
}

// The figure: one panel per dark time, one line per load in each, the band and zero in every
// panel's range; a panel with margins beyond ten bands gets the asinh axis, one within them a
// linear one; the break-even T* is marked in its dark time's panel.
TEST(LlmRegimeFigure, APanelPerDarkTimeWithTheBandAndZeroInRange)
{
    LlmRegimeFigure f(0.02);
    f.Add(Cell(25, 1, 0.01, 0.05, 0.04, 0.06));
    f.Add(Cell(25, 10, 0.01, 0.06, 0.05, 0.07));
    f.Add(Cell(800, 1, 0.01, 0.03, 0.025, 0.035));
    LlmRegimePoint far = Cell(25, 1, 1, 20.0, 15.0, 25.0); // +2000%
    far.flowBreakEven = 1.7;
    f.Add(far);
    std::ostringstream plt;
    f.WritePlot(plt, "Grid", "grid.png");
    const std::string s = plt.str();
    EXPECT_CONTAINS(s, "set output \"grid.png\"");
    EXPECT_CONTAINS(s, "set multiplot layout 1,2 title \"Grid\"");
    const std::size_t second = s.find("set title \"dark time 1 s\"");
    ASSERT_NE(second, std::string::npos);
    const std::string first = s.substr(0, second);
    const std::string last = s.substr(second);
    EXPECT_CONTAINS(first, "set title \"dark time 10 ms\"");
    // the first panel: margins +3% to +7%, linear, its range holds -2% and the highest bar
    EXPECT_EQ(first.find("set nonlinear y via"), std::string::npos);
    const auto [low, high] = ReadYRange(first);
    EXPECT_LT(low, -2);
    EXPECT_GT(high, 7);
    EXPECT_CONTAINS(first, "title \"load 25/s\"");
    EXPECT_CONTAINS(first, "title \"load 800/s\"");
    EXPECT_CONTAINS(first, "set object 1 rectangle from graph 0, first -2 to graph 1, first 2");
    EXPECT_CONTAINS(first, "set arrow 1 from graph 0, first 0 to graph 1, first 0");
    EXPECT_EQ(first.find("T* vs"), std::string::npos);
    // the second: +2000%, the asinh axis, ticks from the band to 2000, T* marked at 1.7 s
    EXPECT_CONTAINS(last, "set nonlinear y via asinh(y/2) inverse 2*sinh(y)");
    EXPECT_CONTAINS(last, "\"2000\" 2000");
    EXPECT_CONTAINS(last, "\"-2\" -2");
    EXPECT_CONTAINS(last, "set label \"T* vs S-Train\" at 1.7,0");
    EXPECT_CONTAINS(last, "title \"load 25/s\"");
    EXPECT_EQ(last.find("title \"load 800/s\""), std::string::npos);
    // each point's interval is its error bar: 25/s at T = 1 s, dark 10 ms: 5% +- 1%
    EXPECT_CONTAINS(first, " 5 1\n");
    EXPECT_CONTAINS(s, "unset multiplot");
}

// Bad input: a missing file, a missing column, a malformed number, a cell given twice, two
// levels, a verdict that another tie band gave, a bad tolerance.
TEST(LlmRegimeFigure, BadInputIsNamed)
{
    const std::string row = "aggregate,25,1,0.01,20,0.03,0.025,0.035,does-not-pay,S-Train,\n";
    LlmRegimeFigure f(0.02);
    ExpectErrorContaining([&] { f.AddCsv("/nonexistent/regime_map.csv"); },
                          "/nonexistent/regime_map.csv");
    ExpectErrorContaining([&] { f.AddCsv(TempFile("nocol.csv", "load_per_s,interval_s\n")); },
                          "no column dark_s");
    ExpectErrorContaining(
        [&] {
            f.AddCsv(TempFile("bad.csv",
                              HEADER + "aggregate,25,1x,0.01,20,0.03,0.025,0.035,tie,S-Train,\n"));
        },
        "bad.csv:2: column interval_s = \"1x\"");
    ExpectErrorContaining([&] { f.AddCsv(TempFile("short.csv", HEADER + "aggregate,25\n")); },
                          "short.csv:2: 2 fields, the header names 11");
    ExpectErrorContaining(
        [&] { f.AddCsv(TempFile("twice.csv", HEADER + row + row)); },
        "twice.csv:3: aggregate level, load 25/s, T 1 s, dark 10 ms is there twice");
    LlmRegimeFigure g(0.02);
    EXPECT_EQ(g.AddCsv(TempFile("one.csv", HEADER + row)), 1u);
    ExpectErrorContaining(
        [&] {
            g.AddCsv(
                TempFile("fluid.csv",
                         HEADER + "fluid,800,1,0.01,20,0.03,0.025,0.035,does-not-pay,S-Inf,\n"));
        },
        "is not the level of the cells before (aggregate)");
    // +2.5% to +3.5% does not pay with a 2% band; with a 5% band it ties
    LlmRegimeFigure wide(0.05);
    ExpectErrorContaining([&] { wide.AddCsv(TempFile("one.csv", HEADER + row)); },
                          "another --tolerance");
    EXPECT_TRUE(wide.GetPoints().empty()); // the refused row is not kept
    ExpectErrorContaining(
        [&] {
            f.AddCsv(TempFile("verdict.csv",
                              HEADER + "aggregate,25,1,0.01,"
                                       "20,0.03,0.025,0.035,"
                                       "maybe,S-Train,\n"));
        },
        "ci_verdict = \"maybe\"");
    ExpectErrorContaining([] { LlmRegimeFigure bad(-0.1); }, "tolerance");
    LlmRegimePoint p = Cell(25, 1, 0.01, 0.03, 0.025, 0.035);
    p.low = 0.04; // above its high end
    ExpectErrorContaining([&] { f.Add(p); }, "not a pair of finite ends");
}

// What a merge no longer believes: a margin outside its own interval, a negative break-even, a
// level that is no level, a file of a header only; a UTF-8 byte-order mark keeps the first
// column (the level), which it dropped before
TEST(LlmRegimeFigure, FilesAreCheckedBeforeTheyAreMerged)
{
    LlmRegimeFigure f(0.02);
    ExpectErrorContaining(
        [&] {
            f.AddCsv(TempFile("outside.csv",
                              HEADER + "aggregate,25,1,0.01,20,0.05,0.025,0.035,does-not-pay,"
                                       "S-Train,\n"));
        },
        "outside.csv:2: column margin_mean = \"0.05\": outside its own 95% interval [0.025, "
        "0.035]");
    ExpectErrorContaining(
        [&] {
            f.AddCsv(TempFile("break-even.csv",
                              HEADER + "aggregate,25,1,0.01,20,0.03,0.025,0.035,does-not-pay,"
                                       "S-Train,-0.5\n"));
        },
        "break-even.csv:2: column flow_break_even_s = \"-0.5\": a break-even time >= 0 s");
    ExpectErrorContaining(
        [&] {
            f.AddCsv(TempFile("level.csv",
                              HEADER + "packets,25,1,0.01,20,0.03,0.025,0.035,does-not-pay,"
                                       "S-Train,\n"));
        },
        "level.csv:2: column level = \"packets\": not one of packet, fluid or aggregate");
    ExpectErrorContaining([&] { f.AddCsv(TempFile("header.csv", HEADER)); },
                          "header.csv:1: no cells, only a header");
    EXPECT_TRUE(f.GetPoints().empty());
    // the byte-order mark: the level is read, so a fluid cell after it is refused as mixing
    LlmRegimeFigure g(0.02);
    EXPECT_EQ(g.AddCsv(TempFile("bom.csv",
                                "\xEF\xBB\xBF" + HEADER +
                                    "aggregate,25,1,0.01,20,0.03,0.025,0.035,does-not-pay,"
                                    "S-Train,0\n")),
              1u);
    ASSERT_EQ(g.GetPoints().size(), 1u);
    EXPECT_EQ(g.GetPoints()[0].level, "aggregate");
    EXPECT_FALSE(g.GetPoints()[0].flowBreakEven.has_value()); // 0 s: none to draw
}

} // namespace

// Near the band: the interval widened by the error on each side would give another verdict.
// Each verdict on each side of the band, with a 1% error and a +-2% band.
TEST(LlmRegimeFigure, AVerdictWithinTheErrorOfTheBandIsNamed)
{
    const double e = 0.01;
    // pays: its upper end -3.5% + 1% = -2.5% stays below -2%; -2.5% + 1% = -1.5% does not
    EXPECT_FALSE(LlmRegimeFigure::IsNearBand(Cell(800, 1, 1e-5, -0.045, -0.055, -0.035), e, 0.02));
    EXPECT_TRUE(LlmRegimeFigure::IsNearBand(Cell(800, 1, 1e-5, -0.035, -0.045, -0.025), e, 0.02));
    // the error's sign does not matter, only its size
    EXPECT_TRUE(LlmRegimeFigure::IsNearBand(Cell(800, 1, 1e-5, -0.035, -0.045, -0.025), -e, 0.02));
    // does not pay: lower end +3.5% - 1% = +2.5% clear; +2.5% - 1% = +1.5% inside the band
    EXPECT_FALSE(LlmRegimeFigure::IsNearBand(Cell(25, 1, 1e-5, 0.045, 0.035, 0.055), e, 0.02));
    EXPECT_TRUE(LlmRegimeFigure::IsNearBand(Cell(25, 1, 1e-5, 0.035, 0.025, 0.045), e, 0.02));
    // tie: [-0.5%, +0.5%] widened to [-1.5%, +1.5%] stays; its lower side [-1.5%, 0] reaches
    // -2.5%, its upper side [0, +1.5%] reaches +2.5%
    EXPECT_FALSE(LlmRegimeFigure::IsNearBand(Cell(200, 1, 1e-5, 0, -0.005, 0.005), e, 0.02));
    EXPECT_TRUE(LlmRegimeFigure::IsNearBand(Cell(200, 1, 1e-5, -0.0075, -0.015, 0), e, 0.02));
    EXPECT_TRUE(LlmRegimeFigure::IsNearBand(Cell(200, 1, 1e-5, 0.0075, 0, 0.015), e, 0.02));
    // an error of 0 moves nothing; an undecided cell stays undecided however wide
    EXPECT_FALSE(LlmRegimeFigure::IsNearBand(Cell(200, 1, 1e-5, 0.0075, 0, 0.015), 0, 0.02));
    const LlmRegimePoint undecided = Cell(800, 10, 1e-5, -0.029, -0.047, -0.011);
    ASSERT_EQ(undecided.verdict, MarginVerdict::UNDECIDED);
    EXPECT_FALSE(LlmRegimeFigure::IsNearBand(undecided, 0.5, 0.02));
}

// Validate(): the four columns after the grid's own, which stay as they were; the summary
// names the cells near the band and says when they lie outside the validated regimes.
TEST(LlmRegimeFigure, TheValidatedErrorGoesBesideEveryCell)
{
    LlmRegimeFigure figure(0.02);
    figure.Add(Cell(800, 1, 1e-5, -0.035, -0.045, -0.025));
    figure.Add(Cell(25, 1, 1e-5, 0.045, 0.035, 0.055));
    std::ostringstream before;
    figure.WriteCsv(before);
    figure.Validate([](const LlmRegimePoint& p) {
        LlmRegimeValidation v;
        v.suiteCell = p.load == 25 ? "n64-tcp/25" : "n64-tcp/800";
        v.inside = p.load == 25;
        if (p.load == 800)
        {
            v.marginError = -0.01;
        }
        return v;
    });
    std::ostringstream after;
    figure.WriteCsv(after);
    // every line of before is the start of the same line of after
    std::istringstream a(before.str());
    std::istringstream b(after.str());
    std::string la;
    std::string lb;
    std::vector<std::string> tails;
    while (std::getline(a, la))
    {
        ASSERT_TRUE(std::getline(b, lb));
        ASSERT_EQ(lb.substr(0, la.size()), la);
        tails.push_back(lb.substr(la.size()));
    }
    EXPECT_FALSE(std::getline(b, lb));
    ASSERT_EQ(tails.size(), 3u);
    EXPECT_EQ(tails[0], ",suite_cell,validated,validated_margin_error,near_band");
    EXPECT_EQ(tails[1], ",n64-tcp/25,inside,,");
    EXPECT_EQ(tails[2], ",n64-tcp/800,outside,-0.01,1");
    const std::string s = figure.Summarize();
    EXPECT_NE(s.find("within the validated margin error of the tie band: 1 of 2 cells (1 with no "
                     "margin error measured); 1 of the 2 cells lie outside every validated regime"),
              std::string::npos)
        << s;
    EXPECT_NE(
        s.find("load 800/s, T 1 s, dark 0.01 ms: pays, within the margin error -1.0% of suite cell "
               "n64-tcp/800 from the band"),
        std::string::npos)
        << s;
    // the grid written with the columns reads back
    LlmRegimeFigure again(0.02);
    EXPECT_EQ(again.AddCsv(TempFile("validated.csv", after.str())), 2u);
    // a cell added after Validate() is refused
    EXPECT_THROW(figure.Add(Cell(200, 1, 1e-5, 0, -0.005, 0.005)), Error);
}
