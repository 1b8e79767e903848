/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * mose-packet and mose-mode-switch over RoCEv2 (--transport=rdma): the transfers
 * MoseTrafficHelper draws run as a mose::FlowBatch on MoseRdmaTransport (MoseBatchWorkload),
 * with RED and ECN on the ports. Every transfer completes with its bytes, nothing is lost, and
 * the same run gives the same FCTs.
 */

#include "mose-packet-experiment.h"
#include "mose-switch-experiment.h"
#include "mose-switch-test-util.h"

#include "ns3/core-module.h"
#include "ns3/mose-batch-workload.h"
#include "ns3/mose-error.h"
#include "ns3/mose-graph-properties.h"
#include "ns3/mose-rdma-transport.h"
#include "ns3/mose-scenario.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;
using namespace ns3::mose;

namespace
{

const char* const RDMA = "ns3::MoseRdmaTransport";

/**
 * The fabric's in-flight cap (MoseTransportHelper::Install(topology, switcher)) by hand, at
 * MoseScale 1: a circuit of 400 Gb/s and 1 us adds 21 ns (a 1070-byte frame's 21.4 ns, in ns-3's
 * nanosecond Time) + 1 ns (an ACK) + 2 us to the round trip: 2022 D ns on D circuits, 808,800 D
 * bits, 94.486 D frames of 8560 bits rounded up, and AckInterval - 1 = 15 more
 * \param diameter D, the longest route's circuits
 * \return the cap
 */
uint32_t
CapAtScaleOne(uint32_t diameter)
{
    switch (diameter)
    {
    case 2:
        return 189 + 15;
    case 3:
        return 284 + 15;
    case 4:
        return 378 + 15;
    case 5:
        return 473 + 15;
    default:
        ADD_FAILURE() << "no cap computed by hand for a diameter of " << diameter;
        return 0;
    }
}

/// \return the MaxInFlight of a run's transport
uint32_t
MaxInFlight(const Experiment& experiment)
{
    UintegerValue cap;
    experiment.GetTransport()->GetAttribute("MaxInFlight", cap);
    return static_cast<uint32_t>(cap.Get());
}

/// mose-packet's configuration at 16 groups, 100 flows, over RDMA
ExperimentConfig
RdmaPacketConfig()
{
    ExperimentConfig c = MakePacketConfig(PaperScaledConfig(16),
                                          WorkloadMode::INFERENCE_HEAVY,
                                          LlmLevel::PACKET,
                                          RDMA);
    c.scenario.flows = 100;
    c.policy = Policy::MOSE;
    c.stopTime = Seconds(10);
    return c;
}

/// One run's transfers
std::vector<MoseTransfer>
RunPacket(const ExperimentConfig& config, uint64_t* lost, uint64_t* drops, uint64_t* marks)
{
    Experiment experiment(config);
    const std::shared_ptr<const PacketResult> result = InstallPacketWorkload(experiment);
    experiment.Build();
    // the transport is installed through the helper: the fabric's cap on the run's one graph
    EXPECT_EQ(config.scale, 1u);
    EXPECT_EQ(
        MaxInFlight(experiment),
        CapAtScaleOne(SummarizeDistances(experiment.GetTopology()->GetCircuitGraph()).diameter));
    experiment.Run();
    *lost = experiment.GetPacketsLost();
    *drops = result->GetTransportDrops();
    *marks = experiment.GetEcnMarks();
    EXPECT_EQ(result->batchErrors, 0u);
    return result->transfers;
}

} // namespace

TEST(PacketTransport, RdmaPacketRunCompletesEveryTransferWithoutLossTwiceTheSame)
{
    const ExperimentConfig config = RdmaPacketConfig();
    EXPECT_TRUE(config.IsRdma());
    EXPECT_TRUE(config.ecn.has_value()) << "RED with ECN on the ports";
    EXPECT_EQ(config.portQueue, "1p") << "the device queue: the backlog waits in RED";
    uint64_t lost = 1;
    uint64_t drops = 1;
    uint64_t marks = 0;
    const std::vector<MoseTransfer> first = RunPacket(config, &lost, &drops, &marks);
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(lost, 0u) << "the loss monitor saw no drop in the fabric";
    EXPECT_EQ(drops, 0u) << "the transport dropped nothing";

    // the transfers and start times the TCP path draws (MakeStartedTransfers())
    Ptr<MoseTrafficHelper> traffic = CreateObject<MoseTrafficHelper>();
    traffic->AssignStreams(Stream::TRANSFERS);
    const std::vector<Flow> flows =
        ScenarioBuilder(config.scenario).BuildMode(config.run, config.GetInitialMode()).flows;
    const std::vector<MoseTransfer> drawn = traffic->MakeStartedTransfers(flows);
    traffic->Dispose();
    ASSERT_EQ(first.size(), drawn.size());
    for (std::size_t i = 0; i < first.size(); ++i)
    {
        SCOPED_TRACE("transfer " + std::to_string(i));
        const MoseTransfer& t = first[i];
        EXPECT_TRUE(t.complete);
        EXPECT_EQ(t.received, t.bytes) << "every byte arrived";
        EXPECT_EQ(t.src, drawn[i].src);
        EXPECT_EQ(t.dst, drawn[i].dst);
        EXPECT_EQ(t.bytes, drawn[i].bytes);
        EXPECT_EQ(t.demand, drawn[i].demand);
        EXPECT_EQ(t.start, drawn[i].start) << "FCT counts from the drawn start";
        EXPECT_GT(t.end, t.start);
    }

    // the same run again: the same FCTs, to the nanosecond
    uint64_t lost2 = 1;
    uint64_t drops2 = 1;
    uint64_t marks2 = 0;
    const std::vector<MoseTransfer> second = RunPacket(config, &lost2, &drops2, &marks2);
    ASSERT_EQ(second.size(), first.size());
    for (std::size_t i = 0; i < first.size(); ++i)
    {
        EXPECT_EQ(second[i].GetCompletionTime(), first[i].GetCompletionTime()) << i;
    }
    EXPECT_EQ(marks2, marks);
}

