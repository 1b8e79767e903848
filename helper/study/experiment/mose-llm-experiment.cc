/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-llm-experiment.h"

#include "mose-experiment.h"
#include "mose-switch-experiment.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mose-attribute.h"
#include "ns3/mose-command-line.h"
#include "ns3/mose-distributed.h"
#include "ns3/mose-error.h"
#include "ns3/mose-fluid-fabric-helper.h"
#include "ns3/mose-format.h"
#include "ns3/mose-mode-controller.h"
#include "ns3/mose-model-shape.h"
#include "ns3/mose-ns3-compat.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-percentile.h"
#include "ns3/mose-random.h"
#include "ns3/mose-rank-messages.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-scale.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-text-io.h"
#include "ns3/mose-workload-summary.h"
#include "ns3/queue-size.h"
#include "ns3/red-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/system-wall-clock-ms.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseLlmExperiment");

namespace mose
{

namespace
{

/**
 * \brief A fabric that moves every transfer at once and records it: runs a training plan's
 *        iteration (PlanRunner) to list the transfers between groups it makes, unscaled, for
 *        the flow-level demand of an interval (a plan's transfers depend on its DAG, so the
 *        runner, not a formula, lists them).
 */
class RecordingFabric : public mose::WorkloadFabric
{
  public:
    int64_t Now() const override
    {
        return 0;
    }

    EventHandle Schedule(int64_t, Event event) override
    {
        m_events.push_back(std::move(event));
        return m_events.size();
    }

    void Cancel(EventHandle) override
    {
    }

    uint64_t StartTransfer(const mose::TransferSpec& transfer, DoneCallback done) override
    {
        const uint64_t id = transfers.size();
        transfers.push_back(transfer);
        m_events.push_back([id, transfer, done]() { done({id, transfer.bytes, 0}); });
        return id;
    }

    /// \brief Runs the events in the order scheduled until none is left
    void Run()
    {
        for (std::size_t k = 0; k < m_events.size(); ++k)
        {
            Event e = std::move(m_events[k]);
            e();
        }
    }

    std::vector<mose::TransferSpec> transfers; //!< every transfer started

