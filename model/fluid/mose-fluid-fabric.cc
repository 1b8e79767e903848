/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-fluid-fabric.h"

#include "ns3/mose-error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace ns3
{
namespace mose
{

namespace
{

/// "no time": later than any event
constexpr int64_t NEVER = std::numeric_limits<int64_t>::max();

/// Throws unless a time is >= 0
void
CheckTime(const std::string& name, int64_t ns)
{
    if (ns < 0)
    {
        ThrowBadParameter(name, std::to_string(ns) + " ns", "a time >= 0");
    }
}

/// Throws unless a rate is finite and > 0
void
CheckRate(const std::string& name, double bitRate)
{
    if (!(std::isfinite(bitRate) && bitRate > 0))
    {
        ThrowBadParameter(name, FormatNumber(bitRate), "a finite rate > 0 bit/s");
    }
}

} // namespace

void
FluidFabricConfig::Validate() const
{
    if (ports == 0)
    {
        ThrowBadParameter("ports", "0", "d >= 1 optical ports per group");
    }
    if (rule == RoutingRule::ECMP)
    {
        ThrowBadParameter("routing rule",
                          "ecmp",
                          "shortest-path or random-shortest-path (the fluid level gives each "
                          "transfer one path; ECMP's per-packet hash of the ports has no fluid "
                          "counterpart)");
    }
    CheckRate("circuit rate", circuitBitRate);
    CheckRate("host rate", hostBitRate);
    CheckTime("circuit delay", circuitDelayNs);
    CheckTime("host delay", hostDelayNs);
    CheckTime("notice delay", noticeDelayNs);
    CheckTime("drain timeout", drainTimeoutNs);
    CheckTime("dark time", darkNs);
    CheckTime("rate epoch", rateEpochNs);
    if (hostsPerGroup == 0 || hostsPerGroup > MAX_HOSTS_PER_GROUP ||
        (!hostLinks && hostsPerGroup != 1))
    {
        ThrowBadParameter("hosts per group",
                          std::to_string(hostsPerGroup),
                          hostLinks ? "1 to " + std::to_string(MAX_HOSTS_PER_GROUP)
                                    : std::string("1 without host links (the group node sends)"));
    }
    for (const auto& [name, bytes] : {std::pair<const char*, double>{"mark backlog", markBytes},
                                      {"queue limit", queueLimitBytes}})
    {
        if (!(std::isfinite(bytes) && bytes >= 0))
        {
            ThrowBadParameter(name, FormatNumber(bytes), "a finite number of bytes >= 0");
        }
    }
    if (queues && rateEpochNs > 0)
    {
        ThrowBadParameter("rate epoch",
                          std::to_string(rateEpochNs) + " ns",
                          "0 with fluid queues (--fluidQueues): a backlog grows at the exact "
                          "rates' excess");
    }
    if (segmentBytes == 0 || wireBytesPerSegment < segmentBytes)
    {
        ThrowBadParameter("segment bytes",
                          std::to_string(segmentBytes) + " payload in " +
                              std::to_string(wireBytesPerSegment) + " wire bytes",
                          "1 <= payload <= wire bytes per packet");
    }
    if (tcp.enabled)
    {
        if (queues)
        {
            ThrowBadParameter("TCP's start",
                              "on with fluid queues",
                              "one of them: the fluid queues start a transfer as RoCEv2 does");
        }
        if (!(std::isfinite(tcp.initialWindowBytes) && tcp.initialWindowBytes >= 1))
        {
            ThrowBadParameter("TCP's first window",
                              FormatNumber(tcp.initialWindowBytes) + " bytes",
                              "a finite number of bytes >= 1");
        }
        if (!(std::isfinite(tcp.maxWindowBytes) && tcp.maxWindowBytes >= 1))
        {
            ThrowBadParameter("TCP's largest window",
                              FormatNumber(tcp.maxWindowBytes) + " bytes",
                              "a finite number of bytes >= 1");
        }
        if (!(std::isfinite(tcp.avoidanceGrowth) && tcp.avoidanceGrowth > 1 &&
              tcp.avoidanceGrowth <= tcp.growth))
        {
            ThrowBadParameter("TCP's window growth per round trip after slow start",
                              FormatNumber(tcp.avoidanceGrowth),
                              "above 1 and at most slow start's");
        }
        if (!(tcp.slowStartEndBytes >= 1))
        {
            ThrowBadParameter("TCP's window at the end of slow start",
                              FormatNumber(tcp.slowStartEndBytes) + " bytes",
                              "at least 1 byte (infinity: never)");
        }
        if (!(std::isfinite(tcp.growth) && tcp.growth > 1 && tcp.growth <= 2))
        {
            ThrowBadParameter("TCP's window growth per round trip",
                              FormatNumber(tcp.growth),
                              "above 1 and at most 2 (slow start)");
        }
        if (tcp.synWireBytes == 0 || tcp.ackWireBytes == 0)
        {
            ThrowBadParameter("TCP's control packet",
                              std::to_string(std::min(tcp.synWireBytes, tcp.ackWireBytes)) +
                                  " wire bytes",
                              "at least 1 byte");
        }
    }
}

FluidFabric::FluidFabric(const CircuitGraph& graph, const FluidFabricConfig& config)
    : m_config(config),
      m_n(graph.GetNNodes())
{
    m_config.Validate();
    if (m_n < 2)
    {
        ThrowBadParameter("groups", std::to_string(m_n), "N >= 2");
    }
    for (uint32_t g = 0; g < m_n; ++g)
    {
        if (graph.GetDegree(g) > m_config.ports)
        {
            ThrowBadParameter("degree of group " + std::to_string(g) + " in the initial graph",
                              std::to_string(graph.GetDegree(g)),
                              "at most d = " + std::to_string(m_config.ports) + " circuits");
        }
    }
    const uint32_t d = m_config.ports;
    const double payload =
        static_cast<double>(m_config.segmentBytes) / m_config.wireBytesPerSegment;
    // links 0 .. N d - 1: the circuit direction sent on by flat port g d + p
    for (uint32_t i = 0; i < m_n * d; ++i)
    {
        m_net.AddLink(m_config.circuitBitRate / 8 * payload);
    }
    // then the host links (UpLink(), DownLink()): up (host h of group g -> g) N d + g G + h,
    // down N d + N G + g G + h
    for (uint32_t i = 0; i < 2 * m_n * m_config.hostsPerGroup; ++i)
    {
        m_net.AddLink(m_config.hostBitRate / 8 * payload);
    }
    m_segmentSerialNsCircuit = m_config.wireBytesPerSegment * 8e9 / m_config.circuitBitRate;
    m_segmentSerialNsHost = m_config.wireBytesPerSegment * 8e9 / m_config.hostBitRate;
    m_peers = PlanPorts(graph, d).GetPeers();
    m_routedPeers = m_peers;
    m_pairBytes.assign(static_cast<std::size_t>(m_n) * m_n, 0);
    if (m_config.queues)
    {
        m_queues.resize(m_net.GetNLinks());
        for (FluidNetwork::LinkId l = 0; l < m_queues.size(); ++l)
        {
            m_queues[l].capacity = m_net.GetCapacity(l);
        }
    }
    Reroute();
}

int64_t
FluidFabric::Now() const
{
    return m_now;
}

void
FluidFabric::Schedule(int64_t delayNs, Event event)
{
    CheckTime("event delay", delayNs);
    m_events.push_back({m_now + delayNs, m_seq++, std::move(event)});
    std::push_heap(m_events.begin(), m_events.end(), std::greater<>());
}

uint64_t
FluidFabric::StartTransfer(uint32_t src,
                           uint32_t dst,
                           uint64_t bytes,
                           TrafficClass cls,
                           DoneCallback done,
                           uint32_t rail,
                           bool keepConnection)
{
    if (src >= m_n || dst >= m_n || src == dst)
    {
        ThrowBadParameter("transfer",
                          std::to_string(src) + " -> " + std::to_string(dst),
                          "two different groups < N = " + std::to_string(m_n));
    }
    if (bytes == 0)
    {
        ThrowBadParameter("transfer bytes", "0", "at least 1 byte");
    }
    Sync(); // the flows in flight have sent what they sent up to now at their old rates
    const uint64_t id = m_transfers.size();
    FluidTransfer t;
    t.src = src;
    t.dst = dst;
    t.cls = cls;
    t.bytes = bytes;
    t.startNs = m_now;
    t.rail = rail;
    m_transfers.push_back(t);
    if (m_config.tcp.enabled)
    {
        StartTcp(id, std::move(done), keepConnection);
        return id;
    }
    Running r;
    r.id = id;
    if (m_config.queues)
    {
        // RoCEv2's start: at the first link's share until a port of the path marks
        r.path = PathOf(src, dst, rail);
        r.converged = r.path.size() <= 1;
        r.flow = m_net.AddFlow(static_cast<double>(bytes), RatedPath(r.path, r.converged));
    }
    else
    {
        r.flow = m_net.AddFlow(static_cast<double>(bytes), PathOf(src, dst, rail));
    }
    r.done = std::move(done);
    Launch(std::move(r));
    return id;
}

void
FluidFabric::Launch(Running r)
{
    if (m_net.GetPath(r.flow).empty())
    {
        r.heldSince = m_now;
    }
    if (r.flow >= m_flowTransfer.size())
    {
        m_flowTransfer.resize(r.flow + 1);
    }
    m_flowTransfer[r.flow] = r.id;
    m_running.emplace(r.id, std::move(r));
    m_maxConcurrent = std::max<uint64_t>(m_maxConcurrent, m_running.size());
    m_dirty = true;
}

uint64_t
FluidFabric::StartAggregate(std::shared_ptr<const std::vector<FluidPart>> parts,
                            TrafficClass cls,
                            DoneCallback done)
{
    if (!parts || parts->empty())
    {
        ThrowBadParameter("aggregate", "no parts", "at least one transfer");
    }
    if (m_config.queues)
    {
        ThrowBadParameter("aggregate",
                          std::to_string(parts->size()) + " parts",
                          "single transfers with fluid queues (--fluidQueues): an aggregate's "
                          "parts have no one path to queue on");
    }
    if (parts != m_checkedParts)
    {
        // checked once while the same parts come again (a collective repeated)
        uint64_t total = 0;
        double largest = 0;
        for (const FluidPart& p : *parts)
        {
            if (p.src >= m_n || p.dst >= m_n || p.src == p.dst)
            {
                ThrowBadParameter("aggregate part",
                                  std::to_string(p.src) + " -> " + std::to_string(p.dst),
                                  "two different groups < N = " + std::to_string(m_n));
            }
            if (p.bytes == 0)
            {
                ThrowBadParameter("aggregate part bytes", "0", "at least 1 byte");
            }
            total += p.bytes;
            largest = std::max(largest, static_cast<double>(p.bytes));
        }
        m_checkedParts = parts;
        m_checkedTotal = total;
        m_checkedLargest = largest;
    }
    const uint64_t total = m_checkedTotal;
    const double largest = m_checkedLargest;
    Sync();
    const AggregateRoute& route = RouteOf(parts);
    const uint64_t id = m_transfers.size();
    FluidTransfer t;
    t.src = parts->front().src;
    t.dst = parts->front().dst;
    t.cls = cls;
    t.bytes = total;
    t.startNs = m_now;
    t.parts = parts->size();
    m_transfers.push_back(t);
    Running r;
    r.id = id;
    r.flow = m_net.AddFlow(largest, route.path, route.weights);
    r.done = std::move(done);
    r.parts = std::move(parts);
    r.latencyNs = route.latencyNs;
    Launch(std::move(r));
    return id;
}

const FluidFabric::AggregateRoute&
FluidFabric::RouteOf(const std::shared_ptr<const std::vector<FluidPart>>& parts)
{
    auto cached = m_aggregateRoutes.find(parts.get());
    if (cached != m_aggregateRoutes.end())
    {
        return cached->second.second;
    }
    // Bytes per link without walking every part's path: per destination, each node's bytes
    // towards it (its own parts' and those its subtree forwards through it) cross the node's
    // tree circuit once; nodes are taken farthest first (the tree's order, reversed), so a node
    // has all of its subtree's bytes when it hands them on: O(N) per destination instead of
    // O(parts x hops).
    const uint32_t d = m_config.ports;
    std::vector<std::vector<uint32_t>> partsTo(m_n);
    double largest = 0;
    for (uint32_t k = 0; k < parts->size(); ++k)
    {
        partsTo[(*parts)[k].dst].push_back(k);
        largest = std::max(largest, static_cast<double>((*parts)[k].bytes));
    }
    std::vector<double> linkBytes(m_net.GetNLinks(), 0.0);
    std::vector<double> acc(m_n, 0.0);
    AggregateRoute route;
    uint32_t longest = 0; // circuits on the longest path
    DestinationTree scratch;
    for (uint32_t dst = 0; dst < m_n; ++dst)
    {
        if (partsTo[dst].empty())
        {
            continue;
        }
        const DestinationTree* tree = m_trees[dst] ? &*m_trees[dst] : nullptr;
        if (tree == nullptr)
        {
            m_routing->ComputeTree(dst, scratch); // not kept: N trees of N nodes at large N
            tree = &scratch;
        }
        for (uint32_t k : partsTo[dst])
        {
            const FluidPart& p = (*parts)[k];
            const uint32_t hops = tree->distance[p.src];
            if (hops == DestinationTree::UNREACHABLE)
            {
                // held
                return (m_aggregateRoutes[parts.get()] = {parts, AggregateRoute()}).second;
            }
            longest = std::max(longest, hops);
            const auto b = static_cast<double>(p.bytes);
            acc[p.src] += b;
            if (m_config.hostLinks)
            {
                linkBytes[UpLink(p.src, p.rail)] += b;
                linkBytes[DownLink(dst, p.rail)] += b;
            }
        }
        for (auto it = tree->order.rbegin(); it != tree->order.rend(); ++it)
        {
            const uint32_t node = *it;
            if (node == dst || acc[node] == 0)
            {
                continue;
            }
            const uint32_t c = tree->nextCircuit[node];
            const uint32_t port = m_routedPlan.GetLocalPort(*m_routedGraph, c, node);
            linkBytes[node * d + port] += acc[node];
            acc[tree->nextHop[node]] += acc[node];
            acc[node] = 0;
        }
        acc[dst] = 0;
    }
    for (uint32_t l = 0; l < linkBytes.size(); ++l)
    {
        if (linkBytes[l] > 0)
        {
            route.path.push_back(l);
            route.weights.push_back(linkBytes[l] / largest);
        }
    }
    // the longest path's latency: a path of as many circuits (LatencyOf reads only the kinds)
    std::vector<FluidNetwork::LinkId> longestPath(longest, 0);
    if (m_config.hostLinks)
    {
        longestPath.insert(longestPath.begin(), UpLink(0, 0));
        longestPath.push_back(DownLink(0, 0));
    }
    route.latencyNs = LatencyOf(longestPath);
    return (m_aggregateRoutes[parts.get()] = {parts, std::move(route)}).second;
}

const FluidTransfer&
FluidFabric::GetTransfer(uint64_t id) const
{
    if (id >= m_transfers.size())
    {
        ThrowBadParameter("transfer id",
                          std::to_string(id),
                          "an id < " + std::to_string(m_transfers.size()));
    }
    return m_transfers[id];
}

const std::vector<FluidTransfer>&
FluidFabric::GetTransfers() const
{
    return m_transfers;
}

FluidNetwork::LinkId
FluidFabric::UpLink(uint32_t g, uint32_t rail) const
{
    const uint32_t hosts = m_config.hostsPerGroup;
    return m_n * m_config.ports + g * hosts + rail % hosts;
}

FluidNetwork::LinkId
FluidFabric::DownLink(uint32_t g, uint32_t rail) const
{
    const uint32_t hosts = m_config.hostsPerGroup;
    return m_n * m_config.ports + m_n * hosts + g * hosts + rail % hosts;
}

std::vector<FluidNetwork::LinkId>
FluidFabric::PathOf(uint32_t src, uint32_t dst, uint32_t rail)
{
    std::optional<DestinationTree>& tree = m_trees[dst];
    if (!tree)
    {
        tree.emplace();
        m_routing->ComputeTree(dst, *tree);
    }
    if (tree->distance[src] == DestinationTree::UNREACHABLE)
    {
        return {};
    }
    const uint32_t d = m_config.ports;
    std::vector<FluidNetwork::LinkId> path;
    path.reserve(tree->distance[src] + 2);
    if (m_config.hostLinks)
    {
        path.push_back(UpLink(src, rail));
    }
    uint32_t node = src;
    while (node != dst)
    {
        const uint32_t c = tree->nextCircuit[node];
        const uint32_t port = m_routedPlan.GetLocalPort(*m_routedGraph, c, node);
        path.push_back(node * d + port);
        node = tree->nextHop[node];
    }
    if (m_config.hostLinks)
    {
        path.push_back(DownLink(dst, rail));
    }
    return path;
}

int64_t
FluidFabric::LatencyOf(const std::vector<FluidNetwork::LinkId>& path) const
{
    const uint32_t circuits = m_n * m_config.ports;
    double ns = 0;
    for (std::size_t k = 0; k < path.size(); ++k)
    {
        const bool circuit = path[k] < circuits;
        ns += static_cast<double>(circuit ? m_config.circuitDelayNs : m_config.hostDelayNs);
        if (k > 0)
        {
            ns += circuit ? m_segmentSerialNsCircuit : m_segmentSerialNsHost;
        }
    }
    return std::llround(ns);
}

void
FluidFabric::Reroute()
{
    Sync();
    m_routedPlan = PortPlan::FromPeers(m_n, m_config.ports, m_routedPeers);
    m_routedGraph = std::make_shared<const CircuitGraph>(m_routedPlan.ToCircuitGraph());
    m_routing =
        std::make_unique<ShortestPathRouting>(m_routedGraph, m_config.rule, m_config.routingSeed);
    m_trees.assign(m_n, std::nullopt);
    m_aggregateRoutes.clear();
    for (auto& [id, r] : m_running)
    {
        FluidTransfer& t = m_transfers[id];
        if (r.parts)
        {
            const AggregateRoute& route = RouteOf(r.parts);
            r.latencyNs = route.latencyNs;
            const bool moved = route.path != m_net.GetPath(r.flow);
            if (moved || route.weights != m_net.GetWeights(r.flow))
            {
                m_net.SetPath(r.flow, route.path, route.weights);
                t.reroutes += moved ? 1 : 0;
            }
        }
        else if (r.tcp)
        {
            std::vector<FluidNetwork::LinkId> path = PathOf(t.src, t.dst, t.rail);
            if (path != r.path)
            {
                r.path = std::move(path);
                r.rttNs = TcpRttOf(t, r.path);
                SetTcpCap(r);
                ScheduleTcpRound(r);
                ++t.reroutes;
            }
        }
        else if (m_config.queues)
        {
            std::vector<FluidNetwork::LinkId> path = PathOf(t.src, t.dst, t.rail);
            if (path != r.path)
            {
                r.path = std::move(path);
                m_net.SetPath(r.flow, RatedPath(r.path, r.converged));
                ++t.reroutes;
            }
        }
        else
        {
            const std::vector<FluidNetwork::LinkId> path = PathOf(t.src, t.dst, t.rail);
            if (path != m_net.GetPath(r.flow))
            {
                m_net.SetPath(r.flow, path);
                ++t.reroutes;
            }
        }
        const std::vector<FluidNetwork::LinkId>& path = m_net.GetPath(r.flow);
        if (path.empty() && r.heldSince < 0)
        {
            r.heldSince = m_now;
            if (m_switching)
            {
                m_switches.back().transfersHeld += t.parts;
            }
        }
        else if (!path.empty() && r.heldSince >= 0)
        {
            t.heldNs += m_now - r.heldSince;
            r.heldSince = -1;
        }
    }
    m_dirty = true;
    m_rerouted = true;
}

void
FluidFabric::Sync()
{
    if (m_now > m_drainedNs)
    {
        m_net.Advance(static_cast<double>(m_now - m_drainedNs) * 1e-9);
        m_drainedNs = m_now;
    }
    if (m_config.queues)
    {
        SettleQueues(); // the drops up to now are owed before a completion is decided
    }
    std::vector<FluidNetwork::FlowId> completed = m_net.TakeCompleted();
    if (completed.empty())
    {
        return;
    }
    std::vector<uint64_t> ids;
    ids.reserve(completed.size());
    for (FluidNetwork::FlowId f : completed)
    {
        ids.push_back(m_flowTransfer[f]);
    }
    std::sort(ids.begin(), ids.end());
    for (uint64_t id : ids)
    {
        auto it = m_running.find(id);
        if (m_config.queues && it->second.owed >= 0.5)
        {
            // the source has sent its last byte and resends what ports dropped (at the tail);
            // under half a byte is the sums' rounding
            Running& again = it->second;
            m_net.RemoveFlow(again.flow);
            again.flow = m_net.AddFlow(again.owed, RatedPath(again.path, again.converged));
            m_resent += again.owed;
            again.owed = 0;
            if (again.flow >= m_flowTransfer.size())
            {
                m_flowTransfer.resize(again.flow + 1);
            }
            m_flowTransfer[again.flow] = id;
            continue;
        }
        Running r = std::move(it->second);
        m_running.erase(it);
        FluidTransfer& tr = m_transfers[id];
        if (r.tcp)
        {
            ReleaseTcpCap(r);
            if (r.kept)
            {
                // the window grew by (growth - 1) x every byte acknowledged in slow start, by
                // (avoidanceGrowth - 1) x every byte after it
                const FluidFabricConfig::TcpStart& tcp = m_config.tcp;
                const double bytes = static_cast<double>(tr.bytes);
                const double inSlowStart =
                    std::max(0.0, (tcp.slowStartEndBytes - r.firstWindow) / (tcp.growth - 1));
                const double window = bytes <= inSlowStart
                                          ? r.firstWindow + (tcp.growth - 1) * bytes
                                          : std::max(r.firstWindow, tcp.slowStartEndBytes) +
                                                (tcp.avoidanceGrowth - 1) * (bytes - inSlowStart);
                m_connections[ConnectionOf(tr)] = std::min(tcp.maxWindowBytes, window);
            }
        }
        if (m_config.queues)
        {
            // its last byte waits behind each port's backlog (FIFO)
            double waitNs = 0;
            for (FluidNetwork::LinkId l : r.path)
            {
                waitNs += m_queues[l].backlog / m_queues[l].capacity * 1e9;
            }
            tr.endNs = m_now + std::llround(waitNs) + LatencyOf(r.path);
        }
        else
        {
            tr.endNs = m_now + (r.parts ? r.latencyNs
                                : r.tcp ? LatencyOf(r.path)
                                        : LatencyOf(m_net.GetPath(r.flow)));
        }
        tr.complete = true;
        if (r.parts)
        {
            // counted when asked (GetBytesBetween()): a collective repeated with the same
            // parts is added once, times its count
            ++m_pendingParts.try_emplace(r.parts.get(), r.parts, 0).first->second.second;
        }
        else
        {
            m_pairBytes[static_cast<std::size_t>(tr.src) * m_n + tr.dst] += tr.bytes;
        }
        m_net.RemoveFlow(r.flow);
        DoneCallback done = std::move(r.done);
        Schedule(tr.endNs + m_config.noticeDelayNs - m_now, [this, id, done]() {
            m_transfers[id].noticed = true;
            if (done)
            {
                done(id);
            }
        });
    }
    m_dirty = true;
}

int64_t
FluidFabric::NextCompletion() const
{
    const double dt = m_net.GetTimeToNextCompletion();
    if (!std::isfinite(dt))
    {
        return NEVER;
    }
    // the next whole ns at or after the completion (1e-6 ns below a whole ns counts as on it:
    // the quotient's rounding must not cost a ns)
    const double ns = std::max(1.0, std::ceil(dt * 1e9 - 1e-6));
    return ns >= static_cast<double>(NEVER - m_now) ? NEVER : m_now + static_cast<int64_t>(ns);
}

void
FluidFabric::Run(int64_t untilNs, const std::function<bool()>& stop)
{
    while (true)
    {
        // a route change is never deferred: a rerouted flow's old rate may not fit its new path
        const bool epochDue = m_config.rateEpochNs == 0 || m_lastComputeNs < 0 || m_rerouted ||
                              m_now >= m_lastComputeNs + m_config.rateEpochNs;
        if (m_dirty && epochDue)
        {
            // rates change only here: the flows are drained up to now at the old rates first,
            // and the next completion is fixed until the next change
            do
            {
                Sync();
                m_net.ComputeRates();
                m_dirty = false;
                m_rerouted = false;
                if (m_config.queues)
                {
                    RefreshQueues(); // a port done draining asks for another computation now
                }
            } while (m_dirty);
            m_lastComputeNs = m_now;
            m_nextCompletion = NextCompletion();
        }
        else if (m_dirty && m_staleCompletion)
        {
            // completions between two computations of an epoch: the others keep their rates
            m_nextCompletion = NextCompletion();
        }
        m_staleCompletion = false;
        const int64_t nextEvent = m_events.empty() ? NEVER : m_events.front().at;
        const int64_t nextCompute =
            m_dirty && !epochDue ? m_lastComputeNs + m_config.rateEpochNs : NEVER;
        const int64_t t = std::min({nextEvent, m_nextCompletion, nextCompute});
        if (t == NEVER)
        {
            Sync();
            return; // nothing will happen any more (held transfers wait for nothing)
        }
        if (t > untilNs)
        {
            m_now = std::max(m_now, untilNs);
            Sync();
            return;
        }
        m_now = t;
        if (t == m_nextCompletion)
        {
            Sync(); // completes the flows that end now
            m_staleCompletion = true;
        }
        while (!m_events.empty() && m_events.front().at == m_now)
        {
            std::pop_heap(m_events.begin(), m_events.end(), std::greater<>());
            Event e = std::move(m_events.back().event);
            m_events.pop_back();
            ++m_nEvents;
            e();
        }
        if (stop && stop())
        {
            Sync();
            return;
        }
    }
}

void
FluidFabric::StartSwitch(const CircuitGraph& target)
{
    if (m_switching)
    {
        throw Error("FluidFabric::StartSwitch: switch " + std::to_string(m_switches.back().index) +
                    " is still under way");
    }
    if (target.GetNNodes() != m_n)
    {
        ThrowBadParameter("target graph nodes",
                          std::to_string(target.GetNNodes()),
                          "N = " + std::to_string(m_n));
    }
    const PortPlan current = PortPlan::FromPeers(m_n, m_config.ports, m_peers);
    const PortPlan plan = PlanPorts(target, current);
    const PortCircuitDiff diff = DiffPorts(current, plan);
    FluidSwitchRecord record;
    record.index = static_cast<uint32_t>(m_switches.size());
    record.startNs = m_now;
    record.kept = static_cast<uint32_t>(diff.kept.size());
    record.removed = static_cast<uint32_t>(diff.removed.size());
    record.added = static_cast<uint32_t>(diff.added.size());
    m_batches = PlanSwitchBatches(current, diff, m_config.phases);
    record.batches = static_cast<uint32_t>(m_batches.size());
    m_switches.push_back(record);
    m_switching = true;
    StartBatch(0);
}

void
FluidFabric::StartBatch(uint32_t b)
{
    FluidSwitchRecord& record = m_switches.back();
    if (b >= m_batches.size())
    {
        record.endNs = m_now;
        record.done = true;
        m_switching = false;
        return;
    }
    m_batch = b;
    m_drainStart = m_now;
    const SwitchBatchPlan& batch = m_batches[b];
    if (!m_config.drain || batch.removed.empty())
    {
        GoDark();
        return;
    }
    // route around the batch: its circuits stay lit, no new byte is routed onto them
    const uint32_t d = m_config.ports;
    m_routedPeers = m_peers;
    for (const PortCircuit& c : batch.removed)
    {
        m_routedPeers[static_cast<std::size_t>(c.groupA) * d + c.portA] = PortPlan::DARK;
        m_routedPeers[static_cast<std::size_t>(c.groupB) * d + c.portB] = PortPlan::DARK;
    }
    Reroute();
    // a fluid circuit holds no queue: the drain is over at once, unless it has a fixed length;
    // with queues it lasts until the batch's circuits have sent their backlogs (no byte is
    // routed onto them any more), at most the drain timeout
    int64_t drainNs = m_config.fixedDrain ? m_config.drainTimeoutNs : 0;
    if (m_config.queues && !m_config.fixedDrain)
    {
        SettleQueues();
        double longest = 0;
        for (const PortCircuit& c : batch.removed)
        {
            for (const uint32_t port : {c.groupA * d + c.portA, c.groupB * d + c.portB})
            {
                longest = std::max(longest, m_queues[port].backlog / m_queues[port].capacity);
            }
        }
        drainNs = std::min(m_config.drainTimeoutNs,
                           static_cast<int64_t>(std::ceil(longest * 1e9 - 1e-6)));
    }
    Schedule(drainNs, [this]() { GoDark(); });
}

void
FluidFabric::GoDark()
{
    m_darkStart = m_now;
    const uint32_t d = m_config.ports;
    if (m_config.queues)
    {
        // what a drain cut short left in the dark circuits is lost (not resent)
        Sync();
        for (const PortCircuit& c : m_batches[m_batch].removed)
        {
            for (const uint32_t port : {c.groupA * d + c.portA, c.groupB * d + c.portB})
            {
                m_queues[port].dropped += m_queues[port].backlog;
                m_queues[port].backlog = 0;
            }
        }
    }
    for (const PortCircuit& c : m_batches[m_batch].removed)
    {
        m_peers[static_cast<std::size_t>(c.groupA) * d + c.portA] = PortPlan::DARK;
        m_peers[static_cast<std::size_t>(c.groupB) * d + c.portB] = PortPlan::DARK;
    }
    if (m_routedPeers != m_peers)
    {
        m_routedPeers = m_peers;
        Reroute();
    }
    Schedule(m_config.darkNs, [this]() { Relink(); });
}

void
FluidFabric::Relink()
{
    const uint32_t d = m_config.ports;
    const SwitchBatchPlan& batch = m_batches[m_batch];
    for (const PortCircuit& c : batch.added)
    {
        const std::size_t a = static_cast<std::size_t>(c.groupA) * d + c.portA;
        const std::size_t b = static_cast<std::size_t>(c.groupB) * d + c.portB;
        m_peers[a] = static_cast<uint32_t>(b);
        m_peers[b] = static_cast<uint32_t>(a);
    }
    m_routedPeers = m_peers;
    Reroute();
    FluidSwitchRecord& record = m_switches.back();
    record.drainNs += m_darkStart - m_drainStart;
    record.darkNs += m_now - m_darkStart;
    if (!batch.connected)
    {
        record.blackoutNs += m_now - m_drainStart;
    }
    StartBatch(m_batch + 1);
}

bool
FluidFabric::IsSwitching() const
{
    return m_switching;
}

const std::vector<FluidSwitchRecord>&
FluidFabric::GetSwitchRecords() const
{
    return m_switches;
}

const CircuitGraph&
FluidFabric::GetRoutedGraph() const
{
    return *m_routedGraph;
}

uint64_t
FluidFabric::GetNEvents() const
{
    return m_nEvents;
}

uint64_t
FluidFabric::GetNRateComputations() const
{
    return m_net.GetNComputations();
}

uint64_t
FluidFabric::GetMaxConcurrent() const
{
    return m_maxConcurrent;
}

uint64_t
FluidFabric::GetBytesBetween(uint32_t src, uint32_t dst) const
{
    if (src >= m_n || dst >= m_n)
    {
        ThrowBadParameter("group", std::to_string(std::max(src, dst)), "a group < N");
    }
    for (const auto& [key, entry] : m_pendingParts)
    {
        for (const FluidPart& p : *entry.first)
        {
            m_pairBytes[static_cast<std::size_t>(p.src) * m_n + p.dst] += p.bytes * entry.second;
        }
    }
    m_pendingParts.clear();
    return m_pairBytes[static_cast<std::size_t>(src) * m_n + dst];
}

std::vector<double>
FluidFabric::GetPortBytes() const
{
    std::vector<double> bytes(static_cast<std::size_t>(m_n) * m_config.ports);
    for (std::size_t l = 0; l < bytes.size(); ++l)
    {
        if (m_config.queues)
        {
            // the bytes that left the port (a start-up's bytes cross links its rate omits)
            double dropped = 0;
            double out = 0;
            QueueAt(static_cast<FluidNetwork::LinkId>(l), m_drainedNs, dropped, out);
            bytes[l] = m_queues[l].out + out;
        }
        else
        {
            bytes[l] = m_net.GetLinkBytes(static_cast<FluidNetwork::LinkId>(l));
        }
    }
    return bytes;
}

std::vector<double>
FluidFabric::GetPortBytesNow() const
{
    if (m_config.queues)
    {
        std::vector<double> bytes(static_cast<std::size_t>(m_n) * m_config.ports);
        for (std::size_t l = 0; l < bytes.size(); ++l)
        {
            double dropped = 0;
            double out = 0;
            QueueAt(static_cast<FluidNetwork::LinkId>(l), m_now, dropped, out);
            bytes[l] = m_queues[l].out + out;
        }
        return bytes;
    }
    std::vector<double> bytes = GetPortBytes();
    const double since = static_cast<double>(m_now - m_drainedNs) * 1e-9;
    for (std::size_t l = 0; l < bytes.size(); ++l)
    {
        bytes[l] += m_net.GetLinkRate(static_cast<FluidNetwork::LinkId>(l)) * since;
    }
    return bytes;
}

PortPlan
FluidFabric::GetPortPlan() const
{
    return PortPlan::FromPeers(m_n, m_config.ports, m_peers);
}

double
FluidFabric::GetBytesSent(uint64_t id) const
{
    const FluidTransfer& t = GetTransfer(id);
    const auto it = m_running.find(id);
    if (t.complete || it == m_running.end())
    {
        return t.complete ? static_cast<double>(t.bytes) : 0.0;
    }
    const FluidNetwork::FlowId f = it->second.flow;
    const double left =
        m_net.GetRemaining(f) - m_net.GetRate(f) * static_cast<double>(m_now - m_drainedNs) * 1e-9;
    return static_cast<double>(t.bytes) - std::max(0.0, left);
}

std::vector<FluidNetwork::LinkId>
FluidFabric::RatedPath(const std::vector<FluidNetwork::LinkId>& p, bool converged)
{
    if (converged || p.empty())
    {
        return p;
    }
    return {p.front()};
}

double
FluidFabric::QueueAt(FluidNetwork::LinkId l, int64_t at, double& dropped, double& out) const
{
    const PortQueue& q = m_queues[l];
    dropped = 0;
    out = 0;
    if (at <= q.since || (q.input == 0 && q.backlog == 0))
    {
        return q.backlog;
    }
    // the input and the capacity are constant since `since`: the backlog moves linearly
    // between 0 and the limit, and the limit's excess is dropped
    const double dt = static_cast<double>(at - q.since) * 1e-9;
    const double c = q.capacity;
    const double limit = m_config.queueLimitBytes > 0 ? m_config.queueLimitBytes
                                                      : std::numeric_limits<double>::infinity();
    const double free = q.backlog + (q.input - c) * dt;
    double backlog = std::max(0.0, free);
    if (backlog > limit)
    {
        // the backlog was below the limit or on it since `since` (it grows linearly)
        dropped = backlog - std::max(limit, q.backlog);
        backlog = limit;
    }
    out = std::max(0.0, q.input * dt - dropped - (backlog - q.backlog));
    return backlog;
}

void
FluidFabric::SettleQueues()
{
    for (FluidNetwork::LinkId l = 0; l < m_queues.size(); ++l)
    {
        PortQueue& q = m_queues[l];
        if (q.since >= m_now)
        {
            continue;
        }
        double dropped = 0;
        double out = 0;
        const double backlog = QueueAt(l, m_now, dropped, out);
        if (dropped > 0)
        {
            // the transfers crossing the port lose bytes in proportion to their rates
            for (std::size_t k = 0; k < q.ids.size(); ++k)
            {
                auto it = m_running.find(q.ids[k]);
                if (it != m_running.end())
                {
                    it->second.owed += dropped * q.rates[k] / q.input;
                }
            }
        }
        q.backlog = backlog;
        q.dropped += dropped;
        q.out += out;
        q.since = m_now;
    }
}

void
FluidFabric::RefreshQueues()
{
    // called right after a rate computation, the queues settled up to now (Sync())
    ++m_queueGen;
    for (PortQueue& q : m_queues)
    {
        q.input = 0;
        q.since = m_now;
    }
    // A FIFO port offered more than its rate sends each transfer's bytes at its share of the
    // rate, so a port downstream sees them slowed down: the inputs are taken three times, each
    // pass scaling a transfer's rate behind every overloaded port by that port's rate over its
    // input of the pass before (the first pass: the sources' rates)
    for (int pass = 0; pass < 3; ++pass)
    {
        for (PortQueue& q : m_queues)
        {
            q.previous = q.input;
            q.input = 0;
            q.ids.clear();
            q.rates.clear();
        }
        for (const auto& [id, r] : m_running)
        {
            double rate = m_net.GetRate(r.flow);
            if (rate <= 0)
            {
                continue;
            }
            for (FluidNetwork::LinkId l : r.path)
            {
                PortQueue& q = m_queues[l];
                q.input += rate;
                q.ids.push_back(id);
                q.rates.push_back(rate);
                if (pass > 0 && q.previous > q.capacity * (1 + 1e-9))
                {
                    rate *= q.capacity / q.previous;
                }
            }
        }
    }
    const double mark = m_config.markBytes;
    for (FluidNetwork::LinkId l = 0; l < m_queues.size(); ++l)
    {
        const PortQueue& q = m_queues[l];
        const double excess = q.input - q.capacity;
        // a relative margin: max-min rates that fill a link exactly sum to its capacity up to
        // rounding, and such a link does not queue
        const bool grows = excess > 1e-9 * q.capacity;
        if (q.draining)
        {
            // within a ns of the port's rate is empty: the sums' rounding must not keep it
            // draining (and rescheduling its empty time at 0 ns)
            if (q.backlog <= q.capacity * 1e-9)
            {
                m_queues[l].backlog = 0;
                // drained: the transfers through it share its whole rate again
                m_queues[l].draining = false;
                m_net.SetCapacity(l, q.capacity);
                m_dirty = true;
            }
            else if (excess < 0)
            {
                const uint64_t gen = m_queueGen;
                ScheduleQueueEvent(q.backlog / -excess * 1e9,
                                   [this, l, gen]() { OnEmpty(l, gen); });
            }
        }
        if (q.backlog >= mark && (q.backlog > 0 || grows))
        {
            OnMark(l, m_queueGen); // it marks now
        }
        else if (grows)
        {
            const uint64_t gen = m_queueGen;
            ScheduleQueueEvent((mark - q.backlog) / excess * 1e9,
                               [this, l, gen]() { OnMark(l, gen); });
        }
    }
}

void
FluidFabric::ScheduleQueueEvent(double ns, Event event)
{
    if (!(ns < static_cast<double>(NEVER - m_now))) // past the end of time, or NaN
    {
        return;
    }
    // 1e-6 ns below a whole ns counts as on it (the quotient's rounding must not cost a ns);
    // at most NEVER - m_now: the ceiling adds less than 1 ns to a time below it
    const double whole = std::max(0.0, std::ceil(ns - 1e-6));
    Schedule(static_cast<int64_t>(whole), std::move(event));
}

void
FluidFabric::OnMark(FluidNetwork::LinkId l, uint64_t gen)
{
    if (gen != m_queueGen)
    {
        return; // the inputs changed since: a newer event (or none) stands for this one
    }
    Sync();
    for (uint64_t id : m_queues[l].ids)
    {
        auto it = m_running.find(id);
        if (it != m_running.end() && !it->second.converged && !it->second.cutScheduled)
        {
            ScheduleCut(id, l);
        }
    }
}

void
FluidFabric::ScheduleCut(uint64_t id, FluidNetwork::LinkId l)
{
    Running& r = m_running.at(id);
    r.cutScheduled = true;
    // DCQCN's reaction time: the marked byte waits behind the backlog, reaches the receiver,
    // whose CNP comes back
    const double waitNs = m_queues[l].backlog / m_queues[l].capacity * 1e9;
    const int64_t delay = std::llround(waitNs) + 2 * LatencyOf(r.path);
    Schedule(delay, [this, id, l]() { Cut(id, l); });
}

void
FluidFabric::OnEmpty(FluidNetwork::LinkId l, uint64_t gen)
{
    if (gen != m_queueGen)
    {
        return;
    }
    Sync(); // the backlog is 0 now: the next rate computation gives the port its whole rate
    m_dirty = true;
}

void
FluidFabric::Cut(uint64_t id, FluidNetwork::LinkId l)
{
    auto it = m_running.find(id);
    if (it == m_running.end() || it->second.converged)
    {
        return;
    }
    Sync();
    Running& r = it->second;
    r.converged = true;
    ++m_cuts;
    PortQueue& q = m_queues[l];
    if (m_config.drainOnCut && !q.draining && q.backlog > 0)
    {
        q.draining = true;
        m_net.SetCapacity(l, q.capacity / 2);
    }
    if (!r.path.empty())
    {
        m_net.SetPath(r.flow, r.path);
    }
    m_dirty = true;
}

std::vector<double>
FluidFabric::GetBacklogs() const
{
    std::vector<double> out(m_net.GetNLinks(), 0.0);
    for (FluidNetwork::LinkId l = 0; l < m_queues.size(); ++l)
    {
        double dropped = 0;
        double sent = 0;
        out[l] = QueueAt(l, m_now, dropped, sent);
    }
    return out;
}

std::vector<double>
FluidFabric::GetDroppedBytes() const
{
    std::vector<double> out(m_net.GetNLinks(), 0.0);
    for (FluidNetwork::LinkId l = 0; l < m_queues.size(); ++l)
    {
        double dropped = 0;
        double sent = 0;
        QueueAt(l, m_now, dropped, sent);
        out[l] = m_queues[l].dropped + dropped;
    }
    return out;
}

double
FluidFabric::GetResentBytes() const
{
    return m_resent;
}

uint64_t
FluidFabric::GetNCuts() const
{
    return m_cuts;
}

uint64_t
FluidFabric::GetNTcpRounds() const
{
    return m_tcpRounds;
}

void
FluidFabric::CloseConnections(const std::vector<uint32_t>& groups)
{
    const std::set<uint32_t> closing(groups.begin(), groups.end());
    for (auto it = m_connections.begin(); it != m_connections.end();)
    {
        const bool close =
            closing.count(std::get<0>(it->first)) > 0 || closing.count(std::get<1>(it->first)) > 0;
        it = close ? m_connections.erase(it) : std::next(it);
    }
}

FluidFabric::ConnectionKey
FluidFabric::ConnectionOf(const FluidTransfer& t) const
{
    return {t.src, t.dst, t.rail % m_config.hostsPerGroup};
}

int64_t
FluidFabric::PacketTimeOf(const std::vector<FluidNetwork::LinkId>& path, uint32_t wireBytes) const
{
    const uint32_t circuits = m_n * m_config.ports;
    double ns = 0;
    for (FluidNetwork::LinkId l : path)
    {
        const bool circuit = l < circuits;
        ns += static_cast<double>(circuit ? m_config.circuitDelayNs : m_config.hostDelayNs);
        ns += wireBytes * 8e9 / (circuit ? m_config.circuitBitRate : m_config.hostBitRate);
    }
    return std::llround(ns);
}

int64_t
FluidFabric::TcpRttOf(const FluidTransfer& t, const std::vector<FluidNetwork::LinkId>& path)
{
    if (path.empty())
    {
        return 0;
    }
    const uint32_t circuits = m_n * m_config.ports;
    const double firstSegmentNs =
        path.front() < circuits ? m_segmentSerialNsCircuit : m_segmentSerialNsHost;
    return LatencyOf(path) + std::llround(firstSegmentNs) +
           PacketTimeOf(PathOf(t.dst, t.src, t.rail), m_config.tcp.ackWireBytes);
}

void
FluidFabric::StartTcp(uint64_t id, DoneCallback done, bool keep)
{
    const FluidTransfer& t = m_transfers[id];
    double window = m_config.tcp.initialWindowBytes;
    bool handshake = true;
    if (keep)
    {
        const auto it = m_connections.find(ConnectionOf(t));
        if (it != m_connections.end())
        {
            window = it->second; // an open connection: no handshake, its window
            handshake = false;
        }
        else
        {
            m_connections[ConnectionOf(t)] = window;
        }
    }
    const std::vector<FluidNetwork::LinkId> path = PathOf(t.src, t.dst, t.rail);
    if (!handshake || path.empty())
    {
        LaunchTcp(id, window, keep, std::move(done));
        return;
    }
    // the SYN along the route, the SYN-ACK back; the first segment leaves with the ACK
    const uint32_t syn = m_config.tcp.synWireBytes;
    const int64_t handshakeNs =
        PacketTimeOf(path, syn) + PacketTimeOf(PathOf(t.dst, t.src, t.rail), syn);
    Schedule(handshakeNs, [this, id, window, keep, done = std::move(done)]() mutable {
        LaunchTcp(id, window, keep, std::move(done));
    });
}

void
FluidFabric::LaunchTcp(uint64_t id, double window, bool kept, DoneCallback done)
{
    Sync();
    const FluidTransfer& t = m_transfers[id];
    Running r;
    r.id = id;
    r.tcp = true;
    r.kept = kept;
    r.window = std::min(window, m_config.tcp.maxWindowBytes);
    r.firstWindow = r.window;
    r.path = PathOf(t.src, t.dst, t.rail);
    r.rttNs = TcpRttOf(t, r.path);
    r.flow = m_net.AddFlow(static_cast<double>(t.bytes), {});
    r.done = std::move(done);
    SetTcpCap(r);
    ScheduleTcpRound(r);
    Launch(std::move(r));
}

void
FluidFabric::TcpRound(uint64_t id)
{
    const auto it = m_running.find(id);
    if (it == m_running.end())
    {
        return; // complete
    }
    Running& r = it->second;
    r.roundPending = false;
    if (r.path.empty())
    {
        return; // held: the next route starts the round trips again (Reroute())
    }
    const FluidFabricConfig::TcpStart& tcp = m_config.tcp;
    r.window =
        std::min(r.window * (r.window < tcp.slowStartEndBytes ? tcp.growth : tcp.avoidanceGrowth),
                 tcp.maxWindowBytes);
    ++m_tcpRounds;
    SetTcpCap(r);
    ScheduleTcpRound(r);
}

bool
FluidFabric::SetTcpCap(Running& r)
{
    m_dirty = true;
    if (r.path.empty())
    {
        m_net.SetPath(r.flow, {}); // held: no ACK comes back, the window waits for a route
        return false;
    }
    double slowest = std::numeric_limits<double>::infinity();
    for (FluidNetwork::LinkId l : r.path)
    {
        slowest = std::min(slowest, m_net.GetCapacity(l));
    }
    const double cap = r.rttNs > 0 ? r.window / (static_cast<double>(r.rttNs) * 1e-9)
                                   : std::numeric_limits<double>::infinity();
    // (a relative 1e-9 below counts as reaching it: window / RTT's rounding)
    if (r.released || cap >= slowest * (1 - 1e-9))
    {
        // the window no longer binds: the route alone, for good
        ReleaseTcpCap(r);
        r.released = true;
        m_net.SetPath(r.flow, r.path);
        return false;
    }
    if (r.cap == FluidNetwork::NONE)
    {
        if (m_freeCaps.empty())
        {
            r.cap = m_net.AddLink(cap);
        }
        else
        {
            r.cap = m_freeCaps.back();
            m_freeCaps.pop_back();
        }
    }
    m_net.SetCapacity(r.cap, cap);
    std::vector<FluidNetwork::LinkId> path;
    path.reserve(r.path.size() + 1);
    path.push_back(r.cap);
    path.insert(path.end(), r.path.begin(), r.path.end());
    m_net.SetPath(r.flow, path);
    return true;
}

void
FluidFabric::ScheduleTcpRound(Running& r)
{
    if (r.roundPending || r.cap == FluidNetwork::NONE || r.path.empty() ||
        r.window >= m_config.tcp.maxWindowBytes)
    {
        return;
    }
    r.roundPending = true;
    const uint64_t id = r.id;
    Schedule(r.rttNs, [this, id]() { TcpRound(id); });
}

void
FluidFabric::ReleaseTcpCap(Running& r)
{
    if (r.cap != FluidNetwork::NONE)
    {
        m_freeCaps.push_back(r.cap);
        r.cap = FluidNetwork::NONE;
    }
}

} // namespace mose
} // namespace ns3
