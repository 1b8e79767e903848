/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_FLUID_LLM_H
#define MOSE_FLUID_LLM_H

#include "mose-circuit-graph.h"
#include "mose-collective.h"
#include "mose-fluid-fabric.h"
#include "mose-llm-request.h"
#include "mose-placement.h"
#include "mose-roles.h"

#include <array>
#include <cstdint>
#include <deque>
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
 * \brief What the fluid level records of one request (MoseRequestRecord's fields, times in ns
 *        from the start of the run).
 */
struct FluidRequestRecord
{
    uint32_t index{0};                                //!< position in the list
    uint64_t inputTokens{0};                          //!< prompt tokens
    uint64_t outputTokens{0};                         //!< generated tokens
    uint64_t kvBytes{0};                              //!< inputTokens x KV bytes per token
    uint64_t wireBytes{0};                            //!< kvBytes / scale, rounded, at least 1
    uint64_t received{0};                             //!< bytes delivered (wireBytes once done)
    WorkloadMode mode{WorkloadMode::INFERENCE_HEAVY}; //!< roles it was placed by
    uint32_t prefill{0};                              //!< its prefill group
    uint32_t decode{0};                               //!< its decode group
    bool direct{false};        //!< a circuit of the placer's graph joins them
    int64_t arrivalNs{0};      //!< arrival
    int64_t prefillStartNs{0}; //!< its prefill started
    int64_t prefillDoneNs{0};  //!< prefill done = KV transfer start
    int64_t kvEndNs{0};        //!< the KV transfer's last byte arrived
    bool arrived{false};       //!< it has arrived
    bool computed{false};      //!< its prefill is done
    bool delivered{false};     //!< its last KV byte arrived (after Run())
    bool done{false};          //!< its KV transfer's completion was noticed
    uint64_t transfer{0};      //!< its KV transfer's id (once computed)
};

/**
 * \ingroup mose-llm
 * \brief What the fluid level records of one training iteration (MoseIterationRecord's fields,
 *        times in ns).
 */
struct FluidIterationRecord
{
    uint32_t index{0};                                //!< iteration number
    WorkloadMode mode{WorkloadMode::INFERENCE_HEAVY}; //!< roles of its members
    uint32_t members{0};                              //!< n
    uint64_t bytesPerMember{0};                       //!< S before scaling
    uint64_t wireSize{0};                             //!< S / scale, rounded, at least n
    uint64_t wireBytes{0};                            //!< bytes of the plan
    uint64_t transfers{0};                            //!< transfers of the plan
    int64_t startNs{0};                               //!< compute started
    int64_t collectiveStartNs{0};                     //!< the collective started
    int64_t collectiveEndNs{0};                       //!< its last transfer's last byte
    bool collectiveStarted{false};                    //!< compute done
    bool done{false};                                 //!< the collective completed
};

