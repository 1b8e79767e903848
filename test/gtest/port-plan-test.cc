/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-port-plan.h"
#include "ns3/mose-random.h"
#include "ns3/mose-roles.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

constexpr uint32_t DARK = PortPlan::DARK;

/// Checks every structural property a plan of graph on d ports must have
void
ExpectPlanOf(const PortPlan& plan, const CircuitGraph& graph, uint32_t d)
{
    const uint32_t n = graph.GetNNodes();
    ASSERT_EQ(plan.GetNGroups(), n);
    ASSERT_EQ(plan.GetNPorts(), d);
    const std::vector<uint32_t>& peers = plan.GetPeers();
    ASSERT_EQ(peers.size(), static_cast<std::size_t>(n) * d);
    // symmetric, never self, and each port used by at most one circuit
    uint32_t lit = 0;
    for (uint32_t i = 0; i < peers.size(); ++i)
    {
        if (peers[i] == DARK)
        {
            continue;
        }
        ++lit;
        ASSERT_LT(peers[i], peers.size());
        ASSERT_NE(peers[i], i);
        ASSERT_EQ(peers[peers[i]], i) << "port " << i;
        ASSERT_EQ(plan.GetPeer(i / d, i % d), peers[i]);
    }
    // every circuit end uses one port: a group's lit ports = its degree
    for (uint32_t g = 0; g < n; ++g)
    {
        uint32_t used = 0;
        for (uint32_t p = 0; p < d; ++p)
        {
            used += plan.GetPeer(g, p) != DARK ? 1 : 0;
        }
        ASSERT_EQ(used, graph.GetDegree(g)) << "group " << g;
    }
    ASSERT_EQ(lit, 2 * graph.GetNCircuits());
    ASSERT_EQ(plan.GetNCircuits(), graph.GetNCircuits());
    // circuits: canonical, sorted, and the same multiset of group pairs as the graph
    const std::vector<PortCircuit>& circuits = plan.GetCircuits();
    ASSERT_TRUE(std::is_sorted(circuits.begin(), circuits.end()));
    for (const PortCircuit& c : circuits)
    {
        ASSERT_TRUE(c.groupA < c.groupB || (c.groupA == c.groupB && c.portA < c.portB));
        ASSERT_EQ(peers[c.groupA * d + c.portA], c.groupB * d + c.portB);
    }
    const CircuitGraph back = plan.ToCircuitGraph();
    ASSERT_EQ(back.GetNNodes(), n);
    ASSERT_EQ(back.GetCircuits(), graph.GetCircuits());
    ASSERT_TRUE(plan.Matches(graph));
    // per circuit index of the graph: its ports join its two groups
    const std::vector<CircuitPorts>& ports = plan.GetCircuitPorts();
    ASSERT_EQ(ports.size(), graph.GetNCircuits());
    for (uint32_t c = 0; c < graph.GetNCircuits(); ++c)
    {
        const Circuit& e = graph.GetCircuits()[c];
        const CircuitPorts cp = plan.GetCircuitPorts(graph, c);
        ASSERT_EQ(cp, ports[c]);
        ASSERT_EQ(plan.GetPeer(e.u, cp.portU), e.v * d + cp.portV) << "circuit " << c;
        ASSERT_EQ(plan.GetCircuitIndex(e.u, cp.portU), c);
        ASSERT_EQ(plan.GetCircuitIndex(e.v, cp.portV), c);
        ASSERT_EQ(plan.GetLocalPort(graph, c, e.u), cp.portU);
        if (e.u != e.v)
        {
            ASSERT_EQ(plan.GetLocalPort(graph, c, e.v), cp.portV);
        }
    }
}

/// The (u, v) group pair of a port circuit
Circuit
Groups(const PortCircuit& c)
{
    return Circuit{c.groupA, c.groupB};
}

