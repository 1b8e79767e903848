/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-circuit-graph.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <tuple>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseCircuitGraph");

namespace
{

/// Builds the CSR view: both directions of every circuit, sorted by (source, target).
CircuitGraph::Graph
BuildCsr(uint32_t nodes, const std::vector<Circuit>& circuits)
{
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> arcs;
    arcs.reserve(2 * circuits.size());
    for (uint32_t i = 0; i < circuits.size(); ++i)
    {
        arcs.emplace_back(circuits[i].u, circuits[i].v, i);
        if (circuits[i].u != circuits[i].v)
        {
            arcs.emplace_back(circuits[i].v, circuits[i].u, i);
        }
    }
    std::sort(arcs.begin(), arcs.end());
    std::vector<std::pair<uint32_t, uint32_t>> ends;
    std::vector<uint32_t> ids;
    ends.reserve(arcs.size());
    ids.reserve(arcs.size());
    for (const auto& [s, t, id] : arcs)
    {
        ends.emplace_back(s, t);
        ids.push_back(id);
    }
    return CircuitGraph::Graph(boost::edges_are_sorted,
                               ends.begin(),
                               ends.end(),
                               ids.begin(),
                               nodes);
}

} // namespace

CircuitGraph::CircuitGraph()
    : m_nodes(0),
      m_graph(BuildCsr(0, {}))
{
}

CircuitGraph::CircuitGraph(uint32_t nodes, std::vector<Circuit> circuits)
    : m_nodes(nodes),
      m_circuits(std::move(circuits))
{
    NS_LOG_FUNCTION(this << nodes << m_circuits.size());
    for (auto& c : m_circuits)
    {
        if (c.u >= nodes || c.v >= nodes)
        {
            throw Error("circuit (" + std::to_string(c.u) + ", " + std::to_string(c.v) +
                        ") names a node id >= the number of groups " + std::to_string(nodes));
        }
        if (c.u > c.v)
        {
            std::swap(c.u, c.v);
        }
    }
    std::sort(m_circuits.begin(), m_circuits.end());
    m_graph = BuildCsr(nodes, m_circuits);
}

uint32_t
CircuitGraph::GetNNodes() const
{
    return m_nodes;
}

uint32_t
CircuitGraph::GetNCircuits() const
{
    return static_cast<uint32_t>(m_circuits.size());
}

const std::vector<Circuit>&
CircuitGraph::GetCircuits() const
{
    return m_circuits;
}

const CircuitGraph::Graph&
CircuitGraph::GetGraph() const
{
    return m_graph;
}

uint32_t
CircuitGraph::GetDegree(uint32_t node) const
{
    uint32_t degree = static_cast<uint32_t>(boost::out_degree(node, m_graph));
    // a self-loop is stored once but occupies two ports
    for (auto [it, end] = boost::adjacent_vertices(node, m_graph); it != end; ++it)
    {
        degree += (*it == node) ? 1 : 0;
    }
    return degree;
}

std::vector<uint32_t>
CircuitGraph::GetNeighbours(uint32_t node) const
{
    auto [it, end] = boost::adjacent_vertices(node, m_graph);
    return std::vector<uint32_t>(it, end);
}

int64_t
CircuitGraph::FindCircuit(uint32_t a, uint32_t b) const
{
    Circuit key{std::min(a, b), std::max(a, b)};
    auto it = std::lower_bound(m_circuits.begin(), m_circuits.end(), key);
    if (it == m_circuits.end() || !(*it == key))
    {
        return -1;
    }
    return it - m_circuits.begin();
}

bool
CircuitGraph::HasCircuit(uint32_t a, uint32_t b) const
{
    return FindCircuit(a, b) >= 0;
}

bool
CircuitGraph::IsSimple() const
{
    for (std::size_t i = 0; i < m_circuits.size(); ++i)
    {
        if (m_circuits[i].u == m_circuits[i].v || (i > 0 && m_circuits[i] == m_circuits[i - 1]))
        {
            return false;
        }
    }
    return true;
}

uint32_t
CircuitGraph::CountComponents() const
{
    // Boost's connected_components() wants an undirected graph type; on this symmetric CSR graph
    // repeated breadth_first_visit from each unreached node counts the same components.
    std::vector<boost::default_color_type> color(m_nodes, boost::white_color);
    auto colorMap =
        boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, m_graph));
    uint32_t components = 0;
    for (uint32_t v = 0; v < m_nodes; ++v)
    {
        if (color[v] == boost::white_color)
        {
            ++components;
            boost::breadth_first_visit(m_graph, v, boost::color_map(colorMap));
        }
    }
    return components;
}

bool
CircuitGraph::IsConnected() const
{
    return m_nodes <= 1 || CountComponents() == 1;
}

bool
CircuitGraph::IsRegular(uint32_t degree) const
{
    for (uint32_t v = 0; v < m_nodes; ++v)
    {
        if (GetDegree(v) != degree)
        {
            return false;
        }
    }
    return true;
}

std::string
CircuitGraph::FindProblem(uint32_t degree) const
{
    NS_LOG_FUNCTION(this << degree);
    for (std::size_t i = 0; i < m_circuits.size(); ++i)
    {
        const Circuit& c = m_circuits[i];
        if (c.u == c.v)
        {
            return "self-loop at node " + std::to_string(c.u);
        }
        if (i > 0 && c == m_circuits[i - 1])
        {
            return "duplicate circuit (" + std::to_string(c.u) + ", " + std::to_string(c.v) + ")";
        }
    }
    for (uint32_t v = 0; v < m_nodes; ++v)
    {
        uint32_t dv = GetDegree(v);
        if (dv != degree)
        {
            return "node " + std::to_string(v) + " has degree " + std::to_string(dv) +
                   ", expected " + std::to_string(degree);
        }
    }
    if (!IsConnected())
    {
        return "the graph is not connected (" + std::to_string(CountComponents()) + " components)";
    }
    return "";
}

} // namespace mose
} // namespace ns3
