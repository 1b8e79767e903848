/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The optical circuit switch: MoseOcs and its per-port MoseOcsChannel, on small fabrics of real
// ns-3 nodes and point-to-point devices.

#include "mose-test-util.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/internet-module.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-ocs-channel.h"
#include "ns3/mose-ocs.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose::test;

namespace
{

/**
 * Enables ns-3's packet metadata before the first test: the ascii tracing of
 * PcapTracesAndQueueDiscWorkOnPortDevices needs it, and ns-3 builds with asserts (an ns-3 tree
 * configured with --enable-asserts, 3.48) abort when it is enabled after any packet was created,
 * which other tests of the same process do first.
 */
class PacketMetadataEnvironment : public ::testing::Environment
{
  public:
    void SetUp() override
    {
        PacketMetadata::Enable();
    }
};

/// registered at static initialisation; GoogleTest runs SetUp() before the first test
[[maybe_unused]] const ::testing::Environment* const g_packetMetadataEnvironment =
    ::testing::AddGlobalTestEnvironment(new PacketMetadataEnvironment);

constexpr uint32_t DARK = MoseOcs::DARK;

/// A fabric of N nodes with d port devices each, all added to one OCS (all ports dark).
struct Fabric
{
    NodeContainer nodes;                                      //!< one node per group
    Ptr<MoseOcs> ocs;                                         //!< the switch
    std::vector<std::vector<Ptr<PointToPointNetDevice>>> dev; //!< [group][port]
};

/**
 * Builds a fabric the way PointToPointHelper builds a link: a PointToPointNetDevice with a MAC
 * address, a DropTailQueue and a NetDeviceQueueInterface per port, then MoseOcs::AddPort.
 * 1 Gbps and 10 us, so a 998-byte payload (1000 bytes with the PPP header) takes 8 us to send.
 */
Fabric
MakeFabric(uint32_t groups, uint32_t ports)
{
    Fabric f;
    f.nodes.Create(groups);
    f.ocs = CreateObject<MoseOcs>();
    f.ocs->SetAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
    f.ocs->SetAttribute("Delay", TimeValue(MicroSeconds(10)));
    f.ocs->SetSize(groups, ports);
    f.dev.resize(groups);
    for (uint32_t g = 0; g < groups; ++g)
    {
        for (uint32_t p = 0; p < ports; ++p)
        {
            Ptr<PointToPointNetDevice> d = CreateObject<PointToPointNetDevice>();
            d->SetAddress(Mac48Address::Allocate());
            f.nodes.Get(g)->AddDevice(d);
            Ptr<Queue<Packet>> q = CreateObject<DropTailQueue<Packet>>();
            d->SetQueue(q);
            Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
            ndqi->GetTxQueue(0)->ConnectQueueTraces(q);
            d->AggregateObject(ndqi);
            f.ocs->AddPort(g, p, d);
            f.dev[g].push_back(d);
        }
    }
    return f;
}

/// One packet received by a device: when, and by which (group, port)
struct Arrival
{
    Time when;     //!< PhyRxEnd time
    uint32_t flat; //!< receiving port's flat index
};

/// Records PhyRxEnd on every port device
class ArrivalLog
{
  public:
    /// \param f the fabric whose devices to watch
    explicit ArrivalLog(const Fabric& f)
    {
        uint32_t d = f.ocs->GetNPortsPerGroup();
        for (uint32_t g = 0; g < f.dev.size(); ++g)
        {
            for (uint32_t p = 0; p < d; ++p)
            {
                f.dev[g][p]->TraceConnectWithoutContext(
                    "PhyRxEnd",
                    MakeBoundCallback(&ArrivalLog::Record, this, g * d + p));
            }
        }
    }

    std::vector<Arrival> arrivals; //!< in order

  private:
    static void Record(ArrivalLog* log, uint32_t flat, Ptr<const Packet>)
    {
        log->arrivals.push_back({Simulator::Now(), flat});
    }
};

/// Sends a raw packet of `payload` bytes from a device (IPv4 protocol number, no IP stack)
void
SendRaw(Ptr<PointToPointNetDevice> d, uint32_t payload = 998)
{
    d->Send(Create<Packet>(payload), d->GetBroadcast(), 0x0800);
}

/// Tx time of a 998-byte payload at 1 Gbps plus the 10 us delay
const Time kOneHop = MicroSeconds(8) + MicroSeconds(10);

/// A (packet, group, port) trace record
struct PortEvent
{
    uint32_t group; //!< group
    uint32_t port;  //!< port
};

void
RecordPortEvent(std::vector<PortEvent>* v, Ptr<const Packet>, uint32_t group, uint32_t port)
{
    v->push_back({group, port});
}

} // namespace

