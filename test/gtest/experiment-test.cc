/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Experiment, the one packet-level run the study drivers are presets of: the packet and the
 * switching preset (InstallPacketWorkload(), InstallSwitchWorkload()) build the same fabric for the
 * same scenario, workloads of every kind share one run, and the steps fail loudly out of order.
 * MoseWorkloadHelper and MoseFlowWorkload. PolicyComparison hands every policy the one scenario it
 * drew.
 */

#include "mose-experiment.h"
#include "mose-packet-experiment.h"
#include "mose-packet-report.h"
#include "mose-policy-comparison.h"
#include "mose-switch-experiment.h"
#include "mose-test-util.h"

#include "ns3/core-module.h"
#include "ns3/mose-error.h"
#include "ns3/mose-flow-workload.h"
#include "ns3/mose-llm-workload.h"
#include "ns3/mose-scenario.h"
#include "ns3/mose-workload-helper.h"
#include "ns3/node-list.h"

#include <gtest/gtest.h>
#include <memory>
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
    std::size_t workloads{0};        //!< workloads installed
    bool switcher{false};            //!< a switcher is installed
};

/// \return the shape of an installed fabric
FabricShape
ShapeOf(const Experiment& fabric)
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
    s.workloads = fabric.GetWorkloads().size();
    s.switcher = fabric.GetSwitcher() != nullptr;
    return s;
}

/// \return a flow list as (src, dst, class, demand) text, for comparing two lists
std::string
FlowsText(const std::vector<Flow>& flows)
{
    std::ostringstream os;
    for (const Flow& f : flows)
    {
        os << f.src << ' ' << f.dst << ' ' << static_cast<int>(f.cls) << ' ' << f.demand << '\n';
    }
    return os.str();
}

} // namespace

TEST(Experiment, PacketAndSwitchExperimentsBuildTheSameFabric)
{
    const ExperimentConfig switchConfig = MakeSwitchConfig(16, 40);
    ExperimentConfig packetConfig =
        MakePacketConfig(switchConfig.scenario, switchConfig.GetInitialMode());
    packetConfig.policy = switchConfig.policy;
    packetConfig.run = switchConfig.run;

    Experiment packet(packetConfig);
    const std::shared_ptr<const PacketResult> result = InstallPacketWorkload(packet);
    packet.Build();
    const FabricShape p = ShapeOf(packet);
    packet.Run();
    // Run() finished the run: its objects are released, its counts kept
    EXPECT_FALSE(packet.GetTopology());
    EXPECT_EQ(packet.GetRunFigures().events, packet.GetEvents());
    EXPECT_GT(packet.GetEvents(), 0u);
    EXPECT_FALSE(result->transfers.empty());
    // the report leaves the stream's format behind as it found it: a second report (the next
    // policy's in mose-packet) prints its flow-level line as the first
    std::ostringstream reports;
    const std::ios_base::fmtflags flags = reports.flags();
    PrintPacketReport(reports, packet, *result);
    EXPECT_EQ(reports.flags(), flags);
    EXPECT_EQ(reports.precision(), 6);
    PrintPacketReport(reports, packet, *result);
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
    avgHop << "AvgHop " << result->metrics.all.avgHop << ",";
    EXPECT_NE(flowLevel[0].find(avgHop.str()), std::string::npos) << flowLevel[0];

    Experiment switching(switchConfig);
    const std::shared_ptr<const SwitchResult> switched = InstallSwitchWorkload(switching);
    switching.Build();
    const FabricShape s = ShapeOf(switching);
    switching.Run();
    EXPECT_FALSE(switching.GetTopology());
    EXPECT_EQ(switched->GetSummary(switching).packetsLost, switching.GetPacketsLost());

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
    EXPECT_EQ(p.circuits, result->graph.GetCircuits());
    EXPECT_EQ(s.circuits, switched->intervals.front().graph.GetCircuits());
    // and the same routes over them
    EXPECT_EQ(s.distances, p.distances);
    // the same monitors; what differs is the preset's: one flow workload and no switcher, or
    // a switcher and one flow workload per mode interval
    EXPECT_TRUE(p.countsCircuits && s.countsCircuits);
    EXPECT_TRUE(p.countsLosses && s.countsLosses);
    EXPECT_EQ(p.workloads, 1u);
    EXPECT_FALSE(p.switcher);
    EXPECT_EQ(s.workloads, switched->intervals.size());
    EXPECT_TRUE(s.switcher);
    EXPECT_EQ(switched->bytesPerUnit, packet.GetBytesPerUnit());
}

