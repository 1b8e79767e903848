/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The stages of the flow-level evaluation on their own: grouping, the level search, the sweep
// and the evaluator's reuse of its storage.

#include "mose-test-util.h"

#include "ns3/mose-cost-pass.h"
#include "ns3/mose-destination-sweep.h"
#include "ns3/mose-flow-grouping.h"
#include "ns3/mose-level-search.h"
#include "ns3/mose-load-pass.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-random.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <set>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

constexpr TrafficClass KV = TrafficClass::KV;
constexpr TrafficClass TR = TrafficClass::TRAINING;

/// \return a uniform random 4-regular graph of run 3 on n nodes
CircuitGraph
RandomGraph(uint32_t n)
{
    Random rng = Random::Create(3, Stream::UNIFORM);
    return BuildUniformTemplate(n, 4, rng);
}

/// \return count random flows on n nodes, demands 1 to 3, both classes
std::vector<Flow>
RandomFlows(uint32_t n, uint32_t count, uint64_t run)
{
    Random rng = Random::Create(run, Stream::TRAFFIC);
    std::vector<Flow> flows;
    for (uint32_t i = 0; i < count; ++i)
    {
        uint32_t s = rng.Index(n);
        uint32_t t = (s + 1 + rng.Index(n - 1)) % n;
        flows.push_back({s, t, i % 3 == 0 ? TR : KV, 1.0 + rng.Index(3)});
    }
    return flows;
}

} // namespace

TEST(GroupFlowsByDestination, AggregatesPairsPerDestination)
{
    // destination 2: pairs (0, 2) with two flows and (1, 2); destination 0: (3, 0)
    std::vector<Flow> flows = {{0, 2, KV, 1.0},
                               {3, 0, TR, 2.0},
                               {1, 2, TR, 0.5},
                               {0, 2, TR, 4.0},
                               {0, 2, KV, 1.5}};
    FlowGroups groups;
    GroupFlowsByDestination(flows, 4, true, groups);
    ASSERT_EQ(groups.runs.size(), 2U);
    EXPECT_EQ(groups.runs[0].destination, 0U);
    EXPECT_EQ(groups.runs[1].destination, 2U);
    ASSERT_EQ(groups.pairs.size(), 3U);
    const PairDemand& p = groups.pairs[groups.flowPair[0]];
    EXPECT_EQ(p.src, 0U);
    EXPECT_EQ(p.dst, 2U);
    EXPECT_EQ(p.countKv, 2U);
    EXPECT_EQ(p.countTraining, 1U);
    EXPECT_EQ(p.demandKv, 2.5);
    EXPECT_EQ(p.demandTraining, 4.0);
    EXPECT_EQ(p.firstFlow, 0U);
    EXPECT_EQ(groups.flowPair[3], groups.flowPair[0]);
    EXPECT_EQ(groups.flowPair[4], groups.flowPair[0]);
    EXPECT_NE(groups.flowPair[2], groups.flowPair[0]);
    EXPECT_EQ(groups.pairs[groups.flowPair[1]].dst, 0U);
    // stable order by destination
    std::vector<uint32_t> order;
    for (const SortedFlow& f : groups.byDestination)
    {
        order.push_back(f.flow);
        EXPECT_EQ(f.src, flows[f.flow].src);
        EXPECT_EQ(f.Class(), flows[f.flow].cls);
        EXPECT_EQ(f.Demand(), flows[f.flow].demand);
    }
    EXPECT_EQ(order, (std::vector<uint32_t>{1, 0, 2, 3, 4}));
    // grouping again into the same object starts afresh
    GroupFlowsByDestination({{1, 3, KV, 1.0}}, 4, false, groups);
    ASSERT_EQ(groups.pairs.size(), 1U);
    EXPECT_EQ(groups.pairs[0].demandTraining, 0.0);
    EXPECT_TRUE(groups.flowPair.empty());
}

