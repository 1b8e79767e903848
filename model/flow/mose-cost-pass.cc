/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-cost-pass.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseCostPass");

void
ComputePairCosts(const PathSteps& paths,
                 const std::vector<double>& load,
                 std::vector<CellCost>& cells,
                 FlowGroups& groups)
{
    NS_LOG_FUNCTION(paths.GetNBatches());
    constexpr std::size_t BATCH = LevelSearch::BATCH;
    const double* l = load.data();
    std::size_t pairIndex = 0;
    for (std::size_t b = 0; b < paths.GetNBatches(); ++b)
    {
        const std::size_t first = paths.GetFirstRun(b);
        const std::size_t last = paths.GetEndRun(b);
        const std::size_t count = paths.GetNSteps(b);
        // every cell read is written first: the destinations' now, the steps' nearest first
        cells.resize(count + BATCH);
        CellCost* cell = cells.data();
        for (std::size_t s = 0; s < BATCH; ++s)
        {
            cell[count + s] = CellCost{0.0, 0};
        }
        const PathStep* step = paths.steps.data() + paths.batchBegin[b];
        const uint32_t* next = paths.stepNext.data() + paths.batchBegin[b];
        for (std::size_t i = count; i-- > 0;)
        {
            const CellCost& to = cell[next[i]];
            cell[i] = CellCost{l[step[i].circuit] + to.cost, to.hops + 1};
        }
        for (std::size_t k = first; k < last; ++k)
        {
            const DestinationRun& run = groups.runs[k];
            for (std::size_t i = run.begin; i < run.end; ++i, ++pairIndex)
            {
                PairDemand& p = groups.pairs[i];
                const CellCost& c = cell[paths.pairStep[pairIndex]];
                p.cost = c.cost;
                p.hops = c.hops;
            }
        }
    }
}

void
ComputePairCosts(const DemandDags& dags, const std::vector<double>& load, FlowGroups& groups)
{
    NS_LOG_FUNCTION(dags.GetNDestinations());
    const double* l = load.data();
    const uint32_t* edgeTarget = dags.edgeTarget.data();
    const uint32_t* edgeCircuit = dags.edgeCircuit.data();
    std::vector<double> costVec;
    std::size_t pairIndex = 0;
    for (std::size_t d = 0; d < dags.GetNDestinations(); ++d)
    {
        const DestinationRun& run = groups.runs[dags.firstRun + d];
        const uint32_t begin = dags.nodeBegin[d];
        const uint32_t nodes = dags.nodeBegin[d + 1] - begin;
        const uint32_t* edgeBegin = dags.edgeBegin.data() + begin;
        costVec.resize(nodes);
        double* cost = costVec.data();
        cost[0] = 0.0;
        // nearest first: every closer neighbour's cost is known
        for (uint32_t i = 1; i < nodes; ++i)
        {
            double sum = 0;
            for (uint32_t e = edgeBegin[i]; e < edgeBegin[i + 1]; ++e)
            {
                sum += l[edgeCircuit[e]] + cost[edgeTarget[e]];
            }
            cost[i] = sum / (edgeBegin[i + 1] - edgeBegin[i]);
        }
        for (std::size_t k = run.begin; k < run.end; ++k, ++pairIndex)
        {
            groups.pairs[k].cost = cost[dags.pairNode[pairIndex]];
        }
    }
}

} // namespace mose
} // namespace ns3
