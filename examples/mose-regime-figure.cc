/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-regime-figure: one regime map from several. A regime map run in parts (by load, by
 * interval, a degree per core, on several machines: mose-llm --outputDir=A ..., --outputDir=B
 * ...) leaves one regime_map.csv per part; this program reads them, refuses a cell given twice,
 * maps of different levels and maps run with another tie band, and writes the whole grid:
 * regime_grid.csv (one row per cell: margin, 95% interval, verdict, flow-level T*) and
 * regime_grid.plt rendered to regime_grid.png (LlmRegimeFigure: a panel per dark time, a line
 * per load, the tie band, each point's interval). Prints the verdicts' count and the cells
 * that pay or tie.
 *
 *   ./mose-regime-figure --maps=results/a/regime_map.csv,results/b/regime_map.csv \
 *       --title="N=1024, d=8, 20 seeds" --outputDir=results/grid
 *
 * With --regime=nodes=1024,degree=8,transport=tcp it puts beside each cell the validation
 * suite's nearest cell (LlmValidatedRegimes), the measured error of MoSE's margin there and
 * whether the cell's verdict lies within that error of the tie band.
 *
 * With --compare=REFERENCE.csv,OTHER.csv it compares two maps of the same cells run apart
 * instead (a packet-level map that ran in a process of its own against the same map at the
 * fluid level, say): per cell and policy the differences of mean KV time, mean and P99 TTFT and
 * mean iteration time, the verdicts, and level_validation.csv (LlmLevelValidation::FromCsv).
 *
 *   ./mose-regime-figure --compare=results/p/regime_map.csv,results/f/regime_map.csv
 *
 * With --suite=FOLDER,FOLDER,... it puts the level comparisons of many cell sets in one table
 * instead, the fluid level's validation suite (utils/fluid-suite.sh runs it): each folder a
 * map of mose-llm --level=packet,fluid (its level_validation.csv and both levels'
 * regime_map.csv); per cell and policy both levels' means, their errors, the worst seed's, the
 * requests served, the verdicts and the bounds held (LlmLevelSuite; level_suite.csv and
 * level_suite.rst, the table of doc/mose.rst "The fluid level across regimes").
 *
 *   ./mose-regime-figure --suite=results/fluid-suite/base,results/fluid-suite/d4
 *
 * The figure is in helper/study/mose-llm-regime-figure.h and doc/mose.rst ("The answer over the
 * grid").
 */

#include "mose-llm-level-suite.h"
#include "mose-llm-level-validation.h"
#include "mose-llm-regime-figure.h"
#include "mose-llm-validated-regime.h"
#include "mose-option-scope.h"
#include "mose-program.h"
#include "mose-study-report.h"

#include "ns3/command-line.h"
#include "ns3/mose-command-line.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-text-io.h"

#include <iostream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    Program program("mose-regime-figure",
                    "results/mose-regime-figure",
                    Program::FLOW_LEVEL | Program::PLOT);
    return program.Run(argc, argv, [&]() {
        std::string maps;
        std::string compare;
        std::string suite;
        std::string title = "Regime map";
        std::string tolerance = "0.02";
        std::string regime;
        CommandLine& cmd = program.GetCommandLine();
        AddTextOption(cmd,
                      "maps",
                      "comma-separated regime_map.csv files (mose-llm's) to merge",
                      maps);
        AddTextOption(cmd,
                      "compare",
                      "instead: REFERENCE.csv,OTHER.csv, two maps' regime_map.csv of the same "
                      "cells run apart (e.g. the packet and the fluid level): their figures "
                      "compared per cell and policy (level_validation.csv)",
                      compare);
        AddTextOption(cmd,
                      "suite",
                      "instead: FOLDER,FOLDER,..., the level validation suite: each folder a map "
                      "of mose-llm --level=packet,fluid; their comparisons in one table per cell "
                      "and policy with the bounds (level_suite.csv, level_suite.rst)",
                      suite);
        AddTextOption(cmd,
                      "title",
                      "the figure's first title line (say N, d, scale, seeds and level)",
                      title);
        cmd.AddValue("tolerance",
                     "the tie band the maps were run with (mose-llm --tolerance)",
                     tolerance);
        AddTextOption(cmd,
                      "regime",
                      "the maps' regime, nodes=N,degree=D,transport=T[,collective=C]"
                      "[,placement=P][,hostsPerGroup=G] (mose-llm's options): beside each cell "
                      "the validation suite's nearest cell, its measured margin error and "
                      "whether the verdict lies within it of the tie band (columns suite_cell, "
                      "validated, validated_margin_error, near_band)",
                      regime);
        program.AddOutputOptions("folder for regime_grid.csv and the figure",
                                 "write the figure's gnuplot script and render it",
                                 "");
        program.Parse(argc, argv);
        if (!compare.empty() && !maps.empty())
        {
            ThrowBadParameter("--compare",
                              QuoteText(compare),
                              "either --maps (merge) or --compare (two maps), not both");
        }
        if (!suite.empty() && (!maps.empty() || !compare.empty()))
        {
            ThrowBadParameter("--suite",
                              QuoteText(suite),
                              "one of --maps (merge), --compare (two maps) or --suite (the "
                              "level validation suite), not two");
        }
        // an option of the merge given to a comparison (or the reverse) is refused (the table
        // of doc/mose.rst, Where each option acts)
        CheckOptionScopes("mose-regime-figure",
                          GivenOptions(argc, argv),
                          0,
                          !suite.empty()     ? IN_SUITE_FILES
                          : !compare.empty() ? IN_COMPARE_FILES
                                             : IN_MERGE_FILES);
        // the title goes into the gnuplot script: escaped there, a line break refused now
        const std::string plotTitle = EscapeGnuplotText("--title", title);
        // the files read and written, so that no output replaces an input: checked with the
        // output folder, before any file is read
        for (const auto& [option, list] :
             {std::make_pair("--maps", &maps), std::make_pair("--compare", &compare)})
        {
            if (!list->empty())
            {
                for (const std::string& f : SplitList(*list, option, "a file"))
                {
                    program.AddInput(option, f);
                }
            }
        }
        if (!suite.empty())
        {
            LlmLevelSuite::CheckSetNames(SplitList(suite, "--suite", "a folder"), "--suite");
            for (const std::string& f : SplitList(suite, "--suite", "a folder"))
            {
                for (const char* file :
                     {"/level_validation.csv", "/packet/regime_map.csv", "/fluid/regime_map.csv"})
                {
                    program.AddInput("--suite", f + file);
                }
            }
            program.AddOutputFiles({"level_suite.csv", "level_suite.rst"});
        }
        else if (!compare.empty())
        {
            program.AddOutputFiles({"level_validation.csv"});
        }
        else
        {
            program.AddOutputFiles({"regime_grid.csv", "regime_grid.plt", "regime_grid.png"});
        }
        program.CheckOutput();
        if (!suite.empty())
        {
            LlmLevelSuite levels;
            for (const std::string& f : SplitList(suite, "--suite", "a folder"))
            {
                const uint32_t cells = levels.AddSet(f);
                std::cout << "read " << cells << " cells from " << f << "\n";
            }
            std::cout << "\n";
            levels.Print(std::cout);
            const std::string& dir = program.GetOutputDir();
            WriteTextFile(dir + "/level_suite.csv",
                          [&](std::ostream& out) { levels.WriteCsv(out); });
            WriteTextFile(dir + "/level_suite.rst",
                          [&](std::ostream& out) { levels.WriteRst(out); });
            std::cout << "\nwrote " << dir << "/level_suite.csv and level_suite.rst\n";
            return;
        }
        if (!compare.empty())
        {
            const std::vector<std::string> two = SplitList(compare, "--compare", "a file");
            if (two.size() != 2)
            {
                ThrowBadParameter("--compare",
                                  QuoteText(compare),
                                  "two regime_map.csv files, REFERENCE,OTHER");
            }
            const LlmLevelValidation validation = LlmLevelValidation::FromCsv(two[0], two[1]);
            validation.Print(std::cout);
            const std::string csv = program.GetOutputDir() + "/level_validation.csv";
            WriteTextFile(csv, [&](std::ostream& out) { validation.WriteCsv(out); });
            std::cout << "\nwrote " << csv << "\n";
            return;
        }
        if (maps.empty())
        {
            ThrowBadParameter("--maps",
                              "\"\"",
                              "one or more regime_map.csv files, comma-separated");
        }
        const std::vector<std::string> files = SplitList(maps, "--maps", "a file");
        const double band = ParseReal("--tolerance", tolerance);
        if (!(band >= 0))
        {
            ThrowBadParameter("--tolerance",
                              QuoteText(tolerance),
                              "a finite number >= 0 (0.02: +-2%)");
        }
        // the regime is read before the maps, so that a bad one fails before any file
        const std::optional<LlmSuiteRegime> grid =
            regime.empty() ? std::nullopt
                           : std::optional<LlmSuiteRegime>(ParseSuiteRegime("--regime", regime));
        LlmRegimeFigure figure(band);
        for (const std::string& f : files)
        {
            const uint32_t rows = figure.AddCsv(f);
            std::cout << "read " << rows << " cells from " << f << "\n";
        }
        if (grid)
        {
            const LlmValidatedRegimes& suite = LlmValidatedRegimes::GetBuiltIn();
            if (suite.GetCells().empty())
            {
                ThrowBadParameter("--regime",
                                  QuoteText(regime),
                                  "a module built with the validation suite "
                                  "(doc/figures/level-suite.csv); this one has none");
            }
            figure.Validate([&](const LlmRegimePoint& p) { return suite.Validate(*grid, p.load); });
        }
        std::cout << "\n" << figure.Summarize();
        const std::string& dir = program.GetOutputDir();
        const std::string csv = dir + "/regime_grid.csv";
        WriteTextFile(csv, [&](std::ostream& out) { figure.WriteCsv(out); });
        std::cout << "\nwrote " << csv << "\n";
        program.WritePlot(
            "regime_grid",
            [&](std::ostream& out) {
                figure.WritePlot(
                    out,
                    plotTitle + "\\nMoSE vs the best static policy; grey: tie band +-" +
                        FormatNumber(figure.GetTolerance() * 100) + "%; bars: 95% interval",
                    "regime_grid.png");
            },
            "regime_grid.png",
            std::cout);
    });
}
