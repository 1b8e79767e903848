/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_PRESETS_H
#define MOSE_PRESETS_H

#include "mose-experiment.h"
#include "mose-level.h"

#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-mode-schedule.h"
#include "ns3/mose-roles.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

/**
 * \file
 * \ingroup mose-study
 * The presets: the one ExperimentConfig of each program's run (mose-packet, mose-mode-switch,
 * mose-llm) and its checks. A preset is a function that returns a configuration; the run is an
 * Experiment with the preset's workload installed on it (InstallPacketWorkload(),
 * InstallSwitchWorkload(), InstallLlmWorkload()).
 */

namespace ns3
{
namespace mose
{

// The packet preset (mose-packet): one mode's flows, no switcher

/**
 * \ingroup mose-study
 * \brief The packet preset (mose-packet, InstallPacketWorkload()): the Experiment of one
 *        workload mode of a scenario under a policy, without switcher.
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

// The switching preset (mose-mode-switch): a schedule of modes, each interval's flows

/**
 * \ingroup mose-study
 * \brief The switching preset (mose-mode-switch, InstallSwitchWorkload()): the Experiment of a
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

// The LLM preset (mose-llm): the inference and training workloads

/**
 * \ingroup mose-study
 * \brief The least time a run of one LLM experiment may stop at, whatever its requests:
 *        MakeLlmConfig()'s stop time, 30 s (room for transport retransmissions and the training
 *        job's last iteration; the run ends earlier on its own once its work is done).
 */
constexpr int64_t LLM_LEAST_STOP_SECONDS = 30;

/**
 * \ingroup mose-study
 * \brief The LLM preset: the one ExperimentConfig of an LLM run (InstallLlmWorkload()), at the
 * packet or a fluid level, on N groups with the paper's role shares (RoleCounts::PaperScaled), H^PD
 * with r = d - 1, shortest-path routing, and the schedule inference-heavy -> training-heavy at 0.5
 * s -> inference-heavy at 1 s, end 1.5 s; the run stops at 30 s at the latest; a switcher that does
 * not hold a run whose work is done (waitForSwitches false), no circuit monitor, port queues of
 * 1000 packets; the workloads' defaults (LlmWorkloadConfig) and no requests; ocsRate and hostRate
 * from the current defaults of ns3::MoseOcs::DataRate and ns3::MoseTopologyHelper::HostDataRate
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
 * mose::Error from InstallLlmWorkload() naming both: the user's setting wins or fails loudly,
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
} // namespace mose
} // namespace ns3

#endif /* MOSE_PRESETS_H */
