/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Config paths: every trace source of the module reached with Config::Connect through its
 * documented path (doc/mose.rst, "Config paths and trace sources"), each matching exactly the
 * objects it names and firing exactly as often as the run's own counters say; the root lists of
 * MoseObjectList belong to one simulation.
 */

#include "../mose-config-path-scenario.h"
#include "mose-test-util.h"

#include "ns3/config.h"
#include "ns3/ipv4-address.h"
#include "ns3/mose-object-list.h"
#include "ns3/mose-ocs.h"
#include "ns3/mose-route-table.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// \return the count of a path the scenario connected (a test failure if it did not)
ConfigPathCount
CountOf(const ConfigPathRun& r, const std::string& path)
{
    auto it = r.counts.find(path);
    EXPECT_NE(it, r.counts.end()) << path << " was not connected";
    return it == r.counts.end() ? ConfigPathCount{} : it->second;
}

} // namespace

TEST(ConfigPath, EveryTraceSourceFiresThroughItsPath)
{
    const ConfigPathRun r = RunConfigPathScenario();
    const SwitchRun& run = r.run;
    ASSERT_EQ(r.groups, 16u);
    ASSERT_EQ(r.ports, 4u);
    ASSERT_EQ(run.records.size(), 1u);
    const MoseSwitchRecord& rec = run.records[0];
    EXPECT_TRUE(rec.done);
    EXPECT_EQ(r.disconnected, 1u) << "a busy circuit was found and cut";
    EXPECT_EQ(r.holdQueueSize, 2u) << "Config::Set reached the protocols' attribute";
    EXPECT_EQ(r.ocsPath, "/MoseOcsList/0");
    EXPECT_EQ(r.tablePath, "/MoseRouteTableList/0");
    EXPECT_EQ(r.lossPath, "/MoseLossMonitorList/0");
    EXPECT_EQ(r.counts.size(), 21u) << "every connected path is checked below";

    const uint64_t released = run.holdEntered - run.holdDrops;
    const std::vector<ConfigPathExpected> expected = ExpectedConfigPathCounts(r);
    EXPECT_EQ(expected.size() + 1, r.counts.size()) << "and TransferRx, checked by bytes below";
    for (const ConfigPathExpected& e : expected)
    {
        const ConfigPathCount c = CountOf(r, e.path);
        EXPECT_EQ(c.matches, e.matches) << e.path;
        EXPECT_EQ(c.fires, e.fires) << e.path;
        EXPECT_GT(c.fires, 0u) << e.path << " fires in this run";
    }
    // the counters behind the expectations are not trivially zero
    EXPECT_EQ(run.noRouteDrops, 1u) << "the one UDP packet to an unassigned address";
    EXPECT_EQ(run.ocsRejected, 1u) << "the one connect of two lit ports";
    EXPECT_GT(rec.removed, 0u);
    EXPECT_GT(run.holdDrops, 0u);
    EXPECT_GT(released, 0u);
    EXPECT_EQ(run.drops[MoseLossMonitor::NO_ROUTE], run.noRouteDrops);
    EXPECT_EQ(run.drops[MoseLossMonitor::HOLD], run.holdDrops);
    EXPECT_EQ(run.drops[MoseLossMonitor::DARK_PORT], run.ocsDarkDrops);
    EXPECT_EQ(run.drops[MoseLossMonitor::WIRE], run.ocsWireDrops);
    const ConfigPathCount rx = CountOf(r, paths::TRANSFERS + "TransferRx");
    EXPECT_EQ(rx.matches, 2u);
    EXPECT_GT(rx.fires, 0u);
    EXPECT_EQ(r.rxBytes, run.bytesReceived) << "TransferRx reports every byte once";
    EXPECT_EQ(run.completed, run.transfers) << "TCP recovers from every loss";
}

