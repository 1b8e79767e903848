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
    /// single-path rules: the next node from each node towards t (t's own entry is t)
    std::vector<uint32_t> nextHop;
    /// single-path rules: the circuit index from each node to its next hop
    std::vector<uint32_t> nextCircuit;

    /// distance of a node that cannot reach t
    static constexpr uint32_t UNREACHABLE = UINT32_MAX;
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

    /**
     * \brief Computes the tree towards one destination, reusing the tree's storage.
     * \param destination t
     * \param tree filled in
     */
    void ComputeTree(uint32_t destination, DestinationTree& tree) const;

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

  private:
    const CircuitGraph& m_graph; //!< the graph
    RoutingRule m_rule;          //!< the rule
    uint64_t m_seed;             //!< hash seed for RANDOM_SHORTEST_PATH
};

} // namespace ns3

#endif /* MOSE_ROUTING_H */
