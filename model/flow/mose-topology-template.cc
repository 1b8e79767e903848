/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mose-topology-template.h"

#include "mose-circuit-keeping.h"

#include "ns3/log.h"
#include "ns3/mose-error.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <utility>

/*
 * Why the generators are written here rather than taken from Boost.Graph: Boost's random graph
 * generators (erdos_renyi_iterator, sorted_erdos_renyi_iterator, plod_iterator,
 * small_world_iterator, generate_random_graph) produce Erdos-Renyi, power-law or small-world
 * graphs; none of them produces a regular graph, and Boost has no random regular generator.
 * Every template also needs things no generic generator offers: reserved P-D ports, a forbidden
 * P-D residual, the assignment circuits kept in place, and draws from ns-3's RNG streams so that
 * --RngRun reproduces the same graph on every machine.
 *
 * The building block is the pairing (configuration) model: every node contributes as many
 * "stubs" (port ends) as it has free ports, the stubs are shuffled with Random::Shuffle and
 * consecutive stubs are paired into circuits. The result is a uniformly random pairing, which
 * may contain self-loops and repeated circuits. Rejecting the whole pairing until it is simple
 * would be exact but slow: the pairing is simple with probability about exp(-(d^2 - 1) / 4),
 * 2.4% at d = 4 and 1.4e-7 at d = 8. Instead every bad circuit is repaired by a
 * degree-preserving double-edge switch with a randomly chosen other circuit,
 * (a, b), (x, y) -> (a, x), (b, y), accepted only if the two new circuits are no self-loop,
 * repeat no existing circuit and obey the part's role rule. Each accepted switch removes a bad
 * circuit and creates none, so the repair ends; the number of switch attempts is bounded, and a
 * pairing that cannot be repaired in time is drawn again. This is the McKay-Wormald idea of
 * switching away the few defects of a pairing, without their rejection steps: the result is
 * close to, not exactly, uniform: the defects are O(d^2) circuits out of N d / 2, so the bias
 * shrinks as N grows. It is visible only on tiny graphs: over 70,000 draws of N = 6, d = 3
 * (70 labelled graphs) the 10 labellings of K_{3,3} came out 13.6% of the time instead of
 * 1/7 = 14.3%. At N = 1024, d = 4 the mean shortest-path length over 20 runs is 5.656, as
 * expected of random 4-regular graphs. Connectivity is checked at the end
 * (CircuitGraph::IsConnected), and a disconnected graph is drawn again; at most maxAttempts
 * draws, then a mose::Error. A repair pass may try maxAttempts switches per bad circuit.
 *
 * Special cases of the uniform template: d = N - 1 is the complete graph; d = 2 is a uniformly
 * random Hamiltonian cycle (the pairing model almost never gives a connected 2-regular graph);
 * d = 1 is connected only for N = 2.
 *
 * The P-D-biased template reuses these pieces: the assignment pairs become circuits first, the
 * bipartite part is completed (circulant: a greedy ring scan over a "next free decode"
 * successor structure, O(d) amortised per prefill, with bounded bipartite switches if the scan
 * gets stuck; random: a random pairing of the reserved stubs with switch repairs that never move
 * an assignment circuit), and the residual ports are filled by the pairing model with P-D
 * circuits forbidden, so every P and D group keeps exactly its reserved number of P-D circuits.
 * The residual fill (with the bipartite part) is redrawn at most maxAttempts times.
 *
 * Data structures: during construction every node has a small array of at most d neighbour
 * ids (PortTable), so "is there already a circuit a-b" costs O(d) and a switch O(d). The
 * CircuitGraph, with its sort and CSR view, is built once per attempt at the end. Everything is
 * O(N d) expected per attempt (O(N d^2) with the duplicate scans).
 */

namespace ns3
{
namespace mose
{

NS_LOG_COMPONENT_DEFINE("MoseTopologyTemplate");

namespace
{

/// One circuit during construction (orientation matters only where a part says so)
struct Edge
{
    uint32_t a; //!< first end
    uint32_t b; //!< second end
};

/**
 * \brief Per-node neighbour multisets with room for `degree` entries each.
 *
 * A self-loop at v stores v twice in v's array, a repeated circuit stores the neighbour twice.
 */
class PortTable
{
  public:
    /**
     * \param nodes N
     * \param degree d, the capacity of every node
     */
    PortTable(uint32_t nodes, uint32_t degree)
        : m_degree(degree),
          m_neighbours(static_cast<std::size_t>(nodes) * degree),
          m_used(nodes, 0)
    {
    }

    /// \param v a node \return its number of used ports
    uint32_t Used(uint32_t v) const
    {
        return m_used[v];
    }

    /// \brief Stores w as a neighbour of v (one port end only).
    /// \param v the node \param w the neighbour
    void Push(uint32_t v, uint32_t w)
    {
        m_neighbours[Index(v) + m_used[v]++] = w;
    }

    /// \brief Adds a circuit a-b (both ends). \param a an end \param b the other end
    void Add(uint32_t a, uint32_t b)
    {
        Push(a, b);
        Push(b, a);
    }

    /// \param a a node \param b a node \return how often b occurs among a's neighbours
    uint32_t Count(uint32_t a, uint32_t b) const
    {
        const uint32_t* n = &m_neighbours[Index(a)];
        uint32_t count = 0;
        for (uint32_t k = 0; k < m_used[a]; ++k)
        {
            count += (n[k] == b) ? 1 : 0;
        }
        return count;
    }

    /// \brief Replaces the first occurrence of `from` among v's neighbours by `to`.
    /// \param v the node \param from the old neighbour \param to the new neighbour
    void Replace(uint32_t v, uint32_t from, uint32_t to)
    {
        uint32_t* n = &m_neighbours[Index(v)];
        for (uint32_t k = 0; k < m_used[v]; ++k)
        {
            if (n[k] == from)
            {
                n[k] = to;
                return;
            }
        }
    }

