/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-level-search.h"

#include "mose-error.h"
#include "mose-routing.h"

#include "ns3/log.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseLevelSearch");

namespace
{

/// SumCounts()'s branch-free loop up to this degree (a stack array per neighbour)
constexpr std::size_t MAX_DENSE_DEGREE = 16;

/// \return the index of the lowest set bit of a nonzero word
inline uint32_t
LowestBit(uint64_t x)
{
    return static_cast<uint32_t>(__builtin_ctzll(x));
}

} // namespace

void
LevelSearch::Search(const CircuitGraph& graph,
                    const uint32_t* destinations,
                    uint32_t count,
                    bool pathCounts)
{
    NS_LOG_FUNCTION(this << count << pathCounts);
    const uint32_t n = graph.GetNNodes();
    const CircuitGraph::Graph& g = graph.GetGraph();
    if (count == 0 || count > BATCH)
    {
        ThrowBadParameter("count",
                          std::to_string(count),
                          "1 to " + std::to_string(BATCH) + " destinations per search");
    }
    for (uint32_t b = 0; b < count; ++b)
    {
        if (destinations[b] >= n)
        {
            ThrowBadParameter("destination",
                              std::to_string(destinations[b]),
                              "< the number of nodes " + std::to_string(n));
        }
    }
    m_nodes = n;
    if (m_marked || m_need.size() != n)
    {
        m_need.assign(n, 0); // no marks from an earlier search
        m_marked = false;
    }
    std::copy(destinations, destinations + count, m_destinations);
    m_seen.assign(n, 0);
    // level 0: the destinations; the vector grows by one level of N words at a time
    m_levels.assign(n, 0);
    if (pathCounts)
    {
        // cells are written where reached and read only there: no fill needed
        m_pathCount.resize(static_cast<std::size_t>(n) * BATCH);
    }
    uint64_t* seen = m_seen.data();
    for (uint32_t b = 0; b < count; ++b)
    {
        const uint32_t t = destinations[b];
        seen[t] |= uint64_t{1} << b;
        m_levels[t] |= uint64_t{1} << b;
        if (pathCounts)
        {
            m_pathCount[static_cast<std::size_t>(t) * BATCH + b] = 1.0;
        }
    }
    const uint64_t all = count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
    for (uint32_t level = 1;; ++level)
    {
        m_levels.resize(static_cast<std::size_t>(level + 1) * n, 0);
        const uint64_t* frontier = m_levels.data() + static_cast<std::size_t>(level - 1) * n;
        uint64_t* next = m_levels.data() + static_cast<std::size_t>(level) * n;
        bool grew = false;
        for (uint32_t v = 0; v < n; ++v)
        {
            const uint64_t s = seen[v];
            if (s == all)
            {
                continue;
            }
            auto [begin, end] = boost::out_edges(v, g);
            uint64_t reach = 0;
            for (auto it = begin; it != end; ++it)
            {
                reach |= frontier[boost::target(*it, g)];
            }
            const uint64_t fresh = reach & ~s;
            if (fresh == 0)
            {
                continue;
            }
            grew = true;
            seen[v] = s | fresh;
            next[v] = fresh;
            if (!pathCounts)
            {
                continue;
            }
            SumCounts(g, v, fresh, frontier);
        }
        if (!grew)
        {
            m_levels.resize(static_cast<std::size_t>(level) * n);
            m_nLevels = level;
            break;
        }
    }
}

void
LevelSearch::SumCounts(const CircuitGraph::Graph& g,
                       uint32_t v,
                       uint64_t slots,
                       const uint64_t* closer)
{
    // sum of the closer neighbours' counts, in increasing id order per destination; a
    // destination's first term is assigned (0 + c == c: the same sum)
    double* sigma = m_pathCount.data();
    double* row = sigma + static_cast<std::size_t>(v) * BATCH;
    auto [begin, end] = boost::out_edges(v, g);
    const auto degree = static_cast<std::size_t>(end - begin);
    if (degree <= MAX_DENSE_DEGREE)
    {
        // one loop over the slots with a fixed-count body, without branches: a term is a
        // closer neighbour's count or +0.0 (its bits masked to zero, never computed with), and
        // adding +0.0 to a count (>= 1) or to the initial +0.0 leaves it unchanged, so the
        // sums are bit for bit those of the sparse loop below; that loop mispredicted its exits
        // once per neighbour and node
        const double* from[MAX_DENSE_DEGREE];
        uint64_t x[MAX_DENSE_DEGREE];
        for (std::size_t k = 0; k < degree; ++k)
        {
            const uint32_t u = boost::target(begin[k], g);
            from[k] = sigma + static_cast<std::size_t>(u) * BATCH;
            x[k] = closer[u] & slots;
        }
        for (uint64_t a = slots; a != 0; a &= a - 1)
        {
            const uint32_t b = LowestBit(a);
            double sum = 0.0;
            for (std::size_t k = 0; k < degree; ++k)
            {
                uint64_t bits;
                std::memcpy(&bits, from[k] + b, sizeof bits);
                bits &= uint64_t{0} - ((x[k] >> b) & 1);
                double term;
                std::memcpy(&term, &bits, sizeof term);
                sum += term;
            }
            row[b] = sum;
        }
        return;
    }
    uint64_t pending = slots;
    for (auto it = begin; it != end; ++it)
    {
        const uint32_t u = boost::target(*it, g);
        const uint64_t x = closer[u] & slots;
        if (x == 0)
        {
            continue;
        }
        const double* from = sigma + static_cast<std::size_t>(u) * BATCH;
        for (uint64_t a = x & pending; a != 0; a &= a - 1)
        {
            const uint32_t b = LowestBit(a);
            row[b] = from[b];
        }
        for (uint64_t a = x & ~pending; a != 0; a &= a - 1)
        {
            const uint32_t b = LowestBit(a);
            row[b] += from[b];
        }
        pending &= ~x;
    }
}

