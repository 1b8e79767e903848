/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The flow batch (model/workload/mose-flow-batch.h) on the fluid level's fabric, with FCTs
// computed by hand from the fluid model's rule, and on the packet level's fabric
// (MoseSimulatorFabric over MoseSocketTransfers).

#include "mose-packet-experiment.h"
#include "mose-switch-experiment.h"
#include "mose-test-util.h"

#include "ns3/config.h"
#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-flow-batch.h"
#include "ns3/mose-fluid-fabric.h"
#include "ns3/mose-fluid-workload-fabric.h"
#include "ns3/mose-llm-transfers.h"
#include "ns3/mose-simulator-fabric.h"
#include "ns3/mose-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/// Two groups joined by one circuit of 1 GB/s (8 Gb/s) and 1000 ns delay; the group nodes
/// send (no host links), a packet is 1000 B with no header: a flow's payload rate is its
/// share of 1e9 B/s and its path latency is the circuit's delay alone (a path of one link has
/// no store-and-forward term). FluidFabric's rule: the last byte arrives at the whole ns at or
/// after the fluid model sent it, plus the path latency.
FluidFabricConfig
OneCircuit()
{
    FluidFabricConfig c;
    c.ports = 1;
    c.circuitBitRate = 8e9;
    c.hostBitRate = 8e9;
    c.hostLinks = false;
    c.segmentBytes = 1000;
    c.wireBytesPerSegment = 1000;
    c.circuitDelayNs = 1000;
    c.hostDelayNs = 100;
    c.noticeDelayNs = 0;
    return c;
}

/// A flow of the batch
BatchFlow
MakeFlow(uint32_t src,
         uint32_t dst,
         uint64_t bytes,
         int64_t startNs,
         TrafficClass cls = TrafficClass::KV)
{
    BatchFlow f;
    f.src = src;
    f.dst = dst;
    f.bytes = bytes;
    f.startNs = startNs;
    f.trafficClass = cls;
    return f;
}

} // namespace

// One flow of 1e6 B alone at 1e9 B/s: 1e6 ns of sending, then the circuit's 1000 ns.
TEST(FlowBatch, OneFlowAloneTakesBytesOverRatePlusDelay)
{
    FluidFabric fluid(CircuitGraph(2, {{0, 1}}), OneCircuit());
    FluidWorkloadFabric fabric(fluid);
    FlowBatch batch;
    batch.SetFlows({MakeFlow(0, 1, 1000000, 5000)});
    batch.Start(fabric);
    fluid.Run(1000000000);
    ASSERT_EQ(batch.GetRecords().size(), 1u);
    const FlowRecord& r = batch.GetRecords()[0];
    EXPECT_TRUE(r.started);
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.start.GetNanoSeconds(), 5000);
    EXPECT_EQ(r.GetFct().GetNanoSeconds(), 1001000);
    EXPECT_EQ(r.received, 1000000u);
    EXPECT_TRUE(batch.IsDone());
    const FlowBatchSummary s = SummarizeFlows(batch.GetRecords());
    EXPECT_EQ(s.completed, 1u);
    EXPECT_DOUBLE_EQ(s.fct.mean, 1.001e-3);
}

// With host links and headers: host links and the circuit at 8 Gb/s, 1000 B of payload in a
// 1250 B packet, so payload moves at 0.8e9 B/s and 8e5 B take 1e6 ns. The path is the up link
// (100 ns), the circuit (1000 ns + one 1250 B packet, 1250 ns) and the down link (100 ns +
// 1250 ns): 3700 ns.
TEST(FlowBatch, HostLinksAndHeadersFollowTheFluidRule)
{
    FluidFabricConfig c = OneCircuit();
    c.hostLinks = true;
    c.wireBytesPerSegment = 1250;
    FluidFabric fluid(CircuitGraph(2, {{0, 1}}), c);
    FluidWorkloadFabric fabric(fluid);
    FlowBatch batch;
    batch.SetFlows({MakeFlow(1, 0, 800000, 0)});
    batch.Start(fabric);
    fluid.Run(1000000000);
    ASSERT_TRUE(batch.GetRecords()[0].complete);
    EXPECT_EQ(batch.GetRecords()[0].GetFct().GetNanoSeconds(), 1003700);
}

