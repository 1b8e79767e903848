/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-level-search.h"

#include "mose-routing.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

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

/// \return the number of set bits of a word (without the x86-64 baseline's POPCNT, a library
/// call; this is a few arithmetic operations)
inline uint32_t
Popcount(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<uint32_t>((x * 0x0101010101010101ULL) >> 56);
}

/**
 * \param sigma a slot's path counts
 * \param closer the frontier words of the level below the node being counted
 * \param u a neighbour of that node
 * \param slot the slot
 * \return u's count if u is on the level below for the slot, else +0.0 (without a branch:
 *         the count's bits masked to zero, never computed with, so any value may be there)
 */
inline double
CloserCount(const double* sigma, const uint64_t* closer, uint32_t u, uint32_t slot)
{
    uint64_t bits;
    std::memcpy(&bits, sigma + u, sizeof bits);
    bits &= uint64_t{0} - ((closer[u] >> slot) & 1);
    double term;
    std::memcpy(&term, &bits, sizeof term);
    return term;
}

/// Throws unless the (node, slot) cells of n nodes, and 64 more, can be numbered in 32 bits
/// (CountPaths()' lists, FollowPaths()' step numbers)
void
CheckCells(uint32_t n)
{
    constexpr uint32_t BATCH = LevelSearch::BATCH;
    if (n > (UINT32_MAX - BATCH) / BATCH)
    {
        ThrowBadParameter("nodes",
                          std::to_string(n),
                          "at most " + std::to_string((UINT32_MAX - BATCH) / BATCH) +
                              " groups to count and follow paths");
    }
}

/// \return the index of the lowest set bit of a nonzero word
inline uint32_t
LowestBit(uint64_t x)
{
    return static_cast<uint32_t>(__builtin_ctzll(x));
}

} // namespace

