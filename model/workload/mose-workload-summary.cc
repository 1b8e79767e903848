/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-workload-summary.h"

#include "ns3/mose-error.h"
#include "ns3/mose-format.h"

#include <utility>

namespace ns3
{
namespace mose
{

namespace
{

/// Throws unless the window [from, to) is not empty
void
CheckWindow(Time from, Time to)
{
    if (!(from < to))
    {
        ThrowBadParameter("window",
                          "[" + FormatDuration(from.GetSeconds(), DurationStyle::SIGNIFICANT) +
                              ", " + FormatDuration(to.GetSeconds(), DurationStyle::SIGNIFICANT) +
                              ")",
                          "a window whose start is before its end");
    }
}

} // namespace

InferenceSummary
SummarizeRequests(const std::vector<RequestRecord>& records, Time from, Time to)
{
    CheckWindow(from, to);
    InferenceSummary s;
    std::vector<double> kv;
    std::vector<double> ttft;
    for (const RequestRecord& r : records)
    {
        if (r.arrival < from || r.arrival >= to)
        {
            continue;
        }
        ++s.requests;
        if (r.done)
        {
            kv.push_back(r.GetKvTime().GetSeconds());
            ttft.push_back(r.GetTtft().GetSeconds());
        }
    }
    s.served = static_cast<uint32_t>(kv.size());
    s.kv = DescribeSample(std::move(kv));
    s.ttft = DescribeSample(std::move(ttft));
    return s;
}

TrainingSummary
SummarizeIterations(const std::vector<IterationRecord>& records, Time from, Time to)
{
    CheckWindow(from, to);
    TrainingSummary s;
    std::vector<double> iteration;
    std::vector<double> collective;
    for (const IterationRecord& r : records)
    {
        if (r.done && r.start >= from && r.start < to)
        {
            iteration.push_back(r.GetIterationTime().GetSeconds());
            collective.push_back(r.GetCollectiveTime().GetSeconds());
        }
    }
    s.iterations = static_cast<uint32_t>(iteration.size());
    s.iteration = DescribeSample(std::move(iteration));
    s.collective = DescribeSample(std::move(collective));
    return s;
}

} // namespace mose
} // namespace ns3
