/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ns-3 test cases of the packet-level fabric (part of the suite "mose", see
 * mose-test-cases.h): MoseTopologyHelper realises a template, MoseTrafficHelper's TCP transfers
 * all complete with nothing lost, and every circuit carries exactly its flow-level load.
 */

#include "mose-test-cases.h"

#include "ns3/mose-circuit-monitor.h"
#include "ns3/mose-error.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-random.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-traffic-helper.h"
#include "ns3/mose-traffic.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <memory>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/**
 * \ingroup mose-tests
 * \brief On a 32-group H^PD(3) fabric under the random shortest path, every TCP transfer of an
 *        inference-heavy traffic sample completes, no packet is dropped anywhere, the realised
 *        circuit graph is the template, and the payload bytes on every circuit equal its
 *        flow-level load times the bytes per unit.
 */
class MosePacketFabricTestCase : public TestCase
{
  public:
    MosePacketFabricTestCase()
        : TestCase("Packet-level fabric: zero loss, bytes per circuit = flow-level load")
    {
    }

  private:
    void DoRun() override
    {
        const RoleAssignment roles = RoleAssignment::Contiguous({8, 8, 16});
        MoseRandom assignRng = MoseRandom::Create(2, MoseStream::ASSIGNMENT);
        const PdAssignment assignment =
            PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, assignRng);
        PdBiasedOptions options;
        options.reservedPorts = 3;
        MoseRandom templateRng = MoseRandom::Create(2, MoseStream::PD_BIASED);
        const CircuitGraph graph =
            BuildPdBiasedTemplate(roles, 4, assignment, options, templateRng);
        TrafficOptions trafficOptions;
        trafficOptions.flows = 150;
        MoseRandom trafficRng = MoseRandom::Create(2, MoseStream::TRAFFIC);
        const std::vector<Flow> flows =
            GenerateTraffic(roles, assignment, trafficOptions, trafficRng);
        const uint64_t seed = DeriveRoutingSeed(2);

        Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
        topo->SetAttribute("Groups", UintegerValue(32));
        topo->SetRoles(roles);
        topo->SetCircuitGraph(graph);
        topo->SetRouting(RoutingRule::RANDOM_SHORTEST_PATH, seed);
        topo->Install();
        NS_TEST_ASSERT_MSG_EQ((topo->GetCircuitGraph().GetCircuits() == graph.GetCircuits()),
                              true,
                              "the OCS connects exactly the template's circuits");

        Ptr<MoseCircuitMonitor> circuits = CreateObject<MoseCircuitMonitor>();
        circuits->Install(topo->GetOcs());
        Ptr<MoseLossMonitor> loss = CreateObject<MoseLossMonitor>();
        loss->Install(topo->GetGroupNodes(), topo->GetOcs());
        Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
        const uint64_t unit = 3000;
        traffic->SetAttribute("BytesPerUnit", UintegerValue(unit));
        traffic->SetAttribute("StartMode", StringValue("uniform"));
        traffic->Install(topo->GetEndpoints(), flows);
        Simulator::Stop(Seconds(20));
        Simulator::Run();

        Ptr<MoseTransferMonitor> transfers = traffic->GetMonitor();
        NS_TEST_EXPECT_MSG_GT(transfers->GetNTransfers(), 40U, "enough transfers");
        NS_TEST_EXPECT_MSG_EQ(transfers->GetNCompleted(),
                              transfers->GetNTransfers(),
                              "every transfer completes");
        NS_TEST_EXPECT_MSG_EQ(loss->GetTotal(), 0U, "nothing dropped anywhere");
        const ShortestPathRouting flowLevel(graph, RoutingRule::RANDOM_SHORTEST_PATH, seed);
        const FlowMetrics metrics = EvaluateFlows(flowLevel, flows);
        const std::vector<uint64_t> bytes = circuits->GetCircuitBytes();
        NS_TEST_ASSERT_MSG_EQ(bytes.size(), metrics.load.size(), "one count per circuit");
        uint32_t mismatches = 0;
        for (std::size_t c = 0; c < bytes.size(); ++c)
        {
            mismatches += bytes[c] == static_cast<uint64_t>(metrics.load[c]) * unit ? 0 : 1;
        }
        NS_TEST_EXPECT_MSG_EQ(mismatches, 0U, "bytes per circuit = load x bytes per unit");
        Simulator::Destroy();
    }
};

/**
 * \ingroup mose-tests
 * \brief MoseTopologyHelper rejects input it cannot realise with a MoseError naming the value.
 */
class MosePacketBadInputTestCase : public TestCase
{
  public:
    MosePacketBadInputTestCase()
        : TestCase("Packet-level fabric: bad input gets a MoseError")
    {
    }

  private:
    void DoRun() override
    {
        MoseRandom rng = MoseRandom::Create(1, MoseStream::UNIFORM);
        const CircuitGraph graph = BuildUniformTemplate(16, 4, rng);
        Ptr<MoseTopologyHelper> roles = CreateObject<MoseTopologyHelper>();
        roles->SetAttribute("Groups", UintegerValue(16));
        roles->SetRoles(RoleAssignment::Contiguous({4, 4, 7}));
        roles->SetCircuitGraph(graph);
        NS_TEST_EXPECT_MSG_EQ(test::Throws([&] { roles->Install(); }, "15"), true, "roles != N");
        Ptr<MoseTopologyHelper> degree = CreateObject<MoseTopologyHelper>();
        degree->SetAttribute("Groups", UintegerValue(16));
        degree->SetAttribute("PortsPerGroup", UintegerValue(3));
        degree->SetCircuitGraph(graph);
        NS_TEST_EXPECT_MSG_EQ(test::Throws([&] { degree->Install(); }, "PortsPerGroup = 3"),
                              true,
                              "graph degree != d");
        Ptr<MoseTopologyHelper> base = CreateObject<MoseTopologyHelper>();
        base->SetAttribute("Groups", UintegerValue(16));
        base->SetAttribute("AddressBase", Ipv4AddressValue("10.255.250.0"));
        base->SetCircuitGraph(graph);
        NS_TEST_EXPECT_MSG_EQ(test::Throws([&] { base->Install(); }, "10.255.250.0"),
                              true,
                              "address base too small for N groups");
        Simulator::Destroy();
    }
};

} // namespace

std::vector<TestCase*>
ns3::mose::test::PacketTestCases()
{
    return {new MosePacketFabricTestCase, new MosePacketBadInputTestCase};
}
