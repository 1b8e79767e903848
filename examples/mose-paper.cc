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
 * here, the comparison is MoseReferenceFigures'); writes CSV files (headline.csv: ours vs paper)
 * and Figure 5's panels as gnuplot scripts (rendered to PNG when gnuplot is installed).
 *
 *   ./mose-paper                          # the paper's defaults
 *   ./mose-paper --seeds=5 --RngRun=7     # seeds use runs 7..11
 *   ./mose-paper --routing=ecmp --completion=random --outputDir=results/ecmp
 *   ./mose-paper --PrintHelp              # every option
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/mose-flow-experiment-helper.h"
#include "ns3/mose-program.h"
#include "ns3/mose-reference-figures.h"
#include "ns3/mose-scenario-options.h"
#include "ns3/mose-study-report.h"

#include <iostream>

using namespace ns3;
using namespace ns3::mose;

namespace
{

using W = WorkloadMode;
using P = Policy;
using M = Metric;

/// Table I and the text of section IV (shares: absolute tolerance 0.05), and the abstract's
/// headline reductions (target: within 3 percentage points)
const MoseReferenceFigures PAPER{
    {
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
    },
    {
        {W::INFERENCE_HEAVY, P::MOSE, P::STATIC_TRAINING, M::KV_AVG_COST, 90.8},
        {W::INFERENCE_HEAVY, P::MOSE, P::STATIC_TRAINING, M::KV_P95_COST, 91.9},
        {W::TRAINING_HEAVY, P::MOSE, P::STATIC_INFERENCE, M::TR_AVG_COST, 22.7},
        {W::TRAINING_HEAVY, P::MOSE, P::STATIC_INFERENCE, M::TR_P95_COST, 27.6},
    },
    3.0,
    "paper"};

} // namespace

int
main(int argc, char* argv[])
{
    // the scaffold: options, memory and output checks, progress, plots; every error (bad input,
    // out of memory) is a message and exit status 1
    MoseProgram program("mose-paper",
                        "results/mose-paper",
                        MoseProgram::FLOW_LEVEL | MoseProgram::PLOT | MoseProgram::PROGRESS);
    return program.Run(argc, argv, {"biregular"}, [&]() {
        MoseScenarioOptions options; // the scenario options of every mose program
        CommandLine cmd(__FILE__);
        options.AddOptions(cmd);
        program.AddOutputOptions(cmd,
                                 "folder for CSV files and figures",
                                 "write Figure 5 as gnuplot scripts and render them",
                                 "show progress on standard error");
        program.Parse(cmd, argc, argv);

        const MoseFlowExperimentConfig config = options.GetConfig();
        program.CheckStudy(config);
        MoseFlowExperimentHelper helper(config);
        helper.Run(program.SeedProgress());
        const double studySeconds = program.GetElapsed();

        const std::string& dir = program.GetOutputDir();
        MoseStudyReport report(helper);
        report.PrintTables(std::cout);
        PAPER.Print(helper, std::cout);
        report.WriteCsv(dir);
        PAPER.WriteCsv(helper, dir + "/headline.csv");
        std::cout << "\nCSV files written to " << dir << "/\n";
        program.WritePlots([&](const std::string& d) { return report.WritePlots(d); },
                           "gnuplot scripts",
                           std::cout);
        std::cout << "study time: " << studySeconds << " s (" << config.seeds << " seeds), total "
                  << program.GetElapsed() << " s\n";
    });
}
