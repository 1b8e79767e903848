/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-port-plan.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MosePortPlan");

namespace
{

/// \return "peers[i] (group g, port p)" for a flat port index
std::string
NamePort(uint32_t flat, uint32_t ports)
{
    return "peers[" + std::to_string(flat) + "] (group " + std::to_string(flat / ports) +
           ", port " + std::to_string(flat % ports) + ")";
}

/// \return "port i (group g, port p)" for a flat port index
std::string
DescribePort(uint32_t flat, uint32_t ports)
{
    return "port " + std::to_string(flat) + " (group " + std::to_string(flat / ports) + ", port " +
           std::to_string(flat % ports) + ")";
}

/// \return true if the circuits a (with ports pa) and b (with ports pb) are in graph order
bool
GraphOrder(const Circuit& a, const CircuitPorts& pa, const Circuit& b, const CircuitPorts& pb)
{
    if (!(a == b))
    {
        return a < b;
    }
    return pa.portU < pb.portU || (pa.portU == pb.portU && pa.portV < pb.portV);
}

} // namespace

PortPlan::PortPlan() = default;

PortPlan::PortPlan(uint32_t groups, uint32_t ports)
    : m_groups(groups),
      m_ports(ports)
{
    NS_LOG_FUNCTION(this << groups << ports);
    const uint64_t total = static_cast<uint64_t>(groups) * ports;
    if (total >= DARK)
    {
        ThrowBadParameter("ports",
                          std::to_string(ports),
                          "groups * ports = " + std::to_string(total) + " must be below " +
                              std::to_string(DARK) + " (with groups = " + std::to_string(groups) +
                              ")");
    }
    m_peers.assign(total, DARK);
    m_circuitOfPort.assign(total, DARK);
}

PortPlan
PortPlan::FromPeers(uint32_t groups, uint32_t ports, std::vector<uint32_t> peers)
{
    NS_LOG_FUNCTION(groups << ports << peers.size());
    PortPlan plan(groups, ports);
    const uint32_t total = groups * ports;
    if (peers.size() != total)
    {
        ThrowBadParameter("peers",
                          "a vector of " + std::to_string(peers.size()) + " entries",
                          "need groups * ports = " + std::to_string(groups) + " * " +
                              std::to_string(ports) + " = " + std::to_string(total) + " entries");
    }
    for (uint32_t i = 0; i < total; ++i)
    {
        const uint32_t p = peers[i];
        if (p == DARK)
        {
            continue;
        }
        if (p >= total)
        {
            ThrowBadParameter(NamePort(i, ports),
                              std::to_string(p),
                              "a peer must be PortPlan::DARK or a flat port index below groups * "
                              "ports = " +
                                  std::to_string(total));
        }
        if (p == i)
        {
            ThrowBadParameter(NamePort(i, ports),
                              std::to_string(p),
                              "a port cannot be joined to itself");
        }
        if (peers[p] != i)
        {
            ThrowBadParameter(NamePort(i, ports),
                              std::to_string(p),
                              "the matching must be symmetric, but " + DescribePort(p, ports) +
                                  (peers[p] == DARK ? std::string(" is dark")
                                                    : " has peer " + std::to_string(peers[p])));
        }
    }
    plan.m_peers = std::move(peers);
    plan.Derive();
    return plan;
}

void
PortPlan::Derive()
{
    NS_LOG_FUNCTION(this);
    const uint32_t total = m_groups * m_ports;
    m_circuits.clear();
    for (uint32_t i = 0; i < total; ++i)
    {
        const uint32_t p = m_peers[i];
        if (p != DARK && p > i)
        {
            // flat indices increase with (group, port): the list comes out sorted
            m_circuits.push_back(PortCircuit{i / m_ports, i % m_ports, p / m_ports, p % m_ports});
        }
    }
    // graph order: (u, v), parallel circuits by (portU, portV)
    std::vector<uint32_t> order(m_circuits.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
        const PortCircuit& x = m_circuits[a];
        const PortCircuit& y = m_circuits[b];
        return GraphOrder(Circuit{x.groupA, x.groupB},
                          CircuitPorts{x.portA, x.portB},
                          Circuit{y.groupA, y.groupB},
                          CircuitPorts{y.portA, y.portB});
    });
    m_graphCircuits.resize(order.size());
    m_graphPorts.resize(order.size());
    m_circuitOfPort.assign(total, DARK);
    for (uint32_t c = 0; c < order.size(); ++c)
    {
        const PortCircuit& x = m_circuits[order[c]];
        m_graphCircuits[c] = Circuit{x.groupA, x.groupB};
        m_graphPorts[c] = CircuitPorts{x.portA, x.portB};
        m_circuitOfPort[x.groupA * m_ports + x.portA] = c;
        m_circuitOfPort[x.groupB * m_ports + x.portB] = c;
    }
}

