/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Collectives decomposed as NCCL runs them (mose-nccl.h): bytes per circuit computed by hand,
// the pipeline's dependencies, NCCL's default chunk sizes.

#include "ns3/mose-collective.h"
#include "ns3/mose-error.h"
#include "ns3/mose-nccl.h"

#include <gtest/gtest.h>

using namespace ns3::mose;

namespace
{

/// one channel, NCCL's buffer (chunks of 2 MiB: one piece for these sizes)
NcclSettings
OneChannel()
{
    NcclSettings s;
    s.channels = 1;
    return s;
}

/// \return whether every transfer comes after all it waits for
bool
Ordered(const NcclPlan& plan)
{
    for (uint64_t k = 0; k < plan.transfers.size(); ++k)
    {
        for (uint64_t a : plan.transfers[k].after)
        {
            if (a >= k)
            {
                return false;
            }
        }
    }
    return true;
}

// NCCL_BUFFSIZE 4 MiB over NCCL_STEPS 8 slots: 512 KiB steps; rings and the tree take 4 steps
// per chunk (2 MiB), a broadcast one (512 KiB).
TEST(Nccl, DefaultChunksAreNcclsOwn)
{
    const NcclSettings s;
    EXPECT_EQ(s.channels, 2u);
    EXPECT_EQ(s.GetChunkBytes(NcclCollective::ALL_REDUCE), 2097152u);
    EXPECT_EQ(s.GetChunkBytes(NcclCollective::ALL_GATHER), 2097152u);
    EXPECT_EQ(s.GetChunkBytes(NcclCollective::BROADCAST), 524288u);
}

// 4 members, ring all-reduce of S = 4000: 2 x 3 steps of S/4 = 1000 B on each ring link, so
// each link carries 2 x 3 x 4000 / 4 = 6000 B and nothing goes between non-neighbours.
TEST(Nccl, RingAllReduceBytesPerLinkByHand)
{
    const NcclPlan plan = PlanNccl(NcclCollective::ALL_REDUCE, 4, 4000, OneChannel());
    EXPECT_EQ(plan.transfers.size(), 24u);
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(plan.GetBytesBetween(i, (i + 1) % 4), 6000u);
        EXPECT_EQ(plan.GetBytesBetween(i, (i + 2) % 4), 0u);
        EXPECT_EQ(plan.GetBytesBetween(i, (i + 3) % 4), 0u);
    }
    EXPECT_EQ(plan.GetTotalBytes(), 24000u);
    EXPECT_TRUE(Ordered(plan));
    // the same bytes between every pair as the synthetic job's ring (PlanRingAllReduce)
    const CollectivePlan ring = PlanRingAllReduce(4, 4000);
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(plan.GetBytesBetween(i, (i + 1) % 4), ring.GetBytesBetween(i, (i + 1) % 4));
    }
}

// Two channels on two rails: each carries half, 3000 B per link and rail.
TEST(Nccl, ChannelsSplitTheBufferOverRails)
{
    NcclSettings s;
    s.channels = 2;
    const NcclPlan plan = PlanNccl(NcclCollective::ALL_REDUCE, 4, 4000, s);
    EXPECT_EQ(plan.channels, 2u);
    uint64_t rail[2] = {0, 0};
    for (const NcclTransfer& t : plan.transfers)
    {
        ASSERT_LT(t.rail, 2u);
        if (t.src == 0 && t.dst == 1)
        {
            rail[t.rail] += t.bytes;
        }
    }
    EXPECT_EQ(rail[0], 3000u);
    EXPECT_EQ(rail[1], 3000u);
    // S / n = 1 byte per chunk leaves room for one channel only
    EXPECT_EQ(PlanNccl(NcclCollective::ALL_REDUCE, 4, 4, s).channels, 1u);
}

