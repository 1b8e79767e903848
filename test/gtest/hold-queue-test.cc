/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The hold queue (MoseHoldQueue) on its own, without a simulator: order, overflow, expiry,
 * counters and the longest hold, every figure computed by hand.
 */

#include "ns3/mose-hold-queue.h"
#include "ns3/packet.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/// \return a packet told apart by its size
Ptr<const Packet>
P(uint32_t size)
{
    return Create<Packet>(size);
}

/// Queues a packet of `size` bytes at `now` with null callbacks
void
Put(MoseHoldQueue& q, uint32_t size, Time now)
{
    q.Enqueue(P(size),
              Ipv4Header(),
              MoseHoldQueue::UnicastForwardCallback(),
              MoseHoldQueue::ErrorCallback(),
              now);
}

/// \return the sizes of the entries in queue order, all left in the queue
std::vector<uint32_t>
Sizes(MoseHoldQueue& q)
{
    std::vector<uint32_t> sizes;
    q.Release(
        [&sizes](const MoseHoldQueue::Entry& e, Time) {
            sizes.push_back(e.packet->GetSize());
            return false;
        },
        Time(0));
    return sizes;
}

} // namespace

TEST(HoldQueue, EmptyQueue)
{
    MoseHoldQueue q;
    EXPECT_EQ(q.GetLimit(), 64U);
    EXPECT_EQ(q.GetSize(), 0U);
    EXPECT_TRUE(q.IsEmpty());
    EXPECT_EQ(q.GetNextExpiry(), Time::Max());
    EXPECT_EQ(q.GetOldestSince(), Time::Max());
    EXPECT_EQ(q.GetEntered(), 0U);
    EXPECT_EQ(q.GetDrops(), 0U);
    EXPECT_EQ(q.GetLongestHold(), Time(0));
}

