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
 *
 * The scenario options (N, d, roles, r, completion, assignment, construction, flows, routing,
 * the roles/assignment/flows files) are every mose program's (ScenarioOptions), with N = 64
 * and 1000 flows by default; the run is --RngRun. --schedule has mose-break-even's syntax:
 * MODE:DURATION periods from time 0 (the first transfers start at 1 ms).
 */

#include "mose-policy-comparison.h"
#include "mose-program.h"
#include "mose-scenario-options.h"
#include "mose-switch-experiment-report.h"
#include "mose-switch-experiment.h"
#include "mose-switch-options.h"

#include "ns3/core-module.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-format.h"
#include "ns3/mose-scenario.h"

#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/**
 * \brief Runs one switching experiment per policy on the same scenario and run: for each
 *        policy, Build() (with writeScenario, the reported policy's scenario files go into
 *        dir), Run(), POLICY_*.csv into dir (SwitchExperimentReport), its summary into the
 *        comparison; config.policy is the reported one (Print() and the plot), the others print
 *        one line with their wall time.
 * \param config the experiment; its policy is the reported one, replaced by each of
 *        policies in turn
 * \param policies the policies to run, in order
 * \param dir the output folder
 * \param writeScenario write the scenario files of the first policy's run
 * \param os where the reports go
 * \param plot called with the reported policy's report and the figure's base name
 *        ("goodput_POLICY"), e.g. to write its plot; may be empty
 * \return the comparison of the runs
 */
SwitchComparison
RunPolicies(const ExperimentConfig& config,
            const std::vector<mose::Policy>& policies,
            const std::string& dir,
            bool writeScenario,
            std::ostream& os,
            const std::function<void(const SwitchExperimentReport&, const std::string&)>& plot)
{
    SwitchComparison comparison;
    PolicyComparison policyRuns(policies);
    ValidateSwitchConfig(config); // its errors before the scenario is drawn
    policyRuns.Run(config, [&](mose::Policy policy, auto scenario) {
        std::unique_ptr<SwitchExperiment> built =
            BuildPolicyExperiment<SwitchExperiment>(config, policy, scenario);
        SwitchExperiment& experiment = *built;
        const bool reported = policy == config.policy;
        if (reported)
        {
            comparison.SetWorkload(experiment.GetWorkloadText());
        }
        if (writeScenario && reported)
        {
            // every policy's run draws the same scenario
            WriteScenarioFiles(experiment.GetExperiment().GetScenario(), dir);
            os << "wrote " << dir << "/{uniform,pd-biased,compromise}.{csv,dot} and "
               << "{roles,assignment,flows}_{inference,training}.csv" << std::endl;
        }
        experiment.Run();
        const SwitchExperimentReport report(experiment);
        const std::string prefix = ToString(policy) + "_";
        report.WriteCsv(dir, prefix);
        comparison.Add(experiment.GetSummary());
        if (!reported)
        {
            os << "ran " << ToString(policy) << ": " << std::fixed << std::setprecision(2)
               << experiment.GetWallSeconds() << " s wall" << std::defaultfloat
               << std::setprecision(6) << std::endl;
            return;
        }
        report.Print(os);
        os << "wrote " << dir << "/" << prefix << "{intervals,circuits,goodput,transfers}.csv"
           << std::endl;
        if (plot)
        {
            plot(report, "goodput_" + ToString(policy));
        }
        os << std::endl;
    });
    return comparison;
}

/**
 * \brief Runs one more seed of the comparison (--seeds): one switching experiment per policy
 *        on config.run, as RunPolicies() does, but without any report or file.
 * \param config the experiment (its run is the seed's)
 * \param policies the policies to run, in order
 * \return the comparison of the runs
 */
SwitchComparison
RunSeed(const ExperimentConfig& config, const std::vector<mose::Policy>& policies)
{
    SwitchComparison comparison;
    PolicyComparison policyRuns(policies);
    ValidateSwitchConfig(config); // its errors before the scenario is drawn
    policyRuns.Run(config, [&](mose::Policy policy, auto scenario) {
        std::unique_ptr<SwitchExperiment> built =
            BuildPolicyExperiment<SwitchExperiment>(config, policy, scenario);
        SwitchExperiment& experiment = *built;
        experiment.Run();
        comparison.Add(experiment.GetSummary());
    });
    return comparison;
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
        ScenarioOptions options(ScenarioDefaults{64, 1000, 1},
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
        program.AddOutputOptions("folder for CSV files and the figure",
                                 "write and render the goodput timeline");
        program.Parse(argc, argv);

        const ExperimentConfig config = switching.GetConfig(options);
        program.CheckOneSimulation(switching.IsComparing(),
                                   std::to_string(switching.GetPolicies().size()) + " policies",
                                   "one policy, --policies=MoSE");
        const uint32_t seeds = switching.GetSeeds(options);
        const double tolerance = switching.GetTolerance();
        program.CheckOutput();

        const std::string& dir = program.GetOutputDir();
        SwitchComparison comparison =
            RunPolicies(config,
                        switching.GetPolicies(),
                        dir,
                        switching.IsWritingScenario(),
                        std::cout,
                        [&](const SwitchExperimentReport& report, const std::string& base) {
                            program.WritePlot(
                                base,
                                [&](std::ostream& os) {
                                    report.MakeGoodputPlot(base + ".png").GenerateOutput(os);
                                },
                                base + ".png",
                                std::cout);
                        });
        if (switching.IsComparing())
        {
            std::cout << "\ncomparison on run " << config.run << " (same roles, flows and "
                      << "transfers; static policies never switch):\n";
            comparison.WriteCsv(dir + "/comparison.csv");
        }
        comparison.Print(std::cout);
        if (switching.IsComparing())
        {
            // the verdict over seeds: seed 0 is the run above, seed k the run RngRun + k
            std::vector<SwitchComparison> perSeed{comparison};
            for (uint32_t k = 1; k < seeds; ++k)
            {
                ExperimentConfig c = config;
                c.run = config.run + k;
                c.scenario.firstRun = c.run;
                perSeed.push_back(RunSeed(c, switching.GetPolicies()));
                const std::optional<double> margin = perSeed.back().GetMargin();
                std::cout << "seed " << k << " (run " << c.run << "): MoSE's margin "
                          << (margin ? FormatPercent(*margin) + " against " +
                                           ToString(perSeed.back().GetBestStatic()->policy)
                                     : std::string("-"))
                          << std::endl;
            }
            std::cout << SwitchComparison::GetSeedsVerdict(perSeed, config.run, tolerance)
                      << std::endl;
            std::cout << "wrote " << dir << "/comparison.csv" << std::endl;
        }
    });
}
