/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PACKET_EXPERIMENT_H
#define MOSE_PACKET_EXPERIMENT_H

#include "mose-experiment.h"
#include "mose-llm-experiment.h"

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
 * \brief The packet preset (mose-packet, PacketExperiment): the Experiment of one workload mode
 *        of a scenario under a policy, without switcher.
 *
 * The scenario (N, d, roles, templates, the number of flows, the routing rule) is the flow-level
 * study's configuration; the packet-level knobs (circuit rate and delay, bytes per unit of
 * demand, transport, start times, hosts per group, queues) are the Attributes of MoseOcs,
 * MoseTrafficHelper and MoseTopologyHelper, set with Config::SetDefault or
 * --ns3::Type::Attr=value.
 *
 * At the fluid and aggregate levels the same transfers (MoseTrafficHelper::
 * MakeStartedTransfers(): the same sample, aggregation and start times) run as a mose::FlowBatch
 * on the fluid fabric that MoseFluidFabricHelper::Read() reads from the same helpers, without a
 * Simulator: one transfer per flow of the batch, TCP's segment and headers as the fluid model's
 * payload share, completion at the last byte (no notice delay). A flow list has no collective,
 * so the aggregate level runs as the fluid one.
 *
 * \param scenario N, d, roles, templates, flows, routing rule
 * \param mode the workload mode: the schedule's one period, open until stopTime (60 s)
 * \param level packets (ns-3), or fluid flows (mose::FluidFlowRun, no Simulator; aggregate runs
 *        as fluid); packet-only figures (losses, FlowMonitor) are "n/a" at a fluid level
 * \param transport the transfers' transport, a TypeId name (MoseTransportHelper; --transport):
 *        ns3::MoseSocketTransfers (tcp: BulkSend applications, MoseFlowWorkload) or
 *        ns3::MoseRdmaTransport (rdma: the same transfers as a mose::FlowBatch on the transport,
 *        MoseBatchWorkload); at a fluid level it gives the packet size the fluid model's
 *        payload share is read from
 * \param ecn with ns3::MoseRdmaTransport at the packet level: RED with ECN on every port and
 *        host-link end (ExperimentConfig::ecn; the device queues are then
 *        ExperimentConfig::RDMA_DEVICE_QUEUE)
 * \return the configuration: no switcher, the circuit and loss monitors, FlowMonitor at the
 *         packet level
 */
ExperimentConfig MakePacketConfig(const mose::FlowExperimentConfig& scenario,
                                  mose::WorkloadMode mode,
                                  LlmLevel level = LlmLevel::PACKET,
                                  const std::string& transport = "ns3::MoseSocketTransfers",
                                  const EcnMarking& ecn = EcnMarking());

/**
 * \ingroup mose-study
 * \brief Throws a mose::Error naming the first invalid parameter of a packet preset's
 *        configuration (MakePacketConfig()): the scenario's, a transport that is none, a stop
 *        time that is not positive, and a file of the training-heavy
 *        mode (roles, assignment, flows) in an inference-heavy run or the inference-heavy flows
 *        file in a training-heavy run, which the run would not use (a training-heavy run uses
 *        the inference-heavy roles for its role transition and the inference-heavy assignment
 *        for H^PD and H^C).
 * \param config the configuration
 */
void ValidatePacketConfig(const ExperimentConfig& config);

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
 * \brief Builds and runs one packet-level experiment: the scenario from the flow-level core
 *        (ScenarioBuilder), the fabric (MoseTopologyHelper), the transfers
 *        (MoseTrafficHelper), the monitors; then reports FCT per class, losses, and per
 *        circuit the payload bytes next to the flow-level load of the same flows.
 *
 * One experiment per Simulator lifetime: Run() ends with Simulator::Destroy().
 */
class PacketExperiment
{
  public:
    /// \param config the parameters, a packet preset (MakePacketConfig(); validated here by
    ///        ValidatePacketConfig(): Error)
    /// \param scenario the run's scenario drawn before (SetScenario(); a comparison's,
    ///        PolicyComparison::Share()), or null: Build() draws what it needs
    explicit PacketExperiment(const ExperimentConfig& config,
                              std::shared_ptr<const mose::Scenario> scenario = nullptr);

    /**
     * \brief Gives Build() the run's scenario drawn before (Experiment::SetScenario()), so that
     *        the policies of one comparison draw it once; without it, Build() draws the mode's
     *        roles, assignment and flows and the policy's graph only.
     * \param scenario the scenario of this configuration's run
     */
    void SetScenario(std::shared_ptr<const mose::Scenario> scenario);

    /**
     * \brief Builds the scenario, the fabric, the transfers and the monitors.
     */
    void Build();

