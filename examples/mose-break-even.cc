/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-break-even: when switching pays. Runs the flow-level study (every policy and mode, per
 * seed), charges each policy a cost rate per second (a flow-level metric of the graph it uses in
 * the mode: the all-flows average load-aware cost by default) and MoSE a penalty per switch
 * (dark time x share of the new mode's load on the re-paired circuits x the cost rate of
 * unserved traffic), and prints
 *   - the break-even mode duration T* against each static policy for the alternating schedule
 *     with equal durations T: MoSE is cheaper for modes that last longer than T*;
 *   - the integrated cost of every policy over a schedule (--schedule, or --cycles cycles of
 *     --modeDuration seconds per mode) and whether switching pays there.
 * Writes CSV files and a gnuplot figure (cost per second against T, log scales, break-even
 * points marked). The model is in model/flow/mose-break-even.h, the report in
 * helper/study/mose-switch-cost-report.h and doc/mose.rst ("When switching pays").
 *
 *   ./mose-break-even                                     # paper scale, 20 seeds
 *   ./mose-break-even --darkTime=0.1 --unservedShare=1    # 100 ms, the whole fabric dark
 *   ./mose-break-even --metric=max_load --schedule=inference-heavy:1h,training-heavy:10min
 *
 * The scenario options are every mose program's (MoseScenarioOptions). --schedule has
 * mose-mode-switch's syntax, MODE:DURATION periods; every duration option reads a number with
 * an optional unit (ns, us, ms, s, min, h; no unit: seconds).
 */

