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

const PacketClassResult&
PacketResult::GetClass(mose::TrafficClass cls) const
{
    return cls == mose::TrafficClass::KV ? kv : training;
}

uint64_t
PacketResult::GetTransportDrops() const
{
    return CountTransportDrops(transportDrops);
}

uint32_t
PacketResult::CountCircuitsMatchingLoad(const std::vector<uint64_t>& circuitBytes) const
{
    uint32_t matching = 0;
    for (std::size_t c = 0; c < circuitBytes.size() && c < metrics.load.size(); ++c)
    {
        const double expected = metrics.load[c] * static_cast<double>(bytesPerUnit);
        matching += static_cast<double>(circuitBytes[c]) == expected ? 1 : 0;
    }
    return matching;
}

namespace
{

/// \brief The per-class results of the transfers, with FlowMetric's packets at the packet
///        level \param experiment the run \param result its result, transfers set
void
SummarizeClasses(const Experiment& experiment, PacketResult& result)
{
    result.kv = PacketClassResult();
    result.training = PacketClassResult();
    result.kv.fct =
        MoseTransferMonitor::SummarizeTransfers(result.transfers, mose::TrafficClass::KV);
    result.training.fct =
        MoseTransferMonitor::SummarizeTransfers(result.transfers, mose::TrafficClass::TRAINING);
    if (IsFluid(experiment.GetConfig().level))
    {
        return;
    }
    const std::array<FlowPacketCounts, 2> counts = experiment.CountFlowPackets(result.transfers);
    result.kv.packetsLost = counts[0].lost;
    result.kv.packetsSent = counts[0].sent;
    result.training.packetsLost = counts[1].lost;
    result.training.packetsSent = counts[1].sent;
}

/**
 * \brief The transfers MoseTrafficHelper would install (MakeStartedTransfers(): the same
 *        sample, pairs and start times, streams from mose::Stream::TRANSFERS); sets the
 *        result's bytesPerUnit.
 * \param experiment the run, built \param result its result
 * \return the transfers
 */
std::vector<MoseTransfer>
DrawTransfers(const Experiment& experiment, PacketResult& result)
{
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->AssignStreams(mose::Stream::TRANSFERS);
    UintegerValue unit;
    traffic->GetAttribute("BytesPerUnit", unit);
    result.bytesPerUnit = unit.Get();
    std::vector<MoseTransfer> drawn =
        traffic->MakeStartedTransfers(experiment.GetInitialModeScenario().flows);
    traffic->Dispose();
    return drawn;
}

/// \brief The packet level over tcp: BulkSend applications \param experiment the run, built
/// \param result its result
void
InstallSockets(Experiment& experiment, const std::shared_ptr<PacketResult>& result)
{
    Ptr<MoseFlowWorkload> workload =
        experiment.InstallFlows(experiment.GetInitialModeScenario().flows);
    result->bytesPerUnit = experiment.GetBytesPerUnit();
    NS_LOG_INFO(result->graph.GetNCircuits()
                << " circuits, " << workload->GetMonitor()->GetNTransfers() << " transfers");
    experiment.SetCollect([&experiment, result, workload]() mutable {
        // on several MPI ranks, each saw its own sinks: the merged transfers
        result->transfers = Experiment::CollectTransfers(workload);
        SummarizeClasses(experiment, *result);
        workload = nullptr; // released with the run's other objects
    });
}

/// \brief The packet level with a transport (rdma): the transport installed on the groups'
///        endpoints and the transfers as a flow batch on it \param experiment the run, built
/// \param result its result
void
InstallBatch(Experiment& experiment, const std::shared_ptr<PacketResult>& result)
{
    // the transport on each group's endpoints through the helper's topology-aware Install (its
    // attributes' defaults, the fabric's in-flight cap and notice delay unless the user set
    // them; MoseRdmaTransport scales its own rates and timers by MoseScale), the drawn
    // transfers as a batch on it
    const ExperimentConfig& config = experiment.GetConfig();
    const ScaleScope scale(config.scale);
    experiment.InstallTransport(MoseTransportHelper(config.transport));
    Ptr<MoseBatchWorkload> batch = DynamicCast<MoseBatchWorkload>(
        experiment.InstallWorkload(MoseWorkloadHelper("ns3::MoseBatchWorkload")));
    auto drawn =
        std::make_shared<const std::vector<MoseTransfer>>(DrawTransfers(experiment, *result));
    batch->SetFlows(ToBatchFlows(*drawn));
    batch->Start(Seconds(0));
    NS_LOG_INFO(drawn->size() << " transfers as a flow batch on " << config.transport);
    experiment.SetCollect([&experiment, result, batch, drawn]() mutable {
        // the records in the drawn transfers' order, with the demand they carry; on several
        // MPI ranks every rank completed every transfer, and an unfinished one's bytes are the
        // receiving rank's
        result->transfers = Experiment::CollectTransfers(batch);
        for (std::size_t i = 0; i < result->transfers.size() && i < drawn->size(); ++i)
        {
            result->transfers[i].demand = (*drawn)[i].demand;
        }
        SummarizeClasses(experiment, *result);
        result->transportDrops = ReadTransportDrops(experiment.GetTransport());
        // each rank runs the batch whole: its errors over the ranks, as the run's errors
        result->batchErrors = batch->GetNErrors();
        MoseDistributed::SumEachOverRanks({&result->batchErrors});
        batch = nullptr; // released with the run's other objects
    });
}

/**
 * \brief The fluid run of the transfers: their records, in the drawn transfers' order, and per
 *        circuit the payload bytes of the complete transfers routed over it (both directions)
 * \param experiment the run \param result its result \param config the fluid run's
 * \param drawn the transfers
 * \return what the run took and the bytes per circuit
 */
FluidRunOutput
RunFluid(const Experiment& experiment,
         PacketResult& result,
         const mose::FluidFlowConfig& config,
         std::vector<MoseTransfer> drawn)
{
    mose::FluidFlowRun run(config);
    FluidRunOutput output;
    output.figures = RunFluidMeasured(run);
    // the batch's records, in the drawn transfers' order (a record names its flow's index)
    result.transfers = std::move(drawn);
    for (const mose::FlowRecord& r : run.GetBatches().front().GetRecords())
    {
        MoseTransfer& t = result.transfers[r.index];
        t.complete = r.complete;
        t.received = r.received;
        if (r.complete)
        {
            t.end = r.end;
        }
    }
    SummarizeClasses(experiment, result);
    // the fluid fabric's routes are the flow level's, and the fabric's own link counters add up
    // to a nanosecond of rate per transfer (a completion waits for the next whole ns), which
    // would hide an exact match
    std::vector<mose::Flow> complete;
    for (const MoseTransfer& t : result.transfers)
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
    const mose::FlowMetrics carried = experiment.EvaluateFlows(result.graph, complete);
    output.circuitBytes.assign(result.graph.GetNCircuits(), 0);
    for (uint32_t c = 0; c < result.graph.GetNCircuits() && c < carried.load.size(); ++c)
    {
        output.circuitBytes[c] = static_cast<uint64_t>(std::llround(carried.load[c]));
    }
    if (run.GetNErrors() > 0)
    {
        NS_LOG_ERROR(run.GetNErrors() << " errors in the fluid run");
    }
    return output;
}

/// \brief The fluid and aggregate levels: the fabric read from the helpers (nothing installed)
///        and the transfers as a flow batch, run by Experiment::Run() \param experiment the
///        run, built \param result its result
void
PrepareFluid(Experiment& experiment, const std::shared_ptr<PacketResult>& result)
{
    const ExperimentConfig& config = experiment.GetConfig();
    mose::FluidFlowConfig f;
    f.fabric = experiment.ReadFluidFabric();
    f.graph = result->graph;
    f.initialMode = config.GetInitialMode();
    f.stopNs = config.stopTime.GetNanoSeconds();
    // the transfers MoseTrafficHelper would install: the same sample, pairs and start times
    std::vector<MoseTransfer> drawn = DrawTransfers(experiment, *result);
    f.batches = {ToBatchFlows(drawn)};
    f.Validate();
    experiment.SetFluidRun([&experiment, result, fluid = std::move(f), drawn = std::move(drawn)]() {
        return RunFluid(experiment, *result, fluid, drawn);
    });
}

} // namespace

std::shared_ptr<const PacketResult>
InstallPacketWorkload(Experiment& experiment)
{
    NS_LOG_FUNCTION(&experiment);
    ValidatePacketConfig(experiment.GetConfig());
    auto result = std::make_shared<PacketResult>();
    experiment.SetInstall([&experiment, result]() {
        result->graph = experiment.GetInitialGraph();
        result->metrics =
            experiment.EvaluateFlows(result->graph, experiment.GetInitialModeScenario().flows);
        if (IsFluid(experiment.GetConfig().level))
        {
            PrepareFluid(experiment, result);
        }
        else if (experiment.GetConfig().IsRdma())
        {
            InstallBatch(experiment, result);
        }
        else
        {
            InstallSockets(experiment, result);
        }
    });
    return result;
}

} // namespace mose
} // namespace ns3
