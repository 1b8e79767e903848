/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ModeSwitcher: drain and relink at mode boundaries with nothing lost, the switch's costs,
 * its batches, its timeouts, its determinism and its configuration errors.
 */

#include "../mose-switch-scenario.h"
#include "mose-test-util.h"

#include "ns3/core-module.h"
#include "ns3/mose-mode-switcher-helper.h"
#include "ns3/point-to-point-net-device.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

TEST(ModeSwitcher, TransfersAcrossASwitchLoseNothingK1)
{
    SwitchRun r = RunSwitchScenario(SwitchRunOptions{});
    ASSERT_EQ(r.records.size(), 1u);
    const MoseSwitchRecord& rec = r.records[0];
    EXPECT_TRUE(rec.done);
    EXPECT_EQ(rec.from, WorkloadMode::INFERENCE_HEAVY);
    EXPECT_EQ(rec.to, WorkloadMode::TRAINING_HEAVY);
    EXPECT_EQ(rec.batches.size(), 1u);
    EXPECT_GT(rec.removed, 0u);
    EXPECT_EQ(rec.lost, 0u);
    EXPECT_EQ(r.lost, 0u);
    EXPECT_EQ(r.errors, 0u);
    EXPECT_GT(rec.packetsHeld, 0u) << "the K=1 switch cuts groups off: packets wait";
    EXPECT_GT(rec.longestHold, MilliSeconds(10) - NanoSeconds(1));
    EXPECT_GE(rec.darkTime, MilliSeconds(10));
    EXPECT_GT(r.transfersAtBoundary, 0u) << "transfers were in flight at the boundary";
    EXPECT_EQ(r.completed, r.transfers);
    EXPECT_GT(r.transfers, 20u);
}

TEST(ModeSwitcher, TransfersAcrossASwitchLoseNothingK4)
{
    SwitchRunOptions o;
    o.phases = 4;
    SwitchRun r = RunSwitchScenario(o);
    ASSERT_EQ(r.records.size(), 1u);
    const MoseSwitchRecord& rec = r.records[0];
    EXPECT_TRUE(rec.done);
    EXPECT_EQ(rec.batches.size(), 4u);
    uint32_t removed = 0;
    uint32_t added = 0;
    for (const auto& b : rec.batches)
    {
        removed += static_cast<uint32_t>(b.removed.size());
        added += static_cast<uint32_t>(b.added.size());
        EXPECT_TRUE(b.connected) << "a 4-regular expander keeps connected batch by batch";
        EXPECT_FALSE(b.drainTimedOut);
    }
    EXPECT_EQ(removed, rec.removed);
    EXPECT_EQ(added, rec.added);
    EXPECT_EQ(rec.blackoutTime, Time(0));
    EXPECT_EQ(rec.lost, 0u);
    EXPECT_EQ(r.lost, 0u);
    EXPECT_EQ(r.completed, r.transfers);
    EXPECT_GT(r.transfersAtBoundary, 0u);
    EXPECT_GE(rec.darkTime, MilliSeconds(40));
}

TEST(ModeSwitcher, CircuitsChangedEqualTheTemplateDifference)
{
    SwitchRunOptions o;
    o.checkKeptTraffic = true;
    SwitchRun r = RunSwitchScenario(o);
    ASSERT_EQ(r.records.size(), 1u);
    const MoseSwitchRecord& rec = r.records[0];
    const CircuitDiff diff = DiffCircuits(r.initialGraph, r.targetGraph);
    EXPECT_EQ(rec.kept, diff.kept.size());
    EXPECT_EQ(rec.removed, diff.removed.size());
    EXPECT_EQ(rec.added, diff.added.size());
    EXPECT_GT(rec.kept, 0u);
    // after the switch the OCS is exactly the target graph
    EXPECT_EQ(r.finalGraph.GetCircuits(), r.targetGraph.GetCircuits());
    EXPECT_GT(r.keptTxDuringSwitch, 0u) << "kept circuits carried traffic during the switch";
}

