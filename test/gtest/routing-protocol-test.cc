/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The packet-level routing: MoseAddressing, MoseRouteTable, MoseRoutingProtocol and
 * MoseRoutingHelper on real ns-3 nodes and point-to-point links.
 */

#include "../mose-routing-test-util.h"

#include "ns3/boolean.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/mose-error.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <set>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;
using ns3::mose::test::RoutingFabric;

namespace
{

/// \return true if f throws a mose::Error whose message contains every text
template <class F>
bool
ThrowsWith(F f, std::initializer_list<std::string> texts)
{
    try
    {
        f();
    }
    catch (const Error& e)
    {
        const std::string what = e.what();
        for (const std::string& t : texts)
        {
            if (what.find(t) == std::string::npos)
            {
                ADD_FAILURE() << "message \"" << what << "\" lacks \"" << t << "\"";
                return false;
            }
        }
        return true;
    }
    return false;
}

/// Records the nodes each packet (by uid) passes: source, forwarders, destination
struct PathRecorder
{
    std::map<uint64_t, std::vector<uint32_t>> paths; //!< uid -> nodes
    std::map<uint64_t, uint32_t> delivered;          //!< uid -> node that delivered it locally
    uint64_t drops{0};                               //!< Ipv4L3Protocol drops

    /// Trace sink for SendOutgoing and UnicastForward
    static void Hop(PathRecorder* r,
                    uint32_t node,
                    const Ipv4Header& /* h */,
                    Ptr<const Packet> p,
                    uint32_t /* interface */)
    {
        r->paths[p->GetUid()].push_back(node);
    }

    /// Trace sink for LocalDeliver
    static void Deliver(PathRecorder* r,
                        uint32_t node,
                        const Ipv4Header& /* h */,
                        Ptr<const Packet> p,
                        uint32_t /* interface */)
    {
        r->paths[p->GetUid()].push_back(node);
        r->delivered[p->GetUid()] = node;
    }

    /// Trace sink for Drop
    static void Drop(PathRecorder* r,
                     const Ipv4Header& /* h */,
                     Ptr<const Packet> /* p */,
                     Ipv4L3Protocol::DropReason /* reason */,
                     Ptr<Ipv4> /* ipv4 */,
                     uint32_t /* interface */)
    {
        ++r->drops;
    }

    /// Hooks every node of the fabric
    void Connect(const RoutingFabric& f)
    {
        for (uint32_t g = 0; g < f.n; ++g)
        {
            Ptr<Ipv4L3Protocol> ip = f.nodes.Get(g)->GetObject<Ipv4L3Protocol>();
            ip->TraceConnectWithoutContext("SendOutgoing", MakeBoundCallback(&Hop, this, g));
            ip->TraceConnectWithoutContext("UnicastForward", MakeBoundCallback(&Hop, this, g));
            ip->TraceConnectWithoutContext("LocalDeliver", MakeBoundCallback(&Deliver, this, g));
            ip->TraceConnectWithoutContext("Drop", MakeBoundCallback(&Drop, this));
        }
    }
};

/// Opens a UDP socket on every node, bound to port 9, that discards what it gets
std::vector<Ptr<Socket>>
OpenSinks(const RoutingFabric& f)
{
    std::vector<Ptr<Socket>> sinks;
    for (uint32_t g = 0; g < f.n; ++g)
    {
        Ptr<Socket> s = Socket::CreateSocket(f.nodes.Get(g), UdpSocketFactory::GetTypeId());
        s->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        sinks.push_back(s);
    }
    return sinks;
}

/// Sends one 64-byte datagram
void
SendOne(Ptr<Socket> socket, Ipv4Address to)
{
    socket->SendTo(Create<Packet>(64), 0, InetSocketAddress(to, 9));
}

/// Counts a packet (queue drop sink)
void
CountPacket(uint64_t* counter, Ptr<const Packet> /* p */)
{
    ++*counter;
}

} // namespace

