/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-destination-sweep.h"

#include "mose-error.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseDestinationSweep");

namespace
{
/// SHORTEST_PATH batches with at least N / this many pairs use LevelSearch::FollowPaths();
/// measured: FollowPaths() is 10% faster at N = 1024 (2,200-4,400 pairs per batch of 64
/// destinations) and 5-20% slower at N = 16384 and 65536 with 1,000,000 flows (a few thousand)
constexpr std::size_t FOLLOW_PAIRS_PER_NODE = 1;

/// Shorthand for the "none" value of distances
constexpr uint32_t NONE = DestinationTree::UNREACHABLE;

/// Throws the MoseError of a pair whose source cannot reach its destination
[[noreturn]] void
ThrowUnreachable(const PairDemand& p)
{
    ThrowBadFlow(p.firstFlow,
                 "dst = " + std::to_string(p.dst) + " cannot be reached from src = " +
                     std::to_string(p.src) + " (the graph is not connected)");
}

/// Reserves room for at least size elements, doubling the capacity when it grows
template <class Vector>
void
GrowTo(Vector& v, std::size_t size)
{
    if (v.capacity() < size)
    {
        v.reserve(std::max(size, 2 * v.capacity()));
    }
}
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
    // stamps from an earlier graph must not match: start the epochs again
    m_stamp.assign(n, 0);
    m_epoch = 0;
    m_local.resize(n);
    // a walk visits each node at most once; ECMP's search uses m_walk as a list
    const bool ecmp = m_rule == RoutingRule::ECMP;
    m_walk.resize(ecmp ? 0 : n);
    m_depth.resize(ecmp ? 0 : n);
    m_walkCircuit.resize(ecmp ? 0 : n);
    m_distance.resize(ecmp ? n : 0);
}

uint64_t
DestinationSweep::SearchBatch(FlowGroups& groups, std::size_t first, std::size_t last)
{
    NS_LOG_FUNCTION(this << first << last);
    const uint32_t n = m_routing->GetGraph().GetNNodes();
    m_destinations.clear();
    std::size_t pairs = 0;
    for (std::size_t k = first; k < last; ++k)
    {
        m_destinations.push_back(groups.runs[k].destination);
        pairs += groups.runs[k].end - groups.runs[k].begin;
    }
    const auto count = static_cast<uint32_t>(m_destinations.size());
    // distances only: random path counts come later, only where the paths need them
    // (LevelSearch::CountPaths(); counting them for every node in the search, or lazily per
    // destination with LazyRandomTree, measured 1.2-2x slower at N = 1024 to 65536)
    m_search.Search(m_routing->GetGraph(), m_destinations.data(), count, false);
    // RANDOM_SHORTEST_PATH, and SHORTEST_PATH on a batch with many pairs: the walks follow
    // the next hops FollowPaths() chose (and set the hops, a tree node's depth); SearchBatch()
    // only checks that the sources reach their destination and marks them. FollowPaths()
    // scans the N nodes once per level, which a sparse batch does not repay: there the
    // SHORTEST_PATH walks scan the frontier words themselves (FOLLOW_PAIRS_PER_NODE).
    m_follow = m_rule == RoutingRule::RANDOM_SHORTEST_PATH ||
               (m_rule == RoutingRule::SHORTEST_PATH && pairs * FOLLOW_PAIRS_PER_NODE >= n);
    const bool follow = m_follow;
    uint64_t bound = 0;
    const uint64_t longest = m_search.GetNLevels() - 1;
    for (uint32_t slot = 0; slot < count; ++slot)
    {
        const DestinationRun& run = groups.runs[first + slot];
        for (std::size_t k = run.begin; k < run.end; ++k)
        {
            PairDemand& p = groups.pairs[k];
            if (follow)
            {
                if (!m_search.Reaches(p.src, slot))
                {
                    ThrowUnreachable(p);
                }
                m_search.MarkSource(p.src, slot);
                continue;
            }
            const uint32_t d = m_search.Distance(p.src, slot);
            if (d == NONE)
            {
                ThrowUnreachable(p);
            }
            p.hops = d;
            bound += d;
        }
        if (follow)
        {
            // a tree holds at most N - 1 nodes besides its root, and one per hop of its pairs
            bound += std::min<uint64_t>(n - 1, (run.end - run.begin) * longest);
        }
    }
    if (follow)
    {
        // every path node's next hop, all 64 destinations at once; the walks read them
        if (m_rule == RoutingRule::RANDOM_SHORTEST_PATH)
        {
            m_search.CountPaths(m_routing->GetGraph());
        }
        m_search.FollowPaths(m_routing->GetGraph(),
                             m_rule == RoutingRule::RANDOM_SHORTEST_PATH,
                             m_routing->GetSeed());
    }
    return bound;
}

