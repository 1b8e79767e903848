/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-random.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"
#include "ns3/rng-seed-manager.h"

#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <set>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

constexpr uint32_t NONE = DestinationTree::UNREACHABLE;

/// \return true if consecutive nodes of the path are joined by circuits
bool
IsWalk(const CircuitGraph& g, const std::vector<uint32_t>& path)
{
    for (std::size_t i = 1; i < path.size(); ++i)
    {
        if (!g.HasCircuit(path[i - 1], path[i]))
        {
            return false;
        }
    }
    return true;
}

} // namespace

TEST(RoutingRule, NamesRoundTrip)
{
    for (RoutingRule r :
         {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH, RoutingRule::ECMP})
    {
        EXPECT_EQ(ParseEnum<RoutingRule>(ToString(r), "--routing"), r);
    }
    EXPECT_EQ(ToString(RoutingRule::SHORTEST_PATH), "shortest-path");
    EXPECT_EQ(ToString(RoutingRule::RANDOM_SHORTEST_PATH), "random-shortest-path");
    EXPECT_EQ(ToString(RoutingRule::ECMP), "ecmp");
    EXPECT_EQ(ParseEnum<RoutingRule>("ECMP", "--routing"), RoutingRule::ECMP);
    std::string m = ErrorOf([] { ParseEnum<RoutingRule>("ospf", "--routing"); });
    EXPECT_CONTAINS(m, "invalid --routing = \"ospf\"");
    EXPECT_CONTAINS(m, "ospf");
    EXPECT_CONTAINS(m, "ecmp");
}

TEST(ShortestPathRouting, RingTreeUsesLowestIdTieBreak)
{
    CircuitGraph g = Ring(6);
    ShortestPathRouting routing(g, RoutingRule::SHORTEST_PATH);
    // a routing built from a reference routes on its own copy
    EXPECT_NE(&routing.GetGraph(), &g);
    EXPECT_EQ(routing.GetGraph().GetCircuits(), g.GetCircuits());
    EXPECT_EQ(routing.GetRule(), RoutingRule::SHORTEST_PATH);
    DestinationTree tree;
    routing.ComputeTree(3, tree);
    EXPECT_EQ(tree.destination, 3U);
    // distances to 3 on the 6-ring: 0 is opposite (3 hops, two shortest paths)
    EXPECT_EQ(tree.distance, (std::vector<uint32_t>{3, 2, 1, 0, 1, 2}));
    // BFS order: 3, its neighbours 2 and 4 in id order, then 1 (from 2), 5 (from 4), then 0
    EXPECT_EQ(tree.order, (std::vector<uint32_t>{3, 2, 4, 1, 5, 0}));
    // node 0 has two closer neighbours, 1 and 5: the lowest id wins
    EXPECT_EQ(tree.nextHop, (std::vector<uint32_t>{1, 2, 3, 3, 3, 4}));
    // circuits c0 (0,1), c2 (1,2), c3 (2,3), none, c4 (3,4), c5 (4,5)
    EXPECT_EQ(tree.nextCircuit, (std::vector<uint32_t>{0, 2, 3, NONE, 4, 5}));
    EXPECT_TRUE(tree.pathCount.empty());

    std::vector<uint32_t> next;
    std::vector<uint32_t> circuits;
    routing.GetCloserNeighbours(tree, 0, next, circuits);
    EXPECT_EQ(next, (std::vector<uint32_t>{1, 5}));
    EXPECT_EQ(circuits, (std::vector<uint32_t>{0, 1}));
    routing.GetCloserNeighbours(tree, 5, next, circuits);
    EXPECT_EQ(next, (std::vector<uint32_t>{4}));
    EXPECT_EQ(circuits, (std::vector<uint32_t>{5}));
    EXPECT_THROW(routing.GetCloserNeighbours(tree, 3, next, circuits), Error);

    EXPECT_EQ(routing.GetPath(0, 3), (std::vector<uint32_t>{0, 1, 2, 3}));
    // towards 4, node 1's closer neighbours are 0 and 2: 0 wins
    EXPECT_EQ(routing.GetPath(1, 4), (std::vector<uint32_t>{1, 0, 5, 4}));
    EXPECT_EQ(routing.GetPath(2, 2), (std::vector<uint32_t>{2}));
    EXPECT_THROW(routing.GetPath(6, 2), Error);
    EXPECT_THROW(routing.ComputeTree(6, tree), Error);
}

