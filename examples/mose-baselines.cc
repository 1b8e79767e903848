/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-baselines: MoSE next to the switchless baselines (2D torus, 3D torus, 3D full-mesh) at the
 * flow level, with the study's traffic, routing and metrics.
 *
 * Every seed draws the study's roles, P-D assignment and flows of both modes (as mose-paper), and
 * every topology is evaluated on those same flows: the four policies at the study's d, the same
 * policies at each baseline's d where it differs (equal port budget: the 3D torus has d = 6, the
 * 3D full-mesh its own degree), and the baselines' fixed graphs. Prints one table per kind of
 * metric with d in every row, writes CSV files and gnuplot scripts (rendered to PNG when gnuplot
 * is installed).
 *
 *   ./mose-baselines                                   # N = 1024, d = 4, 20 seeds
 *   ./mose-baselines --torus3d=16x8x8 --fullMesh3d=8x8x16
 *   ./mose-baselines --nodes=64 --prefill=24 --decode=24 --training=16 --trPrefill=8 \
 *       --trDecode=8 --trTraining=48 --flows=1000 --baselines=torus-2d,torus-3d
 *   ./mose-baselines --PrintHelp                       # every option
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/mose-baseline-comparison.h"
#include "ns3/mose-error.h"
#include "ns3/mose-program.h"
#include "ns3/mose-scenario-options.h"
#include "ns3/mose-study-report.h"
#include "ns3/mose-switchless-template.h"

#include <chrono>
#include <iostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// The option that gives a baseline's shape, without dashes
std::string
ShapeOption(SwitchlessBaseline b)
{
    switch (b)
    {
    case SwitchlessBaseline::TORUS_2D:
        return "torus2d";
    case SwitchlessBaseline::TORUS_3D:
        return "torus3d";
    case SwitchlessBaseline::FULL_MESH_3D:
        return "fullMesh3d";
    }
    return "shape";
}

/**
 * \brief Reads the --baselines list: names separated by commas, each once.
 * \param text the option's text
 * \return the baselines, in the order given
 */