// Two flows start together on the circuit: 0.5e9 B/s each (the fair share). The 3e5 B one is
// sent after 6e5 ns; the 1e6 B one then has 7e5 B left at the whole 1e9 B/s: 7e5 ns more.
TEST(FlowBatch, TwoFlowsShareTheLinkFairly)
{
    FluidFabric fluid(CircuitGraph(2, {{0, 1}}), OneCircuit());
    FluidWorkloadFabric fabric(fluid);
    FlowBatch batch;
    batch.SetFlows({MakeFlow(0, 1, 1000000, 0), MakeFlow(0, 1, 300000, 0, TrafficClass::TRAINING)});
    batch.Start(fabric);
    fluid.Run(1000000000);
    const std::vector<FlowRecord>& r = batch.GetRecords();
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].GetFct().GetNanoSeconds(), 1301000);
    EXPECT_EQ(r[1].GetFct().GetNanoSeconds(), 601000);
    // the summary per class and of both: mean (1.301 + 0.601) / 2 ms, P99 of two values
    // (linear interpolation: 0.601 + 0.99 x 0.7 ms)
    EXPECT_DOUBLE_EQ(SummarizeFlows(r, TrafficClass::TRAINING).fct.mean, 0.601e-3);
    EXPECT_EQ(SummarizeFlows(r, TrafficClass::KV).completed, 1u);
    const FlowBatchSummary all = SummarizeFlows(r);
    EXPECT_EQ(all.completed, 2u);
    EXPECT_EQ(all.received, 1300000u);
    EXPECT_NEAR(all.fct.mean, 0.951e-3, 1e-15);
    EXPECT_NEAR(all.fct.p99, 0.601e-3 + 0.99 * 0.7e-3, 1e-15);
}

// Records follow the start times (ties in the list's order); Stop() withdraws the flows that
// have not started, and the ones running finish.
TEST(FlowBatch, RecordsInStartOrderAndStopWithdraws)
{
    FluidFabric fluid(CircuitGraph(2, {{0, 1}}), OneCircuit());
    FluidWorkloadFabric fabric(fluid);
    FlowBatch batch;
    batch.SetFlows({MakeFlow(0, 1, 1000, 3000000),
                    MakeFlow(1, 0, 1000000, 1000),
                    MakeFlow(0, 1, 2000, 1000),
                    MakeFlow(0, 1, 500, 2000000)});
    std::vector<uint32_t> doneOrder;
    FlowBatch::Observers o;
    o.done = [&](const FlowRecord& r) { doneOrder.push_back(r.index); };
    batch.SetObservers(o);
    batch.Start(fabric);
    fluid.Schedule(1500000, [&]() { batch.Stop(); });
    fluid.Run(1000000000);
    const std::vector<FlowRecord>& r = batch.GetRecords();
    ASSERT_EQ(r.size(), 4u);
    EXPECT_EQ(r[0].index, 1u);
    EXPECT_EQ(r[1].index, 2u);
    EXPECT_EQ(r[2].index, 3u);
    EXPECT_EQ(r[3].index, 0u);
    EXPECT_TRUE(r[0].complete);
    EXPECT_TRUE(r[1].complete);
    EXPECT_FALSE(r[2].started);
    EXPECT_TRUE(r[2].withdrawn);
    EXPECT_TRUE(r[3].withdrawn);
    EXPECT_EQ(batch.GetNStarted(), 2u);
    EXPECT_EQ(batch.GetNWithdrawn(), 2u);
    EXPECT_TRUE(batch.IsDone());
    // opposite directions do not share: 2000 B alone take 2000 ns + 1000 ns
    EXPECT_EQ(r[1].GetFct().GetNanoSeconds(), 3000);
    EXPECT_EQ(doneOrder, (std::vector<uint32_t>{2, 1}));
    EXPECT_EQ(SummarizeFlows(r).started, 2u);
}