TEST(ShortestPathRouting, CubeAndCirculantTieBreaks)
{
    CircuitGraph q3 = Cube3();
    ShortestPathRouting cube(q3, RoutingRule::SHORTEST_PATH);
    // 0 -> 7: closer neighbours of 0 are 1, 2, 4 -> 1; of 1 are 3, 5 -> 3
    EXPECT_EQ(cube.GetPath(0, 7), (std::vector<uint32_t>{0, 1, 3, 7}));
    // 3 -> 4: closer neighbours of 3 are 1, 2, 7 -> 1; of 1 are 0, 5 -> 0
    EXPECT_EQ(cube.GetPath(3, 4), (std::vector<uint32_t>{3, 1, 0, 4}));

    CircuitGraph c10 = Circulant10();
    ShortestPathRouting circ(c10, RoutingRule::SHORTEST_PATH);
    // 0 -> 5: 0's neighbours 1, 2, 8, 9 are all 2 hops from 5 -> 1; 1's only closer one is 3
    EXPECT_EQ(circ.GetPath(0, 5), (std::vector<uint32_t>{0, 1, 3, 5}));
    // 6 -> 3: closer neighbours 4 and 5 -> 4
    EXPECT_EQ(circ.GetPath(6, 3), (std::vector<uint32_t>{6, 4, 3}));
}

TEST(ShortestPathRouting, EcmpHasNoSinglePath)
{
    CircuitGraph g = Ring(6);
    ShortestPathRouting ecmp(g, RoutingRule::ECMP);
    EXPECT_THROW(ecmp.GetPath(0, 3), Error);
    // the tree still carries the lowest-id next hops (documented)
    DestinationTree tree;
    ecmp.ComputeTree(3, tree);
    EXPECT_EQ(tree.nextHop, (std::vector<uint32_t>{1, 2, 3, 3, 3, 4}));
}

TEST(ShortestPathRouting, UnreachableNodes)
{
    CircuitGraph g(6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}});
    ShortestPathRouting routing(g, RoutingRule::SHORTEST_PATH);
    DestinationTree tree;
    routing.ComputeTree(4, tree);
    EXPECT_EQ(tree.distance, (std::vector<uint32_t>{NONE, NONE, NONE, 1, 0, 1}));
    EXPECT_EQ(tree.order, (std::vector<uint32_t>{4, 3, 5}));
    EXPECT_EQ(tree.nextHop[0], NONE);
    EXPECT_EQ(tree.nextCircuit[0], NONE);
    std::vector<uint32_t> next;
    std::vector<uint32_t> circuits;
    EXPECT_THROW(routing.GetCloserNeighbours(tree, 0, next, circuits), Error);
    EXPECT_THROW(routing.GetPath(0, 4), Error);
    std::vector<NextHop> table = routing.ComputeNextHopTable();
    ASSERT_EQ(table.size(), 36U);
    EXPECT_EQ(table[0 * 6 + 4], (NextHop{NONE, NONE}));
    // circuits sorted: (0,1) (0,2) (1,2) (3,4) (3,5) (4,5)
    EXPECT_EQ(table[3 * 6 + 4], (NextHop{4, 3}));
    EXPECT_EQ(table[5 * 6 + 4], (NextHop{4, 5}));
    EXPECT_EQ(table[4 * 6 + 4], (NextHop{4, NONE}));
    std::vector<NextHop> column;
    routing.ComputeNextHops(4, column);
    ASSERT_EQ(column.size(), 6U);
    for (uint32_t u = 0; u < 6; ++u)
    {
        EXPECT_EQ(column[u], table[u * 6 + 4]) << "node " << u;
    }
    EXPECT_THROW(routing.ComputeNextHops(6, column), Error);
}

