/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-partition.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>
#include <limits>
#include <metis.h>
#include <string>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MosePartition");

namespace
{

/// METIS's random seed: fixed, so that the same graph gives the same placement
constexpr idx_t METIS_SEED = 1;
/// Partitionings METIS computes from different starts, keeping the one of fewest cut edges (8:
/// 2-8 % fewer circuits cut than 1 on the 1024-group templates at R = 2 and 4)
constexpr idx_t METIS_NCUTS = 8;

/// The graph as METIS reads it: CSR adjacency without self-loops, parallel circuits merged into
/// one edge weighted by their number
struct MetisGraph
{
    std::vector<idx_t> xadj;   //!< per node, where its neighbours start in adjncy (N + 1)
    std::vector<idx_t> adjncy; //!< neighbours, both directions of every edge
    std::vector<idx_t> adjwgt; //!< the weight of each entry of adjncy
};

MetisGraph
ToMetisGraph(const CircuitGraph& graph)
{
    MetisGraph m;
    const uint32_t n = graph.GetNNodes();
    m.xadj.reserve(n + 1);
    m.xadj.push_back(0);
    for (uint32_t u = 0; u < n; ++u)
    {
        for (uint32_t v : graph.GetNeighbours(u)) // increasing order, repeats adjacent
        {
            if (v == u)
            {
                continue;
            }
            if (static_cast<size_t>(m.xadj.back()) < m.adjncy.size() &&
                m.adjncy.back() == static_cast<idx_t>(v))
            {
                ++m.adjwgt.back();
            }
            else
            {
                m.adjncy.push_back(static_cast<idx_t>(v));
                m.adjwgt.push_back(1);
            }
        }
        m.xadj.push_back(static_cast<idx_t>(m.adjncy.size()));
    }
    return m;
}

/// The largest METIS ufactor (imbalance, in thousandths) under which no part may exceed
/// ceil(N / R) unit-weight nodes: (N / R) (1 + u / 1000) < ceil(N / R) + 1
idx_t
UfactorFor(uint32_t nodes, uint32_t ranks)
{
    const uint64_t bound = GetMaxNodesPerRank(nodes, ranks);
    const uint64_t slack = 1000 * (static_cast<uint64_t>(ranks) * (bound + 1) - nodes);
    const uint64_t u = (slack - 1) / nodes;
    return static_cast<idx_t>(std::min<uint64_t>(u, std::numeric_limits<idx_t>::max()));
}

/// Where each node is in blocks: node g on rank floor(g R / N)
std::vector<uint32_t>
Blocks(uint32_t nodes, uint32_t ranks)
{
    std::vector<uint32_t> result(nodes);
    for (uint32_t g = 0; g < nodes; ++g)
    {
        result[g] = static_cast<uint32_t>(static_cast<uint64_t>(g) * ranks / nodes);
    }
    return result;
}

/**
 * Moves nodes until every rank holds floor(N / R) to ceil(N / R) of them: each step moves one
 * node from a rank above the bound (or, when none is above but one is below, from a rank above
 * floor(N / R)) to a rank below it (or below ceil(N / R)), the move that adds the fewest cut
 * edges; ties go to the smallest node id, then the smallest rank. Every step brings one rank
 * closer to the bound and none further, so it ends.
 * \return the number of moves
 */
uint32_t
Rebalance(const MetisGraph& m, uint32_t ranks, std::vector<uint32_t>& part)
{
    const uint32_t n = static_cast<uint32_t>(part.size());
    const uint32_t lo = n / ranks;
    const uint32_t hi = GetMaxNodesPerRank(n, ranks);
    std::vector<uint32_t> count(ranks, 0);
    for (uint32_t r : part)
    {
        ++count[r];
    }
    uint32_t moves = 0;
    std::vector<int64_t> link(ranks); // a node's edge weight to each rank
    while (true)
    {
        const bool above =
            std::any_of(count.begin(), count.end(), [hi](uint32_t c) { return c > hi; });
        const bool below =
            std::any_of(count.begin(), count.end(), [lo](uint32_t c) { return c < lo; });
        if (!above && !below)
        {
            return moves;
        }
        const auto isSource = [&](uint32_t r) { return above ? count[r] > hi : count[r] > lo; };
        const auto isTarget = [&](uint32_t r) { return below ? count[r] < lo : count[r] < hi; };
        int64_t bestCost = std::numeric_limits<int64_t>::max();
        uint32_t bestNode = 0;
        uint32_t bestRank = 0;
        for (uint32_t u = 0; u < n; ++u)
        {
            if (!isSource(part[u]))
            {
                continue;
            }
            std::fill(link.begin(), link.end(), 0);
            for (idx_t i = m.xadj[u]; i < m.xadj[u + 1]; ++i)
            {
                link[part[m.adjncy[i]]] += m.adjwgt[i];
            }
            for (uint32_t r = 0; r < ranks; ++r)
            {
                // the edges to the old rank become cut, those to the new one stop being cut
                const int64_t cost = link[part[u]] - link[r];
                if (isTarget(r) && cost < bestCost)
                {
                    bestCost = cost;
                    bestNode = u;
                    bestRank = r;
                }
            }
        }
        NS_ASSERT_MSG(bestCost != std::numeric_limits<int64_t>::max(), "no move found");
        --count[part[bestNode]];
        ++count[bestRank];
        part[bestNode] = bestRank;
        ++moves;
    }
}

/// Throws a mose::Error unless every rank of `part` is < R and holds floor(N / R) to
/// ceil(N / R) nodes
void
CheckBalance(const std::vector<uint32_t>& part, uint32_t ranks, const std::string& what)
{
    const uint32_t n = static_cast<uint32_t>(part.size());
    std::vector<uint32_t> count(ranks, 0);
    for (uint32_t g = 0; g < n; ++g)
    {
        if (part[g] >= ranks)
        {
            throw Error(what + " put node " + std::to_string(g) + " on rank " +
                        std::to_string(part[g]) + "; allowed: ranks 0.." +
                        std::to_string(ranks - 1));
        }
        ++count[part[g]];
    }
    const auto [least, most] = std::minmax_element(count.begin(), count.end());
    if (*most > GetMaxNodesPerRank(n, ranks) || *least < n / ranks)
    {
        throw Error(what + " put " + std::to_string(*most) + " node(s) on rank " +
                    std::to_string(most - count.begin()) + " and " + std::to_string(*least) +
                    " on rank " + std::to_string(least - count.begin()) +
                    "; allowed: " + std::to_string(n / ranks) + " to " +
                    std::to_string(GetMaxNodesPerRank(n, ranks)) +
                    " per rank (N = " + std::to_string(n) + ", R = " + std::to_string(ranks) + ")");
    }
}

/// One METIS partitioner on the graph (m: its METIS form, which METIS reads only), repaired to
/// the bound
GraphPartition
RunMetis(const CircuitGraph& graph, MetisGraph& m, uint32_t ranks, bool recursive)
{
    const uint32_t n = graph.GetNNodes();
    idx_t nvtxs = static_cast<idx_t>(n);
    idx_t ncon = 1;
    idx_t nparts = static_cast<idx_t>(ranks);
    idx_t objval = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_OBJTYPE] = METIS_OBJTYPE_CUT;
    options[METIS_OPTION_NUMBERING] = 0;
    options[METIS_OPTION_SEED] = METIS_SEED;
    options[METIS_OPTION_UFACTOR] = UfactorFor(n, ranks);
    options[METIS_OPTION_NCUTS] = METIS_NCUTS;
    std::vector<idx_t> part(n, 0);
    const char* name = recursive ? "METIS_PartGraphRecursive" : "METIS_PartGraphKway";
    const int status = (recursive ? METIS_PartGraphRecursive : METIS_PartGraphKway)(&nvtxs,
                                                                                    &ncon,
                                                                                    m.xadj.data(),
                                                                                    m.adjncy.data(),
                                                                                    nullptr,
                                                                                    nullptr,
                                                                                    m.adjwgt.data(),
                                                                                    &nparts,
                                                                                    nullptr,
                                                                                    nullptr,
                                                                                    options,
                                                                                    &objval,
                                                                                    part.data());
    if (status != METIS_OK)
    {
        throw Error(std::string(name) + " failed (status " + std::to_string(status) + ") on " +
                    std::to_string(n) + " nodes, " + std::to_string(graph.GetNCircuits()) +
                    " circuits, R = " + std::to_string(ranks));
    }
    GraphPartition result;
    result.ranks.resize(n);
    for (uint32_t g = 0; g < n; ++g)
    {
        if (part[g] < 0 || part[g] >= nparts)
        {
            throw Error(std::string(name) + " put node " + std::to_string(g) + " on rank " +
                        std::to_string(part[g]) + "; allowed: ranks 0.." +
                        std::to_string(ranks - 1));
        }
        result.ranks[g] = static_cast<uint32_t>(part[g]);
    }
    result.nodesRebalanced = Rebalance(m, ranks, result.ranks);
    result.circuitsCut = CountCircuitsCut(graph, result.ranks);
    NS_LOG_INFO(name << ", R = " << ranks << ": " << objval << " cut by METIS, "
                     << result.nodesRebalanced << " node(s) moved to the bound, "
                     << result.circuitsCut << " cut");
    return result;
}

} // namespace

