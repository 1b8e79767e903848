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
 * headline reductions next to the paper's figures (the reference values and targets are defined
 * here, not in the library); writes CSV files (headline.csv: ours vs paper) and Figure 5's panels
 * as gnuplot scripts (rendered to PNG when gnuplot is installed).
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
#include "ns3/mose-scenario-options.h"
#include "ns3/mose-study-report.h"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>
#include <vector>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// A figure the paper reports, with the tolerance the reproduction targets.
struct PaperFigure
{
    WorkloadMode mode; //!< mode
    Policy policy;     //!< policy
    MoseMetric metric; //!< metric
    double value;      //!< the paper's value
    double tolerance;  //!< allowed relative deviation (0.15 = 15%), or absolute for shares
    bool relative;     //!< whether tolerance is relative
};

/// A reduction the paper reports (percent), with the target of +-3 percentage points.
struct PaperReduction
{
    WorkloadMode mode; //!< mode
    Policy policy;     //!< the policy that reduces
    Policy baseline;   //!< the baseline
    MoseMetric metric; //!< metric
    double percent;    //!< the paper's reduction
};

using W = WorkloadMode;
using P = Policy;
using M = MoseMetric;

/// Table I and the text of section IV (shares: absolute tolerance 0.05)
const std::vector<PaperFigure> PAPER_FIGURES = {
    {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::MAX_LOAD, 1041.95, 0.15, true},
    {W::INFERENCE_HEAVY, P::MOSE, M::MAX_LOAD, 529.35, 0.15, true},
    {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::P95_LOAD, 596.04, 0.10, true},
    {W::INFERENCE_HEAVY, P::MOSE, M::P95_LOAD, 287.80, 0.10, true},
    {W::TRAINING_HEAVY, P::STATIC_TRAINING, M::MAX_LOAD, 1157.75, 0.15, true},
    {W::TRAINING_HEAVY, P::STATIC_INFERENCE, M::MAX_LOAD, 1885.60, 0.15, true},
    {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::DIRECT_KV, 0.004, 0.05, false},
    {W::INFERENCE_HEAVY, P::MOSE, M::DIRECT_KV, 1.000, 0.05, false},
    {W::INFERENCE_HEAVY, P::STATIC_COMPROMISE, M::DIRECT_KV, 0.626, 0.05, false},
    {W::INFERENCE_HEAVY, P::STATIC_TRAINING, M::KV_THREE_PLUS, 0.983, 0.05, false},
    {W::INFERENCE_HEAVY, P::MOSE, M::KV_THREE_PLUS, 0.000, 0.05, false},
};

/// The abstract's headline reductions
const std::vector<PaperReduction> PAPER_REDUCTIONS = {
    {W::INFERENCE_HEAVY, P::MOSE, P::STATIC_TRAINING, M::KV_AVG_COST, 90.8},
    {W::INFERENCE_HEAVY, P::MOSE, P::STATIC_TRAINING, M::KV_P95_COST, 91.9},
    {W::TRAINING_HEAVY, P::MOSE, P::STATIC_INFERENCE, M::TR_AVG_COST, 22.7},
    {W::TRAINING_HEAVY, P::MOSE, P::STATIC_INFERENCE, M::TR_P95_COST, 27.6},
};

/// Reduction target: within this many percentage points of the paper
constexpr double REDUCTION_TOLERANCE_PP = 3.0;

/**
 * \brief Prints the paper's headline figures next to the study's, with the targets.
 * \param study the study, after Run()
 * \param os the stream
 */
