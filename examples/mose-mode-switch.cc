/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-mode-switch: a MoSE fabric across mode switches at the packet level (or, with
 * --level=fluid or aggregate, the same transfers as fluid flows on a fluid fabric that switches
 * alike). The workload goes
 * inference-heavy -> training-heavy -> inference-heavy; at each boundary the ModeSwitcher
 * drains, darkens and relinks the circuits the policy changes (MoSE: H^PD <-> H^U; a static
 * policy changes nothing and keeps a stale template). Per mode interval it prints the switch's
 * cost (circuits changed, drain, dark and blackout time, packets held and lost), the flow-level
 * metrics of the interval's circuit graph and flows, and the FCT per class of the interval's
 * transfers; it draws the goodput per class over time with the switches marked, and with
 * --policies (by default all four, MoSE first and reported in detail) run on the same run and
 * scenario and answer "is switching worth it?": MoSE, switch cost included, against the best
 * static policy.
 *
 *   mose-mode-switch                                       # N=64, MoSE against the static ones
 *   mose-mode-switch --nodes=1024 --flows=4000             # the paper's scale
 *   mose-mode-switch --ns3::MoseModeSwitcher::Phases=4 --ns3::MoseModeSwitcher::DrainTimeout=20ms
 *   mose-mode-switch --schedule=inference-heavy:0.5s,training-heavy:1s,inference-heavy:0.5s
 *   mose-mode-switch --policies=S-Comp
 *   mose-mode-switch --level=fluid                         # the same runs as fluid flows
 *   mose-mode-switch --jobs=2                              # two runs at once, a process each
 *   mose-mode-switch --part=1/2 --outputDir=D              # half of its runs; then --merge=D,...
 *
 * The scenario options (N, d, roles, r, completion, assignment, construction, flows, routing,
 * the roles/assignment/flows files) are every mose program's (ScenarioOptions), with N = 64
 * and 1000 flows by default; the run is --RngRun. --schedule has mose-break-even's syntax:
 * MODE:DURATION periods from time 0 (the first transfers start at 1 ms). Its runs (seed x
 * policy, SwitchComparisonRuns) are a list: --jobs, --runs, --part, --merge, --resume,
 * --listRuns (RunOptions).
 */

#include "mose-flow-level-checks.h"
#include "mose-level-options.h"
#include "mose-option-scope.h"
#include "mose-program.h"
#include "mose-run-options.h"
#include "mose-scenario-options.h"
#include "mose-switch-comparison-runs.h"
#include "mose-switch-comparison.h"
#include "mose-switch-experiment-report.h"
#include "mose-switch-experiment.h"
#include "mose-switch-options.h"

#include "ns3/core-module.h"
#include "ns3/mose-format.h"

#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/**
 * \brief Declares the files a run reads and writes (the comparison, each policy's CSV files
 *        and goodput figure, the scenario), so that no output replaces an input.
 * \param program the program \param config the runs' experiment \param switching the options
 */
void
DeclareFiles(Program& program, const ExperimentConfig& config, const SwitchOptions& switching)
{
    program.AddScenarioInputs(config.scenario);
    if (switching.IsComparing())
    {
        program.AddOutputFiles({"comparison.csv"});
    }
    for (const Policy policy : switching.GetPolicies())
    {
        for (const std::string& name : SwitchExperimentReport::GetCsvFileNames())
        {
            program.AddOutputFiles({ToString(policy) + "_" + name});
        }
        program.AddPlotFiles({"goodput_" + ToString(policy) + ".plt"}); // and its PNG
    }
    if (switching.IsWritingScenario())
    {
        program.AddOutputFiles(GetScenarioFileNames());
    }
}

/**
 * \brief Prints the first seed's comparison (and writes its CSV file when policies are
 *        compared), then each further seed's margin and the verdict over the seeds.
 * \param perSeed the comparisons, seed k on the run firstRun + k
 * \param firstRun the first seed's run \param switching the options
 * \param tolerance the tie band's half-width \param dir the folder
 */
