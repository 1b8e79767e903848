/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_LEVEL_SEARCH_H
#define MOSE_LEVEL_SEARCH_H

#include "mose-circuit-graph.h"

#include "ns3/mose-uninitialized-allocator.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
 * \brief One step of a path towards one of a LevelSearch's destinations: from a node to its
 *        next hop over a circuit (LevelSearch::FollowPaths()).
 */
struct PathStep
{
    uint32_t node;    //!< the node
    uint32_t next;    //!< its next hop, one level closer to the destination
    uint32_t circuit; //!< the circuit between them
    uint32_t slot;    //!< the destination's slot in the search
};

/// Steps of paths, in a vector whose resize() does not zero-fill (they are written at once)
using PathStepArray = std::vector<PathStep, UninitializedAllocator<PathStep>>;

/**
 * \ingroup mose-flow
 * \brief A bit-parallel breadth-first search towards up to 64 destinations that keeps every
 *        level's frontier: the distance structure the destination sweep reads.
 *
 * Bit b of the word of (level L, node v) is set when v is exactly L hops from destination b.
 * Level by level, every node not yet reached by all destinations ORs its neighbours' frontier
 * words (one pass over the CSR rows per level serves all 64 searches), so the search costs
 * about levels * (N + E) word operations and writes one word per (level, node): no per
 * (node, destination) entry, unlike ShortestPathRouting::ComputeTreeBatch(). Whether a
 * neighbour v of u is one step closer to destination b is then one bit test, and following a
 * path from a node whose distance is known needs no other table. CountPaths() then counts,
 * per (node, destination) where marked sources' paths need them, the shortest paths to the
 * destination (a double, summed over the closer neighbours in increasing id order: the values
 * of ShortestPathRouting::ComputeTree()'s pathCount, bit for bit), and FollowPaths() picks the
 * single-path next hops of every node on the marked sources' paths, for all 64 destinations
 * at once (the flow-level sweep and MoseRouteTable share it).
 */
class LevelSearch
{
  public:
    /// how many destinations one search serves
    static constexpr uint32_t BATCH = 64;

    /**
     * \brief Runs the search and clears the source marks; the storage of the previous search is
     *        reused.
     * \param graph the circuit graph; must outlive the use of the results
     * \param destinations the destinations, 1 to BATCH of them (repeats allowed)
     * \param count how many
     */
    void Search(const CircuitGraph& graph, const uint32_t* destinations, uint32_t count);

    /// \return the number of levels (the largest distance found + 1)
    uint32_t GetNLevels() const
    {
        return m_nLevels;
    }

    /// \param level a level < GetNLevels() \return its frontier words, one per node
    const uint64_t* GetLevel(uint32_t level) const
    {
        return m_levels.data() + static_cast<std::size_t>(level) * m_nodes;
    }

    /**
     * \param node a node
     * \param slot a destination's slot
     * \return the distance from node to the destination, or UNREACHABLE; O(distance)
     */
    uint32_t GetDistance(uint32_t node, uint32_t slot) const;

    /**
     * \brief GetDistance() without range checks or logging, for per-pair loops.
     * \param node a node < N
     * \param slot a slot < BATCH
     * \return the distance from node to the slot's destination, or UNREACHABLE; O(distance)
     */
    uint32_t Distance(uint32_t node, uint32_t slot) const
    {
        if (((m_seen[node] >> slot) & 1) == 0)
        {
            return UNREACHABLE;
        }
        const uint64_t* word = m_levels.data() + node;
        uint32_t level = 0;
        while (((word[static_cast<std::size_t>(level) * m_nodes] >> slot) & 1) == 0)
        {
            ++level;
        }
        return level;
    }

    /**
     * \param node a node < N (unchecked)
     * \param slot a slot < BATCH (unchecked)
     * \return whether the node reaches the slot's destination; O(1)
     */
    bool Reaches(uint32_t node, uint32_t slot) const
    {
        return ((m_seen[node] >> slot) & 1) != 0;
    }

    /**
     * \param node a node whose count CountPaths() computed (a marked source or a node on a
     *        shortest path from one; unchecked)
     * \param slot the slot
     * \return its number of shortest paths to the slot's destination
     */
    double PathCount(uint32_t node, uint32_t slot) const
    {
        return m_pathCount[static_cast<std::size_t>(node) * BATCH + slot];
    }

    /// distance of a node that cannot reach a destination
    static constexpr uint32_t UNREACHABLE = UINT32_MAX;

    /**
     * \brief Marks every node as the start of a path towards every destination it reaches
     *        (after Search()): FollowPaths() then fills the whole next-hop table. O(N).
     */
    void MarkAllSources();

    /**
     * \brief Marks a node as the start of a path towards a slot's destination (after Search(),
     *        which clears the marks).
     * \param node a node that can reach the slot's destination (unchecked)
     * \param slot the slot (unchecked)
     */
    void MarkSource(uint32_t node, uint32_t slot)
    {
        m_need[node] |= uint64_t{1} << slot;
        m_marked = true;
    }

    /**
     * \brief Counts shortest paths where the marked sources' paths can need them.
     *
     * RANDOM_SHORTEST_PATH's choice at a node reads the counts of its closer neighbours, and
     * a count is the sum of the closer neighbours' counts: the counts needed are those of the
     * union of the shortest-path intervals between the marked sources and their destinations.
     * One pass from the farthest level marks that union (d word ORs per marked node and
     * level) and lists its nodes per slot and level; a second counts on it, slot by slot,
     * nearest level first (d additions per node of the union). At N = 1024, d = 4 with the
     * training-heavy mix the union holds about 25% of the (node, destination) cells; with
     * every node marked (MarkAllSources()) it is every reachable cell. Call after Search() and
     * MarkSource() (or MarkAllSources()). O(levels * N + d * cells); 4 bytes of list and 8 of
     * count per (node, slot); at most 67,108,862 nodes (the lists are numbered in 32 bits).
     * \param graph the graph of the last Search()
     */
    void CountPaths(const CircuitGraph& graph);

