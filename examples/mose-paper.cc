/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-paper: the flow-level study of the MoSE paper at full scale.
 *
 * Four policies (Static-Training, Static-Inference, Static-Compromise, MoSE) x two workload modes
 * (inference-heavy, training-heavy) x 20 seeds, N = 1024 groups of degree d = 4, 100,000 unit
 * flows per mode. Prints Table I (means with 95% confidence intervals), the cost table and the
 * headline reductions next to the paper's figures; writes CSV files and Figure 5's panels as
 * gnuplot scripts (rendered to PNG when gnuplot is installed).
 *
 *   ./mose-paper                          # the paper's defaults
 *   ./mose-paper --seeds=5 --RngRun=7     # seeds use runs 7..11
 *   ./mose-paper --routing=ecmp --completion=random --outputDir=results/ecmp
 *   ./mose-paper --PrintHelp              # every option
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/mose-error.h"
#include "ns3/mose-flow-experiment-helper.h"
#include "ns3/mose-program.h"

#include <chrono>
#include <iostream>
#include <thread>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    // RunMoseProgram checks --RngRun/--RngSeed and empty or bad option values before ns-3 sees
    // them, and reports every error (bad input, out of memory) with exit status 1
    return RunMoseProgram("mose-paper", argc, argv, {"plot", "progress"}, [&]() {
        MoseFlowExperimentCommandLine options;
        std::string outputDir = "results/mose-paper";
        bool plot = true;
        bool progress = true;

        CommandLine cmd(__FILE__);
        options.AddOptions(cmd);
        cmd.AddValue("outputDir", "folder for CSV files and figures", outputDir);
        cmd.AddValue("plot", "write Figure 5 as gnuplot scripts and render them", plot);
        cmd.AddValue("progress", "show progress on standard error", progress);
        cmd.Parse(argc, argv);

        MoseFlowExperimentConfig config = options.GetConfig();
        uint32_t threads =
            config.threads != 0 ? config.threads : std::thread::hardware_concurrency();
        CheckStudyMemory(config, std::max<uint32_t>(1, std::min(config.seeds, threads)));
        MoseFlowExperimentHelper helper(config);
        auto start = std::chrono::steady_clock::now();
        auto elapsed = [&start]() {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        // ns-3's ShowProgress reports the simulated time of a running Simulator; this study
        // runs no simulator, so progress is reported per seed here.
        helper.Run([&](uint32_t done, uint32_t total) {
            if (progress)
            {
                std::cerr << "\r[mose-paper] seed " << done << "/" << total << " done, "
                          << elapsed() << " s" << (done == total ? "\n" : "") << std::flush;
            }
        });
        double evaluateSeconds = elapsed();
        helper.PrintTables(std::cout);
        helper.WriteCsv(outputDir);
        std::cout << "\nCSV files written to " << outputDir << "/\n";
        if (plot)
        {
            std::vector<std::string> scripts = helper.WritePlots(outputDir);
            uint32_t rendered = MoseFlowExperimentHelper::RenderPlots(outputDir, scripts);
            std::cout << scripts.size() << " gnuplot scripts written, " << rendered
                      << " rendered to PNG in " << outputDir << "/\n";
        }
        std::cout << "study time: " << evaluateSeconds << " s (" << config.seeds
                  << " seeds), total " << elapsed() << " s\n";
    });
}
