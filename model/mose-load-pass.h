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
 * \ingroup mose
 * \brief The KV and training load of one circuit, side by side (one cache access for both).
 */
struct CircuitLoad
{
    double kv{0};       //!< KV load
    double training{0}; //!< training load
};

/**
 * \ingroup mose
 * \brief The load pass of the flow-level evaluation: adds the demand of destinations held in
 *        dags to the per-circuit loads, per class.
 *
 * Per destination, acc(u) is the demand at u heading to it: the demand of u's own pair plus
 * everything forwarded through u. Nodes are taken farthest first (the DAG's order backwards),
 * and each splits its acc evenly over its edges (one edge under the single-path rules), adding
 * the share to the circuit's load and to the closer neighbour's acc. O(nodes + edges).
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