uint32_t
PortPlan::GetNGroups() const
{
    return m_groups;
}

uint32_t
PortPlan::GetNPorts() const
{
    return m_ports;
}

uint32_t
PortPlan::GetNCircuits() const
{
    return static_cast<uint32_t>(m_circuits.size());
}

void
PortPlan::CheckPort(uint32_t group, uint32_t port) const
{
    if (group >= m_groups)
    {
        ThrowBadParameter("group",
                          std::to_string(group),
                          "groups are numbered below " + std::to_string(m_groups));
    }
    if (port >= m_ports)
    {
        ThrowBadParameter("port",
                          std::to_string(port),
                          "ports are numbered below " + std::to_string(m_ports));
    }
}

uint32_t
PortPlan::GetPeer(uint32_t group, uint32_t port) const
{
    CheckPort(group, port);
    return m_peers[group * m_ports + port];
}

const std::vector<uint32_t>&
PortPlan::GetPeers() const
{
    return m_peers;
}

const std::vector<PortCircuit>&
PortPlan::GetCircuits() const
{
    return m_circuits;
}

CircuitGraph
PortPlan::ToCircuitGraph() const
{
    NS_LOG_FUNCTION(this);
    return CircuitGraph(m_groups, m_graphCircuits);
}

const std::vector<Circuit>&
PortPlan::GetGraphCircuits() const
{
    return m_graphCircuits;
}

const std::vector<CircuitPorts>&
PortPlan::GetCircuitPorts() const
{
    return m_graphPorts;
}

CircuitPorts
PortPlan::GetCircuitPorts(const CircuitGraph& graph, uint32_t c) const
{
    if (graph.GetNNodes() != m_groups || graph.GetNCircuits() != m_graphCircuits.size())
    {
        ThrowBadParameter("graph",
                          "a graph of " + std::to_string(graph.GetNNodes()) + " nodes and " +
                              std::to_string(graph.GetNCircuits()) + " circuits",
                          "the plan has " + std::to_string(m_groups) + " groups and " +
                              std::to_string(m_graphCircuits.size()) + " circuits");
    }
    if (c >= m_graphCircuits.size())
    {
        ThrowBadParameter("circuit",
                          std::to_string(c),
                          "circuit indices are below " + std::to_string(m_graphCircuits.size()));
    }
    const Circuit& mine = m_graphCircuits[c];
    const Circuit& theirs = graph.GetCircuits()[c];
    if (!(mine == theirs))
    {
        ThrowBadParameter("circuit",
                          std::to_string(c) + " (" + std::to_string(theirs.u) + ", " +
                              std::to_string(theirs.v) + ")",
                          "the plan's circuit " + std::to_string(c) + " joins groups " +
                              std::to_string(mine.u) + " and " + std::to_string(mine.v) +
                              ": the graph is not the plan's");
    }
    return m_graphPorts[c];
}

uint32_t
PortPlan::GetLocalPort(const CircuitGraph& graph, uint32_t c, uint32_t group) const
{
    const CircuitPorts ports = GetCircuitPorts(graph, c);
    const Circuit& circuit = m_graphCircuits[c];
    if (group == circuit.u)
    {
        return ports.portU;
    }
    if (group == circuit.v)
    {
        return ports.portV;
    }
    ThrowBadParameter("group",
                      std::to_string(group),
                      "circuit " + std::to_string(c) + " joins groups " +
                          std::to_string(circuit.u) + " and " + std::to_string(circuit.v));
}

uint32_t
PortPlan::GetCircuitIndex(uint32_t group, uint32_t port) const
{
    CheckPort(group, port);
    return m_circuitOfPort[group * m_ports + port];
}

bool
PortPlan::Matches(const CircuitGraph& graph) const
{
    return graph.GetNNodes() == m_groups && graph.GetCircuits() == m_graphCircuits;
}

PortPlan
PlanPorts(const CircuitGraph& graph, uint32_t ports)
{
    NS_LOG_FUNCTION(graph.GetNNodes() << ports);
    return PlanPorts(graph, PortPlan(graph.GetNNodes(), ports));
}

