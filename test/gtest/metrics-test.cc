/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-random.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-traffic.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <limits>
#include <numeric>
#include <tuple>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

constexpr double EPS = 1e-12;
constexpr TrafficClass KV = TrafficClass::KV;
constexpr TrafficClass TR = TrafficClass::TRAINING;

/// Compares two vectors element by element within EPS
void
ExpectNear(const std::vector<double>& actual, const std::vector<double>& expected)
{
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i)
    {
        EXPECT_NEAR(actual[i], expected[i], EPS) << "index " << i;
    }
}

/// Expects the summary of a class
void
ExpectClass(const ClassMetrics& m,
            uint64_t flows,
            double demand,
            double maxLoad,
            double p95Load,
            double avgHop,
            double avgCost,
            double p95Cost)
{
    EXPECT_EQ(m.flows, flows);
    EXPECT_NEAR(m.demand, demand, EPS);
    EXPECT_NEAR(m.maxLoad, maxLoad, EPS);
    EXPECT_NEAR(m.p95Load, p95Load, EPS);
    EXPECT_NEAR(m.avgHop, avgHop, EPS);
    EXPECT_NEAR(m.avgCost, avgCost, EPS);
    EXPECT_NEAR(m.p95Cost, p95Cost, EPS);
}

/// Expects the flows' costs and hops
void
ExpectFlows(const std::vector<FlowResult>& r,
            const std::vector<double>& cost,
            const std::vector<uint32_t>& hops)
{
    ASSERT_EQ(r.size(), cost.size());
    for (std::size_t i = 0; i < r.size(); ++i)
    {
        EXPECT_NEAR(r[i].cost, cost[i], EPS) << "flow " << i;
        EXPECT_EQ(r[i].hops, hops[i]) << "flow " << i;
    }
}

/// The ring flows: f0 0->3 KV 1, f1 1->4 TR 1, f2 2->3 KV 1, f3 5->3 TR demand 2
std::vector<Flow>
RingFlows()
{
    return {{0, 3, KV, 1.0}, {1, 4, TR, 1.0}, {2, 3, KV, 1.0}, {5, 3, TR, 2.0}};
}

} // namespace

TEST(Percentile, KnownSamples)
{
    // {1,2,3,4}: h = 3 * 0.95 = 2.85, v[2] + 0.85 (v[3] - v[2]) = 3.85
    EXPECT_NEAR(Percentile({4, 1, 3, 2}, 95), 3.85, EPS);
    EXPECT_NEAR(Percentile({1, 2, 3, 4}, 50), 2.5, EPS);
    EXPECT_EQ(Percentile({1, 2, 3, 4}, 0), 1.0);
    EXPECT_EQ(Percentile({1, 2, 3, 4}, 100), 4.0);
    // {0,...,0 (15), 1, 1, 1, 2, 2}: h = 19 * 0.95 = 18.05 -> v[18] = 2
    std::vector<double> v(15, 0.0);
    v.insert(v.end(), {1, 1, 1, 2, 2});
    EXPECT_NEAR(Percentile(v, 95), 2.0, EPS);
    for (double p : {0.0, 37.5, 95.0, 100.0})
    {
        EXPECT_EQ(Percentile({7.5}, p), 7.5);
    }
    EXPECT_THROW(Percentile({}, 50), Error);
    EXPECT_THROW(Percentile({1, 2}, -1), Error);
    EXPECT_THROW(Percentile({1, 2}, 100.5), Error);
    EXPECT_THROW(Percentile({1, 2}, std::numeric_limits<double>::quiet_NaN()), Error);
}

TEST(Percentile, WeightedMatchesExpandedSample)
{
    Random rng = Random::Create(1, Stream::ROUTING);
    for (int trial = 0; trial < 200; ++trial)
    {
        std::vector<std::pair<double, uint64_t>> weighted;
        std::vector<double> expanded;
        uint32_t m = 1 + rng.Index(8);
        for (uint32_t i = 0; i < m; ++i)
        {
            double value = rng.Index(5);   // repeats across entries on purpose
            uint64_t count = rng.Index(4); // zero counts are ignored
            weighted.emplace_back(value, count);
            expanded.insert(expanded.end(), count, value);
        }
        if (expanded.empty())
        {
            EXPECT_THROW(WeightedPercentile(weighted, 50), Error);
            continue;
        }
        for (double p : {0.0, 10.0, 50.0, 95.0, 99.0, 100.0})
        {
            EXPECT_EQ(WeightedPercentile(weighted, p), Percentile(expanded, p));
        }
    }
    EXPECT_THROW(WeightedPercentile({{1.0, 1}}, 101), Error);
}

TEST(Percentile, DescribeSampleByHand)
{
    // sorted 1, 2, 3, 4: h = 3 p / 100; P50 at h = 1.5, P95 at 2.85, P99 at 2.97
    const SampleStatistics s = DescribeSample({4, 1, 3, 2});
    EXPECT_EQ(s.n, 4u);
    EXPECT_EQ(s.mean, 2.5);
    EXPECT_EQ(s.p50, 2.5);
    EXPECT_DOUBLE_EQ(s.p95, 3.85);
    EXPECT_DOUBLE_EQ(s.p99, 3.97);
    EXPECT_EQ(s.max, 4);
    const SampleStatistics one = DescribeSample({7.25});
    EXPECT_EQ(one.mean, 7.25);
    EXPECT_EQ(one.p50, 7.25);
    EXPECT_EQ(one.p99, 7.25);
    EXPECT_EQ(one.max, 7.25);
    const SampleStatistics none = DescribeSample({});
    EXPECT_EQ(none.n, 0u);
    EXPECT_EQ(none.mean, 0);
    EXPECT_EQ(none.max, 0);
    EXPECT_EQ(Mean({}), 0);
    EXPECT_EQ(Mean({0.1, 0.2}), (0.1 + 0.2) / 2);
}

