/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The packet-level fabric: MoseTopologyHelper realises a template on ns-3 nodes, the routing
 * protocol follows the flow level's paths, MoseTrafficHelper's transfers complete without loss,
 * and the payload bytes per circuit equal the flow-level loads.
 */

#include "mose-test-util.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mose-circuit-monitor.h"
#include "ns3/mose-file-io.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-metrics.h"
#include "ns3/mose-pd-assignment.h"
#include "ns3/mose-random.h"
#include "ns3/mose-routing-protocol.h"
#include "ns3/mose-routing.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-traffic-helper.h"
#include "ns3/mose-traffic.h"

#include <gtest/gtest.h>
#include <set>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// A 32-group inference-heavy scenario: 8 P, 8 D, 16 T, one-to-one assignment, H^PD(3)
struct SmallScenario
{
    RoleAssignment roles;
    PdAssignment assignment;
    CircuitGraph graph;
    std::vector<Flow> flows;

    explicit SmallScenario(uint64_t run = 1, uint64_t flowCount = 120, uint32_t reserved = 3)
    {
        roles = RoleAssignment::Contiguous({8, 8, 16});
        Random assignRng = Random::Create(run, Stream::ASSIGNMENT);
        assignment = PdAssignment::Draw(roles, PdAssignmentKind::ONE_TO_ONE, 1, assignRng);
        PdBiasedOptions options;
        options.reservedPorts = reserved;
        Random templateRng = Random::Create(run, Stream::PD_BIASED);
        graph = BuildPdBiasedTemplate(roles, 4, assignment, options, templateRng);
        TrafficOptions traffic;
        traffic.flows = flowCount;
        traffic.kvShare = 0.7;
        Random trafficRng = Random::Create(run, Stream::TRAFFIC);
        flows = GenerateTraffic(roles, assignment, traffic, trafficRng);
    }
};

/// Builds a fabric for a scenario with a routing rule and seed
Ptr<MoseTopologyHelper>
BuildFabric(const SmallScenario& s, RoutingRule rule, uint64_t seed, uint32_t hosts = 0)
{
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("Groups", UintegerValue(s.graph.GetNNodes()));
    topo->SetAttribute("PortsPerGroup", UintegerValue(4));
    topo->SetAttribute("HostsPerGroup", UintegerValue(hosts));
    topo->SetRoles(s.roles);
    topo->SetCircuitGraph(s.graph);
    topo->SetRouting(rule, seed);
    topo->Install();
    return topo;
}

/// Follows the route table from src to dst through the OCS: the groups visited
std::vector<uint32_t>
WalkFabric(Ptr<MoseTopologyHelper> topo, uint32_t src, uint32_t dst)
{
    std::vector<uint32_t> path{src};
    Ptr<MoseRouteTable> table = topo->GetRouteTable();
    Ptr<MoseOcs> ocs = topo->GetOcs();
    const uint32_t d = topo->GetNPorts();
    uint32_t at = src;
    while (at != dst && path.size() <= topo->GetNGroups())
    {
        const uint32_t port = table->GetOutputPort(at, dst);
        if (port >= d)
        {
            return {};
        }
        const uint32_t peer = ocs->GetPeer(at, port);
        if (peer == MoseOcs::DARK)
        {
            return {};
        }
        at = peer / d;
        path.push_back(at);
    }
    return path;
}

} // namespace

TEST(PacketFabric, RealisedGraphIsTheTemplate)
{
    SmallScenario s;
    Ptr<MoseTopologyHelper> topo = BuildFabric(s, RoutingRule::SHORTEST_PATH, 0);
    EXPECT_EQ(topo->GetGroupNodes().GetN(), 32u);
    const CircuitGraph live = topo->GetCircuitGraph();
    EXPECT_EQ(live.GetCircuits(), s.graph.GetCircuits());
    EXPECT_EQ(topo->GetOcs()->GetPortMatching(), topo->GetPortPlan().GetPeers());
    for (uint32_t g = 0; g < 32; ++g)
    {
        EXPECT_EQ(topo->GetPorts(g).GetN(), 4u);
        EXPECT_EQ(topo->GetRole(g), s.roles.Get(g));
        EXPECT_EQ(topo->GetPortDevice(g, 0)->GetNode(), topo->GetGroupNode(g));
    }
    Simulator::Destroy();
}

