/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_EXPERIMENT_FABRIC_H
#define MOSE_EXPERIMENT_FABRIC_H

#include "ns3/flow-monitor.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-circuit-monitor.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/mose-mode-switcher.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-traffic-helper.h"
#include "ns3/mose-transfer-monitor.h"
#include "ns3/nstime.h"
#include "ns3/system-wall-clock-ms.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <vector>

namespace ns3
{

class FlowMonitorHelper;

namespace mose
{

/**
 * \ingroup mose
 * \brief Packets FlowMonitor counted for one traffic class (ExperimentFabric).
 */
struct FlowPacketCounts
{
    uint64_t lost{0}; //!< FlowMonitor's lost packets of the class's flows
    uint64_t sent{0}; //!< FlowMonitor's transmitted packets of the class's flows
};

/**
 * \ingroup mose
 * \brief The fabric and monitors of a packet-level experiment, wired once for every study
 *        driver (PacketExperiment, SwitchExperiment, LlmExperiment): the fabric
 *        from a scenario's configuration (MoseTopologyHelper: N groups of d ports, a mode's
 *        roles, a circuit graph, the scenario's routing rule with the run's routing seed), a
 *        MoseCircuitMonitor on its OCS (optional) and a MoseLossMonitor on its group nodes,
 *        hosts and OCS; then, as the driver needs, the transfers of a set of flows
 *        (MoseTrafficHelper), a MoseModeSwitcher with a policy's targets and the transfers of
 *        every mode interval, and ns-3's FlowMonitor; Run() runs the simulator with its wall
 *        time and event count, Finish() keeps the loss monitor's counts and destroys the
 *        simulator.
 *
 * Copies share the ns-3 objects created so far. One fabric per Simulator lifetime.
 */
class ExperimentFabric
{
  public:
    /**
     * \brief Creates the topology helper if it does not exist yet (Install() does too), so that
     *        its other attributes (rates, queues, devices) can be set before Install().
     * \return the topology helper (null after Finish())
     */
    Ptr<MoseTopologyHelper> PrepareTopology();

    /// \return the topology helper (null before PrepareTopology() or Install(), and after
    ///         Finish()); after Install(), the installed fabric
    Ptr<MoseTopologyHelper> GetTopology() const;

    /**
     * \brief Builds the fabric and installs routing and the monitors: the topology helper with
     *        Groups = scenario.nodes, PortsPerGroup = scenario.degree, the roles, the graph and
     *        routing by scenario.routing with the seed; then the circuit monitor (if asked) and
     *        the loss monitor. Error if the fabric is installed already (and whatever the
     *        topology helper finds wrong).
     * \param scenario N, d and the routing rule
     * \param roles the roles the fabric starts with
     * \param graph the circuit graph it starts with
     * \param routingSeed the seed of the routing rule's hash (the run's)
     * \param countCircuits whether to install a MoseCircuitMonitor (GetCircuitMonitor())
     */
    void Install(const mose::FlowExperimentConfig& scenario,
                 const mose::RoleAssignment& roles,
                 const mose::CircuitGraph& graph,
                 uint64_t routingSeed,
                 bool countCircuits = true);

    /// \return the circuit monitor (null if Install() was told not to count circuits)
    Ptr<MoseCircuitMonitor> GetCircuitMonitor() const;
    /// \return the loss monitor (after Install())
    Ptr<MoseLossMonitor> GetLossMonitor() const;

    /**
     * \brief The transfers of a set of flows (MoseTrafficHelper with its attributes' defaults),
     *        their sample and start times from the random stream mose::Stream::TRANSFERS, so
     *        that --RngRun fixes them as it fixes the scenario.
     * \param flows the flows
     * \return the traffic helper (also GetTraffic()[0])
     */
    Ptr<MoseTrafficHelper> InstallTraffic(const std::vector<mose::Flow>& flows);