/**
 * \ingroup mose-llm
 * \brief One fluid LLM run's parameters: the fabric, the modes' roles and graphs, the schedule
 *        and the workloads (LlmExperimentConfig's, resolved to plain values).
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

    std::vector<LlmRequest> requests;                      //!< in arrival order
    uint64_t kvBytesPerToken{131072};                      //!< the model's
    PlacementRule placement{PlacementRule::ROUND_ROBIN};   //!< placement rule
    double prefillTokensPerSecond{20000};                  //!< one prefill group's speed
    bool training{true};                                   //!< run a training job
    CollectiveKind collective{CollectiveKind::ALL_TO_ALL}; //!< its collective
    uint64_t collectiveBytes{67108864};                    //!< S per member
    int64_t computeNs{10000000};                           //!< compute per iteration
    uint32_t maxIterations{0};                             //!< 0: until endNs
    uint64_t scale{1};                                     //!< divides every byte count
    /// a collective whose transfers all start together (the all-to-all) as one aggregate
    /// (FluidFabric::StartAggregate): one weighted flow whose parts progress together, an
    /// approximation of the separate transfers that makes an iteration over n members cost
    /// O(links) instead of O(n^2) flows. A ring's transfers, each waiting for the one before,
    /// are run one by one all the same (false: every transfer its own flow, exact)
    bool aggregateCollectives{false};

    /// \brief Throws a mose::Error naming the first invalid parameter
    void Validate() const;
};

/**
 * \ingroup mose-llm
 * \brief The LLM experiment at the fluid level: MoseInferenceWorkload's and
 *        MoseTrainingWorkload's rules on a FluidFabric, without a Simulator.
 *
 * The same rules as the packet level, event for event:
 *  - request i arrives at its arrivalNs, is placed (RequestPlacer) on the current mode's
 *    roles and graph, queues FIFO at its prefill group, computes inputTokens /
 *    prefillTokensPerSecond (rounded to ns), then sends its KV cache (kvBytes / scale) as one
 *    transfer; it is served when the transfer's completion is noticed (FluidFabric's notice
 *    delay), its TTFT ending at the last byte;
 *  - the training job starts iteration 0 at time 0: computeNs of compute, then the collective
 *    (PlanCollective() over the mode's training groups, S / scale; a ring's transfer starts when
 *    the one it depends on is noticed); the next iteration starts when the collective is
 *    noticed complete, none after endNs;
 *  - at each boundary the fabric starts a switch to the new mode's graph and both workloads take
 *    the new mode's roles (and graph) for what they place or start next;
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
    const std::vector<FluidRequestRecord>& GetRequests() const;
    /// \return the iteration records
    const std::vector<FluidIterationRecord>& GetIterations() const;
    /// \return the fabric (its transfers, switch records and counters); null before Run()
    const FluidFabric* GetFabric() const;
    /// \return the time the run stopped (ns)
    int64_t GetEndNs() const;
    /// \return switches started
    uint32_t GetNSwitchesStarted() const;
    /// \return errors inside the run (a boundary during a switch; 0 in a valid set-up)
    uint64_t GetNErrors() const;

  private:
    /// \brief Request i arrives
    void Arrive(uint32_t i);
    /// \brief The prefill group starts its next request, if idle
    void StartPrefill(uint32_t group);
    /// \brief The prefill group finished request i
    void PrefillDone(uint32_t group, uint32_t i);
    /// \brief Request i's KV transfer (id) was noticed complete
    void KvDone(uint32_t i, uint64_t id);
    /// \brief Starts the next iteration
    void StartIteration();
    /// \brief Compute done: the collective starts
    void StartCollective();
    /// \brief Starts transfer k of the current plan
    void StartTransfer(uint32_t iteration, uint64_t k);
    /// \brief Transfer k (id) of iteration was noticed complete
    void TransferDone(uint32_t iteration, uint64_t k, uint64_t id);
    /// \brief The collective's last byte arrived (at endNs) and was noticed: the iteration ends
    void CollectiveDone(int64_t endNs);
    /// \brief Switch at boundary b
    void Boundary(std::size_t b);
    /// \brief Stops the run if everything is done (the packet level's Experiment::MaybeStop)
    void MaybeStop();

    FluidLlmConfig m_config;             //!< parameters
    std::optional<FluidFabric> m_fabric; //!< the fabric (Run())
    bool m_ran{false};                   //!< Run() ran
    bool m_stop{false};                  //!< MaybeStop() decided
    // inference
    std::vector<FluidRequestRecord> m_requests;         //!< per request
    std::optional<RequestPlacer> m_placer;              //!< the placer
    WorkloadMode m_mode{WorkloadMode::INFERENCE_HEAVY}; //!< current mode
    std::vector<std::deque<uint32_t>> m_queue;          //!< per group, FIFO
    std::vector<bool> m_busy;                           //!< per group, computing
    uint32_t m_arrived{0};                              //!< requests arrived
    uint32_t m_served{0};                               //!< requests served
    // training
    std::vector<uint32_t> m_groups;                             //!< the latest training groups
    WorkloadMode m_trainingMode{WorkloadMode::INFERENCE_HEAVY}; //!< their mode
    std::vector<uint32_t> m_members;                            //!< current iteration's
    CollectivePlan m_plan;                                      //!< current collective
    bool m_planned{false};                                      //!< m_plan was made
    uint64_t m_planBytes{0};                                    //!< its total bytes
    bool m_planIndependent{false};                   //!< no transfer of m_plan waits for another
    std::vector<std::vector<uint64_t>> m_dependents; //!< per transfer of the plan
    uint64_t m_pending{0};                           //!< transfers not complete
    /// aggregateCollectives: the all-to-all's transfers as the parts of one aggregate (the
    /// same object while the members and the plan stay, so that the fabric reuses their
    /// routes; reset when the plan is made again)
    std::shared_ptr<const std::vector<FluidPart>> m_aggregate;
    std::vector<uint32_t> m_aggregateMembers;       //!< the members m_aggregate was made for
    bool m_trainingStopped{false};                  //!< no iteration starts
    bool m_iterationInFlight{false};                //!< compute or collective running
    std::vector<FluidIterationRecord> m_iterations; //!< per iteration
    uint32_t m_switches{0};                         //!< switches started
    uint64_t m_errors{0};                           //!< errors inside the run
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_FLUID_LLM_H */
