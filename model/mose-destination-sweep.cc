/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-destination-sweep.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseDestinationSweep");

namespace
{
/// Shorthand for the "none" value of distances
constexpr uint32_t NONE = DestinationTree::UNREACHABLE;
} // namespace

void
DemandDags::Clear(std::size_t first)
{
    NS_LOG_FUNCTION(this << first);
    firstRun = first;
    nodeBegin.assign(1, 0);
    edgeBegin.assign(1, 0);
    edgeTarget.clear();
    edgeCircuit.clear();
    pairNode.clear();
}

DestinationSweep::DestinationSweep(const ShortestPathRouting& routing)
    : m_routing(routing),
      m_graph(routing.GetGraph().GetGraph()),
      m_rule(routing.GetRule()),
      m_lazy(routing),
      m_stamp(routing.GetGraph().GetNNodes(), 0),
      m_local(routing.GetGraph().GetNNodes(), 0)
{
    NS_LOG_FUNCTION(this);
}

void
DestinationSweep::Route(FlowGroups& groups,
                        std::size_t firstRun,
                        std::size_t lastRun,
                        DemandDags& dags)
{
    NS_LOG_FUNCTION(this << firstRun << lastRun);
    dags.Clear(firstRun);
    std::vector<PairDemand>& pairs = groups.pairs;
    for (std::size_t first = firstRun; first < lastRun; first += ShortestPathRouting::BATCH)
    {
        const std::size_t last = std::min<std::size_t>(lastRun, first + ShortestPathRouting::BATCH);
        m_destinations.clear();
        for (std::size_t k = first; k < last; ++k)
        {
            m_destinations.push_back(groups.runs[k].destination);
        }
        const auto count = static_cast<uint32_t>(m_destinations.size());
        m_routing.ComputeTreeBatch(m_destinations.data(), count, m_batch, false);
        for (uint32_t slot = 0; slot < count; ++slot)
        {
            const DestinationRun& run = groups.runs[first + slot];
            for (std::size_t k = run.begin; k < run.end; ++k)
            {
                const uint32_t d = m_batch.GetDistance(pairs[k].src, slot);
                if (d == NONE)
                {
                    ThrowBadFlow(
                        pairs[k].firstFlow,
                        "dst = " + std::to_string(pairs[k].dst) + " cannot be reached from src = " +
                            std::to_string(pairs[k].src) + " (the graph is not connected)");
                }
                pairs[k].hops = d;
            }
            if (++m_epoch == 0)
            {
                std::fill(m_stamp.begin(), m_stamp.end(), 0);
                m_epoch = 1;
            }
            if (m_rule == RoutingRule::ECMP)
            {
                AddEcmpDag(groups, run, slot, dags);
            }
            else
            {
                if (m_rule == RoutingRule::RANDOM_SHORTEST_PATH)
                {
                    m_lazy.Reset(m_batch, slot);
                }
                AddPathTree(groups, run, slot, dags);
            }
            dags.nodeBegin.push_back(static_cast<uint32_t>(dags.edgeBegin.size() - 1));
        }
    }
}

uint32_t
DestinationSweep::NextHop(uint32_t u, uint32_t slot, uint32_t& circuit)
{
    if (m_rule == RoutingRule::RANDOM_SHORTEST_PATH)
    {
        return m_lazy.Step(u, circuit);
    }
    // the lowest-id closer neighbour: the first one in the id-sorted CSR row
    const uint32_t du = m_batch.Distance(u, slot);
    auto [it, end] = boost::out_edges(u, m_graph);
    while (m_batch.Distance(boost::target(*it, m_graph), slot) + 1 != du)
    {
        ++it;
    }
    circuit = m_graph[*it];
    return static_cast<uint32_t>(boost::target(*it, m_graph));
}

