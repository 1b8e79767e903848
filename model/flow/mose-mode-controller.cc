/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-mode-controller.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <cmath>
#include <limits>
#include <string>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseModeController");

const std::vector<EnumEntry<OfferedLoad>>&
EnumTable<OfferedLoad>::Get()
{
    static const std::vector<EnumEntry<OfferedLoad>> names = {
        {OfferedLoad::REQUESTS, "requests", {}},
        {OfferedLoad::KV_BYTES, "kv-bytes", {}},
    };
    return names;
}

void
ModeControllerOptions::Validate() const
{
    if (windowNs == 0)
    {
        ThrowBadParameter("windowNs", "0", "a sliding window of at least 1 ns");
    }
    if (!(exitInferenceLoad >= 0.0 && std::isfinite(exitInferenceLoad)))
    {
        ThrowBadParameter("exitInferenceLoad",
                          FormatNumber(exitInferenceLoad),
                          "a finite load >= 0");
    }
    if (!(enterInferenceLoad > exitInferenceLoad && std::isfinite(enterInferenceLoad)))
    {
        ThrowBadParameter(
            "enterInferenceLoad",
            FormatNumber(enterInferenceLoad),
            "a finite load above exitInferenceLoad = " + FormatNumber(exitInferenceLoad) +
                " (two thresholds give the hysteresis)");
    }
}

ModeController::ModeController(const ModeControllerOptions& options, uint64_t startNs)
    : m_options(options),
      m_now(startNs),
      m_lastSwitch(startNs),
      m_mode(options.initialMode)
{
    NS_LOG_FUNCTION(this << options.windowNs << options.enterInferenceLoad
                         << options.exitInferenceLoad << options.minDwellNs << startNs);
    m_options.Validate();
}

void
ModeController::Advance(uint64_t timeNs, const char* method)
{
    if (timeNs < m_now)
    {
        ThrowBadParameter(std::string(method) + " time",
                          std::to_string(timeNs) + " ns",
                          "times that never go back: the last one was " + std::to_string(m_now) +
                              " ns");
    }
    m_now = timeNs;
}

void
ModeController::AddLoad(uint64_t timeNs, uint64_t amount)
{
    NS_LOG_FUNCTION(this << timeNs << amount);
    if (amount > std::numeric_limits<uint64_t>::max() - m_sum)
    {
        ThrowBadParameter("AddLoad amount",
                          std::to_string(amount),
                          "a window sum within 64 bits (the window holds " + std::to_string(m_sum) +
                              ")");
    }
    Advance(timeNs, "AddLoad");
    m_window.emplace_back(timeNs, amount);
    m_sum += amount;
}

WorkloadMode
ModeController::Update(uint64_t timeNs)
{
    NS_LOG_FUNCTION(this << timeNs);
    Advance(timeNs, "Update");
    // the window is (t - W, t]: drop what arrived at or before t - W
    if (timeNs >= m_options.windowNs)
    {
        const uint64_t edge = timeNs - m_options.windowNs;
        while (!m_window.empty() && m_window.front().first <= edge)
        {
            m_sum -= m_window.front().second;
            m_window.pop_front();
        }
    }
    m_load = static_cast<double>(m_sum) / (static_cast<double>(m_options.windowNs) * 1e-9);
    const bool dwelt = timeNs - m_lastSwitch >= m_options.minDwellNs;
    WorkloadMode next = m_mode;
    if (m_mode == WorkloadMode::TRAINING_HEAVY && m_load >= m_options.enterInferenceLoad)
    {
        next = WorkloadMode::INFERENCE_HEAVY;
    }
    else if (m_mode == WorkloadMode::INFERENCE_HEAVY && m_load <= m_options.exitInferenceLoad)
    {
        next = WorkloadMode::TRAINING_HEAVY;
    }
    if (next != m_mode && dwelt)
    {
        NS_LOG_INFO("at " << timeNs << " ns, load " << m_load << ": " << ToString(m_mode) << " -> "
                          << ToString(next));
        m_mode = next;
        m_lastSwitch = timeNs;
        ++m_switches;
    }
    else if (next != m_mode)
    {
        NS_LOG_LOGIC("at " << timeNs << " ns, load " << m_load << " calls for " << ToString(next)
                           << ", held by the dwell time until "
                           << m_lastSwitch + m_options.minDwellNs << " ns");
    }
    return m_mode;
}

WorkloadMode
ModeController::GetMode() const
{
    return m_mode;
}

double
ModeController::GetLoad() const
{
    return m_load;
}

uint64_t
ModeController::GetLastSwitchNs() const
{
    return m_lastSwitch;
}

uint64_t
ModeController::GetNSwitches() const
{
    return m_switches;
}

ModeSchedule
ScheduleModes(const std::vector<LlmRequest>& requests,
              OfferedLoad measure,
              const ModelShape& shape,
              const ModeControllerOptions& options,
              uint64_t periodNs,
              uint64_t endNs)
{
    NS_LOG_FUNCTION(requests.size() << ToString(measure) << shape.name << periodNs << endNs);
    ValidateLlmRequests(requests, "requests");
    if (periodNs == 0)
    {
        ThrowBadParameter("periodNs", "0", "a decision period of at least 1 ns");
    }
    if (endNs < periodNs)
    {
        ThrowBadParameter("endNs",
                          std::to_string(endNs),
                          "at least one decision: endNs >= periodNs = " + std::to_string(periodNs));
    }
    ModeController controller(options, 0);

    // the changes (time, mode, load), then the periods between them
    struct Change
    {
        uint64_t timeNs;
        WorkloadMode mode;
        double load;
    };

    std::vector<Change> changes{{0, options.initialMode, 0.0}};
    std::size_t next = 0;
    for (uint64_t t = periodNs; t <= endNs; t += periodNs)
    {
        for (; next < requests.size() && requests[next].arrivalNs <= t; ++next)
        {
            const uint64_t amount =
                measure == OfferedLoad::KV_BYTES ? GetKvBytes(requests[next], shape) : 1;
            controller.AddLoad(requests[next].arrivalNs, amount);
        }
        const WorkloadMode before = controller.GetMode();
        if (controller.Update(t) != before)
        {
            changes.push_back({t, controller.GetMode(), controller.GetLoad()});
        }
        if (t > std::numeric_limits<uint64_t>::max() - periodNs)
        {
            break;
        }
    }
    ModeSchedule schedule;
    for (std::size_t i = 0; i < changes.size(); ++i)
    {
        const uint64_t to = i + 1 < changes.size() ? changes[i + 1].timeNs : endNs;
        schedule.Add(changes[i].mode,
                     static_cast<double>(to - changes[i].timeNs) / 1e9,
                     changes[i].load);
    }
    return schedule;
}

} // namespace mose
} // namespace ns3
