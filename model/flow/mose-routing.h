/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOSE_ROUTING_H
#define MOSE_ROUTING_H

#include "mose-circuit-graph.h"

#include "ns3/mose-parse.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{
namespace mose
{

/**
 * \ingroup mose-flow
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

/// \ingroup mose-flow
/// Names of RoutingRule: "shortest-path", "random-shortest-path", "ecmp"
template <>
struct EnumTable<RoutingRule>
{
    /// \return every value with its names
    static const std::vector<EnumEntry<RoutingRule>>& Get();
};

/**
 * \ingroup mose-flow
 * \brief The seed of RANDOM_SHORTEST_PATH's hash for one run: 64 bits drawn from the run's
 *        Stream::ROUTING stream (Random::Create(run, Stream::ROUTING).Bits64()).
 *
 * The one derivation shared by the flow-level experiment, mose-flow-eval and the packet level,
 * so that all of them pick the same random shortest paths, hop for hop, for the same run (and
 * the same global ns-3 seed, RngSeedManager::GetSeed()). It creates the stream with
 * Random::Create(), which serialises its brief change of ns-3's global run: safe to call
 * from several threads.
 * \param run the ns-3 run number (what --RngRun selects)
 * \return the seed to give ShortestPathRouting
 */
uint64_t DeriveRoutingSeed(uint64_t run);

/**
 * \ingroup mose-flow
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
 * \ingroup mose-flow
 * \brief One forwarding entry: the next node from a node towards a destination and the circuit
 *        that leads there.
 *
 * Conventions (those of DestinationTree::nextHop and nextCircuit): at the destination itself,
 * node is the destination and circuit is DestinationTree::UNREACHABLE (no hop is taken); where
 * the destination cannot be reached, both are DestinationTree::UNREACHABLE. The circuit is an
 * index into the routed graph's GetCircuits(); PortPlan::GetLocalPort() turns it into the port
 * to send on.
 */
struct NextHop
{
    uint32_t node{DestinationTree::UNREACHABLE};    //!< the next node (see the conventions)
    uint32_t circuit{DestinationTree::UNREACHABLE}; //!< the circuit index to it

    /// \return true if both fields are equal
    bool operator==(const NextHop& o) const
    {
        return node == o.node && circuit == o.circuit;
    }
};

/**
 * \ingroup mose-flow
 * \brief The BFS distances (and, on request, the lowest-id next hops) towards up to 64
 *        destinations, in compact tables filled by ShortestPathRouting::ComputeTreeBatch().
 *
 * Distances are one byte per (node, slot), the bytes of one node adjacent (a 64-slot row is
 * one cache line), so that the bit-parallel search writes them cheaply and lazy evaluations
 * (LazyRandomTree, the ECMP metrics) read them from a table of N * 64 bytes. A search deeper
 * than 254 levels switches to 32-bit distances. The next-hop table (8 bytes per entry) is only
 * filled when asked for. All values are those of ShortestPathRouting::ComputeTree() under
 * SHORTEST_PATH.
 *
 * Lifetime: a filled batch shares ownership of the graph it was computed on (the routing's
 * std::shared_ptr), so it stays valid, ExtractTree() included, after the ShortestPathRouting
 * and every other owner of the graph are gone.
 */
class TreeBatch
{
  public:
    /// The lowest-id next hop of one (node, slot); meaningful only where IsReached()
    struct Entry
    {
        uint32_t nextHop;     //!< lowest-id closer neighbour (the destination at itself)
        uint32_t nextCircuit; //!< circuit to nextHop (DestinationTree::UNREACHABLE at the
                              //!< destination)
    };

    /// \return the number of destinations (slots)
    uint32_t GetSize() const
    {
        return static_cast<uint32_t>(m_destinations.size());
    }

    /// \return the number of nodes N of the graph the batch was computed on
    uint32_t GetNNodes() const
    {
        return m_nodes;
    }

    /// \param slot a slot (< GetSize()) \return its destination
    uint32_t GetDestination(uint32_t slot) const
    {
        return m_destinations.at(slot);
    }

    /// \return the graph the batch was computed on (null before the first computation)
    const std::shared_ptr<const CircuitGraph>& GetGraph() const
    {
        return m_graph;
    }

    /// \return true if the next-hop table was filled
    bool HasNextHops() const
    {
        return m_hasNextHops;
    }

    /// \param node a node id (< N) \param slot a slot (< GetSize())
    /// \return true if node can reach the slot's destination
    bool IsReached(uint32_t node, uint32_t slot) const
    {
        return ((m_reached[node] >> slot) & 1) != 0;
    }

    /**
     * \brief Unchecked distance for inner loops.
     * \param node a node that can reach the slot's destination (see IsReached())
     * \param slot the slot
     * \return hops from node to the destination
     */
    uint32_t Distance(uint32_t node, uint32_t slot) const
    {
        const std::size_t i = static_cast<std::size_t>(node) * m_destinations.size() + slot;
        return m_wide.empty() ? m_narrow[i] : m_wide[i];
    }

