/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-test-util.h"

#include "ns3/mose-collective.h"
#include "ns3/mose-error.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <set>
#include <vector>

using namespace ns3;
using namespace ns3::mose;
using namespace ns3::mose::test;

namespace
{

/**
 * \brief Executes a ring all-reduce plan on symbolic data: every member starts with its own
 *        contribution to every chunk (bit i of member i), a reduce-scatter transfer adds the
 *        sender's bits to the receiver's, an all-gather transfer replaces the receiver's chunk
 *        with the sender's. Transfers run in plan order; each must come after the one it depends
 *        on, and that one must have delivered the same chunk to this transfer's sender.
 * \return per member and chunk, the contributions it holds at the end
 */
std::vector<std::vector<uint64_t>>
RunRing(const CollectivePlan& plan)
{
    const uint32_t n = plan.members;
    std::vector<std::vector<uint64_t>> held(n, std::vector<uint64_t>(n));
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t c = 0; c < n; ++c)
        {
            held[i][c] = uint64_t{1} << i;
        }
    }
    for (std::size_t x = 0; x < plan.transfers.size(); ++x)
    {
        const CollectiveTransfer& t = plan.transfers[x];
        if (t.dependsOn != CollectiveTransfer::NONE)
        {
            EXPECT_LT(t.dependsOn, x);
            const CollectiveTransfer& d = plan.transfers[t.dependsOn];
            EXPECT_EQ(d.dst, t.src) << "transfer " << x;
            EXPECT_EQ(d.chunk, t.chunk) << "transfer " << x;
        }
        if (t.step < n - 1)
        {
            held[t.dst][t.chunk] |= held[t.src][t.chunk];
        }
        else
        {
            held[t.dst][t.chunk] = held[t.src][t.chunk];
        }
    }
    return held;
}

} // namespace

TEST(Collective, Names)
{
    EXPECT_EQ(ToString(CollectiveKind::ALL_TO_ALL), "all-to-all");
    EXPECT_EQ(ToString(CollectiveKind::RING_ALL_REDUCE), "ring-all-reduce");
    EXPECT_EQ(ParseEnum<CollectiveKind>("AllReduce", "--collective"),
              CollectiveKind::RING_ALL_REDUCE);
}

TEST(Collective, ChunkBytesSumToS)
{
    EXPECT_EQ(ChunkBytes(10, 3, 0), 4U);
    EXPECT_EQ(ChunkBytes(10, 3, 1), 3U);
    EXPECT_EQ(ChunkBytes(10, 3, 2), 3U);
    for (uint64_t s : std::vector<uint64_t>{7, 64, 1000, 1001, 999999937})
    {
        for (uint32_t n : {1U, 2U, 3U, 7U})
        {
            uint64_t sum = 0;
            for (uint32_t c = 0; c < n; ++c)
            {
                sum += ChunkBytes(s, n, c);
            }
            EXPECT_EQ(sum, s) << "S = " << s << ", n = " << n;
        }
    }
    ExpectErrorContaining([] { ChunkBytes(10, 3, 3); }, "chunk");
}

TEST(AllToAll, DivisibleSizeMovesSOverNPerPair)
{
    CollectivePlan p = PlanAllToAll(4, 1000);
    EXPECT_EQ(p.kind, CollectiveKind::ALL_TO_ALL);
    EXPECT_EQ(p.members, 4U);
    EXPECT_EQ(p.size, 1000U);
    EXPECT_EQ(p.steps, 1U);
    ASSERT_EQ(p.transfers.size(), 12U); // n(n-1)
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (const CollectiveTransfer& t : p.transfers)
    {
        EXPECT_NE(t.src, t.dst);
        EXPECT_EQ(t.bytes, 250U);
        EXPECT_EQ(t.step, 0U);
        EXPECT_EQ(t.chunk, t.dst);
        EXPECT_EQ(t.dependsOn, CollectiveTransfer::NONE);
        pairs.insert({t.src, t.dst});
    }
    EXPECT_EQ(pairs.size(), 12U); // every ordered pair once
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(p.GetBytesSent(i), 750U);
        EXPECT_EQ(p.GetBytesReceived(i), 750U);
        for (uint32_t j = 0; j < 4; ++j)
        {
            EXPECT_EQ(p.GetBytesBetween(i, j), i == j ? 0U : 250U);
        }
    }
    EXPECT_EQ(p.GetTotalBytes(), 3000U);
}