// A 400 B chunk (buffer 800 B over 8 steps, 4 steps a chunk) cuts each 1000 B ring chunk into 3
// pieces (334, 333, 333); piece p of step k waits for piece p of step k - 1 from the
// predecessor.
TEST(Nccl, PiecesArePipelined)
{
    NcclSettings s = OneChannel();
    s.bufferBytes = 800;
    const NcclPlan plan = PlanNccl(NcclCollective::ALL_REDUCE, 4, 4000, s);
    EXPECT_EQ(plan.pieces, 3u);
    ASSERT_EQ(plan.transfers.size(), 6u * 3u * 4u);
    EXPECT_EQ(plan.transfers[0].bytes, 334u);
    EXPECT_EQ(plan.transfers[4].bytes, 333u);
    EXPECT_EQ(plan.GetBytesBetween(0, 1), 6000u);
    // step 1, piece 2, member 0: index (1 x 3 + 2) x 4 + 0 = 20, after step 0 piece 2 member 3
    const NcclTransfer& t = plan.transfers[20];
    EXPECT_EQ(t.step, 1u);
    EXPECT_EQ(t.piece, 2u);
    EXPECT_EQ(t.src, 0u);
    ASSERT_EQ(t.after.size(), 1u);
    const NcclTransfer& before = plan.transfers[t.after[0]];
    EXPECT_EQ(before.step, 0u);
    EXPECT_EQ(before.piece, 2u);
    EXPECT_EQ(before.src, 3u);
    EXPECT_EQ(before.dst, 0u);
    EXPECT_TRUE(Ordered(plan));
}

// All-gather and reduce-scatter of S = 4000 over 4: 3 steps of 1000 B per link.
TEST(Nccl, RingAllGatherAndReduceScatterByHand)
{
    for (NcclCollective c : {NcclCollective::ALL_GATHER, NcclCollective::REDUCE_SCATTER})
    {
        const NcclPlan plan = PlanNccl(c, 4, 4000, OneChannel());
        EXPECT_EQ(plan.transfers.size(), 12u);
        for (uint32_t i = 0; i < 4; ++i)
        {
            EXPECT_EQ(plan.GetBytesBetween(i, (i + 1) % 4), 3000u);
        }
        EXPECT_TRUE(Ordered(plan));
    }
}

// Tree all-reduce of 1000 B over 4: tree 0 has edges 1-0, 2-0, 3-1, each once up and once
// down. With 2 channels tree 1 is the mirror (positions 0..3 are members 3, 2, 1, 0: edges
// 2-3, 1-3, 0-2) and each tree carries 500 B: 1 -> 3 is tree 0's down (500) and tree 1's up
// (500).
TEST(Nccl, TreeAllReduceBytesPerEdgeByHand)
{
    NcclSettings s = OneChannel();
    s.algorithm = NcclAlgorithm::TREE;
    const NcclPlan one = PlanNccl(NcclCollective::ALL_REDUCE, 4, 1000, s);
    EXPECT_EQ(one.transfers.size(), 6u);
    for (auto [a, b] : {std::pair{1u, 0u}, std::pair{2u, 0u}, std::pair{3u, 1u}})
    {
        EXPECT_EQ(one.GetBytesBetween(a, b), 1000u);
        EXPECT_EQ(one.GetBytesBetween(b, a), 1000u);
    }
    EXPECT_EQ(one.GetTotalBytes(), 6000u);
    EXPECT_TRUE(Ordered(one));
    // the root's broadcast waits for both children's reduced parts
    for (const NcclTransfer& t : one.transfers)
    {
        if (t.src == 0)
        {
            ASSERT_EQ(t.after.size(), 2u);
            EXPECT_EQ(one.transfers[t.after[0]].dst, 0u);
            EXPECT_EQ(one.transfers[t.after[1]].dst, 0u);
        }
    }
    s.channels = 2;
    const NcclPlan two = PlanNccl(NcclCollective::ALL_REDUCE, 4, 1000, s);
    EXPECT_EQ(two.GetBytesBetween(1, 0), 500u);
    EXPECT_EQ(two.GetBytesBetween(1, 3), 1000u);
    EXPECT_EQ(two.GetBytesBetween(2, 3), 500u);
    EXPECT_EQ(two.GetBytesBetween(0, 2), 500u + 500u); // tree 0 down, tree 1 up
    EXPECT_EQ(two.GetTotalBytes(), 6000u);
}

