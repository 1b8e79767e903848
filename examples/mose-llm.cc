/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-llm: LLM workloads at the packet level, or at the fluid level (--level=fluid; --level=both
 * compares the two). Inference requests (a trace or the generator)
 * are placed on the current mode's prefill and decode groups, computed and their KV caches
 * moved as one transfer each; a training job iterates compute + collective over the current
 * training groups. With --map=false the policies run on the same requests and run
 * (LlmComparison): per policy KV transfer time and TTFT, iteration and collective time,
 * requests served, iterations done, losses and (MoSE) the switch records; requests.csv,
 * iterations.csv, intervals.csv; with --kvExport=PATH the KV transfer of each served request,
 * keyed by the trace's request ids, for a serving simulator to join back (CSV or JSON lines).
 * A trace may be of any form mose::ReadLlmTrace() reads (Azure, Mooncake, Vidur, SplitwiseSim,
 * LLMServingSim, BurstGPT), detected from its header or first line or given by --traceFormat.
 *
 * By default it runs a regime map instead (LlmRegimeMap): the same workload at several
 * request rates (--loads), mode-interval lengths (--intervals) and OCS dark times
 * (--darkTimes), the policies per cell on the same trace and run (on each of --seeds), who
 * wins by mean and P99 TTFT and by mean iteration time, MoSE's margin against the best static
 * policy, and the flow-level break-even next to each cell; regime_map.csv and regime_map.plt
 * (rendered to regime_map.png with gnuplot unless --plot=false).
 * The options (LlmOptions) include every mose program's scenario options
 * (ScenarioOptions); see doc/mose.rst, "LLM workloads".
 *
 *   mose-llm                                         # the regime map at N=64
 *   mose-llm --seeds=3                               # the map's verdict over runs 1, 2, 3
 *   mose-llm --seeds=3 --jobs=2                      # the same map on two workers
 *   mose-llm --seeds=3 --part=2/4 --outputDir=D      # part 2 of 4 (a Slurm array task)
 *   mose-llm --seeds=3 --merge=D --outputDir=M       # the map from the parts' records
 *   mose-llm --map=false                             # one experiment, N=64, 4 policies
 *   mose-llm --map=false --jobs=2                    # its policies on two workers
 *   mose-llm --map=false --part=1/2 --outputDir=D    # half of its runs; then --merge=D
 *   mose-llm --map=false --trace=examples/traces/azure-sample.csv --placement=least-outstanding
 *   mose-llm --map=false --policies=MoSE --trace=examples/traces/splitwise-sample.csv \
 *            --kvExport=kv_export.csv                # the network backend of a serving simulator
 *   mose-llm --map=false --collective=ring-all-reduce --model=llama-3-8b --scale=1000
 *   mose-llm --map=false --schedule=threshold --enterLoad=150 --exitLoad=50
 *   mpirun -np 2 mose-llm --map=false --policies=MoSE --distributed   # ns-3 tree with MPI
 */

#include "mose-llm-comparison.h"
#include "mose-llm-level-validation.h"
#include "mose-llm-options.h"
#include "mose-llm-regime-map.h"
#include "mose-llm-validated-regime.h"
#include "mose-option-scope.h"
#include "mose-program.h"
#include "mose-run-options.h"

#include "ns3/core-module.h"

#include <filesystem>
#include <iostream>
#include <optional>

using namespace ns3;
using namespace ns3::mose;