TEST(Percentile, DescribeSampleEqualsPercentileBitForBit)
{
    Random rng = Random::Create(2, Stream::ROUTING);
    for (int trial = 0; trial < 100; ++trial)
    {
        std::vector<double> v(1 + rng.Index(50));
        for (double& x : v)
        {
            x = rng.Uniform01() * 10;
        }
        const SampleStatistics s = DescribeSample(v);
        EXPECT_EQ(s.p50, Percentile(v, 50));
        EXPECT_EQ(s.p95, Percentile(v, 95));
        EXPECT_EQ(s.p99, Percentile(v, 99));
        EXPECT_EQ(s.max, Percentile(v, 100));
        double sum = 0;
        for (double x : v)
        {
            sum += x;
        }
        EXPECT_EQ(s.mean, sum / static_cast<double>(v.size()));
    }
}

TEST(EvaluateFlows, RingShortestPath)
{
    CircuitGraph g = Ring(6);
    ShortestPathRouting routing(g, RoutingRule::SHORTEST_PATH);
    std::vector<FlowResult> per;
    FlowMetrics m = EvaluateFlows(routing, RingFlows(), per);
    // Paths (lowest-id tie-break): f0 0-1-2-3 (c0 c2 c3; 0's closer neighbours are 1 and 5),
    // f1 1-0-5-4 (c0 c1 c5; 1's closer neighbours towards 4 are 0 and 2), f2 2-3 (c3),
    // f3 5-4-3 (c5 c4), demand 2.
    ExpectNear(m.loadKv, {1, 0, 1, 2, 0, 0});
    ExpectNear(m.loadTraining, {1, 1, 0, 0, 2, 3});
    ExpectNear(m.load, {2, 1, 1, 2, 2, 3});
    // costs on total loads: f0 2+1+2 = 5, f1 2+1+3 = 6, f2 2, f3 3+2 = 5
    ExpectFlows(per, {5, 6, 2, 5}, {3, 3, 1, 2});
    // all: loads {1,1,2,2,2,3}: h = 5 * 0.95 = 4.75 -> 2 + 0.75 = 2.75; hops (3+3+1+2)/4;
    // costs {2,5,5,6}: h = 2.85 -> 5 + 0.85 = 5.85
    ExpectClass(m.all, 4, 5, 3, 2.75, 2.25, 4.5, 5.85);
    // KV: loads {0,0,0,1,1,2} -> 1.75; costs {2,5}: h = 0.95 -> 2 + 0.95 * 3 = 4.85
    ExpectClass(m.kv, 2, 2, 2, 1.75, 2, 3.5, 4.85);
    // training: loads {0,0,1,1,2,3} -> 2.75; costs {5,6} -> 5.95
    ExpectClass(m.training, 2, 3, 3, 2.75, 2.5, 5.5, 5.95);
    EXPECT_NEAR(m.directKv, 0.5, EPS);
    EXPECT_NEAR(m.kvThreePlus, 0.5, EPS);
    EXPECT_EQ(m.hopHistogramKv, (std::vector<uint64_t>{0, 1, 0, 1}));
    EXPECT_EQ(m.hopHistogramTraining, (std::vector<uint64_t>{0, 0, 1, 1}));
}

TEST(EvaluateFlows, RingEcmp)
{
    CircuitGraph g = Ring(6);
    ShortestPathRouting routing(g, RoutingRule::ECMP);
    std::vector<FlowResult> per;
    FlowMetrics m = EvaluateFlows(routing, RingFlows(), per);
    // f0 splits 1/2 - 1/2 at 0 over 0-1-2-3 and 0-5-4-3: 0.5 on every circuit;
    // f1 splits at 1 over 1-0-5-4 and 1-2-3-4: 0.5 on every circuit; f2 1 on c3; f3 2 on c5 c4.
    ExpectNear(m.loadKv, {0.5, 0.5, 0.5, 1.5, 0.5, 0.5});
    ExpectNear(m.loadTraining, {0.5, 0.5, 0.5, 0.5, 2.5, 2.5});
    ExpectNear(m.load, {1, 1, 1, 2, 3, 3});
    // towards 3: C(2) = 2, C(4) = 3, C(1) = 1 + 2 = 3, C(5) = 3 + 3 = 6,
    //            C(0) = mean(1 + C(1), 1 + C(5)) = mean(4, 7) = 5.5
    // towards 4: C(3) = 3, C(5) = 3, C(2) = 2 + 3 = 5, C(0) = 1 + 3 = 4,
    //            C(1) = mean(1 + C(0), 1 + C(2)) = mean(5, 6) = 5.5
    ExpectFlows(per, {5.5, 5.5, 2, 6}, {3, 3, 1, 2});
    // all: loads {1,1,1,2,3,3} -> p95 = 3; costs {2,5.5,5.5,6}: 5.5 + 0.85 * 0.5 = 5.925
    ExpectClass(m.all, 4, 5, 3, 3, 2.25, 4.75, 5.925);
    // KV: loads {.5 x5, 1.5} -> 0.5 + 0.75 = 1.25; costs {2, 5.5} -> 2 + 0.95 * 3.5 = 5.325
    ExpectClass(m.kv, 2, 2, 1.5, 1.25, 2, 3.75, 5.325);
    // training: loads {.5 x4, 2.5, 2.5} -> 2.5; costs {5.5, 6} -> 5.975
    ExpectClass(m.training, 2, 3, 2.5, 2.5, 2.5, 5.75, 5.975);
}

