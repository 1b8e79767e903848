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

#include "mose-flow-eval-options.h"
#include "mose-option-scope.h"
#include "mose-program.h"

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-routing.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    // the scaffold: every error (bad input, out of memory, a full disk) is a message and exit
    // status 1
    Program program("mose-flow-eval", "", Program::FLOW_LEVEL);
    return program.Run(argc, argv, [&]() {
        FlowEvalOptions options; // the files, --routing, --nodes, --degree, --repeat, --loads
        CommandLine& cmd = program.GetCommandLine();
        options.AddOptions(cmd);
        program.Parse(argc, argv);
        const FlowEvalConfig c = options.GetConfig();
        // --RngRun seeds random-shortest-path only (the table of doc/mose.rst, Where each option
        // acts)
        CheckOptionScopes("mose-flow-eval",
                          GivenOptions(argc, argv),
                          0,
                          c.routing == RoutingRule::RANDOM_SHORTEST_PATH ? IN_RANDOM_ROUTING
                                                                         : IN_FIXED_ROUTING);
        program.AddInput("--graph", c.graphFile);
        program.AddInput("--flowsFile", c.flowsFile);
        program.AddOutput("--loads", c.loadsFile);
        program.CheckOutput(); // --loads replaces no input, before any file is read

        // shared by the routing of every repetition (no copy inside the timed loop)
        const auto graph = std::make_shared<const CircuitGraph>(
            c.degree == 0 ? ReadCircuitGraphCsv(c.graphFile, c.nodes)
                          : ReadCircuitGraphCsv(c.graphFile, c.nodes, std::optional(c.degree)));
        const std::vector<Flow> flows = ReadFlowsCsv(c.flowsFile, graph->GetNNodes());
        CheckMemory("the graph " + c.graphFile + " (" + std::to_string(graph->GetNNodes()) +
                        " groups)",
                    FlowEvaluator::EstimateBytes(graph->GetNNodes(), flows.size()));
        const uint64_t seed = DeriveRoutingSeed(RngSeedManager::GetRun());

        FlowMetrics metrics;
        double best = 0;
        for (uint32_t i = 0; i < c.repeat; ++i)
        {
            auto start = std::chrono::steady_clock::now();
            ShortestPathRouting routing(graph, c.routing, seed);
            metrics = EvaluateFlows(routing, flows);
            double t =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            best = (i == 0) ? t : std::min(best, t);
        }
        std::ostringstream extra;
        extra << "\"graph\": " << JsonString(c.graphFile)
              << ", \"flows_file\": " << JsonString(c.flowsFile)
              << ", \"nodes\": " << graph->GetNNodes()
              << ", \"circuits\": " << graph->GetNCircuits() << ", \"routing\": \""
              << ToString(c.routing) << "\", \"evaluate_seconds\": " << best;
        WriteFlowMetricsJson(metrics, std::cout, extra.str());
        if (!c.loadsFile.empty())
        {
            WriteTextFile(c.loadsFile, [&graph, &metrics](std::ostream& out) {
                WriteCircuitLoadsCsv(*graph, metrics, out);
            });
        }
    });
}