/// A switch step: replaces circuits (a, b) and (c, e) by (a, c) and (b, e), if that stays simple
bool
Rewire(std::vector<Circuit>& circuits, std::size_t i, std::size_t j, const CircuitGraph& g)
{
    const Circuit x = circuits[i];
    const Circuit y = circuits[j];
    if (x.u == y.u || x.u == y.v || x.v == y.u || x.v == y.v || g.HasCircuit(x.u, y.u) ||
        g.HasCircuit(x.v, y.v))
    {
        return false;
    }
    circuits[i] = {std::min(x.u, y.u), std::max(x.u, y.u)};
    circuits[j] = {std::min(x.v, y.v), std::max(x.v, y.v)};
    return true;
}

} // namespace

TEST(PortPlan, FreshPlanOfSmallGraphByHand)
{
    // 4 groups, 3 ports; circuits (0,1) (0,2) (1,2) (2,3): group 2's neighbours 0, 1, 3 take
    // ports 0, 1, 2 in that order; group 3 uses port 0 only
    CircuitGraph g(4, {{2, 3}, {0, 1}, {1, 2}, {0, 2}});
    PortPlan plan = PlanPorts(g, 3);
    ExpectPlanOf(plan, g, 3);
    const std::vector<uint32_t> expected{
        1 * 3 + 0,
        2 * 3 + 0,
        DARK, // group 0: port 0 -> (1,0), port 1 -> (2,0)
        0 * 3 + 0,
        2 * 3 + 1,
        DARK, // group 1: port 0 -> (0,0), port 1 -> (2,1)
        0 * 3 + 1,
        1 * 3 + 1,
        3 * 3 + 0, // group 2
        2 * 3 + 2,
        DARK,
        DARK, // group 3
    };
    EXPECT_EQ(plan.GetPeers(), expected);
    EXPECT_EQ(plan.GetCircuits(),
              (std::vector<PortCircuit>{{0, 0, 1, 0}, {0, 1, 2, 0}, {1, 1, 2, 1}, {2, 2, 3, 0}}));
    EXPECT_EQ(plan.GetCircuitPorts(), (std::vector<CircuitPorts>{{0, 0}, {1, 0}, {1, 1}, {2, 0}}));
    EXPECT_EQ(plan.GetCircuitIndex(3, 1), DARK);
    EXPECT_EQ(plan.GetPeer(3, 2), DARK);
    ExpectErrorContaining([&] { plan.GetPeer(4, 0); }, "group = 4");
    ExpectErrorContaining([&] { plan.GetPeer(0, 3); }, "port = 3");
    ExpectErrorContaining([&] { plan.GetLocalPort(g, 0, 3); }, "joins groups 0 and 1");
    CircuitGraph other(4, {{0, 1}, {0, 2}, {1, 2}, {1, 3}});
    ExpectErrorContaining([&] { plan.GetCircuitPorts(other, 3); }, "not the plan's");
    EXPECT_FALSE(plan.Matches(other));
}

TEST(PortPlan, TemplateGraphsUseEveryPortOnce)
{
    Random rng = Random::Create(2, Stream::UNIFORM);
    CircuitGraph u = BuildUniformTemplate(128, 4, rng);
    PortPlan plan = PlanPorts(u, 4);
    ExpectPlanOf(plan, u, 4);
    // d-regular on d ports: no dark port at all
    EXPECT_EQ(std::count(plan.GetPeers().begin(), plan.GetPeers().end(), DARK), 0);
    // each group's ports follow its neighbours in id order
    for (uint32_t g = 0; g < 128; ++g)
    {
        std::vector<uint32_t> neighbours = u.GetNeighbours(g);
        for (uint32_t p = 0; p < 4; ++p)
        {
            ASSERT_EQ(plan.GetPeer(g, p) / 4, neighbours[p]) << "group " << g << " port " << p;
        }
    }
    // a template on fewer ports than d is fine; more ports leave the rest dark
    PortPlan wide = PlanPorts(u, 6);
    ExpectPlanOf(wide, u, 6);
    EXPECT_EQ(std::count(wide.GetPeers().begin(), wide.GetPeers().end(), DARK), 128 * 2);

    // the P-D-biased template and a graph read from a file (the readers' output)
    RoleAssignment roles = RoleAssignment::Contiguous(RoleCounts{24, 24, 16});
    Random arng = Random::Create(2, Stream::ASSIGNMENT);
    PdAssignment a = PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, arng);
    PdBiasedOptions options;
    options.reservedPorts = 3;
    Random prng = Random::Create(2, Stream::PD_BIASED);
    CircuitGraph pd = BuildPdBiasedTemplate(roles, 4, a, options, prng);
    ExpectPlanOf(PlanPorts(pd, 4), pd, 4);
    std::stringstream csv;
    WriteCircuitGraphCsv(pd, csv);
    CircuitGraph read = ReadCircuitGraphCsv(csv, "pd.csv", 64, 4U);
    ExpectPlanOf(PlanPorts(read, 4), read, 4);
}

