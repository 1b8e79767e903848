/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The workload model (model/workload) on a backend written here: the inference server and the
// training job need nothing of a level but the WorkloadFabric interface.

#include "ns3/mose-error.h"
#include "ns3/mose-inference-server.h"
#include "ns3/mose-training-job.h"
#include "ns3/mose-workload-fabric.h"

#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <sstream>
#include <utility>
#include <vector>

using namespace ns3::mose;

namespace
{

/// A fabric without contention: a transfer of B bytes takes latencyNs + B x nsPerByte, and is
/// noticed when its last byte arrives. Events of one time run in the order scheduled.
class FixedDelayFabric : public WorkloadFabric
{
  public:
    FixedDelayFabric(int64_t latencyNs, int64_t nsPerByte)
        : m_latencyNs(latencyNs),
          m_nsPerByte(nsPerByte)
    {
    }

    int64_t Now() const override
    {
        return m_now;
    }

    EventHandle Schedule(int64_t delayNs, Event event) override
    {
        const EventHandle h = m_seq++;
        m_queue.emplace(std::make_pair(m_now + delayNs, h), std::move(event));
        return h;
    }

    void Cancel(EventHandle event) override
    {
        for (auto it = m_queue.begin(); it != m_queue.end(); ++it)
        {
            if (it->first.second == event)
            {
                m_queue.erase(it);
                return;
            }
        }
    }

    uint64_t StartTransfer(const TransferSpec& t, DoneCallback done) override
    {
        const uint64_t id = m_transfers.size();
        m_transfers.push_back(t);
        const int64_t end = m_now + m_latencyNs + static_cast<int64_t>(t.bytes) * m_nsPerByte;
        Schedule(end - m_now, [id, end, t, done]() { done(TransferReport{id, t.bytes, end}); });
        return id;
    }

    void CloseConnections(const std::vector<uint32_t>& groups) override
    {
        m_closed.push_back(groups);
    }

    /// runs every event
    void Run()
    {
        while (!m_queue.empty())
        {
            auto it = m_queue.begin();
            m_now = it->first.first;
            Event e = std::move(it->second);
            m_queue.erase(it);
            e();
        }
    }

    std::vector<TransferSpec> m_transfers;       //!< in start order
    std::vector<std::vector<uint32_t>> m_closed; //!< CloseConnections() calls

  private:
    int64_t m_latencyNs;
    int64_t m_nsPerByte;
    int64_t m_now{0};
    uint64_t m_seq{0};
    std::map<std::pair<int64_t, uint64_t>, Event> m_queue;
};

/// groups 0 (P), 1 (D), 2, 3, 4 (T)
RoleAssignment
Roles()
{
    return RoleAssignment::Contiguous({1, 1, 3});
}

} // namespace

