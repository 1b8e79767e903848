/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ns-3 test cases of the packet-level routing (part of the suite "mose", see
 * mose-test-cases.h).
 */

#include "mose-routing-test-util.h"
#include "mose-test-cases.h"

#include "ns3/bulk-send-helper.h"
#include "ns3/inet-socket-address.h"
#include "ns3/mose-addressing.h"
#include "ns3/mose-error.h"
#include "ns3/mose-routing.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

using namespace ns3;
using namespace ns3::mose;

namespace
{

/**
 * \ingroup mose-tests
 * \brief The packet-level route table gives every ordered pair exactly the flow level's path,
 *        under both single-path rules (a 4-regular uniform template on 40 groups realised with
 *        point-to-point links).
 */
class MoseRouteTablePathTestCase : public TestCase
{
  public:
    MoseRouteTablePathTestCase()
        : TestCase("Packet-level next hops follow the flow-level path for every pair")
    {
    }

  private:
    void DoRun() override
    {
        for (RoutingRule rule : {RoutingRule::SHORTEST_PATH, RoutingRule::RANDOM_SHORTEST_PATH})
        {
            test::RoutingFabric f;
            f.Build(40, 4, 3, rule, 2026);
            ShortestPathRouting flow(*f.graph, rule, 2026);
            uint32_t mismatches = 0;
            for (uint32_t s = 0; s < f.n; ++s)
            {
                for (uint32_t t = 0; t < f.n; ++t)
                {
                    mismatches += (s != t && f.Walk(s, t) != flow.GetPath(s, t)) ? 1 : 0;
                }
            }
            NS_TEST_EXPECT_MSG_EQ(mismatches, 0U, "table walk = GetPath, " + ToString(rule));
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup mose-tests
 * \brief A TCP bulk transfer across three or more circuits completes, with no IPv4 drop and no
 *        NoRouteDrop, under ECMP.
 */
class MoseRoutingTcpTestCase : public TestCase
{
  public:
    MoseRoutingTcpTestCase()
        : TestCase("TCP bulk transfer over MoseRoutingProtocol completes without drops")
    {
    }

  private:
    /// counts Ipv4L3Protocol drops
    static void Drop(uint32_t* counter,
                     const Ipv4Header&,
                     Ptr<const Packet>,
                     Ipv4L3Protocol::DropReason,
                     Ptr<Ipv4>,
                     uint32_t)
    {
        ++*counter;
    }

    void DoRun() override
    {
        test::RoutingFabric f;
        f.Build(32, 4, 6, RoutingRule::ECMP, 0);
        uint32_t t = 1;
        while (f.table->GetDistance(0, t) < 3)
        {
            ++t;
        }
        uint32_t drops = 0;
        for (uint32_t g = 0; g < f.n; ++g)
        {
            f.nodes.Get(g)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "Drop",
                MakeBoundCallback(&Drop, &drops));
        }
        const uint64_t bytes = 1000000;
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(f.Address(t), 5000));
        bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
        bulk.Install(f.nodes.Get(0)).Start(MilliSeconds(1));
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 5000));
        ApplicationContainer sink = sinkHelper.Install(f.nodes.Get(t));
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<PacketSink>(sink.Get(0))->GetTotalRx(),
                              bytes,
                              "all bytes arrive");
        NS_TEST_EXPECT_MSG_EQ(drops, 0U, "no IPv4 drop");
        uint64_t noRoute = 0;
        for (uint32_t g = 0; g < f.n; ++g)
        {
            noRoute += MoseRoutingHelper::GetRouting(f.nodes.Get(g))->GetNoRouteDrops();
        }
        NS_TEST_EXPECT_MSG_EQ(noRoute, 0U, "no NoRouteDrop");
        Simulator::Destroy();
    }
};

/**
 * \ingroup mose-tests
 * \brief Bad packet-level configuration gets a mose::Error naming the value.
 */
class MoseRoutingBadInputTestCase : public TestCase
{
  public:
    MoseRoutingBadInputTestCase()
        : TestCase("Packet-level routing: bad input gets a mose::Error")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(
            test::Throws([] { MoseAddressing(1024, 4, 0, Ipv4Address("10.255.0.0")); },
                         "room for 256 groups"),
            true,
            "address base too high for N blocks");
        auto table = CreateObject<MoseRouteTable>();
        table->SetAddressing(MoseAddressing(8, 4));
        NS_TEST_EXPECT_MSG_EQ(
            test::Throws([&] { table->Update(std::vector<uint32_t>(31, 0)); }, "peers.size() = 31"),
            true,
            "peers vector of the wrong size");
        test::RoutingFabric f;
        f.Build(16, 4, 1, RoutingRule::SHORTEST_PATH, 0);
        NS_TEST_EXPECT_MSG_EQ(
            test::Throws(
                [&] {
                    MoseRoutingHelper::SetPortInterfaces(f.nodes.Get(0), {{4, 1}});
                },
                "port = 4"),
            true,
            "port out of range in the port -> interface map");
        Simulator::Destroy();
    }
};

} // namespace

std::vector<TestCase*>
ns3::mose::test::RoutingTestCases()
{
    return {new MoseRouteTablePathTestCase,
            new MoseRoutingTcpTestCase,
            new MoseRoutingBadInputTestCase};
}