// (a) a packet on a lit port reaches exactly the peer device, tx time + delay later
TEST(Ocs, LitPortDeliversToExactlyThePeerAfterTxTimePlusDelay)
{
    Fabric f = MakeFabric(4, 2);
    f.ocs->Connect(0, 0, 2, 1);
    f.ocs->Connect(1, 0, 3, 0);
    ArrivalLog log(f);
    Simulator::Schedule(MilliSeconds(1), &SendRaw, f.dev[0][0], 998);
    Simulator::Schedule(MilliSeconds(2), &SendRaw, f.dev[2][1], 998);
    Simulator::Schedule(MilliSeconds(3), &SendRaw, f.dev[3][0], 98); // 100 bytes: 0.8 us
    Simulator::Run();
    ASSERT_EQ(log.arrivals.size(), 3U);
    EXPECT_EQ(log.arrivals[0].flat, 2U * 2 + 1);
    EXPECT_EQ(log.arrivals[0].when, MilliSeconds(1) + kOneHop);
    EXPECT_EQ(log.arrivals[1].flat, 0U);
    EXPECT_EQ(log.arrivals[1].when, MilliSeconds(2) + kOneHop);
    EXPECT_EQ(log.arrivals[2].flat, 1U * 2 + 0);
    EXPECT_EQ(log.arrivals[2].when, MilliSeconds(3) + NanoSeconds(800) + MicroSeconds(10));
    EXPECT_EQ(f.ocs->GetDarkDrops(), 0U);
    EXPECT_EQ(f.ocs->GetWireDrops(), 0U);
    EXPECT_EQ(f.ocs->GetPacketsInFlight(), 0U);
    EXPECT_EQ(f.ocs->GetChannel(0, 0)->GetDelivered(), 1U);
    // the channel reports the live circuit to GetRemote() and to routing
    Ptr<Channel> ch = f.dev[0][0]->GetChannel();
    ASSERT_EQ(ch->GetNDevices(), 2U);
    EXPECT_EQ(ch->GetDevice(0), f.dev[0][0]);
    EXPECT_EQ(ch->GetDevice(1), f.dev[2][1]);
    EXPECT_EQ(f.dev[0][1]->GetChannel()->GetNDevices(), 1U);
    EXPECT_FALSE(f.dev[0][1]->GetChannel()->GetDevice(1));
    DataRateValue rate;
    f.dev[0][0]->GetAttribute("DataRate", rate);
    EXPECT_EQ(rate.Get(), DataRate("1Gbps"));
    Simulator::Destroy();
}