  private:
    std::vector<Event> m_events; //!< in order
};

/**
 * Throws a mose::Error if the user configured the default of tid's attribute (Config::SetDefault,
 * the command line) to another value than the configuration's
 * \param type the type's name \param name the attribute \param value the configuration's value
 * \param field the configuration's field, for the message
 */
void
CheckUserDefault(const std::string& type,
                 const std::string& name,
                 const AttributeValue& value,
                 const std::string& field)
{
    const TypeId tid = TypeId::LookupByName(type);
    if (!mose::IsAttributeDefaultSet(tid, name))
    {
        return;
    }
    const std::string user = mose::GetAttributeDefaultText(tid, name);
    const std::string given = mose::GetAttributeValueText(tid, name, value);
    if (user != given)
    {
        throw mose::Error(
            type + "::" + name + " = " + mose::FormatAttributeText(tid, name, user) +
            " (set by Config::SetDefault or --" + type + "::" + name +
            ") conflicts with ExperimentConfig::" + field + " = " +
            mose::FormatAttributeText(tid, name, given) +
            ": the LLM experiment sets it on its own objects (rates before --scale divides "
            "them); set it in one place, or to the same value in both");
    }
}

/**
 * \return the current default of an attribute (its initial value, as Config::SetDefault and
 *         the command line leave it), as V's value type
 * \param type the type's name \param name the attribute
 */
template <typename V>
auto
AttributeDefault(const std::string& type, const std::string& name)
{
    TypeId::AttributeInformation info;
    Ptr<const V> value;
    if (TypeId::LookupByName(type).LookupAttributeByName(name, &info))
    {
        value = DynamicCast<const V>(info.initialValue);
    }
    if (!value)
    {
        throw mose::Error("LlmExperiment: no attribute " + type + "::" + name +
                          " of the kind "
                          "the fluid level reads");
    }
    return value->Get();
}

} // namespace

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

void
SetFluidQueues(const ExperimentConfig& config, mose::FluidFabricConfig& fabric)
{
    if (!config.IsRdma() || !config.ecn)
    {
        mose::ThrowBadParameter("--fluidQueues",
                                "true",
                                "--transport=rdma (RED with ECN on the ports): the fluid queues "
                                "model its marking and buffer");
    }
    const EcnMarking& e = *config.ecn;
    // the expected backlog at the first mark: RED marks a packet that finds q queued with
    // probability pmax (q - kmin) / (kmax - kmin); a queue that grows by one packet per two
    // arrivals (two senders at its rate) has marked (q - kmin)^2 pmax / (kmax - kmin) packets
    // in expectation by q, one at q = kmin + sqrt((kmax - kmin) / pmax); above kmax RED marks
    // every packet
    const double markPackets =
        e.kmin + std::min(e.kmax - e.kmin, std::sqrt((e.kmax - e.kmin) / e.pmax));
    fabric.queues = true;
    fabric.drainOnCut = true;
    fabric.markBytes = markPackets * fabric.segmentBytes;
    // the RED disc's buffer, in payload bytes (a size in bytes counts wire bytes)
    const QueueSize size(e.discSize);
    fabric.queueLimitBytes = size.GetUnit() == QueueSizeUnit::PACKETS
                                 ? static_cast<double>(size.GetValue()) * fabric.segmentBytes
                                 : static_cast<double>(size.GetValue()) * fabric.segmentBytes /
                                       fabric.wireBytesPerSegment;
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

LlmExperiment::LlmExperiment(const ExperimentConfig& config,
                             std::shared_ptr<const mose::Scenario> scenario)
    : m_config(config)
{
    NS_LOG_FUNCTION(this);
    if (scenario)
    {
        SetScenario(std::move(scenario));
    }
}

void
LlmExperiment::SetScenario(std::shared_ptr<const mose::Scenario> scenario)
{
    NS_LOG_FUNCTION(this);
    // the experiment's check, before anything is built
    Experiment(m_config).SetScenario(scenario, "LlmExperiment");
    m_scenario = std::move(scenario);
}

std::shared_ptr<const mose::Scenario>
LlmExperiment::GetScenario() const
{
    return m_built ? m_scenario : nullptr;
}

void
LlmExperiment::Build()
{
    NS_LOG_FUNCTION(this);
    if (m_built)
    {
        throw mose::Error("LlmExperiment::Build was already called");
    }
    ValidateLlmConfig(m_config);
    if (!m_scenario)
    {
        m_scenario = std::make_shared<const mose::Scenario>(
            mose::ScenarioBuilder(m_config.scenario).Build(m_config.run));
    }

    CheckUserDefaults();

    // the topology divides its rates by it, the workloads their byte counts, and
    // MoseFluidFabricHelper reads it
    const ScaleScope scale(m_config.scale);
    if (IsFluid(m_config.level))
    {
        BuildFluid();
        m_built = true;
        return;
    }

    // the fabric in the initial mode's template, rates divided by the scale, and the switcher
    // (its other attributes are MoseModeSwitcher's defaults, Config::SetDefault)
    m_experiment = std::make_unique<Experiment>(m_config);
    m_experiment->SetScenario(m_scenario, "LlmExperiment");
    m_experiment->Build(); // with RED, its streams fixed per disc (Experiment::ecn)

    m_transport = m_experiment->InstallTransport(
        CreateTransportHelper(m_experiment->GetTopology()->GetSmallestLinkDelay()));

    // the workloads, in the initial mode's roles and graph; they follow every switch (their
    // byte counts divided by MoseScale)
    MoseWorkloadHelper inference("ns3::MoseInferenceWorkload");
    inference.SetAttribute(
        "PlacementRule",
        MOSE_ENUM_VALUE(mose::PlacementRule)(
            MOSE_ENUM_CHECKER_VALUE(mose::PlacementRule, m_config.llm.placement)));
    inference.SetAttribute("PrefillTokensPerSecond",
                           DoubleValue(m_config.llm.prefillTokensPerSecond));
    inference.SetAttribute("KvBytesPerToken", UintegerValue(m_config.llm.kvBytesPerToken));
    m_inference = DynamicCast<MoseInferenceWorkload>(m_experiment->InstallWorkload(inference));
    m_inference->SetRequests(m_config.llm.requests);
    m_inference->Start(Seconds(0));

    if (m_config.llm.training)
    {
        MoseWorkloadHelper training("ns3::MoseTrainingWorkload");
        training.SetAttribute(
            "Collective",
            MOSE_ENUM_VALUE(mose::CollectiveKind)(
                MOSE_ENUM_CHECKER_VALUE(mose::CollectiveKind, m_config.llm.collective)));
        training.SetAttribute("CollectiveBytes", UintegerValue(m_config.llm.collectiveBytes));
        training.SetAttribute("ComputeTime", TimeValue(m_config.llm.computeTime));
        training.SetAttribute("MaxIterations", UintegerValue(m_config.llm.maxIterations));
        training.SetAttribute("ReuseConnections", BooleanValue(m_config.llm.reuseConnections));
        m_training = DynamicCast<MoseTrainingWorkload>(m_experiment->InstallWorkload(training));
        m_training->SetPlan(m_config.llm.trainingPlan, m_config.llm.rankMapping, m_config.llm.nccl);
        m_training->Start(Seconds(0));
        m_experiment->StopWorkloadAt(m_training, m_config.end); // no iteration starts after
    }
    m_experiment->SetDistributedCheck([this](Time lookahead) { CheckDistributedRun(lookahead); });
    m_experiment->SetCollect([this]() { Collect(); });
    m_built = true;
}

void
LlmExperiment::CheckUserDefaults() const
{
    // a user's default of a rate or the dark time wins or fails loudly: it must be the
    // configuration's (unscaled) value
    if (m_config.ocsRate)
    {
        CheckUserDefault("ns3::MoseOcs", "DataRate", DataRateValue(*m_config.ocsRate), "ocsRate");
    }
    if (m_config.hostRate)
    {
        CheckUserDefault("ns3::MoseTopologyHelper",
                         "HostDataRate",
                         DataRateValue(*m_config.hostRate),
                         "hostRate");
    }
    const TypeId topologyTid = MoseTopologyHelper::GetTypeId();
    if (mose::IsAttributeDefaultSet(topologyTid, "HostsPerGroup"))
    {
        UintegerValue hosts;
        hosts.DeserializeFromString(mose::GetAttributeDefaultText(topologyTid, "HostsPerGroup"),
                                    MakeUintegerChecker<uint32_t>());
        if (std::max<uint64_t>(hosts.Get(), 1) != m_config.hostsPerGroup)
        {
            throw mose::Error(
                "ns3::MoseTopologyHelper::HostsPerGroup = " + std::to_string(hosts.Get()) +
                " (set by Config::SetDefault or --ns3::MoseTopologyHelper::HostsPerGroup) "
                "conflicts with ExperimentConfig::hostsPerGroup = " +
                std::to_string(m_config.hostsPerGroup) +
                " (mose-llm --hostsPerGroup): set it in one place, or to the same number of "
                "endpoints in both (HostsPerGroup 0 and 1 are both one endpoint per group)");
        }
    }
    if (m_config.portMtu && m_config.hostsPerGroup > 1)
    {
        CheckUserDefault("ns3::MoseTopologyHelper",
                         "HostMtu",
                         UintegerValue(*m_config.portMtu),
                         "portMtu");
    }
    if (m_config.ecn && !IsFluid(m_config.level))
    {
        // the ports' RED (rdma, SetLlmTransport()) is set on this run's discs: a user's
        // default must agree
        CheckUserDefault("ns3::MoseTopologyHelper",
                         "QueueDiscType",
                         TypeIdValue(RedQueueDisc::GetTypeId()),
                         "transport");
        CheckUserDefault("ns3::RedQueueDisc", "MinTh", DoubleValue(m_config.ecn->kmin), "ecn.kmin");
        CheckUserDefault("ns3::RedQueueDisc", "MaxTh", DoubleValue(m_config.ecn->kmax), "ecn.kmax");
        CheckUserDefault("ns3::RedQueueDisc",
                         "LInterm",
                         DoubleValue(1.0 / m_config.ecn->pmax),
                         "ecn.pmax");
    }
    if (m_config.darkTime)
    {
        CheckUserDefault("ns3::MoseModeSwitcher",
                         "ReconfigurationDelay",
                         TimeValue(*m_config.darkTime),
                         "darkTime");
    }
}

MoseTransportHelper
LlmExperiment::CreateTransportHelper(Time smallestLinkDelay)
{
    // its other attributes are the transport's defaults
    MoseTransportHelper helper(m_config.transport);
    if (m_config.portMtu)
    {
        if (m_config.IsRdma())
        {
            helper.SetAttribute("PayloadSize", UintegerValue(ExperimentConfig::RDMA_JUMBO_PAYLOAD));
        }
        else
        {
            helper.SetAttribute("SegmentSize", UintegerValue(*m_config.portMtu - 52));
        }
    }
    m_noticeDelay = ResolveNoticeDelay(smallestLinkDelay);
    helper.SetAttribute("NoticeDelay", TimeValue(m_noticeDelay));
    return helper;
}

Time
LlmExperiment::ResolveNoticeDelay(Time smallestLinkDelay) const
{
    // the configuration's, else the user's attribute default, else twice the smallest link
    // delay (what a run on several ranks needs, and the same on one)
    const std::string& type = m_config.transport;
    if (m_config.llm.noticeDelay)
    {
        CheckUserDefault(type, "NoticeDelay", TimeValue(*m_config.llm.noticeDelay), "noticeDelay");
        return *m_config.llm.noticeDelay;
    }
    if (mose::IsAttributeDefaultSet(TypeId::LookupByName(type), "NoticeDelay"))
    {
        return AttributeDefault<TimeValue>(type, "NoticeDelay");
    }
    return 2 * smallestLinkDelay;
}

void
LlmExperiment::BuildFluid()
{
    if (MoseDistributed::GetNRanks() > 1)
    {
        throw mose::Error("the fluid level runs on one process: give no --distributed, or run "
                          "the packet level (--level=packet)");
    }
    mose::FluidLlmConfig f;
    const mose::Scenario& sc = *m_scenario;
    // the fabric from the helpers the packet level builds it with, configured alike (nothing
    // is installed): rates divided by MoseScale, hosts, delays, the transport's segment and
    // notice delay, the switcher's phases, drain and dark time
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    Experiment::ConfigureTopology(m_config, *topology);
    topology->SetRouting(m_config.scenario.routing, sc.routingSeed);
    Ptr<MoseTransport> transport = CreateTransportHelper(topology->GetSmallestLinkDelay()).Create();
    f.fabric = MoseFluidFabricHelper::Read(*topology, m_config.GetSwitcherHelper(), transport);
    f.fabric.rateEpochNs = m_config.llm.fluidRateEpoch.GetNanoSeconds();
    if (m_config.llm.fluidQueues)
    {
        SetFluidQueues(m_config, f.fabric);
    }

    for (auto mode : {mose::WorkloadMode::INFERENCE_HEAVY, mose::WorkloadMode::TRAINING_HEAVY})
    {
        const auto m = static_cast<std::size_t>(mode);
        f.roles[m] = sc.roles[m];
        f.graphs[m] = sc.GetGraph(m_config.policy, mode);
    }
    f.initialMode = m_config.GetInitialMode();
    const std::vector<Time> times = MoseScheduleTimes(m_config.schedule);
    m_fluidGraphs = {f.graphs[static_cast<std::size_t>(f.initialMode)]};
    for (std::size_t i = 1; i < m_config.schedule.size(); ++i)
    {
        f.boundaries.emplace_back(times[i].GetNanoSeconds(), m_config.schedule[i].mode);
        m_fluidGraphs.push_back(f.graphs[static_cast<std::size_t>(m_config.schedule[i].mode)]);
    }
    f.endNs = m_config.end.GetNanoSeconds();
    f.stopNs = m_config.stopTime.GetNanoSeconds();
    f.requests = m_config.llm.requests;
    f.inference.kvBytesPerToken = m_config.llm.kvBytesPerToken;
    f.inference.placement = m_config.llm.placement;
    f.inference.prefillTokensPerSecond = m_config.llm.prefillTokensPerSecond;
    f.inference.scale = MoseScale::Get();
    if (!m_config.llm.training)
    {
        f.training.reset();
    }
    else
    {
        // the default settings FluidLlmConfig holds (not reset and emplaced: GCC 12 warns of
        // -Wmaybe-uninitialized members inside std::optional::emplace)
        mose::TrainingSettings& t = f.training.value();
        t.collective = m_config.llm.collective;
        t.collectiveBytes = m_config.llm.collectiveBytes;
        t.computeNs = m_config.llm.computeTime.GetNanoSeconds();
        t.maxIterations = m_config.llm.maxIterations;
        t.scale = MoseScale::Get();
        t.aggregate = GetLevelTraits(m_config.level).aggregateCollectives;
        t.plan = m_config.llm.trainingPlan;
        t.rankMapping = std::make_shared<const mose::RankMapping>(m_config.llm.rankMapping);
        t.nccl = m_config.llm.nccl;
    }
    f.Validate();
    m_fluid = std::move(f);
}

void
LlmExperiment::RunFluid()
{
    m_fluidRun = std::make_unique<mose::FluidLlmRun>(*m_fluid);
    SystemWallClockMs clock;
    clock.Start();
    m_fluidRun->Run();
    m_fluidFigures = FluidRunFigures(*m_fluidRun->GetFabric(),
                                     m_fluidRun->GetEndNs(),
                                     static_cast<double>(clock.End()) / 1000.0);
    // the fabric's switch records in the packet level's form (MoseSwitchRecord)
    const auto at = [](int64_t ns) { return NanoSeconds(ns); };
    m_fluidRecords.clear();
    mose::WorkloadMode from = m_fluid->initialMode;
    for (const mose::FluidSwitchRecord& f : m_fluidRun->GetFabric()->GetSwitchRecords())
    {
        MoseSwitchRecord r;
        r.index = f.index;
        r.from = from;
        r.to = m_fluid->boundaries.at(f.index).second;
        from = r.to;
        r.start = at(f.startNs);
        r.done = f.done;
        r.end = f.done ? at(f.endNs) : Time(0);
        r.until = f.done ? r.end : at(m_fluidRun->GetEndNs());
        r.phases = m_fluid->fabric.phases;
        r.kept = f.kept;
        r.removed = f.removed;
        r.added = f.added;
        r.drainTime = at(f.drainNs);
        r.darkTime = at(f.darkNs);
        r.blackoutTime = at(f.blackoutNs);
        m_fluidRecords.push_back(r);
    }
}

void
LlmExperiment::CheckDistributedRun(Time lookAhead) const
{
    const auto ns = [](Time t) { return std::to_string(t.GetNanoSeconds()) + " ns"; };
    if (m_noticeDelay <= lookAhead)
    {
        mose::ThrowBadParameter("noticeDelay",
                                ns(m_noticeDelay),
                                "above the lookahead of this run on " +
                                    std::to_string(MoseDistributed::GetNRanks()) +
                                    " MPI ranks, the smallest link delay, " + ns(lookAhead) +
                                    " (every rank must have every completion notice of a time "
                                    "before it acts on them)");
    }
    // the workloads' own delays must exceed the notice delay: an event a workload schedules
    // itself is then queued before any notice of its time, on every rank, and the events
    // every rank runs keep one order everywhere
    if (m_training && m_config.llm.computeTime <= m_noticeDelay)
    {
        mose::ThrowBadParameter("computeTime",
                                ns(m_config.llm.computeTime),
                                "above the notice delay " + ns(m_noticeDelay) +
                                    " on several MPI ranks");
    }
    for (const mose::LlmRequest& r : m_config.llm.requests)
    {
        const Time prefill =
            Seconds(static_cast<double>(r.inputTokens) / m_config.llm.prefillTokensPerSecond);
        if (prefill <= m_noticeDelay)
        {
            mose::ThrowBadParameter("prefillTokensPerSecond",
                                    mose::FormatNumber(m_config.llm.prefillTokensPerSecond),
                                    "a rate at which every request's prefill takes longer than "
                                    "the notice delay " +
                                        ns(m_noticeDelay) + " on several MPI ranks (a request of " +
                                        std::to_string(r.inputTokens) + " tokens takes " +
                                        ns(prefill) + ")");
        }
    }
}

void
LlmExperiment::Collect()
{
    Ptr<MoseTransport> transfers = m_experiment->GetTransport();
    m_requests = m_inference->GetRecords();
    // which unserved KV transfers had delivered their last byte: the transfers of a request
    // are known by their groups, start and bytes
    std::multiset<std::tuple<uint32_t, uint32_t, int64_t, uint64_t>> delivered;
    for (const MoseTransfer& t : m_inference->GetTransfers())
    {
        if (!t.complete && t.received >= t.bytes)
        {
            delivered.emplace(t.src, t.dst, t.start.GetTimeStep(), t.bytes);
        }
    }
    m_kvDelivered.assign(m_requests.size(), false);
    for (std::size_t i = 0; i < m_requests.size(); ++i)
    {
        const MoseRequestRecord& r = m_requests[i];
        const auto key = std::make_tuple(r.prefill, r.decode, r.kvStart.GetTimeStep(), r.wireBytes);
        auto found = delivered.find(key);
        if (!r.done && r.arrived && r.prefillDone.IsStrictlyPositive() && found != delivered.end())
        {
            m_kvDelivered[i] = true;
            delivered.erase(found);
        }
    }
    if (m_training)
    {
        m_iterations = m_training->GetRecords();
        m_collectives = m_training->GetCollectiveRecords();
    }
    m_connections = transfers->GetNConnections();
    const uint32_t n = m_config.scenario.nodes;
    m_pairBytes.assign(static_cast<std::size_t>(n) * n, 0);
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            if (s != d)
            {
                m_pairBytes[static_cast<std::size_t>(s) * n + d] = transfers->GetBytesBetween(s, d);
            }
        }
    }
    m_divergences = 0;
    if (MoseDistributed::GetNRanks() > 1)
    {
        // what each rank counted of its own nodes: summed
        std::vector<uint64_t*> counts{&m_connections};
        for (uint64_t& b : m_pairBytes)
        {
            counts.push_back(&b);
        }
        MoseDistributed::SumEachOverRanks(counts);
        // every rank runs the workloads whole: the ranks must agree on what they started and
        // completed; a difference is a divergence of the replicas, counted as an error
        for (uint64_t figure : {transfers->GetNTransfers(), transfers->GetNCompleted()})
        {
            const std::vector<uint64_t> all = MoseDistributed::GatherOverRanks(figure);
            if (std::adjacent_find(all.begin(), all.end(), std::not_equal_to<>()) != all.end())
            {
                ++m_divergences;
                NS_LOG_ERROR("the MPI ranks disagree on the transfers started or completed");
            }
        }
    }
    m_inference = nullptr;
    m_training = nullptr;
}

