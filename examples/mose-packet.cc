/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-packet: one workload mode of a MoSE fabric at the packet level. The flow-level core
 * draws the roles, P-D assignment, flows and the policy's template; MoseTopologyHelper realises
 * the template as ns-3 nodes, OCS port devices and circuits; MoseTrafficHelper turns the flows
 * into TCP transfers (KV cache and training). It prints per class the flow completion times,
 * goodput and packets lost, and per circuit the payload bytes next to the flow-level load, and
 * writes CSV files and a gnuplot figure of the FCT CDF per class and template.
 *
 *   mose-packet                                   # N=64, inference-heavy, S-Train and MoSE
 *   mose-packet --nodes=1024 --policies=MoSE      # the paper's scale
 *   mose-packet --graph=my.csv --policies=MoSE    # a circuit graph from a file
 *   mose-packet --ns3::MoseTrafficHelper::SocketFactory=ns3::UdpSocketFactory
 *   mose-packet --inferenceRolesFile=r.csv --inferenceAssignmentFile=a.csv \
 *       --inferenceFlowsFile=f.csv --graph=g.csv    # the inputs of mose-templates --outputDir
 *
 * The scenario options (N, d, roles, r, completion, assignment, construction, flows, routing,
 * the roles/assignment/flows files) are every mose program's (MoseScenarioOptions), with N = 64
 * and 2000 flows by default; the run is --RngRun.
 */

#include "ns3/core-module.h"
#include "ns3/gnuplot.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-packet-experiment.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-program.h"
#include "ns3/mose-scenario-options.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-study-report.h"

#include <algorithm>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// The FCT CDF of one class of one run, as a gnuplot data set (seconds -> milliseconds)
Gnuplot2dDataset
FctCdf(const std::vector<MoseTransfer>& transfers, TrafficClass cls, const std::string& title)
{
    std::vector<double> fct;
    for (const auto& t : transfers)
    {
        if (t.cls == cls && t.complete)
        {
            fct.push_back(t.GetCompletionTime().GetSeconds() * 1e3);
        }
    }
    std::sort(fct.begin(), fct.end());
    Gnuplot2dDataset data(title);
    data.SetStyle(Gnuplot2dDataset::LINES);
    for (std::size_t i = 0; i < fct.size(); ++i)
    {
        data.Add(fct[i], static_cast<double>(i + 1) / static_cast<double>(fct.size()));
    }
    return data;
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMoseProgram(
        "mose-packet",
        argc,
        argv,
        {"biregular", "flowMonitor", "plot", "writeScenario"},
        [&]() {
            // the scenario options of every mose program, at this program's scale
            MoseScenarioOptions options(MoseScenarioDefaults{64, 2000, 1},
                                        MoseScenarioOptions::ROUTING | MoseScenarioOptions::FABRIC);
            std::string modeText = "inference-heavy";
            std::string policiesText = "S-Train,MoSE";
            std::string graphFile;
            std::string stopText = "60";
            std::string outputDir = "results/mose-packet";
            bool flowMonitor = true;
            bool plot = true;
            bool writeScenario = false;

            CommandLine cmd(__FILE__);
            cmd.Usage(
                "One workload mode of a MoSE fabric at the packet level (see doc/mose.rst). "
                "The scenario options are those of every mose program. Packet-level knobs are "
                "attributes: --ns3::MoseOcs::DataRate, --ns3::MoseOcs::Delay, "
                "--ns3::MoseTrafficHelper::BytesPerUnit, --ns3::MoseTrafficHelper::"
                "SocketFactory, --ns3::MoseTopologyHelper::HostsPerGroup, ...");
            options.AddOptions(cmd);
            AddTextOption(cmd,
                          "mode",
                          "workload mode: inference-heavy or training-heavy",
                          modeText);
            AddTextOption(cmd,
                          "policies",
                          "policies to run, comma-separated: S-Train, S-Inf, S-Comp, MoSE",
                          policiesText);
            AddTextOption(cmd,
                          "graph",
                          "edge-list CSV circuit graph to use instead of the policy's template",
                          graphFile);
            AddTextOption(cmd,
                          "stopTime",
                          "the simulation ends here at the latest (a duration; no unit: seconds)",
                          stopText);
            AddTextOption(cmd, "outputDir", "folder for CSV files and the figure", outputDir);
            cmd.AddValue("flowMonitor",
                         "install FlowMonitor (packets lost per class)",
                         flowMonitor);
            cmd.AddValue("plot", "write and render the FCT CDF figure", plot);
            cmd.AddValue("writeScenario",
                         "also write the mode's roles, P-D assignment and flows and each policy's "
                         "circuit graph to outputDir, in the files the file options read",
                         writeScenario);
            cmd.Parse(argc, argv);

            MosePacketExperimentConfig config;
            config.scenario = options.GetConfig();
            config.mode = ParseEnum<WorkloadMode>(modeText, "--mode");
            config.graphFile = graphFile;
            config.run = config.scenario.firstRun;
            config.stopTime = ParseTimeOption("--stopTime", stopText);
            config.flowMonitor = flowMonitor;
            const std::vector<Policy> policies = ParseEnumList<Policy>(policiesText, "--policies");
            config.Validate();
            CheckOutputFolder("--outputDir", outputDir);

            Gnuplot plotKv;
            Gnuplot plotTraining;
            for (Policy policy : policies)
            {
                config.policy = policy;
                MosePacketExperiment experiment(config);
                experiment.Build();
                experiment.Run();
                experiment.PrintReport(std::cout);
                std::cout << std::endl;
                const std::string prefix = ToString(config.mode) + "_" + ToString(policy) + "_";
                experiment.WriteCsv(outputDir, prefix);
                if (writeScenario)
                {
                    experiment.WriteScenario(outputDir, prefix);
                    std::cout << "wrote " << outputDir << "/{roles,assignment,flows}_"
                              << GetModeFileTag(config.mode) << ".csv and " << prefix << "graph.csv"
                              << std::endl;
                }
                const std::string title = graphFile.empty() ? ToString(policy) : graphFile;
                plotKv.AddDataset(FctCdf(experiment.GetTransfers(), TrafficClass::KV, title));
                plotTraining.AddDataset(
                    FctCdf(experiment.GetTransfers(), TrafficClass::TRAINING, title));
            }
            if (plot)
            {
                const std::string base = "fct_cdf_" + ToString(config.mode);
                std::ostringstream script;
                for (auto* p : {&plotKv, &plotTraining})
                {
                    const bool kv = p == &plotKv;
                    p->SetTerminal("pngcairo size 800,500");
                    p->SetOutputFilename(base + (kv ? "_kv.png" : "_training.png"));
                    p->SetTitle(std::string(kv ? "KV" : "training") + " transfers, " +
                                ToString(config.mode) +
                                ", N=" + std::to_string(config.scenario.nodes));
                    p->SetLegend("flow completion time (ms)", "CDF");
                    p->AppendExtra("set key bottom right");
                    p->GenerateOutput(script);
                }
                const std::string file = outputDir + "/" + base + ".plt";
                WriteTextFile(file, [&script](std::ostream& os) { os << script.str(); });
                std::cout << "wrote " << file;
                if (MoseStudyReport::RenderPlots(outputDir, {file}) == 1)
                {
                    std::cout << " and its PNG figures";
                }
                std::cout << std::endl;
            }
        });
}