    /**
     * \brief The switcher on the installed fabric: the helper's attributes, the policy's
     *        targets from the scenario (MoseModeSwitcherHelper::MakePolicyProvider()), the
     *        schedule, the initial mode and this fabric's loss monitor.
     * \param helper a helper with the switcher's attributes set (copied)
     * \param policy the policy
     * \param scenario the run's scenario (copied by the provider)
     * \param schedule the mode boundaries
     * \param initialMode the mode before the first boundary
     * \return the switcher (also GetSwitcher())
     */
    Ptr<MoseModeSwitcher> InstallSwitcher(const MoseModeSwitcherHelper& helper,
                                          mose::Policy policy,
                                          const mose::Scenario& scenario,
                                          const std::vector<MoseModeBoundary>& schedule,
                                          mose::WorkloadMode initialMode);

    /**
     * \brief The transfers of every mode interval of the switcher's schedule
     *        (MoseModeSwitcherHelper::InstallModeTraffic(), random streams from
     *        mose::Stream::TRANSFERS); InstallSwitcher() first.
     * \param flowsOf the flows of a mode
     * \param firstStart the start of the first interval
     * \param end the end of the last interval
     * \param startWindow the longest start window
     * \return the traffic helpers, one per interval (also GetTraffic())
     */
    const std::vector<Ptr<MoseTrafficHelper>>& InstallModeTraffic(
        const std::function<std::vector<mose::Flow>(mose::WorkloadMode)>& flowsOf,
        Time firstStart,
        Time end,
        Time startWindow);

    /// \return the switcher (null before InstallSwitcher())
    Ptr<MoseModeSwitcher> GetSwitcher() const;
    /// \return the traffic helpers installed, in order
    const std::vector<Ptr<MoseTrafficHelper>>& GetTraffic() const;
    /// \return bytes per unit of flow-level demand of the first traffic helper (0 before one)
    uint64_t GetBytesPerUnit() const;

    /**
     * \brief Installs ns-3's FlowMonitor on every node (FlowMonitorHelper::InstallAll()).
     *        Error on a run of several MPI ranks: a rank's FlowMonitor sees only the ends of a
     *        flow on its own nodes and would count the others' packets as lost.
     * \return the monitor
     */
    Ptr<FlowMonitor> InstallFlowMonitor();

    /**
     * \brief FlowMonitor's lost and transmitted packets per class of the transfers' flows: a
     *        FlowMonitor flow is a transfer's data (to its sink's address and port) or its
     *        acknowledgements (from there); other flows are not counted. Zeros without
     *        InstallFlowMonitor().
     * \param transfers the transfers
     * \return the counts, KV then training
     */
    std::array<FlowPacketCounts, 2> CountFlowPackets(
        const std::vector<MoseTransfer>& transfers) const;

    /**
     * \brief Runs the simulation until stopTime at the latest (Simulator::Stop()), counting
     *        its wall time and events. On several MPI ranks (MoseDistributed) it first fixes
     *        the lookahead (MoseTopologyHelper::PrepareDistributedRun()), and afterwards the
     *        events are every rank's (GetEventsPerRank()) and the wall time the longest.
     * \param stopTime the stop time
     */
    void Run(Time stopTime);

    /// What one Simulator::Run() took, over every rank (RunMeasured())
    struct RunFigures
    {
        std::vector<uint64_t> eventsPerRank; //!< events executed per rank (one entry on one)
        uint64_t events{0};                  //!< their sum
        double wallSeconds{0};               //!< the longest wall time of a rank
        double simulatedSeconds{0};          //!< the latest simulated time of a rank
    };

    /**
     * \brief Simulator::Run(), measured: the events each rank executed (gathered over the
     *        ranks), the longest wall time and the latest simulated time. Every rank calls it
     *        (ExperimentFabric::Run(), LlmExperiment::Run()).
     * \param clock started here, just before Simulator::Run() (events may read it meanwhile)
     * \return the figures
     */
    static RunFigures RunMeasured(SystemWallClockMs& clock);

