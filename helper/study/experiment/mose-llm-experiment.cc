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
        throw mose::Error("the LLM workloads: no attribute " + type + "::" + name +
                          " of the kind "
                          "the fluid level reads");
    }
    return value->Get();
}

} // namespace

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

namespace
{

/**
 * \brief What a packet-level LLM run holds from Experiment::Build() until its collector read
 *        them: its workloads.
 */
struct LlmWorkloads
{
    Ptr<MoseInferenceWorkload> inference; //!< the requests
    Ptr<MoseTrainingWorkload> training;   //!< the training job (may be null)
};

/**
 * \brief A user's default (Config::SetDefault, the command line) of a rate, the hosts per
 *        group, the MTU, the ports' RED or the dark time must be the configuration's value
 *        (unscaled): Error naming both otherwise
 * \param config the configuration
 */
void
CheckUserDefaults(const ExperimentConfig& config)
{
    // a user's default of a rate or the dark time wins or fails loudly: it must be the
    // configuration's (unscaled) value
    if (config.ocsRate)
    {
        CheckUserDefault("ns3::MoseOcs", "DataRate", DataRateValue(*config.ocsRate), "ocsRate");
    }
    if (config.hostRate)
    {
        CheckUserDefault("ns3::MoseTopologyHelper",
                         "HostDataRate",
                         DataRateValue(*config.hostRate),
                         "hostRate");
    }
    const TypeId topologyTid = MoseTopologyHelper::GetTypeId();
    if (mose::IsAttributeDefaultSet(topologyTid, "HostsPerGroup"))
    {
        UintegerValue hosts;
        hosts.DeserializeFromString(mose::GetAttributeDefaultText(topologyTid, "HostsPerGroup"),
                                    MakeUintegerChecker<uint32_t>());
        if (std::max<uint64_t>(hosts.Get(), 1) != config.hostsPerGroup)
        {
            throw mose::Error(
                "ns3::MoseTopologyHelper::HostsPerGroup = " + std::to_string(hosts.Get()) +
                " (set by Config::SetDefault or --ns3::MoseTopologyHelper::HostsPerGroup) "
                "conflicts with ExperimentConfig::hostsPerGroup = " +
                std::to_string(config.hostsPerGroup) +
                " (mose-llm --hostsPerGroup): set it in one place, or to the same number of "
                "endpoints in both (HostsPerGroup 0 and 1 are both one endpoint per group)");
        }
    }
    if (config.portMtu && config.hostsPerGroup > 1)
    {
        CheckUserDefault("ns3::MoseTopologyHelper",
                         "HostMtu",
                         UintegerValue(*config.portMtu),
                         "portMtu");
    }
    if (config.ecn && !IsFluid(config.level))
    {
        // the ports' RED (rdma, SetLlmTransport()) is set on this run's discs: a user's
        // default must agree
        CheckUserDefault("ns3::MoseTopologyHelper",
                         "QueueDiscType",
                         TypeIdValue(RedQueueDisc::GetTypeId()),
                         "transport");
        CheckUserDefault("ns3::RedQueueDisc", "MinTh", DoubleValue(config.ecn->kmin), "ecn.kmin");
        CheckUserDefault("ns3::RedQueueDisc", "MaxTh", DoubleValue(config.ecn->kmax), "ecn.kmax");
        CheckUserDefault("ns3::RedQueueDisc",
                         "LInterm",
                         DoubleValue(1.0 / config.ecn->pmax),
                         "ecn.pmax");
    }
    if (config.darkTime)
    {
        CheckUserDefault("ns3::MoseModeSwitcher",
                         "ReconfigurationDelay",
                         TimeValue(*config.darkTime),
                         "darkTime");
    }
}

/**
 * \brief The transport's notice delay, by the one rule of both levels: the configuration's (a
 *        user default of the transport's NoticeDelay, e.g. ns3::MoseRdmaTransport::NoticeDelay,
 *        must agree: Error), else that default if the user set it, else twice the smallest link
 *        delay (what a run on several ranks needs, and the same on one)
 * \param config the configuration \param smallestLinkDelay the fabric's smallest link delay
 * \return the notice delay
 */
Time
ResolveNoticeDelay(const ExperimentConfig& config, Time smallestLinkDelay)
{
    const std::string& type = config.transport;
    if (config.llm.noticeDelay)
    {
        CheckUserDefault(type, "NoticeDelay", TimeValue(*config.llm.noticeDelay), "noticeDelay");
        return *config.llm.noticeDelay;
    }
    if (mose::IsAttributeDefaultSet(TypeId::LookupByName(type), "NoticeDelay"))
    {
        return AttributeDefault<TimeValue>(type, "NoticeDelay");
    }
    return 2 * smallestLinkDelay;
}

/**
 * \brief The helper of the LLM workloads' transport (ExperimentConfig::transport): TCP's
 *        SegmentSize or RDMA's PayloadSize from the jumbo MTU (MoseRdmaTransport scales its own
 *        timers and rates by MoseScale), NoticeDelay by ResolveNoticeDelay() (kept in the
 *        result). The packet level installs its transport on the fabric
 *        (MoseTransportHelper::Install(topology): RDMA's in-flight cap from the fabric unless
 *        the user set it), the fluid level reads one (MoseFluidFabricHelper)
 * \param config the configuration \param smallestLinkDelay the fabric's smallest link delay
 * \param result the run's result (its noticeDelay set)
 * \return the helper
 */
MoseTransportHelper
CreateTransportHelper(const ExperimentConfig& config, Time smallestLinkDelay, LlmResult& result)
{
    // its other attributes are the transport's defaults
    MoseTransportHelper helper(config.transport);
    if (config.portMtu)
    {
        if (config.IsRdma())
        {
            helper.SetAttribute("PayloadSize", UintegerValue(ExperimentConfig::RDMA_JUMBO_PAYLOAD));
        }
        else
        {
            helper.SetAttribute("SegmentSize", UintegerValue(*config.portMtu - 52));
        }
    }
    result.noticeDelay = ResolveNoticeDelay(config, smallestLinkDelay);
    helper.SetAttribute("NoticeDelay", TimeValue(result.noticeDelay));
    return helper;
}

/**
 * \brief The check of a run on several MPI ranks: the notice delay above the lookahead, and
 *        every delay the workloads schedule themselves above the notice delay (Error naming
 *        the parameter)
 * \param config the configuration \param noticeDelay the run's \param lookAhead the lookahead
 */
void
CheckDistributedRun(const ExperimentConfig& config, Time noticeDelay, Time lookAhead)
{
    const auto ns = [](Time t) { return std::to_string(t.GetNanoSeconds()) + " ns"; };
    if (noticeDelay <= lookAhead)
    {
        mose::ThrowBadParameter("noticeDelay",
                                ns(noticeDelay),
                                "above the lookahead of this run on " +
                                    std::to_string(MoseDistributed::GetNRanks()) +
                                    " MPI ranks, the smallest link delay, " + ns(lookAhead) +
                                    " (every rank must have every completion notice of a time "
                                    "before it acts on them)");
    }
    // the workloads' own delays must exceed the notice delay: an event a workload schedules
    // itself is then queued before any notice of its time, on every rank, and the events
    // every rank runs keep one order everywhere
    if (config.llm.training && config.llm.computeTime <= noticeDelay)
    {
        mose::ThrowBadParameter("computeTime",
                                ns(config.llm.computeTime),
                                "above the notice delay " + ns(noticeDelay) +
                                    " on several MPI ranks");
    }
    for (const mose::LlmRequest& r : config.llm.requests)
    {
        const Time prefill =
            Seconds(static_cast<double>(r.inputTokens) / config.llm.prefillTokensPerSecond);
        if (prefill <= noticeDelay)
        {
            mose::ThrowBadParameter("prefillTokensPerSecond",
                                    mose::FormatNumber(config.llm.prefillTokensPerSecond),
                                    "a rate at which every request's prefill takes longer than "
                                    "the notice delay " +
                                        ns(noticeDelay) + " on several MPI ranks (a request of " +
                                        std::to_string(r.inputTokens) + " tokens takes " +
                                        ns(prefill) + ")");
        }
    }
}

/**
 * \brief Bytes received between groups, N x N (src-major, 0 on the diagonal)
 * \param n N \param between the bytes received at dst from src
 * \return the matrix
 */
template <typename Between>
std::vector<uint64_t>
ReadPairBytes(uint32_t n, const Between& between)
{
    std::vector<uint64_t> bytes(static_cast<std::size_t>(n) * n, 0);
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            if (s != d)
            {
                bytes[static_cast<std::size_t>(s) * n + d] = between(s, d);
            }
        }
    }
    return bytes;
}