#include "ns3/mose-break-even.h"

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-program.h"
#include "ns3/mose-scenario-options.h"
#include "ns3/mose-study-report.h"
#include "ns3/mose-switch-cost-report.h"
#include "ns3/mose-switch-cost.h"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <thread>
#include <vector>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    return RunMoseProgram("mose-break-even", argc, argv, {"biregular", "plot", "progress"}, [&]() {
        MoseScenarioOptions options; // the scenario options of every mose program
        std::string metricText = "avg_cost";
        std::string darkTimeText = "0.025";
        std::string factorText = "1";
        std::string shareText;
        std::string scheduleText;
        std::string modeDurationText = "3600";
        std::string cyclesText = "12";
        std::string minDurationText = "1e-3";
        std::string maxDurationText = "1e4";
        std::string pointsText = "141";
        std::string outputDir = "results/mose-break-even";
        bool plot = true;
        bool progress = true;

        CommandLine cmd(__FILE__);
        options.AddOptions(cmd);
        AddTextOption(cmd,
                      "metric",
                      "cost rate per second: avg_cost (all flows' mean load-aware cost), "
                      "p95_cost, max_load, p95_load or avg_hop",
                      metricText);
        AddTextOption(cmd,
                      "darkTime",
                      "how long the re-paired circuits are dark per switch, a duration (no unit: "
                      "seconds; 0.025: an assumed MEMS OCS reconfiguration time)",
                      darkTimeText);
        AddTextOption(cmd,
                      "unservedFactor",
                      "cost rate of unserved traffic per unit of the new mode's cost rate (1: "
                      "waiting costs what serving costs)",
                      factorText);
        AddTextOption(cmd,
                      "unservedShare",
                      "share of the traffic unserved during a switch, in [0, 1], instead of the "
                      "share of the load on the added circuits (1: the whole fabric is dark)",
                      shareText);
        AddTextOption(cmd,
                      "schedule",
                      ScheduleSyntax() +
                          " (default: --cycles x both modes for --modeDuration each)",
                      scheduleText);
        AddTextOption(cmd,
                      "modeDuration",
                      "duration of each mode of the default schedule (no unit: seconds)",
                      modeDurationText);
        AddTextOption(cmd, "cycles", "cycles of the default schedule", cyclesText);
        AddTextOption(cmd,
                      "minDuration",
                      "smallest mode duration T plotted (no unit: seconds)",
                      minDurationText);
        AddTextOption(cmd,
                      "maxDuration",
                      "largest mode duration T plotted (no unit: seconds)",
                      maxDurationText);
        AddTextOption(cmd, "points", "mode durations plotted (log-spaced)", pointsText);
        AddTextOption(cmd, "outputDir", "folder for CSV files and the figure", outputDir);
        cmd.AddValue("plot", "write the figure's gnuplot script and render it", plot);
        cmd.AddValue("progress", "show progress on standard error", progress);
        cmd.Parse(argc, argv);
        // no ns-3 object of the module is created: a --ns3::Mose... attribute would be ignored
        RejectModuleAttributes("mose-break-even");

        // every option is checked before the study runs
        MoseFlowExperimentConfig config = options.GetConfig();
        const SwitchCostMetric metric = ParseEnum<SwitchCostMetric>(metricText, "--metric");
        SwitchCostParameters params;
        params.darkTime = ParseDuration("--darkTime", darkTimeText);
        params.unservedFactor = ParseReal("--unservedFactor", factorText);
        if (!shareText.empty())
        {
            params.unservedShare = ParseReal("--unservedShare", shareText);
        }
        if (params.unservedFactor < 0)
        {
            ThrowBadParameter("--unservedFactor",
                              QuoteText(factorText),
                              "a number >= 0 (1: waiting traffic costs its served cost)");
        }
        if (params.unservedShare && (*params.unservedShare < 0 || *params.unservedShare > 1))
        {
            ThrowBadParameter("--unservedShare",
                              QuoteText(shareText),
                              "a share in [0, 1] (1: the whole fabric is dark), or empty for the "
                              "share of the load on the added circuits");
        }
        params.Validate();
        // drawn flows bound every cost rate: a penalty that can overflow is known before the
        // study (flows from files are checked after it, below)
        if (config.inferenceFlowsFile.empty() && config.trainingFlowsFile.empty() &&
            !std::isfinite(MaxCyclePenalty(params, MaxDrawnCostRate(config.nodes, config.flows))))
        {
            throw MoseError("invalid --darkTime = " + QuoteText(darkTimeText) +
                            " with --unservedFactor = " + QuoteText(factorText) +
                            ": a switch's penalty (dark time x unserved share x factor x cost "
                            "rate, the rate up to (N - 1) x F = " +
                            FormatNumber(MaxDrawnCostRate(config.nodes, config.flows)) +
                            " for --nodes and --flows) can overflow a double; give a smaller "
                            "--darkTime or --unservedFactor");
        }
        std::vector<SchedulePeriod> schedule;
        if (scheduleText.empty())
        {
            double t = ParseDuration("--modeDuration", modeDurationText);
            if (!(t > 0))
            {
                ThrowBadParameter("--modeDuration",
                                  QuoteText(modeDurationText),
                                  "a finite number of seconds > 0");
            }
            uint32_t cycles = ParseUnsigned32("--cycles", cyclesText);
            if (cycles == 0)
            {
                ThrowBadParameter("--cycles", QuoteText(cyclesText), "at least 1 cycle");
            }
            if (static_cast<double>(cycles) * 2 * t > std::numeric_limits<double>::max())
            {
                ThrowBadParameter("--modeDuration",
                                  QuoteText(modeDurationText),
                                  "--cycles x 2 x --modeDuration must be a finite duration");
            }
            schedule = AlternatingSchedule(t, cycles);
        }
        else
        {
            schedule = ParseSchedule("--schedule", scheduleText);
        }
        const double minT = ParseDuration("--minDuration", minDurationText);
        const double maxT = ParseDuration("--maxDuration", maxDurationText);
        const uint32_t points = ParseUnsigned32("--points", pointsText);
        if (!(minT > 0))
        {
            ThrowBadParameter("--minDuration",
                              QuoteText(minDurationText),
                              "a number of seconds > 0 (the axis is logarithmic)");
        }
        if (!(maxT > minT))
        {
            ThrowBadParameter("--maxDuration",
                              QuoteText(maxDurationText),
                              "a number of seconds > --minDuration = " + FormatNumber(minT));
        }
        if (points < 2 || points > 100000)
        {
            ThrowBadParameter("--points", QuoteText(pointsText), "2 <= points <= 100000");
        }
        const std::vector<double> durations =
            MoseSwitchCostReport::LogSpacedDurations(minT, maxT, points);

        uint32_t threads =
            config.threads != 0 ? config.threads : std::thread::hardware_concurrency();
        CheckStudyMemory(config, std::max<uint32_t>(1, std::min(config.seeds, threads)));
        CheckOutputFolder("--outputDir", outputDir);
        MoseSwitchCostStudy study(config, metric);
        auto start = std::chrono::steady_clock::now();
        auto elapsed = [&start]() {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        study.Run([&](uint32_t done, uint32_t total) {
            if (progress)
            {
                std::cerr << "\r[mose-break-even] " << (done <= total / 2 ? "study" : "switches")
                          << " seed " << (done <= total / 2 ? done : done - total / 2) << "/"
                          << total / 2 << ", " << elapsed() << " s" << (done == total ? "\n" : "")
                          << std::flush;
            }
        });
        const double runSeconds = elapsed();

        // a switch's penalty grows with --darkTime and --unservedFactor; too large ones make a
        // cycle's cost overflow, which the model reports without the options' names
        // a switch's penalty grows with --darkTime and --unservedFactor; too large ones make a
        // cycle's cost overflow, which the model reports without the options' names
        const MoseSwitchCostReport report(study, params, schedule, durations, scheduleText.empty());
        std::ostringstream tables;
        try
        {
            report.PrintTables(tables);
        }
        catch (const MoseError& e)
        {
            const std::string what = e.what();
            if (what.find("cycle cost") == std::string::npos)
            {
                throw;
            }
            throw MoseError("invalid --darkTime = " + QuoteText(darkTimeText) +
                            " with --unservedFactor = " + QuoteText(factorText) +
                            ": the switch penalty makes a cycle's cost overflow (" + what +
                            "); give a smaller --darkTime or --unservedFactor");
        }
        std::cout << tables.str();
        report.WriteCsv(outputDir);
        std::cout << "\nCSV files written to " << outputDir << "/\n";
        if (plot)
        {
            std::vector<std::string> scripts = report.WritePlots(outputDir);
            uint32_t rendered = MoseStudyReport::RenderPlots(outputDir, scripts);
            std::cout << scripts.size() << " gnuplot script written, " << rendered
                      << " rendered to PNG in " << outputDir << "/\n";
        }
        // 3 significant digits, as the tables leave it
        std::cout << std::setprecision(3) << "run time: " << runSeconds
                  << " s (study and switch analysis, " << config.seeds << " seeds), total "
                  << elapsed() << " s\n";
    });
}
