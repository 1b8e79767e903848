/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-presets.h"

#include "ns3/data-rate.h"
#include "ns3/mose-attribute.h"
#include "ns3/mose-error.h"
#include "ns3/mose-format.h"
#include "ns3/mose-mode-switcher.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/mose-transport-helper.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <string>

namespace ns3
{
namespace mose
{

ExperimentConfig
MakePacketConfig(const mose::FlowExperimentConfig& scenario,
                 mose::WorkloadMode mode,
                 LlmLevel level,
                 const std::string& transport,
                 const EcnMarking& ecn)
{
    ExperimentConfig c;
    c.scenario = scenario;
    c.schedule.Add(mode, 0); // one mode, open: until stopTime
    c.switcher = false;
    c.flowMonitor = !IsFluid(level);
    c.SetTransport(level, transport, ecn);
    return c;
}

void
ValidatePacketConfig(const ExperimentConfig& config)
{
    const mose::FlowExperimentConfig& scenario = config.scenario;
    const mose::WorkloadMode mode = config.GetInitialMode();
    scenario.Validate();
    const std::string mine =
        " belongs to the training-heavy mode, and the run is " + mose::ToString(mode) + " (--mode)";
    if (mode == mose::WorkloadMode::INFERENCE_HEAVY)
    {
        for (const auto& [option, file] :
             {std::make_pair("--trainingRolesFile", scenario.trainingRolesFile),
              std::make_pair("--trainingAssignmentFile", scenario.trainingAssignmentFile),
              std::make_pair("--trainingFlowsFile", scenario.trainingFlowsFile)})
        {
            if (!file.empty())
            {
                mose::ThrowBadParameter(option,
                                        mose::QuoteText(file),
                                        "the file would not be used: it" + mine);
            }
        }
    }
    else if (!scenario.inferenceFlowsFile.empty())
    {
        mose::ThrowBadParameter("--inferenceFlowsFile",
                                mose::QuoteText(scenario.inferenceFlowsFile),
                                "the file would not be used: it holds the inference-heavy flows, "
                                "and the run is " +
                                    mose::ToString(mode) + " (--mode)");
    }
    MoseTransportHelper{config.transport}; // a mose::Error naming a type that is no transport
    if (config.IsRdma())
    {
        if (config.ecn)
        {
            config.ecn->Validate();
        }
    }
    if (config.stopTime <= Seconds(0))
    {
        mose::ThrowBadParameter("--stopTime",
                                mose::FormatNumber(config.stopTime.GetSeconds()) + " s",
                                "the simulation needs a positive stop time");
    }
}

ExperimentConfig
MakeSwitchConfig(const mose::FlowExperimentConfig& scenario)
{
    ExperimentConfig c;
    c.scenario = scenario;
    c.stopTime = Seconds(30);
    c.SetSchedule({{mose::WorkloadMode::INFERENCE_HEAVY, 0.2},
                   {mose::WorkloadMode::TRAINING_HEAVY, 0.2},
                   {mose::WorkloadMode::INFERENCE_HEAVY, 0.2}});
    c.switcher = true;
    c.waitForSwitches = true;
    c.countCircuits = true;
    return c;
}

ExperimentConfig
MakeSwitchConfig(uint32_t nodes, uint64_t flows)
{
    mose::FlowExperimentConfig scenario = mose::PaperScaledConfig(nodes);
    scenario.flows = flows;
    return MakeSwitchConfig(scenario);
}

void
CheckSwitchesFit(const mose::ModeSchedule& periods)
{
    const TypeId tid = MoseModeSwitcher::GetTypeId();
    TypeId::AttributeInformation phases;
    TypeId::AttributeInformation timeout;
    TypeId::AttributeInformation delay;
    if (!tid.LookupAttributeByName("Phases", &phases) ||
        !tid.LookupAttributeByName("DrainTimeout", &timeout) ||
        !tid.LookupAttributeByName("ReconfigurationDelay", &delay))
    {
        throw mose::Error("MoseModeSwitcher lacks Phases, DrainTimeout or ReconfigurationDelay");
    }
    // the defaults as Config::SetDefault() (the command line) left them
    const uint64_t k = DynamicCast<const UintegerValue>(phases.initialValue)->Get();
    const Time longest = (DynamicCast<const TimeValue>(timeout.initialValue)->Get() +
                          DynamicCast<const TimeValue>(delay.initialValue)->Get()) *
                         static_cast<int64_t>(k);
    // a period with a switch at its start and at its end
    for (std::size_t i = 1; i + 1 < periods.size(); ++i)
    {
        if (Seconds(periods[i].duration) <= longest)
        {
            mose::ThrowBadParameter(
                "--schedule period " + std::to_string(i + 1) + " duration",
                mose::FormatNumber(periods[i].duration) + " s",
                "every period between two switches must last more than Phases x (DrainTimeout "
                "+ ReconfigurationDelay) = " +
                    mose::FormatNumber(longest.GetSeconds()) +
                    " s, the longest a switch can take (--ns3::MoseModeSwitcher::Phases, "
                    "::DrainTimeout, ::ReconfigurationDelay), so that a switch never starts "
                    "before the previous one ended");
        }
    }
}

void
ValidateSwitchConfig(const ExperimentConfig& config)
{
    config.scenario.Validate();
    MoseTransportHelper{config.transport}; // a mose::Error naming a type that is no transport
    if (config.IsRdma())
    {
        if (config.ecn)
        {
            config.ecn->Validate();
        }
    }
    // the switches: at the start of every period but the first
    const std::vector<Time> times = MoseScheduleTimes(config.schedule);
    for (std::size_t i = 2; i + 1 < times.size(); ++i)
    {
        if (times[i] <= times[i - 1])
        {
            mose::ThrowBadParameter("--schedule",
                                    config.ScheduleShown(),
                                    "boundary times must be strictly increasing (boundary " +
                                        std::to_string(i - 1) + " at " +
                                        FormatDuration(times[i], DurationStyle::MS) +
                                        " is not after boundary " + std::to_string(i - 2) + " at " +
                                        FormatDuration(times[i - 1], DurationStyle::MS) + ")");
        }
    }
    if (config.firstStart.IsStrictlyNegative())
    {
        mose::ThrowBadParameter("first start",
                                FormatDuration(config.firstStart, DurationStyle::MS),
                                "a time >= 0");
    }
    if (config.schedule.size() > 1 && times[1] <= config.firstStart)
    {
        mose::ThrowBadParameter("--schedule",
                                config.ScheduleShown(),
                                "the first period must last longer than the first transfers' "
                                "start (" +
                                    FormatDuration(config.firstStart, DurationStyle::MS) + ")");
    }
    const Time last = config.schedule.size() > 1 ? times[times.size() - 2] : config.firstStart;
    if (config.end <= last)
    {
        mose::ThrowBadParameter("end of the last interval",
                                FormatDuration(config.end, DurationStyle::MS),
                                "a time after the last boundary (" +
                                    FormatDuration(last, DurationStyle::MS) + ")");
    }
    if (config.stopTime <= config.end)
    {
        mose::ThrowBadParameter("--stopTime",
                                config.Shown("--stopTime", config.stopTime),
                                "a time after the end of the last interval (" +
                                    FormatDuration(config.end, DurationStyle::MS) +
                                    ", the end of --schedule)");
    }
    if (!config.startWindow.IsStrictlyPositive())
    {
        mose::ThrowBadParameter("--startWindow",
                                config.Shown("--startWindow", config.startWindow),
                                "a positive duration");
    }
    if (!config.binWidth.IsStrictlyPositive() ||
        config.stopTime.GetTimeStep() / config.binWidth.GetTimeStep() > 100000000)
    {
        mose::ThrowBadParameter("--binWidth",
                                config.Shown("--binWidth", config.binWidth),
                                "a positive duration, at most 1e8 bins up to --stopTime = " +
                                    config.Shown("--stopTime", config.stopTime));
    }
}

ExperimentConfig
MakeLlmConfig(uint32_t nodes)
{
    ExperimentConfig c;
    c.scenario = mose::PaperScaledConfig(nodes);
    auto& s = c.scenario;
    s.flows = 16; // the workloads bring their own traffic; the scenario's flows are not used
    s.routing = mose::RoutingRule::SHORTEST_PATH;
    c.stopTime = Seconds(LLM_LEAST_STOP_SECONDS);
    c.SetSchedule({{mose::WorkloadMode::INFERENCE_HEAVY, 0.5},
                   {mose::WorkloadMode::TRAINING_HEAVY, 0.5},
                   {mose::WorkloadMode::INFERENCE_HEAVY, 0.5}});
    // a switch in progress does not hold a run whose work is done; no circuit monitor
    c.switcher = true;
    c.waitForSwitches = false;
    c.countCircuits = false;
    c.portQueue = "1000p";
    DataRateValue rate;
    rate.DeserializeFromString(
        mose::GetAttributeDefaultText(TypeId::LookupByName("ns3::MoseOcs"), "DataRate"),
        MakeDataRateChecker());
    c.ocsRate = rate.Get();
    rate.DeserializeFromString(
        mose::GetAttributeDefaultText(TypeId::LookupByName("ns3::MoseTopologyHelper"),
                                      "HostDataRate"),
        MakeDataRateChecker());
    c.hostRate = rate.Get();
    return c;
}

void
SetLlmTransport(ExperimentConfig& config, const std::string& typeName, const EcnMarking& marking)
{
    // the port's buffer: the device queue's with tcp, the RED disc's with rdma
    const std::optional<std::string> buffer =
        config.ecn ? std::optional(config.ecn->discSize) : config.portQueue;
    config.transport = typeName;
    if (config.IsRdma())
    {
        config.ecn = marking;
        config.ecn->discSize = buffer.value_or(marking.discSize);
        config.portQueue = ExperimentConfig::RDMA_DEVICE_QUEUE;
    }
    else
    {
        config.ecn.reset();
        config.portQueue = buffer;
    }
}

Time
LlmServeAllowance(const ExperimentConfig& config)
{
    const LlmWorkloadConfig& llm = config.llm;
    // the slower of the links a KV transfer crosses (both unscaled: --scale divides the bytes
    // by the same factor)
    double bitsPerSecond = 0;
    for (const std::optional<DataRate>& rate : {config.ocsRate, config.hostRate})
    {
        if (rate && rate->GetBitRate() > 0)
        {
            const double r = static_cast<double>(rate->GetBitRate());
            bitsPerSecond = bitsPerSecond > 0 ? std::min(bitsPerSecond, r) : r;
        }
    }
    double seconds = 0;
    for (const mose::LlmRequest& r : llm.requests)
    {
        const double tokens = static_cast<double>(r.inputTokens);
        seconds += tokens / llm.prefillTokensPerSecond;
        if (bitsPerSecond > 0)
        {
            seconds += tokens * static_cast<double>(llm.kvBytesPerToken) * 8.0 / bitsPerSecond;
        }
    }
    // within ns-3's time range (about 9.2e9 s) whatever the rates: at most 1e9 s
    Time allowance = llm.requests.empty() ? Time(0) : Seconds(std::min(seconds, 1e9));
    if (llm.noticeDelay && !llm.requests.empty())
    {
        allowance += std::min(*llm.noticeDelay, Seconds(1e9));
    }
    return allowance;
}

Time
DefaultLlmStopTime(const ExperimentConfig& config)
{
    // the schedule's end too: a run stops in its last mode interval at the earliest
    const Time least = std::max(Seconds(LLM_LEAST_STOP_SECONDS), config.end);
    if (config.llm.requests.empty())
    {
        return least;
    }
    const Time last = NanoSeconds(static_cast<int64_t>(config.llm.requests.back().arrivalNs));
    return std::max(least, last + LlmServeAllowance(config));
}

void
ValidateLlmConfig(const ExperimentConfig& config)
{
    const LlmWorkloadConfig& llm = config.llm;
    config.scenario.Validate();
    if (config.scale == 0)
    {
        mose::ThrowBadParameter("scale", "0", "an integer >= 1");
    }
    for (const auto& [rate, option] :
         {std::make_pair(config.ocsRate, "--ns3::MoseOcs::DataRate"),
          std::make_pair(config.hostRate,
                         "--hostRate (or --ns3::MoseTopologyHelper::HostDataRate)")})
    {
        if (rate && rate->GetBitRate() / config.scale == 0)
        {
            const uint64_t bps = rate->GetBitRate();
            mose::ThrowBadParameter(
                "--scale",
                std::to_string(config.scale),
                std::string(option) + " = " + std::to_string(bps) +
                    "bps divided by --scale would be 0 bit/s: a --scale of at most " +
                    std::to_string(bps) + ", or a rate of at least " +
                    std::to_string(config.scale) + "bps");
        }
    }
    if (config.hostsPerGroup == 0 || config.hostsPerGroup > ExperimentConfig::MAX_HOSTS_PER_GROUP)
    {
        mose::ThrowBadParameter("hostsPerGroup",
                                std::to_string(config.hostsPerGroup),
                                "1 (the group node runs the group's sockets, the default) to " +
                                    std::to_string(ExperimentConfig::MAX_HOSTS_PER_GROUP) +
                                    " hosts per group, one per GPU or NIC");
    }
    if (!(std::isfinite(llm.prefillTokensPerSecond) && llm.prefillTokensPerSecond > 0))
    {
        mose::ThrowBadParameter("prefillTokensPerSecond",
                                mose::FormatNumber(llm.prefillTokensPerSecond),
                                "a finite number > 0");
    }
    if (llm.kvBytesPerToken == 0)
    {
        mose::ThrowBadParameter("kvBytesPerToken", "0", "at least 1 byte per token");
    }
    if (config.portMtu && (*config.portMtu < 576 || *config.portMtu > 65535))
    {
        mose::ThrowBadParameter("portMtu", std::to_string(*config.portMtu), "576 to 65535 bytes");
    }
    if (config.end <= Time(0) || config.stopTime < config.end)
    {
        mose::ThrowBadParameter("end",
                                mose::FormatNumber(config.end.GetSeconds()) + " s",
                                "0 < end <= stopTime");
    }
    if (llm.requests.empty() && !llm.training)
    {
        mose::ThrowBadParameter("requests", "none, and no training job", "a workload to run");
    }
    if (llm.fluidRateEpoch.IsStrictlyNegative())
    {
        mose::ThrowBadParameter("fluidRateEpoch",
                                std::to_string(llm.fluidRateEpoch.GetNanoSeconds()) + " ns",
                                "a time >= 0 (0: exact rates)");
    }
    mose::ValidateLlmRequests(llm.requests, "requests");
    if (llm.noticeDelay && llm.noticeDelay->IsStrictlyNegative())
    {
        mose::ThrowBadParameter("noticeDelay",
                                std::to_string(llm.noticeDelay->GetNanoSeconds()) + " ns",
                                "a time >= 0");
    }
    MoseTransportHelper{config.transport}; // a mose::Error naming a type that is no transport
    if (config.ecn)
    {
        config.ecn->Validate();
    }
    const uint32_t rdmaMtu =
        ExperimentConfig::RDMA_JUMBO_PAYLOAD + MoseRdmaTransport::DATA_OVERHEAD;
    if (config.IsRdma() && config.portMtu && *config.portMtu < rdmaMtu)
    {
        mose::ThrowBadParameter("portMtu",
                                std::to_string(*config.portMtu),
                                "at least " + std::to_string(rdmaMtu) +
                                    " bytes with RDMA (a 4096-byte payload and 44 bytes of "
                                    "headers)");
    }
}
} // namespace mose
} // namespace ns3