TEST(MoseAddressing, BlocksPortsHostsAndLookup)
{
    MoseAddressing a(1024, 4, 10);
    EXPECT_EQ(a.GetBlockSize(), 256U);
    EXPECT_EQ(a.GetMaxHosts(), 250U);
    EXPECT_EQ(a.GetGroupBlock(0), Ipv4Address("10.0.0.0"));
    EXPECT_EQ(a.GetGroupBlock(257), Ipv4Address("10.1.1.0"));
    EXPECT_EQ(a.GetPortAddress(3, 2), Ipv4Address("10.0.3.3"));
    EXPECT_EQ(a.GetHostAddress(3, 0), Ipv4Address("10.0.3.5"));
    EXPECT_EQ(a.GetGroupOf(Ipv4Address("10.3.255.7")), 1023U);
    EXPECT_EQ(a.GetGroupOf(Ipv4Address("10.4.0.1")), MoseAddressing::NONE);
    EXPECT_EQ(a.GetGroupOf(Ipv4Address("9.255.255.255")), MoseAddressing::NONE);
    EXPECT_EQ(a.GetPortOf(Ipv4Address("10.0.3.3")), 2U);
    EXPECT_EQ(a.GetPortOf(Ipv4Address("10.0.3.5")), MoseAddressing::NONE);
    EXPECT_EQ(a.GetHostOf(Ipv4Address("10.0.3.14")), 9U);
    EXPECT_EQ(a.GetHostOf(Ipv4Address("10.0.3.15")), MoseAddressing::NONE);
    EXPECT_TRUE(a.IsBlockBroadcast(Ipv4Address("10.0.3.255")));
    EXPECT_FALSE(a.IsBlockBroadcast(Ipv4Address("10.0.3.254")));
    for (uint32_t g = 0; g < 1024; g += 97)
    {
        for (uint32_t p = 0; p < 4; ++p)
        {
            EXPECT_EQ(a.GetGroupOf(a.GetPortAddress(g, p)), g);
        }
    }
    MoseAddressing b(4096, 4, 0, Ipv4Address("172.16.0.0"), 26);
    EXPECT_EQ(b.GetGroupOf(b.GetPortAddress(4095, 3)), 4095U);
}

TEST(MoseAddressing, BadPlansNameTheValue)
{
    EXPECT_TRUE(ThrowsWith([] { MoseAddressing(1024, 4, 0, Ipv4Address("10.255.0.0")); },
                           {"10.255.0.0", "room for 256 groups", "N=1024"}));
    EXPECT_TRUE(ThrowsWith([] { MoseAddressing(4, 4, 251); }, {"4 + 251", "254"}));
    EXPECT_TRUE(ThrowsWith([] { MoseAddressing(4, 4, 0, Ipv4Address("10.0.0.7")); },
                           {"10.0.0.7", "multiple"}));
    EXPECT_TRUE(
        ThrowsWith([] { MoseAddressing(4, 4, 0, Ipv4Address("127.0.0.0")); }, {"127.0.0.0"}));
    EXPECT_TRUE(ThrowsWith([] { MoseAddressing(4, 4, 0, Ipv4Address("10.0.0.0"), 31); },
                           {"prefixLength = 31"}));
    EXPECT_TRUE(ThrowsWith([] { MoseAddressing(4, 4).GetPortAddress(4, 0); }, {"group = 4"}));
    EXPECT_TRUE(ThrowsWith([] { MoseAddressing(4, 4).GetPortAddress(0, 4); }, {"port = 4"}));
}

TEST(MoseRouteTable, BadPeersNameTheValue)
{
    auto table = CreateObject<MoseRouteTable>();
    EXPECT_TRUE(
        ThrowsWith([&] { table->Update(std::vector<uint32_t>(16, 0)); }, {"SetAddressing"}));
    table->SetAddressing(MoseAddressing(4, 2));
    EXPECT_TRUE(ThrowsWith([&] { table->Update(std::vector<uint32_t>(7, MoseRouteTable::NONE)); },
                           {"peers.size() = 7", "8"}));
    std::vector<uint32_t> ring = {7, 2, 1, 4, 3, 6, 5, 0}; // ring 0-1-2-3-0
    table->Update(ring);
    EXPECT_EQ(table->GetNextHop(0, 2).group, 1U);
    std::vector<uint32_t> bad = ring;
    bad[2] = 9;
    EXPECT_TRUE(ThrowsWith([&] { table->Update(bad); }, {"peers[2] = 9"}));
    bad = ring;
    bad[2] = 5; // 5 is paired with 6
    EXPECT_TRUE(
        ThrowsWith([&] { table->Update(bad); }, {"peers[1] = 2", "peers[2] is 5", "symmetric"}));
    bad = ring;
    bad[3] = 3;
    EXPECT_TRUE(ThrowsWith([&] { table->Update(bad); }, {"peers[3] = 3"}));
    // the failed updates left the routes in place
    EXPECT_EQ(table->GetNextHop(0, 2).group, 1U);
    EXPECT_EQ(table->GetVersion(), 1U);
}

