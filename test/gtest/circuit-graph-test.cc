/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::mose;

namespace
{
/// The ring 0-1-...-(n-1)-0 with its circuits given as (i + 1 mod n, i): all but one reversed,
/// unlike ns3::mose::test::Ring, so that the constructor has to canonicalise and sort them
CircuitGraph
ReversedRing(uint32_t n)
{
    std::vector<Circuit> c;
    for (uint32_t i = 0; i < n; ++i)
    {
        c.push_back({(i + 1) % n, i});
    }
    return CircuitGraph(n, c);
}
} // namespace

TEST(CircuitGraph, RingIsSimpleConnectedTwoRegular)
{
    CircuitGraph g = ReversedRing(6);
    EXPECT_EQ(g.GetNCircuits(), 6U);
    EXPECT_TRUE(g.IsSimple());
    EXPECT_TRUE(g.IsConnected());
    EXPECT_TRUE(g.IsRegular(2));
    EXPECT_EQ(g.FindProblem(2), "");
    EXPECT_EQ(g.GetNeighbours(0), (std::vector<uint32_t>{1, 5}));
    // circuits are canonical and sorted: (0,1) (0,5) (1,2) ...
    EXPECT_EQ(g.GetCircuits()[1].u, 0U);
    EXPECT_EQ(g.GetCircuits()[1].v, 5U);
    EXPECT_EQ(g.FindCircuit(5, 0), 1);
    EXPECT_FALSE(g.HasCircuit(0, 3));
}

TEST(CircuitGraph, ProblemsAreNamed)
{
    CircuitGraph loop(3, {{0, 0}, {1, 2}});
    EXPECT_FALSE(loop.IsSimple());
    EXPECT_EQ(loop.GetDegree(0), 2U);
    EXPECT_NE(loop.FindProblem(2).find("self-loop at node 0"), std::string::npos);

    CircuitGraph dup(2, {{0, 1}, {1, 0}});
    EXPECT_NE(dup.FindProblem(2).find("duplicate circuit (0, 1)"), std::string::npos);

    CircuitGraph twoRings(6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}});
    EXPECT_TRUE(twoRings.IsRegular(2));
    EXPECT_EQ(twoRings.CountComponents(), 2U);
    EXPECT_NE(twoRings.FindProblem(2).find("not connected"), std::string::npos);
    EXPECT_NE(twoRings.FindProblem(3).find("degree 2, expected 3"), std::string::npos);
}

TEST(CircuitGraph, OutOfRangeIdsAreRejected)
{
    EXPECT_THROW(CircuitGraph(3, {{0, 3}}), Error);
}