PortPlan
PlanPorts(const CircuitGraph& target, const PortPlan& current)
{
    NS_LOG_FUNCTION(target.GetNNodes() << target.GetNCircuits() << current.GetNCircuits());
    const uint32_t n = current.GetNGroups();
    const uint32_t d = current.GetNPorts();
    if (target.GetNNodes() != n)
    {
        ThrowBadParameter("target",
                          "a graph of " + std::to_string(target.GetNNodes()) + " nodes",
                          "the current plan has " + std::to_string(n) + " groups");
    }
    const std::vector<Circuit>& wanted = target.GetCircuits();
    {
        std::vector<uint32_t> degree(n, 0);
        for (const Circuit& c : wanted)
        {
            ++degree[c.u];
            ++degree[c.v];
        }
        for (uint32_t g = 0; g < n; ++g)
        {
            if (degree[g] > d)
            {
                ThrowBadParameter("ports",
                                  std::to_string(d),
                                  "group " + std::to_string(g) + " has degree " +
                                      std::to_string(degree[g]) +
                                      " in the circuit graph, more "
                                      "than its " +
                                      std::to_string(d) + " ports");
            }
        }
    }

    // merge the (u, v)-sorted lists: current's graph order puts parallel circuits by ports,
    // so the kept copies are those with the smallest (portU, portV)
    const std::vector<Circuit>& have = current.GetGraphCircuits();
    const std::vector<CircuitPorts>& havePorts = current.GetCircuitPorts();
    std::vector<uint32_t> peers(current.GetPeers().size(), PortPlan::DARK);
    std::vector<Circuit> added;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < have.size() || j < wanted.size())
    {
        if (j == wanted.size() || (i < have.size() && have[i] < wanted[j]))
        {
            ++i; // removed: its ports are free
        }
        else if (i == have.size() || wanted[j] < have[i])
        {
            added.push_back(wanted[j++]);
        }
        else
        {
            const uint32_t fu = have[i].u * d + havePorts[i].portU;
            const uint32_t fv = have[i].v * d + havePorts[i].portV;
            peers[fu] = fv;
            peers[fv] = fu;
            ++i;
            ++j;
        }
    }
    // the added circuits take the lowest free ports; ports are only taken from here on, so
    // one cursor per group finds them in O(N d) overall
    std::vector<uint32_t> cursor(n, 0);
    auto takeFree = [&](uint32_t g) {
        while (cursor[g] < d && peers[g * d + cursor[g]] != PortPlan::DARK)
        {
            ++cursor[g];
        }
        if (cursor[g] == d)
        {
            // unreachable after the degree check
            throw Error("PlanPorts: group " + std::to_string(g) + " ran out of free ports");
        }
        const uint32_t flat = g * d + cursor[g];
        peers[flat] = flat; // taken (final peer set by the caller)
        return flat;
    };
    for (const Circuit& c : added)
    {
        const uint32_t fu = takeFree(c.u);
        const uint32_t fv = takeFree(c.v);
        peers[fu] = fv;
        peers[fv] = fu;
    }
    return PortPlan::FromPeers(n, d, std::move(peers));
}

namespace
{

/**
 * \brief The one merge behind DiffCircuits() and DiffPorts(): walks two sorted lists once,
 *        O(|a| + |b|), with multiset semantics (k copies in a and m in b keep min(k, m)).
 * \param a the sorted "from" list
 * \param b the sorted "to" list
 * \param diff receives kept, removed (only in a) and added (only in b)
 */
template <class T, class Diff>
void
MergeSorted(const std::vector<T>& a, const std::vector<T>& b, Diff& diff)
{
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() || j < b.size())
    {
        if (j == b.size() || (i < a.size() && a[i] < b[j]))
        {
            diff.removed.push_back(a[i++]);
        }
        else if (i == a.size() || b[j] < a[i])
        {
            diff.added.push_back(b[j++]);
        }
        else
        {
            diff.kept.push_back(a[i]);
            ++i;
            ++j;
        }
    }
}

} // namespace

CircuitDiff
DiffCircuits(const CircuitGraph& from, const CircuitGraph& to)
{
    NS_LOG_FUNCTION(from.GetNCircuits() << to.GetNCircuits());
    if (from.GetNNodes() != to.GetNNodes())
    {
        ThrowBadParameter("to",
                          "a graph of " + std::to_string(to.GetNNodes()) + " nodes",
                          "from has " + std::to_string(from.GetNNodes()) + " nodes");
    }
    const std::vector<Circuit>& a = from.GetCircuits();
    const std::vector<Circuit>& b = to.GetCircuits();
    CircuitDiff diff;
    MergeSorted(a, b, diff);
    return diff;
}

PortCircuitDiff
DiffPorts(const PortPlan& from, const PortPlan& to)
{
    NS_LOG_FUNCTION(from.GetNCircuits() << to.GetNCircuits());
    if (from.GetNGroups() != to.GetNGroups() || from.GetNPorts() != to.GetNPorts())
    {
        ThrowBadParameter("to",
                          "a plan of " + std::to_string(to.GetNGroups()) + " groups x " +
                              std::to_string(to.GetNPorts()) + " ports",
                          "from has " + std::to_string(from.GetNGroups()) + " groups x " +
                              std::to_string(from.GetNPorts()) + " ports");
    }
    const std::vector<PortCircuit>& a = from.GetCircuits();
    const std::vector<PortCircuit>& b = to.GetCircuits();
    PortCircuitDiff diff;
    MergeSorted(a, b, diff);
    return diff;
}

} // namespace mose
} // namespace ns3
