/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_EXPERIMENT_H
#define MOSE_LLM_EXPERIMENT_H

#include "mose-experiment.h"

#include "ns3/data-rate.h"
#include "ns3/mose-break-even.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-collective.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-fluid-llm.h"
#include "ns3/mose-llm-request.h"
#include "ns3/mose-llm-transfers.h"
#include "ns3/mose-llm-workload.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-mode-controller.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/mose-mode-switcher.h"
#include "ns3/mose-placement.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-traffic.h"
#include "ns3/mose-transport-helper.h"
#include "ns3/mose-workload-summary.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-study
 * \brief The LLM preset: the one ExperimentConfig of an LLM run (LlmExperiment), at the packet or
 *        a fluid level, on N groups with the paper's role shares (RoleCounts::PaperScaled),
 *        H^PD with r = d - 1, shortest-path routing, and the schedule inference-heavy ->
 *        training-heavy at 0.5 s -> inference-heavy at 1 s, end 1.5 s; the run stops at 30 s
 *        at the latest; a switcher that does not hold a run whose work is done
 *        (waitForSwitches false), no circuit monitor, port queues of 1000 packets; the
 *        workloads' defaults (LlmWorkloadConfig) and no requests; ocsRate and hostRate from
 *        the current defaults of ns3::MoseOcs::DataRate and ns3::MoseTopologyHelper::HostDataRate
 *        (unscaled).
 *
 * Scaling: with `scale` = f > 1 the OCS DataRate and the host rate are divided by f, and so is
 * every byte count the workloads send (KV caches, collective sizes); serialisation times of a
 * whole transfer stay as they were, packets are f times fewer. Compute times, propagation
 * delays, drain and dark times are not scaled.
 *
 * Rates are set on the run's own objects (MoseTopologyHelper::SetOcsAttribute(), the helper's
 * HostDataRate, the switcher's ReconfigurationDelay): no attribute default is changed. ocsRate
 * and hostRate are the rates BEFORE scaling, so a user's --ns3::MoseOcs::DataRate=100Gbps is the
 * unscaled circuit rate and is divided by the scale like every rate. A configured default
 * (Config::SetDefault, the command line) that differs from the configuration's value is a
 * mose::Error from LlmExperiment::Build() naming both: the user's setting wins or fails loudly,
 * never silently loses. The same holds for darkTime against
 * ns3::MoseModeSwitcher::ReconfigurationDelay.
 * \param nodes N
 * \return the configuration
 */
ExperimentConfig MakeLlmConfig(uint32_t nodes);

/**
 * \ingroup mose-study
 * \brief Sets the LLM workloads' transport, a TypeId name (MoseTransportHelper; mose-llm
 *        --transport): ns3::MoseSocketTransfers (tcp, the default) or ns3::MoseRdmaTransport
 *        (rdma). With rdma, at every level, RED with ECN (`marking`) on every port and host-link
 *        end, its disc holding the port queue (portQueue), and one-packet device queues
 *        (ExperimentConfig::RDMA_DEVICE_QUEUE); with tcp no marking and the port queue back.
 * \param config an LLM configuration (MakeLlmConfig()) \param typeName the transport
 * \param marking the ports' marking with rdma
 */
void SetLlmTransport(ExperimentConfig& config,
                     const std::string& typeName,
                     const EcnMarking& marking = EcnMarking());

/**
 * \ingroup mose-study
 * \brief Turns on the fluid level's queues (mose::FluidFabricConfig::queues, mose-llm
 *        --fluidQueues) with the packet level's RED disc: a port marks at the backlog where
 *        RED's first mark is expected (a queue growing at twice its rate) and holds the disc's
 *        buffer, both in payload bytes of the fabric's packets.
 * \param config an LLM configuration with rdma (its `ecn`; Error otherwise, naming the option)
 * \param fabric the fluid fabric read from it (its segment and wire bytes are used)
 */
void SetFluidQueues(const ExperimentConfig& config, mose::FluidFabricConfig& fabric);

/**
 * \ingroup mose-study
 * \brief The least time a run of one LLM experiment may stop at, whatever its requests:
 *        MakeLlmConfig()'s stop time, 30 s (room for transport retransmissions and the training
 *        job's last iteration; the run ends earlier on its own once its work is done).
 */
