/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-llm: LLM workloads at the packet level. Inference requests (a trace or the generator)
 * are placed on the current mode's prefill and decode groups, computed and their KV caches
 * moved as one transfer each; a training job iterates compute + collective over the current
 * training groups. The four policies run on the same requests and run; per policy it prints
 * KV transfer time and TTFT, iteration and collective time, requests served, iterations done,
 * losses and (MoSE) the switch records, and writes requests.csv, iterations.csv,
 * intervals.csv. MoseLlmExperiment does the work (see doc/mose.rst, "LLM workloads").
 *
 * By default it runs a regime map instead (MoseLlmRegimeMap): the same workload at several
 * request rates (--loads), mode-interval lengths (--intervals) and OCS dark times
 * (--darkTimes), the four policies per cell on the same trace and run, who wins by mean and P99
 * TTFT and by mean iteration time, MoSE's margin against the best static policy, and the
 * flow-level break-even next to each cell; it writes regime_map.csv and regime_map.plt.
 *
 *   mose-llm                                         # the regime map at N=64
 *   mose-llm --map=false                             # one experiment, N=64, 4 policies
 *   mose-llm --map=false --trace=examples/traces/azure-sample.csv --placement=least-outstanding
 *   mose-llm --map=false --collective=ring-all-reduce --model=llama-3-8b --scale=1000
 *   mose-llm --map=false --schedule=threshold --enterLoad=150 --exitLoad=50
 */

#include "ns3/core-module.h"
#include "ns3/mose-attribute.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-llm-experiment.h"
#include "ns3/mose-llm-regime-map.h"
#include "ns3/mose-llm-request.h"
#include "ns3/mose-mode-controller.h"
#include "ns3/mose-model-shape.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-program.h"
#include "ns3/mose-random.h"
#include "ns3/mose-study-report.h"
#include "ns3/mose-switch-experiment.h"

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// a trace by its extension: .csv Azure, .jsonl/.json Mooncake
std::vector<LlmRequest>
ReadTrace(const std::string& path)
{
    const std::string ext = std::filesystem::path(path).extension().string();
    if (ext == ".csv")
    {
        return ReadAzureTraceCsv(path);
    }
    if (ext == ".jsonl" || ext == ".json")
    {
        return ReadMooncakeTraceJsonl(path);
    }
    ThrowBadParameter("--trace", path, "a file ending in .csv (Azure) or .jsonl (Mooncake)");
}

