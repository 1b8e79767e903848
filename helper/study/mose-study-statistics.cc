/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-study-statistics.h"

#include "ns3/log.h"

#include <iomanip>
#include <sstream>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseStudyStatistics");

const std::vector<EnumEntry<MoseMetric>>&
EnumTable<MoseMetric>::Get()
{
    using M = MoseMetric;
    static const std::vector<EnumEntry<MoseMetric>> names = {
        {M::MAX_LOAD, "max_load", {}},
        {M::P95_LOAD, "p95_load", {}},
        {M::AVG_HOP, "avg_hop", {}},
        {M::DIRECT_KV, "direct_kv", {}},
        {M::KV_THREE_PLUS, "kv_3plus", {}},
        {M::KV_MAX_LOAD, "kv_max_load", {}},
        {M::TR_MAX_LOAD, "tr_max_load", {}},
        {M::KV_AVG_COST, "kv_avg_cost", {}},
        {M::KV_P95_COST, "kv_p95_cost", {}},
        {M::TR_AVG_COST, "tr_avg_cost", {}},
        {M::TR_P95_COST, "tr_p95_cost", {}},
    };
    return names;
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
    NS_LOG_WARN("unknown metric " << static_cast<int>(metric) << ": 0");
    return 0;
}

MoseSummary
Summarize(const Average<double>& avg)
{
    MoseSummary s;
    s.n = avg.Count();
    s.mean = s.n > 0 ? avg.Mean() : 0.0;
    s.ci95 = s.n > 1 ? avg.Error95() : 0.0;
    return s;
}

std::string
FormatSummary(const MoseSummary& s, int precision)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(precision) << s.mean << " +-" << s.ci95;
    return os.str();
}

void
PrintColumnHeaders(std::ostream& os, const std::vector<MoseTableColumn>& columns)
{
    for (const MoseTableColumn& c : columns)
    {
        os << std::left << std::setw(c.width) << c.header;
    }
}

void
PrintColumnCells(std::ostream& os,
                 const std::vector<MoseTableColumn>& columns,
                 const std::function<MoseSummary(MoseMetric)>& summarize)
{
    for (const MoseTableColumn& c : columns)
    {
        os << std::left << std::setw(c.width) << FormatSummary(summarize(c.metric), c.precision);
    }
}

} // namespace mose
} // namespace ns3
