/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-flow-experiment-helper.h"

#include "mose-seed-pool.h"

#include "ns3/average.h"
#include "ns3/log.h"
#include "ns3/mose-break-even.h"
#include "ns3/mose-error.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-routing.h"

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseFlowExperimentHelper");

FlowExperimentHelper::FlowExperimentHelper(const FlowExperimentConfig& config, const SeedPlan& plan)
    : m_builder(config),
      m_plan(plan)
{
    NS_LOG_FUNCTION(this << plan.seeds << plan.threads);
    m_plan.Validate(config.firstRun);
}

const FlowExperimentConfig&
FlowExperimentHelper::GetConfig() const
{
    return m_builder.GetConfig();
}

const SeedPlan&
FlowExperimentHelper::GetSeedPlan() const
{
    return m_plan;
}

const ScenarioBuilder&
FlowExperimentHelper::GetScenarioBuilder() const
{
    return m_builder;
}

Scenario
FlowExperimentHelper::BuildScenario(uint64_t run) const
{
    NS_LOG_FUNCTION(this << run);
    return m_builder.Build(run);
}

uint32_t
FlowExperimentHelper::GetSeedsDone() const
{
    return m_seedsDone;
}

std::size_t
FlowExperimentHelper::Index(uint32_t seed, WorkloadMode mode, Policy policy) const
{
    return (static_cast<std::size_t>(seed) * ALL_MODES.size() + static_cast<std::size_t>(mode)) *
               ALL_POLICIES.size() +
           static_cast<std::size_t>(policy);
}

void
FlowExperimentHelper::EvaluateScenario(uint32_t seed, const Scenario& s)
{
    NS_LOG_FUNCTION(this << seed);
    for (WorkloadMode mode : ALL_MODES)
    {
        auto m = static_cast<std::size_t>(mode);
        // each distinct graph once, in policy order; policies sharing a template share it
        std::vector<std::pair<const CircuitGraph*, Policy>> done;
        for (Policy p : ALL_POLICIES)
        {
            const CircuitGraph& graph = s.GetGraph(p, mode);
            auto same = std::find_if(done.begin(), done.end(), [&graph](const auto& d) {
                return d.first == &graph;
            });
            if (same != done.end())
            {
                m_results[Index(seed, mode, p)] = m_results[Index(seed, mode, same->second)];
                continue;
            }
            ShortestPathRouting routing(graph, GetConfig().routing, s.routingSeed);
            m_results[Index(seed, mode, p)] = EvaluateFlows(routing, s.flows[m]);
            done.emplace_back(&graph, p);
        }
        // the switch into the mode, while every graph's loads are at hand
        for (Policy p : ALL_POLICIES)
        {
            const CircuitGraph& graph = s.GetGraph(p, mode);
            const CircuitDiff diff = DiffCircuits(s.GetPreviousGraph(p, mode), graph);
            SwitchCount& sw = m_switches[Index(seed, mode, p)];
            sw.kept = diff.kept.size();
            sw.added = diff.added.size();
            sw.removed = diff.removed.size();
            sw.addedLoadShare =
                diff.added.empty()
                    ? 0.0
                    : LoadShareOfCircuits(graph, m_results[Index(seed, mode, p)].load, diff.added);
        }
        if (seed > 0)
        {
            // keep per-circuit data for seed 0 only: memory stays O(seeds) scalars
            for (Policy p : ALL_POLICIES)
            {
                FlowMetrics& metrics = m_results[Index(seed, mode, p)];
                metrics.load = std::vector<double>();
                metrics.loadKv = std::vector<double>();
                metrics.loadTraining = std::vector<double>();
            }
        }
    }
}

void
FlowExperimentHelper::Allocate()
{
    m_results.assign(static_cast<std::size_t>(m_plan.seeds) * ALL_MODES.size() *
                         ALL_POLICIES.size(),
                     FlowMetrics());
    m_switches.assign(m_results.size(), SwitchCount());
    m_seedsDone = 0;
}

void
FlowExperimentHelper::Run(const std::function<void(uint32_t, uint32_t)>& progress)
{
    NS_LOG_FUNCTION(this);
    const FlowExperimentConfig& c = GetConfig();
    Allocate();
    // Seeds are independent: workers take the next seed, draw its scenario (the builder creates
    // its ns-3 random streams under its own lock, and each stream is drawn by one thread only)
    // and evaluate it (the evaluation touches no ns-3 object). Each seed's results go to their
    // own slots, so the results do not depend on the number of threads or on scheduling.
    ForEachSeed(
        m_plan.seeds,
        m_plan.threads,
        [this, &c](uint32_t seed) { EvaluateScenario(seed, m_builder.Build(c.firstRun + seed)); },
        progress);
    m_seedsDone = m_plan.seeds;
    LogSeeds();
}

