/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-fluid-fabric.h"

#include <cmath>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

using namespace ns3::mose;

namespace
{

/// Round numbers: circuits 1 GB/s, host links 10 GB/s, a packet is 1000 B with no header,
/// circuit delay 1000 ns, host delay 100 ns. A one-circuit path's latency is the up link's
/// delay (100) + the circuit's delay and one packet on it (1000 + 1000) + the down link's
/// (100 + 100) = 2300 ns; each further circuit adds 2000 ns.
FluidFabricConfig
RoundConfig(uint32_t ports)
{
    FluidFabricConfig c;
    c.ports = ports;
    c.circuitBitRate = 8e9;
    c.hostBitRate = 80e9;
    c.segmentBytes = 1000;
    c.wireBytesPerSegment = 1000;
    c.circuitDelayNs = 1000;
    c.hostDelayNs = 100;
    c.darkNs = 1000000;
    return c;
}

// Two transfers on one circuit: the first alone for 0.5 ms (5e5 B), then both at 0.5 GB/s;
// the first's last 5e5 B take 1 ms (fluid end 1.5 ms), the second then has 5e5 B left and the
// whole circuit: fluid end 2 ms. Last bytes 2300 ns later; notices 500 ns after that.
TEST(FluidFabric, TwoTransfersShareACircuit)
{
    FluidFabricConfig config = RoundConfig(1);
    config.noticeDelayNs = 500;
    FluidFabric fabric(CircuitGraph(2, {{0, 1}}), config);
    std::vector<std::pair<uint64_t, int64_t>> notices;
    auto done = [&](uint64_t id) { notices.emplace_back(id, fabric.Now()); };
    fabric.StartTransfer(0, 1, 1000000, TrafficClass::KV, done);
    fabric.Schedule(500000,
                    [&]() { fabric.StartTransfer(0, 1, 1000000, TrafficClass::TRAINING, done); });
    fabric.Run(1000000000);
    ASSERT_EQ(notices.size(), 2u);
    EXPECT_EQ(fabric.GetTransfer(0).endNs, 1502300);
    EXPECT_EQ(fabric.GetTransfer(1).endNs, 2002300);
    EXPECT_EQ(fabric.GetTransfer(1).startNs, 500000);
    EXPECT_EQ(notices[0], std::make_pair(uint64_t{0}, int64_t{1502800}));
    EXPECT_EQ(notices[1], std::make_pair(uint64_t{1}, int64_t{2002800}));
    EXPECT_EQ(fabric.GetBytesBetween(0, 1), 2000000u);
    EXPECT_EQ(fabric.GetBytesBetween(1, 0), 0u);
    // every byte crossed the circuit from group 0's port 0
    EXPECT_NEAR(fabric.GetPortBytes()[0], 2000000.0, 1e-3);
    EXPECT_EQ(fabric.GetPortBytes()[1], 0.0);
}

// A bottleneck chain on the line 0 - 1 - 2: X goes 0 -> 2, Y 0 -> 1, Z, W, V 1 -> 2. The
// circuit 1 -> 2 carries X, Z, W, V at 1/4 GB/s each; X is fixed there, so Y gets the other
// 3/4 GB/s of 0 -> 1. Y's 1.5e6 B end at 2 ms, the others' 1e6 B at 4 ms (Y's end frees
// nothing they are limited by); X crosses two circuits (latency 4300 ns).
TEST(FluidFabric, BottleneckChainOnALine)
{
    FluidFabric fabric(CircuitGraph(3, {{0, 1}, {1, 2}}), RoundConfig(2));
    const uint64_t x = fabric.StartTransfer(0, 2, 1000000, TrafficClass::TRAINING, nullptr);
    const uint64_t y = fabric.StartTransfer(0, 1, 1500000, TrafficClass::TRAINING, nullptr);
    std::vector<uint64_t> zwv;
    for (int i = 0; i < 3; ++i)
    {
        zwv.push_back(fabric.StartTransfer(1, 2, 1000000, TrafficClass::KV, nullptr));
    }
    fabric.Run(1000000000);
    EXPECT_EQ(fabric.GetTransfer(y).endNs, 2000000 + 2300);
    EXPECT_EQ(fabric.GetTransfer(x).endNs, 4000000 + 4300);
    for (uint64_t id : zwv)
    {
        EXPECT_EQ(fabric.GetTransfer(id).endNs, 4000000 + 2300);
    }
    EXPECT_EQ(fabric.GetMaxConcurrent(), 5u);
}

// A transfer held across a dark period: 0 -> 1 on the circuit 0 - 1 sends 2.5e5 B in
// 0.25 ms; then a switch to 0 - 2, 2 - 1, 1 - 3 removes every circuit (nothing is kept), so it
// has no route while the OCS is dark (1 ms); at the relink it goes 0 -> 2 -> 1 at 1 GB/s and
// its 7.5e5 B left take 0.75 ms: fluid end 2 ms, last byte 4300 ns later.
TEST(FluidFabric, TransferHeldAcrossADarkPeriod)
{
    FluidFabric fabric(CircuitGraph(4, {{0, 1}, {2, 3}}), RoundConfig(2));
    const uint64_t t = fabric.StartTransfer(0, 1, 1000000, TrafficClass::KV, nullptr);
    fabric.Schedule(250000, [&]() {
        fabric.StartSwitch(CircuitGraph(4, {{0, 2}, {1, 2}, {1, 3}}));
    });
    fabric.Run(1000000000);
    const FluidTransfer& r = fabric.GetTransfer(t);
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.endNs, 2000000 + 4300);
    EXPECT_EQ(r.heldNs, 1000000);
    ASSERT_EQ(fabric.GetSwitchRecords().size(), 1u);
    const FluidSwitchRecord& s = fabric.GetSwitchRecords()[0];
    EXPECT_TRUE(s.done);
    EXPECT_EQ(s.startNs, 250000);
    EXPECT_EQ(s.endNs, 1250000);
    EXPECT_EQ(s.kept, 0u);
    EXPECT_EQ(s.removed, 2u);
    EXPECT_EQ(s.added, 3u);
    EXPECT_EQ(s.darkNs, 1000000);
    EXPECT_EQ(s.drainNs, 0);
    EXPECT_EQ(s.transfersHeld, 1u);
    EXPECT_FALSE(fabric.IsSwitching());
    EXPECT_EQ(fabric.GetRoutedGraph().GetNCircuits(), 3u);
}

