/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_SWITCH_PLANNER_H
#define MOSE_SWITCH_PLANNER_H

#include "mose-port-plan.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief One batch (phase) of a planned reconfiguration: the circuits it tears down and those
 *        set up at its end. MoseModeSwitcher adds the times it drains, goes dark and relinks.
 */
struct SwitchBatchPlan
{
    std::vector<PortCircuit> removed; //!< circuits torn down in this batch
    std::vector<PortCircuit> added;   //!< circuits set up when it relinks
    /// the graph routed on while the batch is dark (kept circuits, circuits of later batches
    /// and circuits added by earlier ones) is connected
    bool connected{true};
};

/**
 * \ingroup mose-flow
 * \brief Splits a reconfiguration into at most `phases` batches that keep the fabric connected
 *        where possible (the ModeSwitcher's batch rule; a pure graph computation, no simulator).
 *
 * The removed circuits are put in chain order (a removed circuit, the added circuit at its
 * second port, the removed circuit at that one's other port, ...: the alternating chains of the
 * change, each chain started at the first unvisited removed circuit of diff.removed), so that a
 * batch of consecutive circuits frees both ports of most of the added circuits between them.
 * Batch b of K = min(phases, removed) (K = 1 if nothing is removed but circuits are added) takes
 * ceil(remaining / (K - b)) circuits, the last batch all that remain: greedily in chain order,
 * each circuit only if the graph without the batch stays connected (routed on: the kept
 * circuits, the circuits not yet torn down outside the batch and the circuits added by earlier
 * batches), then, if too few qualify, the first others in order (the batch is then marked not
 * connected). An added circuit goes to the first batch after which both its ports are free
 * (dark in the current plan or torn down by this or an earlier batch).
 *
 * Connectivity is checked with Boost's disjoint sets (boost/pending/disjoint_sets.hpp).
 * \param current the port plan now in place
 * \param diff DiffPorts(current, target plan)
 * \param phases K >= 1 (0 counts as 1)
 * \return the batches in order (none if nothing changes)
 */
std::vector<SwitchBatchPlan> PlanSwitchBatches(const PortPlan& current,
                                               const PortCircuitDiff& diff,
                                               uint32_t phases);

} // namespace mose
} // namespace ns3

#endif /* MOSE_SWITCH_PLANNER_H */
