/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-flow-eval: evaluates a circuit graph and a flow list given as files.
 *
 *   ./mose-flow-eval --graph=g.csv --flowsFile=f.csv [--routing=ecmp] [--degree=4] [--loads=l.csv]
 *
 * The graph is an edge-list CSV (header "u,v"), the flows a CSV with header
 * "src,dst,class,demand" (class kv or training). The metrics are printed as one JSON object on
 * standard output; --loads writes the per-circuit loads as CSV. --routing has every program's
 * default, random-shortest-path with the seed of run --RngRun (as the study's seed of that run
 * routes). --flowsFile is the one flow list (the scenario programs read one per mode,
 * --inferenceFlowsFile and --trainingFlowsFile, and --flows is the number they draw per mode).
 * --degree checks that the graph is d-regular (0: no check); --nodes fixes N (0: largest id +
 * 1). --repeat=K evaluates K times
 * and reports the fastest in "evaluate_seconds". A malformed file is reported with its name and
 * line, and the program exits with status 1.
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-program.h"
#include "ns3/mose-routing.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    // RunMoseProgram checks --RngRun/--RngSeed and empty option values before ns-3 sees them,
    // and reports every error (bad input, out of memory, a full disk) with exit status 1
    return RunMoseProgram("mose-flow-eval", argc, argv, {}, [&]() {
        std::string graphFile;
        std::string flowsFile;
        std::string routingName = ToString(MoseFlowExperimentConfig().routing);
        std::string nodesText = "0";
        std::string degreeText = "0";
        std::string repeatText = "1";
        std::string loadsFile;

        CommandLine cmd(__FILE__);
        AddTextOption(cmd, "graph", "circuit graph, edge-list CSV (u,v)", graphFile);
        AddTextOption(cmd, "flowsFile", "flows CSV (src,dst,class,demand)", flowsFile);
        AddTextOption(cmd, "routing", "shortest-path, random-shortest-path or ecmp", routingName);
        AddTextOption(cmd, "nodes", "number of groups N (0: largest id + 1)", nodesText);
        AddTextOption(cmd, "degree", "required degree d (0: no regularity check)", degreeText);
        AddTextOption(cmd, "repeat", "evaluate this many times, report the fastest", repeatText);
        AddTextOption(cmd, "loads", "if set, write per-circuit loads to this CSV file", loadsFile);
        cmd.Parse(argc, argv);
        // no ns-3 object of the module is created: a --ns3::Mose... attribute would be ignored
        RejectModuleAttributes("mose-flow-eval");

        if (graphFile.empty() || flowsFile.empty())
        {
            throw MoseError("both --graph and --flowsFile are required (see --PrintHelp)");
        }
        RoutingRule rule = ParseEnum<RoutingRule>(routingName, "--routing");
        uint32_t nodes = ParseUnsigned32("--nodes", nodesText);
        if (nodes > MAX_GROUPS)
        {
            ThrowBadParameter("--nodes",
                              QuoteText(nodesText),
                              "at most " + std::to_string(MAX_GROUPS) +
                                  " groups (node ids are 32-bit; one value means none)");
        }
        // the evaluation's per-group storage alone (FlowEvaluator::EstimateBytes())
        CheckMemory("--nodes=" + nodesText, FlowEvaluator::EstimateBytes(nodes, 0));
        uint32_t degree = ParseUnsigned32("--degree", degreeText);
        uint32_t repeat = ParseUnsigned32("--repeat", repeatText);
        if (repeat == 0)
        {
            ThrowBadParameter("--repeat", "\"0\"", "need at least one evaluation");
        }
        // shared by the routing of every repetition (no copy inside the timed loop)
        const auto sharedGraph = std::make_shared<const CircuitGraph>(
            degree == 0 ? ReadCircuitGraphCsv(graphFile, nodes)
                        : ReadCircuitGraphCsv(graphFile, nodes, std::optional<uint32_t>(degree)));
        const CircuitGraph& graph = *sharedGraph;
        std::vector<Flow> flows = ReadFlowsCsv(flowsFile, graph.GetNNodes());
        CheckMemory("the graph " + graphFile + " (" + std::to_string(graph.GetNNodes()) +
                        " groups)",
                    FlowEvaluator::EstimateBytes(graph.GetNNodes(), flows.size()));
        uint64_t seed = DeriveRoutingSeed(RngSeedManager::GetRun());

        FlowMetrics metrics;
        double best = 0;
        for (uint32_t i = 0; i < repeat; ++i)
        {
            auto start = std::chrono::steady_clock::now();
            ShortestPathRouting routing(sharedGraph, rule, seed);
            metrics = EvaluateFlows(routing, flows);
            double t =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            best = (i == 0) ? t : std::min(best, t);
        }
        std::ostringstream extra;
        extra << "\"graph\": " << JsonString(graphFile)
              << ", \"flows_file\": " << JsonString(flowsFile)
              << ", \"nodes\": " << graph.GetNNodes() << ", \"circuits\": " << graph.GetNCircuits()
              << ", \"routing\": \"" << ToString(rule) << "\", \"evaluate_seconds\": " << best;
        WriteFlowMetricsJson(metrics, std::cout, extra.str());
        if (!loadsFile.empty())
        {
            WriteTextFile(loadsFile, [&graph, &metrics](std::ostream& out) {
                WriteCircuitLoadsCsv(graph, metrics, out);
            });
        }
    });
}
