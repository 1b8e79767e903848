/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-load-pass.h"

#include "ns3/log.h"

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseLoadPass");

namespace
{
/// KV and training demand at a node heading to the current destination
struct Acc
{
    double kv; //!< KV demand
    double tr; //!< training demand
};
} // namespace

void
AccumulateLoads(const DemandDags& dags,
                const FlowGroups& groups,
                std::vector<CircuitLoad>& loads,
                std::size_t firstDestination)
{
    NS_LOG_FUNCTION(dags.GetNDestinations() << firstDestination);
    CircuitLoad* load = loads.data();
    const uint32_t* edgeTarget = dags.edgeTarget.data();
    const uint32_t* edgeCircuit = dags.edgeCircuit.data();
    std::vector<Acc> accVec;
    if (firstDestination >= dags.GetNDestinations())
    {
        return;
    }
    std::size_t pairIndex =
        groups.runs[dags.firstRun + firstDestination].begin - groups.runs[dags.firstRun].begin;
    for (std::size_t d = firstDestination; d < dags.GetNDestinations(); ++d)
    {
        const DestinationRun& run = groups.runs[dags.firstRun + d];
        const uint32_t begin = dags.nodeBegin[d];
        const uint32_t nodes = dags.nodeBegin[d + 1] - begin;
        const uint32_t* edgeBegin = dags.edgeBegin.data() + begin;
        accVec.assign(nodes, Acc{0.0, 0.0});
        Acc* acc = accVec.data();
        for (std::size_t k = run.begin; k < run.end; ++k, ++pairIndex)
        {
            const PairDemand& p = groups.pairs[k];
            acc[dags.pairNode[pairIndex]] = Acc{p.demandKv, p.demandTraining};
        }
        if (edgeBegin[nodes] - edgeBegin[0] == nodes - 1)
        {
            // a tree (every node but the root has at least one edge, so exactly one): node i's
            // edge is the (i - 1)-th of the destination's. Farthest first, as below, without
            // the edge offsets; acc[i] is final when node i is reached (its children come
            // after it) and every acc[v] receives the same terms in the same order. O(nodes).
            const uint32_t* target = edgeTarget + edgeBegin[0] - 1;
            const uint32_t* circuit = edgeCircuit + edgeBegin[0] - 1;
            for (uint32_t i = nodes - 1; i > 0; --i)
            {
                const Acc a = acc[i];
                const uint32_t v = target[i];
                const uint32_t c = circuit[i];
                acc[v].kv += a.kv;
                acc[v].tr += a.tr;
                load[c].kv += a.kv;
                load[c].training += a.tr;
            }
            continue;
        }
        // farthest first; node 0 is the destination
        for (uint32_t i = nodes - 1; i > 0; --i)
        {
            const Acc a = acc[i];
            const uint32_t first = edgeBegin[i];
            const uint32_t closer = edgeBegin[i + 1] - first;
            if (closer == 1)
            {
                // a single next hop takes all (x / 1 == x: the same sums as the split below)
                const uint32_t v = edgeTarget[first];
                const uint32_t c = edgeCircuit[first];
                acc[v].kv += a.kv;
                acc[v].tr += a.tr;
                load[c].kv += a.kv;
                load[c].training += a.tr;
                continue;
            }
            const double shareKv = a.kv / closer;
            const double shareTr = a.tr / closer;
            for (uint32_t e = first; e < edgeBegin[i + 1]; ++e)
            {
                const uint32_t v = edgeTarget[e];
                const uint32_t c = edgeCircuit[e];
                acc[v].kv += shareKv;
                acc[v].tr += shareTr;
                load[c].kv += shareKv;
                load[c].training += shareTr;
            }
        }
    }
}

} // namespace mose
} // namespace ns3