TEST(LevelSearch, DistancesAndPathCountsMatchComputeTree)
{
    // a random expander and a deep ring (many levels)
    for (const CircuitGraph& g : {RandomGraph(200), Ring(300)})
    {
        ShortestPathRouting routing(g, RoutingRule::RANDOM_SHORTEST_PATH, 5);
        const uint32_t n = g.GetNNodes();
        std::vector<uint32_t> destinations;
        for (uint32_t b = 0; b < LevelSearch::BATCH; ++b)
        {
            destinations.push_back((b * 37) % n);
        }
        LevelSearch search;
        search.Search(g, destinations.data(), LevelSearch::BATCH);
        search.MarkAllSources();
        search.CountPaths(g);
        DestinationTree tree;
        for (uint32_t b = 0; b < LevelSearch::BATCH; ++b)
        {
            routing.ComputeTree(destinations[b], tree);
            for (uint32_t v = 0; v < n; ++v)
            {
                ASSERT_EQ(search.GetDistance(v, b), tree.distance[v]);
                // bit for bit: the same sums in the same order
                ASSERT_EQ(search.PathCount(v, b), tree.pathCount[v]);
                ASSERT_TRUE(((search.GetLevel(tree.distance[v])[v] >> b) & 1) != 0);
            }
        }
        EXPECT_EQ(search.GetNLevels(),
                  1 + *std::max_element(tree.distance.begin(), tree.distance.end()));
    }
    LevelSearch search;
    CircuitGraph g = Ring(10);
    uint32_t t = 10;
    EXPECT_THROW(search.Search(g, &t, 1), Error);
    t = 0;
    EXPECT_THROW(search.Search(g, &t, 0), Error);
}

TEST(LevelSearch, PathCountsBeyond32BitsAreExact)
{
    // a chain of 40 diamonds a_k - {b_k, c_k} - a_(k+1): 2^40 shortest paths end to end, more
    // than 32-bit counts hold
    const uint32_t diamonds = 40;
    std::vector<Circuit> circuits;
    for (uint32_t k = 0; k < diamonds; ++k)
    {
        const uint32_t a = 3 * k;
        circuits.push_back({a, a + 1});
        circuits.push_back({a, a + 2});
        circuits.push_back({a + 1, a + 3});
        circuits.push_back({a + 2, a + 3});
    }
    CircuitGraph g(3 * diamonds + 1, circuits);
    ShortestPathRouting routing(g, RoutingRule::RANDOM_SHORTEST_PATH, 1);
    DestinationTree tree;
    routing.ComputeTree(0, tree);
    const uint32_t far = 3 * diamonds;
    ASSERT_EQ(tree.pathCount[far], std::ldexp(1.0, diamonds));
    uint32_t destinations[2] = {0, far};
    LevelSearch search;
    search.Search(g, destinations, 2);
    search.MarkAllSources();
    search.CountPaths(g);
    for (uint32_t v = 0; v <= far; ++v)
    {
        ASSERT_EQ(search.PathCount(v, 0), tree.pathCount[v]);
    }
    // and the evaluation routes over them as ComputeTree() does
    std::vector<Flow> flows;
    for (uint32_t s = 1; s <= far; ++s)
    {
        flows.push_back({s, 0, KV, 1.0});
    }
    std::vector<FlowResult> per;
    FlowMetrics m = EvaluateFlows(routing, flows, per);
    std::vector<double> load(g.GetNCircuits(), 0.0);
    for (const Flow& f : flows)
    {
        std::vector<uint32_t> path = routing.GetPath(f.src, f.dst);
        for (std::size_t h = 1; h < path.size(); ++h)
        {
            load[g.FindCircuit(path[h - 1], path[h])] += 1.0;
        }
    }
    EXPECT_EQ(m.load, load);
}

