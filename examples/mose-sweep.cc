/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-sweep: the flow-level study at every point of a design space.
 *
 * Axes: N (--sweepNodes), d (--sweepDegrees), r of H^PD (--sweepR, "all" = 0..d), the
 * inference-heavy KV share (--sweepKvShare) and MoSE's template construction
 * (--sweepConstruction); each is a comma list of values or ranges a:b, a:b:step. Every point runs
 * the four policies x two modes x seeds and records every metric (mean, 95% CI) and the circuits
 * MoSE's switches keep and change. Writes sweep.csv, skipped.csv and gnuplot figures; prints one
 * line per point and the total time.
 *
 *   ./mose-sweep                                        # N=1024, d=4..16, r=all, fresh and
 * rewiring-aware
 *   ./mose-sweep --sweepDegrees=4,8,16 --sweepR=0:4 --seeds=5
 *   ./mose-sweep --sweepNodes=256,1024,4096 --sweepDegrees=8 --sweepR=7 --sweepConstruction=fresh
 *   ./mose-sweep --PrintHelp                            # every option
 */

#include "ns3/mose-sweep.h"

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/mose-error.h"
#include "ns3/mose-program.h"
#include "ns3/mose-study-report.h"
#include "ns3/mose-sweep-report.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <thread>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// \return the sweep's defaults: the grid with a seed and flow count that run in
///         under a minute on 2 cores
MoseSweepConfig
Defaults()
{
    MoseSweepConfig c;
    c.base.seeds = 2;
    c.base.flows = 20000;
    return c;
}

/// \return seconds as "1m 23s" or "12.3 s"
std::string
FormatSeconds(double s)
{
    std::ostringstream os;
    if (s >= 60)
    {
        os << static_cast<uint64_t>(s) / 60 << "m " << static_cast<uint64_t>(s) % 60 << "s";
    }
    else
    {
        os << std::fixed << std::setprecision(1) << s << " s";
    }
    return os.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMoseProgram(
        "mose-sweep",
        argc,
        argv,
        {"biregular", "plot", "progress", "table"},
        [&]() {
            MoseSweepCommandLine options(Defaults());
            std::string outputDir = "results/mose-sweep";
            bool plot = true;
            bool progress = true;
            bool table = true;

            CommandLine cmd(__FILE__);
            options.AddOptions(cmd);
            AddTextOption(cmd,
                          "outputDir",
                          "folder for sweep.csv, skipped.csv and figures",
                          outputDir);
            cmd.AddValue("plot", "write the figures as gnuplot scripts and render them", plot);
            cmd.AddValue("progress", "show progress per point on standard error", progress);
            cmd.AddValue("table", "print one line per point", table);
            cmd.Parse(argc, argv);
            // no ns-3 object of the module is created: a --ns3::Mose... attribute would be ignored
            RejectModuleAttributes("mose-sweep");

            MoseSweepConfig config = options.GetConfig();
            MoseSweep sweep(config);
            // memory: the largest point, on as many workers as run at once
            MoseFlowExperimentConfig largest = config.base;
            largest.nodes = *std::max_element(config.nodes.begin(), config.nodes.end());
            largest.degree = *std::max_element(config.degrees.begin(), config.degrees.end());
            uint32_t threads = config.base.threads != 0 ? config.base.threads
                                                        : std::thread::hardware_concurrency();
            CheckStudyMemory(largest, std::max<uint32_t>(1, threads));
            CheckOutputFolder("--outputDir", outputDir);

            auto start = std::chrono::steady_clock::now();
            auto elapsed = [&start]() {
                return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                    .count();
            };
            uint32_t skipped = 0;
            sweep.Run([&](uint32_t done, uint32_t total, const MoseSweepResult& r) {
                skipped += r.skipped ? 1 : 0;
                if (progress)
                {
                    double t = elapsed();
                    double eta = done > 0 ? t / done * (total - done) : 0;
                    std::cerr << "\r[mose-sweep] point " << done << "/" << total << " (" << skipped
                              << " skipped), elapsed " << FormatSeconds(t) << ", ETA "
                              << FormatSeconds(eta) << "    " << (done == total ? "\n" : "")
                              << std::flush;
                }
            });
            double sweepSeconds = elapsed();
            const MoseSweepReport report(sweep);
            if (table)
            {
                report.PrintTable(std::cout);
            }
            report.WriteCsv(outputDir);
            std::cout << "\n"
                      << sweep.GetPoints().size() << " points (" << skipped
                      << " skipped): sweep.csv and skipped.csv written to " << outputDir << "/\n";
            if (plot)
            {
                std::vector<std::string> scripts = report.WritePlots(outputDir);
                uint32_t rendered = MoseStudyReport::RenderPlots(outputDir, scripts);
                std::cout << scripts.size() << " gnuplot scripts written, " << rendered
                          << " rendered to PNG in " << outputDir << "/\n";
            }
            std::cout << "sweep time: " << std::fixed << std::setprecision(1) << sweepSeconds
                      << " s (" << config.base.seeds << " seeds x " << config.base.flows
                      << " flows per point), total " << elapsed() << " s\n";
        });
}