// (b) connect and disconnect at run time: after re-pairing, packets go to the new peer
TEST(Ocs, RunTimeRepairingSendsToTheNewPeer)
{
    Fabric f = MakeFabric(4, 1);
    f.ocs->Connect(0, 0, 1, 0);
    ArrivalLog log(f);
    std::vector<std::vector<uint32_t>> connected;
    std::vector<std::vector<uint32_t>> disconnected;
    f.ocs->TraceConnectWithoutContext("CircuitConnected",
                                      MakeBoundCallback(
                                          +[](std::vector<std::vector<uint32_t>>* v,
                                              uint32_t a,
                                              uint32_t b,
                                              uint32_t c,
                                              uint32_t d) {
                                              v->push_back({a, b, c, d});
                                          },
                                          &connected));
    f.ocs->TraceConnectWithoutContext("CircuitDisconnected",
                                      MakeBoundCallback(
                                          +[](std::vector<std::vector<uint32_t>>* v,
                                              uint32_t a,
                                              uint32_t b,
                                              uint32_t c,
                                              uint32_t d) {
                                              v->push_back({a, b, c, d});
                                          },
                                          &disconnected));
    Simulator::Schedule(MilliSeconds(1), &SendRaw, f.dev[0][0], 998);
    f.ocs->ScheduleDisconnect(MilliSeconds(2), 1, 0); // from the other end
    f.ocs->ScheduleConnect(MilliSeconds(3), 2, 0, 0, 0);
    Simulator::Schedule(MilliSeconds(4), &SendRaw, f.dev[0][0], 998);
    Simulator::Schedule(MilliSeconds(4), &SendRaw, f.dev[2][0], 998);
    // a plain Connect/Disconnect inside an event works as well
    Simulator::Schedule(MilliSeconds(5), [&f] {
        f.ocs->Disconnect(0, 0);
        f.ocs->Connect(3, 0, 0, 0);
    });
    Simulator::Schedule(MilliSeconds(6), &SendRaw, f.dev[3][0], 998);
    // a connect that is invalid when its event runs is rejected, not thrown
    f.ocs->ScheduleConnect(MilliSeconds(7), 3, 0, 1, 0);
    Simulator::Run();
    ASSERT_EQ(log.arrivals.size(), 4U);
    EXPECT_EQ(log.arrivals[0].flat, 1U);
    EXPECT_EQ(log.arrivals[1].flat, 2U);
    EXPECT_EQ(log.arrivals[1].when, MilliSeconds(4) + kOneHop);
    EXPECT_EQ(log.arrivals[2].flat, 0U);
    EXPECT_EQ(log.arrivals[3].flat, 0U);
    EXPECT_EQ(log.arrivals[3].when, MilliSeconds(6) + kOneHop);
    EXPECT_EQ(f.ocs->GetNConnects(), 3U);
    EXPECT_EQ(f.ocs->GetNDisconnects(), 2U);
    EXPECT_EQ(f.ocs->GetNRejected(), 1U);
    EXPECT_EQ(f.ocs->GetPeer(0, 0), 3U);
    EXPECT_EQ(f.ocs->GetPeer(1, 0), DARK);
    ASSERT_EQ(connected.size(), 2U); // the set-up connect came before the trace sink
    EXPECT_EQ(connected[0], (std::vector<uint32_t>{2, 0, 0, 0}));
    EXPECT_EQ(connected[1], (std::vector<uint32_t>{3, 0, 0, 0}));
    ASSERT_EQ(disconnected.size(), 2U);
    EXPECT_EQ(disconnected[0], (std::vector<uint32_t>{1, 0, 0, 0}));
    EXPECT_EQ(f.ocs->GetDarkDrops(), 0U);
    Simulator::Destroy();
}

// (b') ApplyMatching at run time keeps unchanged circuits (their packets arrive) and re-pairs
TEST(Ocs, ScheduledMatchingKeepsUnchangedCircuitsAndRepairsTheOthers)
{
    Fabric f = MakeFabric(4, 1);
    f.ocs->ApplyMatching({1, 0, 3, 2});
    ArrivalLog log(f);
    Simulator::Schedule(MilliSeconds(1), &SendRaw, f.dev[0][0], 998); // kept circuit 0-1
    Simulator::Schedule(MilliSeconds(1), &SendRaw, f.dev[2][0], 998); // changed circuit 2-3
    f.ocs->ScheduleMatching(MilliSeconds(1) + MicroSeconds(12), {1, 0, DARK, DARK});
    f.ocs->ScheduleMatching(MilliSeconds(2), {2, 3, 0, 1});
    Simulator::Schedule(MilliSeconds(3), &SendRaw, f.dev[0][0], 998);
    Simulator::Run();
    ASSERT_EQ(log.arrivals.size(), 2U);
    EXPECT_EQ(log.arrivals[0].flat, 1U);
    EXPECT_EQ(log.arrivals[1].flat, 2U);
    EXPECT_EQ(f.ocs->GetWireDrops(), 1U);
    EXPECT_EQ(f.ocs->GetNConnects(), 4U);    // 2 at set-up, 2 at 2 ms
    EXPECT_EQ(f.ocs->GetNDisconnects(), 2U); // 2-3 at 1.012 ms, 0-1 at 2 ms
    EXPECT_EQ(f.ocs->GetPortMatching(), (std::vector<uint32_t>{2, 3, 0, 1}));
    Simulator::Destroy();
}