/**
 * \brief The packet level's collector: the records, the KV transfers delivered, the
 *        transport's counts (summed over the ranks, which must agree); then lets go of the
 *        workloads
 * \param experiment the run \param workloads its workloads \param result its result
 */
void
Collect(const Experiment& experiment, LlmWorkloads& workloads, LlmResult& result)
{
    Ptr<MoseTransport> transfers = experiment.GetTransport();
    result.requests = workloads.inference->GetRecords();
    // which unserved KV transfers had delivered their last byte: the transfers of a request
    // are known by their groups, start and bytes
    std::multiset<std::tuple<uint32_t, uint32_t, int64_t, uint64_t>> delivered;
    for (const MoseTransfer& t : workloads.inference->GetTransfers())
    {
        if (!t.complete && t.received >= t.bytes)
        {
            delivered.emplace(t.src, t.dst, t.start.GetTimeStep(), t.bytes);
        }
    }
    result.kvDelivered.assign(result.requests.size(), false);
    for (std::size_t i = 0; i < result.requests.size(); ++i)
    {
        const MoseRequestRecord& r = result.requests[i];
        const auto key = std::make_tuple(r.prefill, r.decode, r.kvStart.GetTimeStep(), r.wireBytes);
        auto found = delivered.find(key);
        if (!r.done && r.arrived && r.prefillDone.IsStrictlyPositive() && found != delivered.end())
        {
            result.kvDelivered[i] = true;
            delivered.erase(found);
        }
    }
    if (workloads.training)
    {
        result.iterations = workloads.training->GetRecords();
        result.collectives = workloads.training->GetCollectiveRecords();
    }
    result.connections = transfers->GetNConnections();
    result.pairBytes = ReadPairBytes(result.nodes, [&transfers](uint32_t s, uint32_t d) {
        return transfers->GetBytesBetween(s, d);
    });
    result.switchesStarted = experiment.GetNSwitchesStarted();
    result.errors = 0;
    if (MoseDistributed::GetNRanks() > 1)
    {
        // what each rank counted of its own nodes: summed
        std::vector<uint64_t*> counts{&result.connections};
        for (uint64_t& b : result.pairBytes)
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
                ++result.errors;
                NS_LOG_ERROR("the MPI ranks disagree on the transfers started or completed");
            }
        }
    }
    result.ran = true;
    workloads = LlmWorkloads();
}