// A circuit the switch keeps carries its transfer through the switch untouched; with a fixed
// drain the switch lasts the drain plus the dark time.
TEST(FluidFabric, KeptCircuitCarriesThroughASwitch)
{
    FluidFabricConfig config = RoundConfig(2);
    config.fixedDrain = true;
    config.drainTimeoutNs = 200000;
    FluidFabric fabric(CircuitGraph(4, {{0, 1}, {2, 3}}), config);
    const uint64_t t = fabric.StartTransfer(0, 1, 1000000, TrafficClass::KV, nullptr);
    fabric.Schedule(250000, [&]() {
        fabric.StartSwitch(CircuitGraph(4, {{0, 1}, {1, 2}, {0, 3}}));
    });
    fabric.Run(1000000000);
    EXPECT_EQ(fabric.GetTransfer(t).endNs, 1000000 + 2300);
    EXPECT_EQ(fabric.GetTransfer(t).heldNs, 0);
    const FluidSwitchRecord& s = fabric.GetSwitchRecords().at(0);
    EXPECT_EQ(s.kept, 1u);
    EXPECT_EQ(s.drainNs, 200000);
    EXPECT_EQ(s.endNs, 250000 + 200000 + 1000000);
    EXPECT_EQ(s.transfersHeld, 0u);
}

/// The parts of an all-to-all of `bytes` per pair over groups 0 .. n - 1
std::shared_ptr<const std::vector<FluidPart>>
AllToAll(uint32_t n, uint64_t bytes)
{
    auto parts = std::make_shared<std::vector<FluidPart>>();
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            if (s != d)
            {
                parts->push_back({s, d, bytes});
            }
        }
    }
    return parts;
}

