/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The fluid fabric's queues (FluidFabricConfig::queues): backlogs, marks, cuts, drops and
// resends, each against a figure computed by hand.

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-fluid-fabric.h"

#include <gtest/gtest.h>
#include <memory>
#include <vector>

using namespace ns3::mose;

namespace
{

/// Round numbers: circuits and host links 1 GB/s, a packet is 1000 B with no header (1000 ns
/// on a link), circuit delay 1000 ns, host delay 100 ns. A one-circuit path's latency is the
/// up link's delay (100) + the circuit's (1000 + 1000) + the down link's (100 + 1000) = 3200 ns.
/// With queues: a port marks at 100,000 B of backlog.
FluidFabricConfig
QueueConfig()
{
    FluidFabricConfig c;
    c.ports = 2;
    c.circuitBitRate = 8e9;
    c.hostBitRate = 8e9;
    c.segmentBytes = 1000;
    c.wireBytesPerSegment = 1000;
    c.circuitDelayNs = 1000;
    c.hostDelayNs = 100;
    c.queues = true;
    c.markBytes = 100000;
    return c;
}

/// The triangle 0 - 1 - 2 - 0 (each group's circuits on ports 0 and 1)
CircuitGraph
Triangle()
{
    return CircuitGraph(3, {{0, 1}, {1, 2}, {0, 2}});
}

/// The down link of group g's host (N = 3, d = 2, one host per group: 6 circuit links, 3 up)
constexpr uint32_t
DownLink(uint32_t g)
{
    return 3 * 2 + 3 + g;
}

/// A probe: the backlog of a link at a time
struct Probe
{
    int64_t at;     //!< ns
    uint32_t link;  //!< the link
    double backlog; //!< read at `at`
};

/// Schedules the probes on a fabric (filled in when they run)
void
ScheduleProbes(FluidFabric& fabric, std::vector<Probe>& probes)
{
    for (Probe& p : probes)
    {
        fabric.Schedule(p.at, [&fabric, &p]() { p.backlog = fabric.GetBacklogs()[p.link]; });
    }
}

} // namespace

// Incast: A (0 -> 2, 1e6 B) and B (1 -> 2, 5e5 B) start at their up links' 1 GB/s, so the
// down link of group 2 takes 2 GB/s for its 1 GB/s and grows at 1 GB/s. It reaches the mark
// (1e5 B) at 100,000 ns; the marked byte waits 1e5 B / 1 GB/s = 100,000 ns there, and the CNP
// comes back a round trip (2 x 3200 ns) later: both are cut at 206,400 ns, the peak backlog
// 206,400 B. Then each gets 0.5 GB/s: the down link takes exactly its rate and the backlog
// stands. Each has sent 206,400 B; B's other 293,600 B take 587,200 ns (its source is done at
// 793,600 ns), and its last byte waits behind 206,400 B: it arrives at 793,600 + 206,400 +
// 3200 = 1,003,200 ns. A has 500,000 B left at 793,600 ns, alone at 1 GB/s: its source is done
// at 1,293,600 ns, its last byte at 1,293,600 + 206,400 + 3200 = 1,503,200 ns (the down link
// was busy from 0 on: 1.5e6 B in 1.5 ms). The backlog then drains at 1 GB/s: 100,000 B at
// 1,400,000 ns, empty at 1,500,000 ns.
TEST(FluidQueues, TwoFlowsIntoOnePortAtTwiceItsRate)
{
    FluidFabric fabric(Triangle(), QueueConfig());
    std::vector<Probe> probes = {{50000, DownLink(2), -1},
                                 {100000, DownLink(2), -1},
                                 {206400, DownLink(2), -1},
                                 {500000, DownLink(2), -1},
                                 {1400000, DownLink(2), -1},
                                 {1600000, DownLink(2), -1}};
    ScheduleProbes(fabric, probes);
    const uint64_t a = fabric.StartTransfer(0, 2, 1000000, TrafficClass::KV, nullptr);
    const uint64_t b = fabric.StartTransfer(1, 2, 500000, TrafficClass::KV, nullptr);
    fabric.Run(1000000000);
    EXPECT_NEAR(probes[0].backlog, 50000, 1e-3);
    EXPECT_NEAR(probes[1].backlog, 100000, 1e-3);
    EXPECT_NEAR(probes[2].backlog, 206400, 1e-3);
    EXPECT_NEAR(probes[3].backlog, 206400, 1e-3);
    EXPECT_NEAR(probes[4].backlog, 100000, 1e-3);
    EXPECT_EQ(probes[5].backlog, 0);
    EXPECT_EQ(fabric.GetTransfer(b).endNs, 1003200);
    EXPECT_EQ(fabric.GetTransfer(a).endNs, 1503200);
    EXPECT_EQ(fabric.GetNCuts(), 2u);
    // no other port queued, nothing dropped
    for (uint32_t l = 0; l < fabric.GetBacklogs().size(); ++l)
    {
        EXPECT_EQ(fabric.GetDroppedBytes()[l], 0) << "link " << l;
    }
    EXPECT_EQ(fabric.GetResentBytes(), 0);
}