TEST(Experiment, StepsOutOfOrderFailLoudly)
{
    ExperimentConfig config;
    config.scenario = PaperScaledConfig(16);
    config.scenario.flows = 20;
    config.schedule = {{WorkloadMode::INFERENCE_HEAVY, 0.1}, {WorkloadMode::TRAINING_HEAVY, 0}};
    config.end = MilliSeconds(200);
    config.stopTime = Seconds(1);
    const Scenario sc = ScenarioBuilder(config.scenario).Build(1);
    auto flowsOf = [&sc](WorkloadMode mode) { return sc.flows[static_cast<std::size_t>(mode)]; };

    Experiment e(config);
    EXPECT_FALSE(e.GetTopology());
    ExpectErrorContaining([&] { e.InstallFlows(sc.flows[0]); }, "Build()");
    ExpectErrorContaining([&] { e.Run(); }, "Build()");
    ExpectErrorContaining([&] { e.SetScenario(nullptr); }, "run 1 and 16 groups");
    e.Build();
    ExpectErrorContaining([&] { e.Build(); }, "already");
    EXPECT_TRUE(e.GetTopology());
    EXPECT_TRUE(e.GetCircuitMonitor());
    EXPECT_TRUE(e.GetLossMonitor());
    ASSERT_TRUE(e.GetSwitcher());
    EXPECT_EQ(e.GetSwitcher()->GetTarget(WorkloadMode::TRAINING_HEAVY).graph.GetCircuits(),
              sc.GetGraph(Policy::MOSE, WorkloadMode::TRAINING_HEAVY).GetCircuits());
    // the scenario it drew is the one the builder gives
    EXPECT_EQ(e.GetScenario().routingSeed, sc.routingSeed);
    ASSERT_EQ(e.GetIntervals().size(), 2u);
    EXPECT_EQ(e.GetIntervals()[1].start, MilliSeconds(100));
    EXPECT_EQ(e.GetIntervals()[1].end, MilliSeconds(200));
    EXPECT_EQ(e.GetIntervals()[1].graph.GetCircuits(),
              sc.GetGraph(Policy::MOSE, WorkloadMode::TRAINING_HEAVY).GetCircuits());
    // a workload on a transport needs the transport
    ExpectErrorContaining(
        [&] { e.InstallWorkload(MoseWorkloadHelper("ns3::MoseTrainingWorkload")); },
        "no transport");
    const auto workloads = e.InstallModeFlows(flowsOf, MilliSeconds(1), MilliSeconds(10));
    EXPECT_EQ(workloads.size(), 2u);
    EXPECT_EQ(e.GetWorkloads().size(), 2u);
    EXPECT_GT(e.GetBytesPerUnit(), 0u);
    e.Run();
    EXPECT_FALSE(e.GetTopology());
    EXPECT_FALSE(e.PrepareTopology());
    ExpectErrorContaining([&] { e.InstallFlows(sc.flows[0]); }, "Build()");
    EXPECT_EQ(e.GetPacketsLost(), 0u);
    EXPECT_EQ(e.GetNErrors(), 0u);
    EXPECT_EQ(e.GetSwitchRecords().size(), 1u);
    ExpectErrorContaining([&] { e.GetPacketsLost(MoseLossMonitor::N_POINTS); }, "drop point");

    // a run without switcher has no mode flows, and no graph file with a switcher
    ExperimentConfig still = config;
    still.switcher = false;
    still.schedule = ModeSchedule();
    Experiment s(still);
    s.Build();
    ExpectErrorContaining([&] { s.InstallModeFlows(flowsOf, MilliSeconds(1), Seconds(1)); },
                          "switcher");
    s.Run();
    ExperimentConfig file = config;
    file.graphFile = "graph.csv";
    ExpectErrorContaining([&] { Experiment(file).Build(); }, "graph file");
}

