/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLUID_LLM_H
#define MOSE_FLUID_LLM_H

#include "mose-fluid-fabric.h"
#include "mose-fluid-workload-fabric.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-collective.h"
#include "ns3/mose-inference-server.h"
#include "ns3/mose-llm-request.h"
#include "ns3/mose-placement.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-training-job.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

/**
 * \file
 * \ingroup mose-llm
 * \brief The LLM experiment at the fluid level: inference requests (placement, prefill queues,
 *        KV transfers) and a training job (compute, collectives) on a FluidFabric that switches
 *        at the schedule's boundaries, with the packet level's semantics, without a Simulator.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-llm
 * \brief One fluid LLM run's parameters: the fabric, the modes' roles and graphs, the schedule
 *        and the workloads (the LLM run's ExperimentConfig, resolved to plain values).
 */
struct FluidLlmConfig
{
    FluidFabricConfig fabric;            //!< rates (already divided by the scale), delays
    std::array<RoleAssignment, 2> roles; //!< per mode (index: WorkloadMode)
    std::array<CircuitGraph, 2> graphs;  //!< per mode: the policy's template
    WorkloadMode initialMode{WorkloadMode::INFERENCE_HEAVY}; //!< the mode at time 0
    /// the switches: (time in ns, mode), strictly increasing times
    std::vector<std::pair<int64_t, WorkloadMode>> boundaries;
    int64_t endNs{1500000000};   //!< the last interval ends; no iteration starts after it
    int64_t stopNs{30000000000}; //!< the run ends here at the latest

    std::vector<LlmRequest> requests; //!< in arrival order
    /// the inference server's settings (placement, prefill speed, KV bytes per token, scale),
    /// as the packet level's MoseInferenceWorkload gives them
    InferenceSettings inference;
    /// the training job's settings (collective, S per member, compute, iterations, scale and
    /// whether its all-to-all moves as one aggregate, FluidFabric::StartAggregate(): an
    /// approximation that makes an iteration over n members cost O(links) instead of O(n^2)
    /// flows; a ring's transfers, each waiting for the one before, run one by one all the
    /// same); none: no training job
    std::optional<TrainingSettings> training{TrainingSettings{}};

    /// \brief Throws a mose::Error naming the first invalid parameter
    void Validate() const;
};

/**
 * \ingroup mose-llm
 * \brief The LLM experiment at the fluid level: the workload model's InferenceServer and
 *        TrainingJob (the packet level's MoseInferenceWorkload and MoseTrainingWorkload run the
 *        same classes) on a FluidFabric, without a Simulator.
 *
 * What this class adds to the workloads is the experiment around them, as the packet level's
 * experiment does it:
 *  - the inference server starts at time 0 on the initial mode's roles and graph;
 *  - the training job starts iteration 0 at time 0 and is stopped at endNs (no iteration
 *    starts after it);
 *  - at each boundary the fabric starts a switch to the new mode's graph and both workloads take
 *    the new mode's roles (and graph) for what they place or start next (a boundary during a
 *    switch is skipped and counted as an error, as the packet level's switcher skips it);
 *  - the run stops when every arrived request is served, every request has arrived, the training
 *    job is stopped and idle and the schedule's last boundary is past (or endNs reached), or at
 *    stopNs.
 * Events of one time run in the packet level's order: arrivals, then the training job, then
 * the boundary's switch. Deterministic.
 */
class FluidLlmRun
{
  public:
    /// \param config the parameters (validated by Run())
    explicit FluidLlmRun(const FluidLlmConfig& config);

    /// \brief Runs once (Error on a second call or invalid parameters)
    void Run();

    /// \return the request records
    const std::vector<RequestRecord>& GetRequests() const;
    /// \return per request, whether its last KV byte arrived (served, or its notice was due
    ///         after the run stopped)
    const std::vector<bool>& GetDelivered() const;
    /// \return the iteration records
    const std::vector<IterationRecord>& GetIterations() const;
    /// \return with a training plan, one record per collective run (TrainingJob)
    const std::vector<CollectiveRecord>& GetCollectives() const;
    /// \return the fabric (its transfers, switch records and counters); null before Run()
    const FluidFabric* GetFabric() const;
    /// \return the time the run stopped (ns)
    int64_t GetEndNs() const;
    /// \return switches started
    uint32_t GetNSwitchesStarted() const;
    /// \return errors inside the run (the workloads' and skipped boundaries; 0 in a valid
    ///         set-up)
    uint64_t GetNErrors() const;

  private:
    /// \brief Switch at boundary b
    void Boundary(std::size_t b);
    /// \brief Stops the run if everything is done (the packet level's Experiment::MaybeStop)
    void MaybeStop();

    FluidLlmConfig m_config;                             //!< parameters
    std::optional<FluidFabric> m_fabric;                 //!< the fabric (Run())
    std::optional<FluidWorkloadFabric> m_workloadFabric; //!< the workloads' view of it
    bool m_ran{false};                                   //!< Run() ran
    bool m_stop{false};                                  //!< MaybeStop() decided
    InferenceServer m_inference;                         //!< the inference workload
    TrainingJob m_training;                              //!< the training job (config.training)
    std::vector<bool> m_delivered;                       //!< per request (after Run())
    uint32_t m_switches{0};                              //!< switches started
    uint64_t m_boundaryErrors{0};                        //!< boundaries skipped
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLUID_LLM_H */
