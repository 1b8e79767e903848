/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ns-3 test cases of the packet-level fabric (part of the suite "mose", see
 * mose-test-cases.h): MoseTopologyHelper realises a template, MoseTrafficHelper's TCP transfers
 * all complete with nothing lost, and every circuit carries exactly its flow-level load; queue
 * discs work on the ports (DCTCP over RED marks); attributes the user set win or fail loudly.
 */

#include "mose-switch-scenario.h"
#include "mose-test-cases.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/loopback-net-device.h"
#include "ns3/mose-circuit-monitor.h"
#include "ns3/mose-error.h"
#include "ns3/mose-llm-transfers.h"
#include "ns3/mose-llm-workload.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-random.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-traffic-helper.h"
#include "ns3/mose-traffic.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <memory>
#include <set>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// The 32 groups (8 P, 8 D, 16 T) of the packet fabric cases
RoleAssignment
FabricRoles()
{
    return RoleAssignment::Contiguous({8, 8, 16});
}

/// \return run 2's one-to-one P-D assignment of FabricRoles()
PdAssignment
FabricAssignment()
{
    Random assignRng = Random::Create(2, Stream::ASSIGNMENT);
    return PdAssignment::Draw(FabricRoles(), PdAssignmentKind::ONE_TO_ONE, 1, assignRng);
}

/// \return run 2's H^PD(3) template of FabricRoles() at d = 4
CircuitGraph
FabricGraph()
{
    PdBiasedOptions options;
    options.reservedPorts = 3;
    Random templateRng = Random::Create(2, Stream::PD_BIASED);
    return BuildPdBiasedTemplate(FabricRoles(), 4, FabricAssignment(), options, templateRng);
}

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
        const RoleAssignment roles = FabricRoles();
        const PdAssignment assignment = FabricAssignment();
        const CircuitGraph graph = FabricGraph();
        TrafficOptions trafficOptions;
        trafficOptions.flows = 150;
        Random trafficRng = Random::Create(2, Stream::TRAFFIC);
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
 * \brief MoseTopologyHelper rejects input it cannot realise with a mose::Error naming the value.
 */
class MosePacketBadInputTestCase : public TestCase
{
  public:
    MosePacketBadInputTestCase()
        : TestCase("Packet-level fabric: bad input gets a mose::Error")
    {
    }