TEST(ShortestPathRouting, PathCountsOfRandomRule)
{
    CircuitGraph q3 = Cube3();
    ShortestPathRouting routing(q3, RoutingRule::RANDOM_SHORTEST_PATH, 42);
    EXPECT_EQ(routing.GetSeed(), 42U);
    DestinationTree tree;
    routing.ComputeTree(7, tree);
    // shortest paths to 7 from a node at distance k in Q3: k!
    EXPECT_EQ(tree.pathCount, (std::vector<double>{6, 2, 2, 1, 2, 1, 1, 1}));
    CircuitGraph c10 = Circulant10();
    ShortestPathRouting r10(c10, RoutingRule::RANDOM_SHORTEST_PATH, 1);
    r10.ComputeTree(5, tree);
    // 0 -> 5: via 1 (1-3-5), via 2 (2-3-5, 2-4-5), via 8 (8-6-5, 8-7-5), via 9 (9-7-5)
    EXPECT_EQ(tree.pathCount[0], 6.0);
    EXPECT_EQ(tree.pathCount[2], 2.0);
    EXPECT_EQ(tree.pathCount[1], 1.0);
}

TEST(ShortestPathRouting, RandomRuleIsUniformOverShortestPaths)
{
    // Over many seeds, each of the 6 shortest paths must come up about 1/6 of the time. On
    // C10(1,2) 0's four closer neighbours carry 1, 2, 2 and 1 paths: a per-hop uniform choice
    // would give the paths via 1 and 9 a share of 1/4 each instead of 1/6.
    const uint32_t seeds = 6000;
    for (int which = 0; which < 2; ++which)
    {
        CircuitGraph g = which == 0 ? Cube3() : Circulant10();
        uint32_t dst = which == 0 ? 7 : 5;
        std::map<std::vector<uint32_t>, uint32_t> seen;
        for (uint32_t s = 0; s < seeds; ++s)
        {
            ShortestPathRouting routing(g, RoutingRule::RANDOM_SHORTEST_PATH, s);
            std::vector<uint32_t> path = routing.GetPath(0, dst);
            ASSERT_EQ(path.size(), 4U);
            ASSERT_TRUE(IsWalk(g, path));
            ++seen[path];
        }
        EXPECT_EQ(seen.size(), 6U);
        for (const auto& [path, count] : seen)
        {
            // expected 1000 each; 5 standard deviations = 144
            EXPECT_GT(count, 850U);
            EXPECT_LT(count, 1150U);
        }
    }
}

TEST(ShortestPathRouting, HashIsDeterministicAndInUnitInterval)
{
    double sum = 0;
    for (uint32_t i = 0; i < 1000; ++i)
    {
        double x = ShortestPathRouting::HashUniform(7, i, 3);
        EXPECT_GE(x, 0.0);
        EXPECT_LT(x, 1.0);
        EXPECT_EQ(x, ShortestPathRouting::HashUniform(7, i, 3));
        sum += x;
    }
    EXPECT_NEAR(sum / 1000, 0.5, 0.05);
    EXPECT_NE(ShortestPathRouting::HashUniform(7, 1, 3), ShortestPathRouting::HashUniform(8, 1, 3));
    EXPECT_NE(ShortestPathRouting::HashUniform(7, 1, 3), ShortestPathRouting::HashUniform(7, 3, 1));
}

TEST(ShortestPathRouting, DeriveRoutingSeedIsTheRunsRoutingStream)
{
    const uint64_t globalRun = RngSeedManager::GetRun();
    std::set<uint64_t> seeds;
    for (uint64_t run = 1; run <= 5; ++run)
    {
        const uint64_t seed = DeriveRoutingSeed(run);
        // the derivation the flow-level experiment and mose-flow-eval used before it was shared
        EXPECT_EQ(seed, Random::Create(run, Stream::ROUTING).Bits64());
        EXPECT_EQ(seed, DeriveRoutingSeed(run));
        seeds.insert(seed);
    }
    EXPECT_EQ(seeds.size(), 5U);
    EXPECT_EQ(RngSeedManager::GetRun(), globalRun);
}

