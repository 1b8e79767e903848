/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-packet-experiment.h"

#include "ns3/log.h"
#include "ns3/mose-distributed.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-fluid-fabric-helper.h"
#include "ns3/mose-format.h"
#include "ns3/mose-llm-transfers.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-parse.h"
#include "ns3/mose-random.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-transport-helper.h"
#include "ns3/mose-workload-helper.h"
#include "ns3/simulator.h"
#include "ns3/system-path.h"
#include "ns3/system-wall-clock-ms.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <iomanip>
#include <map>
#include <memory>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MosePacketExperiment");

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

PacketExperiment::PacketExperiment(const ExperimentConfig& config,
                                   std::shared_ptr<const mose::Scenario> scenario)
    : m_experiment(config)
{
    NS_LOG_FUNCTION(this);
    ValidatePacketConfig(config);
    if (scenario)
    {
        SetScenario(std::move(scenario));
    }
}

void
PacketExperiment::SetScenario(std::shared_ptr<const mose::Scenario> scenario)
{
    NS_LOG_FUNCTION(this);
    if (m_built)
    {
        throw mose::Error("PacketExperiment::SetScenario after Build()");
    }
    m_experiment.SetScenario(std::move(scenario), "PacketExperiment");
}

bool
PacketExperiment::IsBuilt() const
{
    return m_built;
}

const ExperimentConfig&
PacketExperiment::GetConfig() const
{
    return m_experiment.GetConfig();
}

const Experiment&
PacketExperiment::GetExperiment() const
{
    return m_experiment;
}

void
PacketExperiment::Build()
{
    NS_LOG_FUNCTION(this);
    if (m_built)
    {
        throw mose::Error("PacketExperiment::Build was already called");
    }
    SystemWallClockMs clock;
    clock.Start();
    if (IsFluid(GetConfig().level))
    {
        BuildFluid();
        m_built = true;
        m_buildSeconds = static_cast<double>(clock.End()) / 1000.0;
        return;
    }
    m_experiment.Build();
    m_graph = m_experiment.GetIntervals().front().graph;
    m_metrics = m_experiment.EvaluateFlows(m_graph, m_experiment.GetInitialModeScenario().flows);
    if (GetConfig().IsRdma())
    {
        BuildBatch();
        m_built = true;
        m_buildSeconds = static_cast<double>(clock.End()) / 1000.0;
        return;
    }
    m_workload = m_experiment.InstallFlows(m_experiment.GetInitialModeScenario().flows);
    m_experiment.SetCollect([this]() {
        // on several MPI ranks, each saw its own sinks: the merged transfers
        m_transfers = Experiment::CollectTransfers(m_workload);
        m_kv = PacketClassResult();
        m_training = PacketClassResult();
        m_kv.fct = MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::KV);
        m_training.fct =
            MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::TRAINING);
        const std::array<FlowPacketCounts, 2> counts = m_experiment.CountFlowPackets(m_transfers);
        m_kv.packetsLost = counts[0].lost;
        m_kv.packetsSent = counts[0].sent;
        m_training.packetsLost = counts[1].lost;
        m_training.packetsSent = counts[1].sent;
        m_workload = nullptr;
    });
    m_built = true;
    m_buildSeconds = static_cast<double>(clock.End()) / 1000.0;
    NS_LOG_INFO("built in " << m_buildSeconds << " s: " << m_graph.GetNCircuits() << " circuits, "
                            << m_workload->GetMonitor()->GetNTransfers() << " transfers");
}

void
PacketExperiment::Run()
{
    NS_LOG_FUNCTION(this);
    if (!m_built || m_ran)
    {
        throw mose::Error("PacketExperiment::Run needs one Build() before it, once");
    }
    if (IsFluid(GetConfig().level))
    {
        RunFluid();
    }
    else
    {
        m_experiment.Run();
    }
    m_ran = true;
}

uint64_t
PacketExperiment::GetTransportDrops() const
{
    return CountTransportDrops(m_transportDrops);
}