TEST(FlowBatch, ModeIsRecordedOnly)
{
    FlowBatch batch;
    EXPECT_FALSE(batch.GetMode().has_value());
    batch.SetMode(WorkloadMode::TRAINING_HEAVY);
    EXPECT_EQ(batch.GetMode(), WorkloadMode::TRAINING_HEAVY);
}

TEST(FlowBatch, RefusalsAreNamed)
{
    FlowBatch batch;
    EXPECT_CONTAINS(ErrorOf([&] { batch.SetFlows({MakeFlow(0, 1, 0, 0)}); }), "flow 0 bytes");
    EXPECT_CONTAINS(ErrorOf([&] {
                        batch.SetFlows({MakeFlow(0, 1, 1, 0), MakeFlow(2, 2, 1, 0)});
                    }),
                    "flow 1 groups");
    EXPECT_CONTAINS(ErrorOf([&] { batch.SetFlows({MakeFlow(0, 1, 1, -5)}); }), "flow 0 start");
    FluidFabric fluid(CircuitGraph(2, {{0, 1}}), OneCircuit());
    FluidWorkloadFabric fabric(fluid);
    fluid.Schedule(100, []() {});
    fluid.Run(100);
    batch.SetFlows({MakeFlow(0, 1, 1, 50)});
    EXPECT_CONTAINS(ErrorOf([&] { batch.Start(fabric); }), "flow 0 start");
    // a group the fabric does not have: counted inside the event, not thrown out of it
    FlowBatch bad;
    bad.SetFlows({MakeFlow(0, 7, 1000, 200)});
    bad.Start(fabric);
    fluid.Run(1000000);
    EXPECT_EQ(bad.GetNErrors(), 1u);
    EXPECT_TRUE(bad.IsDone());
}

// The packet level: the same class on the Simulator over TCP transfers in a ring of 6 groups;
// every flow completes with its bytes, after its start.
TEST(FlowBatch, PacketLevelCompletesEveryFlow)
{
    Ptr<MoseTopologyHelper> topo = CreateObject<MoseTopologyHelper>();
    topo->SetAttribute("Groups", UintegerValue(6));
    topo->SetAttribute("PortsPerGroup", UintegerValue(2));
    topo->SetCircuitGraph(Ring(6));
    topo->Install();
    Ptr<MoseSocketTransfers> transport = CreateObject<MoseSocketTransfers>();
    transport->Install(topo->GetGroupEndpoints());
    {
        MoseSimulatorFabric fabric(transport);
        FlowBatch batch;
        batch.SetFlows({MakeFlow(0, 3, 200000, 2000000),
                        MakeFlow(1, 4, 150000, 1000000, TrafficClass::TRAINING),
                        MakeFlow(5, 2, 100000, 1000000),
                        MakeFlow(3, 0, 50000, 3000000)});
        batch.Start(fabric);
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        ASSERT_EQ(batch.GetRecords().size(), 4u);
        const std::vector<uint32_t> order{1, 2, 0, 3};
        for (std::size_t i = 0; i < 4; ++i)
        {
            const FlowRecord& r = batch.GetRecords()[i];
            EXPECT_EQ(r.index, order[i]);
            EXPECT_TRUE(r.complete) << "flow " << r.index;
            EXPECT_EQ(r.received, r.flow.bytes) << "flow " << r.index;
            EXPECT_EQ(r.start.GetNanoSeconds(), r.flow.startNs);
            EXPECT_GT(r.end, r.start);
        }
        EXPECT_EQ(batch.GetNDone(), 4u);
        EXPECT_TRUE(batch.IsDone());
        EXPECT_EQ(SummarizeFlows(batch.GetRecords()).received, 500000u);
        fabric.CancelAll();
    }
    Simulator::Destroy();
}