std::vector<SwitchlessBaseline>
ParseBaselineList(const std::string& text)
{
    return ParseEnumList<SwitchlessBaseline>(text, "--baselines");
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMoseProgram(
        "mose-baselines",
        argc,
        argv,
        {"biregular", "plot", "progress", "moseAtBaselineDegrees"},
        [&]() {
            MoseScenarioOptions options; // the scenario options of every mose program
            std::string outputDir = "results/mose-baselines";
            std::string baselines = "torus-2d,torus-3d,full-mesh-3d";
            std::vector<std::string> shapes(ALL_SWITCHLESS_BASELINES.size());
            bool moseAtBaselineDegrees = true;
            bool plot = true;
            bool progress = true;

            CommandLine cmd(__FILE__);
            options.AddOptions(cmd);
            AddTextOption(cmd,
                          "baselines",
                          "switchless baselines to evaluate, separated by commas: torus-2d, "
                          "torus-3d, full-mesh-3d",
                          baselines);
            AddTextOption(cmd,
                          "torus2d",
                          "shape of the 2D torus, e.g. 32x32 (default: the most balanced for "
                          "--nodes); d = 4",
                          shapes[0]);
            AddTextOption(cmd,
                          "torus3d",
                          "shape of the 3D torus, e.g. 16x8x8 (default: the most balanced for "
                          "--nodes); d = 6",
                          shapes[1]);
            AddTextOption(cmd,
                          "fullMesh3d",
                          "shape a x b x c of the 3D full-mesh, e.g. 16x8x8 (default: the most "
                          "balanced for --nodes); d = (a-1)+(b-1)+(c-1)",
                          shapes[2]);
            cmd.AddValue("moseAtBaselineDegrees",
                         "also evaluate MoSE and the static policies at each baseline's d that "
                         "differs from --degree (equal port budget; r of H^PD there: "
                         "--pdReservedPorts if given, else d - 1)",
                         moseAtBaselineDegrees);
            AddTextOption(cmd, "outputDir", "folder for CSV files and figures", outputDir);
            cmd.AddValue("plot", "write the figures as gnuplot scripts and render them", plot);
            cmd.AddValue("progress", "show progress on standard error", progress);
            cmd.Parse(argc, argv);
            // no ns-3 object of the module is created: a --ns3::Mose... attribute would be ignored
            RejectModuleAttributes("mose-baselines");

            MoseBaselineComparisonConfig config;
            config.study = options.GetConfig();
            config.moseAtBaselineDegrees = moseAtBaselineDegrees;
            if (options.IsGiven("pdReservedPorts"))
            {
                // a given r holds at every degree; the default, d - 1, follows each degree
                config.baselineReservedPorts = config.study.pdReservedPorts;
            }
            const std::vector<SwitchlessBaseline> chosen = ParseBaselineList(baselines);
            for (std::size_t i = 0; i < ALL_SWITCHLESS_BASELINES.size(); ++i)
            {
                const SwitchlessBaseline b = ALL_SWITCHLESS_BASELINES[i];
                const std::string option = "--" + ShapeOption(b);
                bool wanted = false;
                for (SwitchlessBaseline c : chosen)
                {
                    wanted = wanted || c == b;
                }
                if (!wanted && !shapes[i].empty())
                {
                    ThrowBadParameter(option,
                                      QuoteText(shapes[i]),
                                      ToString(b) + " is not in --baselines = " + baselines);
                }
            }
            for (SwitchlessBaseline b : chosen)
            {
                const std::size_t i = static_cast<std::size_t>(b);
                MoseBaselineSpec spec;
                spec.baseline = b;
                spec.shapeName = "--" + ShapeOption(b);
                if (shapes[i].empty())
                {
                    try
                    {
                        spec.shape = DefaultSwitchlessShape(b, config.study.nodes, "--nodes");
                    }
                    catch (const MoseError& e)
                    {
                        throw MoseError(std::string(e.what()) + " (or leave " + ToString(b) +
                                        " out of --baselines)");
                    }
                }
                else
                {
                    spec.shape = ParseGridShape(spec.shapeName, shapes[i]);
                }
                ValidateSwitchlessShape(b,
                                        config.study.nodes,
                                        spec.shape,
                                        spec.shapeName,
                                        "--nodes");
                config.baselines.push_back(spec);
            }

            // memory: one seed per worker, at the largest degree evaluated
            MoseFlowExperimentConfig largest = config.study;
            for (const MoseBaselineSpec& spec : config.baselines)
            {
                largest.degree =
                    std::max(largest.degree, GetBaselineDegree(spec.baseline, spec.shape));
            }
            const uint32_t threads = config.study.threads != 0
                                         ? config.study.threads
                                         : std::thread::hardware_concurrency();
            CheckStudyMemory(largest, std::max<uint32_t>(1, std::min(config.study.seeds, threads)));
            CheckOutputFolder("--outputDir", outputDir);

            auto start = std::chrono::steady_clock::now();
            auto elapsed = [&start]() {
                return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                    .count();
            };
            MoseBaselineComparison comparison(config);
            comparison.Run([&](uint32_t done, uint32_t total) {
                if (progress)
                {
                    std::cerr << "\r[mose-baselines] seed " << done << "/" << total << " done, "
                              << elapsed() << " s" << (done == total ? "\n" : "") << std::flush;
                }
            });
            const double evaluateSeconds = elapsed();
            comparison.PrintTables(std::cout);
            comparison.WriteCsv(outputDir);
            std::cout << "\nCSV files written to " << outputDir << "/\n";
            if (plot)
            {
                std::vector<std::string> scripts = comparison.WritePlots(outputDir);
                uint32_t rendered = MoseStudyReport::RenderPlots(outputDir, scripts);
                std::cout << scripts.size() << " gnuplot scripts written, " << rendered
                          << " rendered to PNG in " << outputDir << "/\n";
            }
            std::cout << "comparison time: " << evaluateSeconds << " s (" << config.study.seeds
                      << " seeds, " << comparison.GetRows().size() << " rows), total " << elapsed()
                      << " s\n";
        });
}
