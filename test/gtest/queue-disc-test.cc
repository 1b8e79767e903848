/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Queue discs on the fabric: every optical port and host link has flow control
 * (NetDeviceQueueInterface) and ns-3's default root queue disc, so that any queue disc installed
 * with TrafficControlHelper works as on a PointToPointHelper link: DCTCP over RED with ECN marks
 * and loses nothing in an incast, FqCoDel and PfifoFast complete every transfer, and
 * MoseLossMonitor counts the discs' drops and marks.
 */

#include "mose-test-util.h"

#include "ns3/core-module.h"
#include "ns3/fq-codel-queue-disc.h"
#include "ns3/internet-module.h"
#include "ns3/loopback-net-device.h"
#include "ns3/mose-loss-monitor.h"
#include "ns3/mose-random.h"
#include "ns3/mose-routing-helper.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-topology-template.h"
#include "ns3/mose-traffic-helper.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"

#include <gtest/gtest.h>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::mose;

namespace
{

constexpr uint32_t kGroups = 16;     //!< N of every fabric here
constexpr uint32_t kSenders = 8;     //!< the incast's senders
constexpr uint32_t kPorts = 4;       //!< d
constexpr uint32_t kMtu = 1500;      //!< the port and host-link devices' MTU (ns-3's default)
constexpr uint64_t kBytes = 2000000; //!< bytes per incast transfer

/**
 * A 16-group uniform fabric (d = 4) with H hosts per group. Without hosts an incast to a group
 * node converges on the circuits into it (its d ports' peers); with one host per group on the
 * group node's link to its host.
 */
Ptr<MoseTopologyHelper>
BuildFabric(uint32_t hosts, bool defaultQueueDisc = true, const std::string& portQueue = "")
{
    Random rng = Random::Create(3, Stream::UNIFORM);
    const CircuitGraph graph = BuildUniformTemplate(kGroups, kPorts, rng);
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("Groups", UintegerValue(kGroups));
    topo->SetAttribute("PortsPerGroup", UintegerValue(kPorts));
    topo->SetAttribute("HostsPerGroup", UintegerValue(hosts));
    topo->SetAttribute("DefaultQueueDisc", BooleanValue(defaultQueueDisc));
    if (!portQueue.empty())
    {
        topo->SetPortQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue(portQueue));
    }
    topo->SetCircuitGraph(graph);
    topo->SetRouting(RoutingRule::SHORTEST_PATH, 0);
    topo->Install();
    return topo;
}

/// \return the group nodes and the hosts
NodeContainer
AllNodes(Ptr<MoseTopologyHelper> topo)
{
    return NodeContainer(topo->GetGroupNodes(), topo->GetAllHosts());
}

/// \return every device of the fabric's nodes but the loopbacks: ports and both host-link ends
NetDeviceContainer
AllDevices(Ptr<MoseTopologyHelper> topo)
{
    NetDeviceContainer devices;
    const NodeContainer nodes = AllNodes(topo);
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        for (uint32_t j = 0; j < nodes.Get(i)->GetNDevices(); ++j)
        {
            Ptr<NetDevice> d = nodes.Get(i)->GetDevice(j);
            if (!DynamicCast<LoopbackNetDevice>(d))
            {
                devices.Add(d);
            }
        }
    }
    return devices;
}

/// \return the root queue disc of a device, or null
Ptr<QueueDisc>
RootDisc(Ptr<NetDevice> device)
{
    return device->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(device);
}

/// What an incast run gives the tests
struct IncastRun
{
    uint32_t transfers{0};     //!< transfers installed
    uint32_t completed{0};     //!< transfers completed
    double meanFctS{0};        //!< mean FCT
    double maxFctS{0};         //!< largest FCT
    uint64_t lost{0};          //!< MoseLossMonitor::GetTotal()
    uint64_t deviceQueue{0};   //!< the monitor's device-queue drops
    uint64_t queueDisc{0};     //!< the monitor's queue-disc drops
    uint64_t marks{0};         //!< the monitor's ECN marks
    uint64_t discDrops{0};     //!< the discs' own drop counts (QueueDisc::GetStats)
    uint64_t discMarks{0};     //!< the discs' own mark counts
    uint64_t queueOwnDrops{0}; //!< drops the device queues made themselves
    uint64_t tcDrops{0};       //!< TrafficControlLayer "TcDrop", counted here
    uint32_t peakBacklog{0};   //!< the most packets one root queue disc held
    std::string csv;           //!< MoseLossMonitor::WriteCsv
};

