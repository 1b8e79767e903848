/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-mode-switch: a MoSE fabric across mode switches at the packet level. The workload goes
 * inference-heavy -> training-heavy -> inference-heavy; at each boundary the ModeSwitcher
 * drains, darkens and relinks the circuits the policy changes (MoSE: H^PD <-> H^U; a static
 * policy changes nothing and keeps a stale template). Per mode interval it prints the switch's
 * cost (circuits changed, drain, dark and blackout time, packets held and lost), the flow-level
 * metrics of the interval's circuit graph and flows, and the FCT per class of the interval's
 * transfers; it draws the goodput per class over time with the switches marked, and with
 * --compare (the default) runs the four policies on the same run and answers "is switching
 * worth it?": MoSE, switch cost included, against the best static policy.
 *
 *   mose-mode-switch                                       # N=64, MoSE against the static ones
 *   mose-mode-switch --nodes=1024 --flows=4000             # the paper's scale
 *   mose-mode-switch --ns3::MoseModeSwitcher::Phases=4 --ns3::MoseModeSwitcher::DrainTimeout=20ms
 *   mose-mode-switch --schedule=inference-heavy:0.5s,training-heavy:1s,inference-heavy:0.5s
 *   mose-mode-switch --policy=S-Comp --compare=false
 *
 * The scenario options (N, d, roles, r, completion, assignment, construction, flows, routing,
 * the roles/assignment/flows files) are every mose program's (MoseScenarioOptions), with N = 64
 * and 1000 flows by default; the run is --RngRun. --schedule has mose-break-even's syntax:
 * MODE:DURATION periods from time 0 (the first transfers start at 1 ms).
 */

#include "ns3/core-module.h"
#include "ns3/gnuplot.h"
#include "ns3/mose-break-even.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-program.h"
#include "ns3/mose-scenario-options.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-study-report.h"
#include "ns3/mose-switch-experiment-report.h"
#include "ns3/mose-switch-experiment.h"

