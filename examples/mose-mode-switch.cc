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
 *   mose-mode-switch --ns3::MoseModeSwitcher::Phases=4
 * --schedule=0.5s:training-heavy,1s:inference-heavy mose-mode-switch --policy=S-Comp
 * --compare=false
 */

#include "ns3/core-module.h"
#include "ns3/gnuplot.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-program.h"
#include "ns3/mose-switch-experiment.h"

#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    return RunMoseProgram("mose-mode-switch", argc, argv, {"compare", "plot"}, [&]() {
        std::string nodesText = "64";
        std::string degreeText = "4";
        std::string flowsText = "1000";
        std::string policyText = "MoSE";
        std::string scheduleText = "0.2s:training-heavy,0.4s:inference-heavy";
        std::string lastText = "0.2s";
        std::string windowText = "150ms";
        std::string routingText = "random-shortest-path";
        std::string reservedText = "0";
        std::string completionText = "circulant";
        std::string constructionText = "fresh";
        std::string stopText = "30s";
        std::string binText = "1ms";
        std::string outputDir = "results/mose-mode-switch";
        bool compare = true;
        bool plot = true;

        CommandLine cmd(__FILE__);
        cmd.Usage("A MoSE fabric across mode switches at the packet level (see doc/mose.rst). "
                  "The switch: --ns3::MoseModeSwitcher::Phases (K), ::Drain, ::DrainTimeout, "
                  "::ReconfigurationDelay; the traffic: --ns3::MoseTrafficHelper::BytesPerUnit, "
                  "::SocketFactory, ...; the circuits: --ns3::MoseOcs::DataRate, ::Delay.");
        cmd.AddValue("nodes", "number of groups N", nodesText);
        cmd.AddValue("degree", "optical ports per group d", degreeText);
        cmd.AddValue("flows",
                     "flows per mode F (each interval installs all of its mode's)",
                     flowsText);
        cmd.AddValue("policy",
                     "policy reported in detail: S-Train, S-Inf, S-Comp or MoSE",
                     policyText);
        cmd.AddValue("compare",
                     "also run the other three policies on the same run, print the comparison "
                     "and the verdict",
                     compare);
        cmd.AddValue("schedule",
                     "mode boundaries TIME:MODE,... after the initial inference-heavy interval",
                     scheduleText);
        cmd.AddValue("lastInterval", "duration of the last mode interval (e.g. 0.2s)", lastText);
        cmd.AddValue("startWindow",
                     "transfers of an interval start uniformly over its first this long",
                     windowText);
        cmd.AddValue("routing", "shortest-path, random-shortest-path or ecmp", routingText);
        cmd.AddValue("pdReservedPorts", "r of H^PD (0: d - 1)", reservedText);
        cmd.AddValue("completion",
                     "bipartite completion of H^PD: circulant or random",
                     completionText);
        cmd.AddValue("construction",
                     "MoSE's targets: fresh templates, or rewiring-aware (keep the circuits the "
                     "template allows)",
                     constructionText);
        cmd.AddValue("stopTime", "the simulation ends here at the latest (e.g. 30s)", stopText);
        cmd.AddValue("binWidth", "time bin of the goodput timeline (e.g. 1ms)", binText);
        cmd.AddValue("outputDir", "folder for CSV files and the figure", outputDir);
        cmd.AddValue("plot", "write and render the goodput timeline", plot);
        cmd.Parse(argc, argv);

        const uint32_t nodes = ParseUnsigned32("--nodes", nodesText);
        MoseSwitchExperimentConfig config =
            MoseSwitchExperimentConfig::Scaled(nodes, ParseUnsigned64("--flows", flowsText));
        auto& s = config.scenario;
        s.degree = ParseUnsigned32("--degree", degreeText);
        const uint32_t reserved = ParseUnsigned32("--pdReservedPorts", reservedText);
        s.pdReservedPorts = reserved == 0 && s.degree > 0 ? s.degree - 1 : reserved;
        s.completion = ParseEnum<BipartiteCompletion>(completionText, "--completion");
        s.construction = ParseEnum<TemplateConstruction>(constructionText, "--construction");
        s.routing = ParseEnum<RoutingRule>(routingText, "--routing");
        config.policy = ParseEnum<Policy>(policyText, "--policy");
        config.schedule = MoseModeSwitcherHelper::ParseSchedule(scheduleText);
        const Time last = config.schedule.empty() ? config.firstStart : config.schedule.back().at;
        config.end = last + MoseSwitchExperiment::ParseDuration("--lastInterval", lastText);
        config.startWindow = MoseSwitchExperiment::ParseDuration("--startWindow", windowText);
        config.stopTime = MoseSwitchExperiment::ParseDuration("--stopTime", stopText);
        config.binWidth = MoseSwitchExperiment::ParseDuration("--binWidth", binText);
        config.run = RngSeedManager::GetRun();
        config.Validate();

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
            experiment.Run();
            const std::string prefix = ToString(policy) + "_";
            experiment.WriteCsv(outputDir, prefix);
            comparison.Add(experiment.GetSummary());
            if (policy != config.policy)
            {
                std::cout << "ran " << ToString(policy) << ": " << std::fixed
                          << std::setprecision(2) << experiment.GetWallSeconds() << " s wall"
                          << std::defaultfloat << std::setprecision(6) << std::endl;
                continue;
            }
            experiment.PrintReport(std::cout);
            std::cout << "wrote " << outputDir << "/" << prefix
                      << "{intervals,circuits,goodput,transfers}.csv" << std::endl;
            if (plot)
            {
                const std::string base = "goodput_" + ToString(policy);
                std::ostringstream script;
                Gnuplot gp = experiment.MakeGoodputPlot(base + ".png");
                gp.GenerateOutput(script);
                WriteTextFile(outputDir + "/" + base + ".plt",
                              [&script](std::ostream& os) { os << script.str(); });
                std::cout << "wrote " << outputDir << "/" << base << ".plt";
                if (std::system(
                        ("cd '" + outputDir + "' && gnuplot " + base + ".plt >/dev/null 2>&1")
                            .c_str()) == 0)
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