constexpr int64_t LLM_LEAST_STOP_SECONDS = 30;

/**
 * \ingroup mose-study
 * \brief The time it takes to serve a list of requests one after another on an idle fabric:
 *        for each request its prefill (inputTokens / prefillTokensPerSecond) and its KV
 *        transfer (inputTokens x kvBytesPerToken at the slower of the unscaled host and
 *        circuit rates; --scale divides bytes and rates together, so the time is the same),
 *        summed, plus the notice delay when it is set (each at most 1e9 s: with the last
 *        arrival, at most 1e9 s too, the end stays inside ns-3's time range). It is a bound
 *        that leaves room for queueing: the requests are served in parallel by many groups.
 * \param config an LLM configuration (MakeLlmConfig()) with its requests
 * \return the time (0 without requests)
 */
Time LlmServeAllowance(const ExperimentConfig& config);

/**
 * \ingroup mose-study
 * \brief The stop time of one LLM experiment when the user gives none (mose-llm without
 *        --stopTime): the latest of LLM_LEAST_STOP_SECONDS, the schedule's end (end) and the
 *        last request's arrival plus LlmServeAllowance(). The run stops earlier on its own once
 * every request is served and the training job stopped; this bound only ends a run whose work does
 * not finish. \param config an LLM configuration (MakeLlmConfig()) with its requests \return the
 * stop time
 */
Time DefaultLlmStopTime(const ExperimentConfig& config);

/**
 * \ingroup mose-study
 * \brief Throws a mose::Error naming the first invalid parameter of an LLM configuration
 *        (MakeLlmConfig()): the scenario's, the scale and rates, hostsPerGroup, the workloads'
 *        (LlmWorkloadConfig), portMtu, end, the transport and its marking.
 * \param config the configuration
 */
void ValidateLlmConfig(const ExperimentConfig& config);

/**
 * \ingroup mose-study
 * \brief Statistics of one run (one policy).
 */
struct LlmSummary
{
    mose::Policy policy{mose::Policy::MOSE}; //!< the policy
    LlmLevel level{LlmLevel::PACKET};        //!< the level it ran at
    /// the inference server's own summary of every request in the list
    /// (mose::SummarizeRequests(); requests, served, KV and TTFT statistics, in seconds)
    mose::InferenceSummary inference;
    /// the training job's own summary of its completed iterations (mose::SummarizeIterations();
    /// iterations, iteration and collective time statistics, in seconds)
    mose::TrainingSummary training;
    uint64_t lost{0};                    //!< packets lost (MoseLossMonitor total)
    uint32_t switches{0};                //!< switches started
    uint64_t errors{0};                  //!< errors inside simulation events (should be 0)
    double wallSeconds{0};               //!< wall time of Simulator::Run()
    uint64_t events{0};                  //!< events executed
    uint64_t connections{0};             //!< transport connections opened
    double simulatedSeconds{0};          //!< simulated time
    Time noticeDelay;                    //!< the transport's NoticeDelay in the run
    std::vector<uint64_t> eventsPerRank; //!< events per MPI rank (one entry on one)
    uint32_t circuitsCut{0};             //!< initial circuits across ranks (0 on one)
    Time stopTime;                       //!< when the run stopped at the latest
    /// requests not served (inference.requests - .served), by where the stop found them: not
    /// arrived, in prefill (queued or computing), KV transfer in flight, KV transfer's last byte
    /// delivered but its completion notice (noticeDelay later) due after the stop
    uint32_t unservedNotArrived{0};
    uint32_t unservedInPrefill{0};  //!< see unservedNotArrived
    uint32_t unservedInFlight{0};   //!< see unservedNotArrived
    uint32_t unservedNoticeLate{0}; //!< see unservedNotArrived
    uint64_t rateComputations{0};   //!< fluid level: max-min rate computations (0: packet)
    uint64_t transfers{0};          //!< fluid level: transfers started (0: packet)
    /// fluid level: fluid flows started (transfers, or aggregates standing for many of them)
    uint64_t flows{0};
    bool fluidQueues{false};   //!< fluid level: the run had queues (--fluidQueues)
    uint64_t queueCuts{0};     //!< with fluidQueues: transfers cut from their line-rate start
    double droppedBytes{0};    //!< with fluidQueues: payload bytes the ports dropped
    uint32_t droppingPorts{0}; //!< with fluidQueues: links that dropped bytes
};