TEST(AllToAll, RemainderByHand)
{
    // S = 1002 over 5: q = 200, r = 2; offsets (j - i) mod 5 of 1 and 2 carry 201
    CollectivePlan p = PlanAllToAll(5, 1002);
    EXPECT_EQ(p.GetBytesBetween(0, 1), 201U);
    EXPECT_EQ(p.GetBytesBetween(0, 2), 201U);
    EXPECT_EQ(p.GetBytesBetween(0, 3), 200U);
    EXPECT_EQ(p.GetBytesBetween(0, 4), 200U);
    EXPECT_EQ(p.GetBytesBetween(3, 4), 201U);
    EXPECT_EQ(p.GetBytesBetween(3, 0), 201U);
    EXPECT_EQ(p.GetBytesBetween(3, 1), 200U);
    EXPECT_EQ(p.GetBytesBetween(4, 0), 201U);
    for (uint32_t i = 0; i < 5; ++i)
    {
        // sent + the kept part (q) is the whole buffer S; receivers get the same
        EXPECT_EQ(p.GetBytesSent(i) + 200U, 1002U);
        EXPECT_EQ(p.GetBytesReceived(i), 802U);
    }
}

TEST(AllToAll, RemainderRuleSumsToSPerMember)
{
    for (uint32_t n : {2U, 3U, 5U, 8U, 13U})
    {
        for (uint64_t s : std::vector<uint64_t>{n, uint64_t{n} + 1, 1000, 1001, 123456789})
        {
            CollectivePlan p = PlanAllToAll(n, s);
            ASSERT_EQ(p.transfers.size(), uint64_t{n} * (n - 1));
            const uint64_t q = s / n;
            for (uint32_t i = 0; i < n; ++i)
            {
                EXPECT_EQ(p.GetBytesSent(i) + q, s) << "n = " << n << ", S = " << s;
                EXPECT_EQ(p.GetBytesReceived(i) + q, s) << "n = " << n << ", S = " << s;
            }
            for (const CollectiveTransfer& t : p.transfers)
            {
                EXPECT_TRUE(t.bytes == q || t.bytes == q + 1);
            }
            EXPECT_EQ(p.GetTotalBytes(), uint64_t{n} * (s - q));
        }
    }
}

TEST(RingAllReduce, DivisibleSizeByHand)
{
    CollectivePlan p = PlanRingAllReduce(4, 1000);
    EXPECT_EQ(p.kind, CollectiveKind::RING_ALL_REDUCE);
    EXPECT_EQ(p.steps, 6U); // 2(n-1)
    ASSERT_EQ(p.transfers.size(), 24U);
    for (std::size_t x = 0; x < p.transfers.size(); ++x)
    {
        const CollectiveTransfer& t = p.transfers[x];
        EXPECT_EQ(t.step, x / 4);
        EXPECT_EQ(t.src, x % 4);
        EXPECT_EQ(t.dst, (t.src + 1) % 4);
        EXPECT_EQ(t.bytes, 250U);
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        // 2(n-1)/n x S
        EXPECT_EQ(p.GetBytesSent(i), 1500U);
        EXPECT_EQ(p.GetBytesReceived(i), 1500U);
        EXPECT_EQ(p.GetBytesBetween(i, (i + 1) % 4), 1500U);
    }
    EXPECT_EQ(p.GetTotalBytes(), 6000U);
}

TEST(RingAllReduce, ScheduleAndDependenciesByHand)
{
    // n = 3: member i sends chunk (i - k) mod 3 in step k
    CollectivePlan p = PlanRingAllReduce(3, 30);
    ASSERT_EQ(p.transfers.size(), 12U);
    const std::vector<std::vector<uint32_t>> chunks = {{0, 2, 1, 0}, {1, 0, 2, 1}, {2, 1, 0, 2}};
    for (uint32_t k = 0; k < 4; ++k)
    {
        for (uint32_t i = 0; i < 3; ++i)
        {
            const CollectiveTransfer& t = p.transfers[k * 3 + i];
            EXPECT_EQ(t.chunk, chunks[i][k]) << "member " << i << ", step " << k;
            // step k of member i waits for step k - 1 of member i - 1
            EXPECT_EQ(t.dependsOn,
                      k == 0 ? CollectiveTransfer::NONE : uint64_t{(k - 1) * 3 + (i + 2) % 3});
        }
    }
}