TEST(MoseRouteTable, MakePeersMatchesUpdateFromGraph)
{
    Random rng = Random::Create(3, Stream::UNIFORM);
    CircuitGraph g = BuildUniformTemplate(40, 4, rng);
    auto a = CreateObject<MoseRouteTable>();
    a->SetAddressing(MoseAddressing(40, 4));
    a->Update(MoseRouteTable::MakePeers(g, 4));
    EXPECT_EQ(a->GetGraph()->GetCircuits(), g.GetCircuits());
    auto b = CreateObject<MoseRouteTable>();
    b->SetAddressing(MoseAddressing(40, 4));
    b->Update(g, a->GetCircuitPorts());
    EXPECT_EQ(a->GetPeers(), b->GetPeers());
}

/// Under both single-path rules, every ordered pair's table walk is the flow level's path
TEST(MoseRoutingProtocol, TableWalkEqualsFlowLevelPathForEveryPair)
{
    for (RoutingRule rule : {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH})
    {
        RoutingFabric f;
        f.Build(48, 4, 5, rule, 12345);
        ShortestPathRouting flow(*f.graph, rule, 12345);
        uint32_t mismatches = 0;
        for (uint32_t s = 0; s < f.n; ++s)
        {
            for (uint32_t t = 0; t < f.n; ++t)
            {
                if (s != t && f.Walk(s, t) != flow.GetPath(s, t))
                {
                    ++mismatches;
                }
            }
        }
        EXPECT_EQ(mismatches, 0U) << ToString(rule);
        Simulator::Destroy();
    }
}

/// Real UDP datagrams cross exactly the flow-level path (a sample of pairs, both rules)
TEST(MoseRoutingProtocol, UdpPacketsFollowFlowLevelPath)
{
    for (RoutingRule rule : {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH})
    {
        RoutingFabric f;
        f.Build(40, 4, 7, rule, 99);
        ShortestPathRouting flow(*f.graph, rule, 99);
        PathRecorder rec;
        rec.Connect(f);
        auto sinks = OpenSinks(f);
        std::vector<std::pair<uint32_t, uint32_t>> pairs;
        Random pick = Random::Create(1, 4242);
        for (uint32_t k = 0; k < 60; ++k)
        {
            const uint32_t s = pick.Index(f.n);
            const uint32_t t = (s + 1 + pick.Index(f.n - 1)) % f.n;
            pairs.emplace_back(s, t);
            // each datagram alone in the fabric: its uid is the next one after the previous
            Simulator::Schedule(MilliSeconds(k + 1), &SendOne, sinks[s], f.Address(t));
        }
        Simulator::Run();
        ASSERT_EQ(rec.paths.size(), pairs.size());
        std::size_t k = 0;
        for (const auto& [uid, path] : rec.paths) // uids increase with the send order
        {
            const auto [s, t] = pairs[k++];
            EXPECT_EQ(path, flow.GetPath(s, t)) << ToString(rule) << " " << s << " -> " << t;
            EXPECT_EQ(rec.delivered.count(uid), 1U);
        }
        EXPECT_EQ(rec.drops, 0U);
        Simulator::Destroy();
    }
}

