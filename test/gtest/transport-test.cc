/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MoseTransport's kept connections, alike on both transports (MoseSocketTransfers over ns-3's
// TCP, MoseRdmaTransport over RoCEv2): StartOnConnection() reuses a pair's connection,
// CloseConnections() closes exactly those that touch its groups, and what was under way on a
// closed connection still arrives.

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mose-transport-helper.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

// Three groups on a line (0 - 1 - 2), one node each. At time 0: kept connections 0->1, 1->2,
// 2->0 and 0->2 (4 opened), a second transfer on 0->1 (still 4); CloseConnections({2, 7})
// closes the three that touch group 2 (7 is no group and matches none), an empty list closes
// none; then 0->2 opens a new connection (5) and 0->1 keeps its own (5). Every transfer
// arrives, those on the closed connections too. At 50 ms CloseConnections({0}) closes the two
// kept connections left that touch group 0: 0->1 and the new 0->2.
TEST(Transport, CloseConnectionsClosesExactlyThoseOfItsGroups)
{
    for (const std::string name : {"tcp", "rdma"})
    {
        NodeContainer n;
        n.Create(3);
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("10Gb/s"));
        link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        const NetDeviceContainer left = link.Install(n.Get(0), n.Get(1));
        const NetDeviceContainer right = link.Install(n.Get(1), n.Get(2));
        InternetStackHelper().Install(n);
        Ipv4AddressHelper("10.1.0.0", "255.255.255.0").Assign(left);
        Ipv4AddressHelper("10.2.0.0", "255.255.255.0").Assign(right);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        MoseTransportHelper helper(MoseTransportHelper::GetTypeName("--transport", name));
        Ptr<MoseTransport> t = helper.Install(
            {NodeContainer(n.Get(0)), NodeContainer(n.Get(1)), NodeContainer(n.Get(2))});

        const MoseTransport::DoneCallback none;
        std::vector<uint64_t> counts;
        Simulator::Schedule(Seconds(0), [&]() {
            t->StartOnConnection(0, 1, 5000, none);
            t->StartOnConnection(1, 2, 5000, none);
            t->StartOnConnection(2, 0, 5000, none);
            t->StartOnConnection(0, 2, 5000, none);
            counts.push_back(t->GetNConnections());
            t->StartOnConnection(0, 1, 3000, none);
            counts.push_back(t->GetNConnections());
            counts.push_back(t->CloseConnections({2, 7}));
            counts.push_back(t->CloseConnections({}));
            t->StartOnConnection(0, 2, 2000, none);
            counts.push_back(t->GetNConnections());
            t->StartOnConnection(0, 1, 1000, none);
            counts.push_back(t->GetNConnections());
        });
        Simulator::Schedule(MilliSeconds(50),
                            [&]() { counts.push_back(t->CloseConnections({0})); });
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        EXPECT_EQ(counts, (std::vector<uint64_t>{4, 4, 3, 0, 5, 5, 2})) << name;
        EXPECT_EQ(t->GetNTransfers(), 7u) << name;
        EXPECT_EQ(t->GetNCompleted(), 7u) << name;
        EXPECT_EQ(t->GetBytesBetween(0, 1), 9000u) << name;
        EXPECT_EQ(t->GetBytesBetween(1, 2), 5000u) << name;
        EXPECT_EQ(t->GetBytesBetween(2, 0), 5000u) << name;
        EXPECT_EQ(t->GetBytesBetween(0, 2), 7000u) << name;
        EXPECT_EQ(t->GetNErrors(), 0u) << name;
        Simulator::Destroy();
    }
}