#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    return RunMoseProgram(
        "mose-mode-switch",
        argc,
        argv,
        {"biregular", "compare", "plot", "writeScenario"},
        [&]() {
            // the scenario options of every mose program, at this program's scale
            MoseScenarioOptions options(MoseScenarioDefaults{64, 1000, 1},
                                        MoseScenarioOptions::ROUTING | MoseScenarioOptions::FABRIC);
            std::string policyText = "MoSE";
            std::string scheduleText =
                "inference-heavy:200ms,training-heavy:200ms,inference-heavy:200ms";
            std::string windowText = "150ms";
            std::string stopText = "30s";
            std::string binText = "1ms";
            std::string outputDir = "results/mose-mode-switch";
            bool compare = true;
            bool plot = true;
            bool writeScenario = false;
            bool windowGiven = false;

            CommandLine cmd(__FILE__);
            cmd.Usage(
                "A MoSE fabric across mode switches at the packet level (see doc/mose.rst). "
                "The scenario options are those of every mose program. "
                "The switch: --ns3::MoseModeSwitcher::Phases (K), ::Drain, ::DrainTimeout, "
                "::ReconfigurationDelay; the traffic: --ns3::MoseTrafficHelper::BytesPerUnit, "
                "::SocketFactory, ...; the circuits: --ns3::MoseOcs::DataRate, ::Delay.");
            options.AddOptions(cmd);
            AddTextOption(cmd,
                          "policy",
                          "policy reported in detail: S-Train, S-Inf, S-Comp or MoSE",
                          policyText);
            cmd.AddValue("compare",
                         "also run the other three policies on the same run, print the comparison "
                         "and the verdict",
                         compare);
            AddTextOption(cmd,
                          "schedule",
                          "the workload modes from time 0: " + ScheduleSyntax(),
                          scheduleText);
            AddTextOption(cmd,
                          "startWindow",
                          "transfers of an interval start uniformly over its first this long "
                          "(sets ns3::MoseTrafficHelper::StartWindow)",
                          windowText,
                          windowGiven);
            AddTextOption(cmd,
                          "stopTime",
                          "the simulation ends here at the latest (a duration; no unit: seconds)",
                          stopText);
            AddTextOption(cmd, "binWidth", "time bin of the goodput timeline (e.g. 1ms)", binText);
            AddTextOption(cmd, "outputDir", "folder for CSV files and the figure", outputDir);
            cmd.AddValue("plot", "write and render the goodput timeline", plot);
            cmd.AddValue("writeScenario",
                         "also write the run's roles, P-D assignments, flows and templates to "
                         "outputDir, in the files the file options read (as mose-templates does)",
                         writeScenario);
            cmd.Parse(argc, argv);

            MoseSwitchExperimentConfig config;
            config.scenario = options.GetConfig();
            config.policy = ParseEnum<Policy>(policyText, "--policy");
            // the transfers' start attributes that the program sets per mode interval
            RejectModuleAttribute("ns3::MoseTrafficHelper::StartMode",
                                  "the transfers of each mode interval start uniformly over "
                                  "--startWindow");
            RejectModuleAttribute("ns3::MoseTrafficHelper::StartTime",
                                  "the transfers of each mode interval start at the interval's "
                                  "start (--schedule)");
            RejectModuleAttribute("ns3::MoseTrafficHelper::SinkPortBase",
                                  "each mode interval's sinks listen on ports of their own");
            windowText =
                ResolveAttributeOption(MoseAttributeOption{"startWindow",
                                                           "ns3::MoseTrafficHelper::"
                                                           "StartWindow",
                                                           ReadTimeOption},
                                       windowGiven ? std::optional(windowText) : std::nullopt)
                    .value_or(windowText);
            config.optionText = {{"--schedule", scheduleText},
                                 {"--startWindow", windowText},
                                 {"--stopTime", stopText},
                                 {"--binWidth", binText}};
            config.SetSchedule(ParseSchedule("--schedule", scheduleText));
            config.startWindow = MoseSwitchExperiment::ParseDuration("--startWindow", windowText);
            config.stopTime = MoseSwitchExperiment::ParseDuration("--stopTime", stopText);
            config.binWidth = MoseSwitchExperiment::ParseDuration("--binWidth", binText);
            config.run = config.scenario.firstRun;
            config.Validate();
            CheckOutputFolder("--outputDir", outputDir);

            std::vector<Policy> policies{config.policy};
            if (compare)
            {
                for (Policy p : ALL_POLICIES)
                {
                    if (p != config.policy)
                    {
                        policies.push_back(p);
                    }
                }
            }
            MoseSwitchComparison comparison;
            for (Policy policy : policies)
            {
                MoseSwitchExperimentConfig c = config;
                c.policy = policy;
                MoseSwitchExperiment experiment(c);
                experiment.Build();
                if (writeScenario && policy == config.policy)
                {
                    // every policy's run draws the same scenario
                    WriteScenarioFiles(experiment.GetScenario(), outputDir);
                    std::cout << "wrote " << outputDir
                              << "/{uniform,pd-biased,compromise}.{csv,dot} and "
                              << "{roles,assignment,flows}_{inference,training}.csv" << std::endl;
                }
                experiment.Run();
                const MoseSwitchExperimentReport report(experiment);
                const std::string prefix = ToString(policy) + "_";
                report.WriteCsv(outputDir, prefix);
                comparison.Add(experiment.GetSummary());
                if (policy != config.policy)
                {
                    std::cout << "ran " << ToString(policy) << ": " << std::fixed
                              << std::setprecision(2) << experiment.GetWallSeconds() << " s wall"
                              << std::defaultfloat << std::setprecision(6) << std::endl;
                    continue;
                }
                report.Print(std::cout);
                std::cout << "wrote " << outputDir << "/" << prefix
                          << "{intervals,circuits,goodput,transfers}.csv" << std::endl;
                if (plot)
                {
                    const std::string base = "goodput_" + ToString(policy);
                    std::ostringstream script;
                    Gnuplot gp = report.MakeGoodputPlot(base + ".png");
                    gp.GenerateOutput(script);
                    const std::string file = outputDir + "/" + base + ".plt";
                    WriteTextFile(file, [&script](std::ostream& os) { os << script.str(); });
                    std::cout << "wrote " << file;
                    if (MoseStudyReport::RenderPlots(outputDir, {file}) == 1)
                    {
                        std::cout << " and " << base << ".png";
                    }
                    std::cout << std::endl;
                }
                std::cout << std::endl;
            }
            if (compare)
            {
                std::cout << "\ncomparison on run " << config.run << " (same roles, flows and "
                          << "transfers; static policies never switch):\n";
                comparison.WriteCsv(outputDir + "/comparison.csv");
            }
            comparison.Print(std::cout);
            if (compare)
            {
                std::cout << "wrote " << outputDir << "/comparison.csv" << std::endl;
            }
        });
}