TEST(PacketFabric, HopByHopRouteEqualsFlowLevelPathForEveryPair)
{
    SmallScenario s(3);
    for (RoutingRule rule : {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH})
    {
        const uint64_t seed = DeriveRoutingSeed(3);
        Ptr<MoseTopologyHelper> topo = BuildFabric(s, rule, seed);
        ShortestPathRouting flowLevel(std::make_shared<const CircuitGraph>(s.graph), rule, seed);
        for (uint32_t a = 0; a < 32; ++a)
        {
            for (uint32_t b = 0; b < 32; ++b)
            {
                if (a != b)
                {
                    ASSERT_EQ(WalkFabric(topo, a, b), flowLevel.GetPath(a, b))
                        << ToString(rule) << " " << a << "->" << b;
                }
            }
        }
        Simulator::Destroy();
    }
}

TEST(PacketFabric, DirectKvPairCrossesOneCircuit)
{
    SmallScenario s;
    Ptr<MoseTopologyHelper> topo = BuildFabric(s, RoutingRule::SHORTEST_PATH, 0);
    Ptr<MoseCircuitMonitor> circuits = CreateObject<MoseCircuitMonitor>();
    circuits->Install(topo->GetOcs());
    // the first assignment pair that is a circuit
    const PdPair* pair = nullptr;
    for (const auto& p : s.assignment.GetPairs())
    {
        if (s.graph.HasCircuit(p.prefill, p.decode))
        {
            pair = &p;
            break;
        }
    }
    ASSERT_NE(pair, nullptr);
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->SetAttribute("BytesPerUnit", UintegerValue(20000));
    traffic->Install(topo->GetEndpoints(),
                     {Flow{pair->prefill, pair->decode, TrafficClass::KV, 1}});
    Simulator::Stop(Seconds(5));
    Simulator::Run();
    EXPECT_EQ(traffic->GetMonitor()->GetNCompleted(), 1u);
    const std::vector<uint64_t> bytes = circuits->GetCircuitBytes();
    const auto direct = static_cast<std::size_t>(s.graph.FindCircuit(pair->prefill, pair->decode));
    for (std::size_t c = 0; c < bytes.size(); ++c)
    {
        EXPECT_EQ(bytes[c], c == direct ? 20000u : 0u) << "circuit " << c;
    }
    Simulator::Destroy();
}

TEST(PacketFabric, StaticFabricLosesNothingAndBytesEqualFlowLevelLoads)
{
    SmallScenario s(2, 150);
    const uint64_t seed = DeriveRoutingSeed(2);
    Ptr<MoseTopologyHelper> topo = BuildFabric(s, RoutingRule::RANDOM_SHORTEST_PATH, seed);
    Ptr<MoseCircuitMonitor> circuits = CreateObject<MoseCircuitMonitor>();
    circuits->Install(topo->GetOcs());
    Ptr<MoseLossMonitor> loss = CreateObject<MoseLossMonitor>();
    loss->Install(topo->GetGroupNodes(), topo->GetOcs());
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    const uint64_t unit = 3000;
    traffic->SetAttribute("BytesPerUnit", UintegerValue(unit));
    traffic->SetAttribute("StartMode", StringValue("uniform"));
    traffic->Install(topo->GetEndpoints(), s.flows);
    Simulator::Stop(Seconds(20));
    Simulator::Run();

    Ptr<MoseTransferMonitor> transfers = traffic->GetMonitor();
    EXPECT_GT(transfers->GetNTransfers(), 40u);
    EXPECT_EQ(transfers->GetNCompleted(), transfers->GetNTransfers());
    EXPECT_EQ(loss->GetTotal(), 0u);
    ShortestPathRouting flowLevel(std::make_shared<const CircuitGraph>(s.graph),
                                  RoutingRule::RANDOM_SHORTEST_PATH,
                                  seed);
    const FlowMetrics m = EvaluateFlows(flowLevel, s.flows);
    const std::vector<uint64_t> bytes = circuits->GetCircuitBytes();
    ASSERT_EQ(bytes.size(), m.load.size());
    uint64_t nonZero = 0;
    for (std::size_t c = 0; c < bytes.size(); ++c)
    {
        EXPECT_EQ(bytes[c], static_cast<uint64_t>(m.load[c]) * unit) << "circuit " << c;
        nonZero += bytes[c] > 0 ? 1 : 0;
    }
    EXPECT_GT(nonZero, 10u);
    Simulator::Destroy();
}

