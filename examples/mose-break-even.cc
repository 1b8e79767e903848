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
 * points marked). The model is in model/mose-break-even.h and doc/mose.rst ("When switching
 * pays").
 *
 *   ./mose-break-even                                     # paper scale, 20 seeds
 *   ./mose-break-even --darkTime=0.1 --unservedShare=1    # 100 ms, the whole fabric dark
 *   ./mose-break-even --metric=max_load --schedule=inference-heavy:3600,training-heavy:600
 */

#include "ns3/mose-break-even.h"

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/gnuplot.h"
#include "ns3/mose-error.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-program.h"
#include "ns3/mose-study-report.h"
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

namespace
{

/// The static policies MoSE is set against
const std::vector<Policy> STATIC_POLICIES = {Policy::STATIC_TRAINING,
                                             Policy::STATIC_INFERENCE,
                                             Policy::STATIC_COMPROMISE};

/**
 * \param s a summary
 * \param precision digits after the point
 * \return "mean +-ci95"
 */
std::string
Cell(const MoseSummary& s, int precision)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(precision) << s.mean << " +-" << s.ci95;
    return os.str();
}

/**
 * \param seconds a duration
 * \return it in s, or in ms below 1 s, with 4 significant digits
 */
std::string
Duration(double seconds)
{
    std::ostringstream os;
    os << std::setprecision(4);
    if (seconds < 1)
    {
        os << seconds * 1e3 << " ms";
    }
    else
    {
        os << seconds << " s";
    }
    return os.str();
}

/**
 * \param b a break-even point
 * \return "12.3 ms", "always" or "never"
 */
std::string
BreakEvenText(const BreakEven& b)
{
    return b.kind == BreakEven::AT ? Duration(b.duration) : b.ToText();
}

/**
 * \brief Writes the CSV files.
 * \param study the study, after Run()
 * \param params the penalty's parameters
 * \param schedule the schedule
 * \param durations the plot's mode durations
 * \param dir the folder (exists)
 */
void
WriteCsv(const MoseSwitchCostStudy& study,
         const SwitchCostParameters& params,
         const std::vector<SchedulePeriod>& schedule,
         const std::vector<double>& durations,
         const std::string& dir)
{
    MoseStudyReport::WriteOutput(dir + "/rates.csv", [&](std::ostream& out) {
        out << "policy,mode,rate_mean,rate_ci95,unserved_share_mean,unserved_share_ci95,"
               "circuits_kept_mean,circuits_added_mean,penalty_mean,penalty_ci95,n\n";
        for (Policy p : ALL_POLICIES)
        {
            for (WorkloadMode mode : ALL_MODES)
            {
                MoseSummary rate = study.SummarizeRate(p, mode);
                MoseSummary share = study.SummarizeUnservedShare(p, mode, &params);
                MoseSummary pen = study.SummarizePenalty(p, mode, params);
                out << ToString(p) << "," << ToString(mode) << "," << rate.mean << "," << rate.ci95
                    << "," << share.mean << "," << share.ci95 << ","
                    << study.SummarizeCircuits(p, mode, true).mean << ","
                    << study.SummarizeCircuits(p, mode, false).mean << "," << pen.mean << ","
                    << pen.ci95 << "," << rate.n << "\n";
            }
        }
    });
    MoseStudyReport::WriteOutput(dir + "/per_seed.csv", [&](std::ostream& out) {
        out << "run,policy,mode_entered,rate,switches_into,unserved_share,circuits,kept,added,"
               "removed\n";
        for (uint32_t seed = 0; seed < study.GetSeedsDone(); ++seed)
        {
            const MoseSwitchCostSeed& s = study.GetSeed(seed);
            for (std::size_t pi = 0; pi < ALL_POLICIES.size(); ++pi)
            {
                for (WorkloadMode mode : ALL_MODES)
                {
                    auto m = static_cast<std::size_t>(mode);
                    const MoseSwitchCircuits& c = s.circuits[pi][m];
                    out << s.run << "," << ToString(ALL_POLICIES[pi]) << "," << ToString(mode)
                        << "," << s.policies[pi].rate[m] << ","
                        << (s.policies[pi].switchesInto[m] ? 1 : 0) << ","
                        << s.policies[pi].unservedShare[m] << "," << c.circuits << "," << c.kept
                        << "," << c.added << "," << c.removed << "\n";
                }
            }
        }
    });
    MoseStudyReport::WriteOutput(dir + "/break_even.csv", [&](std::ostream& out) {
        out << "switching,other,outcome,break_even_s,rate_saving_per_cycle,"
               "extra_penalty_per_cycle,per_seed_mean_s,per_seed_ci95_s,seeds_at,seeds_always,"
               "seeds_never\n";
        for (Policy other : STATIC_POLICIES)
        {
            MoseBreakEvenSummary b = study.SummarizeBreakEven(Policy::MOSE, other, params);
            out << ToString(Policy::MOSE) << "," << ToString(other) << "," << b.ofMeans.ToText()
                << "," << b.ofMeans.duration << "," << b.ofMeans.rateSaving << ","
                << b.ofMeans.extraPenalty << "," << b.perSeed.mean << "," << b.perSeed.ci95 << ","
                << b.perSeed.n << "," << b.always << "," << b.never << "\n";
        }
    });
    MoseStudyReport::WriteOutput(dir + "/schedule.csv", [&](std::ostream& out) {
        out << "# schedule " << FormatSchedule(schedule) << "\n";
        out << "policy,total_mean,total_ci95,per_second_mean,per_second_ci95,switches,n\n";
        for (Policy p : ALL_POLICIES)
        {
            MoseSummary perSecond;
            MoseSummary switches;
            MoseSummary total = study.SummarizeSchedule(p, schedule, params, &perSecond, &switches);
            out << ToString(p) << "," << total.mean << "," << total.ci95 << "," << perSecond.mean
                << "," << perSecond.ci95 << "," << switches.mean << "," << total.n << "\n";
        }
    });
    MoseStudyReport::WriteOutput(dir + "/cost_vs_duration.csv", [&](std::ostream& out) {
        out << "mode_duration_s";
        for (Policy p : ALL_POLICIES)
        {
            out << "," << ToString(p);
        }
        out << "\n";
        for (double t : durations)
        {
            out << t;
            for (Policy p : ALL_POLICIES)
            {
                out << "," << study.MeanCycleCost(p, params).PerUnitTime(t);
            }
            out << "\n";
        }
    });
}

/**
 * \brief Writes break_even.plt: cost per second of the alternating schedule against T.
 * \param study the study, after Run()
 * \param params the penalty's parameters
 * \param durations the mode durations plotted
 * \param dir the folder (exists)
 * \return the script's path
 */
std::string
WritePlot(const MoseSwitchCostStudy& study,
          const SwitchCostParameters& params,
          const std::vector<double>& durations,
          const std::string& dir)
{
    Gnuplot plot("break_even.png");
    plot.SetTerminal("pngcairo size 800,500 noenhanced");
    plot.SetTitle("When switching pays: alternating modes of duration T, dark time " +
                  Duration(params.darkTime) + ", metric " + ToString(study.GetMetric()));
    plot.SetLegend("mode duration T (s)",
                   "integrated " + ToString(study.GetMetric()) + " per second (mean of " +
                       std::to_string(study.GetSeedsDone()) + " seeds)");
    plot.AppendExtra("set logscale x");
    plot.AppendExtra("set logscale y");
    plot.AppendExtra("set key top right");
    plot.AppendExtra("set grid");
    for (Policy p : ALL_POLICIES)
    {
        CycleCost c = study.MeanCycleCost(p, params);
        std::string title = ToString(p);
        if (p != Policy::MOSE)
        {
            title += " (T* " +
                     BreakEvenText(study.SummarizeBreakEven(Policy::MOSE, p, params).ofMeans) + ")";
        }
        Gnuplot2dDataset ds(title);
        ds.SetStyle(Gnuplot2dDataset::LINES);
        ds.SetExtra(p == Policy::MOSE ? "lw 3" : "lw 2 dt 2");
        for (double t : durations)
        {
            ds.Add(t, c.PerUnitTime(t));
        }
        plot.AddDataset(ds);
    }
    Gnuplot2dDataset marks("break-even");
    marks.SetStyle(Gnuplot2dDataset::POINTS);
    marks.SetExtra("pt 7 ps 1.5 lc rgb \"black\"");
    const CycleCost mose = study.MeanCycleCost(Policy::MOSE, params);
    for (Policy other : STATIC_POLICIES)
    {
        MoseBreakEvenSummary b = study.SummarizeBreakEven(Policy::MOSE, other, params);
        if (b.ofMeans.kind != BreakEven::AT)
        {
            continue;
        }
        double t = b.ofMeans.duration;
        double y = mose.PerUnitTime(t);
        marks.Add(t, y);
        std::ostringstream label;
        label << "set label \"vs " << ToString(other) << ": " << Duration(t) << "\" at " << t << ","
              << y << " offset 1,1";
        plot.AppendExtra(label.str());
    }
    plot.AddDataset(marks);
    std::string path = dir + "/break_even.plt";
    MoseStudyReport::WriteOutput(path, [&plot](std::ostream& out) { plot.GenerateOutput(out); });
    return path;
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMoseProgram("mose-break-even", argc, argv, {"plot", "progress"}, [&]() {
        MoseFlowExperimentCommandLine options;
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
        cmd.AddValue("metric",
                     "cost rate per second: avg_cost (all flows' mean load-aware cost), "
                     "p95_cost, max_load, p95_load or avg_hop",
                     metricText);
        cmd.AddValue("darkTime",
                     "seconds the re-paired circuits are dark per switch (0.025: an assumed MEMS "
                     "OCS reconfiguration time)",
                     darkTimeText);
        cmd.AddValue("unservedFactor",
                     "cost rate of unserved traffic per unit of the new mode's cost rate (1: "
                     "waiting costs what serving costs)",
                     factorText);
        cmd.AddValue("unservedShare",
                     "share of the traffic unserved during a switch, in [0, 1], instead of the "
                     "share of the load on the added circuits (1: the whole fabric is dark)",
                     shareText);
        cmd.AddValue("schedule",
                     "mode:seconds periods, e.g. inference-heavy:3600,training-heavy:600 "
                     "(default: --cycles x both modes for --modeDuration each)",
                     scheduleText);
        cmd.AddValue("modeDuration", "seconds per mode of the default schedule", modeDurationText);
        cmd.AddValue("cycles", "cycles of the default schedule", cyclesText);
        cmd.AddValue("minDuration", "smallest mode duration T plotted, seconds", minDurationText);
        cmd.AddValue("maxDuration", "largest mode duration T plotted, seconds", maxDurationText);
        cmd.AddValue("points", "mode durations plotted (log-spaced)", pointsText);
        cmd.AddValue("outputDir", "folder for CSV files and the figure", outputDir);
        cmd.AddValue("plot", "write the figure's gnuplot script and render it", plot);
        cmd.AddValue("progress", "show progress on standard error", progress);
        cmd.Parse(argc, argv);

        // every option is checked before the study runs
        MoseFlowExperimentConfig config = options.GetConfig();
        const SwitchCostMetric metric = ParseEnum<SwitchCostMetric>(metricText, "--metric");
        SwitchCostParameters params;
        params.darkTime = ParseReal("--darkTime", darkTimeText);
        params.unservedFactor = ParseReal("--unservedFactor", factorText);
        if (!shareText.empty())
        {
            params.unservedShare = ParseReal("--unservedShare", shareText);
        }
        if (params.darkTime < 0)
        {
            ThrowBadParameter("--darkTime",
                              QuoteText(darkTimeText),
                              "a number of seconds >= 0 (e.g. 0.025)");
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
        std::vector<SchedulePeriod> schedule;
        if (scheduleText.empty())
        {
            double t = ParseReal("--modeDuration", modeDurationText);
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
        const double minT = ParseReal("--minDuration", minDurationText);
        const double maxT = ParseReal("--maxDuration", maxDurationText);
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
        std::vector<double> durations;
        for (uint32_t i = 0; i < points; ++i)
        {
            durations.push_back(minT *
                                std::pow(maxT / minT, static_cast<double>(i) / (points - 1)));
        }

        uint32_t threads =
            config.threads != 0 ? config.threads : std::thread::hardware_concurrency();
        CheckStudyMemory(config, std::max<uint32_t>(1, std::min(config.seeds, threads)));
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

        std::cout << "When switching pays: N=" << config.nodes << " d=" << config.degree
                  << " flows=" << config.flows << " seeds=" << study.GetSeedsDone() << " (runs "
                  << config.firstRun << ".." << config.firstRun + study.GetSeedsDone() - 1
                  << "), routing=" << ToString(config.routing) << "\n";
        std::cout << "cost rate c(p, m) = " << ToString(metric)
                  << " of the graph p uses in mode m, per second; switch penalty = darkTime "
                  << FormatNumber(params.darkTime) << " s x unserved share "
                  << (params.unservedShare ? FormatNumber(*params.unservedShare)
                                           : std::string("(load on added circuits)"))
                  << " x unservedFactor " << FormatNumber(params.unservedFactor)
                  << " x c(p, new mode)\n";
        std::cout << "Means over seeds with 95% confidence half-widths (1.96 s/sqrt(n)).\n\n";
        if (study.GetRateMismatches() > 0)
        {
            std::cout << "note: for " << study.GetRateMismatches()
                      << " (seed, policy, mode) the study evaluated another graph than "
                         "MoseScenario::GetGraph(); the study's rates are used\n\n";
        }

        std::cout << "Cost rates and switches (a switch into the mode from the other one)\n";
        std::cout << std::left << std::setw(8) << "policy" << std::setw(17) << "mode"
                  << std::setw(22) << "cost rate" << std::setw(20) << "circuits kept"
                  << std::setw(20) << "circuits changed" << std::setw(20) << "unserved share"
                  << "penalty per switch\n";
        for (Policy p : ALL_POLICIES)
        {
            for (WorkloadMode mode : ALL_MODES)
            {
                std::cout << std::left << std::setw(8) << ToString(p) << std::setw(17)
                          << ToString(mode) << std::setw(22)
                          << Cell(study.SummarizeRate(p, mode), 2) << std::setw(20)
                          << Cell(study.SummarizeCircuits(p, mode, true), 1) << std::setw(20)
                          << Cell(study.SummarizeCircuits(p, mode, false), 1) << std::setw(20)
                          << Cell(study.SummarizeUnservedShare(p, mode, &params), 4)
                          << Cell(study.SummarizePenalty(p, mode, params), 4) << "\n";
            }
        }

        std::cout << "\nBreak-even mode duration T* (alternating modes of equal duration T; MoSE "
                     "is cheaper for T > T*)\n";
        std::cout << std::left << std::setw(18) << "MoSE vs" << std::setw(22) << "rate saving/cycle"
                  << std::setw(22) << "extra penalty/cycle" << std::setw(16) << "T* (of means)"
                  << "T* per seed\n";
        for (Policy other : STATIC_POLICIES)
        {
            MoseBreakEvenSummary b = study.SummarizeBreakEven(Policy::MOSE, other, params);
            std::ostringstream perSeed;
            if (b.perSeed.n > 0)
            {
                perSeed << Duration(b.perSeed.mean) << " +-" << Duration(b.perSeed.ci95) << " ("
                        << b.perSeed.n << " seeds)";
            }
            if (b.always > 0)
            {
                perSeed << (b.perSeed.n > 0 ? ", " : "") << "always in " << b.always << " seeds";
            }
            if (b.never > 0)
            {
                perSeed << (b.perSeed.n + b.always > 0 ? ", " : "") << "never in " << b.never
                        << " seeds";
            }
            std::ostringstream saving;
            saving << std::setprecision(6) << b.ofMeans.rateSaving;
            std::ostringstream extra;
            extra << std::setprecision(6) << b.ofMeans.extraPenalty;
            std::cout << std::left << std::setw(18) << ToString(other) << std::setw(22)
                      << saving.str() << std::setw(22) << extra.str() << std::setw(16)
                      << BreakEvenText(b.ofMeans) << perSeed.str() << "\n";
        }

        double scheduleSeconds = 0;
        for (const SchedulePeriod& period : schedule)
        {
            scheduleSeconds += period.duration;
        }
        std::string scheduleText2 = FormatSchedule(schedule);
        if (scheduleText.empty())
        {
            scheduleText2 = std::to_string(schedule.size() / 2) + " cycles of " +
                            FormatSchedule({schedule[0], schedule[1]});
        }
        else if (scheduleText2.size() > 200)
        {
            scheduleText2 = scheduleText2.substr(0, 200) + "...";
        }
        std::cout << "\nSchedule: " << scheduleText2 << " (" << schedule.size() << " periods, "
                  << FormatNumber(scheduleSeconds) << " s)\n";
        std::cout << std::left << std::setw(8) << "policy" << std::setw(30) << "integrated cost"
                  << std::setw(24) << "per second"
                  << "switches\n";
        double bestStatic = std::numeric_limits<double>::infinity();
        Policy best = Policy::STATIC_TRAINING;
        double moseTotal = 0;
        for (Policy p : ALL_POLICIES)
        {
            MoseSummary perSecond;
            MoseSummary switches;
            MoseSummary total = study.SummarizeSchedule(p, schedule, params, &perSecond, &switches);
            std::ostringstream sw;
            sw << switches.mean;
            std::cout << std::left << std::setw(8) << ToString(p) << std::setw(30) << Cell(total, 1)
                      << std::setw(24) << Cell(perSecond, 3) << sw.str() << "\n";
            if (p == Policy::MOSE)
            {
                moseTotal = total.mean;
            }
            else if (total.mean < bestStatic)
            {
                bestStatic = total.mean;
                best = p;
            }
        }
        std::cout << "verdict: switching " << (moseTotal < bestStatic ? "pays" : "does not pay")
                  << " on this schedule: MoSE " << std::setprecision(6) << moseTotal
                  << " vs the best static policy (" << ToString(best) << ") " << bestStatic
                  << " (MoSE " << std::setprecision(3)
                  << std::abs(100.0 * (1.0 - moseTotal / bestStatic)) << "% "
                  << (moseTotal < bestStatic ? "less" : "more") << ")\n";

        MakeOutputDirectory(outputDir);
        WriteCsv(study, params, schedule, durations, outputDir);
        std::cout << "\nCSV files written to " << outputDir << "/\n";
        if (plot)
        {
            std::vector<std::string> scripts = {WritePlot(study, params, durations, outputDir)};
            uint32_t rendered = MoseStudyReport::RenderPlots(outputDir, scripts);
            std::cout << scripts.size() << " gnuplot script written, " << rendered
                      << " rendered to PNG in " << outputDir << "/\n";
        }
        std::cout << "run time: " << runSeconds << " s (study and switch analysis, " << config.seeds
                  << " seeds), total " << elapsed() << " s\n";
    });
}