TEST(ShortestPathRouting, PathsAreShortestOnRandomGraphs)
{
    Random rng = Random::Create(3, Stream::UNIFORM);
    CircuitGraph g = BuildUniformTemplate(64, 4, rng);
    ShortestPathRouting sp(g, RoutingRule::SHORTEST_PATH);
    ShortestPathRouting rsp1(g, RoutingRule::RANDOM_SHORTEST_PATH, 1);
    ShortestPathRouting rsp2(g, RoutingRule::RANDOM_SHORTEST_PATH, 2);
    std::vector<NextHop> table = rsp1.ComputeNextHopTable();
    DestinationTree tree;
    uint32_t differ = 0;
    for (uint32_t t = 0; t < g.GetNNodes(); ++t)
    {
        sp.ComputeTree(t, tree);
        for (uint32_t s = 0; s < g.GetNNodes(); ++s)
        {
            auto a = sp.GetPath(s, t);
            auto b = rsp1.GetPath(s, t);
            auto c = rsp2.GetPath(s, t);
            ASSERT_EQ(a.size(), tree.distance[s] + 1);
            ASSERT_EQ(b.size(), tree.distance[s] + 1);
            ASSERT_EQ(c.size(), tree.distance[s] + 1);
            ASSERT_TRUE(IsWalk(g, a) && IsWalk(g, b) && IsWalk(g, c));
            ASSERT_EQ(b[0], s);
            ASSERT_EQ(b.back(), t);
            differ += (b != c) ? 1 : 0;
            // the table gives the same first hop as the path
            ASSERT_EQ(table[s * g.GetNNodes() + t].node, s == t ? t : b[1]);
        }
    }
    EXPECT_GT(differ, 100U);
}

namespace
{

/// Expects ComputeTrees()/ComputeTreeBatch() to agree with ComputeTree() on every destination
void
ExpectBatchMatchesSingle(const CircuitGraph& g, RoutingRule rule)
{
    const uint32_t n = g.GetNNodes();
    ShortestPathRouting routing(g, rule, 5);
    std::vector<uint32_t> destinations;
    for (uint32_t t = 0; t < n; ++t)
    {
        destinations.push_back(t);
    }
    destinations.push_back(3); // a repeat, in the second batch
    std::vector<DestinationTree> trees;
    routing.ComputeTrees(destinations, trees);
    ASSERT_EQ(trees.size(), destinations.size());
    DestinationTree single;
    for (std::size_t i = 0; i < destinations.size(); ++i)
    {
        const DestinationTree& tree = trees[i];
        routing.ComputeTree(destinations[i], single);
        ASSERT_EQ(tree.destination, destinations[i]);
        ASSERT_EQ(tree.distance, single.distance);
        ASSERT_EQ(tree.nextHop, single.nextHop);
        ASSERT_EQ(tree.nextCircuit, single.nextCircuit);
        ASSERT_EQ(tree.pathCount, single.pathCount);
        // same nodes, nondecreasing distance, destination first
        ASSERT_EQ(tree.order.size(), single.order.size());
        ASSERT_EQ(tree.order[0], destinations[i]);
        std::set<uint32_t> a(tree.order.begin(), tree.order.end());
        std::set<uint32_t> b(single.order.begin(), single.order.end());
        ASSERT_EQ(a, b);
        for (std::size_t k = 1; k < tree.order.size(); ++k)
        {
            ASSERT_LE(tree.distance[tree.order[k - 1]], tree.distance[tree.order[k]]);
            ASSERT_LE(single.distance[single.order[k - 1]], single.distance[single.order[k]]);
        }
    }
}

} // namespace

TEST(ShortestPathRouting, BatchTreesMatchSingleTrees)
{
    Random rng = Random::Create(4, Stream::UNIFORM);
    CircuitGraph random = BuildUniformTemplate(150, 3, rng);
    CircuitGraph split(7, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 6}, {6, 3}});
    for (RoutingRule rule :
         {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH, RoutingRule::ECMP})
    {
        ExpectBatchMatchesSingle(random, rule);
        ExpectBatchMatchesSingle(split, rule);
        ExpectBatchMatchesSingle(Ring(70), rule);
        ExpectBatchMatchesSingle(Cube3(), rule);
    }
}

