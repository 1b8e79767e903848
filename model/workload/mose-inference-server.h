/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_INFERENCE_SERVER_H
#define MOSE_INFERENCE_SERVER_H

#include "mose-workload-fabric.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-llm-request.h"
#include "ns3/mose-placement.h"
#include "ns3/mose-roles.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup mose-workload
 * \brief The inference server (arrivals, placement, prefill queues, KV transfers) on any
 *        WorkloadFabric, and its record of a request.
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-workload
 * \brief What the inference server records of one request, at every level (times from the
 *        start of the run; ns3::Time is a value here, no Simulator is needed).
 */
struct RequestRecord
{
    uint32_t index{0};        //!< the request's index in the list
    uint64_t inputTokens{0};  //!< prompt tokens
    uint64_t outputTokens{0}; //!< generated tokens (not streamed: decode is not modelled)
    uint64_t kvBytes{0};      //!< the model's KV bytes: inputTokens x KV bytes per token, exactly
    uint64_t wireBytes{0};    //!< bytes sent: kvBytes / scale, rounded, at least 1
    uint64_t received{0};     //!< bytes the decode group received (= wireBytes if done)
    WorkloadMode mode{WorkloadMode::INFERENCE_HEAVY}; //!< roles it was placed by
    uint32_t prefill{0};                              //!< its prefill group
    uint32_t decode{0};                               //!< its decode group
    bool direct{false};   //!< a circuit of the placer's graph joins them
    Time arrival;         //!< arrival (server start + the request's arrival)
    Time prefillStart;    //!< its prefill group started computing it
    Time prefillDone;     //!< prefill compute done = KV transfer start
    Time kvStart;         //!< the KV transfer started
    Time kvEnd;           //!< the KV transfer's last byte arrived
    bool arrived{false};  //!< it has arrived
    bool computed{false}; //!< its prefill is done (its KV transfer started)
    bool done{false};     //!< its KV transfer is complete (noticed)
    uint64_t transfer{0}; //!< its KV transfer's id at the fabric (once computed)

    /// \return the network part of TTFT: the KV transfer time (kvEnd - kvStart)
    Time GetKvTime() const
    {
        return kvEnd - kvStart;
    }

    /// \return TTFT as modelled: kvEnd - arrival (queueing + prefill + KV transfer)
    Time GetTtft() const
    {
        return kvEnd - arrival;
    }
};

/**
 * \ingroup mose-workload
 * \brief The inference server's parameters.
 */
struct InferenceSettings
{
    PlacementRule placement{PlacementRule::CIRCUIT_AWARE}; //!< how requests are placed
    double prefillTokensPerSecond{2000000};                //!< one prefill group's speed
    uint64_t kvBytesPerToken{131072};                      //!< the model's KV bytes per token
    uint64_t scale{1};                                     //!< divides every KV byte count

    /// \brief Throws a mose::Error naming the first invalid parameter
    void Validate() const;
};

/**
 * \ingroup mose-workload
 * \brief Inference requests on a WorkloadFabric, written once for every level: each request
 *        arrives at its time, is placed on a prefill and a decode group of the current mode's
 *        roles by a RequestPlacer, waits for its prefill computation, then moves its KV cache
 *        prefill -> decode as one transfer.
 *
 * Model:
 *  - arrival at Start time + LlmRequest::arrivalNs; placement then, by the placement rule, on
 *    the roles (and circuit graph, for circuit-aware) given by SetMode();
 *  - a prefill group computes one request at a time, first come first served; a request takes
 *    inputTokens / prefillTokensPerSecond seconds (rounded to ns);
 *  - at prefill done, the KV cache (inputTokens x kvBytesPerToken bytes, divided by the scale)
 *    is sent prefill -> decode as ONE transfer on rail i (request i); the prefill group goes on
 *    with its next request meanwhile;
 *  - TTFT = KV end (the last byte) - arrival. Decode-side token streaming is not modelled;
 *  - placer work: a request's input tokens count on its prefill group from placement to
 *    prefill done, its output tokens on its decode group from placement to KV done.
 * At a mode boundary (SetMode()) later requests are placed on the new roles; requests already
 * placed finish where they are. Errors inside its events are counted (GetNErrors()), never
 * thrown out of them.
 */
class InferenceServer
{
  public:
    /// a request's record, at placement, prefill done and KV done
    using RequestObserver = std::function<void(const RequestRecord& record)>;
    /// an error caught inside an event: the request and what went wrong
    using ErrorObserver = std::function<void(uint32_t request, const std::string& what)>;

    /// What the server tells its owner (each optional)
    struct Observers
    {
        RequestObserver placed;      //!< a request arrived and was placed
        RequestObserver prefillDone; //!< its prefill is done, its KV transfer started
        RequestObserver done;        //!< its KV transfer was noticed complete
        ErrorObserver error;         //!< an error inside an event (counted)
    };

