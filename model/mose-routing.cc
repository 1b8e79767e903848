/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-routing.h"

#include "mose-error.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// Shorthand for the "none" value of distances, next hops and circuits
constexpr uint32_t NONE = DestinationTree::UNREACHABLE;

/**
 * \brief Breadth-first search from the destination with the next-hop choice folded in.
 *
 * One scan over the out-arcs of each node, in BFS order, does everything:
 * - an arc to an undiscovered node discovers it (distance + 1, appended to the queue, which is
 *   the tree's order vector);
 * - an arc to a node one step closer to the destination is a candidate next hop. When a node is
 *   dequeued, every node of the previous level already has its final distance (and path count),
 *   so its closer neighbours are complete; CSR rows are sorted by target id, so the first one
 *   met is the lowest-id one;
 * - RANDOM_SHORTEST_PATH also counts shortest paths: an arc to a node one step farther adds the
 *   current node's count to it (a node's count is final when it is dequeued, because all nodes
 *   of the previous level are dequeued before it).
 *
 * This is Boost's breadth_first_visit with the visitor events inlined, and written without
 * data-dependent branches: whether a neighbour is new, closer or farther is a coin flip for the
 * branch predictor, and mispredictions cost more than the arc itself. Every arc therefore
 * stores the (possibly unchanged) distance, writes the queue slot and advances the tail by 0 or
 * 1, and selects the next hop with conditional moves. The queue has one spare slot for the
 * write after the last discovery. The BGL algorithm (colour map, separate queue, a visitor call
 * per event, branches) took about three times as long per arc, and the flow-level metrics run
 * this search twice per destination.
 *
 * \tparam Rule the routing rule
 * \param g the CSR graph
 * \param n the number of nodes
 * \param t the destination
 * \param seed the hash seed (RANDOM_SHORTEST_PATH)
 * \param tree filled in
 */
template <RoutingRule Rule>
void
SearchFrom(const CircuitGraph::Graph& g,
           uint32_t n,
           uint32_t t,
           uint64_t seed,
           DestinationTree& tree)
{
    constexpr bool RANDOM = Rule == RoutingRule::RANDOM_SHORTEST_PATH;
    tree.destination = t;
    tree.distance.assign(n, NONE);
    tree.nextHop.assign(n, NONE);
    tree.nextCircuit.assign(n, NONE);
    tree.order.resize(static_cast<std::size_t>(n) + 1);
    if constexpr (RANDOM)
    {
        tree.pathCount.assign(n, 0.0);
        tree.pathCount[t] = 1.0;
    }
    else
    {
        tree.pathCount.clear();
    }

    uint32_t* dist = tree.distance.data();
    uint32_t* next = tree.nextHop.data();
    uint32_t* nextCircuit = tree.nextCircuit.data();
    uint32_t* queue = tree.order.data();
    [[maybe_unused]] double* sigma = tree.pathCount.data();

    dist[t] = 0;
    next[t] = t;
    queue[0] = t;
    uint32_t tail = 1;
    for (uint32_t head = 0; head < tail; ++head)
    {
        const uint32_t u = queue[head];
        const uint32_t du = dist[u];
        const uint32_t child = du + 1;
        uint32_t found = 0;
        uint32_t hop = NONE;
        uint32_t circuit = NONE;
        [[maybe_unused]] double target = 0;
        [[maybe_unused]] double cumulative = 0;
        [[maybe_unused]] double su = 0;
        [[maybe_unused]] uint32_t lastHop = NONE;
        [[maybe_unused]] uint32_t lastCircuit = NONE;
        if constexpr (RANDOM)
        {
            su = sigma[u];
            target = ShortestPathRouting::HashUniform(seed, u, t) * su;
        }
        auto [it, end] = boost::out_edges(u, g);
        for (; it != end; ++it)
        {
            const uint32_t v = boost::target(*it, g);
            const uint32_t c = g[*it];
            const uint32_t dv = dist[v];
            const uint32_t fresh = (dv == NONE) ? 1 : 0;
            const uint32_t closer = (dv + 1 == du) ? 1 : 0;
            dist[v] = fresh ? child : dv;
            queue[tail] = v;
            tail += fresh;
            if constexpr (RANDOM)
            {
                // fresh or already seen at the next level: u's paths extend to v
                sigma[v] += (fresh | (dv == child)) ? su : 0.0;
                cumulative += closer ? sigma[v] : 0.0;
                const uint32_t take = closer & (found ^ 1) & ((cumulative > target) ? 1 : 0);
                found |= take;
                hop = take ? v : hop;
                circuit = take ? c : circuit;
                lastHop = closer ? v : lastHop;
                lastCircuit = closer ? c : lastCircuit;
            }
            else
            {
                const uint32_t take = closer & (found ^ 1);
                found |= take;
                hop = take ? v : hop;
                circuit = take ? c : circuit;
            }
        }
        if (u != t)
        {
            if constexpr (RANDOM)
            {
                // rounding can leave the running sum a hair below target: take the last one
                hop = found ? hop : lastHop;
                circuit = found ? circuit : lastCircuit;
            }
            next[u] = hop;
            nextCircuit[u] = circuit;
        }
    }
    tree.order.resize(tail);
}