/**
 * 8 groups (1..8) each send kBytes to group 0 at the same time, with a TCP variant; the loss
 * monitor is installed after the queue discs (as FlowMonitor, it hooks what exists).
 */
IncastRun
RunIncast(Ptr<MoseTopologyHelper> topo, const std::string& tcp)
{
    const NodeContainer nodes = AllNodes(topo);
    Ptr<MoseLossMonitor> loss = CreateObject<MoseLossMonitor>();
    loss->Install(nodes, topo->GetOcs());
    IncastRun r;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        nodes.Get(i)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
            "TcDrop",
            Callback<void, Ptr<const Packet>>([&r](Ptr<const Packet>) { ++r.tcDrops; }));
    }
    const NetDeviceContainer devices = AllDevices(topo);
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<QueueDisc> disc = RootDisc(devices.Get(i));
        if (disc)
        {
            disc->TraceConnectWithoutContext(
                "PacketsInQueue",
                Callback<void, uint32_t, uint32_t>([&r](uint32_t, uint32_t now) {
                    r.peakBacklog = std::max(r.peakBacklog, now);
                }));
        }
    }
    std::vector<Flow> flows;
    for (uint32_t s = 1; s <= kSenders; ++s)
    {
        flows.push_back(Flow{s, 0, TrafficClass::TRAINING, 1});
    }
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->SetAttribute("BytesPerUnit", UintegerValue(kBytes));
    traffic->SetAttribute("TcpVariant", TypeIdValue(TypeId::LookupByName(tcp)));
    traffic->Install(topo->GetEndpoints(), flows);
    Simulator::Stop(Seconds(30));
    Simulator::Run();

    Ptr<MoseTransferMonitor> monitor = traffic->GetMonitor();
    const MoseFctSummary fct = monitor->Summarize(TrafficClass::TRAINING);
    r.transfers = monitor->GetNTransfers();
    r.completed = monitor->GetNCompleted();
    r.meanFctS = fct.meanS;
    r.maxFctS = fct.maxS;
    r.lost = loss->GetTotal();
    r.deviceQueue = loss->GetDrops(MoseLossMonitor::DEVICE_QUEUE);
    r.queueDisc = loss->GetDrops(MoseLossMonitor::QUEUE_DISC);
    r.marks = loss->GetMarks();
    std::ostringstream csv;
    loss->WriteCsv(csv);
    r.csv = csv.str();
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<QueueDisc> disc = RootDisc(devices.Get(i));
        if (disc)
        {
            r.discDrops += disc->GetStats().nTotalDroppedPackets;
            r.discMarks += disc->GetStats().nTotalMarkedPackets;
        }
        Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(devices.Get(i));
        r.queueOwnDrops += p2p->GetQueue()->GetTotalDroppedPackets();
    }
    std::cout << "[ measured ] " << tcp << ": " << r.completed << "/" << r.transfers
              << " transfers, FCT mean " << r.meanFctS * 1e3 << " ms, max " << r.maxFctS * 1e3
              << " ms; ECN marks " << r.marks << "; lost " << r.lost << " (device-queue "
              << r.deviceQueue << ", queue-disc " << r.queueDisc << "); largest queue disc backlog "
              << r.peakBacklog << " packets\n";
    return r;
}

/// Replaces the root queue disc of every device, the usual ns-3 way
QueueDiscContainer
Replace(Ptr<MoseTopologyHelper> topo, TrafficControlHelper& tch)
{
    const NetDeviceContainer devices = AllDevices(topo);
    tch.Uninstall(devices);
    return tch.Install(devices);
}