TEST(PacketFabric, HostsBehindGroupsReachEachOther)
{
    SmallScenario s(4, 60);
    Ptr<MoseTopologyHelper> topo = BuildFabric(s, RoutingRule::SHORTEST_PATH, 0, 2);
    EXPECT_EQ(topo->GetAllHosts().GetN(), 64u);
    EXPECT_EQ(topo->GetEndpoints().Get(5), topo->GetHosts(5).Get(0));
    Ptr<MoseLossMonitor> loss = CreateObject<MoseLossMonitor>();
    NodeContainer all(topo->GetGroupNodes(), topo->GetAllHosts());
    loss->Install(all, topo->GetOcs());
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->SetAttribute("BytesPerUnit", UintegerValue(2000));
    traffic->Install(topo->GetEndpoints(), s.flows);
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    EXPECT_EQ(traffic->GetMonitor()->GetNCompleted(), traffic->GetMonitor()->GetNTransfers());
    EXPECT_EQ(loss->GetTotal(), 0u);
    Simulator::Destroy();
}

TEST(PacketFabric, UdpTransfersComplete)
{
    SmallScenario s(5, 40);
    Ptr<MoseTopologyHelper> topo = BuildFabric(s, RoutingRule::SHORTEST_PATH, 0);
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->SetAttribute("BytesPerUnit", UintegerValue(5000));
    traffic->SetAttribute("SocketFactory",
                          TypeIdValue(TypeId::LookupByName("ns3::UdpSocketFactory")));
    traffic->SetAttribute("UdpDataRate", DataRateValue(DataRate("1Gbps")));
    traffic->Install(topo->GetEndpoints(), s.flows);
    Simulator::Stop(Seconds(5));
    Simulator::Run();
    EXPECT_GT(traffic->GetMonitor()->GetNTransfers(), 10u);
    EXPECT_EQ(traffic->GetMonitor()->GetNCompleted(), traffic->GetMonitor()->GetNTransfers());
    Simulator::Destroy();
}

TEST(PacketFabric, BadInputNamesTheValue)
{
    SmallScenario s;
    {
        Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
        topo->SetAttribute("Groups", UintegerValue(32));
        topo->SetRoles(RoleAssignment::Contiguous({8, 8, 15}));
        topo->SetCircuitGraph(s.graph);
        EXPECT_CONTAINS(ErrorOf([&] { topo->Install(); }), "31");
    }
    {
        Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
        topo->SetAttribute("Groups", UintegerValue(32));
        topo->SetAttribute("PortsPerGroup", UintegerValue(5));
        topo->SetCircuitGraph(s.graph);
        EXPECT_CONTAINS(ErrorOf([&] { topo->Install(); }), "PortsPerGroup = 5");
    }
    {
        Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
        topo->SetAttribute("Groups", UintegerValue(32));
        topo->SetAttribute("AddressBase", Ipv4AddressValue("10.255.250.0"));
        topo->SetCircuitGraph(s.graph);
        EXPECT_CONTAINS(ErrorOf([&] { topo->Install(); }), "10.255.250.0");
    }
    {
        Ptr<MoseTopologyHelper> topo = BuildFabric(s, RoutingRule::SHORTEST_PATH, 0);
        EXPECT_CONTAINS(ErrorOf([&] { topo->GetPortDevice(3, 4); }), "port 4");
        EXPECT_CONTAINS(ErrorOf([&] { topo->GetGroupNode(32); }), "group 32");
        Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
        EXPECT_CONTAINS(
            ErrorOf([&] {
                traffic->Install(topo->GetEndpoints(), {Flow{0, 40, TrafficClass::KV, 1}});
            }),
            "40");
    }
    Simulator::Destroy();
}

TEST(PacketFabric, QueueOverflowIsCountedAndTcpRecovers)
{
    SmallScenario s(6, 150);
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("Groups", UintegerValue(32));
    topo->SetRoles(s.roles);
    topo->SetCircuitGraph(s.graph);
    // a two-packet queue on every port and no queue disc in front of it: the transfers that
    // start together overflow it (the traffic-control layer drops for the stopped queue)
    topo->SetPortQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("2p"));
    topo->SetAttribute("DefaultQueueDisc", BooleanValue(false));
    topo->Install();
    Ptr<MoseLossMonitor> loss = CreateObject<MoseLossMonitor>();
    loss->Install(topo->GetGroupNodes(), topo->GetOcs());
    uint64_t traced = 0;
    loss->TraceConnectWithoutContext(
        "Drop",
        Callback<void, MoseLossMonitor::Point, Ptr<const Packet>>(
            [&traced](MoseLossMonitor::Point, Ptr<const Packet>) { ++traced; }));
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->SetAttribute("BytesPerUnit", UintegerValue(20000));
    traffic->Install(topo->GetEndpoints(), s.flows);
    Simulator::Stop(Seconds(60));
    Simulator::Run();
    EXPECT_GT(loss->GetDrops(MoseLossMonitor::DEVICE_QUEUE), 0u);
    EXPECT_EQ(loss->GetTotal(), loss->GetDrops(MoseLossMonitor::DEVICE_QUEUE));
    EXPECT_EQ(traced, loss->GetTotal());
    EXPECT_EQ(traffic->GetMonitor()->GetNCompleted(), traffic->GetMonitor()->GetNTransfers());
    Simulator::Destroy();
}