TEST(ShortestPathRouting, DistanceOnlyAndDeepBatches)
{
    // a ring of 600 has distances up to 300: the batch switches to 32-bit distances at level 255
    Random rng = Random::Create(4, Stream::UNIFORM);
    std::vector<CircuitGraph> graphs{Ring(600), BuildUniformTemplate(100, 4, rng)};
    for (const CircuitGraph& g : graphs)
    {
        const uint32_t n = g.GetNNodes();
        ShortestPathRouting routing(g, RoutingRule::SHORTEST_PATH);
        std::vector<uint32_t> destinations{0, 5, n / 2 - 1, n - 1, 5};
        for (bool nextHops : {true, false})
        {
            TreeBatch batch;
            routing.ComputeTreeBatch(destinations.data(), 5, batch, nextHops);
            EXPECT_EQ(batch.HasNextHops(), nextHops);
            EXPECT_EQ(batch.GetNNodes(), n);
            DestinationTree single;
            DestinationTree extracted;
            for (uint32_t slot = 0; slot < 5; ++slot)
            {
                routing.ComputeTree(destinations[slot], single);
                batch.ExtractTree(slot, extracted);
                ASSERT_EQ(extracted.distance, single.distance);
                ASSERT_EQ(extracted.nextHop, single.nextHop);
                ASSERT_EQ(extracted.nextCircuit, single.nextCircuit);
                for (uint32_t v = 0; v < n; ++v)
                {
                    ASSERT_EQ(batch.GetDistance(v, slot), single.distance[v]);
                    ASSERT_EQ(batch.Distance(v, slot), single.distance[v]);
                }
                if (nextHops)
                {
                    EXPECT_EQ(batch.GetNextHop(1, slot), single.nextHop[1]);
                }
                else
                {
                    EXPECT_THROW(batch.GetNextHop(1, slot), Error);
                    EXPECT_THROW(batch.GetNextCircuit(1, slot), Error);
                }
            }
        }
    }
    EXPECT_EQ(ShortestPathRouting(graphs[0], RoutingRule::SHORTEST_PATH).GetPath(0, 300).size(),
              301U);
}

TEST(ShortestPathRouting, TreeBatchAccessors)
{
    CircuitGraph g(6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}});
    ShortestPathRouting routing(g, RoutingRule::SHORTEST_PATH);
    TreeBatch batch;
    std::vector<uint32_t> destinations{4, 0};
    routing.ComputeTreeBatch(destinations.data(), 2, batch);
    EXPECT_EQ(batch.GetSize(), 2U);
    EXPECT_EQ(batch.GetDestination(0), 4U);
    EXPECT_EQ(batch.GetDestination(1), 0U);
    EXPECT_TRUE(batch.IsReached(3, 0));
    EXPECT_FALSE(batch.IsReached(0, 0));
    EXPECT_EQ(batch.GetDistance(4, 0), 0U);
    EXPECT_EQ(batch.GetNextHop(4, 0), 4U);
    EXPECT_EQ(batch.GetNextCircuit(4, 0), NONE);
    // towards 0: 2's closer neighbour is 0 itself, circuit (0,2) = index 1
    EXPECT_EQ(batch.GetDistance(2, 1), 1U);
    EXPECT_EQ(batch.GetNextHop(2, 1), 0U);
    EXPECT_EQ(batch.GetNextCircuit(2, 1), 1U);
    EXPECT_EQ(batch.GetDistance(5, 1), NONE);
    EXPECT_EQ(batch.GetNextHop(5, 1), NONE);
    DestinationTree tree;
    batch.ExtractTree(0, tree);
    EXPECT_EQ(tree.order, (std::vector<uint32_t>{4, 3, 5}));
    EXPECT_THROW(batch.ExtractTree(2, tree), Error);
    EXPECT_THROW(routing.ComputeTreeBatch(destinations.data(), 0, batch), Error);
    std::vector<uint32_t> many(65, 0);
    EXPECT_THROW(routing.ComputeTreeBatch(many.data(), 65, batch), Error);
    std::vector<uint32_t> bad{6};
    EXPECT_THROW(routing.ComputeTreeBatch(bad.data(), 1, batch), Error);
    EXPECT_THROW(routing.ComputeTrees(bad, std::vector<DestinationTree>{} = {}), Error);
}

