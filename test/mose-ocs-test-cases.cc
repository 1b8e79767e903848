/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ns-3 test cases of the optical circuit switch (part of the suite "mose", see
 * mose-test-cases.h).
 */

#include "mose-test-cases.h"

#include "ns3/drop-tail-queue.h"
#include "ns3/mac48-address.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-ocs.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node-container.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/**
 * \ingroup mose-tests
 * \brief Helpers for the OCS test cases: a fabric of N nodes x d point-to-point port devices on
 *        one MoseOcs (1 Gbps, 10 us), and raw sends.
 */
struct MoseOcsTestFabric
{
    NodeContainer nodes;                                      //!< one node per group
    Ptr<MoseOcs> ocs;                                         //!< the switch
    std::vector<std::vector<Ptr<PointToPointNetDevice>>> dev; //!< [group][port]
    std::vector<std::pair<Time, uint32_t>> arrivals;          //!< (PhyRxEnd time, flat port)

    /// \param groups N \param ports d
    MoseOcsTestFabric(uint32_t groups, uint32_t ports)
    {
        nodes.Create(groups);
        ocs = CreateObject<MoseOcs>();
        ocs->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
        ocs->SetAttribute("Delay", TimeValue(MicroSeconds(10)));
        ocs->SetSize(groups, ports);
        dev.resize(groups);
        for (uint32_t g = 0; g < groups; ++g)
        {
            for (uint32_t p = 0; p < ports; ++p)
            {
                Ptr<PointToPointNetDevice> d = CreateObject<PointToPointNetDevice>();
                d->SetAddress(Mac48Address::Allocate());
                nodes.Get(g)->AddDevice(d);
                Ptr<Queue<Packet>> q = CreateObject<DropTailQueue<Packet>>();
                d->SetQueue(q);
                // flow control, as PointToPointHelper and MoseTopologyHelper make ports
                Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
                ndqi->GetTxQueue(0)->ConnectQueueTraces(q);
                d->AggregateObject(ndqi);
                ocs->AddPort(g, p, d);
                d->TraceConnectWithoutContext(
                    "PhyRxEnd",
                    MakeBoundCallback(&MoseOcsTestFabric::Record, this, g * ports + p));
                dev[g].push_back(d);
            }
        }
    }

    /// records an arrival \param f the fabric \param flat the receiving port
    static void Record(MoseOcsTestFabric* f, uint32_t flat, Ptr<const Packet>)
    {
        f->arrivals.emplace_back(Simulator::Now(), flat);
    }

    /// sends a 998-byte payload (1000 bytes on the wire: 8 us at 1 Gbps) \param d the device
    static void Send(Ptr<PointToPointNetDevice> d)
    {
        d->Send(Create<Packet>(998), d->GetBroadcast(), 0x0800);
    }
};

/**
 * \ingroup mose-tests
 * \brief A packet on a lit OCS port reaches exactly the peer, tx time + delay later; after a
 *        run-time re-pairing it reaches the new peer.
 */
class MoseOcsDeliveryTestCase : public TestCase
{
  public:
    MoseOcsDeliveryTestCase()
        : TestCase("OCS delivers to the current peer, also after run-time re-pairing")
    {
    }

  private:
    void DoRun() override
    {
        MoseOcsTestFabric f(4, 2);
        f.ocs->Connect(0, 0, 2, 1);
        Simulator::Schedule(MilliSeconds(1), &MoseOcsTestFabric::Send, f.dev[0][0]);
        f.ocs->ScheduleDisconnect(MilliSeconds(2), 0, 0);
        f.ocs->ScheduleConnect(MilliSeconds(3), 0, 0, 3, 1);
        Simulator::Schedule(MilliSeconds(4), &MoseOcsTestFabric::Send, f.dev[0][0]);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(f.arrivals.size(), 2U, "one arrival per packet");
        NS_TEST_EXPECT_MSG_EQ(f.arrivals[0].second, 5U, "first packet at (group 2, port 1)");
        NS_TEST_EXPECT_MSG_EQ(f.arrivals[0].first,
                              MilliSeconds(1) + MicroSeconds(18),
                              "tx time 8 us + delay 10 us");
        NS_TEST_EXPECT_MSG_EQ(f.arrivals[1].second, 7U, "second packet at the new peer (3, 1)");
        NS_TEST_EXPECT_MSG_EQ(f.ocs->GetPeer(0, 0), 7U, "matching after re-pairing");
        NS_TEST_EXPECT_MSG_EQ(f.ocs->GetCircuitGraph().HasCircuit(0, 3), true, "circuit graph");
        NS_TEST_EXPECT_MSG_EQ(f.ocs->GetNConnects(), 2U, "connects");
        NS_TEST_EXPECT_MSG_EQ(f.ocs->GetNDisconnects(), 1U, "disconnects");
        Simulator::Destroy();
    }
};