TEST(PacketFabric, GlobalRoutingStaysUsableForSmallFabrics)
{
    SmallScenario s(7, 80);
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("Groups", UintegerValue(32));
    topo->SetAttribute("GlobalRouting", BooleanValue(true));
    topo->SetRoles(s.roles);
    topo->SetCircuitGraph(s.graph);
    topo->Install();
    EXPECT_CONTAINS(ErrorOf([&] { topo->GetRouteTable(); }), "global routing");
    Ptr<MoseLossMonitor> loss = CreateObject<MoseLossMonitor>();
    loss->Install(topo->GetGroupNodes(), topo->GetOcs());
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->SetAttribute("BytesPerUnit", UintegerValue(3000));
    traffic->Install(topo->GetEndpoints(), s.flows);
    Simulator::Stop(Seconds(20));
    Simulator::Run();
    EXPECT_GT(traffic->GetMonitor()->GetNTransfers(), 20u);
    EXPECT_EQ(traffic->GetMonitor()->GetNCompleted(), traffic->GetMonitor()->GetNTransfers());
    EXPECT_EQ(loss->GetTotal(), 0u);
    Simulator::Destroy();

    Ptr<MoseTopologyHelper> hosts = CreateObject<MoseTopologyHelper>();
    hosts->SetAttribute("Groups", UintegerValue(32));
    hosts->SetAttribute("GlobalRouting", BooleanValue(true));
    hosts->SetAttribute("HostsPerGroup", UintegerValue(1));
    hosts->SetCircuitGraph(s.graph);
    EXPECT_CONTAINS(ErrorOf([&] { hosts->Install(); }), "HostsPerGroup = 1");
}

TEST(PacketFabric, TemplateOfAPolicyAndGraphFromAFile)
{
    FlowExperimentConfig config = PaperScaledConfig(32);
    config.flows = 100;
    const ScenarioBuilder builder(config);
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetTemplate(config, 5, WorkloadMode::TRAINING_HEAVY, Policy::STATIC_INFERENCE);
    topo->Install();
    const CircuitGraph stale =
        builder.BuildCircuitGraph(5, WorkloadMode::TRAINING_HEAVY, Policy::STATIC_INFERENCE);
    EXPECT_EQ(topo->GetCircuitGraph().GetCircuits(), stale.GetCircuits());
    const RoleAssignment roles = builder.BuildMode(5, WorkloadMode::TRAINING_HEAVY).roles;
    for (uint32_t g = 0; g < 32; ++g)
    {
        EXPECT_EQ(topo->GetRole(g), roles.Get(g));
    }
    EXPECT_EQ(topo->GetRouteTable()->GetSeed(), builder.BuildRoutingSeed(5));
    Simulator::Destroy();

    const std::string path = ::testing::TempDir() + "mose-packet-fabric-graph.csv";
    WriteCircuitGraphCsv(stale, path);
    Ptr<MoseTopologyHelper> fromFile = CreateObject<MoseTopologyHelper>();
    fromFile->SetAttribute("Groups", UintegerValue(32));
    fromFile->ReadCircuitGraph(path);
    fromFile->Install();
    EXPECT_EQ(fromFile->GetCircuitGraph().GetCircuits(), stale.GetCircuits());
    Simulator::Destroy();
    Ptr<MoseTopologyHelper> wrongDegree = CreateObject<MoseTopologyHelper>();
    wrongDegree->SetAttribute("Groups", UintegerValue(32));
    wrongDegree->SetAttribute("PortsPerGroup", UintegerValue(3));
    EXPECT_CONTAINS(ErrorOf([&] { wrongDegree->ReadCircuitGraph(path); }), path);
    std::remove(path.c_str());
}

