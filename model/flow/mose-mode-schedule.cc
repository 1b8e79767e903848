/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-mode-schedule.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseModeSchedule");

namespace mose
{

ModeSchedule::ModeSchedule(std::initializer_list<Period> periods)
    : m_periods(periods)
{
}

ModeSchedule::ModeSchedule(std::vector<Period> periods)
    : m_periods(std::move(periods))
{
}

void
ModeSchedule::Add(WorkloadMode mode, double duration, double load)
{
    m_periods.push_back({mode, duration, load});
}

WorkloadMode
ModeSchedule::GetInitialMode() const
{
    return m_periods.empty() ? WorkloadMode::INFERENCE_HEAVY : m_periods.front().mode;
}

double
ModeSchedule::GetTotalDuration() const
{
    double total = 0;
    for (const Period& p : m_periods)
    {
        total += p.duration;
    }
    return total;
}

uint64_t
ModeSchedule::GetStartNs(std::size_t i) const
{
    if (i > m_periods.size())
    {
        throw Error("ModeSchedule::GetStartNs: period " + std::to_string(i) + " of " +
                    std::to_string(m_periods.size()));
    }
    uint64_t ns = 0;
    for (std::size_t k = 0; k < i; ++k)
    {
        ns += static_cast<uint64_t>(std::llround(m_periods[k].duration * 1e9));
    }
    return ns;
}

std::size_t
ModeSchedule::size() const
{
    return m_periods.size();
}

bool
ModeSchedule::empty() const
{
    return m_periods.empty();
}

const ModeSchedule::Period&
ModeSchedule::operator[](std::size_t i) const
{
    if (i >= m_periods.size())
    {
        throw Error("ModeSchedule: period " + std::to_string(i) + " of " +
                    std::to_string(m_periods.size()));
    }
    return m_periods[i];
}

const ModeSchedule::Period&
ModeSchedule::front() const
{
    return (*this)[0];
}

const ModeSchedule::Period&
ModeSchedule::back() const
{
    if (m_periods.empty())
    {
        throw Error("ModeSchedule::back of an empty schedule");
    }
    return m_periods.back();
}

std::vector<ModeSchedule::Period>::const_iterator
ModeSchedule::begin() const
{
    return m_periods.begin();
}

std::vector<ModeSchedule::Period>::const_iterator
ModeSchedule::end() const
{
    return m_periods.end();
}

void
ValidateSchedule(const std::string& parameter, const ModeSchedule& schedule)
{
    NS_LOG_FUNCTION(parameter << schedule.size());
    if (schedule.empty())
    {
        ThrowBadParameter(parameter, "\"\"", "the schedule is empty; " + ScheduleSyntax());
    }
    double total = 0;
    for (std::size_t k = 0; k < schedule.size(); ++k)
    {
        double t = schedule[k].duration;
        if (!std::isfinite(t) || t < 0)
        {
            ThrowBadParameter(parameter + " period " + std::to_string(k + 1) + " duration",
                              FormatNumber(t),
                              "a duration must be a finite number of seconds >= 0");
        }
        total += t;
    }
    if (!std::isfinite(total))
    {
        ThrowBadParameter(parameter,
                          FormatSchedule(schedule),
                          "the durations add up to more than " +
                              FormatNumber(std::numeric_limits<double>::max()) + " s");
    }
    if (total <= 0)
    {
        ThrowBadParameter(parameter,
                          FormatSchedule(schedule),
                          "the durations add up to 0 s; at least one must be > 0");
    }
}

std::string
ScheduleSyntax()
{
    return "MODE:DURATION periods separated by commas, each mode followed by how long it "
           "lasts, e.g. inference-heavy:3600,training-heavy:10min (DURATION: a number with an "
           "optional unit ns, us, ms, s, min or h; no unit: seconds)";
}

ModeSchedule
ParseSchedule(const std::string& parameter, std::string_view text)
{
    NS_LOG_FUNCTION(parameter << text);
    if (text.empty())
    {
        ThrowBadParameter(parameter, QuoteText(text), "the schedule is empty; " + ScheduleSyntax());
    }
    ModeSchedule schedule;
    for (std::string_view item : SplitAtCommas(text))
    {
        const std::string where = parameter + " period " + std::to_string(schedule.size() + 1);
        if (item.empty())
        {
            ThrowBadParameter(where, QuoteText(text), "the period is empty; " + ScheduleSyntax());
        }
        std::size_t colon = item.find(':');
        if (colon == std::string_view::npos || item.find(':', colon + 1) != std::string_view::npos)
        {
            ThrowBadParameter(where,
                              QuoteText(item),
                              "expected exactly one ':' between the mode and its duration; " +
                                  ScheduleSyntax());
        }
        const std::string_view modeText = item.substr(0, colon);
        const std::string_view durationText = item.substr(colon + 1);
        if (!TryParseEnum<WorkloadMode>(modeText) && TryParseEnum<WorkloadMode>(durationText))
        {
            // the TIME:MODE boundaries mose-mode-switch read before the two programs shared
            // one syntax
            ThrowBadParameter(where,
                              QuoteText(item),
                              "the mode comes first: a schedule is " + ScheduleSyntax() +
                                  "; the TIME:MODE boundary form is no longer read");
        }
        ModeSchedule::Period period;
        period.mode = ParseEnum<WorkloadMode>(modeText, where + " mode");
        period.duration = ParseDuration(where + " duration", durationText);
        schedule.Add(period.mode, period.duration);
    }
    ValidateSchedule(parameter, schedule);
    return schedule;
}

std::string
FormatSchedule(const ModeSchedule& schedule)
{
    std::string text;
    for (const ModeSchedule::Period& p : schedule)
    {
        text += (text.empty() ? "" : ",") + ToString(p.mode) + ":" + FormatNumber(p.duration);
    }
    return text;
}

ModeSchedule
AlternatingSchedule(double duration, uint32_t cycles)
{
    NS_LOG_FUNCTION(duration << cycles);
    if (!std::isfinite(duration) || duration <= 0)
    {
        ThrowBadParameter("mode duration",
                          FormatNumber(duration),
                          "a finite number of seconds > 0");
    }
    if (cycles == 0)
    {
        ThrowBadParameter("cycles", "0", "at least 1 cycle");
    }
    ModeSchedule schedule;
    for (uint32_t i = 0; i < cycles; ++i)
    {
        for (WorkloadMode mode : ALL_MODES)
        {
            schedule.Add(mode, duration);
        }
    }
    return schedule;
}

} // namespace mose
} // namespace ns3