// An all-to-all of 1e6 B per pair on the line 0 - 1 - 2 as one aggregate: every circuit
// direction carries two parts (0 -> 1 carries 0 -> 1 and 0 -> 2, ...), so its weight is 2 on
// each, its rate 1 GB/s / 2, and every part ends at 2 ms, the longest path's latency (two
// circuits, 4300 ns) later. The separate transfers would end then too (1-hop ones 2000 ns
// sooner): here every part shares its links equally.
TEST(FluidFabric, AnAggregateSendsEveryPartAtItsShare)
{
    FluidFabric fabric(CircuitGraph(3, {{0, 1}, {1, 2}}), RoundConfig(2));
    std::vector<int64_t> notices;
    const uint64_t a = fabric.StartAggregate(AllToAll(3, 1000000),
                                             TrafficClass::TRAINING,
                                             [&](uint64_t) { notices.push_back(fabric.Now()); });
    fabric.Run(1000000000);
    const FluidTransfer& t = fabric.GetTransfer(a);
    EXPECT_TRUE(t.complete);
    EXPECT_EQ(t.parts, 6u);
    EXPECT_EQ(t.bytes, 6000000u);
    EXPECT_EQ(t.endNs, 2000000 + 4300);
    EXPECT_EQ(notices, std::vector<int64_t>{2000000 + 4300});
    for (uint32_t s = 0; s < 3; ++s)
    {
        for (uint32_t d = 0; d < 3; ++d)
        {
            EXPECT_EQ(fabric.GetBytesBetween(s, d), s == d ? 0u : 1000000u);
        }
    }
    // the four circuit directions carried two parts each (ports: 0's 0, 1's 0 and 1, 2's 0)
    const std::vector<double> ports = fabric.GetPortBytes();
    double sum = 0;
    for (double b : ports)
    {
        EXPECT_TRUE(b == 0 || std::abs(b - 2000000) < 1e-3) << b;
        sum += b;
    }
    EXPECT_NEAR(sum, 8000000, 1e-3);
    EXPECT_EQ(fabric.GetMaxConcurrent(), 1u); // one flow stood for the six transfers
}

// A KV transfer of 5e5 B 0 -> 1 beside the all-to-all: the circuit 0 -> 1 has the aggregate's
// weight 2 and the KV transfer's 1, 1/3 GB/s each; the KV transfer ends at 1.5 ms, when every
// part has 1e6 - 5e5 B left, which the aggregate alone (1/2 GB/s) sends in 1 ms.
TEST(FluidFabric, AnAggregateSharesItsLinksWithTransfers)
{
    FluidFabric fabric(CircuitGraph(3, {{0, 1}, {1, 2}}), RoundConfig(2));
    const uint64_t a = fabric.StartAggregate(AllToAll(3, 1000000), TrafficClass::TRAINING, nullptr);
    const uint64_t kv = fabric.StartTransfer(0, 1, 500000, TrafficClass::KV, nullptr);
    fabric.Run(1000000000);
    EXPECT_EQ(fabric.GetTransfer(kv).endNs, 1500000 + 2300);
    EXPECT_EQ(fabric.GetTransfer(a).endNs, 2500000 + 4300);
}

// The parts 0 -> 1 and 0 -> 2 (1e6 B each) on the line 0 - 1 - 2 share the circuit 0 -> 1
// (weight 2, 1/2 GB/s): by the switch at 0.25 ms each part has 8.75e5 B left. The switch
// to 0 - 2, 1 - 2 removes 0 - 1, group 0's only circuit: the whole aggregate is held while the
// OCS is dark (1 ms) and then goes 0 -> 2 (both parts, weight 2) and 2 -> 1 (weight 1), at
// 1/2 GB/s: 1.75 ms more, fluid end 3 ms, two circuits of latency.
TEST(FluidFabric, AnAggregateIsHeldWhileAPartHasNoRoute)
{
    FluidFabric fabric(CircuitGraph(3, {{0, 1}, {1, 2}}), RoundConfig(2));
    auto parts = std::make_shared<std::vector<FluidPart>>(
        std::vector<FluidPart>{{0, 1, 1000000}, {0, 2, 1000000}});
    const uint64_t a = fabric.StartAggregate(parts, TrafficClass::TRAINING, nullptr);
    fabric.Schedule(250000, [&]() { fabric.StartSwitch(CircuitGraph(3, {{0, 2}, {1, 2}})); });
    fabric.Run(1000000000);
    const FluidTransfer& t = fabric.GetTransfer(a);
    EXPECT_EQ(t.endNs, 3000000 + 4300);
    EXPECT_EQ(t.heldNs, 1000000);
    EXPECT_EQ(t.reroutes, 2u);
    EXPECT_EQ(fabric.GetSwitchRecords().at(0).transfersHeld, 2u);
    EXPECT_EQ(fabric.GetBytesBetween(0, 2), 1000000u);
}