void
PrintHeadline(const MoseFlowExperimentHelper& study, std::ostream& os)
{
    os << "\nHeadline figures next to the paper's\n";
    os << std::left << std::setw(17) << "mode" << std::setw(8) << "policy" << std::setw(22)
       << "metric" << std::setw(12) << "ours" << std::setw(12) << "paper" << std::setw(14)
       << "target"
       << "within\n";
    for (const PaperFigure& f : PAPER_FIGURES)
    {
        double ours = study.Summarize(f.mode, f.policy, f.metric).mean;
        bool within = f.relative ? std::abs(ours - f.value) <= f.tolerance * f.value
                                 : std::abs(ours - f.value) <= f.tolerance;
        std::ostringstream target;
        target << (f.relative ? "+-" + std::to_string(int(f.tolerance * 100)) + "%" : "+-0.05");
        os << std::left << std::setw(17) << ToString(f.mode) << std::setw(8) << ToString(f.policy)
           << std::setw(22) << ToString(f.metric) << std::setw(12) << std::fixed
           << std::setprecision(3) << ours << std::setw(12) << f.value << std::setw(14)
           << target.str() << (within ? "yes" : "no") << "\n";
    }
    for (const PaperReduction& r : PAPER_REDUCTIONS)
    {
        double ours = study.Reduction(r.mode, r.policy, r.baseline, r.metric);
        bool within = std::abs(ours - r.percent) <= REDUCTION_TOLERANCE_PP;
        std::string label = ToString(r.policy) + " vs " + ToString(r.baseline);
        os << std::left << std::setw(17) << ToString(r.mode) << std::setw(16) << label
           << std::setw(18) << (ToString(r.metric) + " cut %") << std::setw(12) << std::fixed
           << std::setprecision(1) << ours << std::setw(12) << r.percent << std::setw(14)
           << "+-3 pp" << (within ? "yes" : "no") << "\n";
    }
}

/**
 * \brief Writes headline.csv (ours vs paper) into a folder.
 * \param study the study, after Run()
 * \param dir the folder (exists)
 */
void
WriteHeadlineCsv(const MoseFlowExperimentHelper& study, const std::string& dir)
{
    MoseStudyReport::WriteOutput(dir + "/headline.csv", [&](std::ostream& out) {
        out << "mode,policy,baseline,metric,ours,paper,kind\n";
        for (const PaperFigure& f : PAPER_FIGURES)
        {
            out << ToString(f.mode) << "," << ToString(f.policy) << ",," << ToString(f.metric)
                << "," << study.Summarize(f.mode, f.policy, f.metric).mean << "," << f.value
                << ",value\n";
        }
        for (const PaperReduction& r : PAPER_REDUCTIONS)
        {
            out << ToString(r.mode) << "," << ToString(r.policy) << "," << ToString(r.baseline)
                << "," << ToString(r.metric) << ","
                << study.Reduction(r.mode, r.policy, r.baseline, r.metric) << "," << r.percent
                << ",reduction_percent\n";
        }
    });
}

} // namespace

int
main(int argc, char* argv[])
{
    // RunMoseProgram checks --RngRun/--RngSeed and empty or bad option values before ns-3 sees
    // them, and reports every error (bad input, out of memory) with exit status 1
    return RunMoseProgram("mose-paper", argc, argv, {"biregular", "plot", "progress"}, [&]() {
        MoseScenarioOptions options; // the scenario options of every mose program
        std::string outputDir = "results/mose-paper";
        bool plot = true;
        bool progress = true;

        CommandLine cmd(__FILE__);
        options.AddOptions(cmd);
        AddTextOption(cmd, "outputDir", "folder for CSV files and figures", outputDir);
        cmd.AddValue("plot", "write Figure 5 as gnuplot scripts and render them", plot);
        cmd.AddValue("progress", "show progress on standard error", progress);
        cmd.Parse(argc, argv);
        // no ns-3 object of the module is created: a --ns3::Mose... attribute would be ignored
        RejectModuleAttributes("mose-paper");

        MoseFlowExperimentConfig config = options.GetConfig();
        uint32_t threads =
            config.threads != 0 ? config.threads : std::thread::hardware_concurrency();
        CheckStudyMemory(config, std::max<uint32_t>(1, std::min(config.seeds, threads)));
        CheckOutputFolder("--outputDir", outputDir);
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
        MoseStudyReport report(helper);
        report.PrintTables(std::cout);
        PrintHeadline(helper, std::cout);
        report.WriteCsv(outputDir);
        WriteHeadlineCsv(helper, outputDir);
        std::cout << "\nCSV files written to " << outputDir << "/\n";
        if (plot)
        {
            std::vector<std::string> scripts = report.WritePlots(outputDir);
            uint32_t rendered = MoseStudyReport::RenderPlots(outputDir, scripts);
            std::cout << scripts.size() << " gnuplot scripts written, " << rendered
                      << " rendered to PNG in " << outputDir << "/\n";
        }
        std::cout << "study time: " << evaluateSeconds << " s (" << config.seeds
                  << " seeds), total " << elapsed() << " s\n";
    });
}