TEST(EvaluateFlows, CubeShortestPath)
{
    CircuitGraph g = Cube3();
    ShortestPathRouting routing(g, RoutingRule::SHORTEST_PATH);
    // g0 and g3: 0->7 KV (a pair with two flows), g1: 3->4 TR, g2: 1->7 TR
    std::vector<Flow> flows{{0, 7, KV, 1}, {3, 4, TR, 1}, {1, 7, TR, 1}, {0, 7, KV, 1}};
    std::vector<FlowResult> per;
    FlowMetrics m = EvaluateFlows(routing, flows, per);
    // 0->7: 0-1-3-7 (c0 c3 c7); 3->4: 3-1-0-4 (c3 c0 c2); 1->7: 1-3-7 (c3 c7)
    ExpectNear(m.loadKv, {2, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0});
    ExpectNear(m.loadTraining, {1, 0, 1, 2, 0, 0, 0, 1, 0, 0, 0, 0});
    ExpectNear(m.load, {3, 0, 1, 4, 0, 0, 0, 3, 0, 0, 0, 0});
    // 0->7: 3 + 4 + 3 = 10; 3->4: 4 + 3 + 1 = 8; 1->7: 4 + 3 = 7
    ExpectFlows(per, {10, 8, 7, 10}, {3, 3, 2, 3});
    // all: loads {0 x8, 1, 3, 3, 4}: h = 11 * 0.95 = 10.45 -> 3 + 0.45 = 3.45;
    // costs {7, 8, 10, 10} -> 10
    ExpectClass(m.all, 4, 4, 4, 3.45, 2.75, 8.75, 10);
    // KV: loads {0 x9, 2, 2, 2} -> 2
    ExpectClass(m.kv, 2, 2, 2, 2, 3, 10, 10);
    // training: loads {0 x8, 1, 1, 1, 2} -> 1 + 0.45 = 1.45; costs {7, 8} -> 7.95
    ExpectClass(m.training, 2, 2, 2, 1.45, 2.5, 7.5, 7.95);
    EXPECT_EQ(m.directKv, 0.0);
    EXPECT_EQ(m.kvThreePlus, 1.0);
}

TEST(EvaluateFlows, CubeEcmp)
{
    CircuitGraph g = Cube3();
    ShortestPathRouting routing(g, RoutingRule::ECMP);
    std::vector<Flow> flows{{0, 7, KV, 1}, {3, 4, TR, 1}, {1, 7, TR, 1}, {0, 7, KV, 1}};
    std::vector<FlowResult> per;
    FlowMetrics m = EvaluateFlows(routing, flows, per);
    // KV 0->7, demand 2: 2/3 to each of 1, 2, 4; each of those splits 1/3 - 1/3 over its two
    // closer neighbours; 3, 5, 6 each forward 2/3 to 7.
    const double a = 1.0 / 3;
    const double b = 1.0 / 6;
    ExpectNear(m.loadKv, {2 * a, 2 * a, 2 * a, a, a, a, a, 2 * a, a, a, 2 * a, 2 * a});
    // TR 3->4: 1/3 to each of 1, 2, 7; each splits 1/6 - 1/6 (1: 0 and 5, 2: 0 and 6, 7: 5 and 6);
    // 0, 5, 6 each forward 1/3 to 4. TR 1->7: 1/2 over 1-3-7 and 1-5-7.
    ExpectNear(m.loadTraining, {b, b, a, a + 0.5, b + 0.5, a, b, a + 0.5, a, a, b + 0.5, b});
    const std::vector<double> total{5.0 / 6,
                                    5.0 / 6,
                                    1,
                                    7.0 / 6,
                                    1,
                                    2.0 / 3,
                                    0.5,
                                    1.5,
                                    2.0 / 3,
                                    2.0 / 3,
                                    4.0 / 3,
                                    5.0 / 6};
    ExpectNear(m.load, total);
    // towards 7: C(3) = 3/2, C(5) = 4/3, C(6) = 5/6,
    //   C(1) = mean(7/6 + 3/2, 1 + 4/3) = 5/2, C(2) = mean(2/3 + 3/2, 1/2 + 5/6) = 7/4,
    //   C(4) = mean(2/3 + 4/3, 2/3 + 5/6) = 7/4,
    //   C(0) = mean(5/6 + 5/2, 5/6 + 7/4, 1 + 7/4) = mean(40, 31, 33)/12 = 26/9
    // towards 4: C(0) = 1, C(5) = 2/3, C(6) = 2/3, C(1) = mean(5/6 + 1, 1 + 2/3) = 7/4,
    //   C(2) = mean(5/6 + 1, 1/2 + 2/3) = 3/2, C(7) = mean(4/3 + 2/3, 5/6 + 2/3) = 7/4,
    //   C(3) = mean(7/6 + 7/4, 2/3 + 3/2, 3/2 + 7/4) = mean(35, 26, 39)/12 = 25/9
    ExpectFlows(per, {26.0 / 9, 25.0 / 9, 2.5, 26.0 / 9}, {3, 3, 2, 3});
    // all: sorted loads 1/2, 2/3 x3, 5/6 x3, 1, 1, 7/6, 4/3, 3/2: p95 = 4/3 + 0.45 / 6;
    // avg cost (2 * 26/9 + 25/9 + 5/2) / 4 = 199/72; costs {5/2, 25/9, 26/9, 26/9} -> 26/9
    ExpectClass(m.all, 4, 4, 1.5, 4.0 / 3 + 0.45 / 6, 2.75, 199.0 / 72, 26.0 / 9);
    // KV: six loads 1/3, six 2/3 -> p95 2/3
    ExpectClass(m.kv, 2, 2, 2.0 / 3, 2.0 / 3, 3, 26.0 / 9, 26.0 / 9);
    // training: 1/6 x4, 1/3 x4, 2/3 x2, 5/6 x2 -> 5/6; costs {5/2, 25/9}:
    // 5/2 + 0.95 * 5/18
    ExpectClass(m.training, 2, 2, 5.0 / 6, 5.0 / 6, 2.5, 95.0 / 36, 2.5 + 0.95 * 5 / 18);
}