TEST(Experiment, WorkloadsOfEveryKindShareOneRunAndFollowTheSwitch)
{
    // requests, a training job and the scenario's flows of every mode interval in one run with
    // one switch: every workload ends done, the run stops on its own, nothing is lost
    ExperimentConfig config;
    config.scenario = PaperScaledConfig(16);
    config.scenario.flows = 20;
    config.schedule = {{WorkloadMode::INFERENCE_HEAVY, 0.04}, {WorkloadMode::TRAINING_HEAVY, 0}};
    config.end = MilliSeconds(80);
    config.stopTime = Seconds(2);
    config.ocsRate = DataRate("10Gbps");
    config.hostRate = DataRate("10Gbps");
    Experiment e(config);
    e.Build();
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    e.InstallTransport(transport);

    MoseWorkloadHelper inference("ns3::MoseInferenceWorkload");
    inference.SetAttribute("PrefillTokensPerSecond", DoubleValue(1e6));
    inference.SetAttribute("KvBytesPerToken", UintegerValue(1024));
    inference.SetAttribute("PlacementRule", StringValue("round-robin"));
    auto requests = DynamicCast<MoseInferenceWorkload>(e.InstallWorkload(inference));
    ASSERT_TRUE(requests);
    std::vector<LlmRequest> list;
    for (uint32_t i = 0; i < 20; ++i)
    {
        list.push_back(LlmRequest{i * 3000000ULL, 100 + i, 10});
    }
    requests->SetRequests(list);
    requests->Start(Seconds(0));

    MoseWorkloadHelper training("ns3::MoseTrainingWorkload");
    training.SetAttribute("CollectiveBytes", UintegerValue(160000));
    training.SetAttribute("ComputeTime", TimeValue(MilliSeconds(5)));
    auto job = DynamicCast<MoseTrainingWorkload>(e.InstallWorkload(training));
    ASSERT_TRUE(job);
    job->Start(Seconds(0));
    e.StopWorkloadAt(job, MilliSeconds(80));

    const Scenario& sc = e.GetScenario();
    const auto flows = e.InstallModeFlows(
        [&sc](WorkloadMode mode) { return sc.flows[static_cast<std::size_t>(mode)]; },
        MilliSeconds(1),
        MilliSeconds(10));
    ASSERT_EQ(flows.size(), 2u);
    EXPECT_EQ(e.GetWorkloads().size(), 4u);
    e.SetCollect([&]() {
        for (const Ptr<MoseWorkload>& w : e.GetWorkloads())
        {
            EXPECT_TRUE(w->IsDone());
            EXPECT_EQ(w->GetNErrors(), 0u);
        }
        EXPECT_EQ(requests->GetNDone(), 20u);
        // one transfer record: the transport's carry their class, the flows' theirs
        for (const MoseTransfer& t : requests->GetTransfers())
        {
            EXPECT_EQ(t.cls, TrafficClass::KV);
            EXPECT_TRUE(t.complete);
            EXPECT_EQ(t.received, t.bytes);
        }
        ASSERT_FALSE(job->GetTransfers().empty());
        for (const MoseTransfer& t : job->GetTransfers())
        {
            EXPECT_EQ(t.cls, TrafficClass::TRAINING);
        }
        // the requests placed after the switch used the training-heavy roles
        for (const MoseRequestRecord& r : requests->GetRecords())
        {
            EXPECT_EQ(r.mode,
                      r.arrival < MilliSeconds(40) ? WorkloadMode::INFERENCE_HEAVY
                                                   : WorkloadMode::TRAINING_HEAVY);
        }
        EXPECT_EQ(flows[1]->GetNDone(), flows[1]->GetMonitor()->GetNTransfers());
    });
    e.Run();
    EXPECT_EQ(e.GetPacketsLost(), 0u);
    EXPECT_EQ(e.GetNErrors(), 0u);
    EXPECT_EQ(e.GetSwitchRecords().size(), 1u);
    EXPECT_EQ(e.GetNSwitchesStarted(), 1u);
    EXPECT_LT(e.GetSimulatedSeconds(), 2.0); // stopped on its own, not at stopTime
}

