/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-routing.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"
#include "ns3/mose-hash.h"
#include "ns3/mose-random.h"

#include <algorithm>

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseRouting");

namespace
{

/// Shorthand for the "none" value of distances, next hops and circuits
constexpr uint32_t NONE = DestinationTree::UNREACHABLE;

/**
 * \brief RANDOM_SHORTEST_PATH's stateless hash (see ShortestPathRouting::HashUniform()).
 *
 * Hand-written rather than drawn from an ns-3 stream: the choice at (node, destination) must be
 * random-access and identical every time it is asked for (each metrics pass recomputes the
 * trees, LazyRandomTree evaluates single nodes, the packet level installs the same next hops)
 * without storing N^2 choices. The seed is mixed on its own first so that (seed, key) pairs
 * cannot alias under xor.
 * \param seed the routing seed
 * \param node the node
 * \param destination the destination
 * \return a number in [0, 1) with 53 random bits
 */
inline double
Hash01(uint64_t seed, uint32_t node, uint32_t destination)
{
    const uint64_t key = (static_cast<uint64_t>(destination) << 32) | node;
    const uint64_t z = Mix64(Mix64(seed) ^ key);
    return static_cast<double>(z >> 11) * 0x1.0p-53;
}

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
 * - RANDOM_SHORTEST_PATH also sums the path counts of the closer neighbours, in increasing id
 *   order, into the node's own count (the canonical order that LazyRandomTree repeats, so both
 *   give bit-identical counts and choices), then scans the row once more to pick the next hop.
 *
 * This is Boost's breadth_first_visit with the visitor events inlined, and written without
 * data-dependent branches: whether a neighbour is new, closer or farther is a coin flip for the
 * branch predictor, and mispredictions cost more than the arc itself. Every arc therefore
 * stores the (possibly unchanged) distance, writes the queue slot and advances the tail by 0 or
 * 1, and selects the next hop with conditional moves. The queue has one spare slot for the
 * write after the last discovery.
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
        [[maybe_unused]] double su = 0;
        auto [begin, end] = boost::out_edges(u, g);
        for (auto it = begin; it != end; ++it)
        {
            const uint32_t v = boost::target(*it, g);
            const uint32_t dv = dist[v];
            const uint32_t fresh = (dv == NONE) ? 1 : 0;
            const uint32_t closer = (dv + 1 == du) ? 1 : 0;
            dist[v] = fresh ? child : dv;
            queue[tail] = v;
            tail += fresh;
            if constexpr (RANDOM)
            {
                su += closer ? sigma[v] : 0.0;
            }
            else
            {
                const uint32_t take = closer & (found ^ 1);
                found |= take;
                hop = take ? v : hop;
                circuit = take ? g[*it] : circuit;
            }
        }
        if constexpr (RANDOM)
        {
            if (u == t)
            {
                sigma[u] = 1.0;
                continue;
            }
            sigma[u] = su;
            const double target = Hash01(seed, u, t) * su;
            double cumulative = 0;
            uint32_t lastHop = NONE;
            uint32_t lastCircuit = NONE;
            for (auto it = begin; it != end; ++it)
            {
                const uint32_t v = boost::target(*it, g);
                const uint32_t closer = (dist[v] + 1 == du) ? 1 : 0;
                cumulative += closer ? sigma[v] : 0.0;
                const uint32_t take = closer & (found ^ 1) & ((cumulative > target) ? 1 : 0);
                found |= take;
                hop = take ? v : hop;
                circuit = take ? g[*it] : circuit;
                lastHop = closer ? v : lastHop;
                lastCircuit = closer ? g[*it] : lastCircuit;
            }
            // target * sigma can round up to sigma itself: then the last closer neighbour
            hop = found ? hop : lastHop;
            circuit = found ? circuit : lastCircuit;
        }
        if (u != t)
        {
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

const std::vector<EnumEntry<RoutingRule>>&
EnumTable<RoutingRule>::Get()
{
    static const std::vector<EnumEntry<RoutingRule>> names = {
        {RoutingRule::SHORTEST_PATH, "shortest-path", {}},
        {RoutingRule::RANDOM_SHORTEST_PATH, "random-shortest-path", {}},
        {RoutingRule::ECMP, "ecmp", {}},
    };
    return names;
}

uint64_t
DeriveRoutingSeed(uint64_t run)
{
    NS_LOG_FUNCTION(run);
    return Random::Create(run, Stream::ROUTING).Bits64();
}

ShortestPathRouting::ShortestPathRouting(std::shared_ptr<const CircuitGraph> graph,
                                         RoutingRule rule,
                                         uint64_t seed)
    : m_graph(std::move(graph)),
      m_rule(rule),
      m_seed(seed)
{
    NS_LOG_FUNCTION(this << static_cast<int>(rule) << seed);
    if (!m_graph)
    {
        ThrowBadParameter("graph", "null", "ShortestPathRouting needs a circuit graph");
    }
    if (rule != RoutingRule::SHORTEST_PATH && rule != RoutingRule::RANDOM_SHORTEST_PATH &&
        rule != RoutingRule::ECMP)
    {
        ThrowBadParameter("routing",
                          std::to_string(static_cast<int>(rule)),
                          "allowed values are shortest-path, random-shortest-path and ecmp");
    }
}

ShortestPathRouting::ShortestPathRouting(const CircuitGraph& graph, RoutingRule rule, uint64_t seed)
    : ShortestPathRouting(std::make_shared<const CircuitGraph>(graph), rule, seed)
{
}

ShortestPathRouting::ShortestPathRouting(CircuitGraph&& graph, RoutingRule rule, uint64_t seed)
    : ShortestPathRouting(std::make_shared<const CircuitGraph>(std::move(graph)), rule, seed)
{
}

const CircuitGraph&
ShortestPathRouting::GetGraph() const
{
    return *m_graph;
}

const std::shared_ptr<const CircuitGraph>&
ShortestPathRouting::GetGraphPtr() const
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
    return Hash01(seed, node, destination);
}

