/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_EXPERIMENT_H
#define MOSE_EXPERIMENT_H

#include "mose-level.h"

#include "ns3/data-rate.h"
#include "ns3/flow-monitor.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-circuit-monitor.h"
#include "ns3/mose-collective.h"
#include "ns3/mose-flow-batch.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-flow-workload.h"
#include "ns3/mose-fluid-fabric.h"
#include "ns3/mose-llm-request.h"
#include "ns3/mose-llm-transfers.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/mose-mode-switcher.h"
#include "ns3/mose-pfc.h"
#include "ns3/mose-placement.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-traffic-helper.h"
#include "ns3/mose-training-plan.h"
#include "ns3/mose-transfer.h"
#include "ns3/mose-transport.h"
#include "ns3/mose-workload-helper.h"
#include "ns3/mose-workload.h"
#include "ns3/nstime.h"
#include "ns3/system-wall-clock-ms.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class FlowMonitorHelper;
class MoseTransportHelper;

namespace mose
{

/**
 * \ingroup mose-study
 * \brief Packets FlowMonitor counted for one traffic class (Experiment::CountFlowPackets()).
 */
struct FlowPacketCounts
{
    uint64_t lost{0}; //!< FlowMonitor's lost packets of the class's flows
    uint64_t sent{0}; //!< FlowMonitor's transmitted packets of the class's flows
};

/**
 * \ingroup mose-study
 * \brief A schedule as a run runs it: its periods, the last one ending at `end` (its own
 *        duration is not used); the durations are the differences of the periods' ns-3 start
 *        times (MoseScheduleTimes()), in seconds.
 * \param schedule the schedule (empty: inference-heavy)
 * \param end the end of the last period
 * \return the periods as run
 */
mose::ModeSchedule RunSchedule(const mose::ModeSchedule& schedule, Time end);

/**
 * \ingroup mose-study
 * \brief ECN marking on the fabric's queues, as RoCEv2's DCQCN needs it: ns-3's RedQueueDisc
 *        with UseEcn as the root queue disc of every port and host-link end. Kmin, Kmax and
 *        Pmax are the DCQCN paper's names (Zhu et al., SIGCOMM'15; its values 5, 200, 1%).
 *
 * The disc marks on the instantaneous queue (RED's QW = 1, as DCQCN's switches do), with a
 * probability rising from 0 at Kmin packets to Pmax at Kmax; above Kmax it marks every ECN-capable
 * packet (UseHardDrop false, Gentle). Packets that are not ECN-capable (the transport's ACKs and
 * CNPs) are dropped early where an ECN-capable one would be marked: that is ns-3's RED.
 */
struct EcnMarking
{
    double kmin{5};                //!< RED MinTh, packets (>= 0)
    double kmax{200};              //!< RED MaxTh, packets (> kmin)
    double pmax{0.01};             //!< the marking probability at kmax, (0, 1]: RED LInterm 1/pmax
    std::string discSize{"1000p"}; //!< RED MaxSize: the port's buffer, packets

