/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-route-table.h"

#include "mose-object-list.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-hash.h"
#include "ns3/mose-level-search.h"
#include "ns3/mose-ns3-compat.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MoseRouteTable");

NS_OBJECT_ENSURE_REGISTERED(MoseRouteTable);

namespace
{

/// \return the core's rule for an attribute value
mose::RoutingRule
ToCore(MoseRouteTable::RuleValue rule)
{
    switch (rule)
    {
    case MoseRouteTable::RANDOM_SHORTEST_PATH:
        return mose::RoutingRule::RANDOM_SHORTEST_PATH;
    case MoseRouteTable::ECMP:
        return mose::RoutingRule::ECMP;
    case MoseRouteTable::SHORTEST_PATH:
    default:
        return mose::RoutingRule::SHORTEST_PATH;
    }
}

/// Largest N and d the 16-bit tables hold (0xFFFF is their "none")
constexpr uint32_t MAX_DIMENSION = 0xFFFE;

} // namespace

TypeId
MoseRouteTable::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MoseRouteTable")
            .SetParent<Object>()
            .SetGroupName("Mose")
            .AddConstructor<MoseRouteTable>()
            .AddAttribute("Rule",
                          "How packets spread over the shortest paths (the flow level's "
                          "routing rule); takes effect at the next Update() or Recompute()",
                          EnumValue(SHORTEST_PATH),
                          MOSE_ENUM_ACCESSOR(RuleValue, &MoseRouteTable::m_rule),
                          MakeEnumChecker(SHORTEST_PATH,
                                          "shortest-path",
                                          RANDOM_SHORTEST_PATH,
                                          "random-shortest-path",
                                          ECMP,
                                          "ecmp"))
            .AddAttribute("Seed",
                          "The RANDOM_SHORTEST_PATH hash seed (the flow level's routing seed of "
                          "the run); takes effect at the next Update() or Recompute()",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MoseRouteTable::m_seed),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("RoutesRecomputed",
                            "All routes were recomputed: wall-clock duration and N",
                            MakeTraceSourceAccessor(&MoseRouteTable::m_recomputedTrace),
                            "ns3::MoseRouteTable::RoutesRecomputedCallback");
    return tid;
}

MoseRouteTable::MoseRouteTable()
{
    NS_LOG_FUNCTION(this);
}

MoseRouteTable::~MoseRouteTable()
{
    NS_LOG_FUNCTION(this);
}

void
MoseRouteTable::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_graph.reset();
    m_port.clear();
    m_port.shrink_to_fit();
    m_distance.clear();
    m_distance.shrink_to_fit();
    Object::DoDispose();
}

void
MoseRouteTable::SetAddressing(const MoseAddressing& addressing)
{
    NS_LOG_FUNCTION(this);
    if (addressing.GetNGroups() > MAX_DIMENSION)
    {
        mose::ThrowBadParameter("groups",
                                std::to_string(addressing.GetNGroups()),
                                "at most " + std::to_string(MAX_DIMENSION) +
                                    " groups (16-bit route tables)");
    }
    if (addressing.GetPortsPerGroup() > MAX_DIMENSION)
    {
        mose::ThrowBadParameter("portsPerGroup",
                                std::to_string(addressing.GetPortsPerGroup()),
                                "at most " + std::to_string(MAX_DIMENSION));
    }
    m_addressing = addressing;
    m_n = addressing.GetNGroups();
    m_d = addressing.GetPortsPerGroup();
    m_peers.assign(static_cast<std::size_t>(m_n) * m_d, NONE);
    m_graph.reset();
    m_circuitPorts.clear();
    m_port.clear();
    m_distance.clear();
    MoseObjectList::Add(MoseObjectList::ROUTE_TABLE, this); // /MoseRouteTableList/[i]
}

const MoseAddressing&
MoseRouteTable::GetAddressing() const
{
    return m_addressing;
}

void
MoseRouteTable::SetRule(mose::RoutingRule rule)
{
    switch (rule)
    {
    case mose::RoutingRule::SHORTEST_PATH:
        m_rule = SHORTEST_PATH;
        break;
    case mose::RoutingRule::RANDOM_SHORTEST_PATH:
        m_rule = RANDOM_SHORTEST_PATH;
        break;
    case mose::RoutingRule::ECMP:
        m_rule = ECMP;
        break;
    default:
        mose::ThrowBadParameter("Rule",
                                std::to_string(static_cast<int>(rule)),
                                "shortest-path, random-shortest-path or ecmp");
    }
}

