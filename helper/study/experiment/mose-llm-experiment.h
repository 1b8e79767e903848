/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_EXPERIMENT_H
#define MOSE_LLM_EXPERIMENT_H

#include "mose-experiment.h"
#include "mose-presets.h"

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
 *        SummarizeLlmRun() summarises them all (counts, means and percentiles of TTFT,
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
 * \brief What an LLM run gave (InstallLlmWorkload()): the workloads' records and what only they
 *        and the transport know, filled by Experiment::Build() (the notice delay, the interval
 *        graphs) and Experiment::Run() (the rest), at either level in the packet level's form.
 *
 * The run's counts (packets lost, ECN marks, switch records, events, wall and simulated
 * seconds, errors inside the simulation, circuits cut) are the Experiment's; SummarizeLlmRun()
 * puts both together.
 */
struct LlmResult
{
    std::vector<MoseRequestRecord> requests;         //!< the inference workload's records
    std::vector<MoseIterationRecord> iterations;     //!< the training workload's records
    std::vector<mose::CollectiveRecord> collectives; //!< its collectives (a training plan's)
    /// per request, whether its KV transfer's last byte had arrived by the stop (a transfer
    /// complete or only waiting for its notice)
    std::vector<bool> kvDelivered;
    uint64_t connections{0}; //!< transport connections opened, all ranks (0: fluid level)
    uint32_t nodes{0};       //!< N, the groups
    /// bytes received between groups, N x N (src-major), all workloads and ranks
    std::vector<uint64_t> pairBytes;
    Time noticeDelay; //!< the transport's NoticeDelay in the run
    /// per mode interval, its circuit graph: the initial graph, then the policy's template of
    /// the interval's mode (the target of the switch that starts it)
    std::vector<mose::CircuitGraph> intervalGraphs;
    uint32_t switchesStarted{0}; //!< switches started in the run
    /// errors the Experiment does not count: MPI ranks that disagreed on the transfers (the
    /// packet level), errors inside the fluid run (the fluid level)
    uint64_t errors{0};
    /// the packet level's transport (after Build(); kept after Run() for its counters, e.g.
    /// MoseRdmaTransport::GetNDrops()), or null at the fluid level
    Ptr<MoseTransport> transport;
    uint64_t rateComputations{0}; //!< fluid level: max-min rate computations
    uint64_t transfers{0};        //!< fluid level: transfers started
    uint64_t flows{0};            //!< fluid level: fluid flows started
    uint64_t queueCuts{0};        //!< fluid level with queues: transfers cut
    double droppedBytes{0};       //!< fluid level with queues: payload bytes dropped
    uint32_t droppingPorts{0};    //!< fluid level with queues: links that dropped bytes
    bool ran{false};              //!< Experiment::Run() ran (the records are the run's)

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
    /// \param src a group \param dst a group \return bytes received at dst from src (all
    ///        workloads; Error before the run or for a group not below N)
    uint64_t GetBytesBetween(uint32_t src, uint32_t dst) const;
};

/**
 * \ingroup mose-study
 * \brief The statistics of an LLM run: the workloads' own summaries of every request and
 *        iteration (SummarizeLlmWindow() over the whole run), the Experiment's counts (packets
 *        lost, switches, errors, events, wall and simulated seconds, circuits cut) and the
 *        result's (connections, the notice delay, the unserved requests by where the stop
 *        found them, the fluid run's counters).
 * \param experiment the run (InstallLlmWorkload(), after Run())
 * \param result its result
 * \return the summary
 */
LlmSummary SummarizeLlmRun(const Experiment& experiment, const LlmResult& result);

/**
 * \ingroup mose-study
 * \brief The demand of interval i as flow-level flows, in bytes before scaling: one KV flow
 *        (prefill -> decode, the request's kvBytes) per request that arrived in it and was
 *        placed, and for every iteration that started in it the transfers of its collective
 *        plan (PlanCollective() of its members, the training groups of its mode in id order,
 *        with S = bytesPerMember), as training flows.
 * \param experiment the run (its configuration and scenario)
 * \param result its result
 * \param interval i, below LlmResult::GetIntervalCount()
 * \return the flows
 */
std::vector<mose::Flow> GetLlmIntervalFlows(const Experiment& experiment,
                                            const LlmResult& result,
                                            std::size_t interval);

/**
 * \ingroup mose-study
 * \brief Experiment::EvaluateFlows() of GetLlmIntervalFlows() on LlmResult::GetIntervalGraph()
 *        (the run's routing rule and routing seed): what the flow level says of the demand the
 *        packets carried in that interval, on the same circuits.
 * \param experiment the run \param result its result
 * \param interval i, below LlmResult::GetIntervalCount()
 * \return the metrics (all zero for an interval without demand)
 */
mose::FlowMetrics GetLlmIntervalMetrics(const Experiment& experiment,
                                        const LlmResult& result,
                                        std::size_t interval);