/// \return the index of the lowest set bit of a nonzero word
inline uint32_t
LowestBit(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return static_cast<uint32_t>(__builtin_ctzll(x));
#else
    uint32_t i = 0;
    while ((x & 1) == 0)
    {
        x >>= 1;
        ++i;
    }
    return i;
#endif
}

/// SplitMix64's finaliser (Steele, Lea, Flood 2014), a bijection on 64-bit words
uint64_t
Mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/// Throws unless a node id is below N
void
CheckNode(const std::string& parameter, uint32_t node, uint32_t n)
{
    if (node >= n)
    {
        ThrowBadParameter(parameter,
                          std::to_string(node),
                          "node ids must be < the number of groups " + std::to_string(n));
    }
}

} // namespace

std::string
ToString(RoutingRule rule)
{
    switch (rule)
    {
    case RoutingRule::SHORTEST_PATH:
        return "shortest-path";
    case RoutingRule::RANDOM_SHORTEST_PATH:
        return "random-shortest-path";
    case RoutingRule::ECMP:
        return "ecmp";
    }
    return "unknown";
}

RoutingRule
ParseRoutingRule(const std::string& text)
{
    if (text == "shortest-path")
    {
        return RoutingRule::SHORTEST_PATH;
    }
    if (text == "random-shortest-path")
    {
        return RoutingRule::RANDOM_SHORTEST_PATH;
    }
    if (text == "ecmp")
    {
        return RoutingRule::ECMP;
    }
    ThrowBadParameter("routing",
                      "\"" + text + "\"",
                      "allowed values are shortest-path, random-shortest-path and ecmp");
}

ShortestPathRouting::ShortestPathRouting(const CircuitGraph& graph, RoutingRule rule, uint64_t seed)
    : m_graph(graph),
      m_rule(rule),
      m_seed(seed)
{
    if (rule != RoutingRule::SHORTEST_PATH && rule != RoutingRule::RANDOM_SHORTEST_PATH &&
        rule != RoutingRule::ECMP)
    {
        ThrowBadParameter("routing",
                          std::to_string(static_cast<int>(rule)),
                          "allowed values are shortest-path, random-shortest-path and ecmp");
    }
}

const CircuitGraph&
ShortestPathRouting::GetGraph() const
{
    return m_graph;
}

RoutingRule
ShortestPathRouting::GetRule() const
{
    return m_rule;
}

uint64_t
ShortestPathRouting::GetSeed() const
{
    return m_seed;
}

double
ShortestPathRouting::HashUniform(uint64_t seed, uint32_t node, uint32_t destination)
{
    // Hand-written rather than drawn from an ns-3 stream: the choice at (node, destination) must
    // be random-access and identical every time it is asked for (each metrics pass recomputes
    // the trees, the packet level installs the same next hops) without storing N^2 choices. The
    // seed is mixed on its own first so that (seed, key) pairs cannot alias under xor.
    uint64_t key = (static_cast<uint64_t>(destination) << 32) | node;
    uint64_t z = Mix64(Mix64(seed) ^ key);
    return static_cast<double>(z >> 11) * 0x1.0p-53;
}

void
ShortestPathRouting::ComputeTree(uint32_t destination, DestinationTree& tree) const
{
    const uint32_t n = m_graph.GetNNodes();
    CheckNode("destination", destination, n);
    switch (m_rule)
    {
    case RoutingRule::SHORTEST_PATH:
        SearchFrom<RoutingRule::SHORTEST_PATH>(m_graph.GetGraph(), n, destination, m_seed, tree);
        break;
    case RoutingRule::RANDOM_SHORTEST_PATH:
        SearchFrom<RoutingRule::RANDOM_SHORTEST_PATH>(m_graph.GetGraph(),
                                                      n,
                                                      destination,
                                                      m_seed,
                                                      tree);
        break;
    case RoutingRule::ECMP:
        // ECMP's tree is the plain BFS; its lowest-id next hops come for free
        SearchFrom<RoutingRule::ECMP>(m_graph.GetGraph(), n, destination, m_seed, tree);
        break;
    }
}