mose::RoutingRule
MoseRouteTable::GetRule() const
{
    return ToCore(m_rule);
}

mose::RoutingRule
MoseRouteTable::GetActiveRule() const
{
    return ToCore(m_activeRule);
}

void
MoseRouteTable::SetSeed(uint64_t seed)
{
    m_seed = seed;
}

uint64_t
MoseRouteTable::GetSeed() const
{
    return m_seed;
}

void
MoseRouteTable::CheckPeers(const std::vector<uint32_t>& peers) const
{
    if (m_n == 0)
    {
        throw mose::Error("MoseRouteTable: call SetAddressing() before Update() (it fixes N "
                          "and d)");
    }
    const std::size_t ports = static_cast<std::size_t>(m_n) * m_d;
    if (peers.size() != ports)
    {
        mose::ThrowBadParameter("peers.size()",
                                std::to_string(peers.size()),
                                "N * d = " + std::to_string(m_n) + " * " + std::to_string(m_d) +
                                    " = " + std::to_string(ports) + " entries, one per port");
    }
    // first every entry on its own (range, self), then the symmetry, so that a bad entry is
    // named rather than the partner that points at it
    for (std::size_t i = 0; i < ports; ++i)
    {
        const uint32_t j = peers[i];
        if (j != NONE && (j >= ports || j == i))
        {
            mose::ThrowBadParameter("peers[" + std::to_string(i) + "]",
                                    std::to_string(j),
                                    j == i
                                        ? std::string("a port other than the port itself")
                                        : "a flat port index < N * d = " + std::to_string(ports) +
                                              ", or UINT32_MAX for a dark port");
        }
    }
    for (std::size_t i = 0; i < ports; ++i)
    {
        const uint32_t j = peers[i];
        if (j != NONE && peers[j] != i)
        {
            mose::ThrowBadParameter(
                "peers[" + std::to_string(i) + "]",
                std::to_string(j),
                "a symmetric matching: peers[" + std::to_string(j) + "] is " +
                    (peers[j] == NONE ? std::string("dark") : std::to_string(peers[j])) + ", not " +
                    std::to_string(i));
        }
    }
}

void
MoseRouteTable::Update(const std::vector<uint32_t>& peers)
{
    NS_LOG_FUNCTION(this << peers.size());
    CheckPeers(peers);
    Install(peers);
}

void
MoseRouteTable::Update(const mose::CircuitGraph& graph,
                       const std::vector<std::pair<uint32_t, uint32_t>>& circuitPorts)
{
    NS_LOG_FUNCTION(this << graph.GetNNodes());
    if (graph.GetNNodes() != m_n)
    {
        mose::ThrowBadParameter("graph nodes",
                                std::to_string(graph.GetNNodes()),
                                "N = " + std::to_string(m_n) + " groups of the addressing");
    }
    if (circuitPorts.size() != graph.GetNCircuits())
    {
        mose::ThrowBadParameter("circuitPorts.size()",
                                std::to_string(circuitPorts.size()),
                                "one entry per circuit, " + std::to_string(graph.GetNCircuits()));
    }
    std::vector<uint32_t> peers(static_cast<std::size_t>(m_n) * m_d, NONE);
    const auto& circuits = graph.GetCircuits();
    for (std::size_t c = 0; c < circuits.size(); ++c)
    {
        const auto [pu, pv] = circuitPorts[c];
        for (uint32_t p : {pu, pv})
        {
            if (p >= m_d)
            {
                mose::ThrowBadParameter("circuitPorts[" + std::to_string(c) + "]",
                                        std::to_string(p),
                                        "ports must be < d = " + std::to_string(m_d));
            }
        }
        const std::size_t a = static_cast<std::size_t>(circuits[c].u) * m_d + pu;
        const std::size_t b = static_cast<std::size_t>(circuits[c].v) * m_d + pv;
        if (peers[a] != NONE || peers[b] != NONE || a == b)
        {
            mose::ThrowBadParameter("circuitPorts[" + std::to_string(c) + "]",
                                    "(" + std::to_string(pu) + ", " + std::to_string(pv) + ")",
                                    "ports no other circuit uses");
        }
        peers[a] = static_cast<uint32_t>(b);
        peers[b] = static_cast<uint32_t>(a);
    }
    Install(std::move(peers));
}