    /// \brief Throws a mose::Error naming the first invalid field (ecnKmin, ecnKmax, ecnPmax)
    void Validate() const;
};

/**
 * \ingroup mose-study
 * \brief The transfers a MoseTrafficHelper drew (MakeStartedTransfers()) as flows of a
 *        mose::FlowBatch: one flow each, in their order, from each group's first endpoint
 *        (rail 0, as MoseTopologyHelper::GetEndpoints() gives the applications).
 * \param transfers the transfers
 * \return the flows
 */
std::vector<mose::BatchFlow> ToBatchFlows(const std::vector<MoseTransfer>& transfers);

/// packets a RoCEv2 transport dropped at its receivers, per MoseRdmaTransport::DropReason
using TransportDrops = std::array<uint64_t, MoseRdmaTransport::N_DROP_REASONS>;

/**
 * \ingroup mose-study
 * \param transport a transport (MoseRdmaTransport, or another: zeros)
 * \return its drops per reason (MoseRdmaTransport::GetNDrops(reason)); on several MPI ranks
 *         the sums over the ranks, each rank counting its own receivers' drops (every rank
 *         must call it, after Simulator::Run())
 */
TransportDrops ReadTransportDrops(Ptr<MoseTransport> transport);

/**
 * \ingroup mose-study
 * \param typeName a transport's TypeId name (MoseTransportHelper::GetTypeName())
 * \return whether it is RoCEv2 (ns3::MoseRdmaTransport)
 */
bool IsRdmaTransport(const std::string& typeName);

/**
 * \ingroup mose-study
 * \param drops drops per reason
 * \return their total
 */
uint64_t CountTransportDrops(const TransportDrops& drops);

/**
 * \ingroup mose-study
 * \param drops drops per reason
 * \return their total and the reasons that have some: "12 (out of order 10, duplicate 2)"
 */
std::string DescribeTransportDrops(const TransportDrops& drops);

/**
 * \ingroup mose-study
 * \brief The transport as a report's title says it: "" for TCP (the title as before the
 *        option), ", transport rdma" without a packet level, else ", transport rdma (RED with
 *        ECN: Kmin 5, Kmax 200 packets, Pmax 0.01)".
 * \param rdma whether the transport is RoCEv2
 * \param packetLevel whether the packet level runs (it has the queues)
 * \param ecn the ports' marking (ExperimentConfig::ecn; unset: EcnMarking's defaults)
 * \return the text
 */
std::string DescribeTransport(bool rdma,
                              bool packetLevel,
                              const std::optional<EcnMarking>& ecn,
                              bool pfc = false);

/**
 * \ingroup mose-study
 * \brief What PFC did in a run (Experiment::GetPfcCounts())
 */
struct PfcCounts
{
    bool installed{false};      //!< PFC ran
    uint64_t pausesSent{0};     //!< MosePfc::GetNPausesSent()
    uint64_t pausesReceived{0}; //!< MosePfc::GetNPausesReceived()
    uint64_t nicPauses{0};      //!< MosePfc::GetNNicPauses()
    uint64_t pausesLost{0};     //!< MosePfc::GetNPausesLost()
    uint64_t storms{0};         //!< MosePfc::GetNStorms()
    Time pausedTime;            //!< MosePfc::GetPausedTime(), port-time summed over devices
    Time longestPause;          //!< MosePfc::GetLongestPause()
};

/**
 * \ingroup mose-study
 * \param pfc what PFC did
 * \return "PFC: 12 pauses sent (3 lost), 4 NIC pauses, 1.234 ms paused port-time (longest
 *         0.100 ms), 0 storms"
 */
std::string DescribePfc(const PfcCounts& pfc);

/**
 * \ingroup mose-study
 * \brief A switcher's settings as the reports give them, at every level (the packet level's
 *        MoseModeSwitcher, the fluid fabric read from the same attributes)
 * \param phases Phases \param drain Drain \param drainTimeout DrainTimeout
 * \param reconfigurationDelay ReconfigurationDelay
 * \return "K=1, drain on, drain timeout 100.000 ms, reconfiguration delay 10.000 ms"
 */
std::string DescribeSwitcher(uint64_t phases,
                             bool drain,
                             Time drainTimeout,
                             Time reconfigurationDelay);

/**
 * \ingroup mose-study
 * \brief What one run took, at every level: the packet level's Simulator::Run() over every
 *        rank (Experiment::RunMeasured()) or a fluid run (FluidRunFigures()). The presets
 *        read a run's cost from it whatever the level.
 */
struct RunFigures
{
    std::vector<uint64_t> eventsPerRank; //!< events executed per rank (one entry on one)
    uint64_t events{0};                  //!< their sum
    double wallSeconds{0};               //!< the longest wall time of a rank
    double simulatedSeconds{0};          //!< the latest simulated time of a rank
};

/**
 * \ingroup mose-study
 * \param fabric the fabric of a finished fluid run (FluidFlowRun, FluidLlmRun)
 * \param endNs the run's end (GetEndNs())
 * \param wallSeconds the wall time of its Run(), measured by the caller
 * \return its figures: the fabric's events on one "rank", the end in seconds, the wall time
 */
RunFigures FluidRunFigures(const mose::FluidFabric& fabric, int64_t endNs, double wallSeconds);

/**
 * \ingroup mose-study
 * \brief The switches of a finished fluid run in the packet level's form (MoseSwitchRecord;
 *        what packets alone have stays 0), for both presets' fluid runs.
 *
 * A switch's target is the mode of the boundary it started at: a boundary reached while a
 * switch ran started none (the switcher skips it), so the next switch belongs to the next
 * boundary at its start time.
 * \param fabric the fabric of the run \param boundaries the schedule's boundaries (time in
 *        ns, the mode entered), in order \param initial the initial mode
 * \param phases the fabric's Phases (FluidFabricConfig::phases)
 * \param endNs the run's end (an unfinished switch's figures run up to it)
 * \return the records, one per switch started
 */
std::vector<MoseSwitchRecord> FluidSwitchRecords(
    const mose::FluidFabric& fabric,
    const std::vector<std::pair<int64_t, mose::WorkloadMode>>& boundaries,
    mose::WorkloadMode initial,
    uint32_t phases,
    int64_t endNs);

/**
 * \ingroup mose-study
 * \brief Runs a fluid run, measured (the presets' fluid runs, Experiment::SetFluidRun()).
 * \param run a fluid run not run yet (mose::FluidFlowRun, mose::FluidLlmRun)
 * \return FluidRunFigures() of it, with the wall time of its Run()
 */
template <typename FluidRun>
RunFigures
RunFluidMeasured(FluidRun& run)
{
    SystemWallClockMs clock;
    clock.Start();
    run.Run();
    return FluidRunFigures(*run.GetFabric(),
                           run.GetEndNs(),
                           static_cast<double>(clock.End()) / 1000.0);
}

/**
 * \ingroup mose-study
 * \brief What only the LLM run (InstallLlmWorkload()) adds to an ExperimentConfig: the settings of
 *        its workloads (MoseInferenceWorkload, MoseTrainingWorkload), their transport's
 *        notice delay and the fluid level's rate epoch. Byte counts are before --scale.
 */
struct LlmWorkloadConfig
{
    std::vector<mose::LlmRequest> requests; //!< inference requests (arrival 0 = time 0)
    uint64_t kvBytesPerToken{131072};       //!< the model's KV bytes per token
    mose::PlacementRule placement{mose::PlacementRule::CIRCUIT_AWARE}; //!< placement rule
    double prefillTokensPerSecond{2000000}; //!< prefill speed of one group

    bool training{true};                                               //!< run a training job
    mose::CollectiveKind collective{mose::CollectiveKind::ALL_TO_ALL}; //!< its collective
    uint64_t collectiveBytes{268435456};                               //!< S per member
    Time computeTime{MilliSeconds(20)};                                //!< compute per iteration
    uint32_t maxIterations{0};                                         //!< 0: until end
    /// MoseTrainingWorkload ReuseConnections: one connection per ordered member pair, kept
    /// while the member set stays (false: a new connection per collective chunk)
    bool reuseConnections{true};
    /// a training plan (--trainingTrace): each iteration is its DAG instead of computeTime
    /// and one collective (mose::TrainingSettings::plan); null: the synthetic job
    std::shared_ptr<const mose::TrainingPlan> trainingPlan;
    mose::RankMapping rankMapping; //!< the plan's ranks on the training groups and rails
    mose::NcclSettings nccl;       //!< how the plan's collectives are decomposed