TEST(PacketFabric, TcpSegmentWithoutRouteIsCountedOnce)
{
    // A TCP source asks the routing protocol for a route (TcpL4Protocol) and, without one,
    // hands the segment to Ipv4L3Protocol::Send, which asks again and fires Drop with
    // DROP_NO_ROUTE: one lost segment, reported by two traces. The loss monitor counts it once,
    // and counts each retransmission of it again.
    SmallScenario s;
    Ptr<MoseTopologyHelper> topo = BuildFabric(s, RoutingRule::SHORTEST_PATH, 1);
    const uint32_t d = topo->GetNPorts();
    const uint32_t dst = 5;
    Ptr<MoseLossMonitor> loss = CreateObject<MoseLossMonitor>();
    loss->Install(topo->GetGroupNodes(), topo->GetOcs());
    // an independent count: every (packet, time) either trace reports (a retransmission keeps
    // its segment's uid but is sent again later: another loss)
    std::set<std::pair<uint64_t, int64_t>> uids;
    uint64_t reports = 0;
    for (uint32_t g = 0; g < topo->GetNGroups(); ++g)
    {
        Ptr<Node> node = topo->GetGroupNode(g);
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Drop",
            Callback<void,
                     const Ipv4Header&,
                     Ptr<const Packet>,
                     Ipv4L3Protocol::DropReason,
                     Ptr<Ipv4>,
                     uint32_t>([&](const Ipv4Header&,
                                   Ptr<const Packet> p,
                                   Ipv4L3Protocol::DropReason,
                                   Ptr<Ipv4>,
                                   uint32_t) {
                ++reports;
                uids.insert({p->GetUid(), Simulator::Now().GetTimeStep()});
            }));
        MoseRoutingProtocol::Find(node)->TraceConnectWithoutContext(
            "NoRouteDrop",
            Callback<void, const Ipv4Header&, Ptr<const Packet>>(
                [&](const Ipv4Header&, Ptr<const Packet> p) {
                    ++reports;
                    uids.insert({p->GetUid(), Simulator::Now().GetTimeStep()});
                }));
    }
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
    sink.Install(topo->GetGroupNode(dst));
    BulkSendHelper sender("ns3::TcpSocketFactory",
                          InetSocketAddress(topo->GetGroupAddress(dst), 9));
    sender.SetAttribute("MaxBytes", UintegerValue(20000000));
    sender.Install(topo->GetGroupNode(0)).Start(MilliSeconds(1));
    // at 1.2 ms the destination loses every circuit and the routes follow: no route to it
    Simulator::Schedule(MicroSeconds(1200), [&]() {
        std::vector<uint32_t> peers = topo->GetPortPlan().GetPeers();
        for (uint32_t p = 0; p < d; ++p)
        {
            topo->GetOcs()->Disconnect(dst, p);
            const uint32_t peer = peers[dst * d + p];
            peers[peer] = MoseRouteTable::NONE;
            peers[dst * d + p] = MoseRouteTable::NONE;
        }
        topo->GetRouteTable()->Update(peers);
    });
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    EXPECT_GT(loss->GetDrops(MoseLossMonitor::NO_ROUTE), 0u);
    EXPECT_GT(reports, uids.size()) << "the same segments were reported by both traces";
    EXPECT_EQ(loss->GetTotal(), uids.size());
    EXPECT_EQ(loss->GetDrops(MoseLossMonitor::IPV4), 0u);
    EXPECT_GT(loss->GetIpv4Drops(Ipv4L3Protocol::DROP_NO_ROUTE), 0u);
    Simulator::Destroy();
}