void
LlmExperiment::Run(bool progress)
{
    NS_LOG_FUNCTION(this);
    if (!m_built || m_ran)
    {
        throw mose::Error("LlmExperiment::Run needs Build() and runs once");
    }
    if (m_fluid)
    {
        RunFluid();
        m_ran = true;
        return;
    }
    if (progress)
    {
        Time horizon = m_config.end;
        if (!m_config.llm.requests.empty())
        {
            horizon =
                std::max(horizon,
                         NanoSeconds(static_cast<int64_t>(m_config.llm.requests.back().arrivalNs)));
        }
        m_experiment->SetProgress(horizon, [this]() {
            std::ostringstream o;
            o << m_inference->GetNDone() << "/" << m_config.llm.requests.size()
              << " requests served, " << (m_training ? m_training->GetNDone() : 0) << " iterations";
            return o.str();
        });
    }
    m_experiment->Run("the LLM experiment of policy " + mose::ToString(m_config.policy));
    m_ran = true;
}

Ptr<MoseTransport>
LlmExperiment::GetTransport() const
{
    return m_transport;
}

Ptr<MoseTopologyHelper>
LlmExperiment::GetTopology() const
{
    return m_experiment ? m_experiment->GetTopology() : nullptr;
}

uint64_t
LlmExperiment::GetEcnMarks() const
{
    return m_experiment ? m_experiment->GetEcnMarks() : 0;
}