    /**
     * \brief Chooses the next hop of every node on the paths from the marked sources, for all
     *        slots at once, and appends one PathStep per (node, slot) on those paths.
     *
     * Level by level from the farthest down, each node with marked slots on that level ANDs
     * its neighbours' words of the level below (one pass over its CSR row serves all 64
     * destinations) and picks, per slot, ShortestPathRouting::ComputeTree()'s next hop:
     * - random false (SHORTEST_PATH): the lowest-id closer neighbour;
     * - random true (RANDOM_SHORTEST_PATH, needs CountPaths() after the marks): the only closer
     *   neighbour, else the first one in id order whose cumulative path count exceeds
     *   ShortestPathRouting::HashUniform(seed, node, destination) * the node's count, else the
     *   last one (the same doubles added in the same order as ComputeTree(): the same choice).
     * The chosen neighbour is marked in turn, so exactly the nodes of the paths get a step.
     * The steps come farthest level first, within a level by node id, within a node by slot:
     * every step comes after the steps into its node (a single pass over them in this order
     * accumulates demand from the sources towards the destinations; in reverse order, path
     * sums from the destinations out). Each step's number in the batch is kept (StepOf()), so
     * that a step's next hop can be found among the steps. At most 67,108,863 nodes (the
     * numbers are 32-bit).
     * Cost: levels * N word tests, d word ANDs per (node, level) with marks, and one step per
     * (path node, slot); random choices add a hash and up to d additions per (node, slot)
     * with several closer neighbours. Hand-written (no library does bit-parallel multi-target
     * BFS): one pass replaces a per-destination walk whose every step chased a neighbour's
     * frontier word through the cache.
     * \param graph the graph of the last Search()
     * \param random RANDOM_SHORTEST_PATH's choice instead of SHORTEST_PATH's
     * \param seed the routing seed (random only)
     * \param steps the steps are appended to it
     */
    void FollowPaths(const CircuitGraph& graph, bool random, uint64_t seed, PathStepArray& steps);

    /**
     * \param node a node on the paths of the last FollowPaths() towards the slot's destination,
     *        or that destination (unchecked)
     * \param slot the slot (unchecked)
     * \return the number of the node's step among the steps that call appended (0 for its
     *         first), or for the destination the number of those steps + slot: so the steps
     *         and the destinations of a batch are numbered in one compact range
     */
    uint32_t StepOf(uint32_t node, uint32_t slot) const
    {
        return m_stepOf[static_cast<std::size_t>(node) * BATCH + slot];
    }

  private:
    /**
     * \brief Sets m_active to the nodes whose marks meet a level: bit v % 64 of word v / 64 is
     *        set when marks[v] & here[v] != 0.
     * \param marks per node, marked slots
     * \param here the level's frontier words
     */
    void FindMarked(const uint64_t* marks, const uint64_t* here);

    /**
     * \brief RANDOM_SHORTEST_PATH's choice at a node for the slots with several closer
     *        neighbours (ShortestPathRouting::ComputeTree()'s rule, the same sums).
     * \param g the CSR graph
     * \param u the node
     * \param closerLevel the frontier words of the level below u's
     * \param several the slots with several closer neighbours
     * \param target per slot, HashUniform() * u's count
     * \param x per edge of u, its closer slots; on return, for the slots in several, only the
     *        chosen edge keeps the slot
     */
    void ChooseByCounts(const CircuitGraph::Graph& g,
                        uint32_t u,
                        const uint64_t* closerLevel,
                        uint64_t several,
                        const double* target,
                        uint64_t* x) const;

    uint32_t m_nodes{0};              //!< N
    uint32_t m_nLevels{0};            //!< levels found
    std::vector<uint64_t> m_levels;   //!< [level * N + node] frontier words
    std::vector<uint64_t> m_seen;     //!< per node, destinations that reach it
    std::vector<double> m_pathCount;  //!< [node * BATCH + slot] shortest-path counts (CountPaths())
    std::vector<double> m_slotCount;  //!< CountPaths(): the counts of the slot being counted
    uint32_t m_destinations[BATCH]{}; //!< the destinations of the last search
    uint32_t m_count{0};              //!< how many
    /// FollowPaths(): [node * BATCH + slot] the number of the node's step (StepOf())
    std::vector<uint32_t> m_stepOf;
    std::vector<uint64_t> m_need;    //!< per node, the slots whose paths pass it
    bool m_marked{false};            //!< m_need may hold marks (Search() clears it then)
    std::vector<uint64_t> m_counted; //!< CountPaths(): per node, the slots it counts for
    /// CountPaths(): [slot * N + i] the slot's i-th node to count, farthest level first
    std::vector<uint32_t> m_union;
    /// CountPaths(): [level * BATCH + slot] where the slot's nodes of the level begin in
    /// m_union; level 0 holds the end
    std::vector<uint32_t> m_unionLevel;
    std::vector<uint64_t> m_closer; //!< per edge of the current node, its closer slots
    std::vector<uint64_t> m_active; //!< FollowPaths(): per node, one bit: marks on the level
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_LEVEL_SEARCH_H */
