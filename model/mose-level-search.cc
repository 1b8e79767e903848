/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-level-search.h"

#include "mose-error.h"

#include "ns3/log.h"

#include <string>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseLevelSearch");

namespace
{

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
    double* sigma = m_pathCount.data();
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
            // sum of the closer neighbours' counts, in increasing id order per destination;
            // a destination's first term is assigned (0 + c == c: the same sum)
            double* row = sigma + static_cast<std::size_t>(v) * BATCH;
            uint64_t pending = fresh;
            for (auto it = begin; it != end; ++it)
            {
                const uint32_t u = boost::target(*it, g);
                const uint64_t x = frontier[u] & fresh;
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
        if (!grew)
        {
            m_levels.resize(static_cast<std::size_t>(level) * n);
            m_nLevels = level;
            break;
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