/**
 * \brief The packet level, at the end of Experiment::Build(): the transport on the fabric,
 *        the inference and training workloads in the initial mode's roles and graph (they
 *        follow every switch, their byte counts divided by MoseScale), the distributed check,
 *        the progress lines and the collector
 * \param experiment the run, its fabric built \param result its result
 * \param progress the progress lines
 */
void
InstallPacket(Experiment& experiment, const std::shared_ptr<LlmResult>& result, bool progress)
{
    const ExperimentConfig& config = experiment.GetConfig();
    const LlmWorkloadConfig& llm = config.llm;
    result->transport = experiment.InstallTransport(
        CreateTransportHelper(config, experiment.GetTopology()->GetSmallestLinkDelay(), *result));

    auto workloads = std::make_shared<LlmWorkloads>();
    MoseWorkloadHelper inference("ns3::MoseInferenceWorkload");
    inference.SetAttribute("PlacementRule",
                           MOSE_ENUM_VALUE(mose::PlacementRule)(
                               MOSE_ENUM_CHECKER_VALUE(mose::PlacementRule, llm.placement)));
    inference.SetAttribute("PrefillTokensPerSecond", DoubleValue(llm.prefillTokensPerSecond));
    inference.SetAttribute("KvBytesPerToken", UintegerValue(llm.kvBytesPerToken));
    workloads->inference =
        DynamicCast<MoseInferenceWorkload>(experiment.InstallWorkload(inference));
    workloads->inference->SetRequests(llm.requests);
    workloads->inference->Start(Seconds(0));

    if (llm.training)
    {
        MoseWorkloadHelper training("ns3::MoseTrainingWorkload");
        training.SetAttribute("Collective",
                              MOSE_ENUM_VALUE(mose::CollectiveKind)(
                                  MOSE_ENUM_CHECKER_VALUE(mose::CollectiveKind, llm.collective)));
        training.SetAttribute("CollectiveBytes", UintegerValue(llm.collectiveBytes));
        training.SetAttribute("ComputeTime", TimeValue(llm.computeTime));
        training.SetAttribute("MaxIterations", UintegerValue(llm.maxIterations));
        training.SetAttribute("ReuseConnections", BooleanValue(llm.reuseConnections));
        workloads->training =
            DynamicCast<MoseTrainingWorkload>(experiment.InstallWorkload(training));
        workloads->training->SetPlan(llm.trainingPlan, llm.rankMapping, llm.nccl);
        workloads->training->Start(Seconds(0));
        experiment.StopWorkloadAt(workloads->training, config.end); // no iteration starts after
    }
    experiment.SetDistributedCheck([&experiment, result](Time lookahead) {
        CheckDistributedRun(experiment.GetConfig(), result->noticeDelay, lookahead);
    });
    if (progress)
    {
        Time horizon = config.end;
        if (!llm.requests.empty())
        {
            horizon =
                std::max(horizon, NanoSeconds(static_cast<int64_t>(llm.requests.back().arrivalNs)));
        }
        const std::size_t requests = llm.requests.size();
        experiment.SetProgress(horizon, [workloads, requests]() {
            std::ostringstream o;
            o << workloads->inference->GetNDone() << "/" << requests << " requests served, "
              << (workloads->training ? workloads->training->GetNDone() : 0) << " iterations";
            return o.str();
        });
    }
    experiment.SetCollect(
        [&experiment, workloads, result]() { Collect(experiment, *workloads, *result); });
}

