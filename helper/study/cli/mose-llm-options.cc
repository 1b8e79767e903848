/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-options.h"

#include "mose-level-options.h"
#include "mose-option-scope.h"
#include "mose-program.h"
#include "mose-switch-experiment.h"

#include "ns3/log.h"
#include "ns3/mose-aicb-workload.h"
#include "ns3/mose-break-even.h"
#include "ns3/mose-chakra-trace.h"
#include "ns3/mose-error.h"
#include "ns3/mose-format.h"
#include "ns3/mose-llm-trace.h"
#include "ns3/mose-mode-controller.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-random.h"
#include "ns3/queue-size.h"
#include "ns3/rng-seed-manager.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>
#include <tuple>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseLlmOptions");

namespace mose
{

namespace
{

/// the schedule of one experiment when --schedule is not given
const std::string DEFAULT_SCHEDULE =
    "inference-heavy:0.5s,training-heavy:0.5s,inference-heavy:0.5s";

/// Throws a mose::Error for the first of the (option, text) pairs whose text is not empty
void
RejectGiven(const std::vector<std::pair<std::string, std::string>>& options,
            const std::string& reason)
{
    for (const auto& [name, text] : options)
    {
        if (!text.empty())
        {
            mose::ThrowBadParameter(name, mose::QuoteText(text), reason);
        }
    }
}

/// --promptMean (default 2048 tokens): the generator draws each prompt from input.min to
/// input.max tokens, clamping what falls outside; a mean outside that range would clamp nearly
/// every prompt
double
ReadPromptMean(const std::string& text, const mose::TokenLengthDistribution& input)
{
    const std::string given = text.empty() ? "2048" : text;
    const double mean = mose::ParseReal("--promptMean", given);
    if (!(mean >= static_cast<double>(input.min) && mean <= static_cast<double>(input.max)))
    {
        mose::ThrowBadParameter(
            "--promptMean",
            mose::QuoteText(given),
            "a mean prompt length from " + std::to_string(input.min) + " to " +
                std::to_string(input.max) + " tokens (the generator clamps every prompt to " +
                std::to_string(input.min) + ".." + std::to_string(input.max) + " tokens)");
    }
    return mean;
}

/// Refuses a list of more than MAX_LIST_ITEMS items, before its items are read
void
CheckListSize(const std::string& parameter, const std::string& text, std::size_t items)
{
    if (items > MAX_LIST_ITEMS)
    {
        mose::ThrowBadParameter(parameter,
                                mose::QuoteText(text.substr(0, 40) + "..."),
                                "at most " + std::to_string(MAX_LIST_ITEMS) + " items (" +
                                    std::to_string(items) + " given)");
    }
}

/// Refuses a count of 0 (its upper limit is the machine's memory: CheckCountMemory())
void
CheckCount(const std::string& option, const std::string& value, uint64_t count)
{
    if (count == 0)
    {
        mose::ThrowBadParameter(option, value, "at least 1");
    }
}

/**
 * \param text --trainingTrace as given \param kind its form's prefix ("chakra:" or "aicb:")
 * \return the path after the prefix, if the text has that form and a path
 */
std::optional<std::string>
TrainingTracePath(const std::string& text, const std::string& kind)
{
    if (text.rfind(kind, 0) == 0 && text.size() > kind.size())
    {
        return text.substr(kind.size());
    }
    return std::nullopt;
}
} // namespace

std::vector<double>
ParseLoadList(const std::string& parameter, const std::string& text)
{
    std::vector<double> out;
    const std::vector<std::string> items =
        mose::SplitList(text, parameter, "the request rates (numbers > 0)");
    CheckListSize(parameter, text, items.size());
    for (const std::string& item : items)
    {
        const double v = mose::ParseReal(parameter, item);
        if (!(v > 0))
        {
            mose::ThrowBadParameter(parameter,
                                    mose::QuoteText(text),
                                    "request rates > 0 per second; " + mose::QuoteText(item) +
                                        " is not");
        }
        if (std::find(out.begin(), out.end(), v) != out.end())
        {
            mose::ThrowRepeatedItem(text, parameter, item);
        }
        out.push_back(v);
    }
    return out;
}

std::vector<Time>
ParseDurationList(const std::string& parameter, const std::string& text, bool allowZero)
{
    std::vector<Time> out;
    const std::vector<std::string> items =
        mose::SplitList(text, parameter, "the durations (e.g. 100ms)");
    CheckListSize(parameter, text, items.size());
    for (const std::string& item : items)
    {
        const Time v = ParseTimeOption(parameter, item);
        if (!allowZero && v <= Time(0))
        {
            mose::ThrowBadParameter(parameter,
                                    mose::QuoteText(text),
                                    "durations > 0; " + mose::QuoteText(item) + " is not");
        }
        if (std::find(out.begin(), out.end(), v) != out.end())
        {
            mose::ThrowRepeatedItem(text, parameter, item);
        }
        out.push_back(v);
    }
    return out;
}

namespace
{
/// mose-llm's scenario defaults; its seeds are a map's, whose memory ReadMap() checks
mose::ScenarioDefaults
LlmScenarioDefaults()
{
    mose::ScenarioDefaults defaults{64, 16, 1, 8};
    defaults.seedBytes = 0;
    return defaults;
}
} // namespace

LlmOptions::LlmOptions()
    : m_scenario(LlmScenarioDefaults(),
                 mose::ScenarioOptions::SEEDS | mose::ScenarioOptions::FABRIC)
{
    NS_LOG_FUNCTION(this);
}

void
LlmOptions::AddOptions(CommandLine& cmd)
{
    NS_LOG_FUNCTION(this);
    m_scenario.AddOptions(cmd);
    AddTraceOptions(cmd);
    AddMapOptions(cmd);
    AddWorkloadOptions(cmd);
    AddRunOptions(cmd);
}

void
LlmOptions::AddTraceOptions(CommandLine& cmd)
{
    cmd.AddValue("trace",
                 "request trace: Azure, Mooncake, Vidur, SplitwiseSim, LLMServingSim or BurstGPT "
                 "(the form detected, or --traceFormat)",
                 m_trace);
    cmd.AddValue("traceFormat",
                 "the trace's form: auto (detected from the header or first line), azure, "
                 "mooncake, vidur, vidur-replay, splitwise, llmservingsim, burstgpt",
                 m_traceFormat);
    mose::AddTextOption(cmd,
                        "traceModel",
                        "BurstGPT: keep only the requests of this Model (ChatGPT or GPT-4)",
                        m_traceModel);
    mose::AddTextOption(cmd,
                        "traceLogType",
                        "BurstGPT: keep only this Log Type (\"Conversation log\" or \"API log\")",
                        m_traceLogType);
    cmd.AddValue("traceFailed",
                 "BurstGPT: the failed requests (Response tokens 0): skip (default: left out "
                 "and counted) or keep (requests without output)",
                 m_traceFailed);
    cmd.AddValue("traceRequestType",
                 "SplitwiseSim: keep only this request_type (default 2, LLM inference)",
                 m_traceRequestType);
    mose::AddTextOption(cmd,
                        "traceDate",
                        "Vidur replay: keep only the rows of this Date (needed when the file "
                        "holds several)",
                        m_traceDate);
    mose::AddTextOption(cmd,
                        "traceStart",
                        "one experiment with --trace: where the run's time 0 is on the trace's "
                        "clock: first (its first request) or a time (e.g. 1200s; the requests "
                        "before it are left out); default 0, the trace's clock as written",
                        m_traceStart);
    mose::AddTextOption(cmd,
                        "stopTime",
                        "one experiment: the run ends here at the latest (default: the latest of "
                        "30 s, the schedule's end and the last arrival plus the time to serve "
                        "every request one after another; the run ends earlier once its work is "
                        "done)",
                        m_stopTime);
    cmd.AddValue("kvExport",
                 "one experiment: write what the fabric did with each served request, keyed by "
                 "the trace's request ids, to this file: CSV (.csv) or JSON lines (.jsonl)",
                 m_kvExport);
}

void
LlmOptions::AddMapOptions(CommandLine& cmd)
{
    mose::AddBoolOption(cmd,
                        "map",
                        "run the regime map (true) or one experiment of the four policies "
                        "(false)",
                        m_map);
    cmd.AddValue("loads", "map: offered loads, requests per second, comma-separated", m_loads);
    mose::AddTextOption(cmd,
                        "intervals",
                        "map: mode-interval lengths T, durations, comma-separated",
                        m_intervals);
    mose::AddTextOption(
        cmd,
        "darkTimes",
        "map: OCS dark times (MoseModeSwitcher ReconfigurationDelay), comma-separated",
        m_darkTimes);
    cmd.AddValue("cycles", "map: cycles of (inference-heavy T, training-heavy T)", m_cycles);
    cmd.AddValue("trainingLoadShare",
                 "map: the offered load in training-heavy intervals as a share of the load, (0, 1]",
                 m_trainingLoadShare);
    cmd.AddValue("tolerance", "map: relative difference counted as a tie", m_tolerance);
    cmd.AddValue("flowLevelFlows",
                 "map: flows per mode of the flow-level break-even (0: not computed)",
                 m_flowFlows);
}

void
LlmOptions::AddWorkloadOptions(CommandLine& cmd)
{
    cmd.AddValue("rate",
                 "one experiment: generator requests per second (without --trace; default 100)",
                 m_rate);
    cmd.AddValue("requests", "one experiment: generator requests (default 120)", m_requests);
    cmd.AddValue("promptMean",
                 "generator: mean prompt tokens (without --trace; default 2048)",
                 m_prompt);
    cmd.AddValue("model",
                 "model preset: llama-3-8b, llama-3-70b, mixtral-8x7b, deepseek-v3",
                 m_model);
    cmd.AddValue("placement", "round-robin, least-outstanding or circuit-aware", m_placement);
    mose::AddBoolOption(
        cmd,
        "trainingJob",
        "run a training job (the training role counts are --training, --trTraining)",
        m_trainingJob);
    mose::AddTextOption(cmd,
                        "collective",
                        "all-to-all (MoE) or ring-all-reduce",
                        m_collective,
                        m_collectiveGiven);
    mose::AddTextOption(cmd,
                        "tokensPerMember",
                        "all-to-all: tokens per member",
                        m_tokensPerMember,
                        m_tokensPerMemberGiven);
    mose::AddTextOption(cmd,
                        "trainingTrace",
                        "chakra:PATH or aicb:FILE: each training iteration is a Chakra "
                        "execution trace (a folder of PREFIX.R.et files, or the PREFIX) or a "
                        "SimAI/AICB workload file, its collectives decomposed as NCCL does; "
                        "instead of --collective and --tokensPerMember",
                        m_trainingTrace);
    mose::AddTextOption(cmd,
                        "rankMapping",
                        "with --trainingTrace: a file of lines \"rank member rail\" (default: "
                        "rank r on training group r / --hostsPerGroup, rail r mod "
                        "--hostsPerGroup)",
                        m_rankMapping,
                        m_rankMappingGiven);
    mose::AddTextOption(cmd,
                        "ncclChannels",
                        "with --trainingTrace: NCCL channels per collective, each on its own rail",
                        m_ncclChannels,
                        m_ncclChannelsGiven);
    mose::AddTextOption(cmd,
                        "ncclAlgorithm",
                        "with --trainingTrace: ring or tree (tree: all-reduce only)",
                        m_ncclAlgorithm,
                        m_ncclAlgorithmGiven);
    cmd.AddValue("compute", "compute time per training iteration", m_compute);
    cmd.AddValue("prefillRate", "prefill tokens per second per group", m_prefill);
    mose::AddTextOption(cmd,
                        "hostRate",
                        "rate of each host's link, before --scale (default d x the circuit "
                        "rate / --hostsPerGroup: the group's d circuits shared by its hosts, "
                        "8 x 400 Gb/s = 3200Gbps at the defaults, 400Gbps per host with 8 "
                        "hosts; unless --ns3::MoseTopologyHelper::HostDataRate is given)",
                        m_hostRate,
                        m_hostRateGiven);
    mose::AddTextOption(cmd,
                        "hostsPerGroup",
                        "G, endpoints per group, one per GPU or NIC: 1 the group node runs the "
                        "group's sockets; G >= 2 hosts, each on its own link at --hostRate, "
                        "KV transfers and collective parts spread over them by rail (as "
                        "--ns3::MoseTopologyHelper::HostsPerGroup)",
                        m_hostsPerGroup,
                        m_hostsPerGroupGiven);
}

void
LlmOptions::AddRunOptions(CommandLine& cmd)
{
    mose::AddTextOption(cmd,
                        "schedule",
                        "one experiment: mode periods MODE:DURATION,... (the run ends with the "
                        "last; default " +
                            DEFAULT_SCHEDULE +
                            "), or 'threshold' (a ModeController on the requests per second)",
                        m_schedule);
    cmd.AddValue("end", "threshold: the run ends here (default 1.5s)", m_end);
    cmd.AddValue("period", "threshold: decision period", m_period);
    cmd.AddValue("window", "threshold: sliding window", m_window);
    cmd.AddValue("dwell", "threshold: least time between switches", m_dwell);
    cmd.AddValue("enterLoad", "threshold: requests/s to enter inference-heavy", m_enter);
    cmd.AddValue("exitLoad", "threshold: requests/s to leave inference-heavy", m_exit);
    cmd.AddValue("scale",
                 "divides link rates and byte counts together (the global value MoseScale "
                 "while the run is built; a --MoseScale that differs is refused)",
                 m_scale);
    mose::AddBoolOption(cmd,
                        "jumbo",
                        "MTU 9000 ports, and TCP SegmentSize 8948 or RDMA PayloadSize 4096",
                        m_jumbo);
    m_transportOptions.AddOptions(cmd, "the workloads'", true); // rdma by default
    cmd.AddValue("noticeDelay",
                 "how long after a transfer's last byte the workloads learn of it (default: "
                 "twice the smallest link delay; on several MPI ranks it must exceed the "
                 "smallest link delay)",
                 m_noticeDelay);
    mose::AddBoolOption(cmd,
                        "reuseConnections",
                        "collectives keep one TCP connection per ordered member pair while the "
                        "member set stays (false: one connection per chunk and iteration)",
                        m_reuseConnections);
    cmd.AddValue("policies", "comma-separated policies to run", m_policiesText);
    cmd.AddValue("level",
                 "packet (ns-3 packets), fluid (max-min fair fluid flows on the same routes, no "
                 "Simulator), aggregate (the fluid level with each all-to-all as one flow of "
                 "transfers that progress together: for N in the thousands), both (packet,fluid: "
                 "side by side, with their differences) or two levels A,B (B compared with A, "
                 "e.g. fluid,aggregate)",
                 m_level);
    cmd.AddValue("rateEpoch",
                 "fluid level: recompute the max-min rates at most once per this time (default "
                 "0: after every change, exact); faster, approximate",
                 m_rateEpoch);
    mose::AddBoolOption(cmd,
                        "fluidQueues",
                        "fluid level, rdma: ports with FIFO backlogs, a line-rate start cut by "
                        "DCQCN when a port marks, the RED buffer's drops (default false: max-min "
                        "rates from the first byte, nothing queued)",
                        m_fluidQueues);
}

void
LlmOptions::Read()
{
    NS_LOG_FUNCTION(this);
    if (m_read)
    {
        throw mose::Error("LlmOptions::Read runs once");
    }
    m_read = true;
    const mose::FlowExperimentConfig scenario = ReadScenario();
    ReadExperiment(scenario);
    const uint32_t seeds = m_scenario.GetSeedPlan().seeds;
    if (m_map)
    {
        ReadMap(seeds);
        return;
    }
    if (seeds > 1)
    {
        mose::ThrowBadParameter("--seeds",
                                m_scenario.Describe("seeds"),
                                "only with the regime map (--map=true): one experiment runs the "
                                "policies on the run --RngRun");
    }
    CheckKvExport();
    ReadRequests();
    ReadSchedule();
    ReadStopTime();
}

mose::FlowExperimentConfig
LlmOptions::ReadScenario() const
{
    // the shared scenario options, then what of them the LLM workloads do not use
    const mose::FlowExperimentConfig scenario = m_scenario.GetConfig();
    for (const std::string name : {"flows",
                                   "kvShareInference",
                                   "kvShareTraining",
                                   "inferenceFlowsFile",
                                   "trainingFlowsFile"})
    {
        if (m_scenario.IsGiven(name))
        {
            mose::ThrowBadParameter("--" + name,
                                    m_scenario.Describe(name),
                                    "the option would not be used: the LLM workloads bring their "
                                    "own traffic (the flow-level break-even of the map takes "
                                    "--flowLevelFlows)");
        }
    }
    if (m_scenario.IsGiven("threads"))
    {
        mose::ThrowBadParameter("--threads",
                                m_scenario.Describe("threads"),
                                "the option would not be used: the packet-level runs are "
                                "sequential");
    }
    mose::RejectModuleAttribute("ns3::MoseRouteTable::Rule",
                                "the LLM experiment routes on shortest paths");
    return scenario;
}

void
LlmOptions::ReadTrainingTrace(ExperimentConfig& config) const
{
    for (const auto& [given, name] : {std::make_pair(m_collectiveGiven, "--collective"),
                                      std::make_pair(m_tokensPerMemberGiven, "--tokensPerMember")})
    {
        if (given)
        {
            throw mose::Error(std::string("--trainingTrace and ") + name +
                              " were both given: the trace gives the training iteration's "
                              "collectives and their sizes; drop " +
                              name);
        }
    }
    if (!m_trainingJob)
    {
        throw mose::Error("--trainingTrace was given with --trainingJob=false: the trace is the "
                          "training job's; drop one of them");
    }
    if (const auto chakra = TrainingTracePath(m_trainingTrace, "chakra:"))
    {
        config.llm.trainingPlan =
            std::make_shared<mose::TrainingPlan>(mose::ReadChakraTrace(*chakra));
    }
    else if (const auto aicb = TrainingTracePath(m_trainingTrace, "aicb:"))
    {
        config.llm.trainingPlan =
            std::make_shared<mose::TrainingPlan>(mose::ReadAicbWorkload(*aicb).ToPlan());
    }
    else
    {
        mose::ThrowBadParameter("--trainingTrace",
                                mose::QuoteText(m_trainingTrace),
                                "chakra:PATH (a folder of a Chakra trace's PREFIX.R.et files, "
                                "or the PREFIX) or aicb:FILE (a SimAI/AICB workload file)");
    }
    if (!m_rankMapping.empty())
    {
        config.llm.rankMapping = mose::ReadRankMapping(m_rankMapping);
        // a rail names one of the group's --hostsPerGroup hosts: one past them would wrap
        // round in silence (the transfers take the rail modulo the hosts)
        const mose::RankMapping& mapping = config.llm.rankMapping;
        for (uint32_t r = 0; r < mapping.rail.size(); ++r)
        {
            if (mapping.rail[r] >= config.hostsPerGroup)
            {
                mose::ThrowBadParameter(
                    "--rankMapping",
                    mose::QuoteText(m_rankMapping),
                    "rank " + std::to_string(r) + " is on rail " + std::to_string(mapping.rail[r]) +
                        ": a rail is one of the group's hosts, 0 to " +
                        std::to_string(config.hostsPerGroup - 1) +
                        " (--hostsPerGroup = " + std::to_string(config.hostsPerGroup) + ")");
            }
        }
    }
    else
    {
        config.llm.rankMapping.ranksPerGroup = config.hostsPerGroup;
    }
    config.llm.nccl.channels = mose::ParseUnsigned32("--ncclChannels", m_ncclChannels);
    config.llm.nccl.algorithm =
        mose::ParseEnum<mose::NcclAlgorithm>(m_ncclAlgorithm, "--ncclAlgorithm");
    try
    {
        config.llm.nccl.Validate();
    }
    catch (const mose::Error&)
    {
        mose::ThrowBadParameter("--ncclChannels",
                                mose::QuoteText(m_ncclChannels),
                                "1 to " + std::to_string(mose::NcclSettings::MAX_CHANNELS));
    }
}

void
LlmOptions::ReadExperiment(const mose::FlowExperimentConfig& scenario)
{
    ExperimentConfig& config = m_experiment;
    config = MakeLlmConfig(scenario.nodes);
    const mose::FlowExperimentConfig scaled = config.scenario;
    config.scenario = scenario;
    config.scenario.routing = scaled.routing; // shortest path
    config.scenario.flows = scaled.flows;     // not used: the workloads bring their traffic

    m_shape = mose::ModelShape::FromPreset(mose::ParseEnum<mose::ModelPreset>(m_model, "--model"));
    config.llm.kvBytesPerToken = m_shape.GetKvBytesPerToken();
    config.llm.placement = mose::ParseEnum<mose::PlacementRule>(m_placement, "--placement");
    config.llm.prefillTokensPerSecond = mose::ParseReal("--prefillRate", m_prefill);
    ReadHosts();
    config.llm.training = m_trainingJob;
    config.llm.collective = mose::ParseEnum<mose::CollectiveKind>(m_collective, "--collective");
    ReadCollective(config);
    config.llm.computeTime = ParseTimeOption("--compute", m_compute);
    config.scale = mose::ParseUnsigned64("--scale", m_scale);
    if (config.scale == 0)
    {
        mose::ThrowBadParameter("--scale",
                                mose::QuoteText(m_scale),
                                "an integer >= 1 (it divides the link rates and byte counts)");
    }
    if (m_jumbo)
    {
        config.portMtu = ExperimentConfig::JUMBO_MTU;
    }
    if (!m_noticeDelay.empty())
    {
        config.llm.noticeDelay = ParseTimeOption("--noticeDelay", m_noticeDelay);
    }
    config.llm.reuseConnections = m_reuseConnections;
    config.run = RngSeedManager::GetRun();
    m_policies = mose::ParseEnumList<mose::Policy>(m_policiesText, "--policies");
    m_levels = ParseLlmLevels("--level", m_level);
    config.level = m_levels.front();
    ReadTransport();
    if (!m_rateEpoch.empty())
    {
        if (m_levels.size() == 1 && m_levels[0] == LlmLevel::PACKET)
        {
            mose::ThrowBadParameter("--rateEpoch",
                                    "\"" + m_rateEpoch + "\"",
                                    "the option would not be used: only with a fluid level "
                                    "(--level=fluid, aggregate, both, ...)");
        }
        config.llm.fluidRateEpoch = ParseTimeOption("--rateEpoch", m_rateEpoch);
    }
    if (m_fluidQueues)
    {
        ReadFluidQueues();
    }
}

void
LlmOptions::ReadCollective(ExperimentConfig& config) const
{
    if (!m_trainingTrace.empty())
    {
        ReadTrainingTrace(config);
    }
    else if (m_rankMappingGiven || m_ncclChannelsGiven || m_ncclAlgorithmGiven)
    {
        // they place and decompose a trace's collectives: without a trace they would do nothing
        const auto [name, value] =
            m_rankMappingGiven    ? std::make_pair("--rankMapping", &m_rankMapping)
            : m_ncclChannelsGiven ? std::make_pair("--ncclChannels", &m_ncclChannels)
                                  : std::make_pair("--ncclAlgorithm", &m_ncclAlgorithm);
        mose::ThrowBadParameter(name,
                                mose::QuoteText(*value),
                                "the option would not be used: only with --trainingTrace "
                                "(chakra:PATH or aicb:FILE), whose collectives it places and "
                                "decomposes");
    }
    else if (config.llm.collective == mose::CollectiveKind::ALL_TO_ALL)
    {
        mose::AllToAllSizing sizing;
        sizing.tokensPerMember = mose::ParseUnsigned64("--tokensPerMember", m_tokensPerMember);
        // the library names the model's fields; the user gave --collective, --model and
        // --tokensPerMember
        if (!m_shape.IsMoe())
        {
            mose::ThrowBadParameter("--collective",
                                    mose::QuoteText(m_collective),
                                    "--model = " + mose::QuoteText(m_model) +
                                        " is dense (no experts), and the all-to-all carries an "
                                        "MoE model's tokens to its experts; give "
                                        "--collective=ring-all-reduce, or an MoE --model "
                                        "(mixtral-8x7b or deepseek-v3)");
        }
        try
        {
            config.llm.collectiveBytes = mose::MoeAllToAllBytes(m_shape, sizing).bytesPerOperation;
        }
        catch (const mose::Error& e)
        {
            // the product that overflowed; the largest count that fits, for the message
            mose::AllToAllSizing oneToken = sizing;
            oneToken.tokensPerMember = 1;
            const uint64_t perToken =
                std::max<uint64_t>(mose::MoeAllToAllBytes(m_shape, oneToken).bytesPerIteration, 1);
            mose::ThrowBadParameter("--tokensPerMember",
                                    mose::QuoteText(m_tokensPerMember),
                                    "1 to " + std::to_string(UINT64_MAX / perToken) +
                                        " tokens with --model = " + mose::QuoteText(m_model) +
                                        " (" + e.what() + ")");
        }
    }
    else
    {
        if (m_tokensPerMemberGiven)
        {
            // the ring all-reduce moves the model's gradients, whatever the tokens
            mose::ThrowBadParameter("--tokensPerMember",
                                    mose::QuoteText(m_tokensPerMember),
                                    "the option would not be used: it sizes the all-to-all "
                                    "(--collective=all-to-all); --collective = " +
                                        mose::QuoteText(m_collective) +
                                        " moves --model's gradients");
        }
        mose::AllReduceSizing sizing;
        sizing.tensorParallel = 8;
        config.llm.collectiveBytes = mose::GradientAllReduceBytes(m_shape, sizing);
    }
}

void
LlmOptions::ReadFluidQueues()
{
    ExperimentConfig& config = m_experiment;
    const bool fluid =
        std::find(m_levels.begin(), m_levels.end(), LlmLevel::FLUID) != m_levels.end();
    if (!fluid)
    {
        mose::ThrowBadParameter("--fluidQueues",
                                "true",
                                "the option would not be used: only with the fluid level "
                                "(--level=fluid, both or packet,fluid)");
    }
    if (std::find(m_levels.begin(), m_levels.end(), LlmLevel::AGGREGATE) != m_levels.end())
    {
        mose::ThrowBadParameter("--fluidQueues",
                                "true",
                                "not at the aggregate level (--level=" + m_level +
                                    "): an all-to-all's parts run as one flow with no one path "
                                    "to queue on; use --level=fluid or both");
    }
    if (!m_rateEpoch.empty())
    {
        mose::ThrowBadParameter("--fluidQueues",
                                "true",
                                "exact rates (no --rateEpoch, given \"" + m_rateEpoch +
                                    "\"): a backlog grows at the exact rates' excess");
    }
    if (!config.IsRdma())
    {
        mose::ThrowBadParameter("--fluidQueues",
                                "true",
                                "--transport=rdma: the fluid queues model RoCEv2's line-rate "
                                "start, DCQCN's cut and the RED disc; TCP's slow start and its "
                                "loss-driven queues are not modelled");
    }
    config.llm.fluidQueues = true;
}

void
LlmOptions::ReadTransport()
{
    ExperimentConfig& config = m_experiment;
    const std::string transport = m_transportOptions.GetTypeName();
    SetLlmTransport(
        config,
        transport,
        m_transportOptions.ReadEcn(IsRdmaTransport(transport),
                                   std::find(m_levels.begin(), m_levels.end(), LlmLevel::PACKET) !=
                                       m_levels.end(),
                                   config.portQueue.value_or(EcnMarking().discSize),
                                   "--level=packet or both"));
    config.pfc = m_transportOptions.ReadPfc(
        IsRdmaTransport(transport),
        std::find(m_levels.begin(), m_levels.end(), LlmLevel::PACKET) != m_levels.end(),
        "--level=packet or both");
}

void
LlmOptions::ReadHosts()
{
    ExperimentConfig& config = m_experiment;
    // G endpoints per group: the option, or the topology attribute (0 and 1 both one endpoint)
    const auto readHosts = [](const std::string& parameter, const std::string& text) {
        const uint32_t g = mose::ParseUnsigned32(parameter, text);
        const bool option = parameter == "--hostsPerGroup";
        if ((option && g == 0) || g > ExperimentConfig::MAX_HOSTS_PER_GROUP)
        {
            mose::ThrowBadParameter(
                parameter,
                mose::QuoteText(text),
                std::string(option ? "1" : "0") + " to " +
                    std::to_string(ExperimentConfig::MAX_HOSTS_PER_GROUP) +
                    " (endpoints per group, one per GPU or NIC; 1: the group node)");
        }
        return std::to_string(std::max<uint32_t>(g, 1));
    };
    if (m_hostsPerGroupGiven)
    {
        readHosts("--hostsPerGroup", m_hostsPerGroup); // a bad option is reported as the option's
    }
    const std::optional<std::string> hosts = mose::ResolveAttributeOption(
        mose::AttributeOption{"hostsPerGroup", "ns3::MoseTopologyHelper::HostsPerGroup", readHosts},
        m_hostsPerGroupGiven ? std::optional(m_hostsPerGroup) : std::nullopt);
    if (hosts)
    {
        config.hostsPerGroup = static_cast<uint32_t>(std::stoul(readHosts(
            m_hostsPerGroupGiven ? "--hostsPerGroup" : "--ns3::MoseTopologyHelper::HostsPerGroup",
            *hosts)));
    }
    config.ResolveHostRate("hostRate",
                           m_hostRateGiven ? std::optional(m_hostRate) : std::nullopt,
                           DataRate(static_cast<uint64_t>(config.scenario.degree) *
                                    config.ocsRate->GetBitRate() / config.hostsPerGroup));
}

void
LlmOptions::ReadMap(uint32_t seeds)
{
    // the map generates its own requests and schedule per cell: the single run's options
    // would not be used
    RejectGiven({{"--trace", m_trace},
                 {"--kvExport", m_kvExport},
                 {"--traceFormat", m_traceFormat},
                 {"--traceModel", m_traceModel},
                 {"--traceLogType", m_traceLogType},
                 {"--traceFailed", m_traceFailed},
                 {"--traceRequestType", m_traceRequestType},
                 {"--traceDate", m_traceDate},
                 {"--traceStart", m_traceStart},
                 {"--stopTime", m_stopTime},
                 {"--rate", m_rate},
                 {"--requests", m_requests},
                 {"--schedule", m_schedule},
                 {"--end", m_end}},
                "only with --map=false: the regime map generates the requests of each "
                "--loads rate and alternates the modes for each of --intervals");
    // an approximation carries its measured error: one experiment runs the exact rates beside
    // it (LlmComparison); a map's cells would carry an error no run measured
    RejectGiven({{"--rateEpoch", m_rateEpoch}},
                "only with --map=false: one experiment also runs the exact rates and prints the "
                "error of the approximation; the map's fluid cells use exact rates (its fast "
                "approximation is --level=aggregate, measured by --level=fluid,aggregate)");
    LlmRegimeMapConfig& m = m_mapConfig;
    m.base = m_experiment;
    m.levelColumn = !(m_levels.size() == 1 && m_levels[0] == LlmLevel::PACKET);
    m.generator.input.mean = ReadPromptMean(m_prompt, m.generator.input);
    m.loads = ParseLoadList("--loads", m_loads);
    m.intervals = ParseDurationList("--intervals", m_intervals, false);
    m.darkTimes = ParseDurationList("--darkTimes", m_darkTimes, true);
    m.cycles = mose::ParseUnsigned32("--cycles", m_cycles);
    CheckCount("--cycles", mose::QuoteText(m_cycles), m.cycles);
    m.policies = m_policies;
    m.seeds = seeds;
    CheckMapMemory();
    m.trainingLoadShare = mose::ParseReal("--trainingLoadShare", m_trainingLoadShare);
    m.tolerance = mose::ParseReal("--tolerance", m_tolerance);
    m.flowLevelFlows = mose::ParseUnsigned64("--flowLevelFlows", m_flowFlows);
}

void
LlmOptions::CheckMapMemory() const
{
    const LlmRegimeMapConfig& m = m_mapConfig;
    // the runs of one seed, at every level (each list holds at most MAX_LIST_ITEMS items, so
    // no product below overflows before the checks)
    LlmRegimeMapConfig one = m;
    one.seeds = 1;
    const uint64_t runsPerSeed =
        LlmRegimeMap::CountRuns(one) * std::max<std::size_t>(m_levels.size(), 1);
    const std::string seedRuns =
        std::to_string(runsPerSeed) +
        " runs (--loads x --intervals x (the static --policies + --darkTimes) x --level)";
    // the seeds, each keeping its runs' figures (one cycle's), then the cycles of every run
    mose::CheckCountMemory("--seeds",
                           m_scenario.Describe("seeds"),
                           m.seeds,
                           runsPerSeed * LlmMapRunBytes(1),
                           "seeds",
                           "the figures of " + seedRuns);
    const uint64_t runs = runsPerSeed * m.seeds;
    if (m.cycles > 1)
    {
        mose::CheckCountMemory("--cycles",
                               mose::QuoteText(m_cycles),
                               m.cycles,
                               runs * LLM_MAP_CYCLE_BYTES,
                               "cycles",
                               "a summary per cycle of each of the map's " + std::to_string(runs) +
                                   " runs, " + seedRuns + " x --seeds");
    }
    // a run's index in the list is 32 bits
    if (runs > UINT32_MAX)
    {
        throw mose::Error("the map's list would hold " + std::to_string(runs) + " runs (" +
                          seedRuns + " x --seeds = " + std::to_string(m.seeds) + "): at most " +
                          std::to_string(UINT32_MAX) + "; give fewer of them");
    }
    // the requests of the largest cell, which one run keeps at once: its load over 2 --cycles
    // x the interval
    const double load = m.loads.empty() ? 0 : *std::max_element(m.loads.begin(), m.loads.end());
    const Time interval =
        m.intervals.empty() ? Time(0) : *std::max_element(m.intervals.begin(), m.intervals.end());
    const double cellRequests = load * 2.0 * m.cycles * interval.GetSeconds();
    mose::CheckCountFitsMemory(
        "--loads = " + mose::QuoteText(m_loads) + ", --cycles = " + mose::QuoteText(m_cycles) +
            " and --intervals = " + mose::QuoteText(m_intervals) + " give too large a cell",
        cellRequests,
        "",
        REQUEST_BYTES,
        "requests",
        "a request of the largest cell, its load x 2 cycles' intervals, "
        "which one run keeps at once");
}

void
LlmOptions::CheckKvExport() const
{
    if (!m_kvExport.empty())
    {
        const std::filesystem::path path(m_kvExport);
        const std::string ext = path.extension().string();
        if (ext != ".csv" && ext != ".jsonl")
        {
            mose::ThrowBadParameter("--kvExport",
                                    mose::QuoteText(m_kvExport),
                                    "a file ending in .csv (CSV) or .jsonl (JSON lines)");
        }
        if (!path.parent_path().empty() && !std::filesystem::is_directory(path.parent_path()))
        {
            mose::ThrowBadParameter("--kvExport",
                                    mose::QuoteText(m_kvExport),
                                    "a file in an existing folder (" +
                                        mose::QuoteText(path.parent_path().string()) + " is none)");
        }
    }
}

void
LlmOptions::ReadRequests()
{
    ExperimentConfig& config = m_experiment;
    if (!m_trace.empty())
    {
        // the trace gives the requests: the generator's options would not be used
        RejectGiven({{"--requests", m_requests}, {"--rate", m_rate}, {"--promptMean", m_prompt}},
                    "only without --trace: the requests, their arrival times and prompt lengths "
                    "come from --trace=" +
                        m_trace);
        ReadTrace();
        config.llm.requests = std::move(m_traceRead.requests);
        m_traceRead.requests.clear();
        ApplyTraceStart();
    }
    else
    {
        RejectGiven({{"--traceFormat", m_traceFormat},
                     {"--traceModel", m_traceModel},
                     {"--traceLogType", m_traceLogType},
                     {"--traceFailed", m_traceFailed},
                     {"--traceRequestType", m_traceRequestType},
                     {"--traceDate", m_traceDate},
                     {"--traceStart", m_traceStart}},
                    "only with --trace: it says how the trace is read");
        mose::LlmRequestGeneratorOptions g;
        g.requests = mose::ParseUnsigned64("--requests", m_requests.empty() ? "120" : m_requests);
        CheckCount("--requests", mose::QuoteText(m_requests), g.requests);
        mose::CheckCountMemory("--requests",
                               mose::QuoteText(m_requests),
                               g.requests,
                               REQUEST_BYTES,
                               "requests",
                               "a request, its record and its state in the run");
        g.rate = mose::ParseReal("--rate", m_rate.empty() ? "100" : m_rate);
        g.input.mean = ReadPromptMean(m_prompt, g.input);
        mose::Random rng = mose::Random::Create(config.run, mose::Stream::LLM_REQUESTS);
        config.llm.requests = mose::GenerateLlmRequests(g, rng);
    }
}

namespace
{

/// a time with 7 significant digits and its unit ("1200 s", "1201.004 s", "3.745728 ms")
std::string
SecondsText(Time t)
{
    return mose::FormatDuration(t, mose::DurationStyle::SIGNIFICANT, 7);
}

/// \return the arrival of a request as a Time
Time
ArrivalOf(const mose::LlmRequest& r)
{
    return NanoSeconds(static_cast<int64_t>(r.arrivalNs));
}

} // namespace

void
LlmOptions::ApplyTraceStart()
{
    std::vector<mose::LlmRequest>& requests = m_experiment.llm.requests;
    if (m_traceStart.empty() || requests.empty())
    {
        return;
    }
    // the trace is sorted by arrival (ReadLlmTrace() refuses one that is not)
    const uint64_t first = requests.front().arrivalNs;
    const uint64_t last = requests.back().arrivalNs;
    uint64_t start = first;
    if (mose::ToLowerAscii(m_traceStart) != "first")
    {
        const Time t =
            m_traceStart == "0" ? Time(0) : ParseTimeOption("--traceStart", m_traceStart);
        start = static_cast<uint64_t>(t.GetNanoSeconds());
        if (start > last)
        {
            mose::ThrowBadParameter(
                "--traceStart",
                mose::QuoteText(m_traceStart),
                "first (the trace's first request) or a time of the trace's clock up to its "
                "last arrival: the requests of --trace=" +
                    m_trace + " arrive from " + SecondsText(NanoSeconds(first)) + " to " +
                    SecondsText(NanoSeconds(last)) + ", none at or after " + SecondsText(t));
        }
    }
    const auto kept = std::find_if(requests.begin(), requests.end(), [start](const auto& r) {
        return r.arrivalNs >= start;
    });
    m_beforeStart = static_cast<uint64_t>(kept - requests.begin());
    requests.erase(requests.begin(), kept);
    for (mose::LlmRequest& r : requests)
    {
        r.arrivalNs -= start;
    }
    m_traceShiftNs = start;
}

void
LlmOptions::ReadStopTime()
{
    ExperimentConfig& config = m_experiment;
    m_derivedStop = DefaultLlmStopTime(config);
    config.stopTime =
        m_stopTime.empty() ? m_derivedStop : ParseTimeOption("--stopTime", m_stopTime);
    const Time scheduleEnd = config.GetEnd();
    if (!m_stopTime.empty() && config.stopTime < scheduleEnd)
    {
        mose::ThrowBadParameter("--stopTime",
                                mose::QuoteText(m_stopTime),
                                "a time at or after the schedule's end, " +
                                    SecondsText(scheduleEnd) +
                                    " (the run would stop in its last mode interval)");
    }
    const std::vector<mose::LlmRequest>& requests = config.llm.requests;
    if (!requests.empty())
    {
        // a request that arrives at or after the end is never served: a run that leaves
        // every request, or more than MAX_LATE_SHARE of them, unarrived measures nothing
        // of what was asked
        const auto late = static_cast<uint64_t>(
            std::count_if(requests.begin(), requests.end(), [&config](const auto& r) {
                return ArrivalOf(r) >= config.stopTime;
            }));
        if (late == requests.size() ||
            static_cast<double>(late) > MAX_LATE_SHARE * static_cast<double>(requests.size()))
        {
            const std::string source =
                m_trace.empty() ? std::string("the generator") : "--trace=" + m_trace;
            mose::ThrowBadParameter(
                "--stopTime",
                mose::QuoteText(m_stopTime),
                "an end that at least " + mose::FormatNumber(100.0 * (1.0 - MAX_LATE_SHARE)) +
                    "% of the requests arrive before: " + std::to_string(late) + " of the " +
                    std::to_string(requests.size()) + " requests of " + source +
                    " arrive at or after it (first arrival " +
                    SecondsText(ArrivalOf(requests.front())) + ", last " +
                    SecondsText(ArrivalOf(requests.back())) + ", run end " +
                    SecondsText(config.stopTime) + "); without --stopTime the run ends at " +
                    SecondsText(m_derivedStop) + " at the latest");
        }
    }
    if (!m_noticeDelay.empty() && !config.llm.requests.empty())
    {
        // a request is served when the notice of its KV transfer arrives: a notice that cannot
        // come before the stop serves none
        uint64_t first = UINT64_MAX;
        for (const mose::LlmRequest& r : config.llm.requests)
        {
            first = std::min(first, r.arrivalNs);
        }
        const Time earliest = NanoSeconds(static_cast<int64_t>(first));
        if (config.llm.noticeDelay >= config.stopTime - earliest)
        {
            mose::ThrowBadParameter(
                "--noticeDelay",
                mose::QuoteText(m_noticeDelay),
                "a delay under " + mose::FormatNumber((config.stopTime - earliest).GetSeconds()) +
                    " s: the run stops at " + mose::FormatNumber(config.stopTime.GetSeconds()) +
                    " s, the first request arrives at " +
                    mose::FormatNumber(earliest.GetSeconds()) +
                    " s, and a request is served only when the notice of its KV transfer "
                    "arrives, --noticeDelay after the last byte");
        }
    }
}

std::string
LlmOptions::GetClockNote() const
{
    const ExperimentConfig& c = m_experiment;
    if (m_map ||
        (m_trace.empty() && m_stopTime.empty() && c.stopTime == Seconds(LLM_LEAST_STOP_SECONDS)))
    {
        return "";
    }
    std::ostringstream os;
    const std::vector<mose::LlmRequest>& requests = c.llm.requests;
    if (!requests.empty())
    {
        os << "arrivals from " << SecondsText(ArrivalOf(requests.front())) << " to "
           << SecondsText(ArrivalOf(requests.back()));
        if (!m_trace.empty())
        {
            if (m_traceStart.empty())
            {
                os << " (the trace's clock as written; --traceStart=first starts it at its "
                      "first request)";
            }
            else
            {
                os << " (--traceStart=" << m_traceStart << ": the trace's clock minus "
                   << SecondsText(NanoSeconds(static_cast<int64_t>(m_traceShiftNs)));
                if (m_beforeStart > 0)
                {
                    os << ", " << m_beforeStart << " requests before it left out";
                }
                os << ")";
            }
        }
        os << "; ";
    }
    os << "the run stops at " << SecondsText(c.stopTime) << " at the latest";
    if (m_stopTime.empty())
    {
        os << " (the latest of " << LLM_LEAST_STOP_SECONDS
           << " s, the schedule's end and the last arrival plus "
           << SecondsText(LlmServeAllowance(c))
           << " to serve every request one after another; --stopTime sets it)";
    }
    else
    {
        os << " (--stopTime)";
    }
    if (!requests.empty() && ArrivalOf(requests.front()) >= c.GetEnd())
    {
        os << "; note: every request arrives after the schedule's end, " << SecondsText(c.GetEnd())
           << ", when the fabric stays in its last mode (--traceStart=first starts the trace "
              "at its first request)";
    }
    return os.str();
}

void
LlmOptions::ReadSchedule()
{
    ExperimentConfig& config = m_experiment;
    const std::string schedule = m_schedule.empty() ? DEFAULT_SCHEDULE : m_schedule;
    if (mose::ToLowerAscii(schedule) == "threshold") // any letter case, as the mode names
    {
        const std::string end = m_end.empty() ? "1.5s" : m_end;
        config.end = ParseTimeOption("--end", end);
        // the controller's and ThresholdSchedule()'s checks, with the options' names
        const Time period = ParseTimeOption("--period", m_period);
        if (period.IsZero() || period > config.end)
        {
            mose::ThrowBadParameter("--period",
                                    mose::QuoteText(m_period),
                                    "a decision period > 0 and at most --end = " +
                                        mose::QuoteText(end));
        }
        mose::ModeControllerOptions o;
        o.windowNs = ParseTimeOption("--window", m_window).GetNanoSeconds();
        if (o.windowNs == 0)
        {
            mose::ThrowBadParameter("--window",
                                    mose::QuoteText(m_window),
                                    "a sliding window of at least 1ns");
        }
        o.minDwellNs = ParseTimeOption("--dwell", m_dwell).GetNanoSeconds();
        o.enterInferenceLoad = mose::ParseReal("--enterLoad", m_enter);
        o.exitInferenceLoad = mose::ParseReal("--exitLoad", m_exit);
        if (!(o.exitInferenceLoad >= 0.0 && std::isfinite(o.exitInferenceLoad)))
        {
            mose::ThrowBadParameter("--exitLoad",
                                    mose::QuoteText(m_exit),
                                    "a finite load >= 0 requests/s");
        }
        if (!(o.enterInferenceLoad > o.exitInferenceLoad && std::isfinite(o.enterInferenceLoad)))
        {
            mose::ThrowBadParameter("--enterLoad",
                                    mose::QuoteText(m_enter),
                                    "a finite load above --exitLoad = " + mose::QuoteText(m_exit) +
                                        " requests/s (two thresholds give the hysteresis)");
        }
        o.initialMode = mose::WorkloadMode::INFERENCE_HEAVY;
        config.schedule = ThresholdSchedule(config.llm.requests, o, period, config.end);
    }
    else
    {
        RejectGiven({{"--end", m_end}},
                    "only with --schedule=threshold: a schedule of periods ends with its last "
                    "period");
        config.SetSchedule(mose::ParseSchedule("--schedule", schedule));
        CheckSwitchesFit(config.GetRunSchedule());
    }
}

void
LlmOptions::ReadTrace()
{
    mose::LlmTraceReadOptions o;
    o.format = mose::ParseEnum<mose::LlmTraceFormat>(m_traceFormat.empty() ? std::string("auto")
                                                                           : m_traceFormat,
                                                     "--traceFormat");
    o.model = m_traceModel;
    o.logType = m_traceLogType;
    o.date = m_traceDate;
    if (!m_traceModel.empty() &&
        std::find(mose::BURSTGPT_MODELS.begin(), mose::BURSTGPT_MODELS.end(), m_traceModel) ==
            mose::BURSTGPT_MODELS.end())
    {
        mose::ThrowBadParameter("--traceModel",
                                mose::QuoteText(m_traceModel),
                                "ChatGPT or GPT-4 (BurstGPT's Model, case included)");
    }
    if (!m_traceLogType.empty() && std::find(mose::BURSTGPT_LOG_TYPES.begin(),
                                             mose::BURSTGPT_LOG_TYPES.end(),
                                             m_traceLogType) == mose::BURSTGPT_LOG_TYPES.end())
    {
        mose::ThrowBadParameter("--traceLogType",
                                mose::QuoteText(m_traceLogType),
                                "\"Conversation log\" or \"API log\" (BurstGPT's Log Type)");
    }
    if (!m_traceFailed.empty())
    {
        if (m_traceFailed != "skip" && m_traceFailed != "keep")
        {
            mose::ThrowBadParameter("--traceFailed",
                                    mose::QuoteText(m_traceFailed),
                                    "skip (leave the failed requests out and count them) or keep");
        }
        o.keepFailed = m_traceFailed == "keep";
    }
    if (!m_traceRequestType.empty())
    {
        o.requestType = mose::ParseUnsigned64("--traceRequestType", m_traceRequestType);
    }
    // each filter belongs to one form: given with another, it would not be used
    const mose::LlmTraceFormat format =
        o.format == mose::LlmTraceFormat::AUTO ? mose::DetectLlmTraceFormat(m_trace) : o.format;
    const std::vector<std::tuple<std::string, std::string, mose::LlmTraceFormat>> filters = {
        {"--traceModel", m_traceModel, mose::LlmTraceFormat::BURSTGPT},
        {"--traceLogType", m_traceLogType, mose::LlmTraceFormat::BURSTGPT},
        {"--traceFailed", m_traceFailed, mose::LlmTraceFormat::BURSTGPT},
        {"--traceRequestType", m_traceRequestType, mose::LlmTraceFormat::SPLITWISE},
        {"--traceDate", m_traceDate, mose::LlmTraceFormat::VIDUR_REPLAY}};
    for (const auto& [name, text, form] : filters)
    {
        if (!text.empty() && format != form)
        {
            mose::ThrowBadParameter(name,
                                    mose::QuoteText(text),
                                    "only with a " + mose::ToString(form) + " trace; --trace=" +
                                        m_trace + " is read as " + mose::ToString(format));
        }
    }
    o.format = format;
    m_traceRead = mose::ReadLlmTrace(m_trace, o);
}

std::string
LlmOptions::GetTraceNote() const
{
    const mose::LlmTrace& t = m_traceRead;
    if (m_trace.empty() || (t.filtered == 0 && t.failed == 0))
    {
        return "";
    }
    std::ostringstream os;
    os << "--trace=" << m_trace << " (" << mose::ToString(t.format)
       << "): " << m_experiment.llm.requests.size() << " of " << t.records << " requests kept";
    if (t.filtered > 0)
    {
        os << ", " << t.filtered << " left out by the filters";
    }
    if (t.failed > 0)
    {
        os << ", " << t.failed << " failed (Response tokens 0) left out (--traceFailed=keep keeps "
           << "them)";
    }
    return os.str();
}

std::vector<std::pair<std::string, std::string>>
LlmOptions::GetTrainingInputs() const
{
    std::vector<std::pair<std::string, std::string>> files;
    const std::string option = "--trainingTrace";
    if (const auto aicb = TrainingTracePath(m_trainingTrace, "aicb:"))
    {
        files.emplace_back(option, *aicb);
    }
    else if (const auto chakra = TrainingTracePath(m_trainingTrace, "chakra:"))
    {
        // a folder (its files) or a PREFIX (the files PREFIX.*): a directory listing, not the
        // reader's own rules, so that a file it would read is never missed
        const std::filesystem::path path(*chakra);
        std::error_code ec;
        const bool folder = std::filesystem::is_directory(path, ec);
        const std::filesystem::path dir = folder ? path : path.parent_path();
        const std::string prefix = folder ? "" : path.filename().string() + ".";
        for (const auto& entry : std::filesystem::directory_iterator(dir.empty() ? "." : dir, ec))
        {
            if (entry.path().filename().string().rfind(prefix, 0) == 0)
            {
                files.emplace_back(option, entry.path().string());
            }
        }
    }
    if (!m_rankMapping.empty())
    {
        files.emplace_back("--rankMapping", m_rankMapping);
    }
    return files;
}

const std::string&
LlmOptions::GetTrace() const
{
    return m_trace;
}

const std::string&
LlmOptions::GetKvExport() const
{
    return m_kvExport;
}

bool
LlmOptions::IsKvExportJson() const
{
    return std::filesystem::path(m_kvExport).extension() == ".jsonl";
}

bool
LlmOptions::IsMap() const
{
    return m_map;
}

uint32_t
LlmOptions::GetLevelPlaces() const
{
    uint32_t bits = 0;
    for (LlmLevel level : m_levels)
    {
        bits |= GetLevelPlace(level);
    }
    return bits;
}

uint32_t
LlmOptions::GetModePlaces() const
{
    const uint32_t transport = GetTransportPlace(IsRdmaTransport(m_transportOptions.GetTypeName()));
    if (m_map)
    {
        return IN_MAP | transport;
    }
    return transport |
           (mose::ToLowerAscii(m_schedule) == "threshold" ? (IN_ONE | IN_THRESHOLD) : IN_ONE);
}

const LlmRegimeMapConfig&
LlmOptions::GetMapConfig() const
{
    return m_mapConfig;
}

const ExperimentConfig&
LlmOptions::GetExperimentConfig() const
{
    return m_experiment;
}

const std::vector<mose::Policy>&
LlmOptions::GetPolicies() const
{
    return m_policies;
}

const mose::ModelShape&
LlmOptions::GetShape() const
{
    return m_shape;
}

const std::vector<LlmLevel>&
LlmOptions::GetLevels() const
{
    return m_levels;
}

std::string
LlmOptions::GetTitle() const
{
    const ExperimentConfig& c = m_experiment;
    std::ostringstream os;
    if (m_map)
    {
        os << "mose-llm regime map: N=" << c.scenario.nodes << ", " << m_shape.name << " ("
           << c.llm.kvBytesPerToken << " B/token), placement " << mose::ToString(c.llm.placement)
           << ", scale " << c.scale << ", run " << c.run;
        if (c.hostsPerGroup > 1)
        {
            os << ", " << c.hostsPerGroup << " hosts per group at "
               << c.hostRate->GetBitRate() / 1e9 << " Gb/s each";
        }
        if (m_mapConfig.seeds > 1)
        {
            os << " (" << m_mapConfig.seeds << " seeds: runs " << c.run << " to "
               << c.run + m_mapConfig.seeds - 1 << ")";
        }
        os << TransportText() << LevelText(m_levels);
        return os.str();
    }
    os << "mose-llm: N=" << c.scenario.nodes << ", " << c.llm.requests.size() << " requests, "
       << m_shape.name << " (" << c.llm.kvBytesPerToken << " B/token), placement "
       << mose::ToString(c.llm.placement) << ", " << c.llm.DescribeTraining() << ", scale "
       << c.scale << ", schedule " << mose::FormatSchedule(c.GetRunSchedule()) << ", run " << c.run;
    if (c.hostsPerGroup > 1)
    {
        os << ", " << c.hostsPerGroup << " hosts per group at " << c.hostRate->GetBitRate() / 1e9
           << " Gb/s each";
    }
    os << TransportText() << LevelText(m_levels);
    return os.str();
}

std::string
LlmOptions::TransportText() const
{
    return DescribeTransport(m_experiment.IsRdma(),
                             std::find(m_levels.begin(), m_levels.end(), LlmLevel::PACKET) !=
                                 m_levels.end(),
                             m_experiment.ecn,
                             m_experiment.pfc);
}

} // namespace mose
} // namespace ns3
