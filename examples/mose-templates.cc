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
 *   ./mose-templates --RngRun=3
 *   ./mose-templates --nodes=64 --prefill=24 --decode=24 --training=16 --trPrefill=8 \
 *       --trDecode=8 --trTraining=48 --outputDir=results/small
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-graph-properties.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-scenario.h"

#include <chrono>
#include <iomanip>
#include <iostream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    MoseFlowExperimentCommandLine options;
    std::string outputDir;

    CommandLine cmd(__FILE__);
    options.AddOptions(cmd);
    cmd.AddValue("outputDir",
                 "if set, write templates, roles, assignments and flows here",
                 outputDir);
    cmd.Parse(argc, argv);

    try
    {
        MoseFlowExperimentConfig config = options.GetConfig();
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
        std::cout << std::left << std::setw(12) << "template" << std::setw(10) << "circuits"
                  << std::setw(9) << "degree" << std::setw(8) << "simple" << std::setw(11)
                  << "connected" << std::setw(12) << "P-D/group" << std::setw(12) << "P-D total"
                  << std::setw(12) << "pairs made" << std::setw(10) << "AvgHop"
                  << "diameter\n";
        for (TemplateId id : ALL_TEMPLATES)
        {
            const CircuitGraph& g = s.templates[static_cast<std::size_t>(id)];
            TemplateProperties p = MeasureTemplate(g, s.roles[0], s.assignment[0]);
            std::ostringstream degree;
            degree << p.minDegree << ".." << p.maxDegree;
            std::ostringstream pd;
            pd << p.minPdCircuits << ".." << p.maxPdCircuits;
            std::cout << std::left << std::setw(12) << ToString(id) << std::setw(10) << p.circuits
                      << std::setw(9) << degree.str() << std::setw(8) << (p.simple ? "yes" : "no")
                      << std::setw(11) << (p.connected ? "yes" : "no") << std::setw(12) << pd.str()
                      << std::setw(12) << p.pdCircuits << std::setw(12) << std::fixed
                      << std::setprecision(3) << p.assignmentRealised << std::setw(10)
                      << p.distances.averageHops << p.distances.diameter << "\n";
        }
        std::cout << "build time (roles, assignments, 3 templates, flows of both modes): "
                  << buildSeconds * 1e3 << " ms\n";

        if (!outputDir.empty())
        {
            MakeOutputDirectory(outputDir);
            for (TemplateId id : ALL_TEMPLATES)
            {
                const CircuitGraph& g = s.templates[static_cast<std::size_t>(id)];
                WriteCircuitGraphCsv(g, outputDir + "/" + ToString(id) + ".csv");
                WriteCircuitGraphDot(g, outputDir + "/" + ToString(id) + ".dot", &s.roles[0]);
            }
            const std::array<std::string, 2> tags = {"inference", "training"};
            for (std::size_t m = 0; m < 2; ++m)
            {
                WriteRolesCsv(s.roles[m], outputDir + "/roles_" + tags[m] + ".csv");
                WritePdAssignmentCsv(s.assignment[m],
                                     outputDir + "/assignment_" + tags[m] + ".csv");
                WriteFlowsCsv(s.flows[m], outputDir + "/flows_" + tags[m] + ".csv");
            }
            std::cout << "files written to " << outputDir << "/\n";
        }
    }
    catch (const MoseError& e)
    {
        std::cerr << "mose-templates: error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