TEST(LazyRandomTree, MatchesComputeTree)
{
    // Q6 (path counts up to 6! = 720), a random 3-regular graph, and a ring
    std::vector<Circuit> q6;
    for (uint32_t i = 0; i < 64; ++i)
    {
        for (uint32_t b = 1; b < 64; b <<= 1)
        {
            if ((i ^ b) > i)
            {
                q6.push_back({i, i ^ b});
            }
        }
    }
    Random rng = Random::Create(8, Stream::UNIFORM);
    std::vector<CircuitGraph> graphs{CircuitGraph(64, q6),
                                     BuildUniformTemplate(90, 3, rng),
                                     Ring(9)};
    for (const CircuitGraph& g : graphs)
    {
        const uint32_t n = g.GetNNodes();
        for (uint64_t seed : {0, 1, 77})
        {
            ShortestPathRouting routing(g, RoutingRule::RANDOM_SHORTEST_PATH, seed);
            LazyRandomTree lazy(routing);
            auto batch = std::make_shared<TreeBatch>();
            DestinationTree tree;
            for (uint32_t first = 0; first < n; first += 64)
            {
                std::vector<uint32_t> destinations;
                for (uint32_t t = first; t < std::min(n, first + 64); ++t)
                {
                    destinations.push_back(t);
                }
                routing.ComputeTreeBatch(destinations.data(),
                                         static_cast<uint32_t>(destinations.size()),
                                         *batch);
                for (uint32_t slot = 0; slot < destinations.size(); ++slot)
                {
                    routing.ComputeTree(destinations[slot], tree);
                    lazy.Reset(batch, slot);
                    // ask in an order unrelated to the BFS: ids descending
                    for (uint32_t u = n; u-- > 0;)
                    {
                        if (u == destinations[slot])
                        {
                            continue;
                        }
                        uint32_t circuit = NONE;
                        ASSERT_EQ(lazy.Step(u, circuit), tree.nextHop[u]);
                        ASSERT_EQ(circuit, tree.nextCircuit[u]);
                        ASSERT_EQ(lazy.GetPathCount(u), tree.pathCount[u]);
                    }
                }
            }
        }
    }
    DestinationTree tree;
    ShortestPathRouting routing(graphs[0], RoutingRule::RANDOM_SHORTEST_PATH, 0);
    routing.ComputeTree(63, tree);
    EXPECT_EQ(tree.pathCount[0], 720.0);
}

namespace
{

/// Expects hops to be the single paths of the routing (GetPath()) for every ordered pair, each
/// hop's circuit joining its two nodes
void
ExpectTableFollowsPaths(const ShortestPathRouting& routing, const std::vector<NextHop>& table)
{
    const CircuitGraph& g = routing.GetGraph();
    const uint32_t n = g.GetNNodes();
    ASSERT_EQ(table.size(), static_cast<std::size_t>(n) * n);
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t t = 0; t < n; ++t)
        {
            const std::vector<uint32_t> path = routing.GetPath(s, t);
            std::vector<uint32_t> walked{s};
            for (uint32_t u = s; u != t;)
            {
                const NextHop& hop = table[static_cast<std::size_t>(u) * n + t];
                ASSERT_LT(hop.circuit, g.GetNCircuits()) << u << " -> " << t;
                const Circuit& c = g.GetCircuits()[hop.circuit];
                ASSERT_EQ(c, (Circuit{std::min(u, hop.node), std::max(u, hop.node)}))
                    << "circuit " << hop.circuit << " of hop " << u << " -> " << hop.node;
                u = hop.node;
                walked.push_back(u);
                ASSERT_LE(walked.size(), path.size()) << s << " -> " << t;
            }
            ASSERT_EQ(walked, path) << s << " -> " << t;
            ASSERT_EQ(table[static_cast<std::size_t>(t) * n + t], (NextHop{t, NONE}));
        }
    }
}

} // namespace