void
DestinationSweep::AddPathTree(const FlowGroups& groups,
                              const DestinationRun& run,
                              uint32_t slot,
                              DemandDags& dags)
{
    const uint32_t epoch = m_epoch;
    uint32_t* stamp = m_stamp.data();
    uint32_t* local = m_local.data();
    // the root: local index 0, no edge
    stamp[run.destination] = epoch;
    local[run.destination] = 0;
    uint32_t nodes = 1;
    dags.edgeBegin.push_back(static_cast<uint32_t>(dags.edgeTarget.size()));
    for (std::size_t k = run.begin; k < run.end; ++k)
    {
        const uint32_t src = groups.pairs[k].src;
        // walk until the path meets the tree (at the latest, at the root)
        m_walk.clear();
        m_walkCircuit.clear();
        uint32_t u = src;
        while (stamp[u] != epoch)
        {
            stamp[u] = epoch;
            m_walk.push_back(u);
            uint32_t circuit = NONE;
            u = NextHop(u, slot, circuit);
            m_walkCircuit.push_back(circuit);
        }
        // append the walk nearest first, so that every node follows its next hop
        uint32_t target = local[u];
        for (std::size_t j = m_walk.size(); j-- > 0;)
        {
            local[m_walk[j]] = nodes++;
            dags.edgeTarget.push_back(target);
            dags.edgeCircuit.push_back(m_walkCircuit[j]);
            dags.edgeBegin.push_back(static_cast<uint32_t>(dags.edgeTarget.size()));
            target = local[m_walk[j]];
        }
        dags.pairNode.push_back(local[src]);
    }
}

void
DestinationSweep::AddEcmpDag(const FlowGroups& groups,
                             const DestinationRun& run,
                             uint32_t slot,
                             DemandDags& dags)
{
    const uint32_t epoch = m_epoch;
    uint32_t* stamp = m_stamp.data();
    const TreeBatch& tb = m_batch;
    const CircuitGraph::Graph& g = m_graph;
    // search from the sources over closer neighbours (depth first, a stack)
    std::vector<uint32_t>& stack = m_sorted; // reused: the stack is empty before sorting
    stack.clear();
    m_walk.clear();
    uint32_t maxDistance = 0;
    for (std::size_t k = run.begin; k < run.end; ++k)
    {
        const uint32_t src = groups.pairs[k].src;
        if (stamp[src] != epoch)
        {
            stamp[src] = epoch;
            stack.push_back(src);
            maxDistance = std::max(maxDistance, tb.Distance(src, slot));
        }
    }
    while (!stack.empty())
    {
        const uint32_t u = stack.back();
        stack.pop_back();
        m_walk.push_back(u);
        const uint32_t du = tb.Distance(u, slot);
        if (du == 0)
        {
            continue;
        }
        for (auto [it, end] = boost::out_edges(u, g); it != end; ++it)
        {
            const uint32_t v = boost::target(*it, g);
            if (stamp[v] != epoch && tb.Distance(v, slot) + 1 == du)
            {
                stamp[v] = epoch;
                stack.push_back(v);
            }
        }
    }
    // counting sort by distance (the destination first); within a distance, discovery order
    m_levelStart.assign(maxDistance + 2, 0);
    for (uint32_t u : m_walk)
    {
        ++m_levelStart[tb.Distance(u, slot) + 1];
    }
    for (uint32_t k = 1; k < m_levelStart.size(); ++k)
    {
        m_levelStart[k] += m_levelStart[k - 1];
    }
    m_sorted.resize(m_walk.size());
    for (uint32_t u : m_walk)
    {
        m_sorted[m_levelStart[tb.Distance(u, slot)]++] = u;
    }
    uint32_t* local = m_local.data();
    for (std::size_t i = 0; i < m_sorted.size(); ++i)
    {
        local[m_sorted[i]] = static_cast<uint32_t>(i);
    }
    // every closer neighbour of a node in the DAG is in the DAG, at a smaller local index
    for (uint32_t u : m_sorted)
    {
        const uint32_t du = tb.Distance(u, slot);
        if (du > 0)
        {
            for (auto [it, end] = boost::out_edges(u, g); it != end; ++it)
            {
                const uint32_t v = boost::target(*it, g);
                if (tb.Distance(v, slot) + 1 == du)
                {
                    dags.edgeTarget.push_back(local[v]);
                    dags.edgeCircuit.push_back(g[*it]);
                }
            }
        }
        dags.edgeBegin.push_back(static_cast<uint32_t>(dags.edgeTarget.size()));
    }
    for (std::size_t k = run.begin; k < run.end; ++k)
    {
        dags.pairNode.push_back(local[groups.pairs[k].src]);
    }
}

} // namespace mose
} // namespace ns3
