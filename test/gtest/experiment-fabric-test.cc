/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ExperimentFabric, the one fabric-and-monitors wiring of the packet-level study drivers:
 * PacketExperiment and SwitchExperiment build the same fabric for the same scenario,
 * and the fabric's steps fail loudly out of order.
 */

#include "mose-test-util.h"

#include "ns3/core-module.h"
#include "ns3/mose-error.h"
#include "ns3/mose-experiment-fabric.h"
#include "ns3/mose-packet-experiment.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-switch-experiment.h"
#include "ns3/node-list.h"

#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// What a built fabric is made of
struct FabricShape
{
    uint32_t nodes{0};               //!< every ns-3 node
    uint32_t groups{0};              //!< group nodes
    uint32_t hosts{0};               //!< hosts behind them
    std::vector<uint32_t> devices;   //!< per group node, its devices
    std::vector<Circuit> circuits;   //!< the OCS's live circuits
    std::vector<uint32_t> distances; //!< per (node, destination group), the routes' hops
    bool countsCircuits{false};      //!< a circuit monitor is installed
    bool countsLosses{false};        //!< a loss monitor is installed
    std::size_t trafficHelpers{0};   //!< traffic helpers installed
    bool switcher{false};            //!< a switcher is installed
};

/// \return the shape of an installed fabric
FabricShape
ShapeOf(const ExperimentFabric& fabric)
{
    FabricShape s;
    Ptr<MoseTopologyHelper> topo = fabric.GetTopology();
    s.nodes = NodeList::GetNNodes();
    const NodeContainer groups = topo->GetGroupNodes();
    s.groups = groups.GetN();
    s.hosts = topo->GetAllHosts().GetN();
    for (uint32_t g = 0; g < groups.GetN(); ++g)
    {
        s.devices.push_back(groups.Get(g)->GetNDevices());
    }
    s.circuits = topo->GetOcs()->GetCircuitGraph().GetCircuits();
    Ptr<MoseRouteTable> routes = topo->GetRouteTable();
    for (uint32_t u = 0; u < s.groups; ++u)
    {
        for (uint32_t v = 0; v < s.groups; ++v)
        {
            s.distances.push_back(routes->GetDistance(u, v));
        }
    }
    s.countsCircuits = fabric.GetCircuitMonitor() != nullptr;
    s.countsLosses = fabric.GetLossMonitor() != nullptr;
    s.trafficHelpers = fabric.GetTraffic().size();
    s.switcher = fabric.GetSwitcher() != nullptr;
    return s;
}

} // namespace

TEST(ExperimentFabric, PacketAndSwitchExperimentsBuildTheSameFabric)
{
    const SwitchExperimentConfig switchConfig = SwitchExperimentConfig::Scaled(16, 40);
    PacketExperimentConfig packetConfig;
    packetConfig.scenario = switchConfig.scenario;
    packetConfig.mode = switchConfig.initialMode;
    packetConfig.policy = switchConfig.policy;
    packetConfig.run = switchConfig.run;

    PacketExperiment packet(packetConfig);
    packet.Build();
    const FabricShape p = ShapeOf(packet.GetFabric());
    packet.Run();
    // Run() finished the fabric: its objects are released, its counts kept
    EXPECT_FALSE(packet.GetFabric().GetTopology());
    EXPECT_EQ(packet.GetFabric().GetPacketsLost(), packet.GetPacketsLost());
    EXPECT_EQ(packet.GetFabric().GetEvents(), packet.GetEvents());
    EXPECT_GT(packet.GetEvents(), 0u);
    // the report leaves the stream's format behind as it found it: a second report (the next
    // policy's in mose-packet) prints its flow-level line as the first
    std::ostringstream reports;
    const std::ios_base::fmtflags flags = reports.flags();
    packet.PrintReport(reports);
    EXPECT_EQ(reports.flags(), flags);
    EXPECT_EQ(reports.precision(), 6);
    packet.PrintReport(reports);
    std::vector<std::string> flowLevel;
    std::istringstream lines(reports.str());
    for (std::string line; std::getline(lines, line);)
    {
        if (line.find("flow level on the same graph") != std::string::npos)
        {
            flowLevel.push_back(line);
        }
    }
    ASSERT_EQ(flowLevel.size(), 2u);
    EXPECT_EQ(flowLevel[1], flowLevel[0]);
    std::ostringstream avgHop; // in the default format: 6 significant digits, not fixed
    avgHop << "AvgHop " << packet.GetFlowMetrics().all.avgHop << ",";
    EXPECT_NE(flowLevel[0].find(avgHop.str()), std::string::npos) << flowLevel[0];

    SwitchExperiment switching(switchConfig);
    switching.Build();
    const FabricShape s = ShapeOf(switching.GetFabric());
    switching.Run();
    EXPECT_FALSE(switching.GetFabric().GetTopology());
    EXPECT_EQ(switching.GetFabric().GetPacketsLost(), switching.GetPacketsLost());

    EXPECT_EQ(p.groups, 16u);
    EXPECT_EQ(s.groups, p.groups);
    EXPECT_EQ(s.hosts, p.hosts); // none by default (HostsPerGroup 0): the group nodes send
    EXPECT_EQ(s.nodes, p.nodes);
    EXPECT_EQ(s.devices, p.devices);
    for (uint32_t d : p.devices)
    {
        // at least the d optical ports
        EXPECT_GE(d, switchConfig.scenario.degree);
    }
    // the same circuits: the policy's template of the initial mode, the graph both report
    EXPECT_FALSE(p.circuits.empty());
    EXPECT_EQ(s.circuits, p.circuits);
    EXPECT_EQ(p.circuits, packet.GetCircuitGraph().GetCircuits());
    EXPECT_EQ(s.circuits, switching.GetIntervals().front().graph.GetCircuits());
    // and the same routes over them
    EXPECT_EQ(s.distances, p.distances);
    // the same monitors; what differs is the driver's: one traffic helper and no switcher, or
    // a switcher and one traffic helper per mode interval
    EXPECT_TRUE(p.countsCircuits && s.countsCircuits);
    EXPECT_TRUE(p.countsLosses && s.countsLosses);
    EXPECT_EQ(p.trafficHelpers, 1u);
    EXPECT_FALSE(p.switcher);
    EXPECT_EQ(s.trafficHelpers, switching.GetIntervals().size());
    EXPECT_TRUE(s.switcher);
    EXPECT_EQ(switching.GetBytesPerUnit(), packet.GetBytesPerUnit());
}