// (c) a packet sent into a dark port is dropped, counted and traced
TEST(Ocs, DarkPortDropsCountsAndTraces)
{
    Fabric f = MakeFabric(4, 2);
    f.ocs->Connect(0, 0, 1, 0);
    ArrivalLog log(f);
    std::vector<PortEvent> dark;
    f.ocs->TraceConnectWithoutContext("DarkPortDrop", MakeBoundCallback(&RecordPortEvent, &dark));
    uint32_t phyTxDrops = 0;
    f.dev[0][1]->TraceConnectWithoutContext("PhyTxDrop",
                                            MakeBoundCallback(
                                                +[](uint32_t* n, Ptr<const Packet>) { ++*n; },
                                                &phyTxDrops));
    // three back-to-back packets: the device keeps sending its queue into the dark port
    for (int i = 0; i < 3; ++i)
    {
        Simulator::Schedule(MilliSeconds(1), &SendRaw, f.dev[0][1], 998);
    }
    Simulator::Schedule(MilliSeconds(2), &SendRaw, f.dev[0][0], 998);
    Simulator::Run();
    ASSERT_EQ(log.arrivals.size(), 1U);
    EXPECT_EQ(log.arrivals[0].flat, 2U);
    EXPECT_EQ(f.ocs->GetDarkDrops(), 3U);
    EXPECT_EQ(f.ocs->GetChannel(0, 1)->GetDarkDrops(), 3U);
    EXPECT_EQ(phyTxDrops, 3U);
    ASSERT_EQ(dark.size(), 3U);
    EXPECT_EQ(dark[0].group, 0U);
    EXPECT_EQ(dark[0].port, 1U);
    EXPECT_EQ(f.ocs->GetWireDrops(), 0U);
    EXPECT_EQ(f.ocs->GetPacketsInFlight(), 0U);
    Simulator::Destroy();
}

// (d) a packet on the wire when its circuit is disconnected is a wire drop, never delivered
TEST(Ocs, PacketInFlightAtDisconnectIsAWireDrop)
{
    Fabric f = MakeFabric(4, 1);
    f.ocs->Connect(0, 0, 1, 0);
    f.ocs->Connect(2, 0, 3, 0);
    ArrivalLog log(f);
    std::vector<PortEvent> wire;
    f.ocs->TraceConnectWithoutContext("WireDrop", MakeBoundCallback(&RecordPortEvent, &wire));
    std::vector<uint32_t> inFlight;
    auto sample = [&f, &inFlight] { inFlight.push_back(f.ocs->GetPacketsInFlight(0, 0)); };
    // 0 -> 1: disconnected while transmitting (5 us into 8 us)
    Simulator::Schedule(MilliSeconds(1), &SendRaw, f.dev[0][0], 998);
    Simulator::Schedule(MilliSeconds(1) + MicroSeconds(4), sample);
    f.ocs->ScheduleDisconnect(MilliSeconds(1) + MicroSeconds(5), 0, 0);
    // 3 -> 2: disconnected while propagating, and the same pair reconnected before the arrival
    Simulator::Schedule(MilliSeconds(2), &SendRaw, f.dev[3][0], 998);
    f.ocs->ScheduleDisconnect(MilliSeconds(2) + MicroSeconds(12), 2, 0);
    f.ocs->ScheduleConnect(MilliSeconds(2) + MicroSeconds(13), 2, 0, 3, 0);
    Simulator::Schedule(MilliSeconds(3), sample);
    Simulator::Run();
    EXPECT_TRUE(log.arrivals.empty());
    EXPECT_EQ(f.ocs->GetWireDrops(), 2U);
    ASSERT_EQ(wire.size(), 2U);
    EXPECT_EQ(wire[0].group, 0U);
    EXPECT_EQ(wire[1].group, 3U);
    EXPECT_EQ(f.ocs->GetChannel(3, 0)->GetWireDrops(), 1U);
    EXPECT_EQ(inFlight, (std::vector<uint32_t>{1, 0}));
    EXPECT_EQ(f.ocs->GetPacketsInFlight(), 0U);
    EXPECT_EQ(f.ocs->GetDarkDrops(), 0U);
    Simulator::Destroy();
}

