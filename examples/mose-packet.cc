/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-packet: one workload mode of a MoSE fabric at the packet level (or, with --level=fluid
 * or aggregate, the same transfers as fluid flows on the same routes). The flow-level core
 * draws the roles, P-D assignment, flows and the policy's template; MoseTopologyHelper realises
 * the template as ns-3 nodes, OCS port devices and circuits; MoseTrafficHelper turns the flows
 * into TCP transfers (KV cache and training). It prints per class the flow completion times,
 * goodput and packets lost, and per circuit the payload bytes next to the flow-level load, and
 * writes CSV files and a gnuplot figure of the FCT CDF per class and template.
 *
 *   mose-packet                                   # N=64, inference-heavy, S-Train and MoSE
 *   mose-packet --nodes=1024 --policies=MoSE      # the paper's scale
 *   mose-packet --graph=my.csv --policies=MoSE    # a circuit graph from a file
 *   mose-packet --level=fluid                     # the same transfers as fluid flows
 *   mose-packet --jobs=2                          # its policies in two processes at once
 *   mose-packet --part=1/2 --outputDir=D          # half of its runs; then --merge=D,...
 *   mose-packet --ns3::MoseTrafficHelper::SocketFactory=ns3::UdpSocketFactory
 *   mose-packet --inferenceRolesFile=r.csv --inferenceAssignmentFile=a.csv \
 *       --inferenceFlowsFile=f.csv --graph=g.csv    # the inputs of mose-templates --outputDir
 *
 * The scenario options (N, d, roles, r, completion, assignment, construction, flows, routing,
 * the roles/assignment/flows files) are every mose program's (ScenarioOptions), with N = 64
 * and 2000 flows by default; the run is --RngRun.
 */

#include "mose-fct-cdf-plot.h"
#include "mose-flow-level-checks.h"
#include "mose-level-options.h"
#include "mose-option-scope.h"
#include "mose-packet-experiment.h"
#include "mose-packet-options.h"
#include "mose-packet-report.h"
#include "mose-program.h"
#include "mose-run-options.h"
#include "mose-scenario-options.h"

#include "ns3/core-module.h"
#include "ns3/mose-scenario.h"

#include <iostream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    // the scaffold: options, the output folder, the plot; every error is a message and exit
    // status 1
    Program program("mose-packet", "results/mose-packet", Program::PLOT | Program::DISTRIBUTED);
    return program.Run(argc, argv, [&]() {
        // the scenario options of every mose program, at this program's scale
        ScenarioOptions options(ScenarioDefaults{64, 2000, 1},
                                ScenarioOptions::ROUTING | ScenarioOptions::FABRIC);
        PacketOptions packet; // the mode, the policies, --graph, --stopTime, ...
        CommandLine& cmd = program.GetCommandLine();
        cmd.Usage("One workload mode of a MoSE fabric at the packet level, or at the fluid level "
                  "(--level; see doc/mose.rst). "
                  "The scenario options are those of every mose program. Packet-level knobs are "
                  "attributes: --ns3::MoseOcs::DataRate, --ns3::MoseOcs::Delay, "
                  "--ns3::MoseTrafficHelper::BytesPerUnit, --ns3::MoseTrafficHelper::"
                  "SocketFactory, --ns3::MoseTopologyHelper::HostsPerGroup, ...");
        options.AddOptions(cmd);
        packet.AddOptions(cmd);
        // the policies are a list of runs: --jobs (a process per run), --part, --merge, ...
        RunOptions runs;
        runs.AddOptions(cmd);
        program.AddOutputOptions("folder for CSV files and the figure",
                                 "write and render the FCT CDF figure");
        program.Parse(argc, argv);

        const ExperimentConfig config = packet.GetConfig(options);
        // an option that would not act at this level or with this transport is refused (the
        // table of doc/mose.rst, Where each option acts)
        CheckOptionScopes("mose-packet",
                          GivenOptions(argc, argv),
                          GetLevelPlace(config.level),
                          GetTransportPlace(config.IsRdma()));
        runs.Read(true, "");
        if (runs.IsListing())
        {
            std::cout << "index,policy\n";
            for (std::size_t i = 0; i < packet.GetPolicies().size(); ++i)
            {
                std::cout << i << "," << ToString(packet.GetPolicies()[i]) << "\n";
            }
            return;
        }
        const uint32_t count = runs.CountRuns(static_cast<uint32_t>(packet.GetPolicies().size()));
        program.CheckOneSimulation(count > 1,
                                   "this process would carry out " + std::to_string(count) +
                                       " runs (--policies)",
                                   "one policy, --policies=MoSE, or one run, --runs=0");
        // the files read and written (RunPacketPolicies() and the figure), so that
        // no output replaces --graph
        program.AddInput("--graph", config.graphFile);
        program.AddScenarioInputs(config.scenario);
        const std::string mode = ToString(config.GetInitialMode());
        for (const Policy policy : packet.GetPolicies())
        {
            const std::string prefix = mode + "_" + ToString(policy) + "_";
            for (const char* name : {"transfers.csv", "circuits.csv", "summary.csv", "losses.csv"})
            {
                program.AddOutputFiles({prefix + name});
            }
            if (packet.IsWritingScenario())
            {
                program.AddOutputFiles({prefix + "graph.csv"});
            }
        }
        if (packet.IsWritingScenario())
        {
            program.AddOutputFiles(GetModeScenarioFileNames(config.GetInitialMode()));
        }
        if (program.IsPlotting())
        {
            program.AddOutputFiles({"fct_cdf_" + mode + ".plt",
                                    "fct_cdf_" + mode + "_kv.png",
                                    "fct_cdf_" + mode + "_training.png"});
        }
        program.CheckOutput();

        const std::string& dir = program.GetOutputDir();
        FctCdfPlot plot;
        if (!RunPacketPolicies(config,
                               packet.GetPolicies(),
                               dir,
                               packet.IsWritingScenario(),
                               runs.Get(dir,
                                        StudyOptionsText(argc, argv, RunOptions::GetIgnored()),
                                        program.IsShowingProgress()),
                               std::cout,
                               plot))
        {
            return; // a part: its runs' records only
        }
        const std::string base = "fct_cdf_" + ToString(config.GetInitialMode());
        program.WritePlot(
            base,
            [&](std::ostream& os) {
                plot.GenerateOutput(base,
                                    ToString(config.GetInitialMode()),
                                    config.scenario.nodes,
                                    os);
            },
            "its PNG figures",
            std::cout);
        // a fluid or aggregate answer carries the error of the nearest checked run (issue 41)
        PrintFlowLevelCheck(std::cout, "mose-packet", config);
    });
}