TEST(ModeSwitcher, WithoutDrainLossesOccurAndAreCounted)
{
    SwitchRunOptions o;
    o.drain = false;
    o.stop = Seconds(30);
    SwitchRun r = RunSwitchScenario(o);
    ASSERT_EQ(r.records.size(), 1u);
    const MoseSwitchRecord& rec = r.records[0];
    EXPECT_GT(rec.lost, 0u);
    EXPECT_EQ(rec.drops[MoseLossMonitor::DARK_PORT] + rec.drops[MoseLossMonitor::WIRE],
              r.ocsDarkDrops + r.ocsWireDrops);
    uint64_t sum = 0;
    for (uint64_t v : rec.drops)
    {
        sum += v;
    }
    EXPECT_EQ(sum, rec.lost);
    EXPECT_EQ(rec.drainTime, Time(0));
    EXPECT_GE(r.lost, rec.lost);
}

TEST(ModeSwitcher, HoldQueueOverflowIsTheOnlyLossAndIsCounted)
{
    SwitchRunOptions o;
    o.holdQueueSize = 2;
    o.stop = Seconds(30);
    SwitchRun r = RunSwitchScenario(o);
    ASSERT_EQ(r.records.size(), 1u);
    const MoseSwitchRecord& rec = r.records[0];
    EXPECT_GT(rec.drops[MoseLossMonitor::HOLD], 0u);
    EXPECT_EQ(rec.lost, rec.drops[MoseLossMonitor::HOLD]) << "drained: no other drop point";
    EXPECT_EQ(r.lost, r.holdDrops) << "every hold drop counted once, nothing else lost";
    EXPECT_EQ(r.completed, r.transfers) << "TCP recovers";
}

TEST(ModeSwitcher, DrainThatCannotFinishEndsAtTheTimeout)
{
    SwitchRunOptions o;
    o.drainTimeout = NanoSeconds(100); // shorter than one packet's serialisation
    o.stop = Seconds(30);
    SwitchRun r = RunSwitchScenario(o);
    ASSERT_EQ(r.records.size(), 1u);
    const MoseSwitchRecord& rec = r.records[0];
    EXPECT_TRUE(rec.done);
    EXPECT_EQ(rec.drainTimeouts, 1u);
    ASSERT_EQ(rec.batches.size(), 1u);
    EXPECT_TRUE(rec.batches[0].drainTimedOut);
    EXPECT_GT(rec.batches[0].packetsLeft, 0u);
    EXPECT_EQ(rec.drainTime, NanoSeconds(100));
    // what was left is lost and counted, nothing else
    EXPECT_GT(rec.lost, 0u);
    EXPECT_EQ(rec.lost, rec.drops[MoseLossMonitor::DARK_PORT] + rec.drops[MoseLossMonitor::WIRE]);
}

TEST(ModeSwitcher, SameRunGivesIdenticalResults)
{
    SwitchRunOptions o;
    o.phases = 2;
    SwitchRun a = RunSwitchScenario(o);
    SwitchRun b = RunSwitchScenario(o);
    ASSERT_EQ(a.records.size(), b.records.size());
    for (std::size_t i = 0; i < a.records.size(); ++i)
    {
        EXPECT_EQ(a.records[i].end, b.records[i].end);
        EXPECT_EQ(a.records[i].drainTime, b.records[i].drainTime);
        EXPECT_EQ(a.records[i].packetsHeld, b.records[i].packetsHeld);
        EXPECT_EQ(a.records[i].longestHold, b.records[i].longestHold);
        EXPECT_EQ(a.records[i].lost, b.records[i].lost);
    }
    EXPECT_EQ(a.fcts, b.fcts);
    EXPECT_FALSE(a.fcts.empty());
}

TEST(ModeSwitcher, StaticPolicySwitchesNothing)
{
    SwitchRunOptions o;
    o.policy = "S-Train";
    SwitchRun r = RunSwitchScenario(o);
    ASSERT_EQ(r.records.size(), 1u);
    const MoseSwitchRecord& rec = r.records[0];
    EXPECT_TRUE(rec.done);
    EXPECT_EQ(rec.removed, 0u);
    EXPECT_EQ(rec.added, 0u);
    EXPECT_TRUE(rec.batches.empty());
    EXPECT_EQ(rec.GetDuration(), Time(0));
    EXPECT_EQ(r.lost, 0u);
    EXPECT_EQ(r.completed, r.transfers);
}

