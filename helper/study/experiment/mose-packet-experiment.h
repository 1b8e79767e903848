/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PACKET_EXPERIMENT_H
#define MOSE_PACKET_EXPERIMENT_H

#include "mose-experiment.h"
#include "mose-llm-experiment.h"
#include "mose-presets.h"

#include "ns3/mose-batch-workload.h"
#include "ns3/mose-circuit-monitor.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-fluid-flow-run.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-traffic-helper.h"
#include "ns3/mose-transfer-monitor.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief FCT statistics and losses of one traffic class at the packet level.
 */
struct PacketClassResult
{
    MoseFctSummary fct;      //!< completion times and goodput
    uint64_t packetsLost{0}; //!< FlowMonitor's lost packets of the class's flows
    uint64_t packetsSent{0}; //!< FlowMonitor's transmitted packets of the class's flows
};

/**
 * \ingroup mose-study
 * \brief What a packet preset's run gave (InstallPacketWorkload()): the graph and the
 *        flow-level metrics after Experiment::Build(), the rest after Experiment::Run().
 *
 * The run's counts (losses, ECN marks, PFC, events, bytes per circuit) are the Experiment's.
 */
struct PacketResult
{
    mose::CircuitGraph graph;            //!< the realised circuit graph
    mose::FlowMetrics metrics;           //!< the flow-level metrics of the same graph and flows
    uint64_t bytesPerUnit{0};            //!< bytes per unit of flow-level demand
    std::vector<MoseTransfer> transfers; //!< the transfers with their completion times
    PacketClassResult kv;                //!< the KV class's results
    PacketClassResult training;          //!< the training class's results
    /// with rdma at the packet level, the packets MoseRdmaTransport dropped per reason (on
    /// several MPI ranks, over the ranks); zero otherwise
    TransportDrops transportDrops{};
    /// with rdma at the packet level, errors caught in the flow batch (on several MPI ranks,
    /// each of which runs the batch whole, their sum)
    uint64_t batchErrors{0};

    /// \param cls a class \return its results
    const PacketClassResult& GetClass(mose::TrafficClass cls) const;
    /// \return the sum of transportDrops
    uint64_t GetTransportDrops() const;
    /// \param circuitBytes per circuit, the payload bytes it carried (Experiment::
    ///        GetCircuitBytes()) \return how many circuits carried exactly load x bytesPerUnit
    uint32_t CountCircuitsMatchingLoad(const std::vector<uint64_t>& circuitBytes) const;
};

/**
 * \ingroup mose-study
 * \brief Installs a packet preset's workload on an experiment (before its Build()): the
 *        transfers of the initial mode's flows (MoseTrafficHelper), with the experiment's
 *        monitors, at its level.
 *
 * At the packet level over tcp: BulkSend applications (MoseFlowWorkload, Experiment::
 * InstallFlows()). Over rdma: the transport on the groups' endpoints and the same transfers
 * (MoseTrafficHelper::MakeStartedTransfers(): the same sample, pairs and start times) as a
 * flow batch on it (MoseBatchWorkload). At the fluid and aggregate levels: the same transfers
 * as a mose::FlowBatch on the fluid fabric (mose::FluidFlowRun, Experiment::SetFluidRun()).
 *
 * \param experiment a packet preset's experiment (MakePacketConfig(); checked here by
 *        ValidatePacketConfig(): Error), not built yet
 * \return its results, filled by its Build() and Run()
 */
std::shared_ptr<const PacketResult> InstallPacketWorkload(Experiment& experiment);

} // namespace mose
} // namespace ns3

#endif /* MOSE_PACKET_EXPERIMENT_H */