/**
 * \ingroup mose-study
 * \brief The schedule a ModeController gives for the requests (mose::ScheduleModes with
 *        OfferedLoad::REQUESTS), as mode boundaries; the initial mode goes to `initial`.
 * \param requests the requests
 * \param options the controller
 * \param period its decision period
 * \param end the last decision time, and the schedule's end
 * \return the schedule (mose::ScheduleModes())
 */
mose::ModeSchedule ThresholdSchedule(const std::vector<mose::LlmRequest>& requests,
                                     const mose::ModeControllerOptions& options,
                                     Time period,
                                     Time end);

/**
 * \ingroup mose-study
 * \param config an LLM run's configuration
 * \return what runs, for Experiment::Run() ("the LLM experiment of policy MoSE")
 */
std::string GetLlmRunLabel(const ExperimentConfig& config);

/**
 * \ingroup mose-study
 * \brief Installs the LLM workloads on an experiment (before its Build()); checks first, in
 *        this order, ValidateLlmConfig() and a user's default (Config::SetDefault, the command
 *        line) of a rate, the hosts per group, the MTU, the ports' RED or the dark time, which
 *        must be the configuration's value (unscaled): Error naming both otherwise.
 *
 * At the packet level, at the end of Experiment::Build(): the transport (MoseSocketTransfers
 * or MoseRdmaTransport) on the fabric in the policy's initial template, and the inference and
 * training workloads; at every SwitchStarted of the switcher both workloads get the new mode's
 * roles and circuit graph (MoseModeSwitcher::GetTarget).
 *
 * At the fluid level (ExperimentConfig::level) the same scenario, workloads, schedule and
 * settings run as a mose::FluidLlmRun (Experiment::SetFluidRun()), without packets and without
 * the Simulator: the rates and scale, the OCS and host delays (ns3::MoseOcs::Delay,
 * ns3::MoseTopologyHelper::HostDelay), the packet size (ns3::MoseSocketTransfers::SegmentSize
 * or ns3::MoseRdmaTransport::PayloadSize, or the jumbo MTU's), the notice delay and the
 * switcher's Phases, Drain, FixedDrain, DrainTimeout and ReconfigurationDelay are taken as the
 * packet level takes them. Its records and its switch records (FluidRunOutput::switchRecords)
 * have the packet level's form (packets lost and connections are 0; a switch's packetsHeld is
 * 0), so that the result, SummarizeLlmRun() and the run's files (mose-llm-run-report.h) serve
 * both levels.
 *
 * On several MPI ranks (MoseDistributed) every rank runs both workloads whole; the transport
 * sends from the source's rank and tells every rank of each completion (MoseSocketTransfers),
 * so the records, the switch schedule and the stop are the same on every rank. The run checks
 * that the notice delay exceeds the lookahead and that every delay the workloads schedule
 * themselves (one request's prefill, ComputeTime) exceeds the notice delay (the events every
 * rank runs then keep one order on every rank), and afterwards merges what ranks count apart:
 * bytes between groups and connections (the Experiment: packets lost, switch records), and
 * checks that the ranks started and completed the same transfers.
 *
 * \param experiment an LLM preset's experiment (MakeLlmConfig()), not built yet; the scenario
 *        drawn before given to it (Experiment::SetScenario()) or drawn by its Build()
 * \param progress at the packet level, print the simulated time and what is done about every
 *        10% of the largest of end and the last arrival (to std::cerr, Experiment::
 *        SetProgress())
 * \return its result, filled by its Build() and Run()
 */
std::shared_ptr<const LlmResult> InstallLlmWorkload(Experiment& experiment, bool progress = false);

/**
 * \ingroup mose-study
 * \brief One LLM run as the study's lists hold it: the Experiment (not movable: the workload's
 *        steps refer to it) and its result.
 */
struct LlmRun
{
    std::unique_ptr<Experiment> experiment;  //!< the run
    std::shared_ptr<const LlmResult> result; //!< its result (InstallLlmWorkload())
};

/**
 * \ingroup mose-study
 * \brief An LLM run built: Experiment(config), the scenario (Experiment::SetScenario()),
 *        InstallLlmWorkload(), Experiment::Build(). Its errors come in this order: the
 *        configuration's (ValidateLlmConfig()), the scenario's, the user's defaults', the build's.
 * \param config an LLM configuration (MakeLlmConfig())
 * \param scenario the run's scenario drawn before (a comparison's, PolicyComparison::Share()),
 *        or null: drawn here (ScenarioBuilder(config.scenario).Build(config.run))
 * \param progress InstallLlmWorkload()'s
 * \return the run, built, not run
 */
LlmRun BuildLlmRun(const ExperimentConfig& config,
                   std::shared_ptr<const mose::Scenario> scenario = nullptr,
                   bool progress = false);

} // namespace mose
} // namespace ns3

#endif /* MOSE_LLM_EXPERIMENT_H */
