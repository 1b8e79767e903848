/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_MODE_CONTROLLER_H
#define MOSE_MODE_CONTROLLER_H

#include "mose-llm-request.h"
#include "mose-mode-schedule.h"
#include "mose-model-shape.h"
#include "mose-roles.h"

#include "ns3/mose-parse.h"

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-llm
 * \brief The parameters of a ModeController.
 *
 * Loads are in units per second of whatever the caller adds with ModeController::AddLoad():
 * requests (1 per arrival) or KV bytes, for instance. The defaults suit requests per second.
 */
struct ModeControllerOptions
{
    uint64_t windowNs{10000000000ULL}; //!< sliding window W (> 0), default 10 s
    /// training-heavy -> inference-heavy when the load is at least this (finite, > exit)
    double enterInferenceLoad{20.0};
    /// inference-heavy -> training-heavy when the load is at most this (finite, >= 0)
    double exitInferenceLoad{10.0};
    /// the least time between two switches, and between the start and the first (default 60 s)
    uint64_t minDwellNs{60000000000ULL};
    WorkloadMode initialMode{WorkloadMode::TRAINING_HEAVY}; //!< the mode at the start

    /// \brief Throws a mose::Error naming the field, its value and what is allowed
    void Validate() const;
};

/**
 * \ingroup mose-llm
 * \brief Decides the workload mode from the offered inference load; Simulator-free.
 *
 * The offered load at time t is the sum of the amounts added at times in (t - W, t], divided by
 * W in seconds (amounts added before 0 do not exist: the window is shorter than W only in that
 * no load was offered before the start). Update(t) measures it and applies, in this order:
 *
 * - in training-heavy mode, if load >= enterInferenceLoad and t - last switch >= minDwellNs:
 *   switch to inference-heavy;
 * - in inference-heavy mode, if load <= exitInferenceLoad and t - last switch >= minDwellNs:
 *   switch to training-heavy.
 *
 * Two thresholds (exit < enter) give hysteresis: a load between them never causes a switch;
 * the dwell time bounds the switching rate whatever the load does. The start counts as the
 * last switch. Times are ns on one clock and never go back: AddLoad() and Update() take
 * non-decreasing times (an earlier time is a mose::Error). Sums are exact (64-bit integers), so
 * the decisions are deterministic.
 */
class ModeController
{
  public:
    /**
     * \param options the parameters (validated)
     * \param startNs the time of the start, in ns
     */
    explicit ModeController(const ModeControllerOptions& options, uint64_t startNs = 0);

    /**
     * \brief Adds offered load at a time (e.g. 1 per request arrival, or its KV bytes).
     * \param timeNs the time (>= the last time seen)
     * \param amount the amount
     * Throws a mose::Error for an earlier time or a window sum beyond 64 bits.
     */
    void AddLoad(uint64_t timeNs, uint64_t amount);

    /**
     * \brief Measures the load at a time and applies the switching rule.
     * \param timeNs the time (>= the last time seen)
     * \return the mode from this time on
     */
    WorkloadMode Update(uint64_t timeNs);

    /// \return the current mode
    WorkloadMode GetMode() const;
    /// \return the load measured by the last Update() (0 before the first)
    double GetLoad() const;
    /// \return the time of the last switch (the start time before the first)
    uint64_t GetLastSwitchNs() const;
    /// \return the number of switches so far
    uint64_t GetNSwitches() const;

  private:
    /// \brief Throws a mose::Error if the time is before the last one seen
    void Advance(uint64_t timeNs, const char* method);

    ModeControllerOptions m_options;                    //!< parameters
    std::deque<std::pair<uint64_t, uint64_t>> m_window; //!< (time, amount) in the window
    uint64_t m_sum{0};                                  //!< sum of the amounts in m_window
    uint64_t m_now;                                     //!< the last time seen
    uint64_t m_lastSwitch;                              //!< time of the last switch
    uint64_t m_switches{0};                             //!< switches so far
    WorkloadMode m_mode;                                //!< current mode
    double m_load{0.0};                                 //!< load at the last Update()
};

/**
 * \ingroup mose-llm
 * \brief What a request adds to the offered load in ScheduleModes().
 */
enum class OfferedLoad : uint8_t
{
    REQUESTS, //!< 1 per request: the load is in requests per second
    KV_BYTES, //!< the request's KV bytes (GetKvBytes()): the load is in KV bytes per second
};

/// \ingroup mose-llm
/// Names of OfferedLoad: "requests", "kv-bytes"
template <>
struct EnumTable<OfferedLoad>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<OfferedLoad>>& Get();
};

/**
 * \ingroup mose-llm
 * \brief Runs a ModeController over a request list: every request adds its amount at its
 *        arrival, and the controller decides at t = periodNs, 2 periodNs, ... up to endNs (the
 *        requests arriving at or before t are added before the decision at t).
 * \param requests the requests (ValidateLlmRequests())
 * \param measure what each request adds
 * \param shape the model, for KV_BYTES (not used for REQUESTS)
 * \param options the controller's parameters
 * \param periodNs the decision period (> 0)
 * \param endNs the last time to decide at (>= periodNs)
 * \return the schedule: the initial mode from time 0, then a period per switch, each from
 *         its decision time to the next (the last to endNs), with the load measured then
 *         (0 for the initial period); durations are the nanoseconds / 1e9, which ns-3's
 *         Seconds() (MoseScheduleTimes()) turns back into the same nanoseconds
 */
ModeSchedule ScheduleModes(const std::vector<LlmRequest>& requests,
                           OfferedLoad measure,
                           const ModelShape& shape,
                           const ModeControllerOptions& options,
                           uint64_t periodNs,
                           uint64_t endNs);

} // namespace mose
} // namespace ns3

#endif /* MOSE_MODE_CONTROLLER_H */