TEST(PacketFabric, AConnectionOpenedWithoutRouteIsLostAndRetriedNotForgotten)
{
    // Without the hold queue, a TCP connection opened while its destination has no route (a
    // switch's blackout): TCP's Connect() asks for a route without a packet. Answered "no
    // route", the Connect() failed for good with no packet sent: the transfer never started and
    // no drop point counted anything. Now the SYN goes out, is dropped and counted (no route),
    // and its retransmission after the route is back opens the connection.
    SmallScenario s;
    Ptr<MoseTopologyHelper> topo = BuildFabric(s, RoutingRule::SHORTEST_PATH, 1);
    const uint32_t d = topo->GetNPorts();
    const uint32_t dst = 5;
    Ptr<MoseLossMonitor> loss = CreateObject<MoseLossMonitor>();
    loss->Install(topo->GetGroupNodes(), topo->GetOcs());
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 9));
    Ptr<PacketSink> sink =
        DynamicCast<PacketSink>(sinkHelper.Install(topo->GetGroupNode(dst)).Get(0));
    BulkSendHelper sender("ns3::TcpSocketFactory",
                          InetSocketAddress(topo->GetGroupAddress(dst), 9));
    sender.SetAttribute("MaxBytes", UintegerValue(100000));
    sender.Install(topo->GetGroupNode(0)).Start(MilliSeconds(1));
    const std::vector<uint32_t> before = topo->GetPortPlan().GetPeers();
    // from 0.5 ms to 50 ms the destination has no circuit and no route
    Simulator::Schedule(MicroSeconds(500), [&]() {
        std::vector<uint32_t> peers = before;
        for (uint32_t p = 0; p < d; ++p)
        {
            topo->GetOcs()->Disconnect(dst, p);
            peers[peers[dst * d + p]] = MoseRouteTable::NONE;
            peers[dst * d + p] = MoseRouteTable::NONE;
        }
        topo->GetRouteTable()->Update(peers);
    });
    Simulator::Schedule(MilliSeconds(50), [&]() {
        for (uint32_t p = 0; p < d; ++p)
        {
            const uint32_t peer = before[dst * d + p];
            topo->GetOcs()->Connect(dst, p, peer / d, peer % d);
        }
        topo->GetRouteTable()->Update(before);
    });
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    EXPECT_EQ(sink->GetTotalRx(), 100000u);
    EXPECT_GE(loss->GetDrops(MoseLossMonitor::NO_ROUTE), 1u); // the first SYN at least
    EXPECT_EQ(loss->GetTotal(), loss->GetDrops(MoseLossMonitor::NO_ROUTE));
    Simulator::Destroy();
}

TEST(PacketFabric, OneProcessPartitionPutsEveryNodeOnRankZero)
{
    SmallScenario s;
    Ptr<MoseTopologyHelper> topo = BuildFabric(s, RoutingRule::SHORTEST_PATH, 0, 1);
    EXPECT_EQ(topo->GetNRanks(), 1u);
    EXPECT_EQ(topo->GetNCircuitsCut(), 0u);
    for (uint32_t g = 0; g < topo->GetNGroups(); ++g)
    {
        EXPECT_EQ(topo->GetGroupRank(g), 0u);
        EXPECT_EQ(topo->GetGroupNode(g)->GetSystemId(), 0u);
        EXPECT_EQ(topo->GetHosts(g).Get(0)->GetSystemId(), 0u);
    }
    // without MPI (or on one rank) there is nothing to prepare: the run is one process
    EXPECT_EQ(topo->PrepareDistributedRun(), Time(0));
    EXPECT_EQ(MoseOcsChannel::GetDistributedLookAhead(), Time(0));
    ExpectErrorContaining([&] { topo->GetGroupRank(32); }, "group 32 is out of range");
    Simulator::Destroy();
}

TEST(PacketFabric, PartitionErrorsNameTheAttributeAndWhatIsAllowed)
{
    SmallScenario s;
    const auto install = [&s](const std::string& name, const AttributeValue& value) {
        Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
        topo->SetAttribute("Groups", UintegerValue(s.graph.GetNNodes()));
        topo->SetAttribute("PortsPerGroup", UintegerValue(4));
        topo->SetRoles(s.roles);
        topo->SetCircuitGraph(s.graph);
        topo->SetAttribute(name, value);
        topo->Install();
        Simulator::Destroy();
    };
    // one process has one rank
    ExpectErrorContaining([&] { install("Ranks", UintegerValue(2)); },
                          "MoseTopologyHelper::Ranks = 2: this run has 1 rank(s)");
    ExpectErrorContaining([&] { install("Partition", StringValue("0,0,0")); },
                          "MoseTopologyHelper::Partition = \"0,0,0\" has 3 entries; allowed: one "
                          "rank per group, Groups = 32");
    ExpectErrorContaining([&] { install("Partition", StringValue(std::string(63, ',') + "1")); },
                          "is not a rank; allowed: N comma-separated ranks 0..0 (Ranks = 1)");
    // an explicit partition onto the one rank is the default fabric
    std::string zeros = "0";
    for (int g = 1; g < 32; ++g)
    {
        zeros += ",0";
    }
    EXPECT_NO_THROW(install("Partition", StringValue(zeros)));
}
