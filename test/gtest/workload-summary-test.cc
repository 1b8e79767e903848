/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The workloads' own summaries (mose-workload-summary.h) on records written by hand: the
// window rule (requests by arrival, iterations by start, [from, to)), only completed ones in
// the statistics, and the refusal of an empty window.

#include "ns3/mose-error.h"
#include "ns3/mose-workload-summary.h"
#include "ns3/nstime.h"

#include <gtest/gtest.h>

using namespace ns3;
using namespace ns3::mose;

namespace
{

/// a request arriving at `arrivalMs`, its KV transfer from `kvStartMs` to `kvEndMs`
RequestRecord
Request(double arrivalMs, double kvStartMs, double kvEndMs, bool done)
{
    RequestRecord r;
    r.arrival = MicroSeconds(static_cast<int64_t>(arrivalMs * 1000));
    r.kvStart = MicroSeconds(static_cast<int64_t>(kvStartMs * 1000));
    r.kvEnd = MicroSeconds(static_cast<int64_t>(kvEndMs * 1000));
    r.done = done;
    return r;
}

/// an iteration from `startMs`, its collective from `collMs` to `endMs`
IterationRecord
Iteration(double startMs, double collMs, double endMs, bool done)
{
    IterationRecord r;
    r.start = MicroSeconds(static_cast<int64_t>(startMs * 1000));
    r.collectiveStart = MicroSeconds(static_cast<int64_t>(collMs * 1000));
    r.collectiveEnd = MicroSeconds(static_cast<int64_t>(endMs * 1000));
    r.done = done;
    return r;
}

} // namespace

TEST(WorkloadSummary, RequestsAreCountedByArrivalAndOnlyServedOnesEnterTheStatistics)
{
    const std::vector<RequestRecord> records = {
        Request(0, 1, 2, true),  // KV 1 ms, TTFT 2 ms
        Request(1, 2, 5, true),  // KV 3 ms, TTFT 4 ms
        Request(2, 3, 0, false), // arrived, not served
        Request(3, 4, 12, true), // KV 8 ms, TTFT 9 ms
    };
    const InferenceSummary all = SummarizeRequests(records, Time(0), Time::Max());
    EXPECT_EQ(all.requests, 4u);
    EXPECT_EQ(all.served, 3u);
    EXPECT_EQ(all.kv.n, 3u);
    EXPECT_DOUBLE_EQ(all.kv.mean, 0.004);   // (1 + 3 + 8) / 3 ms
    EXPECT_DOUBLE_EQ(all.ttft.mean, 0.005); // (2 + 4 + 9) / 3 ms
    EXPECT_DOUBLE_EQ(all.kv.max, 0.008);

    // [1 ms, 3 ms): the requests arriving at 1 and 2 ms; 3 ms is outside
    const InferenceSummary window = SummarizeRequests(records, MilliSeconds(1), MilliSeconds(3));
    EXPECT_EQ(window.requests, 2u);
    EXPECT_EQ(window.served, 1u);
    EXPECT_DOUBLE_EQ(window.kv.mean, 0.003);
    EXPECT_DOUBLE_EQ(window.ttft.mean, 0.004);
}

TEST(WorkloadSummary, IterationsAreCountedByStartWhenTheirCollectiveCompleted)
{
    const std::vector<IterationRecord> records = {
        Iteration(0, 20, 30, true),  // iteration 30 ms, collective 10 ms
        Iteration(30, 50, 80, true), // iteration 50 ms, collective 30 ms
        Iteration(80, 100, 0, false),
    };
    const TrainingSummary all = SummarizeIterations(records, Time(0), Time::Max());
    EXPECT_EQ(all.iterations, 2u);
    EXPECT_DOUBLE_EQ(all.iteration.mean, 0.04);
    EXPECT_DOUBLE_EQ(all.collective.mean, 0.02);
    EXPECT_DOUBLE_EQ(all.collective.max, 0.03);
    const TrainingSummary late = SummarizeIterations(records, MilliSeconds(30), Time::Max());
    EXPECT_EQ(late.iterations, 1u);
    EXPECT_DOUBLE_EQ(late.iteration.mean, 0.05);
}

TEST(WorkloadSummary, AnEmptyWindowIsRefused)
{
    EXPECT_THROW(SummarizeRequests({}, MilliSeconds(2), MilliSeconds(2)), Error);
    EXPECT_THROW(SummarizeIterations({}, MilliSeconds(3), MilliSeconds(2)), Error);
    const InferenceSummary none = SummarizeRequests({}, Time(0), Time::Max());
    EXPECT_EQ(none.requests, 0u);
    EXPECT_EQ(none.kv.n, 0u);
}