    /// MoseSocketTransfers NoticeDelay: how long after a transfer's last byte the workloads
    /// learn of it; unset: the attribute's default if the user set it, else twice the fabric's
    /// smallest link delay (a notice to the job and its answer), which is what a run on
    /// several MPI ranks needs: a notice delay above the lookahead
    std::optional<Time> noticeDelay;
    /// the fluid level's rate epoch (mose::FluidFabricConfig::rateEpochNs): 0, exact max-min
    /// rates after every change; above 0, rates recomputed at most once per epoch (faster,
    /// approximate). Not used by the packet level
    Time fluidRateEpoch{Seconds(0)};
    /// the fluid level's queues (mose-llm --fluidQueues, mose::FluidFabricConfig::queues):
    /// ports with FIFO backlogs, RoCEv2's line-rate start and DCQCN's cut, the RED disc's
    /// marking and buffer (rdma only; not at the aggregate level). Not used by the packet level
    bool fluidQueues{false};

    /// \return the training job in a few words: "no training", the trace ("training trace
    ///         PREFIX (R ranks, K nodes)") or the synthetic job's collective ("all-to-all of
    ///         S B per member")
    std::string DescribeTraining() const;
};

/**
 * \ingroup mose-study
 * \brief Everything one packet-level run is made of, whatever its workloads: the scenario,
 *        the policy, the run, the fabric's rates and scale, one mode schedule and the
 *        monitors. The packet, switch and LLM runs are presets of it
 *        (MakePacketConfig(), MakeSwitchConfig(), MakeLlmConfig()); their
 *        workloads are installed on the built Experiment.
 *
 * Mode interval i runs the schedule's period i from its start (MoseScheduleTimes()) to the
 * next period's start; the last interval ends at `end` (the last period's duration is not
 * used, as by the switcher).
 */
struct ExperimentConfig
{
    mose::FlowExperimentConfig scenario;     //!< N, d, roles, templates, flows, routing rule
    mose::Policy policy{mose::Policy::MOSE}; //!< the policy that picks each mode's template
    uint64_t run{1};                         //!< the ns-3 run of the scenario (--RngRun)
    Time stopTime{Seconds(60)};              //!< the simulation ends here at the latest
    /// the workload modes over time (empty: inference-heavy); a switch at the start of every
    /// period but the first, when there is a switcher
    mose::ModeSchedule schedule;
    Time end{Seconds(0)}; //!< end of the last mode interval (0: stopTime)
    /// if set, the initial circuit graph is read from this edge-list CSV instead of taken from
    /// the policy's template (a run without switcher only)
    std::string graphFile;

    /// install a MoseModeSwitcher that follows the schedule with the policy's templates
    bool switcher{true};
    /// the switcher's attributes (MoseModeSwitcherHelper; unset: the attribute defaults)
    MoseModeSwitcherHelper switcherHelper;
    /// the OCS dark time of a switch (MoseModeSwitcher ReconfigurationDelay, set on the
    /// switcher GetSwitcherHelper() gives), or unset: switcherHelper's or the attribute's
    std::optional<Time> darkTime;
    /**
     * whether a running switch holds the run: true, the run stops only once no switch runs
     * (its end is checked as well as every unit of work); false, a switch in progress does not
     * keep a run whose work is done (the LLM runs)
     */
    bool waitForSwitches{true};

    /// f: the global value MoseScale during Build() (ScaleScope): the topology divides the
    /// circuit and host rates below by it, the workloads their byte counts
    uint64_t scale{1};
    std::optional<DataRate> ocsRate;  //!< MoseOcs DataRate before scaling (unset: default)
    std::optional<DataRate> hostRate; //!< host link rate before scaling (unset: default)
    /**
     * G, the endpoints of every group, one per GPU or NIC: 1 (the default) the attribute
     * MoseTopologyHelper HostsPerGroup's default (the group node runs the group's sockets; or
     * one host when the user set HostsPerGroup = 1); G >= 2 G hosts behind the group node, each
     * on its own link at hostRate (HostsPerGroup = G), and the transport spreads a group's
     * transfers over them by rail (MoseSocketTransfers). 1 to MAX_HOSTS_PER_GROUP; the
     * group-level figures (bytes between groups and per circuit) do not depend on it.
     */
    uint32_t hostsPerGroup{1};
    /// the largest hostsPerGroup: a /24 group block holds 254 port and host addresses
    static constexpr uint32_t MAX_HOSTS_PER_GROUP = 128;
    /// the port devices' DropTailQueue MaxSize (unset: the topology helper's default queue)
    std::optional<std::string> portQueue;
    /// the port and host devices' Mtu (unset: the default); the LLM run's transport then sends
    /// segments of portMtu - 52 bytes (TCP) or RDMA_JUMBO_PAYLOAD (RDMA)
    std::optional<uint32_t> portMtu;
    /// RED with ECN as the root queue disc of every port and host-link end (unset: the topology
    /// helper's QueueDiscType, FqCoDel by default)
    std::optional<EcnMarking> ecn;
    /// PFC (MosePfc, MoseTopologyHelper::InstallPfc()) on the fabric: with rdma at the packet
    /// level only (mose-llm, mose-packet and mose-mode-switch --pfc)
    bool pfc{false};

    /// install a MoseCircuitMonitor: bytes per circuit, and per mode interval (the interval
    /// probe reads it at every boundary and switch end)
    bool countCircuits{true};
    /// install ns-3's FlowMonitor (packets lost and sent per class; one MPI rank only)
    bool flowMonitor{false};

    /// the level: packets, or fluid flows without the Simulator (Experiment::Build() installs
    /// nothing, Experiment::Run() runs the preset's fluid run), where packet-only figures are
    /// "n/a"
    LlmLevel level{LlmLevel::PACKET};
    /// the transfers' transport, a TypeId name (MoseTransportHelper): ns3::MoseSocketTransfers
    /// (tcp) or ns3::MoseRdmaTransport (rdma, with `ecn` on the ports at the packet level)
    std::string transport{"ns3::MoseSocketTransfers"};