/// ECMP: each choice is one step closer, a 5-tuple keeps its path, flows spread
TEST(MoseRoutingProtocol, EcmpIsCloserStickyAndSpreads)
{
    RoutingFabric f;
    f.Build(48, 4, 11, RoutingRule::ECMP, 0);
    ShortestPathRouting flow(*f.graph, RoutingRule::SHORTEST_PATH);
    // table level, every pair and 16 flows
    uint32_t notCloser = 0;
    uint32_t notSticky = 0;
    uint32_t spreadPairs = 0;
    uint32_t multiPairs = 0;
    DestinationTree tree;
    for (uint32_t t = 0; t < f.n; ++t)
    {
        flow.ComputeTree(t, tree);
        for (uint32_t s = 0; s < f.n; ++s)
        {
            if (s == t)
            {
                continue;
            }
            EXPECT_EQ(f.table->GetDistance(s, t), tree.distance[s]);
            std::set<std::vector<uint32_t>> paths;
            for (uint16_t port = 0; port < 16; ++port)
            {
                MoseRouteTable::FlowKey key{f.Address(s).Get(), f.Address(t).Get(), 17, port, 9};
                const uint64_t h = MoseRouteTable::HashFlow(key);
                std::vector<uint32_t> path = f.Walk(s, t, h);
                notSticky += (path == f.Walk(s, t, h)) ? 0 : 1;
                for (std::size_t i = 0; i + 1 < path.size(); ++i)
                {
                    notCloser += (tree.distance[path[i + 1]] + 1 == tree.distance[path[i]]) ? 0 : 1;
                }
                notCloser += (path.size() == tree.distance[s] + 1) ? 0 : 1;
                paths.insert(path);
            }
            if (f.table->GetCloserPorts(s, t).size() > 1)
            {
                ++multiPairs;
                spreadPairs += paths.size() > 1 ? 1 : 0;
            }
        }
    }
    EXPECT_EQ(notCloser, 0U);
    EXPECT_EQ(notSticky, 0U);
    EXPECT_GT(multiPairs, 100U);
    EXPECT_EQ(spreadPairs, multiPairs); // 16 flows never all pick the same of >= 2 ports

    // packet level: 24 UDP flows (distinct source ports), 3 datagrams each, from s to a far t
    // whose every shortest path splits again after the first hop
    DestinationTree counts;
    ShortestPathRouting random(*f.graph, RoutingRule::RANDOM_SHORTEST_PATH);
    uint32_t s = 0;
    uint32_t t = 0;
    double best = 0;
    for (uint32_t cand = 0; cand < f.n; ++cand)
    {
        random.ComputeTree(cand, counts);
        for (uint32_t src = 0; src < f.n; ++src)
        {
            if (counts.distance[src] < 3 || counts.distance[src] == DestinationTree::UNREACHABLE)
            {
                continue;
            }
            double fewest = 1e300; // fewest shortest paths left after any first hop
            for (uint32_t port : f.table->GetCloserPorts(src, cand))
            {
                const uint32_t v = f.peers[static_cast<std::size_t>(src) * f.d + port] / f.d;
                fewest = std::min(fewest, counts.pathCount[v]);
            }
            if (fewest > best)
            {
                best = fewest;
                s = src;
                t = cand;
            }
        }
    }
    ASSERT_GE(best, 2.0) << "no pair whose paths split after the first hop";
    PathRecorder rec;
    rec.Connect(f);
    auto sinks = OpenSinks(f);
    std::vector<Ptr<Socket>> flows;
    for (uint16_t k = 0; k < 24; ++k)
    {
        Ptr<Socket> sock = Socket::CreateSocket(f.nodes.Get(s), UdpSocketFactory::GetTypeId());
        sock->Bind(InetSocketAddress(Ipv4Address::GetAny(), 20000 + k));
        flows.push_back(sock);
        for (uint32_t rep = 0; rep < 3; ++rep)
        {
            Simulator::Schedule(MilliSeconds(1 + rep * 24 + k), &SendOne, sock, f.Address(t));
        }
    }
    Simulator::Run();
    ASSERT_EQ(rec.paths.size(), 72U);
    std::vector<std::vector<uint32_t>> byOrder;
    for (const auto& [uid, path] : rec.paths)
    {
        byOrder.push_back(path);
        EXPECT_EQ(path.back(), t);
    }
    std::set<std::vector<uint32_t>> distinct;
    for (uint32_t k = 0; k < 24; ++k)
    {
        EXPECT_EQ(byOrder[k], byOrder[24 + k]) << "flow " << k << " changed path";
        EXPECT_EQ(byOrder[k], byOrder[48 + k]) << "flow " << k << " changed path";
        distinct.insert(byOrder[k]);
        flow.ComputeTree(t, tree);
        for (std::size_t i = 0; i + 1 < byOrder[k].size(); ++i)
        {
            EXPECT_EQ(tree.distance[byOrder[k][i + 1]] + 1, tree.distance[byOrder[k][i]]);
        }
    }
    EXPECT_GT(distinct.size(), 1U);
    EXPECT_EQ(rec.drops, 0U);
    Simulator::Destroy();
}

TEST(MoseRoutingProtocol, PrintRoutingTableShowsNextHop)
{
    RoutingFabric f;
    f.Build(32, 4, 2, RoutingRule::SHORTEST_PATH, 0);
    const uint32_t node = 5;
    Ptr<MoseRoutingProtocol> proto = MoseRoutingHelper::GetRouting(f.nodes.Get(node));
    std::ostringstream os;
    proto->PrintRoutingTable(Create<OutputStreamWrapper>(&os));
    const std::string text = os.str();
    EXPECT_NE(text.find("group 5, rule shortest-path"), std::string::npos) << text;
    std::istringstream lines(text);
    std::string line;
    uint32_t checked = 0;
    while (std::getline(lines, line))
    {
        std::istringstream fields(line);
        std::string block;
        uint32_t t;
        std::string hop;
        std::string port;
        std::string iface;
        std::string distance;
        if (!(fields >> block >> t >> hop >> port >> iface >> distance) || block[0] != '1')
        {
            continue;
        }
        ++checked;
        const auto expectedBlock = f.table->GetAddressing().GetGroupBlock(t);
        std::ostringstream b;
        expectedBlock.Print(b);
        EXPECT_EQ(block, b.str() + "/24");
        if (t == node)
        {
            EXPECT_EQ(hop, "local");
            continue;
        }
        const auto next = f.table->GetNextHop(node, t);
        EXPECT_EQ(hop, std::to_string(next.group));
        EXPECT_EQ(port, std::to_string(next.port));
        EXPECT_EQ(iface, std::to_string(proto->GetPortInterface(next.port)));
        EXPECT_EQ(distance, std::to_string(f.table->GetDistance(node, t)));
    }
    EXPECT_EQ(checked, 32U);
    Simulator::Destroy();
}