TEST(EvaluateFlows, CirculantShortestPath)
{
    CircuitGraph g = Circulant10();
    ShortestPathRouting routing(g, RoutingRule::SHORTEST_PATH);
    // h0 0->5 KV (3 hops, 6 shortest paths), h1 0->3 TR (2 hops), h2 6->3 TR (2 hops)
    std::vector<Flow> flows{{0, 5, KV, 1}, {0, 3, TR, 1}, {6, 3, TR, 1}};
    std::vector<FlowResult> per;
    FlowMetrics m = EvaluateFlows(routing, flows, per);
    // 0->5: 0-1-3-5 (c0 c5 c10: 0's neighbours 1, 2, 8, 9 are all at distance 2);
    // 0->3: 0-1-3 (c0 c5: closer neighbours 1, 2); 6->3: 6-4-3 (c12 c9: closer 4, 5)
    std::vector<double> kv(20, 0.0);
    std::vector<double> tr(20, 0.0);
    kv[0] = kv[5] = kv[10] = 1;
    tr[0] = tr[5] = tr[12] = tr[9] = 1;
    ExpectNear(m.loadKv, kv);
    ExpectNear(m.loadTraining, tr);
    std::vector<double> total(20, 0.0);
    total[0] = total[5] = 2;
    total[10] = total[9] = total[12] = 1;
    ExpectNear(m.load, total);
    // 0->5: 2 + 2 + 1 = 5; 0->3: 2 + 2 = 4; 6->3: 1 + 1 = 2
    ExpectFlows(per, {5, 4, 2}, {3, 2, 2});
    // all: loads {0 x15, 1, 1, 1, 2, 2}: h = 18.05 -> 2; costs {2, 4, 5}: h = 1.9 -> 4.9
    ExpectClass(m.all, 3, 3, 2, 2, 7.0 / 3, 11.0 / 3, 4.9);
    ExpectClass(m.kv, 1, 1, 1, 1, 3, 5, 5);
    // training: costs {2, 4}: 2 + 0.95 * 2 = 3.9
    ExpectClass(m.training, 2, 2, 1, 1, 2, 3, 3.9);
    EXPECT_EQ(m.directKv, 0.0);
    EXPECT_EQ(m.kvThreePlus, 1.0);
}

TEST(EvaluateFlows, CirculantEcmp)
{
    CircuitGraph g = Circulant10();
    ShortestPathRouting routing(g, RoutingRule::ECMP);
    std::vector<Flow> flows{{0, 5, KV, 1}, {0, 3, TR, 1}, {6, 3, TR, 1}};
    std::vector<FlowResult> per;
    FlowMetrics m = EvaluateFlows(routing, flows, per);
    // 0->5: 1/4 to each of 1, 2, 8, 9; 1 -> 3 (1/4), 2 -> 3, 4 (1/8 each), 8 -> 6, 7 (1/8 each),
    // 9 -> 7 (1/4); then 3 forwards 3/8, 4 1/8, 6 1/8, 7 3/8 to 5.
    // 0->3: 1/2 over 0-1-3 and 0-2-3; 6->3: 1/2 over 6-4-3 and 6-5-3.
    // Total per circuit, in eighths: c0 6, c1 6, c2 2, c3 2, c4 0, c5 6, c6 0, c7 5, c8 1,
    // c9 4, c10 7, c11 1, c12 4, c13 5, c14 3, c15 0, c16 1, c17 1, c18 2, c19 0.
    std::vector<double> eighths{6, 6, 2, 2, 0, 6, 0, 5, 1, 4, 7, 1, 4, 5, 3, 0, 1, 1, 2, 0};
    for (double& x : eighths)
    {
        x /= 8;
    }
    ExpectNear(m.load, eighths);
    ExpectNear(m.loadKv, {2.0 / 8, 2.0 / 8, 2.0 / 8, 2.0 / 8, 0,       2.0 / 8, 0,
                          1.0 / 8, 1.0 / 8, 0,       3.0 / 8, 1.0 / 8, 0,       1.0 / 8,
                          3.0 / 8, 0,       1.0 / 8, 1.0 / 8, 2.0 / 8, 0});
    // towards 5: C(3) = 7/8, C(4) = 1/8, C(6) = 5/8, C(7) = 3/8, C(1) = 3/4 + 7/8 = 13/8,
    //   C(2) = mean(5/8 + 7/8, 1/8 + 1/8) = 7/8, C(8) = mean(1/8 + 5/8, 1/8 + 3/8) = 5/8,
    //   C(9) = 2/8 + 3/8 = 5/8, C(0) = mean(6 + 13, 6 + 7, 2 + 5, 2 + 5)/8 = 46/32 = 23/16
    // towards 3: C(1) = 3/4, C(2) = 5/8, C(4) = 1/2, C(5) = 7/8,
    //   C(0) = mean(3/4 + 3/4, 3/4 + 5/8) = 23/16, C(6) = mean(1/2 + 1/2, 5/8 + 7/8) = 5/4
    ExpectFlows(per, {23.0 / 16, 23.0 / 16, 1.25}, {3, 2, 2});
    // all: sorted loads 0 x4, 1/8 x4, 1/4 x3, 3/8, 1/2 x2, 5/8 x2, 3/4 x3, 7/8:
    // h = 18.05 -> 3/4 + 0.05 / 8; costs {5/4, 23/16, 23/16} -> 23/16
    ExpectClass(m.all, 3, 3, 7.0 / 8, 0.75 + 0.05 / 8, 7.0 / 3, 11.0 / 8, 23.0 / 16);
    // training: loads 1/2 on c0 c1 c5 c7 c9 c10 c12 c13 -> p95 1/2; costs {23/16, 5/4}:
    // 5/4 + 0.95 * 3/16
    ExpectClass(m.training, 2, 2, 0.5, 0.5, 2, (23.0 / 16 + 1.25) / 2, 1.25 + 0.95 * 3 / 16);
}