void
ShortestPathRouting::ComputeTrees(const std::vector<uint32_t>& destinations,
                                  std::vector<DestinationTree>& trees) const
{
    const uint32_t n = m_graph.GetNNodes();
    for (uint32_t t : destinations)
    {
        CheckNode("destination", t, n);
    }
    trees.resize(destinations.size());
    if (m_rule == RoutingRule::RANDOM_SHORTEST_PATH)
    {
        for (std::size_t i = 0; i < destinations.size(); ++i)
        {
            ComputeTree(destinations[i], trees[i]);
        }
        return;
    }
    TreeBatch batch;
    for (std::size_t first = 0; first < destinations.size(); first += BATCH)
    {
        auto count =
            static_cast<uint32_t>(std::min<std::size_t>(BATCH, destinations.size() - first));
        ComputeTreeBatch(destinations.data() + first, count, batch);
        for (uint32_t slot = 0; slot < count; ++slot)
        {
            batch.ExtractTree(slot, trees[first + slot]);
        }
    }
}

void
ShortestPathRouting::ComputeTreeBatch(const uint32_t* destinations,
                                      uint32_t count,
                                      TreeBatch& batch) const
{
    const uint32_t n = m_graph.GetNNodes();
    const CircuitGraph::Graph& g = m_graph.GetGraph();
    if (count == 0 || count > BATCH)
    {
        ThrowBadParameter("count",
                          std::to_string(count),
                          "1 to " + std::to_string(BATCH) + " destinations per batch");
    }
    for (uint32_t b = 0; b < count; ++b)
    {
        CheckNode("destination", destinations[b], n);
    }
    batch.m_nodes = n;
    batch.m_destinations.assign(destinations, destinations + count);
    batch.m_reached.assign(n, 0);
    // entries are written where reached; no fill needed
    batch.m_entries.resize(static_cast<std::size_t>(n) * count);
    uint64_t* seen = batch.m_reached.data();
    TreeBatch::Entry* entries = batch.m_entries.data();
    std::vector<uint64_t> frontier(n, 0);
    std::vector<uint64_t> nextFrontier(n, 0);
    for (uint32_t b = 0; b < count; ++b)
    {
        const uint32_t t = destinations[b];
        seen[t] |= uint64_t{1} << b;
        frontier[t] |= uint64_t{1} << b;
        entries[static_cast<std::size_t>(t) * count + b] = {0, t, NONE};
    }
    const uint64_t all = count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
    for (uint32_t level = 1;; ++level)
    {
        bool grew = false;
        for (uint32_t v = 0; v < n; ++v)
        {
            const uint64_t s = seen[v];
            if (s == all)
            {
                nextFrontier[v] = 0;
                continue;
            }
            auto [begin, end] = boost::out_edges(v, g);
            uint64_t reach = 0;
            for (auto it = begin; it != end; ++it)
            {
                reach |= frontier[boost::target(*it, g)];
            }
            uint64_t fresh = reach & ~s;
            nextFrontier[v] = fresh;
            if (fresh == 0)
            {
                continue;
            }
            grew = true;
            seen[v] = s | fresh;
            TreeBatch::Entry* row = entries + static_cast<std::size_t>(v) * count;
            // every fresh bit is in some neighbour's frontier word: the scan ends in the row
            for (auto it = begin; fresh != 0; ++it)
            {
                uint64_t x = frontier[boost::target(*it, g)] & fresh;
                if (x == 0)
                {
                    continue;
                }
                fresh &= ~x;
                const TreeBatch::Entry e{level, boost::target(*it, g), g[*it]};
                do
                {
                    row[LowestBit(x)] = e;
                    x &= x - 1;
                } while (x != 0);
            }
        }
        if (!grew)
        {
            break;
        }
        frontier.swap(nextFrontier);
    }
}

uint32_t
TreeBatch::GetSize() const
{
    return static_cast<uint32_t>(m_destinations.size());
}

uint32_t
TreeBatch::GetDestination(uint32_t slot) const
{
    return m_destinations.at(slot);
}

bool
TreeBatch::IsReached(uint32_t node, uint32_t slot) const
{
    return node < m_nodes && slot < GetSize() && ((m_reached[node] >> slot) & 1) != 0;
}

uint32_t
TreeBatch::GetDistance(uint32_t node, uint32_t slot) const
{
    return IsReached(node, slot)
               ? m_entries[static_cast<std::size_t>(node) * GetSize() + slot].distance
               : NONE;
}