TEST(PortPlan, IsDeterministic)
{
    Random r1 = Random::Create(6, Stream::UNIFORM);
    Random r2 = Random::Create(6, Stream::UNIFORM);
    CircuitGraph a = BuildUniformTemplate(96, 4, r1);
    CircuitGraph b = BuildUniformTemplate(96, 4, r2);
    Random r3 = Random::Create(7, Stream::UNIFORM);
    CircuitGraph next = BuildUniformTemplate(96, 4, r3);
    // the same graph given with its circuits in another order and orientation
    std::vector<Circuit> shuffled = a.GetCircuits();
    std::reverse(shuffled.begin(), shuffled.end());
    for (Circuit& c : shuffled)
    {
        std::swap(c.u, c.v);
    }
    CircuitGraph c(96, shuffled);
    EXPECT_EQ(PlanPorts(a, 4).GetPeers(), PlanPorts(b, 4).GetPeers());
    EXPECT_EQ(PlanPorts(a, 4).GetPeers(), PlanPorts(c, 4).GetPeers());
    EXPECT_EQ(PlanPorts(next, PlanPorts(a, 4)).GetPeers(),
              PlanPorts(next, PlanPorts(b, 4)).GetPeers());
    // a plan maps onto itself unchanged, and from an all-dark plan it is the fresh plan
    PortPlan fresh = PlanPorts(next, 4);
    EXPECT_EQ(PlanPorts(next, fresh).GetPeers(), fresh.GetPeers());
    EXPECT_EQ(PlanPorts(next, PortPlan(96, 4)).GetPeers(), fresh.GetPeers());
}

