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
    // every cell read is written first in the same batch: no fill
    cells.resize(static_cast<std::size_t>(paths.nodes) * BATCH);
    CellCost* cell = cells.data();
    const double* l = load.data();
    for (std::size_t b = 0; b < paths.GetNBatches(); ++b)
    {
        const std::size_t first = paths.firstRun + b * BATCH;
        const std::size_t last = std::min(first + BATCH, paths.firstRun + paths.destinations);
        for (std::size_t k = first; k < last; ++k)
        {
            cell[static_cast<std::size_t>(groups.runs[k].destination) * BATCH + (k - first)] =
                CellCost{0.0, 0};
        }
        // nearest first: the next hop's sums are known
        const PathStep* begin = paths.steps.data() + paths.batchBegin[b];
        for (const PathStep* step = paths.steps.data() + paths.batchBegin[b + 1]; step-- != begin;)
        {
            const CellCost& to = cell[static_cast<std::size_t>(step->next) * BATCH + step->slot];
            cell[static_cast<std::size_t>(step->node) * BATCH + step->slot] =
                CellCost{l[step->circuit] + to.cost, to.hops + 1};
        }
        for (std::size_t k = first; k < last; ++k)
        {
            const std::size_t slot = k - first;
            const DestinationRun& run = groups.runs[k];
            for (std::size_t i = run.begin; i < run.end; ++i)
            {
                PairDemand& p = groups.pairs[i];
                const CellCost& c = cell[static_cast<std::size_t>(p.src) * BATCH + slot];
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
