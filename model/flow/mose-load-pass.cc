/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-load-pass.h"

#include "ns3/log.h"

#include <algorithm>

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
AccumulateLoads(const PathSteps& paths,
                const FlowGroups& groups,
                std::vector<CircuitLoad>& loads,
                std::vector<CellDemand>& cells,
                std::size_t firstBatch)
{
    NS_LOG_FUNCTION(paths.GetNBatches() << firstBatch);
    constexpr std::size_t BATCH = LevelSearch::BATCH;
    CircuitLoad* load = loads.data();
    std::size_t pairIndex = 0;
    if (firstBatch < paths.GetNBatches())
    {
        pairIndex =
            groups.runs[paths.GetFirstRun(firstBatch)].begin - groups.runs[paths.firstRun].begin;
    }
    for (std::size_t b = firstBatch; b < paths.GetNBatches(); ++b)
    {
        const std::size_t first = paths.GetFirstRun(b);
        const std::size_t last = paths.GetEndRun(b);
        const std::size_t count = paths.GetNSteps(b);
        // one cell per step and per destination, all zero
        cells.assign(count + BATCH, CellDemand());
        CellDemand* cell = cells.data();
        // the sources' own demand
        for (std::size_t k = first; k < last; ++k)
        {
            const DestinationRun& run = groups.runs[k];
            for (std::size_t i = run.begin; i < run.end; ++i, ++pairIndex)
            {
                const PairDemand& p = groups.pairs[i];
                CellDemand& c = cell[paths.pairStep[pairIndex]];
                c.kv += p.demandKv;
                c.training += p.demandTraining;
            }
        }
        // farthest first: a step's cell is complete when its turn comes
        const PathStep* step = paths.steps.data() + paths.batchBegin[b];
        const uint32_t* next = paths.stepNext.data() + paths.batchBegin[b];
        for (std::size_t i = 0; i < count; ++i)
        {
            const CellDemand a = cell[i];
            CellDemand& to = cell[next[i]];
            to.kv += a.kv;
            to.training += a.training;
            load[step[i].circuit].kv += a.kv;
            load[step[i].circuit].training += a.training;
        }
    }
}

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