  private:
    /// \param v a node \return the start of its array
    std::size_t Index(uint32_t v) const
    {
        return static_cast<std::size_t>(v) * m_degree;
    }

    uint32_t m_degree;                  //!< d
    std::vector<uint32_t> m_neighbours; //!< N arrays of d neighbour ids
    std::vector<uint32_t> m_used;       //!< used entries per node
};

/**
 * \brief The double-edge switch (a, b), (x, y) -> (a, x), (y, b).
 *
 * e = (a, b) is taken as stored; f is read as (x, y) = (f.a, f.b), or reversed if `flip`.
 * Accepted only if the four ends are distinct (apart from a loop's two equal ends), the new
 * circuits are no loop, repeat no circuit and satisfy `allowed`. On success e becomes (a, x)
 * and f becomes (y, b): if e and f were stored (side1, side2) and f is flipped, both stay so.
 * \return true if the switch was made
 */
template <class Allowed>
bool
TrySwitch(PortTable& table, Edge& e, Edge& f, bool flip, const Allowed& allowed)
{
    uint32_t a = e.a;
    uint32_t b = e.b;
    uint32_t x = flip ? f.b : f.a;
    uint32_t y = flip ? f.a : f.b;
    if (a == x || a == y || b == x || b == y)
    {
        return false;
    }
    if (a == b && x == y)
    {
        return false; // two loops would become the circuit a-x twice
    }
    if (!allowed(a, x) || !allowed(b, y) || table.Count(a, x) != 0 || table.Count(b, y) != 0)
    {
        return false;
    }
    table.Replace(a, b, x);
    table.Replace(b, a, y);
    table.Replace(x, y, a);
    table.Replace(y, x, b);
    e = Edge{a, x};
    f = Edge{y, b};
    return true;
}

/**
 * \brief Repairs bad circuits (self-loops, repeats, circuits `allowed` forbids) by switches
 *        with circuits drawn uniformly from a pool.
 * \param table the port table holding every circuit
 * \param edges the circuits the bad ones and the pool index into
 * \param bad indices of circuits that may be bad (checked again when their turn comes)
 * \param pool indices of circuits that may take part in a switch
 * \param allowed the role rule for a new circuit
 * \param flip how to orient a pool circuit: called with the rng, returns the flip flag
 * \param rng the random stream
 * \param budget the most switch attempts
 * \return true if no bad circuit is left
 */
template <class Allowed, class Flip>
bool
RepairBySwitches(PortTable& table,
                 std::vector<Edge>& edges,
                 std::vector<uint32_t> bad,
                 const std::vector<uint32_t>& pool,
                 const Allowed& allowed,
                 const Flip& flip,
                 Random& rng,
                 uint64_t budget)
{
    auto isBad = [&](const Edge& e) {
        return e.a == e.b || !allowed(e.a, e.b) || table.Count(e.a, e.b) > 1;
    };
    NS_LOG_LOGIC("repairing up to " << bad.size() << " bad circuits with a pool of " << pool.size()
                                    << " and a budget of " << budget << " switch attempts");
    const uint64_t initialBudget = budget;
    while (!bad.empty())
    {
        uint32_t ei = bad.back();
        if (!isBad(edges[ei]))
        {
            bad.pop_back();
            continue;
        }
        if (pool.size() < 2)
        {
            NS_LOG_LOGIC("repair failed: a pool of " << pool.size() << " circuits has no partner");
            return false;
        }
        bool switched = false;
        while (!switched)
        {
            if (budget == 0)
            {
                NS_LOG_LOGIC("repair failed: switch budget exhausted with " << bad.size()
                                                                            << " circuits left");
                return false;
            }
            --budget;
            uint32_t fi = pool[rng.Index(static_cast<uint32_t>(pool.size()))];
            if (fi != ei)
            {
                switched = TrySwitch(table, edges[ei], edges[fi], flip(rng), allowed);
            }
        }
        bad.pop_back();
    }
    NS_LOG_LOGIC("repair done after " << initialBudget - budget << " switch attempts");
    return true;
}

/// \return a random orientation for a pool circuit
bool
RandomFlip(Random& rng)
{
    return rng.Index(2) == 1;
}

/// \return the switch budget for a repair of `bad` circuits with a per-circuit bound
uint64_t
SwitchBudget(uint32_t maxAttempts, std::size_t bad)
{
    return static_cast<uint64_t>(maxAttempts) * (bad + 1);
}

/// \return the circuits of edge lists, for the CircuitGraph
std::vector<Circuit>
ToCircuits(const std::vector<Edge>& first, const std::vector<Edge>& second = {})
{
    std::vector<Circuit> circuits;
    circuits.reserve(first.size() + second.size());
    for (const auto* list : {&first, &second})
    {
        for (const Edge& e : *list)
        {
            circuits.push_back(Circuit{std::min(e.a, e.b), std::max(e.a, e.b)});
        }
    }
    return circuits;
}

/// \return a check that always passes (no role rule)
bool
AnyCircuit(uint32_t, uint32_t)
{
    return true;
}

/**
 * \brief Fills every free port of `table` by the pairing model plus switch repairs.
 * \param table the port table; every node gets up to `degree` used ports
 * \param nodes N
 * \param degree d
 * \param allowed the role rule for new circuits (also applied to the repairs)
 * \param rng the random stream
 * \param maxAttempts per-circuit switch bound
 * \param out the new circuits are appended here
 * \return true if the fill is simple and obeys the rule
 */
template <class Allowed>
bool
PairFreePorts(PortTable& table,
              uint32_t nodes,
              uint32_t degree,
              const Allowed& allowed,
              Random& rng,
              uint32_t maxAttempts,
              std::vector<Edge>& out)
{
    std::vector<uint32_t> stubs;
    for (uint32_t v = 0; v < nodes; ++v)
    {
        stubs.insert(stubs.end(), degree - table.Used(v), v);
    }
    if (stubs.size() % 2 != 0)
    {
        NS_LOG_LOGIC("an odd number of free ports (" << stubs.size() << ") cannot be paired");
        return false;
    }
    NS_LOG_LOGIC("pairing " << stubs.size() << " free ports");
    rng.Shuffle(stubs);
    std::size_t first = out.size();
    for (std::size_t i = 0; i < stubs.size(); i += 2)
    {
        table.Add(stubs[i], stubs[i + 1]);
        out.push_back(Edge{stubs[i], stubs[i + 1]});
    }
    std::vector<uint32_t> pool;
    std::vector<uint32_t> bad;
    pool.reserve(out.size() - first);
    for (std::size_t i = first; i < out.size(); ++i)
    {
        const Edge& e = out[i];
        pool.push_back(static_cast<uint32_t>(i));
        if (e.a == e.b || !allowed(e.a, e.b) || table.Count(e.a, e.b) > 1)
        {
            bad.push_back(static_cast<uint32_t>(i));
        }
    }
    return RepairBySwitches(table,
                            out,
                            bad,
                            pool,
                            allowed,
                            RandomFlip,
                            rng,
                            SwitchBudget(maxAttempts, bad.size()));
}

/**
 * \brief The kept circuits one attempt of a rewiring-aware template starts from: all of them in
 *        the first attempt; after each failed attempt (a fill that could not be repaired, or a
 *        disconnected graph) a random further 1/32 of them (at least one) is released.
 * \param kept the circuits chosen to keep
 * \param attempt the attempt, from 0
 * \param rng the random stream (drawn from only after a failed attempt)
 * \return the circuits to keep in this attempt
 */
std::vector<Circuit>
KeptForAttempt(const std::vector<Circuit>& kept, uint32_t attempt, Random& rng)
{
    if (attempt == 0 || kept.empty())
    {
        return kept;
    }
    std::vector<Circuit> k = kept;
    rng.Shuffle(k);
    const std::size_t step = std::max<std::size_t>(1, kept.size() / 32);
    const std::size_t drop = std::min(k.size(), static_cast<std::size_t>(attempt) * step);
    k.erase(k.begin(), k.begin() + static_cast<std::ptrdiff_t>(drop));
    NS_LOG_LOGIC("attempt " << attempt + 1 << " releases " << drop << " of " << kept.size()
                            << " kept circuits");
    return k;
}

/**
 * \brief Adds circuits to the port table and to an edge list.
 * \param table the port table
 * \param circuits the circuits
 * \param out the list they are appended to
 */
void
AddCircuits(PortTable& table, const std::vector<Circuit>& circuits, std::vector<Edge>& out)
{
    for (const Circuit& c : circuits)
    {
        table.Add(c.u, c.v);
        out.push_back(Edge{c.u, c.v});
    }
}

/**
 * \brief Checks that a current graph fits a template's N: Error naming "current" otherwise.
 * \param current the graph
 * \param nodes N
 */
void
ValidateCurrent(const CircuitGraph& current, uint32_t nodes)
{
    if (current.GetNNodes() != nodes)
    {
        ThrowBadParameter("current",
                          "a circuit graph of " + std::to_string(current.GetNNodes()) + " groups",
                          "a rewiring-aware template keeps circuits of a graph of as many groups "
                          "as it has, nodes = " +
                              std::to_string(nodes));
    }
}

/// \return whether a and b are a prefill and a decode group (either way round)
bool
IsPdPair(const RoleAssignment& roles, uint32_t a, uint32_t b)
{
    GroupRole ra = roles.Get(a);
    GroupRole rb = roles.Get(b);
    return (ra == GroupRole::PREFILL && rb == GroupRole::DECODE) ||
           (ra == GroupRole::DECODE && rb == GroupRole::PREFILL);
}

/**
 * \brief "Next decode with a free reserved port" over the ring of decode indices: a
 *        union-find style successor structure with path halving. A full decode is removed
 *        once and skipped in O(1) amortised afterwards.
 */
class FreeSuccessor
{
  public:
    /// \param free per index, whether it is still free
    explicit FreeSuccessor(const std::vector<bool>& free)
        : m_next(free.size() + 1)
    {
        for (std::size_t i = 0; i < free.size(); ++i)
        {
            m_next[i] = free[i] ? static_cast<uint32_t>(i) : static_cast<uint32_t>(i + 1);
        }
        m_next[free.size()] = static_cast<uint32_t>(free.size());
    }

