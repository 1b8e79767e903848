/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-metrics-summary.h"

#include "mose-percentile.h"

#include "ns3/log.h"

#include <algorithm>
#include <array>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseMetricsSummary");

namespace
{

/**
 * \brief The running totals of one class's flows over the (source, destination) pairs: what
 *        Summarise() needs besides the class's loads.
 */
struct ClassTotals
{
    std::vector<std::pair<double, uint64_t>>& entries; //!< (cost, flows) per pair with flows
    double hopSum = 0;                                 //!< sum over the flows of their hops
    /// sum over the flows of their costs, in entry order (summed while the entries are
    /// appended: the three classes' chains of dependent additions then overlap, where a pass
    /// per class afterwards waited for each addition in turn)
    double costSum = 0;
    double demand = 0;  //!< total demand
    uint64_t flows = 0; //!< number of flows

    /**
     * \brief Adds a pair's flows of the class.
     * \param p the pair (its cost and hops)
     * \param count the pair's flows of the class, > 0
     * \param pairDemand their summed demand
     * \param hopHistogram the class's flows per hop count, grown as needed
     */
    void Add(const PairDemand& p,
             uint64_t count,
             double pairDemand,
             std::vector<uint64_t>& hopHistogram)
    {
        entries.emplace_back(p.cost, count);
        costSum += p.cost * static_cast<double>(count);
        hopSum += static_cast<double>(p.hops) * static_cast<double>(count);
        demand += pairDemand;
        flows += count;
        if (hopHistogram.size() <= p.hops)
        {
            hopHistogram.resize(p.hops + 1, 0);
        }
        hopHistogram[p.hops] += count;
    }
};

/**
 * \brief Per-class summary of a class's pairs and loads.
 * \param totals the class's totals over its pairs; the entries are reordered
 * \param load the class's per-circuit load
 * \return the metrics
 */
ClassMetrics
Summarise(ClassTotals& totals, const std::vector<double>& load)
{
    ClassMetrics m;
    m.flows = totals.flows;
    m.demand = totals.demand;
    if (!load.empty())
    {
        m.maxLoad = *std::max_element(load.begin(), load.end());
        m.p95Load = Percentile(load, 95.0);
    }
    if (totals.flows > 0)
    {
        m.avgHop = totals.hopSum / static_cast<double>(totals.flows);
        m.avgCost = totals.costSum / static_cast<double>(totals.flows);
        m.p95Cost = WeightedPercentileInPlace(totals.entries, 95.0);
    }
    return m;
}

} // namespace

void
SummariseFlows(const FlowGroups& groups, FlowMetrics& r)
{
    NS_LOG_FUNCTION(groups.pairs.size());
    // Per-class summaries over flows: each pair contributes its flow count.
    // the entries' storage is kept per thread: repeated evaluations allocate nothing
    thread_local std::array<std::vector<std::pair<double, uint64_t>>, 3> entries;
    for (auto& e : entries)
    {
        e.clear();
        e.reserve(groups.pairs.size());
    }
    ClassTotals all{entries[0]};
    ClassTotals kv{entries[1]};
    ClassTotals tr{entries[2]};
    for (const PairDemand& p : groups.pairs)
    {
        const uint64_t count = p.countKv + p.countTraining;
        all.entries.emplace_back(p.cost, count);
        all.costSum += p.cost * static_cast<double>(count);
        all.hopSum += static_cast<double>(p.hops) * static_cast<double>(count);
        if (p.countKv > 0)
        {
            kv.Add(p, p.countKv, p.demandKv, r.hopHistogramKv);
        }
        if (p.countTraining > 0)
        {
            tr.Add(p, p.countTraining, p.demandTraining, r.hopHistogramTraining);
        }
    }
    // the totals of all flows are the two classes' totals
    all.flows = kv.flows + tr.flows;
    all.demand = kv.demand + tr.demand;
    r.all = Summarise(all, r.load);
    r.kv = Summarise(kv, r.loadKv);
    r.training = Summarise(tr, r.loadTraining);
    if (kv.flows > 0)
    {
        const std::vector<uint64_t>& h = r.hopHistogramKv;
        uint64_t direct = h.size() > 1 ? h[1] : 0;
        uint64_t threePlus = 0;
        for (std::size_t k = 3; k < h.size(); ++k)
        {
            threePlus += h[k];
        }
        r.directKv = static_cast<double>(direct) / static_cast<double>(kv.flows);
        r.kvThreePlus = static_cast<double>(threePlus) / static_cast<double>(kv.flows);
    }
}

} // namespace mose
} // namespace ns3