TEST(ModeSwitcher, TwoSwitchesThereAndBack)
{
    SwitchRunOptions o;
    o.schedule = {{WorkloadMode::INFERENCE_HEAVY, 0.05},
                  {WorkloadMode::TRAINING_HEAVY, 0.45},
                  {WorkloadMode::INFERENCE_HEAVY, 0}};
    o.phases = 2;
    SwitchRun r = RunSwitchScenario(o);
    ASSERT_EQ(r.records.size(), 2u);
    EXPECT_TRUE(r.records[1].done);
    EXPECT_EQ(r.records[1].to, WorkloadMode::INFERENCE_HEAVY);
    EXPECT_EQ(r.finalGraph.GetCircuits(), r.initialGraph.GetCircuits());
    EXPECT_EQ(r.lost, 0u);
    EXPECT_EQ(r.completed, r.transfers);
}

TEST(ModeSwitcher, BatchesKeepTheFabricConnected)
{
    // replays the batches on the port matching: each batch's "connected" is the truth, every
    // batch of K >= 4 is connected on these runs, and the batches end at the target
    for (uint64_t run : {1u, 2u, 3u})
    {
        SwitchScenario s(run);
        const PortPlan current = PlanPorts(s.templates[1], 4);
        const PortPlan target = PlanPorts(s.templates[0], current);
        const PortCircuitDiff diff = DiffPorts(current, target);
        for (uint32_t k : {1u, 2u, 4u, 8u})
        {
            const auto batches = MoseModeSwitcher::MakeBatches(current, diff, k);
            ASSERT_EQ(batches.size(), std::min<std::size_t>(k, diff.removed.size()));
            std::vector<uint32_t> peers = current.GetPeers();
            std::size_t removed = 0;
            std::size_t added = 0;
            for (const auto& b : batches)
            {
                for (const auto& c : b.removed)
                {
                    ASSERT_EQ(peers[c.groupA * 4 + c.portA], c.groupB * 4 + c.portB);
                    peers[c.groupA * 4 + c.portA] = PortPlan::DARK;
                    peers[c.groupB * 4 + c.portB] = PortPlan::DARK;
                }
                const bool connected =
                    PortPlan::FromPeers(32, 4, peers).ToCircuitGraph().IsConnected();
                EXPECT_EQ(b.connected, connected) << "run " << run << " K=" << k;
                if (k >= 4)
                {
                    EXPECT_TRUE(b.connected) << "run " << run << " K=" << k;
                }
                for (const auto& c : b.added)
                {
                    ASSERT_EQ(peers[c.groupA * 4 + c.portA], PortPlan::DARK);
                    ASSERT_EQ(peers[c.groupB * 4 + c.portB], PortPlan::DARK);
                    peers[c.groupA * 4 + c.portA] = c.groupB * 4 + c.portB;
                    peers[c.groupB * 4 + c.portB] = c.groupA * 4 + c.portA;
                }
                removed += b.removed.size();
                added += b.added.size();
            }
            EXPECT_EQ(removed, diff.removed.size());
            EXPECT_EQ(added, diff.added.size());
            EXPECT_EQ(peers, target.GetPeers());
        }
        // K=1 between two different templates cuts the fabric apart
        EXPECT_FALSE(MoseModeSwitcher::MakeBatches(current, diff, 1)[0].connected);
        EXPECT_TRUE(MoseModeSwitcher::MakeBatches(current, DiffPorts(current, current), 4).empty());
    }
}