// (e) the port matching and the circuit graph are what was connected
TEST(Ocs, PortMatchingAndCircuitGraphEqualTheConnectedCircuits)
{
    const uint32_t n = 8;
    const uint32_t d = 2;
    Fabric f = MakeFabric(n, d);
    EXPECT_EQ(f.ocs->GetPortMatching(), std::vector<uint32_t>(n * d, DARK));
    EXPECT_EQ(f.ocs->GetCircuitGraph().GetNCircuits(), 0U);
    // a ring: port 1 of group g to port 0 of group g+1
    for (uint32_t g = 0; g < n; ++g)
    {
        f.ocs->Connect(g, 1, (g + 1) % n, 0);
    }
    std::vector<uint32_t> expected(n * d);
    for (uint32_t g = 0; g < n; ++g)
    {
        expected[g * d + 1] = ((g + 1) % n) * d;
        expected[((g + 1) % n) * d] = g * d + 1;
    }
    EXPECT_EQ(f.ocs->GetPortMatching(), expected);
    EXPECT_EQ(f.ocs->GetNCircuits(), n);
    mose::CircuitGraph g = f.ocs->GetCircuitGraph();
    EXPECT_EQ(g.GetNNodes(), n);
    EXPECT_EQ(g.GetCircuits(), Ring(n).GetCircuits());
    EXPECT_EQ(g.FindProblem(2), "");
    for (uint32_t i = 0; i < n; ++i)
    {
        EXPECT_TRUE(f.ocs->IsLit(i, 0));
        EXPECT_EQ(f.ocs->GetPeer(i, 1), ((i + 1) % n) * d);
        EXPECT_EQ(f.ocs->GetDevice(i, 1), f.dev[i][1]);
        EXPECT_EQ(f.ocs->GetChannel(i, 1)->GetPeerDevice(), f.dev[(i + 1) % n][0]);
    }
    // the same fabric through ApplyMatching on a fresh switch
    Fabric f2 = MakeFabric(n, d);
    f2.ocs->ApplyMatching(expected);
    EXPECT_EQ(f2.ocs->GetPortMatching(), expected);
    EXPECT_EQ(f2.ocs->GetCircuitGraph().GetCircuits(), g.GetCircuits());
    // a disconnect shows in both views
    EXPECT_TRUE(f.ocs->Disconnect(3, 0));
    EXPECT_FALSE(f.ocs->Disconnect(3, 0)); // dark: no-op
    EXPECT_EQ(f.ocs->GetPeer(2, 1), DARK);
    EXPECT_FALSE(f.ocs->GetCircuitGraph().HasCircuit(2, 3));
    EXPECT_EQ(f.ocs->GetCircuitGraph().GetNCircuits(), n - 1);
    Simulator::Destroy();
}

// (f) bad input: each a mose::Error naming the value, nothing changed
TEST(Ocs, BadInputIsAMoseErrorNamingTheValue)
{
    Fabric f = MakeFabric(4, 2);
    f.ocs->Connect(0, 0, 1, 0);
    auto ocs = f.ocs;
    EXPECT_CONTAINS(ErrorOf([&] { ocs->Connect(0, 2, 1, 1); }), "port = 2");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->Connect(0, 1, 4, 1); }), "group = 4");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->Connect(0, 1, 4, 1); }), "0 <= group < 4");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->Connect(2, 1, 1, 0); }), "(group 1, port 0) is lit");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->Connect(2, 1, 2, 1); }), "(group 2, port 1)");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->Connect(2, 1, 2, 1); }), "itself");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->Disconnect(9, 0); }), "group = 9");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->GetPeer(0, 7); }), "port = 7");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->ScheduleConnect(Seconds(1), 0, 1, 5, 0); }), "group = 5");
    std::vector<uint32_t> asym = {2, DARK, 0, DARK, DARK, DARK, DARK, 5};
    EXPECT_CONTAINS(ErrorOf([&] { ocs->ApplyMatching(asym); }), "peers[7] = 5");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->ApplyMatching(asym); }), "not symmetric");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->ApplyMatching({1, 0}); }), "size = 2");
    std::vector<uint32_t> range = {8, DARK, DARK, DARK, DARK, DARK, DARK, DARK};
    EXPECT_CONTAINS(ErrorOf([&] { ocs->ApplyMatching(range); }), "peers[0] = 8");
    std::vector<uint32_t> self = {DARK, DARK, DARK, 3, DARK, DARK, DARK, DARK};
    EXPECT_CONTAINS(ErrorOf([&] { ocs->ScheduleMatching(Seconds(1), self); }), "itself");
    // nothing changed
    EXPECT_EQ(ocs->GetPeer(0, 0), 2U);
    EXPECT_EQ(ocs->GetNCircuits(), 1U);
    EXPECT_EQ(ocs->GetNConnects(), 1U);
    // set-up errors
    EXPECT_CONTAINS(ErrorOf([&] { ocs->SetSize(8, 2); }), "already has ports");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->AddPort(0, 0, CreateObject<PointToPointNetDevice>()); }),
                    "already added");
    EXPECT_CONTAINS(ErrorOf([&] { ocs->AddPort(0, 0, f.dev[1][1]); }), "already added");
    Ptr<MoseOcs> other = CreateObject<MoseOcs>();
    EXPECT_CONTAINS(ErrorOf([&] { other->SetSize(0, 4); }), "groups = 0");
    EXPECT_CONTAINS(ErrorOf([&] { other->SetSize(65536, 65536); }), "groups * ports");
    EXPECT_CONTAINS(ErrorOf([&] { other->AddPort(0, 0, nullptr); }), "SetSize");
    other->SetSize(2, 1);
    EXPECT_CONTAINS(ErrorOf([&] { other->AddPort(0, 0, f.dev[1][1]); }), "already attached");
    EXPECT_CONTAINS(ErrorOf([&] { other->AddPort(0, 0, nullptr); }), "device = null");
    EXPECT_FALSE(other->HasPort(0, 0));
    EXPECT_CONTAINS(ErrorOf([&] { other->Connect(0, 0, 1, 0); }), "was not added");
    Simulator::Destroy();
}

