/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Distance summaries (all pairs and sampled), the JSON writer's refusal of non-finite metrics,
// and option names in the template and traffic messages.

#include "mose-test-util.h"

#include "ns3/mose-error.h"
#include "ns3/mose-graph-properties.h"
#include "ns3/mose-metrics-output.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-random.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-traffic.h"

#include <gtest/gtest.h>
#include <limits>
#include <sstream>

using namespace ns3::mose;
using namespace ns3::mose::test;

TEST(SummarizeDistances, AllPairsOfRingAndCube)
{
    DistanceSummary ring = SummarizeDistances(Ring(6));
    EXPECT_FALSE(ring.sampled);
    EXPECT_EQ(ring.sources, 6U);
    EXPECT_EQ(ring.diameter, 3U);
    // from each node: 2 at 1 hop, 2 at 2, 1 at 3 -> 9 / 5
    EXPECT_DOUBLE_EQ(ring.averageHops, 9.0 / 5.0);
    EXPECT_EQ(ring.histogram, (std::vector<uint64_t>{0, 12, 12, 6}));
    DistanceSummary cube = SummarizeDistances(Cube3(), 100); // more sources than nodes: all
    EXPECT_FALSE(cube.sampled);
    EXPECT_DOUBLE_EQ(cube.averageHops, 12.0 / 7.0);
}

TEST(SummarizeDistances, SampledSourcesAreBoundedAndReported)
{
    Random rng = Random::Create(1, Stream::UNIFORM);
    CircuitGraph g = BuildUniformTemplate(2000, 4, rng);
    DistanceSummary all = SummarizeDistances(g);
    std::vector<std::pair<uint32_t, uint32_t>> calls;
    DistanceSummary some = SummarizeDistances(g, 200, [&calls](uint32_t done, uint32_t total) {
        calls.emplace_back(done, total);
    });
    EXPECT_TRUE(some.sampled);
    EXPECT_EQ(some.sources, 200U);
    uint64_t pairs = 0;
    for (uint64_t h : some.histogram)
    {
        pairs += h;
    }
    EXPECT_EQ(pairs, 200U * 1999U); // 200 searches, not 2000
    EXPECT_LE(some.diameter, all.diameter);
    EXPECT_NEAR(some.averageHops, all.averageHops, 0.1);
    ASSERT_FALSE(calls.empty());
    EXPECT_EQ(calls.back(), std::make_pair(200U, 200U));
    // the sampled value is what MeasureTemplate reports when asked
    RoleAssignment roles = RoleAssignment::Contiguous({0, 0, 2000});
    TemplateProperties p = MeasureTemplate(g, roles, PdAssignment(), 200);
    EXPECT_EQ(p.distances.sources, 200U);
    EXPECT_DOUBLE_EQ(p.distances.averageHops, some.averageHops);
}

TEST(WriteFlowMetricsJson, RefusesNonFiniteMetrics)
{
    // finite demands whose loads overflow: the path 0-1-2 with one flow of 1.7e308 costs 3.4e308
    CircuitGraph path(3, {{0, 1}, {1, 2}});
    ShortestPathRouting routing(path, RoutingRule::SHORTEST_PATH);
    std::vector<Flow> flows = {{0, 2, TrafficClass::KV, 1.7e308}};
    FlowMetrics m = EvaluateFlows(routing, flows);
    std::ostringstream out;
    std::string message = ErrorOf([&] { WriteFlowMetricsJson(m, out, ""); });
    EXPECT_CONTAINS(message, "came out as inf");
    EXPECT_CONTAINS(message, "too large for double arithmetic");
    EXPECT_EQ(out.str(), ""); // nothing half-written
    flows[0].demand = 1.0;
    std::ostringstream ok;
    WriteFlowMetricsJson(EvaluateFlows(routing, flows), ok, "");
    EXPECT_EQ(ok.str().find("inf"), std::string::npos);
}

TEST(OptionNames, MessagesNameTheCallersOption)
{
    RoleAssignment roles = RoleAssignment::Contiguous({4, 6, 6});
    Random rng = Random::Create(1, Stream::PD_BIASED);
    PdAssignment pairs({{0, 4, 1.0}});
    PdBiasedOptions options;
    options.reservedPorts = 2;
    options.reservedPortsName = "--compromiseReservedPorts";
    options.allowBiregularName = "--biregular";
    std::string m = ErrorOf([&] { BuildPdBiasedTemplate(roles, 4, pairs, options, rng); });
    EXPECT_CONTAINS(m, "invalid --compromiseReservedPorts = 2");
    EXPECT_CONTAINS(m, "set --biregular for a biregular split");
    EXPECT_EQ(m.find("reservedPorts"), std::string::npos) << "names the library field: " << m;
    EXPECT_EQ(m.find("allowBiregular"), std::string::npos) << m;

    TrafficOptions traffic;
    traffic.kvShare = 0.7;
    traffic.kvShareName = "--kvShareInference";
    Random trafficRng = Random::Create(1, Stream::TRAFFIC);
    RoleAssignment noTraining = RoleAssignment::Contiguous({2, 2, 0});
    PdAssignment pd({{0, 2, 1.0}, {1, 3, 1.0}});
    std::string t = ErrorOf([&] { GenerateTraffic(noTraining, pd, traffic, trafficRng); });
    EXPECT_CONTAINS(t, "since --kvShareInference = 0.7 and"); // not 0.69999999999999996
}
