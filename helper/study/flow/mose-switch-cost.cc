/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-switch-cost.h"

#include "ns3/average.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseSwitchCost");

SwitchCostStudy::SwitchCostStudy(const FlowExperimentConfig& config,
                                 const SeedPlan& plan,
                                 Metric metric)
    : m_study(config, plan),
      m_metric(metric)
{
    NS_LOG_FUNCTION(this << ToString(metric));
}

const FlowExperimentConfig&
SwitchCostStudy::GetConfig() const
{
    return m_study.GetConfig();
}

Metric
SwitchCostStudy::GetMetric() const
{
    return m_metric;
}

const FlowExperimentHelper&
SwitchCostStudy::GetStudy() const
{
    return m_study;
}

uint32_t
SwitchCostStudy::GetSeedsDone() const
{
    return static_cast<uint32_t>(m_seeds.size());
}

const SwitchCostSeed&
SwitchCostStudy::GetSeed(uint32_t seed) const
{
    if (seed >= m_seeds.size())
    {
        throw Error("seed " + std::to_string(seed) + " has not been analysed (" +
                    std::to_string(m_seeds.size()) + " seeds done)");
    }
    return m_seeds[seed];
}

SwitchCostSeed
SwitchCostStudy::AnalyseSeed(uint32_t seed) const
{
    NS_LOG_FUNCTION(this << seed);
    SwitchCostSeed out;
    out.run = GetConfig().firstRun + seed;
    for (std::size_t pi = 0; pi < ALL_POLICIES.size(); ++pi)
    {
        const Policy policy = ALL_POLICIES[pi];
        PolicyCostRates& rates = out.policies[pi];
        for (WorkloadMode mode : ALL_MODES)
        {
            const auto m = static_cast<std::size_t>(mode);
            rates.rate[m] = GetSwitchCostRate(m_study.GetMetrics(seed, mode, policy), m_metric);
            const SwitchCount& sw = m_study.GetSwitchCount(seed, mode, policy);
            SwitchCircuits& counts = out.circuits[pi][m];
            counts.kept = static_cast<uint32_t>(sw.kept);
            counts.added = static_cast<uint32_t>(sw.added);
            counts.removed = static_cast<uint32_t>(sw.removed);
            counts.circuits = counts.kept + counts.added; // DiffCircuits: kept + added = entered
            rates.switchesInto[m] = sw.added != 0 || sw.removed != 0;
            rates.unservedShare[m] = rates.switchesInto[m] ? sw.addedLoadShare : 0.0;
            NS_LOG_INFO("run " << out.run << " " << ToString(policy) << " into " << ToString(mode)
                               << ": kept " << counts.kept << " added " << counts.added
                               << " unserved share " << rates.unservedShare[m]);
        }
    }
    return out;
}

void
SwitchCostStudy::Run(const std::function<void(uint32_t, uint32_t)>& progress)
{
    NS_LOG_FUNCTION(this);
    m_seeds.clear();
    m_study.Run(progress);
    AnalyseSeeds();
}

bool
SwitchCostStudy::Run(const RunListOptions& options, const std::string& program, std::ostream& os)
{
    NS_LOG_FUNCTION(this << program);
    m_seeds.clear();
    if (!m_study.Run(options, program, os))
    {
        return false;
    }
    AnalyseSeeds();
    return true;
}

void
SwitchCostStudy::AnalyseSeeds()
{
    // the study filed every seed's rates, switch counts and unserved shares: read them out
    for (uint32_t seed = 0; seed < m_study.GetSeedsDone(); ++seed)
    {
        m_seeds.push_back(AnalyseSeed(seed));
    }
}

Summary
SwitchCostStudy::Summarize(const std::function<double(const SwitchCostSeed&)>& f) const
{
    Average<double> avg;
    for (const SwitchCostSeed& s : m_seeds)
    {
        avg.Update(f(s));
    }
    return mose::Summarize(avg);
}

Summary
SwitchCostStudy::SummarizeRate(Policy policy, WorkloadMode mode) const
{
    return Summarize([policy, mode](const SwitchCostSeed& s) {
        return s.policies[static_cast<std::size_t>(policy)].rate[static_cast<std::size_t>(mode)];
    });
}

