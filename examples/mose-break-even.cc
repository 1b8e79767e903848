/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-break-even: when switching pays. Runs the flow-level study (every policy and mode, per
 * seed), charges each policy a cost rate per second (a flow-level metric of the graph it uses in
 * the mode: the all-flows average load-aware cost by default) and MoSE a penalty per switch
 * (dark time x share of the new mode's load on the re-paired circuits x the cost rate of
 * unserved traffic), and prints
 *   - the break-even mode duration T* against each static policy for the alternating schedule
 *     with equal durations T: MoSE is cheaper for modes that last longer than T*;
 *   - the integrated cost of every policy over a schedule (--schedule, or --cycles cycles of
 *     --modeDuration seconds per mode) and whether switching pays there.
 * Writes CSV files and a gnuplot figure (cost per second against T, log scales, break-even
 * points marked). The model is in model/flow/mose-break-even.h, the options in
 * helper/study/mose-switch-cost-options.h, the report in helper/study/mose-switch-cost-report.h
 * and doc/mose.rst ("When switching pays").
 *
 *   ./mose-break-even                                     # paper scale, 20 seeds
 *   ./mose-break-even --darkTime=0.1 --unservedShare=1    # 100 ms, the whole fabric dark
 *   ./mose-break-even --metric=max_load --schedule=inference-heavy:1h,training-heavy:10min
 *   ./mose-break-even --jobs=2 --part=1/2 --outputDir=D   # half the seeds; then --merge=D,...
 *
 * The scenario options are every mose program's (ScenarioOptions). --schedule has
 * mose-mode-switch's syntax, MODE:DURATION periods; every duration option reads a number with
 * an optional unit (ns, us, ms, s, min, h; no unit: seconds).
 */

#include "mose-option-scope.h"
#include "mose-program.h"
#include "mose-run-options.h"
#include "mose-scenario-options.h"
#include "mose-switch-cost-options.h"
#include "mose-switch-cost-report.h"
#include "mose-switch-cost.h"

#include "ns3/command-line.h"
#include "ns3/core-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    // the scaffold: options, memory and output checks, progress, plots; every error (bad input,
    // out of memory) is a message and exit status 1
    Program program("mose-break-even",
                    "results/mose-break-even",
                    Program::FLOW_LEVEL | Program::PLOT | Program::PROGRESS);
    return program.Run(argc, argv, [&]() {
        ScenarioOptions options;      // the scenario options of every mose program
        SwitchCostOptions switchCost; // the cost rate, the penalty, schedule and figure
        CommandLine& cmd = program.GetCommandLine();
        options.AddOptions(cmd);
        switchCost.AddOptions(cmd);
        program.AddOutputOptions("folder for CSV files and the figure",
                                 "write the figure's gnuplot script and render it",
                                 "show progress on standard error");
        // the seeds are a list of runs: --jobs worker threads, --part, --merge, ...
        RunOptions runs;
        runs.AddOptionsForSeeds(cmd);
        program.Parse(argc, argv);

        // every option is checked before the study runs
        const FlowExperimentConfig config = options.GetConfig();
        const SeedPlan plan = options.GetSeedPlan();
        const SwitchCostConfig c = switchCost.GetConfig(config);
        CheckOptionScopes("mose-break-even",
                          GivenOptions(argc, argv),
                          0,
                          c.alternating ? IN_ALTERNATING : IN_SCHEDULE);
        // the files written, so that no output replaces an input, before the study runs
        // (ReadForSeeds() checks them with the scenario's inputs)
        program.AddOutputFiles(SwitchCostReport::GetCsvFileNames());
        program.AddPlotFiles(SwitchCostReport::GetPlotFileNames());
        const auto how =
            runs.ReadForSeeds("mose-break-even", options, config, plan, program, argc, argv);
        if (!how)
        {
            return; // --listRuns: the seeds' list printed
        }
        SwitchCostStudy study(config, plan, c.metric);
        if (!study.Run(*how, "mose-break-even", std::cout))
        {
            return; // a part: its seeds' records only
        }
        const double runSeconds = program.GetElapsed();

        const std::string& dir = program.GetOutputDir();
        const SwitchCostReport report(study, c.params, c.schedule, c.durations, c.alternating);
        switchCost.PrintTables(report, std::cout);
        report.WriteCsv(dir);
        std::cout << "\nCSV files written to " << dir << "/\n";
        program.WritePlots([&](const std::string& d) { return report.WritePlots(d); },
                           "gnuplot script",
                           std::cout);
        // 3 significant digits, as the tables leave it
        std::cout << std::setprecision(3) << "run time: " << runSeconds
                  << " s (study and switch analysis, " << plan.seeds << " seeds), total "
                  << program.GetElapsed() << " s\n";
    });
}
