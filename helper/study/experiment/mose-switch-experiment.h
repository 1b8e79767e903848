/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_EXPERIMENT_H
#define MOSE_SWITCH_EXPERIMENT_H

#include "mose-experiment.h"
#include "mose-llm-experiment.h"

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
 * \brief The switching preset (mose-mode-switch, SwitchExperiment): the Experiment of a
 *        scenario run under a policy, with a switcher that follows a schedule of modes and the
 *        traffic of every mode interval.
 *
 * The scenario (N, d, roles, templates, flows per mode, routing rule) is the flow-level study's
 * configuration. The switch's knobs (Phases K, Drain, DrainTimeout, ReconfigurationDelay) are
 * MoseModeSwitcher attributes and the traffic's (BytesPerUnit, transport, ...) MoseTrafficHelper
 * attributes, set with Config::SetDefault or --ns3::Type::Attr=value.
 *
 * Mode interval 0 runs the initial mode from firstStart to the first boundary; interval i > 0
 * runs boundary i - 1's mode from that boundary to the next one (the last: to `end`). Each
 * interval's transfers are all flows of its mode (one transfer per (source, destination) pair
 * by default), starting uniformly over the first min(interval length, startWindow) of the
 * interval (MoseModeSwitcherHelper::InstallModeTraffic()).
 *
 * At the fluid and aggregate levels (ExperimentConfig::SetTransport()) the same transfers
 * (MoseTrafficHelper::MakeStartedTransfers() with InstallModeTraffic()'s attributes and streams)
 * run as one mose::FlowBatch per interval on the fluid fabric MoseFluidFabricHelper::Read() reads
 * from the same helpers, which switches at the same boundaries to the same templates
 * (mose::FluidFlowRun), without a Simulator. A flow list has no collective, so the aggregate
 * level runs as the fluid one. What only packets have (drops, held packets, drain timeouts) is
 * "n/a" there. With ns3::MoseRdmaTransport at the packet level each interval's transfers run as
 * a mose::FlowBatch on the transport (MoseBatchWorkload) and RED with ECN marks on the ports.
 *
 * \param scenario N, d, roles, templates, flows, routing rule
 * \return the configuration: a switcher that a running switch holds the run for, the circuit
 *         and loss monitors and the interval probe, stop time 30 s, and the schedule
 *         "inference-heavy:200ms,training-heavy:200ms,inference-heavy:200ms" (mose-mode-switch's
 *         default; SetSchedule())
 */
ExperimentConfig MakeSwitchConfig(const mose::FlowExperimentConfig& scenario);

/**
 * \ingroup mose-study
 * \brief MakeSwitchConfig() with the scenario defaults of every mose program at N groups
 *        (mose::PaperScaledConfig(): d = 4, the paper's role shares scaled to N, H^PD with
 *        r = d - 1).
 * \param nodes N
 * \param flows flows per mode
 * \return the configuration
 */
ExperimentConfig MakeSwitchConfig(uint32_t nodes, uint64_t flows);

/**
 * \ingroup mose-study
 * \brief Throws a mose::Error naming "--schedule period K duration" if a period between
 *        two switches lasts no longer than the longest switch of MoseModeSwitcher's
 *        attribute defaults, Phases x (DrainTimeout + ReconfigurationDelay): the switcher
 *        refuses such a schedule when it starts (naming its period), a program whose
 *        switcher takes the defaults (mose-mode-switch, mose-llm --map=false) can refuse
 *        the --schedule before.
 * \param periods the schedule's periods
 */
void CheckSwitchesFit(const mose::ModeSchedule& periods);

/**
 * \ingroup mose-study
 * \brief Throws a mose::Error naming the first invalid parameter of a switching preset's
 *        configuration (MakeSwitchConfig()): the scenario's, a transport that is none, an
 *        unsorted schedule, firstStart not before the first boundary,
 *        end not after the last, a stop time before end, a non-positive start window or bin
 *        width.
 * \param config the configuration
 */
void ValidateSwitchConfig(const ExperimentConfig& config);

/**
 * \ingroup mose-study
 * \brief What one mode interval of a switching run gave, at the flow and the packet level.
 */
struct SwitchInterval
{
    uint32_t index{0};                                            //!< interval number
    mose::WorkloadMode mode{mose::WorkloadMode::INFERENCE_HEAVY}; //!< its mode
    mose::TemplateId templateId{mose::TemplateId::UNIFORM};       //!< the template the policy picks
    Time start;                                                   //!< interval start
    Time end;                                                     //!< interval end
    /// the switch at the interval's start (none for interval 0)
    std::optional<MoseSwitchRecord> switchRecord;

    // flow level: the interval's circuit graph (the policy's template for the mode) and flows
    uint64_t flows{0};         //!< flows of the mode
    mose::FlowMetrics metrics; //!< EvaluateFlows() on that graph and those flows
    mose::CircuitGraph graph;  //!< the interval's circuit graph (the template)

    // packet level
    std::vector<MoseTransfer> transfers; //!< the transfers started in the interval
    MoseFctSummary kv;                   //!< FCT and goodput of its KV transfers
    MoseFctSummary training;             //!< FCT and goodput of its training transfers
    /// whether the OCS carried exactly `graph` at the interval's end
    bool graphRealised{false};
    /// per circuit of `graph` (its GetCircuits() order), payload bytes crossing it (both
    /// directions) from the moment the graph was in place (the switch's end; interval 0: the
    /// start) to the interval's end (the last interval: the end of the simulation)
    std::vector<uint64_t> circuitBytes;
    uint64_t bytesDuringSwitch{0}; //!< payload bytes crossing any circuit during the switch
    uint64_t packetsLost{0};       //!< packets lost in the fabric during the interval
    /// packetsLost per MoseLossMonitor drop point
    std::array<uint64_t, MoseLossMonitor::N_POINTS> drops{};

    /// \return the largest of circuitBytes (0 if none)
    uint64_t GetMaxCircuitBytes() const;
    /// \return the mean of circuitBytes (0 if none)
    double GetMeanCircuitBytes() const;
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
 * \brief Builds and runs one mode-switching experiment and reports, per mode interval, the
 *        flow-level metrics of the interval's circuit graph and flows next to the packet-level
 *        results of the same interval, with the mode timeline and the switches' costs.
 *
 * Build(): the scenario of the run (mose::ScenarioBuilder::Build()), the fabric for the
 * policy's template of the initial mode (MoseTopologyHelper), the switcher
 * (MoseModeSwitcherHelper with MakePolicyProvider()), every interval's transfers
 * (InstallModeTraffic()), a circuit monitor, a goodput timeline (bytes received per class and
 * time bin, from the transfer monitors' TransferRx traces) and the flow-level metrics of each
 * interval (mose::EvaluateFlows() with the run's routing rule and seed, the rule the fabric's
 * routing protocol uses). The circuit monitor is read and reset at every boundary (before the
 * switch starts) and at every switch's end, so an interval's per-circuit bytes are those of its
 * own graph while it was in place. Run() stops the simulation once every transfer has completed
 * and no switch is running (or at stopTime), then destroys the simulator: one experiment per
 * Simulator lifetime.
 */
class SwitchExperiment
{
  public:
    /// \param config the parameters, a switching preset (MakeSwitchConfig(); validated here by
    ///        ValidateSwitchConfig(): Error)
    /// \param scenario the run's scenario drawn before (SetScenario(); a comparison's,
    ///        PolicyComparison::Share()), or null: Build() draws what it needs
    explicit SwitchExperiment(const ExperimentConfig& config,
                              std::shared_ptr<const mose::Scenario> scenario = nullptr);

    /**
     * \brief Gives Build() the run's scenario drawn before (Experiment::SetScenario()), so that
     *        the policies of one comparison draw it once.
     * \param scenario the scenario of this configuration's run
     */
    void SetScenario(std::shared_ptr<const mose::Scenario> scenario);

    /// \brief Builds the scenario, fabric, switcher, transfers, monitors and flow-level
    ///        metrics; Error for a bad configuration (before anything runs)
    void Build();

    /// \brief Runs the simulation, collects the results, destroys the simulator
    void Run();

    /// \return the configuration
    const ExperimentConfig& GetConfig() const;
    /// \return the experiment: the fabric, its monitors and the run's counts (its ns-3
    ///         objects from Build() until Run() ends)
    const Experiment& GetExperiment() const;
    /// \return the mode intervals (flow-level parts after Build(), the rest after Run())
    const std::vector<SwitchInterval>& GetIntervals() const;
    /// \return the switcher's records (after Run())
    const std::vector<MoseSwitchRecord>& GetSwitchRecords() const;
    /// \return the whole run in a few numbers (after Run())
    SwitchRunSummary GetSummary() const;
    /// \return bytes received per time bin (binWidth), KV then training, from time 0
    const std::vector<std::array<uint64_t, 2>>& GetGoodputBins() const;
    /// \return the switcher's attributes as text: "K=1, drain on, drain timeout 100 ms, ..."
    const std::string& GetSwitcherText() const;
    /**
     * \return the workload and settings a comparison of this run holds for (after Build()):
     *         scale, run, schedule, flows per interval, bytes per unit of demand and the
     *         switcher's text, e.g. "N=16 d=4, run 1, schedule ..., 40 flows per mode interval of
     *         65536 bytes per unit of demand, K=1, drain on, ..."
     */
    std::string GetWorkloadText() const;
    /// \return packets lost in the fabric, whole run
    uint64_t GetPacketsLost() const;
    /// \return wall-clock seconds of Build()
    double GetBuildSeconds() const;
    /// \return what the run took at its level (the packet level's Experiment::GetRunFigures()
    ///         or the fluid run's FluidRunFigures()); the getters below read it
    const RunFigures& GetRunFigures() const;
    /// \return wall-clock seconds of Run()
    double GetWallSeconds() const;
    /// \return events executed
    uint64_t GetEvents() const;
    /// \return simulated seconds until the last event (after Run())
    double GetSimulatedSeconds() const;
    /// \return bytes per unit of flow-level demand (MoseTrafficHelper BytesPerUnit)
    uint64_t GetBytesPerUnit() const;

    /// \return with rdma at the packet level, the packets MoseRdmaTransport dropped (after
    ///         Run(); on several MPI ranks, over the ranks); 0 otherwise
    uint64_t GetTransportDrops() const;
    /// \return with rdma at the packet level, the transport's drops per reason (after Run())
    const TransportDrops& GetTransportDropsByReason() const;
    /// \return with rdma at the packet level, errors caught in the flow batches (after Run();
    ///         on several MPI ranks, each of which runs the batches whole, their sum)
    uint64_t GetBatchErrors() const;

  private:
    /// \brief Build() at the fluid and aggregate levels: the scenario, the intervals, the
    ///        fabric read from the helpers (nothing installed) and one flow batch per interval
    void BuildFluid();
    /// \brief Build() of the packet level with rdma: the transport installed on the groups'
    ///        endpoints and each interval's transfers as a flow batch on it (MoseBatchWorkload)
    void BuildBatches();
    /**
     * \brief The transfers MoseModeSwitcherHelper::InstallModeTraffic() installs in an
     *        interval (its attributes and streams); interval 0 sets m_fluidBytesPerUnit.
     * \param i the interval \param iv its times \param flows its mode's flows
     * \return the transfers
     */
    std::vector<MoseTransfer> DrawIntervalTransfers(uint32_t i,
                                                    const SwitchInterval& iv,
                                                    const std::vector<mose::Flow>& flows);
    /// \return payload bytes the batches' started transfers received so far, KV then training
    std::array<uint64_t, 2> CountBatchBytes() const;
    /// \brief At every bin's end (rdma): the bytes received since the last sample into the bin
    void SampleBatches();
    /// \brief Adds the bytes received since the last sample to the bin of a time
    /// \param binTime a time in the bin
    void AddBatchBytes(Time binTime);
    /// \brief The collector with rdma: every interval's transfers from its batch (merged over
    ///        the ranks), the transport's drops and the goodput bins summed over the ranks
    void CollectBatches();
    /// \brief Run() at the fluid and aggregate levels
    void RunFluid();
    /// \brief RunFluid(): every interval's transfers from its batch's records, and their
    ///        summaries \param run the finished run \param fabric its fabric
    void CollectFluidTransfers(const mose::FluidFlowRun& run, const mose::FluidFabric& fabric);
    /// \brief RunFluid(): the fabric's switches as MoseSwitchRecord (what packets alone have
    ///        stays 0) \param run the finished run \param fabric its fabric
    void CollectFluidSwitches(const mose::FluidFlowRun& run, const mose::FluidFabric& fabric);
    /// \brief RunFluid(): an interval ends; its circuits' bytes since its graph was in place
    /// \param fabric the fluid fabric \param i the interval \param now the port bytes now
    /// \param inPlace the port bytes when its graph was in place (empty: never)
    void CloseFluidInterval(const mose::FluidFabric& fabric,
                            uint32_t i,
                            const std::vector<double>& now,
                            const std::vector<double>& inPlace);

    /// "TransferRx" sink of interval `interval`'s monitor: adds the bytes to the current bin
    /// \param interval the interval \param index the transfer \param bytes bytes received
    void OnRx(uint32_t interval, uint32_t index, uint32_t bytes);
    /// The experiment's collector: every interval's transfers (merged over the ranks), and on
    /// several MPI ranks the goodput bins summed (each rank counted its own sinks)
    void Collect();
    /// \brief On several MPI ranks, each goodput bin becomes its sum over the ranks (each
    ///        counted the bytes its own receivers got); nothing on one process
    void SumBinsOverRanks();

    Experiment m_experiment;                        //!< fabric, switcher, monitors, run
    std::vector<SwitchInterval> m_intervals;        //!< per interval
    std::vector<Ptr<MoseFlowWorkload>> m_workloads; //!< per interval (until Run() ends)
    std::vector<Ptr<MoseBatchWorkload>> m_batches;  //!< per interval, rdma (until Run() ends)
    std::array<uint64_t, 2> m_binReceived{};        //!< bytes received at the last sample (rdma)
    EventId m_sampler;                              //!< the next sample (rdma)
    TransportDrops m_transportDrops{};              //!< GetTransportDrops()
    uint64_t m_batchErrors{0};                      //!< GetBatchErrors()
    std::vector<MoseSwitchRecord> m_records;        //!< results
    std::vector<std::array<uint64_t, 2>> m_bins;    //!< goodput timeline
    uint32_t m_nTransfers{0};                       //!< all intervals
    double m_buildSeconds{0};                       //!< Build() wall time
    bool m_built{false};                            //!< Build() ran
    bool m_ran{false};                              //!< Run() ran
    std::optional<mose::FluidFlowConfig> m_fluid;   //!< the fluid run (BuildFluid())
    std::vector<std::vector<MoseTransfer>> m_fluidDrawn; //!< per interval, its transfers
    uint64_t m_fluidBytesPerUnit{0};                     //!< BytesPerUnit (fluid level)
    std::string m_fluidSwitcherText;                     //!< the switch's settings (fluid)
    RunFigures m_fluidFigures;                           //!< what the fluid run took
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_EXPERIMENT_H */
