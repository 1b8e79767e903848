/*
 * Copyright (c) 2026 The mose authors
 *
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
namespace mose
{

/**
 * \ingroup mose
 * \brief The p-th percentile of a sample, by linear interpolation between closest ranks.
 *
 * With the values sorted ascending as v[0..n-1], the result is v[k] + (h - k)(v[k+1] - v[k])
 * with h = (n - 1) p / 100 and k = floor(h) (Hyndman-Fan type 7, numpy's and R's default).
 * \param values the sample (taken by value; selection, O(n) on average); must not be empty
 * \param p the percentile, 0 <= p <= 100
 * \return the percentile
 */
double Percentile(std::vector<double> values, double p);

/**
 * \ingroup mose
 * \brief The same percentile as Percentile() for a sample given as (value, multiplicity) pairs.
 *
 * The result equals Percentile() on the sample in which each value is repeated count times,
 * without building it: the values at ranks k and k + 1 are found by a quickselect on the pairs
 * that weighs each side of the pivot by its counts. O(m) on average for m pairs (at most
 * O(m log m)), whatever the total count.
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
 * Flows are grouped by destination (counting sort) and aggregated per (source, destination)
 * pair. Pass 1 accumulates the loads of every destination's flows, pass 2 (after all loads are
 * known) the cost from every source; each pass recomputes the destinations' trees, 64 at a
 * time by the bit-parallel search of ShortestPathRouting::ComputeTreeBatch(), instead of
 * storing N^2 next hops. Per destination t:
 * - single-path rules: each pair's path is walked when the pairs' hops add up to at most N
 *   (the lowest-id next hop is the first closer neighbour in the CSR row;
 *   RANDOM_SHORTEST_PATH's choices come from a LazyRandomTree); otherwise loads go from
 *   the leaves of t's tree to its root, acc(u) = demand(u -> t) + the acc of the nodes whose
 *   next hop is u, and costs from the root down, C(u) = load(u, next(u)) + C(next(u));
 * - ECMP: on the sub-DAG of shortest paths from t's sources, the demand at u is split evenly
 *   over u's closer neighbours (farthest nodes first), and C(u) = mean over closer neighbours v
 *   of (load(u, v) + C(v)) (nearest first).
 * A flow's cost is C(source) on total loads, its hop count the BFS distance. Percentiles use
 * selection, not sorting. O(D (N + E) + F) time on average (the bit-parallel search makes the
 * D (N + E) term about 64 / levels times smaller in practice) for D destinations with flows and
 * F flows; memory O(N + E + F) plus one byte of distance per (node, batch slot), 1 MB at
 * N = 16384.
 * The routing is identical to ShortestPathRouting::ComputeTree()'s (same next hops); only the
 * order of floating-point additions depends on the strategy (exact for integer demands).
 * Throws a MoseError for a flow whose endpoints are out of range or equal, whose demand is not
 * positive and finite, whose class is not KV or training, or whose destination is unreachable,
 * naming the flow's index; and for more than 2^32 - 2 flows.
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

} // namespace mose
} // namespace ns3

#endif /* MOSE_METRICS_H */