void
Report(const std::vector<SwitchComparison>& perSeed,
       uint64_t firstRun,
       const SwitchOptions& switching,
       double tolerance,
       const std::string& dir)
{
    const SwitchComparison& comparison = perSeed.front();
    if (switching.IsComparing())
    {
        std::cout << "\ncomparison on run " << firstRun << " (same roles, flows and "
                  << "transfers; static policies never switch):\n";
        WriteSwitchComparisonCsv(comparison, dir + "/comparison.csv");
    }
    PrintSwitchComparison(std::cout, comparison);
    if (!switching.IsComparing())
    {
        return;
    }
    // the verdict over seeds: seed 0 is the run above, seed k the run RngRun + k
    for (std::size_t k = 1; k < perSeed.size(); ++k)
    {
        const std::optional<double> margin = perSeed[k].GetMargin();
        std::cout << "seed " << k << " (run " << firstRun + k << "): MoSE's margin "
                  << (margin ? FormatPercent(*margin) + " against " +
                                   ToString(perSeed[k].GetBestStatic()->policy)
                             : std::string("-"))
                  << std::endl;
    }
    std::cout << DescribeSeedsVerdict(perSeed, firstRun, tolerance) << std::endl;
    std::cout << "wrote " << dir << "/comparison.csv" << std::endl;
}

} // namespace

int
main(int argc, char* argv[])
{
    // the scaffold: options, the output folder, the plot; every error is a message and exit
    // status 1
    Program program("mose-mode-switch",
                    "results/mose-mode-switch",
                    Program::PLOT | Program::DISTRIBUTED);
    return program.Run(argc, argv, [&]() {
        // the scenario options of every mose program, at this program's scale
        // each seed keeps a comparison of the policies and its run records: the limit on
        // --seeds. Measured: the peak memory grows by 77 kB a seed (--level=fluid
        // --policies=MoSE,S-Inf, 32 to 160 seeds); more policies keep more
        ScenarioDefaults defaults{64, 1000, 1};
        defaults.seedBytes = 75000;
        defaults.seedKeeps = "a comparison of at least 2 policies and its run records";
        ScenarioOptions options(defaults,
                                ScenarioOptions::ROUTING | ScenarioOptions::SEEDS |
                                    ScenarioOptions::FABRIC);
        SwitchOptions switching; // the policies, the schedule, the times
        CommandLine& cmd = program.GetCommandLine();
        cmd.Usage("A MoSE fabric across mode switches at the packet level, or at the fluid level "
                  "(--level; see doc/mose.rst). "
                  "The scenario options are those of every mose program. "
                  "The switch: --ns3::MoseModeSwitcher::Phases (K), ::Drain, ::DrainTimeout, "
                  "::ReconfigurationDelay; the traffic: --ns3::MoseTrafficHelper::BytesPerUnit, "
                  "::SocketFactory, ...; the circuits: --ns3::MoseOcs::DataRate, ::Delay.");
        options.AddOptions(cmd);
        switching.AddOptions(cmd);
        // the runs (seed x policy) are a list: --jobs (a process per run), --part, --merge, ...
        RunOptions runs;
        runs.AddOptions(cmd);
        program.AddOutputOptions("folder for CSV files and the figure",
                                 "write and render the goodput timeline");
        program.Parse(argc, argv);

        const ExperimentConfig config = switching.GetConfig(options);
        // an option that would not act at this level, with this transport or with one policy is
        // refused (the table of doc/mose.rst, Where each option acts)
        CheckOptionScopes("mose-mode-switch",
                          GivenOptions(argc, argv),
                          GetLevelPlace(config.level),
                          GetTransportPlace(config.IsRdma()) |
                              (switching.IsComparing() ? IN_COMPARISON : IN_ONE_POLICY));
        const uint32_t seeds = switching.GetSeeds(options);
        const double tolerance = switching.GetTolerance();
        runs.Read(true, "");
        SwitchComparisonRuns list(config,
                                  switching.GetPolicies(),
                                  seeds,
                                  switching.IsWritingScenario());
        if (runs.IsListing())
        {
            list.WriteList(std::cout);
            return;
        }
        const uint32_t count = runs.CountRuns(list.GetTotal());
        program.CheckOneSimulation(count > 1,
                                   "this process would carry out " + std::to_string(count) +
                                       " runs (--policies, --seeds)",
                                   "one policy, --policies=MoSE, or one run, --runs=0");
        // the files read and written, so that no output replaces an input, before any run
        DeclareFiles(program, config, switching);
        program.CheckOutput();

        const std::string& dir = program.GetOutputDir();
        if (!list.Run(runs.Get(dir,
                               StudyOptionsText(argc, argv, RunOptions::GetIgnored()),
                               program.IsShowingProgress()),
                      dir,
                      std::cout,
                      [&](const std::string& base, const std::string& script) {
                          program.WritePlot(
                              base,
                              [&](std::ostream& os) { os << script; },
                              base + ".png",
                              std::cout);
                      }))
        {
            return; // a part: its runs' records only
        }
        Report(list.GetComparisons(), config.run, switching, tolerance, dir);
        // a fluid or aggregate answer carries the error of the nearest checked run (issue 41)
        PrintFlowLevelCheck(std::cout, "mose-mode-switch", config);
    });
}
