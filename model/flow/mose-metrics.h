/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_METRICS_H
#define MOSE_METRICS_H

#include "mose-circuit-graph.h"
#include "mose-cost-pass.h"
#include "mose-destination-sweep.h"
#include "mose-flow-grouping.h"
#include "mose-load-pass.h"
#include "mose-percentile.h"
#include "mose-routing.h"
#include "mose-traffic.h"

#include "ns3/mose-parse.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
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
 * \ingroup mose-flow
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
 * \ingroup mose-flow
 * \brief One scalar of FlowMetrics, the one identifier every metric selector uses: the study's
 *        table columns (ALL_METRICS), the switch cost's rate (SWITCH_COST_METRICS), sweeps and
 *        baselines. Names (EnumTable): the study's column names, e.g. "max_load", "kv_3plus";
 *        the five metrics over all traffic also with '-' for '_' ("avg-cost").
 */
enum class Metric : uint8_t
{
    MAX_LOAD,      //!< MaxLoad, all traffic (all.maxLoad)
    P95_LOAD,      //!< P95 link load, all traffic (all.p95Load)
    AVG_HOP,       //!< average hop count, all flows (all.avgHop)
    AVG_COST,      //!< mean load-aware cost over all flows (all.avgCost)
    P95_COST,      //!< P95 of the load-aware cost over all flows (all.p95Cost)
    DIRECT_KV,     //!< share of KV flows with 1 hop (directKv)
    KV_THREE_PLUS, //!< share of KV flows with >= 3 hops (kvThreePlus)
    KV_MAX_LOAD,   //!< MaxLoad of KV-only loads (kv.maxLoad)
    TR_MAX_LOAD,   //!< MaxLoad of training-only loads (training.maxLoad)
    KV_AVG_COST,   //!< average load-aware cost of KV flows (kv.avgCost)
    KV_P95_COST,   //!< P95 load-aware cost of KV flows (kv.p95Cost)
    TR_AVG_COST,   //!< average load-aware cost of training flows (training.avgCost)
    TR_P95_COST,   //!< P95 load-aware cost of training flows (training.p95Cost)
};

/// \ingroup mose-flow
/// The number of Metric values (they are 0 to METRIC_COUNT - 1)
constexpr std::size_t METRIC_COUNT = static_cast<std::size_t>(Metric::TR_P95_COST) + 1;

/// \ingroup mose-flow
/// Names of Metric
template <>
struct EnumTable<Metric>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<Metric>>& Get();
};

/**
 * \ingroup mose-flow
 * \param m the metrics of one evaluation
 * \param metric which one
 * \return its value
 */
double GetMetric(const FlowMetrics& m, Metric metric);

/**
 * \ingroup mose-flow
 * \brief Routes the flows and computes the metrics.
 *
 * The evaluation runs in stages, each in its own file:
 * 1. GroupFlowsByDestination() (mose-flow-grouping.h): the flows' checks and a counting sort by
 *    destination and one PairDemand per (source, destination) pair;
 * 2. the destination sweep (DestinationSweep, mose-destination-sweep.h): the BFS distances
 *    towards the destinations, 64 at a time by a bit-parallel search (LevelSearch), and what
 *    carries their demand: under the single-path rules the steps of the union of their pairs'
 *    paths, listed for 64 destinations at once (PathSteps, LevelSearch::FollowPaths()); under
 *    ECMP per destination the sub-DAG of shortest paths from its sources (DemandDags);
 * 3. the load pass (AccumulateLoads(), mose-load-pass.h): demand from the sources towards each
 *    destination, split evenly over the closer neighbours under ECMP;
 * 4. the cost pass (ComputePairCosts(), mose-cost-pass.h), once all loads are known: from
 *    each destination outwards, C(u) = mean over u's edges (u, v) of load(u, v) + C(v);
 * 5. the summary (SummariseFlows(), mose-metrics-summary.h).
 * Under the single-path rules the steps of all destinations are kept between the passes (one
 * per (node, destination) on a path: at most the pairs' total hop count), so each destination
 * is searched once; under ECMP the DAGs are rebuilt 64 destinations at a time for each pass,
 * so memory stays O(N + E + F) plus one word per (node, level) of a batch's search.
 * The working storage is kept per thread between calls (FlowEvaluator), so that repeated
 * evaluations allocate almost nothing; it is released when the thread ends.
 * A flow's cost is C(source) on total loads, its hop count the BFS distance. Percentiles use
 * selection, not sorting. The routing is identical to ShortestPathRouting::ComputeTree()'s
 * (same next hops); the order of floating-point additions is fixed (AccumulateLoads() gives
 * it), so the same flows give the same bits, and sums of integer demands are exact.
 * Throws a mose::Error for a flow whose endpoints are out of range or equal, whose demand is not
 * positive and finite, whose class is not KV or training, or whose destination is unreachable,
 * naming the flow's index; and for more than 2^32 - 2 flows.
 * \param routing the routing (it holds the graph)
 * \param flows the flows
 * \return the metrics
 */