TEST(ShortestPathRouting, NextHopTableGivesTheFlowLevelHopsAndCircuits)
{
    Random rng = Random::Create(4, Stream::UNIFORM);
    CircuitGraph g = BuildUniformTemplate(64, 4, rng);
    const uint32_t n = g.GetNNodes();
    for (RoutingRule rule : {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH})
    {
        SCOPED_TRACE(ToString(rule));
        ShortestPathRouting routing(g, rule, DeriveRoutingSeed(1));
        const std::vector<NextHop> table = routing.ComputeNextHopTable();
        ExpectTableFollowsPaths(routing, table);
        // the per-destination variant gives the same columns
        std::vector<NextHop> column;
        for (uint32_t t = 0; t < n; ++t)
        {
            routing.ComputeNextHops(t, column);
            for (uint32_t u = 0; u < n; ++u)
            {
                ASSERT_EQ(column[u], table[static_cast<std::size_t>(u) * n + t]) << u << "->" << t;
            }
        }
        if (rule != RoutingRule::RANDOM_SHORTEST_PATH)
        {
            continue;
        }
        // the flow-level evaluation follows LazyRandomTree over a distance batch: same hops
        LazyRandomTree lazy(routing);
        auto batch = std::make_shared<TreeBatch>();
        uint32_t differFromLowestId = 0;
        for (uint32_t first = 0; first < n; first += ShortestPathRouting::BATCH)
        {
            std::vector<uint32_t> destinations;
            for (uint32_t t = first; t < std::min(n, first + ShortestPathRouting::BATCH); ++t)
            {
                destinations.push_back(t);
            }
            routing.ComputeTreeBatch(destinations.data(),
                                     static_cast<uint32_t>(destinations.size()),
                                     *batch,
                                     true);
            for (uint32_t slot = 0; slot < destinations.size(); ++slot)
            {
                lazy.Reset(batch, slot);
                const uint32_t t = destinations[slot];
                for (uint32_t u = 0; u < n; ++u)
                {
                    if (u == t)
                    {
                        continue;
                    }
                    uint32_t circuit = NONE;
                    const uint32_t hop = lazy.Step(u, circuit);
                    ASSERT_EQ((NextHop{hop, circuit}), table[static_cast<std::size_t>(u) * n + t]);
                    differFromLowestId += hop != batch->GetNextHop(u, slot) ? 1 : 0;
                }
            }
        }
        // the rule is really random: many hops differ from the lowest-id ones
        EXPECT_GT(differFromLowestId, 200U);
    }
    // ECMP's table holds the lowest-id hops, with their circuits
    ShortestPathRouting ecmp(g, RoutingRule::ECMP);
    ShortestPathRouting lowest(g, RoutingRule::SHORTEST_PATH);
    EXPECT_EQ(ecmp.ComputeNextHopTable(), lowest.ComputeNextHopTable());
}

TEST(ShortestPathRouting, SharesOwnershipOfItsGraph)
{
    auto graph = std::make_shared<const CircuitGraph>(Ring(8));
    std::weak_ptr<const CircuitGraph> watch = graph;
    std::vector<uint32_t> expected;
    {
        ShortestPathRouting routing(graph, RoutingRule::SHORTEST_PATH);
        EXPECT_EQ(&routing.GetGraph(), graph.get());
        EXPECT_EQ(routing.GetGraphPtr(), graph);
        graph.reset();
        EXPECT_FALSE(watch.expired());
        expected = routing.GetPath(0, 4);
        ShortestPathRouting copy = routing;
        EXPECT_EQ(copy.GetGraphPtr(), routing.GetGraphPtr());
        EXPECT_EQ(copy.GetPath(0, 4), expected);
    }
    EXPECT_TRUE(watch.expired());
    EXPECT_EQ(expected, (std::vector<uint32_t>{0, 1, 2, 3, 4}));
    EXPECT_THROW(
        ShortestPathRouting(std::shared_ptr<const CircuitGraph>(), RoutingRule::SHORTEST_PATH),
        Error);
    // from a reference: a private copy, independent of the argument's lifetime
    std::unique_ptr<CircuitGraph> temporary = std::make_unique<CircuitGraph>(Ring(8));
    ShortestPathRouting copied(*temporary, RoutingRule::SHORTEST_PATH);
    EXPECT_NE(&copied.GetGraph(), temporary.get());
    temporary.reset();
    EXPECT_EQ(copied.GetPath(0, 4), expected);
}