void
FlowExperimentHelper::LogSeeds() const
{
    const FlowExperimentConfig& c = GetConfig();
    for (uint32_t seed = 0; seed < m_seedsDone; ++seed)
    {
        for (WorkloadMode mode : ALL_MODES)
        {
            for (Policy p : ALL_POLICIES)
            {
                NS_LOG_INFO("run " << c.firstRun + seed << " " << ToString(mode) << " "
                                   << ToString(p) << " maxLoad "
                                   << m_results[Index(seed, mode, p)].all.maxLoad);
            }
        }
    }
}

namespace
{

/// \param mode a mode \param policy a policy \return the prefix of their figures in a record
std::string
SeedPrefix(WorkloadMode mode, Policy policy)
{
    return "m" + std::to_string(static_cast<uint32_t>(mode)) + ".p" +
           std::to_string(static_cast<uint32_t>(policy));
}

} // namespace

void
FlowExperimentHelper::PutSeed(uint32_t seed, RunRecord& record, const RunRecordStore& store) const
{
    for (WorkloadMode mode : ALL_MODES)
    {
        for (Policy p : ALL_POLICIES)
        {
            const std::string prefix = SeedPrefix(mode, p);
            const std::size_t i = Index(seed, mode, p);
            SeedList::PutMetrics(record, store, prefix, m_results[i]);
            record.Set(prefix + ".kept", m_switches[i].kept);
            record.Set(prefix + ".added", m_switches[i].added);
            record.Set(prefix + ".removed", m_switches[i].removed);
            record.Set(prefix + ".addedLoadShare", m_switches[i].addedLoadShare);
        }
    }
}

void
FlowExperimentHelper::GetSeed(uint32_t seed, const RunRecord& record)
{
    for (WorkloadMode mode : ALL_MODES)
    {
        for (Policy p : ALL_POLICIES)
        {
            const std::string prefix = SeedPrefix(mode, p);
            const std::size_t i = Index(seed, mode, p);
            m_results[i] = SeedList::GetMetrics(record, prefix);
            m_switches[i].kept = record.GetUnsigned(prefix + ".kept");
            m_switches[i].added = record.GetUnsigned(prefix + ".added");
            m_switches[i].removed = record.GetUnsigned(prefix + ".removed");
            m_switches[i].addedLoadShare = record.GetReal(prefix + ".addedLoadShare");
        }
    }
}

bool
FlowExperimentHelper::Run(const RunListOptions& options,
                          const std::string& program,
                          std::ostream& os)
{
    NS_LOG_FUNCTION(this << options.jobs << program);
    const FlowExperimentConfig& c = GetConfig();
    Allocate();
    const SeedList list(program, c.firstRun, m_plan.seeds);
    const bool whole = list.Run(
        options,
        [this, &c](uint32_t seed) { EvaluateScenario(seed, m_builder.Build(c.firstRun + seed)); },
        [this](uint32_t seed, RunRecord& record, const RunRecordStore& store) {
            PutSeed(seed, record, store);
        },
        [this](uint32_t seed, const RunRecord& record) { GetSeed(seed, record); },
        os);
    if (!whole)
    {
        Allocate(); // a part: its seeds are in their records, the study has none
        return false;
    }
    m_seedsDone = m_plan.seeds;
    LogSeeds();
    return true;
}

const FlowMetrics&
FlowExperimentHelper::GetMetrics(uint32_t seed, WorkloadMode mode, Policy policy) const
{
    if (seed >= m_seedsDone)
    {
        throw Error("seed " + std::to_string(seed) + " has not been evaluated (" +
                    std::to_string(m_seedsDone) + " seeds done)");
    }
    return m_results[Index(seed, mode, policy)];
}

Summary
FlowExperimentHelper::Summarize(WorkloadMode mode, Policy policy, Metric metric) const
{
    Average<double> avg;
    for (uint32_t seed = 0; seed < m_seedsDone; ++seed)
    {
        avg.Update(GetMetric(m_results[Index(seed, mode, policy)], metric));
    }
    return mose::Summarize(avg);
}

const SwitchCount&
FlowExperimentHelper::GetSwitchCount(uint32_t seed, WorkloadMode mode, Policy policy) const
{
    GetMetrics(seed, mode, policy); // checks the seed
    return m_switches[Index(seed, mode, policy)];
}

SwitchSummary
FlowExperimentHelper::SummarizeSwitch(WorkloadMode mode, Policy policy) const
{
    Average<double> kept;
    Average<double> added;
    for (uint32_t seed = 0; seed < m_seedsDone; ++seed)
    {
        kept.Update(static_cast<double>(m_switches[Index(seed, mode, policy)].kept));
        added.Update(static_cast<double>(m_switches[Index(seed, mode, policy)].added));
    }
    return SwitchSummary{mose::Summarize(kept), mose::Summarize(added)};
}

double
FlowExperimentHelper::Reduction(WorkloadMode mode,
                                Policy policy,
                                Policy baseline,
                                Metric metric) const
{
    double base = Summarize(mode, baseline, metric).mean;
    double ours = Summarize(mode, policy, metric).mean;
    return base > 0 ? 100.0 * (1.0 - ours / base) : 0.0;
}

} // namespace mose
} // namespace ns3