TEST(ModeSwitcher, BadSchedulesGetClearErrors)
{
    // a schedule as text is mose::ParseSchedule()'s (MoseBreakEven.ScheduleErrors); the helper
    // takes boundaries as values
    SwitchScenario s(1);
    ExpectErrorContaining(
        [&] {
            MoseModeSwitcherHelper::MakePolicyProvider("S-Foo",
                                                       s.templates,
                                                       s.roles,
                                                       s.assignments);
        },
        "policy");

    auto installWith = [&](const ModeSchedule& schedule) {
        Ptr<MoseTopologyHelper> topo = BuildSwitchFabric(s, s.templates[1]);
        MoseModeSwitcherHelper helper;
        helper.SetTargetProvider(MoseModeSwitcherHelper::MakePolicyProvider("MoSE",
                                                                            s.templates,
                                                                            s.roles,
                                                                            s.assignments));
        helper.SetSchedule(schedule);
        helper.Install(topo);
        Simulator::Destroy();
    };
    const WorkloadMode tr = WorkloadMode::TRAINING_HEAVY;
    const WorkloadMode inf = WorkloadMode::INFERENCE_HEAVY;
    ExpectErrorContaining(
        [&] {
            installWith({{inf, 1}, {tr, -0.5}, {inf, 0}});
        },
        "invalid schedule period 2 duration = -0.5 s");
    // a switch before the previous one can have ended (K=1: 100 ms + 10 ms)
    ExpectErrorContaining(
        [&] {
            installWith({{inf, 1}, {tr, 0.05}, {inf, 0}});
        },
        "longer than Phases x (DrainTimeout + ReconfigurationDelay)");
    ExpectErrorContaining(
        [&] {
            installWith({{inf, 1}, {static_cast<WorkloadMode>(7), 0}});
        },
        "schedule period 2 mode");
    // no provider
    ExpectErrorContaining(
        [&] {
            Ptr<MoseTopologyHelper> topo = BuildSwitchFabric(s, s.templates[1]);
            MoseModeSwitcherHelper helper;
            helper.Install(topo);
        },
        "provider");
    Simulator::Destroy();
    // a target graph that does not fit the fabric
    ExpectErrorContaining(
        [&] {
            Ptr<MoseTopologyHelper> topo = BuildSwitchFabric(s, s.templates[1]);
            MoseModeSwitcherHelper helper;
            helper.SetTargetProvider([&](WorkloadMode) {
                MoseModeTarget t;
                t.roles = s.roles[0];
                t.assignment = s.assignments[0];
                t.graph = CircuitGraph(16, {});
                return t;
            });
            helper.Install(topo);
        },
        "target graph");
    Simulator::Destroy();
}

TEST(ModeSwitcher, SwitchCutShortByTheStopReportsItsFiguresUpToTheStop)
{
    // a 100 s reconfiguration delay: the run stops at 3 s, in the dark period of the K=1 batch
    SwitchRunOptions o;
    o.reconfigurationDelay = Seconds(100);
    o.stop = Seconds(3); // held packets expire after HoldTime (2 s) in the dark
    const SwitchRun r = RunSwitchScenario(o);
    ASSERT_EQ(r.records.size(), 1u);
    const MoseSwitchRecord& rec = r.records[0];
    EXPECT_FALSE(rec.done) << "UNFINISHED";
    EXPECT_EQ(rec.until, Seconds(3));
    EXPECT_EQ(rec.GetDuration(), Seconds(3) - MilliSeconds(50));
    ASSERT_EQ(rec.batches.size(), 1u);
    const MoseSwitchBatch& b = rec.batches[0];
    EXPECT_GT(b.darkStart, b.drainStart);
    EXPECT_EQ(rec.drainTime, b.darkStart - b.drainStart);
    EXPECT_EQ(rec.darkTime, Seconds(3) - b.darkStart) << "dark up to the stop, exactly";
    EXPECT_FALSE(b.connected);
    EXPECT_EQ(rec.blackoutTime, Seconds(3) - b.drainStart);
    // every packet held and every drop of the run happened during the switch: before the
    // boundary every destination is reachable and nothing is lost (1000-packet queues)
    EXPECT_GT(rec.packetsHeld, 0u);
    EXPECT_EQ(rec.packetsHeld, r.holdEntered);
    EXPECT_GT(rec.drops[MoseLossMonitor::HOLD], 0u) << "held packets expire in the dark";
    EXPECT_EQ(rec.drops[MoseLossMonitor::HOLD], r.holdDrops);
    EXPECT_EQ(rec.drops, r.drops);
    EXPECT_EQ(rec.lost, r.lost);
    EXPECT_GE(rec.longestHold, Seconds(2)) << "dropped after HoldTime (2 s)";
    EXPECT_LE(rec.longestHold, Seconds(3) - b.drainStart);
    EXPECT_LT(r.completed, r.transfers);
}