TEST(ExperimentFabric, StepsOutOfOrderFailLoudly)
{
    const FlowExperimentConfig config = PaperScaledConfig(16);
    const Scenario sc = ScenarioBuilder(config).Build(1);
    const auto inference = static_cast<std::size_t>(WorkloadMode::INFERENCE_HEAVY);
    const std::vector<MoseModeBoundary> schedule{{MilliSeconds(100), WorkloadMode::TRAINING_HEAVY}};
    auto flowsOf = [&sc](WorkloadMode mode) { return sc.flows[static_cast<std::size_t>(mode)]; };

    ExperimentFabric fabric;
    EXPECT_FALSE(fabric.GetTopology());
    ExpectErrorContaining([&] { fabric.InstallTraffic(sc.flows[inference]); }, "Install()");
    ExpectErrorContaining(
        [&] {
            fabric.InstallSwitcher(MoseModeSwitcherHelper(),
                                   Policy::MOSE,
                                   sc,
                                   schedule,
                                   WorkloadMode::INFERENCE_HEAVY);
        },
        "Install()");
    fabric.Install(config,
                   sc.roles[inference],
                   sc.GetGraph(Policy::MOSE, WorkloadMode::INFERENCE_HEAVY),
                   sc.routingSeed,
                   false);
    EXPECT_TRUE(fabric.GetTopology());
    EXPECT_FALSE(fabric.GetCircuitMonitor());
    EXPECT_TRUE(fabric.GetLossMonitor());
    ExpectErrorContaining(
        [&] {
            fabric.Install(config,
                           sc.roles[inference],
                           sc.GetGraph(Policy::MOSE, WorkloadMode::INFERENCE_HEAVY),
                           sc.routingSeed);
        },
        "installed already");
    ExpectErrorContaining(
        [&] { fabric.InstallModeTraffic(flowsOf, MilliSeconds(1), MilliSeconds(200), Seconds(1)); },
        "InstallSwitcher()");
    Ptr<MoseModeSwitcher> switcher = fabric.InstallSwitcher(MoseModeSwitcherHelper(),
                                                            Policy::MOSE,
                                                            sc,
                                                            schedule,
                                                            WorkloadMode::INFERENCE_HEAVY);
    EXPECT_EQ(switcher, fabric.GetSwitcher());
    EXPECT_EQ(switcher->GetTarget(WorkloadMode::TRAINING_HEAVY).graph.GetCircuits(),
              sc.GetGraph(Policy::MOSE, WorkloadMode::TRAINING_HEAVY).GetCircuits());
    ExpectErrorContaining(
        [&] {
            fabric.InstallSwitcher(MoseModeSwitcherHelper(),
                                   Policy::MOSE,
                                   sc,
                                   schedule,
                                   WorkloadMode::INFERENCE_HEAVY);
        },
        "once");
    const auto& traffic =
        fabric.InstallModeTraffic(flowsOf, MilliSeconds(1), MilliSeconds(200), Seconds(1));
    EXPECT_EQ(traffic.size(), 2u);
    EXPECT_GT(fabric.GetBytesPerUnit(), 0u);
    fabric.Finish();
    EXPECT_FALSE(fabric.GetTopology());
    EXPECT_FALSE(fabric.PrepareTopology());
    ExpectErrorContaining(
        [&] {
            fabric.Install(config,
                           sc.roles[inference],
                           sc.GetGraph(Policy::MOSE, WorkloadMode::INFERENCE_HEAVY),
                           sc.routingSeed);
        },
        "finished");
    EXPECT_EQ(fabric.GetPacketsLost(), 0u);
    ExpectErrorContaining([&] { fabric.GetPacketsLost(MoseLossMonitor::N_POINTS); }, "drop point");
}
