/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-paper: the flow-level study of the MoSE paper at full scale.
 *
 * Four policies (Static-Training, Static-Inference, Static-Compromise, MoSE) x two workload modes
 * (inference-heavy, training-heavy) x 20 seeds, N = 1024 groups of degree d = 4, 100,000 unit
 * flows per mode. Prints Table I (means with 95% confidence intervals), the cost table and the
 * headline reductions next to the paper's figures (ReferenceFigures::Paper(): the values the
 * paper reports and the targets); writes CSV files (headline.csv: ours vs paper)
 * and Figure 5's panels as gnuplot scripts (rendered to PNG when gnuplot is installed).
 *
 *   ./mose-paper                          # the paper's defaults
 *   ./mose-paper --seeds=5 --RngRun=7     # seeds use runs 7..11
 *   ./mose-paper --routing=ecmp --completion=random --outputDir=results/ecmp
 *   ./mose-paper --jobs=2                 # two seeds at once (the files are the same)
 *   ./mose-paper --part=1/4 --outputDir=D # a quarter of the seeds; then --merge=D,...
 *   ./mose-paper --PrintHelp              # every option
 */

#include "mose-flow-experiment-helper.h"
#include "mose-program.h"
#include "mose-reference-figures.h"
#include "mose-run-options.h"
#include "mose-scenario-options.h"
#include "mose-study-report.h"

#include "ns3/core-module.h"

#include <iostream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    // the scaffold: options, memory and output checks, progress, plots; every error (bad input,
    // out of memory) is a message and exit status 1
    Program program("mose-paper",
                    "results/mose-paper",
                    Program::FLOW_LEVEL | Program::PLOT | Program::PROGRESS);
    return program.Run(argc, argv, [&]() {
        ScenarioOptions options; // the scenario options of every mose program
        CommandLine& cmd = program.GetCommandLine();
        options.AddOptions(cmd);
        program.AddOutputOptions("folder for CSV files and figures",
                                 "write Figure 5 as gnuplot scripts and render them",
                                 "show progress on standard error");
        // the seeds are a list of runs: --jobs worker threads, --part, --merge, ...
        RunOptions runs;
        runs.AddOptionsForSeeds(cmd);
        program.Parse(argc, argv);

        const FlowExperimentConfig config = options.GetConfig();
        const SeedPlan plan = options.GetSeedPlan();
        // the files written, so that no output replaces an input, before the study runs
        // (ReadForSeeds() checks them with the scenario's inputs)
        program.AddOutputFiles(StudyReport::GetCsvFileNames());
        program.AddOutputFiles({ReferenceFigures::GetCsvFileName()});
        program.AddPlotFiles(StudyReport::GetPlotFileNames());
        const auto how =
            runs.ReadForSeeds("mose-paper", options, config, plan, program, argc, argv);
        if (!how)
        {
            return; // --listRuns: the seeds' list printed
        }
        FlowExperimentHelper helper(config, plan);
        if (!helper.Run(*how, "mose-paper", std::cout))
        {
            return; // a part: its seeds' records only
        }
        const double studySeconds = program.GetElapsed();

        const std::string& dir = program.GetOutputDir();
        StudyReport report(helper);
        const ReferenceFigures paper = ReferenceFigures::Paper(); // Table I, section IV
        report.PrintTables(std::cout);
        paper.Print(helper, std::cout);
        report.WriteCsv(dir);
        paper.WriteCsv(helper, dir);
        std::cout << "\nCSV files written to " << dir << "/\n";
        program.WritePlots([&](const std::string& d) { return report.WritePlots(d); },
                           "gnuplot scripts",
                           std::cout);
        std::cout << "study time: " << studySeconds << " s (" << plan.seeds << " seeds), total "
                  << program.GetElapsed() << " s\n";
    });
}
