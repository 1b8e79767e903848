/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-templates: builds the three topology templates of one seed (by default at the paper's
 * scale, N = 1024, d = 4) and prints the properties the design relies on: regularity,
 * simplicity, connectivity, P-D circuits per P/D group, realised P-D assignment pairs and
 * shortest-path distances. With --outputDir it also writes every template as an edge-list CSV
 * and Graphviz DOT file, the roles, the P-D assignments and the flows of both modes.
 *
 * The distances (AvgHop, diameter) take one breadth-first search per source, quadratic in N:
 * all pairs up to --distanceSources groups (default 4096), above that the searches start from
 * that many sources spread evenly over the ids, and the output says so (the diameter is then a
 * lower bound). --distanceSources=0 measures all pairs at any size; progress goes to stderr.
 * It builds the one seed of --RngRun and routes nothing, so --seeds, --routing and --threads
 * (mose-paper's) are not offered.
 *
 *   ./mose-templates --RngRun=3
 *   ./mose-templates --nodes=64 --outputDir=results/small   # roles: the paper's shares of 64
 *   ./mose-templates --nodes=64 --prefill=24 --decode=24 --training=16 --trPrefill=8 \
 *       --trDecode=8 --trTraining=48 --outputDir=results/small
 *
 * The scenario options are every mose program's (MoseScenarioOptions); the files written are
 * those the file options of every program read back (--graph, --inferenceRolesFile, ...).
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-graph-properties.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-program.h"
#include "ns3/mose-scenario-options.h"
#include "ns3/mose-scenario.h"

#include <chrono>
#include <iomanip>
#include <iostream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    // RunMoseProgram checks --RngRun/--RngSeed and empty or bad option values before ns-3 sees
    // them, and reports every error (bad input, out of memory) with exit status 1
    return RunMoseProgram("mose-templates", argc, argv, {"biregular", "progress"}, [&]() {
        // the scenario options of every mose program; one seed, nothing routed
        MoseScenarioOptions options(MoseScenarioDefaults(), 0);
        std::string outputDir;
        std::string distanceSourcesText = "4096";
        bool progress = true;

        CommandLine cmd(__FILE__);
        options.AddOptions(cmd);
        AddTextOption(cmd,
                      "outputDir",
                      "if set, write templates, roles, assignments and flows here",
                      outputDir);
        AddTextOption(cmd,
                      "distanceSources",
                      "AvgHop and diameter from at most this many sources (0: all pairs)",
                      distanceSourcesText);
        cmd.AddValue("progress", "show the progress of the distances on standard error", progress);
        cmd.Parse(argc, argv);
        // no ns-3 object of the module is created: a --ns3::Mose... attribute would be ignored
        RejectModuleAttributes("mose-templates");

        MoseFlowExperimentConfig config = options.GetConfig();
        const uint32_t distanceSources = ParseUnsigned32("--distanceSources", distanceSourcesText);
        CheckStudyMemory(config, 1);
        if (!outputDir.empty())
        {
            CheckOutputFolder("--outputDir", outputDir);
        }
        MoseScenarioBuilder builder(config);
        auto start = std::chrono::steady_clock::now();
        MoseScenario s = builder.Build(config.firstRun);
        double buildSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

        std::cout << "Templates of run " << s.run << ": N=" << config.nodes
                  << " d=" << config.degree << ", H^PD r=" << config.pdReservedPorts
                  << ", H^C r=" << config.compromiseReservedPorts
                  << ", completion=" << ToString(config.completion)
                  << ", assignment=" << ToString(config.assignment) << "\n";
        const bool sampled = distanceSources != 0 && distanceSources < config.nodes;
        if (sampled)
        {
            std::cout << "AvgHop and diameter from " << distanceSources << " of " << config.nodes
                      << " sources, spread evenly (the diameter is a lower bound); "
                         "--distanceSources=0 for all pairs\n";
        }
        std::cout << std::flush;
        std::cout << std::left << std::setw(12) << "template" << std::setw(10) << "circuits"
                  << std::setw(9) << "degree" << std::setw(8) << "simple" << std::setw(11)
                  << "connected" << std::setw(12) << "P-D/group" << std::setw(12) << "P-D total"
                  << std::setw(12) << "pairs made" << std::setw(10) << "AvgHop"
                  << "diameter\n";
        auto distanceStart = std::chrono::steady_clock::now();
        for (TemplateId id : ALL_TEMPLATES)
        {
            const CircuitGraph& g = s.templates[static_cast<std::size_t>(id)];
            auto report = [&](uint32_t done, uint32_t total) {
                // only where it takes a while: large graphs
                if (progress && static_cast<uint64_t>(total) * config.nodes >= 50000000ULL)
                {
                    std::cerr << "\r[mose-templates] " << ToString(id) << " distances: " << done
                              << "/" << total << " sources" << (done == total ? "\n" : "")
                              << std::flush;
                }
            };
            TemplateProperties p =
                MeasureTemplate(g, s.roles[0], s.assignment[0], distanceSources, report);
            std::ostringstream degree;
            degree << p.minDegree << ".." << p.maxDegree;
            std::ostringstream pd;
            pd << p.minPdCircuits << ".." << p.maxPdCircuits;
            std::cout << std::left << std::setw(12) << ToString(id) << std::setw(10) << p.circuits
                      << std::setw(9) << degree.str() << std::setw(8) << (p.simple ? "yes" : "no")
                      << std::setw(11) << (p.connected ? "yes" : "no") << std::setw(12) << pd.str()
                      << std::setw(12) << p.pdCircuits << std::setw(12) << std::fixed
                      << std::setprecision(3) << p.assignmentRealised << std::setw(10)
                      << p.distances.averageHops << p.distances.diameter << "\n"
                      << std::flush;
        }
        double distanceSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - distanceStart).count();
        std::cout << "build time (roles, assignments, 3 templates, flows of both modes): "
                  << buildSeconds * 1e3 << " ms\n";
        if (sampled || config.nodes > 4096)
        {
            std::cout << "distance time (AvgHop, diameter of 3 templates): "
                      << distanceSeconds * 1e3 << " ms\n";
        }

        if (!outputDir.empty())
        {
            WriteScenarioFiles(s, outputDir);
            std::cout << "files written to " << outputDir << "/\n";
        }
    });
}
