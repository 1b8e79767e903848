/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_EXPERIMENT_H
#define MOSE_SWITCH_EXPERIMENT_H

#include "mose-experiment.h"
#include "mose-presets.h"

#include "ns3/mose-batch-workload.h"
#include "ns3/mose-break-even.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-circuit-monitor.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-fluid-flow-run.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/mose-mode-switcher.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-traffic-helper.h"
#include "ns3/mose-transfer-monitor.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief What one mode interval of a switching run gave its workload: the flow-level figures
 *        of its graph and flows and its transfers. The fabric's figures of the same interval
 *        (bytes per circuit, the graph realised, losses) are the Experiment's
 *        (Experiment::GetIntervals(), same index), its switch
 *        Experiment::GetIntervalSwitch().
 */
struct SwitchInterval
{
    uint32_t index{0};                                            //!< interval number
    mose::WorkloadMode mode{mose::WorkloadMode::INFERENCE_HEAVY}; //!< its mode
    mose::TemplateId templateId{mose::TemplateId::UNIFORM};       //!< the template the policy picks
    Time start; //!< its transfers' first start (interval 0: firstStart; then the boundary)
    Time end;   //!< interval end

    // flow level: the interval's circuit graph (the policy's template for the mode) and flows
    uint64_t flows{0};         //!< flows of the mode
    mose::FlowMetrics metrics; //!< EvaluateFlows() on that graph and those flows
    mose::CircuitGraph graph;  //!< the interval's circuit graph (the template)

    // packet level
    std::vector<MoseTransfer> transfers; //!< the transfers started in the interval
    MoseFctSummary kv;                   //!< FCT and goodput of its KV transfers
    MoseFctSummary training;             //!< FCT and goodput of its training transfers

    /// \param cls a class \return kv or training
    const MoseFctSummary& GetFct(mose::TrafficClass cls) const;
};

/**
 * \ingroup mose-study
 * \brief One policy's whole switching run in a few numbers: FCT over every interval's
 *        transfers, the makespan, and what its switches cost.
 */
struct SwitchRunSummary
{
    mose::Policy policy{mose::Policy::MOSE}; //!< the policy
    MoseFctSummary kv;                       //!< KV transfers of all intervals
    MoseFctSummary training;                 //!< training transfers of all intervals
    uint32_t transfers{0};                   //!< transfers of all intervals
    uint32_t completed{0};                   //!< how many completed
    double meanFctS{0};                      //!< mean FCT over every completed transfer
    /// total completion time: the last completion minus the first start, seconds
    double makespanS{0};
    uint32_t switches{0};                          //!< switches started
    uint32_t circuitsChanged{0};                   //!< circuits removed + added over all switches
    Time switchTime;                               //!< sum of the switches' durations
    Time blackoutTime;                             //!< sum of their blackout times
    uint64_t packetsHeld{0};                       //!< packets held during the switches
    Time longestHold;                              //!< the longest hold of any switch
    uint64_t packetsLost{0};                       //!< packets lost in the fabric, whole run
    std::vector<mose::WorkloadMode> intervalModes; //!< per interval, its mode
    std::vector<double> intervalMeanFctS;          //!< per interval, mean FCT of its transfers
    std::vector<double> intervalMaxLoad;           //!< per interval, flow-level MaxLoad
    double wallSeconds{0}; //!< wall-clock seconds of Simulator::Run() (printed, never in a file)
    double simulatedSeconds{0}; //!< simulated seconds
    /// run at the fluid or aggregate level: packetsHeld, longestHold and packetsLost are "n/a"
    bool fluid{false};
};

/**
 * \ingroup mose-study
 * \brief What a switching preset's run gave its workload (InstallSwitchWorkload()): the
 *        intervals' flow-level parts, the bytes per unit and the switcher's text after
 *        Experiment::Build(), the rest after Experiment::Run().
 *
 * The run's counts (losses, the intervals' bytes per circuit, the switch records, events,
 * wall and simulated seconds) are the Experiment's, at every level.
 */
struct SwitchResult
{
    std::vector<SwitchInterval> intervals; //!< per mode interval
    /// bytes received per time bin (binWidth), KV then training, from time 0
    std::vector<std::array<uint64_t, 2>> goodputBins;
    uint64_t bytesPerUnit{0}; //!< bytes per unit of flow-level demand (BytesPerUnit)
    /// the switcher's attributes as text: "K=1, drain on, drain timeout 100 ms, ..."
    std::string switcherText;
    /// with rdma at the packet level, the packets MoseRdmaTransport dropped per reason (on
    /// several MPI ranks, over the ranks; CountTransportDrops()); zero otherwise
    TransportDrops transportDrops{};
    /// with rdma at the packet level, errors caught in the flow batches (on several MPI ranks,
    /// each of which runs the batches whole, their sum)
    uint64_t batchErrors{0};

    /// \param experiment the run (after Run()) \return the whole run in a few numbers
    SwitchRunSummary GetSummary(const Experiment& experiment) const;
    /**
     * \param experiment the run (after Build())
     * \return the workload and settings a comparison of this run holds for: scale, run,
     *         schedule, flows per interval, bytes per unit of demand and the switcher's text,
     *         e.g. "N=16 d=4, run 1, schedule ..., 40 flows per mode interval of 65536 bytes
     *         per unit of demand, K=1, drain on, ..."
     */
    std::string GetWorkloadText(const Experiment& experiment) const;
};

/**
 * \ingroup mose-study
 * \brief Installs a switching preset's workload on an experiment (before its Build()): every
 *        mode interval's transfers, a goodput timeline and the flow-level metrics of each
 *        interval, at its level.
 *
 * The Experiment builds the scenario, the fabric in the policy's template of the initial mode,
 * the switcher (MoseModeSwitcherHelper with MakePolicyProvider()), the circuit monitor and the
 * interval probe (read and reset at every boundary, before the switch starts, and at every
 * switch's end, so that an interval's per-circuit bytes are those of its own graph while it was
 * in place); it stops the run once every transfer has completed and no switch is running (or
 * at stopTime). Each interval's flow-level metrics are mose::EvaluateFlows() with the run's
 * routing rule and seed, the rule the fabric's routing protocol uses.
 *
 * At the packet level over tcp: every interval's transfers (Experiment::InstallModeFlows(),
 * MoseFlowWorkload), the goodput timeline from their monitors' TransferRx traces. Over rdma:
 * the transport on the groups' endpoints and each interval's transfers as a flow batch on it
 * (MoseBatchWorkload), the goodput timeline sampled at every bin's end. At the fluid and
 * aggregate levels: one mose::FlowBatch per interval on the fluid fabric (mose::FluidFlowRun,
 * Experiment::SetFluidRun()), whose intervals' figures and switch records the Experiment keeps
 * (FluidRunOutput).
 *
 * \param experiment a switching preset's experiment (MakeSwitchConfig(); checked here by
 *        ValidateSwitchConfig(): Error), not built yet
 * \return its results, filled by its Build() and Run()
 */
std::shared_ptr<const SwitchResult> InstallSwitchWorkload(Experiment& experiment);

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_EXPERIMENT_H */