    /// \param i an index in [0, size] \return the first free index >= i, or size if none
    uint32_t Find(uint32_t i)
    {
        while (m_next[i] != i)
        {
            m_next[i] = m_next[m_next[i]];
            i = m_next[i];
        }
        return i;
    }

    /// \brief Marks an index full. \param i the index
    void Remove(uint32_t i)
    {
        m_next[i] = i + 1;
    }

  private:
    std::vector<uint32_t> m_next; //!< successor links; m_next[i] == i for a free i
};

/// Everything one attempt at a P-D-biased template needs
struct PdBuild
{
    const RoleAssignment& roles;       //!< roles
    uint32_t degree;                   //!< d
    const PdAssignment& assignment;    //!< the assignment pairs
    const PdBiasedOptions& options;    //!< options
    uint32_t rP;                       //!< reserved P-D ports per prefill
    uint32_t rD;                       //!< reserved P-D ports per decode
    std::vector<uint32_t> sideIndex;   //!< per node, its index within its role list
    std::vector<uint32_t> firstDecode; //!< per prefill, its first assigned decode (or UINT32_MAX)
    /// rewiring-aware: the current circuits (null: a fresh template)
    const CircuitGraph* current{nullptr};
    /// rewiring-aware: the current P-D circuits (under roles), which the bipartite part may keep
    std::vector<Circuit> currentPd;
    /// rewiring-aware: the current other circuits, which the residual part may keep
    std::vector<Circuit> currentOther;
};

constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max(); //!< no node

/**
 * \brief The circulant completion of the bipartite part (see BipartiteCompletion::CIRCULANT),
 *        with bounded switch repairs if the greedy scan gets stuck.
 * \param s the parameters of the build
 * \param table the port table
 * \param bip the bipartite circuits, stored (prefill, decode); completed here
 * \param fixed per bipartite circuit, whether it is an assignment circuit
 * \param freeRes per node, its free reserved ports; all reach 0 on success
 * \param rng the random stream
 * \return an empty string, or what failed
 */
std::string
CompleteCirculant(const PdBuild& s,
                  PortTable& table,
                  std::vector<Edge>& bip,
                  std::vector<bool>& fixed,
                  std::vector<uint32_t>& freeRes,
                  Random& rng)
{
    const std::vector<uint32_t>& prefill = s.roles.GetPrefill();
    const std::vector<uint32_t>& decode = s.roles.GetDecode();
    const auto nD = static_cast<uint32_t>(decode.size());
    std::vector<bool> isFree(nD);
    for (uint32_t j = 0; j < nD; ++j)
    {
        isFree[j] = freeRes[decode[j]] > 0;
    }
    FreeSuccessor next(isFree);
    // circuits that are not assignment circuits (the stuck repair prefers to move those)
    std::size_t unfixed = std::count(fixed.begin(), fixed.end(), false);
    auto connect = [&](uint32_t p, uint32_t j) {
        uint32_t dd = decode[j];
        table.Add(p, dd);
        bip.push_back(Edge{p, dd});
        fixed.push_back(false);
        ++unfixed;
        --freeRes[p];
        if (--freeRes[dd] == 0)
        {
            next.Remove(j);
        }
    };

    for (uint32_t p : prefill)
    {
        if (freeRes[p] == 0)
        {
            continue;
        }
        uint32_t start = s.firstDecode[p] != NONE ? (s.sideIndex[s.firstDecode[p]] + 1) % nD
                                                  : s.sideIndex[p] % nD;
        // the ring from `start`: [start, nD) then [0, start); only free decodes are visited,
        // and of those only ones already adjacent to p are passed over (fewer than d)
        for (int phase = 0; phase < 2 && freeRes[p] > 0; ++phase)
        {
            uint32_t hi = phase == 0 ? nD : start;
            for (uint32_t j = next.Find(phase == 0 ? start : 0); j < hi && freeRes[p] > 0;
                 j = next.Find(j + 1))
            {
                if (table.Count(p, decode[j]) == 0)
                {
                    connect(p, j);
                }
            }
        }

        // Stuck: p still has free reserved ports, but every decode with a free port is already
        // its neighbour. Switch: remove a bipartite circuit (p2, d2) (not an assignment circuit
        // if avoidable) and add (p, d2) and (p2, d') for a free decode d'.
        uint64_t budget = SwitchBudget(s.options.maxAttempts, freeRes[p]);
        while (freeRes[p] > 0)
        {
            NS_LOG_LOGIC("circulant scan stuck at prefill group "
                         << p << " with " << freeRes[p]
                         << " free reserved ports: bipartite switch, budget " << budget);
            std::vector<uint32_t> freeIdx; // at most d entries: all are p's neighbours
            for (uint32_t j = next.Find(0); j < nD; j = next.Find(j + 1))
            {
                freeIdx.push_back(j);
            }
            bool done = false;
            while (!done)
            {
                if (budget == 0 || freeIdx.empty())
                {
                    return "the circulant completion got stuck at prefill group " +
                           std::to_string(p) + " with " + std::to_string(freeRes[p]) +
                           " free reserved ports, and no bipartite switch frees a decode group";
                }
                --budget;
                uint32_t jPrime = freeIdx[rng.Index(static_cast<uint32_t>(freeIdx.size()))];
                uint32_t dPrime = decode[jPrime];
                uint32_t g = rng.Index(static_cast<uint32_t>(bip.size()));
                if (fixed[g] && unfixed > 0)
                {
                    continue;
                }
                uint32_t p2 = bip[g].a;
                uint32_t d2 = bip[g].b;
                if (p2 == p || d2 == dPrime || table.Count(p, d2) != 0 ||
                    table.Count(p2, dPrime) != 0)
                {
                    continue;
                }
                table.Replace(p2, d2, dPrime);
                table.Replace(d2, p2, p);
                table.Push(p, d2);
                table.Push(dPrime, p2);
                unfixed += fixed[g] ? 2 : 1;
                bip[g] = Edge{p, d2};
                fixed[g] = false;
                bip.push_back(Edge{p2, dPrime});
                fixed.push_back(false);
                --freeRes[p];
                if (--freeRes[dPrime] == 0)
                {
                    next.Remove(jPrime);
                }
                done = true;
            }
        }
    }
    return "";
}

/**
 * \brief The random completion of the bipartite part: the remaining reserved stubs of P and D
 *        are paired uniformly at random, repeats are repaired by switches within the
 *        non-assignment bipartite circuits.
 * \param s the parameters of the build
 * \param table the port table
 * \param bip the bipartite circuits, stored (prefill, decode); completed here
 * \param fixed per bipartite circuit, whether it is an assignment circuit
 * \param freeRes per node, its free reserved ports; all reach 0 on success
 * \param rng the random stream
 * \return an empty string, or what failed
 */
std::string
CompleteRandom(const PdBuild& s,
               PortTable& table,
               std::vector<Edge>& bip,
               const std::vector<bool>& fixed,
               std::vector<uint32_t>& freeRes,
               Random& rng)
{
    std::vector<uint32_t> pStubs;
    std::vector<uint32_t> dStubs;
    for (uint32_t p : s.roles.GetPrefill())
    {
        pStubs.insert(pStubs.end(), freeRes[p], p);
        freeRes[p] = 0;
    }
    for (uint32_t dd : s.roles.GetDecode())
    {
        dStubs.insert(dStubs.end(), freeRes[dd], dd);
        freeRes[dd] = 0;
    }
    if (pStubs.size() != dStubs.size())
    {
        return "the prefill and decode sides have different numbers of free reserved ports (" +
               std::to_string(pStubs.size()) + " and " + std::to_string(dStubs.size()) + ")";
    }
    NS_LOG_LOGIC("random completion: pairing " << pStubs.size() << " reserved port pairs");
    rng.Shuffle(dStubs);
    std::size_t first = bip.size();
    for (std::size_t i = 0; i < pStubs.size(); ++i)
    {
        table.Add(pStubs[i], dStubs[i]);
        bip.push_back(Edge{pStubs[i], dStubs[i]});
    }
    std::vector<uint32_t> pool;
    for (std::size_t i = 0; i < bip.size(); ++i)
    {
        if (i >= fixed.size() || !fixed[i])
        {
            pool.push_back(static_cast<uint32_t>(i));
        }
    }
    std::vector<uint32_t> bad;
    for (std::size_t i = first; i < bip.size(); ++i)
    {
        if (table.Count(bip[i].a, bip[i].b) > 1)
        {
            bad.push_back(static_cast<uint32_t>(i));
        }
    }
    // bipartite circuits are stored (prefill, decode); flipping the partner keeps it so
    bool ok = RepairBySwitches(
        table,
        bip,
        bad,
        pool,
        AnyCircuit,
        [](Random&) { return true; },
        rng,
        SwitchBudget(s.options.maxAttempts, bad.size()));
    return ok ? ""
              : "the random bipartite completion kept repeated P-D circuits after its switch "
                "repairs";
}

/**
 * \brief One attempt at the whole P-D-biased template.
 * \param s the parameters of the build
 * \param attempt the attempt, from 0 (a rewiring-aware build keeps fewer circuits in later ones)
 * \param rng the random stream
 * \param graph the result, if the attempt succeeded
 * \return an empty string, or what failed
 */
std::string
TryPdBiased(const PdBuild& s, uint32_t attempt, Random& rng, CircuitGraph& graph)
{
    const RoleAssignment& roles = s.roles;
    const uint32_t n = roles.GetN();
    PortTable table(n, s.degree);
    std::vector<uint32_t> freeRes(n, 0);
    for (uint32_t p : roles.GetPrefill())
    {
        freeRes[p] = s.rP;
    }
    for (uint32_t dd : roles.GetDecode())
    {
        freeRes[dd] = s.rD;
    }

    // (2) the assignment pairs, in order, while both ends have reserved ports
    std::vector<Edge> bip;
    std::vector<bool> fixed;
    bip.reserve(static_cast<std::size_t>(roles.GetPrefill().size()) * s.rP);
    for (const PdPair& pair : s.assignment.GetPairs())
    {
        if (freeRes[pair.prefill] > 0 && freeRes[pair.decode] > 0 &&
            table.Count(pair.prefill, pair.decode) == 0)
        {
            table.Add(pair.prefill, pair.decode);
            bip.push_back(Edge{pair.prefill, pair.decode});
            fixed.push_back(true);
            --freeRes[pair.prefill];
            --freeRes[pair.decode];
        }
    }

    NS_LOG_LOGIC(bip.size() << " of " << s.assignment.GetPairs().size()
                            << " assignment pairs placed as circuits");

    // (2b) rewiring-aware, random completion: current P-D circuits fill reserved ports next
    // (the circulant completion is fixed by the assignment, so it keeps nothing of its own)
    if (s.current != nullptr && s.options.completion == BipartiteCompletion::RANDOM)
    {
        std::vector<Circuit> candidates;
        for (const Circuit& c : s.currentPd)
        {
            if (table.Count(c.u, c.v) == 0)
            {
                candidates.push_back(c);
            }
        }
        for (const Circuit& c :
             KeptForAttempt(SelectKeptCircuits(n, candidates, freeRes), attempt, rng))
        {
            uint32_t p = roles.Get(c.u) == GroupRole::PREFILL ? c.u : c.v;
            uint32_t dd = p == c.u ? c.v : c.u;
            table.Add(p, dd);
            bip.push_back(Edge{p, dd});
            fixed.push_back(true);
            --freeRes[p];
            --freeRes[dd];
        }
    }

    // (3) completion of the bipartite part
    std::string problem = s.options.completion == BipartiteCompletion::CIRCULANT
                              ? CompleteCirculant(s, table, bip, fixed, freeRes, rng)
                              : CompleteRandom(s, table, bip, fixed, freeRes, rng);
    if (!problem.empty())
    {
        return problem;
    }

    // (4) residual fill: no P-D circuit, so the bipartite part stays exactly r(-bi)regular
    auto notPd = [&roles](uint32_t a, uint32_t b) { return !IsPdPair(roles, a, b); };
    std::vector<Edge> residual;
    if (s.current != nullptr)
    {
        // rewiring-aware: current non-P-D circuits on the residual ports first
        std::vector<uint32_t> budget(n);
        for (uint32_t v = 0; v < n; ++v)
        {
            budget[v] = s.degree - table.Used(v);
        }
        std::vector<Edge> kept;
        AddCircuits(table,
                    KeptForAttempt(SelectKeptCircuits(n, s.currentOther, budget), attempt, rng),
                    kept);
        bip.insert(bip.end(), kept.begin(), kept.end());
    }
    if (!PairFreePorts(table, n, s.degree, notPd, rng, s.options.maxAttempts, residual))
    {
        return "the residual ports could not be paired without self-loops, repeated circuits or "
               "P-D circuits within the switch bound";
    }
    graph = CircuitGraph(n, ToCircuits(bip, residual));
    if (!graph.IsConnected())
    {
        return "the graph was not connected (" + std::to_string(graph.CountComponents()) +
               " components)";
    }
    return "";
}

} // namespace

const std::vector<EnumEntry<BipartiteCompletion>>&
EnumTable<BipartiteCompletion>::Get()
{
    static const std::vector<EnumEntry<BipartiteCompletion>> names = {
        {BipartiteCompletion::RANDOM, "random", {}},
        {BipartiteCompletion::CIRCULANT, "circulant", {}},
    };
    return names;
}

void
ValidateRegularParameters(uint32_t nodes, uint32_t degree)
{
    NS_LOG_FUNCTION(nodes << degree);
    if (nodes < 2)
    {
        ThrowBadParameter("nodes",
                          std::to_string(nodes),
                          "a circuit graph needs at least 2 groups");
    }
    if (degree < 1 || degree >= nodes)
    {
        ThrowBadParameter("degree",
                          std::to_string(degree),
                          "need 1 <= degree < nodes = " + std::to_string(nodes));
    }
    if ((static_cast<uint64_t>(nodes) * degree) % 2 != 0)
    {
        ThrowBadParameter("degree",
                          std::to_string(degree),
                          "nodes * degree = " + std::to_string(nodes) + " * " +
                              std::to_string(degree) +
                              " is odd; every circuit uses two ports, so nodes * degree must be "
                              "even");
    }
    if (static_cast<uint64_t>(nodes) * degree > UINT32_MAX)
    {
        ThrowBadParameter("degree",
                          std::to_string(degree),
                          "nodes * degree = " + std::to_string(nodes) + " * " +
                              std::to_string(degree) + " = " +
                              std::to_string(static_cast<uint64_t>(nodes) * degree) +
                              " ports exceed 4294967295 (ports and circuits have 32-bit indices)");
    }
}

CircuitGraph
BuildUniformTemplate(uint32_t nodes, uint32_t degree, Random& rng, uint32_t maxAttempts)
{
    NS_LOG_FUNCTION(nodes << degree << &rng << maxAttempts);
    ValidateRegularParameters(nodes, degree);
    if (maxAttempts == 0)
    {
        ThrowBadParameter("maxAttempts", "0", "need at least 1 attempt");
    }
    if (degree == nodes - 1)
    {
        // the complete graph is the only (N-1)-regular graph
        NS_LOG_LOGIC("degree = nodes - 1: the complete graph");
        std::vector<Circuit> circuits;
        for (uint32_t u = 0; u < nodes; ++u)
        {
            for (uint32_t v = u + 1; v < nodes; ++v)
            {
                circuits.push_back(Circuit{u, v});
            }
        }
        return CircuitGraph(nodes, std::move(circuits));
    }
    if (degree == 1)
    {
        ThrowBadParameter("degree",
                          "1",
                          "a 1-regular graph is a perfect matching, connected only for nodes = 2, "
                          "got nodes = " +
                              std::to_string(nodes));
    }
    if (degree == 2)
    {
        // The connected 2-regular graphs are the Hamiltonian cycles; a random node order gives
        // each of them with the same probability (2N orders per cycle). The pairing model would
        // almost always give several cycles here.
        NS_LOG_LOGIC("degree 2: a random Hamiltonian cycle");
        std::vector<uint32_t> order(nodes);
        for (uint32_t v = 0; v < nodes; ++v)
        {
            order[v] = v;
        }
        rng.Shuffle(order);
        std::vector<Circuit> circuits;
        for (uint32_t i = 0; i < nodes; ++i)
        {
            uint32_t a = order[i];
            uint32_t b = order[(i + 1) % nodes];
            circuits.push_back(Circuit{std::min(a, b), std::max(a, b)});
        }
        return CircuitGraph(nodes, std::move(circuits));
    }

    std::string problem;
    for (uint32_t attempt = 0; attempt < maxAttempts; ++attempt)
    {
        PortTable table(nodes, degree);
        std::vector<Edge> edges;
        edges.reserve(static_cast<std::size_t>(nodes) * degree / 2);
        if (!PairFreePorts(table, nodes, degree, AnyCircuit, rng, maxAttempts, edges))
        {
            problem = "self-loops or repeated circuits were left after the switch repairs";
            NS_LOG_LOGIC("uniform attempt " << attempt + 1 << " of " << maxAttempts
                                            << " failed, drawing again: " << problem);
            continue;
        }
        CircuitGraph graph(nodes, ToCircuits(edges));
        if (!graph.IsConnected())
        {
            problem = "the graph was not connected (" + std::to_string(graph.CountComponents()) +
                      " components)";
            NS_LOG_LOGIC("uniform attempt " << attempt + 1 << " of " << maxAttempts
                                            << " failed, drawing again: " << problem);
            continue;
        }
        NS_LOG_INFO("uniform template: " << graph.GetNCircuits() << " circuits, attempt "
                                         << attempt + 1 << " of " << maxAttempts);
        return graph;
    }
    throw Error("could not build a uniform template with nodes = " + std::to_string(nodes) +
                " and degree = " + std::to_string(degree) + " in maxAttempts = " +
                std::to_string(maxAttempts) + " attempts; in the last one " + problem);
}

namespace
{

/**
 * \brief The P-D-biased template, fresh (current null) or rewiring-aware: see
 *        BuildPdBiasedTemplate().
 * \param roles the roles
 * \param degree d
 * \param assignment the P-D pairs
 * \param options r, completion, biregular split, attempt bound
 * \param rng the random stream
 * \param current the current circuits, or null
 * \return the circuit graph
 */
CircuitGraph
BuildPdBiased(const RoleAssignment& roles,
              uint32_t degree,
              const PdAssignment& assignment,
              const PdBiasedOptions& options,
              Random& rng,
              const CircuitGraph* current)
{
    // (1) validation
    const uint32_t n = roles.GetN();
    ValidateRegularParameters(n, degree);
    if (current != nullptr)
    {
        ValidateCurrent(*current, n);
    }
    const uint32_t r = options.reservedPorts;
    const std::string rText = std::to_string(r);
    const std::string& rName = options.reservedPortsName;
    const std::string& biName = options.allowBiregularName;
    if (r > degree)
    {
        ThrowBadParameter(rName, rText, "need " + rName + " <= degree = " + std::to_string(degree));
    }
    if (options.maxAttempts == 0)
    {
        ThrowBadParameter("maxAttempts", "0", "need at least 1 attempt");
    }
    assignment.Validate(roles);
    if (r == 0)
    {
        NS_LOG_LOGIC(rName << " = 0: no reserved P-D ports, the uniform template");
        return current != nullptr
                   ? BuildUniformTemplate(n, degree, *current, roles, rng, options.maxAttempts)
                   : BuildUniformTemplate(n, degree, rng, options.maxAttempts);
    }

    const RoleCounts counts = roles.GetCounts();
    const std::string countText = "|P| = " + std::to_string(counts.prefill) +
                                  ", |D| = " + std::to_string(counts.decode) +
                                  ", |T| = " + std::to_string(counts.training);
    if (counts.prefill == 0 || counts.decode == 0)
    {
        ThrowBadParameter(rName,
                          rText,
                          "reserving P-D ports needs prefill and decode groups, got " + countText +
                              "; use " + rName + " = 0 for the uniform template");
    }
    uint32_t rP = r;
    uint32_t rD = r;
    if (counts.prefill != counts.decode)
    {
        if (!options.allowBiregular)
        {
            ThrowBadParameter(rName,
                              rText,
                              "an r-regular bipartite P-D part needs as many prefill as decode "
                              "groups, got " +
                                  countText + "; set " + biName + " for a biregular split or use " +
                                  rName + " = 0");
        }
        uint32_t small = std::min(counts.prefill, counts.decode);
        uint32_t large = std::max(counts.prefill, counts.decode);
        uint64_t product = static_cast<uint64_t>(r) * small;
        if (product % large != 0 || product / large == 0)
        {
            ThrowBadParameter(rName,
                              rText,
                              "the biregular split gives the larger side " + rName + " * " +
                                  std::to_string(small) + " / " + std::to_string(large) + " = " +
                                  std::to_string(product) + " / " + std::to_string(large) +
                                  " P-D ports, which must be a positive whole number (" +
                                  countText + ")");
        }
        auto rLarge = static_cast<uint32_t>(product / large);
        rP = counts.prefill < counts.decode ? r : rLarge;
        rD = counts.prefill < counts.decode ? rLarge : r;
        NS_LOG_LOGIC("biregular P-D split: " << rP << " reserved ports per prefill, " << rD
                                             << " per decode (" << countText << ")");
    }
    if (rP > counts.decode || rD > counts.prefill)
    {
        ThrowBadParameter(rName,
                          rText,
                          "r larger than the other side: every prefill group needs " +
                              std::to_string(rP) +
                              " distinct decode groups and every decode "
                              "group " +
                              std::to_string(rD) + " distinct prefill groups, got " + countText);
    }
    if (rP == degree && rD == degree && counts.training > 0)
    {
        ThrowBadParameter(rName,
                          rText,
                          rName + " = degree = " + std::to_string(degree) +
                              " leaves prefill and decode groups no port to reach the " +
                              std::to_string(counts.training) + " training groups; need " + rName +
                              " < degree");
    }
    const uint64_t residualP = static_cast<uint64_t>(counts.prefill) * (degree - rP);
    const uint64_t residualD = static_cast<uint64_t>(counts.decode) * (degree - rD);
    if ((residualP + residualD + static_cast<uint64_t>(counts.training) * degree) % 2 != 0)
    {
        ThrowBadParameter(rName,
                          rText,
                          "the residual ports (degree - " + rName +
                              " at P and D, degree at T) sum to an odd number (" + countText + ")");
    }
    if (counts.training == 0)
    {
        // without training groups, P's residual ports pair among P only, and D's among D
        for (auto [side, count, res] : {std::make_tuple("prefill", counts.prefill, degree - rP),
                                        std::make_tuple("decode", counts.decode, degree - rD)})
        {
            if ((static_cast<uint64_t>(count) * res) % 2 != 0 || (res > 0 && res >= count))
            {
                ThrowBadParameter(rName,
                                  rText,
                                  std::string("without training groups the ") + side +
                                      " groups' residual ports (" + std::to_string(res) +
                                      " each) must form a simple graph among the " +
                                      std::to_string(count) + " " + side +
                                      " groups, which is impossible (" + countText + ")");
            }
        }
    }

    PdBuild s{roles, degree, assignment, options, rP, rD, {}, {}, nullptr, {}, {}};
    s.sideIndex.assign(n, 0);
    for (const auto* list : {&roles.GetPrefill(), &roles.GetDecode(), &roles.GetTraining()})
    {
        for (uint32_t i = 0; i < list->size(); ++i)
        {
            s.sideIndex[(*list)[i]] = i;
        }
    }
    s.firstDecode.assign(n, NONE);
    for (const PdPair& pair : assignment.GetPairs())
    {
        if (s.firstDecode[pair.prefill] == NONE)
        {
            s.firstDecode[pair.prefill] = pair.decode;
        }
    }

    if (current != nullptr)
    {
        s.current = current;
        for (const Circuit& c : current->GetCircuits())
        {
            (IsPdPair(roles, c.u, c.v) ? s.currentPd : s.currentOther).push_back(c);
        }
        NS_LOG_LOGIC("rewiring-aware: " << s.currentPd.size() << " current P-D circuits, "
                                        << s.currentOther.size() << " others");
    }

    std::string problem;
    for (uint32_t attempt = 0; attempt < options.maxAttempts; ++attempt)
    {
        CircuitGraph graph;
        problem = TryPdBiased(s, attempt, rng, graph);
        if (problem.empty())
        {
            NS_LOG_INFO("P-D-biased template: " << graph.GetNCircuits() << " circuits, attempt "
                                                << attempt + 1 << " of " << options.maxAttempts);
            return graph;
        }
        NS_LOG_LOGIC("P-D-biased attempt " << attempt + 1 << " of " << options.maxAttempts
                                           << " failed, drawing again: " << problem);
    }
    throw Error("could not build a P-D-biased template (" + rName + " = " + rText +
                ", completion = " + ToString(options.completion) +
                ", degree = " + std::to_string(degree) + ", " + countText + ") in maxAttempts = " +
                std::to_string(options.maxAttempts) + " attempts; in the last one " + problem);
}

} // namespace

CircuitGraph
BuildPdBiasedTemplate(const RoleAssignment& roles,
                      uint32_t degree,
                      const PdAssignment& assignment,
                      const PdBiasedOptions& options,
                      Random& rng)
{
    NS_LOG_FUNCTION(roles.GetN() << degree << assignment.GetPairs().size() << options.reservedPorts
                                 << ToString(options.completion) << options.allowBiregular
                                 << options.maxAttempts << &rng);
    return BuildPdBiased(roles, degree, assignment, options, rng, nullptr);
}

CircuitGraph
BuildPdBiasedTemplate(const RoleAssignment& roles,
                      uint32_t degree,
                      const PdAssignment& assignment,
                      const PdBiasedOptions& options,
                      const CircuitGraph& current,
                      Random& rng)
{
    NS_LOG_FUNCTION(roles.GetN() << degree << assignment.GetPairs().size() << options.reservedPorts
                                 << ToString(options.completion) << options.allowBiregular
                                 << options.maxAttempts << current.GetNCircuits() << &rng);
    return BuildPdBiased(roles, degree, assignment, options, rng, &current);
}

CircuitGraph
BuildUniformTemplate(uint32_t nodes,
                     uint32_t degree,
                     const CircuitGraph& current,
                     const RoleAssignment& releasedPdRoles,
                     Random& rng,
                     uint32_t maxAttempts)
{
    NS_LOG_FUNCTION(nodes << degree << current.GetNCircuits() << releasedPdRoles.GetN() << &rng
                          << maxAttempts);
    ValidateRegularParameters(nodes, degree);
    ValidateCurrent(current, nodes);
    if (maxAttempts == 0)
    {
        ThrowBadParameter("maxAttempts", "0", "need at least 1 attempt");
    }
    const bool release = releasedPdRoles.GetN() != 0;
    if (release && releasedPdRoles.GetN() != nodes)
    {
        ThrowBadParameter("releasedPdRoles",
                          "roles of " + std::to_string(releasedPdRoles.GetN()) + " groups",
                          "roles of the template's nodes = " + std::to_string(nodes) +
                              " groups, or none");
    }
    if (degree == nodes - 1)
    {
        // the complete graph keeps every current circuit there is
        return BuildUniformTemplate(nodes, degree, rng, maxAttempts);
    }
    if (degree <= 2)
    {
        // d = 1 fails as the fresh template does; d = 2 needs a Hamiltonian cycle, which a
        // random fill around kept circuits would rarely close: both are drawn fresh
        NS_LOG_LOGIC("degree " << degree << ": drawn fresh");
        return BuildUniformTemplate(nodes, degree, rng, maxAttempts);
    }
    std::vector<Circuit> candidates;
    for (const Circuit& c : current.GetCircuits())
    {
        if (!release || !IsPdPair(releasedPdRoles, c.u, c.v))
        {
            candidates.push_back(c);
        }
    }
    const std::vector<Circuit> kept =
        SelectKeptCircuits(nodes, candidates, std::vector<uint32_t>(nodes, degree));
    NS_LOG_LOGIC("rewiring-aware uniform template: "
                 << candidates.size() << " candidates of " << current.GetNCircuits()
                 << " current circuits, " << kept.size() << " kept");
    std::string problem;
    for (uint32_t attempt = 0; attempt < maxAttempts; ++attempt)
    {
        PortTable table(nodes, degree);
        std::vector<Edge> keptEdges;
        AddCircuits(table, KeptForAttempt(kept, attempt, rng), keptEdges);
        std::vector<Edge> edges;
        if (!PairFreePorts(table, nodes, degree, AnyCircuit, rng, maxAttempts, edges))
        {
            problem = "self-loops or repeated circuits were left after the switch repairs";
            NS_LOG_LOGIC("attempt " << attempt + 1 << " failed: " << problem);
            continue;
        }
        CircuitGraph graph(nodes, ToCircuits(keptEdges, edges));
        if (!graph.IsConnected())
        {
            problem = "the graph was not connected (" + std::to_string(graph.CountComponents()) +
                      " components)";
            NS_LOG_LOGIC("attempt " << attempt + 1 << " failed: " << problem);
            continue;
        }
        NS_LOG_INFO("rewiring-aware uniform template: " << graph.GetNCircuits()
                                                        << " circuits, attempt " << attempt + 1);
        return graph;
    }
    throw Error("could not build a rewiring-aware uniform template with nodes = " +
                std::to_string(nodes) + " and degree = " + std::to_string(degree) +
                " in maxAttempts = " + std::to_string(maxAttempts) + " attempts; in the last one " +
                problem);
}

std::vector<uint32_t>
CountPdCircuits(const CircuitGraph& graph, const RoleAssignment& roles)
{
    NS_LOG_FUNCTION(graph.GetNNodes() << graph.GetNCircuits() << roles.GetN());
    if (graph.GetNNodes() != roles.GetN())
    {
        throw Error("CountPdCircuits: the graph has " + std::to_string(graph.GetNNodes()) +
                    " nodes but the roles name " + std::to_string(roles.GetN()));
    }
    std::vector<uint32_t> counts(roles.GetN(), 0);
    for (const Circuit& c : graph.GetCircuits())
    {
        GroupRole ru = roles.Get(c.u);
        GroupRole rv = roles.Get(c.v);
        if (ru != GroupRole::TRAINING && rv != GroupRole::TRAINING && ru != rv)
        {
            ++counts[c.u];
            ++counts[c.v];
        }
    }
    return counts;
}

} // namespace mose
} // namespace ns3
