/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mose-error.h"
#include "ns3/mose-fluid-network.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

using namespace ns3::mose;

namespace
{

// Two flows on one link of 10 B/s share it equally; when the smaller one completes the other
// gets the whole link: 10 B and 20 B complete at 2 s and 3 s.
TEST(FluidNetwork, TwoFlowsShareALink)
{
    FluidNetwork net;
    const auto l = net.AddLink(10);
    const auto a = net.AddFlow(10, {l});
    const auto b = net.AddFlow(20, {l});
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetRate(a), 5);
    EXPECT_DOUBLE_EQ(net.GetRate(b), 5);
    EXPECT_DOUBLE_EQ(net.GetLinkRate(l), 10);
    EXPECT_DOUBLE_EQ(net.GetTimeToNextCompletion(), 2);
    net.Advance(2);
    EXPECT_EQ(net.TakeCompleted(), std::vector<FluidNetwork::FlowId>{a});
    EXPECT_DOUBLE_EQ(net.GetRemaining(b), 10);
    net.RemoveFlow(a);
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetRate(b), 10);
    EXPECT_DOUBLE_EQ(net.GetTimeToNextCompletion(), 1);
    net.Advance(1);
    EXPECT_EQ(net.TakeCompleted(), std::vector<FluidNetwork::FlowId>{b});
    EXPECT_EQ(net.GetNComputations(), 2u);
}

// The classic bottleneck chain: links L1 (10 B/s) and L2 (4 B/s); A crosses both, B only L1,
// C only L2. L2's share 4/2 = 2 is the smallest: A = C = 2; L1 has 10 - 2 = 8 left for B.
TEST(FluidNetwork, BottleneckChainIsMaxMinFair)
{
    FluidNetwork net;
    const auto l1 = net.AddLink(10);
    const auto l2 = net.AddLink(4);
    const auto a = net.AddFlow(100, {l1, l2});
    const auto b = net.AddFlow(100, {l1});
    const auto c = net.AddFlow(100, {l2});
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetRate(a), 2);
    EXPECT_DOUBLE_EQ(net.GetRate(b), 8);
    EXPECT_DOUBLE_EQ(net.GetRate(c), 2);
    // a third link in front of A only, of 1 B/s, makes A its bottleneck: A = 1, C = 3, B = 9
    const auto l0 = net.AddLink(1);
    net.SetPath(a, {l0, l1, l2});
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetRate(a), 1);
    EXPECT_DOUBLE_EQ(net.GetRate(b), 9);
    EXPECT_DOUBLE_EQ(net.GetRate(c), 3);
}

// A held flow (no path) gets nothing and takes nothing; a dark link (capacity 0) stops the
// flows that cross it and leaves the others their share.
TEST(FluidNetwork, HeldFlowsAndDarkLinks)
{
    FluidNetwork net;
    const auto l1 = net.AddLink(6);
    const auto l2 = net.AddLink(6);
    const auto held = net.AddFlow(5, {});
    const auto a = net.AddFlow(5, {l1, l2});
    const auto b = net.AddFlow(5, {l1});
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetRate(held), 0);
    EXPECT_DOUBLE_EQ(net.GetRate(a), 3);
    EXPECT_DOUBLE_EQ(net.GetRate(b), 3);
    net.SetCapacity(l2, 0);
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetRate(a), 0);
    EXPECT_DOUBLE_EQ(net.GetRate(b), 6);
    net.Advance(0.5);
    EXPECT_DOUBLE_EQ(net.GetRemaining(held), 5);
    EXPECT_DOUBLE_EQ(net.GetRemaining(a), 5);
    EXPECT_DOUBLE_EQ(net.GetRemaining(b), 2);
    // the held flow gets a route: it shares l1 with b
    net.SetPath(held, {l1});
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetRate(held), 3);
    EXPECT_DOUBLE_EQ(net.GetTimeToNextCompletion(), 2.0 / 3.0);
}