    // a switching run's flow lists (InstallSwitchWorkload(), MakeSwitchConfig()): interval 0's
    // transfers start at firstStart, each interval's uniformly over the first min(interval
    // length, startWindow) of the interval
    Time firstStart{MilliSeconds(1)};    //!< start of interval 0's transfers
    Time startWindow{MilliSeconds(150)}; //!< the longest start window of an interval
    Time binWidth{MilliSeconds(1)};      //!< bin of a switching run's goodput timeline
    /// the text each option was given as, by option ("--binWidth" -> "1ns"): messages quote it
    /// in place of the value it was read as (Shown(), ScheduleShown())
    std::map<std::string, std::string> optionText;

    /// the LLM run's workloads (InstallLlmWorkload(), MakeLlmConfig()); not used by the flow lists
    LlmWorkloadConfig llm;

    /// the port devices' DropTailQueue MaxSize with RDMA at the packet level: one packet, so
    /// that the backlog waits in the RED disc, which marks on it (a full device queue would hold
    /// the port's buffer before the disc saw any)
    static constexpr const char* RDMA_DEVICE_QUEUE = "1p";
    /// the jumbo MTU (mose-llm --jumbo): portMtu
    static constexpr uint32_t JUMBO_MTU = 9000;
    /// RDMA PayloadSize with a portMtu: the InfiniBand path MTU of a 9000-byte Ethernet MTU
    static constexpr uint32_t RDMA_JUMBO_PAYLOAD = 4096;

    /// \brief Throws a mose::Error naming the first invalid parameter (the scenario's, a stop
    ///        time that is not positive, a zero scale, a graph file on a run with a switcher);
    ///        the schedule is the switcher's to check (MoseModeSwitcher names its periods)
    void Validate() const;

    /// \return the schedule's first mode
    mose::WorkloadMode GetInitialMode() const;

    /// \return end, or stopTime when end is 0
    Time GetEnd() const;

    /// \return whether the transport is RoCEv2 (ns3::MoseRdmaTransport)
    bool IsRdma() const;

    /**
     * \brief Sets the level and the transfers' transport as the flow-list presets run them
     *        (MakePacketConfig(), MakeSwitchConfig()): with RoCEv2 at the packet level also RED
     *        with ECN on every port and host-link end (`marking`, its disc holding the port's
     *        buffer) and one-packet device queues (RDMA_DEVICE_QUEUE); otherwise no marking.
     * \param runLevel the level \param typeName the transport, a TypeId name
     * \param marking the ports' marking with RoCEv2 at the packet level
     */
    void SetTransport(LlmLevel runLevel,
                      const std::string& typeName,
                      const EcnMarking& marking = EcnMarking());

    /**
     * \brief Sets schedule and end from a schedule of periods (mose::ParseSchedule(), the
     *        MODE:DURATION syntax of every program's --schedule): the fabric is in period 0's
     *        mode from time 0, period k > 0 starts at the sum of the durations before it, and
     *        the last one ends at the sum of all.
     *
     * Error naming "--schedule period K duration" for a period that does not last at least
     * 1 ns, and "--schedule" for an empty list or durations beyond ns-3's time range.
     * \param periods the periods, in order
     */
    void SetSchedule(const mose::ModeSchedule& periods);

    /// \return the schedule as run: its periods, the last one ending at GetEnd()
    mose::ModeSchedule GetRunSchedule() const;

    /// \return the start of every mode interval (MoseScheduleTimes(); one for an empty
    ///         schedule)
    std::vector<Time> GetIntervalStarts() const;

    /// \return switcherHelper with darkTime, if set, as its ReconfigurationDelay
    MoseModeSwitcherHelper GetSwitcherHelper() const;

    /**
     * \brief Sets hostRate (unscaled) from a program's option and the attribute
     *        ns3::MoseTopologyHelper::HostDataRate, by one rule: the option's rate if it is
     *        given and the attribute is not set; the attribute's if the user set it
     *        (command line or Config::SetDefault) and the option is not given; `otherwise` if
     *        neither; both given with different rates is a mose::Error naming both
     *        ("--hostRate = "800Gbps" and --ns3::MoseTopologyHelper::HostDataRate = "400Gbps"
     *        disagree: give one ..."). The option's text must be a data rate above 0
     *        (Error "invalid --hostRate = "fast": a data rate above 0 such as 1600Gbps").
     * \param option the option's name without dashes ("hostRate"), for the messages
     * \param text the option's text as typed, if the user gave it
     * \param otherwise the rate when neither is given (mose-llm: d x the circuit rate,
     *        a group's d circuits)
     */
    void ResolveHostRate(const std::string& option,
                         const std::optional<std::string>& text,
                         DataRate otherwise);

    /// \param option an option ("--binWidth") \param value its value
    /// \return the option's text as given (optionText), quoted, or else the value in ms
    std::string Shown(const std::string& option, Time value) const;

    /// \return --schedule as given (optionText), or else the schedule's periods, quoted
    std::string ScheduleShown() const;
};

/**
 * \ingroup mose-study
 * \brief Sets the global value MoseScale (MoseScale) to an experiment's scale for its
 *        lifetime and back to the previous value afterwards.
 *
 * A MoseScale the user set (--MoseScale, NS_GLOBAL_VALUE) that differs from the experiment's
 * scale is a conflict: the constructor throws a mose::Error naming both.
 */
class ScaleScope
{
  public:
    /// \param scale the experiment's scale, at least 1
    explicit ScaleScope(uint64_t scale);
    ~ScaleScope();
    ScaleScope(const ScaleScope&) = delete;            //!< one scope, one restore
    ScaleScope& operator=(const ScaleScope&) = delete; //!< one scope, one restore