TEST(PortPlan, SwitchKeepsThePortsOfKeptCircuits)
{
    // from the P-D-biased template to the uniform one and back, as MoSE switches modes; then
    // a local change (a few rewired circuits) where most circuits are kept
    RoleAssignment roles = RoleAssignment::Contiguous(RoleCounts{40, 40, 48});
    Random arng = Random::Create(3, Stream::ASSIGNMENT);
    PdAssignment a = PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, arng);
    PdBiasedOptions options;
    options.reservedPorts = 1;
    Random prng = Random::Create(3, Stream::PD_BIASED);
    CircuitGraph pd = BuildPdBiasedTemplate(roles, 4, a, options, prng);
    Random urng = Random::Create(3, Stream::UNIFORM);
    CircuitGraph uniform = BuildUniformTemplate(128, 4, urng);

    std::vector<Circuit> rewired = uniform.GetCircuits();
    uint32_t switches = 0;
    for (std::size_t i = 0; i + 40 < rewired.size() && switches < 10; i += 7)
    {
        switches += Rewire(rewired, i, i + 40, uniform) ? 1 : 0;
    }
    ASSERT_EQ(switches, 10U);
    CircuitGraph local(128, rewired);

    const PortPlan start = PlanPorts(pd, 4);
    uint32_t keptTotal = 0;
    PortPlan current = start;
    for (const CircuitGraph* target : {&uniform, &local, &pd})
    {
        const CircuitGraph before = current.ToCircuitGraph();
        const PortPlan next = PlanPorts(*target, current);
        ExpectPlanOf(next, *target, 4);
        const CircuitDiff diff = DiffCircuits(before, *target);
        const PortCircuitDiff ports = DiffPorts(current, next);
        // every circuit the graphs share keeps both ports: the port-level diff keeps exactly
        // the graph-level kept circuits, and tears down and sets up only the changed ones
        ASSERT_EQ(ports.kept.size(), diff.kept.size());
        ASSERT_EQ(ports.removed.size(), diff.removed.size());
        ASSERT_EQ(ports.added.size(), diff.added.size());
        std::vector<Circuit> keptGroups;
        for (const PortCircuit& c : ports.kept)
        {
            keptGroups.push_back(Groups(c));
            ASSERT_EQ(next.GetPeer(c.groupA, c.portA), current.GetPeer(c.groupA, c.portA));
            ASSERT_EQ(next.GetPeer(c.groupB, c.portB), current.GetPeer(c.groupB, c.portB));
        }
        std::sort(keptGroups.begin(), keptGroups.end());
        ASSERT_EQ(keptGroups, diff.kept);
        // added circuits only use ports that were dark or freed by a removed circuit
        std::vector<uint32_t> freed(current.GetPeers().size(), 0);
        for (const PortCircuit& c : ports.removed)
        {
            freed[c.groupA * 4 + c.portA] = 1;
            freed[c.groupB * 4 + c.portB] = 1;
        }
        for (const PortCircuit& c : ports.added)
        {
            const uint32_t x = c.groupA * 4 + c.portA;
            const uint32_t y = c.groupB * 4 + c.portB;
            ASSERT_TRUE(freed[x] || current.GetPeers()[x] == DARK);
            ASSERT_TRUE(freed[y] || current.GetPeers()[y] == DARK);
        }
        keptTotal += static_cast<uint32_t>(diff.kept.size());
        if (target == &local)
        {
            // two circuits changed per rewiring
            EXPECT_EQ(diff.removed.size(), 20U);
            EXPECT_EQ(diff.added.size(), 20U);
            EXPECT_EQ(diff.kept.size(), 256U - 20U);
        }
        current = next;
    }
    EXPECT_GT(keptTotal, 236U);
}