void
DestinationSweep::Route(FlowGroups& groups,
                        std::size_t firstRun,
                        std::size_t lastRun,
                        DemandDags& dags,
                        bool append)
{
    NS_LOG_FUNCTION(this << firstRun << lastRun);
    if (m_routing == nullptr)
    {
        throw MoseError("DestinationSweep::Route: no routing (SetRouting())");
    }
    if (!append || dags.nodeBegin.empty())
    {
        dags.Clear(firstRun);
    }
    else if (dags.firstRun + dags.GetNDestinations() != firstRun)
    {
        throw MoseError("DestinationSweep::Route: appending run " + std::to_string(firstRun) +
                        " after run " +
                        std::to_string(dags.firstRun + dags.GetNDestinations() - 1));
    }
    for (std::size_t first = firstRun; first < lastRun; first += LevelSearch::BATCH)
    {
        const std::size_t last = std::min<std::size_t>(lastRun, first + LevelSearch::BATCH);
        const uint64_t hops = SearchBatch(groups, first, last); // a bound on the trees' nodes
        const bool trees = m_rule != RoutingRule::ECMP;
        if (trees)
        {
            // A tree holds its root and at most one new node (and edge) per hop of its pairs.
            // The arrays are sized to that bound once per batch and written through raw
            // pointers (AddPathTreeWith()), then cut to what was written: a push_back per
            // element (capacity check, size update through the vector) cost ~8% of the sweep.
            m_edges = dags.edgeTarget.size();
            m_nodes = dags.edgeBegin.size();
            m_pairs = dags.pairNode.size();
            const std::size_t pairs = groups.runs[last - 1].end - groups.runs[first].begin;
            GrowTo(dags.edgeTarget, m_edges + hops);
            GrowTo(dags.edgeCircuit, m_edges + hops);
            GrowTo(dags.edgeBegin, m_nodes + hops + (last - first));
            GrowTo(dags.pairNode, m_pairs + pairs);
            dags.edgeTarget.resize(m_edges + hops);
            dags.edgeCircuit.resize(m_edges + hops);
            dags.edgeBegin.resize(m_nodes + hops + (last - first));
            dags.pairNode.resize(m_pairs + pairs);
        }
        for (std::size_t k = first; k < last; ++k)
        {
            const DestinationRun& run = groups.runs[k];
            const auto slot = static_cast<uint32_t>(k - first);
            if (++m_epoch == 0)
            {
                std::fill(m_stamp.begin(), m_stamp.end(), 0);
                m_epoch = 1;
            }
            if (!trees)
            {
                AddEcmpDag(groups, run, slot, dags);
                dags.nodeBegin.push_back(static_cast<uint32_t>(dags.edgeBegin.size() - 1));
            }
            else
            {
                AddPathTree(groups, run, slot, dags);
                dags.nodeBegin.push_back(static_cast<uint32_t>(m_nodes - 1));
            }
        }
        if (trees)
        {
            dags.edgeTarget.resize(m_edges);
            dags.edgeCircuit.resize(m_edges);
            dags.edgeBegin.resize(m_nodes);
            dags.pairNode.resize(m_pairs);
        }
    }
}