  private:
    void DoRun() override
    {
        Random rng = Random::Create(1, Stream::UNIFORM);
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

/**
 * \ingroup mose-tests
 * \brief On a 16-group fabric, ns-3's default root queue disc is replaced the usual way
 *        (TrafficControlHelper::Uninstall, then Install) by a DCTCP user's RED (ECN, K = 20
 *        packets) on every port; in an 8-to-1 DCTCP incast the ports' queues cross K, packets
 *        are marked (each counted once by MoseLossMonitor), none is lost and every transfer
 *        completes without a retransmission timeout.
 */
class MosePacketDctcpRedTestCase : public TestCase
{
  public:
    MosePacketDctcpRedTestCase()
        : TestCase("Packet-level fabric: DCTCP over RED with ECN marks, loses nothing in an incast")
    {
    }

  private:
    void DoRun() override
    {
        Random rng = Random::Create(3, Stream::UNIFORM);
        Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
        topo->SetAttribute("Groups", UintegerValue(16));
        topo->SetCircuitGraph(BuildUniformTemplate(16, 4, rng));
        topo->Install();
        NetDeviceContainer ports;
        for (uint32_t g = 0; g < 16; ++g)
        {
            ports.Add(topo->GetPorts(g));
        }
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "UseEcn",
                             BooleanValue(true),
                             "MinTh",
                             DoubleValue(20),
                             "MaxTh",
                             DoubleValue(20),
                             "QW",
                             DoubleValue(1),
                             "Gentle",
                             BooleanValue(false),
                             "UseHardDrop",
                             BooleanValue(false),
                             "MaxSize",
                             QueueSizeValue(QueueSize("1000p")));
        tch.Uninstall(ports);
        QueueDiscContainer discs = tch.Install(ports);
        NS_TEST_ASSERT_MSG_EQ(discs.GetN(), 64U, "one RED per port");
        Ptr<MoseLossMonitor> loss = CreateObject<MoseLossMonitor>();
        loss->Install(topo->GetGroupNodes(), topo->GetOcs());
        std::vector<Flow> incast;
        for (uint32_t s = 1; s <= 8; ++s)
        {
            incast.push_back(Flow{s, 0, TrafficClass::TRAINING, 1});
        }
        Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
        traffic->SetAttribute("BytesPerUnit", UintegerValue(2000000));
        traffic->SetAttribute("TcpVariant", TypeIdValue(TypeId::LookupByName("ns3::TcpDctcp")));
        traffic->Install(topo->GetEndpoints(), incast);
        Simulator::Stop(Seconds(30));
        Simulator::Run();

        uint64_t discMarks = 0;
        for (uint32_t i = 0; i < discs.GetN(); ++i)
        {
            discMarks += discs.Get(i)->GetStats().nTotalMarkedPackets;
        }
        Ptr<MoseTransferMonitor> monitor = traffic->GetMonitor();
        NS_TEST_EXPECT_MSG_EQ(monitor->GetNCompleted(), 8U, "every transfer completes");
        NS_TEST_EXPECT_MSG_GT(loss->GetMarks(), 0U, "the incast's queues cross K");
        NS_TEST_EXPECT_MSG_EQ(loss->GetMarks(), discMarks, "every mark counted once");
        NS_TEST_EXPECT_MSG_EQ(loss->GetTotal(), 0U, "nothing lost");
        NS_TEST_EXPECT_MSG_LT(monitor->Summarize(TrafficClass::TRAINING).maxS,
                              0.1,
                              "no retransmission timeout");
        Simulator::Destroy();
    }
};

/**
 * \ingroup mose-tests
 * \brief What the user sets wins or fails loudly: --ns3::MoseRouteTable::Rule (Config) wins
 *        over SetTemplate()'s default rule and conflicts loudly with SetRouting(); HoldTime and
 *        HoldQueueSize set by Config::SetDefault or on a node's protocol with SetAttribute
 *        survive MoseModeSwitcherHelper::Install(), which only turns the hold queue on.
 */
class MosePacketAttributePrecedenceTestCase : public TestCase
{
  public:
    MosePacketAttributePrecedenceTestCase()
        : TestCase("Packet-level fabric: attributes the user set win or fail loudly")
    {
    }