  private:
    uint64_t m_previous; //!< MoseScale before
};

/**
 * \ingroup mose-study
 * \brief One mode interval of a run, as the interval probe saw it.
 */
struct ExperimentInterval
{
    uint32_t index{0};                                            //!< interval number
    mose::WorkloadMode mode{mose::WorkloadMode::INFERENCE_HEAVY}; //!< its mode
    Time start;                                                   //!< its start
    Time end;                                                     //!< its end
    /// the circuit graph of the interval: the initial graph, then the policy's template of
    /// its mode (the target of the switch that starts it)
    mose::CircuitGraph graph;
    /// per circuit of `graph`, payload bytes crossing it (both directions) from the moment the
    /// graph was in place to the interval's end (with a circuit monitor)
    std::vector<uint64_t> circuitBytes;
    bool graphRealised{false};     //!< the OCS carried exactly `graph` at the interval's end
    uint64_t bytesDuringSwitch{0}; //!< payload bytes crossing any circuit during its switch
    /// packets lost per MoseLossMonitor drop point during the interval
    std::array<uint64_t, MoseLossMonitor::N_POINTS> drops{};
    uint64_t packetsLost{0}; //!< their sum

    /// \return the largest of circuitBytes (0 if none)
    uint64_t GetMaxCircuitBytes() const;
    /// \return the mean of circuitBytes (0 if none)
    double GetMeanCircuitBytes() const;
};

/**
 * \ingroup mose-study
 * \brief What a preset's fluid run gives its Experiment (Experiment::SetFluidRun()).
 */
struct FluidRunOutput
{
    RunFigures figures; //!< what it took (FluidRunFigures())
    /// a run without switcher: per circuit of the initial graph, the payload bytes it carried
    /// (Experiment::GetCircuitBytes()); empty otherwise
    std::vector<uint64_t> circuitBytes;
    /// a run with a switcher: Experiment::GetIntervals() with the probe's figures the fluid
    /// run measured (circuit bytes, graph realised, bytes during the switch); empty: the
    /// intervals stay as Build() made them
    std::vector<ExperimentInterval> intervals;
    /// a run with a switcher: its switches as the switcher records them (what packets alone
    /// have stays 0), Experiment::GetSwitchRecords()
    std::vector<MoseSwitchRecord> switchRecords;
};

/**
 * \ingroup mose-study
 * \brief One run, whatever its workloads and level: Build() draws the scenario once (or
 *        takes one drawn before, SetScenario(); a run without switcher draws only its initial
 *        mode and graph), installs the fabric in the policy's template
 *        of the initial mode (MoseTopologyHelper, rates and scale), its loss and circuit
 *        monitors, and the switcher (MoseModeSwitcherHelper); the workloads are installed on
 *        it (InstallWorkload(), InstallFlows(), InstallModeFlows()); Run() runs it: on several
 *        MPI ranks it begins the distributed simulation and bounds the lookahead, it measures
 *        the run (wall time, events per rank), then keeps what the run counted, merged over
 *        the ranks, and destroys the simulator.
 *
 * At every switch start every workload gets the new mode's roles and circuit graph
 * (MoseWorkload::SetMode()). The run stops when every workload IsDone() and the schedule's
 * switches no longer belong to the run (the last boundary is past, or `end` is reached; with
 * waitForSwitches, no switch runs), or at stopTime.
 *
 * The interval probe: with a circuit monitor, the monitor is read and reset at every boundary
 * (before the switch starts) and at every switch's end, so an interval's per-circuit bytes are
 * those of its own graph while it was in place; the loss monitor's drops are read at every
 * boundary. EvaluateFlows() gives the flow-level figures of any flows on an interval's graph
 * with the run's routing rule and seed, next to the packet-level ones.
 *
 * A preset installs its workloads through SetInstall() (InstallPacketWorkload()). At a fluid
 * or aggregate level Build() draws the scenario and the initial mode only, and Run() runs the
 * preset's fluid run (SetFluidRun()); GetRunFigures() and GetCircuitBytes() are then the fluid
 * run's, and the packet-only counts stay 0.
 *
 * One experiment per Simulator lifetime.
 */
class Experiment
{
  public:
    /// \param config the parameters (validated by Build())
    explicit Experiment(const ExperimentConfig& config);

    /**
     * \brief Gives Build() a scenario drawn before, so that the runs of one comparison draw it
     *        once: it must be ScenarioBuilder(config.scenario).Build(config.run) (its run and
     *        group count are checked). Without it, Build() draws the scenario itself.
     * \param scenario the scenario
     * \param who the caller, for the error message ("Experiment")
     */
    void SetScenario(std::shared_ptr<const mose::Scenario> scenario,
                     const std::string& who = "Experiment");

    /**
     * \brief Creates the topology helper if it does not exist yet (Build() does too), so that
     *        its other attributes (queues, devices) can be set before Build().
     * \return the topology helper (null after Run())
     */
    Ptr<MoseTopologyHelper> PrepareTopology();

    /**
     * \brief Sets on a topology helper what a configuration gives it (rates, port queue, MTU,
     *        hosts per group, N and d), as Build() does before it adds the initial mode's roles,
     *        graph and routing and installs; MoseFluidFabricHelper reads the fluid levels'
     *        fabric from the same helper.
     * \param config the configuration
     * \param topology the helper
     */
    static void ConfigureTopology(const ExperimentConfig& config, MoseTopologyHelper& topology);

    /**
     * \brief Builds the run; Error (naming the parameter) for a bad configuration.
     *
     * At the packet level: the scenario, the fabric, its monitors and the switcher. At a fluid
     * or aggregate level (ExperimentConfig::level), where no Simulator runs and nothing is
     * installed: the scenario, the initial mode and graph and the mode
     * intervals (their figures from the fluid run, FluidRunOutput). Then, at every
     * level, the workload step a preset gave (SetInstall()).
     */
    void Build();

    /**
     * \brief What Build() does last, at every level: a preset installs its workloads on the
     *        fabric (the packet level) or prepares its fluid run (a fluid level), e.g.
     *        InstallPacketWorkload(). Before Build().
     * \param install the step
     */
    void SetInstall(std::function<void()> install);