FlowMetrics EvaluateFlows(const ShortestPathRouting& routing, const std::vector<Flow>& flows);

/**
 * \ingroup mose-flow
 * \brief The route of one flow as the metrics see it.
 */
struct FlowResult
{
    double cost{0};   //!< load-aware communication cost (ECMP: expectation over the split)
    uint32_t hops{0}; //!< hop count (the BFS distance: every rule uses shortest paths)
};

/**
 * \ingroup mose-flow
 * \brief EvaluateFlows() that also reports every flow's cost and hop count.
 * \param routing the routing (it holds the graph)
 * \param flows the flows
 * \param perFlow resized to flows.size(); entry i is flow i's cost and hops
 * \return the metrics
 */
FlowMetrics EvaluateFlows(const ShortestPathRouting& routing,
                          const std::vector<Flow>& flows,
                          std::vector<FlowResult>& perFlow);

/**
 * \ingroup mose-flow
 * \brief The flow-level evaluation with its working storage: EvaluateFlows() on an object
 *        that keeps the grouped flows, the path steps or DAGs and the search tables between
 *        calls, so that repeated evaluations neither allocate nor fault memory in again.
 *
 * EvaluateFlows() uses one FlowEvaluator per thread. One object must not be used by two
 * threads at once.
 */
class FlowEvaluator
{
  public:
    /**
     * \brief EvaluateFlows() with this object's storage.
     * \param routing the routing (it holds the graph)
     * \param flows the flows
     * \param perFlow if not null, resized to flows.size(); entry i is flow i's cost and hops
     * \return the metrics
     */
    FlowMetrics Evaluate(const ShortestPathRouting& routing,
                         const std::vector<Flow>& flows,
                         std::vector<FlowResult>* perFlow = nullptr);

    /**
     * \brief A lower bound on the working storage of an evaluation, for a clear error before
     *        a size that cannot fit is allocated.
     *
     * Per (node, batch slot): its step's number (4 bytes), RANDOM_SHORTEST_PATH's path count
     * and union list (12 bytes); per flow: its place in the grouping (16 bytes) and at most one
     * pair (48 bytes). Not counted: the path steps (about 24 bytes per (node, destination) on
     * a path, with their cells) and the search levels (8 bytes per node and level), which
     * depend on the graph. Saturates at UINT64_MAX.
     * \param nodes N
     * \param flows the number of flows
     * \return bytes
     */
    static uint64_t EstimateBytes(uint64_t nodes, uint64_t flows);

  private:
    FlowGroups m_groups;              //!< the flows by destination and pair
    PathSteps m_paths;                //!< single-path rules: the destinations' path steps
    DemandDags m_dags;                //!< ECMP: the destinations' DAGs
    DestinationSweep m_sweep;         //!< the searches
    std::vector<CircuitLoad> m_loads; //!< per circuit, the loads being accumulated
    std::vector<CellDemand> m_demand; //!< single-path load pass: a batch's cells
    std::vector<CellCost> m_cost;     //!< single-path cost pass: a batch's cells
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_METRICS_H */
