/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-graph-properties.h"
#include "ns3/mose-switchless-template.h"

#include <gtest/gtest.h>
#include <set>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

GridShape
Shape(std::vector<uint32_t> dims)
{
    GridShape s;
    s.dims = std::move(dims);
    return s;
}

/// Checks the fabric invariants and the circuit count of a baseline graph
void
ExpectFabric(const CircuitGraph& g, uint32_t nodes, uint32_t degree)
{
    EXPECT_EQ(g.GetNNodes(), nodes);
    EXPECT_TRUE(g.IsSimple());
    EXPECT_TRUE(g.IsConnected());
    EXPECT_TRUE(g.IsRegular(degree));
    for (uint32_t u = 0; u < nodes; ++u)
    {
        ASSERT_EQ(g.GetDegree(u), degree) << "node " << u;
    }
    EXPECT_EQ(g.GetNCircuits(), static_cast<uint64_t>(nodes) * degree / 2);
    EXPECT_EQ(g.FindProblem(degree), "");
}

std::vector<uint32_t>
Neighbours(const CircuitGraph& g, uint32_t node)
{
    return g.GetNeighbours(node);
}

} // namespace

TEST(SwitchlessTemplate, BaselineNames)
{
    EXPECT_EQ(ToString(SwitchlessBaseline::TORUS_2D), "torus-2d");
    EXPECT_EQ(ToString(SwitchlessBaseline::TORUS_3D), "torus-3d");
    EXPECT_EQ(ToString(SwitchlessBaseline::FULL_MESH_3D), "full-mesh-3d");
    EXPECT_EQ(ParseEnum<SwitchlessBaseline>("Torus-3D", "--baseline"),
              SwitchlessBaseline::TORUS_3D);
    EXPECT_EQ(ParseEnum<SwitchlessBaseline>("hamming-3d", "--baseline"),
              SwitchlessBaseline::FULL_MESH_3D);
    std::string m = ErrorOf([] { ParseEnum<SwitchlessBaseline>("ring", "--baseline"); });
    EXPECT_CONTAINS(m, "--baseline");
    EXPECT_CONTAINS(m, "\"ring\"");
    EXPECT_CONTAINS(m, "torus-2d");
}

TEST(SwitchlessTemplate, ParseShape)
{
    EXPECT_EQ(ParseGridShape("--torus2d", "32x32").dims, (std::vector<uint32_t>{32, 32}));
    EXPECT_EQ(ParseGridShape("--torus3d", "16X8x8").dims, (std::vector<uint32_t>{16, 8, 8}));
    EXPECT_EQ(ParseGridShape("--s", "7").dims, (std::vector<uint32_t>{7}));
    EXPECT_EQ(ParseGridShape("--s", "16x8x8").ToString(), "16x8x8");
    EXPECT_EQ(ParseGridShape("--s", "16x8x8").GetNodes(), 1024u);
    EXPECT_EQ(GridShape().GetNodes(), 0u);
    EXPECT_EQ(Shape({4294967295u, 4294967295u, 4294967295u}).GetNodes(), UINT64_MAX);
}

TEST(SwitchlessTemplate, ParseShapeErrors)
{
    struct Case
    {
        std::string text;
        std::string phrase;
    };

    const std::vector<Case> cases = {
        {"", "the value is empty"},
        {"16xx8", "a dimension is empty"},
        {"x8", "a dimension is empty"},
        {"16x8x", "a dimension is empty"},
        {"16x-8", "dimension \"-8\" is not an unsigned decimal integer"},
        {"16x8a", "dimension \"8a\" is not an unsigned decimal integer"},
        {"16 x 8", "dimension \"16 \" is not"},
        {"99999999999x2", "dimension \"99999999999\" is not"},
        {"0x4", "a dimension of 0 holds no group"},
    };
    for (const Case& c : cases)
    {
        std::string m = ErrorOf([&c] { ParseGridShape("--torus2d", c.text); });
        EXPECT_CONTAINS(m, "invalid --torus2d = \"" + c.text + "\"");
        EXPECT_CONTAINS(m, c.phrase);
    }
}

TEST(SwitchlessTemplate, Degrees)
{
    EXPECT_EQ(GetBaselineDegree(SwitchlessBaseline::TORUS_2D, Shape({32, 32})), 4u);
    EXPECT_EQ(GetBaselineDegree(SwitchlessBaseline::TORUS_3D, Shape({16, 8, 8})), 6u);
    EXPECT_EQ(GetBaselineDegree(SwitchlessBaseline::FULL_MESH_3D, Shape({16, 8, 8})), 29u);
    EXPECT_EQ(GetBaselineDegree(SwitchlessBaseline::FULL_MESH_3D, Shape({1, 1, 5})), 4u);
    EXPECT_EQ(GetBaselineDimensions(SwitchlessBaseline::TORUS_2D), 2u);
    EXPECT_EQ(GetBaselineDimensions(SwitchlessBaseline::FULL_MESH_3D), 3u);
}

