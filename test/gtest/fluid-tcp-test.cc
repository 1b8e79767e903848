/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// TCP's start at the fluid level (FluidFabricConfig::tcp): the handshake, the window that caps
// a transfer's rate at window / RTT and grows once per round trip, kept connections. Every
// time below is worked out by hand.

#include "ns3/mose-circuit-graph.h"
#include "ns3/mose-error.h"
#include "ns3/mose-fluid-fabric.h"

#include <functional>
#include <gtest/gtest.h>
#include <limits>
#include <utility>

using namespace ns3::mose;

namespace
{

/// Two groups, one circuit of 1 GB/s (1 byte per ns), no host links, 1000-byte packets with no
/// header, circuit delay 1000 ns. TCP: a SYN and an ACK are 100 wire bytes (100 ns each).
/// - handshake: the SYN (1000 + 100 ns) and the SYN-ACK back (1000 + 100) = 2200 ns;
/// - RTT: the last byte's latency on one circuit (1000) + one segment on the first link (1000)
///   + the ACK back (1000 + 100) = 3100 ns;
/// - a first window of 1550 B caps the rate at 1550 / 3100 = 0.5 B/ns, half the circuit.
FluidFabricConfig
TcpConfig()
{
    FluidFabricConfig c;
    c.ports = 1;
    c.hostLinks = false;
    c.circuitBitRate = 8e9;
    c.segmentBytes = 1000;
    c.wireBytesPerSegment = 1000;
    c.circuitDelayNs = 1000;
    c.tcp.enabled = true;
    c.tcp.initialWindowBytes = 1550;
    c.tcp.maxWindowBytes = 1e9;
    c.tcp.growth = 2;
    c.tcp.synWireBytes = 100;
    c.tcp.ackWireBytes = 100;
    return c;
}

const CircuitGraph ONE_CIRCUIT(2, {{0, 1}});

/// \param c the fabric's parameters \return one 10,000-byte transfer from group 0 to group 1
///         alone: its last byte's arrival (ns) and the round trips that grew its window
std::pair<int64_t, uint64_t>
OneTransfer(const FluidFabricConfig& c)
{
    FluidFabric fabric(ONE_CIRCUIT, c);
    fabric.StartTransfer(0, 1, 10000, TrafficClass::KV, nullptr);
    fabric.Run(1000000);
    return {fabric.GetTransfer(0).endNs, fabric.GetNTcpRounds()};
}

} // namespace

// 10,000 B alone. Data from 2200 ns at 0.5 B/ns for one RTT: 1550 B by 5300 ns. The window
// doubles to 3100 B: 1 B/ns, the circuit's rate, so the cap goes. The other 8450 B take
// 8450 ns: the last byte leaves at 13,750 ns and arrives 1000 ns later.
TEST(FluidTcp, OneTransferAloneByHand)
{
    EXPECT_EQ(OneTransfer(TcpConfig()), std::make_pair(int64_t{14750}, uint64_t{1}));
    FluidFabric fabric(ONE_CIRCUIT, TcpConfig());
    fabric.StartTransfer(0, 1, 10000, TrafficClass::KV, nullptr);
    fabric.Run(1000000);
    ASSERT_TRUE(fabric.GetTransfer(0).complete);
    EXPECT_EQ(fabric.GetTransfer(0).startNs, 0);
    EXPECT_EQ(fabric.GetTransfer(0).endNs, 14750);
    EXPECT_EQ(fabric.GetNTcpRounds(), 1u);
    EXPECT_EQ(fabric.GetBytesBetween(0, 1), 10000u);
}

// Without TCP's start the same transfer takes 10,000 ns from 0 and arrives at 11,000 ns.
TEST(FluidTcp, OffGivesTheMaxMinRateFromTheFirstByte)
{
    FluidFabricConfig c = TcpConfig();
    c.tcp.enabled = false;
    EXPECT_EQ(OneTransfer(c), std::make_pair(int64_t{11000}, uint64_t{0}));
}

// A window that cannot grow (maxWindowBytes 1550) keeps each transfer at 0.5 B/ns, so two of
// them fill the circuit without slowing each other: 20,000 ns each after the handshake, both
// arrive at 2200 + 20,000 + 1000 = 23,200 ns.
TEST(FluidTcp, ASmallBufferCapsEveryTransferAtWindowOverRtt)
{
    FluidFabricConfig c = TcpConfig();
    c.tcp.maxWindowBytes = 1550;
    FluidFabric fabric(ONE_CIRCUIT, c);
    fabric.StartTransfer(0, 1, 10000, TrafficClass::KV, nullptr);
    fabric.StartTransfer(0, 1, 10000, TrafficClass::KV, nullptr);
    fabric.Run(1000000);
    EXPECT_EQ(fabric.GetTransfer(0).endNs, 23200);
    EXPECT_EQ(fabric.GetTransfer(1).endNs, 23200);
    EXPECT_EQ(fabric.GetNTcpRounds(), 0u);
}