    /**
     * \brief Unchecked next-hop entry for inner loops.
     * \param node a node that can reach the slot's destination (see IsReached())
     * \param slot the slot
     * \return the entry; only with HasNextHops()
     */
    const Entry& At(uint32_t node, uint32_t slot) const
    {
        return m_entries[static_cast<std::size_t>(node) * m_destinations.size() + slot];
    }

    /// \param node a node id \param slot a slot (both checked: Error if out of range)
    /// \return hops from node to the slot's destination (DestinationTree::UNREACHABLE if none)
    uint32_t GetDistance(uint32_t node, uint32_t slot) const;
    /// \param node a node id \param slot a slot (both checked)
    /// \return the lowest-id next hop (DestinationTree::UNREACHABLE if node cannot reach the
    ///         destination); throws a mose::Error without HasNextHops()
    uint32_t GetNextHop(uint32_t node, uint32_t slot) const;
    /// \param node a node id \param slot a slot (both checked)
    /// \return the circuit to GetNextHop() (DestinationTree::UNREACHABLE at the destination
    ///         and at nodes that cannot reach it); throws a mose::Error without HasNextHops()
    uint32_t GetNextCircuit(uint32_t node, uint32_t slot) const;

    /**
     * \brief Writes one slot out as a DestinationTree: O(N) strided reads, plus O(E) to find the
     *        lowest-id next hops when the next-hop table was not filled.
     *
     * The order lists the nodes level by level, each level in increasing id order.
     * \param slot the slot
     * \param tree filled in (pathCount left empty)
     */
    void ExtractTree(uint32_t slot, DestinationTree& tree) const;

  private:
    friend class ShortestPathRouting;

    std::shared_ptr<const CircuitGraph> m_graph; //!< the graph searched (shared ownership)
    uint32_t m_nodes{0};                         //!< N
    std::vector<uint32_t> m_destinations;        //!< destination per slot
    std::vector<uint64_t> m_reached;             //!< per node, bit slot: destination reachable
    std::vector<uint8_t> m_narrow; //!< [node * GetSize() + slot] distance, < 255 levels
    std::vector<uint32_t> m_wide;  //!< the same with 32 bits, once a search goes deeper
    bool m_hasNextHops{false};     //!< whether m_entries is filled
    std::vector<Entry> m_entries;  //!< [node * GetSize() + slot] next hops
};

/**
 * \ingroup mose-flow
 * \brief Shortest-path routing over a circuit graph, shared by the flow level and the packet
 *        level.
 *
 * ComputeTree() runs one breadth-first search over the Boost.Graph CSR view (boost::out_edges,
 * neighbours in increasing id order, the edge bundle being the circuit index), O(N + E).
 * ComputeTreeBatch() serves up to 64 destinations per bit-parallel search (distances and the
 * lowest-id next hops); ComputeTrees() uses it under SHORTEST_PATH and ECMP. Under
 * RANDOM_SHORTEST_PATH, LazyRandomTree evaluates the same choices along a few paths only.
 * All of them give the same next hops for the same (graph, rule, seed), so the flow level and
 * the packet level agree hop for hop.
 *
 * Lifetime: the routing shares ownership of its graph through a std::shared_ptr to a const
 * (immutable) CircuitGraph, and so do the TreeBatch objects it fills and the LazyRandomTree
 * objects built on it. None of them refers to anything the others own: any of them may be
 * destroyed first, and a routing protocol can keep the graph it routes on alive across mode
 * switches simply by holding its routing. Copies of a ShortestPathRouting share the graph.
 */
class ShortestPathRouting
{
  public:
    /**
     * \param graph the circuit graph, shared (not copied); must not be null
     * \param rule the routing rule
     * \param seed the seed of RANDOM_SHORTEST_PATH's hash (ignored by the other rules; see
     *        DeriveRoutingSeed())
     */
    ShortestPathRouting(std::shared_ptr<const CircuitGraph> graph,
                        RoutingRule rule,
                        uint64_t seed = 0);

    /**
     * \brief Routes on a private copy of a graph (O(N + E), once): the argument need not outlive
     *        the routing. Pass a std::shared_ptr to share the graph instead.
     * \param graph the circuit graph, copied
     * \param rule the routing rule
     * \param seed the seed of RANDOM_SHORTEST_PATH's hash (ignored by the other rules)
     */
    ShortestPathRouting(const CircuitGraph& graph, RoutingRule rule, uint64_t seed = 0);

    /**
     * \brief Routes on a graph moved in.
     * \param graph the circuit graph, moved
     * \param rule the routing rule
     * \param seed the seed of RANDOM_SHORTEST_PATH's hash (ignored by the other rules)
     */
    ShortestPathRouting(CircuitGraph&& graph, RoutingRule rule, uint64_t seed = 0);

    /// \return the graph (valid as long as this routing, or another owner of it, lives)
    const CircuitGraph& GetGraph() const;
    /// \return the shared graph, to keep it alive independently of this routing
    const std::shared_ptr<const CircuitGraph>& GetGraphPtr() const;
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
     * \param nextHops whether to fill the next-hop table too (the distances always are)
     */
    void ComputeTreeBatch(const uint32_t* destinations,
                          uint32_t count,
                          TreeBatch& batch,
                          bool nextHops = true) const;

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
     * \return the nodes of the path; throws a mose::Error if dst is unreachable or the rule is
     *         ECMP
     */
    std::vector<uint32_t> GetPath(uint32_t src, uint32_t dst) const;

