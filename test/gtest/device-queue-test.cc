/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * MoseDeviceQueue: a port's transmission queue that wakes the queue disc when the device starts
 * its next frame. A burst through a one-packet device queue leaves back to back at the times
 * computed by hand, as with ns-3's NetDeviceQueue, in one event fewer per wake.
 */

#include "ns3/core-module.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/internet-module.h"
#include "ns3/mose-device-queue.h"
#include "ns3/mose-error.h"
#include "ns3/mose-random.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/mose-topology-template.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/point-to-point-net-device.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;
using namespace ns3::mose;

namespace
{

constexpr uint32_t kGroups = 16;    //!< N
constexpr uint32_t kPorts = 4;      //!< d
constexpr uint32_t kDatagrams = 40; //!< the burst
constexpr uint32_t kPayload = 1000; //!< UDP payload bytes of each datagram

/// What one burst run gave
struct Burst
{
    std::vector<Time> arrivals; //!< at the receiver, in order
    uint64_t events{0};         //!< Simulator::GetEventCount() at the end
    uint64_t wakes{0};          //!< MoseDeviceQueue::GetNWakes(), summed over the ports
    std::string txqType;        //!< the sending port's transmission queue type
};

/// \return a 16-group fabric of 1 Gb/s circuits with one-packet device queues, its ports'
///         transmission queues of type \p txqType
Ptr<MoseTopologyHelper>
BuildFabric(const std::string& txqType)
{
    Random rng = Random::Create(3, Stream::UNIFORM);
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("Groups", UintegerValue(kGroups));
    topo->SetAttribute("PortsPerGroup", UintegerValue(kPorts));
    topo->SetAttribute("PortTxQueuesType", TypeIdValue(TypeId::LookupByName(txqType)));
    topo->SetOcsAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
    topo->SetPortQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
    topo->SetCircuitGraph(BuildUniformTemplate(kGroups, kPorts, rng));
    topo->SetRouting(RoutingRule::SHORTEST_PATH, 0);
    topo->Install();
    return topo;
}

/// Group 1 sends kDatagrams datagrams at 1 ms to the group at the end of its port 0's circuit
Burst
RunBurst(const std::string& txqType)
{
    Ptr<MoseTopologyHelper> topo = BuildFabric(txqType);
    const uint32_t peerGroup = topo->GetPortPlan().GetPeers()[1 * kPorts + 0] / kPorts;
    Burst burst;
    Ptr<Socket> sink =
        Socket::CreateSocket(topo->GetGroupNode(peerGroup), UdpSocketFactory::GetTypeId());
    sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
    sink->SetRecvCallback(Callback<void, Ptr<Socket>>([&burst](Ptr<Socket> s) {
        while (s->Recv())
        {
            burst.arrivals.push_back(Simulator::Now());
        }
    }));
    Ptr<Socket> source = Socket::CreateSocket(topo->GetGroupNode(1), UdpSocketFactory::GetTypeId());
    const Ipv4Address to = topo->GetGroupAddress(peerGroup);
    Simulator::Schedule(MilliSeconds(1), [source, to] {
        for (uint32_t k = 0; k < kDatagrams; ++k)
        {
            source->SendTo(Create<Packet>(kPayload), 0, InetSocketAddress(to, 9));
        }
    });
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    burst.events = Simulator::GetEventCount();
    for (uint32_t g = 0; g < kGroups; ++g)
    {
        for (uint32_t p = 0; p < kPorts; ++p)
        {
            Ptr<NetDeviceQueue> txq =
                topo->GetPortDevice(g, p)->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0);
            if (g == 1 && p == 0)
            {
                burst.txqType = txq->GetInstanceTypeId().GetName();
            }
            if (Ptr<MoseDeviceQueue> q = DynamicCast<MoseDeviceQueue>(txq))
            {
                burst.wakes += q->GetNWakes();
            }
        }
    }
    Simulator::Destroy();
    return burst;
}

} // namespace

TEST(DeviceQueue, ABurstLeavesBackToBackAndEachWakeSavesAnEvent)
{
    const Burst mose = RunBurst("ns3::MoseDeviceQueue");
    const Burst ns3 = RunBurst("ns3::NetDeviceQueue");
    EXPECT_EQ(mose.txqType, "ns3::MoseDeviceQueue") << "the default's type is used";
    EXPECT_EQ(ns3.txqType, "ns3::NetDeviceQueue");
    // by hand: a datagram is 1000 + 8 (UDP) + 20 (IPv4) + 2 (PPP) = 1030 bytes, 8,240 ns at
    // 1 Gb/s; the first leaves at 1 ms and arrives after its transmission and the circuit's 1 us;
    // the queue disc holds the others and each leaves as the one before it ends
    const Time tx = NanoSeconds(8240);
    ASSERT_EQ(mose.arrivals.size(), kDatagrams);
    for (uint32_t k = 0; k < kDatagrams; ++k)
    {
        EXPECT_EQ(mose.arrivals[k], MilliSeconds(1) + MicroSeconds(1) + tx * (k + 1))
            << "datagram " << k;
    }
    EXPECT_EQ(ns3.arrivals, mose.arrivals) << "ns-3's transmission queue gives the same times";
    // one wake per datagram: the first when the idle device takes it (the queue disc's own
    // Run() is under way then), each other when the device ends the one before it
    EXPECT_EQ(mose.wakes, kDatagrams);
    EXPECT_EQ(ns3.wakes, 0u);
    EXPECT_EQ(ns3.events - mose.events, mose.wakes) << "ns-3 runs each wake as an event";
}

TEST(DeviceQueue, ATypeThatIsNoTransmissionQueueIsRefusedByName)
{
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    Random rng = Random::Create(3, Stream::UNIFORM);
    topo->SetAttribute("Groups", UintegerValue(kGroups));
    topo->SetAttribute("PortsPerGroup", UintegerValue(kPorts));
    topo->SetAttribute("PortTxQueuesType",
                       TypeIdValue(TypeId::LookupByName("ns3::DropTailQueue<Packet>")));
    topo->SetCircuitGraph(BuildUniformTemplate(kGroups, kPorts, rng));
    try
    {
        topo->Install();
        ADD_FAILURE() << "a queue of packets is no transmission queue";
    }
    catch (const Error& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("MoseTopologyHelper::PortTxQueuesType"), std::string::npos) << what;
        EXPECT_NE(what.find("ns3::DropTailQueue<Packet>"), std::string::npos) << what;
        EXPECT_NE(what.find("ns3::MoseDeviceQueue"), std::string::npos) << what;
    }
    Simulator::Destroy();
}

TEST(DeviceQueue, AttachRefusesASecondDeviceAndNulls)
{
    Ptr<MoseDeviceQueue> q = CreateObject<MoseDeviceQueue>();
    EXPECT_THROW(q->Attach(nullptr, nullptr), Error);
    Ptr<PointToPointNetDevice> device = CreateObject<PointToPointNetDevice>();
    Ptr<Queue<Packet>> queue = CreateObject<DropTailQueue<Packet>>();
    device->SetQueue(queue);
    q->Attach(device, queue);
    EXPECT_THROW(q->Attach(device, queue), Error);
    q->Dispose();
    device->Dispose();
}
