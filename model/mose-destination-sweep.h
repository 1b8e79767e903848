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

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose
 * \brief A std::allocator whose value-initialisation (vector::resize() without a value) leaves
 *        trivial elements uninitialised.
 *
 * DestinationSweep::Route() sizes the DemandDags arrays to a bound and overwrites every element
 * it keeps; zero-filling them first cost ~7% of a shortest-path evaluation.
 * \tparam T the element type
 */
template <class T>
struct UninitializedAllocator : std::allocator<T>
{
    /// the same allocator for another type
    template <class U>
    struct rebind
    {
        using other = UninitializedAllocator<U>; //!< the rebound allocator
    };

    UninitializedAllocator() = default;

    /// \param other the allocator to copy (stateless)
    template <class U>
    UninitializedAllocator(const UninitializedAllocator<U>& other) noexcept
        : std::allocator<T>(other)
    {
    }

    /**
     * \brief Default-initialises (for trivial types: leaves as is) instead of value-initialising.
     * \param p where to construct
     */
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>)
    {
        ::new (static_cast<void*>(p)) U;
    }

    /**
     * \brief Constructs from arguments, as std::allocator does.
     * \param p where to construct
     * \param args the constructor's arguments
     */
    template <class U, class... Args>
    void construct(U* p, Args&&... args)
    {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

/// A vector of local indices or circuits whose resize() does not zero-fill
using DagArray = std::vector<uint32_t, UninitializedAllocator<uint32_t>>;

/**
 * \ingroup mose
 * \brief For a range of destinations, the part of the shortest-path structure that carries
 *        their pairs' demand: one small DAG per destination, in compact arrays.
 *
 * A destination's DAG lists its nodes root first (local index 0 is the destination) in an
 * order where every node comes after the nodes its edges lead to, and gives each node other
 * than the root its edges towards the destination, each to a neighbour one step closer (a
 * local index) over a circuit. Under the single-path rules every node has exactly one edge
 * (its next hop) and the DAG is the union of the pairs' paths, a tree of at most
 * min(N, total hops of the pairs) nodes; under ECMP a node has an edge to every closer
 * neighbour (in increasing id order) and the DAG holds every node on a shortest path from the
 * destination's sources, ordered by distance.
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
 * \ingroup mose
 * \brief The destination sweep of the flow-level evaluation: BFS distances towards the
 *        destinations, 64 at a time (LevelSearch), and each destination's DemandDags entry
 *        under the routing's rule.
 *
 * Per destination t:
 * - SHORTEST_PATH: each pair's path is walked from its source until it meets a node already
 *   in t's tree; a next hop is the first neighbour, in the id-sorted CSR row, on the previous
 *   level of the search;
 * - RANDOM_SHORTEST_PATH: the same walk; at a node with several closer neighbours the choice
 *   weighs them by their shortest-path counts (ShortestPathRouting::HashUniform() picks the
 *   point). The counts come from LevelSearch::CountPaths(), on the union of the sources'
 *   shortest-path intervals only;
 * Under RANDOM_SHORTEST_PATH, and SHORTEST_PATH on a batch with at least N pairs, the next
 * hops of a batch's paths are chosen for its 64 destinations at once
 * (LevelSearch::FollowPaths()) before the walks, which read them;
 * - ECMP: a search from the sources over closer neighbours finds the sub-DAG, sorted by
 *   distance with a counting sort (within a distance, in discovery order).
 * The next hops are those of ShortestPathRouting::ComputeTree(). The sweep also sets every
 * pair's hops (its BFS distance) and throws a MoseError naming the pair's first flow if a
 * destination cannot be reached. Keeps its working storage between calls.
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
     * \brief Routes the pairs of the destinations runs[firstRun, lastRun).
     * \param groups the grouped flows; the pairs' hops are set
     * \param firstRun the first destination (index in groups.runs)
     * \param lastRun one past the last
     * \param dags filled with those destinations' DAGs
     * \param append keep the DAGs already in dags and add these after them (firstRun must
     *        follow their last destination); otherwise the previous contents are dropped
     */
    void Route(FlowGroups& groups,
               std::size_t firstRun,
               std::size_t lastRun,
               DemandDags& dags,
               bool append = false);

  private:
    /**
     * \brief Searches one batch of destinations; under ECMP, and SHORTEST_PATH on a batch
     *        with few pairs, sets their pairs' hops; otherwise chooses the next hops on their
     *        paths (LevelSearch::FollowPaths()) and leaves the hops to AddPathTree().
     * \param groups the grouped flows
     * \param first the batch's first run
     * \param last one past its last run
     * \return a bound on the number of non-root nodes of the batch's trees (the sum of the
     *         pairs' hops when they are set)
     */
    uint64_t SearchBatch(FlowGroups& groups, std::size_t first, std::size_t last);

    /**
     * \brief Appends the tree of one destination's paths (single-path rules) and sets its
     *        pairs' hops (their depth in the tree).
     * \param groups the grouped flows
     * \param run the destination
     * \param slot its slot in the batch
     * \param dags the DAGs being filled
     */
    void AddPathTree(FlowGroups& groups,
                     const DestinationRun& run,
                     uint32_t slot,
                     DemandDags& dags);

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

    /**
     * \brief AddPathTree() with a given next-hop rule.
     * \tparam SetHops set the pairs' hops (their depth in the tree)
     * \param groups the grouped flows
     * \param run the destination
     * \param dags the DAGs being filled
     * \param step step(u, du, circuit) returns the next hop of node u and sets circuit to the
     *        circuit to it; du is u's distance when SearchBatch() set the pairs' hops
     */
    template <bool SetHops, class Step>
    void AddPathTreeWith(FlowGroups& groups,
                         const DestinationRun& run,
                         DemandDags& dags,
                         Step&& step);

    const ShortestPathRouting* m_routing{nullptr};  //!< the routing
    const CircuitGraph::Graph* m_graph{nullptr};    //!< its CSR graph
    RoutingRule m_rule{RoutingRule::SHORTEST_PATH}; //!< its rule
    LevelSearch m_search;                           //!< distances (and counts) of the current batch
    /// this batch's single-path next hops come from LevelSearch::FollowPaths()
    bool m_follow{false};
    std::vector<uint32_t> m_destinations; //!< the current batch's destinations
    std::vector<uint32_t> m_stamp;        //!< per node, the epoch it was added in
    std::vector<uint32_t> m_local;        //!< per node, its local index (when stamped)
    std::vector<uint32_t> m_walk;         //!< nodes of the current walk or ECMP search
    std::vector<uint32_t> m_walkCircuit;  //!< circuit from each walked node to the next
    std::vector<uint32_t> m_depth;        //!< per node, its depth in the tree (when stamped)
    std::vector<uint32_t> m_distance;     //!< ECMP: per node, its distance (when stamped)
    uint32_t m_epoch{0};                  //!< stamp of the current destination
    std::size_t m_edges{0};         //!< single-path rules: edges written so far in the DAGs' arrays
    std::size_t m_nodes{0};         //!< single-path rules: entries written so far in edgeBegin
    std::size_t m_pairs{0};         //!< single-path rules: entries written so far in pairNode
    std::vector<uint32_t> m_sorted; //!< ECMP: the DAG's nodes by distance
    std::vector<uint32_t> m_levelStart; //!< ECMP: counting-sort offsets
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_DESTINATION_SWEEP_H */