/// A DCTCP user's RED on every device: ECN, marking at K = 20 packets of the instantaneous queue
void
InstallDctcpRed(Ptr<MoseTopologyHelper> topo)
{
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
    const QueueDiscContainer discs = Replace(topo, tch);
    EXPECT_EQ(discs.GetN(), AllDevices(topo).GetN());
}

/// DCTCP over RED: marks, every mark counted, nothing lost, no timeout
void
ExpectDctcpMarksAndLosesNothing(const IncastRun& r)
{
    EXPECT_EQ(r.transfers, kSenders);
    EXPECT_EQ(r.completed, kSenders);
    EXPECT_GT(r.marks, 0u) << "the bottleneck's queue crosses K";
    EXPECT_EQ(r.marks, r.discMarks) << "every mark counted once";
    EXPECT_CONTAINS(r.csv, "\ntotal,0\necn-marks," + std::to_string(r.marks) + "\n");
    EXPECT_EQ(r.lost, 0u);
    EXPECT_EQ(r.discDrops, 0u);
    EXPECT_EQ(r.queueOwnDrops, 0u);
    EXPECT_EQ(r.tcDrops, 0u);
    EXPECT_GT(r.peakBacklog, 20u) << "the backlog builds in the queue disc, not the device";
    EXPECT_LT(r.maxFctS, 0.1) << "no retransmission timeout (TCP's minimum is 1 s)";
}

} // namespace

TEST(QueueDisc, EveryPortAndHostLinkHasFlowControlAndNs3sDefaultRootQueueDisc)
{
    Ptr<MoseTopologyHelper> topo = BuildFabric(1);
    const NetDeviceContainer devices = AllDevices(topo);
    EXPECT_EQ(devices.GetN(), kGroups * kPorts + 2 * kGroups) << "ports and both host-link ends";
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<NetDevice> d = devices.Get(i);
        Ptr<NetDeviceQueueInterface> ndqi = d->GetObject<NetDeviceQueueInterface>();
        ASSERT_NE(ndqi, nullptr) << "device " << i;
        EXPECT_EQ(ndqi->GetNTxQueues(), 1u);
        Ptr<QueueDisc> disc = RootDisc(d);
        ASSERT_NE(disc, nullptr) << "device " << i;
        EXPECT_EQ(disc->GetInstanceTypeId().GetName(), "ns3::FqCoDelQueueDisc");
    }
    Simulator::Destroy();

    Ptr<MoseTopologyHelper> bare = BuildFabric(1, false);
    const NetDeviceContainer bareDevices = AllDevices(bare);
    for (uint32_t i = 0; i < bareDevices.GetN(); ++i)
    {
        EXPECT_NE(bareDevices.Get(i)->GetObject<NetDeviceQueueInterface>(), nullptr);
        EXPECT_EQ(RootDisc(bareDevices.Get(i)), nullptr) << "DefaultQueueDisc false: none";
    }
    Simulator::Destroy();
}

TEST(QueueDisc, APortsTransmissionQueueStopsWhenItsDeviceQueueIsFullAndWakesOnDequeue)
{
    Ptr<MoseTopologyHelper> topo = BuildFabric(0, true, "5p");
    Ptr<PointToPointNetDevice> port = DynamicCast<PointToPointNetDevice>(topo->GetPortDevice(3, 2));
    Ptr<NetDeviceQueue> txq = port->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0);
    Ptr<Queue<Packet>> queue = port->GetQueue();
    for (uint32_t i = 0; i < 4; ++i)
    {
        ASSERT_TRUE(queue->Enqueue(Create<Packet>(100)));
        EXPECT_FALSE(txq->IsStopped()) << "room for one more after " << i + 1;
    }
    ASSERT_TRUE(queue->Enqueue(Create<Packet>(100)));
    EXPECT_TRUE(txq->IsStopped()) << "5 of 5: the traffic-control layer must wait";
    queue->Dequeue();
    // ns-3.37 wakes the queue in the dequeue; later releases (3.48) in an event scheduled now
    Simulator::Stop(NanoSeconds(1));
    Simulator::Run();
    EXPECT_FALSE(txq->IsStopped()) << "a dequeue wakes it";
    Simulator::Destroy();
}

