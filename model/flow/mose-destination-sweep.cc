/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-destination-sweep.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseDestinationSweep");

namespace
{
/// Throws the Error of a pair whose source cannot reach its destination
[[noreturn]] void
ThrowUnreachable(const PairDemand& p)
{
    ThrowBadFlow(p.firstFlow,
                 "dst = " + std::to_string(p.dst) + " cannot be reached from src = " +
                     std::to_string(p.src) + " (the graph is not connected)");
}
} // namespace

void
PathSteps::Clear(std::size_t first)
{
    NS_LOG_FUNCTION(this << first);
    firstRun = first;
    destinations = 0;
    batchBegin.assign(1, 0);
    steps.clear();
    stepNext.clear();
    pairStep.clear();
}

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
{
    NS_LOG_FUNCTION(this);
    SetRouting(routing);
}

void
DestinationSweep::SetRouting(const ShortestPathRouting& routing)
{
    NS_LOG_FUNCTION(this << &routing);
    const uint32_t n = routing.GetGraph().GetNNodes();
    m_routing = &routing;
    m_graph = &routing.GetGraph().GetGraph();
    m_rule = routing.GetRule();
    const bool ecmp = m_rule == RoutingRule::ECMP;
    // stamps from an earlier graph must not match: start the epochs again
    m_stamp.assign(ecmp ? n : 0, 0);
    m_epoch = 0;
    m_local.resize(ecmp ? n : 0);
    m_distance.resize(ecmp ? n : 0);
}

void
DestinationSweep::CheckBound(const char* what) const
{
    if (m_routing == nullptr)
    {
        throw Error(std::string("DestinationSweep::") + what + ": no routing (SetRouting())");
    }
}

void
DestinationSweep::SearchBatch(const FlowGroups& groups,
                              std::size_t first,
                              std::size_t last,
                              bool mark)
{
    NS_LOG_FUNCTION(this << first << last << mark);
    m_destinations.clear();
    for (std::size_t k = first; k < last; ++k)
    {
        m_destinations.push_back(groups.runs[k].destination);
    }
    const auto count = static_cast<uint32_t>(m_destinations.size());
    // distances only: random path counts come later, only where the paths need them
    // (LevelSearch::CountPaths(); counting them for every node in the search, or lazily per
    // destination with LazyRandomTree, measured 1.2-2x slower at N = 1024 to 65536)
    m_search.Search(m_routing->GetGraph(), m_destinations.data(), count);
    for (uint32_t slot = 0; slot < count; ++slot)
    {
        const DestinationRun& run = groups.runs[first + slot];
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            const PairDemand& p = groups.pairs[k];
            if (!m_search.Reaches(p.src, slot))
            {
                ThrowUnreachable(p);
            }
            if (mark)
            {
                m_search.MarkSource(p.src, slot);
            }
        }
    }
}

void
DestinationSweep::Route(const FlowGroups& groups,
                        std::size_t firstRun,
                        std::size_t lastRun,
                        PathSteps& paths,
                        bool append)
{
    NS_LOG_FUNCTION(this << firstRun << lastRun << append);
    CheckBound("Route");
    if (m_rule == RoutingRule::ECMP)
    {
        throw Error("DestinationSweep::Route: ECMP routes into DemandDags, not PathSteps");
    }
    if (!append || paths.batchBegin.empty())
    {
        paths.Clear(firstRun);
    }
    else if (paths.firstRun + paths.destinations != firstRun ||
             paths.destinations % LevelSearch::BATCH != 0)
    {
        throw Error("DestinationSweep::Route: appending run " + std::to_string(firstRun) +
                    " after " + std::to_string(paths.destinations) + " destinations from run " +
                    std::to_string(paths.firstRun) + " (batches must follow each other, full)");
    }
    const bool random = m_rule == RoutingRule::RANDOM_SHORTEST_PATH;
    for (std::size_t first = firstRun; first < lastRun; first += LevelSearch::BATCH)
    {
        const std::size_t last = std::min<std::size_t>(lastRun, first + LevelSearch::BATCH);
        SearchBatch(groups, first, last, true);
        if (random)
        {
            m_search.CountPaths(m_routing->GetGraph());
        }
        // every path node's next hop, all 64 destinations at once
        const std::size_t begin = paths.steps.size();
        m_search.FollowPaths(m_routing->GetGraph(), random, m_routing->GetSeed(), paths.steps);
        const std::size_t end = paths.steps.size();
        paths.batchBegin.push_back(end);
        paths.destinations += last - first;
        // the cells of the next hops and of the sources, while the batch's numbers are held
        paths.stepNext.resize(end);
        const PathStep* step = paths.steps.data();
        uint32_t* next = paths.stepNext.data();
        for (std::size_t i = begin; i < end; ++i)
        {
            next[i] = m_search.StepOf(step[i].next, step[i].slot);
        }
        const std::size_t pairs = paths.pairStep.size();
        paths.pairStep.resize(pairs + (groups.runs[last - 1].end - groups.runs[first].begin));
        uint32_t* source = paths.pairStep.data() + pairs;
        for (std::size_t k = first; k < last; ++k)
        {
            const auto slot = static_cast<uint32_t>(k - first);
            const DestinationRun& run = groups.runs[k];
            for (std::size_t i = run.begin; i < run.end; ++i)
            {
                *source++ = m_search.StepOf(groups.pairs[i].src, slot);
            }
        }
    }
}

