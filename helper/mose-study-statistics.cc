/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-study-statistics.h"

namespace ns3
{
namespace mose
{

std::string
ToString(MoseMetric metric)
{
    switch (metric)
    {
    case MoseMetric::MAX_LOAD:
        return "max_load";
    case MoseMetric::P95_LOAD:
        return "p95_load";
    case MoseMetric::AVG_HOP:
        return "avg_hop";
    case MoseMetric::DIRECT_KV:
        return "direct_kv";
    case MoseMetric::KV_THREE_PLUS:
        return "kv_3plus";
    case MoseMetric::KV_MAX_LOAD:
        return "kv_max_load";
    case MoseMetric::TR_MAX_LOAD:
        return "tr_max_load";
    case MoseMetric::KV_AVG_COST:
        return "kv_avg_cost";
    case MoseMetric::KV_P95_COST:
        return "kv_p95_cost";
    case MoseMetric::TR_AVG_COST:
        return "tr_avg_cost";
    case MoseMetric::TR_P95_COST:
        return "tr_p95_cost";
    }
    return "unknown";
}

double
GetMetric(const FlowMetrics& m, MoseMetric metric)
{
    switch (metric)
    {
    case MoseMetric::MAX_LOAD:
        return m.all.maxLoad;
    case MoseMetric::P95_LOAD:
        return m.all.p95Load;
    case MoseMetric::AVG_HOP:
        return m.all.avgHop;
    case MoseMetric::DIRECT_KV:
        return m.directKv;
    case MoseMetric::KV_THREE_PLUS:
        return m.kvThreePlus;
    case MoseMetric::KV_MAX_LOAD:
        return m.kv.maxLoad;
    case MoseMetric::TR_MAX_LOAD:
        return m.training.maxLoad;
    case MoseMetric::KV_AVG_COST:
        return m.kv.avgCost;
    case MoseMetric::KV_P95_COST:
        return m.kv.p95Cost;
    case MoseMetric::TR_AVG_COST:
        return m.training.avgCost;
    case MoseMetric::TR_P95_COST:
        return m.training.p95Cost;
    }
    return 0;
}

} // namespace mose
} // namespace ns3