    /**
     * \brief What Run() runs at a fluid or aggregate level: the preset's fluid run, which keeps
     *        its results and returns what it took (FluidRunFigures()) and, without switcher, the
     *        bytes per circuit. Before Run(); Run() at a fluid level without one is an Error.
     * \param run the fluid run
     */
    void SetFluidRun(std::function<FluidRunOutput()> run);

    /**
     * \brief The fluid fabric of a flow list's transfers, read from the helpers the packet
     *        level builds it with, configured alike (nothing is installed): ConfigureTopology(),
     *        the run's routing rule and seed, the switcher's attributes
     *        (MoseFluidFabricHelper::Read(), with MoseScale at the configuration's scale). The
     *        fluid model's packet is TcpSocket's segment (BulkSend's sockets) or RDMA's
     *        PayloadSize, and a transfer ends at its last byte (the sink's, no notice delay).
     *        The transport is the configuration's. After Build() of a fluid level.
     * \return the fabric
     */
    mose::FluidFabricConfig ReadFluidFabric() const;

    /**
     * \brief The transport the LLM workloads share (MoseSocketTransfers or MoseRdmaTransport
     *        with its attributes set, MoseTransportHelper::Create()), installed on the fabric's
     *        endpoints. Once, after Build().
     * \param transport the transport, not installed yet
     */
    void InstallTransport(Ptr<MoseTransport> transport);

    /**
     * \brief The helper's transport installed on the fabric (MoseTransportHelper::Install() on
     *        the topology: with what it derives from the fabric where the user set nothing,
     *        e.g. RDMA's in-flight cap on the longest route of the graph installed first). Once,
     *        after Build(); then as InstallTransport(transport).
     * \param helper the transport's type and attributes
     * \return the installed transport
     */
    Ptr<MoseTransport> InstallTransport(const MoseTransportHelper& helper);

    /**
     * \brief A workload on the transport (MoseWorkloadHelper::Install()): given the initial
     *        mode's roles and graph, added to the run.
     * \param helper the workload's type and attributes
     * \return the workload (not started)
     */
    Ptr<MoseWorkload> InstallWorkload(const MoseWorkloadHelper& helper);

    /**
     * \brief A flow-list workload: the flows as transfers (MoseTrafficHelper with its
     *        attributes' defaults, random streams from mose::Stream::TRANSFERS, so that --RngRun
     *        fixes them as it fixes the scenario), added to the run.
     * \param flows the flows
     * \return the workload
     */
    Ptr<MoseFlowWorkload> InstallFlows(const std::vector<mose::Flow>& flows);

    /**
     * \brief One flow-list workload per mode interval (MoseModeSwitcherHelper::
     *        InstallModeTraffic(), random streams from mose::Stream::TRANSFERS): the flows of
     *        each interval's mode, starting uniformly over the first min(interval length,
     *        startWindow) of the interval. Needs the switcher.
     * \param flowsOf the flows of a mode
     * \param firstStart the start of interval 0's transfers
     * \param startWindow the longest start window
     * \return the workloads, one per interval
     */
    std::vector<Ptr<MoseFlowWorkload>> InstallModeFlows(
        const std::function<std::vector<mose::Flow>(mose::WorkloadMode)>& flowsOf,
        Time firstStart,
        Time startWindow);

    /**
     * \brief Stops a workload at a time (MoseWorkload::Stop(), scheduled now); the run then
     *        stops if nothing else holds it.
     * \param workload one of the run's workloads
     * \param at the time
     */
    void StopWorkloadAt(Ptr<MoseWorkload> workload, Time at);

    /**
     * \brief Installs ns-3's FlowMonitor on every node (FlowMonitorHelper::InstallAll()).
     *        Error on a run of several MPI ranks: a rank's FlowMonitor sees only the ends of a
     *        flow on its own nodes and would count the others' packets as lost. Run() calls it
     *        when config.flowMonitor is set.
     * \return the monitor
     */
    Ptr<FlowMonitor> InstallFlowMonitor();

    /**
     * \brief Called on every rank when the distributed run is prepared, with the lookahead
     *        (the smallest link delay); a preset checks its own delays against it (Error).
     * \param check the check
     */
    void SetDistributedCheck(std::function<void(Time lookahead)> check);

    /**
     * \brief Prints a line to std::cerr about every 10% of `horizon` (on rank 0), from
     *        `describe`, with the simulated time, the events and the wall time.
     * \param horizon the expected length of the run
     * \param describe what is done so far, e.g. "12/40 requests served, 3 iterations"
     */
    void SetProgress(Time horizon, std::function<std::string()> describe);

    /**
     * \brief Called after the simulation, before the counts are merged over the ranks and the
     *        simulator is destroyed: a preset reads its workloads here (on every rank). The
     *        packet level only (a fluid run collects its own results, SetFluidRun()).
     * \param collect the reader
     */
    void SetCollect(std::function<void()> collect);

    /**
     * \brief Runs the simulation (MPI: begin, bound the lookahead, the distributed check),
     *        measured; closes the last interval, calls the collector, merges over the ranks
     *        what ranks count apart (losses, circuit bytes, the switch records), releases the
     *        fabric and destroys the simulator. At a fluid level: the fluid run (SetFluidRun()).
     * \param label what runs, for MoseDistributed::BeginSimulation() ("the LLM experiment of
     *        policy MoSE")
     */
    void Run(const std::string& label = "the packet-level fabric");