/**
 * \brief The fluid level's run: runs it and keeps its records, in the packet level's form,
 *        and its counters
 * \param config the fluid run's configuration \param result the run's result
 * \return what it took and its switch records
 */
FluidRunOutput
RunFluid(const mose::FluidLlmConfig& config, LlmResult& result)
{
    mose::FluidLlmRun run(config);
    FluidRunOutput output;
    output.figures = RunFluidMeasured(run);
    // the fabric's switch records in the packet level's form (MoseSwitchRecord)
    output.switchRecords = FluidSwitchRecords(*run.GetFabric(),
                                              config.boundaries,
                                              config.initialMode,
                                              config.fabric.phases,
                                              run.GetEndNs());
    // the records, and the fluid run's and its fabric's counters (no packets, connections or
    // ranks)
    result.requests = run.GetRequests();
    result.kvDelivered = run.GetDelivered();
    result.iterations = run.GetIterations();
    result.collectives = run.GetCollectives();
    result.switchesStarted = run.GetNSwitchesStarted();
    const mose::FluidFabric& fabric = *run.GetFabric();
    result.pairBytes = ReadPairBytes(result.nodes, [&fabric](uint32_t s, uint32_t d) {
        return fabric.GetBytesBetween(s, d);
    });
    result.errors = run.GetNErrors();
    result.rateComputations = fabric.GetNRateComputations();
    result.queueCuts = fabric.GetNCuts();
    for (double bytes : fabric.GetDroppedBytes())
    {
        result.droppedBytes += bytes;
        result.droppingPorts += bytes > 0 ? 1 : 0;
    }
    result.flows = fabric.GetTransfers().size();
    for (const mose::FluidTransfer& t : fabric.GetTransfers())
    {
        result.transfers += t.parts;
    }
    result.ran = true;
    return output;
}

/**
 * \brief The fluid level, at the end of Experiment::Build() (the scenario and the initial mode
 *        drawn): the fluid run's configuration, run by Experiment::Run()
 * \param experiment the run \param result its result
 */