TEST(PortPlan, AddedCircuitsTakeTheLowestFreePorts)
{
    // the ring 0-1-2-3-0 on 3 ports, then a graph that drops (0,1) and adds (0,2) and (1,3)
    CircuitGraph ring(4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
    PortPlan plan = PlanPorts(ring, 3);
    // group 0: port 0 -> 1, port 1 -> 3; group 1: 0 -> 0, 1 -> 2; group 2: 0 -> 1, 1 -> 3;
    // group 3: 0 -> 0, 1 -> 2
    EXPECT_EQ(plan.GetCircuits(),
              (std::vector<PortCircuit>{{0, 0, 1, 0}, {0, 1, 3, 0}, {1, 1, 2, 0}, {2, 1, 3, 1}}));
    // target: drop (0,1), keep (0,3) (1,2) (2,3), add (0,2) and (1,3)
    CircuitGraph target(4, {{0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}});
    PortPlan next = PlanPorts(target, plan);
    ExpectPlanOf(next, target, 3);
    // (0,2): group 0's lowest free port is 0 (freed), group 2's is 2 (never used);
    // (1,3): group 1's is 0 (freed), group 3's is 2
    EXPECT_EQ(next.GetCircuits(),
              (std::vector<PortCircuit>{{0, 0, 2, 2},
                                        {0, 1, 3, 0},
                                        {1, 0, 3, 2},
                                        {1, 1, 2, 0},
                                        {2, 1, 3, 1}}));
    PortCircuitDiff diff = DiffPorts(plan, next);
    EXPECT_EQ(diff.kept, (std::vector<PortCircuit>{{0, 1, 3, 0}, {1, 1, 2, 0}, {2, 1, 3, 1}}));
    EXPECT_EQ(diff.removed, (std::vector<PortCircuit>{{0, 0, 1, 0}}));
    EXPECT_EQ(diff.added, (std::vector<PortCircuit>{{0, 0, 2, 2}, {1, 0, 3, 2}}));
}

TEST(PortPlan, DiffCircuitsCountsByHand)
{
    CircuitGraph from(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}});
    CircuitGraph to(5, {{0, 1}, {1, 3}, {2, 3}, {2, 4}, {0, 4}, {0, 2}});
    CircuitDiff d = DiffCircuits(from, to);
    EXPECT_EQ(d.kept, (std::vector<Circuit>{{0, 1}, {0, 4}, {2, 3}}));
    EXPECT_EQ(d.removed, (std::vector<Circuit>{{1, 2}, {3, 4}}));
    EXPECT_EQ(d.added, (std::vector<Circuit>{{0, 2}, {1, 3}, {2, 4}}));
    CircuitDiff same = DiffCircuits(from, from);
    EXPECT_EQ(same.kept, from.GetCircuits());
    EXPECT_TRUE(same.removed.empty());
    EXPECT_TRUE(same.added.empty());
    // multiset semantics: (0,1) three times -> twice, (1,2) once -> twice
    CircuitGraph multiA(3, {{0, 1}, {0, 1}, {1, 0}, {1, 2}});
    CircuitGraph multiB(3, {{0, 1}, {0, 1}, {1, 2}, {2, 1}});
    CircuitDiff m = DiffCircuits(multiA, multiB);
    EXPECT_EQ(m.kept, (std::vector<Circuit>{{0, 1}, {0, 1}, {1, 2}}));
    EXPECT_EQ(m.removed, (std::vector<Circuit>{{0, 1}}));
    EXPECT_EQ(m.added, (std::vector<Circuit>{{1, 2}}));
    ExpectErrorContaining([&] { DiffCircuits(from, CircuitGraph(6, {})); }, "to = ");
}

TEST(PortPlan, ParallelCircuitsAndSelfLoopsAreSupported)
{
    // (0,1) twice, a self-loop at 2, and (1,2)
    CircuitGraph multi(3, {{0, 1}, {1, 0}, {2, 2}, {1, 2}});
    PortPlan plan = PlanPorts(multi, 3);
    ExpectPlanOf(plan, multi, 3);
    // group 0: ports 0, 1 -> group 1 ports 0, 1; group 2: port 0 -> (1,2), ports 1, 2 loop
    EXPECT_EQ(plan.GetCircuits(),
              (std::vector<PortCircuit>{{0, 0, 1, 0}, {0, 1, 1, 1}, {1, 2, 2, 0}, {2, 1, 2, 2}}));
    // drop one parallel copy: the one on the lowest ports is kept
    CircuitGraph fewer(3, {{0, 1}, {2, 2}, {1, 2}});
    PortPlan next = PlanPorts(fewer, plan);
    ExpectPlanOf(next, fewer, 3);
    EXPECT_EQ(next.GetCircuits(),
              (std::vector<PortCircuit>{{0, 0, 1, 0}, {1, 2, 2, 0}, {2, 1, 2, 2}}));
    PortCircuitDiff diff = DiffPorts(plan, next);
    EXPECT_EQ(diff.removed, (std::vector<PortCircuit>{{0, 1, 1, 1}}));
    EXPECT_TRUE(diff.added.empty());
}

TEST(PortPlan, DegreeAboveThePortsThrowsNamingTheGroup)
{
    // group 2 has degree 3 on 2 ports
    CircuitGraph g(4, {{0, 2}, {1, 2}, {2, 3}, {0, 1}});
    ExpectErrorContaining([&] { PlanPorts(g, 2); }, "group 2 has degree 3");
    ExpectErrorContaining([&] { PlanPorts(g, 2); }, "its 2 ports");
    ExpectErrorContaining([&] { PlanPorts(g, PortPlan(4, 2)); }, "group 2 has degree 3");
    // a self-loop counts twice
    ExpectErrorContaining(
        [&] {
            PlanPorts(CircuitGraph(2, {{1, 1}, {0, 1}}), 2);
        },
        "group 1 has degree 3");
    ExpectErrorContaining([&] { PlanPorts(g, PortPlan(5, 3)); }, "target");
    ExpectErrorContaining([&] { PortPlan(1u << 20, 1u << 12); }, "ports = 4096");
}