TEST(MoseRoutingProtocol, TcpBulkTransferCompletesWithoutDrops)
{
    for (RoutingRule rule : {RoutingRule::RANDOM_SHORTEST_PATH, RoutingRule::ECMP})
    {
        RoutingFabric f;
        f.Build(32, 4, 9, rule, 7);
        uint32_t t = 1;
        while (f.table->GetDistance(0, t) < 3)
        {
            ++t;
        }
        PathRecorder rec;
        rec.Connect(f);
        uint64_t queueDrops = 0;
        for (uint32_t g = 0; g < f.n; ++g)
        {
            for (uint32_t p = 0; p < f.d; ++p)
            {
                auto dev = DynamicCast<PointToPointNetDevice>(f.ports[g].Get(p));
                dev->GetQueue()->TraceConnectWithoutContext(
                    "Drop",
                    MakeBoundCallback(&CountPacket, &queueDrops));
                dev->TraceConnectWithoutContext("MacTxDrop",
                                                MakeBoundCallback(&CountPacket, &queueDrops));
                dev->TraceConnectWithoutContext("PhyRxDrop",
                                                MakeBoundCallback(&CountPacket, &queueDrops));
            }
        }
        const uint64_t bytes = 2000000;
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(f.Address(t), 5000));
        bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
        bulk.Install(f.nodes.Get(0)).Start(MilliSeconds(1));
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 5000));
        ApplicationContainer sink = sinkHelper.Install(f.nodes.Get(t));
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        EXPECT_EQ(DynamicCast<PacketSink>(sink.Get(0))->GetTotalRx(), bytes) << ToString(rule);
        EXPECT_EQ(rec.drops, 0U);
        EXPECT_EQ(queueDrops, 0U);
        uint64_t noRoute = 0;
        for (uint32_t g = 0; g < f.n; ++g)
        {
            noRoute += MoseRoutingHelper::GetRouting(f.nodes.Get(g))->GetNoRouteDrops();
        }
        EXPECT_EQ(noRoute, 0U);
        Simulator::Destroy();
    }
}

/// A disconnected graph: the sender's refusal and a transit node's refusal are counted
TEST(MoseRoutingProtocol, UnreachableDestinationIsCountedDrop)
{
    RoutingFabric f;
    f.Build(32, 4, 4, RoutingRule::SHORTEST_PATH, 0, 2);
    // darken every port of group 0: it is cut off (its devices stay wired, the routes do not)
    std::vector<uint32_t> peers = f.peers;
    for (uint32_t p = 0; p < f.d; ++p)
    {
        const uint32_t peer = peers[p];
        peers[peer] = MoseRouteTable::NONE;
        peers[p] = MoseRouteTable::NONE;
    }
    uint64_t traced = 0;
    f.table->Update(peers);
    EXPECT_EQ(f.table->GetOutputPort(1, 0), MoseRouteTable::NONE);
    EXPECT_EQ(f.table->GetDistance(1, 0), MoseRouteTable::NONE);
    for (uint32_t g = 0; g < f.n; ++g)
    {
        MoseRoutingHelper::GetRouting(f.nodes.Get(g))
            ->TraceConnectWithoutContext(
                "NoRouteDrop",
                MakeBoundCallback(
                    +[](uint64_t* c, const Ipv4Header&, Ptr<const Packet>) { ++*c; },
                    &traced));
    }
    PathRecorder rec;
    rec.Connect(f);
    auto sinks = OpenSinks(f);
    // 1 -> 0: refused at the source (RouteOutput)
    Simulator::Schedule(MilliSeconds(1), &SendOne, sinks[1], f.Address(0));
    // 1 -> an unregistered host address behind group 5: forwarded to 5, refused there
    const Ipv4Address host = f.table->GetAddressing().GetHostAddress(5, 1);
    Simulator::Schedule(MilliSeconds(2), &SendOne, sinks[1], host);
    // 1 -> 5's registered host 0 via its port-0 interface: forwarded onto that link
    MoseRoutingHelper::GetRouting(f.nodes.Get(5))
        ->AddHostRoute(f.table->GetAddressing().GetHostAddress(5, 0), 1);
    Simulator::Run();
    EXPECT_EQ(MoseRoutingHelper::GetRouting(f.nodes.Get(1))->GetNoRouteDrops(), 1U);
    EXPECT_EQ(MoseRoutingHelper::GetRouting(f.nodes.Get(5))->GetNoRouteDrops(), 1U);
    EXPECT_EQ(traced, 2U);
    EXPECT_EQ(rec.drops, 1U); // Ipv4L3Protocol's DROP_ROUTE_ERROR at group 5
    EXPECT_EQ(sinks[1]->GetErrno(), Socket::ERROR_NOROUTETOHOST);
    Simulator::Destroy();
}

