/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_ROUTING_H
#define MOSE_ROUTING_H

#include "mose-circuit-graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mose
 * \brief How traffic is spread over the shortest paths of the circuit graph.
 *
 * All rules are destination-based: the choice at node u towards destination t depends on
 * (u, t) only, so the flow-level paths are exactly the ones a per-hop forwarding table produces
 * (the packet-level routing protocol installs the same next hops). Every flow of a (source,
 * destination) pair takes the same path under the single-path rules.
 */
enum class RoutingRule : uint8_t
{
    /// one shortest path per pair; at each hop the next hop is the neighbour with the lowest id
    /// among those one step closer to the destination
    SHORTEST_PATH,
    /// one shortest path per pair, chosen at random: at each hop the next hop is a neighbour one
    /// step closer, picked with probability proportional to its number of shortest paths to the
    /// destination (so each pair's path is uniform over its shortest paths), from a stateless
    /// hash of (seed, node, destination)
    RANDOM_SHORTEST_PATH,
    /// equal-cost multipath: at each hop the demand is split evenly over all neighbours one step
    /// closer to the destination (tie-break free)
    ECMP,
};

/// \return "shortest-path", "random-shortest-path" or "ecmp"
std::string ToString(RoutingRule rule);
/// \return the rule; throws a MoseError naming the parameter "routing" for other text
RoutingRule ParseRoutingRule(const std::string& text);

/**
 * \ingroup mose
 * \brief Shortest paths towards one destination: BFS distances and per-node next hops.
 */
struct DestinationTree
{
    uint32_t destination{0};        //!< t
    std::vector<uint32_t> distance; //!< hops from each node to t (UNREACHABLE if none)
    std::vector<uint32_t> order;    //!< reached nodes in nondecreasing distance, t first
    /// the next node from each node towards t under the single-path rule (t's own entry is t,
    /// UNREACHABLE for nodes that cannot reach t). Under ECMP it holds the SHORTEST_PATH
    /// (lowest-id) next hop, which ECMP itself never uses: ECMP spreads over all closer
    /// neighbours (GetCloserNeighbours()).
    std::vector<uint32_t> nextHop;
    /// the circuit index from each node to its nextHop (UNREACHABLE for t and for nodes that
    /// cannot reach t)
    std::vector<uint32_t> nextCircuit;
    /// RANDOM_SHORTEST_PATH only (empty otherwise): the number of shortest paths from each node
    /// to t, as a double (0 for nodes that cannot reach t, 1 for t)
    std::vector<double> pathCount;

    /// distance of a node that cannot reach t, and the "none" value of nextHop / nextCircuit
    static constexpr uint32_t UNREACHABLE = UINT32_MAX;
};

/**
 * \ingroup mose
 * \brief The lowest-id shortest-path trees (SHORTEST_PATH's, and ECMP's distances) of up to
 *        64 destinations in one compact table.
 *
 * Entry (node, slot) holds the node's distance, next hop and next circuit towards the slot's
 * destination, with the entries of one node adjacent, so that the bit-parallel search of
 * ShortestPathRouting::ComputeTreeBatch() writes them with few cache misses. The values are
 * those of ShortestPathRouting::ComputeTree() under SHORTEST_PATH.
 */
class TreeBatch
{
  public:
    /// \return the number of destinations (slots)
    uint32_t GetSize() const;
    /// \param slot a slot \return its destination
    uint32_t GetDestination(uint32_t slot) const;
    /// \return true if node can reach the slot's destination
    bool IsReached(uint32_t node, uint32_t slot) const;
    /// \return hops from node to the slot's destination (DestinationTree::UNREACHABLE if none)
    uint32_t GetDistance(uint32_t node, uint32_t slot) const;
    /// \return the lowest-id next hop (the destination itself at the destination;
    ///         DestinationTree::UNREACHABLE if the node cannot reach it)
    uint32_t GetNextHop(uint32_t node, uint32_t slot) const;
    /// \return the circuit to GetNextHop() (DestinationTree::UNREACHABLE at the destination
    ///         and at nodes that cannot reach it)
    uint32_t GetNextCircuit(uint32_t node, uint32_t slot) const;

    /**
     * \brief Writes one slot out as a DestinationTree (O(N), strided reads).
     *
     * The order lists the nodes level by level, each level in increasing id order.
     * \param slot the slot
     * \param tree filled in (pathCount left empty)
     */
    void ExtractTree(uint32_t slot, DestinationTree& tree) const;

  private:
    friend class ShortestPathRouting;

    /// One (node, slot) entry; meaningful only where the reached bit is set
    struct Entry
    {
        uint32_t distance;    //!< hops to the destination
        uint32_t nextHop;     //!< lowest-id closer neighbour
        uint32_t nextCircuit; //!< circuit to it
    };

    uint32_t m_nodes{0};                  //!< N
    std::vector<uint32_t> m_destinations; //!< destination per slot
    std::vector<uint64_t> m_reached;      //!< per node, bit slot: destination reachable
    std::vector<Entry> m_entries;         //!< [node * GetSize() + slot]
};