    /// \return the configuration
    const ExperimentConfig& GetConfig() const;
    /// \return the scenario (after Build() of a run with a switcher, or SetScenario(); Error
    ///         otherwise)
    const mose::Scenario& GetScenario() const;
    /// \return the scenario shared (null before Build(), and for a run without switcher that
    ///         was given none: it draws only its initial mode)
    std::shared_ptr<const mose::Scenario> GetSharedScenario() const;
    /// \return the initial mode's roles, P-D assignment and flows (after Build())
    const mose::ModeScenario& GetInitialModeScenario() const;
    /// \return the initial circuit graph (after Build(), at every level: the graph file's, or
    ///         the policy's template of the initial mode)
    const mose::CircuitGraph& GetInitialGraph() const;
    /// \return the run's routing seed (the scenario's)
    uint64_t GetRoutingSeed() const;
    /// \return the topology helper (null before Build() and after Run())
    Ptr<MoseTopologyHelper> GetTopology() const;
    /// \return the circuit monitor (null without one, and after Run())
    Ptr<MoseCircuitMonitor> GetCircuitMonitor() const;
    /// \return the loss monitor (after Build(), until Run() ends)
    Ptr<MoseLossMonitor> GetLossMonitor() const;
    /// \return the switcher (null without one, and after Run())
    Ptr<MoseModeSwitcher> GetSwitcher() const;
    /// \return the transport (null without one, and after Run())
    Ptr<MoseTransport> GetTransport() const;
    /// \return the workloads, in install order (until Run() ends)
    const std::vector<Ptr<MoseWorkload>>& GetWorkloads() const;
    /// \return the traffic helpers of the flow workloads, in install order (until Run() ends)
    const std::vector<Ptr<MoseTrafficHelper>>& GetTraffic() const;
    /// \return bytes per unit of flow-level demand of the first flow workload (0 before one)
    uint64_t GetBytesPerUnit() const;
    /// \return the switcher's attributes as text: "K=1, drain on, drain timeout 100.000 ms,
    ///         reconfiguration delay 10.000 ms" (empty without a switcher)
    const std::string& GetSwitcherText() const;

    /// \return the mode intervals (after Build(); the probe's figures after Run(), at a fluid
    ///         level the fluid run's, FluidRunOutput)
    const std::vector<ExperimentInterval>& GetIntervals() const;
    /// \return switches the switcher started (so far; after Run(): in the run)
    uint32_t GetNSwitchesStarted() const;
    /**
     * \brief The interval probe's flow level: mose::EvaluateFlows() of flows on a graph with
     *        the run's routing rule and routing seed (the rule the fabric's routing uses).
     * \param graph the graph \param flows the flows
     * \return the metrics
     */
    mose::FlowMetrics EvaluateFlows(const mose::CircuitGraph& graph,
                                    const std::vector<mose::Flow>& flows) const;

    /**
     * \brief FlowMonitor's lost and transmitted packets per class of the transfers' flows: a
     *        FlowMonitor flow is a transfer's data (to its sink's address and port) or its
     *        acknowledgements (from there); other flows are not counted. Zeros without the
     *        FlowMonitor. Call it from the collector.
     * \param transfers the transfers
     * \return the counts, KV then training
     */
    std::array<FlowPacketCounts, 2> CountFlowPackets(
        const std::vector<MoseTransfer>& transfers) const;

    /**
     * \brief A flow workload's transfers, merged over the ranks (MoseDistributed::
     *        MergeTransfers(): a transfer completes on its sink's rank). Call it from the
     *        collector, on every rank.
     * \param workload the workload
     * \return its transfers
     */
    static std::vector<MoseTransfer> CollectTransfers(Ptr<MoseWorkload> workload);

    /**
     * \brief Simulator::Run(), measured: the events each rank executed (gathered over the
     *        ranks), the longest wall time and the latest simulated time.
     * \param clock started here, just before Simulator::Run() (events may read it meanwhile)
     * \return the figures
     */
    static RunFigures RunMeasured(SystemWallClockMs& clock);

    /// \return per circuit of the OCS (the initial graph's order), payload bytes over the
    ///         whole run, all ranks (after Run() of a run with a circuit monitor and no
    ///         switcher, or the fluid run's, FluidRunOutput; empty otherwise)
    const std::vector<uint64_t>& GetCircuitBytes() const;
    /// \return the switcher's records, merged over the ranks (after Run(); at a fluid level the
    ///         fluid run's, FluidRunOutput)
    const std::vector<MoseSwitchRecord>& GetSwitchRecords() const;
    /**
     * \brief The switch that started a mode interval: the record of GetSwitchRecords() (after
     *        Run()) that started at the interval's boundary.
     * \param interval the interval's index (GetIntervals())
     * \return the record, or null (interval 0, or a boundary no switch started at: one
     *         skipped during a switch)
     */
    const MoseSwitchRecord* GetIntervalSwitch(uint32_t interval) const;
    /// \return wall-clock seconds of Build()
    double GetBuildSeconds() const;
    /// \return what the run took: events per rank, wall and simulated seconds (after Run(); at
    ///         a fluid level the fluid run's, SetFluidRun())
    const RunFigures& GetRunFigures() const;
    /// \return wall-clock seconds of the simulation (the longest rank's)
    double GetWallSeconds() const;
    /// \return simulated seconds when the simulation stopped
    double GetSimulatedSeconds() const;
    /// \return events executed, on all ranks
    uint64_t GetEvents() const;
    /// \return events executed on each rank (one entry on one rank)
    const std::vector<uint64_t>& GetEventsPerRank() const;
    /// \return the circuits of the initial graph cut by the partition over the ranks (0 on one)
    uint32_t GetCircuitsCut() const;
    /// \return packets lost in the fabric, each counted once, all ranks (after Run())
    uint64_t GetPacketsLost() const;
    /// \param point a drop point \return packets lost there (after Run())
    uint64_t GetPacketsLost(MoseLossMonitor::Point point) const;
    /// \return packets the queue discs marked (ECN), not lost (after Run())
    uint64_t GetEcnMarks() const;
    /// \return what PFC did (after Run(); installed false without ExperimentConfig::pfc)
    const PfcCounts& GetPfcCounts() const;
    /// \return errors caught inside the run's events: at switch starts, in the switcher, the
    ///         transport, the workloads and the rank messages (after Run(); 0 in a sound run)
    uint64_t GetNErrors() const;

    /**
     * \brief On several MPI ranks, prints the ranks' events, their balance (the busiest rank's
     *        events over the mean) and the circuits cut; nothing on one rank.
     * \param os the stream \param eventsPerRank events per rank \param circuitsCut circuits cut
     */
    static void PrintRanks(std::ostream& os,
                           const std::vector<uint64_t>& eventsPerRank,
                           uint32_t circuitsCut);