TEST(MoseRoutingProtocol, BadPortMapAndGroupNameTheValue)
{
    RoutingFabric f;
    f.Build(32, 4, 1, RoutingRule::SHORTEST_PATH, 0);
    Ptr<MoseRoutingProtocol> proto = MoseRoutingHelper::GetRouting(f.nodes.Get(0));
    EXPECT_TRUE(ThrowsWith(
        [&] {
            MoseRoutingHelper::SetPortInterfaces(f.nodes.Get(0), {{7, 1}});
        },
        {"port = 7", "d = 4"}));
    EXPECT_TRUE(ThrowsWith([&] { proto->SetPortInterface(1, 42); }, {"interface = 42"}));
    EXPECT_TRUE(ThrowsWith([&] { proto->SetGroup(32); }, {"group = 32"}));
    EXPECT_TRUE(
        ThrowsWith([&] { proto->AddHostRoute(Ipv4Address("10.0.1.9"), 1); }, {"host = 10.0.1.9"}));
    EXPECT_TRUE(ThrowsWith([&] { f.table->Update(std::vector<uint32_t>(5, 0)); },
                           {"peers.size() = 5", "128"}));
    Ptr<Node> bare = CreateObject<Node>();
    EXPECT_TRUE(
        ThrowsWith([&] { MoseRoutingHelper::GetRouting(bare); }, {"no MoseRoutingProtocol"}));
    Simulator::Destroy();
}

TEST(MoseRouteTable, RuleAndSeedAttributesAndTrace)
{
    Random rng = Random::Create(8, Stream::UNIFORM);
    CircuitGraph g = BuildUniformTemplate(64, 4, rng);
    auto table = CreateObject<MoseRouteTable>();
    table->SetAddressing(MoseAddressing(64, 4));
    table->SetAttribute("Rule", StringValue("random-shortest-path"));
    table->SetAttribute("Seed", UintegerValue(77));
    uint32_t fired = 0;
    table->TraceConnectWithoutContext("RoutesRecomputed",
                                      MakeBoundCallback(
                                          +[](uint32_t* c, Time d, uint32_t n) {
                                              ++*c;
                                              EXPECT_EQ(n, 64U);
                                              EXPECT_GE(d, Time(0));
                                          },
                                          &fired));
    table->Update(MoseRouteTable::MakePeers(g, 4));
    EXPECT_EQ(table->GetActiveRule(), RoutingRule::RANDOM_SHORTEST_PATH);
    EXPECT_EQ(table->GetSeed(), 77U);
    table->SetAttribute("Rule", EnumValue(MoseRouteTable::ECMP));
    EXPECT_EQ(table->GetActiveRule(), RoutingRule::RANDOM_SHORTEST_PATH); // until Recompute()
    table->Recompute();
    EXPECT_EQ(table->GetActiveRule(), RoutingRule::ECMP);
    EXPECT_EQ(fired, 2U);
    EXPECT_EQ(table->GetVersion(), 2U);
}