TEST(RingAllReduce, PlanIsAnAllReduce)
{
    for (uint32_t n : {2U, 3U, 4U, 7U, 16U})
    {
        CollectivePlan p = PlanRingAllReduce(n, 10000);
        std::vector<std::vector<uint64_t>> held = RunRing(p);
        const uint64_t all = (uint64_t{1} << n) - 1; // every member's contribution
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t c = 0; c < n; ++c)
            {
                EXPECT_EQ(held[i][c], all) << "n = " << n << ", member " << i << ", chunk " << c;
            }
        }
    }
}

TEST(RingAllReduce, RemainderRule)
{
    // S = 1001 over 3: chunks 334, 334, 333; member i sends 2S - chunk(i+1) - chunk(i+2)
    CollectivePlan p = PlanRingAllReduce(3, 1001);
    EXPECT_EQ(p.GetBytesSent(0), 2002U - 334 - 333);
    EXPECT_EQ(p.GetBytesSent(1), 2002U - 333 - 334);
    EXPECT_EQ(p.GetBytesSent(2), 2002U - 334 - 334);
    EXPECT_EQ(p.GetTotalBytes(), 4U * 1001); // 2(n-1) x S
    for (uint32_t n : {2U, 5U, 9U})
    {
        for (uint64_t s : std::vector<uint64_t>{n, 1000, 1003, 999999937})
        {
            CollectivePlan q = PlanRingAllReduce(n, s);
            EXPECT_EQ(q.GetTotalBytes(), 2 * uint64_t{n - 1} * s);
            for (uint32_t i = 0; i < n; ++i)
            {
                EXPECT_EQ(q.GetBytesSent(i),
                          2 * s - ChunkBytes(s, n, (i + 1) % n) - ChunkBytes(s, n, (i + 2) % n));
                // within 2 bytes of 2(n-1)/n x S
                const double exact = 2.0 * (n - 1) / n * static_cast<double>(s);
                EXPECT_LT(std::abs(static_cast<double>(q.GetBytesSent(i)) - exact), 2.0);
            }
            if (s % n == 0)
            {
                for (uint32_t i = 0; i < n; ++i)
                {
                    EXPECT_EQ(q.GetBytesSent(i), 2 * (n - 1) * (s / n));
                }
            }
        }
    }
}

TEST(Collective, OneMemberAndDispatch)
{
    EXPECT_TRUE(PlanAllToAll(1, 5).transfers.empty());
    CollectivePlan r = PlanRingAllReduce(1, 5);
    EXPECT_TRUE(r.transfers.empty());
    EXPECT_EQ(r.steps, 0U);
    EXPECT_EQ(PlanCollective(CollectiveKind::ALL_TO_ALL, 3, 9).transfers.size(), 6U);
    EXPECT_EQ(PlanCollective(CollectiveKind::RING_ALL_REDUCE, 3, 9).transfers.size(), 12U);
}

TEST(Collective, BadInput)
{
    ExpectErrorContaining([] { PlanAllToAll(0, 10); }, "members = 0");
    ExpectErrorContaining([] { PlanRingAllReduce(0, 10); }, "members = 0");
    std::string m = ErrorOf([] { PlanAllToAll(4, 3); });
    EXPECT_CONTAINS(m, "size = 3");
    EXPECT_CONTAINS(m, "members = 4");
    ExpectErrorContaining([] { PlanRingAllReduce(4, 3); }, "size = 3");
    m = ErrorOf([] { PlanAllToAll(20000, uint64_t{1} << 40); });
    EXPECT_CONTAINS(m, "members = 20000");
    EXPECT_CONTAINS(m, "399980000");
    ExpectErrorContaining([] { PlanRingAllReduce(9000, uint64_t{1} << 40); }, "members = 9000");
}