TEST(SwitchlessTemplate, Torus2dFabric)
{
    ExpectFabric(BuildTorus2d(1024, Shape({32, 32})), 1024, 4);
    ExpectFabric(BuildTorus2d(15, Shape({5, 3})), 15, 4);
    ExpectFabric(BuildTorus2d(9, Shape({3, 3})), 9, 4);
}

TEST(SwitchlessTemplate, Torus3dFabric)
{
    ExpectFabric(BuildTorus3d(1024, Shape({16, 8, 8})), 1024, 6);
    ExpectFabric(BuildTorus3d(60, Shape({3, 4, 5})), 60, 6);
    ExpectFabric(BuildTorus3d(27, Shape({3, 3, 3})), 27, 6);
}

TEST(SwitchlessTemplate, FullMesh3dFabric)
{
    ExpectFabric(BuildFullMesh3d(1024, Shape({16, 8, 8})), 1024, 29);
    ExpectFabric(BuildFullMesh3d(24, Shape({4, 3, 2})), 24, 6);
    ExpectFabric(BuildFullMesh3d(8, Shape({2, 2, 2})), 8, 3); // the cube
    ExpectFabric(BuildFullMesh3d(5, Shape({1, 1, 5})), 5, 4); // K5
    ExpectFabric(BuildFullMesh3d(2, Shape({2, 1, 1})), 2, 1);
}

TEST(SwitchlessTemplate, RowMajorNumbering)
{
    // 4x4 torus: group 5 = (1, 1), group 0 = (0, 0) wraps to 3 and 12
    CircuitGraph t2 = BuildTorus2d(16, Shape({4, 4}));
    EXPECT_EQ(Neighbours(t2, 5), (std::vector<uint32_t>{1, 4, 6, 9}));
    EXPECT_EQ(Neighbours(t2, 0), (std::vector<uint32_t>{1, 3, 4, 12}));
    // 5x3 torus: group (4, 2) = 14; its neighbours (3,2)=11, (0,2)=2, (4,1)=13, (4,0)=12
    CircuitGraph t2b = BuildTorus2d(15, Shape({5, 3}));
    EXPECT_EQ(Neighbours(t2b, 14), (std::vector<uint32_t>{2, 11, 12, 13}));
    // 3x4x5 torus: (1, 2, 3) = (1 * 4 + 2) * 5 + 3 = 33
    CircuitGraph t3 = BuildTorus3d(60, Shape({3, 4, 5}));
    EXPECT_EQ(Neighbours(t3, 33), (std::vector<uint32_t>{13, 28, 32, 34, 38, 53}));
    // 4x3x2 full-mesh: (1, 2, 1) = (1 * 3 + 2) * 2 + 1 = 11; same (c1, c2): 5, 17, 23; same
    // (c0, c2): 7, 9; same (c0, c1): 10
    CircuitGraph fm = BuildFullMesh3d(24, Shape({4, 3, 2}));
    EXPECT_EQ(Neighbours(fm, 11), (std::vector<uint32_t>{5, 7, 9, 10, 17, 23}));
}