/// At the paper's scale, every node's port towards a sample of destinations is the one of the
/// flow level's tree (ComputeTree(), which GetPath() follows), for all three rules' tables
TEST(MoseRouteTable, PaperScaleTablesEqualFlowLevelTrees)
{
    Random rng = Random::Create(2, Stream::UNIFORM);
    CircuitGraph g = BuildUniformTemplate(1024, 4, rng);
    std::vector<uint32_t> peers = MoseRouteTable::MakePeers(g, 4);
    for (RoutingRule rule :
         {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH, RoutingRule::ECMP})
    {
        for (uint64_t seed : {uint64_t{1}, uint64_t{0xDEADBEEF}})
        {
            auto table = CreateObject<MoseRouteTable>();
            table->SetAddressing(MoseAddressing(1024, 4));
            table->SetRule(rule);
            table->SetSeed(seed);
            table->Update(peers);
            ShortestPathRouting flow(*table->GetGraph(), rule, seed);
            DestinationTree tree;
            uint32_t wrong = 0;
            for (uint32_t t = 3; t < 1024; t += 37)
            {
                flow.ComputeTree(t, tree);
                for (uint32_t u = 0; u < 1024; ++u)
                {
                    wrong += table->GetDistance(u, t) == tree.distance[u] ? 0 : 1;
                    if (u != t)
                    {
                        const auto hop = table->GetNextHop(u, t);
                        wrong += hop.group == tree.nextHop[u] ? 0 : 1;
                        // the port is the circuit's end at u
                        const auto& c = table->GetGraph()->GetCircuits()[tree.nextCircuit[u]];
                        const auto& ends = table->GetCircuitPorts()[tree.nextCircuit[u]];
                        wrong += hop.port == (c.u == u ? ends.first : ends.second) ? 0 : 1;
                    }
                }
            }
            EXPECT_EQ(wrong, 0U) << ToString(rule) << " seed " << seed;
        }
    }
}

namespace
{

/// Cuts group 0 off (every port dark) in a copy of the fabric's peers
std::vector<uint32_t>
Isolate0(const RoutingFabric& f)
{
    std::vector<uint32_t> peers = f.peers;
    for (uint32_t p = 0; p < f.d; ++p)
    {
        peers[peers[p]] = MoseRouteTable::NONE;
        peers[p] = MoseRouteTable::NONE;
    }
    return peers;
}

/// Sets the hold-queue attributes on every node's protocol
void
EnableHold(const RoutingFabric& f, uint32_t size, Time time)
{
    for (uint32_t g = 0; g < f.n; ++g)
    {
        Ptr<MoseRoutingProtocol> r = MoseRoutingHelper::GetRouting(f.nodes.Get(g));
        r->SetAttribute("HoldPackets", BooleanValue(true));
        r->SetAttribute("HoldQueueSize", UintegerValue(size));
        r->SetAttribute("HoldTime", TimeValue(time));
    }
}

/// Total NoRouteDrop count over the fabric
uint64_t
NoRouteDrops(const RoutingFabric& f)
{
    uint64_t total = 0;
    for (uint32_t g = 0; g < f.n; ++g)
    {
        total += MoseRoutingHelper::GetRouting(f.nodes.Get(g))->GetNoRouteDrops();
    }
    return total;
}

/// Total HoldDrop count over the fabric
uint64_t
HoldDrops(const RoutingFabric& f)
{
    uint64_t total = 0;
    for (uint32_t g = 0; g < f.n; ++g)
    {
        total += MoseRoutingHelper::GetRouting(f.nodes.Get(g))->GetHoldDrops();
    }
    return total;
}

} // namespace

/// Held at the source while the destination is cut off, delivered once the routes return
TEST(MoseRoutingProtocol, HoldQueueDeliversAfterRoutesReturn)
{
    RoutingFabric f;
    f.Build(32, 4, 4, RoutingRule::SHORTEST_PATH, 0);
    EnableHold(f, 8, Seconds(1));
    f.table->Update(Isolate0(f));
    PathRecorder rec;
    rec.Connect(f);
    auto sinks = OpenSinks(f);
    for (uint32_t k = 0; k < 3; ++k)
    {
        Simulator::Schedule(MilliSeconds(1 + k), &SendOne, sinks[1], f.Address(0));
    }
    uint32_t heldAt5 = 0;
    Simulator::Schedule(MilliSeconds(5), [&] {
        heldAt5 = MoseRoutingHelper::GetRouting(f.nodes.Get(1))->GetHeldPackets();
        f.table->Update(f.peers);
    });
    Simulator::Run();
    EXPECT_EQ(heldAt5, 3U);
    EXPECT_EQ(MoseRoutingHelper::GetRouting(f.nodes.Get(1))->GetHeldPackets(), 0U);
    uint32_t delivered = 0;
    for (const auto& [uid, node] : rec.delivered)
    {
        delivered += node == 0 ? 1 : 0;
    }
    EXPECT_EQ(delivered, 3U);
    EXPECT_EQ(rec.drops, 0U);
    EXPECT_EQ(NoRouteDrops(f), 0U);
    Simulator::Destroy();
}