TEST(ModeSwitcher, PolicyProvidersOfTemplatesAndOfAScenarioGiveTheSameTargets)
{
    // a fresh scenario: every policy's graph in a mode is its template (SelectTemplate())
    FlowExperimentConfig config = PaperScaledConfig(32);
    config.construction = TemplateConstruction::FRESH;
    const Scenario sc = ScenarioBuilder(config).Build(3);
    for (Policy policy : ALL_POLICIES)
    {
        const MoseTargetProvider ofScenario =
            MoseModeSwitcherHelper::MakePolicyProvider(policy, sc);
        const MoseTargetProvider ofTemplates =
            MoseModeSwitcherHelper::MakePolicyProvider(policy,
                                                       sc.templates,
                                                       sc.roles,
                                                       sc.assignment);
        const MoseTargetProvider byName =
            MoseModeSwitcherHelper::MakePolicyProvider(ToString(policy),
                                                       sc.templates,
                                                       sc.roles,
                                                       sc.assignment);
        for (WorkloadMode mode : ALL_MODES)
        {
            const auto m = static_cast<std::size_t>(mode);
            const auto t = static_cast<std::size_t>(SelectTemplate(policy, mode));
            for (const MoseTargetProvider* provider : {&ofScenario, &ofTemplates, &byName})
            {
                const MoseModeTarget target = (*provider)(mode);
                EXPECT_EQ(target.graph.GetCircuits(), sc.templates[t].GetCircuits())
                    << ToString(policy) << " " << ToString(mode);
                EXPECT_EQ(target.roles.GetRoles(), sc.roles[m].GetRoles());
                ASSERT_EQ(target.assignment.GetPairs().size(), sc.assignment[m].GetPairs().size());
                for (std::size_t i = 0; i < target.assignment.GetPairs().size(); ++i)
                {
                    EXPECT_EQ(target.assignment.GetPairs()[i].prefill,
                              sc.assignment[m].GetPairs()[i].prefill);
                    EXPECT_EQ(target.assignment.GetPairs()[i].decode,
                              sc.assignment[m].GetPairs()[i].decode);
                }
            }
        }
        // a mode that does not exist is a mose::Error naming "mode", from every overload
        for (const MoseTargetProvider* provider : {&ofScenario, &ofTemplates, &byName})
        {
            ExpectErrorContaining([&] { (*provider)(static_cast<WorkloadMode>(7)); }, "mode");
        }
    }
}

TEST(ModeSwitcher, FixedDrainLastsTheTimeoutAndLosesNothing)
{
    // the drain every MPI rank ends alike: exactly DrainTimeout, then dark
    for (uint32_t phases : {1u, 2u})
    {
        SwitchRunOptions o;
        o.phases = phases;
        o.drainTimeout = MilliSeconds(2);
        o.reconfigurationDelay = MilliSeconds(1);
        o.schedule = {{WorkloadMode::INFERENCE_HEAVY, 0.05},
                      {WorkloadMode::TRAINING_HEAVY, 0.1},
                      {WorkloadMode::INFERENCE_HEAVY, 0}};
        o.beforeRun = [](Ptr<MoseTopologyHelper>, Ptr<MoseModeSwitcher> switcher) {
            switcher->SetAttribute("FixedDrain", BooleanValue(true));
        };
        SwitchRun r = RunSwitchScenario(o);
        ASSERT_EQ(r.records.size(), 2u);
        for (const MoseSwitchRecord& rec : r.records)
        {
            EXPECT_TRUE(rec.done);
            EXPECT_EQ(rec.batches.size(), phases);
            for (const MoseSwitchBatch& b : rec.batches)
            {
                EXPECT_EQ(b.darkStart - b.drainStart, MilliSeconds(2)) << "K = " << phases;
                EXPECT_FALSE(b.drainTimedOut) << "the queues emptied within the drain";
                EXPECT_EQ(b.packetsLeft, 0u);
            }
            EXPECT_EQ(rec.drainTime, MilliSeconds(2) * static_cast<int64_t>(phases));
            EXPECT_EQ(rec.lost, 0u);
        }
        EXPECT_EQ(r.lost, 0u) << "K = " << phases;
        EXPECT_EQ(r.errors, 0u);
        EXPECT_EQ(r.completed, r.transfers);
    }
}