// Two requests on one prefill group (1000 tokens at 1e6 tokens/s: 1 ms each), KV 1000 B per
// token, scale 10: 100,000 B at 10 ns/B + 5 us = 1.005 ms. Request 0 (t = 0): prefill 0-1 ms,
// KV end 2.005 ms. Request 1 (t = 0.5 ms) waits: prefill 1-2 ms, KV end 3.005 ms.
TEST(WorkloadModel, InferenceServerByHandOnAnyFabric)
{
    FixedDelayFabric fabric(5000, 10);
    InferenceServer server;
    server.SetRequests({LlmRequest{0, 1000, 7, "", 0}, LlmRequest{500000, 1000, 3, "", 0}});
    server.SetMode(PlacementRule::ROUND_ROBIN, WorkloadMode::INFERENCE_HEAVY, Roles(), nullptr);
    uint32_t placed = 0;
    uint32_t done = 0;
    InferenceServer::Observers o;
    o.placed = [&placed](const RequestRecord&) { ++placed; };
    o.done = [&done](const RequestRecord&) { ++done; };
    server.SetObservers(o);
    InferenceSettings s;
    s.placement = PlacementRule::ROUND_ROBIN;
    s.prefillTokensPerSecond = 1e6;
    s.kvBytesPerToken = 1000;
    s.scale = 10;
    server.Start(fabric, 0, s);
    fabric.Run();
    ASSERT_EQ(server.GetRecords().size(), 2u);
    const RequestRecord& a = server.GetRecords()[0];
    const RequestRecord& b = server.GetRecords()[1];
    EXPECT_EQ(a.kvBytes, 1000000u);
    EXPECT_EQ(a.wireBytes, 100000u);
    EXPECT_EQ(a.prefillDone.GetNanoSeconds(), 1000000);
    EXPECT_EQ(a.kvEnd.GetNanoSeconds(), 2005000);
    EXPECT_EQ(b.prefillStart.GetNanoSeconds(), 1000000);
    EXPECT_EQ(b.prefillDone.GetNanoSeconds(), 2000000);
    EXPECT_EQ(b.kvEnd.GetNanoSeconds(), 3005000);
    EXPECT_EQ(b.GetTtft().GetNanoSeconds(), 2505000);
    EXPECT_EQ(b.GetKvTime().GetNanoSeconds(), 1005000);
    EXPECT_EQ(a.received, 100000u);
    EXPECT_TRUE(a.done && b.done && a.computed && b.computed);
    EXPECT_EQ(placed, 2u);
    EXPECT_EQ(done, 2u);
    EXPECT_TRUE(server.IsDone());
    EXPECT_EQ(server.GetNErrors(), 0u);
    // request i on rail i, prefill group 0 to decode group 1
    ASSERT_EQ(fabric.m_transfers.size(), 2u);
    EXPECT_EQ(fabric.m_transfers[1].rail, 1u);
    EXPECT_EQ(fabric.m_transfers[1].src, 0u);
    EXPECT_EQ(fabric.m_transfers[1].dst, 1u);
    EXPECT_EQ(fabric.m_transfers[1].trafficClass, TrafficClass::KV);
    // the CSV row of request 1: TTFT 2.505 ms
    std::ostringstream csv;
    WriteRequestsCsv(csv, server.GetRecords(), "");
    EXPECT_NE(csv.str().find(",0.001005000,0.002505000,1\n"), std::string::npos) << csv.str();
}

// Stop() at 0.25 ms: request 1 (t = 0.5 ms) never arrives; request 0 is served.
TEST(WorkloadModel, StoppedServerTakesNoMoreArrivals)
{
    FixedDelayFabric fabric(5000, 10);
    InferenceServer server;
    server.SetRequests({LlmRequest{0, 1000, 7, "", 0}, LlmRequest{500000, 1000, 3, "", 0}});
    server.SetMode(PlacementRule::ROUND_ROBIN, WorkloadMode::INFERENCE_HEAVY, Roles(), nullptr);
    InferenceSettings s;
    s.placement = PlacementRule::ROUND_ROBIN;
    s.prefillTokensPerSecond = 1e6;
    s.kvBytesPerToken = 1000;
    s.scale = 10;
    server.Start(fabric, 0, s);
    fabric.Schedule(250000, [&server]() { server.Stop(); });
    fabric.Run();
    EXPECT_TRUE(server.GetRecords()[0].done);
    EXPECT_FALSE(server.GetRecords()[1].arrived);
    EXPECT_EQ(server.GetNArrived(), 1u);
    EXPECT_TRUE(server.IsDone());
}