TEST(EvaluateFlows, ThreePlusShareOnRing)
{
    // ring of 8, KV flows 0->1 (1 hop), 0->2 (2), 0->3 (3), 0->4 (4), 5->0 (3: 5-6-7-0)
    CircuitGraph g = Ring(8);
    ShortestPathRouting routing(g, RoutingRule::SHORTEST_PATH);
    std::vector<Flow> flows{{0, 1, KV, 1},
                            {0, 2, KV, 1},
                            {0, 3, KV, 1},
                            {0, 4, KV, 1},
                            {5, 0, KV, 1}};
    FlowMetrics m = EvaluateFlows(routing, flows);
    EXPECT_EQ(m.hopHistogramKv, (std::vector<uint64_t>{0, 1, 1, 2, 1}));
    EXPECT_TRUE(m.hopHistogramTraining.empty());
    EXPECT_NEAR(m.directKv, 1.0 / 5, EPS);
    EXPECT_NEAR(m.kvThreePlus, 3.0 / 5, EPS);
    EXPECT_EQ(m.training.flows, 0U);
    EXPECT_EQ(m.training.avgCost, 0.0);
    EXPECT_NEAR(m.kv.avgHop, 13.0 / 5, EPS);
}

TEST(EvaluateFlows, EmptyTraffic)
{
    CircuitGraph g = Ring(5);
    ShortestPathRouting routing(g, RoutingRule::SHORTEST_PATH);
    FlowMetrics m = EvaluateFlows(routing, {});
    EXPECT_EQ(m.all.flows, 0U);
    EXPECT_EQ(m.load, std::vector<double>(5, 0.0));
    EXPECT_EQ(m.all.maxLoad, 0.0);
    EXPECT_EQ(m.directKv, 0.0);
}

TEST(EvaluateFlows, MalformedFlowsAreRejected)
{
    CircuitGraph g = Ring(6);
    ShortestPathRouting routing(g, RoutingRule::SHORTEST_PATH);
    auto evaluate = [&](std::vector<Flow> flows) {
        return [&routing, flows]() { EvaluateFlows(routing, flows); };
    };
    Flow ok{0, 1, KV, 1.0};
    ExpectErrorContaining(evaluate({ok, {0, 6, KV, 1.0}}), "flow 1");
    ExpectErrorContaining(evaluate({ok, {9, 1, TR, 1.0}}), "flow 1");
    ExpectErrorContaining(evaluate({ok, ok, {2, 2, KV, 1.0}}), "flow 2");
    ExpectErrorContaining(evaluate({{0, 2, KV, 0.0}}), "flow 0");
    ExpectErrorContaining(evaluate({{0, 2, KV, -1.0}}), "demand");
    ExpectErrorContaining(evaluate({{0, 2, KV, std::numeric_limits<double>::infinity()}}),
                          "demand");
    ExpectErrorContaining(evaluate({{0, 2, KV, std::numeric_limits<double>::quiet_NaN()}}),
                          "demand");

    CircuitGraph split(6, {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}});
    for (RoutingRule rule : {RoutingRule::SHORTEST_PATH, RoutingRule::ECMP})
    {
        ShortestPathRouting r(split, rule);
        std::vector<Flow> flows{{0, 1, KV, 1.0}, {3, 4, TR, 1.0}, {4, 1, TR, 1.0}};
        ExpectErrorContaining([&]() { EvaluateFlows(r, flows); }, "flow 2");
        ExpectErrorContaining([&]() { EvaluateFlows(r, flows); }, "cannot be reached");
    }
}

namespace
{

/// A random 4-regular graph on n nodes and paper-like traffic on it
struct RandomCase
{
    CircuitGraph graph;      //!< the graph
    std::vector<Flow> flows; //!< the flows
};

RandomCase
MakeRandomCase(uint32_t n, uint64_t run)
{
    Random topo = Random::Create(run, Stream::UNIFORM);
    RandomCase c{BuildUniformTemplate(n, 4, topo), {}};
    RoleCounts counts{n * 2 / 5, n * 2 / 5, n - 2 * (n * 2 / 5)};
    RoleAssignment roles = RoleAssignment::Contiguous(counts);
    Random arng = Random::Create(run, Stream::ASSIGNMENT);
    PdAssignment assignment = PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, arng);
    Random trng = Random::Create(run, Stream::TRAFFIC);
    TrafficOptions options;
    options.flows = 3000;
    options.kvShare = 0.7;
    c.flows = GenerateTraffic(roles, assignment, options, trng);
    // non-unit demands too
    for (std::size_t i = 0; i < c.flows.size(); i += 7)
    {
        c.flows[i].demand = 0.25 + (i % 5);
    }
    return c;
}

} // namespace