uint32_t
TreeBatch::GetNextHop(uint32_t node, uint32_t slot) const
{
    return IsReached(node, slot)
               ? m_entries[static_cast<std::size_t>(node) * GetSize() + slot].nextHop
               : NONE;
}

uint32_t
TreeBatch::GetNextCircuit(uint32_t node, uint32_t slot) const
{
    return IsReached(node, slot)
               ? m_entries[static_cast<std::size_t>(node) * GetSize() + slot].nextCircuit
               : NONE;
}

void
TreeBatch::ExtractTree(uint32_t slot, DestinationTree& tree) const
{
    const uint32_t n = m_nodes;
    const uint32_t stride = GetSize();
    if (slot >= stride)
    {
        ThrowBadParameter("slot", std::to_string(slot), "< " + std::to_string(stride));
    }
    tree.destination = m_destinations[slot];
    tree.distance.assign(n, NONE);
    tree.nextHop.assign(n, NONE);
    tree.nextCircuit.assign(n, NONE);
    tree.pathCount.clear();
    // gather, counting the nodes per level
    std::vector<uint32_t> perLevel(1, 0);
    for (uint32_t v = 0; v < n; ++v)
    {
        if (((m_reached[v] >> slot) & 1) == 0)
        {
            continue;
        }
        const Entry& e = m_entries[static_cast<std::size_t>(v) * stride + slot];
        tree.distance[v] = e.distance;
        tree.nextHop[v] = e.nextHop;
        tree.nextCircuit[v] = e.nextCircuit;
        if (perLevel.size() <= e.distance + 1)
        {
            perLevel.resize(e.distance + 2, 0);
        }
        ++perLevel[e.distance + 1];
    }
    // counting sort by level, increasing ids within a level
    for (std::size_t k = 1; k < perLevel.size(); ++k)
    {
        perLevel[k] += perLevel[k - 1];
    }
    tree.order.resize(perLevel.back());
    for (uint32_t v = 0; v < n; ++v)
    {
        if (tree.distance[v] != NONE)
        {
            tree.order[perLevel[tree.distance[v]]++] = v;
        }
    }
}

void
ShortestPathRouting::GetCloserNeighbours(const DestinationTree& tree,
                                         uint32_t node,
                                         std::vector<uint32_t>& next,
                                         std::vector<uint32_t>& circuits) const
{
    const CircuitGraph::Graph& g = m_graph.GetGraph();
    CheckNode("node", node, m_graph.GetNNodes());
    if (tree.distance.size() != m_graph.GetNNodes())
    {
        throw MoseError("GetCloserNeighbours: the tree was not computed on this graph");
    }
    const uint32_t du = tree.distance[node];
    if (du == NONE || du == 0)
    {
        throw MoseError("GetCloserNeighbours: node " + std::to_string(node) +
                        (du == 0 ? " is the destination" : " cannot reach destination ") +
                        (du == 0 ? "" : std::to_string(tree.destination)));
    }
    next.clear();
    circuits.clear();
    for (auto [it, end] = boost::out_edges(node, g); it != end; ++it)
    {
        const uint32_t v = boost::target(*it, g);
        if (tree.distance[v] + 1 == du)
        {
            next.push_back(v);
            circuits.push_back(g[*it]);
        }
    }
}

std::vector<uint32_t>
ShortestPathRouting::GetPath(uint32_t src, uint32_t dst) const
{
    const uint32_t n = m_graph.GetNNodes();
    CheckNode("src", src, n);
    CheckNode("dst", dst, n);
    if (m_rule == RoutingRule::ECMP)
    {
        throw MoseError("GetPath: routing = ecmp has no single path; use GetCloserNeighbours()");
    }
    DestinationTree tree;
    ComputeTree(dst, tree);
    if (tree.distance[src] == NONE)
    {
        throw MoseError("GetPath: node " + std::to_string(dst) + " cannot be reached from node " +
                        std::to_string(src));
    }
    std::vector<uint32_t> path;
    path.reserve(tree.distance[src] + 1);
    for (uint32_t u = src; u != dst; u = tree.nextHop[u])
    {
        path.push_back(u);
    }
    path.push_back(dst);
    return path;
}

std::vector<uint32_t>
ShortestPathRouting::ComputeNextHopTable() const
{
    const uint64_t n = m_graph.GetNNodes();
    std::vector<uint32_t> table(n * n, NONE);
    DestinationTree tree;
    for (uint32_t t = 0; t < n; ++t)
    {
        ComputeTree(t, tree);
        for (uint32_t u = 0; u < n; ++u)
        {
            table[u * n + t] = tree.nextHop[u];
        }
    }
    return table;
}

} // namespace ns3