TEST(HoldQueue, ReleaseKeepsTheOrderOfThoseThatStay)
{
    MoseHoldQueue q;
    q.SetLimit(10);
    q.SetHoldTime(Seconds(1));
    Put(q, 1, MilliSeconds(0));
    Put(q, 2, MilliSeconds(1));
    Put(q, 3, MilliSeconds(2));
    EXPECT_EQ(q.GetOldestSince(), MilliSeconds(0));
    EXPECT_EQ(q.GetNextExpiry(), MilliSeconds(1000));
    // at 5 ms only packet 2 has a route: offered oldest first, with its wait
    std::vector<uint32_t> offered;
    std::vector<Time> waits;
    q.Release(
        [&](const MoseHoldQueue::Entry& e, Time waited) {
            offered.push_back(e.packet->GetSize());
            waits.push_back(waited);
            return e.packet->GetSize() == 2;
        },
        MilliSeconds(5));
    EXPECT_EQ(offered, (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_EQ(waits, (std::vector<Time>{MilliSeconds(5), MilliSeconds(4), MilliSeconds(3)}));
    EXPECT_EQ(q.GetSize(), 2U);
    EXPECT_EQ(Sizes(q), (std::vector<uint32_t>{1, 3}));
    EXPECT_EQ(q.GetLongestHold(), MilliSeconds(4)) << "packet 2 waited 5 - 1 ms";
    // at 10 ms all leave: 1 waited 10 ms, 3 waited 8 ms
    q.Release([](const MoseHoldQueue::Entry&, Time) { return true; }, MilliSeconds(10));
    EXPECT_TRUE(q.IsEmpty());
    EXPECT_EQ(q.GetLongestHold(), MilliSeconds(10));
    EXPECT_EQ(q.GetEntered(), 3U);
    EXPECT_EQ(q.GetDrops(), 0U);
}

TEST(HoldQueue, ReleaseSeesOnlyTheEntriesKeptSoFar)
{
    MoseHoldQueue q;
    q.SetHoldTime(Seconds(1));
    Put(q, 1, Time(0));
    Put(q, 2, Time(0));
    Put(q, 3, Time(0));
    std::vector<uint32_t> sizeDuring;
    q.Release(
        [&](const MoseHoldQueue::Entry& e, Time) {
            sizeDuring.push_back(q.GetSize());
            return e.packet->GetSize() != 1; // 1 stays, 2 and 3 leave
        },
        MilliSeconds(1));
    EXPECT_EQ(sizeDuring, (std::vector<uint32_t>{0, 1, 1}));
    EXPECT_EQ(Sizes(q), (std::vector<uint32_t>{1}));
}

TEST(HoldQueue, OverflowDropsTheOldest)
{
    MoseHoldQueue q;
    q.SetLimit(2);
    q.SetHoldTime(Seconds(1));
    std::vector<uint32_t> dropped;
    std::vector<uint32_t> sizeAtDrop;
    q.SetDropCallback([&](const MoseHoldQueue::Entry& e) {
        dropped.push_back(e.packet->GetSize());
        sizeAtDrop.push_back(q.GetSize());
    });
    Put(q, 1, MilliSeconds(0));
    Put(q, 2, MilliSeconds(1));
    EXPECT_TRUE(dropped.empty());
    Put(q, 3, MilliSeconds(3));
    EXPECT_EQ(dropped, (std::vector<uint32_t>{1}));
    EXPECT_EQ(sizeAtDrop, (std::vector<uint32_t>{1})) << "the oldest leaves before 3 enters";
    Put(q, 4, MilliSeconds(7));
    EXPECT_EQ(dropped, (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(Sizes(q), (std::vector<uint32_t>{3, 4}));
    EXPECT_EQ(q.GetEntered(), 4U);
    EXPECT_EQ(q.GetDrops(), 2U);
    EXPECT_EQ(q.GetLongestHold(), MilliSeconds(6)) << "2 waited 7 - 1 ms, 1 waited 3 ms";
    EXPECT_EQ(q.GetOldestSince(), MilliSeconds(3));
    EXPECT_EQ(q.GetNextExpiry(), MilliSeconds(1003));
}

TEST(HoldQueue, LimitZeroDropsEveryPacketAtOnce)
{
    MoseHoldQueue q;
    q.SetLimit(0);
    q.SetHoldTime(Seconds(1));
    uint32_t drops = 0;
    q.SetDropCallback([&](const MoseHoldQueue::Entry& e) {
        ++drops;
        EXPECT_EQ(e.since, MilliSeconds(5));
        EXPECT_EQ(e.expiry, MilliSeconds(5));
    });
    Put(q, 1, MilliSeconds(5));
    EXPECT_EQ(drops, 1U);
    EXPECT_TRUE(q.IsEmpty());
    EXPECT_EQ(q.GetEntered(), 1U);
    EXPECT_EQ(q.GetDrops(), 1U);
    EXPECT_EQ(q.GetLongestHold(), Time(0));
    EXPECT_EQ(q.GetNextExpiry(), Time::Max());
}

TEST(HoldQueue, ExpiryAfterHoldTime)
{
    MoseHoldQueue q;
    q.SetLimit(10);
    q.SetHoldTime(MilliSeconds(100));
    std::vector<uint32_t> dropped;
    q.SetDropCallback(
        [&](const MoseHoldQueue::Entry& e) { dropped.push_back(e.packet->GetSize()); });
    Put(q, 1, MilliSeconds(0));
    Put(q, 2, MilliSeconds(30));
    EXPECT_EQ(q.GetNextExpiry(), MilliSeconds(100));
    q.Expire(MilliSeconds(99));
    EXPECT_TRUE(dropped.empty());
    EXPECT_EQ(q.GetSize(), 2U);
    q.Expire(MilliSeconds(100)); // at its expiry exactly
    EXPECT_EQ(dropped, (std::vector<uint32_t>{1}));
    EXPECT_EQ(q.GetNextExpiry(), MilliSeconds(130));
    EXPECT_EQ(q.GetLongestHold(), MilliSeconds(100));
    q.Expire(MilliSeconds(200)); // late: 2 waited 170 ms
    EXPECT_EQ(dropped, (std::vector<uint32_t>{1, 2}));
    EXPECT_TRUE(q.IsEmpty());
    EXPECT_EQ(q.GetLongestHold(), MilliSeconds(170));
    EXPECT_EQ(q.GetDrops(), 2U);
    EXPECT_EQ(q.GetEntered(), 2U);
}

TEST(HoldQueue, ClearForgetsWithoutDropping)
{
    MoseHoldQueue q;
    q.SetHoldTime(Seconds(1));
    uint32_t drops = 0;
    q.SetDropCallback([&](const MoseHoldQueue::Entry&) { ++drops; });
    Put(q, 1, Time(0));
    Put(q, 2, Time(0));
    q.Clear();
    EXPECT_TRUE(q.IsEmpty());
    EXPECT_EQ(drops, 0U);
    EXPECT_EQ(q.GetDrops(), 0U);
    EXPECT_EQ(q.GetEntered(), 2U);
    EXPECT_EQ(q.GetLongestHold(), Time(0));
}