    /**
     * \brief The payload bytes of every circuit of the OCS's current graph, over all ranks
     *        (MoseCircuitMonitor::GetCircuitBytes() summed with MoseDistributed::SumOverRanks():
     *        a rank counts only its own ports); Install() with a circuit monitor first. On
     *        several ranks, call it on every rank, after Run().
     * \return per circuit, payload bytes
     */
    std::vector<uint64_t> CollectCircuitBytes() const;

    /**
     * \brief A transfer monitor's transfers, merged over the ranks (MoseDistributed::
     *        MergeTransfers(): a transfer completes on its sink's rank). On several ranks, call
     *        it on every rank, after Run().
     * \param monitor the monitor
     * \return its transfers
     */
    static std::vector<MoseTransfer> CollectTransfers(Ptr<MoseTransferMonitor> monitor);

    /**
     * \brief Keeps the loss monitor's counts, releases the fabric's objects and destroys the
     *        simulator (Simulator::Destroy()).
     */
    void Finish();

    /// \return wall-clock seconds of Run()
    double GetWallSeconds() const;
    /// \return simulated seconds when Run() returned
    double GetSimulatedSeconds() const;
    /// \return events executed by Run(), on all ranks
    uint64_t GetEvents() const;
    /// \return events executed by Run() on each rank (one entry on one rank)
    const std::vector<uint64_t>& GetEventsPerRank() const;
    /// \return the circuits of the initial graph cut by the partition over the ranks (0 on one)
    uint32_t GetCircuitsCut() const;
    /**
     * \brief On several MPI ranks, prints the ranks' events, their balance (the busiest rank's
     *        events over the mean) and the circuits cut; nothing on one rank.
     * \param os the stream
     */
    void PrintRanks(std::ostream& os) const;
    /**
     * \brief PrintRanks() for any run's figures (LlmComparison's too).
     * \param os the stream \param eventsPerRank events per rank \param circuitsCut circuits cut
     */
    static void PrintRanks(std::ostream& os,
                           const std::vector<uint64_t>& eventsPerRank,
                           uint32_t circuitsCut);
    /// \return packets lost in the fabric, each counted once (after Finish())
    uint64_t GetPacketsLost() const;
    /// \param point a drop point \return packets lost there (after Finish())
    uint64_t GetPacketsLost(MoseLossMonitor::Point point) const;
    /// \return packets the queue discs marked (ECN), not lost (after Finish())
    uint64_t GetEcnMarks() const;

  private:
    Ptr<MoseTopologyHelper> m_topology;                         //!< the fabric
    Ptr<MoseCircuitMonitor> m_circuits;                         //!< bytes per circuit, or null
    Ptr<MoseLossMonitor> m_loss;                                //!< drops
    Ptr<MoseModeSwitcher> m_switcher;                           //!< the switcher, or null
    std::vector<Ptr<MoseTrafficHelper>> m_traffic;              //!< the transfers
    std::shared_ptr<FlowMonitorHelper> m_flowHelper;            //!< FlowMonitor, or null
    Ptr<FlowMonitor> m_flowMonitor;                             //!< FlowMonitor, or null
    uint64_t m_bytesPerUnit{0};                                 //!< MoseTrafficHelper::BytesPerUnit
    double m_wallSeconds{0};                                    //!< Run() wall time
    double m_simulatedSeconds{0};                               //!< simulated time
    uint64_t m_events{0};                                       //!< events executed
    std::vector<uint64_t> m_eventsPerRank;                      //!< events executed per rank
    uint32_t m_circuitsCut{0};                                  //!< circuits across ranks
    uint64_t m_packetsLost{0};                                  //!< Finish(): lost packets
    std::array<uint64_t, MoseLossMonitor::N_POINTS> m_lostAt{}; //!< Finish(): per drop point
    uint64_t m_ecnMarks{0};                                     //!< Finish(): ECN marks
    bool m_finished{false};                                     //!< Finish() ran
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_EXPERIMENT_FABRIC_H */
