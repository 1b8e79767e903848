/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-flow-experiment-config.h"
#include "ns3/mose-partition.h"
#include "ns3/mose-policy.h"
#include "ns3/mose-random.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-topology-template.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// Two 4-cliques, {0, 2, 4, 6} and {1, 3, 5, 7} (interleaved ids), joined by the circuit (1, 6)
CircuitGraph
InterleavedCliques()
{
    std::vector<Circuit> c;
    for (uint32_t side = 0; side < 2; ++side)
    {
        for (uint32_t i = 0; i < 4; ++i)
        {
            for (uint32_t j = i + 1; j < 4; ++j)
            {
                c.push_back({2 * i + side, 2 * j + side});
            }
        }
    }
    c.push_back({1, 6});
    return CircuitGraph(8, c);
}

/// Per rank, its number of nodes
std::vector<uint32_t>
CountPerRank(const std::vector<uint32_t>& ranks, uint32_t r)
{
    std::vector<uint32_t> count(r, 0);
    for (uint32_t x : ranks)
    {
        EXPECT_LT(x, r);
        if (x < r)
        {
            ++count[x];
        }
    }
    return count;
}

/// Expects floor(N / R) to ceil(N / R) nodes on every rank, and circuitsCut to be the count
void
ExpectBalancedAndCounted(const CircuitGraph& g, uint32_t r, const GraphPartition& p)
{
    const uint32_t n = g.GetNNodes();
    ASSERT_EQ(p.ranks.size(), n);
    const std::vector<uint32_t> count = CountPerRank(p.ranks, r);
    EXPECT_LE(*std::max_element(count.begin(), count.end()), (n + r - 1) / r);
    EXPECT_GE(*std::min_element(count.begin(), count.end()), n / r);
    EXPECT_EQ(p.circuitsCut, CountCircuitsCut(g, p.ranks));
}

/// The templates of the small study (N = 64, d = 4) and of the paper's scale (N = 1024)
CircuitGraph
Template(uint32_t nodes, TemplateId id)
{
    FlowExperimentConfig c = nodes == 64 ? SmallStudyConfig(10) : FlowExperimentConfig();
    c.nodes = nodes;
    return ScenarioBuilder(c).BuildTemplate(1, id);
}

/// Partitions a template both ways at R, checks both and prints the two cuts
void
CompareOnTemplate(const std::string& name, const CircuitGraph& g, uint32_t r)
{
    SCOPED_TRACE(name + ", R = " + std::to_string(r));
    const GraphPartition blocks = PartitionCircuitGraph(g, r, PartitionMethod::BLOCKS);
    const GraphPartition minCut = PartitionCircuitGraph(g, r, PartitionMethod::MIN_CUT);
    ExpectBalancedAndCounted(g, r, blocks);
    ExpectBalancedAndCounted(g, r, minCut);
    EXPECT_LE(minCut.circuitsCut, blocks.circuitsCut);
    EXPECT_EQ(blocks.nodesRebalanced, 0u);
    std::cout << "[ partition ] " << name << " (N = " << g.GetNNodes() << ", " << g.GetNCircuits()
              << " circuits), R = " << r << ": blocks cut " << blocks.circuitsCut
              << ", min-cut cuts " << minCut.circuitsCut << " (" << minCut.nodesRebalanced
              << " node(s) rebalanced)" << std::endl;
}

} // namespace

TEST(Partition, BlocksAreContiguousAndCountedByHand)
{
    const CircuitGraph g = InterleavedCliques();
    const GraphPartition p = PartitionCircuitGraph(g, 2, PartitionMethod::BLOCKS);
    EXPECT_EQ(p.ranks, (std::vector<uint32_t>{0, 0, 0, 0, 1, 1, 1, 1}));
    // {0,2} | {4,6} cuts 4 circuits of the first clique, {1,3} | {5,7} 4 of the second, and
    // the bridge (1, 6) is cut too
    EXPECT_EQ(p.circuitsCut, 9u);
    EXPECT_EQ(PartitionCircuitGraph(g, 3, PartitionMethod::BLOCKS).ranks,
              (std::vector<uint32_t>{0, 0, 0, 1, 1, 1, 2, 2}));
}