const ExperimentConfig&
LlmExperiment::GetConfig() const
{
    return m_config;
}

const std::vector<MoseRequestRecord>&
LlmExperiment::GetRequests() const
{
    return m_fluidRun ? m_fluidRun->GetRequests() : m_requests;
}

const std::vector<MoseIterationRecord>&
LlmExperiment::GetIterations() const
{
    return m_fluidRun ? m_fluidRun->GetIterations() : m_iterations;
}

const std::vector<mose::CollectiveRecord>&
LlmExperiment::GetCollectives() const
{
    return m_fluidRun ? m_fluidRun->GetCollectives() : m_collectives;
}

bool
LlmExperiment::IsDone() const
{
    return m_ran;
}

const std::vector<MoseSwitchRecord>&
LlmExperiment::GetSwitchRecords() const
{
    return m_experiment ? m_experiment->GetSwitchRecords() : m_fluidRecords;
}

const mose::RoleAssignment&
LlmExperiment::GetRoles(mose::WorkloadMode mode) const
{
    if (!m_built)
    {
        throw mose::Error("LlmExperiment::GetRoles: call Build() first");
    }
    return m_scenario->roles.at(static_cast<std::size_t>(mode));
}

bool
LlmExperiment::IsKvDelivered(std::size_t i) const
{
    if (m_fluidRun)
    {
        return m_fluidRun->GetDelivered().at(i);
    }
    return i < m_kvDelivered.size() && m_kvDelivered[i];
}