// The same incast with a 150,000 B buffer: full at 150,000 ns, it drops at 2 - 1 = 1 GB/s
// until the cut at 206,400 ns: 56,400 B, half from each transfer (equal rates): 28,200 B each,
// resent at the tail; the backlog then stands at 150,000 B. B's source is done with its own
// bytes at 793,600 ns (as without a limit), resends 28,200 B at 0.5 GB/s (56,400 ns, to
// 850,000 ns), and its last byte arrives 150,000 + 3200 ns later: 1,003,200 ns. A sent 28,200 B
// beside it and has 471,800 B left at 850,000 ns, alone at 1 GB/s: done at 1,321,800 ns, then
// resends its 28,200 B: 1,350,000 ns, its last byte at 1,350,000 + 150,000 + 3200 = 1,503,200
// ns. (The down link is busy from 0 on either way; the drops move bytes, not the end.)
TEST(FluidQueues, AQueueLimitDropsAndTheBytesAreResent)
{
    FluidFabricConfig config = QueueConfig();
    config.queueLimitBytes = 150000;
    FluidFabric fabric(Triangle(), config);
    std::vector<Probe> probes = {{150000, DownLink(2), -1},
                                 {206400, DownLink(2), -1},
                                 {800000, DownLink(2), -1}};
    ScheduleProbes(fabric, probes);
    const uint64_t a = fabric.StartTransfer(0, 2, 1000000, TrafficClass::KV, nullptr);
    const uint64_t b = fabric.StartTransfer(1, 2, 500000, TrafficClass::KV, nullptr);
    fabric.Run(1000000000);
    EXPECT_NEAR(probes[0].backlog, 150000, 1e-3);
    EXPECT_NEAR(probes[1].backlog, 150000, 1e-3);
    EXPECT_NEAR(probes[2].backlog, 150000, 1e-3);
    EXPECT_NEAR(fabric.GetDroppedBytes()[DownLink(2)], 56400, 1e-3);
    EXPECT_NEAR(fabric.GetResentBytes(), 56400, 1e-3);
    EXPECT_EQ(fabric.GetTransfer(b).endNs, 1003200);
    EXPECT_EQ(fabric.GetTransfer(a).endNs, 1503200);
    EXPECT_EQ(fabric.GetBytesBetween(0, 2), 1000000u);
    EXPECT_EQ(fabric.GetBytesBetween(1, 2), 500000u);
    // every other link dropped nothing
    double others = 0;
    for (uint32_t l = 0; l < fabric.GetDroppedBytes().size(); ++l)
    {
        others += l == DownLink(2) ? 0 : fabric.GetDroppedBytes()[l];
    }
    EXPECT_EQ(others, 0);
}

// A start-up ramp: one transfer 0 -> 1 of 1e6 B starts at its 2 GB/s host link into a 1 GB/s
// circuit, which grows at 1 GB/s: the mark (1e5 B) at 100,000 ns; the cut a wait of 100,000 ns
// and a round trip later (latency 100 + 1000 + 1000 + 100 + 500 = 2700 ns): at 205,400 ns, the
// peak backlog 205,400 B. It has sent 410,800 B; at 1 GB/s the other 589,200 B take 589,200 ns
// (its source is done at 794,600 ns) and the backlog stands meanwhile; the last byte arrives at
// 794,600 + 205,400 + 2700 = 1,002,700 ns, and the circuit's backlog is 100,000 B at 900,000 ns.
TEST(FluidQueues, LineRateStartThenTheCut)
{
    FluidFabricConfig config = QueueConfig();
    config.ports = 1;
    config.hostBitRate = 16e9;
    FluidFabric fabric(CircuitGraph(2, {{0, 1}}), config);
    const uint32_t circuit = 0; // group 0's port 0
    std::vector<Probe> probes = {{100000, circuit, -1},
                                 {205400, circuit, -1},
                                 {700000, circuit, -1},
                                 {900000, circuit, -1},
                                 {1100000, circuit, -1}};
    ScheduleProbes(fabric, probes);
    const uint64_t t = fabric.StartTransfer(0, 1, 1000000, TrafficClass::KV, nullptr);
    fabric.Run(1000000000);
    EXPECT_NEAR(probes[0].backlog, 100000, 1e-3);
    EXPECT_NEAR(probes[1].backlog, 205400, 1e-3);
    EXPECT_NEAR(probes[2].backlog, 205400, 1e-3);
    EXPECT_NEAR(probes[3].backlog, 100000, 1e-3);
    EXPECT_EQ(probes[4].backlog, 0);
    EXPECT_EQ(fabric.GetTransfer(t).endNs, 1002700);
    EXPECT_EQ(fabric.GetNCuts(), 1u);
    // the circuit sent every byte; the host links never queued
    EXPECT_NEAR(fabric.GetPortBytes()[circuit], 1000000, 1e-3);
    EXPECT_EQ(fabric.GetDroppedBytes()[circuit], 0);
}

