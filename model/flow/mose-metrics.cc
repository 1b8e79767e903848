/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-metrics.h"

#include "mose-cost-pass.h"
#include "mose-destination-sweep.h"
#include "mose-flow-grouping.h"
#include "mose-load-pass.h"
#include "mose-metrics-summary.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseMetrics");

const std::vector<EnumEntry<Metric>>&
EnumTable<Metric>::Get()
{
    using M = Metric;
    static const std::vector<EnumEntry<Metric>> names = {
        {M::MAX_LOAD, "max_load", {"max-load"}},
        {M::P95_LOAD, "p95_load", {"p95-load"}},
        {M::AVG_HOP, "avg_hop", {"avg-hop"}},
        {M::AVG_COST, "avg_cost", {"avg-cost"}},
        {M::P95_COST, "p95_cost", {"p95-cost"}},
        {M::DIRECT_KV, "direct_kv", {}},
        {M::KV_THREE_PLUS, "kv_3plus", {}},
        {M::KV_MAX_LOAD, "kv_max_load", {}},
        {M::TR_MAX_LOAD, "tr_max_load", {}},
        {M::KV_AVG_COST, "kv_avg_cost", {}},
        {M::KV_P95_COST, "kv_p95_cost", {}},
        {M::TR_AVG_COST, "tr_avg_cost", {}},
        {M::TR_P95_COST, "tr_p95_cost", {}},
    };
    return names;
}

double
GetMetric(const FlowMetrics& m, Metric metric)
{
    switch (metric)
    {
    case Metric::MAX_LOAD:
        return m.all.maxLoad;
    case Metric::P95_LOAD:
        return m.all.p95Load;
    case Metric::AVG_HOP:
        return m.all.avgHop;
    case Metric::AVG_COST:
        return m.all.avgCost;
    case Metric::P95_COST:
        return m.all.p95Cost;
    case Metric::DIRECT_KV:
        return m.directKv;
    case Metric::KV_THREE_PLUS:
        return m.kvThreePlus;
    case Metric::KV_MAX_LOAD:
        return m.kv.maxLoad;
    case Metric::TR_MAX_LOAD:
        return m.training.maxLoad;
    case Metric::KV_AVG_COST:
        return m.kv.avgCost;
    case Metric::KV_P95_COST:
        return m.kv.p95Cost;
    case Metric::TR_AVG_COST:
        return m.training.avgCost;
    case Metric::TR_P95_COST:
        return m.training.p95Cost;
    }
    ThrowBadParameter("metric",
                      std::to_string(static_cast<int>(metric)),
                      "one of " + AllowedEnumNames<Metric>());
}

namespace
{

/// \return the calling thread's evaluator, shared by both EvaluateFlows() overloads
FlowEvaluator&
ThreadEvaluator()
{
    thread_local FlowEvaluator evaluator;
    return evaluator;
}

} // namespace

FlowMetrics
FlowEvaluator::Evaluate(const ShortestPathRouting& routing,
                        const std::vector<Flow>& flows,
                        std::vector<FlowResult>* perFlow)
{
    NS_LOG_FUNCTION(this << &routing << flows.size());
    const CircuitGraph& graph = routing.GetGraph();
    const uint32_t n = graph.GetNNodes();
    const uint32_t m = graph.GetNCircuits();
    FlowGroups& groups = m_groups;
    GroupFlowsByDestination(flows, n, perFlow != nullptr, groups);

    FlowMetrics r;
    std::vector<CircuitLoad>& loads = m_loads;
    loads.assign(m, CircuitLoad());
    DestinationSweep& sweep = m_sweep;
    sweep.SetRouting(routing);
    const std::size_t runs = groups.runs.size();
    // the total loads, once all destinations are in
    auto totals = [&r, &loads, m]() {
        r.loadKv.resize(m);
        r.loadTraining.resize(m);
        r.load.resize(m);
        for (uint32_t c = 0; c < m; ++c)
        {
            r.loadKv[c] = loads[c].kv;
            r.loadTraining[c] = loads[c].training;
            r.load[c] = loads[c].kv + loads[c].training;
        }
    };
    if (routing.GetRule() != RoutingRule::ECMP)
    {
        // one sweep, 64 destinations at a time, each batch's loads added while its steps are
        // in cache; the steps of all destinations are kept for the cost pass
        PathSteps& paths = m_paths;
        paths.Clear(0);
        for (std::size_t first = 0; first < runs; first += LevelSearch::BATCH)
        {
            const std::size_t held = paths.GetNBatches();
            sweep.Route(groups, first, std::min(runs, first + LevelSearch::BATCH), paths, true);
            AccumulateLoads(paths, groups, loads, m_demand, held);
        }
        totals();
        ComputePairCosts(paths, r.load, m_cost, groups);
    }
    else
    {
        // ECMP DAGs can hold most of the graph per destination: one batch at a time, twice
        DemandDags& dags = m_dags;
        for (std::size_t first = 0; first < runs; first += LevelSearch::BATCH)
        {
            sweep.Route(groups, first, std::min(runs, first + LevelSearch::BATCH), dags);
            AccumulateLoads(dags, groups, loads);
        }
        totals();
        for (std::size_t first = 0; first < runs; first += LevelSearch::BATCH)
        {
            sweep.Route(groups, first, std::min(runs, first + LevelSearch::BATCH), dags);
            ComputePairCosts(dags, r.load, groups);
        }
    }
    SummariseFlows(groups, r);

    if (perFlow)
    {
        perFlow->resize(flows.size());
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            const PairDemand& p = groups.pairs[groups.flowPair[i]];
            (*perFlow)[i] = FlowResult{p.cost, p.hops};
        }
    }
    return r;
}

uint64_t
FlowEvaluator::EstimateBytes(uint64_t nodes, uint64_t flows)
{
    NS_LOG_FUNCTION(nodes << flows);
    // the step numbers (4), RANDOM_SHORTEST_PATH's counts (8) and union lists (4)
    constexpr uint64_t PER_CELL = 16;
    constexpr uint64_t PER_FLOW = sizeof(SortedFlow) + sizeof(PairDemand);
    constexpr uint64_t CELLS_PER_NODE = LevelSearch::BATCH;
    const uint64_t perNode = CELLS_PER_NODE * PER_CELL;
    if (nodes > UINT64_MAX / 2 / perNode || flows > UINT64_MAX / 2 / PER_FLOW)
    {
        return UINT64_MAX;
    }
    return nodes * perNode + flows * PER_FLOW;
}

FlowMetrics
EvaluateFlows(const ShortestPathRouting& routing, const std::vector<Flow>& flows)
{
    NS_LOG_FUNCTION(&routing << flows.size());
    return ThreadEvaluator().Evaluate(routing, flows, nullptr);
}

FlowMetrics
EvaluateFlows(const ShortestPathRouting& routing,
              const std::vector<Flow>& flows,
              std::vector<FlowResult>& perFlow)
{
    NS_LOG_FUNCTION(&routing << flows.size());
    return ThreadEvaluator().Evaluate(routing, flows, &perFlow);
}

} // namespace mose
} // namespace ns3