uint64_t
LlmExperiment::GetBytesBetween(uint32_t src, uint32_t dst) const
{
    const uint32_t n = m_config.scenario.nodes;
    if (!m_ran || src >= n || dst >= n)
    {
        mose::ThrowBadParameter("groups",
                                std::to_string(src) + "->" + std::to_string(dst),
                                "groups below N after Run()");
    }
    if (m_fluidRun)
    {
        return src == dst ? 0 : m_fluidRun->GetFabric()->GetBytesBetween(src, dst);
    }
    return m_pairBytes[static_cast<std::size_t>(src) * n + dst];
}

LlmSummary
SummarizeLlmWindow(mose::Policy policy,
                   const std::vector<MoseRequestRecord>& requests,
                   const std::vector<MoseIterationRecord>& iterations,
                   Time from,
                   Time to)
{
    // the workloads' own summaries of the window
    LlmSummary s;
    s.policy = policy;
    s.inference = mose::SummarizeRequests(requests, from, to);
    s.training = mose::SummarizeIterations(iterations, from, to);
    return s;
}

LlmSummary
LlmExperiment::GetSummary() const
{
    // the statistics of the whole run (the workloads' own summaries): one window from 0 to the
    // end of time, which holds every request in the list (one not arrived has arrival 0)
    const std::vector<MoseRequestRecord>& requests = GetRequests();
    LlmSummary s =
        SummarizeLlmWindow(m_config.policy, requests, GetIterations(), Time(0), Time::Max());
    s.level = m_config.level;
    s.fluidQueues = IsFluid(m_config.level) && m_config.llm.fluidQueues;
    s.switches = static_cast<uint32_t>(GetSwitchRecords().size());
    s.noticeDelay = m_noticeDelay;
    s.stopTime = m_config.stopTime;
    // what the run took, at either level
    const RunFigures* figures = m_experiment ? &m_experiment->GetRunFigures()
                                : m_fluidRun ? &m_fluidFigures
                                             : nullptr;
    if (figures)
    {
        s.wallSeconds = figures->wallSeconds;
        s.events = figures->events;
        s.simulatedSeconds = figures->simulatedSeconds;
        s.eventsPerRank = figures->eventsPerRank;
    }
    if (m_experiment)
    {
        // the packet level's fabric and switcher: the Experiment's counters
        s.lost = m_experiment->GetPacketsLost();
        s.errors = m_experiment->GetNErrors() + m_divergences;
        s.connections = m_connections;
        s.circuitsCut = m_experiment->GetCircuitsCut();
    }
    else if (m_fluidRun)
    {
        // the fluid run's and its fabric's counters (no packets, connections or ranks)
        const mose::FluidFabric& fabric = *m_fluidRun->GetFabric();
        s.errors = m_fluidRun->GetNErrors();
        s.rateComputations = fabric.GetNRateComputations();
        s.queueCuts = fabric.GetNCuts();
        for (double bytes : fabric.GetDroppedBytes())
        {
            s.droppedBytes += bytes;
            s.droppingPorts += bytes > 0 ? 1 : 0;
        }
        s.flows = fabric.GetTransfers().size();
        for (const mose::FluidTransfer& t : fabric.GetTransfers())
        {
            s.transfers += t.parts;
        }
    }
    for (std::size_t i = 0; i < requests.size(); ++i)
    {
        const MoseRequestRecord& r = requests[i];
        if (r.done)
        {
            continue;
        }
        if (!r.arrived)
        {
            ++s.unservedNotArrived;
        }
        else if (!r.prefillDone.IsStrictlyPositive())
        {
            ++s.unservedInPrefill;
        }
        else if (IsKvDelivered(i))
        {
            ++s.unservedNoticeLate;
        }
        else
        {
            ++s.unservedInFlight;
        }
    }
    return s;
}