std::string
Ms(double seconds)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << seconds * 1e3;
    return os.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMoseProgram(
        "mose-llm",
        argc,
        argv,
        {"ShowProgress", "training", "jumbo", "map", "reuseConnections"},
        [&]() {
            std::string nodesText = "64";
            std::string traceFile;
            std::string rateText;     // single run: 100
            std::string requestsText; // single run: 120
            std::string promptText;   // generator: 2048
            std::string modelText = "mixtral-8x7b";
            std::string placementText = "circuit-aware";
            std::string collectiveText = "all-to-all";
            std::string tokensPerMemberText = "16384";
            std::string computeText = "20ms";
            std::string prefillText = "2000000";
            std::string hostRateText; // 1600Gbps unless --ns3::MoseTopologyHelper::HostDataRate
            std::string scheduleText; // single run: the default below
            const std::string defaultSchedule =
                "inference-heavy:0.5s,training-heavy:0.5s,inference-heavy:0.5s";
            std::string loadsText = "25,800";
            std::string intervalsText = "100ms,400ms";
            std::string darkTimesText = "10ms";
            std::string cyclesText = "1";
            std::string toleranceText = "0.02";
            std::string flowFlowsText = "20000";
            bool map = true;
            std::string
                endText; // threshold switching only (a schedule of periods ends with its last)
            std::string periodText = "100ms";
            std::string windowText = "200ms";
            std::string dwellText = "400ms";
            std::string enterText = "150";
            std::string exitText = "50";
            std::string scaleText = "2000";
            std::string policiesText = "MoSE,S-Train,S-Inf,S-Comp";
            std::string outputDir = "results/mose-llm";
            bool training = true;
            bool jumbo = false;
            bool reuseConnections = true;
            bool showProgress = false;

            CommandLine cmd(__FILE__);
            cmd.Usage("LLM workloads at the packet level (see doc/mose.rst, LLM workloads). The "
                      "switch: --ns3::MoseModeSwitcher::Phases, ::Drain, ::ReconfigurationDelay; "
                      "the transport: --ns3::MoseSocketTransfers::SocketFactory, ::TcpVariant.");
            cmd.AddValue("nodes", "number of groups N", nodesText);
            cmd.AddValue("trace",
                         "request trace: Azure CSV (.csv) or Mooncake (.jsonl)",
                         traceFile);
            cmd.AddValue("map",
                         "run the regime map (true) or one experiment of the four policies (false)",
                         map);
            cmd.AddValue("loads",
                         "map: offered loads, requests per second, comma-separated",
                         loadsText);
            AddTextOption(cmd,
                          "intervals",
                          "map: mode-interval lengths T, durations, comma-separated",
                          intervalsText);
            AddTextOption(
                cmd,
                "darkTimes",
                "map: OCS dark times (MoseModeSwitcher ReconfigurationDelay), comma-separated",
                darkTimesText);
            cmd.AddValue("cycles",
                         "map: cycles of (inference-heavy T, training-heavy T)",
                         cyclesText);
            std::string trainingLoadText = "1";
            cmd.AddValue("trainingLoad",
                         "map: the offered load in training-heavy intervals as a share of the load",
                         trainingLoadText);
            cmd.AddValue("tolerance", "map: relative difference counted as a tie", toleranceText);
            cmd.AddValue("flowLevelFlows",
                         "map: flows per mode of the flow-level break-even (0: not computed)",
                         flowFlowsText);
            cmd.AddValue(
                "rate",
                "one experiment: generator requests per second (without --trace; default 100)",
                rateText);
            cmd.AddValue("requests",
                         "one experiment: generator requests (default 120)",
                         requestsText);
            cmd.AddValue("promptMean",
                         "generator: mean prompt tokens (without --trace; default 2048)",
                         promptText);
            cmd.AddValue("model",
                         "model preset: llama-3-8b, llama-3-70b, mixtral-8x7b, deepseek-v3",
                         modelText);
            cmd.AddValue("placement",
                         "round-robin, least-outstanding or circuit-aware",
                         placementText);
            cmd.AddValue("training", "run a training job", training);
            cmd.AddValue("collective", "all-to-all (MoE) or ring-all-reduce", collectiveText);
            cmd.AddValue("tokensPerMember", "all-to-all: tokens per member", tokensPerMemberText);
            cmd.AddValue("compute", "compute time per training iteration", computeText);
            cmd.AddValue("prefillRate", "prefill tokens per second per group", prefillText);
            AddTextOption(cmd,
                          "hostRate",
                          "host link rate of a group, before --scale (default 1600Gbps, the "
                          "group's 4 circuits of 400 Gb/s, unless "
                          "--ns3::MoseTopologyHelper::HostDataRate is given)",
                          hostRateText);
            AddTextOption(cmd,
                          "schedule",
                          "one experiment: mode periods MODE:DURATION,... (the run ends with the "
                          "last; default " +
                              defaultSchedule +
                              "), or 'threshold' (a ModeController on the requests per second)",
                          scheduleText);
            cmd.AddValue("end", "threshold: the run ends here (default 1.5s)", endText);
            cmd.AddValue("period", "threshold: decision period", periodText);
            cmd.AddValue("window", "threshold: sliding window", windowText);
            cmd.AddValue("dwell", "threshold: least time between switches", dwellText);
            cmd.AddValue("enterLoad", "threshold: requests/s to enter inference-heavy", enterText);
            cmd.AddValue("exitLoad", "threshold: requests/s to leave inference-heavy", exitText);
            cmd.AddValue("scale", "divides link rates and byte counts together", scaleText);
            cmd.AddValue("jumbo", "MTU 9000 ports and TCP SegmentSize 8948", jumbo);
            cmd.AddValue("reuseConnections",
                         "collectives keep one TCP connection per ordered member pair while the "
                         "member set stays (false: one connection per chunk and iteration)",
                         reuseConnections);
            cmd.AddValue("policies", "comma-separated policies to run", policiesText);
            AddTextOption(cmd, "outputDir", "folder for the CSV files and figures", outputDir);
            cmd.AddValue("ShowProgress", "print progress while simulating", showProgress);
            cmd.Parse(argc, argv);

            MoseLlmExperimentConfig config =
                MoseLlmExperimentConfig::Scaled(ParseUnsigned32("--nodes", nodesText));
            const ModelShape shape =
                ModelShape::FromPreset(ParseEnum<ModelPreset>(modelText, "--model"));
            config.kvBytesPerToken = shape.GetKvBytesPerToken();
            config.placement = ParseEnum<PlacementRule>(placementText, "--placement");
            config.prefillTokensPerSecond = ParseReal("--prefillRate", prefillText);
            if (!hostRateText.empty() ||
                !IsAttributeDefaultSet(TypeId::LookupByName("ns3::MoseTopologyHelper"),
                                       "HostDataRate"))
            {
                // a user's --ns3::MoseTopologyHelper::HostDataRate alone wins (Scaled() took
                // it); with --hostRate too, the experiment refuses two different values
                DataRateValue rate;
                const std::string text = hostRateText.empty() ? "1600Gbps" : hostRateText;
                if (!rate.DeserializeFromString(text, MakeDataRateChecker()) ||
                    rate.Get().GetBitRate() == 0)
                {
                    ThrowBadParameter("--hostRate",
                                      QuoteText(text),
                                      "a data rate above 0 such as 1600Gbps");
                }
                config.hostRate = rate.Get();
            }
            config.training = training;
            config.collective = ParseEnum<CollectiveKind>(collectiveText, "--collective");
            if (config.collective == CollectiveKind::ALL_TO_ALL)
            {
                AllToAllSizing sizing;
                sizing.tokensPerMember = ParseUnsigned64("--tokensPerMember", tokensPerMemberText);
                config.collectiveBytes = MoeAllToAllBytes(shape, sizing).bytesPerOperation;
            }
            else
            {
                AllReduceSizing sizing;
                sizing.tensorParallel = 8;
                config.collectiveBytes = GradientAllReduceBytes(shape, sizing);
            }
            config.computeTime = MoseSwitchExperiment::ParseDuration("--compute", computeText);
            config.scale = ParseUnsigned64("--scale", scaleText);
            config.jumbo = jumbo;
            config.reuseConnections = reuseConnections;
            config.run = RngSeedManager::GetRun();
            const std::vector<Policy> policies = ParseEnumList<Policy>(policiesText, "--policies");
            CheckOutputFolder("--outputDir", outputDir);
            if (map)
            {
                // the map generates its own requests and schedule per cell: the single run's
                // options would not be used
                for (const auto& [name, text] :
                     std::vector<std::pair<std::string, std::string>>{{"--trace", traceFile},
                                                                      {"--rate", rateText},
                                                                      {"--requests", requestsText},
                                                                      {"--schedule", scheduleText},
                                                                      {"--end", endText}})
                {
                    if (!text.empty())
                    {
                        ThrowBadParameter(name,
                                          QuoteText(text),
                                          "only with --map=false: the regime map generates the "
                                          "requests of each --loads rate and alternates the modes "
                                          "for each of --intervals");
                    }
                }
                MoseLlmRegimeMapConfig m;
                m.base = config;
                m.generator.input.mean =
                    ParseReal("--promptMean", promptText.empty() ? "2048" : promptText);
                m.loads = ParseLoadList("--loads", loadsText);
                m.intervals = ParseDurationList("--intervals", intervalsText, false);
                m.darkTimes = ParseDurationList("--darkTimes", darkTimesText, true);
                m.cycles = ParseUnsigned32("--cycles", cyclesText);
                m.trainingLoadShare = ParseReal("--trainingLoad", trainingLoadText);
                m.tolerance = ParseReal("--tolerance", toleranceText);
                m.flowLevelFlows = ParseUnsigned64("--flowLevelFlows", flowFlowsText);
                m.policies = policies;
                MoseLlmRegimeMap study(m);
                std::cout << "mose-llm regime map: N=" << config.scenario.nodes << ", "
                          << shape.name << " (" << config.kvBytesPerToken << " B/token), placement "
                          << ToString(config.placement) << ", scale " << config.scale << ", run "
                          << config.run << "\n";
                SystemWallClockMs clock;
                clock.Start();
                study.Run(
                    [&](uint32_t done, uint32_t total, const std::string& what) {
                        if (showProgress && !what.empty())
                        {
                            std::cerr << "[mose-llm] run " << done + 1 << "/" << total << ": "
                                      << what << ", " << std::fixed << std::setprecision(1)
                                      << static_cast<double>(clock.End()) / 1000.0 << " s wall"
                                      << std::defaultfloat << std::setprecision(6) << std::endl;
                        }
                    },
                    showProgress);
                const double wall = static_cast<double>(clock.End()) / 1000.0;
                std::cout << "\n";
                study.PrintTable(std::cout);
                std::cout << "\n" << study.GetVerdict();
                WriteTextFile(outputDir + "/regime_map.csv",
                              [&](std::ostream& os) { study.WriteCsv(os); });
                WriteTextFile(outputDir + "/regime_map.plt",
                              [&](std::ostream& os) { study.WritePlot(os); });
                const uint32_t rendered =
                    MoseStudyReport::RenderPlots(outputDir, {"regime_map.plt"});
                std::cout << "\nwrote " << outputDir << "/regime_map.csv and regime_map.plt"
                          << (rendered ? " (rendered to regime_map.png)" : "") << "\n"
                          << std::setprecision(3) << "wall time " << wall << " s, "
                          << study.GetEvents() << " events, "
                          << (study.GetWallSeconds() > 0
                                  ? static_cast<double>(study.GetEvents()) / study.GetWallSeconds()
                                  : 0)
                          << " events per wall second of simulation\n";
                return;
            }
            if (scheduleText.empty())
            {
                scheduleText = defaultSchedule;
            }
            if (!traceFile.empty())
            {
                // the trace gives the requests: the generator's options would not be used
                for (const auto& [name, text] :
                     std::vector<std::pair<std::string, std::string>>{{"--requests", requestsText},
                                                                      {"--rate", rateText},
                                                                      {"--promptMean", promptText}})
                {
                    if (!text.empty())
                    {
                        ThrowBadParameter(name,
                                          QuoteText(text),
                                          "only without --trace: the requests, their arrival "
                                          "times and prompt lengths come from --trace=" +
                                              traceFile);
                    }
                }
            }
            if (traceFile.empty())
            {
                LlmRequestGeneratorOptions g;
                g.requests =
                    ParseUnsigned64("--requests", requestsText.empty() ? "120" : requestsText);
                g.rate = ParseReal("--rate", rateText.empty() ? "100" : rateText);
                g.input.mean = ParseReal("--promptMean", promptText.empty() ? "2048" : promptText);
                MoseRandom rng = MoseRandom::Create(config.run, MoseStream::LLM_REQUESTS);
                config.requests = GenerateLlmRequests(g, rng);
            }
            else
            {
                config.requests = ReadTrace(traceFile);
            }
            if (scheduleText == "threshold")
            {
                config.end =
                    MoseSwitchExperiment::ParseDuration("--end",
                                                        endText.empty() ? "1.5s" : endText);
                ModeControllerOptions o;
                o.windowNs =
                    MoseSwitchExperiment::ParseDuration("--window", windowText).GetNanoSeconds();
                o.minDwellNs =
                    MoseSwitchExperiment::ParseDuration("--dwell", dwellText).GetNanoSeconds();
                o.enterInferenceLoad = ParseReal("--enterLoad", enterText);
                o.exitInferenceLoad = ParseReal("--exitLoad", exitText);
                o.initialMode = WorkloadMode::INFERENCE_HEAVY;
                config.schedule = MoseLlmExperiment::ThresholdSchedule(
                    config.requests,
                    o,
                    MoseSwitchExperiment::ParseDuration("--period", periodText),
                    config.end,
                    config.initialMode);
            }
            else
            {
                if (!endText.empty())
                {
                    ThrowBadParameter("--end",
                                      QuoteText(endText),
                                      "only with --schedule=threshold: a schedule of periods ends "
                                      "with its last period");
                }
                config.SetSchedule(ParseSchedule("--schedule", scheduleText));
            }

            std::ostringstream requestsCsv;
            std::ostringstream iterationsCsv;
            std::ostringstream intervalsCsv;
            std::cout << "mose-llm: N=" << config.scenario.nodes << ", " << config.requests.size()
                      << " requests, " << shape.name << " (" << config.kvBytesPerToken
                      << " B/token), placement " << ToString(config.placement) << ", "
                      << (training ? ToString(config.collective) + " of " +
                                         std::to_string(config.collectiveBytes) + " B per member"
                                   : std::string("no training"))
                      << ", scale " << config.scale << ", schedule "
                      << FormatSchedule(config.GetSchedulePeriods()) << ", run " << config.run
                      << "\n\n";
            std::cout << std::left << std::setw(8) << "policy" << std::right << std::setw(8)
                      << "served" << std::setw(10) << "kv_mean" << std::setw(9) << "kv_p50"
                      << std::setw(9) << "kv_p99" << std::setw(10) << "ttft_mean" << std::setw(10)
                      << "ttft_p50" << std::setw(10) << "ttft_p99" << std::setw(7) << "iters"
                      << std::setw(10) << "iter_mean" << std::setw(10) << "iter_p99"
                      << std::setw(10) << "coll_mean" << std::setw(10) << "coll_p99" << std::setw(6)
                      << "lost" << std::setw(8) << "wall_s" << std::setw(11) << "events/s"
                      << "   (times in ms)\n";
            std::vector<MoseSwitchRecord> moseSwitches;
            bool first = true;
            for (Policy policy : policies)
            {
                MoseLlmExperimentConfig c = config;
                c.policy = policy;
                MoseLlmExperiment experiment(c);
                experiment.Build();
                experiment.Run(showProgress);
                const MoseLlmSummary s = experiment.GetSummary();
                experiment.WriteRequestsCsv(requestsCsv, first);
                experiment.WriteIterationsCsv(iterationsCsv, first);
                experiment.WriteIntervalsCsv(intervalsCsv, first);
                first = false;
                if (policy == Policy::MOSE)
                {
                    moseSwitches = experiment.GetSwitchRecords();
                }
                std::cout << std::left << std::setw(8) << ToString(policy) << std::right
                          << std::setw(8)
                          << (std::to_string(s.served) + "/" + std::to_string(s.requests))
                          << std::setw(10) << Ms(s.kvMeanS) << std::setw(9) << Ms(s.kvP50S)
                          << std::setw(9) << Ms(s.kvP99S) << std::setw(10) << Ms(s.ttftMeanS)
                          << std::setw(10) << Ms(s.ttftP50S) << std::setw(10) << Ms(s.ttftP99S)
                          << std::setw(7) << s.iterations << std::setw(10) << Ms(s.iterMeanS)
                          << std::setw(10) << Ms(s.iterP99S) << std::setw(10) << Ms(s.collMeanS)
                          << std::setw(10) << Ms(s.collP99S) << std::setw(6) << s.lost
                          << std::setw(8) << std::fixed << std::setprecision(1) << s.wallSeconds
                          << std::setw(11) << std::setprecision(0)
                          << (s.wallSeconds > 0 ? static_cast<double>(s.events) / s.wallSeconds : 0)
                          << std::defaultfloat << std::setprecision(6);
                if (s.errors > 0)
                {
                    std::cout << "  (" << s.errors << " errors inside the run)";
                }
                std::cout << std::endl;
            }
            if (!moseSwitches.empty())
            {
                std::cout << "\nMoSE switches:\n";
                for (const auto& r : moseSwitches)
                {
                    std::cout << "  #" << r.index << " " << ToString(r.from) << " -> "
                              << ToString(r.to) << " at " << r.start.GetSeconds()
                              << " s: " << r.removed << " removed, " << r.added << " added, "
                              << r.kept << " kept, duration " << Ms(r.GetDuration().GetSeconds())
                              << " ms (drain " << Ms(r.drainTime.GetSeconds()) << ", dark "
                              << Ms(r.darkTime.GetSeconds()) << "), " << r.packetsHeld
                              << " packets held, " << r.lost << " lost"
                              << (r.done ? "" : " (not finished)") << "\n";
                }
            }
            WriteTextFile(outputDir + "/requests.csv",
                          [&](std::ostream& os) { os << requestsCsv.str(); });
            WriteTextFile(outputDir + "/iterations.csv",
                          [&](std::ostream& os) { os << iterationsCsv.str(); });
            WriteTextFile(outputDir + "/intervals.csv",
                          [&](std::ostream& os) { os << intervalsCsv.str(); });
            std::cout << "\nwrote " << outputDir << "/{requests,iterations,intervals}.csv\n"
                      << "TTFT = KV end - arrival (queueing + prefill + KV transfer); decode-side "
                         "token streaming is not modelled.\n";
        });
}