TEST(SwitchlessTemplate, TorusDistancesByHand)
{
    // 4x4 torus: from any group, ring distances 0,1,2,1 per dimension, distance = sum: 4 groups
    // at 1 hop, 6 at 2, 4 at 3, 1 at 4; mean (4 + 12 + 12 + 4) / 15 = 32 / 15
    DistanceSummary d44 = SummarizeDistances(BuildTorus2d(16, Shape({4, 4})));
    EXPECT_DOUBLE_EQ(d44.averageHops, 32.0 / 15.0);
    EXPECT_EQ(d44.diameter, 4u);
    ASSERT_EQ(d44.histogram.size(), 5u);
    EXPECT_EQ(d44.histogram[1], 16u * 4);
    EXPECT_EQ(d44.histogram[2], 16u * 6);
    EXPECT_EQ(d44.histogram[3], 16u * 4);
    EXPECT_EQ(d44.histogram[4], 16u * 1);
    // 5x4 torus: ring sums 6 (C5) and 4 (C4): (6 * 4 + 4 * 5) / 19 = 44 / 19, diameter 2 + 2
    DistanceSummary d54 = SummarizeDistances(BuildTorus2d(20, Shape({5, 4})));
    EXPECT_DOUBLE_EQ(d54.averageHops, 44.0 / 19.0);
    EXPECT_EQ(d54.diameter, 4u);
    // 3x3x3 torus: every ring is a triangle, diameter 3; mean 3 * 2 * 9 / 26 = 54 / 26
    DistanceSummary d333 = SummarizeDistances(BuildTorus3d(27, Shape({3, 3, 3})));
    EXPECT_DOUBLE_EQ(d333.averageHops, 54.0 / 26.0);
    EXPECT_EQ(d333.diameter, 3u);
    // 32x32 torus (N = 1024): ring sum 256 per dimension: 2 * 256 * 32 / 1023, diameter 32
    DistanceSummary d3232 = SummarizeDistances(BuildTorus2d(1024, Shape({32, 32})));
    EXPECT_DOUBLE_EQ(d3232.averageHops, 2.0 * 256 * 32 / 1023);
    EXPECT_EQ(d3232.diameter, 32u);
    // 16x8x8 torus: ring sums 64, 16, 16: (64 * 64 + 16 * 128 + 16 * 128) / 1023, diameter 16
    DistanceSummary d1688 = SummarizeDistances(BuildTorus3d(1024, Shape({16, 8, 8})));
    EXPECT_DOUBLE_EQ(d1688.averageHops, (64.0 * 64 + 16.0 * 128 + 16.0 * 128) / 1023);
    EXPECT_EQ(d1688.diameter, 16u);
}

TEST(SwitchlessTemplate, FullMeshDistancesByHand)
{
    // the distance is the number of differing coordinates: the diameter is the number of
    // dimensions larger than 1
    DistanceSummary d432 = SummarizeDistances(BuildFullMesh3d(24, Shape({4, 3, 2})));
    EXPECT_EQ(d432.diameter, 3u);
    // targets differing in dimension i: N (1 - 1 / dims[i]) = 18 + 16 + 12 = 46 over 23
    EXPECT_DOUBLE_EQ(d432.averageHops, 46.0 / 23.0);
    EXPECT_EQ(SummarizeDistances(BuildFullMesh3d(12, Shape({1, 3, 4}))).diameter, 2u);
    EXPECT_EQ(SummarizeDistances(BuildFullMesh3d(5, Shape({1, 1, 5}))).diameter, 1u);
    EXPECT_EQ(SummarizeDistances(BuildFullMesh3d(1024, Shape({16, 8, 8}))).diameter, 3u);
}

TEST(SwitchlessTemplate, DefaultShapes)
{
    using B = SwitchlessBaseline;
    EXPECT_EQ(DefaultSwitchlessShape(B::TORUS_2D, 1024).ToString(), "32x32");
    EXPECT_EQ(DefaultSwitchlessShape(B::TORUS_3D, 1024).ToString(), "16x8x8");
    EXPECT_EQ(DefaultSwitchlessShape(B::FULL_MESH_3D, 1024).ToString(), "16x8x8");
    EXPECT_EQ(DefaultSwitchlessShape(B::TORUS_3D, 1000).ToString(), "10x10x10");
    EXPECT_EQ(DefaultSwitchlessShape(B::TORUS_2D, 64).ToString(), "8x8");
    EXPECT_EQ(DefaultSwitchlessShape(B::TORUS_3D, 64).ToString(), "4x4x4");
    EXPECT_EQ(DefaultSwitchlessShape(B::TORUS_2D, 18).ToString(), "6x3");
    EXPECT_EQ(DefaultSwitchlessShape(B::TORUS_2D, 2048).ToString(), "64x32");
    EXPECT_EQ(DefaultSwitchlessShape(B::FULL_MESH_3D, 8).ToString(), "2x2x2");
    for (B b : ALL_SWITCHLESS_BASELINES)
    {
        for (uint32_t n : {64u, 512u, 1024u, 1000u})
        {
            GridShape s = DefaultSwitchlessShape(b, n);
            EXPECT_NO_THROW(ValidateSwitchlessShape(b, n, s, "shape"));
            EXPECT_NO_THROW(BuildSwitchlessBaseline(b, n, s, "shape"));
        }
    }
}