/**
 * \ingroup mose-study
 * \brief The figures of a run restricted to a time window (Simulator-free): the requests that
 *        arrived in [from, to) and the iterations that started in it, summarised as
 *        LlmExperiment::GetSummary() summarises them all (counts, means and percentiles of TTFT,
 *        KV time, iteration and collective time over the completed ones). The run-wide fields
 *        (packets lost, switches, events, wall time, ...) stay 0.
 * \param policy the run's policy
 * \param requests the run's request records \param iterations its iteration records
 * \param from the window's start \param to its end (excluded; from < to, mose::Error otherwise)
 * \return the window's summary
 */
LlmSummary SummarizeLlmWindow(mose::Policy policy,
                              const std::vector<MoseRequestRecord>& requests,
                              const std::vector<MoseIterationRecord>& iterations,
                              Time from,
                              Time to);

/**
 * \ingroup mose-study
 * \brief One LLM run: at the packet level it builds the fabric in the policy's initial
 *        template, the ModeSwitcher with the policy's targets, the loss monitor, the
 *        transport (MoseSocketTransfers or MoseRdmaTransport), and the inference and training
 *        workloads; at every SwitchStarted
 *        of the switcher both workloads get the new mode's roles and circuit graph
 *        (MoseModeSwitcher::GetTarget).
 *
 * At the fluid level (ExperimentConfig::level) the same scenario, workloads, schedule and
 * settings run as a mose::FluidLlmRun, without packets and without the Simulator: the rates and
 * scale, the OCS and host delays (ns3::MoseOcs::Delay, ns3::MoseTopologyHelper::HostDelay), the
 * packet size (ns3::MoseSocketTransfers::SegmentSize or ns3::MoseRdmaTransport::PayloadSize, or
 * the jumbo MTU's), the notice delay and
 * the switcher's Phases, Drain, FixedDrain, DrainTimeout and ReconfigurationDelay are taken as
 * the packet level takes them. Its records and summary have the packet level's form (packets
 * lost and connections are 0; a switch's packetsHeld is 0), so that every getter below and the
 * run's files (mose-llm-run-report.h) serve both levels. The figures are read from their
 * owners: the records from the workloads, the counters from the Experiment at the packet level
 * and from the fluid run and its fabric at the fluid level.
 *
 * Like SwitchExperiment, it uses the Simulator: Build(), Run(), then the getters; a second
 * run needs a new object (Run() destroys the simulator's state at the end).
 *
 * On several MPI ranks (MoseDistributed) every rank runs both workloads whole; the transport
 * sends from the source's rank and tells every rank of each completion (MoseSocketTransfers),
 * so the records, the switch schedule and the stop are the same on every rank. Run() fixes
 * the lookahead, checks that the notice delay exceeds it and that every delay the workloads
 * schedule themselves (one request's prefill, ComputeTime) exceeds the notice delay (the
 * events every rank runs then keep one order on every rank), and afterwards merges what ranks
 * count apart: packets lost, bytes between groups, connections, switch records, errors, and
 * checks that the ranks started and completed the same transfers.
 */
class LlmExperiment
{
  public:
    /// \param config the parameters, an LLM preset (MakeLlmConfig(); validated by Build():
    ///        ValidateLlmConfig())
    /// \param scenario the run's scenario drawn before (SetScenario(); a comparison's,
    ///        PolicyComparison::Share()), or null: Build() draws what it needs
    explicit LlmExperiment(const ExperimentConfig& config,
                           std::shared_ptr<const mose::Scenario> scenario = nullptr);

    /**
     * \brief Gives Build() a scenario drawn before, so that several runs of one comparison or
     *        map draw it once: it must be ScenarioBuilder(config.scenario).Build(config.run) of
     *        this experiment's configuration (its run and group count are checked). Without it,
     *        Build() draws the scenario itself.
     * \param scenario the scenario
     */
    void SetScenario(std::shared_ptr<const mose::Scenario> scenario);