TEST(MoseWorkloadHelper, OnlyWorkloadTypesAndTheRightInstall)
{
    ExpectErrorContaining([] { MoseWorkloadHelper("ns3::MoseOcs"); },
                          "invalid MoseWorkloadHelper type = \"ns3::MoseOcs\"");
    ExpectErrorContaining([] { MoseWorkloadHelper("ns3::NoSuchType"); }, "MoseWorkload type");
    ExpectErrorContaining([] { MoseWorkloadHelper("ns3::MoseWorkload"); }, "MoseWorkload type");
    EXPECT_EQ(MoseWorkloadHelper("ns3::MoseFlowWorkload").GetTypeId(),
              MoseFlowWorkload::GetTypeId());
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    ExpectErrorContaining([&] { MoseWorkloadHelper("ns3::MoseFlowWorkload").Install(transport); },
                          "does not run on a transport");
    ExpectErrorContaining(
        [&] {
            MoseWorkloadHelper("ns3::MoseInferenceWorkload")
                .Install(CreateObject<MoseTrafficHelper>(), NodeContainer(), {});
        },
        "takes no flow list");
    Simulator::Destroy();
}

TEST(MoseFlowWorkload, StopWithdrawsTheTransfersNotStartedAndStartDelaysThem)
{
    ExperimentConfig config;
    config.scenario = PaperScaledConfig(16);
    config.scenario.flows = 40;
    config.switcher = false;
    config.stopTime = Seconds(5);
    Experiment e(config);
    Config::SetDefault("ns3::MoseTrafficHelper::StartMode", StringValue("uniform"));
    Config::SetDefault("ns3::MoseTrafficHelper::StartWindow", TimeValue(MilliSeconds(100)));
    e.Build();
    Ptr<MoseFlowWorkload> w = e.InstallFlows(e.GetInitialModeScenario().flows);
    Config::Reset();
    const std::vector<MoseTransfer> drawn = w->GetTransfers();
    ASSERT_GT(drawn.size(), 4u);
    w->Start(MilliSeconds(20)); // every transfer 20 ms later
    const std::vector<MoseTransfer> delayed = w->GetTransfers();
    uint32_t late = 0;
    for (std::size_t i = 0; i < drawn.size(); ++i)
    {
        EXPECT_EQ(delayed[i].start, drawn[i].start + MilliSeconds(20));
        late += delayed[i].start > MilliSeconds(70) ? 1 : 0;
    }
    ASSERT_GT(late, 0u);
    e.StopWorkloadAt(w, MilliSeconds(70));
    e.Run();
    // the transfers that had not started by 70 ms were withdrawn and sent nothing
    EXPECT_EQ(w->GetNWithdrawn(), late);
    EXPECT_TRUE(w->IsDone());
    EXPECT_EQ(w->GetNDone() + late, drawn.size());
    for (const MoseTransfer& t : w->GetTransfers())
    {
        EXPECT_EQ(t.complete, t.start <= MilliSeconds(70));
        if (t.start > MilliSeconds(70))
        {
            EXPECT_EQ(t.received, 0u);
        }
    }
    EXPECT_EQ(e.GetPacketsLost(), 0u);
    ExpectErrorContaining([&] { w->Start(MilliSeconds(1)); }, "once the simulation runs");
}