std::size_t
LlmExperiment::GetIntervalCount() const
{
    return m_config.GetIntervalStarts().size();
}

const mose::CircuitGraph&
LlmExperiment::GetIntervalGraph(std::size_t interval) const
{
    if (!m_built)
    {
        throw mose::Error("LlmExperiment::GetIntervalGraph: call Build() first");
    }
    if (interval >= GetIntervalCount())
    {
        mose::ThrowBadParameter("interval",
                                std::to_string(interval),
                                "below the " + std::to_string(GetIntervalCount()) +
                                    " intervals of the schedule");
    }
    // the intervals whose switch started have their own graph; the later ones keep the last
    if (m_fluid)
    {
        const uint32_t started = m_fluidRun ? m_fluidRun->GetNSwitchesStarted() : 0;
        return m_fluidGraphs[std::min<std::size_t>(interval, started)];
    }
    const std::size_t started = m_experiment->GetNSwitchesStarted();
    return m_experiment->GetIntervals()[std::min(interval, started)].graph;
}

std::vector<mose::Flow>
LlmExperiment::GetIntervalFlows(std::size_t interval) const
{
    GetIntervalGraph(interval); // checks the index
    const std::vector<Time> starts = m_config.GetIntervalStarts();
    const Time a = starts[interval];
    const Time b = interval + 1 < starts.size() ? starts[interval + 1] : m_config.end;
    std::vector<mose::Flow> flows;
    for (const auto& r : GetRequests())
    {
        if (r.arrived && r.arrival >= a && r.arrival < b)
        {
            flows.push_back(mose::Flow{r.prefill,
                                       r.decode,
                                       mose::TrafficClass::KV,
                                       static_cast<double>(r.kvBytes)});
        }
    }
    std::map<mose::WorkloadMode, std::vector<mose::TransferSpec>> planned; // a plan's, per mode
    for (const auto& r : GetIterations())
    {
        if (r.start < a || r.start >= b)
        {
            continue;
        }
        const std::vector<uint32_t>& members =
            m_scenario->roles[static_cast<std::size_t>(r.mode)].GetTraining();
        if (m_config.llm.trainingPlan)
        {
            auto found = planned.find(r.mode);
            if (found == planned.end())
            {
                mose::PlanRunner runner;
                runner.Prepare(*m_config.llm.trainingPlan,
                               m_config.llm.rankMapping,
                               members,
                               m_config.llm.nccl,
                               1);
                RecordingFabric fabric;
                runner.Run(fabric, 0, mose::TrafficClass::TRAINING, [](int64_t) {});
                fabric.Run();
                found = planned.emplace(r.mode, std::move(fabric.transfers)).first;
            }
            for (const mose::TransferSpec& t : found->second)
            {
                flows.push_back(mose::Flow{t.src,
                                           t.dst,
                                           mose::TrafficClass::TRAINING,
                                           static_cast<double>(t.bytes)});
            }
            continue;
        }
        const mose::CollectivePlan plan =
            mose::PlanCollective(m_config.llm.collective,
                                 static_cast<uint32_t>(members.size()),
                                 r.bytesPerMember);
        for (const mose::CollectiveTransfer& t : plan.transfers)
        {
            flows.push_back(mose::Flow{members[t.src],
                                       members[t.dst],
                                       mose::TrafficClass::TRAINING,
                                       static_cast<double>(t.bytes)});
        }
    }
    return flows;
}

