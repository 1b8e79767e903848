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
 * The scenario options are every mose program's (ScenarioOptions); the files written are
 * those the file options of every program read back (--graph, --inferenceRolesFile, ...).
 */

#include "mose-program.h"
#include "mose-scenario-options.h"
#include "mose-template-report.h"

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-scenario.h"

#include <iomanip>
#include <iostream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    // the scaffold: options, memory and output checks, progress; every error (bad input, out of
    // memory) is a message and exit status 1
    Program program("mose-templates", "", Program::FLOW_LEVEL | Program::PROGRESS);
    return program.Run(argc, argv, [&]() {
        // the scenario options of every mose program; one seed, nothing routed
        ScenarioOptions options(ScenarioDefaults(), 0);
        std::string distanceSourcesText = "4096";
        CommandLine& cmd = program.GetCommandLine();
        options.AddOptions(cmd);
        program.AddOutputOptions("if set, write templates, roles, assignments and flows here",
                                 "",
                                 "show the progress of the distances on standard error");
        AddTextOption(cmd,
                      "distanceSources",
                      "AvgHop and diameter from at most this many sources (0: all pairs)",
                      distanceSourcesText);
        program.Parse(argc, argv);

        const FlowExperimentConfig config = options.GetConfig();
        const uint32_t distanceSources = ParseUnsigned32("--distanceSources", distanceSourcesText);
        program.AddOutputFiles(GetScenarioFileNames()); // nothing without --outputDir
        program.CheckStudy(config, 1);
        const Scenario s = ScenarioBuilder(config).Build(config.firstRun);
        const double buildSeconds = program.GetElapsed();

        auto progress = [&](TemplateId id, uint32_t done, uint32_t total) {
            // only where it takes a while: large graphs
            if (static_cast<uint64_t>(total) * config.nodes >= 50000000ULL)
            {
                program.ShowProgress(ToString(id) + " distances: " + std::to_string(done) + "/" +
                                         std::to_string(total) + " sources",
                                     done == total);
            }
        };
        const bool sampled = PrintTemplateTable(s, config, distanceSources, progress, std::cout);
        const double distanceSeconds = program.GetElapsed() - buildSeconds;
        std::cout << std::fixed << std::setprecision(3)
                  << "build time (roles, assignments, 3 templates, flows of both modes): "
                  << buildSeconds * 1e3 << " ms\n";
        if (sampled || config.nodes > 4096)
        {
            std::cout << "distance time (AvgHop, diameter of 3 templates): "
                      << distanceSeconds * 1e3 << " ms\n";
        }
        if (!program.GetOutputDir().empty())
        {
            WriteScenarioFiles(s, program.GetOutputDir());
            std::cout << "files written to " << program.GetOutputDir() << "/\n";
        }
    });
}
