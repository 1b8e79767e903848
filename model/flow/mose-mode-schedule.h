/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_MODE_SCHEDULE_H
#define MOSE_MODE_SCHEDULE_H

#include "mose-policy.h"
#include "mose-roles.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

/**
 * \file
 * \ingroup mose-flow
 * ModeSchedule, the workload modes over time, and its text form (`--schedule`).
 */

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief The one schedule type of the module: the workload modes over time, as periods, each
 *        a mode held for a duration; the first period starts at time 0. The break-even
 *        analysis integrates costs over it, the mode controller gives one (ScheduleModes()),
 *        and the packet level's switcher (MoseModeSwitcher::SetSchedule()) and experiments run
 *        it; `--schedule` is its text (ParseSchedule(), FormatSchedule()).
 *
 * Durations are seconds as doubles (the break-even analysis reads schedules of hours and
 * more); the packet level turns each into an ns-3 Time once, in MoseScheduleTimes(). A
 * schedule that a controller made carries the load it measured at the start of each period.
 * A container of periods: size(), operator[], begin()/end(), front()/back(), Add().
 */
class ModeSchedule
{
  public:
    /// One period: a workload mode held for a duration
    struct Period
    {
        WorkloadMode mode{WorkloadMode::INFERENCE_HEAVY}; //!< the mode
        double duration{0}; //!< seconds, finite, >= 0 (ValidateSchedule())
        double load{0};     //!< the load a controller measured when it chose the mode (or 0)
    };

    /// An empty schedule
    ModeSchedule() = default;
    /// \param periods the periods, in order
    ModeSchedule(std::initializer_list<Period> periods);
    /// \param periods the periods, in order
    explicit ModeSchedule(std::vector<Period> periods);

    /**
     * \brief Appends a period
     * \param mode its mode
     * \param duration its duration in seconds
     * \param load the load measured when it was chosen (0: none)
     */
    void Add(WorkloadMode mode, double duration, double load = 0);

    /// \return the first period's mode (inference-heavy for an empty schedule)
    WorkloadMode GetInitialMode() const;
    /// \return the sum of the durations, in seconds
    double GetTotalDuration() const;
    /**
     * \param i a period index (<= size(): size() gives the end of the last period)
     * \return when period i starts, in whole nanoseconds: the sum of the durations before it,
     *         each rounded to the nearest nanosecond as the packet level rounds it
     *         (MoseScheduleTimes())
     */
    uint64_t GetStartNs(std::size_t i) const;

    /// \return the number of periods
    std::size_t size() const;
    /// \return whether there is no period
    bool empty() const;
    /// \param i a period index (< size()) \return that period
    const Period& operator[](std::size_t i) const;
    /// \return the first period (the schedule must not be empty)
    const Period& front() const;
    /// \return the last period (the schedule must not be empty)
    const Period& back() const;
    /// \return the first period, for range-for
    std::vector<Period>::const_iterator begin() const;
    /// \return past the last period, for range-for
    std::vector<Period>::const_iterator end() const;

  private:
    std::vector<Period> m_periods; //!< the periods, in order
};

/**
 * \ingroup mose-flow
 * \brief Reads a schedule, the one syntax of mose-break-even's and mose-mode-switch's
 *        --schedule: comma-separated MODE:DURATION periods, each a workload mode followed by
 *        how long it lasts, e.g. "inference-heavy:3600,training-heavy:10min". Mode names as
 *        ParseEnum<WorkloadMode>() takes them (any letter case, "inference"/"training" too);
 *        durations as ParseDuration() reads them (a number with an optional unit ns, us, ms, s,
 *        min or h; no unit: seconds).
 *
 * Throws a mose::Error naming the parameter for an empty text or an empty period, a period
 * without exactly one ':', an unknown mode, a duration that is not a finite number >= 0 (with a
 * unit it reads), a period in the TIME:MODE order (the boundary form mose-mode-switch read
 * before; the message gives the MODE:DURATION form), and a schedule whose durations add up to 0
 * or to more than a double holds.
 * \param parameter the parameter's name for messages (e.g. "--schedule")
 * \param text the text
 * \return the periods, in order
 */
ModeSchedule ParseSchedule(const std::string& parameter, std::string_view text);

/**
 * \ingroup mose-flow
 * \param schedule the periods
 * \return the schedule as ParseSchedule() reads it ("inference-heavy:3600,training-heavy:600")
 */
std::string FormatSchedule(const ModeSchedule& schedule);

/**
 * \ingroup mose-flow
 * \return the schedule syntax for messages and help texts ("MODE:DURATION periods separated by
 *         commas, ...")
 */
std::string ScheduleSyntax();

/**
 * \ingroup mose-flow
 * \brief Throws a mose::Error naming the parameter unless the schedule has at least one period,
 *        every duration is finite and >= 0, and the total is finite and > 0.
 * \param parameter the parameter's name for messages
 * \param schedule the periods
 */
void ValidateSchedule(const std::string& parameter, const ModeSchedule& schedule);

/**
 * \ingroup mose-flow
 * \brief The alternating schedule: cycles x (inference-heavy for T, training-heavy for T).
 * \param duration T in seconds (finite, > 0; Error naming "mode duration" otherwise)
 * \param cycles number of cycles (>= 1; Error naming "cycles" otherwise)
 * \return 2 cycles periods, inference-heavy first
 */
ModeSchedule AlternatingSchedule(double duration, uint32_t cycles);

} // namespace mose
} // namespace ns3

#endif /* MOSE_MODE_SCHEDULE_H */