TEST(SwitchlessTemplate, DefaultShapeErrors)
{
    using B = SwitchlessBaseline;
    // 1021 is prime
    std::string m = ErrorOf([] { DefaultSwitchlessShape(B::TORUS_2D, 1021, "--nodes"); });
    EXPECT_CONTAINS(m, "invalid --nodes = 1021");
    EXPECT_CONTAINS(m, "not a product of 2 dimensions of at least 3");
    EXPECT_CONTAINS(m, "so no shape of the 2D torus holds 1021 groups");
    // 12 = 3 * 2 * 2: the 3D torus needs 27 groups at least
    m = ErrorOf([] { DefaultSwitchlessShape(B::TORUS_3D, 12); });
    EXPECT_CONTAINS(m, "invalid nodes = 12");
    EXPECT_CONTAINS(m, "the 3D torus");
    m = ErrorOf([] { DefaultSwitchlessShape(B::FULL_MESH_3D, 6); });
    EXPECT_CONTAINS(m, "not a product of 3 dimensions of at least 2");
    EXPECT_CONTAINS(m, "give its shape explicitly (a dimension may be 1)");
    m = ErrorOf([] { DefaultSwitchlessShape(B::FULL_MESH_3D, 1); });
    EXPECT_CONTAINS(m, "invalid nodes = 1");
}

TEST(SwitchlessTemplate, ShapeErrors)
{
    using B = SwitchlessBaseline;
    // product != N, with the numbers
    std::string m = ErrorOf([] { BuildTorus2d(1024, Shape({16, 16}), "--torus2d"); });
    EXPECT_CONTAINS(m, "invalid --torus2d = \"16x16\"");
    EXPECT_CONTAINS(m, "must equal the number of groups nodes = 1024, but 16 * 16 = 256");
    m = ErrorOf([] {
        ValidateSwitchlessShape(B::FULL_MESH_3D, 1000, Shape({8, 8, 16}), "--fm", "--nodes");
    });
    EXPECT_CONTAINS(m, "invalid --fm = \"8x8x16\"");
    EXPECT_CONTAINS(m, "--nodes = 1000, but 8 * 8 * 16 = 1024");
    m = ErrorOf([] {
        ValidateSwitchlessShape(B::TORUS_3D,
                                1024,
                                Shape({4294967295u, 4294967295u, 4294967295u}),
                                "--torus3d");
    });
    EXPECT_CONTAINS(m, "= more than 2^64");
    // a torus dimension below 3
    m = ErrorOf([] { BuildTorus2d(1024, Shape({2, 512}), "--torus2d"); });
    EXPECT_CONTAINS(m, "invalid --torus2d = \"2x512\"");
    EXPECT_CONTAINS(m, "at least 3, got 2");
    EXPECT_CONTAINS(m, "repeated circuit");
    m = ErrorOf([] { BuildTorus3d(64, Shape({1, 8, 8}), "--torus3d"); });
    EXPECT_CONTAINS(m, "at least 3, got 1");
    EXPECT_CONTAINS(m, "self-loop");
    // wrong number of dimensions
    m = ErrorOf([] { BuildTorus3d(1024, Shape({32, 32}), "--torus3d"); });
    EXPECT_CONTAINS(m, "invalid --torus3d = \"32x32\"");
    EXPECT_CONTAINS(m, "the 3D torus needs 3 dimensions (e.g. 16x8x8), got 2");
    m = ErrorOf([] { BuildTorus2d(1024, Shape({1024}), "--torus2d"); });
    EXPECT_CONTAINS(m, "the 2D torus needs 2 dimensions (e.g. 32x32), got 1");
    m = ErrorOf([] { BuildFullMesh3d(1024, Shape({4, 4, 8, 8}), "--fullMesh3d"); });
    EXPECT_CONTAINS(m, "invalid --fullMesh3d = \"4x4x8x8\"");
    EXPECT_CONTAINS(m, "needs 3 dimensions");
    m = ErrorOf([] { BuildTorus(Shape({3, 3, 3, 3}), "--shape"); });
    EXPECT_CONTAINS(m, "invalid --shape = \"3x3x3x3\": a torus is built in 2 or 3 dimensions");
    // too few groups
    m = ErrorOf([] { BuildFullMesh3d(1, Shape({1, 1, 1}), "--fullMesh3d"); });
    EXPECT_CONTAINS(m, "invalid nodes = 1");
    EXPECT_CONTAINS(m, "at least 2 groups");
    // too many circuits for 32-bit circuit ids
    m = ErrorOf([] { BuildFullMesh3d(200000, Shape({1, 1, 200000}), "--fullMesh3d"); });
    EXPECT_CONTAINS(m, "invalid --fullMesh3d = \"1x1x200000\"");
    EXPECT_CONTAINS(m, "circuits, more than");
    m = ErrorOf([] { BuildSwitchlessBaseline(B::TORUS_3D, 100, Shape({10, 10}), "--t"); });
    EXPECT_CONTAINS(m, "invalid --t = \"10x10\"");
}
