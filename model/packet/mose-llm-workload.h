/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LLM_WORKLOAD_H
#define MOSE_LLM_WORKLOAD_H

#include "mose-llm-transfers.h"
#include "mose-simulator-fabric.h"
#include "mose-workload.h"

#include "ns3/event-id.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-collective.h"
#include "ns3/mose-inference-server.h"
#include "ns3/mose-llm-request.h"
#include "ns3/mose-model-shape.h"
#include "ns3/mose-ns3-compat.h"
#include "ns3/mose-placement.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-training-job.h"
#include "ns3/mose-workload-summary.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

#if MOSE_NS3_VERSION_MINOR >= 41
/// how an enum-class attribute is stored: the enum itself (EnumValue<T> from 3.41)
template <typename E>
using MoseEnumStore = E;
#else
/// how an enum-class attribute is stored: an int (EnumValue holds an int up to 3.40)
template <typename E>
using MoseEnumStore = int;
#endif

/// \ingroup mose-llm
/// What MoseInferenceWorkload records for one request: the workload model's record, the same
/// at every level (mose::RequestRecord)
using MoseRequestRecord = mose::RequestRecord;

/**
 * \ingroup mose-llm
 * \brief Inference requests at the packet level, mose::InferenceServer (the workload model,
 *        the same at every level) on the Simulator and MoseSocketTransfers: each request arrives at
 * its time, is placed on a prefill and a decode group of the current mode's roles by a
 * mose::RequestPlacer, waits for its prefill computation, then moves its KV cache prefill -> decode
 * as one transfer over MoseSocketTransfers.
 *
 * Model:
 *  - arrival at Start time + LlmRequest::arrivalNs; placement then, by PlacementRule, on the
 *    roles (and circuit graph, for circuit-aware) given by SetMode();
 *  - a prefill group computes one request at a time, first come first served; a request takes
 *    inputTokens / PrefillTokensPerSecond seconds (rounded to ns);
 *  - at prefill done, the KV cache (inputTokens x KvBytesPerToken bytes, divided by ByteScale)
 *    is sent prefill -> decode as ONE transfer; the prefill group goes on with its next request
 *    meanwhile. Request i's transfer goes on rail i (MoseSocketTransfers::Start()): with G hosts
 *    per group, from host i mod G of the prefill group to host i mod G of the decode group, so a
 *    group's KV transfers spread over its GPUs' NICs as a rail-optimised cluster's do;
 *  - TTFT = KV end - arrival. Decode-side token streaming is not modelled: the first token is
 *    taken as produced when the KV cache has arrived, and decode groups do not compute.
 *  - placer work: a request's input tokens count on its prefill group from placement to prefill
 *    done, its output tokens on its decode group from placement to KV end (the only decode-side
 *    load the model has).
 * At a mode boundary (SetMode()) later requests are placed on the new roles; requests already
 * placed finish where they are (a prefill queue whose group changed role still drains).
 */
