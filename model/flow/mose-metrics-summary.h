/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_METRICS_SUMMARY_H
#define MOSE_METRICS_SUMMARY_H

#include "mose-flow-grouping.h"
#include "mose-metrics.h"

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief The summary stage of the flow-level evaluation: per-class metrics over flows.
 *
 * Each pair counts with its number of flows of the class: flows, demand, the hop histograms,
 * AvgHop, the mean and P95 (WeightedPercentile()) of the cost, DirectKV and the 3+hop share;
 * MaxLoad and P95 load (Percentile(), zero-load circuits included) come from the per-class
 * loads already in r.
 * \param groups the grouped flows, with every pair's cost and hops set
 * \param r the metrics: load, loadKv and loadTraining set; the rest is filled in
 */
void SummariseFlows(const FlowGroups& groups, FlowMetrics& r);

} // namespace mose
} // namespace ns3

#endif /* MOSE_METRICS_SUMMARY_H */