TEST(EvaluateFlows, LoadSumIsDemandTimesHops)
{
    RandomCase c = MakeRandomCase(100, 1);
    for (RoutingRule rule :
         {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH, RoutingRule::ECMP})
    {
        ShortestPathRouting routing(c.graph, rule, 9);
        std::vector<FlowResult> per;
        FlowMetrics m = EvaluateFlows(routing, c.flows, per);
        double expected = 0;
        double expectedKv = 0;
        for (std::size_t i = 0; i < c.flows.size(); ++i)
        {
            expected += c.flows[i].demand * per[i].hops;
            expectedKv += c.flows[i].cls == KV ? c.flows[i].demand * per[i].hops : 0.0;
        }
        double sum = std::accumulate(m.load.begin(), m.load.end(), 0.0);
        double sumKv = std::accumulate(m.loadKv.begin(), m.loadKv.end(), 0.0);
        EXPECT_NEAR(sum, expected, 1e-9 * expected) << ToString(rule);
        EXPECT_NEAR(sumKv, expectedKv, 1e-9 * expected) << ToString(rule);
        EXPECT_EQ(m.all.flows, c.flows.size());
        EXPECT_EQ(m.kv.flows + m.training.flows, c.flows.size());
        // the per-flow view and the summaries agree
        double costSum = 0;
        for (const FlowResult& r : per)
        {
            costSum += r.cost;
        }
        EXPECT_NEAR(m.all.avgCost, costSum / per.size(), 1e-9 * m.all.avgCost);
        std::vector<double> costs;
        for (const FlowResult& r : per)
        {
            costs.push_back(r.cost);
        }
        EXPECT_NEAR(m.all.p95Cost, Percentile(costs, 95), 1e-9 * m.all.p95Cost);
        EXPECT_NEAR(m.all.p95Load, Percentile(m.load, 95), 0.0);
    }
}

TEST(EvaluateFlows, SinglePathCostIsSumOfLoadsAlongGetPath)
{
    RandomCase c = MakeRandomCase(60, 2);
    for (RoutingRule rule : {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH})
    {
        ShortestPathRouting routing(c.graph, rule, 4);
        std::vector<FlowResult> per;
        FlowMetrics m = EvaluateFlows(routing, c.flows, per);
        std::vector<double> recount(c.graph.GetNCircuits(), 0.0);
        for (std::size_t i = 0; i < c.flows.size(); ++i)
        {
            std::vector<uint32_t> path = routing.GetPath(c.flows[i].src, c.flows[i].dst);
            ASSERT_EQ(path.size(), per[i].hops + 1U);
            for (std::size_t k = 1; k < path.size(); ++k)
            {
                recount[c.graph.FindCircuit(path[k - 1], path[k])] += c.flows[i].demand;
            }
        }
        for (uint32_t e = 0; e < recount.size(); ++e)
        {
            ASSERT_NEAR(recount[e], m.load[e], 1e-9);
        }
        for (std::size_t i = 0; i < c.flows.size(); i += 13)
        {
            std::vector<uint32_t> path = routing.GetPath(c.flows[i].src, c.flows[i].dst);
            double cost = 0;
            for (std::size_t k = 1; k < path.size(); ++k)
            {
                cost += m.load[c.graph.FindCircuit(path[k - 1], path[k])];
            }
            EXPECT_NEAR(per[i].cost, cost, 1e-9);
        }
    }
}

TEST(EvaluateFlows, EcmpDoesNotDependOnNodeNumbering)
{
    RandomCase c = MakeRandomCase(80, 3);
    const uint32_t n = c.graph.GetNNodes();
    std::vector<uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    Random rng = Random::Create(3, Stream::ROUTING);
    rng.Shuffle(perm);
    std::vector<Circuit> relabelled;
    for (const Circuit& e : c.graph.GetCircuits())
    {
        relabelled.push_back({perm[e.u], perm[e.v]});
    }
    CircuitGraph h(n, relabelled);
    std::vector<Flow> flows = c.flows;
    for (Flow& f : flows)
    {
        f.src = perm[f.src];
        f.dst = perm[f.dst];
    }
    ShortestPathRouting rg(c.graph, RoutingRule::ECMP);
    ShortestPathRouting rh(h, RoutingRule::ECMP);
    std::vector<FlowResult> pg;
    std::vector<FlowResult> ph;
    FlowMetrics mg = EvaluateFlows(rg, c.flows, pg);
    FlowMetrics mh = EvaluateFlows(rh, flows, ph);
    for (uint32_t e = 0; e < c.graph.GetNCircuits(); ++e)
    {
        const Circuit& ce = c.graph.GetCircuits()[e];
        int64_t j = h.FindCircuit(perm[ce.u], perm[ce.v]);
        ASSERT_GE(j, 0);
        EXPECT_NEAR(mg.load[e], mh.load[j], 1e-9);
        EXPECT_NEAR(mg.loadKv[e], mh.loadKv[j], 1e-9);
        EXPECT_NEAR(mg.loadTraining[e], mh.loadTraining[j], 1e-9);
    }
    for (std::size_t i = 0; i < pg.size(); ++i)
    {
        EXPECT_NEAR(pg[i].cost, ph[i].cost, 1e-9);
        EXPECT_EQ(pg[i].hops, ph[i].hops);
    }
    EXPECT_NEAR(mg.all.maxLoad, mh.all.maxLoad, 1e-9);
    EXPECT_NEAR(mg.kv.p95Cost, mh.kv.p95Cost, 1e-9);
}