// Parts of different sizes progress at their own pace and end together: 0 -> 1 of 1e6 B and
// 0 -> 2 of 5e5 B share the circuit 0 -> 1 by their bytes (weights 1 and 0.5 of the largest
// part): 1.5 / 1 GB/s gives the largest part 2/3 GB/s, 1.5 ms.
TEST(FluidFabric, PartsOfDifferentSizesEndTogether)
{
    FluidFabric fabric(CircuitGraph(3, {{0, 1}, {1, 2}}), RoundConfig(2));
    auto parts = std::make_shared<std::vector<FluidPart>>(
        std::vector<FluidPart>{{0, 1, 1000000}, {0, 2, 500000}});
    const uint64_t a = fabric.StartAggregate(parts, TrafficClass::TRAINING, nullptr);
    fabric.Run(1000000000);
    EXPECT_EQ(fabric.GetTransfer(a).endNs, 1500000 + 4300);
    EXPECT_EQ(fabric.GetTransfer(a).bytes, 1500000u);
    EXPECT_NEAR(fabric.GetPortBytes()[0], 1500000, 1e-3);
}

/// RoundConfig(1) with G hosts per group on host links of 1 GB/s and circuits of 10 GB/s: the
/// host links are the bottleneck. A one-circuit path's latency: the up link's delay (100), the
/// circuit's delay and one packet on it (1000 + 100), the down link's delay and one packet on
/// it (100 + 1000) = 2300 ns.
FluidFabricConfig
RailConfig(uint32_t hosts)
{
    FluidFabricConfig c = RoundConfig(1);
    c.circuitBitRate = 80e9;
    c.hostBitRate = 8e9;
    c.hostsPerGroup = hosts;
    return c;
}

// Rails: with G = 2 the transfers on rails 0 and 1 leave from different hosts and arrive at
// different hosts, each on host links of its own: 1e6 B each at 1 GB/s, fluid end 1 ms. Rails
// 0 and 2 are both host 0's (2 mod 2 = 0): they share its links at 0.5 GB/s, fluid end 2 ms.
// Every byte crosses the one circuit either way.
TEST(FluidFabric, RailsAreHostsOfTheirOwn)
{
    for (const auto& [rails, end] : {std::make_pair(std::make_pair(0u, 1u), int64_t{1002300}),
                                     std::make_pair(std::make_pair(0u, 2u), int64_t{2002300}),
                                     std::make_pair(std::make_pair(3u, 4u), int64_t{1002300})})
    {
        FluidFabric fabric(CircuitGraph(2, {{0, 1}}), RailConfig(2));
        const uint64_t a =
            fabric.StartTransfer(0, 1, 1000000, TrafficClass::KV, nullptr, rails.first);
        const uint64_t b =
            fabric.StartTransfer(0, 1, 1000000, TrafficClass::KV, nullptr, rails.second);
        fabric.Run(1000000000);
        EXPECT_EQ(fabric.GetTransfer(a).endNs, end) << rails.first << "," << rails.second;
        EXPECT_EQ(fabric.GetTransfer(b).endNs, end) << rails.first << "," << rails.second;
        EXPECT_EQ(fabric.GetTransfer(b).rail, rails.second);
        EXPECT_NEAR(fabric.GetPortBytes()[0], 2000000.0, 1e-3);
        EXPECT_EQ(fabric.GetBytesBetween(0, 1), 2000000u);
    }
    // G = 1: every rail is the one host
    FluidFabric one(CircuitGraph(2, {{0, 1}}), RailConfig(1));
    const uint64_t a = one.StartTransfer(0, 1, 1000000, TrafficClass::KV, nullptr, 0);
    const uint64_t b = one.StartTransfer(0, 1, 1000000, TrafficClass::KV, nullptr, 1);
    one.Run(1000000000);
    EXPECT_EQ(one.GetTransfer(a).endNs, 2002300);
    EXPECT_EQ(one.GetTransfer(b).endNs, 2002300);
}