// A weighted flow stands for weights[k] flows on hop k: links L1 (12 B/s) and L2 (10 B/s),
// bundle A of weight 3 on L1 and 1 on L2, B on L1, C on L2. Shares: L1 12 / (3 + 1) = 3, L2
// 10 / (1 + 1) = 5, so L1 is the bottleneck: A = B = 3 (A uses 9 of L1 and 3 of L2), and C
// gets L2's 10 - 3 = 7. A's 6 bytes per member end at 2 s, when L1 has carried 24 bytes.
TEST(FluidNetwork, AWeightedFlowCountsItsWeightOnEveryLink)
{
    FluidNetwork net;
    const auto l1 = net.AddLink(12);
    const auto l2 = net.AddLink(10);
    const auto a = net.AddFlow(6, {l1, l2}, {3, 1});
    const auto b = net.AddFlow(100, {l1});
    const auto c = net.AddFlow(100, {l2});
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetRate(a), 3);
    EXPECT_DOUBLE_EQ(net.GetRate(b), 3);
    EXPECT_DOUBLE_EQ(net.GetRate(c), 7);
    EXPECT_DOUBLE_EQ(net.GetLinkRate(l1), 12);
    EXPECT_DOUBLE_EQ(net.GetLinkRate(l2), 10);
    EXPECT_DOUBLE_EQ(net.GetTimeToNextCompletion(), 2);
    net.Advance(2);
    EXPECT_EQ(net.TakeCompleted(), std::vector<FluidNetwork::FlowId>{a});
    EXPECT_DOUBLE_EQ(net.GetLinkBytes(l1), 24);
    EXPECT_DOUBLE_EQ(net.GetLinkBytes(l2), 20);
    // without A: B takes L1 (12), C takes L2 (10)
    net.RemoveFlow(a);
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetRate(b), 12);
    EXPECT_DOUBLE_EQ(net.GetRate(c), 10);
    // a new path and weights: A' of weight 2 on L2 only shares it 10 / (2 + 1): A' = C = 10/3
    const auto a2 = net.AddFlow(6, {l1}, {1});
    net.SetPath(a2, {l2}, {2});
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetRate(a2), 10.0 / 3);
    EXPECT_DOUBLE_EQ(net.GetRate(c), 10.0 / 3);
    EXPECT_DOUBLE_EQ(net.GetRate(b), 12);
    EXPECT_THROW(net.AddFlow(1, {l1, l2}, {1}), Error);
    EXPECT_THROW(net.AddFlow(1, {l1}, {0}), Error);
    EXPECT_THROW(net.SetPath(a2, {l1}, {-1}), Error);
    EXPECT_DOUBLE_EQ(net.GetRate(a2), 10.0 / 3); // the refused path changed nothing
}

// A bundle of weight 2 gets the rate of each of two flows on the same path
TEST(FluidNetwork, ABundleOfTwoIsTwoFlowsOnOnePath)
{
    FluidNetwork bundled;
    FluidNetwork single;
    for (FluidNetwork* net : {&bundled, &single})
    {
        net->AddLink(9);
        net->AddLink(5);
        net->AddFlow(50, {0}); // X on the first link alone
        net->AddFlow(50, {1}); // Y on the second
    }
    const auto pair = bundled.AddFlow(10, {0, 1}, {2, 2});
    const auto one = single.AddFlow(10, {0, 1});
    single.AddFlow(10, {0, 1});
    bundled.ComputeRates();
    single.ComputeRates();
    EXPECT_DOUBLE_EQ(bundled.GetRate(pair), single.GetRate(one));
    EXPECT_DOUBLE_EQ(bundled.GetRate(pair), 5.0 / 3);
    EXPECT_DOUBLE_EQ(bundled.GetRate(0), single.GetRate(0));
    EXPECT_DOUBLE_EQ(bundled.GetLinkRate(0), single.GetLinkRate(0));
}

// After removals only, the flows slower than every removed flow keep their rates and the others
// are filled again: the rates equal those of a network built anew with the remaining flows (a
// third of the flows weighted, in the second half of the trials)
TEST(FluidNetwork, RatesAfterRemovalsEqualAFullComputation)
{
    uint64_t x = 12345;
    const auto next = [&x](uint64_t n) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x % n;
    };
    for (int trial = 0; trial < 40; ++trial)
    {
        const uint32_t nLinks = 20;
        std::vector<double> capacity;
        std::vector<std::vector<FluidNetwork::LinkId>> paths;
        std::vector<std::vector<double>> weights;
        FluidNetwork net;
        for (uint32_t l = 0; l < nLinks; ++l)
        {
            capacity.push_back(1.0 + static_cast<double>(next(9)));
            net.AddLink(capacity.back());
        }
        for (int f = 0; f < 60; ++f)
        {
            std::vector<FluidNetwork::LinkId> path;
            const uint32_t hops = 1 + static_cast<uint32_t>(next(4));
            while (path.size() < hops)
            {
                const auto l = static_cast<FluidNetwork::LinkId>(next(nLinks));
                if (std::find(path.begin(), path.end(), l) == path.end())
                {
                    path.push_back(l);
                }
            }
            std::vector<double> w;
            if (trial >= 20 && next(3) == 0)
            {
                for (std::size_t k = 0; k < path.size(); ++k)
                {
                    w.push_back(0.5 * static_cast<double>(1 + next(8)));
                }
            }
            paths.push_back(path);
            weights.push_back(w);
            net.AddFlow(1, path, w);
        }
        net.ComputeRates();
        // remove the fastest flows, then a few at random
        std::vector<bool> removed(paths.size(), false);
        for (int k = 0; k < 8; ++k)
        {
            FluidNetwork::FlowId best = FluidNetwork::NONE;
            for (FluidNetwork::FlowId f = 0; f < paths.size(); ++f)
            {
                if (!removed[f] &&
                    (best == FluidNetwork::NONE || net.GetRate(f) > net.GetRate(best)))
                {
                    best = f;
                }
            }
            const auto pick = k < 5 ? best : static_cast<FluidNetwork::FlowId>(next(paths.size()));
            if (!removed[pick])
            {
                removed[pick] = true;
                net.RemoveFlow(pick);
            }
        }
        net.ComputeRates();
        FluidNetwork fresh;
        for (double c : capacity)
        {
            fresh.AddLink(c);
        }
        std::vector<std::pair<FluidNetwork::FlowId, FluidNetwork::FlowId>> same;
        for (FluidNetwork::FlowId f = 0; f < paths.size(); ++f)
        {
            if (!removed[f])
            {
                same.emplace_back(f, fresh.AddFlow(1, paths[f], weights[f]));
            }
        }
        fresh.ComputeRates();
        for (auto [a, b] : same)
        {
            EXPECT_NEAR(net.GetRate(a), fresh.GetRate(b), 1e-9 * fresh.GetRate(b) + 1e-12)
                << "trial " << trial << " flow " << a;
        }
    }
}

