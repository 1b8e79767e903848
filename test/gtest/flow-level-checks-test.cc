/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// mose-packet's and mose-mode-switch's fluid answers carry the error of the nearest run checked
// against the packet level (FlowLevelCheck), or say by which settings they lie outside.

#include "mose-flow-level-checks.h"
#include "mose-switch-experiment.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// a checked run's settings, as GetFlowLevelSettings() gives them
FlowLevelCheck
Settings(const std::string& program, bool rdma, uint32_t nodes, uint32_t degree, uint64_t flows)
{
    FlowLevelCheck r;
    r.program = program;
    r.rdma = rdma;
    r.nodes = nodes;
    r.degree = degree;
    r.flows = flows;
    r.bytesPerUnit = 65536;
    r.packetBytes = rdma ? 1024 : 536;
    return r;
}

} // namespace

TEST(FlowLevelChecks, TheNearestCheckedRunAndWhatDiffers)
{
    const std::vector<FlowLevelCheck>& checks = GetFlowLevelChecks();
    std::vector<std::string> differences{"stale"};
    // the defaults of mose-packet over tcp were checked: nothing differs
    const FlowLevelCheck* c =
        FindNearestFlowLevelCheck(Settings("mose-packet", false, 64, 4, 2000), checks, differences);
    ASSERT_NE(c, nullptr);
    EXPECT_TRUE(differences.empty());
    EXPECT_EQ(c->flows, 2000u);
    EXPECT_DOUBLE_EQ(c->kvError, -0.037);
    // N 128: one setting differs from the 64-group run and two from the 16-group ones
    c = FindNearestFlowLevelCheck(Settings("mose-packet", false, 128, 4, 2000),
                                  checks,
                                  differences);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->nodes, 64u);
    EXPECT_EQ(differences, std::vector<std::string>{"N 128 where the nearest has 64"});
    // over rdma, N 20 and 40 flows: N differs from the 16-group run, N and flows from the 64
    c = FindNearestFlowLevelCheck(Settings("mose-packet", true, 20, 4, 40), checks, differences);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->nodes, 16u);
    EXPECT_TRUE(c->rdma);
    EXPECT_EQ(differences, std::vector<std::string>{"N 20 where the nearest has 16"});
    // the program and the transport must match
    c = FindNearestFlowLevelCheck(Settings("mose-llm", false, 64, 4, 2000), checks, differences);
    EXPECT_EQ(c, nullptr);
    EXPECT_TRUE(differences.empty());
}

TEST(FlowLevelChecks, TheLineAtTheFluidLevelOnly)
{
    ExperimentConfig config = MakeSwitchConfig(64, 1000);
    config.level = LlmLevel::PACKET;
    std::ostringstream packet;
    PrintFlowLevelCheck(packet, "mose-mode-switch", config);
    EXPECT_EQ(packet.str(), "");
    config.level = LlmLevel::FLUID;
    std::ostringstream fluid;
    PrintFlowLevelCheck(fluid, "mose-mode-switch", config);
    EXPECT_EQ(fluid.str(),
              "validated (fluid, tcp): checked against the packet level at these settings (N = "
              "64, d = 4, 1000 flows, 65536 B per unit, 536 B packets; MoSE, run 1): the fluid "
              "level's mean FCT -1.6% (KV), +0.1% (training) (doc/mose.rst, Flow lists at the "
              "fluid level)\n");
    Config::SetDefault("ns3::MoseTrafficHelper::BytesPerUnit", UintegerValue(655360));
    std::ostringstream outside;
    PrintFlowLevelCheck(outside, "mose-mode-switch", config);
    Config::Reset();
    // a TCP start set otherwise than the checked runs' is a difference too
    Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(false));
    std::ostringstream tcp;
    PrintFlowLevelCheck(tcp, "mose-mode-switch", config);
    Config::Reset();
    EXPECT_EQ(tcp.str(),
              "validated (fluid, tcp): outside every checked run (--ns3::TcpCubic::HyStart given, "
              "which the checked runs leave at its default); the nearest against the packet level "
              "(N = 64, d = 4, 1000 flows, 65536 B per unit, 536 B packets; MoSE, run 1): the "
              "fluid level's mean FCT -1.6% (KV), +0.1% (training) (doc/mose.rst, Flow lists at "
              "the fluid level)\n");
    EXPECT_EQ(outside.str(),
              "validated (fluid, tcp): outside every checked run (bytes per unit 655360 where the "
              "nearest has 65536); the nearest against the packet level (N = 64, d = 4, 1000 "
              "flows, 65536 B per unit, 536 B packets; MoSE, run 1): the fluid level's mean FCT "
              "-1.6% (KV), +0.1% (training) (doc/mose.rst, Flow lists at the fluid level)\n");
}