  private:
    /// \brief Adds a workload: WorkDone -> MaybeStop()
    /// \param workload the workload
    void AddWorkload(Ptr<MoseWorkload> workload);
    /**
     * \brief Build() of a fluid or aggregate level, where no Simulator runs and nothing is
     *        installed: the configuration checked, the scenario and the initial mode drawn as
     *        at the packet level (or the scenario given, SetScenario()). Error on several MPI
     *        ranks: the fluid levels run on one process.
     * \return the initial circuit graph (the graph file's, or the policy's)
     */
    mose::CircuitGraph BuildFluidMode();
    /// \brief Build(): the run's scenario and initial mode (m_initial, m_routingSeed)
    /// \return the initial circuit graph (the graph file's, or the policy's)
    mose::CircuitGraph BuildInitialMode();
    /// \brief Build(): the mode intervals, interval 0 from time 0 then one per boundary
    /// \param graph the initial circuit graph
    void BuildIntervals(const mose::CircuitGraph& graph);
    /// \brief Build(): the fabric in the initial graph (ConfigureTopology(); the topology
    ///        divides its rates by MoseScale) and its monitors
    /// \param graph the initial circuit graph
    void BuildFabric(const mose::CircuitGraph& graph);
    /// \brief RED's random streams fixed per disc (mose::Stream::ECN_MARKS + k, in node and
    ///        device order), so that a run draws the same marks wherever it runs in a process
    void AssignEcnStreams() const;
    /// \brief Build(): the switcher and its description
    void BuildSwitcher();
    /// "SwitchStarted" sink: the workloads the switcher does not keep in step follow the mode
    /// \param index the switch \param from the mode left \param to the mode entered
    void OnSwitchStarted(uint32_t index, mose::WorkloadMode from, mose::WorkloadMode to);
    /// "SwitchDone" sink: the probe, then MaybeStop() (waitForSwitches)
    /// \param record the switch
    void OnSwitchDone(const MoseSwitchRecord& record);
    /// The probe at a boundary (before its switch starts) and at the end: closes an interval
    /// \param interval the interval that ends
    void CloseInterval(uint32_t interval);
    /// \return payload bytes counted on every port since the circuit monitor's last reset
    uint64_t SumPortBytes() const;
    /// Stops the simulation when every workload is done and the schedule allows
    void MaybeStop();
    /// Run(): what this rank's switcher, transport, PFC, workloads and loss monitor counted
    void ReadCounts();
    /// On several MPI ranks (after the run): sums what each rank counted of its own ports and
    /// drop points, merges the switch records
    void MergeRanks();
    /// \brief Throws unless Build() ran and Run() did not \param what the call
    void CheckBuilt(const std::string& what) const;

    ExperimentConfig m_config;                        //!< parameters
    std::shared_ptr<const mose::Scenario> m_scenario; //!< drawn or given
    mose::ModeScenario m_initial;                     //!< the initial mode's
    uint64_t m_routingSeed{0};                        //!< the scenario's routing seed
    Ptr<MoseTopologyHelper> m_topology;               //!< the fabric
    Ptr<MoseCircuitMonitor> m_circuits;               //!< bytes per circuit, or null
    Ptr<MoseLossMonitor> m_loss;                      //!< drops
    Ptr<MoseModeSwitcher> m_switcher;                 //!< the switcher, or null
    Ptr<MoseTransport> m_transport;                   //!< the LLM workloads' transport, or null
    std::vector<Ptr<MoseWorkload>> m_workloads;       //!< every workload
    std::vector<Ptr<MoseTrafficHelper>> m_traffic;    //!< the flow workloads' helpers
    std::shared_ptr<FlowMonitorHelper> m_flowHelper;  //!< FlowMonitor, or null
    Ptr<FlowMonitor> m_flowMonitor;                   //!< FlowMonitor, or null
    std::function<void(Time)> m_distributedCheck;     //!< SetDistributedCheck()
    std::function<std::string()> m_describe;          //!< SetProgress()
    Time m_horizon;                                   //!< SetProgress()
    std::function<void()> m_collect;                  //!< SetCollect()
    std::function<void()> m_install;                  //!< SetInstall()
    std::function<FluidRunOutput()> m_fluidRun;       //!< SetFluidRun()
    mose::CircuitGraph m_initialGraph;                //!< GetInitialGraph()
    std::string m_switcherText;                       //!< the switcher's attributes
    std::vector<ExperimentInterval> m_intervals;      //!< the mode intervals
    /// per interval start (and the end), the loss monitor's drops per point
    std::vector<std::array<uint64_t, MoseLossMonitor::N_POINTS>> m_dropsAtStart;
    std::vector<MoseSwitchRecord> m_records;                    //!< results
    std::vector<uint64_t> m_circuitBytes;                       //!< results
    uint32_t m_switchesStarted{0};                              //!< switches started
    uint64_t m_bytesPerUnit{0};                                 //!< MoseTrafficHelper's
    uint64_t m_errors{0};                                       //!< errors at switch starts
    double m_buildSeconds{0};                                   //!< Build() wall time
    RunFigures m_figures;                                       //!< what Run() took
    uint32_t m_circuitsCut{0};                                  //!< circuits across ranks
    uint64_t m_packetsLost{0};                                  //!< lost packets
    std::array<uint64_t, MoseLossMonitor::N_POINTS> m_lostAt{}; //!< per drop point
    uint64_t m_ecnMarks{0};                                     //!< ECN marks
    Ptr<MosePfc> m_pfc;                                         //!< PFC (config.pfc)
    PfcCounts m_pfcCounts;                                      //!< what PFC did
    bool m_built{false};                                        //!< Build() ran
    bool m_ran{false};                                          //!< Run() ran
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_EXPERIMENT_H */