TEST(Partition, MinCutSeparatesTwoCliquesAtTheirBridge)
{
    const CircuitGraph g = InterleavedCliques();
    const GraphPartition p = PartitionCircuitGraph(g, 2, PartitionMethod::MIN_CUT);
    ExpectBalancedAndCounted(g, 2, p);
    EXPECT_EQ(p.circuitsCut, 1u);
    for (uint32_t v : {2u, 4u, 6u})
    {
        EXPECT_EQ(p.ranks[v], p.ranks[0]) << "node " << v;
    }
    for (uint32_t v : {3u, 5u, 7u})
    {
        EXPECT_EQ(p.ranks[v], p.ranks[1]) << "node " << v;
    }
    EXPECT_NE(p.ranks[0], p.ranks[1]);
}

TEST(Partition, ParallelCircuitsWeighTheirNumber)
{
    // the 4-cycle 0-2-1-3-0 with (0, 2) and (1, 3) doubled: {0, 2} | {1, 3} cuts the two single
    // circuits; {0, 3} | {1, 2}, as short in hops, would cut the four doubled ones
    const CircuitGraph g(4, {{0, 2}, {0, 2}, {1, 2}, {1, 3}, {1, 3}, {0, 3}});
    EXPECT_EQ(CountCircuitsCut(g, {0, 0, 1, 1}), 6u);
    EXPECT_EQ(CountCircuitsCut(g, {0, 1, 1, 0}), 4u);
    EXPECT_EQ(CountCircuitsCut(g, {0, 1, 0, 1}), 2u);
    const GraphPartition p = PartitionCircuitGraph(g, 2, PartitionMethod::MIN_CUT);
    EXPECT_EQ(p.circuitsCut, 2u);
    EXPECT_EQ(p.ranks[0], p.ranks[2]);
    EXPECT_EQ(p.ranks[1], p.ranks[3]);
    EXPECT_NE(p.ranks[0], p.ranks[1]);
    EXPECT_EQ(PartitionCircuitGraph(g, 2, PartitionMethod::BLOCKS).circuitsCut, 6u);
}

TEST(Partition, SelfLoopsAreNeverCut)
{
    const CircuitGraph g(3, {{0, 0}, {0, 1}, {1, 1}, {1, 2}});
    EXPECT_EQ(CountCircuitsCut(g, {0, 1, 2}), 2u);
    EXPECT_EQ(CountCircuitsCut(g, {0, 0, 1}), 1u);
    const GraphPartition p = PartitionCircuitGraph(g, 2, PartitionMethod::MIN_CUT);
    ExpectBalancedAndCounted(g, 2, p);
    EXPECT_EQ(p.circuitsCut, 1u);
}

TEST(Partition, BalanceWinsOverAFreeCut)
{
    // a 5-clique and a 3-clique apart: no circuit need be cut, but 4 + 4 nodes per rank move one
    // node of the 5-clique over, cutting its 4 circuits
    std::vector<Circuit> c;
    for (uint32_t i = 0; i < 5; ++i)
    {
        for (uint32_t j = i + 1; j < 5; ++j)
        {
            c.push_back({i, j});
        }
    }
    c.push_back({5, 6});
    c.push_back({5, 7});
    c.push_back({6, 7});
    const CircuitGraph g(8, c);
    const GraphPartition p = PartitionCircuitGraph(g, 2, PartitionMethod::MIN_CUT);
    ExpectBalancedAndCounted(g, 2, p);
    EXPECT_EQ(p.circuitsCut, 4u);
    EXPECT_EQ(CountPerRank(p.ranks, 2), (std::vector<uint32_t>{4, 4}));
    // R = 3: 3, 3 and 2 nodes; the 3-clique whole, the 5-clique split 3 + 2 (6 circuits)
    const GraphPartition q = PartitionCircuitGraph(g, 3, PartitionMethod::MIN_CUT);
    ExpectBalancedAndCounted(g, 3, q);
    EXPECT_EQ(q.circuitsCut, 6u);
}