TEST(ConfigPath, RootListsBelongToOneSimulation)
{
    // nothing listed before a fabric exists; a second simulation starts again at index 0, and
    // two OCSes of one simulation are 0 and 1
    Simulator::Destroy();
    EXPECT_EQ(MoseObjectList::GetN(MoseObjectList::OCS), 0u);
    EXPECT_EQ(Config::LookupMatches("/MoseOcsList/*").GetN(), 0u);
    for (int simulation = 0; simulation < 2; ++simulation)
    {
        Ptr<MoseOcs> a = CreateObject<MoseOcs>();
        EXPECT_EQ(MoseObjectList::GetPath(a), "") << "not listed before SetSize()";
        a->SetSize(4, 2);
        Ptr<MoseOcs> b = CreateObject<MoseOcs>();
        b->SetSize(4, 2);
        EXPECT_EQ(MoseObjectList::GetPath(a), "/MoseOcsList/0");
        EXPECT_EQ(MoseObjectList::GetPath(b), "/MoseOcsList/1");
        EXPECT_EQ(MoseObjectList::Add(MoseObjectList::OCS, a), 0u) << "listed once";
        EXPECT_EQ(MoseObjectList::GetN(MoseObjectList::OCS), 2u);
        EXPECT_EQ(MoseObjectList::Get(MoseObjectList::OCS, 1), b);
        EXPECT_EQ(Config::LookupMatches("/MoseOcsList/*").GetN(), 2u);
        EXPECT_EQ(Config::LookupMatches("/MoseOcsList/1").Get(0), b);
        Config::Set("/MoseOcsList/1/Delay", TimeValue(MicroSeconds(3)));
        TimeValue delay;
        b->GetAttribute("Delay", delay);
        EXPECT_EQ(delay.Get(), MicroSeconds(3));
        auto table = CreateObject<MoseRouteTable>();
        table->SetAddressing(MoseAddressing(4, 2));
        EXPECT_EQ(MoseObjectList::GetPath(table), "/MoseRouteTableList/0");
        Simulator::Destroy();
        EXPECT_EQ(MoseObjectList::GetN(MoseObjectList::OCS), 0u);
        EXPECT_EQ(MoseObjectList::GetPath(a), "") << "the list emptied at Destroy";
        EXPECT_EQ(Config::LookupMatches("/MoseOcsList/*").GetN(), 0u);
        EXPECT_EQ(a->GetNGroups(), 4u) << "the objects themselves are not disposed";
    }
}

TEST(ConfigPath, TwoFabricsInOneSimulationAreZeroAndOne)
{
    std::vector<Circuit> circuits;
    for (uint32_t i = 0; i < 16; ++i)
    {
        for (uint32_t step : {1U, 4U})
        {
            const uint32_t j = (i + step) % 16;
            circuits.push_back({std::min(i, j), std::max(i, j)});
        }
    }
    std::vector<Ptr<MoseTopologyHelper>> fabrics;
    for (int f = 0; f < 2; ++f)
    {
        Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
        topo->SetAttribute("Groups", UintegerValue(16));
        topo->SetAttribute("AddressBase", Ipv4AddressValue(f == 0 ? "10.0.0.0" : "10.1.0.0"));
        topo->SetCircuitGraph(CircuitGraph(16, circuits));
        topo->Install();
        fabrics.push_back(topo);
    }
    for (uint32_t f = 0; f < 2; ++f)
    {
        const std::string i = std::to_string(f);
        EXPECT_EQ(MoseObjectList::GetPath(fabrics[f]->GetOcs()), "/MoseOcsList/" + i);
        EXPECT_EQ(MoseObjectList::GetPath(fabrics[f]->GetRouteTable()), "/MoseRouteTableList/" + i);
        EXPECT_EQ(Config::LookupMatches("/MoseOcsList/" + i).Get(0), fabrics[f]->GetOcs());
        // the group nodes of fabric f are its own: its protocol's RouteTable is its table
        const uint32_t node = fabrics[f]->GetGroupNode(3)->GetId();
        Config::MatchContainer tables = Config::LookupMatches(
            "/NodeList/" + std::to_string(node) + "/$ns3::MoseRoutingProtocol/RouteTable");
        ASSERT_EQ(tables.GetN(), 1u);
        EXPECT_EQ(tables.Get(0), fabrics[f]->GetRouteTable());
    }
    EXPECT_EQ(Config::LookupMatches("/MoseOcsList/*").GetN(), 2u);
    EXPECT_EQ(Config::LookupMatches("/MoseRouteTableList/*").GetN(), 2u);
    EXPECT_EQ(Config::LookupMatches("/NodeList/*/$ns3::MoseRoutingProtocol").GetN(), 32u);
    EXPECT_EQ(Config::LookupMatches("/ChannelList/*/$ns3::MoseOcsChannel").GetN(), 128u);
    Simulator::Destroy();
}

TEST(ConfigPath, BadListArgumentsNameTheValue)
{
    EXPECT_CONTAINS(
        ErrorOf([] { MoseObjectList::Add(MoseObjectList::OCS, CreateObject<MoseRouteTable>()); }),
        "an object of type ns3::MoseRouteTable");
    EXPECT_CONTAINS(ErrorOf([] { MoseObjectList::Add(MoseObjectList::OCS, nullptr); }),
                    "MoseOcsList is null");
    EXPECT_CONTAINS(ErrorOf([] { MoseObjectList::Get(MoseObjectList::LOSS_MONITOR, 3); }), "index");
    EXPECT_CONTAINS(ErrorOf([] { MoseObjectList::GetN(MoseObjectList::N_KINDS); }), "kind");
    Simulator::Destroy();
}