// (g) pcap, device traces and a root queue disc work on an OCS port device, with IPv4 and UDP
TEST(Ocs, PcapTracesAndQueueDiscWorkOnPortDevices)
{
    std::string prefix = ::testing::TempDir() + "mose-ocs-test";
    std::string pcapFile = prefix + ".pcap";
    std::string asciiFile = prefix + ".tr";
    {
        // in a block: the trace files are flushed when the devices holding their writers go away
        Fabric f = MakeFabric(3, 1);
        f.ocs->Connect(0, 0, 1, 0);
        NetDeviceContainer devs;
        devs.Add(f.dev[0][0]);
        devs.Add(f.dev[1][0]);
        InternetStackHelper stack;
        stack.Install(f.nodes);
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc");
        QueueDiscContainer qdiscs = tch.Install(devs);
        Ipv4AddressHelper addr("10.1.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(devs);

        uint32_t macTx = 0;
        uint32_t phyRxEnd = 0;
        f.dev[0][0]->TraceConnectWithoutContext("MacTx",
                                                MakeBoundCallback(
                                                    +[](uint32_t* n, Ptr<const Packet>) { ++*n; },
                                                    &macTx));
        f.dev[1][0]->TraceConnectWithoutContext("PhyRxEnd",
                                                MakeBoundCallback(
                                                    +[](uint32_t* n, Ptr<const Packet>) { ++*n; },
                                                    &phyRxEnd));

        PointToPointHelper p2p;
        p2p.EnablePcap(pcapFile, f.dev[1][0], false, true);
        AsciiTraceHelper ascii;
        p2p.EnableAscii(ascii.CreateFileStream(asciiFile), f.dev[0][0]);

        UdpEchoServerHelper server(9);
        ApplicationContainer sa = server.Install(f.nodes.Get(1));
        sa.Start(Seconds(0));
        UdpEchoClientHelper client(ifs.GetAddress(1), 9);
        client.SetAttribute("MaxPackets", UintegerValue(3));
        client.SetAttribute("Interval", TimeValue(MilliSeconds(1)));
        client.SetAttribute("PacketSize", UintegerValue(500));
        ApplicationContainer ca = client.Install(f.nodes.Get(0));
        ca.Start(MilliSeconds(1));
        uint32_t echoed = 0;
        ca.Get(0)->TraceConnectWithoutContext("Rx",
                                              MakeBoundCallback(
                                                  +[](uint32_t* n, Ptr<const Packet>) { ++*n; },
                                                  &echoed));
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();

        EXPECT_EQ(echoed, 3U);
        EXPECT_EQ(macTx, 3U);
        EXPECT_EQ(phyRxEnd, 3U);
        ASSERT_EQ(qdiscs.GetN(), 2U);
        EXPECT_EQ(qdiscs.Get(0)->GetStats().nTotalDequeuedPackets, 3U);
        EXPECT_EQ(f.ocs->GetDarkDrops(), 0U);
        Simulator::Destroy();
    }

    // pcap of the server's port: 24-byte file header, then 3 requests received and 3 replies
    // sent, each a 16-byte record header + 530 bytes (500 + UDP 8 + IPv4 20 + PPP 2)
    std::ifstream pcap(pcapFile, std::ios::binary | std::ios::ate);
    ASSERT_TRUE(pcap.good()) << pcapFile;
    EXPECT_EQ(static_cast<long>(pcap.tellg()), 24 + 6 * (16 + 530));
    std::ifstream tr(asciiFile);
    std::string line;
    uint32_t enqueues = 0;
    while (std::getline(tr, line))
    {
        enqueues += !line.empty() && line[0] == '+';
    }
    EXPECT_EQ(enqueues, 3U);
    std::remove(pcapFile.c_str());
    std::remove(asciiFile.c_str());
}
