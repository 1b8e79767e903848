/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-circuit-keeping.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>
#include <limits>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseCircuitKeeping");

const std::vector<EnumEntry<TemplateConstruction>>&
EnumTable<TemplateConstruction>::Get()
{
    static const std::vector<EnumEntry<TemplateConstruction>> names = {
        {TemplateConstruction::FRESH, "fresh", {}},
        {TemplateConstruction::REWIRING_AWARE, "rewiring-aware", {"rewiring", "keep"}},
    };
    return names;
}

std::vector<Circuit>
SelectKeptCircuits(uint32_t nodes,
                   const std::vector<Circuit>& candidates,
                   const std::vector<uint32_t>& budget)
{
    NS_LOG_FUNCTION(nodes << candidates.size());
    if (budget.size() != nodes)
    {
        throw Error("SelectKeptCircuits: " + std::to_string(budget.size()) + " budgets for " +
                    std::to_string(nodes) + " groups");
    }
    std::vector<Circuit> cand;
    cand.reserve(candidates.size());
    for (const Circuit& c : candidates)
    {
        if (c.u >= nodes || c.v >= nodes)
        {
            throw Error("SelectKeptCircuits: circuit " + std::to_string(c.u) + "-" +
                        std::to_string(c.v) + " names a group outside [0, " +
                        std::to_string(nodes) + ")");
        }
        if (c.u != c.v)
        {
            cand.push_back(Circuit{std::min(c.u, c.v), std::max(c.u, c.v)});
        }
    }
    std::sort(cand.begin(), cand.end());
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());

    std::vector<uint32_t> count(nodes, 0);
    for (const Circuit& c : cand)
    {
        ++count[c.u];
        ++count[c.v];
    }
    auto binds = [&](uint32_t v) { return count[v] > budget[v]; };

    std::vector<Circuit> kept;
    std::vector<uint32_t> contested; // indices into cand with a binding end
    for (uint32_t i = 0; i < cand.size(); ++i)
    {
        const Circuit& c = cand[i];
        if (!binds(c.u) && !binds(c.v))
        {
            kept.push_back(c);
        }
        else if (budget[c.u] > 0 && budget[c.v] > 0)
        {
            contested.push_back(i);
        }
    }
    NS_LOG_LOGIC(kept.size() << " of " << cand.size() << " candidate circuits fit outright, "
                             << contested.size() << " contest binding budgets");
    if (contested.empty())
    {
        return kept;
    }

    // the reduction: copies of binding groups, then one or two vertices per contested circuit
    constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> firstCopy(nodes, NONE);
    uint32_t vertices = 0;
    for (uint32_t v = 0; v < nodes; ++v)
    {
        if (binds(v) && budget[v] > 0)
        {
            firstCopy[v] = vertices;
            vertices += budget[v];
        }
    }
    const uint32_t copies = vertices;

    struct Gadget
    {
        uint32_t side[2]; //!< the circuit's vertex at (u, v), NONE where that end does not bind
    };

    std::vector<Gadget> gadgets(contested.size());
    std::vector<std::pair<uint32_t, uint32_t>> arcs;
    for (std::size_t k = 0; k < contested.size(); ++k)
    {
        const Circuit& c = cand[contested[k]];
        const uint32_t ends[2] = {c.u, c.v};
        const bool bothBind = binds(c.u) && binds(c.v);
        for (int s = 0; s < 2; ++s)
        {
            const uint32_t v = ends[s];
            gadgets[k].side[s] = NONE;
            if (!binds(v))
            {
                continue;
            }
            uint32_t x = vertices++;
            gadgets[k].side[s] = x;
            for (uint32_t j = 0; j < budget[v]; ++j)
            {
                arcs.emplace_back(firstCopy[v] + j, x);
            }
        }
        if (bothBind)
        {
            arcs.emplace_back(gadgets[k].side[0], gadgets[k].side[1]);
        }
    }
    using MatchGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    MatchGraph g(arcs.begin(), arcs.end(), vertices);
    std::vector<boost::graph_traits<MatchGraph>::vertex_descriptor> mate(vertices);
    boost::edmonds_maximum_cardinality_matching(g, &mate[0]);
    const auto null = boost::graph_traits<MatchGraph>::null_vertex();
    auto toCopy = [&](uint32_t x) { return mate[x] != null && mate[x] < copies; };
    for (std::size_t k = 0; k < contested.size(); ++k)
    {
        const Gadget& gk = gadgets[k];
        bool keep = true;
        for (uint32_t x : gk.side)
        {
            keep = keep && (x == NONE || toCopy(x));
        }
        if (keep)
        {
            kept.push_back(cand[contested[k]]);
        }
    }
    std::sort(kept.begin(), kept.end());
    NS_LOG_LOGIC("kept " << kept.size() << " of " << cand.size() << " candidate circuits ("
                         << vertices << " matching vertices, " << arcs.size() << " edges)");
    return kept;
}

} // namespace mose
} // namespace ns3