const TransportDrops&
PacketExperiment::GetTransportDropsByReason() const
{
    return m_transportDrops;
}

uint64_t
PacketExperiment::GetBatchErrors() const
{
    return m_batchErrors;
}

bool
PacketExperiment::IsBatch() const
{
    return IsFluid(GetConfig().level) || GetConfig().IsRdma();
}

std::vector<mose::BatchFlow>
PacketExperiment::DrawBatchFlows()
{
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->AssignStreams(mose::Stream::TRANSFERS);
    UintegerValue unit;
    traffic->GetAttribute("BytesPerUnit", unit);
    m_fluidBytesPerUnit = unit.Get();
    m_fluidDrawn = traffic->MakeStartedTransfers(m_experiment.GetInitialModeScenario().flows);
    traffic->Dispose();
    return ToBatchFlows(m_fluidDrawn);
}

void
PacketExperiment::BuildBatch()
{
    // the transport on each group's endpoints through the helper's topology-aware Install (its
    // attributes' defaults, the fabric's in-flight cap and notice delay unless the user set
    // them; MoseRdmaTransport scales its own rates and timers by MoseScale), the drawn
    // transfers as a batch on it
    const ScaleScope scale(GetConfig().scale);
    m_experiment.InstallTransport(MoseTransportHelper(GetConfig().transport));
    m_batch = DynamicCast<MoseBatchWorkload>(
        m_experiment.InstallWorkload(MoseWorkloadHelper("ns3::MoseBatchWorkload")));
    m_batch->SetFlows(DrawBatchFlows());
    m_batch->Start(Seconds(0));
    m_experiment.SetCollect([this]() {
        // the records in the drawn transfers' order, with the demand they carry; on several
        // MPI ranks every rank completed every transfer, and an unfinished one's bytes are the
        // receiving rank's
        m_transfers = Experiment::CollectTransfers(m_batch);
        for (std::size_t i = 0; i < m_transfers.size() && i < m_fluidDrawn.size(); ++i)
        {
            m_transfers[i].demand = m_fluidDrawn[i].demand;
        }
        m_kv = PacketClassResult();
        m_training = PacketClassResult();
        m_kv.fct = MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::KV);
        m_training.fct =
            MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::TRAINING);
        const std::array<FlowPacketCounts, 2> counts = m_experiment.CountFlowPackets(m_transfers);
        m_kv.packetsLost = counts[0].lost;
        m_kv.packetsSent = counts[0].sent;
        m_training.packetsLost = counts[1].lost;
        m_training.packetsSent = counts[1].sent;
        m_transportDrops = ReadTransportDrops(m_experiment.GetTransport());
        // each rank runs the batch whole: its errors over the ranks, as the run's errors
        m_batchErrors = m_batch->GetNErrors();
        MoseDistributed::SumEachOverRanks({&m_batchErrors});
        m_batch = nullptr;
    });
    NS_LOG_INFO(m_fluidDrawn.size() << " transfers as a flow batch on " << GetConfig().transport);
}

void
PacketExperiment::BuildFluid()
{
    // the initial mode and graph as Experiment::Build() draws them for a run without switcher
    m_graph = m_experiment.BuildFluidMode();
    m_metrics = m_experiment.EvaluateFlows(m_graph, m_experiment.GetInitialModeScenario().flows);

    // the fabric from the helpers the packet level builds it with (nothing is installed)
    mose::FluidFlowConfig f;
    f.fabric = m_experiment.ReadFluidFabric();
    f.graph = m_graph;
    f.initialMode = GetConfig().GetInitialMode();
    f.stopNs = GetConfig().stopTime.GetNanoSeconds();

    // the transfers MoseTrafficHelper would install: the same sample, pairs and start times
    f.batches = {DrawBatchFlows()};
    f.Validate();
    m_fluid = std::move(f);
}