  private:
    void DoRun() override
    {
        FlowExperimentConfig config;
        config.nodes = 16;
        config.degree = 4;
        config.inferenceRoles = RoleCounts::PaperScaled(16, WorkloadMode::INFERENCE_HEAVY);
        config.trainingRoles = RoleCounts::PaperScaled(16, WorkloadMode::TRAINING_HEAVY);
        config.flows = 50;
        Config::SetDefault("ns3::MoseRouteTable::Rule", StringValue("ecmp"));
        Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
        topo->SetTemplate(config, 2, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
        topo->Install();
        NS_TEST_EXPECT_MSG_EQ((topo->GetRouteTable()->GetRule() == RoutingRule::ECMP),
                              true,
                              "the command line's rule wins over SetTemplate's default one");
        Simulator::Destroy();
        Ptr<MoseTopologyHelper> explicitRule = CreateObject<MoseTopologyHelper>();
        explicitRule->SetTemplate(config, 2, WorkloadMode::INFERENCE_HEAVY, Policy::MOSE);
        explicitRule->SetRouting(RoutingRule::SHORTEST_PATH, 0);
        NS_TEST_EXPECT_MSG_EQ(
            test::Throws([&] { explicitRule->Install(); }, "ns3::MoseRouteTable::Rule = ecmp"),
            true,
            "a conflict names the user's value");
        NS_TEST_EXPECT_MSG_EQ(test::Throws([&] { explicitRule->Install(); }, "shortest-path"),
                              true,
                              "and the explicit one");
        Config::Reset();
        Simulator::Destroy();

        Config::SetDefault("ns3::MoseRoutingProtocol::HoldTime", TimeValue(MilliSeconds(5)));
        Config::SetDefault("ns3::MoseRoutingProtocol::HoldQueueSize", UintegerValue(7));
        const test::SwitchScenario s(1);
        Ptr<MoseTopologyHelper> fabric = test::BuildSwitchFabric(s, s.templates[1]);
        auto routing = [&fabric](uint32_t g) {
            return DynamicCast<MoseRoutingProtocol>(
                fabric->GetGroupNode(g)->GetObject<Ipv4>()->GetRoutingProtocol());
        };
        routing(3)->SetAttribute("HoldTime", TimeValue(MilliSeconds(9)));
        MoseModeSwitcherHelper helper;
        helper.SetTargetProvider(MoseModeSwitcherHelper::MakePolicyProvider("MoSE",
                                                                            s.templates,
                                                                            s.roles,
                                                                            s.assignments));
        helper.SetSchedule(
            {{mose::WorkloadMode::INFERENCE_HEAVY, 0.05}, {mose::WorkloadMode::TRAINING_HEAVY, 0}});
        helper.Install(fabric);
        TimeValue holdTime;
        UintegerValue holdSize;
        BooleanValue hold;
        routing(0)->GetAttribute("HoldTime", holdTime);
        routing(0)->GetAttribute("HoldQueueSize", holdSize);
        routing(0)->GetAttribute("HoldPackets", hold);
        NS_TEST_EXPECT_MSG_EQ(holdTime.Get(), MilliSeconds(5), "Config's HoldTime survives");
        NS_TEST_EXPECT_MSG_EQ(holdSize.Get(), 7U, "Config's HoldQueueSize survives");
        NS_TEST_EXPECT_MSG_EQ(hold.Get(), true, "the helper turns the hold queue on");
        routing(3)->GetAttribute("HoldTime", holdTime);
        NS_TEST_EXPECT_MSG_EQ(holdTime.Get(), MilliSeconds(9), "SetAttribute's survives");
        Config::Reset();
        Simulator::Destroy();
    }
};

/**
 * \ingroup mose-tests
 * \brief A host per GPU: on a 32-group H^PD(3) fabric with G = 1 (the group nodes) and G = 8
 *        hosts per group, the LLM workloads' KV transfers and all-to-all parts (spread over
 *        the hosts by rail) all complete, nothing is lost, the bytes between groups do not
 *        depend on G, and every circuit carries exactly its flow-level load.
 */
class MoseHostsPerGpuTestCase : public TestCase
{
  public:
    MoseHostsPerGpuTestCase()
        : TestCase("Packet-level fabric: G = 1 and 8 hosts per group, bytes per circuit = "
                   "flow-level load, nothing lost")
    {
    }