// All-to-all as pairwise exchanges: S = 4002 over 4 (q = 1000, r = 2): offsets 1 and 2 carry
// 1001 B, offset 3 carries 1000 B, the same as PlanAllToAll() for every pair.
TEST(Nccl, PairwiseAllToAllMatchesThePlannedParts)
{
    const NcclPlan plan = PlanNccl(NcclCollective::ALL_TO_ALL, 4, 4002, NcclSettings());
    const CollectivePlan a2a = PlanAllToAll(4, 4002);
    EXPECT_EQ(plan.transfers.size(), 12u);
    EXPECT_EQ(plan.GetBytesBetween(0, 1), 1001u);
    EXPECT_EQ(plan.GetBytesBetween(0, 3), 1000u);
    for (uint32_t i = 0; i < 4; ++i)
    {
        for (uint32_t j = 0; j < 4; ++j)
        {
            EXPECT_EQ(plan.GetBytesBetween(i, j), a2a.GetBytesBetween(i, j)) << i << "->" << j;
        }
    }
    for (const NcclTransfer& t : plan.transfers)
    {
        EXPECT_TRUE(t.after.empty());
        EXPECT_EQ(t.rail, (t.dst + 4 - t.src) % 4);
    }
}

// Broadcast of 1000 B from member 2 over 4: the chain 2 -> 3 -> 0 -> 1, each link 1000 B, in
// pieces of 100 B (buffer 800 B over 8 steps, one step a chunk): 10 pieces x 3 hops.
TEST(Nccl, BroadcastIsAPipelinedChain)
{
    NcclSettings s = OneChannel();
    s.bufferBytes = 800;
    s.root = 2;
    const NcclPlan plan = PlanNccl(NcclCollective::BROADCAST, 4, 1000, s);
    EXPECT_EQ(plan.pieces, 10u);
    EXPECT_EQ(plan.transfers.size(), 30u);
    EXPECT_EQ(plan.GetBytesBetween(2, 3), 1000u);
    EXPECT_EQ(plan.GetBytesBetween(3, 0), 1000u);
    EXPECT_EQ(plan.GetBytesBetween(0, 1), 1000u);
    EXPECT_EQ(plan.GetBytesBetween(1, 2), 0u);
    EXPECT_TRUE(Ordered(plan));
    EXPECT_EQ(plan.transfers[10].src, 3u);
    ASSERT_EQ(plan.transfers[10].after.size(), 1u);
    EXPECT_EQ(plan.transfers[10].after[0], 0u);
}

TEST(Nccl, BadInputIsNamed)
{
    NcclSettings tree = OneChannel();
    tree.algorithm = NcclAlgorithm::TREE;
    EXPECT_THROW(
        {
            try
            {
                PlanNccl(NcclCollective::ALL_GATHER, 4, 4000, tree);
            }
            catch (const Error& e)
            {
                EXPECT_NE(std::string(e.what()).find("NCCL algorithm"), std::string::npos);
                throw;
            }
        },
        Error);
    NcclSettings root = OneChannel();
    root.root = 4;
    EXPECT_THROW(PlanNccl(NcclCollective::BROADCAST, 4, 1000, root), Error);
    EXPECT_THROW(PlanNccl(NcclCollective::ALL_REDUCE, 4, 3, OneChannel()), Error);
    EXPECT_THROW(PlanNccl(NcclCollective::ALL_REDUCE, 0, 3, OneChannel()), Error);
    NcclSettings none = OneChannel();
    none.channels = 0;
    EXPECT_THROW(PlanNccl(NcclCollective::ALL_REDUCE, 4, 4000, none), Error);
    EXPECT_TRUE(PlanNccl(NcclCollective::ALL_REDUCE, 1, 1, OneChannel()).transfers.empty());
}

} // namespace