void
PacketExperiment::RunFluid()
{
    mose::FluidFlowRun run(*m_fluid);
    SystemWallClockMs clock;
    clock.Start();
    run.Run();
    m_fluidFigures = FluidRunFigures(*run.GetFabric(),
                                     run.GetEndNs(),
                                     static_cast<double>(clock.End()) / 1000.0);
    // the batch's records, in the drawn transfers' order (a record names its flow's index)
    m_transfers = m_fluidDrawn;
    for (const mose::FlowRecord& r : run.GetBatches().front().GetRecords())
    {
        MoseTransfer& t = m_transfers[r.index];
        t.complete = r.complete;
        t.received = r.received;
        if (r.complete)
        {
            t.end = r.end;
        }
    }
    m_kv = PacketClassResult();
    m_training = PacketClassResult();
    m_kv.fct = MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::KV);
    m_training.fct =
        MoseTransferMonitor::SummarizeTransfers(m_transfers, mose::TrafficClass::TRAINING);
    // per circuit, the payload bytes of the complete transfers routed over it (both
    // directions): the fluid fabric's routes are the flow level's, and the fabric's own link
    // counters add up to a nanosecond of rate per transfer (a completion waits for the next
    // whole ns), which would hide an exact match
    std::vector<mose::Flow> complete;
    for (const MoseTransfer& t : m_transfers)
    {
        if (t.complete)
        {
            mose::Flow f;
            f.src = t.src;
            f.dst = t.dst;
            f.cls = t.cls;
            f.demand = static_cast<double>(t.bytes);
            complete.push_back(f);
        }
    }
    const mose::FlowMetrics carried = m_experiment.EvaluateFlows(m_graph, complete);
    m_fluidCircuitBytes.assign(m_graph.GetNCircuits(), 0);
    for (uint32_t c = 0; c < m_graph.GetNCircuits() && c < carried.load.size(); ++c)
    {
        m_fluidCircuitBytes[c] = static_cast<uint64_t>(std::llround(carried.load[c]));
    }
    if (run.GetNErrors() > 0)
    {
        NS_LOG_ERROR(run.GetNErrors() << " errors in the fluid run");
    }
}

const mose::CircuitGraph&
PacketExperiment::GetCircuitGraph() const
{
    return m_graph;
}

const mose::FlowMetrics&
PacketExperiment::GetFlowMetrics() const
{
    return m_metrics;
}

const std::vector<MoseTransfer>&
PacketExperiment::GetTransfers() const
{
    return m_transfers;
}

const PacketClassResult&
PacketExperiment::GetClassResult(mose::TrafficClass cls) const
{
    return cls == mose::TrafficClass::KV ? m_kv : m_training;
}

const std::vector<uint64_t>&
PacketExperiment::GetCircuitBytes() const
{
    return IsFluid(GetConfig().level) ? m_fluidCircuitBytes : m_experiment.GetCircuitBytes();
}

uint64_t
PacketExperiment::GetBytesPerUnit() const
{
    return IsBatch() ? m_fluidBytesPerUnit : m_experiment.GetBytesPerUnit();
}

uint32_t
PacketExperiment::CountCircuitsMatchingLoad() const
{
    const uint64_t unit = GetBytesPerUnit();
    uint32_t matching = 0;
    for (std::size_t c = 0; c < GetCircuitBytes().size() && c < m_metrics.load.size(); ++c)
    {
        const double expected = m_metrics.load[c] * static_cast<double>(unit);
        matching += static_cast<double>(GetCircuitBytes()[c]) == expected ? 1 : 0;
    }
    return matching;
}

const RunFigures&
PacketExperiment::GetRunFigures() const
{
    return IsFluid(GetConfig().level) ? m_fluidFigures : m_experiment.GetRunFigures();
}

double
PacketExperiment::GetWallSeconds() const
{
    return GetRunFigures().wallSeconds;
}

double
PacketExperiment::GetBuildSeconds() const
{
    return m_buildSeconds;
}

double
PacketExperiment::GetSimulatedSeconds() const
{
    return GetRunFigures().simulatedSeconds;
}

uint64_t
PacketExperiment::GetEvents() const
{
    return GetRunFigures().events;
}

} // namespace mose
} // namespace ns3