void
ShortestPathRouting::ComputeTree(uint32_t destination, DestinationTree& tree) const
{
    NS_LOG_FUNCTION(this << destination);
    const uint32_t n = m_graph->GetNNodes();
    CheckNode("destination", destination, n);
    switch (m_rule)
    {
    case RoutingRule::SHORTEST_PATH:
        SearchFrom<RoutingRule::SHORTEST_PATH>(m_graph->GetGraph(), n, destination, m_seed, tree);
        break;
    case RoutingRule::RANDOM_SHORTEST_PATH:
        SearchFrom<RoutingRule::RANDOM_SHORTEST_PATH>(m_graph->GetGraph(),
                                                      n,
                                                      destination,
                                                      m_seed,
                                                      tree);
        break;
    case RoutingRule::ECMP:
        // ECMP's tree is the plain BFS; its lowest-id next hops come for free
        SearchFrom<RoutingRule::ECMP>(m_graph->GetGraph(), n, destination, m_seed, tree);
        break;
    }
}

void
ShortestPathRouting::ComputeTrees(const std::vector<uint32_t>& destinations,
                                  std::vector<DestinationTree>& trees) const
{
    NS_LOG_FUNCTION(this << destinations.size());
    const uint32_t n = m_graph->GetNNodes();
    for (uint32_t t : destinations)
    {
        CheckNode("destination", t, n);
    }
    trees.resize(destinations.size());
    if (m_rule == RoutingRule::RANDOM_SHORTEST_PATH)
    {
        NS_LOG_LOGIC("random-shortest-path: one search per destination");
        for (std::size_t i = 0; i < destinations.size(); ++i)
        {
            ComputeTree(destinations[i], trees[i]);
        }
        return;
    }
    NS_LOG_LOGIC("batched searches of up to " << BATCH << " destinations");
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
                                      TreeBatch& batch,
                                      bool nextHops) const
{
    NS_LOG_FUNCTION(this << count << &batch << nextHops);
    const uint32_t n = m_graph->GetNNodes();
    const CircuitGraph::Graph& g = m_graph->GetGraph();
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
    const std::size_t cells = static_cast<std::size_t>(n) * count;
    if (batch.m_graph != m_graph)
    {
        batch.m_graph = m_graph;
    }
    batch.m_nodes = n;
    batch.m_destinations.assign(destinations, destinations + count);
    batch.m_reached.assign(n, 0);
    // cells are written where reached and read only there: no fill needed
    batch.m_narrow.resize(cells);
    batch.m_wide.clear();
    batch.m_hasNextHops = nextHops;
    if (nextHops)
    {
        batch.m_entries.resize(cells);
    }
    else
    {
        batch.m_entries.clear();
    }
    uint64_t* seen = batch.m_reached.data();
    uint8_t* narrow = batch.m_narrow.data();
    uint32_t* wide = nullptr;
    TreeBatch::Entry* entries = batch.m_entries.data();
    std::vector<uint64_t> frontier(n, 0);
    std::vector<uint64_t> nextFrontier(n, 0);
    for (uint32_t b = 0; b < count; ++b)
    {
        const uint32_t t = destinations[b];
        seen[t] |= uint64_t{1} << b;
        frontier[t] |= uint64_t{1} << b;
        narrow[static_cast<std::size_t>(t) * count + b] = 0;
        if (nextHops)
        {
            entries[static_cast<std::size_t>(t) * count + b] = {t, NONE};
        }
    }
    const uint64_t all = count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
    for (uint32_t level = 1;; ++level)
    {
        if (level == 255)
        {
            // deeper than a byte holds: continue with 32-bit distances
            NS_LOG_LOGIC("level 255 reached: widening the distances to 32 bits");
            batch.m_wide.assign(batch.m_narrow.begin(), batch.m_narrow.end());
            std::vector<uint8_t>().swap(batch.m_narrow);
            wide = batch.m_wide.data();
        }
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
            const uint64_t fresh = reach & ~s;
            nextFrontier[v] = fresh;
            if (fresh == 0)
            {
                continue;
            }
            grew = true;
            seen[v] = s | fresh;
            const std::size_t row = static_cast<std::size_t>(v) * count;
            if (wide == nullptr)
            {
                for (uint64_t x = fresh; x != 0; x &= x - 1)
                {
                    narrow[row + LowestBit(x)] = static_cast<uint8_t>(level);
                }
            }
            else
            {
                for (uint64_t x = fresh; x != 0; x &= x - 1)
                {
                    wide[row + LowestBit(x)] = level;
                }
            }
            if (!nextHops)
            {
                continue;
            }
            // every fresh bit is in some neighbour's frontier word: the scan ends in the row
            uint64_t left = fresh;
            for (auto it = begin; left != 0; ++it)
            {
                uint64_t x = frontier[boost::target(*it, g)] & left;
                if (x == 0)
                {
                    continue;
                }
                left &= ~x;
                const TreeBatch::Entry e{boost::target(*it, g), g[*it]};
                do
                {
                    entries[row + LowestBit(x)] = e;
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
TreeBatch::GetDistance(uint32_t node, uint32_t slot) const
{
    if (node >= m_nodes || slot >= GetSize())
    {
        throw Error("TreeBatch: node " + std::to_string(node) + " or slot " + std::to_string(slot) +
                    " out of range");
    }
    return IsReached(node, slot) ? Distance(node, slot) : NONE;
}

uint32_t
TreeBatch::GetNextHop(uint32_t node, uint32_t slot) const
{
    if (!m_hasNextHops)
    {
        throw Error("TreeBatch: computed without next hops");
    }
    return GetDistance(node, slot) == NONE ? NONE : At(node, slot).nextHop;
}

uint32_t
TreeBatch::GetNextCircuit(uint32_t node, uint32_t slot) const
{
    if (!m_hasNextHops)
    {
        throw Error("TreeBatch: computed without next hops");
    }
    return GetDistance(node, slot) == NONE ? NONE : At(node, slot).nextCircuit;
}

void
TreeBatch::ExtractTree(uint32_t slot, DestinationTree& tree) const
{
    const uint32_t n = m_nodes;
    if (slot >= GetSize())
    {
        ThrowBadParameter("slot", std::to_string(slot), "< " + std::to_string(GetSize()));
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
        if (!IsReached(v, slot))
        {
            continue;
        }
        const uint32_t d = Distance(v, slot);
        tree.distance[v] = d;
        if (m_hasNextHops)
        {
            tree.nextHop[v] = At(v, slot).nextHop;
            tree.nextCircuit[v] = At(v, slot).nextCircuit;
        }
        if (perLevel.size() <= d + 1)
        {
            perLevel.resize(d + 2, 0);
        }
        ++perLevel[d + 1];
    }
    if (!m_hasNextHops)
    {
        // the lowest-id closer neighbour: the first one in the sorted CSR row
        const CircuitGraph::Graph& g = m_graph->GetGraph();
        tree.nextHop[tree.destination] = tree.destination;
        for (uint32_t v = 0; v < n; ++v)
        {
            const uint32_t d = tree.distance[v];
            if (d == NONE || d == 0)
            {
                continue;
            }
            for (auto [it, end] = boost::out_edges(v, g); it != end; ++it)
            {
                if (tree.distance[boost::target(*it, g)] + 1 == d)
                {
                    tree.nextHop[v] = boost::target(*it, g);
                    tree.nextCircuit[v] = g[*it];
                    break;
                }
            }
        }
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
    const CircuitGraph::Graph& g = m_graph->GetGraph();
    CheckNode("node", node, m_graph->GetNNodes());
    if (tree.distance.size() != m_graph->GetNNodes())
    {
        throw Error("GetCloserNeighbours: the tree was not computed on this graph");
    }
    const uint32_t du = tree.distance[node];
    if (du == NONE || du == 0)
    {
        throw Error("GetCloserNeighbours: node " + std::to_string(node) +
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
    NS_LOG_FUNCTION(this << src << dst);
    const uint32_t n = m_graph->GetNNodes();
    CheckNode("src", src, n);
    CheckNode("dst", dst, n);
    if (m_rule == RoutingRule::ECMP)
    {
        throw Error("GetPath: routing = ecmp has no single path; use GetCloserNeighbours()");
    }
    DestinationTree tree;
    ComputeTree(dst, tree);
    if (tree.distance[src] == NONE)
    {
        throw Error("GetPath: node " + std::to_string(dst) + " cannot be reached from node " +
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

void
ShortestPathRouting::ComputeNextHops(uint32_t destination, std::vector<NextHop>& hops) const
{
    NS_LOG_FUNCTION(this << destination);
    DestinationTree tree;
    ComputeTree(destination, tree);
    const uint32_t n = m_graph->GetNNodes();
    hops.resize(n);
    for (uint32_t u = 0; u < n; ++u)
    {
        hops[u] = NextHop{tree.nextHop[u], tree.nextCircuit[u]};
    }
}

std::vector<NextHop>
ShortestPathRouting::ComputeNextHopTable() const
{
    NS_LOG_FUNCTION(this);
    const uint64_t n = m_graph->GetNNodes();
    std::vector<NextHop> table(n * n);
    std::vector<uint32_t> destinations;
    std::vector<DestinationTree> trees;
    for (uint32_t first = 0; first < n; first += BATCH)
    {
        destinations.clear();
        for (uint32_t t = first; t < std::min<uint64_t>(n, first + BATCH); ++t)
        {
            destinations.push_back(t);
        }
        ComputeTrees(destinations, trees);
        for (std::size_t i = 0; i < destinations.size(); ++i)
        {
            for (uint32_t u = 0; u < n; ++u)
            {
                table[u * n + destinations[i]] =
                    NextHop{trees[i].nextHop[u], trees[i].nextCircuit[u]};
            }
        }
    }
    return table;
}

LazyRandomTree::LazyRandomTree(const ShortestPathRouting& routing)
    : m_owner(routing.GetGraphPtr()),
      m_graph(&m_owner->GetGraph()),
      m_seed(routing.GetSeed()),
      m_stamp(routing.GetGraph().GetNNodes(), 0),
      m_count(routing.GetGraph().GetNNodes(), 0.0),
      m_hopStamp(routing.GetGraph().GetNNodes(), 0),
      m_hop(routing.GetGraph().GetNNodes(), NONE),
      m_hopCircuit(routing.GetGraph().GetNNodes(), NONE)
{
    NS_LOG_FUNCTION(this << &routing);
}

void
LazyRandomTree::Reset(std::shared_ptr<const TreeBatch> batch, uint32_t slot)
{
    if (!batch || batch->GetGraph() != m_owner)
    {
        throw Error("LazyRandomTree::Reset: the batch was not computed on the routing's "
                    "graph (null batch, or another graph object)");
    }
    if (slot >= batch->GetSize())
    {
        ThrowBadParameter("slot",
                          std::to_string(slot),
                          "the batch has " + std::to_string(batch->GetSize()) + " slots");
    }
    if (m_batch != batch)
    {
        m_batch = std::move(batch);
    }
    m_slot = slot;
    m_destination = m_batch->GetDestination(slot);
    if (++m_epoch == 0)
    {
        std::fill(m_stamp.begin(), m_stamp.end(), 0);
        std::fill(m_hopStamp.begin(), m_hopStamp.end(), 0);
        m_epoch = 1;
    }
    m_stamp[m_destination] = m_epoch;
    m_count[m_destination] = 1.0;
}

double
LazyRandomTree::GetPathCount(uint32_t node)
{
    if (m_epoch == 0)
    {
        throw Error("LazyRandomTree: call Reset() before GetPathCount()");
    }
    if (m_stamp[node] == m_epoch)
    {
        return m_count[node];
    }
    const TreeBatch& batch = *m_batch;
    const CircuitGraph::Graph& graph = *m_graph;
    const uint32_t slot = m_slot;
    m_stack.clear();
    m_stack.push_back(node);
    while (!m_stack.empty())
    {
        const uint32_t x = m_stack.back();
        if (m_stamp[x] == m_epoch)
        {
            m_stack.pop_back();
            continue;
        }
        const uint32_t dx = batch.Distance(x, slot);
        bool ready = true;
        double sum = 0;
        for (auto [it, end] = boost::out_edges(x, graph); it != end; ++it)
        {
            const uint32_t v = boost::target(*it, graph);
            if (batch.Distance(v, slot) + 1 != dx)
            {
                continue;
            }
            if (m_stamp[v] != m_epoch)
            {
                m_stack.push_back(v);
                ready = false;
            }
            else
            {
                sum += m_count[v];
            }
        }
        if (ready)
        {
            // every closer neighbour was known: sum is their total in increasing id order
            m_count[x] = sum;
            m_stamp[x] = m_epoch;
            m_stack.pop_back();
        }
    }
    return m_count[node];
}

uint32_t
LazyRandomTree::Step(uint32_t node, uint32_t& circuit)
{
    if (m_epoch == 0)
    {
        throw Error("LazyRandomTree: call Reset() before Step()");
    }
    if (m_hopStamp[node] == m_epoch)
    {
        circuit = m_hopCircuit[node];
        return m_hop[node];
    }
    const TreeBatch& batch = *m_batch;
    const CircuitGraph::Graph& graph = *m_graph;
    const uint32_t du = batch.Distance(node, m_slot);
    auto [begin, end] = boost::out_edges(node, graph);
    uint32_t closer = 0;
    uint32_t hop = NONE;
    for (auto it = begin; it != end; ++it)
    {
        const uint32_t v = boost::target(*it, graph);
        if (batch.Distance(v, m_slot) + 1 == du)
        {
            ++closer;
            hop = v;
            circuit = graph[*it];
        }
    }
    if (closer > 1)
    {
        // ComputeTree()'s rule; with a single closer neighbour it picks that one whatever the
        // counts, so they are only computed here
        const double target = Hash01(m_seed, node, m_destination) * GetPathCount(node);
        double cumulative = 0;
        for (auto it = begin; it != end; ++it)
        {
            const uint32_t v = boost::target(*it, graph);
            if (batch.Distance(v, m_slot) + 1 != du)
            {
                continue;
            }
            cumulative += m_count[v];
            if (cumulative > target)
            {
                hop = v;
                circuit = graph[*it];
                break;
            }
        }
        // if the loop ran out (target * count rounded up to count), hop and circuit are still
        // the last closer neighbour's
    }
    m_hopStamp[node] = m_epoch;
    m_hop[node] = hop;
    m_hopCircuit[node] = circuit;
    return hop;
}

} // namespace mose
} // namespace ns3
