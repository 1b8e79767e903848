/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_METRICS_H
#define MOSE_METRICS_H

#include "mose-circuit-graph.h"
#include "mose-routing.h"
#include "mose-traffic.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose
 * \brief The p-th percentile of a sample, by linear interpolation between closest ranks.
 *
 * With the values sorted ascending as v[0..n-1], the result is v[k] + (h - k)(v[k+1] - v[k])
 * with h = (n - 1) p / 100 and k = floor(h) (Hyndman-Fan type 7, numpy's and R's default).
 * \param values the sample (taken by value and sorted); must not be empty
 * \param p the percentile, 0 <= p <= 100
 * \return the percentile
 */
double Percentile(std::vector<double> values, double p);

/**
 * \ingroup mose
 * \brief The same percentile as Percentile() for a sample given as (value, multiplicity) pairs.
 *
 * The result equals Percentile() on the sample in which each value is repeated count times,
 * without building it: the pairs are sorted by value and the ranks k and k + 1 are found by
 * walking the cumulative counts. O(m log m) for m pairs, whatever the total count.
 * \param values (value, count) pairs, in any order; pairs with count 0 are ignored. The total
 *        count must be at least 1.
 * \param p the percentile, 0 <= p <= 100
 * \return the percentile
 */
double WeightedPercentile(std::vector<std::pair<double, uint64_t>> values, double p);

/**
 * \ingroup mose
 * \brief Metrics of one traffic class (or of all flows).
 */
struct ClassMetrics
{
    uint64_t flows{0}; //!< number of flows
    double demand{0};  //!< total demand
    double maxLoad{0}; //!< max over circuits of this class's load
    double p95Load{0}; //!< P95 over all circuits (zero-load ones included) of this class's load
    double avgHop{0};  //!< mean hop count over flows
    double avgCost{0}; //!< mean load-aware communication cost over flows
    double p95Cost{0}; //!< P95 of the load-aware communication cost over flows
};

/**
 * \ingroup mose
 * \brief Flow-level metrics of one topology under one traffic matrix (DESIGN section 3).
 *
 * load(e) is the total demand crossing circuit e, both directions added. A flow's load-aware
 * communication cost is the sum of load(e) over the circuits of its path, with load counting
 * all classes (under ECMP, the expectation over the demand split). Averages and percentiles of
 * cost and hops are taken over flows, each flow counting once.
 */
struct FlowMetrics
{
    ClassMetrics all;                 //!< every flow; loads are the total loads
    ClassMetrics kv;                  //!< KV flows; loads are KV-only loads, costs use total loads
    ClassMetrics training;            //!< training flows; loads are training-only loads
    double directKv{0};               //!< share of KV flows with 1 hop (0 if there is no KV flow)
    double kvThreePlus{0};            //!< share of KV flows with 3 or more hops
    std::vector<double> load;         //!< per circuit (GetCircuits() order): total load
    std::vector<double> loadKv;       //!< per circuit: KV load
    std::vector<double> loadTraining; //!< per circuit: training load
    std::vector<uint64_t> hopHistogramKv;       //!< flows per hop count (index = hops), KV
    std::vector<uint64_t> hopHistogramTraining; //!< flows per hop count, training
};

/**
 * \ingroup mose
 * \brief Routes the flows and computes the metrics.
 *
 * Flows are grouped by destination; each destination's tree is computed once (Boost BFS) and
 * loads are accumulated on it from the leaves up, then costs are accumulated from the root down
 * on a second pass. O(D (N + E) + F log F) for D distinct destinations and F flows; memory
 * O(N + E + F).
 * Throws a MoseError for a flow whose endpoints are out of range or equal, whose demand is not
 * positive and finite, or whose destination is unreachable.
 * \param routing the routing (it holds the graph)
 * \param flows the flows
 * \return the metrics
 */
FlowMetrics EvaluateFlows(const ShortestPathRouting& routing, const std::vector<Flow>& flows);

/**
 * \ingroup mose
 * \brief The route of one flow as the metrics see it.
 */
struct FlowResult
{
    double cost{0};   //!< load-aware communication cost (ECMP: expectation over the split)
    uint32_t hops{0}; //!< hop count (the BFS distance: every rule uses shortest paths)
};

/**
 * \ingroup mose
 * \brief EvaluateFlows() that also reports every flow's cost and hop count.
 * \param routing the routing (it holds the graph)
 * \param flows the flows
 * \param perFlow resized to flows.size(); entry i is flow i's cost and hops
 * \return the metrics
 */
FlowMetrics EvaluateFlows(const ShortestPathRouting& routing,
                          const std::vector<Flow>& flows,
                          std::vector<FlowResult>& perFlow);

} // namespace ns3

#endif /* MOSE_METRICS_H */