void
PrepareFluid(Experiment& experiment, const std::shared_ptr<LlmResult>& result)
{
    const ExperimentConfig& config = experiment.GetConfig();
    const LlmWorkloadConfig& llm = config.llm;
    mose::FluidLlmConfig f;
    const mose::Scenario& sc = experiment.GetScenario();
    // the fabric from the helpers the packet level builds it with, configured alike (nothing
    // is installed): rates divided by MoseScale, hosts, delays, the transport's segment and
    // notice delay, the switcher's phases, drain and dark time
    Ptr<MoseTopologyHelper> topology = CreateObject<MoseTopologyHelper>();
    Experiment::ConfigureTopology(config, *topology);
    topology->SetRouting(config.scenario.routing, sc.routingSeed);
    Ptr<MoseTransport> transport =
        CreateTransportHelper(config, topology->GetSmallestLinkDelay(), *result).Create();
    f.fabric = MoseFluidFabricHelper::Read(*topology, config.GetSwitcherHelper(), transport);
    f.fabric.rateEpochNs = llm.fluidRateEpoch.GetNanoSeconds();
    if (llm.fluidQueues)
    {
        SetFluidQueues(config, f.fabric);
    }

    for (auto mode : {mose::WorkloadMode::INFERENCE_HEAVY, mose::WorkloadMode::TRAINING_HEAVY})
    {
        const auto m = static_cast<std::size_t>(mode);
        f.roles[m] = sc.roles[m];
        f.graphs[m] = sc.GetGraph(config.policy, mode);
    }
    f.initialMode = config.GetInitialMode();
    const std::vector<Time> times = MoseScheduleTimes(config.schedule);
    for (std::size_t i = 1; i < config.schedule.size(); ++i)
    {
        f.boundaries.emplace_back(times[i].GetNanoSeconds(), config.schedule[i].mode);
    }
    f.endNs = config.end.GetNanoSeconds();
    f.stopNs = config.stopTime.GetNanoSeconds();
    f.requests = llm.requests;
    f.inference.kvBytesPerToken = llm.kvBytesPerToken;
    f.inference.placement = llm.placement;
    f.inference.prefillTokensPerSecond = llm.prefillTokensPerSecond;
    f.inference.scale = MoseScale::Get();
    if (!llm.training)
    {
        f.training.reset();
    }
    else
    {
        // the default settings FluidLlmConfig holds (not reset and emplaced: GCC 12 warns of
        // -Wmaybe-uninitialized members inside std::optional::emplace)
        mose::TrainingSettings& t = f.training.value();
        t.collective = llm.collective;
        t.collectiveBytes = llm.collectiveBytes;
        t.computeNs = llm.computeTime.GetNanoSeconds();
        t.maxIterations = llm.maxIterations;
        t.scale = MoseScale::Get();
        t.aggregate = GetLevelTraits(config.level).aggregateCollectives;
        t.plan = llm.trainingPlan;
        t.rankMapping = std::make_shared<const mose::RankMapping>(llm.rankMapping);
        t.nccl = llm.nccl;
    }
    f.Validate();
    experiment.SetFluidRun([result, fluid = std::move(f)]() { return RunFluid(fluid, *result); });
}

} // namespace

std::shared_ptr<const LlmResult>
InstallLlmWorkload(Experiment& experiment, bool progress)
{
    NS_LOG_FUNCTION(&experiment << progress);
    const ExperimentConfig& config = experiment.GetConfig();
    ValidateLlmConfig(config);
    CheckUserDefaults(config);
    auto result = std::make_shared<LlmResult>();
    result->nodes = config.scenario.nodes;
    experiment.SetInstall([&experiment, result, progress]() {
        const ExperimentConfig& c = experiment.GetConfig();
        // the workloads divide their byte counts by it, and MoseFluidFabricHelper reads it
        const ScaleScope scale(c.scale);
        // the intervals' graphs: the initial one, then the template of each boundary's mode
        const mose::Scenario& sc = experiment.GetScenario();
        result->intervalGraphs = {experiment.GetInitialGraph()};
        for (std::size_t i = 1; i < c.schedule.size(); ++i)
        {
            result->intervalGraphs.push_back(sc.GetGraph(c.policy, c.schedule[i].mode));
        }
        if (IsFluid(c.level))
        {
            PrepareFluid(experiment, result);
        }
        else
        {
            InstallPacket(experiment, result, progress);
        }
    });
    return result;
}

LlmRun
BuildLlmRun(const ExperimentConfig& config,
            std::shared_ptr<const mose::Scenario> scenario,
            bool progress)
{
    // the configuration's errors, then the scenario's (drawn here unless given), then the
    // user's defaults' (InstallLlmWorkload())
    ValidateLlmConfig(config);
    if (!scenario)
    {
        scenario = std::make_shared<const mose::Scenario>(
            mose::ScenarioBuilder(config.scenario).Build(config.run));
    }
    LlmRun run;
    run.experiment = std::make_unique<Experiment>(config);
    run.experiment->SetScenario(std::move(scenario));
    run.result = InstallLlmWorkload(*run.experiment, progress);
    run.experiment->Build();
    return run;
}

std::string
GetLlmRunLabel(const ExperimentConfig& config)
{
    return "the LLM experiment of policy " + mose::ToString(config.policy);
}