TEST(Partition, OneRankIsAllZeroAndOneRankPerNodeIsTheIdentity)
{
    const CircuitGraph g = Circulant10();
    for (PartitionMethod m : {PartitionMethod::BLOCKS, PartitionMethod::MIN_CUT})
    {
        const GraphPartition one = PartitionCircuitGraph(g, 1, m);
        EXPECT_EQ(one.ranks, std::vector<uint32_t>(10, 0)) << ToString(m);
        EXPECT_EQ(one.circuitsCut, 0u);
        const GraphPartition all = PartitionCircuitGraph(g, 10, m);
        for (uint32_t v = 0; v < 10; ++v)
        {
            EXPECT_EQ(all.ranks[v], v) << ToString(m);
        }
        EXPECT_EQ(all.circuitsCut, g.GetNCircuits());
    }
    // a graph without circuits has nothing to cut: blocks
    const CircuitGraph empty(5, {});
    EXPECT_EQ(PartitionCircuitGraph(empty, 2, PartitionMethod::MIN_CUT).ranks,
              (std::vector<uint32_t>{0, 0, 0, 1, 1}));
}

TEST(Partition, BadInputNamesTheParameterTheValueAndWhatIsAllowed)
{
    const CircuitGraph g = Ring(6);
    for (PartitionMethod m : {PartitionMethod::BLOCKS, PartitionMethod::MIN_CUT})
    {
        EXPECT_EQ(ErrorOf([&] { PartitionCircuitGraph(g, 0, m); }),
                  "invalid ranks = 0: allowed: 1 <= ranks <= N = 6 (at most one rank per node)");
        EXPECT_EQ(ErrorOf([&] { PartitionCircuitGraph(g, 7, m); }),
                  "invalid ranks = 7: allowed: 1 <= ranks <= N = 6 (at most one rank per node)");
        EXPECT_EQ(ErrorOf([&] { PartitionCircuitGraph(CircuitGraph(), 1, m); }),
                  "invalid graph = a circuit graph of 0 nodes: allowed: a circuit graph of at "
                  "least one node");
    }
    EXPECT_EQ(ErrorOf([&] {
                  CountCircuitsCut(g, {0, 1});
              }),
              "invalid ranks = a list of 2 rank(s): allowed: one rank per node, N = 6");
    EXPECT_EQ(ErrorOf([&] { GetMaxNodesPerRank(6, 0); }),
              "invalid ranks = 0: allowed: 1 <= ranks <= N = 6 (at most one rank per node)");
    EXPECT_EQ(GetMaxNodesPerRank(64, 4), 16u);
    EXPECT_EQ(GetMaxNodesPerRank(10, 4), 3u);
    EXPECT_EQ(ParseEnum<PartitionMethod>("Min-Cut", "method"), PartitionMethod::MIN_CUT);
    EXPECT_EQ(ToString(PartitionMethod::BLOCKS), "blocks");
}

TEST(Partition, MinCutIsBalancedAndCutsLessThanBlocksOnTheTemplates)
{
    const CircuitGraph pd = Template(64, TemplateId::PD_BIASED);
    const CircuitGraph u = Template(64, TemplateId::UNIFORM);
    Random rng = Random::Create(7, Stream::UNIFORM);
    const CircuitGraph expander = BuildUniformTemplate(64, 6, rng); // another expander, d = 6
    for (uint32_t r : {2u, 3u, 4u, 5u, 8u})
    {
        CompareOnTemplate("H^PD", pd, r);
        CompareOnTemplate("H^U", u, r);
        CompareOnTemplate("random 6-regular", expander, r);
    }
}