// An aggregate's parts on rails 0 and 1 (G = 2) cross host links of their own (weight 1 each)
// and the circuit together (weight 2 of 10 GB/s): the flow runs at 1 GB/s, 1e6 B, fluid end
// 1 ms. With G = 1 both parts share the host links (weight 2): 0.5 GB/s, 2 ms.
TEST(FluidFabric, AnAggregatesPartsTakeTheirRails)
{
    using Parts = std::vector<FluidPart>;
    const auto parts = std::make_shared<Parts>(Parts{{0, 1, 1000000, 0}, {0, 1, 1000000, 1}});
    for (const auto& [hosts, end] :
         {std::make_pair(2u, int64_t{1002300}), std::make_pair(1u, int64_t{2002300})})
    {
        FluidFabric fabric(CircuitGraph(2, {{0, 1}}), RailConfig(hosts));
        const uint64_t id = fabric.StartAggregate(parts, TrafficClass::TRAINING, nullptr);
        fabric.Run(1000000000);
        EXPECT_EQ(fabric.GetTransfer(id).endNs, end) << "G = " << hosts;
        EXPECT_NEAR(fabric.GetPortBytes()[0], 2000000.0, 1e-3);
    }
}

TEST(FluidFabric, BadInputIsNamed)
{
    for (uint32_t hosts : {0u, FluidFabricConfig::MAX_HOSTS_PER_GROUP + 1})
    {
        EXPECT_THROW(FluidFabric(CircuitGraph(2, {{0, 1}}), RailConfig(hosts)), Error) << hosts;
    }
    FluidFabricConfig noHosts = RailConfig(2);
    noHosts.hostLinks = false; // the group node sends: one endpoint
    EXPECT_THROW(FluidFabric(CircuitGraph(2, {{0, 1}}), noHosts), Error);
    FluidFabricConfig config = RoundConfig(1);
    EXPECT_THROW(FluidFabric(CircuitGraph(3, {{0, 1}, {0, 2}}), config), Error); // degree 2 > d
    config.circuitBitRate = 0;
    EXPECT_THROW(FluidFabric(CircuitGraph(2, {{0, 1}}), config), Error);
    config = RoundConfig(1);
    config.rule = RoutingRule::ECMP;
    EXPECT_THROW(FluidFabric(CircuitGraph(2, {{0, 1}}), config), Error);
    FluidFabric fabric(CircuitGraph(2, {{0, 1}}), RoundConfig(1));
    EXPECT_THROW(fabric.StartTransfer(0, 0, 1, TrafficClass::KV, nullptr), Error);
    EXPECT_THROW(fabric.StartTransfer(0, 2, 1, TrafficClass::KV, nullptr), Error);
    EXPECT_THROW(fabric.StartTransfer(0, 1, 0, TrafficClass::KV, nullptr), Error);
    EXPECT_THROW(fabric.Schedule(-1, [] {}), Error);
    EXPECT_THROW(fabric.StartSwitch(CircuitGraph(3, {})), Error);
    EXPECT_THROW(fabric.StartAggregate(nullptr, TrafficClass::TRAINING, nullptr), Error);
    using Parts = std::vector<FluidPart>;
    for (const Parts& bad :
         {Parts{}, Parts{{0, 0, 1}}, Parts{{0, 1, 0}}, Parts{{0, 1, 1}, {2, 1, 1}}})
    {
        EXPECT_THROW(fabric.StartAggregate(std::make_shared<Parts>(bad), TrafficClass::KV, nullptr),
                     Error);
    }
    EXPECT_TRUE(fabric.GetTransfers().empty()); // nothing refused was started
}

} // namespace