void
DestinationSweep::AddPathTree(FlowGroups& groups,
                              const DestinationRun& run,
                              uint32_t slot,
                              DemandDags& dags)
{
    NS_LOG_FUNCTION(this << run.destination << slot);
    const LevelSearch& search = m_search;
    if (m_follow)
    {
        // the next hops FollowPaths() chose (SearchBatch())
        AddPathTreeWith<true>(groups,
                              run,
                              dags,
                              [&search, slot](uint32_t u, uint32_t, uint32_t& c) {
                                  return search.NextHop(u, slot, c);
                              });
        return;
    }
    // SHORTEST_PATH, sparse batch: the lowest-id closer neighbour, the first one in the
    // id-sorted CSR row on the level below u's
    const CircuitGraph::Graph& g = *m_graph;
    AddPathTreeWith<false>(groups,
                           run,
                           dags,
                           [&g, &search, slot](uint32_t u, uint32_t du, uint32_t& c) {
                               const uint64_t* closer = search.GetLevel(du - 1);
                               auto it = boost::out_edges(u, g).first;
                               while (((closer[boost::target(*it, g)] >> slot) & 1) == 0)
                               {
                                   ++it;
                               }
                               c = g[*it];
                               return static_cast<uint32_t>(boost::target(*it, g));
                           });
}

template <bool SetHops, class Step>
void
DestinationSweep::AddPathTreeWith(FlowGroups& groups,
                                  const DestinationRun& run,
                                  DemandDags& dags,
                                  Step&& step)
{
    const uint32_t epoch = m_epoch;
    uint32_t* stamp = m_stamp.data();
    uint32_t* local = m_local.data();
    uint32_t* walk = m_walk.data();
    uint32_t* walkCircuit = m_walkCircuit.data();
    // the arrays have room for every node (Route() sized them): written through raw pointers
    uint32_t* edgeTarget = dags.edgeTarget.data();
    uint32_t* edgeCircuit = dags.edgeCircuit.data();
    uint32_t* edgeBegin = dags.edgeBegin.data();
    uint32_t* pairNode = dags.pairNode.data();
    std::size_t edges = m_edges;
    std::size_t nodeSlot = m_nodes;
    std::size_t pairSlot = m_pairs;
    uint32_t* depth = m_depth.data();
    // the root: local index 0, no edge
    stamp[run.destination] = epoch;
    local[run.destination] = 0;
    if (SetHops)
    {
        depth[run.destination] = 0;
    }
    uint32_t nodes = 1;
    edgeBegin[nodeSlot++] = static_cast<uint32_t>(edges);
    for (std::size_t k = run.begin; k < run.end; ++k)
    {
        PairDemand& p = groups.pairs[k];
        // walk until the path meets the tree (at the latest, at the root)
        uint32_t length = 0;
        uint32_t u = p.src;
        // du: u's distance when SearchBatch() set the hops (else unused by the step)
        for (uint32_t du = p.hops; stamp[u] != epoch; --du)
        {
            stamp[u] = epoch;
            walk[length] = u;
            u = step(u, du, walkCircuit[length]);
            ++length;
        }
        // append the walk nearest first, so that every node follows its next hop
        uint32_t target = local[u];
        uint32_t d = SetHops ? depth[u] : 0;
        for (uint32_t j = length; j-- > 0;)
        {
            local[walk[j]] = nodes++;
            if (SetHops)
            {
                depth[walk[j]] = ++d;
            }
            edgeTarget[edges] = target;
            edgeCircuit[edges] = walkCircuit[j];
            ++edges;
            edgeBegin[nodeSlot++] = static_cast<uint32_t>(edges);
            target = local[walk[j]];
        }
        if (SetHops)
        {
            // a tree node's depth is its distance: the pair's hops
            p.hops = depth[p.src];
        }
        pairNode[pairSlot++] = local[p.src];
    }
    m_edges = edges;
    m_nodes = nodeSlot;
    m_pairs = pairSlot;
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