  private:
    /// \param hosts H (0: the group nodes) \return bytes between groups (N x N)
    std::vector<uint64_t> RunWith(uint32_t hosts)
    {
        const RoleAssignment roles = FabricRoles();
        auto graph = std::make_shared<const CircuitGraph>(FabricGraph());
        const uint64_t seed = DeriveRoutingSeed(2);

        Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
        topo->SetAttribute("Groups", UintegerValue(32));
        topo->SetAttribute("HostsPerGroup", UintegerValue(hosts));
        topo->SetAttribute("HostDataRate", DataRateValue(DataRate("10Gbps")));
        topo->SetOcsAttribute("DataRate", DataRateValue(DataRate("10Gbps")));
        topo->SetPortQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1000p"));
        topo->SetRoles(roles);
        topo->SetCircuitGraph(*graph);
        topo->SetRouting(RoutingRule::RANDOM_SHORTEST_PATH, seed);
        topo->Install();
        Ptr<MoseCircuitMonitor> circuits = topo->InstallCircuitMonitor();
        Ptr<MoseLossMonitor> loss = topo->InstallLossMonitor();
        Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
        transport->Install(topo->GetGroupEndpoints());
        NS_TEST_EXPECT_MSG_EQ(transport->GetNRails(5), std::max<uint32_t>(hosts, 1), "rails");

        std::vector<LlmRequest> requests;
        for (uint32_t i = 0; i < 40; ++i)
        {
            LlmRequest r;
            r.arrivalNs = 50000ULL * i;
            r.inputTokens = 100 + 7 * i;
            r.outputTokens = 10;
            requests.push_back(r);
        }
        Ptr<MoseInferenceWorkload> kv = CreateObject<MoseInferenceWorkload>();
        kv->SetAttribute("KvBytesPerToken", UintegerValue(1024));
        kv->SetAttribute("PrefillTokensPerSecond", DoubleValue(1e7));
        kv->SetAttribute("PlacementRule", StringValue("round-robin"));
        kv->SetTransfers(transport);
        kv->SetMode(WorkloadMode::INFERENCE_HEAVY, roles, graph);
        kv->SetRequests(requests);
        kv->Start(Seconds(0));
        Ptr<MoseTrainingWorkload> job = CreateObject<MoseTrainingWorkload>();
        job->SetAttribute("CollectiveBytes", UintegerValue(160000));
        job->SetAttribute("ComputeTime", TimeValue(MicroSeconds(300)));
        job->SetAttribute("MaxIterations", UintegerValue(2));
        job->SetTransfers(transport);
        job->SetMode(WorkloadMode::INFERENCE_HEAVY, roles);
        job->Start(Seconds(0));
        Simulator::Stop(Seconds(2));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(kv->GetNDone(), 40U, "every KV transfer completes");
        NS_TEST_EXPECT_MSG_EQ(job->GetNDone(), 2U, "both iterations complete");
        NS_TEST_EXPECT_MSG_EQ(loss->GetTotal(), 0U, "nothing dropped anywhere");
        NS_TEST_EXPECT_MSG_EQ(transport->GetNErrors(), 0U, "no transport error");
        std::vector<Flow> flows;
        std::set<uint32_t> rails;
        for (const auto& list : {kv->GetTransfers(), job->GetTransfers()})
        {
            for (const MoseTransfer& t : list)
            {
                flows.push_back(Flow{t.src, t.dst, t.cls, static_cast<double>(t.received)});
                rails.insert(t.srcHost);
                NS_TEST_EXPECT_MSG_EQ(t.srcHost, t.dstHost, "rail r to rail r");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(rails.size(), std::max<uint32_t>(hosts, 1), "every rail used");
        const ShortestPathRouting flowLevel(*graph, RoutingRule::RANDOM_SHORTEST_PATH, seed);
        const FlowMetrics metrics = EvaluateFlows(flowLevel, flows);
        const std::vector<uint64_t> bytes = circuits->GetCircuitBytes();
        NS_TEST_EXPECT_MSG_EQ(bytes.size(), metrics.load.size(), "one count per circuit");
        uint32_t mismatches = 0;
        for (std::size_t c = 0; c < std::min(bytes.size(), metrics.load.size()); ++c)
        {
            mismatches += static_cast<double>(bytes[c]) == metrics.load[c] ? 0 : 1;
        }
        NS_TEST_EXPECT_MSG_EQ(mismatches, 0U, "bytes per circuit = flow-level load");
        std::vector<uint64_t> pairs;
        for (uint32_t s = 0; s < 32; ++s)
        {
            for (uint32_t d = 0; d < 32; ++d)
            {
                pairs.push_back(transport->GetBytesBetween(s, d));
            }
        }
        Simulator::Destroy();
        return pairs;
    }

    void DoRun() override
    {
        const std::vector<uint64_t> one = RunWith(0);
        const std::vector<uint64_t> eight = RunWith(8);
        NS_TEST_EXPECT_MSG_EQ((one == eight), true, "bytes between groups do not depend on G");
    }
};

} // namespace

std::vector<TestCase*>
ns3::mose::test::PacketTestCases()
{
    return {new MosePacketFabricTestCase,
            new MosePacketBadInputTestCase,
            new MosePacketDctcpRedTestCase,
            new MosePacketAttributePrecedenceTestCase,
            new MoseHostsPerGpuTestCase};
}