TEST(PolicyComparison, EveryPolicyRunsOnTheOneScenarioDrawnOnce)
{
    ExperimentConfig config =
        MakePacketConfig(PaperScaledConfig(16), WorkloadMode::INFERENCE_HEAVY);
    config.scenario.flows = 20;
    config.stopTime = Seconds(5);
    const Scenario drawn = ScenarioBuilder(config.scenario).Build(config.run);

    // two policies: the scenario is drawn once, before the first, and handed to both; what
    // differs is the circuits, each the policy's template of the same scenario
    PolicyComparison two({Policy::STATIC_TRAINING, Policy::MOSE});
    EXPECT_EQ(two.GetScenario(), nullptr);
    std::vector<Policy> ran;
    std::vector<std::vector<Circuit>> circuits;
    std::vector<std::string> flows;
    // what mose-packet's RunPacketPolicies() does with each policy
    two.Run(config, [&](const ExperimentConfig& c, std::shared_ptr<const Scenario> s) {
        Experiment e(c);
        e.SetScenario(s);
        const std::shared_ptr<const PacketResult> r = InstallPacketWorkload(e);
        e.Build();
        ran.push_back(e.GetConfig().policy);
        EXPECT_EQ(e.GetSharedScenario(), two.GetScenario());
        circuits.push_back(r->graph.GetCircuits());
        flows.push_back(FlowsText(e.GetInitialModeScenario().flows));
        e.Run();
        EXPECT_EQ(e.GetPacketsLost(), 0u);
    });
    ASSERT_NE(two.GetScenario(), nullptr);
    EXPECT_EQ(two.GetScenario()->routingSeed, drawn.routingSeed);
    EXPECT_EQ(ran, (std::vector<Policy>{Policy::STATIC_TRAINING, Policy::MOSE}));
    ASSERT_EQ(circuits.size(), 2u);
    EXPECT_EQ(circuits[0],
              drawn.GetGraph(Policy::STATIC_TRAINING, config.GetInitialMode()).GetCircuits());
    EXPECT_EQ(circuits[1], drawn.GetGraph(Policy::MOSE, config.GetInitialMode()).GetCircuits());
    EXPECT_NE(circuits[0], circuits[1]);
    ASSERT_EQ(flows.size(), 2u);
    EXPECT_FALSE(flows[0].empty());
    EXPECT_EQ(flows[0], FlowsText(drawn.flows[static_cast<std::size_t>(config.GetInitialMode())]));
    EXPECT_EQ(flows[1], flows[0]);

    // one policy draws nothing itself: the experiment draws its mode only
    PolicyComparison one({Policy::MOSE});
    one.Run(config, [&](const ExperimentConfig& c, std::shared_ptr<const Scenario> s) {
        EXPECT_EQ(s, nullptr);
        Experiment e(c);
        const std::shared_ptr<const PacketResult> r = InstallPacketWorkload(e);
        e.Build();
        EXPECT_EQ(e.GetSharedScenario(), nullptr);
        EXPECT_EQ(r->graph.GetCircuits(), circuits[1]);
        e.Run();
    });
    EXPECT_EQ(one.GetScenario(), nullptr);

    // a scenario given is handed on, and must be the run's
    PolicyComparison given({Policy::MOSE, Policy::STATIC_INFERENCE});
    given.SetScenario(std::make_shared<const Scenario>(drawn));
    ExperimentConfig other = config;
    other.run = 2;
    ExpectErrorContaining(
        [&] {
            given.Run(other, [&](const ExperimentConfig& c, std::shared_ptr<const Scenario> s) {
                Experiment(c).SetScenario(s);
            });
        },
        "run 2 and 16 groups");
    ExpectErrorContaining([] { PolicyComparison({}); }, "no policy");
}