void
DestinationSweep::Route(FlowGroups& groups,
                        std::size_t firstRun,
                        std::size_t lastRun,
                        DemandDags& dags)
{
    NS_LOG_FUNCTION(this << firstRun << lastRun);
    CheckBound("Route");
    if (m_rule != RoutingRule::ECMP)
    {
        throw Error("DestinationSweep::Route: the single-path rules route into PathSteps, "
                    "not DemandDags");
    }
    dags.Clear(firstRun);
    for (std::size_t first = firstRun; first < lastRun; first += LevelSearch::BATCH)
    {
        const std::size_t last = std::min<std::size_t>(lastRun, first + LevelSearch::BATCH);
        SearchBatch(groups, first, last, false);
        for (std::size_t k = first; k < last; ++k)
        {
            const DestinationRun& run = groups.runs[k];
            const auto slot = static_cast<uint32_t>(k - first);
            for (std::size_t i = run.begin; i < run.end; ++i)
            {
                PairDemand& p = groups.pairs[i];
                p.hops = m_search.Distance(p.src, slot);
            }
            if (++m_epoch == 0)
            {
                std::fill(m_stamp.begin(), m_stamp.end(), 0);
                m_epoch = 1;
            }
            AddEcmpDag(groups, run, slot, dags);
            dags.nodeBegin.push_back(static_cast<uint32_t>(dags.edgeBegin.size() - 1));
        }
    }
}

void
DestinationSweep::AddEcmpDag(const FlowGroups& groups,
                             const DestinationRun& run,
                             uint32_t slot,
                             DemandDags& dags)
{
    NS_LOG_FUNCTION(this << run.destination << slot);
    const uint32_t epoch = m_epoch;
    uint32_t* stamp = m_stamp.data();
    uint32_t* distance = m_distance.data();
    const CircuitGraph::Graph& g = *m_graph;
    // search from the sources over closer neighbours (depth first, a stack)
    std::vector<uint32_t>& stack = m_sorted; // reused: the stack is empty before sorting
    stack.clear();
    m_walk.clear();
    uint32_t maxDistance = 0;
    for (std::size_t k = run.begin; k < run.end; ++k)
    {
        const PairDemand& p = groups.pairs[k];
        if (stamp[p.src] != epoch)
        {
            stamp[p.src] = epoch;
            distance[p.src] = p.hops;
            stack.push_back(p.src);
            maxDistance = std::max(maxDistance, p.hops);
        }
    }
    while (!stack.empty())
    {
        const uint32_t u = stack.back();
        stack.pop_back();
        m_walk.push_back(u);
        const uint32_t du = distance[u];
        if (du == 0)
        {
            continue;
        }
        const uint64_t* closer = m_search.GetLevel(du - 1);
        for (auto [it, end] = boost::out_edges(u, g); it != end; ++it)
        {
            const uint32_t v = boost::target(*it, g);
            if (stamp[v] != epoch && ((closer[v] >> slot) & 1) != 0)
            {
                stamp[v] = epoch;
                distance[v] = du - 1;
                stack.push_back(v);
            }
        }
    }
    // counting sort by distance (the destination first); within a distance, discovery order
    m_levelStart.assign(maxDistance + 2, 0);
    for (uint32_t u : m_walk)
    {
        ++m_levelStart[distance[u] + 1];
    }
    for (uint32_t k = 1; k < m_levelStart.size(); ++k)
    {
        m_levelStart[k] += m_levelStart[k - 1];
    }
    m_sorted.resize(m_walk.size());
    for (uint32_t u : m_walk)
    {
        m_sorted[m_levelStart[distance[u]]++] = u;
    }
    uint32_t* local = m_local.data();
    for (std::size_t i = 0; i < m_sorted.size(); ++i)
    {
        local[m_sorted[i]] = static_cast<uint32_t>(i);
    }
    // every closer neighbour of a node in the DAG is in the DAG, at a smaller local index
    for (uint32_t u : m_sorted)
    {
        const uint32_t du = distance[u];
        if (du > 0)
        {
            const uint64_t* closer = m_search.GetLevel(du - 1);
            for (auto [it, end] = boost::out_edges(u, g); it != end; ++it)
            {
                const uint32_t v = boost::target(*it, g);
                if (((closer[v] >> slot) & 1) != 0)
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