std::vector<uint32_t>
MoseRouteTable::MakePeers(const mose::CircuitGraph& graph, uint32_t portsPerGroup)
{
    const uint32_t n = graph.GetNNodes();
    std::vector<uint32_t> used(n, 0);
    std::vector<uint32_t> peers(static_cast<std::size_t>(n) * portsPerGroup, NONE);
    for (const mose::Circuit& c : graph.GetCircuits())
    {
        if (used[c.u] >= portsPerGroup || used[c.v] + (c.u == c.v ? 1 : 0) >= portsPerGroup)
        {
            mose::ThrowBadParameter(
                "portsPerGroup",
                std::to_string(portsPerGroup),
                "at least the degree of node " +
                    std::to_string(used[c.u] >= portsPerGroup ? c.u : c.v) + " = " +
                    std::to_string(graph.GetDegree(used[c.u] >= portsPerGroup ? c.u : c.v)));
        }
        const std::size_t a = static_cast<std::size_t>(c.u) * portsPerGroup + used[c.u]++;
        const std::size_t b = static_cast<std::size_t>(c.v) * portsPerGroup + used[c.v]++;
        peers[a] = static_cast<uint32_t>(b);
        peers[b] = static_cast<uint32_t>(a);
    }
    return peers;
}

void
MoseRouteTable::Install(std::vector<uint32_t> peers)
{
    // circuits in (u, v) order with their ports, the order CircuitGraph keeps them in
    struct End
    {
        mose::Circuit circuit;
        uint32_t pu;
        uint32_t pv;
    };

    std::vector<End> ends;
    ends.reserve(peers.size() / 2);
    for (std::size_t i = 0; i < peers.size(); ++i)
    {
        const uint32_t j = peers[i];
        if (j == NONE || j < i)
        {
            continue;
        }
        const uint32_t gi = static_cast<uint32_t>(i / m_d);
        const uint32_t gj = j / m_d;
        const uint32_t pi = static_cast<uint32_t>(i % m_d);
        const uint32_t pj = j % m_d;
        if (gi <= gj)
        {
            ends.push_back({{gi, gj}, pi, pj});
        }
        else
        {
            ends.push_back({{gj, gi}, pj, pi});
        }
    }
    std::sort(ends.begin(), ends.end(), [](const End& a, const End& b) {
        return a.circuit < b.circuit || (a.circuit == b.circuit && a.pu < b.pu);
    });
    std::vector<mose::Circuit> circuits;
    std::vector<std::pair<uint32_t, uint32_t>> circuitPorts;
    circuits.reserve(ends.size());
    circuitPorts.reserve(ends.size());
    for (const End& e : ends)
    {
        circuits.push_back(e.circuit);
        circuitPorts.emplace_back(e.pu, e.pv);
    }
    auto graph = std::make_shared<const mose::CircuitGraph>(m_n, std::move(circuits));
    // CircuitGraph sorts by (u, v) too; parallel circuits are interchangeable for routing
    m_peers = std::move(peers);
    m_graph = std::move(graph);
    m_circuitPorts = std::move(circuitPorts);
    Recompute();
}

void
MoseRouteTable::Recompute()
{
    NS_LOG_FUNCTION(this);
    if (!m_graph)
    {
        throw mose::Error("MoseRouteTable::Recompute: no circuit graph yet, call Update()");
    }
    const auto start = std::chrono::steady_clock::now();
    ComputeTables();
    const auto stop = std::chrono::steady_clock::now();
    m_lastDuration =
        NanoSeconds(std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count());
    ++m_version;
    NS_LOG_INFO("routes recomputed for N=" << m_n << " in " << m_lastDuration.GetMicroSeconds()
                                           << " us (version " << m_version << ")");
    m_recomputedTrace(m_lastDuration, m_n);
}