TEST(DestinationSweep, PathStepsHoldEveryPairsPathInOrder)
{
    // 120 nodes, 4000 flows: two batches, the second one partial
    CircuitGraph g = RandomGraph(120);
    std::vector<Flow> flows = RandomFlows(120, 4000, 2);
    constexpr uint32_t BATCH = LevelSearch::BATCH;
    for (RoutingRule rule : {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH})
    {
        ShortestPathRouting routing(g, rule, 8);
        FlowGroups groups;
        GroupFlowsByDestination(flows, g.GetNNodes(), false, groups);
        ASSERT_GT(groups.runs.size(), BATCH);
        DestinationSweep sweep(routing);
        PathSteps paths;
        // in two calls, as the evaluation does
        sweep.Route(groups, 0, BATCH, paths);
        sweep.Route(groups, BATCH, groups.runs.size(), paths, true);
        ASSERT_EQ(paths.GetNBatches(), 2U);
        ASSERT_EQ(paths.destinations, groups.runs.size());
        std::vector<CircuitLoad> loads(g.GetNCircuits());
        std::vector<double> expected(g.GetNCircuits(), 0.0);
        for (std::size_t b = 0; b < paths.GetNBatches(); ++b)
        {
            // per (node, slot), the position of its step; exactly one each
            std::map<std::pair<uint32_t, uint32_t>, std::size_t> at;
            for (std::size_t i = paths.batchBegin[b]; i < paths.batchBegin[b + 1]; ++i)
            {
                const PathStep& st = paths.steps[i];
                ASSERT_TRUE(at.emplace(std::make_pair(st.node, st.slot), i).second);
                ASSERT_EQ(static_cast<int64_t>(st.circuit), g.FindCircuit(st.node, st.next));
                if (i > paths.batchBegin[b])
                {
                    // within a node, by slot
                    const PathStep& prev = paths.steps[i - 1];
                    ASSERT_TRUE(prev.node != st.node || prev.slot < st.slot);
                }
            }
            std::set<std::pair<uint32_t, uint32_t>> onPaths;
            for (uint32_t slot = 0; slot < BATCH && b * BATCH + slot < groups.runs.size(); ++slot)
            {
                const DestinationRun& run = groups.runs[b * BATCH + slot];
                for (std::size_t k = run.begin; k < run.end; ++k)
                {
                    // the steps from the pair's source are the hops of GetPath(), each after
                    // the step before it
                    const PairDemand& p = groups.pairs[k];
                    std::vector<uint32_t> path = routing.GetPath(p.src, run.destination);
                    ASSERT_EQ(paths.pairStep[k],
                              at.at({p.src, slot}) - paths.batchBegin[b]); // from run 0 on
                    std::size_t previous = 0;
                    for (std::size_t h = 0; h + 1 < path.size(); ++h)
                    {
                        auto it = at.find({path[h], slot});
                        ASSERT_NE(it, at.end());
                        ASSERT_EQ(paths.steps[it->second].next, path[h + 1]);
                        if (h > 0)
                        {
                            ASSERT_GT(it->second, previous);
                        }
                        previous = it->second;
                        onPaths.insert({path[h], slot});
                        expected[g.FindCircuit(path[h], path[h + 1])] +=
                            p.demandKv + p.demandTraining;
                    }
                    EXPECT_EQ(at.count({run.destination, slot}), 0U);
                }
            }
            // and nothing else
            EXPECT_EQ(onPaths.size(), at.size());
            // the cells: a step's next hop is the step of (next, slot), or the destination's
            // cell after the batch's steps
            const std::size_t count = paths.GetNSteps(b);
            for (std::size_t i = paths.batchBegin[b]; i < paths.batchBegin[b + 1]; ++i)
            {
                const PathStep& st = paths.steps[i];
                auto it = at.find({st.next, st.slot});
                const std::size_t expectedCell =
                    it == at.end() ? count + st.slot : it->second - paths.batchBegin[b];
                if (it == at.end())
                {
                    ASSERT_EQ(st.next, groups.runs[b * BATCH + st.slot].destination);
                }
                ASSERT_EQ(paths.stepNext[i], expectedCell);
            }
        }
        // the load pass over them: integer demands, exact
        std::vector<CellDemand> cells;
        AccumulateLoads(paths, groups, loads, cells);
        for (uint32_t c = 0; c < g.GetNCircuits(); ++c)
        {
            ASSERT_EQ(loads[c].kv + loads[c].training, expected[c]) << ToString(rule);
        }
        // the cost pass: the loads along GetPath() and its length
        std::vector<CellCost> costCells;
        ComputePairCosts(paths, expected, costCells, groups);
        for (const PairDemand& p : groups.pairs)
        {
            std::vector<uint32_t> path = routing.GetPath(p.src, p.dst);
            double cost = 0;
            for (std::size_t h = path.size() - 1; h-- > 0;)
            {
                cost = expected[g.FindCircuit(path[h], path[h + 1])] + cost;
            }
            ASSERT_EQ(p.hops + 1U, path.size());
            ASSERT_EQ(p.cost, cost);
        }
        // batches must follow each other, full
        EXPECT_THROW(sweep.Route(groups, 1, 2, paths, true), Error);
        PathSteps partial;
        sweep.Route(groups, 0, 10, partial);
        EXPECT_THROW(sweep.Route(groups, 10, 20, partial, true), Error);
        // ECMP builds DAGs, the single-path rules steps
        DemandDags dags;
        EXPECT_THROW(sweep.Route(groups, 0, 1, dags), Error);
        ShortestPathRouting ecmp(g, RoutingRule::ECMP, 8);
        DestinationSweep ecmpSweep(ecmp);
        EXPECT_THROW(ecmpSweep.Route(groups, 0, 1, paths), Error);
    }
    DestinationSweep unbound;
    FlowGroups groups;
    PathSteps paths;
    EXPECT_THROW(unbound.Route(groups, 0, 0, paths), Error);
}