TEST(ModeSchedule, NanosecondTimesSurviveThePacketLevelsConversion)
{
    // a controller's schedule (ScheduleModes()) holds its decision times as durations of
    // nanoseconds / 1e9; the packet level turns them back into the same nanoseconds
    const std::vector<uint64_t> ns{1, 3, 123456789, 999999999999, 86400000000007ULL, 100000000};
    ModeSchedule s;
    uint64_t total = 0;
    std::vector<uint64_t> starts{0};
    for (std::size_t i = 0; i < ns.size(); ++i)
    {
        s.Add(i % 2 == 0 ? WorkloadMode::INFERENCE_HEAVY : WorkloadMode::TRAINING_HEAVY,
              static_cast<double>(ns[i]) / 1e9);
        total += ns[i];
        starts.push_back(total);
    }
    const std::vector<Time> times = MoseScheduleTimes(s);
    ASSERT_EQ(times.size(), ns.size() + 1);
    for (std::size_t i = 0; i < times.size(); ++i)
    {
        EXPECT_EQ(static_cast<uint64_t>(times[i].GetNanoSeconds()), starts[i]) << i;
        EXPECT_EQ(s.GetStartNs(i), starts[i]) << i;
    }
    EXPECT_EQ(s.GetInitialMode(), WorkloadMode::INFERENCE_HEAVY);
    EXPECT_EQ(ModeSchedule().GetInitialMode(), WorkloadMode::INFERENCE_HEAVY);
    EXPECT_EQ(MoseScheduleTimes(ModeSchedule()), std::vector<Time>{Time(0)});
    ExpectErrorContaining([&] { s.GetStartNs(ns.size() + 1); }, "GetStartNs");
}

// The RoCEv2 case of utils/mpi-check.sh (rdma-switch16, its rates and queues) on one process: every
// transfer of the three periods completes with all its bytes, nothing is lost in the fabric, each
// transfer opened a QP of its own and closed QPs' numbers were reused (fewer records than QPs)
TEST(ModeSwitcher, RdmaTransfersAcrossTwoDrainedSwitchesCompleteOnOneProcess)
{
    Config::SetDefault("ns3::MoseModeSwitcher::FixedDrain", BooleanValue(true));
    SwitchRunOptions o;
    o.groups = 16;
    o.drainTimeout = MilliSeconds(2);
    o.reconfigurationDelay = MilliSeconds(1);
    o.stop = MilliSeconds(400);
    o.schedule = {{WorkloadMode::INFERENCE_HEAVY, 0.05},
                  {WorkloadMode::TRAINING_HEAVY, 0.1},
                  {WorkloadMode::INFERENCE_HEAVY, 0}};
    o.transport = "rdma";
    o.dataRate = "1Gbps";
    o.portQueue = "100p";
    const SwitchScenario s(o.run, 120, o.groups);
    uint64_t bytes = 0;
    for (std::size_t m : {0, 1, 0})
    {
        for (const Flow& f : s.flows[m])
        {
            bytes += static_cast<uint64_t>(f.demand * static_cast<double>(o.bytesPerUnit));
        }
    }
    SwitchRun r = RunSwitchScenario(o);
    Config::SetDefault("ns3::MoseModeSwitcher::FixedDrain", BooleanValue(false));
    ASSERT_EQ(r.records.size(), 2u);
    EXPECT_TRUE(r.records[0].done);
    EXPECT_TRUE(r.records[1].done);
    EXPECT_EQ(r.transfers, 3 * 120u) << "120 flows in each of the three periods";
    EXPECT_EQ(r.completed, r.transfers);
    EXPECT_EQ(r.bytesReceived, bytes);
    EXPECT_EQ(r.lost, 0u) << "drain on: nothing lost in the fabric";
    EXPECT_EQ(r.errors, 0u);
    ASSERT_EQ(r.rdmaShared.size(), 2u);
    ASSERT_FALSE(r.rdmaCounts.empty());
    EXPECT_EQ(r.rdmaCounts[0].first, "qps_opened");
    EXPECT_EQ(r.rdmaCounts[0].second, r.transfers) << "a QP per transfer (Start())";
    EXPECT_LT(r.rdmaShared[0].second, r.transfers) << "closed QPs' numbers reused";
    EXPECT_EQ(r.rdmaShared[1].second, 0u) << "no transport error";
}