const std::vector<EnumEntry<PartitionMethod>>&
EnumTable<PartitionMethod>::Get()
{
    static const std::vector<EnumEntry<PartitionMethod>> names = {
        {PartitionMethod::BLOCKS, "blocks", {}},
        {PartitionMethod::MIN_CUT, "min-cut", {}},
    };
    return names;
}

uint32_t
GetMaxNodesPerRank(uint32_t nodes, uint32_t ranks)
{
    if (ranks == 0 || ranks > nodes)
    {
        ThrowBadParameter("ranks",
                          std::to_string(ranks),
                          "allowed: 1 <= ranks <= N = " + std::to_string(nodes) +
                              " (at most one rank per node)");
    }
    return static_cast<uint32_t>((static_cast<uint64_t>(nodes) + ranks - 1) / ranks);
}

GraphPartition
PartitionCircuitGraph(const CircuitGraph& graph, uint32_t ranks, PartitionMethod method)
{
    NS_LOG_FUNCTION(graph.GetNNodes() << ranks << ToString(method));
    const uint32_t n = graph.GetNNodes();
    if (n == 0)
    {
        ThrowBadParameter("graph",
                          "a circuit graph of 0 nodes",
                          "allowed: a circuit graph of at least one node");
    }
    GetMaxNodesPerRank(n, ranks); // checks 1 <= ranks <= N
    GraphPartition blocks;
    blocks.ranks = Blocks(n, ranks);
    blocks.circuitsCut = CountCircuitsCut(graph, blocks.ranks);
    if (method == PartitionMethod::BLOCKS || ranks == 1 || ranks == n)
    {
        return blocks; // R = 1 and R = N: every balanced placement is blocks up to relabelling
    }
    MetisGraph m = ToMetisGraph(graph);
    if (m.adjncy.empty())
    {
        return blocks; // nothing to cut
    }
    GraphPartition best = RunMetis(graph, m, ranks, true);
    GraphPartition kway = RunMetis(graph, m, ranks, false);
    if (kway.circuitsCut < best.circuitsCut)
    {
        best = std::move(kway);
    }
    CheckBalance(best.ranks, ranks, "the min-cut partition");
    return best;
}

uint32_t
CountCircuitsCut(const CircuitGraph& graph, const std::vector<uint32_t>& ranks)
{
    if (ranks.size() != graph.GetNNodes())
    {
        ThrowBadParameter("ranks",
                          "a list of " + std::to_string(ranks.size()) + " rank(s)",
                          "allowed: one rank per node, N = " + std::to_string(graph.GetNNodes()));
    }
    uint32_t cut = 0;
    for (const Circuit& c : graph.GetCircuits())
    {
        if (ranks[c.u] != ranks[c.v])
        {
            ++cut;
        }
    }
    return cut;
}

} // namespace mose
} // namespace ns3