    InferenceServer();

    /// \param requests the requests, in arrival order (ValidateLlmRequests())
    void SetRequests(const std::vector<LlmRequest>& requests);
    /// \return the requests
    const std::vector<LlmRequest>& GetRequests() const;

    /**
     * \brief The mode's roles and circuit graph for placement: before Start() the initial mode,
     *        later a mode boundary.
     * \param rule the placement rule of the first call's placer (Start() makes it again if
     *        its settings give another)
     * \param mode the mode
     * \param roles its roles (at least one P and one D group)
     * \param graph its circuit graph (required for circuit-aware placement)
     */
    void SetMode(PlacementRule rule,
                 WorkloadMode mode,
                 const RoleAssignment& roles,
                 std::shared_ptr<const CircuitGraph> graph);
    /// \return whether SetMode() was called
    bool HasMode() const;

    /// \param observers what to call at the server's steps
    void SetObservers(Observers observers);

    /**
     * \brief Schedules every arrival at startNs + its arrival on the fabric. mose::Error if no
     *        mode or a setting is invalid (named as the settings' fields; a level's wrapper
     *        checks its own option names first).
     * \param fabric the fabric (kept until the run ends)
     * \param startNs the offset of arrival 0 from now
     * \param settings the parameters
     */
    void Start(WorkloadFabric& fabric, int64_t startNs, const InferenceSettings& settings);

    /// \brief No request arrives after now; the requests that have arrived are served
    void Stop();
    /// \brief Cancels every event the server scheduled (the owner's dispose)
    void CancelEvents();

    /// \return whether every arrived request is served and no more will arrive
    bool IsDone() const;
    /// \return one record per request (arrived or not)
    const std::vector<RequestRecord>& GetRecords() const;
    /// \return requests arrived
    uint32_t GetNArrived() const;
    /// \return requests whose KV transfer completed
    uint32_t GetNDone() const;
    /// \return errors caught inside events
    uint64_t GetNErrors() const;

  private:
    /// \brief Request i arrives
    void Arrive(uint32_t i);
    /// \brief The prefill group starts its next queued request, if idle
    void StartPrefill(uint32_t group);
    /// \brief The prefill group finished request i
    void PrefillDone(uint32_t group, uint32_t i);
    /// \brief Request i's KV transfer was noticed complete
    void KvDone(uint32_t i, const TransferReport& report);
    /// \brief Counts an error and tells the observer
    void Fail(uint32_t i, const std::string& what);

    WorkloadFabric* m_fabric{nullptr};                   //!< from Start()
    InferenceSettings m_settings;                        //!< from Start()
    std::vector<LlmRequest> m_requests;                  //!< the requests
    std::vector<RequestRecord> m_records;                //!< per request
    std::optional<RequestPlacer> m_placer;               //!< from the first SetMode()
    WorkloadMode m_mode{WorkloadMode::INFERENCE_HEAVY};  //!< current mode
    std::vector<std::deque<uint32_t>> m_queue;           //!< per group, FIFO
    std::vector<bool> m_busy;                            //!< per group, computing
    std::vector<WorkloadFabric::EventHandle> m_arrivals; //!< per request
    std::vector<WorkloadFabric::EventHandle> m_events;   //!< prefills
    uint32_t m_arrived{0};                               //!< requests arrived
    bool m_stopped{false};                               //!< Stop() was called
    uint32_t m_done{0};                                  //!< KV transfers complete
    uint64_t m_errors{0};                                //!< errors inside events
    Observers m_observers;                               //!< the owner's
};

/// \return the CSV header of WriteRequestsCsv() (no newline)
std::string GetRequestsCsvHeader();

/**
 * \brief One CSV row per request: index, input_tokens, output_tokens, kv_bytes, wire_bytes,
 *        mode, prefill, decode, direct, arrival_s, prefill_start_s, prefill_done_s,
 *        kv_start_s, kv_end_s, kv_time_s, ttft_s, done (times empty when not reached).
 * \param os the stream
 * \param records the records
 * \param prefix text written before every row (e.g. "MoSE,")
 */
void WriteRequestsCsv(std::ostream& os,
                      const std::vector<RequestRecord>& records,
                      const std::string& prefix);

/**
 * \brief Writes a time in seconds with ns resolution, or nothing if not reached.
 * \param os the stream
 * \param t the time
 * \param reached whether to write it
 */
void WriteCsvSeconds(std::ostream& os, Time t, bool reached);

} // namespace mose
} // namespace ns3

#endif /* MOSE_INFERENCE_SERVER_H */