TEST(EvaluateFlows, DirectKvIsOneWhenEveryPairIsACircuit)
{
    // 12 groups: 0-3 prefill, 4-7 decode, 8-11 training; pairs 0->4, 1->5, 2->6, 3->7 are
    // circuits of a ring plus chords
    RoleAssignment roles = RoleAssignment::Contiguous({4, 4, 4});
    PdAssignment assignment({{0, 4, 1.0}, {1, 5, 2.0}, {2, 6, 1.0}, {3, 7, 1.0}});
    std::vector<Circuit> circuits;
    for (uint32_t i = 0; i < 12; ++i)
    {
        circuits.push_back({i, (i + 1) % 12});
    }
    for (uint32_t p = 0; p < 4; ++p)
    {
        circuits.push_back({p, p + 4});
    }
    CircuitGraph g(12, circuits);
    Random rng = Random::Create(1, Stream::TRAFFIC);
    TrafficOptions options;
    options.flows = 2000;
    options.kvShare = 0.6;
    std::vector<Flow> flows = GenerateTraffic(roles, assignment, options, rng);
    for (RoutingRule rule :
         {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH, RoutingRule::ECMP})
    {
        FlowMetrics m = EvaluateFlows(ShortestPathRouting(g, rule, 1), flows);
        EXPECT_EQ(m.kv.flows, 1200U);
        EXPECT_EQ(m.directKv, 1.0);
        EXPECT_EQ(m.kvThreePlus, 0.0);
        EXPECT_EQ(m.kv.avgHop, 1.0);
        EXPECT_EQ(m.hopHistogramKv, (std::vector<uint64_t>{0, 1200}));
    }
}

TEST(EvaluateFlows, RingAllToOneUsesWholeTree)
{
    // every other node sends one KV and one training flow to 3: 5 sources, 18 hops in total
    // (more than the 6 nodes), so the loads are accumulated over the whole tree
    CircuitGraph g = Ring(6);
    std::vector<Flow> flows;
    for (uint32_t s : {0, 1, 2, 4, 5})
    {
        flows.push_back({s, 3, KV, 1});
        flows.push_back({s, 3, TR, 1});
    }
    std::vector<FlowResult> per;
    // shortest path: 0-1-2-3, 1-2-3, 2-3, 4-3, 5-4-3, each carrying 2 units
    // c0 (0,1) 2, c1 (0,5) 0, c2 (1,2) 4, c3 (2,3) 6, c4 (3,4) 4, c5 (4,5) 2
    // C(2) = 6, C(1) = 4 + 6 = 10, C(0) = 2 + 10 = 12, C(4) = 4, C(5) = 2 + 4 = 6
    FlowMetrics m = EvaluateFlows(ShortestPathRouting(g, RoutingRule::SHORTEST_PATH), flows, per);
    ExpectNear(m.load, {2, 0, 4, 6, 4, 2});
    ExpectNear(m.loadKv, {1, 0, 2, 3, 2, 1});
    ExpectFlows(per, {12, 12, 10, 10, 6, 6, 4, 4, 6, 6}, {3, 3, 2, 2, 1, 1, 1, 1, 2, 2});
    // ECMP: 0 splits 1 - 1 over 1 and 5; 1 forwards 2 + 1 = 3, 2 forwards 2 + 3 = 5, 5 forwards
    // 2 + 1 = 3, 4 forwards 2 + 3 = 5: c0 1, c1 1, c2 3, c3 5, c4 5, c5 3
    // C(2) = 5, C(4) = 5, C(1) = 3 + 5 = 8, C(5) = 3 + 5 = 8, C(0) = mean(1 + 8, 1 + 8) = 9
    m = EvaluateFlows(ShortestPathRouting(g, RoutingRule::ECMP), flows, per);
    ExpectNear(m.load, {1, 1, 3, 5, 5, 3});
    ExpectNear(m.loadKv, {0.5, 0.5, 1.5, 2.5, 2.5, 1.5});
    ExpectFlows(per, {9, 9, 8, 8, 5, 5, 5, 5, 8, 8}, {3, 3, 2, 2, 1, 1, 1, 1, 2, 2});
    // all: loads {1,1,3,3,5,5} -> h = 4.75: 5; avg cost (9 + 8 + 5 + 5 + 8) * 2 / 10 = 7
    ExpectClass(m.all, 10, 10, 5, 5, 1.8, 7, 9);
}

namespace
{

/// Per-flow recursive reference: loads and costs from the definitions, one flow at a time
struct Reference
{
    std::vector<double> load;   //!< total load per circuit
    std::vector<double> loadKv; //!< KV load per circuit
    std::vector<double> cost;   //!< per flow
};

Reference
ComputeReference(const ShortestPathRouting& routing, const std::vector<Flow>& flows)
{
    const CircuitGraph& g = routing.GetGraph();
    const bool ecmp = routing.GetRule() == RoutingRule::ECMP;
    std::vector<DestinationTree> trees(g.GetNNodes());
    for (uint32_t t = 0; t < g.GetNNodes(); ++t)
    {
        routing.ComputeTree(t, trees[t]);
    }
    // the (next node, circuit, share) steps out of u towards t
    auto steps = [&](uint32_t u, uint32_t t) {
        std::vector<std::tuple<uint32_t, uint32_t, double>> out;
        if (!ecmp)
        {
            out.emplace_back(trees[t].nextHop[u], trees[t].nextCircuit[u], 1.0);
            return out;
        }
        std::vector<uint32_t> next;
        std::vector<uint32_t> circuits;
        routing.GetCloserNeighbours(trees[t], u, next, circuits);
        for (std::size_t i = 0; i < next.size(); ++i)
        {
            out.emplace_back(next[i], circuits[i], 1.0 / next.size());
        }
        return out;
    };
    Reference r;
    r.load.assign(g.GetNCircuits(), 0.0);
    r.loadKv.assign(g.GetNCircuits(), 0.0);
    std::function<void(uint32_t, uint32_t, double, bool)> spread =
        [&](uint32_t u, uint32_t t, double amount, bool kv) {
            if (u == t)
            {
                return;
            }
            for (auto [v, c, share] : steps(u, t))
            {
                r.load[c] += amount * share;
                r.loadKv[c] += kv ? amount * share : 0.0;
                spread(v, t, amount * share, kv);
            }
        };
    for (const Flow& f : flows)
    {
        spread(f.src, f.dst, f.demand, f.cls == KV);
    }
    std::function<double(uint32_t, uint32_t)> cost = [&](uint32_t u, uint32_t t) {
        double c = 0;
        if (u != t)
        {
            for (auto [v, circuit, share] : steps(u, t))
            {
                c += share * (r.load[circuit] + cost(v, t));
            }
        }
        return c;
    };
    for (const Flow& f : flows)
    {
        r.cost.push_back(cost(f.src, f.dst));
    }
    return r;
}

} // namespace