TEST(ShortestPathRouting, TreesOutliveTheirGraphAndRouting)
{
    // run under the ASan build: every use below follows the destruction of the caller's graph
    // and of the routing
    Random rng = Random::Create(5, Stream::UNIFORM);
    auto graph = std::make_shared<const CircuitGraph>(BuildUniformTemplate(40, 4, rng));
    const uint32_t n = graph->GetNNodes();
    DestinationTree reference;
    ShortestPathRouting(graph, RoutingRule::RANDOM_SHORTEST_PATH, 9).ComputeTree(7, reference);
    DestinationTree lowestReference;
    ShortestPathRouting(graph, RoutingRule::SHORTEST_PATH).ComputeTree(7, lowestReference);

    auto batch = std::make_shared<TreeBatch>();
    auto routing =
        std::make_unique<ShortestPathRouting>(graph, RoutingRule::RANDOM_SHORTEST_PATH, 9);
    auto lazy = std::make_unique<LazyRandomTree>(*routing);
    const uint32_t destination = 7;
    // distances only: ExtractTree() must then read the graph itself
    routing->ComputeTreeBatch(&destination, 1, *batch, false);
    lazy->Reset(batch, 0);
    std::weak_ptr<const CircuitGraph> watch = graph;
    graph.reset();
    routing.reset();
    EXPECT_FALSE(watch.expired());

    DestinationTree extracted;
    batch->ExtractTree(0, extracted);
    EXPECT_EQ(extracted.distance, lowestReference.distance);
    EXPECT_EQ(extracted.nextHop, lowestReference.nextHop);
    EXPECT_EQ(extracted.nextCircuit, lowestReference.nextCircuit);

    // the lazy tree keeps the batch too: drop the caller's pointer before stepping
    std::weak_ptr<const TreeBatch> watchBatch = batch;
    batch.reset();
    EXPECT_FALSE(watchBatch.expired());
    for (uint32_t u = 0; u < n; ++u)
    {
        if (u == destination)
        {
            continue;
        }
        uint32_t circuit = NONE;
        ASSERT_EQ(lazy->Step(u, circuit), reference.nextHop[u]);
        ASSERT_EQ(circuit, reference.nextCircuit[u]);
        ASSERT_EQ(lazy->GetPathCount(u), reference.pathCount[u]);
    }
    lazy.reset();
    EXPECT_TRUE(watchBatch.expired());
    EXPECT_TRUE(watch.expired());
}

TEST(LazyRandomTree, RejectsForeignBatchesAndUseBeforeReset)
{
    CircuitGraph ring = Ring(10);
    ShortestPathRouting a(ring, RoutingRule::RANDOM_SHORTEST_PATH, 1);
    ShortestPathRouting b(ring, RoutingRule::RANDOM_SHORTEST_PATH, 1); // its own copy
    LazyRandomTree lazy(a);
    uint32_t circuit = NONE;
    EXPECT_THROW(lazy.Step(1, circuit), Error);
    EXPECT_THROW(lazy.GetPathCount(1), Error);
    auto batch = std::make_shared<TreeBatch>();
    const uint32_t destination = 0;
    b.ComputeTreeBatch(&destination, 1, *batch);
    EXPECT_THROW(lazy.Reset(batch, 0), Error);
    EXPECT_THROW(lazy.Reset(nullptr, 0), Error);
    a.ComputeTreeBatch(&destination, 1, *batch);
    EXPECT_THROW(lazy.Reset(batch, 1), Error);
    lazy.Reset(batch, 0);
    EXPECT_EQ(lazy.GetPathCount(5), 2.0);
    EXPECT_EQ(lazy.Step(1, circuit), 0U);
    EXPECT_EQ(ring.GetCircuits()[circuit], (Circuit{0, 1}));
}