// A flow removed before it completes leaves its finish entry behind (10 B at 1 B/s: at 10 s).
// The id's next flow, 100 B on the same link from 1 s, completes at 101 s, not at the old
// entry's 10 s (which a version restarting at 0 let pass for the new flow's).
TEST(FluidNetwork, AReusedIdDoesNotInheritItsFinishTime)
{
    FluidNetwork net;
    const auto l = net.AddLink(1);
    const auto a = net.AddFlow(10, {l});
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetTimeToNextCompletion(), 10);
    net.Advance(1);
    net.RemoveFlow(a);
    const auto c = net.AddFlow(100, {l});
    ASSERT_EQ(c, a);
    net.ComputeRates();
    EXPECT_DOUBLE_EQ(net.GetTimeToNextCompletion(), 100);
    net.Advance(9);
    EXPECT_TRUE(net.TakeCompleted().empty());
    EXPECT_DOUBLE_EQ(net.GetRemaining(c), 91);
    net.Advance(91);
    EXPECT_EQ(net.TakeCompleted(), std::vector<FluidNetwork::FlowId>{c});
}

// Many rate changes leave many stale finish entries (each rise leaves a later one behind); the
// heap drops them and completions stay exact: one long flow beside 3,000 short ones that come
// and go one after another on a link of 2 B/s. Each short flow (1 B at 1 B/s) takes 1 s, the
// long one (10,000 B) gets 1 B/s meanwhile and all 2 B/s after: 3,000 + (10,000 - 3,000) / 2.
TEST(FluidNetwork, ManyRateChangesKeepCompletionsExact)
{
    FluidNetwork net;
    const auto l = net.AddLink(2);
    const auto longFlow = net.AddFlow(10000, {l});
    for (int k = 0; k < 3000; ++k)
    {
        const auto s = net.AddFlow(1, {l});
        net.ComputeRates();
        ASSERT_DOUBLE_EQ(net.GetTimeToNextCompletion(), 1) << k;
        net.Advance(1);
        ASSERT_EQ(net.TakeCompleted(), std::vector<FluidNetwork::FlowId>{s}) << k;
        net.RemoveFlow(s);
        net.ComputeRates();
        ASSERT_NEAR(net.GetTimeToNextCompletion(), (10000 - (k + 1)) / 2.0, 1e-6) << k;
    }
    net.Advance(3500);
    EXPECT_EQ(net.TakeCompleted(), std::vector<FluidNetwork::FlowId>{longFlow});
}

TEST(FluidNetwork, IdsAreReusedAndBadInputIsNamed)
{
    FluidNetwork net;
    const auto l = net.AddLink(1);
    const auto a = net.AddFlow(1, {l});
    net.RemoveFlow(a);
    EXPECT_FALSE(net.IsActive(a));
    EXPECT_EQ(net.AddFlow(2, {l}), a);
    EXPECT_EQ(net.GetNFlows(), 1u);
    EXPECT_THROW(net.AddLink(-1), Error);
    EXPECT_THROW(net.AddLink(std::numeric_limits<double>::infinity()), Error);
    EXPECT_THROW(net.AddFlow(0, {l}), Error);
    EXPECT_THROW(net.AddFlow(1, {l, l}), Error);
    EXPECT_THROW(net.AddFlow(1, {7}), Error);
    EXPECT_THROW(net.GetRate(9), Error);
    EXPECT_THROW(net.Advance(-1), Error);
    EXPECT_EQ(net.GetNFlows(), 1u); // the refused flows left nothing behind
    try
    {
        net.AddLink(-2);
        FAIL();
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("link capacity"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("-2"), std::string::npos) << e.what();
    }
}

} // namespace