TEST(QueueDisc, DctcpOverRedWithEcnMarksAndLosesNothingInAnIncastOnThePorts)
{
    Ptr<MoseTopologyHelper> topo = BuildFabric(0);
    InstallDctcpRed(topo);
    ExpectDctcpMarksAndLosesNothing(RunIncast(topo, "ns3::TcpDctcp"));
    Simulator::Destroy();
}

TEST(QueueDisc, DctcpOverRedWithEcnMarksAndLosesNothingInAnIncastOnAHostLink)
{
    Ptr<MoseTopologyHelper> topo = BuildFabric(1);
    InstallDctcpRed(topo);
    ExpectDctcpMarksAndLosesNothing(RunIncast(topo, "ns3::TcpDctcp"));
    Simulator::Destroy();
}

TEST(QueueDisc, FqCoDelInstalledWithTrafficControlHelperCompletesEveryTransfer)
{
    Ptr<MoseTopologyHelper> topo = BuildFabric(1);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc");
    const QueueDiscContainer discs = Replace(topo, tch);
    const IncastRun r = RunIncast(topo, "ns3::TcpCubic");
    EXPECT_EQ(r.completed, kSenders);
    EXPECT_EQ(r.transfers, kSenders);
    EXPECT_EQ(r.lost, r.discDrops + r.deviceQueue) << "every drop counted";
    EXPECT_EQ(r.queueDisc, r.discDrops);
    EXPECT_EQ(r.queueOwnDrops, 0u);
    EXPECT_GT(r.peakBacklog, 0u);
    for (uint32_t i = 0; i < discs.GetN(); ++i)
    {
        // its quantum comes from the device MTU, through the NetDeviceQueueInterface
        EXPECT_EQ(DynamicCast<FqCoDelQueueDisc>(discs.Get(i))->GetQuantum(), kMtu) << i;
    }
    Simulator::Destroy();
}

TEST(QueueDisc, PfifoFastInstalledWithTrafficControlHelperCompletesEveryTransfer)
{
    Ptr<MoseTopologyHelper> topo = BuildFabric(1);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc");
    Replace(topo, tch);
    const IncastRun r = RunIncast(topo, "ns3::TcpCubic");
    EXPECT_EQ(r.completed, kSenders);
    EXPECT_EQ(r.lost, r.discDrops);
    EXPECT_EQ(r.queueOwnDrops, 0u);
    EXPECT_EQ(r.tcDrops, 0u);
    EXPECT_GT(r.peakBacklog, 0u) << "the backlog waits in the disc";
    Simulator::Destroy();
}

TEST(QueueDisc, QueueDiscDropsAreCountedByTheLossMonitorAndTcpRecovers)
{
    Ptr<MoseTopologyHelper> topo = BuildFabric(1);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", QueueSizeValue(QueueSize("10p")));
    Replace(topo, tch);
    const IncastRun r = RunIncast(topo, "ns3::TcpCubic");
    EXPECT_GT(r.discDrops, 0u) << "ten packets cannot hold an 8-to-1 incast";
    EXPECT_EQ(r.queueDisc, r.discDrops) << "every queue disc drop counted, once";
    EXPECT_EQ(r.lost, r.queueDisc) << "and nothing else lost";
    EXPECT_EQ(r.queueOwnDrops, 0u) << "flow control: the device queue never overflows";
    EXPECT_EQ(r.completed, kSenders) << "TCP recovers";
    Simulator::Destroy();
}