TEST(FlowEvaluator, ReusedStorageGivesTheSameMetrics)
{
    // one evaluator over graphs of different sizes and every rule, against fresh ones
    CircuitGraph big = RandomGraph(150);
    CircuitGraph small = Ring(12);
    std::vector<Flow> bigFlows = RandomFlows(150, 5000, 4);
    std::vector<Flow> smallFlows = RandomFlows(12, 200, 5);
    FlowEvaluator reused;
    for (int round = 0; round < 2; ++round)
    {
        for (RoutingRule rule :
             {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH, RoutingRule::ECMP})
        {
            for (auto [graph, flows] :
                 {std::make_pair(&big, &bigFlows), std::make_pair(&small, &smallFlows)})
            {
                ShortestPathRouting routing(*graph, rule, 3);
                std::vector<FlowResult> perReused;
                std::vector<FlowResult> perFresh;
                FlowMetrics a = reused.Evaluate(routing, *flows, &perReused);
                FlowEvaluator fresh;
                FlowMetrics b = fresh.Evaluate(routing, *flows, &perFresh);
                EXPECT_EQ(a.load, b.load) << ToString(rule);
                EXPECT_EQ(a.loadKv, b.loadKv);
                EXPECT_EQ(a.all.p95Cost, b.all.p95Cost);
                EXPECT_EQ(a.kv.avgCost, b.kv.avgCost);
                EXPECT_EQ(a.hopHistogramTraining, b.hopHistogramTraining);
                ASSERT_EQ(perReused.size(), perFresh.size());
                for (std::size_t i = 0; i < perFresh.size(); ++i)
                {
                    ASSERT_EQ(perReused[i].cost, perFresh[i].cost);
                    ASSERT_EQ(perReused[i].hops, perFresh[i].hops);
                }
            }
        }
    }
    // no flows after a full evaluation: nothing of the previous one is left
    for (RoutingRule rule :
         {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH, RoutingRule::ECMP})
    {
        ShortestPathRouting routing(big, rule, 3);
        reused.Evaluate(routing, bigFlows);
        FlowMetrics empty = reused.Evaluate(routing, {});
        EXPECT_EQ(empty.all.flows, 0U);
        EXPECT_EQ(empty.all.maxLoad, 0.0);
        EXPECT_EQ(empty.load, std::vector<double>(big.GetNCircuits(), 0.0));
    }
}

TEST(FlowEvaluator, EstimateBytesCountsCellsAndFlowsAndSaturates)
{
    // 64 cells per group of 4 + 8 + 4 bytes, 16 + 48 bytes per flow
    EXPECT_EQ(FlowEvaluator::EstimateBytes(0, 0), 0U);
    EXPECT_EQ(FlowEvaluator::EstimateBytes(1024, 0), 1024U * 64 * 16);
    EXPECT_EQ(FlowEvaluator::EstimateBytes(0, 100000), 100000U * 64);
    EXPECT_EQ(FlowEvaluator::EstimateBytes(1024, 100000), 1024U * 64 * 16 + 100000U * 64);
    // what no machine holds saturates instead of wrapping around
    EXPECT_EQ(FlowEvaluator::EstimateBytes(UINT64_MAX, 0), UINT64_MAX);
    EXPECT_EQ(FlowEvaluator::EstimateBytes(0, UINT64_MAX), UINT64_MAX);
    EXPECT_GT(FlowEvaluator::EstimateBytes(4294967294U, 0), uint64_t{1} << 41);
}