    /**
     * \brief Runs the simulation until every transfer completed or stopTime, collects the
     *        results, and destroys the simulator.
     */
    void Run();

    /// \return the configuration
    const ExperimentConfig& GetConfig() const;
    /// \return the experiment: the fabric, its monitors and the run's counts (its ns-3
    ///         objects from Build() until Run() ends)
    const Experiment& GetExperiment() const;
    /// \return the realised circuit graph
    const mose::CircuitGraph& GetCircuitGraph() const;
    /// \return the flow-level metrics of the same graph and flows
    const mose::FlowMetrics& GetFlowMetrics() const;
    /// \return the transfers with their completion times
    const std::vector<MoseTransfer>& GetTransfers() const;
    /// \param cls a class \return its packet-level results
    const PacketClassResult& GetClassResult(mose::TrafficClass cls) const;
    /// \return per circuit, payload bytes crossing it (both directions)
    const std::vector<uint64_t>& GetCircuitBytes() const;
    /// \return bytes per unit of flow-level demand
    uint64_t GetBytesPerUnit() const;
    /// \return how many circuits carried exactly load x bytes per unit
    uint32_t CountCircuitsMatchingLoad() const;
    /// \return what the run took at its level (the packet level's Experiment::GetRunFigures()
    ///         or the fluid run's FluidRunFigures()); the getters below read it
    const RunFigures& GetRunFigures() const;
    /// \return wall-clock seconds of Simulator::Run()
    double GetWallSeconds() const;
    /// \return wall-clock seconds of Build()
    double GetBuildSeconds() const;
    /// \return simulated seconds until the last event
    double GetSimulatedSeconds() const;
    /// \return events executed
    uint64_t GetEvents() const;

    /// \return whether Build() ran
    bool IsBuilt() const;

    /// \return with rdma at the packet level, the packets MoseRdmaTransport dropped
    ///         (GetNDrops(), after Run(); on several MPI ranks, over the ranks); 0 otherwise
    uint64_t GetTransportDrops() const;
    /// \return with rdma at the packet level, the transport's drops per reason (after Run())
    const TransportDrops& GetTransportDropsByReason() const;
    /// \return with rdma at the packet level, errors caught in the flow batch (after Run();
    ///         on several MPI ranks, each of which runs the batch whole, their sum)
    uint64_t GetBatchErrors() const;

  private:
    /// \brief Build() at the fluid and aggregate levels: the scenario, the fabric read from the
    ///        helpers (nothing installed) and the transfers as a flow batch
    void BuildFluid();
    /// \brief Run() at the fluid and aggregate levels
    void RunFluid();
    /// \brief Build() of the packet level with a transport (rdma): the transport installed on
    ///        the groups' endpoints and the transfers as a flow batch on it (MoseBatchWorkload)
    void BuildBatch();
    /**
     * \brief The transfers MoseTrafficHelper would install (MakeStartedTransfers(): the same
     *        sample, pairs and start times, streams from mose::Stream::TRANSFERS) into
     *        m_fluidDrawn and m_fluidBytesPerUnit.
     * \return one batch flow per transfer, in their order
     */
    std::vector<mose::BatchFlow> DrawBatchFlows();
    /// \return whether the transfers run as a flow batch (a fluid level, or rdma)
    bool IsBatch() const;

    mose::CircuitGraph m_graph;                   //!< the realised graph
    mose::FlowMetrics m_metrics;                  //!< flow-level metrics
    Experiment m_experiment;                      //!< fabric, monitors, run
    Ptr<MoseFlowWorkload> m_workload;             //!< the flows (from Build() until Run() ends)
    Ptr<MoseBatchWorkload> m_batch;               //!< the flows with rdma (Build() to Run()'s end)
    std::vector<MoseTransfer> m_transfers;        //!< results
    PacketClassResult m_kv;                       //!< results, KV
    PacketClassResult m_training;                 //!< results, training
    double m_buildSeconds{0};                     //!< Build() wall time
    std::optional<mose::FluidFlowConfig> m_fluid; //!< the fluid run (BuildFluid())
    std::vector<MoseTransfer> m_fluidDrawn;       //!< the transfers drawn (DrawBatchFlows())
    uint64_t m_fluidBytesPerUnit{0};              //!< BytesPerUnit (DrawBatchFlows())
    std::vector<uint64_t> m_fluidCircuitBytes;    //!< per circuit (fluid level)
    RunFigures m_fluidFigures;                    //!< what the fluid run took
    TransportDrops m_transportDrops{};            //!< GetTransportDrops()
    uint64_t m_batchErrors{0};                    //!< GetBatchErrors()
    bool m_built{false};                          //!< Build() ran
    bool m_ran{false};                            //!< Run() ran
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_PACKET_EXPERIMENT_H */