    /// \brief Builds everything; Error (naming the parameter) before the simulation
    void Build();

    /// \return the scenario Build() used (drawn or given to SetScenario()); null before Build()
    std::shared_ptr<const mose::Scenario> GetScenario() const;

    /**
     * \brief Runs until every request is served and the training job stopped, or stopTime.
     * \param progress print the simulated time and what is done about every 10% of the
     *        largest of end and the last arrival (to std::cerr)
     */
    void Run(bool progress = false);

    /// \return the parameters
    const ExperimentConfig& GetConfig() const;
    /// \return the request records
    const std::vector<MoseRequestRecord>& GetRequests() const;
    /// \return the iteration records
    const std::vector<MoseIterationRecord>& GetIterations() const;
    /// \return the collective records of a training plan's iterations (none without a plan)
    const std::vector<mose::CollectiveRecord>& GetCollectives() const;
    /// \return whether Run() ran (the records and the summary are the run's)
    bool IsDone() const;
    /// \return the switcher's records
    const std::vector<MoseSwitchRecord>& GetSwitchRecords() const;
    /// \return the statistics
    LlmSummary GetSummary() const;
    /// \return bytes received at dst from src (all workloads)
    uint64_t GetBytesBetween(uint32_t src, uint32_t dst) const;
    /// \return the mode's roles (of the run's scenario; Error before Build())
    const mose::RoleAssignment& GetRoles(mose::WorkloadMode mode) const;
    /// \return the packet level's transport (after Build(); kept after Run() for its counters,
    ///         e.g. MoseRdmaTransport::GetNDrops()), or null at the fluid level
    Ptr<MoseTransport> GetTransport() const;
    /// \return the packet level's fabric (after Build(), before Run(): Run() destroys its
    ///         nodes), or null at the fluid level
    Ptr<MoseTopologyHelper> GetTopology() const;
    /// \return packets the fabric's queue discs marked with ECN CE (MoseLossMonitor), after
    ///         Run(); 0 at the fluid level
    uint64_t GetEcnMarks() const;

    /// \return the number of mode intervals: the schedule's boundaries + 1
    std::size_t GetIntervalCount() const;
    /**
     * \brief The circuit graph of interval i: the initial template, then the target of the
     *        switch that starts it (the circuits the fabric has once that switch is done).
     *        An interval whose switch never started (the run ended first) keeps the last graph.
     * \param interval i, below GetIntervalCount()
     * \return the graph
     */
    const mose::CircuitGraph& GetIntervalGraph(std::size_t interval) const;
    /**
     * \brief The demand of interval i as flow-level flows, in bytes before scaling: one KV flow
     *        (prefill -> decode, the request's kvBytes) per request that arrived in it and was
     *        placed, and for every iteration that started in it the transfers of its collective
     *        plan (PlanCollective() of its members, the training groups of its mode in id
     *        order, with S = bytesPerMember), as training flows.
     * \param interval i, below GetIntervalCount()
     * \return the flows
     */
    std::vector<mose::Flow> GetIntervalFlows(std::size_t interval) const;
    /**
     * \brief mose::EvaluateFlows() of GetIntervalFlows(i) on GetIntervalGraph(i) with the run's
     *        routing rule and routing seed: what the flow level says of the demand the packets
     *        carried in that interval, on the same circuits.
     * \param interval i, below GetIntervalCount()
     * \return the metrics (all zero for an interval without demand)
     */
    mose::FlowMetrics GetIntervalMetrics(std::size_t interval) const;

    /**
     * \brief The schedule a ModeController gives for the requests (mose::ScheduleModes with
     *        OfferedLoad::REQUESTS), as mode boundaries; the initial mode goes to `initial`.
     * \param requests the requests
     * \param options the controller
     * \param period its decision period
     * \param end the last decision time, and the schedule's end
     * \return the schedule (mose::ScheduleModes())
     */
    static mose::ModeSchedule ThresholdSchedule(const std::vector<mose::LlmRequest>& requests,
                                                const mose::ModeControllerOptions& options,
                                                Time period,
                                                Time end);