namespace
{

/**
 * \brief RANDOM_SHORTEST_PATH's next hops for all (node, destination), 64 destinations at a time.
 *
 * One bit-parallel search per 64 destinations (mose::LevelSearch) gives every level's frontier;
 * every node is then marked as a source, LevelSearch::CountPaths() gives every (node,
 * destination) path count, the values of ShortestPathRouting::ComputeTree()'s pathCount bit for
 * bit, and LevelSearch::FollowPaths() makes ComputeTree()'s choice for all of them (the code
 * the flow-level evaluation uses: one implementation of the rule); its steps, nearest first,
 * give each entry's port and distance. The hash is computed only
 * where there is a choice; rows of the tables are written directly (no per-entry sort).
 * \tparam PortOf callable (node, circuit) -> port
 * \param routing the core's routing (its graph and seed)
 * \param portOf maps a node's circuit to its port
 * \param port filled: [node * N + destination] output port
 * \param distance filled: [node * N + destination] hops
 */
template <class PortOf>
void
RandomShortestPathTables(const mose::ShortestPathRouting& routing,
                         const PortOf& portOf,
                         std::vector<uint16_t>& port,
                         std::vector<uint16_t>& distance)
{
    const mose::CircuitGraph& graph = routing.GetGraph();
    const uint32_t n = graph.GetNNodes();
    constexpr uint32_t BATCH = mose::LevelSearch::BATCH;
    mose::LevelSearch search;
    mose::PathStepArray steps;
    uint32_t destinations[BATCH];
    for (uint32_t first = 0; first < n; first += BATCH)
    {
        const uint32_t count = std::min(BATCH, n - first);
        for (uint32_t s = 0; s < count; ++s)
        {
            destinations[s] = first + s;
        }
        search.Search(graph, destinations, count);
        search.MarkAllSources();
        search.CountPaths(graph);
        steps.clear();
        search.FollowPaths(graph, true, routing.GetSeed(), steps);
        for (uint32_t s = 0; s < count; ++s)
        {
            // a destination's own entry: distance 0, no port
            distance[static_cast<std::size_t>(first + s) * n + first + s] = 0;
        }
        // nearest first: a next hop's distance is known
        for (std::size_t i = steps.size(); i-- > 0;)
        {
            const mose::PathStep& step = steps[i];
            const std::size_t cell = static_cast<std::size_t>(step.node) * n + first + step.slot;
            distance[cell] = static_cast<uint16_t>(
                distance[static_cast<std::size_t>(step.next) * n + first + step.slot] + 1);
            port[cell] = portOf(step.node, step.circuit);
        }
    }
}

} // namespace

void
MoseRouteTable::ComputeTables()
{
    // The one place that uses the flow-level core; the routing shares the live graph.
    const mose::CircuitGraph& graph = *m_graph;
    const mose::RoutingRule rule = ToCore(m_rule);
    const mose::ShortestPathRouting routing(m_graph, rule, m_seed);

    const uint32_t n = m_n;
    const auto& circuits = graph.GetCircuits();
    const auto& circuitPorts = m_circuitPorts;
    auto portOf = [&circuits, &circuitPorts](uint32_t node, uint32_t circuit) -> uint16_t {
        return static_cast<uint16_t>(circuits[circuit].u == node ? circuitPorts[circuit].first
                                                                 : circuitPorts[circuit].second);
    };

    std::vector<uint16_t> port(static_cast<std::size_t>(n) * n, NO_PORT);
    std::vector<uint16_t> distance(static_cast<std::size_t>(n) * n, NO_DISTANCE);
    if (rule == mose::RoutingRule::RANDOM_SHORTEST_PATH)
    {
        RandomShortestPathTables(routing, portOf, port, distance);
    }
    else
    {
        // SHORTEST_PATH (and ECMP's default port): 64 destinations per bit-parallel search
        mose::TreeBatch batch;
        uint32_t destinations[mose::ShortestPathRouting::BATCH];
        for (uint32_t first = 0; first < n; first += mose::ShortestPathRouting::BATCH)
        {
            const uint32_t count = std::min(mose::ShortestPathRouting::BATCH, n - first);
            for (uint32_t s = 0; s < count; ++s)
            {
                destinations[s] = first + s;
            }
            routing.ComputeTreeBatch(destinations, count, batch, true);
            for (uint32_t u = 0; u < n; ++u)
            {
                const std::size_t row = static_cast<std::size_t>(u) * n + first;
                for (uint32_t s = 0; s < count; ++s)
                {
                    if (!batch.IsReached(u, s))
                    {
                        continue;
                    }
                    const uint32_t d = batch.Distance(u, s);
                    distance[row + s] = static_cast<uint16_t>(d);
                    if (d != 0)
                    {
                        port[row + s] = portOf(u, batch.At(u, s).nextCircuit);
                    }
                }
            }
        }
    }
    m_port.swap(port);
    m_distance.swap(distance);
    m_activeRule = m_rule;
}