TEST(PortPlan, FromPeersValidates)
{
    // 2 groups x 2 ports: (0,0)-(1,1), ports 1 and 2 dark
    PortPlan ok = PortPlan::FromPeers(2, 2, {3, DARK, DARK, 0});
    EXPECT_EQ(ok.GetCircuits(), (std::vector<PortCircuit>{{0, 0, 1, 1}}));
    EXPECT_EQ(ok.ToCircuitGraph().GetCircuits(), (std::vector<Circuit>{{0, 1}}));
    EXPECT_EQ(ok.GetPeer(1, 1), 0U);
    // round trip through the peers vector of a template plan
    Random rng = Random::Create(4, Stream::UNIFORM);
    PortPlan plan = PlanPorts(BuildUniformTemplate(64, 4, rng), 4);
    PortPlan back = PortPlan::FromPeers(64, 4, plan.GetPeers());
    EXPECT_EQ(back.GetCircuits(), plan.GetCircuits());
    EXPECT_EQ(back.GetCircuitPorts(), plan.GetCircuitPorts());

    ExpectErrorContaining(
        [] {
            PortPlan::FromPeers(2, 2, {3, DARK, DARK});
        },
        "need groups * ports = 2 * 2 = 4 entries");
    ExpectErrorContaining(
        [] {
            PortPlan::FromPeers(2, 2, {3, DARK, 7, 0});
        },
        "peers[2] (group 1, port 0) = 7");
    ExpectErrorContaining([] { PortPlan::FromPeers(2, 2, {3, DARK, 7, 0}); }, "below");
    ExpectErrorContaining(
        [] {
            PortPlan::FromPeers(2, 2, {3, 1, DARK, 0});
        },
        "peers[1] (group 0, port 1) = 1: a port cannot be joined to itself");
    // asymmetric: 0 -> 3 but 3 -> 2 (and 2 is dark)
    ExpectErrorContaining(
        [] {
            PortPlan::FromPeers(2, 2, {3, DARK, DARK, 2});
        },
        "peers[0] (group 0, port 0) = 3: the matching must be symmetric, but "
        "port 3 (group 1, port 1) has peer 2");
    ExpectErrorContaining(
        [] {
            PortPlan::FromPeers(2, 2, {DARK, 2, DARK, DARK});
        },
        "port 2 (group 1, port 0) is dark");
}

TEST(PortPlan, NextHopCircuitsGiveThePortsToSendOn)
{
    // what the packet level does: route on the plan's graph, send on the circuit's local port
    Random rng = Random::Create(5, Stream::UNIFORM);
    CircuitGraph g = BuildUniformTemplate(48, 4, rng);
    PortPlan plan = PlanPorts(g, 4);
    ShortestPathRouting routing(plan.ToCircuitGraph(), RoutingRule::RANDOM_SHORTEST_PATH, 3);
    const std::vector<NextHop> table = routing.ComputeNextHopTable();
    for (uint32_t u = 0; u < 48; ++u)
    {
        for (uint32_t t = 0; t < 48; ++t)
        {
            const NextHop& hop = table[u * 48 + t];
            if (u == t)
            {
                ASSERT_EQ(hop.circuit, DestinationTree::UNREACHABLE);
                continue;
            }
            const uint32_t port = plan.GetLocalPort(routing.GetGraph(), hop.circuit, u);
            ASSERT_EQ(plan.GetPeer(u, port) / 4, hop.node);
            ASSERT_EQ(plan.GetCircuitIndex(u, port), hop.circuit);
        }
    }
}
