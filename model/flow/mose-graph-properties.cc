/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-graph-properties.h"

#include "mose-routing.h"
#include "mose-topology-template.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseGraphProperties");

DistanceSummary
SummarizeDistances(const CircuitGraph& graph,
                   uint32_t maxSources,
                   const std::function<void(uint32_t, uint32_t)>& progress)
{
    NS_LOG_FUNCTION(graph.GetNNodes() << graph.GetNCircuits() << maxSources << bool(progress));
    if (!graph.IsConnected())
    {
        throw Error("distances need a connected graph; this one has " +
                    std::to_string(graph.CountComponents()) + " components");
    }
    DistanceSummary s;
    ShortestPathRouting routing(graph, RoutingRule::SHORTEST_PATH);
    std::vector<uint32_t> batch;
    std::vector<DestinationTree> trees;
    uint64_t pairs = 0;
    double sum = 0;
    const uint32_t n = graph.GetNNodes();
    const uint32_t k = (maxSources == 0 || maxSources >= n) ? n : maxSources;
    s.sources = k;
    s.sampled = k < n;
    NS_LOG_LOGIC((s.sampled ? "sampled " : "all ") << k << " of " << n << " sources");
    // the graph is undirected: distances towards t are distances from t
    for (uint32_t first = 0; first < k; first += ShortestPathRouting::BATCH)
    {
        batch.clear();
        for (uint32_t i = first; i < std::min(k, first + ShortestPathRouting::BATCH); ++i)
        {
            batch.push_back(static_cast<uint32_t>(static_cast<uint64_t>(i) * n / k));
        }
        // one bit-parallel search for BATCH destinations at a time
        routing.ComputeTrees(batch, trees);
        for (const DestinationTree& tree : trees)
        {
            for (uint32_t v = 0; v < n; ++v)
            {
                uint32_t h = tree.distance[v];
                if (v == tree.destination)
                {
                    continue;
                }
                if (h >= s.histogram.size())
                {
                    s.histogram.resize(h + 1, 0);
                }
                ++s.histogram[h];
                sum += h;
                ++pairs;
                s.diameter = std::max(s.diameter, h);
            }
        }
        if (progress)
        {
            progress(std::min(k, first + ShortestPathRouting::BATCH), k);
        }
    }
    s.averageHops = pairs > 0 ? sum / static_cast<double>(pairs) : 0.0;
    NS_LOG_INFO(pairs << " pairs: average hops " << s.averageHops << ", diameter " << s.diameter);
    return s;
}

TemplateProperties
MeasureTemplate(const CircuitGraph& graph,
                const RoleAssignment& roles,
                const PdAssignment& assignment,
                uint32_t maxSources,
                const std::function<void(uint32_t, uint32_t)>& progress)
{
    NS_LOG_FUNCTION(graph.GetNNodes()
                    << graph.GetNCircuits() << roles.GetN() << assignment.GetPairs().size()
                    << maxSources << bool(progress));
    if (roles.GetN() != graph.GetNNodes())
    {
        throw Error("roles cover " + std::to_string(roles.GetN()) + " groups, the graph has " +
                    std::to_string(graph.GetNNodes()));
    }
    TemplateProperties p;
    p.nodes = graph.GetNNodes();
    p.circuits = graph.GetNCircuits();
    p.simple = graph.IsSimple();
    p.connected = graph.IsConnected();
    p.minDegree = UINT32_MAX;
    for (uint32_t v = 0; v < p.nodes; ++v)
    {
        p.minDegree = std::min(p.minDegree, graph.GetDegree(v));
        p.maxDegree = std::max(p.maxDegree, graph.GetDegree(v));
    }
    if (p.nodes == 0)
    {
        p.minDegree = 0;
    }
    std::vector<uint32_t> pd = CountPdCircuits(graph, roles);
    p.minPdCircuits = UINT32_MAX;
    bool anyPd = false;
    for (uint32_t v = 0; v < p.nodes; ++v)
    {
        if (roles.IsPd(v))
        {
            anyPd = true;
            p.minPdCircuits = std::min(p.minPdCircuits, pd[v]);
            p.maxPdCircuits = std::max(p.maxPdCircuits, pd[v]);
            if (roles.Get(v) == GroupRole::PREFILL)
            {
                p.pdCircuits += pd[v];
            }
        }
    }
    if (!anyPd)
    {
        p.minPdCircuits = 0;
    }
    uint64_t realised = 0;
    for (const PdPair& pair : assignment.GetPairs())
    {
        realised += graph.HasCircuit(pair.prefill, pair.decode) ? 1 : 0;
    }
    p.assignmentRealised =
        assignment.GetPairs().empty()
            ? 0.0
            : static_cast<double>(realised) / static_cast<double>(assignment.GetPairs().size());
    if (p.connected)
    {
        p.distances = SummarizeDistances(graph, maxSources, progress);
    }
    else
    {
        NS_LOG_WARN("the graph is not connected: no distance summary");
    }
    NS_LOG_INFO(p.circuits << " circuits, degree " << p.minDegree << ".." << p.maxDegree << ", "
                           << p.pdCircuits << " P-D circuits, " << realised << " of "
                           << assignment.GetPairs().size() << " assignment pairs realised");
    return p;
}

} // namespace mose
} // namespace ns3
