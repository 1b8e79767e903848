/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-break-even.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-parse.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseBreakEven");

namespace
{

/// \return true if the metric is one of SWITCH_COST_METRICS
bool
IsSwitchCostMetric(Metric metric)
{
    return std::find(SWITCH_COST_METRICS.begin(), SWITCH_COST_METRICS.end(), metric) !=
           SWITCH_COST_METRICS.end();
}

} // namespace

std::string
AllowedSwitchCostMetrics()
{
    // the names of the enum's table (canonical first), of the switch-cost metrics only, in
    // SWITCH_COST_METRICS order
    const std::vector<EnumEntry<Metric>>& table = EnumTable<Metric>::Get();
    const std::vector<std::vector<std::string>> names = detail::NameLists<Metric>();
    std::vector<std::vector<std::string>> lists;
    for (Metric m : SWITCH_COST_METRICS)
    {
        for (std::size_t i = 0; i < table.size(); ++i)
        {
            if (table[i].value == m)
            {
                lists.push_back(names[i]);
            }
        }
    }
    return detail::AllowedNames(lists);
}

Metric
ParseSwitchCostMetric(std::string_view text, const std::string& parameter)
{
    const std::optional<Metric> m = TryParseEnum<Metric>(text);
    if (!m || !IsSwitchCostMetric(*m))
    {
        ThrowUnknownName(parameter, text, AllowedSwitchCostMetrics());
    }
    return *m;
}

double
GetSwitchCostRate(const FlowMetrics& m, Metric metric)
{
    if (!IsSwitchCostMetric(metric))
    {
        ThrowBadParameter("metric", ToString(metric), "one of " + AllowedSwitchCostMetrics());
    }
    return GetMetric(m, metric);
}

void
SwitchCostParameters::Validate() const
{
    // the option and its text as typed, or the field's name and its value
    auto fail = [](const std::optional<Option>& option,
                   const std::string& field,
                   double value,
                   const std::string& allowed) {
        if (option)
        {
            ThrowBadParameter(option->name, QuoteText(option->text), allowed);
        }
        ThrowBadParameter(field, FormatNumber(value), allowed);
    };
    if (!std::isfinite(darkTime) || darkTime < 0)
    {
        fail(darkTimeOption, "dark time", darkTime, "a finite number of seconds >= 0 (e.g. 0.025)");
    }
    if (!std::isfinite(unservedFactor) || unservedFactor < 0)
    {
        fail(unservedFactorOption,
             "unserved factor",
             unservedFactor,
             "a finite number >= 0 (1: waiting traffic costs its served cost)");
    }
    if (unservedShare && !(*unservedShare >= 0 && *unservedShare <= 1))
    {
        fail(unservedShareOption,
             "unserved share",
             *unservedShare,
             "a share in [0, 1] (1: the whole fabric is dark), or unset for the share of the load "
             "on the added circuits");
    }
}

void
PolicyCostRates::Validate() const
{
    for (WorkloadMode mode : ALL_MODES)
    {
        auto m = static_cast<std::size_t>(mode);
        if (!std::isfinite(rate[m]) || rate[m] < 0)
        {
            ThrowBadParameter("cost rate (" + ToString(mode) + ")",
                              FormatNumber(rate[m]),
                              "a finite number >= 0");
        }
        if (!(unservedShare[m] >= 0 && unservedShare[m] <= 1))
        {
            ThrowBadParameter("unserved share (" + ToString(mode) + ")",
                              FormatNumber(unservedShare[m]),
                              "a share in [0, 1]");
        }
    }
}

double
SwitchPenalty(const PolicyCostRates& p, WorkloadMode entered, const SwitchCostParameters& params)
{
    auto m = static_cast<std::size_t>(entered);
    if (!p.switchesInto[m])
    {
        return 0;
    }
    double share = params.unservedShare ? *params.unservedShare : p.unservedShare[m];
    return params.darkTime * share * params.unservedFactor * p.rate[m];
}

double
MaxDrawnCostRate(uint32_t nodes, uint64_t flows)
{
    return std::max(1.0,
                    static_cast<double>(nodes > 0 ? nodes - 1 : 0) * static_cast<double>(flows));
}

double
MaxCyclePenalty(const SwitchCostParameters& params, double maxRate)
{
    const double share = params.unservedShare ? *params.unservedShare : 1.0;
    return 2 * params.darkTime * share * params.unservedFactor * maxRate;
}

double
ScheduleCost::PerUnitTime() const
{
    return duration > 0 ? total / duration : 0.0;
}

