/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_COST_PASS_H
#define MOSE_COST_PASS_H

#include "mose-destination-sweep.h"
#include "mose-flow-grouping.h"

#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose
 * \brief The cost pass of the flow-level evaluation: the load-aware cost of every pair of the
 *        destinations held in dags, once all loads are known.
 *
 * Per destination, from the root outwards (the DAG's order): C(t) = 0 and C(u) = the mean over
 * u's edges (u, v, circuit c) of load(c) + C(v), which is the sum of the loads along the path
 * under the single-path rules and its expectation over the demand split under ECMP. A pair's
 * cost is C(source). O(nodes + edges).
 * \param dags the destinations' DAGs (DestinationSweep::Route())
 * \param load per circuit, the total load
 * \param groups the grouped flows; the pairs' costs are set
 */
void ComputePairCosts(const DemandDags& dags, const std::vector<double>& load, FlowGroups& groups);

} // namespace mose
} // namespace ns3

#endif /* MOSE_COST_PASS_H */