uint32_t
MoseRouteTable::GetOutputPort(uint32_t node, uint32_t dstGroup, uint64_t flowHash) const
{
    if (m_activeRule != ECMP)
    {
        return GetOutputPort(node, dstGroup);
    }
    const uint32_t du = GetDistance(node, dstGroup);
    if (du == NONE || du == 0)
    {
        return NONE;
    }
    const uint32_t* peers = m_peers.data() + static_cast<std::size_t>(node) * m_d;
    const uint16_t* column = m_distance.data() + dstGroup;
    const std::size_t n = m_n;
    auto closer = [&](uint32_t p) {
        const uint32_t peer = peers[p];
        return peer != NONE && column[(peer / m_d) * n] + 1U == du;
    };
    uint32_t count = 0;
    for (uint32_t p = 0; p < m_d; ++p)
    {
        count += closer(p) ? 1 : 0;
    }
    // the node salts the hash so that successive hops choose independently
    uint32_t pick =
        static_cast<uint32_t>(mose::Mix64(flowHash ^ (0xD1B54A32D192ED03ULL * (node + 1))) % count);
    for (uint32_t p = 0; p < m_d; ++p)
    {
        if (closer(p) && pick-- == 0)
        {
            return p;
        }
    }
    return NONE; // not reached: count >= 1 whenever du >= 1
}

MoseRouteTable::NextHop
MoseRouteTable::GetNextHop(uint32_t node, uint32_t dstGroup) const
{
    const uint32_t p = GetOutputPort(node, dstGroup);
    if (p == NONE)
    {
        return {NONE, NONE};
    }
    return {m_peers[static_cast<std::size_t>(node) * m_d + p] / m_d, p};
}

MoseRouteTable::NextHop
MoseRouteTable::GetNextHop(uint32_t node, uint32_t dstGroup, uint64_t flowHash) const
{
    const uint32_t p = GetOutputPort(node, dstGroup, flowHash);
    if (p == NONE)
    {
        return {NONE, NONE};
    }
    return {m_peers[static_cast<std::size_t>(node) * m_d + p] / m_d, p};
}

std::vector<uint32_t>
MoseRouteTable::GetCloserPorts(uint32_t node, uint32_t dstGroup) const
{
    std::vector<uint32_t> ports;
    const uint32_t du = GetDistance(node, dstGroup);
    if (du == NONE || du == 0)
    {
        return ports;
    }
    for (uint32_t p = 0; p < m_d; ++p)
    {
        const uint32_t peer = m_peers[static_cast<std::size_t>(node) * m_d + p];
        if (peer != NONE && GetDistance(peer / m_d, dstGroup) + 1U == du)
        {
            ports.push_back(p);
        }
    }
    return ports;
}

uint64_t
MoseRouteTable::HashFlow(const FlowKey& key)
{
    const uint64_t addresses = (static_cast<uint64_t>(key.source) << 32) | key.destination;
    const uint64_t rest = (static_cast<uint64_t>(key.protocol) << 32) |
                          (static_cast<uint64_t>(key.sourcePort) << 16) | key.destinationPort;
    return mose::Mix64(mose::Mix64(addresses) ^ rest);
}

uint32_t
MoseRouteTable::GetNGroups() const
{
    return m_n;
}

uint32_t
MoseRouteTable::GetPortsPerGroup() const
{
    return m_d;
}

const std::vector<uint32_t>&
MoseRouteTable::GetPeers() const
{
    return m_peers;
}

uint32_t
MoseRouteTable::GetPeer(uint32_t group, uint32_t port) const
{
    if (group >= m_n || port >= m_d)
    {
        return NONE;
    }
    return m_peers[static_cast<std::size_t>(group) * m_d + port];
}

std::shared_ptr<const mose::CircuitGraph>
MoseRouteTable::GetGraph() const
{
    return m_graph;
}

const std::vector<std::pair<uint32_t, uint32_t>>&
MoseRouteTable::GetCircuitPorts() const
{
    return m_circuitPorts;
}

uint64_t
MoseRouteTable::GetVersion() const
{
    return m_version;
}

Time
MoseRouteTable::GetLastRecomputeDuration() const
{
    return m_lastDuration;
}

} // namespace ns3
