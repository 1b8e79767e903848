/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_COST_PASS_H
#define MOSE_COST_PASS_H

#include "mose-destination-sweep.h"
#include "mose-flow-grouping.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief The path sums at a node towards one destination: one cell of the cost pass over
 *        PathSteps (a step's node, or a destination).
 */
struct CellCost
{
    double cost{0};   //!< the sum of the loads along the path
    uint32_t hops{0}; //!< the path's length
};

/**
 * \ingroup mose-flow
 * \brief The cost pass of the flow-level evaluation under the single-path rules: the
 *        load-aware cost and the hops of every pair of the destinations held in paths, once
 *        all loads are known.
 *
 * Per batch, the steps in reverse order (nearest level first, so a next hop's sums are known):
 * C(t) = 0 and C(u) = load(c) + C(next hop), the sum of the loads along u's path, and its
 * length likewise. A pair's cost and hops are its source's. O(steps + pairs).
 * \param paths the destinations' steps (DestinationSweep::Route())
 * \param load per circuit, the total load
 * \param cells working storage (a batch's cells, PathSteps::stepNext; no contents kept between
 *        calls)
 * \param groups the grouped flows; the pairs' costs and hops are set
 */
void ComputePairCosts(const PathSteps& paths,
                      const std::vector<double>& load,
                      std::vector<CellCost>& cells,
                      FlowGroups& groups);

/**
 * \ingroup mose-flow
 * \brief The cost pass of the flow-level evaluation under ECMP: the load-aware cost of every
 *        pair of the destinations held in dags, once all loads are known.
 *
 * Per destination, from the root outwards (the DAG's order): C(t) = 0 and C(u) = the mean over
 * u's edges (u, v, circuit c) of load(c) + C(v), its expectation over the demand split. A
 * pair's cost is C(source). O(nodes + edges).
 * \param dags the destinations' DAGs (DestinationSweep::Route())
 * \param load per circuit, the total load
 * \param groups the grouped flows; the pairs' costs are set
 */
void ComputePairCosts(const DemandDags& dags, const std::vector<double>& load, FlowGroups& groups);

} // namespace mose
} // namespace ns3

#endif /* MOSE_COST_PASS_H */
