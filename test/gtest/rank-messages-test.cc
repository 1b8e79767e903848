/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// MoseRankMessages on one process: registration numbers, the tag's round trip through a
// packet, delivery of a tagged packet to its handler, and the errors. Messages between two
// ranks run in the suite's distributed mose-llm case (test/mose-mpi-test-cases.cc).

#include "ns3/core-module.h"
#include "ns3/mose-error.h"
#include "ns3/mose-rank-messages.h"
#include "ns3/packet.h"

#include <array>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// what a handler received
struct Seen
{
    std::vector<std::array<uint64_t, 3>> words; //!< per message
};

void
Record(Seen* seen, uint64_t a, uint64_t b, uint64_t c)
{
    seen->words.push_back({a, b, c});
}

void
Throw(uint64_t, uint64_t, uint64_t)
{
    throw ns3::mose::Error("a handler that fails");
}

} // namespace

TEST(RankMessages, ATaggedPacketReachesTheHandlerOfItsNumber)
{
    if (MoseRankMessages::IsDistributed())
    {
        GTEST_SKIP() << "MPI is enabled on several ranks in this process";
    }
    EXPECT_EQ(MoseRankMessages::GetRank(), 0U);
    EXPECT_EQ(MoseRankMessages::GetNRanks(), 1U);
    Seen first;
    Seen second;
    const uint32_t a = MoseRankMessages::Register(MakeBoundCallback(&Record, &first));
    const uint32_t b = MoseRankMessages::Register(MakeBoundCallback(&Record, &second));
    EXPECT_EQ(b, a + 1) << "numbers in registration order";

    // a packet without the tag is not a message
    EXPECT_FALSE(MoseRankMessages::Receive(Create<Packet>(100)));

    // the tag survives a packet's serialisation, as MpiInterface::SendPacket does it
    MoseRankMessageTag tag;
    tag.handler = b;
    tag.word = {7, (uint64_t{3} << 16) | 49153, 0xffffffffffffffffULL};
    Ptr<Packet> p = Create<Packet>();
    p->AddPacketTag(tag);
    std::vector<uint8_t> buffer(p->GetSerializedSize());
    ASSERT_EQ(p->Serialize(buffer.data(), static_cast<uint32_t>(buffer.size())), 1U);
    Ptr<Packet> copy = Create<Packet>(buffer.data(), static_cast<uint32_t>(buffer.size()), true);
    EXPECT_TRUE(MoseRankMessages::Receive(copy));
    EXPECT_TRUE(first.words.empty());
    ASSERT_EQ(second.words.size(), 1U);
    EXPECT_EQ(second.words[0], tag.word);

    // an unregistered number, and a handler that throws: counted, nothing escapes
    const uint64_t errors = MoseRankMessages::GetNErrors();
    MoseRankMessages::Unregister(b);
    EXPECT_TRUE(MoseRankMessages::Receive(copy));
    EXPECT_EQ(second.words.size(), 1U);
    tag.handler = MoseRankMessages::Register(MakeCallback(&Throw));
    Ptr<Packet> failing = Create<Packet>();
    failing->AddPacketTag(tag);
    EXPECT_TRUE(MoseRankMessages::Receive(failing));
    EXPECT_EQ(MoseRankMessages::GetNErrors(), errors + 2);

    // the registry belongs to the simulation: Destroy() starts numbering again
    Simulator::Destroy();
    EXPECT_EQ(MoseRankMessages::GetNErrors(), 0U);
    Seen third;
    EXPECT_EQ(MoseRankMessages::Register(MakeBoundCallback(&Record, &third)), 0U);
    Simulator::Destroy();
}

TEST(RankMessages, SendingOnOneProcessIsAnError)
{
    if (MoseRankMessages::IsDistributed())
    {
        GTEST_SKIP() << "MPI is enabled on several ranks in this process";
    }
    try
    {
        MoseRankMessages::Send(1, 0, MicroSeconds(5), {0, 0, 0});
        FAIL() << "Send() on one process must throw";
    }
    catch (const ns3::mose::Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("not a run on several MPI ranks"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(MoseRankMessages::Register(MoseRankMessages::Handler()), ns3::mose::Error);
    Simulator::Destroy();
}