class MoseInferenceWorkload : public MoseWorkload
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MoseInferenceWorkload();
    ~MoseInferenceWorkload() override;

    /// \param transfers the installed transport of the KV transfers
    void SetTransfers(Ptr<MoseTransport> transfers) override;

    /**
     * \param requests the requests, in arrival order (mose::ValidateLlmRequests())
     */
    void SetRequests(const std::vector<mose::LlmRequest>& requests);

    /**
     * \brief The mode's roles and circuit graph for placement: before Start() the initial mode,
     *        later a mode boundary (MoseModeSwitcher::AddWorkload() calls it at each switch).
     * \param mode the mode
     * \param roles its roles (at least one P and one D group)
     * \param graph its circuit graph (required for circuit-aware placement)
     */
    void SetMode(mose::WorkloadMode mode,
                 const mose::RoleAssignment& roles,
                 std::shared_ptr<const mose::CircuitGraph> graph) override;

    /**
     * \brief Schedules every arrival relative to now + start. mose::Error (naming the attribute
     *        or call) if no transport, no mode, or an attribute is invalid.
     * \param start the offset of arrival 0
     */
    void Start(Time start) override;

    /// \brief No request arrives after now (they stay not arrived); the requests that have
    ///        arrived are served
    void Stop() override;

    /// \return whether every arrived request is served and no more will arrive (all arrived,
    ///         or Stop())
    bool IsDone() const override;

    /// \return one record per request (arrived or not)
    const std::vector<MoseRequestRecord>& GetRecords() const;
    /// \return the summary of every request (mose::SummarizeRequests() over the whole run):
    ///         served, KV time and TTFT statistics, as every level gives it
    mose::InferenceSummary GetSummary() const;
    /// \return requests whose KV transfer completed
    uint32_t GetNDone() const override;
    /// \return errors caught inside simulation events
    uint64_t GetNErrors() const override;
    /// \return the KV transfers started so far, in start order (MoseSocketTransfers' records;
    ///         none once disposed)
    std::vector<MoseTransfer> GetTransfers() const override;

    /**
     * \brief One CSV row per request: index, input_tokens, output_tokens, kv_bytes, wire_bytes,
     *        mode, prefill, decode, direct, arrival_s, prefill_start_s, prefill_done_s,
     *        kv_start_s, kv_end_s, kv_time_s, ttft_s, done (times empty when not reached).
     * \param os the stream
     * \param header whether to write the header line
     * \param prefix text written before every row (e.g. "MoSE,")
     */
    void WriteCsv(std::ostream& os, bool header = true, const std::string& prefix = "") const;
    /// \return the CSV header of WriteCsv (no newline)
    static std::string GetCsvHeader();
    /**
     * \brief The rows of WriteCsv for any records.
     * \param os the stream
     * \param records the records
     * \param prefix text written before every row
     */
    static void WriteRecordsCsv(std::ostream& os,
                                const std::vector<MoseRequestRecord>& records,
                                const std::string& prefix);

    /**
     * TracedCallback signature of "RequestPlaced", "PrefillDone" and "RequestDone".
     * \param record the request's record
     */
    typedef void (*RequestCallback)(const MoseRequestRecord& record);

  protected:
    void DoDispose() override;

  private:
    /// \return the server's parameters from the attributes
    mose::InferenceSettings GetSettings() const;

    MoseEnumStore<mose::PlacementRule> m_rule{};             //!< "PlacementRule"
    MoseEnumStore<mose::ModelPreset> m_model{};              //!< "Model"
    double m_prefillRate{0};                                 //!< "PrefillTokensPerSecond"
    uint64_t m_bytesPerToken{0};                             //!< "KvBytesPerToken"
    uint64_t m_scale{0};                                     //!< "ByteScale"
    Ptr<MoseTransport> m_transfers;                          //!< transport
    mose::InferenceServer m_server;                          //!< the workload, written once
    std::unique_ptr<MoseSimulatorFabric> m_fabric;           //!< its fabric (Start())
    TracedCallback<const MoseRequestRecord&> m_placedTrace;  //!< "RequestPlaced"
    TracedCallback<const MoseRequestRecord&> m_prefillTrace; //!< "PrefillDone"
    TracedCallback<const MoseRequestRecord&> m_doneTrace;    //!< "RequestDone"
};

/// \ingroup mose-llm
/// What MoseTrainingWorkload records for one iteration: the workload model's record, the same
/// at every level (mose::IterationRecord)
using MoseIterationRecord = mose::IterationRecord;

/**
 * \ingroup mose-llm
 * \brief A training job at the packet level, mose::TrainingJob (the workload model, the same
 *        at every level) on the Simulator and MoseSocketTransfers, that waits on its collectives:
 * each iteration is ComputeTime of computation, then one collective (mose::PlanCollective()) over
 * the current training groups; the next iteration starts when the collective completes.
 *
 * Members are the training groups of the roles in ascending id order (member i + 1 is member
 * i's ring successor). An all-to-all starts all its n(n-1) transfers at once; a ring
 * all-reduce starts step 0 and every later transfer when the transfer it depends on (the one
 * that brings the chunk it forwards) has completed. SetMode() at a mode boundary changes the
 * training groups for the NEXT iteration: the iteration in flight, its collective included,
 * completes on the old set (the routing protocol's hold queue keeps its packets during a
 * switch). Byte counts are divided by ByteScale (every chunk at least 1 byte).
 *
 * Rails (GetRail()): with G hosts per group (MoseSocketTransfers on
 * MoseTopologyHelper::GetGroupEndpoints()), each transfer goes from host r mod G of its source
 * group to host r mod G of its destination group, as a rail-optimised cluster joins GPU r of
 * every group by rail r: an all-to-all part from member i to member j on rail (j - i) mod n
 * (a member's n - 1 parts, and the parts it receives, spread evenly over its hosts), ring
 * chunk c on rail c (G rings, each chunk forwarded on its own rail). With one endpoint per
 * group every rail is that endpoint.
 */
