/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LOAD_PASS_H
#define MOSE_LOAD_PASS_H

#include "mose-destination-sweep.h"
#include "mose-flow-grouping.h"

#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief The KV and training load of one circuit, side by side (one cache access for both).
 */
struct CircuitLoad
{
    double kv{0};       //!< KV load
    double training{0}; //!< training load
};

/**
 * \ingroup mose-flow
 * \brief The demand at a node heading to one destination, per class: one cell of the load
 *        pass over PathSteps (a step's node, or a destination).
 */
struct CellDemand
{
    double kv{0};       //!< KV demand
    double training{0}; //!< training demand
};

/**
 * \ingroup mose-flow
 * \brief The load pass of the flow-level evaluation under the single-path rules: adds the
 *        demand of the destinations held in paths to the per-circuit loads, per class.
 *
 * Per (node u, destination), acc(u) is the demand at u heading to the destination: the demand
 * of u's own pair plus everything forwarded through u. The steps are taken in their order
 * (farthest level first; within a level by node id, within a node by slot), each adding its
 * node's acc to its circuit's load and to its next hop's acc. So acc(v) sums v's own demand,
 * then its predecessors' in increasing id order, and a circuit's load sums one term per
 * destination, batch by batch, in the steps' order. O(steps + pairs); a batch's acc values
 * are one compact array, a cell per step and per destination (PathSteps::stepNext), which
 * stays in the L2 cache where per-destination trees had to be built first (a walk per pair)
 * and cells per (node, slot) spread a batch over 1 MiB at N = 1024 and 64 MiB at N = 65536.
 * \param paths the destinations' steps (DestinationSweep::Route())
 * \param groups the grouped flows
 * \param loads per circuit, the loads; added to
 * \param cells working storage (a batch's cells; no contents kept between calls)
 * \param firstBatch the first batch of paths to add (the ones before are skipped, e.g. added by
 *        an earlier call)
 */
void AccumulateLoads(const PathSteps& paths,
                     const FlowGroups& groups,
                     std::vector<CircuitLoad>& loads,
                     std::vector<CellDemand>& cells,
                     std::size_t firstBatch = 0);

/**
 * \ingroup mose-flow
 * \brief The load pass of the flow-level evaluation under ECMP: adds the demand of
 *        destinations held in dags to the per-circuit loads, per class.
 *
 * Per destination, acc(u) is the demand at u heading to it: the demand of u's own pair plus
 * everything forwarded through u. Nodes are taken farthest first (the DAG's order backwards),
 * and each splits its acc evenly over its edges, adding the share to the circuit's load and to
 * the closer neighbour's acc. O(nodes + edges).
 * \param dags the destinations' DAGs (DestinationSweep::Route())
 * \param groups the grouped flows
 * \param loads per circuit, the loads; added to
 * \param firstDestination the first destination of dags to add (index in dags; the ones
 *        before are skipped, e.g. added by an earlier call)
 */
void AccumulateLoads(const DemandDags& dags,
                     const FlowGroups& groups,
                     std::vector<CircuitLoad>& loads,
                     std::size_t firstDestination = 0);

} // namespace mose
} // namespace ns3

#endif /* MOSE_LOAD_PASS_H */