    /**
     * \brief The full forwarding table: one tree per destination (ComputeTrees()), O(N (N + E))
     *        time and N^2 entries of memory (8 MB at N = 1024). Meant for the packet level, which
     *        needs every node's next hop towards every destination; the flow level never
     *        stores it.
     *
     * Under every single-path rule the entries are exactly the hops the flow level takes
     * (GetPath(), EvaluateFlows()); RANDOM_SHORTEST_PATH included, for the same seed. Under ECMP
     * these are the lowest-id next hops (see DestinationTree::nextHop).
     * \return entry [node * N + destination] = the tree's next node and circuit from node
     *         towards destination (see NextHop for the conventions at the destination and for
     *         unreachable destinations)
     */
    std::vector<NextHop> ComputeNextHopTable() const;

    /**
     * \brief The forwarding entries of every node towards one destination: one tree
     *        (ComputeTree()), O(N + E), the same entries as ComputeNextHopTable()'s column of
     *        that destination. For recomputing routes on demand.
     * \param destination t
     * \param hops resized to N; entry u = the next hop from u towards t (NextHop conventions)
     */
    void ComputeNextHops(uint32_t destination, std::vector<NextHop>& hops) const;

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
    std::shared_ptr<const CircuitGraph> m_graph; //!< the graph (shared ownership, never null)
    RoutingRule m_rule;                          //!< the rule
    uint64_t m_seed;                             //!< hash seed for RANDOM_SHORTEST_PATH
};

/**
 * \ingroup mose-flow
 * \brief RANDOM_SHORTEST_PATH next hops towards one destination, evaluated on demand.
 *
 * ComputeTree() computes the path count of every node to pick every node's next hop. To follow
 * only a few paths, this class computes the counts lazily: the count of a node is the sum of its
 * closer neighbours' counts in increasing id order (the order ComputeTree() uses, so counts and
 * choices are bit-identical to it), memoised per destination by an iterative depth-first search
 * over the closer-neighbour DAG. Following a path then costs about the size of the shortest-path
 * interval between its ends instead of a whole tree; a node with a single closer neighbour
 * needs no count at all, and next hops are memoised too. Distances come from a TreeBatch (the
 * bit-parallel search).
 *
 * Lifetime: the evaluator shares ownership of the routing's graph and of the batch it was last
 * Reset() on, and copies the seed; it stays valid after the routing, the graph's other owners
 * and the caller's batch pointer are gone. A batch refilled in place (ComputeTreeBatch() on the
 * same object) needs a new Reset() before the next Step().
 */
class LazyRandomTree
{
  public:
    /**
     * \param routing the routing whose graph and seed are used (whatever its rule); the
     *        evaluator shares the graph, so the routing may be destroyed first
     */
    explicit LazyRandomTree(const ShortestPathRouting& routing);

    /**
     * \brief Points the evaluator at one destination and forgets the previous counts (O(1)).
     * \param batch the distances towards the destination, computed on the routing's graph
     *        (the same shared graph object; Error otherwise); shared until the next Reset()
     * \param slot the destination's slot in the batch
     */
    void Reset(std::shared_ptr<const TreeBatch> batch, uint32_t slot);

    /**
     * \brief The RANDOM_SHORTEST_PATH next hop of a node (ComputeTree()'s nextHop).
     * \param node a node that can reach the destination, != the destination
     * \param circuit set to the circuit to the next hop
     * \return the next hop
     */
    uint32_t Step(uint32_t node, uint32_t& circuit);

    /**
     * \param node a node that can reach the destination
     * \return its number of shortest paths to the destination (ComputeTree()'s pathCount)
     */
    double GetPathCount(uint32_t node);

  private:
    std::shared_ptr<const CircuitGraph> m_owner; //!< keeps the graph alive
    const CircuitGraph::Graph* m_graph;          //!< the CSR graph, owned through m_owner
    uint64_t m_seed;                             //!< the hash seed
    std::shared_ptr<const TreeBatch> m_batch;    //!< the distances
    uint32_t m_slot{0};                          //!< the destination's slot
    uint32_t m_destination{0};                   //!< the destination
    uint32_t m_epoch{0};                         //!< stamp of the current destination
    std::vector<uint32_t> m_stamp;               //!< per node, the epoch its count belongs to
    std::vector<double> m_count;                 //!< per node, memoised path count
    std::vector<uint32_t> m_stack;               //!< depth-first search stack
    std::vector<uint32_t> m_hopStamp;   //!< per node, the epoch its memoised next hop is for
    std::vector<uint32_t> m_hop;        //!< per node, memoised next hop
    std::vector<uint32_t> m_hopCircuit; //!< per node, memoised next circuit
};

} // namespace mose
} // namespace ns3

#endif /* MOSE_ROUTING_H */