TEST(PacketTransport, RdmaModeSwitchRunCompletesEveryTransferAcrossTwoDrainedSwitches)
{
    const ExperimentConfig c = test::DrainedSwitchConfig(RDMA);
    Experiment experiment(c);
    const std::shared_ptr<const SwitchResult> result = InstallSwitchWorkload(experiment);
    experiment.Build();
    // the fabric's cap on the longest route of the graph installed first (MoSE's inference-heavy
    // one; MoseTransportHelper::Install(topology))
    const Scenario& sc = experiment.GetScenario();
    EXPECT_EQ(c.scale, 1u);
    EXPECT_EQ(
        MaxInFlight(experiment),
        CapAtScaleOne(
            SummarizeDistances(sc.GetGraph(Policy::MOSE, WorkloadMode::INFERENCE_HEAVY)).diameter));
    experiment.Run();

    const std::vector<SwitchInterval>& intervals = result->intervals;
    ASSERT_EQ(intervals.size(), 3u);
    ASSERT_EQ(experiment.GetSwitchRecords().size(), 2u);
    EXPECT_EQ(experiment.GetPacketsLost(), 0u) << "drain on: nothing lost in the fabric";
    // the switcher holds packets through the 10 ms blackout, longer than RDMA's retransmit
    // timeout: the sender resends, and the held copies arrive late, as duplicates or after the
    // QP closed (stale). Those are the only drops at the receivers: no packet is malformed or
    // unroutable.
    const TransportDrops& drops = result->transportDrops;
    EXPECT_EQ(drops[MoseRdmaTransport::MALFORMED], 0u);
    EXPECT_EQ(drops[MoseRdmaTransport::NO_ROUTE], 0u);
    EXPECT_EQ(result->batchErrors, 0u);
    std::size_t transfers = 0;
    for (const SwitchInterval& iv : intervals)
    {
        SCOPED_TRACE("interval " + std::to_string(iv.index));
        if (const MoseSwitchRecord* sw = experiment.GetIntervalSwitch(iv.index))
        {
            EXPECT_TRUE(sw->done);
            EXPECT_EQ(sw->lost, 0u);
        }
        EXPECT_FALSE(iv.transfers.empty());
        for (const MoseTransfer& t : iv.transfers)
        {
            EXPECT_TRUE(t.complete);
            EXPECT_EQ(t.received, t.bytes);
            EXPECT_GE(t.start, iv.start) << "a transfer starts in its interval";
            EXPECT_LT(t.start, iv.end);
        }
        transfers += iv.transfers.size();
    }
    // the goodput timeline adds up to every byte delivered
    uint64_t binned = 0;
    for (const auto& bin : result->goodputBins)
    {
        binned += bin[0] + bin[1];
    }
    uint64_t bytes = 0;
    for (const SwitchInterval& iv : intervals)
    {
        for (const MoseTransfer& t : iv.transfers)
        {
            bytes += t.bytes;
        }
    }
    EXPECT_EQ(binned, bytes);
    EXPECT_GT(transfers, 0u);
}

TEST(PacketTransport, BatchWorkloadFollowsTheModeAndRefusesAMissingTransport)
{
    Ptr<MoseBatchWorkload> w = CreateObject<MoseBatchWorkload>();
    EXPECT_FALSE(w->GetBatch().GetMode().has_value());
    w->SetMode(WorkloadMode::TRAINING_HEAVY, RoleAssignment(), nullptr);
    EXPECT_EQ(w->GetBatch().GetMode(), WorkloadMode::TRAINING_HEAVY);
    EXPECT_THROW(w->Start(Seconds(0)), Error);
    w->Dispose();
}