void
LevelSearch::ChooseByCounts(const CircuitGraph::Graph& g,
                            uint32_t u,
                            const uint64_t* closerLevel,
                            uint64_t several,
                            const double* target,
                            uint64_t* x) const
{
    // per node with a choice: no logging. A branch-free loop per slot (as in SumCounts())
    // measured slower here: few slots per node have a choice
    auto [begin, end] = boost::out_edges(u, g);
    const auto degree = static_cast<std::size_t>(end - begin);
    const double* sigma = m_pathCount.data();
    double cumulative[BATCH]; // per slot with a choice, the closer neighbours' counts so far
    for (uint64_t a = several; a != 0; a &= a - 1)
    {
        cumulative[LowestBit(a)] = 0;
    }
    uint64_t pending = several;
    for (std::size_t k = 0; k < degree; ++k)
    {
        const uint64_t candidates = x[k] & pending;
        x[k] &= ~several;
        const uint32_t v = boost::target(begin[k], g);
        for (uint64_t a = candidates; a != 0; a &= a - 1)
        {
            const uint32_t s = LowestBit(a);
            cumulative[s] += sigma[static_cast<std::size_t>(v) * BATCH + s];
            if (cumulative[s] > target[s])
            {
                x[k] |= uint64_t{1} << s;
                pending &= ~(uint64_t{1} << s);
            }
        }
    }
    // target * count rounded up to count: the last closer neighbour
    for (std::size_t k = degree; pending != 0 && k-- > 0;)
    {
        const uint64_t last = closerLevel[boost::target(begin[k], g)] & pending;
        x[k] |= last;
        pending &= ~last;
    }
}

void
LevelSearch::CountPaths(const CircuitGraph& graph)
{
    NS_LOG_FUNCTION(this);
    const uint32_t n = m_nodes;
    const CircuitGraph::Graph& g = graph.GetGraph();
    if (graph.GetNNodes() != n || m_need.size() != n)
    {
        throw MoseError("LevelSearch::CountPaths: call Search() first");
    }
    // the marked nodes and, recursively, their closer neighbours: the nodes whose counts the
    // choices on the marked paths read (farthest level first, so that a node's marks are
    // complete before it passes them on)
    m_counted.assign(m_need.begin(), m_need.end());
    uint64_t* counted = m_counted.data();
    for (uint32_t level = m_nLevels; level-- > 1;)
    {
        const uint64_t* here = GetLevel(level);
        const uint64_t* closer = GetLevel(level - 1);
        for (uint32_t v = 0; v < n; ++v)
        {
            const uint64_t marked = counted[v] & here[v];
            if (marked == 0)
            {
                continue;
            }
            for (auto [it, end] = boost::out_edges(v, g); it != end; ++it)
            {
                const uint32_t u = boost::target(*it, g);
                counted[u] |= closer[u] & marked;
            }
        }
    }
    // their counts, nearest level first (a destination's own count is 1)
    m_pathCount.resize(static_cast<std::size_t>(n) * BATCH);
    const uint64_t* roots = GetLevel(0);
    for (uint32_t v = 0; v < n; ++v)
    {
        for (uint64_t a = roots[v]; a != 0; a &= a - 1)
        {
            m_pathCount[static_cast<std::size_t>(v) * BATCH + LowestBit(a)] = 1.0;
        }
    }
    for (uint32_t level = 1; level < m_nLevels; ++level)
    {
        const uint64_t* here = GetLevel(level);
        const uint64_t* closer = GetLevel(level - 1);
        for (uint32_t v = 0; v < n; ++v)
        {
            const uint64_t slots = counted[v] & here[v];
            if (slots != 0)
            {
                SumCounts(g, v, slots, closer);
            }
        }
    }
}