ScheduleCost
IntegrateSchedule(const PolicyCostRates& p,
                  const ModeSchedule& schedule,
                  const SwitchCostParameters& params)
{
    NS_LOG_FUNCTION(schedule.size());
    p.Validate();
    params.Validate();
    ValidateSchedule("schedule", schedule);
    ScheduleCost cost;
    for (std::size_t k = 0; k < schedule.size(); ++k)
    {
        const ModeSchedule::Period& period = schedule[k];
        cost.duration += period.duration;
        cost.servedCost += p.rate[static_cast<std::size_t>(period.mode)] * period.duration;
        if (k > 0 && period.mode != schedule[k - 1].mode &&
            p.switchesInto[static_cast<std::size_t>(period.mode)])
        {
            ++cost.switches;
            cost.penalty += SwitchPenalty(p, period.mode, params);
        }
    }
    cost.total = cost.servedCost + cost.penalty;
    if (!std::isfinite(cost.total))
    {
        ThrowBadParameter("schedule",
                          FormatSchedule(schedule),
                          "the integrated cost overflows a double; use shorter durations");
    }
    NS_LOG_INFO("served " << cost.servedCost << " switches " << cost.switches << " penalty "
                          << cost.penalty);
    return cost;
}

double
CycleCost::PerUnitTime(double duration) const
{
    return (duration * rateSum + penaltySum) / (2 * duration);
}

CycleCost
ComputeCycleCost(const PolicyCostRates& p, const SwitchCostParameters& params)
{
    p.Validate();
    params.Validate();
    CycleCost c;
    for (WorkloadMode mode : ALL_MODES)
    {
        c.rateSum += p.rate[static_cast<std::size_t>(mode)];
        c.penaltySum += SwitchPenalty(p, mode, params);
    }
    return c;
}

std::string
BreakEven::ToText() const
{
    switch (kind)
    {
    case AT: {
        std::ostringstream os;
        os << duration << " s";
        return os.str();
    }
    case ALWAYS:
        return "always";
    case NEVER:
        return "never";
    }
    return "unknown";
}

BreakEven
ComputeBreakEven(const CycleCost& switching, const CycleCost& other)
{
    NS_LOG_FUNCTION(switching.rateSum << switching.penaltySum << other.rateSum << other.penaltySum);
    for (double v : {switching.rateSum, switching.penaltySum, other.rateSum, other.penaltySum})
    {
        if (!std::isfinite(v))
        {
            ThrowBadParameter("cycle cost", FormatNumber(v), "finite rates and penalties");
        }
    }
    BreakEven b;
    b.rateSaving = other.rateSum - switching.rateSum;
    b.extraPenalty = switching.penaltySum - other.penaltySum;
    if (!(b.rateSaving > 0))
    {
        b.kind = BreakEven::NEVER;
        b.duration = std::numeric_limits<double>::infinity();
    }
    else if (b.extraPenalty <= 0)
    {
        b.kind = BreakEven::ALWAYS;
        b.duration = 0;
    }
    else
    {
        b.kind = BreakEven::AT;
        b.duration = b.extraPenalty / b.rateSaving;
    }
    return b;
}

double
LoadShareOfCircuits(const CircuitGraph& graph,
                    const std::vector<double>& load,
                    const std::vector<Circuit>& circuits)
{
    NS_LOG_FUNCTION(graph.GetNCircuits() << load.size() << circuits.size());
    const std::vector<Circuit>& all = graph.GetCircuits();
    if (load.size() != all.size())
    {
        ThrowBadParameter("load",
                          std::to_string(load.size()) + " entries",
                          "one entry per circuit of the graph (" + std::to_string(all.size()) +
                              ")");
    }

    struct Pair
    {
        uint64_t copies{0}; //!< circuits of the graph joining the pair
        uint64_t listed{0}; //!< of them, listed in circuits
        double load{0};     //!< summed load of the pair's circuits
    };

    std::map<std::pair<uint32_t, uint32_t>, Pair> pairs;
    double total = 0;
    for (std::size_t c = 0; c < all.size(); ++c)
    {
        if (!std::isfinite(load[c]) || load[c] < 0)
        {
            ThrowBadParameter("load of circuit " + std::to_string(c),
                              FormatNumber(load[c]),
                              "a finite number >= 0");
        }
        Pair& p = pairs[{all[c].u, all[c].v}];
        ++p.copies;
        p.load += load[c];
        total += load[c];
    }
    for (const Circuit& c : circuits)
    {
        auto it = pairs.find({std::min(c.u, c.v), std::max(c.u, c.v)});
        if (it == pairs.end() || it->second.listed == it->second.copies)
        {
            ThrowBadParameter("circuits",
                              "(" + std::to_string(c.u) + ", " + std::to_string(c.v) + ")",
                              "circuits of the graph, each at most as often as the graph has it");
        }
        ++it->second.listed;
    }
    if (!(total > 0))
    {
        return 0;
    }
    double share = 0;
    for (const auto& [key, p] : pairs)
    {
        if (p.listed > 0)
        {
            share += p.load * static_cast<double>(p.listed) / static_cast<double>(p.copies);
        }
    }
    return std::min(1.0, share / total);
}

} // namespace mose
} // namespace ns3