class MoseTrainingWorkload : public MoseWorkload
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MoseTrainingWorkload();
    ~MoseTrainingWorkload() override;

    /// \param transfers the installed transport of the collectives
    void SetTransfers(Ptr<MoseTransport> transfers) override;

    /**
     * \brief The mode's roles: the training groups of the next iteration.
     * \param mode the mode
     * \param roles its roles (at least two training groups)
     */
    void SetMode(mose::WorkloadMode mode, const mose::RoleAssignment& roles);

    /**
     * \brief MoseWorkload's SetMode(): the roles as above; the collective's transfers are
     *        routed by the fabric, so the graph is not used.
     * \param mode the mode
     * \param roles its roles (at least two training groups)
     * \param graph its circuit graph (not used)
     */
    void SetMode(mose::WorkloadMode mode,
                 const mose::RoleAssignment& roles,
                 std::shared_ptr<const mose::CircuitGraph> graph) override;

    /**
     * \brief Starts iteration 0 at now + start. mose::Error if no transport or mode, or an
     *        attribute is invalid (CollectiveBytes / ByteScale below the members).
     * \param start the delay
     */
    void Start(Time start) override;

    /// \brief Starts no iteration after now; the one in flight (compute or collective)
    ///        completes
    void Stop() override;

    /**
     * \brief Runs a training plan (a Chakra trace, ...) as each iteration instead of the
     *        compute time and one collective (mose::TrainingSettings::plan): Collective,
     *        CollectiveBytes and ComputeTime are then unused. Call before Start().
     * \param plan the plan (null: the synthetic iteration)
     * \param mapping its ranks on the training members and rails
     * \param nccl how its collectives are decomposed
     */
    void SetPlan(std::shared_ptr<const mose::TrainingPlan> plan,
                 const mose::RankMapping& mapping,
                 const mose::NcclSettings& nccl);
    /// \return with a plan, one record per collective run (mose::TrainingJob)
    const std::vector<mose::CollectiveRecord>& GetCollectiveRecords() const;

    /// \return whether the job was stopped (Stop()) and no iteration is in flight: a training
    ///         job runs until it is stopped (MaxIterations only ends its iterations early)
    bool IsDone() const override;

    /// \return one record per iteration started
    const std::vector<MoseIterationRecord>& GetRecords() const;
    /// \return the summary of every completed iteration (mose::SummarizeIterations() over the
    ///         whole run): iteration and collective time statistics, as every level gives it
    mose::TrainingSummary GetSummary() const;
    /// \return iterations whose collective completed
    uint32_t GetNDone() const override;
    /// \return errors caught inside simulation events
    uint64_t GetNErrors() const override;
    /// \return the collectives' transfers started so far, in start order (none once disposed)
    std::vector<MoseTransfer> GetTransfers() const override;
    /// \return whether an iteration is in flight (its compute or its collective)
    bool IsBusy() const;

    /**
     * \brief The rail a collective transfer goes on (mose::CollectivePlan::GetRail(), the rule
     *        the fluid level follows too): (dst - src) mod n for an all-to-all part, the chunk
     *        for a ring all-reduce transfer.
     * \param plan the collective
     * \param transfer one of its transfers
     * \return the rail (MoseSocketTransfers::Start() takes it mod each group's G)
     */
    static uint32_t GetRail(const mose::CollectivePlan& plan,
                            const mose::CollectiveTransfer& transfer);

    /**
     * \brief One CSV row per iteration: index, mode, members, bytes_per_member, wire_size,
     *        wire_bytes, transfers, start_s, collective_start_s, collective_end_s,
     *        iteration_s, collective_s, done.
     * \param os the stream
     * \param header whether to write the header line
     * \param prefix text written before every row
     */
    void WriteCsv(std::ostream& os, bool header = true, const std::string& prefix = "") const;
    /// \return the CSV header of WriteCsv (no newline)
    static std::string GetCsvHeader();
    /**
     * \brief The rows of WriteCsv for any records.
     * \param os the stream
     * \param records the records
     * \param prefix text written before every row
     */
    static void WriteRecordsCsv(std::ostream& os,
                                const std::vector<MoseIterationRecord>& records,
                                const std::string& prefix);

    /**
     * TracedCallback signature of "IterationStarted" and "IterationDone".
     * \param record the iteration's record
     */
    typedef void (*IterationCallback)(const MoseIterationRecord& record);

  protected:
    void DoDispose() override;

  private:
    MoseEnumStore<mose::CollectiveKind> m_kind{};              //!< "Collective"
    uint64_t m_size{0};                                        //!< "CollectiveBytes"
    Time m_compute;                                            //!< "ComputeTime"
    uint64_t m_scale{0};                                       //!< "ByteScale"
    uint32_t m_maxIterations{0};                               //!< "MaxIterations"
    bool m_reuse{true};                                        //!< "ReuseConnections"
    Ptr<MoseTransport> m_transfers;                            //!< transport
    mose::TrainingJob m_job;                                   //!< the workload, written once
    std::shared_ptr<const mose::TrainingPlan> m_plan;          //!< SetPlan()
    mose::RankMapping m_mapping;                               //!< SetPlan()
    mose::NcclSettings m_nccl;                                 //!< SetPlan()
    std::unique_ptr<MoseSimulatorFabric> m_fabric;             //!< its fabric (Start())
    TracedCallback<const MoseIterationRecord&> m_startedTrace; //!< "IterationStarted"
    TracedCallback<const MoseIterationRecord&> m_doneTrace;    //!< "IterationDone"
};

} // namespace ns3

#endif /* MOSE_LLM_WORKLOAD_H */