  private:
    /// \brief The experiment's check of a run on several MPI ranks: the notice delay above the
    ///        lookahead, and every delay the workloads schedule themselves above the notice
    ///        delay (Error naming the parameter) \param lookAhead the lookahead
    void CheckDistributedRun(Time lookAhead) const;
    /// \brief The experiment's collector: the records, the KV transfers delivered, the
    ///        transport's counts (summed over the ranks, which must agree)
    void Collect();
    /// \brief Build(): a user's default (Config::SetDefault, the command line) of a rate, the
    ///        hosts per group, the MTU, the ports' RED or the dark time must be the
    ///        configuration's value (unscaled): Error naming both otherwise
    void CheckUserDefaults() const;
    /// \brief Build() at the fluid level: the fluid run's configuration
    void BuildFluid();
    /**
     * \brief The transport's notice delay, by the one rule of both levels: the configuration's
     *        (a user default of the transport's NoticeDelay, e.g.
     *        ns3::MoseRdmaTransport::NoticeDelay, must agree: Error), else that default if the
     *        user set it, else twice the smallest link delay
     * \param smallestLinkDelay the fabric's smallest link delay
     * \return the notice delay
     */
    Time ResolveNoticeDelay(Time smallestLinkDelay) const;
    /**
     * \brief The helper of the LLM workloads' transport (ExperimentConfig::transport):
     *        TCP's SegmentSize or RDMA's PayloadSize from the jumbo MTU (MoseRdmaTransport
     *        scales its own timers and rates by MoseScale), NoticeDelay by
     *        ResolveNoticeDelay() (kept in m_noticeDelay). The packet level installs its
     *        transport on the fabric (MoseTransportHelper::Install(topology): RDMA's in-flight
     *        cap from the fabric unless the user set it), the fluid level reads one
     *        (MoseFluidFabricHelper)
     * \param smallestLinkDelay the fabric's smallest link delay
     * \return the helper
     */
    MoseTransportHelper CreateTransportHelper(Time smallestLinkDelay);
    /// \brief Run() at the fluid level: runs it and keeps its records in the packet level's form
    void RunFluid();

    /// \return per request, whether its KV transfer's last byte had arrived by the stop (a
    ///         transfer complete or only waiting for its notice) \param i the request
    bool IsKvDelivered(std::size_t i) const;

    ExperimentConfig m_config;                        //!< parameters
    std::shared_ptr<const mose::Scenario> m_scenario; //!< SetScenario()'s, or drawn
    bool m_built{false};                              //!< Build() ran
    bool m_ran{false};                                //!< Run() ran
    Time m_noticeDelay;                               //!< the transport's NoticeDelay

    // the packet level: the run and its counters are the Experiment's; what the workloads and
    // the transport held is read here before they go (Collect())
    std::unique_ptr<Experiment> m_experiment;      //!< fabric, switcher, transport, run (Build())
    Ptr<MoseInferenceWorkload> m_inference;        //!< requests (until Run() ends)
    Ptr<MoseTrainingWorkload> m_training;          //!< the training job (may be null)
    Ptr<MoseTransport> m_transport;                //!< the transport, kept for its counters
    std::vector<MoseRequestRecord> m_requests;     //!< the inference workload's records
    std::vector<bool> m_kvDelivered;               //!< per request (IsKvDelivered())
    std::vector<MoseIterationRecord> m_iterations; //!< the training workload's records
    std::vector<mose::CollectiveRecord> m_collectives; //!< its collectives (a training plan's)
    uint64_t m_connections{0};                         //!< connections opened, all ranks
    std::vector<uint64_t> m_pairBytes;                 //!< bytes between groups, N x N, all ranks
    uint64_t m_divergences{0};                         //!< MPI ranks that disagreed (errors)

    // the fluid level: its records and counters are the fluid run's and its fabric's
    std::optional<mose::FluidLlmConfig> m_fluid;   //!< the fluid run's configuration (Build())
    std::unique_ptr<mose::FluidLlmRun> m_fluidRun; //!< the fluid run (Run())
    std::vector<mose::CircuitGraph> m_fluidGraphs; //!< per interval
    std::vector<MoseSwitchRecord> m_fluidRecords;  //!< its switches, in the packet level's form
    RunFigures m_fluidFigures;                     //!< what its Run() took
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_EXPERIMENT_H */