/// A held packet whose time is up, and the oldest one of a full queue, are counted drops
TEST(MoseRoutingProtocol, HoldQueueExpiresAndOverflows)
{
    RoutingFabric f;
    f.Build(32, 4, 4, RoutingRule::SHORTEST_PATH, 0);
    EnableHold(f, 2, MilliSeconds(10));
    f.table->Update(Isolate0(f));
    PathRecorder rec;
    rec.Connect(f);
    auto sinks = OpenSinks(f);
    for (uint32_t k = 0; k < 3; ++k)
    {
        Simulator::Schedule(MilliSeconds(1 + k), &SendOne, sinks[1], f.Address(0));
    }
    uint32_t heldAt5 = 0;
    uint64_t dropsAt5 = 0;
    Simulator::Schedule(MilliSeconds(5), [&] {
        heldAt5 = MoseRoutingHelper::GetRouting(f.nodes.Get(1))->GetHeldPackets();
        dropsAt5 = HoldDrops(f);
    });
    Simulator::Run();
    EXPECT_EQ(heldAt5, 2U);  // the queue holds two
    EXPECT_EQ(dropsAt5, 1U); // the oldest made room for the third
    EXPECT_EQ(HoldDrops(f), 3U);
    EXPECT_EQ(NoRouteDrops(f), 0U); // hold drops are their own drop point
    Ptr<MoseRoutingProtocol> r1 = MoseRoutingHelper::GetRouting(f.nodes.Get(1));
    EXPECT_EQ(r1->GetHoldEntered(), 3U);
    EXPECT_EQ(r1->GetLongestHold(), MilliSeconds(10));
    EXPECT_EQ(rec.drops, 3U); // Ipv4L3Protocol's DROP_ROUTE_ERROR for each
    EXPECT_TRUE(rec.delivered.empty());
    Simulator::Destroy();
}

/// TCP across an outage of the destination: with the hold queue the transfer completes and
/// nothing is dropped
TEST(MoseRoutingProtocol, TcpAcrossOutageWithHoldQueue)
{
    RoutingFabric f;
    f.Build(32, 4, 9, RoutingRule::ECMP, 0);
    EnableHold(f, 1000, Seconds(1));
    f.table->Update(Isolate0(f));
    PathRecorder rec;
    rec.Connect(f);
    const uint64_t bytes = 500000;
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(f.Address(0), 5000));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    bulk.Install(f.nodes.Get(5)).Start(MilliSeconds(1));
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 5000));
    ApplicationContainer sink = sinkHelper.Install(f.nodes.Get(0));
    uint32_t heldAt10 = 0;
    Simulator::Schedule(MilliSeconds(10), [&] {
        heldAt10 = MoseRoutingHelper::GetRouting(f.nodes.Get(5))->GetHeldPackets();
    });
    Simulator::Schedule(MilliSeconds(20), [&] { f.table->Update(f.peers); });
    Simulator::Stop(Seconds(5));
    Simulator::Run();
    EXPECT_EQ(heldAt10, 1U); // the SYN waits at the source
    EXPECT_EQ(DynamicCast<PacketSink>(sink.Get(0))->GetTotalRx(), bytes);
    EXPECT_EQ(rec.drops, 0U);
    EXPECT_EQ(NoRouteDrops(f), 0U);
    Simulator::Destroy();
}

/// A packet in transit whose route disappears waits at the transit node
TEST(MoseRoutingProtocol, HoldQueueHoldsPacketsInTransit)
{
    RoutingFabric f;
    f.Build(32, 4, 4, RoutingRule::SHORTEST_PATH, 0);
    EnableHold(f, 8, Seconds(1));
    uint32_t s = 1;
    while (f.table->GetDistance(s, 0) < 2)
    {
        ++s;
    }
    const uint32_t transit = f.table->GetNextHop(s, 0).group;
    PathRecorder rec;
    rec.Connect(f);
    auto sinks = OpenSinks(f);
    Simulator::Schedule(MilliSeconds(1), &SendOne, sinks[s], f.Address(0));
    // after the source forwarded it (transmission ~0.1 us), before it reaches the next hop (1 us)
    Simulator::Schedule(MilliSeconds(1) + NanoSeconds(500), [&] { f.table->Update(Isolate0(f)); });
    uint32_t heldAtTransit = 0;
    Simulator::Schedule(MilliSeconds(2), [&] {
        heldAtTransit = MoseRoutingHelper::GetRouting(f.nodes.Get(transit))->GetHeldPackets();
        f.table->Update(f.peers);
    });
    Simulator::Run();
    EXPECT_EQ(heldAtTransit, 1U);
    ASSERT_EQ(rec.delivered.size(), 1U);
    EXPECT_EQ(rec.delivered.begin()->second, 0U);
    EXPECT_EQ(rec.paths.begin()->second, f.Walk(s, 0));
    EXPECT_EQ(NoRouteDrops(f), 0U);
    EXPECT_EQ(rec.drops, 0U);
    Simulator::Destroy();
}