/**
 * \ingroup mose
 * \brief Shortest-path routing over a circuit graph, shared by the flow level and the packet
 *        level.
 *
 * Each destination's tree costs one breadth-first search with Boost.Graph, O(N + E).
 */
class ShortestPathRouting
{
  public:
    /**
     * \param graph the circuit graph; must outlive this object
     * \param rule the routing rule
     * \param seed the seed of RANDOM_SHORTEST_PATH's hash (ignored by the other rules)
     */
    ShortestPathRouting(const CircuitGraph& graph, RoutingRule rule, uint64_t seed = 0);

    /// \return the graph
    const CircuitGraph& GetGraph() const;
    /// \return the rule
    RoutingRule GetRule() const;
    /// \return the seed of RANDOM_SHORTEST_PATH's hash
    uint64_t GetSeed() const;

    /**
     * \brief Computes the tree towards one destination, reusing the tree's storage.
     * \param destination t
     * \param tree filled in
     */
    void ComputeTree(uint32_t destination, DestinationTree& tree) const;

    /**
     * \brief Computes the trees towards several destinations at once.
     *
     * The distances, next hops and circuits are exactly those of ComputeTree(). Under
     * SHORTEST_PATH and ECMP the destinations are searched 64 at a time by a bit-parallel
     * breadth-first search (one pass over the CSR graph per BFS level serves 64 trees; the
     * lowest-id next hop of a node is its first neighbour, in id order, on the previous level),
     * which is several times faster per tree than ComputeTree(). The order vector then lists
     * each level in increasing id order (ComputeTree() lists it in discovery order); both are
     * nondecreasing in distance with the destination first. RANDOM_SHORTEST_PATH needs per-tree
     * path counts and runs ComputeTree() for each destination.
     * \param destinations the destinations (repeats allowed); memory is one tree per entry
     * \param trees resized to destinations.size(); entry i is the tree of destinations[i]
     */
    void ComputeTrees(const std::vector<uint32_t>& destinations,
                      std::vector<DestinationTree>& trees) const;

    /// how many destinations ComputeTrees() searches in one bit-parallel pass
    static constexpr uint32_t BATCH = 64;

    /**
     * \brief The lowest-id trees (the SHORTEST_PATH rule's next hops, whatever this routing's
     *        rule) of up to BATCH destinations, by one bit-parallel breadth-first search.
     *
     * Bit b of a node's 64-bit words stands for destination b. Level by level, every node not
     * yet reached by all destinations ORs its neighbours' frontier words (one pass over the CSR
     * rows per level for all destinations); the new bits are the destinations it is one step
     * farther from, and its next hop towards each is its first neighbour, in increasing id
     * order, with that bit in the frontier. A tree costs about (levels * E) / 64 word
     * operations plus O(N) entries.
     * \param destinations the destinations, 1 to BATCH of them (repeats allowed)
     * \param count how many
     * \param batch filled in
     */
    void ComputeTreeBatch(const uint32_t* destinations, uint32_t count, TreeBatch& batch) const;

    /**
     * \brief The neighbours of a node that are one step closer to the destination (ECMP's
     *        next hops), in increasing id order, with their circuit indices.
     * \param tree a computed tree
     * \param node a node that can reach the destination, != destination
     * \param next filled with the next-hop node ids
     * \param circuits filled with the matching circuit indices
     */
    void GetCloserNeighbours(const DestinationTree& tree,
                             uint32_t node,
                             std::vector<uint32_t>& next,
                             std::vector<uint32_t>& circuits) const;

    /**
     * \brief The single path a flow takes (single-path rules), as node ids from src to dst.
     * \param src source
     * \param dst destination
     * \return the nodes of the path; throws a MoseError if dst is unreachable or the rule is
     *         ECMP
     */
    std::vector<uint32_t> GetPath(uint32_t src, uint32_t dst) const;

    /**
     * \brief The full forwarding table: one tree per destination, N BFS runs, O(N (N + E)) time
     *        and N^2 entries of memory (4 MB at N = 1024). Meant for the packet level, which
     *        needs every node's next hop towards every destination; the flow level never
     *        stores it.
     * \return entry [node * N + destination] = the tree's nextHop of node towards destination
     *         (node itself when node == destination, DestinationTree::UNREACHABLE if
     *         destination cannot be reached). Under ECMP these are the lowest-id next hops
     *         (see DestinationTree::nextHop).
     */
    std::vector<uint32_t> ComputeNextHopTable() const;

    /**
     * \brief The stateless hash behind RANDOM_SHORTEST_PATH's choices.
     *
     * SplitMix64's finaliser over (seed, node, destination), mapped to [0, 1) with 53 bits.
     * \param seed the routing seed
     * \param node the node choosing its next hop
     * \param destination the destination
     * \return a number in [0, 1), the same for the same arguments on every machine
     */
    static double HashUniform(uint64_t seed, uint32_t node, uint32_t destination);

  private:
    const CircuitGraph& m_graph; //!< the graph
    RoutingRule m_rule;          //!< the rule
    uint64_t m_seed;             //!< hash seed for RANDOM_SHORTEST_PATH
};

} // namespace ns3

#endif /* MOSE_ROUTING_H */