TEST(Partition, MinCutOfThePaperScaleTemplates)
{
    for (TemplateId id : {TemplateId::PD_BIASED, TemplateId::UNIFORM})
    {
        const CircuitGraph g = Template(1024, id);
        for (uint32_t r : {2u, 4u})
        {
            CompareOnTemplate(id == TemplateId::PD_BIASED ? "H^PD" : "H^U", g, r);
        }
    }
}

TEST(Partition, TheSameGraphGivesTheSamePlacement)
{
    for (uint32_t n : {64u, 1024u})
    {
        const CircuitGraph g = Template(n, TemplateId::PD_BIASED);
        for (uint32_t r : {2u, 4u, 7u})
        {
            const GraphPartition a = PartitionCircuitGraph(g, r, PartitionMethod::MIN_CUT);
            const GraphPartition b = PartitionCircuitGraph(g, r, PartitionMethod::MIN_CUT);
            // a copy of the graph too: nothing depends on where it is in memory
            const CircuitGraph copy(g.GetNNodes(), g.GetCircuits());
            const GraphPartition c = PartitionCircuitGraph(copy, r, PartitionMethod::MIN_CUT);
            EXPECT_EQ(a.ranks, b.ranks) << "N = " << n << ", R = " << r;
            EXPECT_EQ(a.ranks, c.ranks) << "N = " << n << ", R = " << r;
            EXPECT_EQ(a.circuitsCut, c.circuitsCut);
        }
    }
}

// The helper: without MPI a run has one rank, so the min-cut option is checked for its parsing,
// its errors and R = 1 here; placements on several ranks are the flow-level function's, above.
namespace
{

/// Installs a 32-group fabric with the given Partition and Ranks; returns the helper
Ptr<MoseTopologyHelper>
InstallWith(const std::string& partition, uint32_t ranks = 0)
{
    Random rng = Random::Create(1, Stream::UNIFORM);
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("Groups", UintegerValue(32));
    topo->SetAttribute("PortsPerGroup", UintegerValue(4));
    topo->SetAttribute("Ranks", UintegerValue(ranks));
    topo->SetAttribute("Partition", StringValue(partition));
    topo->SetCircuitGraph(BuildUniformTemplate(32, 4, rng));
    topo->Install();
    return topo;
}

} // namespace

TEST(TopologyHelperPartition, MinCutAndBlocksByNameOnOneRank)
{
    for (const char* word : {"min-cut", "MIN-CUT", " min-cut ", "blocks", ""})
    {
        for (uint32_t ranks : {0u, 1u})
        {
            Ptr<MoseTopologyHelper> topo = InstallWith(word, ranks);
            EXPECT_EQ(topo->GetNRanks(), 1u) << word;
            EXPECT_EQ(topo->GetNCircuitsCut(), 0u) << word;
            for (uint32_t g = 0; g < topo->GetNGroups(); ++g)
            {
                EXPECT_EQ(topo->GetGroupRank(g), 0u);
                EXPECT_EQ(topo->GetGroupNode(g)->GetSystemId(), 0u);
            }
            Simulator::Destroy();
        }
    }
}

TEST(TopologyHelperPartition, UnknownWordsAndTooManyRanksAreErrors)
{
    ExpectErrorContaining(
        [] { InstallWith("mincut"); },
        "MoseTopologyHelper::Partition = \"mincut\": entry 0 = \"mincut\" is not a rank; allowed: "
        "N comma-separated ranks 0..0 (Ranks = 1), \"min-cut\" for the fewest circuits cut, or "
        "empty or \"blocks\" for contiguous blocks");
    Simulator::Destroy();
    ExpectErrorContaining([] { InstallWith("min-cut,0"); }, "entry 0 = \"min-cut\" is not a rank");
    Simulator::Destroy();
    // the rank count is checked before the placement, as for the other forms
    ExpectErrorContaining([] { InstallWith("min-cut", 2); },
                          "MoseTopologyHelper::Ranks = 2: this run has 1 rank(s)");
    Simulator::Destroy();
}