// After slow start (HyStart's end at 1550 B) the window grows by 1.5 per round trip: 1550 B
// in the first RTT (0.5 B/ns), 2325 B in the second (0.75 B/ns); then 3487.5 B, above the
// circuit's 3100 B per RTT, and the cap goes. 3875 B are sent by 2200 + 2 x 3100 = 8400 ns;
// the other 6125 B take 6125 ns: the last byte arrives at 14,525 + 1000 ns.
TEST(FluidTcp, AfterSlowStartTheWindowGrowsByTheAvoidanceFactor)
{
    FluidFabricConfig c = TcpConfig();
    c.tcp.slowStartEndBytes = 1550;
    c.tcp.avoidanceGrowth = 1.5;
    EXPECT_EQ(OneTransfer(c), std::make_pair(int64_t{15525}, uint64_t{2}));
}

// A kept connection: the first transfer is OneTransferAloneByHand's (14,750 ns). The second
// starts at 20,000 ns with no handshake and the window the first left, 1550 + 10,000 B: no cap,
// 10,000 ns at 1 B/ns, arriving at 31,000 ns. After CloseConnections() the third, at 40,000
// ns, opens a new connection: the first transfer's times again, from 40,000 ns.
TEST(FluidTcp, AKeptConnectionSkipsTheHandshakeAndKeepsItsWindow)
{
    FluidFabric fabric(ONE_CIRCUIT, TcpConfig());
    fabric.StartTransfer(0, 1, 10000, TrafficClass::TRAINING, nullptr, 0, true);
    fabric.Schedule(20000, [&]() {
        fabric.StartTransfer(0, 1, 10000, TrafficClass::TRAINING, nullptr, 0, true);
    });
    fabric.Schedule(30000, [&]() { fabric.CloseConnections({1}); });
    fabric.Schedule(40000, [&]() {
        fabric.StartTransfer(0, 1, 10000, TrafficClass::TRAINING, nullptr, 0, true);
    });
    fabric.Run(1000000);
    EXPECT_EQ(fabric.GetTransfer(0).endNs, 14750);
    EXPECT_EQ(fabric.GetTransfer(1).endNs, 31000);
    EXPECT_EQ(fabric.GetTransfer(2).endNs, 54750);
    EXPECT_EQ(fabric.GetNTcpRounds(), 2u);
}

// A kept connection's window after slow start (HyStart's end at 1550 B, then 1.5x per round
// trip). The first transfer, 1000 B, ends within its first window (at 2200 + 2000 + 1000 ns);
// its bytes were all acknowledged after slow start: the window is 1550 + 0.5 x 1000 = 2050 B.
// The second, 20,500 B from 10,000 ns, starts there: 2050 B in the first round trip (2050 /
// 3100 B/ns), 3075 B in the second; then 4612.5 B is above 3100 and the cap goes. 5125 B by
// 16,200 ns, the other 15,375 B at 1 B/ns: the last byte arrives at 31,575 + 1000 ns.
TEST(FluidTcp, AKeptConnectionKeepsTheWindowItGrewAfterSlowStart)
{
    FluidFabricConfig c = TcpConfig();
    c.tcp.slowStartEndBytes = 1550;
    c.tcp.avoidanceGrowth = 1.5;
    FluidFabric fabric(ONE_CIRCUIT, c);
    fabric.StartTransfer(0, 1, 1000, TrafficClass::TRAINING, nullptr, 0, true);
    fabric.Schedule(10000, [&]() {
        fabric.StartTransfer(0, 1, 20500, TrafficClass::TRAINING, nullptr, 0, true);
    });
    fabric.Run(1000000);
    EXPECT_EQ(fabric.GetTransfer(0).endNs, 5200);
    EXPECT_EQ(fabric.GetTransfer(1).endNs, 32575);
    EXPECT_EQ(fabric.GetNTcpRounds(), 2u);
}

TEST(FluidTcp, BadSettingsAreRefused)
{
    // each change to TcpConfig() alone, and the words its refusal names
    const auto refused = [](const std::function<void(FluidFabricConfig&)>& change,
                            const std::string& what) {
        FluidFabricConfig c = TcpConfig();
        change(c);
        try
        {
            c.Validate();
            ADD_FAILURE() << "accepted: " << what;
        }
        catch (const Error& e)
        {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    refused([](FluidFabricConfig& c) { c.queues = true; }, "TCP's start");
    refused([](FluidFabricConfig& c) { c.tcp.initialWindowBytes = 0; }, "TCP's first window");
    refused(
        [](FluidFabricConfig& c) {
            c.tcp.maxWindowBytes = std::numeric_limits<double>::infinity();
        },
        "largest window");
    refused([](FluidFabricConfig& c) { c.tcp.growth = 2.5; }, "growth per round trip");
    refused([](FluidFabricConfig& c) { c.tcp.avoidanceGrowth = 1; }, "after slow start");
    refused([](FluidFabricConfig& c) { c.tcp.slowStartEndBytes = 0; }, "end of slow start");
    refused([](FluidFabricConfig& c) { c.tcp.ackWireBytes = 0; }, "TCP's control packet");
}