// A ring all-reduce over the 3 training groups, S = 3000 B: 2(n-1) = 4 steps of S/n = 1000 B
// chunks, each step 1000 ns + 1000 B x 1 ns = 2 us after the one it depends on: the collective
// takes 8 us after 10 us of compute. Two iterations: the second starts at 18 us.
TEST(WorkloadModel, TrainingJobRingByHandOnAnyFabric)
{
    FixedDelayFabric fabric(1000, 1);
    TrainingJob job;
    job.SetMode(WorkloadMode::INFERENCE_HEAVY, Roles());
    TrainingSettings s;
    s.collective = CollectiveKind::RING_ALL_REDUCE;
    s.collectiveBytes = 3000;
    s.computeNs = 10000;
    s.maxIterations = 2;
    s.keepConnections = true;
    job.Start(fabric, 0, s);
    fabric.Run();
    ASSERT_EQ(job.GetRecords().size(), 2u);
    const IterationRecord& r = job.GetRecords()[0];
    EXPECT_EQ(r.members, 3u);
    EXPECT_EQ(r.wireSize, 3000u);
    EXPECT_EQ(r.transfers, 12u); // 3 chunks x 4 steps
    EXPECT_EQ(r.wireBytes, 12000u);
    EXPECT_EQ(r.collectiveStart.GetNanoSeconds(), 10000);
    EXPECT_EQ(r.collectiveEnd.GetNanoSeconds(), 18000);
    EXPECT_EQ(job.GetRecords()[1].start.GetNanoSeconds(), 18000);
    EXPECT_EQ(job.GetRecords()[1].collectiveEnd.GetNanoSeconds(), 36000);
    EXPECT_EQ(job.GetNDone(), 2u);
    EXPECT_FALSE(job.IsBusy());
    EXPECT_EQ(job.GetNErrors(), 0u);
    // every transfer between training groups 2, 3, 4, over kept connections
    for (const TransferSpec& t : fabric.m_transfers)
    {
        EXPECT_GE(t.src, 2u);
        EXPECT_GE(t.dst, 2u);
        EXPECT_TRUE(t.keepConnection);
        EXPECT_EQ(t.trafficClass, TrafficClass::TRAINING);
    }
    EXPECT_TRUE(fabric.m_closed.empty()); // the members never changed
}

// A mode change between iterations: the next iteration runs on the new training groups, and
// the kept connections among the old ones are closed first.
TEST(WorkloadModel, TrainingJobFollowsTheModeAtTheNextIteration)
{
    FixedDelayFabric fabric(1000, 1);
    TrainingJob job;
    job.SetMode(WorkloadMode::INFERENCE_HEAVY, Roles());
    TrainingSettings s;
    s.collective = CollectiveKind::ALL_TO_ALL;
    s.collectiveBytes = 3000;
    s.computeNs = 10000;
    s.maxIterations = 2;
    s.keepConnections = true;
    job.Start(fabric, 0, s);
    // during iteration 0's compute: training groups 3, 4 (2 members) for the next
    fabric.Schedule(5000, [&job]() {
        job.SetMode(WorkloadMode::TRAINING_HEAVY, RoleAssignment::Contiguous({2, 1, 2}));
    });
    fabric.Run();
    ASSERT_EQ(job.GetRecords().size(), 2u);
    EXPECT_EQ(job.GetRecords()[0].members, 3u); // started before the change
    EXPECT_EQ(job.GetRecords()[1].members, 2u);
    EXPECT_EQ(job.GetRecords()[1].mode, WorkloadMode::TRAINING_HEAVY);
    ASSERT_EQ(fabric.m_closed.size(), 1u);
    EXPECT_EQ(fabric.m_closed[0], (std::vector<uint32_t>{2, 3, 4}));
}

// Aggregates need a fabric that has them; bad settings are named.
TEST(WorkloadModel, RefusalsAreNamed)
{
    FixedDelayFabric fabric(1000, 1);
    TrainingJob job;
    TrainingSettings s;
    EXPECT_THROW(job.Start(fabric, 0, s), Error); // no mode
    job.SetMode(WorkloadMode::INFERENCE_HEAVY, Roles());
    s.aggregate = true;
    EXPECT_THROW(job.Start(fabric, 0, s), Error);
    s.aggregate = false;
    s.collectiveBytes = 2;
    try
    {
        job.Start(fabric, 0, s);
        ADD_FAILURE() << "2 bytes over 3 members accepted";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("collective bytes / scale"), std::string::npos);
    }
    EXPECT_THROW(job.SetMode(WorkloadMode::INFERENCE_HEAVY, RoleAssignment::Contiguous({2, 2, 1})),
                 Error);
    InferenceServer server;
    InferenceSettings is;
    is.placement = PlacementRule::ROUND_ROBIN;
    EXPECT_THROW(server.Start(fabric, 0, is), Error); // no mode
    server.SetMode(PlacementRule::ROUND_ROBIN, WorkloadMode::INFERENCE_HEAVY, Roles(), nullptr);
    is.prefillTokensPerSecond = 0;
    try
    {
        server.Start(fabric, 0, is);
        ADD_FAILURE() << "a prefill rate of 0 accepted";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("prefillTokensPerSecond"), std::string::npos);
    }
}