// mose-packet's experiment at the fluid level against the packet level on the same 16 groups,
// flows and transfers (40 flows -> 13 transfers; BytesPerUnit 655360 and TCP
// segments of 1448 B, so that the packet level runs in about a second).
//
// The transfers are the same (groups, bytes, start times), and so is every circuit's payload:
// the fluid fabric routes on the packet level's routes. The FCTs are close because the fluid
// level starts each transfer as ns-3's TCP does (FluidFabricConfig::tcp): a handshake, then a
// window of 10 segments that doubles once per round trip until TcpCubic's HyStart ends slow
// start at 16 segments, then grows 5% per round trip; the socket buffers (128 KiB) bound it.
// Measured: the packet level's mean FCT is 4.4% (KV) and 6.8% (training) above the fluid
// level's; without the TCP start it was 1.45x and 1.96x. The bound asserted is 10%: it fails
// if the fluid level lost a share of the rate (e.g. headers counted twice, a wrong route), if
// its TCP start drifted from ns-3's, or if the packet level changed how it forms the transfers.
TEST(FlowBatch, PacketExperimentAtTheFluidLevelIsCloseToThePacketLevel)
{
    Config::SetDefault("ns3::MoseTrafficHelper::BytesPerUnit", UintegerValue(655360));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    const ExperimentConfig scaled = MakeSwitchConfig(16, 40);
    std::vector<MoseTransfer> transfers[2];
    std::vector<uint64_t> circuits[2];
    PacketClassResult results[2][2];
    for (int fluid = 0; fluid < 2; ++fluid)
    {
        ExperimentConfig c = MakePacketConfig(scaled.scenario,
                                              WorkloadMode::INFERENCE_HEAVY,
                                              fluid ? LlmLevel::FLUID : LlmLevel::PACKET);
        c.policy = Policy::MOSE;
        Experiment e(c);
        const std::shared_ptr<const PacketResult> r = InstallPacketWorkload(e);
        e.Build();
        e.Run();
        transfers[fluid] = r->transfers;
        circuits[fluid] = e.GetCircuitBytes();
        results[fluid][0] = r->GetClass(TrafficClass::KV);
        results[fluid][1] = r->GetClass(TrafficClass::TRAINING);
        EXPECT_EQ(r->CountCircuitsMatchingLoad(e.GetCircuitBytes()), e.GetCircuitBytes().size());
    }
    Config::Reset();
    ASSERT_EQ(transfers[0].size(), 13u);
    ASSERT_EQ(transfers[1].size(), 13u);
    for (std::size_t i = 0; i < transfers[0].size(); ++i)
    {
        const MoseTransfer& p = transfers[0][i];
        const MoseTransfer& f = transfers[1][i];
        EXPECT_EQ(std::make_tuple(p.src, p.dst, p.cls, p.bytes, p.start),
                  std::make_tuple(f.src, f.dst, f.cls, f.bytes, f.start));
        EXPECT_TRUE(p.complete && f.complete);
        EXPECT_EQ(f.received, f.bytes);
    }
    EXPECT_EQ(circuits[0], circuits[1]);
    for (int cls = 0; cls < 2; ++cls)
    {
        const MoseFctSummary& p = results[0][cls].fct;
        const MoseFctSummary& f = results[1][cls].fct;
        EXPECT_EQ(p.completed, f.completed);
        EXPECT_GE(p.meanS, f.meanS) << "class " << cls;
        EXPECT_LE(p.meanS, 1.1 * f.meanS) << "class " << cls;
    }
}