TEST(QueueDisc, DefaultRootQueueDiscTakesTheBacklogAndLosesNothing)
{
    Ptr<MoseTopologyHelper> topo = BuildFabric(1);
    const IncastRun r = RunIncast(topo, "ns3::TcpCubic");
    EXPECT_EQ(r.completed, kSenders);
    EXPECT_EQ(r.lost, 0u);
    EXPECT_EQ(r.queueOwnDrops, 0u);
    EXPECT_GT(r.peakBacklog, 0u) << "the destination's FqCoDel holds the backlog";
    const NetDeviceContainer devices = AllDevices(topo);
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<FqCoDelQueueDisc> disc = DynamicCast<FqCoDelQueueDisc>(RootDisc(devices.Get(i)));
        ASSERT_NE(disc, nullptr);
        EXPECT_EQ(disc->GetQuantum(), kMtu) << i;
    }
    Simulator::Destroy();
}

TEST(QueueDisc, WithoutAQueueDiscAFullDeviceQueueDropsAtTheTrafficControlLayerAndIsCounted)
{
    // no queue disc, two-packet port queues: the incast overflows them
    Ptr<MoseTopologyHelper> topo = BuildFabric(0, false, "2p");
    const IncastRun r = RunIncast(topo, "ns3::TcpCubic");
    EXPECT_GT(r.tcDrops, 0u);
    EXPECT_EQ(r.queueOwnDrops, 0u) << "the stopped device queue is never sent a packet";
    EXPECT_EQ(r.deviceQueue, r.tcDrops) << "counted as device-queue drops";
    EXPECT_EQ(r.lost, r.deviceQueue);
    EXPECT_EQ(r.completed, kSenders) << "TCP recovers";
    Simulator::Destroy();
}

/// One incast setup of the fast-transit comparison
struct FastTransitSetup
{
    std::string name;      //!< for the trace
    uint32_t hosts;        //!< hosts per group
    bool defaultQueueDisc; //!< MoseTopologyHelper "DefaultQueueDisc"
    std::string portQueue; //!< the ports' device queue size, or ns-3's
    bool dctcpRed;         //!< replace every root disc with DCTCP's RED before the run
    std::string tcp;       //!< the TCP variant
};

TEST(QueueDisc, FastTransitHandsEachPacketToTheRootDiscAScriptInstalledOrToTheBareDevice)
{
    // fast transit hands a transit packet to the traffic-control layer of its output device: a
    // root disc a script installed before the run takes it, and a bare device's stopped queue
    // refuses it, as without fast transit
    const std::vector<FastTransitSetup> setups{
        {"DCTCP's RED installed over the default discs", 0, true, "", true, "ns3::TcpDctcp"},
        {"the default FqCoDel, a host per group", 1, true, "", false, "ns3::TcpCubic"},
        {"no disc, two-packet port queues", 0, false, "2p", false, "ns3::TcpCubic"}};
    for (const FastTransitSetup& s : setups)
    {
        SCOPED_TRACE(s.name);
        IncastRun runs[2];
        uint64_t fastForwarded[2] = {0, 0};
        for (int on = 0; on < 2; ++on)
        {
            Ptr<MoseTopologyHelper> topo = BuildFabric(s.hosts, s.defaultQueueDisc, s.portQueue);
            const NodeContainer groups = topo->GetGroupNodes();
            for (uint32_t g = 0; g < groups.GetN(); ++g)
            {
                MoseRoutingHelper::GetRouting(groups.Get(g))
                    ->SetAttribute("FastTransit", BooleanValue(on == 1));
            }
            if (s.dctcpRed)
            {
                InstallDctcpRed(topo);
            }
            runs[on] = RunIncast(topo, s.tcp);
            for (uint32_t g = 0; g < groups.GetN(); ++g)
            {
                fastForwarded[on] +=
                    MoseRoutingHelper::GetRouting(groups.Get(g))->GetFastForwarded();
            }
            Simulator::Destroy();
        }
        const IncastRun& off = runs[0];
        const IncastRun& fast = runs[1];
        EXPECT_EQ(fastForwarded[0], 0u);
        EXPECT_GT(fastForwarded[1], 0u) << "the incast crosses group nodes";
        EXPECT_EQ(fast.completed, kSenders);
        EXPECT_EQ(fast.completed, off.completed);
        EXPECT_EQ(fast.meanFctS, off.meanFctS) << "the same run, to the nanosecond";
        EXPECT_EQ(fast.maxFctS, off.maxFctS);
        EXPECT_EQ(fast.marks, off.marks);
        EXPECT_EQ(fast.discMarks, off.discMarks);
        EXPECT_EQ(fast.discDrops, off.discDrops);
        EXPECT_EQ(fast.tcDrops, off.tcDrops);
        EXPECT_EQ(fast.lost, off.lost);
        EXPECT_EQ(fast.peakBacklog, off.peakBacklog);
        if (s.dctcpRed)
        {
            EXPECT_GT(fast.discMarks, 0u) << "the installed RED marks: it took the packets";
        }
        if (!s.defaultQueueDisc)
        {
            EXPECT_GT(fast.tcDrops, 0u) << "the bare device's stopped queue, as without it";
        }
    }
}