// drainOnCut: the ramp above, but the circuit that marked drains after the cut at the rate
// left by halving the transfer's share: it sends at 0.5 GB/s into the 1 GB/s circuit, whose
// 205,400 B drain at 0.5 GB/s in 410,800 ns (102,700 B left at 410,800 ns, empty at 616,200
// ns). The transfer then gets the whole 1 GB/s: it sent 410,800 + 205,400 B by 616,200 ns, its
// other 383,800 B end at 1,000,000 ns, with no backlog left: the last byte at 1,002,700 ns (the
// circuit busy from 0 on, as before).
TEST(FluidQueues, APortThatMarkedDrainsAfterTheCut)
{
    FluidFabricConfig config = QueueConfig();
    config.ports = 1;
    config.hostBitRate = 16e9;
    config.drainOnCut = true;
    FluidFabric fabric(CircuitGraph(2, {{0, 1}}), config);
    const uint32_t circuit = 0;
    std::vector<Probe> probes = {{205400, circuit, -1},
                                 {410800, circuit, -1},
                                 {616200, circuit, -1},
                                 {700000, circuit, -1}};
    ScheduleProbes(fabric, probes);
    const uint64_t t = fabric.StartTransfer(0, 1, 1000000, TrafficClass::KV, nullptr);
    fabric.Run(1000000000);
    EXPECT_NEAR(probes[0].backlog, 205400, 1e-3);
    EXPECT_NEAR(probes[1].backlog, 102700, 1e-3);
    EXPECT_NEAR(probes[2].backlog, 0, 1e-3);
    EXPECT_EQ(probes[3].backlog, 0);
    EXPECT_EQ(fabric.GetTransfer(t).endNs, 1002700);
    EXPECT_EQ(fabric.GetNCuts(), 1u);
}

// Off (the default), the fabric is today's: the incast above shares the down link at 0.5 GB/s
// from the first byte, B's 5e5 B end at 1 ms and A's last 5e5 B at 1 GB/s at 1.5 ms, each
// 3200 ns later; nothing queues or is cut. On, where no port is offered more than its rate (a
// transfer alone at its path's rate), the ends are the same as off.
TEST(FluidQueues, OffGivesTodaysNumbers)
{
    FluidFabricConfig off = QueueConfig();
    off.queues = false;
    FluidFabric fabric(Triangle(), off);
    const uint64_t a = fabric.StartTransfer(0, 2, 1000000, TrafficClass::KV, nullptr);
    const uint64_t b = fabric.StartTransfer(1, 2, 500000, TrafficClass::KV, nullptr);
    fabric.Run(1000000000);
    EXPECT_EQ(fabric.GetTransfer(b).endNs, 1003200);
    EXPECT_EQ(fabric.GetTransfer(a).endNs, 1503200);
    EXPECT_EQ(fabric.GetNCuts(), 0u);
    for (double backlog : fabric.GetBacklogs())
    {
        EXPECT_EQ(backlog, 0);
    }
    for (const bool queues : {false, true})
    {
        FluidFabricConfig config = QueueConfig();
        config.queues = queues;
        FluidFabric alone(Triangle(), config);
        const uint64_t x = alone.StartTransfer(0, 1, 1000000, TrafficClass::KV, nullptr);
        alone.Schedule(2000000, [&]() {
            alone.StartTransfer(1, 2, 300000, TrafficClass::TRAINING, nullptr);
        });
        alone.Run(1000000000);
        EXPECT_EQ(alone.GetTransfer(x).endNs, 1003200) << "queues " << queues;
        EXPECT_EQ(alone.GetTransfer(1).endNs, 2303200) << "queues " << queues;
        EXPECT_EQ(alone.GetNCuts(), 0u);
    }
}

// Queues need exact rates and single transfers, and bytes that are numbers >= 0
TEST(FluidQueues, BadSettingsAreRefused)
{
    FluidFabricConfig epoch = QueueConfig();
    epoch.rateEpochNs = 1000;
    EXPECT_THROW(FluidFabric(Triangle(), epoch), Error);
    FluidFabricConfig mark = QueueConfig();
    mark.markBytes = -1;
    EXPECT_THROW(FluidFabric(Triangle(), mark), Error);
    FluidFabricConfig limit = QueueConfig();
    limit.queueLimitBytes = std::numeric_limits<double>::infinity();
    EXPECT_THROW(FluidFabric(Triangle(), limit), Error);
    FluidFabric fabric(Triangle(), QueueConfig());
    auto parts = std::make_shared<const std::vector<FluidPart>>(
        std::vector<FluidPart>{FluidPart{0, 1, 1000, 0}});
    EXPECT_THROW(fabric.StartAggregate(parts, TrafficClass::TRAINING, nullptr), Error);
}