// mose-mode-switch's experiment at the fluid level against the packet level: 16 groups, 40
// flows per mode, inference-heavy -> training-heavy -> inference-heavy (150 ms each), MoSE. The
// transfers of every interval are the same, and so are the switches (the circuits kept,
// removed and added, the dark time and the blackout: the fluid fabric runs the switcher's
// plan). The whole run's mean FCT is dominated by the transfers held through the 10 ms
// blackouts, which both levels hold alike: measured 1.758 ms (packet) and 1.763 ms (fluid),
// 0.3% apart (1.733 ms, 1.4%, before the fluid level modelled TCP's start); the bound
// asserted is 2%. The goodput bins carry every byte at both levels; a
// circuit's bytes while its graph is in place differ by at most the fluid links' last
// nanosecond of each transfer (measured at most 55 bytes, of 917504; bound 0.1%).
TEST(FlowBatch, SwitchWorkloadAtTheFluidLevelFollowsThePacketLevel)
{
    ExperimentConfig c = MakeSwitchConfig(16, 40);
    c.SetSchedule({{WorkloadMode::INFERENCE_HEAVY, 0.15},
                   {WorkloadMode::TRAINING_HEAVY, 0.15},
                   {WorkloadMode::INFERENCE_HEAVY, 0.15}});
    c.startWindow = MilliSeconds(20);
    c.policy = Policy::MOSE;
    std::vector<SwitchInterval> intervals[2];
    std::vector<ExperimentInterval> probes[2];
    std::vector<MoseSwitchRecord> switches[2];
    SwitchRunSummary summary[2];
    uint64_t binBytes[2] = {0, 0};
    for (int fluid = 0; fluid < 2; ++fluid)
    {
        c.SetTransport(fluid ? LlmLevel::FLUID : LlmLevel::PACKET, c.transport);
        Experiment e(c);
        const std::shared_ptr<const SwitchResult> r = InstallSwitchWorkload(e);
        e.Build();
        e.Run();
        intervals[fluid] = r->intervals;
        probes[fluid] = e.GetIntervals();
        switches[fluid] = e.GetSwitchRecords();
        summary[fluid] = r->GetSummary(e);
        for (const auto& bin : r->goodputBins)
        {
            binBytes[fluid] += bin[0] + bin[1];
        }
    }
    ASSERT_EQ(intervals[0].size(), 3u);
    ASSERT_EQ(intervals[1].size(), 3u);
    ASSERT_EQ(probes[0].size(), 3u);
    ASSERT_EQ(probes[1].size(), 3u);
    uint64_t bytes = 0;
    for (std::size_t i = 0; i < 3; ++i)
    {
        const SwitchInterval& p = intervals[0][i];
        const SwitchInterval& f = intervals[1][i];
        ASSERT_EQ(p.transfers.size(), f.transfers.size());
        for (std::size_t k = 0; k < p.transfers.size(); ++k)
        {
            const MoseTransfer& a = p.transfers[k];
            const MoseTransfer& b = f.transfers[k];
            EXPECT_EQ(std::make_tuple(a.src, a.dst, a.cls, a.bytes, a.start),
                      std::make_tuple(b.src, b.dst, b.cls, b.bytes, b.start));
            EXPECT_TRUE(b.complete);
            bytes += b.bytes;
        }
        const ExperimentInterval& pp = probes[0][i];
        const ExperimentInterval& fp = probes[1][i];
        EXPECT_EQ(pp.graphRealised, fp.graphRealised);
        ASSERT_EQ(pp.circuitBytes.size(), fp.circuitBytes.size());
        for (std::size_t k = 0; k < pp.circuitBytes.size(); ++k)
        {
            EXPECT_NEAR(static_cast<double>(fp.circuitBytes[k]),
                        static_cast<double>(pp.circuitBytes[k]),
                        1e-3 * static_cast<double>(pp.circuitBytes[k]) + 1)
                << "interval " << i << " circuit " << k;
        }
    }
    ASSERT_EQ(switches[0].size(), 2u);
    ASSERT_EQ(switches[1].size(), 2u);
    for (std::size_t s = 0; s < 2; ++s)
    {
        const MoseSwitchRecord& p = switches[0][s];
        const MoseSwitchRecord& f = switches[1][s];
        EXPECT_EQ(std::make_tuple(p.from, p.to, p.start, p.kept, p.removed, p.added),
                  std::make_tuple(f.from, f.to, f.start, f.kept, f.removed, f.added));
        EXPECT_EQ(p.darkTime, f.darkTime);
        EXPECT_EQ(p.blackoutTime, f.blackoutTime);
        EXPECT_TRUE(f.done);
    }
    EXPECT_EQ(binBytes[1], bytes);
    EXPECT_EQ(binBytes[0], bytes);
    EXPECT_EQ(summary[1].completed, summary[0].completed);
    EXPECT_TRUE(summary[1].fluid);
    EXPECT_NEAR(summary[1].meanFctS, summary[0].meanFctS, 0.02 * summary[0].meanFctS);
}