std::size_t
LlmResult::GetIntervalCount() const
{
    return intervalGraphs.size();
}

const mose::CircuitGraph&
LlmResult::GetIntervalGraph(std::size_t interval) const
{
    if (intervalGraphs.empty())
    {
        throw mose::Error("LlmResult::GetIntervalGraph: call Experiment::Build() first");
    }
    if (interval >= GetIntervalCount())
    {
        mose::ThrowBadParameter("interval",
                                std::to_string(interval),
                                "below the " + std::to_string(GetIntervalCount()) +
                                    " intervals of the schedule");
    }
    // the intervals whose switch started have their own graph; the later ones keep the last
    return intervalGraphs[std::min<std::size_t>(interval, switchesStarted)];
}

uint64_t
LlmResult::GetBytesBetween(uint32_t src, uint32_t dst) const
{
    if (!ran || src >= nodes || dst >= nodes)
    {
        mose::ThrowBadParameter("groups",
                                std::to_string(src) + "->" + std::to_string(dst),
                                "groups below N after Run()");
    }
    return pairBytes[static_cast<std::size_t>(src) * nodes + dst];
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
SummarizeLlmRun(const Experiment& experiment, const LlmResult& result)
{
    // the statistics of the whole run (the workloads' own summaries): one window from 0 to the
    // end of time, which holds every request in the list (one not arrived has arrival 0)
    const ExperimentConfig& config = experiment.GetConfig();
    const std::vector<MoseRequestRecord>& requests = result.requests;
    LlmSummary s =
        SummarizeLlmWindow(config.policy, requests, result.iterations, Time(0), Time::Max());
    s.level = config.level;
    s.fluidQueues = IsFluid(config.level) && config.llm.fluidQueues;
    s.switches = static_cast<uint32_t>(experiment.GetSwitchRecords().size());
    s.noticeDelay = result.noticeDelay;
    s.stopTime = config.stopTime;
    // what the run took and counted, at either level (the fluid level counts no packets and
    // cuts no circuits)
    const RunFigures& figures = experiment.GetRunFigures();
    s.wallSeconds = figures.wallSeconds;
    s.events = figures.events;
    s.simulatedSeconds = figures.simulatedSeconds;
    s.eventsPerRank = figures.eventsPerRank;
    s.lost = experiment.GetPacketsLost();
    s.errors = experiment.GetNErrors() + result.errors;
    s.connections = result.connections;
    s.circuitsCut = experiment.GetCircuitsCut();
    s.rateComputations = result.rateComputations;
    s.queueCuts = result.queueCuts;
    s.droppedBytes = result.droppedBytes;
    s.droppingPorts = result.droppingPorts;
    s.flows = result.flows;
    s.transfers = result.transfers;
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
        else if (i < result.kvDelivered.size() && result.kvDelivered[i])
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

std::vector<mose::Flow>
GetLlmIntervalFlows(const Experiment& experiment, const LlmResult& result, std::size_t interval)
{
    result.GetIntervalGraph(interval); // checks the index
    const ExperimentConfig& config = experiment.GetConfig();
    const std::vector<Time> starts = config.GetIntervalStarts();
    const Time a = starts[interval];
    const Time b = interval + 1 < starts.size() ? starts[interval + 1] : config.end;
    std::vector<mose::Flow> flows;
    for (const auto& r : result.requests)
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
    for (const auto& r : result.iterations)
    {
        if (r.start < a || r.start >= b)
        {
            continue;
        }
        const std::vector<uint32_t>& members =
            experiment.GetScenario().roles[static_cast<std::size_t>(r.mode)].GetTraining();
        if (config.llm.trainingPlan)
        {
            auto found = planned.find(r.mode);
            if (found == planned.end())
            {
                mose::PlanRunner runner;
                runner.Prepare(*config.llm.trainingPlan,
                               config.llm.rankMapping,
                               members,
                               config.llm.nccl,
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
            mose::PlanCollective(config.llm.collective,
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
GetLlmIntervalMetrics(const Experiment& experiment, const LlmResult& result, std::size_t interval)
{
    const std::vector<mose::Flow> flows = GetLlmIntervalFlows(experiment, result, interval);
    if (flows.empty())
    {
        return mose::FlowMetrics{};
    }
    return experiment.EvaluateFlows(result.GetIntervalGraph(interval), flows);
}

mose::ModeSchedule
ThresholdSchedule(const std::vector<mose::LlmRequest>& requests,
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