void
LevelSearch::Search(const CircuitGraph& graph, const uint32_t* destinations, uint32_t count)
{
    NS_LOG_FUNCTION(this << count);
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
    m_count = count;
    m_seen.assign(n, 0);
    // level 0: the destinations; the vector grows by one level of N words at a time
    m_levels.assign(n, 0);
    uint64_t* seen = m_seen.data();
    for (uint32_t b = 0; b < count; ++b)
    {
        const uint32_t t = destinations[b];
        seen[t] |= uint64_t{1} << b;
        m_levels[t] |= uint64_t{1} << b;
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
LevelSearch::ChooseByCounts(const CircuitGraph::Graph& g,
                            uint32_t u,
                            const uint64_t* closerLevel,
                            uint64_t several,
                            const double* target,
                            uint64_t* x) const
{
    // per node with a choice: no logging. A branch-free loop per slot (as in CountPaths())
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
        throw Error("LevelSearch::CountPaths: call Search() first");
    }
    CheckCells(n);
    // 1. the marked nodes and, recursively, their closer neighbours: the nodes whose counts
    // the choices on the marked paths read (farthest level first, so that a node's marks are
    // complete before it passes them on). Each slot's nodes are listed in its own region of
    // m_union (a node is there at most once), level by level.
    m_counted.assign(m_need.begin(), m_need.end());
    uint64_t* counted = m_counted.data();
    m_union.resize(static_cast<std::size_t>(n) * BATCH);
    uint32_t* list = m_union.data();
    uint32_t end[BATCH]; // per slot, the end of its list
    for (uint32_t s = 0; s < BATCH; ++s)
    {
        end[s] = s * n;
    }
    // [level * BATCH + slot] where the slot's nodes of that level begin (level 0: the end)
    m_unionLevel.resize(static_cast<std::size_t>(m_nLevels) * BATCH);
    for (uint32_t level = m_nLevels; level-- > 1;)
    {
        std::copy(end, end + BATCH, m_unionLevel.data() + static_cast<std::size_t>(level) * BATCH);
        const uint64_t* here = GetLevel(level);
        const uint64_t* closer = GetLevel(level - 1);
        FindMarked(counted, here);
        for (uint32_t w = 0; w < m_active.size(); ++w)
        {
            for (uint64_t bits = m_active[w]; bits != 0; bits &= bits - 1)
            {
                const uint32_t v = w * 64 + LowestBit(bits);
                const uint64_t marked = counted[v] & here[v];
                for (auto [it, last] = boost::out_edges(v, g); it != last; ++it)
                {
                    const uint32_t u = boost::target(*it, g);
                    counted[u] |= closer[u] & marked;
                }
                for (uint64_t a = marked; a != 0; a &= a - 1)
                {
                    const uint32_t s = LowestBit(a);
                    list[end[s]++] = v;
                }
            }
        }
    }
    std::copy(end, end + BATCH, m_unionLevel.data());
    // 2. their counts, one slot at a time, read from one row of N counts that stays in the L1
    // cache (counting per node for all its slots read the neighbours' counts from 64 different
    // rows and waited for the L2 cache) and written to the node-major table too, where a
    // choice finds a node's neighbours' counts for all its slots in one row each; nearest
    // level first; a destination's own count is 1
    m_pathCount.resize(static_cast<std::size_t>(n) * BATCH);
    m_slotCount.resize(n);
    double* row = m_slotCount.data();
    for (uint32_t s = 0; s < BATCH; ++s)
    {
        if (m_unionLevel[s] == s * n)
        {
            continue; // no marks: no counts
        }
        // the row's other cells hold older slots' counts: only this slot's closer neighbours,
        // counted before the node, are read
        row[m_destinations[s]] = 1.0;
        m_pathCount[static_cast<std::size_t>(m_destinations[s]) * BATCH + s] = 1.0;
        for (uint32_t level = 1; level < m_nLevels; ++level)
        {
            const uint64_t* closer = GetLevel(level - 1);
            const uint32_t first = m_unionLevel[static_cast<std::size_t>(level) * BATCH + s];
            const uint32_t last = m_unionLevel[static_cast<std::size_t>(level - 1) * BATCH + s];
            for (uint32_t i = first; i < last; ++i)
            {
                // the sum of the closer neighbours' counts in increasing id order
                // (ShortestPathRouting::ComputeTree()'s, bit for bit): a term is a closer
                // neighbour's count or +0.0, and adding +0.0 to a count (>= 1) or to the
                // initial +0.0 leaves it unchanged
                const uint32_t v = list[i];
                double sum = 0.0;
                for (auto [it, last] = boost::out_edges(v, g); it != last; ++it)
                {
                    sum += CloserCount(row, closer, boost::target(*it, g), s);
                }
                row[v] = sum;
                m_pathCount[static_cast<std::size_t>(v) * BATCH + s] = sum;
            }
        }
    }
}

void
LevelSearch::FindMarked(const uint64_t* marks, const uint64_t* here)
{
    // without branches: a test per node mispredicted about every other node
    const uint32_t n = m_nodes;
    m_active.resize((static_cast<std::size_t>(n) + 63) / 64);
    for (uint32_t w = 0; w < m_active.size(); ++w)
    {
        const uint32_t base = w * 64;
        const uint32_t count = std::min<uint32_t>(64, n - base);
        uint64_t bits = 0;
        for (uint32_t i = 0; i < count; ++i)
        {
            bits |= static_cast<uint64_t>((marks[base + i] & here[base + i]) != 0) << i;
        }
        m_active[w] = bits;
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
        throw Error("LevelSearch::FollowPaths: call Search() first");
    }
    CheckCells(n);
    m_stepOf.resize(static_cast<std::size_t>(n) * BATCH);
    uint64_t* need = m_need.data();
    double target[BATCH];      // per slot with a choice, HashUniform() * count
    std::size_t chosen[BATCH]; // degree above 64: per slot, its edge
    uint64_t stackX[BATCH];    // degree up to 64: per edge, its slots
    // the steps are written through a pointer into room made ahead (a resize per node, or a
    // push_back per step, cost up to 10% of a shortest-path evaluation); cut at the end
    std::size_t size = steps.size();
    const std::size_t first = size; // the batch's first step
    // farthest level first: a chosen next hop is one level down and is handled there
    for (uint32_t level = m_nLevels; level-- > 1;)
    {
        const uint64_t* here = GetLevel(level);
        const uint64_t* closer = GetLevel(level - 1);
        // the nodes with marks on this level (complete: the levels above are done)
        FindMarked(need, here);
        for (uint32_t w = 0; w < m_active.size(); ++w)
        {
            for (uint64_t bits = m_active[w]; bits != 0; bits &= bits - 1)
            {
                const uint32_t u = w * 64 + LowestBit(bits);
                const uint64_t marked = need[u] & here[u];
                auto [begin, end] = boost::out_edges(u, g);
                const auto degree = static_cast<std::size_t>(end - begin);
                uint64_t* x = stackX;
                if (degree > BATCH)
                {
                    if (m_closer.size() < degree)
                    {
                        m_closer.resize(degree);
                    }
                    x = m_closer.data();
                }
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
                // u's steps in slot order, at most 64
                if (steps.size() - size < BATCH)
                {
                    // all the capacity (the array does not fill); it grows geometrically, and
                    // only when full (growing from the size cut at the end of each call
                    // copied every earlier batch's steps again: quadratic over the batches)
                    if (steps.capacity() - size < BATCH)
                    {
                        steps.reserve(
                            std::max(2 * steps.capacity(), size + BATCH * std::size_t{1024}));
                    }
                    steps.resize(steps.capacity());
                }
                PathStep* step = steps.data() + size;
                // u's row of step numbers (written in slot order, within one row)
                uint32_t* stepOf = m_stepOf.data() + static_cast<std::size_t>(u) * BATCH;
                auto local = static_cast<uint32_t>(size - first);
                size += static_cast<std::size_t>(Popcount(marked));
                if (degree <= 64)
                {
                    // one loop over the marked slots whose body has a fixed trip count: a loop per
                    // edge mispredicted its exit once per edge and node (this one measured ~7%
                    // faster on a whole evaluation; so did it against finding the edge from a
                    // bit-sliced edge index, log2(degree) tests instead of degree); the x[k] are
                    // disjoint: the slot's edge is the one bit
                    for (uint64_t a = marked; a != 0; a &= a - 1)
                    {
                        const uint32_t slot = LowestBit(a);
                        uint64_t edges = 0;
                        for (std::size_t k = 0; k < degree; ++k)
                        {
                            edges |= ((x[k] >> slot) & 1) << k;
                        }
                        const auto e = begin[LowestBit(edges)];
                        *step++ =
                            PathStep{u, static_cast<uint32_t>(boost::target(e, g)), g[e], slot};
                        stepOf[slot] = local++;
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
                        *step++ =
                            PathStep{u, static_cast<uint32_t>(boost::target(e, g)), g[e], slot};
                        stepOf[slot] = local++;
                    }
                }
            }
        }
    }
    steps.resize(size);
    // the destinations: numbered after the steps
    const auto count = static_cast<uint32_t>(size - first);
    for (uint32_t s = 0; s < m_count; ++s)
    {
        m_stepOf[static_cast<std::size_t>(m_destinations[s]) * BATCH + s] = count + s;
    }
}

uint32_t
LevelSearch::GetDistance(uint32_t node, uint32_t slot) const
{
    NS_LOG_FUNCTION(this << node << slot);
    if (node >= m_nodes || slot >= BATCH)
    {
        throw Error("LevelSearch: node " + std::to_string(node) + " or slot " +
                    std::to_string(slot) + " out of range");
    }
    return Distance(node, slot);
}

} // namespace mose
} // namespace ns3
