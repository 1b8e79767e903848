/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_DESTINATION_SWEEP_H
#define MOSE_DESTINATION_SWEEP_H

#include "mose-flow-grouping.h"
#include "mose-level-search.h"
#include "mose-routing.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace mose
{

/// A vector of local indices or circuits whose resize() does not zero-fill
using DagArray = std::vector<uint32_t, UninitializedAllocator<uint32_t>>;

/**
 * \ingroup mose-flow
 * \brief Under the single-path rules, the paths of a range of destinations' pairs: the steps
 *        LevelSearch::FollowPaths() lists, one batch of up to 64 destinations at a time, each
 *        batch's trees in compact arrays.
 *
 * Batch b holds the destinations runs[firstRun + 64 b, firstRun + 64 (b + 1)) of the
 * FlowGroups, the destination of slot s being runs[firstRun + 64 b + s]; its steps are
 * steps[batchBegin[b], batchBegin[b + 1]), one per (node, destination) on the union of the
 * destination's pairs' paths (a tree rooted at the destination), farthest level first, within
 * a level by node id, within a node by slot. Within a batch, step i (counted from the batch's
 * first) and the destinations (numbered steps + slot) form one range of cells: stepNext gives
 * each step the cell of its next hop, pairStep each pair the cell of its source. Filled by
 * DestinationSweep::Route(); read by AccumulateLoads() and ComputePairCosts().
 */
struct PathSteps
{
    std::size_t firstRun{0};             //!< index in FlowGroups::runs of the first destination
    std::size_t destinations{0};         //!< how many destinations are held
    std::vector<std::size_t> batchBegin; //!< per batch, its first step; one more at the end
    PathStepArray steps;                 //!< the steps
    /// per step, the cell of its next hop in its batch (a step's number, or for the
    /// destination the batch's number of steps + slot)
    DagArray stepNext;
    /// per pair of the destinations (from the first destination's first pair on), the cell of
    /// its source's step in its batch
    DagArray pairStep;

    /// \return the number of batches held
    std::size_t GetNBatches() const
    {
        return batchBegin.empty() ? 0 : batchBegin.size() - 1;
    }

    /// \param b a batch \return its number of steps
    std::size_t GetNSteps(std::size_t b) const
    {
        return batchBegin[b + 1] - batchBegin[b];
    }

    /// \param b a batch \return the run (index in FlowGroups::runs) of its slot 0
    std::size_t GetFirstRun(std::size_t b) const
    {
        return firstRun + b * LevelSearch::BATCH;
    }

    /// \param b a batch \return one past the run of its last slot
    std::size_t GetEndRun(std::size_t b) const
    {
        return std::min(GetFirstRun(b) + LevelSearch::BATCH, firstRun + destinations);
    }

    /// Empties the steps, keeping their storage. \param first the first destination's run
    void Clear(std::size_t first);
};

/**
 * \ingroup mose-flow
 * \brief Under ECMP, for a range of destinations, the part of the shortest-path structure
 *        that carries their pairs' demand: one DAG per destination, in compact arrays.
 *
 * A destination's DAG lists its nodes root first (local index 0 is the destination), ordered
 * by distance, and gives each node other than the root its edges towards the destination: an
 * edge to every closer neighbour (a local index, in increasing id order) over a circuit. The
 * DAG holds every node on a shortest path from the destination's sources.
 * Filled by DestinationSweep::Route(); read by AccumulateLoads() and ComputePairCosts().
 */
struct DemandDags
{
    std::size_t firstRun{0}; //!< index in FlowGroups::runs of the first destination
    DagArray nodeBegin;      //!< per destination, first node; one more at the end
    DagArray edgeBegin;      //!< per node, first edge; one more at the end
    DagArray edgeTarget;     //!< per edge, local index of the closer neighbour
    DagArray edgeCircuit;    //!< per edge, the circuit to it
    /// per pair of the destinations (from the first destination's first pair on), the local
    /// index of its source
    DagArray pairNode;

    /// \return the number of destinations held
    std::size_t GetNDestinations() const
    {
        return nodeBegin.empty() ? 0 : nodeBegin.size() - 1;
    }

    /// Empties the arrays, keeping their storage. \param first the first destination's run
    void Clear(std::size_t first);
};

/**
 * \ingroup mose-flow
 * \brief The destination sweep of the flow-level evaluation: BFS distances towards the
 *        destinations, 64 at a time (LevelSearch), and the structure that carries their
 *        pairs' demand under the routing's rule.
 *
 * - SHORTEST_PATH and RANDOM_SHORTEST_PATH: every pair's source is marked and
 *   LevelSearch::FollowPaths() lists the steps of the paths of a whole batch at once
 *   (PathSteps); a next hop is ShortestPathRouting::ComputeTree()'s: the lowest-id closer
 *   neighbour, or under RANDOM_SHORTEST_PATH a closer neighbour weighed by its shortest-path
 *   count (ShortestPathRouting::HashUniform() picks the point; the counts come from
 *   LevelSearch::CountPaths(), on the union of the sources' shortest-path intervals only);
 * - ECMP: a search from the sources over closer neighbours finds each destination's sub-DAG,
 *   sorted by distance with a counting sort (within a distance, in discovery order), and the
 *   pairs' hops (their BFS distance) are set (DemandDags).
 * Throws a mose::Error naming the pair's first flow if a destination cannot be reached. Keeps
 * its working storage between calls.
 */
class DestinationSweep
{
  public:
    /// An unbound sweep; call SetRouting() before Route()
    DestinationSweep() = default;

    /// \param routing the routing; must outlive the use of this object (SetRouting())
    explicit DestinationSweep(const ShortestPathRouting& routing);

    /**
     * \brief Binds the sweep to a routing, keeping the storage of earlier sweeps.
     * \param routing the routing; must outlive the calls to Route()
     */
    void SetRouting(const ShortestPathRouting& routing);

    /**
     * \brief Lists the steps of the paths of the destinations runs[firstRun, lastRun)
     *        (SHORTEST_PATH and RANDOM_SHORTEST_PATH).
     * \param groups the grouped flows
     * \param firstRun the first destination (index in groups.runs)
     * \param lastRun one past the last
     * \param paths filled with those destinations' steps, in batches of 64 from firstRun
     * \param append keep the batches already in paths and add these after them (firstRun must
     *        follow their last destination, which must end a full batch); otherwise the
     *        previous contents are dropped
     */
    void Route(const FlowGroups& groups,
               std::size_t firstRun,
               std::size_t lastRun,
               PathSteps& paths,
               bool append = false);

    /**
     * \brief Builds the DAGs of the destinations runs[firstRun, lastRun) (ECMP) and sets their
     *        pairs' hops.
     * \param groups the grouped flows; the pairs' hops are set
     * \param firstRun the first destination (index in groups.runs)
     * \param lastRun one past the last
     * \param dags filled with those destinations' DAGs (the previous contents are dropped)
     */
    void Route(FlowGroups& groups, std::size_t firstRun, std::size_t lastRun, DemandDags& dags);

  private:
    /**
     * \brief Searches one batch of destinations and checks that their pairs' sources reach
     *        them.
     * \param groups the grouped flows
     * \param first the batch's first run
     * \param last one past its last run
     * \param mark mark the sources (LevelSearch::MarkSource()) for FollowPaths()
     */
    void SearchBatch(const FlowGroups& groups, std::size_t first, std::size_t last, bool mark);

    /**
     * \brief Appends the ECMP sub-DAG of one destination.
     * \param groups the grouped flows
     * \param run the destination
     * \param slot its slot in the batch
     * \param dags the DAGs being filled
     */
    void AddEcmpDag(const FlowGroups& groups,
                    const DestinationRun& run,
                    uint32_t slot,
                    DemandDags& dags);

    /// \param what the caller, for the message \throw Error unless SetRouting() was called
    void CheckBound(const char* what) const;

    const ShortestPathRouting* m_routing{nullptr};  //!< the routing
    const CircuitGraph::Graph* m_graph{nullptr};    //!< its CSR graph
    RoutingRule m_rule{RoutingRule::SHORTEST_PATH}; //!< its rule
    LevelSearch m_search;                           //!< distances (and counts) of the current batch
    std::vector<uint32_t> m_destinations;           //!< the current batch's destinations
    std::vector<uint32_t> m_stamp;                  //!< ECMP: per node, the epoch it was added in
    std::vector<uint32_t> m_local;      //!< ECMP: per node, its local index (when stamped)
    std::vector<uint32_t> m_walk;       //!< ECMP: the nodes found by the search
    std::vector<uint32_t> m_distance;   //!< ECMP: per node, its distance (when stamped)
    uint32_t m_epoch{0};                //!< ECMP: stamp of the current destination
    std::vector<uint32_t> m_sorted;     //!< ECMP: the DAG's nodes by distance
    std::vector<uint32_t> m_levelStart; //!< ECMP: counting-sort offsets
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_DESTINATION_SWEEP_H */