TEST(QueueDisc, HeldPacketsReleasedIntoAFullQueueDiscWaitForRoomInsteadOfBeingDropped)
{
    // group 1's ports: a three-packet PfifoFast in front of a one-packet device queue
    Ptr<MoseTopologyHelper> topo = BuildFabric(0, true, "1p");
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", QueueSizeValue(QueueSize("3p")));
    tch.Uninstall(topo->GetPorts(1));
    const QueueDiscContainer discs = tch.Install(topo->GetPorts(1));
    for (uint32_t g = 0; g < kGroups; ++g)
    {
        MoseRoutingHelper::GetRouting(topo->GetGroupNode(g))
            ->SetAttribute("HoldPackets", BooleanValue(true));
    }
    Ptr<MoseLossMonitor> loss = CreateObject<MoseLossMonitor>();
    loss->Install(topo->GetGroupNodes(), topo->GetOcs());
    // group 0 cut off in the route table (its circuits stay lit) until 2 ms
    Ptr<MoseRouteTable> table = topo->GetRouteTable();
    const std::vector<uint32_t> peers = topo->GetPortPlan().GetPeers();
    std::vector<uint32_t> cut = peers;
    for (uint32_t p = 0; p < kPorts; ++p)
    {
        cut[cut[p]] = MoseRouteTable::NONE;
        cut[p] = MoseRouteTable::NONE;
    }
    table->Update(cut);
    Ptr<Socket> sink = Socket::CreateSocket(topo->GetGroupNode(0), UdpSocketFactory::GetTypeId());
    sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
    uint32_t received = 0;
    sink->SetRecvCallback(Callback<void, Ptr<Socket>>([&received](Ptr<Socket> s) {
        while (s->Recv())
        {
            ++received;
        }
    }));
    Ptr<Socket> source = Socket::CreateSocket(topo->GetGroupNode(1), UdpSocketFactory::GetTypeId());
    const Ipv4Address to = topo->GetGroupAddress(0);
    constexpr uint32_t kDatagrams = 40;
    Simulator::Schedule(MilliSeconds(1), [source, to] {
        for (uint32_t k = 0; k < kDatagrams; ++k)
        {
            source->SendTo(Create<Packet>(1000), 0, InetSocketAddress(to, 9));
        }
    });
    Simulator::Schedule(MilliSeconds(2), [table, peers] { table->Update(peers); });
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    Ptr<MoseRoutingProtocol> routing = MoseRoutingHelper::GetRouting(topo->GetGroupNode(1));
    EXPECT_EQ(routing->GetHoldEntered(), kDatagrams) << "all held while group 0 was cut off";
    EXPECT_EQ(received, kDatagrams) << "released as the disc drains, none dropped";
    uint64_t discDrops = 0;
    for (uint32_t i = 0; i < discs.GetN(); ++i)
    {
        discDrops += discs.Get(i)->GetStats().nTotalDroppedPackets;
    }
    EXPECT_EQ(discDrops, 0u);
    EXPECT_EQ(loss->GetTotal(), 0u);
    Simulator::Destroy();
}