Summary
SwitchCostStudy::SummarizeUnservedShare(Policy policy,
                                        WorkloadMode mode,
                                        const SwitchCostParameters* params) const
{
    const bool set = params != nullptr && params->unservedShare.has_value();
    const double value = set ? *params->unservedShare : 0.0;
    return Summarize([policy, mode, set, value](const SwitchCostSeed& s) {
        const PolicyCostRates& p = s.policies[static_cast<std::size_t>(policy)];
        const auto m = static_cast<std::size_t>(mode);
        if (set)
        {
            return p.switchesInto[m] ? value : 0.0;
        }
        return p.unservedShare[m];
    });
}

Summary
SwitchCostStudy::SummarizeCircuits(Policy policy, WorkloadMode mode, bool kept) const
{
    return Summarize([policy, mode, kept](const SwitchCostSeed& s) {
        const SwitchCircuits& c =
            s.circuits[static_cast<std::size_t>(policy)][static_cast<std::size_t>(mode)];
        return static_cast<double>(kept ? c.kept : c.added);
    });
}

Summary
SwitchCostStudy::SummarizePenalty(Policy policy,
                                  WorkloadMode mode,
                                  const SwitchCostParameters& params) const
{
    params.Validate();
    return Summarize([policy, mode, &params](const SwitchCostSeed& s) {
        return SwitchPenalty(s.policies[static_cast<std::size_t>(policy)], mode, params);
    });
}

Summary
SwitchCostStudy::SummarizeSchedule(Policy policy,
                                   const ModeSchedule& schedule,
                                   const SwitchCostParameters& params,
                                   Summary* perUnitTime,
                                   Summary* switches) const
{
    NS_LOG_FUNCTION(this << ToString(policy) << schedule.size());
    std::vector<ScheduleCost> costs;
    costs.reserve(m_seeds.size());
    for (const SwitchCostSeed& s : m_seeds)
    {
        costs.push_back(
            IntegrateSchedule(s.policies[static_cast<std::size_t>(policy)], schedule, params));
    }
    auto over = [&costs](const std::function<double(const ScheduleCost&)>& f) {
        Average<double> avg;
        for (const ScheduleCost& c : costs)
        {
            avg.Update(f(c));
        }
        return mose::Summarize(avg);
    };
    if (perUnitTime)
    {
        *perUnitTime = over([](const ScheduleCost& c) { return c.PerUnitTime(); });
    }
    if (switches)
    {
        *switches = over([](const ScheduleCost& c) { return static_cast<double>(c.switches); });
    }
    return over([](const ScheduleCost& c) { return c.total; });
}

CycleCost
SwitchCostStudy::MeanCycleCost(Policy policy, const SwitchCostParameters& params) const
{
    CycleCost mean;
    if (m_seeds.empty())
    {
        return mean;
    }
    for (const SwitchCostSeed& s : m_seeds)
    {
        CycleCost c = ComputeCycleCost(s.policies[static_cast<std::size_t>(policy)], params);
        mean.rateSum += c.rateSum;
        mean.penaltySum += c.penaltySum;
    }
    mean.rateSum /= static_cast<double>(m_seeds.size());
    mean.penaltySum /= static_cast<double>(m_seeds.size());
    return mean;
}

BreakEvenSummary
SwitchCostStudy::SummarizeBreakEven(Policy switching,
                                    Policy other,
                                    const SwitchCostParameters& params) const
{
    NS_LOG_FUNCTION(this << ToString(switching) << ToString(other));
    BreakEvenSummary out;
    out.ofMeans = ComputeBreakEven(MeanCycleCost(switching, params), MeanCycleCost(other, params));
    Average<double> avg;
    for (const SwitchCostSeed& s : m_seeds)
    {
        BreakEven b = ComputeBreakEven(
            ComputeCycleCost(s.policies[static_cast<std::size_t>(switching)], params),
            ComputeCycleCost(s.policies[static_cast<std::size_t>(other)], params));
        switch (b.kind)
        {
        case BreakEven::AT:
            avg.Update(b.duration);
            break;
        case BreakEven::ALWAYS:
            ++out.always;
            break;
        case BreakEven::NEVER:
            ++out.never;
            break;
        }
    }
    out.perSeed = mose::Summarize(avg);
    return out;
}

} // namespace mose
} // namespace ns3