TEST(EvaluateFlows, MatchesPerFlowReference)
{
    Random topo = Random::Create(6, Stream::UNIFORM);
    CircuitGraph g = BuildUniformTemplate(40, 3, topo);
    Random rng = Random::Create(6, Stream::TRAFFIC);
    // sparse: a few flows per destination (paths walked); dense: every ordered pair, some
    // twice (whole-tree accumulation)
    std::vector<Flow> sparse;
    for (int i = 0; i < 60; ++i)
    {
        uint32_t s = rng.Index(40);
        uint32_t t = (s + 1 + rng.Index(39)) % 40;
        sparse.push_back({s, t, i % 3 == 0 ? TR : KV, 0.5 + rng.Index(4)});
    }
    std::vector<Flow> dense;
    for (uint32_t s = 0; s < 40; ++s)
    {
        for (uint32_t t = 0; t < 40; ++t)
        {
            if (s != t)
            {
                dense.push_back({s, t, (s + t) % 2 == 0 ? KV : TR, 1.0 + (s % 3)});
                if ((s * t) % 7 == 0)
                {
                    dense.push_back({s, t, TR, 0.25});
                }
            }
        }
    }
    for (RoutingRule rule :
         {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH, RoutingRule::ECMP})
    {
        ShortestPathRouting routing(g, rule, 11);
        for (const std::vector<Flow>* flows : {&sparse, &dense})
        {
            Reference ref = ComputeReference(routing, *flows);
            std::vector<FlowResult> per;
            FlowMetrics m = EvaluateFlows(routing, *flows, per);
            for (uint32_t c = 0; c < g.GetNCircuits(); ++c)
            {
                ASSERT_NEAR(m.load[c], ref.load[c], 1e-9 * (1 + ref.load[c])) << ToString(rule);
                ASSERT_NEAR(m.loadKv[c], ref.loadKv[c], 1e-9 * (1 + ref.load[c]));
                ASSERT_NEAR(m.loadTraining[c],
                            ref.load[c] - ref.loadKv[c],
                            1e-9 * (1 + ref.load[c]));
            }
            for (std::size_t i = 0; i < flows->size(); ++i)
            {
                ASSERT_NEAR(per[i].cost, ref.cost[i], 1e-9 * (1 + ref.cost[i])) << ToString(rule);
            }
        }
    }
}

TEST(Percentile, SelectionMatchesSortedReference)
{
    // reference: expand, sort, interpolate as documented
    auto reference = [](std::vector<double> v, double p) {
        std::sort(v.begin(), v.end());
        double h = (v.size() - 1) * p / 100.0;
        auto k = static_cast<std::size_t>(std::floor(h));
        double upper = v[std::min(k + 1, v.size() - 1)];
        return v[k] + (h - k) * (upper - v[k]);
    };
    Random rng = Random::Create(2, Stream::ROUTING);
    for (int trial = 0; trial < 40; ++trial)
    {
        std::vector<std::pair<double, uint64_t>> weighted;
        std::vector<double> expanded;
        uint32_t m = 1 + rng.Index(2000);
        for (uint32_t i = 0; i < m; ++i)
        {
            // few distinct values in some trials, many in others; sorted runs in others
            double value = trial % 3 == 0 ? rng.Index(7) : trial % 3 == 1 ? rng.Uniform01() : i;
            uint64_t count = 1 + rng.Index(5);
            weighted.emplace_back(value, count);
            expanded.insert(expanded.end(), count, value);
        }
        for (double p : {0.0, 1.0, 50.0, 95.0, 99.9, 100.0})
        {
            EXPECT_EQ(WeightedPercentile(weighted, p), reference(expanded, p));
            EXPECT_EQ(Percentile(expanded, p), reference(expanded, p));
        }
    }
}

TEST(EvaluateFlows, RandomRuleIsDeterministicPerSeed)
{
    RandomCase c = MakeRandomCase(120, 4);
    auto loads = [&](uint64_t seed) {
        return EvaluateFlows(ShortestPathRouting(c.graph, RoutingRule::RANDOM_SHORTEST_PATH, seed),
                             c.flows)
            .load;
    };
    EXPECT_EQ(loads(1), loads(1));
    EXPECT_NE(loads(1), loads(2));
    // the lowest-id rule is one particular choice, different from a random one
    EXPECT_NE(
        loads(1),
        EvaluateFlows(ShortestPathRouting(c.graph, RoutingRule::SHORTEST_PATH), c.flows).load);
}