TEST(QueueDisc, QueueDiscTypeInstallsThatRootDiscOnEveryPortAndHostLink)
{
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("QueueDiscType", TypeIdValue(TypeId::LookupByName("ns3::FifoQueueDisc")));
    Random rng = Random::Create(3, Stream::UNIFORM);
    topo->SetAttribute("Groups", UintegerValue(kGroups));
    topo->SetAttribute("PortsPerGroup", UintegerValue(kPorts));
    topo->SetAttribute("HostsPerGroup", UintegerValue(2));
    topo->SetAttribute("HostMtu", UintegerValue(9000));
    topo->SetCircuitGraph(BuildUniformTemplate(kGroups, kPorts, rng));
    topo->Install();
    const NodeContainer hosts = topo->GetAllHosts();
    for (uint32_t h = 0; h < hosts.GetN(); ++h)
    {
        EXPECT_EQ(hosts.Get(h)->GetDevice(1)->GetMtu(), 9000u) << "HostMtu on host " << h;
    }
    EXPECT_EQ(topo->GetPortDevice(0, 0)->GetMtu(), kMtu) << "HostMtu leaves the ports alone";
    const NetDeviceContainer devices = AllDevices(topo);
    EXPECT_EQ(devices.GetN(), kGroups * (kPorts + 2 + 2));
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<QueueDisc> disc = RootDisc(devices.Get(i));
        ASSERT_TRUE(disc) << "device " << i;
        EXPECT_EQ(disc->GetInstanceTypeId().GetName(), "ns3::FifoQueueDisc") << "device " << i;
    }
    Simulator::Destroy();

    Ptr<MoseTopologyHelper> bad = CreateObject<MoseTopologyHelper>();
    bad->SetAttribute("QueueDiscType", TypeIdValue(TypeId::LookupByName("ns3::TcpSocketBase")));
    bad->SetAttribute("Groups", UintegerValue(kGroups));
    bad->SetAttribute("PortsPerGroup", UintegerValue(kPorts));
    bad->SetCircuitGraph(BuildUniformTemplate(kGroups, kPorts, rng));
    const std::string error = ns3::mose::test::ErrorOf([&] { bad->Install(); });
    EXPECT_CONTAINS(error, "MoseTopologyHelper::QueueDiscType = ns3::TcpSocketBase");
    EXPECT_CONTAINS(error, "ns3::FifoQueueDisc");
}

// A loss monitor installed before the queue discs were replaced would read zero for drops it
// never saw: every read of its counts refuses instead, naming the node and device.
TEST(QueueDisc, ALossMonitorWhoseQueueDiscsWereReplacedRefusesToCount)
{
    Ptr<MoseTopologyHelper> topo = BuildFabric(1);
    const NodeContainer all = AllNodes(topo);
    Ptr<MoseLossMonitor> monitor = CreateObject<MoseLossMonitor>();
    monitor->Install(all, topo->GetOcs());
    EXPECT_EQ(monitor->CheckQueueDiscs(), "");
    EXPECT_EQ(monitor->GetTotal(), 0u);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc");
    Replace(topo, tch);
    const std::string problem = monitor->CheckQueueDiscs();
    EXPECT_NE(problem.find("was replaced after the loss monitor was installed"), std::string::npos)
        << problem;
    EXPECT_THROW(monitor->GetTotal(), Error);
    EXPECT_THROW(monitor->GetDrops(MoseLossMonitor::QUEUE_DISC), Error);
    std::ostringstream csv;
    EXPECT_THROW(monitor->WriteCsv(csv), Error);
    // installed after the replacement, a monitor counts
    Ptr<MoseLossMonitor> after = CreateObject<MoseLossMonitor>();
    after->Install(all, topo->GetOcs());
    EXPECT_EQ(after->CheckQueueDiscs(), "");
    EXPECT_EQ(after->GetTotal(), 0u);
    Simulator::Destroy();
}
