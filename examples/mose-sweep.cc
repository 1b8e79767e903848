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
 *   ./mose-sweep --jobs=2                               # its points on two threads
 *   ./mose-sweep --part=1/4 --outputDir=D               # a quarter of its points; then --merge
 *   ./mose-sweep --PrintHelp                            # every option
 */

#include "mose-sweep.h"

#include "mose-option-scope.h"
#include "mose-program.h"
#include "mose-run-options.h"
#include "mose-sweep-options.h"
#include "mose-sweep-report.h"

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/mose-error.h"
#include "ns3/mose-format.h"

#include <algorithm>
#include <iomanip>
#include <iostream>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    // the scaffold: options, memory and output checks, progress, plots; every error (bad input,
    // out of memory) is a message and exit status 1
    Program program("mose-sweep",
                    "results/mose-sweep",
                    Program::FLOW_LEVEL | Program::PLOT | Program::PROGRESS);
    return program.Run(argc, argv, [&]() {
        // the sweep's defaults: the grid with a seed and flow count that run in under a
        // minute on 2 cores
        SweepConfig defaults;
        defaults.seedPlan.seeds = 2;
        defaults.base.flows = 20000;
        SweepCommandLine options(defaults);
        bool table = true;
        CommandLine& cmd = program.GetCommandLine();
        options.AddOptions(cmd);
        program.AddOutputOptions("folder for sweep.csv, skipped.csv and figures",
                                 "write the figures as gnuplot scripts and render them",
                                 "show progress per point on standard error");
        AddBoolOption(cmd, "table", "print one line per point", table);
        // the points are a list of runs: --jobs worker threads, --part, --merge, ...
        RunOptions runs;
        runs.AddOptions(cmd,
                        "by default --threads decides: min(threads, points) points at once, "
                        "the threads left over on each point's seeds; give one of --jobs and "
                        "--threads");
        program.Parse(argc, argv);

        const SweepConfig config = options.GetConfig();
        // --nodes names the point of the role counts given (the table of doc/mose.rst, Where
        // each option acts)
        CheckOptionScopes("mose-sweep", GivenOptions(argc, argv), 0, options.GetPlaces());
        runs.Read(true, "");
        // --threads (the seeds' and points' threads, as before) or --jobs (points on K
        // threads, each point's seeds on one): one setting of the workers, never two
        if (!runs.DescribeJobs().empty() && !options.DescribeThreads().empty())
        {
            throw Error(runs.DescribeJobs() + " and --threads = " + options.DescribeThreads() +
                        ": both set the worker threads (--jobs: points at once; --threads: "
                        "points and their seeds); give one");
        }
        Sweep sweep(config);
        if (runs.IsListing())
        {
            std::cout << "index,point\n";
            for (std::size_t i = 0; i < sweep.GetPoints().size(); ++i)
            {
                std::cout << i << "," << sweep.Describe(i) << "\n";
            }
            return;
        }
        // memory: the largest point, each of the threads (points run in parallel) holding one seed
        FlowExperimentConfig largest = config.base;
        largest.nodes = *std::max_element(config.nodes.begin(), config.nodes.end());
        largest.degree = *std::max_element(config.degrees.begin(), config.degrees.end());
        // the files written, so that no output replaces an input, before any point runs
        // (CheckStudy() checks them with the scenario's inputs)
        program.AddOutputFiles(SweepReport::GetCsvFileNames());
        program.AddPlotFiles(SweepReport::GetPlotFileNames(config));
        program.CheckStudy(largest, Program::GetThreads(config.seedPlan));
        // without --jobs, --threads decides as it did: min(threads, points) points at once,
        // the threads left over on each point's seeds
        const uint32_t total = static_cast<uint32_t>(sweep.GetPoints().size());
        const uint32_t threads = config.seedPlan.GetThreads();
        const uint32_t workers = std::max<uint32_t>(1, std::min(threads, total));
        std::vector<std::string> ignored = RunOptions::GetIgnored();
        ignored.insert(ignored.end(), {"--threads", "--table"});
        RunListOptions how = runs.Get(program.GetOutputDir(),
                                      StudyOptionsText(argc, argv, ignored),
                                      program.IsShowingProgress());
        uint32_t seedThreads = 1;
        if (runs.DescribeJobs().empty())
        {
            how.jobs = workers;
            seedThreads = std::max<uint32_t>(1, threads / workers);
        }
        if (!sweep.Run(how, seedThreads, std::cout))
        {
            return; // a part: its points' records only
        }
        uint32_t skipped = 0;
        for (const SweepResult& r : sweep.GetResults())
        {
            skipped += r.skipped ? 1 : 0;
        }
        const double sweepSeconds = program.GetElapsed();
        const SweepReport report(sweep);
        if (table)
        {
            report.PrintTable(std::cout);
        }
        report.WriteCsv(program.GetOutputDir());
        std::cout << "\n"
                  << sweep.GetPoints().size() << " points (" << skipped
                  << " skipped): sweep.csv and skipped.csv written to " << program.GetOutputDir()
                  << "/\n";
        program.WritePlots([&](const std::string& d) { return report.WritePlots(d); },
                           "gnuplot scripts",
                           std::cout);
        std::cout << "sweep time: " << std::fixed << std::setprecision(1) << sweepSeconds << " s ("
                  << config.seedPlan.seeds << " seeds x " << config.base.flows
                  << " flows per point), total " << program.GetElapsed() << " s\n";
    });
}
