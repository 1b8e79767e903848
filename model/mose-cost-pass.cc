/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-cost-pass.h"

#include "ns3/log.h"

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseCostPass");

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
        if (edgeBegin[nodes] - edgeBegin[0] == nodes - 1)
        {
            // a tree (every node but the root has at least one edge, so exactly one; node i's
            // is the destination's (i - 1)-th): C(i) = load + C(next hop), the value of the
            // loop below (0 + x == x and x / 1 == x for the non-negative loads and costs)
            // without its division on the chain of dependent costs. O(nodes).
            const uint32_t* target = edgeTarget + edgeBegin[0] - 1;
            const uint32_t* circuit = edgeCircuit + edgeBegin[0] - 1;
            for (uint32_t i = 1; i < nodes; ++i)
            {
                cost[i] = l[circuit[i]] + cost[target[i]];
            }
        }
        else
        {
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
        }
        for (std::size_t k = run.begin; k < run.end; ++k, ++pairIndex)
        {
            groups.pairs[k].cost = cost[dags.pairNode[pairIndex]];
        }
    }
}

} // namespace mose
} // namespace ns3
