/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-baselines: MoSE next to the switchless baselines (2D torus, 3D torus, 3D full-mesh) at the
 * flow level, with the study's traffic, routing and metrics.
 *
 * Every seed draws the study's roles, P-D assignment and flows of both modes (as mose-paper), and
 * every topology is evaluated on those same flows: the four policies at the study's d, the same
 * policies at each baseline's d where it differs (equal port budget: the 3D torus has d = 6, the
 * 3D full-mesh its own degree), and the baselines' fixed graphs. Prints one table per kind of
 * metric with d in every row, writes CSV files and gnuplot scripts (rendered to PNG when gnuplot
 * is installed).
 *
 *   ./mose-baselines                                   # N = 1024, d = 4, 20 seeds
 *   ./mose-baselines --torus3d=16x8x8 --fullMesh3d=8x8x16
 *   ./mose-baselines --nodes=64 --prefill=24 --decode=24 --training=16 --trPrefill=8 \
 *       --trDecode=8 --trTraining=48 --flows=1000 --baselines=torus-2d,torus-3d
 *   ./mose-baselines --jobs=2                          # two seeds at once, the same files
 *   ./mose-baselines --PrintHelp                       # every option
 */

#include "mose-baseline-comparison.h"
#include "mose-baseline-options.h"
#include "mose-option-scope.h"
#include "mose-program.h"
#include "mose-run-options.h"
#include "mose-scenario-options.h"

#include "ns3/command-line.h"
#include "ns3/core-module.h"

#include <iostream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    // the scaffold: options, memory and output checks, progress, plots; every error (bad input,
    // out of memory) is a message and exit status 1
    Program program("mose-baselines",
                    "results/mose-baselines",
                    Program::FLOW_LEVEL | Program::PLOT | Program::PROGRESS);
    return program.Run(argc, argv, [&]() {
        ScenarioOptions options;   // the scenario options of every mose program
        BaselineOptions baselines; // --baselines, the shapes, --moseAtBaselineDegrees
        CommandLine& cmd = program.GetCommandLine();
        options.AddOptions(cmd);
        baselines.AddOptions(cmd);
        program.AddOutputOptions("folder for CSV files and figures",
                                 "write the figures as gnuplot scripts and render them",
                                 "show progress on standard error");
        // the seeds are a list of runs: --jobs worker threads, --part, --merge, ...
        RunOptions runs;
        runs.AddOptionsForSeeds(cmd);
        program.Parse(argc, argv);

        const BaselineComparisonConfig config = baselines.GetConfig(options);
        CheckOptionScopes("mose-baselines",
                          GivenOptions(argc, argv),
                          0,
                          BaselineOptions::GetPlaces(config));
        // the files written, so that no output replaces an input, before the comparison runs
        // (ReadForSeeds() checks them with the scenario's inputs)
        program.AddOutputFiles(BaselineComparison::GetCsvFileNames());
        program.AddPlotFiles(BaselineComparison::GetPlotFileNames());
        // memory: one seed per worker, at the largest degree evaluated
        const auto how = runs.ReadForSeeds("mose-baselines",
                                           options,
                                           BaselineOptions::GetLargestStudy(config),
                                           config.seedPlan,
                                           program,
                                           argc,
                                           argv);
        if (!how)
        {
            return; // --listRuns: the seeds' list printed
        }
        BaselineComparison comparison(config);
        if (!comparison.Run(*how, "mose-baselines", std::cout))
        {
            return; // a part: its seeds' records only
        }
        const double evaluateSeconds = program.GetElapsed();

        const std::string& dir = program.GetOutputDir();
        comparison.PrintTables(std::cout);
        comparison.WriteCsv(dir);
        std::cout << "\nCSV files written to " << dir << "/\n";
        program.WritePlots([&](const std::string& d) { return comparison.WritePlots(d); },
                           "gnuplot scripts",
                           std::cout);
        std::cout << "comparison time: " << evaluateSeconds << " s (" << config.seedPlan.seeds
                  << " seeds, " << comparison.GetRows().size() << " rows), total "
                  << program.GetElapsed() << " s\n";
    });
}