/**
 * \ingroup mose-tests
 * \brief A packet sent into a dark OCS port is a dark-port drop; a packet on the wire when its
 *        circuit is disconnected is a wire drop and never reaches the old peer.
 */
class MoseOcsDropTestCase : public TestCase
{
  public:
    MoseOcsDropTestCase()
        : TestCase("OCS dark-port and wire drops are counted, traced and never delivered")
    {
    }

  private:
    /// counts a trace call \param n the counter
    static void Count(uint32_t* n, Ptr<const Packet>, uint32_t, uint32_t)
    {
        ++*n;
    }

    void DoRun() override
    {
        MoseOcsTestFabric f(4, 1);
        f.ocs->Connect(0, 0, 1, 0);
        uint32_t dark = 0;
        uint32_t wire = 0;
        f.ocs->TraceConnectWithoutContext("DarkPortDrop", MakeBoundCallback(&Count, &dark));
        f.ocs->TraceConnectWithoutContext("WireDrop", MakeBoundCallback(&Count, &wire));
        Simulator::Schedule(MilliSeconds(1), &MoseOcsTestFabric::Send, f.dev[2][0]); // dark
        Simulator::Schedule(MilliSeconds(2), &MoseOcsTestFabric::Send, f.dev[0][0]);
        f.ocs->ScheduleDisconnect(MilliSeconds(2) + MicroSeconds(12), 1, 0); // propagating
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(f.arrivals.size(), 0U, "nothing delivered");
        NS_TEST_EXPECT_MSG_EQ(f.ocs->GetDarkDrops(), 1U, "dark-port drop counted");
        NS_TEST_EXPECT_MSG_EQ(dark, 1U, "dark-port drop traced");
        NS_TEST_EXPECT_MSG_EQ(f.ocs->GetWireDrops(), 1U, "wire drop counted");
        NS_TEST_EXPECT_MSG_EQ(wire, 1U, "wire drop traced");
        NS_TEST_EXPECT_MSG_EQ(f.ocs->GetPacketsInFlight(), 0U, "wire empty");
        Simulator::Destroy();
    }
};

/**
 * \ingroup mose-tests
 * \brief Bad OCS input is a mose::Error naming the value, in release builds too.
 */
class MoseOcsBadInputTestCase : public TestCase
{
  public:
    MoseOcsBadInputTestCase()
        : TestCase("OCS bad input gets a mose::Error")
    {
    }

  private:
    void DoRun() override
    {
        MoseOcsTestFabric f(4, 2);
        Ptr<MoseOcs> ocs = f.ocs;
        ocs->Connect(0, 0, 1, 0);
        NS_TEST_EXPECT_MSG_EQ(test::Throws([&] { ocs->Connect(0, 2, 1, 1); }, "port = 2"),
                              true,
                              "port out of range");
        NS_TEST_EXPECT_MSG_EQ(test::Throws([&] { ocs->Connect(4, 1, 1, 1); }, "group = 4"),
                              true,
                              "group out of range");
        NS_TEST_EXPECT_MSG_EQ(
            test::Throws([&] { ocs->Connect(2, 1, 1, 0); }, "(group 1, port 0) is lit"),
            true,
            "lit port");
        NS_TEST_EXPECT_MSG_EQ(test::Throws([&] { ocs->Connect(2, 1, 2, 1); }, "itself"),
                              true,
                              "port to itself");
        std::vector<uint32_t> asym(8, MoseOcs::DARK);
        asym[3] = 6;
        NS_TEST_EXPECT_MSG_EQ(test::Throws([&] { ocs->ApplyMatching(asym); }, "peers[3] = 6"),
                              true,
                              "asymmetric matching");
        NS_TEST_EXPECT_MSG_EQ(ocs->GetNCircuits(), 1U, "nothing changed");
        Simulator::Destroy();
    }
};

} // namespace

std::vector<TestCase*>
ns3::mose::test::OcsTestCases()
{
    return {new MoseOcsDeliveryTestCase, new MoseOcsDropTestCase, new MoseOcsBadInputTestCase};
}