void
LevelSearch::MarkAllSources()
{
    NS_LOG_FUNCTION(this);
    m_need = m_seen;
    m_marked = true;
}

void
LevelSearch::FollowPaths(const CircuitGraph& graph,
                         bool random,
                         uint64_t seed,
                         PathStepArray& steps)
{
    NS_LOG_FUNCTION(this << random);
    const uint32_t n = m_nodes;
    const CircuitGraph::Graph& g = graph.GetGraph();
    if (graph.GetNNodes() != n || m_need.size() != n)
    {
        throw MoseError("LevelSearch::FollowPaths: call Search() first");
    }
    uint64_t* need = m_need.data();
    double target[BATCH];      // per slot with a choice, HashUniform() * count
    std::size_t chosen[BATCH]; // degree above 64: per slot, its edge
    // farthest level first: a chosen next hop is one level down and is handled there
    for (uint32_t level = m_nLevels; level-- > 1;)
    {
        const uint64_t* here = GetLevel(level);
        const uint64_t* closer = GetLevel(level - 1);
        for (uint32_t u = 0; u < n; ++u)
        {
            const uint64_t marked = need[u] & here[u];
            if (marked == 0)
            {
                continue;
            }
            auto [begin, end] = boost::out_edges(u, g);
            const auto degree = static_cast<std::size_t>(end - begin);
            if (m_closer.size() < degree)
            {
                m_closer.resize(degree);
            }
            uint64_t* x = m_closer.data();
            // per edge, the marked slots it leads closer for; which slots have several
            uint64_t once = 0;
            uint64_t several = 0;
            for (std::size_t k = 0; k < degree; ++k)
            {
                x[k] = closer[boost::target(begin[k], g)] & marked;
                several |= once & x[k];
                once |= x[k];
            }
            // x[k] becomes the slots that choose edge k
            if (!random)
            {
                // the lowest-id closer neighbour: the first edge in the id-sorted CSR row
                uint64_t taken = 0;
                for (std::size_t k = 0; k < degree; ++k)
                {
                    const uint64_t mine = x[k] & ~taken;
                    taken |= x[k];
                    x[k] = mine;
                }
            }
            else if (several != 0)
            {
                for (uint64_t a = several; a != 0; a &= a - 1)
                {
                    const uint32_t s = LowestBit(a);
                    target[s] = ShortestPathRouting::HashUniform(seed, u, m_destinations[s]) *
                                PathCount(u, s);
                }
                ChooseByCounts(g, u, closer, several, target, x);
            }
            for (std::size_t k = 0; k < degree; ++k)
            {
                need[boost::target(begin[k], g)] |= x[k];
            }
            // u's steps in slot order (one resize per node: the array does not fill)
            const std::size_t first = steps.size();
            steps.resize(first + static_cast<std::size_t>(__builtin_popcountll(marked)));
            PathStep* step = steps.data() + first;
            if (degree <= 64)
            {
                // one loop over the marked slots whose body has a fixed trip count: a loop per
                // edge mispredicted its exit once per edge and node (this one measured ~7%
                // faster on a whole evaluation); the x[k] are disjoint: the slot's edge is the
                // one bit
                for (uint64_t a = marked; a != 0; a &= a - 1)
                {
                    const uint32_t slot = LowestBit(a);
                    uint64_t edges = 0;
                    for (std::size_t k = 0; k < degree; ++k)
                    {
                        edges |= ((x[k] >> slot) & 1) << k;
                    }
                    const auto e = begin[LowestBit(edges)];
                    *step++ = PathStep{u, static_cast<uint32_t>(boost::target(e, g)), g[e], slot};
                }
            }
            else
            {
                // per slot, its edge (one pass over the row), then the steps in slot order
                for (std::size_t k = 0; k < degree; ++k)
                {
                    for (uint64_t a = x[k]; a != 0; a &= a - 1)
                    {
                        chosen[LowestBit(a)] = k;
                    }
                }
                for (uint64_t a = marked; a != 0; a &= a - 1)
                {
                    const uint32_t slot = LowestBit(a);
                    const auto e = begin[chosen[slot]];
                    *step++ = PathStep{u, static_cast<uint32_t>(boost::target(e, g)), g[e], slot};
                }
            }
        }
    }
}

uint32_t
LevelSearch::GetDistance(uint32_t node, uint32_t slot) const
{
    NS_LOG_FUNCTION(this << node << slot);
    if (node >= m_nodes || slot >= BATCH)
    {
        throw MoseError("LevelSearch: node " + std::to_string(node) + " or slot " +
                        std::to_string(slot) + " out of range");
    }
    return Distance(node, slot);
}

} // namespace mose
} // namespace ns3