int
main(int argc, char* argv[])
{
    // the scaffold: --outputDir, --plot, --progress (off by default); every error is a message
    // and exit status 1
    Program program("mose-llm",
                    "results/mose-llm",
                    Program::PACKET_LEVEL | Program::PLOT | Program::PROGRESS_OFF |
                        Program::DISTRIBUTED);
    return program.Run(argc, argv, [&]() {
        LlmOptions options;
        CommandLine& cmd = program.GetCommandLine();
        cmd.Usage("LLM workloads at the packet level, or the fluid level with --level (see "
                  "doc/mose.rst, LLM workloads and Fluid level). The "
                  "scenario options are those of every mose program. The switch: "
                  "--ns3::MoseModeSwitcher::Phases, ::Drain, ::ReconfigurationDelay; the "
                  "transport: --transport=tcp|rdma, then --ns3::MoseSocketTransfers::TcpVariant "
                  "or --ns3::MoseRdmaTransport::RetxMode and the like.");
        options.AddOptions(cmd);
        RunOptions runs;
        runs.AddOptions(cmd);
        program.AddOutputOptions("folder for the CSV files and figures",
                                 "render the map's regime_map.plt to regime_map.png with gnuplot "
                                 "(the script is written either way; --map=false writes CSV "
                                 "files only)",
                                 "print progress while simulating");
        program.Parse(argc, argv);
        options.Read();
        // the map and the comparison (--map=false) are lists of runs; a comparison with a rate
        // epoch runs in one process, each fluid run beside its exact-rate run
        const bool epoch = !options.IsMap() &&
                           options.GetExperimentConfig().llm.fluidRateEpoch.IsStrictlyPositive();
        runs.Read(!epoch,
                  "--rateEpoch runs each fluid-level run beside its exact-rate run, in one "
                  "process");
        // an option that would not act at these levels or in this mode is refused (the table
        // of doc/mose.rst, Where each option acts)
        CheckOptionScopes("mose-llm",
                          GivenOptions(argc, argv),
                          options.GetLevelPlaces(),
                          options.GetModePlaces());
        CheckPacketOnlyAttributes(options.GetLevelPlaces(), std::cerr);
        // the map: a list of independent runs (LlmMapRunner), carried out here on --jobs
        // workers, or a share of it (--runs, --part), or put together from parts (--merge);
        // on MPI ranks one run of it, as a Slurm array task per run does
        std::optional<LlmMapRunner> runner;
        if (options.IsMap())
        {
            runner.emplace(options.GetMapConfig(), options.GetLevels());
        }
        std::optional<LlmComparison> comparison;
        if (!options.IsMap())
        {
            comparison.emplace(options.GetExperimentConfig(),
                               options.GetPolicies(),
                               options.GetLevels());
        }
        const uint32_t mapRuns =
            runs.CountRuns(runner ? runner->GetTotal() : comparison->GetTotal());
        program.CheckOneSimulation(
            mapRuns > 1,
            options.IsMap() ? "this process would carry out " + std::to_string(mapRuns) +
                                  " runs of the regime map"
                            : "this process would carry out " + std::to_string(mapRuns) +
                                  " runs of the comparison (--policies, --level)",
            options.IsMap() ? "one run of the map, e.g. --runs=0 (a Slurm array task per run: "
                              "utils/mose-slurm.sh --mpi), or --map=false --policies=MoSE"
                            : "one run of the comparison, e.g. --runs=0, or --map=false "
                              "--policies=MoSE");
        // the files read and written, so that no output replaces an input or another output
        program.AddInput("--trace", options.GetTrace());
        for (const auto& [option, path] : options.GetTrainingInputs())
        {
            program.AddInput(option, path);
        }
        program.AddScenarioInputs(options.IsMap() ? options.GetMapConfig().base.scenario
                                                  : options.GetExperimentConfig().scenario);
        for (const std::string& folder : runs.GetMergeFolders())
        {
            std::error_code ec;
            for (const auto& entry : std::filesystem::directory_iterator(folder + "/runs", ec))
            {
                program.AddInput("--merge", entry.path().string());
            }
        }
        // the program's own files first, so that an option given on top is the one named
        if (!options.IsMap())
        {
            program.AddOutputFiles({"requests.csv", "iterations.csv", "intervals.csv"});
            if (!options.GetTrainingInputs().empty())
            {
                program.AddOutputFiles({"collectives.csv"}); // a training plan's collectives
            }
        }
        else
        {
            const std::vector<LlmLevel>& levels = options.GetLevels();
            for (const LlmLevel level : levels)
            {
                const std::string sub = levels.size() > 1 ? ToString(level) + "/" : "";
                program.AddOutputFiles(
                    {sub + "regime_map.csv", sub + "regime_map.plt", sub + "regime_map.png"});
            }
            if (levels.size() == 2)
            {
                program.AddOutputFiles({"level_validation.csv"});
            }
        }
        program.AddOutput("--kvExport", options.GetKvExport());
        program.CheckOutput();
        const std::string& outputDir = program.GetOutputDir();
        const bool showProgress = program.IsShowingProgress();

        if (!options.IsMap())
        {
            if (runs.IsListing())
            {
                comparison->WriteList(std::cout);
                return;
            }
            if (!options.GetKvExport().empty())
            {
                comparison->KeepKvExport(options.IsKvExportJson());
            }
            std::cout << options.GetTitle() << "\n";
            if (!options.GetTraceNote().empty())
            {
                std::cout << options.GetTraceNote() << "\n";
            }
            if (!options.GetClockNote().empty())
            {
                std::cout << options.GetClockNote() << "\n";
            }
            std::cout << "\n";
            // its runs (level x policy) as a list, as the map's: --jobs, --part, --merge
            // --kvExport names where the export goes, which is no run's figure: the records
            // carry whether and how it is written (a file per run), not the path
            std::vector<std::string> ignored = RunOptions::GetIgnored();
            ignored.emplace_back("--kvExport");
            const std::string kv = options.GetKvExport().empty() ? "none"
                                   : options.IsKvExportJson()    ? "jsonl"
                                                                 : "csv";
            if (epoch)
            {
                comparison->Run(std::cout, showProgress); // no records: see runs.Read() above
            }
            else if (!comparison->Run(runs.Get(outputDir,
                                               StudyOptionsText(argc, argv, ignored) +
                                                   " (KV export: " + kv + ")",
                                               showProgress),
                                      std::cout,
                                      showProgress))
            {
                return;
            }
            comparison->PrintSwitches(std::cout);
            // a fluid or aggregate answer carries the validation suite's error (issue 41)
            PrintValidatedRegimes(std::cout,
                                  options.GetExperimentConfig(),
                                  {MeanRequestRate(options.GetExperimentConfig().llm.requests)},
                                  options.GetLevels());
            comparison->WriteCsv(outputDir);
            std::cout << "\nwrote " << outputDir << "/{requests,iterations,intervals}.csv\n"
                      << "TTFT = KV end - arrival (queueing + prefill + KV transfer); decode-side "
                         "token streaming is not modelled.\n";
            if (!options.GetKvExport().empty())
            {
                comparison->WriteKvExport(options.GetKvExport());
                std::cout << "wrote " << options.GetKvExport()
                          << ": the KV transfer of each served request, keyed by the trace's "
                             "request ids (doc/mose.rst, Network backend for serving "
                             "simulators)\n";
            }
            return;
        }
        if (runs.IsListing())
        {
            runner->WriteList(std::cout);
            return;
        }
        std::cout << options.GetTitle() << "\n";
        if (runner->Run(runs.Get(outputDir,
                                 StudyOptionsText(argc, argv, RunOptions::GetIgnored()),
                                 showProgress),
                        std::cout))
        {
            WriteLlmMapLevels(runner->GetMaps(), outputDir, program.IsPlotting(), std::cout);
            std::cout << "\n";
            PrintValidatedRegimes(std::cout,
                                  options.GetMapConfig().base,
                                  options.GetMapConfig().loads,
                                  options.GetLevels());
        }
    });
}