mose::FlowMetrics
LlmExperiment::GetIntervalMetrics(std::size_t interval) const
{
    const std::vector<mose::Flow> flows = GetIntervalFlows(interval);
    if (flows.empty())
    {
        return mose::FlowMetrics{};
    }
    if (m_fluid)
    {
        const mose::ShortestPathRouting routing(GetIntervalGraph(interval),
                                                m_config.scenario.routing,
                                                m_scenario->routingSeed);
        return mose::EvaluateFlows(routing, flows);
    }
    return m_experiment->EvaluateFlows(GetIntervalGraph(interval), flows);
}

mose::ModeSchedule
LlmExperiment::ThresholdSchedule(const std::vector<mose::LlmRequest>& requests,
                                 const mose::ModeControllerOptions& options,
                                 Time period,
                                 Time end)
{
    if (period <= Time(0) || end < period)
    {
        mose::ThrowBadParameter("controller period",
                                std::to_string(period.GetSeconds()) + " s",
                                "0 < period <= end");
    }
    return mose::ScheduleModes(requests,
                               mose::OfferedLoad::REQUESTS,
                               mose::ModelShape::FromPreset(mose::ModelPreset::LLAMA_3_8B),
                               options,
                               static_cast<uint64_t>(period.GetNanoSeconds()),
                               static_cast<uint64_t>(end.GetNanoSeconds()));
}

} // namespace mose
} // namespace ns3
